"""Positions: the rings on the 36 slots and the side to move, as an immutable value.

The position string has six groups of six characters, row 6 (North's starting row, drawn
at the top) first and row 1 last, columns 1..6 left to right; ``.`` or ``0`` is an empty
slot, ``1``-``3`` a ring of that size; groups are joined by ``/``, then a space and the
side to move.

>>> p = Position.from_string("321123/....../....../....../....../231123 S")
>>> p.shore(Side.SOUTH), p.shore(Side.NORTH)
(1, 6)
>>> str(p)
'321123/....../....../....../....../231123 S'
>>> Position.from_string(str(p)) == p
True
>>> p
Position('321123/....../....../....../....../231123 S')
>>> Position.from_json(p.to_json()) == p
True
"""

from __future__ import annotations

import dataclasses
import itertools
from collections import Counter

from gyges.game import _movegen
from gyges.game.rules import Side
from gyges.game.squares import SLOTS, column_of, row_of, slot

MAX_OF_EACH_SIZE = 4
SIZE_NAMES = {1: "singles", 2: "doubles", 3: "triples"}

#: Every setup of one side (ring sizes on columns 1..6 of its home row), sorted:
#: 6! / (2! 2! 2!) = 90.
ALL_SETUPS: tuple[str, ...] = tuple(sorted({"".join(p) for p in itertools.permutations("112233")}))


def mirror_setup(setup: str) -> str:
    """A setup reflected left to right (column c -> 7 - c).

    >>> mirror_setup("231123")
    '321132'
    """
    return setup[::-1]


def canonical_pair(south: str, north: str) -> tuple[str, str]:
    """The representative of a setup pair and its mirror (the whole board reflected left
    to right, which changes no verdict, figure or game): the smaller of the two.

    >>> canonical_pair("321132", "112233")
    ('231123', '332211')
    """
    return min((south, north), (mirror_setup(south), mirror_setup(north)))


_EXAMPLE = "321123/....../....../....../....../231123 S"


class PositionError(ValueError):
    """A position that cannot be read or does not respect the ring counts."""


def ring_count_problem(size: int, count: int, where: str = "") -> str | None:
    """What is wrong with ``count`` rings of ``size`` (``where``: " on the board", ...), or
    None: the one place the ring counts are checked.

    >>> ring_count_problem(2, 5, " so far")
    '5 doubles so far: there are only 4 rings of each size'
    >>> ring_count_problem(2, 4) is None
    True
    """
    if count <= MAX_OF_EACH_SIZE:
        return None
    return (f"{count} {SIZE_NAMES[size]}{where}: there are only {MAX_OF_EACH_SIZE} rings of "
            "each size")


@dataclasses.dataclass(frozen=True, repr=False)
class Position:
    """Ring sizes on slots 0..35 (0 = empty) and the side to move; shown as its position
    string."""

    board: tuple[int, ...]
    turn: Side = Side.SOUTH

    def __post_init__(self) -> None:
        if len(self.board) != 36:
            raise PositionError(f"a board has 36 slots, not {len(self.board)}")
        for s, size in enumerate(self.board):
            if size not in (0, 1, 2, 3):
                raise PositionError(
                    f"slot {row_of(s)}{column_of(s)} holds {size!r}: a ring is 1, 2 or 3"
                )
        counts = Counter(x for x in self.board if x)
        for size in (1, 2, 3):
            problem = ring_count_problem(size, counts[size], " on the board")
            if problem:
                raise PositionError(problem)
        if not counts:
            raise PositionError("the board is empty: a position needs at least one ring")

    # -- reading and writing -------------------------------------------------------------

    @classmethod
    def from_string(cls, text: str) -> Position:
        """Read a position string; PositionError says what is wrong and where."""
        parts = text.split()
        if len(parts) != 2:
            raise PositionError(
                f"{text!r} is not a position string: expected six rows joined by '/', a space "
                f"and the side to move, like {_EXAMPLE}"
            )
        rows = parts[0].split("/")
        if len(rows) != 6:
            raise PositionError(f"a position string has 6 rows separated by '/', found {len(rows)}")
        board = [0] * 36
        for i, text_row in enumerate(rows):
            row = 6 - i
            if len(text_row) != 6:
                raise PositionError(
                    f"row {row} ({text_row!r}) has {len(text_row)} slots: each row has 6"
                )
            for c, ch in enumerate(text_row):
                if ch in ".0":
                    continue
                if ch not in "123":
                    raise PositionError(
                        f"row {row}, column {c + 1}: {ch!r} is not a ring; use . or 0 for an "
                        "empty slot and 1, 2 or 3 for a ring"
                    )
                board[slot(row, c + 1)] = int(ch)
        try:
            turn = Side.parse(parts[1])
        except ValueError as e:
            raise PositionError(str(e)) from None
        return cls(tuple(board), turn)

    def board_string(self) -> str:
        """The six rows, row 6 first, joined by ``/``."""
        return "/".join(
            "".join(str(self.board[slot(row, c)]) if self.board[slot(row, c)] else "."
                    for c in range(1, 7))
            for row in range(6, 0, -1)
        )

    def __str__(self) -> str:
        return f"{self.board_string()} {self.turn.value}"

    def __repr__(self) -> str:
        return f"Position({str(self)!r})"

    def to_json(self) -> str:
        """The JSON form: the position string."""
        return str(self)

    @classmethod
    def from_json(cls, data: object) -> Position:
        """The position of its JSON form (a position string); PositionError says what is
        wrong."""
        if not isinstance(data, str):
            raise PositionError(f"a position is a position string, like {_EXAMPLE}, "
                                f"not {data!r}")
        return cls.from_string(data)

    @classmethod
    def setup(cls, south: str, north: str, turn: Side = Side.SOUTH) -> Position:
        """The position after both setups (six digits each, columns 1..6 as drawn).

        >>> str(Position.setup("231123", "321123"))
        '321123/....../....../....../....../231123 S'
        """
        for who, digits in (("South", south), ("North", north)):
            if len(digits) != 6 or sorted(digits) != sorted("112233"):
                raise PositionError(
                    f"{who}'s setup {digits!r} must place two 1s, two 2s and two 3s: six digits"
                )
        board = [0] * 36
        for c in range(6):
            board[slot(1, c + 1)] = int(south[c])
            board[slot(6, c + 1)] = int(north[c])
        return cls(tuple(board), turn)

    # -- questions -----------------------------------------------------------------------

    @property
    def key(self) -> bytes:
        """The board as 36 bytes: what the compiled core reads, and what Renop compares."""
        return bytes(self.board)

    def shore(self, side: Side | None = None) -> int:
        """The row (1..6) of the side's proximes: its non-empty row nearest its own goal."""
        row = _movegen.shore(self.key, (side or self.turn).index)
        assert row is not None      # a position has at least one ring
        return row

    def rings(self) -> list[tuple[int, int]]:
        """``(slot, size)`` of every ring, in slot order."""
        return [(s, self.board[s]) for s in SLOTS if self.board[s]]

    def with_turn(self, side: Side) -> Position:
        return Position.unchecked(self.board, side)

    @classmethod
    def unchecked(cls, board: tuple[int, ...], turn: Side) -> Position:
        """A position whose board is known to be valid (that of a valid position, or a
        legal move's result from one: the same rings), built without the checks, which
        cost more than making the move.

        >>> Position.unchecked((1,) + (0,) * 35, Side.NORTH) == Position((1,) + (0,) * 35,
        ...                                                            Side.NORTH)
        True
        """
        p = object.__new__(cls)
        object.__setattr__(p, "board", board)
        object.__setattr__(p, "turn", turn)
        return p

    def zobrist(self) -> int:
        """A 64-bit hash of rings and side to move, the same on every run."""
        return _movegen.position_hash(self.key, self.turn.index)

    def mirrored(self) -> Position:
        """The position reflected left to right (columns 1..6 -> 6..1)."""
        return dataclasses.replace(
            self, board=tuple(self.board[slot(row_of(s), 7 - column_of(s))] for s in SLOTS)
        )

    def flipped(self) -> Position:
        """The position turned upside down with the sides swapped (rows 1..6 -> 6..1,
        South's rings become North's): the same position for the other side.

        >>> str(Position.from_string("1...../....../....../....../....../.....2 S").flipped())
        '.....2/....../....../....../....../1..... N'
        """
        board = tuple(self.board[slot(7 - row_of(s), column_of(s))] for s in SLOTS)
        return Position(board, self.turn.other)


def flipped(position: Position) -> Position:
    """:meth:`Position.flipped` as a function."""
    return position.flipped()


START = Position.setup("231123", "321123")  #: the sample game's opening setups (seed 000)
