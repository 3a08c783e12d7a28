"""A :class:`~gyges.game.moves.Game` is accepted wherever a position and its history are:
the solver, the one-question ``win_in`` and the engine give the same answers as for the
position and the game's earlier positions."""

from __future__ import annotations

import pytest

from gyges import PRESETS, Position
from gyges.engine import Engine, Limit
from gyges.engine.builtin import EngineError
from gyges.game.moves import Game, legal_moves
from gyges.search import SolveError, solve, win_in

PBM = PRESETS["pbmserv"]
WIN2 = Position.from_string(".3.3.3/112232/...1.2/...1../....../...... S")


def _a_game() -> Game:
    """A few moves from the start: a history the Renop law reads."""
    game = Game(Position.setup("123321", "231132"))
    for _ in range(4):
        game = game.play(game.legal_moves(PBM)[3])
    return game


def test_the_solver_and_win_in_take_a_game():
    game = _a_game()
    assert len(game.history) == 4
    by_game = solve(game, PBM, 2).to_json()
    by_parts = solve(game.position, PBM, 2, game.history).to_json()
    assert by_game.pop("stats")["nodes"] == by_parts.pop("stats")["nodes"]   # not the time
    assert by_game == by_parts
    assert win_in(Game(WIN2), PBM, 2) and not win_in(Game(WIN2), PBM, 1)
    with pytest.raises(SolveError, match="not both"):
        solve(game, PBM, 2, game.history)


def test_the_engine_takes_a_game():
    game = _a_game()
    a = Engine(PBM).analyse(game, Limit(depth=3))
    b = Engine(PBM).analyse(game.position, Limit(depth=3), game.history)
    assert (a.move, a.score, a.pv, a.nodes) == (b.move, b.score, b.pv, b.nodes)
    assert legal_moves(game.position, PBM, game.history).find(a.move) is not None
    with pytest.raises(EngineError, match="not both"):
        Engine(PBM).analyse(game, Limit(depth=1), game.history)
