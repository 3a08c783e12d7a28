"""YAML position files: a position, the rules it is played under and the game so far.

A position file is a YAML mapping with these keys (only the position is required)::

    # A comment line: YAML comments are free.
    position: "....../3...../..1.1./1.23.3/3.22.1/....2. N"
    rules: pbmserv            # a preset: pbmserv, summary, bga, dorbec, dorbec-beginner
    rule:                     # overrides of single options (see docs/rules.md)
      replace: anywhere
    history:                  # earlier positions of the game, oldest first (Renop law)
      - "....../3...../..1.1./1.23.3/3.22.1/.....2 S"
    previous: "....../3...../..1.1./1.23.3/3.22.1/.....2 S"
    comment: The bouncing example of seed 000.

The position is given in exactly one of three ways:

``position``
    a position string: six rows of six characters, row 6 first, joined by ``/``, a space
    and the side to move (``S`` or ``N``).
``diagram``
    a seed-000 text diagram (see :mod:`gyges.formats.diagram`) as a block scalar, with the side
    to move in ``to-move`` (``S``/``N``, or ``South``/``North``) or in the diagram's
    last line (``North to move``): one of them is required::

        diagram: |
          1 2 3 4 5 6
          N
          . . . . . . 6
          3 . . . . . 5
          . . 1 . 1 . 4
          1 . 2 3 . 3 3
          3 . 2 2 . 1 2
          . . . . 2 . 1
          S
        to-move: N

``rings``
    a mapping from pbmserv slot names (row digit, column digit) to ring sizes, with
    ``to-move`` (required): ``rings: {51: 3, 43: 1, 45: 1, 31: 1, ...}``. Handy for composed
    problems with few rings; every other slot is empty.

The other keys:

``rules``
    the name of a rule preset (``pbmserv`` when only ``rule`` is given).
``rule``
    a mapping of option keys to values, applied on top of the preset.
``history``
    the positions before this one, oldest first: under ``repetition=forbidden`` (the Renop
    law) a move may not reproduce any of them. Each is a position string; the side may be
    left out (only the rings count for the Renop law), and is then taken to alternate
    backwards from the current position.
``previous``
    the position before the opponent's last move (used by the solver for the unstoppable
    win variant, ``win=unstoppable``); usually also the last entry of ``history``. Its
    side, when left out, is the opponent of the side to move.
``comment``
    free text, kept but not interpreted.

Every error names the file and the line, says what is wrong and what would be right:

>>> text = "position: 321123/....../....../....../....../231123 S\\nrule: {taboo: entry}"
>>> pf = parse_position_file(text)
>>> pf.rules.taboo, pf.rules
('entry', RuleSet('pbmserv', taboo='entry'))
>>> pf  # doctest: +ELLIPSIS
<PositionFile <position file>: 321123/.../231123 S, rules RuleSet('pbmserv', taboo='entry')>
>>> parse_position_file(dump_position_file(pf)) == pf == PositionFile.from_json(pf.to_json())
True
>>> typo = "positon: 321123/....../....../....../....../231123 S"
>>> parse_position_file(typo, "p.yaml")  # doctest: +ELLIPSIS
Traceback (most recent call last):
...
gyges.formats.posfile.PositionFileError: p.yaml:1: unknown key 'positon': did you mean ...
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable, Iterable, Mapping
from pathlib import Path
from typing import Any

import yaml

from gyges.formats import yamlnodes
from gyges.formats.diagram import DiagramError, format_diagram, parse_diagram
from gyges.formats.yamlnodes import Fail, compose, is_null, kind, mapping, scalar, suggest
from gyges.game.moves import apply_move, legal_moves
from gyges.game.position import Position, PositionError, ring_count_problem
from gyges.game.rules import OPTIONS, PRESETS, RuleError, RuleSet, Side, closest_preset
from gyges.game.squares import parse_slot, slot_name

__all__ = [
    "POSITION_FILE_KEYS",
    "PositionFile",
    "PositionFileError",
    "dump_position_file",
    "load_position_file",
    "parse_position_file",
]

#: Every key a position file may hold.
POSITION_FILE_KEYS = (
    "position", "diagram", "rings", "to-move", "rules", "rule", "history", "previous", "comment",
)
_ALIASES = {
    "side": "to-move", "turn": "to-move", "to_move": "to-move", "tomove": "to-move",
    "move": "to-move", "player": "to-move", "preset": "rules", "ruleset": "rules",
    "options": "rule", "overrides": "rule", "board": "position", "pos": "position",
    "prev": "previous", "moves": "history", "notes": "comment", "note": "comment",
}
_YAML_BOOLEAN_WORDS = {"yes", "no", "on", "off", "true", "false", "y", "n"}


class PositionFileError(PositionError):
    """A position file that cannot be used: ``str()`` is ``source:line: what is wrong``."""

    def __init__(self, problem: str, source: str, line: int | None = None) -> None:
        self.problem = problem
        self.source = source
        self.line = line
        where = f"{source}:{line}" if line is not None else source
        super().__init__(f"{where}: {problem}")


@dataclasses.dataclass(frozen=True, repr=False)
class PositionFile:
    """What a position file holds. ``rules`` is None when the file names no rules.

    Its JSON form (:meth:`to_json`)::

        {"position": "<position string>", "rules": {"<option>": "<value>", ...} | null,
         "history": ["<position string>", ...], "previous": "<position string>" | null,
         "comment": "<text>" | null}
    """

    position: Position
    rules: RuleSet | None = None
    history: tuple[Position, ...] = ()
    previous: Position | None = None
    source: str = dataclasses.field(default="<position>", compare=False)
    comment: str | None = None

    def to_json(self) -> dict[str, Any]:
        return {
            "position": self.position.to_json(),
            "rules": self.rules.to_json() if self.rules is not None else None,
            "history": [p.to_json() for p in self.history],
            "previous": self.previous.to_json() if self.previous is not None else None,
            "comment": self.comment,
        }

    @classmethod
    def from_json(cls, data: Mapping[str, Any], source: str = "<position>") -> PositionFile:
        """What its JSON form holds; :class:`PositionFileError` says what is wrong (the
        same checks as a position file's: ``previous`` one move before the position)."""
        if not isinstance(data, Mapping):
            raise PositionFileError(f"a position file's JSON form is an object, not {data!r}",
                                    source)
        try:
            position = Position.from_json(data.get("position"))
            rules = data.get("rules")
            history = data.get("history") or []
            if not isinstance(history, list):
                raise PositionError(f"history is a list of position strings, not {history!r}")
            previous = data.get("previous")
            comment = data.get("comment")
            if comment is not None and not isinstance(comment, str):
                raise PositionError(f"comment is text, not {comment!r}")
            pf = cls(position, RuleSet.from_json(rules) if rules is not None else None,
                     tuple(Position.from_json(h) for h in history),
                     Position.from_json(previous) if previous is not None else None,
                     source, comment)
        except (PositionError, RuleError) as e:
            raise PositionFileError(str(e), source) from None
        if pf.previous is not None and not _one_move_before(pf.previous, position, pf.history):
            raise PositionFileError(_NOT_ONE_MOVE_BEFORE.format(side=position.turn.other.title),
                                    source)
        return pf

    def __repr__(self) -> str:
        parts = [f"<PositionFile {self.source}: {self.position}"]
        if self.rules is not None:
            parts.append(f"rules {self.rules!r}")
        if self.history:
            n = len(self.history)
            parts.append(f"{n} earlier position{'s' if n != 1 else ''}")
        if self.previous is not None:
            parts.append(f"previous {self.previous}")
        return ", ".join(parts) + ">"


# -- reading -------------------------------------------------------------------------------


def load_position_file(path: str | Path) -> PositionFile:
    """Read a YAML position file; :class:`PositionFileError` says what is wrong and where."""
    source = str(path)
    text = yamlnodes.read_file(path, lambda problem: PositionFileError(problem, source))
    return parse_position_file(text, source)


def parse_position_file(text: str, source: str = "<position file>") -> PositionFile:
    """Read the text of a YAML position file (see the module documentation)."""
    root = compose(text, lambda problem, at: PositionFileError(problem, source, at))
    if root is None:
        raise PositionFileError(
            "the file is empty: it needs at least 'position: <position string>'", source, 1
        )
    return position_from_node(root, source)


def position_from_node(root: yaml.Node, source: str, extra: Iterable[str] = ()) -> PositionFile:
    """A position file's content from its YAML node (a mapping); keys in ``extra`` are
    allowed and left to the caller (a position list's entries have a few more)."""

    def fail(problem: str, node: yaml.Node | None = None) -> PositionFileError:
        at = yamlnodes.line(node) if node is not None else None
        return PositionFileError(problem, source, at)

    allowed = (*POSITION_FILE_KEYS, *extra)
    if not isinstance(root, yaml.MappingNode):
        raise fail(
            f"a position file is a YAML mapping of keys ({', '.join(POSITION_FILE_KEYS)}), "
            f"not {kind(root)}",
            root,
        )
    entries = mapping(root, fail)
    for key, (key_node, _) in entries.items():
        if key not in allowed:
            raise fail(f"unknown key {key!r}: {suggest(key, allowed, _ALIASES)}(the keys are "
                       f"{', '.join(allowed)})", key_node)

    given = [k for k in ("position", "diagram", "rings") if k in entries]
    if not given:
        raise PositionFileError(
            "no position: give one of 'position: <position string>', 'diagram: |' with a "
            "text diagram, or 'rings: {slot: size, ...}'",
            source, yamlnodes.line(root),
        )
    if len(given) > 1:
        raise fail(
            f"both {given[0]!r} and {given[1]!r}: give the position in only one way",
            entries[given[1]][0],
        )

    to_move: Side | None = None
    if "to-move" in entries:
        node = scalar(entries["to-move"][1], "to-move", "S or N", fail)
        try:
            to_move = Side.parse(node.value)
        except ValueError:
            raise fail(f"to-move cannot be {node.value!r}: use S (South) or N (North)", node) \
                from None

    source_key = given[0]
    value_node = entries[source_key][1]
    if source_key == "position":
        position = read_position(value_node, fail, "position")
        if to_move is not None and to_move is not position.turn:
            raise fail(
                f"to-move says {to_move.value} but the position string says "
                f"{position.turn.value}: drop to-move or make them agree",
                entries["to-move"][1],
            )
    elif source_key == "diagram":
        to_move_node = entries["to-move"][1] if "to-move" in entries else None
        position = read_diagram(value_node, source, fail, to_move, to_move_node,
                                lambda problem, at: PositionFileError(problem, source, at))
    else:
        position = _rings(value_node, fail, to_move or Side.SOUTH)
        if to_move is None:
            raise fail("rings without to-move: add 'to-move: S' or 'to-move: N'", value_node)

    rules = read_rules(entries, fail)

    history: tuple[Position, ...] = ()
    if "history" in entries:
        history_node = entries["history"][1]
        history = read_history(history_node, fail, position.turn, "history is a list of "
                               f"position strings (oldest first), not {kind(history_node)}")

    previous = None
    if "previous" in entries:
        previous = read_position(entries["previous"][1], fail, "previous",
                             default_turn=position.turn.other)
        if not _one_move_before(previous, position, history):
            raise fail(_NOT_ONE_MOVE_BEFORE.format(side=position.turn.other.title),
                       entries["previous"][1])

    comment = None
    if "comment" in entries:
        comment = scalar(entries["comment"][1], "comment", "free text", fail).value

    return PositionFile(position, rules, history, previous, source, comment)


_NOT_ONE_MOVE_BEFORE = ("previous is not one move before the position: no legal move of "
                        "{side} leads from it to the position (under any preset)")


def _one_move_before(previous: Position, position: Position,
                     history: tuple[Position, ...]) -> bool:
    """Does one move of the other side lead from ``previous`` to ``position``, under some
    preset (the rules in force may be changed when the file is used)?"""
    prior = list(history)
    if prior and prior[-1] == previous:
        prior = prior[:-1]
    for rules in PRESETS.values():
        options = legal_moves(previous, rules, prior)
        if options.mover is position.turn:
            continue
        if any(not m.is_win and apply_move(previous, m) == position for m in options):
            return True
    return False


def alternating_back(turn: Side, n: int) -> list[Side]:
    """Sides to move of the n positions before one with ``turn`` to move, oldest first."""
    sides = []
    side = turn
    for _ in range(n):
        side = side.other
        sides.append(side)
    return sides[::-1]


def read_position(
    node: yaml.Node, fail: Fail, what: str, default_turn: Side | None = None
) -> Position:
    """A position string node (the side to move may be left to ``default_turn``)."""
    node = scalar(node, what, "a position string like 321123/....../....../....../....../231123 S",
                   fail)
    text = node.value.strip()
    if default_turn is not None and len(text.split()) == 1 and "/" in text:
        text = f"{text} {default_turn.value}"
    try:
        return Position.from_string(text)
    except PositionError as e:
        raise fail(f"{what}: {e}", node) from None


def read_diagram(node: yaml.Node, source: str, fail: Fail, to_move: Side | None,
                 to_move_node: yaml.Node | None,
                 located: Callable[[str, int | None], Exception],
                 has_turn: bool | None = None) -> Position:
    """The position drawn under ``diagram:`` (position files and catalogue entries).

    A problem of a literal block (``diagram: |``) is located on the diagram's own line by
    ``located(problem, line)``; of any other scalar, on the node by ``fail``. ``to-move``
    (``to_move``, read from ``to_move_node``) must agree with a turn line of the diagram
    (``has_turn``: whether it has one; by default, a line saying "to move", "to play" or
    "to-move") and otherwise sets the side to move.
    """
    node = scalar(node, "diagram", "a text diagram written as a block scalar ('diagram: |' "
                   "then the diagram's lines, indented)", fail)
    # A literal block scalar keeps its lines: its first line is the one after 'diagram: |'.
    literal = node.style == "|"
    first = yamlnodes.line(node) + 1 if literal else yamlnodes.line(node)
    try:
        position = parse_diagram(node.value, source, first_line=first)
    except DiagramError as e:
        if literal:
            raise located(e.problem, e.line) from None
        raise fail(f"diagram: {e.problem}", node) from None
    if has_turn is None:
        has_turn = any(
            "to move" in line.lower() or "to play" in line.lower() or "to-move" in line.lower()
            for line in node.value.splitlines()
        )
    if to_move is not None:
        if has_turn and position.turn is not to_move:
            raise fail(
                f"to-move says {to_move.value} but the diagram says {position.turn.title} to "
                "move: keep one of them",
                to_move_node,
            )
        position = position.with_turn(to_move)
    elif not has_turn:
        raise fail("the diagram does not say who is to move: add 'to-move: S' or "
                   "'to-move: N', or end the diagram with 'South to move' or 'North to move'",
                   node)
    return position


def read_history(node: yaml.Node, fail: Fail, turn: Side, not_a_list: str) -> tuple[Position, ...]:
    """The ``history`` list of position strings (oldest first; the sides to move alternate
    back from ``turn`` where a string leaves it out); ``not_a_list`` is the complaint when
    the node is neither a list nor empty."""
    if is_null(node):
        items: list[yaml.Node] = []
    elif not isinstance(node, yaml.SequenceNode):
        raise fail(not_a_list, node)
    else:
        items = node.value
    turns = alternating_back(turn, len(items))
    return tuple(
        read_position(item, fail, f"history entry {i + 1}", default_turn=turn)
        for i, (item, turn) in enumerate(zip(items, turns, strict=True))
    )


def _rings(node: yaml.Node, fail, turn: Side) -> Position:
    if not isinstance(node, yaml.MappingNode):
        raise fail(f"rings is a mapping from slots to ring sizes, like {{13: 3, 24: 1}}, "
                   f"not {kind(node)}", node)
    board = [0] * 36
    seen: dict[int, yaml.Node] = {}
    counts = {1: 0, 2: 0, 3: 0}
    for key_node, value_node in node.value:
        name = getattr(key_node, "value", "")
        try:
            s = parse_slot(str(name))
            if s >= 36:
                raise ValueError(f"{name!r} is a goal: rings stand on slots 11..66")
        except ValueError as e:
            raise fail(f"rings: {e}", key_node) from None
        if s in seen:
            raise fail(
                f"two rings on slot {slot_name(s)} (first on line "
                f"{yamlnodes.line(seen[s])}): a slot holds at most one ring",
                key_node,
            )
        seen[s] = key_node
        size_node = scalar(value_node, f"the ring on {slot_name(s)}", "a size: 1, 2 or 3", fail)
        if size_node.value not in ("1", "2", "3"):
            raise fail(f"the ring on {slot_name(s)} has size {size_node.value!r}: a ring is "
                       "1, 2 or 3", size_node)
        size = int(size_node.value)
        counts[size] += 1
        problem = ring_count_problem(size, counts[size])
        if problem:
            raise fail(problem, key_node)
        board[s] = size
    try:
        return Position(tuple(board), turn)
    except PositionError as e:
        raise fail(f"rings: {e}", node) from None


def read_rules(entries: dict, fail: Fail) -> RuleSet | None:
    """The ``rules`` preset and ``rule`` overrides of a mapping, or None if neither."""
    if "rules" not in entries and "rule" not in entries:
        return None
    rules = PRESETS["pbmserv"]
    if "rules" in entries:
        node = scalar(entries["rules"][1], "rules", f"a preset: {', '.join(PRESETS)}", fail)
        if node.value not in PRESETS:
            raise fail(f"unknown rule preset {node.value!r}: "
                       f"{suggest(node.value, PRESETS)}use one of {', '.join(PRESETS)}", node)
        rules = PRESETS[node.value]
    if "rule" in entries:
        node = entries["rule"][1]
        if is_null(node):
            return rules
        if not isinstance(node, yaml.MappingNode):
            raise fail(f"rule is a mapping of options, like {{taboo: entry}}, not {kind(node)}",
                       node)
        changes = {}
        for key, (key_node, value_node) in mapping(node, fail).items():
            if key not in OPTIONS:
                raise fail(f"unknown rule {key!r}: {suggest(key, OPTIONS)}the rules are "
                           f"{', '.join(OPTIONS)}", key_node)
            values = OPTIONS[key]
            vnode = scalar(value_node, f"rule {key}", f"one of {', '.join(values)}", fail)
            if vnode.value not in values:
                raise fail(f"rule {key} cannot be {vnode.value!r}: "
                           f"{suggest(vnode.value, values)}use one of {', '.join(values)}",
                           vnode)
            changes[key] = vnode.value
        try:
            rules = rules.with_options(changes)
        except RuleError as e:  # pragma: no cover - every value was checked above
            raise fail(str(e), node) from None
    return rules


# -- writing -------------------------------------------------------------------------------


def _quote(text: str) -> str:
    """A YAML double-quoted scalar on one line."""
    return yaml.safe_dump(text, default_style='"', width=float("inf"), allow_unicode=True).strip()


def dump_position_file(
    position: Position | PositionFile,
    rules: RuleSet | None = None,
    history: Iterable[Position] = (),
    previous: Position | None = None,
    *,
    diagram: bool = False,
    comment: str | None = None,
) -> str:
    """A position file's text; :func:`parse_position_file` reads it back unchanged.

    Given a :class:`PositionFile`, its fields are written (the other arguments are then
    ignored). ``diagram=True`` writes the rings as a text diagram instead of a position
    string. Rules that are no preset are written as the closest preset plus overrides.

    >>> from gyges.game.position import START
    >>> print(dump_position_file(START, PRESETS["dorbec"].with_options({"replace": "off"})))
    position: "321123/....../....../....../....../231123 S"
    rules: dorbec-beginner
    <BLANKLINE>
    >>> text = dump_position_file(START, RuleSet(taboo="entry"), diagram=True)
    >>> parse_position_file(text) == PositionFile(START, RuleSet(taboo="entry"))
    True
    """
    if isinstance(position, PositionFile):
        pf = position
        position, rules, history, previous = pf.position, pf.rules, pf.history, pf.previous
        comment = pf.comment
    lines = []
    if diagram:
        lines.append("diagram: |")
        lines += ["  " + line for line in format_diagram(position, turn=False).splitlines()]
        lines.append(f"to-move: {position.turn.value}")
    else:
        lines.append(f"position: {_quote(str(position))}")
    if rules is not None:
        name, diff = closest_preset(rules)
        lines.append(f"rules: {name}")
        if diff:
            lines.append("rule:")
            for key, value in diff.items():
                shown = _quote(value) if value.lower() in _YAML_BOOLEAN_WORDS else value
                lines.append(f"  {key}: {shown}")
    history = tuple(history)
    if history:
        lines.append("history:")
        lines += [f"  - {_quote(str(p))}" for p in history]
    if previous is not None:
        lines.append(f"previous: {_quote(str(previous))}")
    if comment is not None:
        lines.append(f"comment: {_quote(comment)}")
    return "\n".join(lines) + "\n"
