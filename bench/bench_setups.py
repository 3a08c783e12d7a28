"""Setup pairs: wall time and per-core rate of ``analyze --depth 2`` and ``--depth 3``.

Depth 2: a fixed sample (every 10th of the 8,100 pairs in sorted order: 810 pairs, every
South setup, every North setup) is analysed with 1 and then 2 local jobs and the time for
the whole table is extrapolated. ``GYGES_BENCH_SETUPS_FULL=1`` runs all 8,100 pairs with
2 jobs instead of extrapolating (several minutes). ``GYGES_BENCH_SETUPS_STEP`` changes the
sample step.

Depth 3: pairs per second on 1 and 2 local workers and on a 2-worker Dask cluster started
here (``--scheduler local``: a LocalCluster; its start-up is timed apart), over every
``GYGES_BENCH_SETUPS_D3_STEP``-th pair (default 300: 27 pairs). Also times ``setups
search`` for all 8,100 pairs (CP-SAT enumeration).

Self-play (``setups rank``): games per hour on 1 and 2 local workers and on a 2-worker
Dask LocalCluster, over the first ``GYGES_BENCH_RANK_GAMES`` games (default 40) of the
canonical pairs' order, at each node limit of ``GYGES_BENCH_RANK_NODES`` (default
``1000,10000``: the published study's strength and the one the study is to be played at;
comma-separated) with the proof horizon 2, as the published table is played;
games per CPU hour too (client and local workers), the figure a loaded machine changes
least. ``GYGES_BENCH_SETUPS_ONLY=rank`` runs only this part.

Evaluations (``setups evaluate``, ``GYGES_BENCH_SETUPS_ONLY=evaluate`` runs only this
part): seconds a pair at the default 200,000 nodes on 1 and 2 local workers and a 2-worker
Dask LocalCluster, over every ``GYGES_BENCH_EVAL_STEP``-th canonical pair (default 1000:
5 pairs), and the whole table (4,068 pairs) extrapolated.

Depth 4 (``GYGES_BENCH_SETUPS_ONLY=depth4``, not in the default run: about a minute):
``analyze --depth 4 --canonical --no-split``, as the published table is made, over every
``GYGES_BENCH_SETUPS_D4_STEP``-th canonical pair (default 200: 21 pairs) on 2 local
workers; the whole table's time (4,068 pairs) extrapolated from it, in wall hours on this
machine and in CPU hours (what a cluster divides among its cores).
"""

from __future__ import annotations

import os
import resource
import tempfile
import time
from collections.abc import Callable, Iterator

from gyges.engine import Limit
from gyges.game.rules import PRESETS
from gyges.parallel import RunSummary
from gyges.setups import (
    canonical_pairs,
    constraints_from_options,
    run_analysis,
    search,
    select_pairs,
)
from gyges.setups.selfplay.games import run_games

TOTAL = 8100


def _load() -> str:
    try:
        return f"load {os.getloadavg()[0]:.2f}"
    except OSError:
        return "load ?"


def _cpu() -> float:
    """CPU seconds of this process and its finished children (the pool's workers)."""
    total = 0.0
    for who in (resource.RUSAGE_SELF, resource.RUSAGE_CHILDREN):
        r = resource.getrusage(who)
        total += r.ru_utime + r.ru_stime
    return total


def time_analyze(pairs, depth: int, jobs: int, scheduler: str = "",
                 split: bool | None = None) -> tuple[float, float]:
    """(wall seconds, CPU seconds) of one analysis run (CPU: this process and its finished
    children; a Dask LocalCluster's workers are children too)."""
    with tempfile.TemporaryDirectory() as d:
        out = os.path.join(d, "bench.jsonl")
        c = _cpu()
        t = time.perf_counter()
        summary = run_analysis(pairs, PRESETS["pbmserv"], depth, out, jobs=jobs,
                               scheduler=scheduler, split=split)
        elapsed = time.perf_counter() - t
        cpu = _cpu() - c
        assert summary.done == len(pairs) and summary.complete
    return elapsed, cpu


def main() -> None:
    only = os.environ.get("GYGES_BENCH_SETUPS_ONLY")
    if only == "rank":
        selfplay()
        return
    if only == "depth4":
        depth4()
        return
    if only == "evaluate":
        evaluate()
        return
    rules = PRESETS["pbmserv"]
    t = time.perf_counter()
    n = search(constraints_from_options({"side": "pair"}), rules, count_only=True)
    print(f"setups search, all pairs (CP-SAT, 1 worker): {n} in {time.perf_counter() - t:.2f} s")

    every = select_pairs()
    step = int(os.environ.get("GYGES_BENCH_SETUPS_STEP", "10"))
    full = os.environ.get("GYGES_BENCH_SETUPS_FULL") == "1"
    cores = os.cpu_count() or 1
    for depth in (2,):
        if full:
            print(f"analyze --depth {depth}, all {TOTAL} pairs, jobs 2 ({_load()} before)")
            elapsed, cpu = time_analyze(every, depth, 2)
            print(f"  {elapsed:.1f} s wall, {TOTAL / elapsed:.1f} pairs/s, "
                  f"{TOTAL / elapsed / 2:.1f} pairs/s per core; {cpu:.1f} CPU s, "
                  f"{TOTAL / cpu:.1f} pairs per CPU second")
            continue
        sample = every[::step]
        times = {}
        for jobs in (1, 2):
            load = _load()
            times[jobs], cpu = time_analyze(sample, depth, jobs)
            rate = len(sample) / times[jobs]
            print(f"analyze --depth {depth}, {len(sample)} pairs (every {step}th), jobs {jobs} "
                  f"({load} before): {times[jobs]:.1f} s, {rate:.1f} pairs/s, "
                  f"{rate / jobs:.1f} pairs/s per core; whole table extrapolated: "
                  f"{TOTAL / rate / 60:.1f} min; {cpu:.1f} CPU s = "
                  f"{len(sample) / cpu:.1f} pairs per CPU second")
        print(f"  speed-up 1 -> 2 jobs: {times[1] / times[2]:.2f}x on {cores} cores "
              "(the machine is shared: compare with the load figures)")
    depth3(every)
    selfplay()
    evaluate()


def depth3(every) -> None:
    """Depth 3 on 1 and 2 local workers and a 2-worker Dask LocalCluster."""
    from gyges.parallel import open_executor

    step = int(os.environ.get("GYGES_BENCH_SETUPS_D3_STEP", "300"))
    sample = every[::step]
    t = time.perf_counter()
    with open_executor("local", jobs=2):
        pass
    startup = time.perf_counter() - t
    print(f"Dask LocalCluster of 2 workers: start and stop {startup:.1f} s")
    for label, jobs, scheduler in (("local pool, 1 worker", 1, ""),
                                   ("local pool, 2 workers", 2, ""),
                                   ("Dask LocalCluster, 2 workers", 2, "local")):
        load = _load()
        elapsed, cpu = time_analyze(sample, 3, jobs, scheduler)
        if scheduler:  # the cluster's start-up is not the work's cost
            elapsed -= startup
        print(f"analyze --depth 3, {len(sample)} pairs (every {step}th), {label} ({load} "
              f"before): {elapsed:.1f} s wall{' less start-up' if scheduler else ''}, "
              f"{len(sample) / elapsed:.2f} pairs/s; {cpu:.1f} CPU s (client and local "
              "workers)")


def depth4() -> None:
    """The depth-4 canonical table's time, extrapolated from a sample of its pairs."""
    step = int(os.environ.get("GYGES_BENCH_SETUPS_D4_STEP", "200"))
    canonical = canonical_pairs(select_pairs())
    sample = canonical[::step]
    load = _load()
    elapsed, cpu = time_analyze(sample, 4, 2, split=False)
    whole = len(canonical) / len(sample)
    print(f"analyze --depth 4 --canonical --no-split, {len(sample)} of {len(canonical)} pairs "
          f"(every {step}th), local pool, 2 workers ({load} before, {_load()} after): "
          f"{elapsed:.1f} s wall, {elapsed / len(sample):.1f} s a pair; {cpu:.1f} CPU s, "
          f"{cpu / len(sample):.1f} CPU s a pair; whole table extrapolated: "
          f"{whole * elapsed / 3600:.1f} h wall on 2 workers, {whole * cpu / 3600:.1f} CPU h")


def _on_each_backend(work: Callable[[str, int, str], RunSummary]
                     ) -> Iterator[tuple[str, str, float, float]]:
    """``work(out, jobs, scheduler)`` on 1 and 2 local workers and a 2-worker Dask
    LocalCluster, each into a fresh file: (backend, load before, wall seconds less the
    cluster's start-up, CPU seconds of this process and its workers)."""
    from gyges.parallel import open_executor

    t = time.perf_counter()
    with open_executor("local", jobs=2):
        pass
    startup = time.perf_counter() - t
    for label, jobs, scheduler in (("local pool, 1 worker", 1, ""),
                                   ("local pool, 2 workers", 2, ""),
                                   ("Dask LocalCluster, 2 workers", 2, "local")):
        load = _load()
        with tempfile.TemporaryDirectory() as d:
            c = _cpu()
            t = time.perf_counter()
            summary = work(os.path.join(d, "out.jsonl"), jobs, scheduler)
            elapsed = time.perf_counter() - t - (startup if scheduler else 0.0)
            cpu = _cpu() - c
        assert summary.complete
        yield label + (" (less start-up)" if scheduler else ""), load, elapsed, cpu


def selfplay() -> None:
    """Games per hour of ``setups rank --canonical --prove 2`` at a few node limits, on 1
    and 2 local workers and a 2-worker Dask LocalCluster (its start-up timed apart)."""
    games = int(os.environ.get("GYGES_BENCH_RANK_GAMES", "40"))
    limits = [int(n) for n in os.environ.get("GYGES_BENCH_RANK_NODES", "1000,10000").split(",")]
    pairs = canonical_pairs(select_pairs())
    for nodes in limits:
        def play(out: str, jobs: int, scheduler: str, nodes: int = nodes) -> RunSummary:
            return run_games(pairs, PRESETS["pbmserv"], out, games=games,
                             limit=Limit(nodes=nodes), prove=2, canonical=True, jobs=jobs,
                             scheduler=scheduler)
        for label, load, elapsed, cpu in _on_each_backend(play):
            print(f"setups rank --nodes {nodes} --prove 2, {games} games, {label} ({load} "
                  f"before): {elapsed:.1f} s wall, {3600 * games / elapsed:,.0f} games/h; "
                  f"{cpu:.1f} CPU s = {3600 * games / cpu:,.0f} games per CPU hour")


def evaluate() -> None:
    """Seconds a pair of ``setups evaluate`` at its default budget, on 1 and 2 local
    workers and a 2-worker Dask LocalCluster (its start-up timed apart)."""
    from gyges.setups.evaluation.table import DEFAULT_NODES, run_evaluations

    step = int(os.environ.get("GYGES_BENCH_EVAL_STEP", "1000"))
    canonical = canonical_pairs(select_pairs())
    sample = canonical[::step]
    n = len(sample)

    def search(out: str, jobs: int, scheduler: str) -> RunSummary:
        return run_evaluations(sample, PRESETS["pbmserv"], out, jobs=jobs,
                               scheduler=scheduler)
    for label, load, elapsed, cpu in _on_each_backend(search):
        print(f"setups evaluate --nodes {DEFAULT_NODES}, {n} of {len(canonical)} canonical "
              f"pairs (every {step}th), {label} ({load} before): {elapsed:.1f} s wall, "
              f"{elapsed / n:.1f} s a pair; {cpu:.1f} CPU s, {cpu / n:.1f} CPU s a pair; "
              f"whole table extrapolated: {len(canonical) * elapsed / n / 3600:.1f} h wall")


if __name__ == "__main__":
    main()
