"""Fit the evaluation's weights from self-play (``make weights``; ``python -m
gyges.engine.fit --help``).

Each round plays games between two copies of the builtin engine with the weights of the
round before (the first round: :data:`START`, set by hand), from setup pairs and a few
random first moves drawn with a seeded generator, at a fixed node count a move (so every
game, and so the file written, is the same on every run on the same kind of machine).
Every position of every decided game where the side to move cannot land at once gives
the evaluation's features (as the search's horizon reads them) and the result for the
side to move; a logistic regression of the results on the features (Newton's method,
a small ridge penalty on the standardised features) gives the weights. The evaluation is
then the logit of the side to move's chance to win, and the same logistic maps it to a
win probability.

The rounds' games alternate between the pbmserv rules and the peer engine's
(:data:`~gyges.engine.match.PEER_RULES`): one set of weights serves every rule set.
"""

from __future__ import annotations

import argparse
import dataclasses
import random
import sys
from collections.abc import Sequence
from pathlib import Path

import numpy as np

from gyges.engine._engine import FEATURES, Search
from gyges.engine.builtin import Engine, Limit, Options
from gyges.engine.match import PEER_RULES, PlayedGame, play_game, replay_moves
from gyges.engine.players import RandomStart
from gyges.engine.weights import Weights
from gyges.game.position import ALL_SETUPS
from gyges.game.rules import PRESETS, rules_from
from gyges.output import write_atomic
from gyges.parallel import worker_pool

__all__ = ["START", "Settings", "fit", "main", "self_play", "training_set"]

#: The first round's weights, by hand: a threat to parry is bad, a goal within reach and
#: room to move are good.
START = {"threat": -0.5, "reach_x": 0.3, "reach_y": -0.3, "mobility_x": 0.1,
         "mobility_y": -0.1, "area_x": 0.05, "area_y": -0.05, "moves_x": 0.1,
         "moves_y": -0.1, "rings_x": 0.1, "rings_y": -0.1, "ends_x": 0.05, "ends_y": -0.1}

RULE_SETS = (("pbmserv", PRESETS["pbmserv"]), ("peer", rules_from("pbmserv", PEER_RULES)))


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
    engine = Engine(rules, Options(prove=0, hash_bits=16, weights=Weights(weights)))
    player = RandomStart(engine, rules, settings.random_plies,
                         random.Random(rng.randrange(1 << 30)))
    game = play_game(player, player, opening, rules, Limit(nodes=settings.nodes),
                     settings.max_plies, names=(name, name))
    return index, game.to_json()


def _init() -> None:
    """Nothing to set up in a worker (each game makes its own engine)."""


def self_play(weights: tuple[float, ...], settings: Settings, round_seed: int,
              jobs: int = 1) -> list[PlayedGame]:
    """One round's games, in order (the same whatever ``jobs``)."""
    rng = random.Random(round_seed)
    tasks = [(i, rng.randrange(1 << 30), weights, settings) for i in range(settings.games)]
    out: dict[int, dict] = {}
    with worker_pool(jobs, _init) as pool:
        for i, game in pool.map_unordered(_one_game, tasks, chunksize=4):
            out[i] = game
            if len(out) % 50 == 0:
                print(f"  {len(out)} of {len(tasks)} games", file=sys.stderr, flush=True)
    return [PlayedGame.from_json(out[i]) for i in range(len(tasks))]


def training_set(games: Sequence[PlayedGame]) -> tuple[np.ndarray, np.ndarray]:
    """The features of every position of the decided games where the side to move cannot
    land at once, and whether the side to move won (1) or lost (0)."""
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
    return np.array(rows, dtype=np.float64), np.array(results, dtype=np.float64)


def fit(x: np.ndarray, y: np.ndarray, ridge: float) -> tuple[np.ndarray, dict[str, float]]:
    """Logistic regression of ``y`` on ``x`` (its first column the constant 1): the
    weights, and the fit's log-loss and accuracy on the data. Newton's method on the
    standardised features (columns that never vary get weight 0), ridge penalty
    ``ridge`` on all but the constant."""
    mean = x.mean(axis=0)
    std = x.std(axis=0)
    live = std > 1e-9
    live[0] = True
    mean[0], std[0] = 0.0, 1.0
    z = (x[:, live] - mean[live]) / std[live]
    beta = np.zeros(z.shape[1])
    penalty = np.full(z.shape[1], ridge)
    penalty[0] = 0.0
    for _ in range(50):
        p = 1.0 / (1.0 + np.exp(-(z @ beta)))
        grad = z.T @ (p - y) + penalty * beta
        hess = (z * (p * (1 - p))[:, None]).T @ z + np.diag(penalty + 1e-9)
        step = np.linalg.solve(hess, grad)
        beta -= step
        if np.max(np.abs(step)) < 1e-10:
            break
    w = np.zeros(x.shape[1])
    w[live] = beta / std[live]
    w[0] = beta[0] - float(np.sum(beta[1:] * mean[live][1:] / std[live][1:]))
    p = np.clip(1.0 / (1.0 + np.exp(-(x @ w))), 1e-12, 1 - 1e-12)
    loss = float(-np.mean(y * np.log(p) + (1 - y) * np.log(1 - p)))
    accuracy = float(np.mean((p > 0.5) == (y > 0.5)))
    return w, {"log_loss": round(loss, 4), "accuracy": round(accuracy, 4)}


def run(settings: Settings, jobs: int = 1) -> Weights:
    """The rounds of self-play and fitting: the last round's weights."""
    weights = tuple(START.get(name, 0.0) for name in FEATURES)
    rng = random.Random(settings.seed)
    games: list[PlayedGame] = []
    quality: dict[str, float] = {}
    for r in range(settings.rounds):
        print(f"round {r + 1}: self-play", file=sys.stderr, flush=True)
        games += self_play(weights, settings, rng.randrange(1 << 30), jobs)
        x, y = training_set(games)
        w, quality = fit(x, y, settings.ridge)
        weights = tuple(round(float(v), 6) for v in w)
        print(f"round {r + 1}: {len(games)} games, {len(y)} positions, {quality}",
              file=sys.stderr, flush=True)
    decided = sum(1 for g in games if g.result != "draw")
    info = {"by": "python -m gyges.engine.fit", **dataclasses.asdict(settings),
            "games_decided": decided, "positions": int(len(y)), **quality,
            "rules": [name for name, _ in RULE_SETS]}
    return Weights(weights, info)


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m gyges.engine.fit", description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    defaults = Settings()
    parser.add_argument("--out", type=Path, default=None,
                        help="the weights file to write (default: print it)")
    for field in dataclasses.fields(Settings):
        parser.add_argument(f"--{field.name.replace('_', '-')}", type=type(getattr(
            defaults, field.name)), default=getattr(defaults, field.name))
    parser.add_argument("--jobs", type=int, default=1,
                        help="processes for the self-play (the result is the same)")
    args = parser.parse_args(argv)
    settings = Settings(**{f.name: getattr(args, f.name) for f in dataclasses.fields(Settings)})
    weights = run(settings, max(1, args.jobs))
    text = weights.dumps()
    if args.out is None:
        sys.stdout.write(text)
    else:
        write_atomic(args.out, text)
    return 0


if __name__ == "__main__":
    sys.exit(main())
