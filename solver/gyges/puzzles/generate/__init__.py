"""Puzzle generation: candidates, soundness, rating, themes, duplicates, and the run.

A *candidate* is a position with the side to move; it comes from one of three sources:

- ``play``: random, engine-guided play from random setups (no move that lets the opponent
  land at once; the first position of the game where the side to move wins in exactly the
  wanted number of moves is the candidate): :mod:`~gyges.puzzles.generate.play`;
- ``compose``: a CP-SAT model that builds a position around a designed idea (the winning
  landing after the key with a given number of bounces, a relocation in the key, a path
  that crosses itself under the taboo, a stalemate chain: the key leaves the opponent no
  legal move and the extra move lands): :mod:`~gyges.puzzles.generate.compose`;
- ``games``: the builtin engine's self-play games from random setups:
  :mod:`~gyges.puzzles.generate.games`.

Every candidate (:mod:`~gyges.puzzles.generate.candidates`) goes to the solver
(:func:`~gyges.puzzles.generate.soundness.assess_soundness`), which keeps it only when it
is sound (docs/generate.md): the stipulation is exact, there is one key, and the puzzle is
not trivial. Sound puzzles are rated (:mod:`gyges.puzzles.rating`), their themes tagged
from the main line the catalogue checker replays, and duplicates removed up to the
board's symmetries (:mod:`gyges.puzzles.symmetry`,
:mod:`~gyges.puzzles.generate.duplicates`). :func:`generate_puzzles`
(:mod:`~gyges.puzzles.generate.run`) drives the candidates through the shared resumable
run (:func:`gyges.parallel.run_tasks`), each one's record kept in the run's state file
(:mod:`~gyges.puzzles.generate.state`), and writes the catalogue file
(:mod:`~gyges.puzzles.generate.entries`); :func:`collect` makes one catalogue of several
runs. A run's parameters are a :class:`Params` (:mod:`~gyges.puzzles.generate.params`).

This package is the generator's public face: the names below are those of its modules.
"""

from gyges.puzzles.generate.duplicates import KnownCatalogueError
from gyges.puzzles.generate.entries import OutputNotCatalogue
from gyges.puzzles.generate.params import (
    SOURCES,
    GenerateError,
    Params,
    ParamsError,
    Source,
    generated_moves,
    parse_themes,
)
from gyges.puzzles.generate.run import Generated, OutputPathError, collect, generate_puzzles
from gyges.puzzles.generate.soundness import SoundnessAssessment, assess_soundness
from gyges.puzzles.generate.state import (
    CandidateRecord,
    StateError,
    StateMismatch,
    read_state,
    state_path,
)

__all__ = [
    "SOURCES", "CandidateRecord", "GenerateError", "Generated", "KnownCatalogueError",
    "OutputNotCatalogue", "OutputPathError", "Params", "ParamsError", "SoundnessAssessment",
    "Source", "StateError", "StateMismatch", "assess_soundness", "collect", "generate_puzzles",
    "generated_moves", "parse_themes", "read_state", "state_path",
]
