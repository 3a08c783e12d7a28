"""The setup space: a setup's mirror, the pairs of setups, and the pairs asked for; the
error every part of :mod:`gyges.setups` raises (:class:`SetupError`).

A setup is one side's arrangement of two 1s, two 2s and two 3s on its starting row, written
as six digits for columns 1..6 as drawn (``231123``): 90 per side
(:data:`gyges.game.position.ALL_SETUPS`), 8,100 pairs. A pair's start position is
``Position.setup(south, north)``, South to move. The rules are the same mirrored left to
right, so a pair and its mirror (both rows reversed) have the same figures and verdict:
4,068 canonical pairs stand for all 8,100 (:func:`canonical_pair`,
:func:`canonical_pairs`). A list of pairs is read from text, one ``SOUTH NORTH`` pair per
line (:func:`parse_pairs`).

>>> len(ALL_SETUPS), ALL_SETUPS[0], ALL_SETUPS[-1]
(90, '112233', '332211')
"""

from __future__ import annotations

import itertools
from collections.abc import Iterable

from gyges.formats.notation import parse_setup
from gyges.game.position import ALL_SETUPS, canonical_pair, mirror_setup
from gyges.game.rules import Side

__all__ = ["PairListError", "PairSelectionError", "SetupError", "all_pairs", "canonical_pair",
           "canonical_pairs", "mirror_setup", "parse_pairs", "select_pairs"]


class SetupError(ValueError):
    """A constraint that cannot be read, or a setup search or analysis that cannot be made
    (the error of every part of :mod:`gyges.setups`)."""


def canonical_pairs(pairs: Iterable[tuple[str, str]]) -> list[tuple[str, str]]:
    """The canonical pairs standing for ``pairs`` (each pair or its mirror), once each,
    sorted.

    >>> canonical_pairs([("321132", "112233"), ("231123", "332211"), ("231123", "231123")])
    [('231123', '231123'), ('231123', '332211')]
    >>> len(canonical_pairs(all_pairs()))
    4068
    """
    return sorted({canonical_pair(s, n) for s, n in pairs})


def all_pairs(souths: Iterable[str] = ALL_SETUPS, norths: Iterable[str] = ALL_SETUPS
              ) -> list[tuple[str, str]]:
    """Every (south, north) pair of the given setups, sorted."""
    return sorted(itertools.product(sorted(set(souths)), sorted(set(norths))))


class PairSelectionError(SetupError):
    """A list of setups that cannot be read: ``side`` is the side it was given for,
    ``problem`` what is wrong with it."""

    def __init__(self, side: Side, problem: str) -> None:
        super().__init__(f"{side.title}'s setups: {problem}")
        self.side = side
        self.problem = problem


def select_pairs(south: str = "all", north: str = "all") -> list[tuple[str, str]]:
    """The pairs asked for: ``all`` or a comma-separated list of setups on each side.

    >>> len(select_pairs()), select_pairs("231123", "321123,123321")
    (8100, [('231123', '123321'), ('231123', '321123')])
    >>> select_pairs("231123", "32112")
    Traceback (most recent call last):
    ...
    gyges.setups.pairs.PairSelectionError: North's setups: '32112' is not a setup: ...
    """

    def setups(text: str, side: Side) -> list[str]:
        if text.strip().lower() == "all":
            return list(ALL_SETUPS)
        try:
            return sorted({parse_setup(t) for t in text.split(",")})
        except ValueError as e:
            raise PairSelectionError(side, str(e)) from None

    return [(s, n) for s in setups(south, Side.SOUTH) for n in setups(north, Side.NORTH)]


class PairListError(SetupError):
    """A list of pairs that cannot be read: ``source`` (a file name), ``line`` (None for
    the list as a whole) and ``problem``; ``str()`` is ``source:line: problem``."""

    def __init__(self, source: str, line: int | None, problem: str) -> None:
        super().__init__(f"{source}:{line}: {problem}" if line else f"{source}: {problem}")
        self.source = source
        self.line = line
        self.problem = problem


def parse_pairs(text: str, source: str = "<pairs>") -> list[tuple[str, str]]:
    """The pairs of a list, in its order: one ``SOUTH NORTH`` pair per line, as ``gyges
    setups search --side pair`` prints them; blank lines and ``#`` comments are skipped.

    >>> parse_pairs("# two pairs\\n231123 321123\\n\\n112233 332211  # mirrors\\n")
    [('231123', '321123'), ('112233', '332211')]
    >>> parse_pairs("231123 321123\\n231123\\n", "p.txt")
    Traceback (most recent call last):
    ...
    gyges.setups.pairs.PairListError: p.txt:2: '231123' is not a pair: write SOUTH NORTH, ...
    """
    pairs = []
    for number, line in enumerate(text.splitlines(), 1):
        words = line.split("#", 1)[0].split()
        if not words:
            continue
        if len(words) != 2:
            shown = " ".join(words)
            shown = shown if len(shown) <= 40 else shown[:37] + "..."
            raise PairListError(source, number, f"{shown!r} is not a pair: write SOUTH NORTH, "
                                                "two setups like 231123 321123")
        try:
            pairs.append((parse_setup(words[0]), parse_setup(words[1])))
        except ValueError as e:
            raise PairListError(source, number, str(e)) from None
    if not pairs:
        raise PairListError(source, None, "no pairs: write one SOUTH NORTH pair per line, as "
                                          "'gyges setups search --side pair' prints them")
    return pairs
