"""Puzzle generation speed: sound puzzles per minute for win in 2 and win in 3 (and, with
``--deep``, win in 4 and 5), and what the play candidates' cap on the threats they ask
trades (``--walk``).

Each row is one fresh run of :func:`gyges.puzzles.generate.generate_puzzles` (pbmserv
rules, a fixed seed, no catalogue to dedup against) in a temporary directory, collecting
``count`` puzzles or giving up after ``limit`` candidates; it reports the wall time, the
CPU time of this process and its workers, the candidates judged, the sound puzzles found
and the rates.
``python -m bench generate`` runs it; ``python -m bench.bench_generate --quick`` runs a
smaller set, ``--deep`` the deep stipulations (pbmserv with ``repetition=allowed``, as
the no-Renop wins in 5 of ``puzzles/deep/``; about 5 minutes in all), ``--renop`` the
deep catalogue's runs under pbmserv proper, the Renop law on (``puzzles/deep/``: wins in 4,
5 and 6, seed 7; the win in 6 alone about half an hour: its first sound puzzle is
candidate 217).

``--walk`` makes the play candidates of a few lines of play (one seed, the first indices)
with each cap on the threats the walk asks (:data:`gyges.puzzles.generate.play.WALK_THREATS`: 3, 6,
every threat): the candidates found and the time they took, the two sides of the cap.

``--share`` judges the first candidates of each source alone (wins in 2 and 3, a few
seeds): the CPU seconds a candidate takes and the sound puzzles per candidate, the cost of
a constructed candidate in play candidates, and what a run of both sources costs against
play alone at the construction's share (:data:`gyges.puzzles.generate.params.COMPOSE_EVERY`), the
two sides of that share.
"""

from __future__ import annotations

import os
import random
import resource
import sys
import tempfile
import time
from pathlib import Path

from gyges.game.rules import PRESETS, RuleSet
from gyges.puzzles.generate import Params, generate_puzzles
from gyges.puzzles.generate.candidates import candidate_seed, evaluate
from gyges.puzzles.generate.params import COMPOSE_EVERY
from gyges.puzzles.generate.play import WALK_THREATS, play_candidate

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
#: (case, seed): the runs of ``puzzles/deep/`` under pbmserv proper (docs/generate.md):
#: 12 wins in 4 (158 candidates, under a minute), the first 2 wins in 5 (21 candidates,
#: minutes) and the first win in 6 (218 candidates, about half an hour)
RENOP = [((4, ("play",), 12, 200, 1), 7), ((5, ("play",), 2, 40, 1), 7),
         ((6, ("play",), 1, 400, 1), 7)]
#: (moves, rules, seed, candidates): the play lines of ``--walk``
WALKS = [(3, PRESETS["pbmserv"], 2026, 30), (4, DEEP_RULES, 42, 8)]
#: the caps ``--walk`` compares (None: every threat)
WALK_CAPS = (3, WALK_THREATS, None)
#: (moves, seeds, play candidates, constructed candidates per seed): the runs of ``--share``
SHARES = [(2, (2026, 1, 3), 100, 8), (3, (2026, 1, 3), 100, 8)]


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
        s = generate_puzzles(params, Path(d) / "out.yaml", count, jobs=jobs, max_candidates=limit)
        wall, cpu = time.perf_counter() - t0, _cpu() - c0
    return {"found": s.found, "tried": s.tried, "seconds": wall, "cpu": cpu,
            "per_minute": 60 * s.found / wall if wall else 0.0,
            "per_cpu_minute": 60 * s.found / cpu if cpu else 0.0,
            "candidates_per_minute": 60 * s.tried / wall if wall else 0.0}


def measure_walk(moves: int, rules: RuleSet, seed: int, candidates: int,
                 cap: int | None) -> dict[str, float]:
    """The play candidates ``0 .. candidates - 1`` of a run, the walk asking at most
    ``cap`` threats (None: all): how many lines gave a candidate, in how many seconds."""
    found, t0 = 0, time.perf_counter()
    for index in range(candidates):
        rng = random.Random(candidate_seed(seed, index))
        found += play_candidate(rng, rules, moves, threats_asked=cap or 1 << 30) is not None
    return {"found": found, "seconds": time.perf_counter() - t0}


def main_walk() -> None:
    print("| stipulation | seed | lines | threats asked | candidates | seconds |")
    print("|---|---|---|---|---|---|")
    for moves, rules, seed, candidates in WALKS:
        for cap in WALK_CAPS:
            r = measure_walk(moves, rules, seed, candidates, cap)
            print(f"| win in {moves} | {seed} | {candidates} | {cap or 'all'} | "
                  f"{r['found']:.0f} | {r['seconds']:.1f} |", flush=True)


def measure_source(moves: int, source: str, seed: int, candidates: int
                   ) -> tuple[float, int, int]:
    """The first ``candidates`` candidates of one source, judged in this process: (CPU
    seconds, sound ones, CP-SAT solves)."""
    params = Params(moves, PRESETS["pbmserv"], seed=seed, sources=(source,))
    sound = solves = 0
    c0 = time.process_time()
    for index in range(candidates):
        rec = evaluate(index, params)
        sound += rec.sound
        model = rec.design.get("model", {})
        solves += model.get("proposals", 0) + model.get("infeasible", 0)
    return time.process_time() - c0, sound, solves


def main_share() -> None:
    """Each source alone, then a run of both at the construction's share, predicted."""
    print(f"construction: one candidate in {COMPOSE_EVERY} (COMPOSE_EVERY)")
    print("| stipulation | source | candidates | CPU s each | sound each | CP-SAT solves each |")
    print("|---|---|---|---|---|---|")
    for moves, seeds, plays, builds in SHARES:
        found = {}
        for source, n in (("play", plays), ("compose", builds)):
            cpu = sound = solves = 0.0
            for seed in seeds:
                c, s, k = measure_source(moves, source, seed, n)
                cpu, sound, solves = cpu + c, sound + s, solves + k
            total = n * len(seeds)
            found[source] = (cpu / total, sound / total)
            print(f"| win in {moves} | {source} | {total} | {cpu / total:.3f} | "
                  f"{sound / total:.3f} | {solves / total:.1f} |", flush=True)
        (tp, yp), (tc, yc) = found["play"], found["compose"]
        cost = tc / tp if tp else float("nan")
        # per block of COMPOSE_EVERY candidates: one constructed, the rest from play;
        # against play alone for as many sound puzzles
        both = (COMPOSE_EVERY - 1) * tp + tc
        alone = ((COMPOSE_EVERY - 1) * yp + yc) / yp * tp if yp else float("nan")
        print(f"win in {moves}: a constructed candidate costs {cost:.0f} play candidates; "
              f"both sources take {both / alone:.2f} times play alone", flush=True)


def main(quick: bool = False, deep: bool = False, renop: bool = False) -> None:
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
    if renop:
        cases = [(c, PRESETS["pbmserv"], seed) for c, seed in RENOP]
    for (moves, sources, count, limit, jobs), rules, seed in cases:
        r = measure(moves, sources, count, limit, jobs, seed, rules)
        name = "pbmserv" if rules == PRESETS["pbmserv"] else "pbmserv, repetition=allowed"
        print(f"| win in {moves} | {name} | {'+'.join(sources)} | {jobs} | {r['found']} "
              f"| {r['tried']} | {r['seconds']:.1f} | {r['cpu']:.1f} | {r['per_minute']:.1f} "
              f"| {r['per_cpu_minute']:.1f} |", flush=True)


if __name__ == "__main__":
    if "--walk" in sys.argv[1:]:
        main_walk()
    elif "--share" in sys.argv[1:]:
        main_share()
    else:
        main(quick="--quick" in sys.argv[1:], deep="--deep" in sys.argv[1:],
             renop="--renop" in sys.argv[1:])
