"""One game between two engines, refereed by the rules engine, and its record: the games
of a match (:mod:`gyges.engine.match`), of ``setups rank`` and of ``engine-data``.

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

The same record, :class:`PlayedGame`, is every line of a match's file and of a
self-play file of ``setups rank`` (:mod:`gyges.setups.selfplay.games`), one layout per
kind: a match's game names its engines (``south``, ``north``) and its ``opening``; a
self-play game, the builtin engine's against itself, has a ``round`` and names its
setups (``south``, ``north``).

>>> line = {"game": 3, "round": 0, "south": "231123", "north": "321123",
...         "result": "draw", "reason": "nobody can move", "moves": []}
>>> g = PlayedGame.from_json(line)
>>> g.south, g.opening, g.number, g.to_json() == line
('builtin', ('231123', '321123'), 3, True)
"""

from __future__ import annotations

import dataclasses
from collections.abc import Sequence
from typing import Any

from gyges.engine.builtin import EngineError, Limit
from gyges.engine.client import EngineFailure
from gyges.engine.players import Player
from gyges.formats.notation import NotationError, parse_setup, parse_turn
from gyges.formats.record import format_record, record_from_moves
from gyges.game.moves import Move, apply_move, legal_moves
from gyges.game.position import Position, PositionError
from gyges.game.rules import RuleSet, Side

__all__ = ["GAME_RESULTS", "SELF_PLAY_ENGINE", "PlayedGame", "play_game", "replay_moves"]

GAME_RESULTS = ("south", "north", "draw")
#: The engine of a self-play game (its record names the setups instead).
SELF_PLAY_ENGINE = "builtin"


@dataclasses.dataclass(frozen=True)
class PlayedGame:
    """A finished game: the engines as given (``south``, ``north``), the ``opening``
    (South's and North's setups), the ``result`` (``south``, ``north`` or ``draw``),
    why (``reason``) and the ``moves`` in pbmserv notation (a side blocked is passed
    over: the other side's moves follow each other); in a file, its ``number`` there
    (``game``), and for a self-play game its ``round`` (which makes its JSON name the
    setups as ``south`` and ``north``, the engine being :data:`SELF_PLAY_ENGINE`)."""

    south: str
    north: str
    opening: tuple[str, str]
    result: str
    reason: str
    moves: tuple[str, ...]
    number: int | None = None
    round: int | None = None

    def to_json(self) -> dict[str, Any]:
        head: dict[str, Any] = {} if self.number is None else {"game": self.number}
        if self.round is not None:
            head.update({"round": self.round, "south": self.opening[0],
                         "north": self.opening[1]})
        else:
            head.update({"south": self.south, "north": self.north,
                         "opening": list(self.opening)})
        return {**head, "result": self.result, "reason": self.reason,
                "moves": list(self.moves)}

    @classmethod
    def from_json(cls, data: Any) -> PlayedGame:
        """The inverse of :meth:`to_json` (other keys are left alone); EngineError says
        what is wrong."""
        try:
            number, round_ = data.get("game"), data.get("round")
            if round_ is not None:
                opening = (data["south"], data["north"])
                south = north = SELF_PLAY_ENGINE
            else:
                opening = tuple(data["opening"])
                south, north = str(data["south"]), str(data["north"])
            if not isinstance(data["moves"], (list, tuple)):
                raise TypeError
            game = cls(south, north, (str(opening[0]), str(opening[1])), str(data["result"]),
                       str(data["reason"]), tuple(data["moves"]), number, round_)
        except (KeyError, TypeError, IndexError, ValueError, AttributeError):
            raise EngineError("a game record is an object with south, north, opening "
                              "(two setups) or round, result, reason and moves") from None
        if game.result not in GAME_RESULTS or len(opening) != 2:
            raise EngineError(f"a game's result is one of {', '.join(GAME_RESULTS)}, and its "
                              "opening two setups")
        if not all(isinstance(m, str) for m in game.moves):
            raise EngineError("a game's moves are a list of moves")
        for whole in (number, round_):
            if whole is not None and not (type(whole) is int and whole >= 0):
                raise EngineError("a game's number and round are whole numbers, 0 or more")
        for setup in opening:
            if not isinstance(setup, str):
                raise EngineError("a game's opening is two setups")
            try:
                parse_setup(setup)
            except NotationError as e:
                raise EngineError(f"a game's opening: {e}") from None
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
