"""The generation run: :func:`generate_puzzles` drives a run's candidates through the
shared resumable run (:func:`gyges.parallel.run_tasks`), each one made and judged by
:func:`~gyges.puzzles.generate.candidates.evaluate` and its record kept in the run's state
file (:mod:`~gyges.puzzles.generate.state`), until ``count`` sound, new puzzles are
settled; it writes them to a catalogue file (:mod:`~gyges.puzzles.generate.entries`).
:func:`collect` makes one catalogue of the state files of several runs.
"""

from __future__ import annotations

import dataclasses
import functools
import itertools
import logging
import os
from collections.abc import Iterable, Mapping, Sequence
from pathlib import Path
from typing import Any, TextIO

from gyges.output import OutputError, check_output, distinct
from gyges.parallel import ProgressBar, RunEvent, RunSummary, run_tasks
from gyges.puzzles.generate.candidates import evaluate
from gyges.puzzles.generate.duplicates import known_positions, known_titles
from gyges.puzzles.generate.entries import check_catalogue_out, write_catalogue
from gyges.puzzles.generate.params import GenerateError, Params
from gyges.puzzles.generate.state import (
    CandidateRecord,
    read_state,
    select,
    state_errors,
    state_file,
    state_path,
)

__all__ = ["Generated", "OutputPathError", "check_outputs", "collect", "generate_puzzles",
           "settled", "settled_count"]

_LOG = logging.getLogger("gyges.generate")


@dataclasses.dataclass(frozen=True)
class Generated:
    """What a generation run did: ``found`` puzzles written (of the ``count`` asked),
    ``limit`` (the most candidates it would judge) and ``run``, the resumable run's summary
    (:class:`gyges.parallel.RunSummary`: the candidates judged by this run, ``done``;
    those read from the state file, ``resumed``; ``interrupted``; the wall ``seconds``;
    every candidate's record as JSON, ``records``), and ``records``, every candidate's
    record by index."""

    found: int
    count: int
    limit: int
    run: RunSummary
    records: Mapping[int, CandidateRecord] = dataclasses.field(default_factory=dict)

    @property
    def tried(self) -> int:
        """Candidates judged in all, by this run and earlier ones."""
        return len(self.records)

    @property
    def sound(self) -> int:
        """Sound candidates among them."""
        return sum(1 for r in self.records.values() if r.sound)


class OutputPathError(GenerateError):
    """An output path that cannot be written (:mod:`gyges.output`'s policy; its words name
    no option)."""


def check_outputs(out: Path, state: Path, force: bool = False) -> None:
    """Before a run: refuse the same file for both, a path that cannot be a file
    (:class:`OutputPathError`), and an ``out`` that is neither a catalogue of ours nor one
    the new puzzles can be added to (:class:`OutputNotCatalogue`, unless ``force``)."""
    try:
        distinct(("the catalogue", out), ("the state file", state))
        check_output(out, force=True)
        check_output(state, force=True)
    except OutputError as e:
        raise OutputPathError(str(e)) from None
    check_catalogue_out(out, force)


def collect(out: str | Path, runs: Sequence[tuple[Params, str | Path, int]],
            against: Sequence[str | Path] = (), title: str = "", force: bool = False) -> str:
    """One catalogue file from the state files of several runs: each run's first ``count``
    sound puzzles that are new (not in ``against``, nor in an earlier run of the list)."""
    known = set()
    for params, _, _ in runs:
        known |= known_positions(against, params.rules, exclude=out)
    chosen = []
    for params, state, count in runs:
        records = settled(read_state(state, params), count, known)
        known |= {r.canonical for r in records if r.canonical is not None}
        chosen.append((params, records))
    return write_catalogue(out, chosen, title, force=force,
                           counts=[count for _, _, count in runs],
                           taken=known_titles(against, exclude=out))


# -- the run -------------------------------------------------------------------------------


class _Typed:
    """The run's records as :class:`CandidateRecord` values by index, each read once (the
    shared run hands its stop condition and its watcher the records as JSON)."""

    def __init__(self) -> None:
        self.values: dict[int, CandidateRecord] = {}

    def __call__(self, records: Mapping[Any, dict[str, Any]]) -> dict[int, CandidateRecord]:
        for k, r in records.items():
            if k not in self.values:
                self.values[k] = CandidateRecord.from_json(r)
        return self.values


def _settled(records: Mapping[Any, dict[str, Any]], count: int, known: frozenset[str],
             typed: _Typed) -> bool:
    """Are the run's puzzles known: ``count`` sound new ones, every lower index judged? (The
    candidates still being judged cannot change them.)"""
    values = typed(records)
    chosen = select(values, count, known)
    return len(chosen) == count and all(i in values for i in range(chosen[-1].index))


def settled(records: Mapping[int, CandidateRecord], count: int,
            known: Iterable[str] = frozenset()) -> list[CandidateRecord]:
    """The run's puzzles that are settled: of the first ``count`` sound, new ones, those
    with every lower index judged (a candidate still being judged, or never judged in an
    interrupted run, may come before a sound one found later: what follows it is not yet
    the run's). These, and only these, are written to the catalogue.

    >>> def sound(i): return CandidateRecord(i, True, canonical=f"p{i}")
    >>> [r.index for r in settled({0: sound(0), 1: CandidateRecord(1, False), 2: sound(2)}, 2)]
    [0, 2]
    >>> [r.index for r in settled({0: sound(0), 2: sound(2)}, 2)]
    [0]
    """
    first_missing = next(i for i in itertools.count() if i not in records)
    return [r for r in select(records, count, known) if r.index < first_missing]


def settled_count(records: Mapping[int, CandidateRecord], count: int,
                  known: frozenset[str]) -> int:
    """How many of the run's puzzles are :func:`settled` (the progress bar's count)."""
    return len(settled(records, count, known))


def _work(index: int, params: Params) -> dict[str, Any]:
    rec = evaluate(index, params)
    _LOG.info("pid %d: candidate %d (%s): %s", os.getpid(), index, rec.source,
              "sound" if rec.sound else "; ".join(rec.reasons))
    return rec.to_json()


def _candidate_text(record: dict[str, Any]) -> str:
    return f"candidate {record['index']}"


def generate_puzzles(params: Params, out: str | Path, count: int, *, jobs: int = 1,
                     state: str | Path | None = None, max_candidates: int | None = None,
                     against: Sequence[str | Path] = (), progress: TextIO | None = None,
                     log: str | None = None, force: bool = False,
                     scheduler: str | None = None) -> Generated:
    """Generate until ``count`` sound, new puzzles are found (or ``max_candidates`` were
    tried), write them to the catalogue file ``out`` and say what was done.

    The candidates (their indices) go through the resumable run (:func:`gyges.parallel.run_tasks`:
    the local pool of ``jobs`` workers, or Dask with ``scheduler``) in index order; each
    candidate's record goes to the ``state`` file (default :func:`state_path`) as it
    arrives, and a rerun skips the indices there. The run stops once the puzzles are
    settled: the first ``count`` sound ones by index, every lower index judged, whatever
    ``jobs`` and however often the run was interrupted. An existing ``out`` that the user
    wrote or edited keeps its text and gains the new puzzles (``force``: replaced). Raises
    :class:`GenerateError` (:class:`OutputPathError`, :class:`OutputNotCatalogue`,
    :class:`StateError`, :class:`KnownCatalogueError`) before any candidate is judged, and
    :class:`gyges.parallel.ExecutorError` for an executor it cannot open.
    """
    out = Path(out)
    state = Path(state) if state is not None else state_path(out)
    if count < 1:
        raise GenerateError(f"count {count}: ask for at least 1 puzzle")
    if max_candidates is not None and max_candidates < 1:
        raise GenerateError(f"max_candidates {max_candidates}: give at least 1")
    max_candidates = max_candidates or 200 * count + 200
    check_outputs(out, state, force)
    known = frozenset(known_positions(against, params.rules, exclude=out))
    judged = 0
    typed = _Typed()
    bar = None
    if progress is not None:
        bar = ProgressBar(count, progress, unit="puzzles", per_minute=True,
                       extra=lambda: f"{judged} candidates")

    def show(event: RunEvent) -> None:
        nonlocal judged
        judged = event.done
        if bar is not None:
            found = settled_count(typed(event.records), count, known)
            if event.record is None:
                bar.resume(found)
            else:
                bar.set(found)

    try:
        with state_errors():
            summary = run_tasks(
                functools.partial(_work, params=params), range(max_candidates),
                results=state_file(state, params), scheduler=scheduler, jobs=jobs,
                watch=show,
                stop=functools.partial(_settled, count=count, known=known, typed=typed),
                log=log, logger=_LOG, describe=_candidate_text)
    finally:
        if bar is not None:
            bar.close()
    records = typed(summary.records)
    chosen = settled(records, count, known)
    write_catalogue(out, [(params, chosen)], force=force, counts=[count],
                    taken=known_titles(against, exclude=out))
    return Generated(len(chosen), count, max_candidates, summary, dict(records))
