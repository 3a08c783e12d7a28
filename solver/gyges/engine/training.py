"""The evaluation's weights, trained by self-play (``make weights``, which runs ``gyges
engine-weights``): :func:`train_weights`.

Each round plays games between two copies of the builtin engine with the weights of the
round before (the first round: :data:`FIRST_WEIGHTS`, set by hand), from setup pairs and a few
random first moves drawn with a seeded generator, at a fixed node count a move (so every
game, and so the file written, is the same on every run on the same kind of machine).
Every position of every decided game where the side to move cannot land at once gives
the evaluation's features (as the search's horizon reads them) and the result for the
side to move; a logistic regression of the results on the features
(:func:`gyges.engine.logistic.logistic_fit`, a small ridge penalty on the standardised
features) gives the weights. The evaluation is then the logit of the side to move's
chance to win, and the same logistic maps it to a win probability.

The rounds' games alternate between the pbmserv rules and Helios's (the ``helios``
preset): one set of weights serves every rule set.
"""

from __future__ import annotations

import dataclasses
import random
from collections.abc import Callable, Sequence
from typing import Any

from gyges.engine._engine import FEATURES, Search
from gyges.engine.builtin import Engine, Limit, Options
from gyges.engine.logistic import logistic_fit, numpy
from gyges.engine.players import RandomStart
from gyges.engine.refereed import PlayedGame, play_game, replay_moves
from gyges.engine.weights import Weights
from gyges.game.position import ALL_SETUPS
from gyges.game.rules import PRESETS
from gyges.parallel import worker_pool

__all__ = ["RULE_SETS", "FIRST_WEIGHTS", "Settings", "fit_weights", "self_play", "train_weights",
           "training_set"]

#: The first round's weights, by hand: a threat to parry is bad, a goal within reach and
#: room to move are good.
FIRST_WEIGHTS = {"threat": -0.5, "reach_x": 0.3, "reach_y": -0.3, "mobility_x": 0.1,
         "mobility_y": -0.1, "area_x": 0.05, "area_y": -0.05, "moves_x": 0.1,
         "moves_y": -0.1, "rings_x": 0.1, "rings_y": -0.1, "ends_x": 0.05, "ends_y": -0.1}

#: The rule sets the games alternate between, by preset name.
RULE_SETS = (("pbmserv", PRESETS["pbmserv"]), ("helios", PRESETS["helios"]))


@dataclasses.dataclass(frozen=True)
class Settings:
    """A fit: ``rounds`` of ``games`` self-play games each at ``nodes`` nodes a move,
    ``random_plies`` random first moves, games drawn after ``max_plies``; ``ridge`` the
    penalty on the standardised weights; ``seed`` for the openings and random moves."""

    rounds: int = 3
    games: int = 800
    nodes: int = 3000
    random_plies: int = 4
    max_plies: int = 160
    ridge: float = 1.0
    seed: int = 1


def _one_game(task: tuple[int, int, tuple[float, ...], Settings]) -> tuple[int, dict]:
    """Game ``index`` of a round (its seed ``seed``) with ``weights``: its record."""
    index, seed, weights, settings = task
    rng = random.Random(seed)
    name, rules = RULE_SETS[index % len(RULE_SETS)]
    opening = (rng.choice(ALL_SETUPS), rng.choice(ALL_SETUPS))
    engine = Engine(rules, Options(prove=0, hash_bits=16, weights=Weights(weights),
                                   network=None))
    player = RandomStart(engine, rules, settings.random_plies,
                         random.Random(rng.randrange(1 << 30)))
    game = play_game(player, player, opening, rules, Limit(nodes=settings.nodes),
                     settings.max_plies, names=(name, name))
    return index, game.to_json()


def _init() -> None:
    """Nothing to set up in a worker (each game makes its own engine)."""


TrainingProgress = Callable[[str], None]


def self_play(weights: tuple[float, ...], settings: Settings, round_seed: int,
              jobs: int = 1, progress: TrainingProgress | None = None) -> list[PlayedGame]:
    """One round's games, in order (the same whatever ``jobs``); ``progress`` hears of
    every 50 games done."""
    rng = random.Random(round_seed)
    tasks = [(i, rng.randrange(1 << 30), weights, settings) for i in range(settings.games)]
    out: dict[int, dict] = {}
    with worker_pool(jobs, _init) as pool:
        for i, game in pool.map_unordered(_one_game, tasks, chunksize=4):
            out[i] = game
            if len(out) % 50 == 0 and progress is not None:
                progress(f"  {len(out)} of {len(tasks)} games")
    return [PlayedGame.from_json(out[i]) for i in range(len(tasks))]


def training_set(games: Sequence[PlayedGame]) -> tuple[list[tuple[float, ...]], list[float]]:
    """The features of every position of the decided games where the side to move cannot
    land at once (rows), and whether the side to move won (1) or lost (0)."""
    rows: list[tuple[float, ...]] = []
    results: list[float] = []
    searchers = {name: Search(rules.flags(), [0.0] * len(FEATURES), 10)
                 for name, rules in RULE_SETS}
    rules_of = dict(RULE_SETS)
    for game in games:
        winner = game.winner()
        if winner is None:
            continue
        search = searchers[game.south]
        for position, history in replay_moves(game, rules_of[game.south]):
            _, features = search.evaluate(position.key, position.turn.index,
                                          [h.key for h in history])
            if features is None:
                continue
            rows.append(features)
            results.append(1.0 if position.turn is winner else 0.0)
    return rows, results


#: The constant's penalty in the weights' fit: none to speak of (it only keeps the
#: Newton steps defined).
CONSTANT_RIDGE = 1e-9


def fit_weights(rows: Sequence[Sequence[float]], results: Sequence[float], ridge: float
                ) -> tuple[tuple[float, ...], dict[str, float]]:
    """Logistic regression of ``results`` (1 won, 0 lost) on ``rows`` (their first column
    the constant 1): the weights, and the fit's log-loss and accuracy on the data. The
    features are standardised (columns that never vary get weight 0) and fitted with the
    ridge penalty ``ridge`` on all but the constant
    (:func:`~gyges.engine.logistic.logistic_fit`), the weights mapped back to the
    features' own scales."""
    np = numpy()
    if not len(rows):
        raise ValueError("no positions to fit: no game was decided (play more games, or "
                         "longer ones)")
    x = np.asarray(rows, dtype=np.float64)
    y = np.asarray(results, dtype=np.float64)
    mean = x.mean(axis=0)
    std = x.std(axis=0)
    live = std > 1e-9
    live[0] = True
    mean[0], std[0] = 0.0, 1.0
    z = (x[:, live] - mean[live]) / std[live]
    penalty = np.full(z.shape[1], ridge)
    penalty[0] = CONSTANT_RIDGE
    beta = logistic_fit(z, y, np.ones(len(y)), penalty).theta
    w = np.zeros(x.shape[1])
    w[live] = beta / std[live]
    w[0] = beta[0] - float(np.sum(beta[1:] * mean[live][1:] / std[live][1:]))
    p = np.clip(1.0 / (1.0 + np.exp(-(x @ w))), 1e-12, 1 - 1e-12)
    loss = float(-np.mean(y * np.log(p) + (1 - y) * np.log(1 - p)))
    accuracy = float(np.mean((p > 0.5) == (y > 0.5)))
    return (tuple(float(v) for v in w),
            {"log_loss": round(loss, 4), "accuracy": round(accuracy, 4)})


def train_weights(settings: Settings | None = None, jobs: int = 1,
                  progress: TrainingProgress | None = None) -> Weights:
    """The rounds of self-play and fitting: the last round's weights, with the fit's
    settings and quality in their ``fit``. ``jobs`` processes play the games (the result
    is the same); ``progress`` hears a line per round and per 50 games."""
    settings = settings or Settings()
    say: TrainingProgress = progress or (lambda line: None)
    numpy()                     # missing numpy: said before the first game, not after
    weights = tuple(FIRST_WEIGHTS.get(name, 0.0) for name in FEATURES)
    rng = random.Random(settings.seed)
    games: list[PlayedGame] = []
    quality: dict[str, float] = {}
    positions = 0
    for r in range(settings.rounds):
        say(f"round {r + 1}: self-play")
        games += self_play(weights, settings, rng.randrange(1 << 30), max(1, jobs), say)
        rows, results = training_set(games)
        w, quality = fit_weights(rows, results, settings.ridge)
        weights = tuple(round(v, 6) for v in w)
        positions = len(results)
        say(f"round {r + 1}: {len(games)} games, {positions} positions, {quality}")
    decided = sum(1 for g in games if g.result != "draw")
    info: dict[str, Any] = {
        "by": "gyges engine-weights", **dataclasses.asdict(settings),
        "games_decided": decided, "positions": positions, **quality,
        "rules": [name for name, _ in RULE_SETS]}
    return Weights(weights, info)
