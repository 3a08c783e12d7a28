"""How sure a setup ranking is, on synthetic games with known strengths: the true spread
is recovered, the split-half reliability is near 0 when every setup is equal and near 1
when the spread is large, and the significant counts stand beside a null of the same
design (gyges.setups.selfplay.reliability)."""

from __future__ import annotations

import math
import random

import pytest

from gyges.game.rules import Side
from gyges.setups.selfplay.reliability import null_significant, split_half, true_spread
from gyges.setups.selfplay.strengths import ELO, fit_strengths

SOUTHS = [f"s{i}" for i in range(12)]
NORTHS = [f"n{i}" for i in range(6)]


def _games(spread_elo: float, per_pair: int, seed: int) -> tuple[list, dict[str, float]]:
    """Games of every pair, ``per_pair`` each, South setups drawn with true strengths of
    standard deviation ``spread_elo`` (North setups all equal), no draws."""
    rng = random.Random(seed)
    true = {s: rng.gauss(0.0, spread_elo) for s in SOUTHS}
    games = []
    for _ in range(per_pair):
        for s in SOUTHS:
            for n in NORTHS:
                p = 1.0 / (1.0 + math.exp(-true[s] / ELO))
                games.append((s, n, 1.0 if rng.random() < p else 0.0))
    rng.shuffle(games)
    return games, true


def test_the_true_spread_is_recovered():
    games, true = _games(120.0, 60, seed=1)
    mean = sum(true.values()) / len(true)
    sd = math.sqrt(sum((v - mean) ** 2 for v in true.values()) / (len(true) - 1))
    spread = true_spread(fit_strengths(games).south)
    assert spread.low <= sd <= spread.high
    assert abs(spread.tau - sd) < 0.25 * sd
    # shrunken strengths keep the order of the true ones at this spread
    order = [s for s, _ in spread.shrunken]
    assert order[0] == max(true, key=true.get) and order[-1] == min(true, key=true.get)


def test_no_spread_reads_as_none_and_shrinks_to_the_average():
    games, _ = _games(0.0, 30, seed=2)
    spread = true_spread(fit_strengths(games).south)
    assert spread.low == 0.0 and spread.tau < 30
    fitted = {r.setup: r.strength for r in fit_strengths(games).south}
    assert all(abs(v) <= abs(fitted[s]) + 1e-9 for s, v in spread.shrunken)


@pytest.mark.parametrize(("spread_elo", "low", "high"), [(0.0, -1.0, 0.5), (200.0, 0.85, 1.0)])
def test_split_half_reliability(spread_elo, low, high):
    games, _ = _games(spread_elo, 40, seed=3)
    assert low <= split_half(games, Side.SOUTH) <= high


def test_significant_counts_beside_a_null_of_the_same_design():
    equal, _ = _games(0.0, 20, seed=4)
    south, north = null_significant(equal, fit_strengths(equal), rounds=20, seed=1)
    assert south.rounds == 20 and south.null_95 >= south.null_mean >= 0
    assert south.observed <= south.null_95 + 2       # equal setups: about what chance gives
    spread, _ = _games(250.0, 20, seed=4)
    south, _ = null_significant(spread, fit_strengths(spread), rounds=20, seed=1)
    assert south.observed > south.null_95             # a real spread: far more
    again, _ = null_significant(spread, fit_strengths(spread), rounds=20, seed=1)
    assert again == south                              # seeded: the same figures
