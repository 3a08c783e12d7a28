"""The values of a setup search: what it asks for, and what it found.

A :class:`Constraints` is what ``gyges setups search`` asks for: what is enumerated
(:class:`SearchSide`), placement constraints on each side's row (:class:`SideConstraints`,
with :class:`Count` s of a size on some columns), North's row tied to South's
(:class:`NorthAs`), and properties of the start position that only the engine can judge.
Its :meth:`~Constraints.options` are the option keys it is read from
(:func:`gyges.setups.search.options.constraints_from_options` reads them back), and it prints as
them. A :class:`SearchResult` is what a search found, with its JSON form.

>>> c = Constraints(SearchSide.PAIR, north=SideConstraints(fixed=((3, 1),)), canonical=True)
>>> c
Constraints({'side': 'pair', 'fix': ['N:3@1'], 'canonical': True})
>>> c.engine, str(c.side)
(False, 'pair')
"""

from __future__ import annotations

import dataclasses
import itertools
from collections.abc import Mapping, Sequence
from enum import Enum
from typing import Any

from gyges.formats.notation import parse_setup
from gyges.game.rules import RuleSet, Side
from gyges.setups.pairs import SetupError

__all__ = [
    "Constraints", "Count", "CountOp", "NorthAs", "SearchResult", "SearchSide", "SideConstraints",
]

SIZES = (1, 2, 3)
COLUMNS = (1, 2, 3, 4, 5, 6)
CENTRE = (3, 4)
EDGES = (1, 6)


class _Word(str, Enum):
    """An enum whose members are words: they print, format and compare (and go to JSON)
    as their value."""

    def __str__(self) -> str:
        return str(self.value)


class SearchSide(_Word):
    """What a search enumerates: South's setups, North's, or pairs of them."""

    SOUTH = "south"
    NORTH = "north"
    PAIR = "pair"


class NorthAs(_Word):
    """How North's row is tied to South's: ``mirror``, North's row is South's as drawn
    (each ring faces one of its size across the board); ``rotated``, South's turned half a
    turn (each player sees the same arrangement from their own side)."""

    MIRROR = "mirror"
    ROTATED = "rotated"


class CountOp(_Word):
    """How a :class:`Count` compares."""

    EQ = "="
    LE = "<="
    GE = ">="


@dataclasses.dataclass(frozen=True)
class Count:
    """How many rings of ``size`` stand on some columns, compared by ``op`` to ``count``.

    >>> k = Count(3, CountOp.GE, 1)
    >>> str(k), k.holds(2), k.holds(0)
    ('3>=1', True, False)
    """

    size: int
    op: CountOp
    count: int

    def holds(self, n: int) -> bool:
        if self.op is CountOp.EQ:
            return n == self.count
        return n <= self.count if self.op is CountOp.LE else n >= self.count

    def __str__(self) -> str:
        return f"{self.size}{self.op}{self.count}"

    def __repr__(self) -> str:
        return f"Count({str(self)!r})"


@dataclasses.dataclass(frozen=True, repr=False)
class SideConstraints:
    """Placement constraints on one side's setup (columns 1..6 as drawn).

    >>> SideConstraints(fixed=((3, 1),), off=((3, 1), (3, 6)), apart=frozenset({1, 3}))
    SideConstraints({'fix': ['3@1'], 'off': ['3@16'], 'apart': ['13']})
    """

    setup: str | None = None  #: the setup is fixed
    fixed: tuple[tuple[int, int], ...] = ()  #: (size, column): that size stands there
    off: tuple[tuple[int, int], ...] = ()  #: (size, column): that size does not
    apart: frozenset[int] = frozenset()  #: sizes whose two rings are not adjacent
    symmetric: bool = False  #: the setup reads the same mirrored
    centre: tuple[Count, ...] = ()  #: counts of a size on columns 3-4
    edges: tuple[Count, ...] = ()  #: counts of a size on columns 1 and 6

    @property
    def empty(self) -> bool:
        return self == SideConstraints()

    def placements(self, prefix: str = "") -> dict[str, list[str]]:
        """The placement options of these constraints (``fix``, ``off``, ``apart``,
        ``centre``, ``edges``), each value starting with ``prefix`` (``S:``, ``N:``). The
        fixed setup and ``symmetric`` are not placements: :meth:`Constraints.options`
        writes them under the side's name."""
        offs = itertools.groupby(sorted(self.off), key=lambda p: p[0])
        out = {
            "fix": [f"{prefix}{s}@{c}" for s, c in self.fixed],
            "off": [f"{prefix}{s}@{''.join(str(c) for _, c in cols)}" for s, cols in offs],
            "apart": [f"{prefix}{''.join(str(s) for s in sorted(self.apart))}"] if self.apart
            else [],
            "centre": [f"{prefix}{k}" for k in self.centre],
            "edges": [f"{prefix}{k}" for k in self.edges],
        }
        return {key: values for key, values in out.items() if values}

    def __repr__(self) -> str:
        shown: dict[str, Any] = {}
        if self.setup is not None:
            shown["setup"] = self.setup
        shown.update(self.placements())
        if self.symmetric:
            shown["symmetric"] = True
        return f"SideConstraints({shown!r})"


@dataclasses.dataclass(frozen=True, repr=False)
class Constraints:
    """What a setup search asks for.

    ``side`` is what is enumerated; ``north_as`` ties North's row to South's. The engine
    properties (``lands_in`` ... ``max_replace_threats``) are those of the start position
    with South to move.
    """

    side: SearchSide = SearchSide.SOUTH
    south: SideConstraints = SideConstraints()
    north: SideConstraints = SideConstraints()
    north_as: NorthAs | None = None
    lands_in: int | None = None  #: South has a forced landing within this many moves
    cannot_land_in: int | None = None  #: South has no forced landing within this many moves
    min_moves: int | None = None  #: South has at least this many distinct first moves
    max_replace_threats: int | None = None  #: at most this many exposed first moves (0: none)
    canonical: bool = False  #: mirror-equivalent solutions reported once

    @property
    def engine(self) -> bool:
        """Are there properties only the engine can judge?"""
        return any(
            v is not None
            for v in (self.lands_in, self.cannot_land_in, self.min_moves, self.max_replace_threats)
        )

    @property
    def placed(self) -> tuple[Side, ...]:
        """The sides whose rows the search places: the side searched, and the other one
        when it is fixed or tied to the searched one (both for pairs), South first."""
        if self.side is SearchSide.PAIR:
            return (Side.SOUTH, Side.NORTH)
        searched = Side.SOUTH if self.side is SearchSide.SOUTH else Side.NORTH
        if self.of(searched.other).setup is not None or self.north_as is not None:
            return (Side.SOUTH, Side.NORTH)
        return (searched,)

    def of(self, side: Side) -> SideConstraints:
        """The placement constraints on ``side``'s row."""
        return self.south if side is Side.SOUTH else self.north

    def options(self) -> dict[str, Any]:
        """The option keys and values these constraints are read from, the defaults left
        out (placements always name their side: ``S:3@1``).

        >>> from gyges.setups.search.options import constraints_from_options
        >>> c = constraints_from_options({"side": "pair", "off": "3@16", "min-moves": 300})
        >>> c.options()
        {'side': 'pair', 'off': ['S:3@16'], 'min-moves': 300}
        >>> constraints_from_options(c.options()) == c
        True
        """
        out: dict[str, Any] = {"side": self.side.value}
        placements = {side: self.of(side).placements(f"{side.value}:")
                      for side in (Side.SOUTH, Side.NORTH)}
        for key in ("fix", "off", "apart", "symmetric", "centre", "edges"):
            if key == "symmetric":
                symmetric = [s.title.lower() for s in (Side.SOUTH, Side.NORTH)
                             if self.of(s).symmetric]
                if symmetric:
                    out[key] = "both" if len(symmetric) == 2 else symmetric[0]
                continue
            values = placements[Side.SOUTH].get(key, []) + placements[Side.NORTH].get(key, [])
            if values:
                out[key] = values
        for side in (Side.SOUTH, Side.NORTH):
            setup = self.of(side).setup
            if setup is not None:
                out[side.title.lower()] = setup
        if self.north_as is not None:
            out["north-as"] = self.north_as.value
        for key, value in (("lands-in", self.lands_in), ("cannot-land-in", self.cannot_land_in),
                           ("min-moves", self.min_moves),
                           ("max-replace-threats", self.max_replace_threats)):
            if value is not None:
                out[key] = value
        if self.canonical:
            out["canonical"] = True
        return out

    def __repr__(self) -> str:
        return f"Constraints({self.options()!r})"


Pair = tuple[str, str]
#: What a search lists: setups (six digits each) or (south, north) pairs.
Found = tuple[str, ...] | tuple[Pair, ...]


@dataclasses.dataclass(frozen=True, repr=False)
class SearchResult:
    """What a setup search found: the setups or pairs meeting the constraints, sorted.

    ``results`` is None when only the count is known (the JSON of ``--count``).

    >>> from gyges.game.rules import PRESETS
    >>> r = SearchResult(SearchSide.PAIR, False, PRESETS["pbmserv"], (("231123", "321123"),))
    >>> r, r.lines()
    (SearchResult(pair: 1, rules pbmserv), ['231123 321123'])
    >>> SearchResult.from_json(r.to_json()) == r
    True
    """

    side: SearchSide
    canonical: bool
    rules: RuleSet
    results: Found | None
    count: int = -1  #: how many (the length of ``results`` when they are known)

    def __post_init__(self) -> None:
        if self.results is not None:
            if self.count not in (-1, len(self.results)):
                raise SetupError(f"a count of {self.count} for {len(self.results)} results")
            object.__setattr__(self, "count", len(self.results))
        elif self.count < 0:
            raise SetupError("a search result needs its results or its count")

    def lines(self) -> list[str]:
        """The results as ``setups search`` lists them: a setup, or ``SOUTH NORTH``, a
        line each."""
        return [r if isinstance(r, str) else f"{r[0]} {r[1]}" for r in self.results or ()]

    def to_json(self, results: bool = True) -> dict[str, Any]:
        """The JSON object of ``setups search --json`` (``results``: with the results;
        ``--count`` leaves them out)."""
        data: dict[str, Any] = {"side": self.side.value, "count": self.count,
                                "canonical": self.canonical, "preset": self.rules.name,
                                "rules": self.rules.options()}
        if results and self.results is not None:
            data["results"] = [r if isinstance(r, str) else {"south": r[0], "north": r[1]}
                               for r in self.results]
        return data

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> SearchResult:
        """The result a :meth:`to_json` object describes; SetupError says what is wrong."""
        try:
            if data["side"] not in [s.value for s in SearchSide]:
                raise ValueError(f"side is south, north or pair, not {data['side']!r}")
            side = SearchSide(data["side"])
            if not isinstance(data["rules"], Mapping):
                raise ValueError("rules is an object of rule options")
            rules = RuleSet().with_options(data["rules"])
            canonical, count = data["canonical"], data["count"]
            if type(canonical) is not bool or type(count) is not int or count < 0:
                raise ValueError("canonical is true or false and count a whole number")
            raw = data.get("results")
            results = None if raw is None else _found(raw, side)
        except KeyError as e:
            raise SetupError(f"not a setup search result: no {e} key") from None
        except (TypeError, ValueError) as e:
            raise SetupError(f"not a setup search result: {e}") from None
        return cls(side, canonical, rules, results, count)

    def __repr__(self) -> str:
        return f"SearchResult({self.side}: {self.count}, rules {self.rules.name})"


def _found(raw: Sequence[Any], side: SearchSide) -> Found:
    if side is not SearchSide.PAIR:
        return tuple(parse_setup(r) for r in raw)
    return tuple((parse_setup(r["south"]), parse_setup(r["north"])) for r in raw)
