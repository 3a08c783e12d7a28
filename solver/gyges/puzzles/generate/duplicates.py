"""Duplicate lookup for a generation run: the puzzles already in catalogue files
(:func:`~gyges.puzzles.catalogue.writing.known_puzzles`), as the canonical positions
(:func:`~gyges.puzzles.symmetry.canonical`) a run leaves out.

>>> known_positions(["no/such/catalogue.yaml"])
Traceback (most recent call last):
...
gyges.puzzles.generate.duplicates.KnownCatalogueError: no/such/catalogue.yaml: no such file or \
directory
"""

from __future__ import annotations

from collections.abc import Iterable
from pathlib import Path

from gyges.game.rules import RuleSet
from gyges.puzzles.catalogue.schema import CatalogueError, Puzzle, catalogue_files
from gyges.puzzles.catalogue.writing import known_puzzles
from gyges.puzzles.generate.params import GenerateError
from gyges.puzzles.symmetry import canonical

__all__ = ["KnownCatalogueError", "known_positions", "known_titles"]


class KnownCatalogueError(GenerateError):
    """A catalogue of known puzzles that cannot be used: ``error`` says why (the path does
    not exist, when ``missing``, or the file cannot be read)."""

    def __init__(self, error: CatalogueError, missing: bool) -> None:
        super().__init__(str(error) if missing else f"{error} (a catalogue of known puzzles)")
        self.error = error
        self.missing = missing


def known_positions(paths: Iterable[str | Path], rules: RuleSet | None = None,
                    exclude: str | Path | None = None) -> set[str]:
    """The canonical positions of the puzzles of the catalogue files, those in the
    directories' subdirectories included (under ``rules`` when given), but the file
    ``exclude``. A missing or unreadable file is a
    :class:`KnownCatalogueError` (a file that silently counted for nothing would let
    duplicates through)."""
    return {canonical(p.position) for p in _known(paths, exclude)
            if rules is None or p.rules == rules}


def known_titles(paths: Iterable[str | Path], exclude: str | Path | None = None) -> set[str]:
    """The titles of the puzzles of the catalogue files (as :func:`known_positions` reads
    them): a new puzzle's title is none of them."""
    return {p.title for p in _known(paths, exclude) if p.title}


def _known(paths: Iterable[str | Path], exclude: str | Path | None) -> list[Puzzle]:
    try:
        files = catalogue_files(paths, recursive=True)
    except CatalogueError as e:
        raise KnownCatalogueError(e, missing=True) from None
    try:
        return known_puzzles(files, exclude=exclude)
    except CatalogueError as e:
        raise KnownCatalogueError(e, missing=False) from None
