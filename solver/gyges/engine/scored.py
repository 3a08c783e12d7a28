"""The score of each move of a game, noted as the game is played: :class:`ScoredPlayer`.

The self-play games of ``gyges engine-data`` (:mod:`gyges.engine.dataset`) and the games
of a match (:mod:`gyges.engine.match`) record, for each move, the score the search gave it
from the mover's side (:meth:`~gyges.engine.score.Score.to_int`), which
:mod:`gyges.engine.calibration` sets against the game's result.

>>> from gyges import PRESETS
>>> from gyges.engine.players import open_player
>>> from gyges.engine.refereed import play_game
>>> rules = PRESETS["pbmserv"]
>>> notes: list[int | None] = []
>>> south = ScoredPlayer(open_player("builtin:depth=1,prove=0", rules), notes)
>>> north = ScoredPlayer(open_player("builtin:depth=1,prove=0", rules), notes, keep=False)
>>> game = play_game(south, north, ("231123", "321123"), rules, max_plies=4)
>>> len(notes), notes[1], notes[3], all(isinstance(s, int) for s in notes[::2])
(4, None, None, True)
>>> south.scale, north.scale
(0.926, None)
"""

from __future__ import annotations

from collections.abc import Sequence

from gyges.engine.builtin import Analysis, Limit, PlayResult
from gyges.engine.players import Player
from gyges.game.moves import Game
from gyges.game.position import Position

__all__ = ["ScoredPlayer"]


class ScoredPlayer:
    """A player (:class:`~gyges.engine.players.Player`) that appends to ``notes`` the
    score of each move it makes: the compiled integer form, from its side, or None for a
    move it did not search (a random move, or a move its proofs did not settle without a
    search) and for every move when ``keep`` is false (a UGI program, whose scores are in
    its own units). The two players of a game share one list, which then follows the
    game's moves (cut it to their number: a failed answer also leaves a note). ``scale``
    is the one its win probabilities are printed on
    (:attr:`~gyges.engine.builtin.Analysis.calibration`), once it has searched a move."""

    def __init__(self, player: Player, notes: list[int | None], keep: bool = True) -> None:
        self.player = player
        self.notes = notes
        self.keep = keep
        self.scale: float | None = None

    def play(self, position: Position | Game, limit: Limit,
             history: Sequence[Position] = ()) -> PlayResult:
        result = self.player.play(position, limit, history)
        a = result.analysis
        searched = self.keep and (a.nodes > 0 or a.score.is_proven)
        self.notes.append(a.score.to_int() if searched else None)
        if searched:
            self.scale = a.calibration
        return result

    def analyse(self, position: Position | Game, limit: Limit,
                history: Sequence[Position] = ()) -> Analysis:
        return self.play(position, limit, history).analysis

    def close(self) -> None:
        self.player.close()
