"""Reading the ``POS|FILE`` argument of a command: a position string or a position file.

An argument naming an existing file is read as a YAML position file (``.yaml``/``.yml``,
see :mod:`gyges.formats.posfile`) or a seed-000 text diagram (any other extension; a file that
begins like YAML, or holds just a position string, is recognised by its content).
Anything else is read as a position string. Every problem becomes one
:class:`~gyges_cli.common.UserError` (exit status 2) naming the file and line, quoting at
most a short excerpt of the input. Files larger than :data:`MAX_INPUT_BYTES` are refused
before they are read whole (position files, diagrams and records are a few hundred bytes).

>>> str(load_input("321123/....../....../....../....../231123 S").position)
'321123/....../....../....../....../231123 S'
>>> load_input("nope.yaml")  # doctest: +ELLIPSIS
Traceback (most recent call last):
...
gyges_cli.common.UserError: no such file 'nope.yaml' and not a position string (a position ...
"""

from __future__ import annotations

import re
from pathlib import Path

from gyges.formats.diagram import looks_like_diagram, parse_diagram
from gyges.formats.posfile import KEYS, PositionFile, parse_position_file
from gyges.formats.record import GameRecord, RecordError, parse_record
from gyges.game.position import Position, PositionError
from gyges.game.rules import RuleSet
from gyges_cli.common import RuleRequest, UserError, combine_rules

__all__ = ["MAX_INPUT_BYTES", "excerpt", "load_input", "read_text_file"]

MAX_INPUT_BYTES = 16 << 20  #: the largest input file read (16 MiB)

_EXAMPLE = "321123/....../....../....../....../231123 S"
_POSITION_SHAPE = (
    "a position string is six rows of six slots joined by '/', a space and the side to "
    f"move, like {_EXAMPLE}"
)
_YAML_KEY = re.compile(r"^([A-Za-z][A-Za-z_-]*)\s*:")


def excerpt(text: str, width: int = 60) -> str:
    """At most ``width`` characters of ``text`` (its first line), for an error message.

    >>> excerpt("321123/" * 20)
    '321123/321123/321123/321123/321123/321123/321123/321123/3... (140 characters)'
    """
    first = text.splitlines()[0] if text.splitlines() else text
    if len(first) <= width and first == text:
        return text
    return f"{first[: width - 3]}... ({len(text)} characters)"


def read_text_file(path: Path, what: str = "file", limit: int = MAX_INPUT_BYTES) -> str:
    """The text of a file, or a UserError saying why it cannot be read (a file larger than
    ``limit`` bytes is refused without reading it whole: /dev/zero ends too)."""
    try:
        with open(path, "rb") as f:
            data = f.read(limit + 1)
        if len(data) > limit:
            raise UserError(f"{path}: larger than {limit >> 20} MiB: not a {what}") from None
        return data.decode("utf-8")
    except IsADirectoryError:
        raise UserError(f"{path} is a directory, not a {what}") from None
    except UnicodeDecodeError as e:
        line = data[: e.start].count(b"\n") + 1
        raise UserError(f"{path}:{line}: not a text file (it is not UTF-8)") from None
    except OSError as e:
        raise UserError(f"{path}: cannot read the file: {e.strerror or e}") from None


def _looks_like_position_string(text: str) -> bool:
    """Was this argument meant as a position string (rather than a file name)?"""
    return text.count("/") >= 3 or re.search(r"/.*\s[SsNn][A-Za-z]*\s*$", text) is not None


def _first_content_line(text: str) -> str:
    for line in text.splitlines():
        stripped = line.strip()
        if stripped and not stripped.startswith("#"):
            return stripped
    return ""


def _read_file(path: Path) -> PositionFile:
    text = read_text_file(path, "position file")
    source = str(path)
    try:
        if path.suffix.lower() in (".yaml", ".yml"):
            return parse_position_file(text, source)
        first = _first_content_line(text)
        m = _YAML_KEY.match(first)
        if m and m.group(1).lower() in KEYS or first in ("---", "{"):
            return parse_position_file(text, source)
        lines = [ln.strip() for ln in text.splitlines()
                 if ln.strip() and not ln.strip().startswith("#")]
        if len(lines) == 1 and "/" in lines[0] and not looks_like_diagram(text):
            number = _line_of(text, lines[0])
            try:
                return PositionFile(Position.from_string(lines[0]), source=source)
            except PositionError as e:
                raise UserError(_cut(str(e), lines[0]), f"{source}:{number}") from None
        return PositionFile(parse_diagram(text, source, turn_required=True), source=source)
    except PositionError as e:  # PositionFileError, DiagramError: already 'file:line: ...'
        raise UserError(str(e)) from None


def _line_of(text: str, wanted: str) -> int:
    for number, line in enumerate(text.splitlines(), start=1):
        if line.strip() == wanted:
            return number
    return 1


def load_input(arg: str) -> PositionFile:
    """The position (and rules, history...) named by a command's ``POS|FILE`` argument."""
    if not arg.strip():
        raise UserError(f"an empty argument: give a position string ({_POSITION_SHAPE}) or a "
                        "position file")
    path = Path(arg)
    if path.exists():
        return _read_file(path)
    if _looks_like_position_string(arg):
        try:
            return PositionFile(Position.from_string(arg), source="<command line>")
        except PositionError as e:
            raise UserError(f"bad position string: {_cut(str(e), arg)}") from None
    try:
        return PositionFile(Position.from_string(arg), source="<command line>")
    except PositionError:
        raise UserError(f"no such file {excerpt(arg)!r} and not a position string "
                        f"({_POSITION_SHAPE})") from None


def _cut(message: str, quoted: str) -> str:
    """``message`` with any long quote of the input replaced by an excerpt."""
    if len(quoted) > 60:
        message = message.replace(repr(quoted), repr(excerpt(quoted)))
        message = message.replace(quoted, excerpt(quoted))
    return message


def load_game(game_file: Path, start_arg: str | None, rules: RuleSet,
              rules_given: RuleRequest | bool) -> tuple[GameRecord, Position | None, RuleSet]:
    """A game record with its optional ``--start`` position (and the rules that position's
    file names): ``(record, start, rules)``. A missing or unreadable file, a record that
    cannot be read, or ``--start`` for a record that gives its own setups: exit status 2."""
    if not game_file.exists():
        raise UserError(f"no such file {str(game_file)!r}")
    text = read_text_file(game_file, "game record")
    start = None
    if start_arg is not None:
        start_file = load_input(start_arg)
        start = start_file.position
        rules = combine_rules(start_file.rules, rules, rules_given)
    try:
        record = parse_record(text, str(game_file))
    except RecordError as e:
        raise UserError(str(e)) from None
    if start is not None and record.south_setup is not None:
        raise UserError("the record gives its own setups (entries 1 and 2), so it starts "
                        "from them: --start is for a record without setups", start_arg)
    return record, start, rules
