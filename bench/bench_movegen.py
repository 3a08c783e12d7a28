"""Move generation speed: move lists per second and perft 1-4 from the standard start.

``python -m bench movegen`` (or ``python -m bench.bench_movegen``). Figures go in
docs/performance.md under "Move generation".

* Move lists: a fixed set of 1000 positions reached by random play (seeded) under
  pbmserv; each timed as ``perft(depth 1)`` (one move list built in C, counted, no Python
  objects), as ``generate`` (the Python-facing list, without paths), and, inside C, as
  every move list of a ``perft(depth 2)`` from each position.
* Perft 1-4 from ``321123/....../....../....../....../321123 S`` under pbmserv: leaves,
  move lists, seconds, leaves per second and move lists per second.
"""

from __future__ import annotations

import random
import time

from gyges.game import _movegen
from gyges.game.moves import apply_move, legal_moves
from gyges.game.position import Position
from gyges.game.rules import PRESETS

START = "321123/....../....../....../....../321123 S"


def _arrangement(rng: random.Random) -> str:
    digits = list("112233")
    rng.shuffle(digits)
    return "".join(digits)


def bench_positions(count: int = 1000, seed: int = 2026) -> list[Position]:
    """Positions after 0..30 random non-winning plies from random setups (pbmserv)."""
    rng = random.Random(seed)
    rules = PRESETS["pbmserv"]
    out = []
    while len(out) < count:
        position = Position.setup(_arrangement(rng), _arrangement(rng))
        history: list[Position] = []
        for _ in range(rng.randint(0, 30)):
            quiet = [m for m in legal_moves(position, rules, history) if not m.is_win]
            if not quiet:
                break
            history.append(position)
            position = apply_move(position, rng.choice(quiet))
        out.append(position)
    return out


def time_move_lists(positions: list[Position], repeat: int = 5) -> dict[str, float]:
    """Seconds per move list (CPU time of this process, robust to a busy machine)."""
    flags = PRESETS["pbmserv"].flags()
    keys = [(p.key, p.turn.index) for p in positions]
    moves = sum(_movegen.perft(k, s, flags, 1, [])[0] for k, s in keys)

    t = time.process_time()
    for _ in range(repeat):
        for k, s in keys:
            _movegen.perft(k, s, flags, 1, [])
    perft1 = (time.process_time() - t) / (repeat * len(keys))

    t = time.process_time()
    for _ in range(repeat):
        for k, s in keys:
            _movegen.generate(k, s, flags, [], False)
    generate = (time.process_time() - t) / (repeat * len(keys))

    t = time.process_time()
    lists = sum(_movegen.perft(k, s, flags, 2, [])[1] for k, s in keys)
    inner = (time.process_time() - t) / lists
    return {"moves": moves / len(keys), "perft1": perft1, "generate": generate,
            "inner": inner, "inner_lists": lists}


#: The peer engine's rules (Helios; `python -m bench peer` times its perft beside ours).
RUST_RULES = PRESETS["pbmserv"].with_options(
    {"rebounce": "once", "null-move": "allowed", "blocked": "draw", "repetition": "allowed"}
)


def time_perft(
    depths=(1, 2, 3, 4), rules=PRESETS["pbmserv"]
) -> list[tuple[int, int, int, float, float]]:
    """(depth, leaves, move lists, wall seconds, CPU seconds) per depth."""
    position = Position.from_string(START)
    flags = rules.flags()
    rows = []
    for depth in depths:
        t, c = time.perf_counter(), time.process_time()
        leaves, lists = _movegen.perft(position.key, position.turn.index, flags, depth, [])
        rows.append((depth, leaves, lists, time.perf_counter() - t, time.process_time() - c))
    return rows


def main() -> None:
    positions = bench_positions()
    m = time_move_lists(positions)
    print(f"move lists over {len(positions)} reachable positions (pbmserv), "
          f"{m['moves']:.0f} moves per list on average:")
    print(f"  perft(1) per position       {m['perft1'] * 1e6:8.2f} us/list  "
          f"({1 / m['perft1']:,.0f} lists/s)")
    print(f"  generate() per position     {m['generate'] * 1e6:8.2f} us/list  "
          f"({1 / m['generate']:,.0f} lists/s)")
    print(f"  inside perft(2), {m['inner_lists']:,} lists  {m['inner'] * 1e6:8.2f} us/list  "
          f"({1 / m['inner']:,.0f} lists/s)")
    for name, rules in (("pbmserv", PRESETS["pbmserv"]), ("the Rust engine's rules: "
                        + RUST_RULES.describe(), RUST_RULES)):
        print(f"perft from {START} ({name}):")
        print(f"  {'depth':>5} {'leaves':>15} {'move lists':>12} {'wall s':>9} {'CPU s':>9} "
              f"{'leaves/s':>14} {'us/list':>8}  (rates per CPU second)")
        for depth, leaves, lists, wall, cpu in time_perft(rules=rules):
            if cpu < 0.05:  # too short for the process clock: no rate
                rates = f"{'-':>14} {'-':>8}"
            else:
                rates = f"{leaves / cpu:>14,.0f} {cpu / lists * 1e6:>8.2f}"
            print(f"  {depth:>5} {leaves:>15,} {lists:>12,} {wall:>9.3f} {cpu:>9.3f} {rates}")


if __name__ == "__main__":
    main()
