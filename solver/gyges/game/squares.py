"""Slots and goals of the Gyges board, and their pbmserv names.

Slots are numbered ``(row - 1) * 6 + (column - 1)``; row 1 is South's starting row, row 6
North's. pbmserv names a slot by its row digit then its column digit.

>>> slot_name(5)
'16'
>>> parse_slot('16')
5
>>> row_of(parse_slot('43')), column_of(parse_slot('43'))
(4, 3)
"""

from __future__ import annotations

from gyges.game import _movegen

SLOTS = range(36)
NORTH_GOAL = 36  #: North's goal, beyond row 6: South wins by landing on it
SOUTH_GOAL = 37  #: South's goal, beyond row 1: North wins by landing on it
GOAL_NAMES = {NORTH_GOAL: "N", SOUTH_GOAL: "S"}


def slot(row: int, column: int) -> int:
    """The slot at ``row`` (1..6) and ``column`` (1..6)."""
    if not (1 <= row <= 6 and 1 <= column <= 6):
        raise ValueError(f"no slot at row {row}, column {column}: both run from 1 to 6")
    return (row - 1) * 6 + (column - 1)


def row_of(s: int) -> int:
    """The row (1..6) of a slot."""
    return s // 6 + 1


def column_of(s: int) -> int:
    """The column (1..6) of a slot."""
    return s % 6 + 1


def slot_name(s: int) -> str:
    """pbmserv name of a slot (``"16"``) or goal (``"N"``, ``"S"``)."""
    if s in GOAL_NAMES:
        return GOAL_NAMES[s]
    return f"{row_of(s)}{column_of(s)}"


def parse_slot(text: str) -> int:
    """Slot or goal from its pbmserv name; ValueError says what is wrong."""
    t = text.strip().upper()
    if t == "N":
        return NORTH_GOAL
    if t == "S":
        return SOUTH_GOAL
    if len(t) != 2 or not t.isdigit():
        raise ValueError(
            f"{text!r} is not a slot: a slot is a row digit then a column digit, like 16"
        )
    return slot(int(t[0]), int(t[1]))


def adjacent(a: int, b: int) -> bool:
    """Are two slots (or a slot and a goal) joined by a connection? (One step of the
    compiled core's segment tables: the game's one adjacency.)

    >>> adjacent(parse_slot("61"), NORTH_GOAL), adjacent(parse_slot("11"), parse_slot("22"))
    (True, False)
    """
    if a > b:
        a, b = b, a
    return a < 36 and (b,) in _movegen.segments(a, 1)
