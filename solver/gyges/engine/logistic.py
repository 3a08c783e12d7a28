"""Logistic regression by Newton's method: the one fitting routine behind the
evaluation's weights (:mod:`gyges.engine.training`) and the setups' strengths (a
Bradley-Terry model, :mod:`gyges.setups.selfplay.strengths`).

Row ``i`` of the design matrix ``x`` was tried ``trials[i]`` times and scored
``points[i]`` (a draw half a point); the model's chance of a point is
``1 / (1 + exp(-x[i] @ theta))``. :func:`logistic_fit` maximises the log-likelihood less
a ridge penalty ``penalty[j] / 2 * theta[j] ** 2`` on each coefficient (0: not pulled),
Newton step after Newton step until the largest step is below ``tolerance``; the
penalised Hessian at the maximum (the Fisher information) gives the coefficients'
covariance.

It needs numpy (a dependency of gyges): :func:`numpy` imports it when a fit is made, not
when ``gyges`` is imported, with a clear error should it be missing.

>>> fit = logistic_fit([[1.0]] * 4, [1.0, 1.0, 1.0, 0.0], [1.0] * 4, [0.0])
>>> round(float(fit.theta[0]), 4), round(float(fit.covariance[0][0]), 4)
(1.0986, 1.3333)
"""

from __future__ import annotations

import dataclasses
from collections.abc import Sequence
from typing import Any

__all__ = ["LogisticFit", "MissingNumpy", "logistic_fit", "numpy"]


class MissingNumpy(ImportError):
    """A fit asked for without numpy installed."""


def numpy() -> Any:
    """The numpy module, or :class:`MissingNumpy` saying how to install it."""
    try:
        import numpy as np
    except ImportError:
        raise MissingNumpy("fitting needs numpy, a dependency of gyges that is missing: "
                           "pip install numpy") from None
    return np


@dataclasses.dataclass(frozen=True)
class LogisticFit:
    """The coefficients ``theta`` (a numpy vector, one per column of the design), the
    penalised log-likelihood's Hessian ``hessian`` at them (its last Newton step's),
    and the Newton ``steps`` taken."""

    theta: Any
    hessian: Any
    steps: int

    @property
    def covariance(self) -> Any:
        """The coefficients' covariance: the inverse of the Hessian."""
        return numpy().linalg.inv(self.hessian)


def logistic_fit(x: Any, points: Sequence[float] | Any, trials: Sequence[float] | Any,
                 penalty: Sequence[float] | Any, *, max_steps: int = 100,
                 tolerance: float = 1e-10) -> LogisticFit:
    """Fit ``theta`` to rows ``x`` (a matrix: rows by coefficients), each tried
    ``trials`` times for ``points`` points, with the ridge ``penalty`` per coefficient
    (see the module's text)."""
    np = numpy()
    x = np.asarray(x, dtype=np.float64)
    points = np.asarray(points, dtype=np.float64)
    trials = np.asarray(trials, dtype=np.float64)
    penalty = np.asarray(penalty, dtype=np.float64)
    theta = np.zeros(x.shape[1])
    hessian = np.eye(x.shape[1])
    steps = 0
    while steps < max_steps:
        p = 1.0 / (1.0 + np.exp(-(x @ theta)))
        gradient = x.T @ (points - trials * p) - penalty * theta
        hessian = x.T @ ((trials * p * (1 - p))[:, None] * x) + np.diag(penalty)
        step = np.linalg.solve(hessian, gradient)
        theta = theta + step
        steps += 1
        if np.max(np.abs(step)) < tolerance:
            break
    return LogisticFit(theta, hessian, steps)
