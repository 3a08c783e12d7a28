"""The playing engine (``gyges.engine``): speed beside the peer engine Helios, strength in
games against it and between settings, the catalogue's keys in a second each (figures in
docs/engine.md).

- ``nps [SECONDS]``: nodes per second on the same positions, side by side: Helios (its
  last ``info ... nps`` line) on core 1, the builtin engine (no proofs) on core 0, each
  given SECONDS a position, alternating.
- ``match GAMES SECONDS [ENGINE] [--out FILE]``: ENGINE (default ``builtin``) against
  Helios under Helios's rules, from canonical setup pairs in the fixed order, each pair
  twice with the sides swapped, SECONDS a move, one core each; prints the tally as it
  goes and appends the games to FILE (JSON lines).
- ``versus A B GAMES [--depth D | --nodes N | --time S] [--rules peer|pbmserv]``: two
  engine texts against each other the same way (fixed depth or nodes: deterministic).
- ``puzzles [SECONDS]``: every win of the catalogue (wins in 1 to 5): is the key found
  within SECONDS (default 1), and how long the search took.

Helios is built by ``bash ../shared/peer/build.sh`` (docs/engine.md); without it the
comparisons are skipped. Run: ``python -m bench.bench_engine nps 1``;
``python -m bench engine`` runs ``nps`` and ``puzzles``.
"""

from __future__ import annotations

import argparse
import json
import os
import sys
import time
from pathlib import Path

from bench import machine
from gyges.engine import Limit, Options, Tally, analyse, open_player, openings, play_game
from gyges.engine.client import popen_ugi
from gyges.engine.match import PEER_RULES
from gyges.game.position import Position
from gyges.game.rules import PRESETS, rules_from
from gyges.puzzles.catalogue import load_catalogue
from gyges.search import solve

HELIOS = Path(os.environ.get("GYGES_PEER", "/tmp/peer/ugi/target/release/gyges_engine"))
PEER = rules_from("pbmserv", PEER_RULES)
ROOT = Path(__file__).resolve().parent.parent

#: Positions for the speed comparison: the start, the Rust engine's test position, and
#: positions from games of the builtin engine against itself (12 rings, as Helios needs).
POSITIONS = (
    "321123/....../....../....../....../231123 S",
    "030100/000200/002000/021100/300300/002130 S",
    ".21123/..3.../....../....3./....../23112. S",
    "2131../...1../...3../...2../..1.../3.223. S",
    "2..12./...1../..133./..13../..2.../..2.3. S",
    "12.31./....3./....../....../.2...1/.32231 S",
    "3...1./2.1.3./...2../....../.2.1.1/.323.. S",
    "2.312./1...../...13./....../...1../23.3.2 S",
    "..3.2./1...../...11./....3./..322./23..1. S",
)


def _pin(core: int) -> None:
    if hasattr(os, "sched_setaffinity") and (os.cpu_count() or 1) > core:
        os.sched_setaffinity(0, {core})


def _helios_command() -> list[str]:
    return ["taskset", "-c", "1", str(HELIOS)] if (os.cpu_count() or 1) > 1 else [str(HELIOS)]


def _helios_nps(position: Position, seconds: float) -> tuple[int, int]:
    """Helios's last ``info`` line on ``position``: (its nodes per second, ply)."""
    with popen_ugi(_helios_command()) as helios:
        a = helios.analyse(position, Limit(time=seconds))
    return a.nps, a.depth


def bench_nps(seconds: float = 1.0) -> None:
    print(f"nodes per second, {seconds:g} s a position, one core each  ({machine()})")
    print(f"  {'position':46s} {'Helios nps (ply)':>18s} {'gyges nps (depth)':>18s}")
    _pin(0)
    ratios = []
    for text in POSITIONS:
        p = Position.from_string(text)
        hn, hd = _helios_nps(p, seconds) if HELIOS.exists() else (0, 0)
        a = analyse(p, PEER, Limit(time=seconds), options=Options(prove=0))
        print(f"  {text:46s} {hn:12d} ({hd:2d}) {a.nps:12d} ({a.depth:2d})")
        if hn:
            ratios.append(a.nps / hn)
    if ratios:
        print(f"  gyges / Helios: {min(ratios):.2f} to {max(ratios):.2f} "
              f"(mean {sum(ratios) / len(ratios):.2f})")


def _games(a: str, b: str, games: int, limit: Limit, rules, out: Path | None,
           b_command: list[str] | None = None) -> Tally:
    """``a`` against ``b`` (an engine text, or the command of a UGI program): games/2
    canonical pairs, each with both sides; the tally from ``a``'s side."""
    pairs = openings("canonical")[: (games + 1) // 2]
    tally = Tally()
    first = open_player(a, rules)
    second = popen_ugi(b_command) if b_command else open_player(b, rules)
    try:
        for opening in pairs:
            for a_south in (True, False):
                if tally.games >= games:
                    break
                south, north = (first, second) if a_south else (second, first)
                names = (a, b) if a_south else (b, a)
                g = play_game(south, north, opening, rules, limit, names=names)
                won = g.winner()
                if won is None:
                    tally += Tally(0, 1, 0)
                elif (won.value == "S") == a_south:
                    tally += Tally(1, 0, 0)
                else:
                    tally += Tally(0, 0, 1)
                if out is not None:
                    with open(out, "a", encoding="utf-8") as f:
                        f.write(json.dumps(g.to_json()) + "\n")
                print(f"  game {tally.games}: {opening[0]} {opening[1]} {names[0]} (S) - "
                      f"{names[1]} (N): {g.result} ({g.reason}, {len(g.moves)} moves)  "
                      f"{tally.summary()}", flush=True)
    finally:
        first.close()
        second.close()
    return tally


def bench_match(games: int, seconds: float, engine: str, out: Path | None) -> None:
    if not HELIOS.exists():
        print(f"Helios is not built ({HELIOS}): no match")
        return
    print(f"{engine} against Helios, {games} games, {seconds:g} s a move, Helios's rules "
          f"({machine()})")
    _pin(0)
    t = time.time()
    tally = _games(engine, "ugi:helios", games, Limit(time=seconds), PEER, out,
                   _helios_command())
    print(f"  {engine}: {tally.summary()}  ({time.time() - t:.0f} s; load after: "
          f"{' '.join(f'{x:.1f}' for x in os.getloadavg())})")


def bench_versus(a: str, b: str, games: int, limit: Limit, rules_name: str) -> None:
    rules = PEER if rules_name == "peer" else PRESETS[rules_name]
    print(f"{a} against {b}, {games} games, {limit}, rules {rules_name}")
    tally = _games(a, b, games, limit, rules, None)
    print(f"  {a}: {tally.summary()}")


def bench_puzzles(seconds: float = 1.0) -> None:
    print(f"the catalogue's wins: key found within {seconds:g} s?  ({machine()})")
    found = total = 0
    slowest = 0.0
    for path in sorted((ROOT / "puzzles").rglob("*.yaml")):
        for puzzle in load_catalogue(path).puzzles:
            stip = puzzle.stipulation
            if stip.kind != "win":
                continue
            total += 1
            t = time.perf_counter()
            a = analyse(puzzle.position, puzzle.rules, Limit(time=seconds), puzzle.history)
            spent = time.perf_counter() - t
            truth = solve(puzzle.position, puzzle.rules, stip.moves, puzzle.history,
                          tree=False)
            keys = {k.result_key(puzzle.position) for k in truth.keys}
            ok = a.move is not None and a.move.result_key(puzzle.position) in keys
            found += ok
            slowest = max(slowest, spent)
            if not ok:
                print(f"  {puzzle.id} ({stip}): played {a.move}, score {a.score}")
    print(f"  {found} of {total} keys found; the slowest answer took {slowest:.2f} s")


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(prog="python -m bench.bench_engine")
    sub = parser.add_subparsers(dest="what")
    p = sub.add_parser("nps")
    p.add_argument("seconds", type=float, nargs="?", default=1.0)
    p = sub.add_parser("match")
    p.add_argument("games", type=int)
    p.add_argument("seconds", type=float)
    p.add_argument("engine", nargs="?", default="builtin")
    p.add_argument("--out", type=Path, default=None)
    p = sub.add_parser("versus")
    p.add_argument("a")
    p.add_argument("b")
    p.add_argument("games", type=int)
    p.add_argument("--depth", type=int)
    p.add_argument("--nodes", type=int)
    p.add_argument("--time", type=float)
    p.add_argument("--rules", default="peer")
    p = sub.add_parser("puzzles")
    p.add_argument("seconds", type=float, nargs="?", default=1.0)
    args = parser.parse_args(argv if argv is not None else [])
    print(f"  {time.strftime('%Y-%m-%d %H:%M')}")
    if args.what in (None, "nps"):
        bench_nps(getattr(args, "seconds", 1.0))
    if args.what == "match":
        bench_match(args.games, args.seconds, args.engine, args.out)
    if args.what == "versus":
        bench_versus(args.a, args.b, args.games,
                     Limit(time=args.time, depth=args.depth, nodes=args.nodes), args.rules)
    if args.what in (None, "puzzles"):
        bench_puzzles(getattr(args, "seconds", 1.0))


if __name__ == "__main__":
    main(sys.argv[1:])

