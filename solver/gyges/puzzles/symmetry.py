"""The board's symmetries: a puzzle is the same up to a mirror image (left to right) and
turned upside down with the sides swapped; :func:`canonical` names the class of a
position, :func:`identity` that of a catalogue entry (with its rules and history).

>>> from gyges.game.rules import PRESETS
>>> p = Position.from_string("3....3/13..2./2...../1..31./....22/.1.... N")
>>> canonical(p) == canonical(p.mirrored()) == canonical(flipped(p))
True
>>> pbm = PRESETS["pbmserv"]
>>> identity(p, pbm) == identity(flipped(p), pbm) != identity(p, PRESETS["bga"])
True
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

from gyges.game.position import Position, flipped
from gyges.game.rules import RuleSet

__all__ = ["canonical", "flipped", "identity"]

#: The four images of a position under the board's symmetries.
_IMAGES: tuple[Callable[[Position], Position], ...] = (
    lambda p: p, lambda p: p.mirrored(), flipped, lambda p: flipped(p.mirrored()))


def canonical(position: Position) -> str:
    """The least position string among the position, its mirror image (left to right), and
    both of them turned upside down with the sides swapped: equal for duplicates."""
    return min(str(image(position)) for image in _IMAGES)


def identity(position: Position, rules: RuleSet, history: Sequence[Position] = ()
             ) -> tuple[str, RuleSet, tuple[str, ...]]:
    """What makes two catalogue entries one puzzle: the same rules, and the same position
    with the same history (the Renop law reads it) up to the board's symmetries: the least
    of the four images of the position and its history together. Its first item is
    :func:`canonical` of the position."""
    pos, hist = min((str(image(position)), tuple(str(image(h)) for h in history))
                    for image in _IMAGES)
    return pos, rules, hist
