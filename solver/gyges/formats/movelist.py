"""The JSON form of a list of legal moves (what ``gyges moves --json`` prints), written and
read back.

The form is an object::

    {"position": "<position string>",
     "mover": "S" | "N",          # the side whose moves these are (see "blocked")
     "blocked": true | false,     # the side to move has no legal move
     "moves": [{"notation": "<pbmserv notation>",
                "result": "<position string after the move>" | null,   # null: a win
                "win": true | false}, ...]}

Moves are in the order of :func:`gyges.game.moves.legal_moves`. Reading it back gives a
:class:`~gyges.game.moves.MoveList` whose moves have their start, bounces, end,
relocation and side, but no path (as a list made with ``paths=False``); every entry is
checked against the position (its notation fits, its result is the position after it).

>>> from gyges.game.moves import legal_moves
>>> from gyges.game.position import Position
>>> from gyges.game.rules import PRESETS
>>> p = Position.from_string("....../3...../..1.1./1.23.3/3.22.1/....2. N")
>>> data = move_list_to_json(legal_moves(p, PRESETS["pbmserv"]))
>>> data["mover"], data["blocked"], len(data["moves"])
('N', False, 100)
>>> data["moves"][0]
{'notation': '51-43-33-31-21-S', 'result': None, 'win': True}
>>> back = move_list_from_json(data)
>>> back.wins, move_list_to_json(back) == data
((Move('51-43-33-31-21-S', Side.NORTH),), True)
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from gyges.formats.notation import read_move
from gyges.game.moves import Move, MoveList, apply_move, format_move
from gyges.game.position import Position
from gyges.game.rules import Side

__all__ = ["move_list_from_json", "move_list_to_json"]


def move_list_to_json(moves: MoveList) -> dict[str, Any]:
    """The JSON form of ``moves`` (see the module documentation)."""
    position = moves.position
    return {
        "position": str(position),
        "mover": moves.mover.value,
        "blocked": moves.blocked,
        "moves": [
            {"notation": format_move(m),
             "result": None if m.is_win else str(apply_move(position, m)),
             "win": m.is_win}
            for m in moves
        ],
    }


def move_list_from_json(data: Mapping[str, Any]) -> MoveList:
    """The move list of its JSON form; ValueError (NotationError, PositionError) says
    which entry is wrong and how."""
    if not isinstance(data, Mapping) or not isinstance(data.get("moves"), list):
        raise ValueError("a move list is an object with position, mover, blocked and a list "
                         "of moves")
    position = Position.from_json(data.get("position"))
    mover = data.get("mover")
    if mover not in ("S", "N"):
        raise ValueError(f"mover is S or N, not {mover!r}")
    side = Side(mover)
    moves = tuple(_move(entry, i, position, side) for i, entry in enumerate(data["moves"], 1))
    listed = MoveList(position, side, moves)
    if data.get("blocked") is not listed.blocked:
        raise ValueError(f"blocked is {listed.blocked} for these moves of {side.title}, not "
                         f"{data.get('blocked')!r}")
    return listed


def _move(entry: Any, number: int, position: Position, side: Side) -> Move:
    """One listed move, checked against the position."""
    if not isinstance(entry, Mapping) or not isinstance(entry.get("notation"), str):
        raise ValueError(f"move {number} is {{notation, result, win}}, not {entry!r}")
    parsed = read_move(entry["notation"])
    if not position.board[parsed.start]:
        raise ValueError(f"move {number} ({parsed.text}): no ring on its start slot")
    move = Move(parsed.start, parsed.chain[-1], parsed.relocation, (), parsed.chain[1:-1], side)
    result = None if move.is_win else str(apply_move(position, move))
    if entry.get("win") is not move.is_win or entry.get("result") != result:
        raise ValueError(f"move {number} ({format_move(move)}) leads to "
                         f"{result or 'a win'}, not what its entry says")
    return move
