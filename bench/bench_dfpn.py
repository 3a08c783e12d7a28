"""df-pn (``gyges.search._dfpn``) against the kernel (``gyges.search._search``), back to
back, in CPU seconds (figures in docs/solver.md, "A second prover: df-pn").

(a) The Rust engine's position under its rules: win in 6 proven by iterative deepening
    (1..6, one table), and k = 6 alone (fresh table).
(b) The cook search of that position at depth 6: for every first move of South, "does
    South still win within 5 after it, whatever North replies?" (``prover._keys`` asks
    ``winning_moves``, that is ``win(child, North, South, 5, [root])`` per move), one table
    per prover filled by (a)'s proof first, as ``solve`` does; the hardest move alone too.
(c) The start ``321123/....../....../....../....../231123 S`` under pbmserv: no win within 4
    for South, and none for North (fresh table each).
(d) The many small questions of puzzle generation: 200 candidates for wins in 3 made and
    judged, with the prover ``auto`` picks there (the kernel) and with df-pn
    (``gyges.search.policy.DFPN_FROM`` trades (a)-(b) against this).

Run: ``python -m bench dfpn`` (or ``python -m bench.bench_dfpn [a|b|c|d]``).
"""

from __future__ import annotations

import os
import sys
import time
from collections.abc import Callable

from bench import machine
from gyges.formats.notation import parse_move
from gyges.game.moves import apply_move, legal_moves
from gyges.game.position import Position
from gyges.game.rules import PRESETS, rules_from
from gyges.puzzles.generate import Params
from gyges.puzzles.generate.candidates import evaluate
from gyges.search import policy
from gyges.search._dfpn import DfpnSearcher
from gyges.search._search import Searcher

RUST_POSITION = "030100/000200/002000/021100/300300/002130 S"
RUST_RULES = ["rebounce=once", "null-move=allowed", "blocked=draw",
              "repetition=allowed"]  # Helios's rules (the helios preset) as gyges options
HARD_MOVE = "14-24x32=11"
START = "321123/....../....../....../....../231123 S"
PROVERS: dict[str, Callable[[int, int], Searcher | DfpnSearcher]] = {
    "kernel": Searcher, "df-pn": DfpnSearcher}



def cpu(f: Callable[[], bool]) -> tuple[bool, float]:
    t = time.process_time()
    r = f()
    return r, time.process_time() - t


def bench_rust() -> None:
    rules = rules_from("pbmserv", RUST_RULES)
    p = Position.from_string(RUST_POSITION)
    print(f"(a) {RUST_POSITION} under {' '.join(RUST_RULES)}: CPU s")
    print("  prover   deepening 1..6 (answers)       k=6 alone   nodes (k=6 alone)")
    for name, make in PROVERS.items():
        s = make(rules.flags(), 22)
        t = time.process_time()
        answers = "".join("W" if s.win(p.key, 0, 0, k) else "-" for k in range(1, 7))
        deep = time.process_time() - t
        fresh = make(rules.flags(), 22)
        won, alone = cpu(lambda fresh=fresh: fresh.win(p.key, 0, 0, 6))
        print(f"  {name:8s} {deep:8.2f}  ({answers})  {alone:18.2f}   {fresh.nodes}"
              + ("" if won and answers == "-----W" else "  WRONG"))


def bench_cooks() -> None:
    rules = rules_from("pbmserv", RUST_RULES)
    p = Position.from_string(RUST_POSITION)
    root = legal_moves(p, rules)
    children = [(str(m), apply_move(p, m).key) for m in root]
    print(f"(b) the cook search at depth 6: {len(children)} first moves, "
          "win(child, N, S, 5, [root]) each; CPU s")
    hardest: dict[str, list[tuple[float, str]]] = {}
    for name, make in PROVERS.items():
        s = make(rules.flags(), 22)
        for k in range(1, 7):
            s.win(p.key, 0, 0, k)                # the proof first, as solve does
        times = []
        keys = []
        t0 = time.process_time()
        for text, child in children:
            won, t = cpu(lambda s=s, child=child: s.win(child, 1, 0, 5, [p.key]))
            times.append((t, text))
            if won:
                keys.append(text)
        total = time.process_time() - t0
        hardest[name] = sorted(times, reverse=True)[:3]
        print(f"  {name:8s} all first moves {total:8.2f}  keys {keys}  hardest: "
              + ", ".join(f"{m} {t:.2f}" for t, m in hardest[name]))
    hard = apply_move(p, parse_move(HARD_MOVE, p, rules)).key
    for name, make in PROVERS.items():
        s = make(rules.flags(), 22)
        won, t = cpu(lambda s=s: s.win(hard, 1, 0, 5, [p.key]))
        print(f"  {name:8s} {HARD_MOVE} alone (fresh table): {'win' if won else 'no win'} "
              f"{t:8.2f}   nodes {s.nodes}")


def bench_start() -> None:
    rules = PRESETS["pbmserv"]
    p = Position.from_string(START)
    print(f"(c) {START} under pbmserv: win within 4? CPU s (fresh table each)")
    for winner, side in ((0, "South"), (1, "North")):
        row = []
        for name, make in PROVERS.items():
            s = make(rules.flags(), 22)
            won, t = cpu(lambda s=s, winner=winner: s.win(p.key, 0, winner, 4))
            row.append(f"{name} {'win' if won else 'no win'} {t:8.2f} ({s.nodes} nodes)")
        print(f"  {side:6s} " + "   ".join(row))


def bench_generation(count: int = 200) -> None:
    """Puzzle generation's many small questions: ``count`` candidates for wins in 3 made
    and judged (``evaluate``: the candidate search along a random game, then the solves
    that judge it), with the prover ``auto`` picks there (the kernel) and with df-pn,
    twice each in turn; the same candidates and verdicts (the ratings, which count
    nodes, differ)."""
    params = Params(3, PRESETS["pbmserv"], seed=2026, sources=("play",))
    print(f"(d) generation: {count} candidates for wins in 3 made and judged: CPU s")
    verdicts = set()
    for name, dfpn_from in (("kernel", policy.DFPN_FROM), ("df-pn", 3)) * 2:
        saved, policy.DFPN_FROM = policy.DFPN_FROM, dfpn_from
        try:
            t = time.process_time()
            got = [evaluate(i, params) for i in range(count)]
            print(f"  {name:8s} {time.process_time() - t:8.2f}  "
                  f"({sum(1 for r in got if r.sound)} sound)")
        finally:
            policy.DFPN_FROM = saved
        verdicts.add(tuple((r.canonical, r.key, r.sound) for r in got))
    if len(verdicts) != 1:
        print("  WRONG: the candidates or verdicts differ")


def main(argv: list[str] | None = None) -> None:
    which = argv or ["a", "b", "c", "d"]
    print(f"  {time.strftime('%Y-%m-%d %H:%M')} {machine()}")
    for key, f in (("a", bench_rust), ("b", bench_cooks), ("c", bench_start),
                   ("d", bench_generation)):
        if key in which:
            f()
    print(f"  load average after: {' '.join(f'{x:.1f}' for x in os.getloadavg())}")


if __name__ == "__main__":
    main(sys.argv[1:])
