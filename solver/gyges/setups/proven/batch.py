"""The batch analysis of setup pairs: parallel, streamed to JSON Lines, resumable.

:func:`run_analysis` is one resumable run of :mod:`gyges.parallel`: one task per pair
(:func:`gyges.setups.proven.analysis.analyse_pair`) on the local process pool or a Dask cluster,
each record appended to the results file (:mod:`gyges.setups.proven.records`) as it arrives, so
an interrupted run keeps everything written and a rerun with the same file resumes. Each
record depends only on its pair and the parameters, so the records do not depend on the
backend or the number of workers. With ``canonical`` the run analyses the canonical pair
standing for each pair asked for (:func:`gyges.game.position.canonical_pair`), once.

For long pairs the run splits each pair per first move: groups of South's first moves go
out as tasks (:func:`first_move_verdicts`), kept in a second results file ``OUT.parts``,
then one task per pair combines their verdicts (:func:`combine_verdicts`) and computes the
rest of its record. The verdicts are those of the solver on the whole pair.

>>> from gyges.game.rules import PRESETS
>>> p = Position.setup("231123", "321123")
>>> n = first_moves(p, PRESETS["pbmserv"])
>>> found = first_move_verdicts(p, PRESETS["pbmserv"], 2, range(n))
>>> n, combine_verdicts(p, PRESETS["pbmserv"], 2, found)
(336, ('none', None, []))
"""

from __future__ import annotations

import contextlib
import dataclasses
import functools
import logging
import os
import time
import types
from collections.abc import Callable, Hashable, Iterable, Mapping, Sequence
from typing import Any, TextIO

from gyges.engine.identity import EngineIdentity, engine_identity
from gyges.formats.notation import format_move
from gyges.game.moves import apply_move, legal_moves
from gyges.game.position import Position
from gyges.game.rules import RuleSet
from gyges.parallel import Batch, ProgressBar, ResultsFile, RunEvent, RunSummary, run_tasks
from gyges.search import Prover, ProverKind, ResultKind
from gyges.search.policy import table_bits
from gyges.setups.pairs import SetupError, canonical_pairs
from gyges.setups.proven.analysis import (
    MAX_ANALYSIS_DEPTH,
    MIN_ANALYSIS_DEPTH,
    PairVerdict,
    analyse_pair,
)
from gyges.setups.proven.records import (
    AnalysisParams,
    BatchError,
    PairRecord,
    analysis_results_file,
)

__all__ = [
    "GROUP", "SPLIT_FROM", "FirstMoveVerdicts", "analyse_task", "combine_verdicts", "finish_task",
    "first_move_verdicts", "first_moves", "moves_task", "parts_file", "run_analysis",
]

_LOG = logging.getLogger("gyges.setups")

#: From this depth on, pairs are split per first move by default. What it trades: a
#: split pair costs more CPU in all (each group of first moves starts with an empty
#: table, and North's question is asked apart when they are combined: at depth 5, 142 s
#: of one core against 106 s unsplit for the pair 211323 / 132312), but its groups go to
#: several workers at once. A whole pair is a fine enough unit while pairs outnumber
#: workers and one takes minutes at most (depth 4: about 5 s of one core, depth 5: 1-5
#: minutes); ``--split`` still helps below this depth with fewer pairs than workers.
SPLIT_FROM = 6
GROUP = 16  #: first moves per task when a pair is split
BLOCK_PER_WORKER = 4  #: pairs split at a time, per worker (at least MIN_BLOCK)
MIN_BLOCK = 16

_Pair = tuple[str, str]


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
    prover = Prover(rules, ProverKind.AUTO, depth, table_bits=table_bits(depth))
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
                     found: dict[int, int | None]) -> PairVerdict:
    """The ``(result, win_in, keys)`` of ``solve(position, max_moves=depth)`` from every
    first move's verdict: the side to move wins in the least k over its first moves (the
    keys: the moves reaching it); if none, the opponent wins in d when every first move
    loses within d (checked here: first within ``depth``, where the first move that holds
    settles it, then for the least d). The provers are the solver's (df-pn from
    :data:`~gyges.search.policy.DFPN_FROM` moves: at depth 5 it answers a pair's first moves
    about 40 times faster than the alpha-beta kernel)."""
    ml = legal_moves(position, rules)
    assert set(found) == set(range(len(ml)))
    wins = [k for k in found.values() if k is not None]
    if wins:
        k = min(wins)
        return ResultKind.WIN, k, sorted(format_move(ml[i]) for i, v in found.items() if v == k)
    prover = Prover(rules, ProverKind.AUTO, depth, table_bits=table_bits(depth))
    children = [apply_move(position, m) for m in ml]
    other = position.turn.other
    if not all(prover.wins(c, other, depth, [position]) for c in children):
        return ResultKind.NONE, None, []
    d = next(d for d in range(1, depth + 1)
             if all(prover.wins(c, other, d, [position]) for c in children))
    return ResultKind.LOSS, d, []


# -- the tasks: module functions, pickled for the workers -----------------------------------


def _params(rules: RuleSet, depth: int, canonical: bool, made_by: EngineIdentity | None
            ) -> AnalysisParams:
    """The run's parameters as a worker records them: with the engine the run asked for
    (``made_by``: its command is the run's, not the worker's), which must be this
    worker's (:class:`SetupError` if its code or weights differ)."""
    here = engine_identity()
    if made_by is not None and made_by != here:
        raise SetupError(f"this worker's engine is not the run's: {here}, not {made_by}")
    return AnalysisParams.of(rules, depth, canonical, made_by or here)


def _with_params(record: PairRecord, rules: RuleSet, depth: int, canonical: bool,
                 made_by: EngineIdentity | None) -> dict[str, Any]:
    """A pair's record with the run's parameters, as the line written."""
    wanted = _params(rules, depth, canonical, made_by)
    return dataclasses.replace(record, params=wanted).to_json()


def analyse_task(pair: _Pair, *, rules: RuleSet, depth: int, canonical: bool = False,
                 made_by: EngineIdentity | None = None) -> dict[str, Any]:
    """One pair's record, with the run's parameters
    (:class:`~gyges.setups.proven.records.AnalysisParams`, ``made_by`` the run's engine),
    as its JSON object."""
    return _with_params(analyse_pair(pair[0], pair[1], rules, depth), rules, depth, canonical,
                        made_by)


def moves_task(item: tuple[str, str, int, int], *, rules: RuleSet, depth: int,
               canonical: bool = False, made_by: EngineIdentity | None = None
               ) -> dict[str, Any]:
    """First moves ``lo:hi`` of the pair ``(south, north, lo, hi)``: their verdicts, as a
    record of the ``.parts`` file (:func:`parts_file`)."""
    south, north, lo, hi = item
    found = first_move_verdicts(Position.setup(south, north), rules, depth, range(lo, hi))
    return FirstMoveVerdicts(south, north, lo, tuple(found[i] for i in range(lo, hi)),
                             _params(rules, depth, canonical, made_by)).to_json()


def finish_task(item: tuple[str, str, dict[int, int | None] | None], *, rules: RuleSet,
                depth: int, canonical: bool = False, made_by: EngineIdentity | None = None
                ) -> dict[str, Any]:
    """A split pair's record from its first moves' verdicts (None: not split, solve here)."""
    south, north, found = item
    verdict = None
    if found is not None:
        verdict = combine_verdicts(Position.setup(south, north), rules, depth, found)
    return _with_params(analyse_pair(south, north, rules, depth, verdict=verdict), rules,
                        depth, canonical, made_by)


# -- the first-move verdicts kept between runs ----------------------------------------------


@dataclasses.dataclass(frozen=True, repr=False)
class FirstMoveVerdicts:
    """The verdicts of a group of first moves of a split pair: what one line of the
    ``.parts`` file holds (:func:`moves_task` makes it). ``found``: for each first move
    ``lo``, ``lo + 1`` ... in legal-move order, the least number of South's moves forcing a
    landing after it, or None (:func:`first_move_verdicts`)."""

    south: str
    north: str
    lo: int
    found: tuple[int | None, ...]
    params: AnalysisParams  #: the analysis the group belongs to

    @property
    def hi(self) -> int:
        """The first move after the group."""
        return self.lo + len(self.found)

    def verdicts(self) -> dict[int, int | None]:
        """The verdicts by first move."""
        return dict(enumerate(self.found, self.lo))

    def to_json(self) -> dict[str, Any]:
        """The group as its JSON object: the pair, ``lo``, ``hi``, ``found`` (the verdicts
        by first move, as text) and the parameters."""
        return {**self.params.to_json(), "south": self.south, "north": self.north,
                "lo": self.lo, "hi": self.hi,
                "found": {str(i): v for i, v in self.verdicts().items()}}

    @classmethod
    def from_json(cls, record: Any) -> FirstMoveVerdicts:
        """The group of a JSON object; KeyError names a missing key, BatchError (a
        ValueError) says what else is wrong."""
        if not isinstance(record, Mapping):
            raise BatchError("not an object")
        lo, hi, found = record["lo"], record["hi"], record["found"]
        if not (isinstance(record["south"], str) and isinstance(record["north"], str)):
            raise BatchError("south and north are setups")
        if not (type(lo) is int and type(hi) is int and 0 <= lo < hi
                and isinstance(found, dict)):
            raise BatchError("lo < hi are first moves, found their verdicts")
        if set(found) != {str(i) for i in range(lo, hi)} or not all(
                v is None or type(v) is int for v in found.values()):
            raise BatchError("found gives each first move lo..hi-1 a length or null")
        return cls(record["south"], record["north"], lo,
                   tuple(found[str(i)] for i in range(lo, hi)), AnalysisParams.from_json(record))

    def __repr__(self) -> str:
        return (f"FirstMoveVerdicts(S {self.south} N {self.north}, first moves "
                f"{self.lo}-{self.hi - 1}, depth {self.params.depth})")


def _part_key(record: Mapping[str, Any]) -> tuple[str, str, int, int]:
    return record["south"], record["north"], record["lo"], record["hi"]


def parts_file(out: str, wanted: AnalysisParams) -> ResultsFile:
    """``OUT.parts``, the first-move verdicts of a split run (:func:`moves_task`), keyed by
    ``(south, north, lo, hi)``, each read as a :class:`FirstMoveVerdicts`; a file made
    with other parameters than ``wanted`` is refused, as the results file would be."""
    return ResultsFile(out + ".parts", "a first-move record", key=_part_key,
                       check=FirstMoveVerdicts.from_json, params=wanted,
                       params_of=AnalysisParams.from_json, describe=str)


def _verdicts(parts: Mapping[Hashable, Mapping[str, Any]]) -> dict[_Pair, dict[int, Any]]:
    """The first-move verdicts of the ``.parts`` records, by pair."""
    out: dict[_Pair, dict[int, Any]] = {}
    for rec in parts.values():
        group = FirstMoveVerdicts.from_json(rec)
        out.setdefault((group.south, group.north), {}).update(group.verdicts())
    return out


# -- the run -------------------------------------------------------------------------------


def _log_text(record: Mapping[str, Any]) -> str:
    r = PairRecord.from_json(record)
    return f"{r.south} {r.north}: {r.result}"


def _part_text(record: Mapping[str, Any]) -> str:
    group = FirstMoveVerdicts.from_json(record)
    return f"{group.south} {group.north} first moves {group.lo}-{group.hi - 1}"


@dataclasses.dataclass(frozen=True)
class _Split:
    """What a split run needs besides its Batch: the tasks, the two files, the bar."""

    moves: Callable[[tuple[str, str, int, int]], dict[str, Any]]
    finish: Callable[[tuple[str, str, dict[int, int | None] | None]], dict[str, Any]]
    rules: RuleSet
    group: int
    results: ResultsFile
    parts: ResultsFile
    bar: ProgressBar | None
    watch: Callable[[RunEvent], None] | None


def _split_block(batch: Batch, split: _Split, pairs: Sequence[_Pair], before: int,
                 total: int) -> int:
    """One block of pairs split per first move: their groups of first moves (kept in the
    ``.parts`` file), then one task per pair to combine and finish. ``before``: pairs of
    the run done before this block, of ``total``. Returns the records made."""
    counts = {p: first_moves(Position.setup(*p), split.rules) for p in pairs}
    known = _verdicts(batch.records(split.parts))
    items = [(s, n, lo, min(lo + split.group, counts[(s, n)]))
             for s, n in pairs for lo in range(0, counts[(s, n)], split.group)
             if not set(range(lo, min(lo + split.group, counts[(s, n)])))
             <= set(known.get((s, n), {}))]

    def first_half(event: RunEvent) -> None:
        if split.bar is not None and event.record is not None:
            split.bar.set(before + 0.5 * len(pairs) * event.done / event.todo)

    if batch.run(split.moves, items, results=split.parts, watch=first_half,
                 describe=_part_text, unit="groups of first moves").interrupted:
        return 0
    known = _verdicts(batch.records(split.parts))
    finish = [(s, n, known.get((s, n), {}) if counts[(s, n)] else None) for s, n in pairs]

    def second_half(event: RunEvent) -> None:
        if event.record is None:
            return
        if split.bar is not None:
            split.bar.set(before + 0.5 * len(pairs) + 0.5 * event.done)
        if split.watch is not None:
            split.watch(RunEvent(event.record, event.records, before + event.done, total))

    return batch.run(split.finish, finish, key=lambda item: item[:2], results=split.results,
                     watch=second_half, describe=_log_text, unit="pairs").done


def _run_split(asked: Sequence[_Pair], split: _Split, scheduler: str | None,
               jobs: int | None, progress: TextIO | None, log: str | None) -> RunSummary:
    """The pairs asked for, split per first move, a block of pairs at a time, in one
    Batch; the ``.parts`` file is removed once every pair has its record."""
    start = time.perf_counter()
    distinct = list(dict.fromkeys(asked))
    todo: list[_Pair] = []
    done = resumed = 0
    records: Mapping[Hashable, dict[str, Any]] = types.MappingProxyType({})
    with Batch(scheduler, jobs, log=log, logger=_LOG) as batch:
        have = batch.records(split.results)
        resumed = len(have)
        todo = [p for p in distinct if p not in have]
        if split.watch is not None:
            split.watch(RunEvent(None, have, 0, len(todo)))
        if todo:
            _LOG.info("%d pairs to do (%d already done), split per first move", len(todo),
                     len(distinct) - len(todo))
            if progress is not None:
                split = dataclasses.replace(split, bar=ProgressBar(len(todo), progress,
                                                                unit="pairs"))
            block = max(MIN_BLOCK, BLOCK_PER_WORKER * batch.executor().workers)
            with contextlib.ExitStack() as stack:
                if split.bar is not None:
                    stack.callback(split.bar.close)
                for b in range(0, len(todo), block):
                    done += _split_block(batch, split, todo[b:b + block], done, len(todo))
                    if batch.interrupted:
                        break
        records = types.MappingProxyType(dict(batch.records(split.results)))
    if not batch.interrupted and os.path.exists(split.parts.path):
        os.remove(split.parts.path)   # every pair is in the results file now
    return RunSummary(todo=len(todo), done=done, skipped=len(distinct) - len(todo),
                      duplicates=len(asked) - len(distinct), resumed=resumed,
                      interrupted=batch.interrupted, seconds=time.perf_counter() - start,
                      records=records)


def run_analysis(
    pairs: Iterable[_Pair],
    rules: RuleSet,
    depth: int,
    out: str,
    *,
    canonical: bool = False,
    split: bool | None = None,
    group: int = GROUP,
    scheduler: str | None = None,
    jobs: int | None = None,
    progress: TextIO | None = None,
    log: str | None = None,
    watch: Callable[[RunEvent], None] | None = None,
    chunksize: int | None = None,
) -> RunSummary:
    """Analyse ``pairs`` into the results file ``out`` (appending; pairs already there are
    skipped, a pair asked twice is analysed once).

    ``canonical`` analyses the canonical pair standing for each pair asked for instead
    (:func:`~gyges.setups.pairs.canonical_pairs`), and marks the records so (the report
    counts each for its mirror too). ``split`` (default: from depth :data:`SPLIT_FROM` on)
    makes the tasks finer: each pair's first moves go out in groups of ``group``
    (:func:`first_move_verdicts`), then one task per pair combines them and computes the
    rest (:func:`combine_verdicts`, :func:`~gyges.setups.proven.analysis.analyse_pair`); the
    groups done are kept in ``out.parts`` (:func:`parts_file`), so that a resumed run
    does not redo them. The records are the same either way.

    The run is :func:`gyges.parallel.run_tasks` (``scheduler``, ``jobs``: the local pool or
    Dask; ``progress``: a bar on that stream; ``log``: a log file; ``watch``: told of the
    start and of each record; ``chunksize``: pairs a local worker takes at a time, None:
    sized to the work). Before any task, the path is checked and a file made with other
    parameters (or holding anything but records) is refused
    (:class:`~gyges.parallel.ResultsFileError`, :class:`~gyges.parallel.ParametersError`,
    :class:`~gyges.output.OutputError`); Ctrl-C or SIGTERM stops the run, every line
    written stays, and the summary says ``interrupted``.
    """
    if not MIN_ANALYSIS_DEPTH <= depth <= MAX_ANALYSIS_DEPTH:
        raise SetupError(f"depth {depth}: give {MIN_ANALYSIS_DEPTH} to {MAX_ANALYSIS_DEPTH}")
    if group < 1:
        raise SetupError(f"group {group}: give at least 1 first move per task")
    split = depth >= SPLIT_FROM if split is None else split
    asked = canonical_pairs(pairs) if canonical else list(pairs)
    wanted = AnalysisParams.of(rules, depth, canonical)
    results = analysis_results_file(out, wanted)
    if not split:
        return run_tasks(
            functools.partial(analyse_task, rules=rules, depth=depth, canonical=canonical,
                              made_by=wanted.engine),
            asked, results=results, scheduler=scheduler, jobs=jobs, progress=progress,
            unit="pairs", watch=watch, log=log, logger=_LOG, describe=_log_text,
            chunksize=chunksize)
    moves = functools.partial(moves_task, rules=rules, depth=depth, canonical=canonical,
                              made_by=wanted.engine)
    finish = functools.partial(finish_task, rules=rules, depth=depth, canonical=canonical,
                               made_by=wanted.engine)
    split_run = _Split(moves, finish, rules, group, results, parts_file(out, wanted), None,
                       watch)
    return _run_split(asked, split_run, scheduler, jobs, progress, log)
