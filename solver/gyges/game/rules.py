"""Rule sets: every published reading of the Gyges rules, as options and named presets.

The seeds (the published texts) disagree on details; each disagreement is an option of
:class:`RuleSet`, and each source is a preset. docs/rules.md quotes the sentence each
option value comes from. How the options act on movement is implemented, once, in the
compiled core (``solver/gyges/game/_movegen.pyx``); this module names and validates them, and
says which rules are in force when a file's rules meet the ones asked for
(:func:`combine_rules`).

Each option's values are an enum (:class:`Taboo`, :class:`Replace`, ...) whose members
read, compare and print as their names:

>>> RuleSet().describe().split()[:4]
['taboo=connection', 'rebounce=allowed', 'replace=shore', 'blocked=pass']
>>> rules_from("dorbec", ["replace=off"]) == PRESETS["dorbec-beginner"]
True
>>> PRESETS["dorbec"].replace, PRESETS["dorbec"].replace is Replace.ANYWHERE
('anywhere', True)
>>> RuleSet(taboo="entry")
RuleSet('pbmserv', taboo='entry')
>>> RuleSet.from_json(PRESETS["bga"].to_json()) == PRESETS["bga"]
True
"""

from __future__ import annotations

import dataclasses
from collections.abc import Iterable, Mapping
from enum import Enum
from typing import Any

from gyges.game.names import NameEnum

__all__ = [
    "OPTIONS", "OPTION_TYPES", "PRESETS", "PRESET_SOURCES", "Blocked", "NullMove", "Rebounce",
    "Repetition", "Replace", "RuleError", "RuleRequest", "RuleSet", "Setup", "Side", "Taboo",
    "WinRule", "closest_preset", "combine_rules", "parse_override", "rules_from",
]


class Side(Enum):
    """A player. South moves first and wins on North's goal.

    >>> Side.parse("north"), Side.SOUTH.other.title
    (<Side.NORTH: 'N'>, 'North')
    """

    SOUTH = "S"
    NORTH = "N"

    @property
    def other(self) -> Side:
        return Side.NORTH if self is Side.SOUTH else Side.SOUTH

    @property
    def index(self) -> int:
        """0 for South, 1 for North (the compiled core's numbering)."""
        return 0 if self is Side.SOUTH else 1

    @property
    def title(self) -> str:
        return "South" if self is Side.SOUTH else "North"

    @classmethod
    def parse(cls, text: str) -> Side:
        t = text.strip().upper()
        if t in ("S", "SOUTH"):
            return cls.SOUTH
        if t in ("N", "NORTH"):
            return cls.NORTH
        raise ValueError(f"{text!r} is not a side: use S (South) or N (North)")


# -- the options: one enum each, the first member being the pbmserv value ---------------------


class Taboo(NameEnum):
    """What a move may not repeat: a connection (``connection``) or the entry into a slot
    from the same direction (``entry``)."""

    CONNECTION = "connection"
    ENTRY = "entry"


class Rebounce(NameEnum):
    """Whether a move may bounce on the same ring again (``allowed``) or not (``once``)."""

    ALLOWED = "allowed"
    ONCE = "once"


class Replace(NameEnum):
    """Where a ring landed on may be relocated: nowhere (``off``), within the mover's
    shore rule (``shore``) or on any empty slot (``anywhere``)."""

    SHORE = "shore"
    OFF = "off"
    ANYWHERE = "anywhere"


class Blocked(NameEnum):
    """A side with no legal move: the opponent moves again (``pass``), the side moves
    from the next row (``next-row``) or the game is drawn (``draw``)."""

    PASS = "pass"
    NEXT_ROW = "next-row"
    DRAW = "draw"


class Repetition(NameEnum):
    """The Renop law: a move may not reproduce an earlier position (``forbidden``)."""

    FORBIDDEN = "forbidden"
    ALLOWED = "allowed"


class NullMove(NameEnum):
    """Whether a move may leave the board as it was."""

    FORBIDDEN = "forbidden"
    ALLOWED = "allowed"


class WinRule(NameEnum):
    """A landing on the goal wins (``goal``), or only one the loser could not have
    avoided with its last move (``unstoppable``)."""

    GOAL = "goal"
    UNSTOPPABLE = "unstoppable"


class Setup(NameEnum):
    """The order of the setups: South then North (``south-first``) or ring by ring in
    turn (``alternate``)."""

    SOUTH_FIRST = "south-first"
    ALTERNATE = "alternate"


#: option key -> the enum of its values (the first member is the pbmserv value).
OPTION_TYPES: dict[str, type[NameEnum]] = {
    "taboo": Taboo,
    "rebounce": Rebounce,
    "replace": Replace,
    "blocked": Blocked,
    "repetition": Repetition,
    "null-move": NullMove,
    "win": WinRule,
    "setup": Setup,
}

#: option key -> allowed values, the first being the pbmserv value.
OPTIONS: dict[str, tuple[str, ...]] = {
    key: tuple(member.value for member in kind) for key, kind in OPTION_TYPES.items()
}


class RuleError(ValueError):
    """An unknown preset, option key or option value."""


def _bad_value(key: str, value: object) -> RuleError:
    return RuleError(f"rule {key} cannot be {value!r}: use one of {', '.join(OPTIONS[key])}")


@dataclasses.dataclass(frozen=True, repr=False)
class RuleSet:
    """One reading of the rules. Field names are the option keys with ``_`` for ``-``;
    each field holds its option's enum member (a plain string is read into it)."""

    taboo: Taboo = Taboo.CONNECTION
    rebounce: Rebounce = Rebounce.ALLOWED
    replace: Replace = Replace.SHORE
    blocked: Blocked = Blocked.PASS
    repetition: Repetition = Repetition.FORBIDDEN
    null_move: NullMove = NullMove.FORBIDDEN
    win: WinRule = WinRule.GOAL
    setup: Setup = Setup.SOUTH_FIRST

    def __post_init__(self) -> None:
        for field in dataclasses.fields(self):
            key = field.name.replace("_", "-")
            kind = OPTION_TYPES[key]
            value = getattr(self, field.name)
            if not isinstance(value, kind):
                try:
                    object.__setattr__(self, field.name, kind(value))
                except ValueError:
                    raise _bad_value(key, value) from None

    def options(self) -> dict[str, str]:
        """The options as ``{key: value}`` with the documented keys (``null-move``) and
        plain string values."""
        return {f.name.replace("_", "-"): getattr(self, f.name).value
                for f in dataclasses.fields(self)}

    def with_options(self, overrides: Mapping[str, str]) -> RuleSet:
        """A copy with some options changed (keys as documented: ``null-move``)."""
        changes: dict[str, Any] = {}
        for key, value in overrides.items():
            if key not in OPTIONS:
                raise RuleError(f"unknown rule {key!r}: the rules are {', '.join(OPTIONS)}")
            changes[key.replace("-", "_")] = value
        return dataclasses.replace(self, **changes)

    def describe(self) -> str:
        return " ".join(f"{k}={v}" for k, v in self.options().items())

    @property
    def name(self) -> str:
        """The preset's name if these rules are exactly a preset, else ``custom``."""
        for name, preset in PRESETS.items():
            if preset == self:
                return name
        return "custom"

    def flags(self) -> int:
        """The options as the compiled core's bit flags (see ``_movegen.pxd``)."""
        return (
            (1 if self.taboo == Taboo.ENTRY else 0)
            | (2 if self.rebounce == Rebounce.ONCE else 0)
            | (4 if self.replace == Replace.SHORE else 0)
            | (8 if self.replace == Replace.ANYWHERE else 0)
            | (16 if self.null_move == NullMove.ALLOWED else 0)
            | (32 if self.blocked == Blocked.NEXT_ROW else 0)
            | (64 if self.blocked == Blocked.DRAW else 0)
            | (128 if self.repetition == Repetition.ALLOWED else 0)
        )

    def to_json(self) -> dict[str, str]:
        """The JSON form: :meth:`options`, ``{"taboo": "connection", ...}`` with every key."""
        return self.options()

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> RuleSet:
        """The rules of a JSON object of options (:meth:`to_json`); an option left out
        takes its pbmserv value. RuleError names an unknown key or value."""
        if not isinstance(data, Mapping):
            raise RuleError(f"rules are an object of options like {{\"taboo\": \"entry\"}}, "
                            f"not {data!r}")
        for key, value in data.items():
            if key in OPTIONS and not isinstance(value, str):
                raise _bad_value(key, value)
        return cls().with_options(data)

    def __repr__(self) -> str:
        """The closest preset and the options that differ from it."""
        name, diff = closest_preset(self)
        changes = "".join(f", {key.replace('-', '_')}={value!r}" for key, value in diff.items())
        return f"RuleSet({name!r}{changes})"


#: One preset per source (docs/rules.md). ``pbmserv`` is the default.
PRESETS: dict[str, RuleSet] = {
    # 000: the pbmserv play-by-e-mail server rules.
    "pbmserv": RuleSet(),
    # 001: the rules summary ("a win must be unstoppable", next row when stuck).
    "summary": RuleSet(
        blocked=Blocked.NEXT_ROW, repetition=Repetition.ALLOWED, null_move=NullMove.ALLOWED,
        win=WinRule.UNSTOPPABLE, setup=Setup.ALTERNATE,
    ),
    # 003: the Board Game Arena summary (silent on a side with no move: drawn).
    "bga": RuleSet(blocked=Blocked.DRAW, repetition=Repetition.ALLOWED,
                   null_move=NullMove.ALLOWED, setup=Setup.ALTERNATE),
    # 004: Paul Dorbec's French rules, advanced replace rule.
    "dorbec": RuleSet(
        taboo=Taboo.ENTRY, replace=Replace.ANYWHERE, blocked=Blocked.NEXT_ROW,
        repetition=Repetition.ALLOWED, null_move=NullMove.ALLOWED, setup=Setup.ALTERNATE,
    ),
    # 004: the same rules for beginners: no replace.
    "dorbec-beginner": RuleSet(
        taboo=Taboo.ENTRY, replace=Replace.OFF, blocked=Blocked.NEXT_ROW,
        repetition=Repetition.ALLOWED, null_move=NullMove.ALLOWED, setup=Setup.ALTERNATE,
    ),
    # The peer engine Helios (Beck-Bjella/Gyges), as its source plays: pbmserv's movement,
    # a ring bounced off once a move, a move back to its own start, no move a draw, no
    # repetition law.
    "helios": RuleSet(rebounce=Rebounce.ONCE, null_move=NullMove.ALLOWED,
                      blocked=Blocked.DRAW, repetition=Repetition.ALLOWED),
}

PRESET_SOURCES: dict[str, str] = {
    "pbmserv": "seed 000: the pbmserv server's rules (translated from Claude Leroy's French)",
    "summary": "seed 001: a rules summary with the take-back (unstoppable win) variant",
    "bga": "seed 003: the Board Game Arena rules summary",
    "dorbec": "seed 004: Paul Dorbec's French rules, advanced replace rule",
    "dorbec-beginner": "seed 004: Paul Dorbec's French rules for beginners (no replace)",
    "helios": "the peer engine Helios (Beck-Bjella/Gyges), as its source plays",
}


def _preset(name: str) -> RuleSet:
    """The named preset; RuleError lists the presets when the name is unknown."""
    try:
        return PRESETS[name]
    except KeyError:
        raise RuleError(f"unknown rule preset {name!r}: use one of {', '.join(PRESETS)}") from None


def closest_preset(rules: RuleSet) -> tuple[str, dict[str, str]]:
    """The preset differing from ``rules`` in the fewest options, and those options
    (the first such preset in :data:`PRESETS` order).

    >>> closest_preset(PRESETS["dorbec"].with_options({"replace": "shore"}))
    ('dorbec', {'replace': 'shore'})
    """
    best: tuple[str, dict[str, str]] | None = None
    options = rules.options()
    for name, candidate in PRESETS.items():
        diff = {k: v for k, v in options.items() if candidate.options()[k] != v}
        if best is None or len(diff) < len(best[1]):
            best = (name, diff)
    assert best is not None
    return best


def parse_override(text: str) -> tuple[str, str]:
    """``"key=value"`` -> ``(key, value)``, checked against the known options."""
    key, sep, value = text.partition("=")
    key, value = key.strip(), value.strip()
    if not sep or not key or not value:
        raise RuleError(f"{text!r} is not a rule setting: write key=value, like taboo=entry")
    if key not in OPTIONS:
        raise RuleError(f"unknown rule {key!r}: the rules are {', '.join(OPTIONS)}")
    if value not in OPTIONS[key]:
        raise _bad_value(key, value)
    return key, value


def rules_from(preset_name: str = "pbmserv", overrides: Iterable[str] = ()) -> RuleSet:
    """A preset with ``key=value`` overrides applied, as given on the command line: the one
    way to name a rule set (:data:`PRESETS` is the table it reads).

    >>> rules_from("pbmserv", ["rebounce=once", "null-move=allowed", "blocked=draw",
    ...                        "repetition=allowed"]) == PRESETS["helios"]
    True
    """
    return _preset(preset_name).with_options(dict(parse_override(o) for o in overrides))


# -- which rules are in force ----------------------------------------------------------------


@dataclasses.dataclass(frozen=True)
class RuleRequest:
    """Rules asked for on top of a file's: a preset, which replaces the file's rules, and
    ``key=value`` settings, which amend them (the command line's ``--rules`` and
    ``--rule``). True when anything is asked.

    >>> request = RuleRequest.parse("dorbec", ["replace=off"])
    >>> request, bool(RuleRequest())
    (RuleRequest(preset='dorbec', overrides=(('replace', 'off'),)), False)
    >>> request.rules().name
    'dorbec-beginner'
    """

    preset: str | None = None
    overrides: tuple[tuple[str, str], ...] = ()

    def __bool__(self) -> bool:
        return self.preset is not None or bool(self.overrides)

    @classmethod
    def parse(cls, preset_name: str | None = None, settings: Iterable[str] = ()) -> RuleRequest:
        """The request for a preset name (or None) and ``key=value`` settings, checked:
        RuleError names an unknown preset or a bad setting (the preset first)."""
        if preset_name is not None:
            _preset(preset_name)
        return cls(preset_name, tuple(parse_override(s) for s in settings))

    def rules(self) -> RuleSet:
        """The rules asked for on their own: the preset (pbmserv when none is named) with
        the settings applied."""
        return _preset(self.preset or "pbmserv").with_options(dict(self.overrides))


def combine_rules(file_rules: RuleSet | None, request: RuleRequest) -> RuleSet:
    """The rules in force for a file read with ``file_rules`` (None: it names none) when
    ``request`` is asked for: a requested preset replaces the file's rules, requested
    settings alone amend them, and a file without rules takes the request's rules.

    >>> dorbec = PRESETS["dorbec"]
    >>> combine_rules(dorbec, RuleRequest()) == dorbec
    True
    >>> combine_rules(dorbec, RuleRequest(None, (("replace", "off"),))).name
    'dorbec-beginner'
    >>> combine_rules(dorbec, RuleRequest("bga")).name
    'bga'
    >>> combine_rules(None, RuleRequest()).name
    'pbmserv'
    """
    if file_rules is None:
        return request.rules()
    if not request:
        return file_rules
    if request.preset is None:
        return file_rules.with_options(dict(request.overrides))
    return request.rules()
