"""Puzzle generation speed: sound puzzles per minute for win in 2 and win in 3.

Each row is one fresh run of :func:`solver.puzzles.generate.run` (pbmserv rules, a fixed seed, no
catalogue to dedup against) in a temporary directory, collecting ``count`` puzzles or
giving up after ``limit`` candidates; it reports the wall time, the candidates judged, the
sound puzzles found and the rate. ``python -m bench generate`` runs it;
``python bench/bench_generate.py --quick`` runs a smaller set.
"""

from __future__ import annotations

import os
import sys
import tempfile
import time
from pathlib import Path

from solver.game.rules import PRESETS
from solver.puzzles.generate import Params, run

#: (moves, sources, count, candidate limit, jobs)
CASES = [
    (2, ("play",), 10, 400, 1),
    (2, ("play",), 10, 400, 2),
    (2, ("compose",), 3, 60, 1),
    (2, ("play", "compose"), 8, 400, 2),
    (3, ("play",), 5, 200, 1),
    (3, ("play",), 5, 200, 2),
    (3, ("compose",), 1, 20, 1),
]
QUICK = [(2, ("play",), 4, 100, 1), (3, ("play",), 2, 100, 1)]


def measure(moves: int, sources: tuple[str, ...], count: int, limit: int, jobs: int,
            seed: int = 2026) -> dict[str, float]:
    params = Params(moves, PRESETS["pbmserv"], seed=seed, sources=sources)
    with tempfile.TemporaryDirectory() as d:
        t0 = time.perf_counter()
        s = run(params, Path(d) / "out.yaml", count, jobs=jobs, max_candidates=limit)
        wall = time.perf_counter() - t0
    return {"found": s["found"], "tried": s["tried"], "seconds": wall,
            "per_minute": 60 * s["found"] / wall if wall else 0.0,
            "candidates_per_minute": 60 * s["tried"] / wall if wall else 0.0}


def main(quick: bool = False) -> None:
    try:
        load = os.getloadavg()[0]
    except OSError:
        load = float("nan")
    print(f"cores: {os.cpu_count()}, load average at start: {load:.2f} (shared machine)")
    print("| stipulation | source | jobs | puzzles | candidates | wall s | puzzles/min "
          "| candidates/min |")
    print("|---|---|---|---|---|---|---|---|")
    for moves, sources, count, limit, jobs in (QUICK if quick else CASES):
        r = measure(moves, sources, count, limit, jobs)
        print(f"| win in {moves} | {'+'.join(sources)} | {jobs} | {r['found']} | {r['tried']} "
              f"| {r['seconds']:.1f} | {r['per_minute']:.1f} | "
              f"{r['candidates_per_minute']:.0f} |", flush=True)


if __name__ == "__main__":
    main(quick="--quick" in sys.argv[1:])
