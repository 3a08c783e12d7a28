"""Selecting puzzles for a book: ``KEY=VALUE[,VALUE]`` criteria (:class:`Selection`), as
the export's ``--select`` gives them.

>>> s = Selection.parse(["difficulty=1-2", "theme=relocation,taboo", "source=games"])
>>> s
Selection('difficulty=1-2 theme=relocation,taboo source=games')
>>> s.criteria
(('difficulty', ('1-2',)), ('theme', ('relocation', 'taboo')), ('source', ('games',)))
"""

from __future__ import annotations

import dataclasses
import fnmatch
import re
from collections.abc import Sequence

from gyges.game.rules import Side
from gyges.puzzles.catalogue.schema import Puzzle
from gyges.puzzles.generate.params import Source

__all__ = ["SELECT_KEYS", "Selection", "SelectionError", "select_puzzles"]

SELECT_KEYS = ("id", "rules", "stipulation", "theme", "difficulty", "source")

_SELECT_STIPULATION = re.compile(
    r"^(?:(?P<side>south|north)\s+)?(?:(?P<kind>wins?|loss|loses|none|no forced result)"
    r"(?:\s+(?:in|within)\s+(?P<k>\d+))?)$", re.IGNORECASE)


class SelectionError(ValueError):
    """A criterion that cannot be read: ``text`` as given, ``problem`` what is wrong."""

    def __init__(self, text: str, problem: str) -> None:
        super().__init__(f"{text!r}: {problem}")
        self.text = text
        self.problem = problem


@dataclasses.dataclass(frozen=True)
class Selection:
    """Selection criteria: ``(key, values)`` pairs; a puzzle matches when, for every key,
    one of its values matches (values are alternatives, keys all apply). No criteria
    select every puzzle.

    >>> Selection.parse(["colour=red"])  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    gyges.puzzles.book.selection.SelectionError: 'colour=red': unknown key 'colour'; the keys ...
    """

    criteria: tuple[tuple[str, tuple[str, ...]], ...] = ()

    @classmethod
    def parse(cls, texts: Sequence[str]) -> Selection:
        """Read ``KEY=VALUE[,VALUE...]`` texts; :class:`SelectionError` says which one is
        wrong and why."""
        out = []
        for text in texts:
            key, sep, value = text.partition("=")
            key = key.strip().lower()
            values = tuple(v.strip() for v in value.split(",") if v.strip())
            if not sep or not values:
                raise SelectionError(text, "write KEY=VALUE, like difficulty=1-2 or "
                                     "theme=relocation")
            if key not in SELECT_KEYS:
                raise SelectionError(text, f"unknown key {key!r}; the keys are "
                                     f"{', '.join(SELECT_KEYS)}")
            for v in values:
                problem = _value_problem(key, v)
                if problem:
                    raise SelectionError(text, problem)
            out.append((key, values))
        return cls(tuple(out))

    def matches(self, puzzle: Puzzle) -> bool:
        """Does ``puzzle`` meet every criterion?"""
        return all(any(_matches(key, v, puzzle) for v in values)
                   for key, values in self.criteria)

    def __str__(self) -> str:
        return " ".join(f"{k}={','.join(v)}" for k, v in self.criteria)

    def __repr__(self) -> str:
        return f"Selection({str(self)!r})"


def _value_problem(key: str, value: str) -> str | None:
    if key == "difficulty" and not re.fullmatch(r"[1-5](-[1-5])?|unrated", value):
        return f"difficulty {value!r}: give 1 to 5, a range like 2-4, or 'unrated'"
    if key == "stipulation" and not _SELECT_STIPULATION.match(value):
        return (f"stipulation {value!r}: give 'win', 'win in 2', 'South wins in 2', "
                "'loss', 'loses in 3' or 'none'")
    return None


def _matches(key: str, value: str, p: Puzzle) -> bool:
    if key == "id":
        return fnmatch.fnmatchcase(p.id, value)
    if key == "rules":
        return p.rules.name == value.lower()
    if key == "theme":
        v = value.lower()
        return any(t.lower() == v or (v == "bounce chain" and t.startswith("bounce chain"))
                   for t in p.themes)
    if key == "source":
        return _from_source(value, p.source)
    if key == "difficulty":
        if value == "unrated":
            return p.difficulty is None
        lo, _, hi = value.partition("-")
        return p.difficulty is not None and int(lo) <= p.difficulty <= int(hi or lo)
    m = _SELECT_STIPULATION.match(value)
    assert m is not None
    st = p.stipulation
    kind = m.group("kind").lower()
    kind = "win" if kind.startswith("win") else "loss" if kind.startswith("los") else "none"
    if kind != st.kind or (m.group("k") and int(m.group("k")) != st.moves):
        return False
    return not m.group("side") or Side.parse(m.group("side")) is p.position.turn


def _from_source(value: str, source: str) -> bool:
    """Does an entry's ``source`` text match ``value``: the generator's source kinds
    ``play``, ``compose`` and ``games`` by how their texts begin
    (:attr:`~gyges.puzzles.generate.params.Source.text`), anything else as words of the text (in
    any case)?

    >>> _from_source("games", "engine self-play (the builtin engine ...)")
    True
    >>> _from_source("play", "engine self-play"), _from_source("seed 000", "Seed 000: ...")
    (False, True)
    """
    if value.lower() in {s.value for s in Source}:
        return source.lower().startswith(Source(value.lower()).text.lower())
    return re.search(rf"(?<!\w){re.escape(value)}(?!\w)", source, re.IGNORECASE) is not None


def select_puzzles(puzzles: Sequence[Puzzle], selection: Selection) -> list[Puzzle]:
    """The puzzles that match ``selection``, in their order."""
    return [p for p in puzzles if selection.matches(p)]
