"""Text diagrams of positions in the style of seed 000 (the pbmserv rules), read and written.

A diagram is North's goal ``N``, the six rows with row 6 (North's starting row) at the top,
then South's goal ``S``. Each row lists its six slots, columns 1..6, separated by spaces:
``.`` for an empty slot, ``1``, ``2`` or ``3`` for a ring. The seed puts the column
numbers above and each row's number at its right; both are optional when reading. A last
line says who moves (``South to move`` / ``North to move``; South when absent, unless
the reader requires it, as for a diagram file on its own)::

    1 2 3 4 5 6
    N
    . . . . . . 6
    3 . . . . . 5
    . . 1 . 1 . 4
    1 . 2 3 . 3 3
    3 . 2 2 . 1 2
    . . . . 2 . 1
    S
    North to move

When reading, text after ``->``, ``<-`` or ``#`` on a line is a comment (the seed writes
``N -> "North" goal``), blank lines are ignored, ``0`` is accepted for an empty slot and a
row may also be written without spaces (``321123``). The goal lines are optional, but
when present ``N`` must come before the rows and ``S`` after them.

>>> p = parse_diagram('''
... N
... . . . . . . 6
... 3 . . . . . 5
... . . 1 . 1 . 4
... 1 . 2 3 . 3 3
... 3 . 2 2 . 1 2
... . . . . 2 . 1
... S
... ''')
>>> str(p)
'....../3...../..1.1./1.23.3/3.22.1/....2. S'
>>> print(format_diagram(p.with_turn(Side.NORTH), shores=True))
1 2 3 4 5 6
N
. . . . . . 6
3 . . . . . 5  <- North's shore
. . 1 . 1 . 4
1 . 2 3 . 3 3
3 . 2 2 . 1 2
. . . . 2 . 1  <- South's shore
S
North to move
>>> parse_diagram(format_diagram(p)) == p
True
"""

from __future__ import annotations

import re
from collections import Counter

from gyges.game.position import Position, PositionError, ring_count_problem
from gyges.game.rules import Side
from gyges.game.squares import slot

__all__ = ["DiagramError", "format_diagram", "parse_diagram", "looks_like_diagram"]

_COLUMNS = ["1", "2", "3", "4", "5", "6"]
_COMMENT = re.compile(r"(->|<-|#).*$")
_TO_MOVE = re.compile(
    r"^(?:(?P<a>south|north|s|n)\s+to\s+(?:move|play)"
    r"|to[- ]move\s*[:=]?\s*(?P<b>south|north|s|n))\s*\.?$",
    re.IGNORECASE,
)


class DiagramError(PositionError):
    """A diagram that cannot be read: ``str()`` is ``source:line: what is wrong``.

    A subclass of :class:`~gyges.game.position.PositionError` (so of ``ValueError``).
    """

    def __init__(self, problem: str, source: str = "<diagram>", line: int | None = None) -> None:
        self.problem = problem
        self.source = source
        self.line = line
        where = f"{source}:{line}" if line is not None else source
        super().__init__(f"{where}: {problem}")


def format_diagram(
    position: Position, *, coordinates: bool = True, shores: bool = False, turn: bool = True
) -> str:
    """The position as a seed-000 diagram (no trailing newline).

    ``coordinates`` adds the column numbers above and each row's number at its right;
    ``shores`` marks each side's shore row; ``turn`` adds the ``South to move`` line.

    >>> from gyges.game.position import START
    >>> print(format_diagram(START, coordinates=False, turn=False))
    N
    3 2 1 1 2 3
    . . . . . .
    . . . . . .
    . . . . . .
    . . . . . .
    2 3 1 1 2 3
    S
    """
    lines = []
    if coordinates:
        lines.append(" ".join(_COLUMNS))
    lines.append("N")
    marks: dict[int, list[str]] = {}
    if shores:
        for side in (Side.NORTH, Side.SOUTH):
            marks.setdefault(position.shore(side), []).append(side.title)
    for row in range(6, 0, -1):
        cells = [position.board[slot(row, c)] for c in range(1, 7)]
        text = " ".join(str(x) if x else "." for x in cells)
        if coordinates:
            text += f" {row}"
        if row in marks:
            who = marks[row]
            text += "  <- " + (f"{who[0]}'s shore" if len(who) == 1 else "both shores")
        lines.append(text)
    lines.append("S")
    if turn:
        lines.append(f"{position.turn.title} to move")
    return "\n".join(lines)


def _excerpt(text: str, width: int = 60) -> str:
    """At most ``width`` characters of a line, for an error message.

    >>> _excerpt("x" * 100, 10)
    'xxxxxxx...'
    """
    return text if len(text) <= width else text[: width - 3] + "..."


def looks_like_diagram(text: str) -> bool:
    """Does the text look like a diagram (rather than YAML or something else)?

    True when some line, comments removed, is a row of six slots.

    >>> looks_like_diagram("N\\n. 3 . . . . 6\\n")
    True
    >>> looks_like_diagram("position: 321123/....../....../....../....../231123 S")
    False
    """
    for raw in text.splitlines():
        if _row_cells(_COMMENT.sub("", raw).split()) is not None:
            return True
    return False


def _row_cells(tokens: list[str]) -> list[str] | None:
    """The six cells of a row line (with or without its row number), else None."""
    if len(tokens) == 1 and len(tokens[0]) == 6:
        cells = list(tokens[0])
    elif len(tokens) == 2 and len(tokens[0]) == 6 and tokens[1].isdigit():
        cells = list(tokens[0])
    elif len(tokens) in (6, 7) and all(len(t) == 1 for t in tokens[:6]):
        cells = tokens[:6]
    else:
        return None
    if all(c in ".0123" for c in cells):
        return cells
    return None


def parse_diagram(text: str, source: str = "<diagram>", *, first_line: int = 1,
                  turn_required: bool = False) -> Position:
    """Read a diagram; :class:`DiagramError` names ``source``, the line and the problem.

    ``first_line`` is the number of the text's first line in ``source`` (for a diagram
    embedded in a larger file). ``turn_required``: a diagram without its side-to-move line
    is an error (a file on its own must say it: South by default would be a silent guess).
    Row numbers are all given or none: a row of six entries among rows that end with their
    number has lost a slot, and is an error rather than another position.

    >>> parse_diagram("N\\n. . . . . .\\n", "d.txt")  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    gyges.formats.diagram.DiagramError: d.txt:3: the diagram ends after 1 row: ...
    """
    rows: list[list[int]] = []
    seen_n = seen_s = False
    turn: Side | None = None
    counts: Counter[int] = Counter()
    labelled: list[tuple[bool, int, str]] = []   # (row number given?, line, text) per row
    last_line = first_line
    for number, raw in enumerate(text.splitlines(), start=first_line):
        last_line = number
        line = _COMMENT.sub("", raw).strip()
        if not line:
            continue

        def fail(problem: str, number: int = number) -> DiagramError:
            return DiagramError(problem, source, number)

        if turn is not None:
            raise fail(f"{_excerpt(line)!r} after the side to move: the diagram ends with "
                       "that line")
        m = _TO_MOVE.match(line)
        if m:
            if len(rows) != 6:
                raise fail(f"the side to move comes after the six rows, found {len(rows)} rows")
            turn = Side.parse(m.group("a") or m.group("b"))
            continue
        tokens = line.split()
        upper = line.upper()
        if upper == "N":
            if seen_n or rows:
                raise fail("North's goal 'N' belongs above row 6, before the rows")
            seen_n = True
            continue
        if upper == "S":
            if seen_s or len(rows) != 6:
                raise fail(
                    f"South's goal 'S' belongs below row 1, after six rows (found {len(rows)})"
                )
            seen_s = True
            continue
        if tokens == _COLUMNS:
            if seen_n or rows:
                raise fail("the column numbers belong above the diagram")
            continue
        row = 6 - len(rows)
        cells = _row_cells(tokens)
        if cells is None:
            if len(rows) == 6 or seen_s:
                raise fail(
                    f"{_excerpt(line)!r} after the six rows: expected 'S', 'South to move' or "
                    "'North to move'"
                )
            raise fail(
                f"{_excerpt(line)!r} is not a row: write six slots separated by spaces, each . "
                f"(empty) or 1, 2, 3 (a ring), optionally followed by the row number {row}"
            )
        if seen_s:
            raise fail("a row below South's goal 'S': the six rows come between N and S")
        if len(rows) == 6:
            raise fail("a seventh row: the board has six rows")
        label = tokens[-1] if len(tokens) in (2, 7) else None
        if label is not None and label != str(row):
            raise fail(f"this is row {row} (rows go from 6 at the top to 1), not row {label}")
        labelled.append((label is not None, number, line))
        if len({given for given, _, _ in labelled}) > 1:
            bare = next((n, t) for given, n, t in labelled if not given)
            raise DiagramError(
                f"{_excerpt(bare[1])!r} has no row number while other rows end with theirs: "
                "is a slot missing? Give every row six slots and its number, or no row its "
                "number", source, bare[0])
        sizes = [0 if c in ".0" else int(c) for c in cells]
        for size in sizes:
            if size:
                counts[size] += 1
                problem = ring_count_problem(size, counts[size], " so far")
                if problem:
                    raise fail(problem)
        rows.append(sizes)
    if len(rows) != 6:
        found = "no rows" if not rows else f"{len(rows)} row{'s' if len(rows) != 1 else ''}"
        raise DiagramError(
            f"the diagram ends after {found}: it needs 6 rows, row 6 first", source, last_line + 1
        )
    if turn is None and turn_required:
        raise DiagramError("no side to move: end the diagram with a line 'South to move' "
                           "or 'North to move'", source, last_line + 1)
    board = [0] * 36
    for i, sizes in enumerate(rows):
        for c, size in enumerate(sizes):
            board[slot(6 - i, c + 1)] = size
    try:
        return Position(tuple(board), turn or Side.SOUTH)
    except PositionError as e:
        raise DiagramError(str(e), source, last_line) from None
