"""Puzzle generation: candidates, soundness, rating, themes, duplicates, and the run.

A *candidate* is a position with the side to move; it comes from one of two sources:

- ``play``: random, engine-guided play from random setups (no move that lets the opponent
  land at once; the first position of the game where the side to move wins in exactly the
  wanted number of moves is the candidate): :mod:`gyges.puzzles.play`;
- ``compose``: a CP-SAT model that builds a position around a designed idea (the winning
  landing after the key with a given number of bounces, a relocation in the key, a path
  that crosses itself under the taboo, a stalemate chain: the key leaves the opponent no
  legal move and the extra move lands): :mod:`gyges.puzzles.compose`.

Every candidate (:mod:`gyges.puzzles.judging`) goes to the solver
(:func:`~gyges.puzzles.soundness.assess`), which keeps it only when it is sound
(docs/generate.md): the stipulation is exact, there is one key, and the puzzle is not
trivial. Sound puzzles are rated (:mod:`gyges.puzzles.rating`), their themes tagged from
the main line the catalogue checker replays, and duplicates removed up to the board's
symmetries (:mod:`gyges.puzzles.symmetry`, :mod:`gyges.puzzles.duplicates`). :func:`run`
drives the candidates through a process pool, records each one in the run's state file
(:mod:`gyges.puzzles.state`, resumable) and writes the catalogue file
(:mod:`gyges.puzzles.entries`); :func:`collect` makes one catalogue of several runs.

This module holds the run and gathers the generator's public names from the modules that
hold them (:mod:`~gyges.puzzles.params` for the run's parameters).

>>> from gyges.game.position import Position
>>> p = Position.from_string("3....3/13..2./2...../1..31./....22/.1.... N")
>>> canonical(p) == canonical(p.mirrored()) == canonical(flipped(p))
True
>>> rating(Features(moves=2, single_tries=0, defences=5, key_bounces=0, quiet=False,
...                 nodes=100)).difficulty
1
"""

from __future__ import annotations

import dataclasses
import functools
import json
import logging
import os
import time
from collections.abc import Iterable, Sequence
from pathlib import Path
from typing import Any, TextIO

from gyges.output import OutputError, check_output, distinct
from gyges.parallel import Interrupted, Progress, log_to, open_executor
from gyges.puzzles.duplicates import KnownCatalogueError, known_positions
from gyges.puzzles.entries import (
    OutputNotCatalogue,
    catalogue_text,
    check_catalogue_out,
    entry_text,
    write_catalogue,
)
from gyges.puzzles.judging import candidate, candidate_seed, evaluate
from gyges.puzzles.params import (
    SOURCES,
    GenerateError,
    Params,
    ParamsError,
    Source,
    generated_moves,
    parse_themes,
)
from gyges.puzzles.rating import Features, Rating, rating
from gyges.puzzles.soundness import Assessment, assess, theme_matches
from gyges.puzzles.state import StateError, StateMismatch, read_state, repair, select
from gyges.puzzles.symmetry import canonical, flipped

__all__ = [
    "SOURCES", "Assessment", "Features", "GenerateError", "KnownCatalogueError",
    "OutputNotCatalogue", "Params", "ParamsError", "Rating", "RunSummary", "Source",
    "StateError", "StateMismatch", "assess", "canonical", "candidate", "candidate_seed",
    "catalogue_text", "collect", "entry_text", "evaluate", "flipped", "generated_moves",
    "known_positions", "parse_themes", "rating", "read_state", "run", "select",
    "theme_matches", "write_catalogue",
]

LOG = logging.getLogger("gyges.generate")


@dataclasses.dataclass(frozen=True)
class RunSummary:
    """What a run did: ``found`` puzzles written (of the ``count`` asked), ``tried``
    candidates judged in all, ``sound`` of them sound, ``resumed`` read from the state
    file, ``candidates`` judged by this run, ``interrupted`` (Ctrl-C or SIGTERM),
    ``limit`` (the most candidates it would judge) and the wall ``seconds``."""

    found: int
    tried: int
    sound: int
    resumed: int
    candidates: int
    interrupted: bool
    limit: int
    seconds: float


def check_outputs(out: Path, state: Path, force: bool = False) -> None:
    """Before a run: refuse the same file for both, and an ``out`` that is neither a
    catalogue of ours nor one the new puzzles can be added to (unless ``force``)."""
    try:
        distinct(("--out", out), ("--state", state))
        check_output(out, force=True)
        check_output(state, force=True, option="--state")
    except OutputError as e:
        raise GenerateError(str(e)) from None
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
        records = select(read_state(state, params), count, known)
        known |= {r["canonical"] for r in records}
        chosen.append((params, records))
    return write_catalogue(out, chosen, title, force=force)


# -- the run -------------------------------------------------------------------------------


class _Enough(Exception):
    """The puzzles are settled: stop judging (the workers are terminated)."""


def _settled(records: dict[int, dict[str, Any]], count: int, known: Iterable[str]) -> bool:
    """Are the run's puzzles known: ``count`` sound new ones, every lower index judged?"""
    chosen = select(records, count, known)
    return len(chosen) == count and all(i in records for i in range(chosen[-1]["index"]))


def _work(index: int, params: Params) -> dict[str, Any]:
    rec = evaluate(index, params)
    LOG.info("pid %d: candidate %d (%s): %s", os.getpid(), index, rec["source"],
             "sound" if rec["sound"] else "; ".join(rec["reasons"]))
    return rec


def run(params: Params, out: str | Path, count: int, *, jobs: int = 1,
        state: str | Path | None = None, max_candidates: int | None = None,
        against: Sequence[str | Path] = (), progress: TextIO | None = None,
        log: str | None = None, force: bool = False,
        scheduler: str | None = None) -> RunSummary:
    """Generate until ``count`` sound, new puzzles are found (or ``max_candidates`` were
    tried), write them to the catalogue file ``out`` and say what was done.

    Candidates are handed to the workers in index order; each candidate's record goes to the
    ``state`` file (default ``out`` + ``.jsonl``) as it arrives, and a rerun skips the
    indices there. The puzzles kept are the first ``count`` sound ones by index, whatever
    ``jobs`` and however often the run was interrupted. An existing ``out`` that the user
    wrote or edited keeps its text and gains the new puzzles (``force``: replaced). The
    candidates are judged on :func:`gyges.parallel.open_executor` (``scheduler``: the local
    pool, or Dask).
    """
    out = Path(out)
    state = Path(state) if state is not None else out.with_name(out.name + ".jsonl")
    if count < 1:
        raise GenerateError(f"count {count}: ask for at least 1 puzzle")
    if max_candidates is not None and max_candidates < 1:
        raise GenerateError(f"max_candidates {max_candidates}: give at least 1")
    max_candidates = max_candidates or 200 * count + 200
    check_outputs(out, state, force)
    records = read_state(state, params)
    known = known_positions(against, params.rules, exclude=out)
    repair(state)
    state.parent.mkdir(parents=True, exist_ok=True)
    resumed, judged, interrupted = len(records), 0, False
    bar = None
    if progress is not None:
        bar = Progress(count, progress, unit="puzzles", per_minute=True,
                       extra=lambda: f"{judged} candidates")
        bar.resume(len(select(records, count, known)))
    t0 = time.perf_counter()
    try:
        with log_to(log, LOG), open_executor(scheduler, jobs) as pool, \
                open(state, "a", encoding="utf-8") as f:
            if not _settled(records, count, known):
                work = functools.partial(_work, params=params)
                todo = [i for i in range(max_candidates) if i not in records]
                # one stream of candidates in index order, no batches: a worker that is
                # done takes the next index at once instead of waiting for the slowest of
                # its batch; once the puzzles are settled the few still being judged are
                # stopped
                for rec in pool.map_unordered(work, todo):
                    f.write(json.dumps(rec, sort_keys=True, separators=(",", ":")) + "\n")
                    f.flush()
                    records[rec["index"]] = rec
                    judged += 1
                    if bar is not None:
                        bar.set(len(select(records, count, known)))
                    if _settled(records, count, known):
                        raise _Enough   # the candidates still out cannot change the puzzles
    except _Enough:
        pass
    except Interrupted:
        interrupted = True
        LOG.info("interrupted after %d new candidates", judged)
    finally:
        if bar is not None:
            bar.close()
    chosen = select(records, count, known)
    write_catalogue(out, [(params, chosen)], force=force)
    return RunSummary(found=len(chosen), tried=len(records),
                      sound=sum(1 for r in records.values() if r["sound"]), resumed=resumed,
                      candidates=judged, interrupted=interrupted, limit=max_candidates,
                      seconds=round(time.perf_counter() - t0, 2))
