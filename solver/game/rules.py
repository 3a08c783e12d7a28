"""Rule sets: every published reading of the Gyges rules, as options and named presets.

The seeds (the published texts) disagree on details; each disagreement is an option of
:class:`RuleSet`, and each source is a preset. docs/rules.md quotes the sentence each
option value comes from. How the options act on movement is implemented, once, in the
compiled core (``solver/_movegen.pyx``); this module only names and validates them.

>>> RuleSet().describe().split()[:4]
['taboo=connection', 'rebounce=allowed', 'replace=shore', 'blocked=pass']
>>> rules_from("dorbec", ["replace=off"]) == PRESETS["dorbec-beginner"]
True
"""

from __future__ import annotations

import dataclasses
from collections.abc import Iterable, Mapping
from enum import Enum


class Side(Enum):
    """A player. South moves first and wins on North's goal."""

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


#: option key -> allowed values, the first being the pbmserv value.
OPTIONS: dict[str, tuple[str, ...]] = {
    "taboo": ("connection", "entry"),
    "rebounce": ("allowed", "once"),
    "replace": ("shore", "off", "anywhere"),
    "blocked": ("pass", "next-row", "draw"),
    "repetition": ("forbidden", "allowed"),
    "null-move": ("forbidden", "allowed"),
    "win": ("goal", "unstoppable"),
    "setup": ("south-first", "alternate"),
}


class RuleError(ValueError):
    """An unknown preset, option key or option value."""


@dataclasses.dataclass(frozen=True)
class RuleSet:
    """One reading of the rules. Field names are the option keys with ``_`` for ``-``."""

    taboo: str = "connection"
    rebounce: str = "allowed"
    replace: str = "shore"
    blocked: str = "pass"
    repetition: str = "forbidden"
    null_move: str = "forbidden"
    win: str = "goal"
    setup: str = "south-first"

    def __post_init__(self) -> None:
        for key, value in self.options().items():
            if value not in OPTIONS[key]:
                raise RuleError(
                    f"rule {key} cannot be {value!r}: use one of {', '.join(OPTIONS[key])}"
                )

    def options(self) -> dict[str, str]:
        """The options as ``{key: value}`` with the documented keys (``null-move``)."""
        return {f.name.replace("_", "-"): getattr(self, f.name) for f in dataclasses.fields(self)}

    def with_options(self, overrides: Mapping[str, str]) -> RuleSet:
        """A copy with some options changed (keys as documented: ``null-move``)."""
        changes = {}
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
            (1 if self.taboo == "entry" else 0)
            | (2 if self.rebounce == "once" else 0)
            | (4 if self.replace == "shore" else 0)
            | (8 if self.replace == "anywhere" else 0)
            | (16 if self.null_move == "allowed" else 0)
            | (32 if self.blocked == "next-row" else 0)
            | (64 if self.blocked == "draw" else 0)
            | (128 if self.repetition == "allowed" else 0)
        )


#: One preset per source (docs/rules.md). ``pbmserv`` is the default.
PRESETS: dict[str, RuleSet] = {
    # 000: the pbmserv play-by-e-mail server rules.
    "pbmserv": RuleSet(),
    # 001: the rules summary ("a win must be unstoppable", next row when stuck).
    "summary": RuleSet(
        blocked="next-row", repetition="allowed", null_move="allowed", win="unstoppable",
        setup="alternate",
    ),
    # 003: the Board Game Arena summary (silent on a side with no move: drawn).
    "bga": RuleSet(blocked="draw", repetition="allowed", null_move="allowed", setup="alternate"),
    # 004: Paul Dorbec's French rules, advanced replace rule.
    "dorbec": RuleSet(
        taboo="entry", replace="anywhere", blocked="next-row", repetition="allowed",
        null_move="allowed", setup="alternate",
    ),
    # 004: the same rules for beginners: no replace.
    "dorbec-beginner": RuleSet(
        taboo="entry", replace="off", blocked="next-row", repetition="allowed",
        null_move="allowed", setup="alternate",
    ),
}

PRESET_SOURCES: dict[str, str] = {
    "pbmserv": "seed 000: the pbmserv server's rules (translated from Claude Leroy's French)",
    "summary": "seed 001: a rules summary with the take-back (unstoppable win) variant",
    "bga": "seed 003: the Board Game Arena rules summary",
    "dorbec": "seed 004: Paul Dorbec's French rules, advanced replace rule",
    "dorbec-beginner": "seed 004: Paul Dorbec's French rules for beginners (no replace)",
}


def preset(name: str) -> RuleSet:
    """The named preset; RuleError lists the presets when the name is unknown."""
    try:
        return PRESETS[name]
    except KeyError:
        raise RuleError(f"unknown rule preset {name!r}: use one of {', '.join(PRESETS)}") from None


def parse_override(text: str) -> tuple[str, str]:
    """``"key=value"`` -> ``(key, value)``, checked against the known options."""
    key, sep, value = text.partition("=")
    key, value = key.strip(), value.strip()
    if not sep or not key or not value:
        raise RuleError(f"{text!r} is not a rule setting: write key=value, like taboo=entry")
    if key not in OPTIONS:
        raise RuleError(f"unknown rule {key!r}: the rules are {', '.join(OPTIONS)}")
    if value not in OPTIONS[key]:
        raise RuleError(f"rule {key} cannot be {value!r}: use one of {', '.join(OPTIONS[key])}")
    return key, value


def rules_from(preset_name: str = "pbmserv", overrides: Iterable[str] = ()) -> RuleSet:
    """A preset with ``key=value`` overrides applied, as given on the command line."""
    return preset(preset_name).with_options(dict(parse_override(o) for o in overrides))
