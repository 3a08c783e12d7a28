"""Position lists: many positions in one file, for solving in a batch.

Two forms. A text file, one position per line, with ``#`` comments and optional
per-line overrides after the position string::

    # positions to solve
    ....../3...../..1.1./1.23.3/3.22.1/....2. N
    .3.3.3/112232/...1.2/...1../....../...... S   max-moves=2
    321123/....../....../....../....../231123 S   rules=bga max-moves=4   # a start

or a YAML list whose items are position strings or mappings with the keys of a position
file (:mod:`gyges.formats.posfile`: ``position``/``diagram``/``rings``, ``rules``,
``rule``, ``history``, ``previous``, ``comment``) plus ``max-moves`` and ``id``::

    - "....../3...../..1.1./1.23.3/3.22.1/....2. N"
    - position: ".3.3.3/112232/...1.2/...1../....../...... S"
      rules: bga
      max-moves: 2
      id: seed-example

Each entry keeps its line. A bad entry does not stop the others: :func:`parse_position_list`
returns the good entries and one :class:`PositionListError` per bad one (``file:line:
what is wrong``); the caller decides whether to skip them or refuse the file.

>>> text = "# two\\n321123/....../....../....../....../231123 S\\n" \\
...        "....../3...../..1.1./1.23.3/3.22.1/....2. N max-moves=1 rules=bga\\nnope\\n"
>>> entries, bad = parse_position_list(text, "p.txt")
>>> [(e.line, e.max_moves, e.rules.name if e.rules else None) for e in entries]
[(2, None, None), (3, 1, 'bga')]
>>> print(bad[0])
p.txt:4: 'nope' is not a position string: ...
"""

from __future__ import annotations

import dataclasses
import re

import yaml

from gyges.formats import yamlnodes
from gyges.formats.posfile import PositionFileError, position_from_node
from gyges.formats.quoting import shorten
from gyges.game.bounds import MAX_MOVES
from gyges.game.position import Position, PositionError
from gyges.game.rules import PRESETS, RuleError, RuleSet, rules_from

__all__ = ["PositionListEntry", "PositionListError", "looks_like_position_list",
           "parse_position_list"]

OVERRIDES = ("rules", "max-moves")  #: the ``key=value`` overrides of a text line
_EXAMPLE = "321123/....../....../....../....../231123 S"


class PositionListError(PositionError):
    """One bad entry of a position list: ``str()`` is ``source:line: what is wrong``."""

    def __init__(self, problem: str, source: str, line: int) -> None:
        problem = shorten(problem)    # a quote of a long value of the file: an excerpt
        self.problem = problem
        self.source = source
        self.line = line
        super().__init__(f"{source}:{line}: {problem}")


@dataclasses.dataclass(frozen=True)
class PositionListEntry:
    """One position of a list, with what the list says about it (None: not said, the
    command's value applies)."""

    line: int
    position: Position
    rules: RuleSet | None = None
    max_moves: int | None = None
    history: tuple[Position, ...] = ()
    previous: Position | None = None
    id: str | None = None


def _max_moves(text: str, fail) -> int:
    try:
        n = int(text)
    except ValueError:
        raise fail(f"max-moves={text}: give a whole number 1..{MAX_MOVES}") from None
    if not 1 <= n <= MAX_MOVES:
        raise fail(f"max-moves={n}: give 1..{MAX_MOVES}")
    return n


def _preset(text: str, fail) -> RuleSet:
    try:
        return rules_from(text, ())
    except RuleError:
        raise fail(f"rules={text}: not a preset (the presets are {', '.join(PRESETS)})"
                   ) from None


def _text_line(raw: str, number: int, source: str) -> PositionListEntry | None:
    def fail(problem: str) -> PositionListError:
        return PositionListError(problem, source, number)

    text = raw.split("#", 1)[0].strip()
    if not text:
        return None
    tokens = text.split()
    words = [t for t in tokens if "=" not in t]
    pairs = [t for t in tokens if "=" in t]
    if tokens[: len(words)] != words:
        raise fail(f"{text!r}: the position string comes first, then key=value overrides "
                   f"({', '.join(OVERRIDES)})")
    shown = " ".join(words)
    if len(words) != 2:
        raise fail(f"{shown!r} is not a position string: six rows of six slots joined by '/', "
                   f"a space and the side to move, like {_EXAMPLE}")
    try:
        position = Position.from_string(shown)
    except PositionError as e:
        raise fail(f"bad position string: {e}") from None
    found: dict[str, str] = {}
    for pair in pairs:
        key, _, value = pair.partition("=")
        key = key.strip().lower().replace("_", "-")
        if key not in OVERRIDES:
            raise fail(f"unknown override {key!r}: the overrides are "
                       f"{', '.join(k + '=...' for k in OVERRIDES)}")
        if key in found:
            raise fail(f"{key}= given twice")
        found[key] = value.strip()
    rules = _preset(found["rules"], fail) if "rules" in found else None
    max_moves = _max_moves(found["max-moves"], fail) if "max-moves" in found else None
    return PositionListEntry(number, position, rules, max_moves)


def _yaml_entry(node: yaml.Node, source: str) -> PositionListEntry:
    number = yamlnodes.line(node)

    def fail(problem: str, at: yaml.Node | None = None) -> PositionListError:
        return PositionListError(problem, source, yamlnodes.line(at) if at else number)

    if isinstance(node, yaml.ScalarNode):
        try:
            return PositionListEntry(number, Position.from_string(node.value.strip()))
        except PositionError as e:
            raise fail(f"bad position string: {e}") from None
    if not isinstance(node, yaml.MappingNode):
        raise fail(f"an entry is a position string or a mapping with 'position:', not "
                   f"{yamlnodes.kind(node)}")
    try:
        pf = position_from_node(node, source, extra=("max-moves", "id"))
    except PositionFileError as e:
        raise PositionListError(e.problem, source, e.line or number) from None
    entries = {k.value: v for k, v in node.value if isinstance(k, yaml.ScalarNode)}
    max_moves = None
    if "max-moves" in entries:
        v = entries["max-moves"]
        if not isinstance(v, yaml.ScalarNode):
            raise fail("max-moves: give a whole number", v)
        max_moves = _max_moves(v.value, lambda p: fail(p, v))
    ident = None
    if "id" in entries:
        v = entries["id"]
        if not isinstance(v, yaml.ScalarNode) or not v.value.strip():
            raise fail("id: give a short text", v)
        ident = v.value.strip()
    return PositionListEntry(number, pf.position, pf.rules, max_moves, pf.history, pf.previous,
                             ident)


def _is_yaml(text: str, suffix: str) -> bool:
    if suffix.lower() in (".yaml", ".yml"):
        return True
    for line in text.splitlines():
        s = line.strip()
        if s and not s.startswith("#"):
            return s.startswith("- ") or s == "-" or s == "---"
    return False


def parse_position_list(text: str, source: str = "<position list>", suffix: str = ""
                        ) -> tuple[list[PositionListEntry], list[PositionListError]]:
    """The good entries of a position list, and one error per bad entry (see the module
    documentation). A YAML file that cannot be read at all is one error."""
    entries: list[PositionListEntry] = []
    bad: list[PositionListError] = []
    if _is_yaml(text, suffix):
        try:
            root = yamlnodes.compose(
                text, lambda problem, line: PositionListError(problem, source, line or 1))
        except PositionListError as e:
            return [], [e]
        if root is None:
            return [], []
        if not isinstance(root, yaml.SequenceNode):
            return [], [PositionListError(
                f"a YAML position list is a list of entries ('- position: ...'), not "
                f"{yamlnodes.kind(root)}", source, yamlnodes.line(root))]
        for node in root.value:
            try:
                entries.append(_yaml_entry(node, source))
            except PositionListError as e:
                bad.append(e)
        return entries, bad
    for number, raw in enumerate(text.splitlines(), start=1):
        try:
            entry = _text_line(raw, number, source)
        except PositionListError as e:
            bad.append(e)
            continue
        if entry is not None:
            entries.append(entry)
    return entries, bad


_POSITION_LINE = re.compile(r"^\s*\S+/\S+\s+[SsNn]\w*(\s|$)")


def looks_like_position_list(text: str, suffix: str = "") -> bool:
    """Does this file hold a position list rather than one position? A YAML list, or text
    with more than one position line, or a position line with ``key=value`` overrides
    (one bare position string is a single position, as ``gyges solve`` always read it).

    >>> looks_like_position_list("321123/....../....../....../....../231123 S\\n")
    False
    >>> looks_like_position_list("# x\\n- 321123/....../....../....../....../231123 S\\n")
    True
    """
    if _is_yaml(text, suffix):
        try:
            root = yamlnodes.compose(text, lambda problem, line: ValueError(problem))
        except ValueError:
            return text.lstrip().startswith("-")
        return isinstance(root, yaml.SequenceNode)
    lines = [ln.split("#", 1)[0].strip() for ln in text.splitlines()]
    lines = [ln for ln in lines if ln]
    positions = [ln for ln in lines if _POSITION_LINE.match(ln)]
    if not positions:
        return False
    return len(lines) > 1 and len(positions) >= len(lines) / 2 or any("=" in ln for ln in lines)
