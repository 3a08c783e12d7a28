"""The setup search: every setup or pair meeting some constraints, exactly.

:func:`search` lists every setup or pair meeting a
:class:`~gyges.setups.search.constraints.Constraints` (read by
:func:`~gyges.setups.search.options.constraints_from_options`): the CP-SAT model
(:mod:`gyges.setups.search.model`) proposes, and the engine judges what only it can
(:func:`check_pair`, with the figures of :mod:`gyges.setups.search.figures`), each
rejected assignment cut, until the model is exhausted.

>>> from gyges.game.rules import PRESETS
>>> from gyges.setups.search.options import constraints_from_options
>>> c = constraints_from_options({"fix": ["3@1", "3@6"], "apart": ["1"]})
>>> search(c, PRESETS["pbmserv"])
['312123', '312213', '321213']
>>> search(constraints_from_options({"side": "pair"}), PRESETS["pbmserv"], count_only=True)
8100
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from gyges.game.moves import legal_moves
from gyges.game.position import Position
from gyges.game.rules import RuleSet
from gyges.setups.search.constraints import Constraints, SearchResult
from gyges.setups.search.figures import forced_landing_within, replace_threats
from gyges.setups.search.model import RoundProgress, solutions

__all__ = ["check_pair", "find_setups", "search"]


def check_pair(south: str, north: str, c: Constraints, rules: RuleSet) -> bool:
    """Do the engine properties of ``c`` hold for the start position of this pair?"""
    position = Position.setup(south, north)
    if c.min_moves is not None:
        ml = legal_moves(position, rules)
        if ml.blocked or len(ml) < c.min_moves:
            return False
    if c.max_replace_threats is not None:
        if replace_threats(position, rules) > c.max_replace_threats:
            return False
    if c.lands_in is not None and not forced_landing_within(position, rules, c.lands_in):
        return False
    if c.cannot_land_in is not None and forced_landing_within(position, rules, c.cannot_land_in):
        return False
    return True


def search(
    c: Constraints,
    rules: RuleSet,
    count_only: bool = False,
    progress: Callable[[RoundProgress], None] | None = None,
) -> list[Any] | int:
    """Every setup (``side`` south or north: six-digit strings) or pair (``(south, north)``)
    meeting ``c``, sorted; with ``count_only`` just how many.

    The engine properties of ``c`` (under ``rules``) are judged lazily by
    :func:`check_pair` (:func:`gyges.setups.search.model.solutions`); ``progress`` hears
    how the rounds go.
    """
    def judge(south: str, north: str) -> bool:
        return check_pair(south, north, c, rules)

    results = solutions(c, judge if c.engine else None, progress)
    return len(results) if count_only else results


def find_setups(c: Constraints, rules: RuleSet,
                progress: Callable[[RoundProgress], None] | None = None) -> SearchResult:
    """:func:`search` as a :class:`~gyges.setups.search.constraints.SearchResult` (with its
    JSON form).

    >>> from gyges.game.rules import PRESETS
    >>> from gyges.setups.search.options import constraints_from_options
    >>> c = constraints_from_options({"fix": ["3@1", "3@6"], "apart": ["1"]})
    >>> r = find_setups(c, PRESETS["pbmserv"])
    >>> r, r.lines()
    (SearchResult(south: 3, rules pbmserv), ['312123', '312213', '321213'])
    """
    results = search(c, rules, progress=progress)
    assert isinstance(results, list)
    return SearchResult(c.side, c.canonical, rules, tuple(results))
