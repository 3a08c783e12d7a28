"""Reading a setup search's constraints: option keys, ``KEY=VALUE`` arguments, YAML files.

The same keys (:data:`CONSTRAINT_KEYS`) serve as command-line options (``--fix 3@1``), as
``KEY=VALUE`` arguments (``fix=3@1``) and in a YAML constraint file (``fix: [3@1, N:2@6]``).
:func:`constraints_from_options` reads a mapping of them into
:class:`~gyges.setups.search.constraints.Constraints`; :func:`read_constraints` gathers
them from all three sources. YAML files are read with YAML 1.2's booleans (:class:`Yaml12Loader`):
``true`` and ``false`` are booleans, ``yes``, ``no``, ``on`` and ``off`` are words, so
``off: [3@16]`` is the key ``off``.

>>> c = constraints_from_options({"fix": ["3@1", "3@6"], "apart": ["1"]})
>>> c
Constraints({'side': 'south', 'fix': ['S:3@1', 'S:3@6'], 'apart': ['S:1']})
>>> yaml.load("off: [3@16]\\ncanonical: true", Loader=Yaml12Loader)
{'off': ['3@16'], 'canonical': True}
"""

from __future__ import annotations

import dataclasses
import os
import re
from collections.abc import Iterable, Mapping, Sequence
from typing import Any

import yaml

from gyges.formats import yamlnodes
from gyges.formats.notation import parse_setup
from gyges.game.rules import Side
from gyges.setups.pairs import SetupError
from gyges.setups.search.constraints import (
    Constraints,
    Count,
    CountOp,
    NorthAs,
    SearchSide,
    SideConstraints,
)

__all__ = [
    "CONSTRAINT_KEYS", "MAX_LANDING_MOVES", "REPEATABLE", "ConstraintFileError", "ScopeError",
    "Yaml12Loader", "constraints_from_options", "load_constraints", "merge_options",
    "read_constraints",
]

#: the most moves ``lands-in`` and ``cannot-land-in`` ask about (the engine judges each
#: pair the model proposes to that depth)
MAX_LANDING_MOVES = 9

#: option keys, the same on the command line (``--key``) and in a YAML constraint file.
CONSTRAINT_KEYS = (
    "side", "fix", "off", "apart", "symmetric", "centre", "edges", "south", "north",
    "north-as", "lands-in", "cannot-land-in", "min-moves", "no-replace-threat",
    "max-replace-threats", "canonical",
)
#: the keys whose values add up (the others: a value given later replaces an earlier one).
REPEATABLE = ("fix", "off", "apart", "centre", "edges")

_SIDE_PREFIX = re.compile(r"^\s*(?:(s|south|n|north)\s*:)?\s*(.*?)\s*$", re.IGNORECASE)
_PLACE = re.compile(r"^([123])\s*@\s*([1-6](?:\s*,?\s*[1-6])*)$")
_COUNT = re.compile(r"^([123])\s*(=|==|<=|>=)\s*([0-2])$")


class ScopeError(SetupError):
    """Constraints the search cannot take as they stand: on ``side``'s row while that row
    is not placed (``engine`` false), or engine properties while ``side``'s row, the one
    not searched, is neither fixed nor tied (``engine`` true). ``problem`` says which; the
    message adds the constraint keys that widen the search."""

    def __init__(self, side: Side, engine: bool) -> None:
        name = side.title
        if engine:
            self.problem = ("engine properties (lands-in, cannot-land-in, min-moves, replace "
                            "threats) are properties of the start position")
            remedy = (f"fix {name}'s setup ({name.lower()}: SETUP), tie it (north-as), or "
                      "search pairs (side: pair)")
        else:
            self.problem = f"constraints on {name}'s setup need {name} in the search"
            remedy = f"search pairs (side: pair), or fix {name}'s setup ({name.lower()}: SETUP)"
        super().__init__(f"{self.problem}: {remedy}")
        self.side = side
        self.engine = engine


class ConstraintFileError(SetupError):
    """A constraint file that cannot be read or whose constraints are refused: its
    ``path``, the ``line`` when known, the ``problem``, and the refused constraint's own
    error (``cause``) when there is one."""

    def __init__(self, path: str, problem: str, cause: SetupError | None = None,
                 line: int | None = None) -> None:
        super().__init__(f"{path}{f', line {line}' if line else ''}: {problem}")
        self.path = path
        self.problem = problem
        self.cause = cause
        self.line = line


# -- reading the option keys --------------------------------------------------------------


def constraints_from_options(options: Mapping[str, Any]) -> Constraints:
    """Constraints from option keys (see :data:`CONSTRAINT_KEYS`) as on the command line or in YAML.

    Placement values may start with a side, ``N:`` or ``S:`` (``north:``, ``south:``); without
    one they apply to the side searched (South for ``side: pair``). ``fix: 3@1`` puts a 3 on
    column 1; ``off: 3@16`` keeps 3s off columns 1 and 6; ``apart: 13`` keeps the two 1s and
    the two 3s from standing side by side; ``centre: 3>=1`` / ``edges: 1=2`` count a size on
    columns 3-4 / 1 and 6; ``symmetric: true`` (or a side, or ``both``). The flags
    (``canonical``, ``no-replace-threat``) are ``true`` or ``false``.

    >>> c = constraints_from_options(
    ...     {"side": "pair", "fix": ["N:3@1", "2@6"], "north-as": "mirror"})
    >>> c.north.fixed, c.south.fixed, str(c.north_as)
    (((3, 1),), ((2, 6),), 'mirror')
    >>> constraints_from_options({"fix": "4@1"})  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    gyges.setups.pairs.SetupError: fix: '4@1' is not SIZE@COLUMN: write a size 1-3, ...
    """
    unknown = [k for k in options if k not in CONSTRAINT_KEYS]
    if unknown:
        raise SetupError(
            f"unknown constraint {unknown[0]!r}: the constraints are {', '.join(CONSTRAINT_KEYS)}"
        )
    word = str(options.get("side") or "south").lower()
    try:
        side = SearchSide(word)
    except ValueError:
        raise SetupError(f"side: {word!r} is not south, north or pair") from None
    per = _per_side(options, side)
    lands_in = options.get("lands-in")
    cannot = options.get("cannot-land-in")
    min_moves = options.get("min-moves")
    north_as = _north_as(options)
    threats = _replace_threats(options)
    c = Constraints(
        side=side,
        south=_side_constraints(per[Side.SOUTH]),
        north=_side_constraints(per[Side.NORTH]),
        north_as=north_as,
        lands_in=None if lands_in is None
        else _int(lands_in, "lands-in", 1, MAX_LANDING_MOVES),
        cannot_land_in=None if cannot is None
        else _int(cannot, "cannot-land-in", 1, MAX_LANDING_MOVES),
        min_moves=None if min_moves is None else _int(min_moves, "min-moves", 0),
        max_replace_threats=None if threats is None else _int(threats, "max-replace-threats", 0),
        canonical=_flag(options.get("canonical"), "canonical"),
    )
    _check_scope(c)
    return c


def _split_side(text: str, default: Side, key: str) -> tuple[Side, str]:
    m = _SIDE_PREFIX.match(str(text))
    assert m is not None
    prefix, body = m.group(1), m.group(2)
    side = default if prefix is None else Side.parse(prefix[0])
    if not body:
        raise SetupError(f"{key}: {text!r} is empty after the side")
    return side, body


def _int(value: Any, key: str, low: int, high: int | None = None) -> int:
    try:
        n = int(value)
        if isinstance(value, bool) or str(n) != str(value).strip():
            raise ValueError
    except (TypeError, ValueError):
        raise SetupError(f"{key}: {value!r} is not a whole number") from None
    if n < low or (high is not None and n > high):
        span = f"from {low} to {high}" if high is not None else f"at least {low}"
        raise SetupError(f"{key}: {n} is out of range: give a number {span}")
    return n


def _flag(value: Any, key: str) -> bool:
    """A flag's value: a boolean, or the word ``true`` or ``false`` (absent: false)."""
    if value is None or isinstance(value, bool):
        return bool(value)
    word = str(value).strip().lower()
    if word not in ("true", "false"):
        raise SetupError(f"{key}: {value!r} is not true or false")
    return word == "true"


def _list(value: Any) -> list[Any]:
    if value is None:
        return []
    if isinstance(value, (list, tuple)):
        return list(value)
    return [value]


def _per_side(options: Mapping[str, Any], side: SearchSide) -> dict[Side, dict[str, Any]]:
    """The placement constraints of each side, as lists and flags. A value without a
    side prefix applies to the side searched (South for ``side: pair``)."""
    default = Side.NORTH if side is SearchSide.NORTH else Side.SOUTH
    per: dict[Side, dict[str, Any]] = {
        s: {"fixed": [], "off": [], "apart": set(), "centre": [], "edges": [], "symmetric": False,
            "setup": None}
        for s in (Side.SOUTH, Side.NORTH)
    }
    _read_fixed(options, default, per)
    _read_off(options, default, per)
    _read_apart(options, default, per)
    for key in ("centre", "edges"):
        _read_counts(options, key, default, per)
    for s in _symmetric_sides(options, side, default):
        per[s]["symmetric"] = True
    for s in (Side.SOUTH, Side.NORTH):
        key = s.title.lower()
        if options.get(key) is not None:
            try:
                per[s]["setup"] = parse_setup(str(options[key]))
            except ValueError as e:
                raise SetupError(f"{key}: {e}") from None
    return per


def _read_fixed(options: Mapping[str, Any], default: Side,
                per: dict[Side, dict[str, Any]]) -> None:
    """``fix: SIZE@COLUMN``: a ring of that size on that column."""
    for text in _list(options.get("fix")):
        s, body = _split_side(text, default, "fix")
        m = _PLACE.match(body)
        if not m or len(re.sub(r"[\s,]", "", m.group(2))) != 1:
            raise SetupError(
                f"fix: {text!r} is not SIZE@COLUMN: write a size 1-3, '@' and a column 1-6, "
                "like 3@1"
            )
        per[s]["fixed"].append((int(m.group(1)), int(m.group(2).strip())))


def _read_off(options: Mapping[str, Any], default: Side,
              per: dict[Side, dict[str, Any]]) -> None:
    """``off: SIZE@COLUMNS``: no ring of that size on those columns."""
    for text in _list(options.get("off")):
        s, body = _split_side(text, default, "off")
        m = _PLACE.match(body)
        if not m:
            raise SetupError(
                f"off: {text!r} is not SIZE@COLUMNS: write a size 1-3, '@' and columns 1-6, "
                "like 3@16"
            )
        for col in sorted({int(ch) for ch in re.sub(r"[\s,]", "", m.group(2))}):
            per[s]["off"].append((int(m.group(1)), col))


def _read_apart(options: Mapping[str, Any], default: Side,
                per: dict[Side, dict[str, Any]]) -> None:
    """``apart: SIZES``: the two rings of each size not side by side."""
    for text in _list(options.get("apart")):
        s, body = _split_side(text, default, "apart")
        if not re.fullmatch(r"[123]+", body):
            raise SetupError(f"apart: {text!r} is not a list of sizes: write digits 1-3, like 13")
        per[s]["apart"].update(int(ch) for ch in body)


def _read_counts(options: Mapping[str, Any], key: str, default: Side,
                 per: dict[Side, dict[str, Any]]) -> None:
    """``centre`` / ``edges``: ``SIZE=COUNT`` (or ``<=``, ``>=``) rings of a size there."""
    for text in _list(options.get(key)):
        s, body = _split_side(text, default, key)
        m = _COUNT.match(body)
        if not m:
            raise SetupError(
                f"{key}: {text!r} is not SIZE=COUNT: write a size 1-3, =, <= or >=, and a "
                "count 0-2, like 3>=1"
            )
        op = CountOp.EQ if m.group(2) == "==" else CountOp(m.group(2))
        per[s][key].append(Count(int(m.group(1)), op, int(m.group(3))))


def _symmetric_sides(options: Mapping[str, Any], side: SearchSide, default: Side
                     ) -> list[Side]:
    """The sides whose setup must be symmetric (``symmetric: true``, a side or ``both``)."""
    sym = options.get("symmetric")
    if sym is None or sym is False:
        return []
    word = "true" if sym is True else str(sym).strip().lower()
    searched = [default] if side is not SearchSide.PAIR else [Side.SOUTH, Side.NORTH]
    targets = {
        "true": searched, "yes": searched,
        "south": [Side.SOUTH], "s": [Side.SOUTH], "north": [Side.NORTH], "n": [Side.NORTH],
        "both": [Side.SOUTH, Side.NORTH],
    }.get(word)
    if targets is None:
        raise SetupError(f"symmetric: {sym!r} is not true, south, north or both")
    return targets


def _north_as(options: Mapping[str, Any]) -> NorthAs | None:
    """``north-as``: North's setup is South's ``mirror`` or ``rotated`` image."""
    north_as = options.get("north-as")
    if north_as is None:
        return None
    word = str(north_as).lower()
    try:
        return NorthAs(word)
    except ValueError:
        raise SetupError(f"north-as: {word!r} is not mirror or rotated") from None


def _replace_threats(options: Mapping[str, Any]) -> Any:
    """``max-replace-threats`` as given (``no-replace-threat`` is 0)."""
    threats = options.get("max-replace-threats")
    if _flag(options.get("no-replace-threat"), "no-replace-threat"):
        if threats is not None and _int(threats, "max-replace-threats", 0) != 0:
            raise SetupError("no-replace-threat and max-replace-threats disagree: give one")
        threats = 0
    return threats


def _side_constraints(d: dict[str, Any]) -> SideConstraints:
    return SideConstraints(
        setup=d["setup"],
        fixed=tuple(sorted(set(d["fixed"]))),
        off=tuple(sorted(set(d["off"]))),
        apart=frozenset(d["apart"]),
        symmetric=d["symmetric"],
        centre=tuple(d["centre"]),
        edges=tuple(d["edges"]),
    )


def _check_scope(c: Constraints) -> None:
    """ScopeError unless every constraint is on a placed row and engine properties have
    both rows placed."""
    placed = c.placed
    for s in (Side.SOUTH, Side.NORTH):
        if s not in placed and not dataclasses.replace(c.of(s), setup=None).empty:
            raise ScopeError(s, engine=False)
    if c.engine and len(placed) < 2:
        raise ScopeError(placed[0].other, engine=True)
    if c.side is not SearchSide.PAIR and not c.engine and c.north_as is None:
        other = Side.NORTH if c.side is SearchSide.SOUTH else Side.SOUTH
        if c.of(other).setup is not None:
            raise SetupError(
                f"{other.title.lower()}: a fixed setup changes nothing here (the search lists "
                f"{other.other.title}'s setups, and no engine property reads {other.title}'s "
                "row): use --side pair, or add an engine property (lands-in, cannot-land-in, "
                "min-moves, max-replace-threats)")


# -- YAML files -----------------------------------------------------------------------------


class Yaml12Loader(yamlnodes.Loader):
    """The package's YAML loader (:class:`gyges.formats.yamlnodes.Loader`: PyYAML's safe
    loader with limits on nesting and aliases) with YAML 1.2's booleans: only ``true`` and ``false``
    (``True``, ``TRUE``, ``False``, ``FALSE``) are booleans. YAML 1.1, PyYAML's default,
    also reads ``yes``, ``no``, ``on`` and ``off`` as booleans, so that ``off:`` would be
    the key False; here they stay words."""


_BOOL = "tag:yaml.org,2002:bool"
Yaml12Loader.yaml_implicit_resolvers = {
    first: [(tag, regexp) for tag, regexp in resolvers if tag != _BOOL]
    for first, resolvers in yaml.SafeLoader.yaml_implicit_resolvers.items()
}
Yaml12Loader.add_implicit_resolver(
    _BOOL, re.compile(r"^(?:true|True|TRUE|false|False|FALSE)$"), list("tTfF"))


def load_constraints(path: str) -> dict[str, Any]:
    """The options of a YAML constraint file (a mapping of :data:`CONSTRAINT_KEYS`), checked."""
    try:
        with open(path, "rb") as f:
            raw = f.read(yamlnodes.MAX_BYTES + 1)
        if len(raw) > yamlnodes.MAX_BYTES:
            raise ConstraintFileError(
                path, f"larger than {yamlnodes.MAX_BYTES >> 20} MiB: not a constraint file")
        data = yaml.load(raw.decode("utf-8"), Loader=Yaml12Loader)
    except OSError as e:
        raise ConstraintFileError(path, f"cannot read it: {e.strerror}") from None
    except UnicodeDecodeError:
        raise ConstraintFileError(path, "not a text file (it is not UTF-8)") from None
    except yamlnodes.LimitError as e:
        mark = e.problem_mark
        raise ConstraintFileError(path, str(e.problem),
                                  line=None if mark is None else mark.line + 1) from None
    except yaml.YAMLError as e:
        mark = getattr(e, "problem_mark", None)
        problem = " ".join(str(getattr(e, "problem", None) or e).split()[:20])  # one line
        raise ConstraintFileError(path, f"not valid YAML: {problem}",
                                  line=None if mark is None else mark.line + 1) from None
    if data is None:
        return {}
    if not isinstance(data, dict):
        raise ConstraintFileError(path, "a constraint file is a mapping of keys like 'fix: [3@1]'")
    try:
        constraints_from_options(data)
    except SetupError as e:
        raise ConstraintFileError(path, str(e), e) from None
    return data


# -- every source at once ---------------------------------------------------------------------


def merge_options(first: Mapping[str, Any], then: Mapping[str, Any]) -> dict[str, Any]:
    """``first``'s options, then ``then``'s: the values of :data:`REPEATABLE` keys add up
    (a tuple or list adds each of its values), other values replace; None, ``()`` and
    False (an option not given) change nothing.

    >>> merge_options({"fix": "3@1", "side": "pair"}, {"fix": ("2@2",), "side": "north"})
    {'fix': ['3@1', '2@2'], 'side': 'north'}
    """
    merged = dict(first)
    for key, value in then.items():
        if value is None or value == () or value is False:
            continue
        if isinstance(value, (tuple, list)):
            old = merged.get(key)
            old_list = [] if old is None else (list(old) if isinstance(old, list) else [old])
            merged[key] = old_list + list(value)
        else:
            merged[key] = value
    return merged


def read_constraints(arguments: Sequence[str] = (), files: Iterable[str] = (),
                     options: Mapping[str, Any] | None = None) -> Constraints:
    """The constraints of ``setups search``: its arguments (``KEY=VALUE`` or a YAML file),
    the files given apart (``--file``), then the options, in this order: the files (those
    among the arguments first, the last of them first), the ``KEY=VALUE`` arguments, the
    options (:func:`merge_options`).

    An argument that is neither ``KEY=VALUE`` with a key of :data:`CONSTRAINT_KEYS` nor a file is a
    SetupError; a file's problems are ConstraintFileErrors.

    >>> read_constraints(["side=pair", "fix=N:3@1"], options={"canonical": True})
    Constraints({'side': 'pair', 'fix': ['N:3@1'], 'canonical': True})
    """
    given: dict[str, Any] = {}
    paths = list(files)
    for arg in arguments:
        key, sep, value = arg.partition("=")
        if sep and key.strip() in CONSTRAINT_KEYS:
            key = key.strip()
            if key in REPEATABLE:
                given[key] = tuple(given.get(key, ())) + (value.strip(),)
            else:
                given[key] = value.strip()
        elif sep or not os.path.isfile(arg):
            raise SetupError(
                f"{arg!r} is neither KEY=VALUE with a constraint key "
                f"({', '.join(CONSTRAINT_KEYS)}) nor a constraint file")
        else:
            paths.insert(0, arg)
    merged: dict[str, Any] = {}
    for path in paths:
        merged = merge_options(merged, {k: (tuple(v) if isinstance(v, list) else v)
                                        for k, v in load_constraints(path).items()})
    return constraints_from_options(merge_options(merge_options(merged, given), options or {}))
