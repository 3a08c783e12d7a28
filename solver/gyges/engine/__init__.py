"""The playing engine: best moves past the proof horizon (docs/engine.md).

A layer between the search (the provers) and the analyses: iterative deepening
alpha-beta over the compiled core (:mod:`gyges.engine._engine`; :mod:`gyges.engine.builtin`
its Python face: ``Engine``, ``analyse``, ``play``, ``Limit``, ``Options``), backed by the
df-pn prover (:mod:`gyges.engine.proofs`); scores on one order with proven results
(:mod:`gyges.engine.score`). Its evaluations: a linear one fitted from self-play
(:mod:`gyges.engine.weights`, :mod:`gyges.engine.training`, by the logistic fit of
:mod:`gyges.engine.logistic`) and a learned network over the board
(:mod:`gyges.engine.network`, trained by :mod:`gyges.engine.network_training` on the games
of :mod:`gyges.engine.dataset`, labelled deeper by :mod:`gyges.engine.labels`); how true
its printed probabilities are (:mod:`gyges.engine.calibration`); which engine made a file
(:mod:`gyges.engine.identity`). The UGI protocol both ways (:mod:`gyges.engine.ugi`,
:mod:`gyges.engine.server`, :mod:`gyges.engine.client`); games between engines and their
statistics (:mod:`gyges.engine.players` who plays, :mod:`gyges.engine.refereed` one game,
:mod:`gyges.engine.scored` each move's score noted, :mod:`gyges.engine.match` a match,
:mod:`gyges.engine.stats`, :mod:`gyges.engine.openings`).

>>> from gyges import PRESETS, Position
>>> p = Position.from_string(".3.3.3/112232/...1.2/...1../....../...... S")
>>> a = analyse(p, PRESETS["pbmserv"], Limit(depth=3))
>>> str(a.score), a.proven
('win in 2', True)
"""

from gyges.engine.builtin import (
    MAX_HASH_BITS,
    MAX_NODES,
    MAX_PROVE_DEPTH,
    MAX_SEARCH_DEPTH,
    MAX_SECONDS,
    MIN_HASH_BITS,
    Analysis,
    Engine,
    EngineError,
    Limit,
    Options,
    PlayResult,
    SearchInterrupted,
    analyse,
    play,
)
from gyges.engine.client import EngineFailure, UgiEngine, popen_ugi
from gyges.engine.openings import openings
from gyges.engine.players import EngineSpec, Player, RandomStart, open_player
from gyges.engine.refereed import PlayedGame, play_game
from gyges.engine.score import Eval, Loss, Score, Win
from gyges.engine.stats import Sprt, Tally

__all__ = [
    "MAX_HASH_BITS", "MAX_NODES", "MAX_PROVE_DEPTH", "MAX_SEARCH_DEPTH", "MAX_SECONDS",
    "MIN_HASH_BITS", "Analysis", "Engine", "EngineError", "EngineFailure", "EngineSpec", "Eval",
    "Limit", "Loss", "Options", "PlayResult", "PlayedGame", "Player", "RandomStart", "Score",
    "SearchInterrupted", "Sprt", "Tally", "UgiEngine", "Win", "analyse", "open_player", "openings",
    "play", "play_game", "popen_ugi",
]
