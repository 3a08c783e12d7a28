"""Positions and moves in the Universal Gyges Interface (UGI) of Beck-Bjella/Gyges, and
back: pure functions that round-trip.

UGI numbers the board from the side to move ("Player One", always the side to move): a
board is six groups of six digits (``0`` empty, ``1``-``3`` a ring), the first group the
row of the side to move, each group from column 1; squares 0-35 run group by group, 36
is the goal behind the side to move and 37 the goal it lands on. A board is written as
the six groups joined by ``/``, or as 38 bare digits (the squares, then the two goals,
always ``0``). A move is ``start|end``, or ``start|end|drop`` for a replace (the ring
landed on goes to ``drop``).

A UGI board does not say which side is to move: gyges reads it as South to move (the
first group row 1), which is the same game as North to move with the rows in the other
order (the board turned round: :meth:`~gyges.game.position.Position.flipped`).

>>> from gyges.game.position import Position
>>> p = Position.from_string("....../3...../..1.1./1.23.3/3.22.1/....2. N")
>>> board_to_ugi(p)
'000000/300000/001010/102303/302201/000020'
>>> str(board_from_ugi("000000/300000/001010/102303/302201/000020").flipped())
'....../3...../..1.1./1.23.3/3.22.1/....2. N'
>>> move_to_ugi(24, 37, None, p.turn), move_from_ugi("6|37", p.turn)
('6|37', (24, 37, None))

The game's history (for the Renop law) is a gyges extension of ``setpos``, which an
engine announces in its ``ugi`` answer (:data:`HISTORY_EXTENSION`): ``setpos data BOARD
history ITEM...``, each ITEM an earlier position of the game, oldest first, its board as
the side to move *now* sees it, after ``s:`` when the same side was to move then, ``o:``
when the other was (:func:`history_to_ugi`, :func:`history_from_ugi`).

>>> before = Position.from_string("....../3...../..1.1./1.23.3/3.22.1/..2... S")
>>> history_to_ugi(p, [before])
['o:000000/300000/001010/102303/302201/002000']
>>> [str(h.flipped()) for h in history_from_ugi(history_to_ugi(p, [before]))]
['....../3...../..1.1./1.23.3/3.22.1/..2... S']
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from gyges.game.position import Position, PositionError
from gyges.game.rules import Side
from gyges.game.squares import NORTH_GOAL, SOUTH_GOAL

__all__ = ["HISTORY_EXTENSION", "NO_LIMIT", "OWN_GOAL", "TARGET_GOAL", "UgiError",
           "board_from_ugi", "board_to_ugi", "history_from_ugi", "history_to_ugi",
           "move_from_ugi", "move_to_ugi", "slot_of_square", "square_of_slot"]

TARGET_GOAL = 37  #: the UGI square of the goal the side to move lands on
OWN_GOAL = 36     #: the UGI square of the goal behind the side to move

#: The option values that mean "no such limit": the protocol cannot unset an option, so
#: a client sends these (far beyond any search, and within the peer engine's ranges).
NO_LIMIT: dict[str, float] = {"maxTime": 1e6, "maxPly": 99, "maxNodes": 1e15}

#: The line of an engine's ``ugi`` answer announcing that ``setpos`` takes the history.
HISTORY_EXTENSION = "info string extension setpos history"

_SLASHED = re.compile(r"[0-3]{6}(/[0-3]{6}){5}")
_BARE = re.compile(r"[0-3]{36}(00)?")


class UgiError(ValueError):
    """A UGI board or move that cannot be read (the message says what would be right)."""


def square_of_slot(slot: int, turn: Side) -> int:
    """The UGI square of a gyges slot (0-35) or goal (36, 37), seen by ``turn``.

    >>> square_of_slot(0, Side.NORTH), square_of_slot(35, Side.NORTH)
    (30, 5)
    >>> square_of_slot(NORTH_GOAL, Side.SOUTH), square_of_slot(SOUTH_GOAL, Side.NORTH)
    (37, 37)
    """
    if slot in (NORTH_GOAL, SOUTH_GOAL):
        target = NORTH_GOAL if turn is Side.SOUTH else SOUTH_GOAL
        return TARGET_GOAL if slot == target else OWN_GOAL
    if not 0 <= slot < 36:
        raise UgiError(f"slot {slot} is not on the board (0-35, goals 36 and 37)")
    if turn is Side.SOUTH:
        return slot
    return (5 - slot // 6) * 6 + slot % 6


def slot_of_square(square: int, turn: Side) -> int:
    """The gyges slot or goal of a UGI square seen by ``turn`` (the inverse of
    :func:`square_of_slot`)."""
    if square in (OWN_GOAL, TARGET_GOAL):
        target = NORTH_GOAL if turn is Side.SOUTH else SOUTH_GOAL
        own = SOUTH_GOAL if turn is Side.SOUTH else NORTH_GOAL
        return target if square == TARGET_GOAL else own
    if not 0 <= square < 36:
        raise UgiError(f"square {square} is not on the board: UGI squares are 0-35, the "
                       "goals 36 and 37")
    return square_of_slot(square, turn)   # the mapping is its own inverse


def board_to_ugi(position: Position, bare: bool = False) -> str:
    """The position's board seen by its side to move: six groups joined by ``/``, or
    (``bare``) the 38 digits some clients send.

    >>> board_to_ugi(Position.from_string("321123/....../....../....../....../231123 S"),
    ...              bare=True)
    '23112300000000000000000000000032112300'
    """
    digits = [str(position.board[slot_of_square(q, position.turn)]) for q in range(36)]
    if bare:
        return "".join(digits) + "00"
    return "/".join("".join(digits[6 * g: 6 * g + 6]) for g in range(6))


def board_from_ugi(text: str) -> Position:
    """A UGI board as a gyges position, South to move (see the module's text)."""
    t = text.strip()
    if _SLASHED.fullmatch(t):
        digits = t.replace("/", "")
    elif _BARE.fullmatch(t):
        digits = t[:36]
    else:
        raise UgiError(f"{t[:60]!r} is not a UGI board: write six groups of six digits 0-3 "
                       "joined by '/' (the side to move's row first), or 38 digits (the "
                       "36 squares, then 00 for the goals)")
    try:
        return Position(tuple(int(d) for d in digits), Side.SOUTH)
    except PositionError as e:
        raise UgiError(f"{t}: {e}") from None


def move_to_ugi(start: int, end: int, relocation: int | None, turn: Side) -> str:
    """A move (gyges slots; ``end`` a goal for a landing) in UGI notation seen by the
    side to move ``turn``."""
    parts = [square_of_slot(start, turn), square_of_slot(end, turn)]
    if relocation is not None:
        parts.append(square_of_slot(relocation, turn))
    return "|".join(str(x) for x in parts)


def move_from_ugi(text: str, turn: Side) -> tuple[int, int, int | None]:
    """``(start, end, relocation)`` in gyges slots from a UGI move of the side ``turn``."""
    t = text.strip()
    parts = t.split("|")
    if not 2 <= len(parts) <= 3 or not all(p.isdigit() for p in parts):
        raise UgiError(f"{t[:40]!r} is not a UGI move: write start|end or start|end|drop "
                       "with squares 0-37")
    squares = [int(p) for p in parts]
    slots = [slot_of_square(q, turn) for q in squares]
    if slots[0] >= 36 or (len(slots) == 3 and slots[2] >= 36):
        raise UgiError(f"{t}: a move starts, and drops a ring, on a square 0-35")
    return slots[0], slots[1], slots[2] if len(slots) == 3 else None


def history_to_ugi(position: Position, history: Sequence[Position]) -> list[str]:
    """The items of ``setpos ... history``: each earlier position's board as the side to
    move in ``position`` sees it, after ``s:`` (the same side to move then) or ``o:``."""
    return [f"{'s' if h.turn is position.turn else 'o'}:"
            f"{board_to_ugi(h.with_turn(position.turn))}" for h in history]


def history_from_ugi(items: Sequence[str]) -> list[Position]:
    """The earlier positions of ``setpos ... history`` items, in the frame
    :func:`board_from_ugi` reads the board in (the side to move now is South)."""
    out = []
    for item in items:
        mark, _, board = item.partition(":")
        if mark not in ("s", "o") or not board:
            raise UgiError(f"{item[:60]!r} is not a history item: write s:BOARD (the side "
                           "to move now was to move then) or o:BOARD (the other side was)")
        p = board_from_ugi(board)
        out.append(p if mark == "s" else p.with_turn(Side.NORTH))
    return out
