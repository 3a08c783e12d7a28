"""The batch analysis of setup pairs: parallel, streamed to JSON Lines, resumable.

:func:`run` sends one task per pair (:func:`gyges.setups.analysis.analyse_pair`) to an
executor (:func:`gyges.parallel.open_executor`: the local process pool, or a Dask
cluster) and appends one record per line to the results file (:mod:`gyges.setups.results`)
as results arrive, so an interrupted run keeps everything written and a rerun with the same
file resumes. Each result depends only on its pair and the parameters, so the records do
not depend on the backend or the number of workers.

For long pairs the run splits each pair per first move: groups of South's first moves go
out as tasks (:func:`first_move_verdicts`), then one task per pair combines their verdicts
(:func:`combine_verdicts`) and computes the rest of its record. The verdicts are those of
the solver on the whole pair.

>>> from gyges.game.rules import PRESETS
>>> p = Position.setup("231123", "321123")
>>> n = first_moves(p, PRESETS["pbmserv"])
>>> found = first_move_verdicts(p, PRESETS["pbmserv"], 2, range(n))
>>> n, combine_verdicts(p, PRESETS["pbmserv"], 2, found)
(336, ('none', None, []))
"""

from __future__ import annotations

import functools
import logging
import os
import socket
import time
from collections.abc import Callable, Sequence
from typing import Any, TextIO

from gyges.formats.notation import format_move
from gyges.game.moves import apply_move, legal_moves
from gyges.game.position import Position
from gyges.game.rules import RuleSet
from gyges.parallel import Interrupted, Progress, log_to, open_executor
from gyges.parallel.results import ResultsFileError, read_jsonl
from gyges.search import Prover, ProverKind, ResultKind
from gyges.setups.analysis import Verdict, analyse_pair
from gyges.setups.analysis import win_defence as _win_defence  # noqa: F401 - tests/test_batch.py
from gyges.setups.pairs import select_pairs
from gyges.setups.report import heatmap_svg, report
from gyges.setups.results import (
    BatchError,
    ParametersError,
    describe_params,
    dumps,
    params,
    read_results,
)
from gyges.setups.values import SetupError

# Besides the run: the names of the analysis, the results file and the report that
# tests/test_batch.py, test_cluster.py, test_fuzz.py and test_solve_file.py import from here.
__all__ = [
    "GROUP", "SPLIT_FROM", "BatchError", "analyse_pair", "analyse_task", "combine_verdicts",
    "dumps", "finish_task", "first_move_verdicts", "first_moves", "heatmap_svg",
    "moves_task", "read_results", "report", "run", "select_pairs",
]

LOG = logging.getLogger("gyges.setups")

SPLIT_FROM = 4  #: from this depth on, pairs are split per first move by default
GROUP = 16  #: first moves per task when a pair is split
BLOCK_PER_WORKER = 4  #: pairs split at a time, per worker (at least MIN_BLOCK)
MIN_BLOCK = 16


# -- one pair, split per first move ---------------------------------------------------------


def first_moves(position: Position, rules: RuleSet) -> int:
    """How many first moves the side to move has (the split's unit); 0 if it is blocked."""
    ml = legal_moves(position, rules)
    return len(ml) if ml.mover is position.turn else 0


def first_move_verdicts(position: Position, rules: RuleSet, depth: int,
                        indices: Sequence[int]) -> dict[int, int | None]:
    """For the first moves ``indices`` (in legal-move order) of the side to move: the
    least number of its moves, this one included, that force a landing after it, if at
    most ``depth`` (else None). One search table serves the group. (The position has no
    history: a start position.)"""
    ml = legal_moves(position, rules)
    prover = Prover(rules, ProverKind.ALPHABETA, depth, table_bits=18)
    out: dict[int, int | None] = {}
    for i in indices:
        m = ml[i]
        if m.is_win:
            out[i] = 1
            continue
        k = prover.least(apply_move(position, m), position.turn, depth - 1, [position])
        out[i] = None if k is None else k + 1
    return out


def combine_verdicts(position: Position, rules: RuleSet, depth: int,
                     found: dict[int, int | None]) -> Verdict:
    """The ``(result, win_in, keys)`` of ``solve(position, max_moves=depth)`` from every
    first move's verdict: the side to move wins in the least k over its first moves (the
    keys: the moves reaching it); if none, the opponent wins in d when every first move
    loses within d (checked here, stopping at the first move that holds: cheap)."""
    ml = legal_moves(position, rules)
    assert set(found) == set(range(len(ml)))
    wins = [k for k in found.values() if k is not None]
    if wins:
        k = min(wins)
        return ResultKind.WIN, k, sorted(format_move(ml[i]) for i, v in found.items() if v == k)
    prover = Prover(rules, ProverKind.ALPHABETA, depth, table_bits=20)
    children = [apply_move(position, m) for m in ml]
    other = position.turn.other
    for d in range(1, depth + 1):
        if all(prover.wins(c, other, d, [position]) for c in children):
            return ResultKind.LOSS, d, []
    return ResultKind.NONE, None, []


# -- the tasks -------------------------------------------------------------------------------


def _worker() -> str:
    return f"{socket.gethostname()} pid {os.getpid()}"


def analyse_task(pair: tuple[str, str], *, rules: RuleSet, depth: int) -> dict[str, Any]:
    """One task of a run, as a worker does it: the pair's record, with the seconds it took
    and where it ran (for the log; not part of the record)."""
    t = time.perf_counter()
    record = analyse_pair(pair[0], pair[1], rules, depth)
    return {"record": record, "seconds": time.perf_counter() - t, "worker": _worker()}


def moves_task(item: tuple[str, str, int, int], *, rules: RuleSet, depth: int
               ) -> dict[str, Any]:
    """First moves ``lo:hi`` of the pair ``(south, north, lo, hi)``: their verdicts."""
    south, north, lo, hi = item
    t = time.perf_counter()
    found = first_move_verdicts(Position.setup(south, north), rules, depth, range(lo, hi))
    return {"south": south, "north": north, "lo": lo, "hi": hi,
            "found": {str(i): v for i, v in found.items()},
            "seconds": time.perf_counter() - t, "worker": _worker()}


def finish_task(item: tuple[str, str, dict[int, int | None] | None], *, rules: RuleSet,
                depth: int) -> dict[str, Any]:
    """A split pair's record from its first moves' verdicts (None: not split, solve here)."""
    south, north, found = item
    t = time.perf_counter()
    verdict = None
    if found is not None:
        verdict = combine_verdicts(Position.setup(south, north), rules, depth, found)
    record = analyse_pair(south, north, rules, depth, verdict=verdict)
    return {"record": record, "seconds": time.perf_counter() - t, "worker": _worker()}


# -- the run -------------------------------------------------------------------------------


def _read_parts(path: str, wanted: dict[str, Any]) -> dict[tuple[str, str], dict[int, Any]]:
    """The first-move verdicts kept by an earlier split run (other parameters: ignored)."""
    parts: dict[tuple[str, str], dict[int, Any]] = {}
    try:
        lines = read_jsonl(path, repair=True, what="a first-move record")
    except ResultsFileError as e:
        raise BatchError(str(e)) from None
    for _, rec in lines:
        if {k: rec.get(k) for k in wanted} != wanted:
            continue
        parts.setdefault((rec["south"], rec["north"]), {}).update(
            {int(i): v for i, v in rec["found"].items()})
    return parts


def _run_split(ex: Any, todo: Sequence[tuple[str, str]], rules: RuleSet, depth: int,
               out: str, write: Callable[[dict], None], bar: Progress | None,
               group: int) -> None:
    """Split pairs per first move, a block of pairs at a time: their groups of first
    moves, then one task per pair to combine and finish. Each group's verdicts go to
    ``out.parts`` as they arrive."""
    wanted = params(rules, depth)
    parts_path = out + ".parts"
    parts = _read_parts(parts_path, wanted)
    block = max(MIN_BLOCK, BLOCK_PER_WORKER * ex.workers)
    moves_work = functools.partial(moves_task, rules=rules, depth=depth)
    finish_work = functools.partial(finish_task, rules=rules, depth=depth)
    with open(parts_path, "a", encoding="utf-8") as pf:
        for b in range(0, len(todo), block):
            pairs = todo[b:b + block]
            counts = {p: first_moves(Position.setup(*p), rules) for p in pairs}
            items = [(s, n, lo, min(lo + group, counts[(s, n)]))
                     for s, n in pairs for lo in range(0, counts[(s, n)], group)
                     if not set(range(lo, min(lo + group, counts[(s, n)])))
                     <= set(parts.get((s, n), {}))]
            total = len(items) or 1
            for i, done in enumerate(ex.map_unordered(moves_work, items), 1):
                pf.write(dumps({**wanted, **{k: done[k] for k in
                                             ("south", "north", "lo", "hi", "found")}}) + "\n")
                pf.flush()
                parts.setdefault((done["south"], done["north"]), {}).update(
                    {int(k): v for k, v in done["found"].items()})
                if bar is not None:  # the block's first moves: half of its share
                    bar.set(b + 0.5 * len(pairs) * i / total)
            finish = [(s, n, parts.get((s, n), {}) if counts[(s, n)] else None)
                      for s, n in pairs]
            for i, done in enumerate(ex.map_unordered(finish_work, finish), 1):
                write(done)
                if bar is not None:  # then the finishing tasks: the other half
                    bar.set(b + 0.5 * len(pairs) + 0.5 * i)
    if os.path.exists(parts_path):
        os.remove(parts_path)  # every pair is in the results file now


def run(
    pairs: Sequence[tuple[str, str]],
    rules: RuleSet,
    depth: int,
    out: str,
    jobs: int | None = None,
    log: str | None = None,
    progress: TextIO | None = None,
    chunksize: int | None = None,
    on_result: Callable[[dict], None] | None = None,
    scheduler: str | None = None,
    split: bool | None = None,
    group: int = GROUP,
) -> dict[str, Any]:
    """Analyse ``pairs`` into ``out`` (appending; pairs already there are skipped).

    ``split`` (default: from depth :data:`SPLIT_FROM` on) makes the tasks finer: each
    pair's first moves go out in groups of ``group`` (:func:`first_move_verdicts`), then
    one task per pair combines them and computes the rest (:func:`combine_verdicts`,
    :func:`~gyges.setups.analysis.analyse_pair`); the groups done are kept in
    ``out.parts`` so that a resumed run does not redo them. The records are the same
    either way.

    The work goes to :func:`gyges.parallel.open_executor` (``scheduler`` None: the local
    pool of ``jobs`` workers, else Dask); each record is written and flushed here, as it
    arrives, so the file alone says what is done. Returns ``{"done": new records,
    "skipped": already there, "interrupted": bool}``. Ctrl-C or SIGTERM stops the run;
    every line written so far stays. A file made with other parameters is refused
    (:class:`~gyges.setups.results.ParametersError`).
    """
    if depth < 1:
        raise SetupError(f"depth {depth}: give at least 1")
    if group < 1:
        raise SetupError(f"group {group}: give at least 1 first move per task")
    split = depth >= SPLIT_FROM if split is None else split
    wanted = params(rules, depth)
    found, existing = read_results(out)
    if found is not None and found != wanted:
        raise ParametersError(out, found, wanted)
    read_results(out, repair=True)   # only a file this run may extend is repaired
    have = {(r["south"], r["north"]) for r in existing}
    todo = [p for p in dict.fromkeys(pairs) if p not in have]
    summary = {"done": 0, "skipped": len(pairs) - len(todo), "interrupted": False}
    if not todo:
        return summary
    bar = None
    executor = open_executor(scheduler, jobs if len(todo) > 1 or scheduler else 1)
    try:
        with log_to(log, LOG), executor as ex, open(out, "a", encoding="utf-8") as f:
            if progress is not None:
                bar = Progress(len(todo), progress, unit="pairs")
            LOG.info("analysing %d pairs (%d already done) on %s, %s%s",
                     len(todo), summary["skipped"], ex.name, describe_params(wanted),
                     ", split per first move" if split else "")

            def write(done: dict[str, Any]) -> None:
                record = done["record"]
                f.write(dumps(record) + "\n")
                f.flush()
                summary["done"] += 1
                LOG.info("%s: %s %s: %s in %.3f s", done["worker"], record["south"],
                         record["north"], record["result"], done["seconds"])
                if on_result is not None:
                    on_result(record)

            if split:
                _run_split(ex, todo, rules, depth, out, write, bar, group)
            else:
                size = chunksize or max(1, min(16, len(todo) // (ex.workers * 8) or 1))
                work = functools.partial(analyse_task, rules=rules, depth=depth)
                for done in ex.map_unordered(work, todo, chunksize=size):
                    write(done)
                    if bar is not None:
                        bar.update()
    except Interrupted:
        summary["interrupted"] = True
        LOG.info("interrupted after %d new results", summary["done"])
    finally:
        if bar is not None:
            bar.close()
    return summary
