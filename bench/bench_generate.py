"""Puzzle generation speed: sound puzzles per minute for win in 2 and win in 3 (and, with
``--deep``, win in 4 and 5).

Each row is one fresh run of :func:`gyges.puzzles.generate.run` (pbmserv rules, a fixed seed, no
catalogue to dedup against) in a temporary directory, collecting ``count`` puzzles or
giving up after ``limit`` candidates; it reports the wall time, the CPU time of this
process and its workers, the candidates judged, the sound puzzles found and the rates.
``python -m bench generate`` runs it; ``python -m bench.bench_generate --quick`` runs a
smaller set, ``--deep`` the deep stipulations (pbmserv with ``repetition=allowed``, as
``puzzles/deep.yaml``; about 5 minutes in all).
"""

from __future__ import annotations

import os
import resource
import sys
import tempfile
import time
from pathlib import Path

from gyges.game.rules import PRESETS, RuleSet
from gyges.puzzles.generate import Params, run

#: (moves, sources, count, candidate limit, jobs)
CASES = [
    (2, ("play",), 10, 400, 1),
    (2, ("play",), 10, 400, 2),
    (2, ("compose",), 3, 60, 1),
    (2, ("play", "compose"), 8, 400, 2),
    (3, ("play",), 10, 200, 1),
    (3, ("play",), 10, 200, 2),
    (3, ("compose",), 1, 20, 1),
]
QUICK = [(2, ("play",), 4, 100, 1), (3, ("play",), 2, 100, 1)]
#: (case, seed): 3 wins in 4, seed 42 (about a minute), and 2 wins in 5, seed 53 (about
#: 3.5 minutes): the runs of docs/performance.md
DEEP = [((4, ("play",), 3, 40, 1), 42), ((5, ("play",), 2, 20, 1), 53)]
DEEP_RULES = PRESETS["pbmserv"].with_options({"repetition": "allowed"})


def _cpu() -> float:
    """CPU seconds of this process and its finished workers."""
    me = resource.getrusage(resource.RUSAGE_SELF)
    kids = resource.getrusage(resource.RUSAGE_CHILDREN)
    return me.ru_utime + me.ru_stime + kids.ru_utime + kids.ru_stime


def measure(moves: int, sources: tuple[str, ...], count: int, limit: int, jobs: int,
            seed: int = 2026, rules: RuleSet = PRESETS["pbmserv"]) -> dict[str, float]:
    params = Params(moves, rules, seed=seed, sources=sources)
    with tempfile.TemporaryDirectory() as d:
        c0, t0 = _cpu(), time.perf_counter()
        s = run(params, Path(d) / "out.yaml", count, jobs=jobs, max_candidates=limit)
        wall, cpu = time.perf_counter() - t0, _cpu() - c0
    return {"found": s["found"], "tried": s["tried"], "seconds": wall, "cpu": cpu,
            "per_minute": 60 * s["found"] / wall if wall else 0.0,
            "per_cpu_minute": 60 * s["found"] / cpu if cpu else 0.0,
            "candidates_per_minute": 60 * s["tried"] / wall if wall else 0.0}


def main(quick: bool = False, deep: bool = False) -> None:
    try:
        load = os.getloadavg()[0]
    except OSError:
        load = float("nan")
    print(f"cores: {os.cpu_count()}, load average at start: {load:.2f} (shared machine)")
    print("| stipulation | rules | source | jobs | puzzles | candidates | wall s | CPU s "
          "| puzzles/min | puzzles/CPU min |")
    print("|---|---|---|---|---|---|---|---|---|---|")
    cases = [(c, PRESETS["pbmserv"], 2026) for c in (QUICK if quick else CASES)]
    if deep:
        cases = [(c, DEEP_RULES, seed) for c, seed in DEEP]
    for (moves, sources, count, limit, jobs), rules, seed in cases:
        r = measure(moves, sources, count, limit, jobs, seed, rules)
        name = "pbmserv" if rules == PRESETS["pbmserv"] else "pbmserv, repetition=allowed"
        print(f"| win in {moves} | {name} | {'+'.join(sources)} | {jobs} | {r['found']} "
              f"| {r['tried']} | {r['seconds']:.1f} | {r['cpu']:.1f} | {r['per_minute']:.1f} "
              f"| {r['per_cpu_minute']:.1f} |", flush=True)


if __name__ == "__main__":
    main(quick="--quick" in sys.argv[1:], deep="--deep" in sys.argv[1:])
