"""One game between two engines, refereed by the rules engine, and its record.

:func:`play_game` starts from an opening (a setup pair), asks each engine for its move in
turn, and checks every answer against the legal moves: an illegal or missing answer (or
an engine that fails) loses the game, and the record says so. A landing wins; a game that
reaches ``max_plies`` moves, or in which nobody can move, is a draw. The record
(:class:`PlayedGame`) goes to JSON and back, and to the text format ``gyges replay``
reads (:mod:`gyges.formats.record`).

>>> from gyges import PRESETS
>>> from gyges.engine.players import open_player
>>> rules = PRESETS["pbmserv"]
>>> engine = open_player("builtin:depth=1,prove=0", rules)
>>> game = play_game(engine, engine, ("231123", "321123"), rules, max_plies=6,
...                  names=("builtin:depth=1,prove=0", "builtin:depth=1,prove=0"))
>>> game.result, game.reason, len(game.moves)
('draw', 'max plies: 6 moves played', 6)
>>> PlayedGame.from_json(game.to_json()) == game
True
"""

from __future__ import annotations

import dataclasses
from collections.abc import Sequence
from typing import Any

from gyges.engine.builtin import EngineError, Limit
from gyges.engine.client import EngineFailure
from gyges.engine.players import Player
from gyges.formats.notation import NotationError, parse_turn
from gyges.formats.record import format_record, record_from_moves
from gyges.game.moves import Move, apply_move, legal_moves
from gyges.game.position import Position, PositionError
from gyges.game.rules import RuleSet, Side

__all__ = ["PEER_RULES", "RESULTS", "PlayedGame", "play_game", "replay_moves"]

RESULTS = ("south", "north", "draw")

#: The rules of the peer engine (Beck-Bjella's Helios) as overrides of the pbmserv preset:
#: a ring bounced off once a move, a move may end where it started, a side with no move
#: draws, no repetition law.
PEER_RULES = ("rebounce=once", "null-move=allowed", "blocked=draw", "repetition=allowed")


@dataclasses.dataclass(frozen=True)
class PlayedGame:
    """A finished game: the engines as given (``south``, ``north``), the ``opening``
    (South's and North's setups), the ``result`` (``south``, ``north`` or ``draw``),
    why (``reason``) and the ``moves`` in pbmserv notation (a side blocked is passed
    over: the other side's moves follow each other)."""

    south: str
    north: str
    opening: tuple[str, str]
    result: str
    reason: str
    moves: tuple[str, ...]

    def to_json(self) -> dict[str, Any]:
        return {"south": self.south, "north": self.north, "opening": list(self.opening),
                "result": self.result, "reason": self.reason, "moves": list(self.moves)}

    @classmethod
    def from_json(cls, data: Any) -> PlayedGame:
        """The inverse of :meth:`to_json`; EngineError says what is missing."""
        try:
            opening = tuple(data["opening"])
            game = cls(str(data["south"]), str(data["north"]),
                       (str(opening[0]), str(opening[1])), str(data["result"]),
                       str(data["reason"]), tuple(str(m) for m in data["moves"]))
        except (KeyError, TypeError, IndexError, ValueError):
            raise EngineError("a game record is an object with south, north, opening "
                              "(two setups), result, reason and moves") from None
        if game.result not in RESULTS or len(opening) != 2:
            raise EngineError(f"a game's result is one of {', '.join(RESULTS)}, and its "
                              "opening two setups")
        return game

    def winner(self) -> Side | None:
        return {"south": Side.SOUTH, "north": Side.NORTH}.get(self.result)

    def record_text(self, rules: RuleSet) -> str:
        """The game in the text format ``gyges replay`` reads: the setups, the turns
        (a side's consecutive moves joined by ``; ``), ``Resign`` for a side that lost
        by an illegal or missing answer; comment lines name the engines and the result."""
        position = Position.setup(*self.opening)
        history: list[Position] = []
        turns: list[list[Move]] = []
        for text in self.moves:
            move = parse_turn(text, position, rules, history)[0]
            if turns and turns[-1][0].side is move.side:
                turns[-1].append(move)
            else:
                turns.append([move])
            if move.is_win:
                break
            position = position.with_turn(move.side)
            history.append(position)
            position = apply_move(position, move)
        lost_by_answer = self.winner() is not None and not (self.moves and
                                                            self.moves[-1][-1] in "NS")
        record = record_from_moves(turns, *self.opening,
                                   result="Resign" if lost_by_answer else None)
        head = (f"# South: {self.south}\n# North: {self.north}\n"
                f"# Result: {self.result} ({self.reason})\n")
        return head + format_record(record)


def play_game(south: Player, north: Player, opening: tuple[str, str], rules: RuleSet,
              limit: Limit | None = None, max_plies: int = 200,
              names: tuple[str, str] = ("south", "north")) -> PlayedGame:
    """Play one game: ``south`` and ``north`` move in turn from the ``opening`` (South's
    and North's setups), each within ``limit`` (default one second a move), under
    ``rules``, the referee's (a UGI engine plays by its own rules: an answer these rules
    refuse loses). ``names`` are written in the record as the engines."""
    limit = limit or Limit(time=1.0)
    try:
        position = Position.setup(*opening)
    except PositionError as e:
        raise EngineError(f"opening {opening[0]} {opening[1]}: {e}") from None
    history: list[Position] = []
    played: list[str] = []

    def finish(result: str, reason: str) -> PlayedGame:
        return PlayedGame(names[0], names[1], opening, result, reason, tuple(played))

    while True:
        moves = legal_moves(position, rules, history)
        if not moves.moves:
            return finish("draw", "nobody can move")
        mover = moves.mover
        position = position.with_turn(mover)
        if len(played) >= max_plies:
            return finish("draw", f"max plies: {len(played)} moves played")
        player, who = (south, "south") if mover is Side.SOUTH else (north, "north")
        other = "north" if who == "south" else "south"
        try:
            answer = player.play(position, limit, tuple(history)).move
        except (EngineFailure, EngineError) as e:
            return finish(other, f"{who} failed: {e}")
        if answer is None:
            return finish(other, f"{who} gave no move in {position}")
        move = moves.find(answer)
        if move is None:
            return finish(other, f"{who} played an illegal move {_written(answer)} in "
                                 f"{position}")
        played.append(str(move))
        if move.is_win:
            return finish(who, "landing")
        history.append(position)
        position = apply_move(position, move)


def _written(move: Move) -> str:
    """A move as the engine gave it (slots), for a record's reason."""
    try:
        return str(move)
    except (ValueError, KeyError):
        return f"{move.start}-{move.end}"


def replay_moves(game: PlayedGame, rules: RuleSet) -> list[tuple[Position, Sequence[Position]]]:
    """The positions of a game before each move, with their histories (for fitting)."""
    position = Position.setup(*game.opening)
    history: list[Position] = []
    out: list[tuple[Position, Sequence[Position]]] = []
    for text in game.moves:
        try:
            move = parse_turn(text, position, rules, history)[0]
        except NotationError as e:
            raise EngineError(f"a game's move {text}: {e}") from None
        position = position.with_turn(move.side)
        out.append((position, tuple(history)))
        if move.is_win:
            break
        history.append(position)
        position = apply_move(position, move)
    return out
