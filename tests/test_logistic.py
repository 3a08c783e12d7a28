"""The one logistic fit (gyges.engine.logistic) gives what the two fits it replaced gave:
the evaluation's weights fit and the setups' Bradley-Terry strengths, each against a copy
of its former Newton iteration, on small seeded samples."""

from __future__ import annotations

import random

import numpy as np
import pytest

from gyges.engine.logistic import logistic_fit
from gyges.engine.training import fit_weights
from gyges.setups.selfplay.strengths import ADVANTAGE_RIDGE, ELO, fit_strengths


def _old_weights_fit(x: np.ndarray, y: np.ndarray, ridge: float) -> np.ndarray:
    """The former gyges.engine.fit.fit, as it was (the weights only)."""
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
    return w


@pytest.mark.parametrize("ridge", [0.0, 1.0])
def test_the_weights_fit_is_the_former_one(ridge):
    rng = np.random.default_rng(11)
    n = 3000
    x = np.column_stack([np.ones(n), rng.normal(size=n), 3 * rng.normal(size=n) + 1,
                         np.zeros(n), rng.integers(0, 4, size=n)])
    truth = np.array([0.2, 1.1, -0.4, 0.0, 0.3])
    y = (rng.random(n) < 1 / (1 + np.exp(-(x @ truth)))).astype(float)
    old = _old_weights_fit(x.copy(), y, ridge)
    new, _ = fit_weights(x, y, ridge)
    # the constant's negligible penalty (1e-9) is now in the gradient too: equal to 1e-8
    assert np.allclose(new, old, rtol=0, atol=1e-8)
    assert [round(v, 6) for v in new] == [round(float(v), 6) for v in old]


def _old_strengths_theta(results, ridge):
    """The former Newton iteration of gyges.setups.selfplay.strengths.fit_strengths."""
    cells: dict = {}
    for s, n, scored in results:
        c = cells.setdefault((s, n), [0.0, 0.0])
        c[0] += 1
        c[1] += scored
    souths = sorted({s for s, _ in cells})
    norths = sorted({n for _, n in cells})
    index = {("S", s): 1 + i for i, s in enumerate(souths)}
    index.update({("N", n): 1 + len(souths) + j for j, n in enumerate(norths)})
    k = 1 + len(souths) + len(norths)
    pairs = list(cells)
    x = np.zeros((len(pairs), k))
    x[:, 0] = 1.0
    for row, (s, n) in enumerate(pairs):
        x[row, index["S", s]] = 1.0
        x[row, index["N", n]] = -1.0
    games = np.array([cells[p][0] for p in pairs])
    points = np.array([cells[p][1] for p in pairs])
    theta = np.zeros(k)
    penalty = np.full(k, ridge)
    penalty[0] = ADVANTAGE_RIDGE
    hessian = np.eye(k)
    for _ in range(100):
        p = 1.0 / (1.0 + np.exp(-(x @ theta)))
        gradient = x.T @ (points - games * p) - penalty * theta
        hessian = x.T @ ((games * p * (1 - p))[:, None] * x) + np.diag(penalty)
        step = np.linalg.solve(hessian, gradient)
        theta += step
        if np.max(np.abs(step)) < 1e-10:
            break
    return x, games, points, penalty, theta, hessian


def test_the_strengths_fit_is_the_former_one():
    rng = random.Random(5)
    setups = ["112233", "123123", "231123", "321123"]
    results = [(rng.choice(setups), rng.choice(setups), rng.choice((0.0, 0.5, 1.0, 1.0)))
               for _ in range(300)]
    x, games, points, penalty, theta, hessian = _old_strengths_theta(results, 1.0)
    fit = logistic_fit(x, points, games, penalty)
    assert np.array_equal(fit.theta, theta) and np.array_equal(fit.hessian, hessian)
    # and the strengths reported: the centred values of those coefficients
    f = fit_strengths(results)
    south = {r.setup: r.strength for r in f.south}
    centred = theta[1:1 + 4] - theta[1:1 + 4].mean()
    assert [south[s] for s in setups] == pytest.approx(list(ELO * centred), abs=1e-9)
