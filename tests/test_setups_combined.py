"""The games and the evaluations together (``gyges.setups.combined``): on synthetic
setups with known true strengths, evaluations that predict part of them and games that
see them with noise, the best guesses are nearer the truth than the games' own shrunken
strengths when the evaluations predict, no worse when they predict nothing, and their
intervals cover the truth about as often as they say."""

from __future__ import annotations

import random
import statistics

import pytest

from gyges.engine.stats import Z95
from gyges.game.rules import Side
from gyges.setups.combined import combined_strengths
from gyges.setups.selfplay.reliability import true_spread
from gyges.setups.selfplay.strengths import Rating

K = 48          # setups, as a side of the study has
ERROR = 20.0    # the games' standard error of a strength (Elo), as in the study


def _side(seed: int, predicted: float, missed: float
          ) -> tuple[dict[str, float], list[Rating], dict[str, float]]:
    """True strengths = ``predicted`` Elo (SD) the evaluations see + ``missed`` Elo they
    do not; the evaluations' figure is a probability-like number linear in the first
    part; the games add their error."""
    rng = random.Random(seed)
    truth, values, ratings = {}, {}, []
    for i in range(K):
        setup = f"s{i:02d}"
        seen = rng.gauss(0, 1)
        truth[setup] = predicted * seen + missed * rng.gauss(0, 1)
        values[setup] = 0.55 + 0.02 * seen
        g = truth[setup] + rng.gauss(0, ERROR)
        ratings.append(Rating(Side.SOUTH, setup, g, g - Z95 * ERROR, g + Z95 * ERROR, 350,
                              0.5))
    return truth, ratings, values


def _errors(truth, ratings, values):
    both = {s: v for s, v, _, _ in combined_strengths(ratings, values).estimates}
    alone = dict(true_spread(ratings).shrunken)
    return (statistics.fmean((both[s] - truth[s]) ** 2 for s in truth),
            statistics.fmean((alone[s] - truth[s]) ** 2 for s in truth))


def test_evaluations_that_predict_bring_the_guesses_nearer():
    runs = [_errors(*_side(seed, predicted=20, missed=8)) for seed in range(20)]
    both, alone = (statistics.fmean(r[i] for r in runs) for i in (0, 1))
    assert both < 0.6 * alone, (both, alone)


def test_evaluations_that_predict_nothing_cost_little():
    runs = [_errors(*_side(seed, predicted=0, missed=20)) for seed in range(20)]
    both, alone = (statistics.fmean(r[i] for r in runs) for i in (0, 1))
    assert both < 1.15 * alone, (both, alone)


@pytest.mark.parametrize(("predicted", "missed"), [(20, 8), (0, 20), (20, 0)])
def test_the_line_and_the_spread_missed_are_recovered(predicted, missed):
    slopes, taus = [], []
    for seed in range(20):
        _, ratings, values = _side(seed, predicted, missed)
        both = combined_strengths(ratings, values)
        slopes.append(both.beta * 0.02)    # Elo a unit of the evaluations' seen part
        taus.append(both.tau)
    assert statistics.fmean(slopes) == pytest.approx(predicted, abs=4)
    assert statistics.fmean(taus) == pytest.approx(missed, abs=5)   # (cut at 0: biased up)


def test_the_intervals_cover_the_truth():
    inside = total = 0
    for seed in range(20):
        truth, ratings, values = _side(seed, predicted=20, missed=8)
        for s, _, low, high in combined_strengths(ratings, values).estimates:
            inside += low <= truth[s] <= high
            total += 1
    assert 0.90 <= inside / total <= 0.99, inside / total


def test_the_best_comes_first_and_too_few_setups_are_refused():
    _, ratings, values = _side(1, 20, 8)
    both = combined_strengths(ratings, values)
    assert both.best() == both.estimates[0]
    assert [e[1] for e in both.estimates] == sorted((e[1] for e in both.estimates),
                                                    reverse=True)
    with pytest.raises(ValueError, match="at least three setups"):
        combined_strengths(ratings[:2], values)
