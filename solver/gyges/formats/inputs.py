"""Reading a position or a game from what a user gives: a position string or a file.

:func:`load_position` takes a position string, a YAML position file
(:mod:`gyges.formats.posfile`) or a seed-000 text diagram (:mod:`gyges.formats.diagram`):
a name of an existing file is read as a file, a ``.yaml``/``.yml`` one as YAML and any
other by its content (a file that begins like YAML is YAML, one that holds just a
position string is that position, anything else a diagram, which must say who is to
move); anything else is read as a position string. :func:`load_positions` reads the same
argument once as either one position or a position list (:mod:`gyges.formats.poslist`), as
``gyges solve`` takes it. :func:`load_game` reads a game record
(:mod:`gyges.formats.record`) and, for a record without setups, its start position.

Files larger than :data:`MAX_INPUT_BYTES` are refused before they are read whole
(position files, diagrams and records are a few hundred bytes). Every problem is one
:class:`InputError` whose message names the file and line and quotes at most a short
excerpt of the input.

>>> load_position("321123/....../....../....../....../231123 S").position
Position('321123/....../....../....../....../231123 S')
>>> load_position("nope.yaml")  # doctest: +ELLIPSIS
Traceback (most recent call last):
...
gyges.formats.inputs.InputError: no such file 'nope.yaml' and not a position string (a ...
"""

from __future__ import annotations

import dataclasses
import os
import re
from pathlib import Path

from gyges.formats.diagram import looks_like_diagram, parse_diagram
from gyges.formats.posfile import POSITION_FILE_KEYS, PositionFile, parse_position_file
from gyges.formats.poslist import (
    PositionListEntry,
    PositionListError,
    looks_like_position_list,
    parse_position_list,
)
from gyges.formats.quoting import excerpt, quoted
from gyges.formats.record import GameRecord, RecordError, parse_record
from gyges.game.position import Position, PositionError

__all__ = [
    "MAX_INPUT_BYTES", "InputError", "Positions", "StartConflict", "excerpt", "exists",
    "load_game", "load_position", "load_positions", "read_text_file",
]

MAX_INPUT_BYTES = 16 << 20  #: the largest input file read (16 MiB)
BOM = "\ufeff"  #: the byte-order mark some editors put at the start of a UTF-8 file

_EXAMPLE = "321123/....../....../....../....../231123 S"
_POSITION_SHAPE = (
    "a position string is six rows of six slots joined by '/', a space and the side to "
    f"move, like {_EXAMPLE}"
)
_YAML_KEY = re.compile(r"^([A-Za-z][A-Za-z_-]*)\s*:")


class InputError(ValueError):
    """An input that cannot be read: ``str()`` is one line saying where (``file:line``,
    when the input is a file) and what is wrong. ``source`` and ``line`` locate it when
    known."""

    def __init__(self, message: str, source: str | None = None, line: int | None = None) -> None:
        super().__init__(message)
        self.source = source
        self.line = line


class StartConflict(InputError):
    """A start position given for a game record that starts from its own setups."""

    problem = "the record gives its own setups (entries 1 and 2), so it starts from them"

    def __init__(self, start: str) -> None:
        super().__init__(f"{start}: {self.problem}: a start position is for a record "
                         "without setups", start)


def read_text_file(path: str | os.PathLike[str], what: str = "file",
                   limit: int = MAX_INPUT_BYTES) -> str:
    """The text of a file, or an InputError saying why it cannot be read as a ``what``
    (a file larger than ``limit`` bytes is refused without reading it whole: /dev/zero
    ends too). A UTF-8 byte-order mark at its start (Notepad writes one) is dropped."""
    source = str(path)
    try:
        with open(path, "rb") as f:
            data = f.read(limit + 1)
        if len(data) > limit:
            raise InputError(f"{source}: larger than {limit >> 20} MiB: not a {what}",
                             source) from None
        return data.decode("utf-8").removeprefix(BOM)
    except IsADirectoryError:
        raise InputError(f"{source} is a directory, not a {what}", source) from None
    except UnicodeDecodeError as e:
        line = data[: e.start].count(b"\n") + 1
        raise InputError(f"{source}:{line}: not a text file (it is not UTF-8)", source,
                         line) from None
    except OSError as e:
        raise InputError(f"{source}: cannot read the file: {e.strerror or e}", source) \
            from None


def exists(path: Path) -> bool:
    """Does ``path`` name something that exists? False also for a name the system refuses
    to look up (too long, a NUL in it): an argument that is not a file name.

    >>> exists(Path("x/" * 5000)), exists(Path("."))
    (False, True)
    """
    try:
        return path.exists()
    except (OSError, ValueError):
        return False


def load_position(arg: str | os.PathLike[str]) -> PositionFile:
    """The position (and rules, history...) that ``arg`` gives: a position string, or the
    name of a position file or diagram (a path object is always a file name)."""
    if isinstance(arg, os.PathLike):
        path = Path(arg)
        if not exists(path):
            raise InputError(f"no such file {quoted(str(path), 120)}", str(path))
        return _read_file(path)
    if not arg.strip():
        raise InputError(f"an empty argument: give a position string ({_POSITION_SHAPE}) "
                         "or a position file")
    path = Path(arg)
    if exists(path):
        return _read_file(path)
    if _looks_like_position_string(arg):
        try:
            return PositionFile(Position.from_string(arg), source="<command line>")
        except PositionError as e:
            raise InputError(f"bad position string: {_cut(str(e), arg)}") from None
    try:
        return PositionFile(Position.from_string(arg), source="<command line>")
    except PositionError:
        raise InputError(f"no such file {excerpt(arg)!r} and not a position string "
                         f"({_POSITION_SHAPE})") from None


@dataclasses.dataclass(frozen=True)
class Positions:
    """What a ``POS|FILE`` argument holds when it may be a position list: its entries (one
    for a single position), the list's bad lines, and whether it is a list (a YAML list, or
    text with several position lines or ``key=value`` overrides).

    >>> one = load_positions("321123/....../....../....../....../231123 S")
    >>> one.is_list, one.entries[0].position, one.bad
    (False, Position('321123/....../....../....../....../231123 S'), ())
    """

    source: str
    entries: tuple[PositionListEntry, ...]
    bad: tuple[PositionListError, ...] = ()
    is_list: bool = False


def load_positions(arg: str) -> Positions:
    """One position or a position list from ``arg``, the file read once: a file that
    :func:`~gyges.formats.poslist.looks_like_position_list` is a list (its bad lines kept,
    not raised); anything else is one position, read as :func:`load_position` reads it
    (InputError when it is not one)."""
    path = Path(arg)
    if arg.strip() and exists(path) and not path.is_dir():
        text = read_text_file(path, "position file")
        if looks_like_position_list(text, path.suffix):
            entries, bad = parse_position_list(text, arg, path.suffix)
            return Positions(arg, tuple(entries), tuple(bad), is_list=True)
        one = _parse_file(text, path)
    else:
        one = load_position(arg)
    return Positions(arg, (PositionListEntry(1, one.position, one.rules, None, one.history,
                                 one.previous),))


def load_game(
    path: str | os.PathLike[str], start: str | os.PathLike[str] | None = None
) -> tuple[GameRecord, PositionFile | None]:
    """A game record and, when ``start`` is given (as :func:`load_position` reads it), the
    position it starts from: ``(record, start_file)``. A missing or unreadable file, a
    record that cannot be read, or a start for a record that gives its own setups
    (:class:`StartConflict`) raise InputError."""
    source = str(path)
    if not exists(Path(path)):
        raise InputError(f"no such file {quoted(source, 120)}", source)
    text = read_text_file(path, "game record")
    start_file = load_position(start) if start is not None else None
    try:
        record = parse_record(text, source)
    except RecordError as e:
        raise InputError(str(e), source) from None
    if start_file is not None and record.south_setup is not None:
        raise StartConflict(str(start))
    return record, start_file


# -- telling the inputs apart ----------------------------------------------------------------


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
    return _parse_file(read_text_file(path, "position file"), path)


def _parse_file(text: str, path: Path) -> PositionFile:
    """The position of a file's text: YAML, one position string, or a diagram."""
    source = str(path)
    if not text.strip():
        raise InputError(f"{source}: the file is empty: give a position string "
                         f"({_POSITION_SHAPE}), a YAML position file or a diagram", source)
    try:
        if path.suffix.lower() in (".yaml", ".yml"):
            return parse_position_file(text, source)
        first = _first_content_line(text)
        m = _YAML_KEY.match(first)
        if m and m.group(1).lower() in POSITION_FILE_KEYS or first in ("---", "{"):
            return parse_position_file(text, source)
        lines = [ln.strip() for ln in text.splitlines()
                 if ln.strip() and not ln.strip().startswith("#")]
        if len(lines) == 1 and "/" in lines[0] and not looks_like_diagram(text):
            number = _line_of(text, lines[0])
            try:
                return PositionFile(Position.from_string(lines[0]), source=source)
            except PositionError as e:
                raise InputError(f"{source}:{number}: {_cut(str(e), lines[0])}", source,
                                 number) from None
        return PositionFile(parse_diagram(text, source, turn_required=True), source=source)
    except PositionError as e:  # PositionFileError, DiagramError: already 'file:line: ...'
        raise InputError(str(e), source, getattr(e, "line", None)) from None


def _line_of(text: str, wanted: str) -> int:
    for number, line in enumerate(text.splitlines(), start=1):
        if line.strip() == wanted:
            return number
    return 1


def _cut(message: str, text: str) -> str:
    """``message`` with any long quote of the input ``text`` replaced by an excerpt."""
    if len(text) > 60:
        message = message.replace(repr(text), repr(excerpt(text)))
        message = message.replace(text, excerpt(text))
    return message
