"""The board's symmetries: a puzzle is the same up to a mirror image (left to right) and
turned upside down with the sides swapped; :func:`canonical` names the class.

>>> p = Position.from_string("3....3/13..2./2...../1..31./....22/.1.... N")
>>> canonical(p) == canonical(p.mirrored()) == canonical(flipped(p))
True
"""

from __future__ import annotations

from gyges.game.position import Position, flipped

__all__ = ["canonical", "flipped"]


def canonical(position: Position) -> str:
    """The least position string among the position, its mirror image (left to right), and
    both of them turned upside down with the sides swapped: equal for duplicates."""
    images = (position, position.mirrored(), flipped(position), flipped(position.mirrored()))
    return min(str(p) for p in images)
