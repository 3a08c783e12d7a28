"""The Bradley-Terry fit: it recovers known strengths from synthetic results, its
intervals cover them about as often as they say, and its pieces behave."""

from __future__ import annotations

import math
import random

import pytest

from gyges.game.rules import Side
from gyges.setups.selfplay.strengths import ELO, RIDGE, fit_strengths


def _synthetic(seed: int, setups: int, games: int, spread: float, advantage: float,
               draws: float = 0.0):
    """Games drawn from the model itself: true strengths (logits) and the results."""
    rng = random.Random(seed)
    south = {f"s{i:02d}": rng.gauss(0, spread) for i in range(setups)}
    north = {f"n{i:02d}": rng.gauss(0, spread) for i in range(setups)}
    results = []
    for _ in range(games):
        a, b = rng.choice(list(south)), rng.choice(list(north))
        p = 1 / (1 + math.exp(-(advantage + south[a] - north[b])))
        u = rng.random()
        # draws as often as asked, wins as often as keeps South's expected score p
        if u < draws:
            results.append((a, b, 0.5))
        else:
            win = min(max((p - draws / 2) / (1 - draws), 0.0), 1.0)
            results.append((a, b, 1.0 if rng.random() < win else 0.0))
    return south, north, results


def _centred(true: dict[str, float]) -> dict[str, float]:
    mean = sum(true.values()) / len(true)
    return {k: ELO * (v - mean) for k, v in true.items()}


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_the_fit_recovers_known_strengths(seed):
    south, north, results = _synthetic(seed, 12, 12000, 0.5, 0.3, draws=0.1)
    fit = fit_strengths(results)
    truth = {Side.SOUTH: _centred(south), Side.NORTH: _centred(north)}
    covered = total = 0
    for side in (Side.SOUTH, Side.NORTH):
        for r in fit.ratings(side):
            true = truth[side][r.setup]
            assert abs(r.strength - true) < 4 * (r.high - r.low) / (2 * 1.96)
            covered += r.low <= true <= r.high
            total += 1
    assert covered >= total - 3          # 95% intervals: about one miss in twenty
    true_adv = ELO * (0.3 + sum(south.values()) / 12 - sum(north.values()) / 12)
    assert fit.advantage_low <= true_adv <= fit.advantage_high
    # the ranking follows the true strengths: the true best is near the top
    best = max(south, key=south.get)
    assert best in [r.setup for r in fit.south[:3]]
    assert [r.strength for r in fit.south] == sorted((r.strength for r in fit.south),
                                                     reverse=True)
    assert fit.games == 12000


def test_strengths_are_centred_and_predictions_follow_them():
    _, _, results = _synthetic(4, 6, 3000, 0.8, -0.2)
    fit = fit_strengths(results)
    for side in (Side.SOUTH, Side.NORTH):
        assert abs(sum(r.strength for r in fit.ratings(side))) < 1e-6
    a, b = fit.south[0].setup, fit.south[-1].setup
    n = fit.north[0].setup
    assert fit.expected(a, n) > fit.expected(b, n)
    x = (fit.advantage + fit.rating(Side.SOUTH, a).strength
         - fit.rating(Side.NORTH, n).strength) / ELO
    assert fit.expected(a, n) == pytest.approx(1 / (1 + math.exp(-x)))


def test_a_setup_that_won_every_game_stays_finite_and_uncertain():
    results = [("a", "x", 1.0)] * 5 + [("b", "x", 0.0)] * 5 + [("b", "y", 0.5)] * 50
    fit = fit_strengths(results)
    a = fit.rating(Side.SOUTH, "a")
    assert math.isfinite(a.strength) and a.strength > 0
    assert a.high - a.low > 200     # five games say little
    assert fit_strengths(results, ridge=RIDGE * 10).rating(Side.SOUTH, "a").strength \
        < a.strength                # a larger ridge pulls harder toward the average


def test_comparisons_use_the_covariance_and_flag_clear_differences():
    results = ([("a", "x", 1.0)] * 180 + [("a", "x", 0.0)] * 20
               + [("b", "x", 1.0)] * 20 + [("b", "x", 0.0)] * 180
               + [("c", "x", 1.0)] * 21 + [("c", "x", 0.0)] * 179)
    fit = fit_strengths(results)
    ab = fit.compare(Side.SOUTH, "a", "b")
    bc = fit.compare(Side.SOUTH, "b", "c")
    assert ab.significant and ab.difference > 0
    assert not bc.significant
    assert fit.compare(Side.SOUTH, "b", "a").difference == pytest.approx(-ab.difference)


def test_bad_results_are_refused():
    with pytest.raises(ValueError, match="no games"):
        fit_strengths([])
    with pytest.raises(ValueError, match="0, 0.5 or 1"):
        fit_strengths([("a", "x", 2.0)])
