"""A run's candidates: candidate *i* made from its own seed by its source (:func:`candidate`:
:mod:`~gyges.puzzles.generate.play`, :mod:`~gyges.puzzles.generate.games` or
:mod:`~gyges.puzzles.generate.compose`) and judged by the solver into its state record
(:func:`evaluate`, a :class:`~gyges.puzzles.generate.state.CandidateRecord`).

>>> from gyges.game.rules import PRESETS
>>> params = Params(2, PRESETS["pbmserv"], seed=11, sources=("play",))
>>> candidate(5, params) == candidate(5, params)
True
"""

from __future__ import annotations

import dataclasses
import hashlib
import random
import time
from typing import Any

from gyges.game.position import Position
from gyges.puzzles.generate.compose import compose_candidate
from gyges.puzzles.generate.games import games_candidate, games_design, history_problems
from gyges.puzzles.generate.params import Params, Source
from gyges.puzzles.generate.play import play_candidate
from gyges.puzzles.generate.soundness import assess_soundness, theme_matches
from gyges.puzzles.generate.state import CandidateRecord
from gyges.puzzles.symmetry import canonical

__all__ = ["candidate", "candidate_seed", "evaluate"]


def candidate_seed(seed: int, index: int) -> int:
    """The candidate's own seed: a hash of the run's seed and the candidate's index, so a
    candidate is the same whichever worker makes it and whatever ran before.

    >>> candidate_seed(1, 2) == candidate_seed(1, 2) != candidate_seed(2, 1)
    True
    """
    digest = hashlib.sha256(f"gyges-generate:{seed}:{index}".encode()).digest()
    return int.from_bytes(digest[:8], "big")


def candidate(index: int, params: Params) -> tuple[Source, Position | None, dict[str, Any]]:
    """Candidate ``index`` of a run: (source, position or None, what the source says)."""
    rng = random.Random(candidate_seed(params.seed, index))
    source = params.source_of(index)
    if source is Source.PLAY:
        return source, play_candidate(rng, params.rules, params.moves), {}
    if source is Source.GAMES:
        found = games_candidate(rng, params.rules, params.moves)
        return source, (None if found is None else found.position), \
            ({} if found is None else games_design(found))
    pos, design = compose_candidate(rng, params.rules, params.moves, params.themes)
    return source, pos, design


def evaluate(index: int, params: Params) -> CandidateRecord:
    """Make and judge candidate ``index``: its state record."""
    t0 = time.perf_counter()
    source, pos, design = candidate(index, params)
    if pos is None:
        why = "no candidate: the game ended or no exact win came up"
        if "model" in design:
            m = design["model"]
            why = (f"no candidate: {m['proposals']} CP-SAT proposals ({m['engine']} refused "
                   f"by the engine, {m['accept']} not an exact win with one key), "
                   f"{m['infeasible']} of {m['paths']} paths infeasible")
        record = CandidateRecord(index, False, (why,), source, design=design)
    else:
        # a games candidate is judged with its game before it, as its entry is checked:
        # under the Renop law no move may bring back one of the game's boards
        history = [Position.from_string(h) for h in design.get("history", ())]
        a = assess_soundness(pos, params.rules, params.moves, no_duals=params.no_duals,
                             min_tries=params.min_tries, history=history)
        sound, reasons = a.sound, a.reasons
        problems = history_problems(a, params.rules, params.moves, history) if a.sound else []
        if problems:   # what the catalogue's check of the entry would say otherwise
            sound = False
            reasons = tuple(f"with the game's history: {p}" for p in problems)
        if a.sound and params.themes and not theme_matches(params.themes, a.themes):
            sound = False
            reasons = (f"themes {', '.join(a.themes)} lack {', '.join(params.themes)}",)
        record = CandidateRecord(
            index, sound, reasons, source, pos, canonical(pos), design, a.key, a.main_line,
            a.themes, a.features, a.rating, a.tries, a.duals, a.threats)
    return dataclasses.replace(record, seconds=round(time.perf_counter() - t0, 3),
                               params=params.to_json())
