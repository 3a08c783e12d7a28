"""Solver benchmarks (figures in docs/performance.md, section "Solver").

(a) The position a published Rust engine solves in about 5 s and 1.2M nodes (the side to
    move wins at ply 11, i.e. in 6 moves) under its rules: prove the win in 6 exactly,
    that is "no win in 1..5" and "win in 6", by iterative deepening; then the whole
    ``solve`` (loss checks and the cook search: every other first move refuted), on one
    and on two processes.
(b) Ten mid-game positions reached by seeded random play from varied setups under
    pbmserv (some with wins, some without): time the win-in-1, 2 and 3 questions and the
    whole ``solve(max_moves=3)`` (win and loss checks, keys, no tree).

(c) The commands a user runs, timed as whole processes (start-up, parsing and printing
    included): ``gyges solve`` on the Rust engine's position (``-n 6``) and on the
    standard start ``321123/.../231123 S -n 4`` (one job and all cores: ``--jobs``; and
    one job with ``--prover alphabeta``, the kernel, next to the default df-pn), and
    ``gyges generate`` of
    sound wins in 3 (one job, all cores); with the CPU model and the load average, since
    the machine may be shared. CPU seconds are those of the command and its children.

(d) The start's ``-n 5`` (``gyges solve "321123/.../231123 S" -n 5``, one job and all
    cores): minutes, so only when asked (``python -m bench.bench_solver d``).

(q) One small case to compare two builds: ``solve`` of the Rust engine's position
    (``-n 6``: df-pn, one job, no tree), best CPU time of three runs and the nodes (which
    must not change). Only when asked (``python -m bench.bench_solver q``).

Run: ``python -m bench solver`` (or ``python -m bench.bench_solver [a|b|c|solve|d|q]``;
``solve``: the ``gyges solve`` commands of (c) only).
"""

from __future__ import annotations

import os
import resource
import shutil
import subprocess
import sys
import tempfile
import time

from bench import machine
from gyges.game.position import Position
from gyges.game.rules import PRESETS, rules_from
from gyges.search import Prover, solve

RUST_POSITION = "030100/000200/002000/021100/300300/002130 S"
RUST_RULES = ["rebounce=once", "null-move=allowed", "blocked=draw",
              "repetition=allowed"]  # Helios's rules (the helios preset) as gyges options

#: (random seed of the play-out, position, what solve(max_moves=3) proves under pbmserv).
#: Seeded play-outs: random setups (random.Random(seed)), then 8-22 random plies.
MIDGAME = [
    (0, ".13.../.1..3./...2.2/2.21../3.3.../...1.. S", "loss 3"),
    (3, "....../...11./2.21../133..3/2..3.2/...... S", "none"),
    (5, "....../.1..../2..33./.122../2...31/..1..3 N", "win 2"),
    (13, ".2..1./1.1.../....3./...2.2/3.23../....13 S", "win 3"),
    (15, "23...1/2.1.2./...3../2...3./...3../.1..1. N", "win 3"),
    (23, "..3.../..2.../3...2./2..2../.1133./...11. S", "win 2"),
    (24, "....../....../...231/3.11.1/3..2.2/.2.3.. S", "none"),
    (25, "..11../.22.2./.1..3./2...../..3..3/31.... N", "win 3"),
    (26, "....../....../..1122/.2.313/3..23./..1... S", "loss 2"),
    (30, "..212./1.3.../..3.3./.1..../.....2/.1.2.3 N", "win 3"),
]


def bench_rust_position(max_moves: int = 6) -> None:
    rules = rules_from("pbmserv", RUST_RULES)
    p = Position.from_string(RUST_POSITION)
    searcher = Prover(rules, "alphabeta", max_moves, table_bits=22)
    print(f"(a) {RUST_POSITION} under {' '.join(RUST_RULES)}")
    print("  k  result     wall s    CPU s        nodes      tt_hits  (cumulative counts)")
    total, cpu_total = time.perf_counter(), time.process_time()
    for k in range(1, max_moves + 1):
        t, c = time.perf_counter(), time.process_time()
        won = searcher.wins(p, p.turn, k)
        print(f"  {k}  {'win' if won else 'no win':8s} {time.perf_counter() - t:8.2f} "
              f"{time.process_time() - c:8.2f} {searcher.nodes:12d} {searcher.tt_hits:12d}")
        if won:
            break
    print(f"  total {time.perf_counter() - total:.2f} s wall, "
          f"{time.process_time() - cpu_total:.2f} s CPU, {searcher.nodes} nodes "
          "(a node: one position searched; landing tests at the leaves are not nodes)")
    # what `gyges solve -n 6` does on top: loss checks, and every other first move
    # refuted to prove there is no cook (no tree)
    for jobs in (1, 2):
        t = time.perf_counter()
        sol = solve(p, rules, max_moves, tree=False, jobs=jobs)
        print(f"  solve(max_moves={max_moves}, jobs={jobs}, no tree): {sol.result} in "
              f"{sol.moves}, keys {[str(k) for k in sol.keys]}, "
              f"{time.perf_counter() - t:.1f} s wall, {sol.stats.nodes} nodes")


def bench_midgame() -> None:
    rules = PRESETS["pbmserv"]
    print("(b) ten mid-game positions, pbmserv: CPU seconds for win-in-k (fresh table each)")
    print("  seed  win1     win2     win3     solve(3)  result   nodes")
    sums = [0.0] * 4
    for seed, text, expected in MIDGAME:
        p = Position.from_string(text)
        times = []
        for k in (1, 2, 3):
            searcher = Prover(rules, "alphabeta", k, table_bits=20)
            t = time.process_time()
            searcher.wins(p, p.turn, k)
            times.append(time.process_time() - t)
        t = time.process_time()
        s = solve(p, rules, 3, tree=False)
        times.append(time.process_time() - t)
        got = s.result if s.moves is None else f"{s.result} {s.moves}"
        flag = "" if got == expected else f"  (expected {expected}!)"
        for i, x in enumerate(times):
            sums[i] += x
        print(f"  {seed:4d}  " + " ".join(f"{x:8.4f}" for x in times)
              + f"  {got:8s} {s.stats.nodes}{flag}")
    print("  sum   " + " ".join(f"{x:8.4f}" for x in sums))



def timed(argv: list[str]) -> tuple[float, float, str]:
    """Run a command to its end: (wall s, CPU s of the command and its children, the last
    line of its output)."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    t = time.perf_counter()
    r = subprocess.run(argv, capture_output=True, text=True, check=False)
    wall = time.perf_counter() - t
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    lines = (r.stdout + r.stderr).strip().splitlines()
    said = [ln for ln in lines if ln.startswith(("South", "North"))]  # a solve's verdict
    return wall, cpu, (said or lines or [f"exit {r.returncode}"])[0]


def bench_commands(generate: bool = True) -> None:
    gyges = shutil.which("gyges") or "gyges"
    cores = os.cpu_count() or 1
    rust = [gyges, "solve", RUST_POSITION, "-n", "6"]
    for r in RUST_RULES:
        rust += ["--rule", r]
    start = [gyges, "solve", "321123/....../....../....../....../231123 S", "-n", "4"]
    runs = [(f"solve Rust position -n 6, {j} job(s)", [*rust, "--jobs", str(j)])
            for j in sorted({1, cores})]
    runs += [("the same, --prover alphabeta, 1 job", [*rust, "--prover", "alphabeta"])]
    runs += [(f"solve start -n 4, {j} job(s)", [*start, "--jobs", str(j)])
             for j in sorted({1, cores})]
    runs += [("the same, --prover alphabeta, 1 job", [*start, "--prover", "alphabeta"])]
    print(f"(c) whole commands on {machine()}")
    print("  command                                                wall s    CPU s  first line")
    for name, argv in runs:
        wall, cpu, first = timed(argv)
        print(f"  {name:54s} {wall:7.1f} {cpu:8.1f}  {first}")
    with tempfile.TemporaryDirectory() as tmp:
        for j in sorted({1, cores}) if generate else ():
            out = os.path.join(tmp, f"w3-{j}.yaml")
            argv = [gyges, "generate", "--stipulation", "win in 3", "--source", "play",
                    "--count", "10", "--seed", "2026", "--jobs", str(j), "--quiet",
                    "--against", tmp, "--out", out]
            wall, cpu, first = timed(argv)
            print(f"  generate 10 sound wins in 3 (play), {j} job(s)             {wall:7.1f} "
                  f"{cpu:8.1f}  {60 * 10 / wall:.1f} puzzles/min")
    print(f"  load average after: {' '.join(f'{x:.1f}' for x in os.getloadavg())}")


def bench_start_deep(moves: int = 5) -> None:
    gyges = shutil.which("gyges") or "gyges"
    cores = os.cpu_count() or 1
    start = [gyges, "solve", "321123/....../....../....../....../231123 S", "-n", str(moves)]
    print(f"(d) the start, -n {moves}, on {machine()}")
    for j in sorted({1, cores}):
        wall, cpu, first = timed([*start, "--jobs", str(j)])
        print(f"  solve start -n {moves}, {j} job(s)  {wall:7.1f} s wall {cpu:8.1f} s CPU  {first}")
    print(f"  load average after: {' '.join(f'{x:.1f}' for x in os.getloadavg())}")


def bench_quick(runs: int = 3) -> None:
    rules = rules_from("pbmserv", RUST_RULES)
    p = Position.from_string(RUST_POSITION)
    best = float("inf")
    nodes = set()
    for _ in range(runs):
        t = time.process_time()
        sol = solve(p, rules, 6, tree=False)
        best = min(best, time.process_time() - t)
        nodes.add(sol.stats.nodes)
    print(f"(q) solve {RUST_POSITION} -n 6 (df-pn, one job, no tree): {sol.result} in "
          f"{sol.moves}, best of {runs} {best:.2f} s CPU, nodes {sorted(nodes)} "
          f"on {machine()}")


def main(argv: list[str] | None = None) -> None:
    which = argv if argv else ["a", "b", "c"]
    if "q" in which:
        bench_quick()
    if "d" in which:
        bench_start_deep()
    if "b" in which:
        bench_midgame()
    if "a" in which:
        bench_rust_position()
    if "c" in which or "solve" in which:
        bench_commands(generate="c" in which)


if __name__ == "__main__":
    main(sys.argv[1:])
