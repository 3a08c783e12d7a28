"""The board's symmetries: a puzzle is the same up to a mirror image (left to right) and
turned upside down with the sides swapped; :func:`canonical` names the class.

>>> p = Position.from_string("3....3/13..2./2...../1..31./....22/.1.... N")
>>> canonical(p) == canonical(p.mirrored()) == canonical(flipped(p))
True
"""

from __future__ import annotations

from solver.game.position import Position
from solver.game.squares import SLOTS, column_of, row_of, slot

__all__ = ["canonical", "flipped"]


def flipped(position: Position) -> Position:
    """The position turned upside down with the sides swapped (rows 1..6 -> 6..1, South's
    rings become North's): the same puzzle for the other side.

    >>> str(flipped(Position.from_string("1...../....../....../....../....../.....2 S")))
    '.....2/....../....../....../....../1..... N'
    """
    board = tuple(position.board[slot(7 - row_of(s), column_of(s))] for s in SLOTS)
    return Position(board, position.turn.other)


def canonical(position: Position) -> str:
    """The least position string among the position, its mirror image (left to right), and
    both of them turned upside down with the sides swapped: equal for duplicates."""
    images = (position, position.mirrored(), flipped(position), flipped(position.mirrored()))
    return min(str(p) for p in images)
