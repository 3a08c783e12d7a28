"""What the puzzle tests share: the repository's catalogue (``puzzles/``) as they read it,
and the ``gyges`` command run in-process."""

from __future__ import annotations

from click.testing import Result
from common import PUZZLES, run_gyges

from gyges.puzzles.catalogue import Puzzle, load_all, load_catalogue

SEEDS = PUZZLES / "seed000.yaml"


def seed_puzzles() -> list[Puzzle]:
    """The worked examples of seed 000, in file order."""
    return list(load_catalogue(SEEDS).puzzles)


def all_puzzles() -> list[Puzzle]:
    """The puzzles of the top-level files of ``puzzles/`` (the wins in 5 of ``puzzles/deep/``
    take minutes each to prove)."""
    puzzles, errors = load_all([PUZZLES])
    assert not errors
    return puzzles


def every_puzzle() -> list[Puzzle]:
    """Every puzzle under ``puzzles/``, as the commands read it with no arguments."""
    puzzles, errors = load_all([PUZZLES], recursive=True)
    assert not errors
    return puzzles


def run(*args: object) -> Result:
    """``gyges ARGS`` in this process; an exception the command does not turn into an exit
    status is raised, not kept in the result."""
    return run_gyges(*args, catch_exceptions=False)
