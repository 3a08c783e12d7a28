"""The best guess of each setup's strength from the games and the evaluations together.

The games fit each setup a strength with a standard error
(:mod:`gyges.setups.selfplay.strengths`); the engine's evaluations give each setup an
average (:mod:`gyges.setups.evaluation`), with no sampling noise but a judgement of their
own. The **Fay-Herriot model** (small-area estimation's empirical Bayes with a covariate)
puts them together: a setup's true strength is what the evaluations predict for it plus a
part they miss,

:math:`\\theta_s = \\alpha + \\beta\\,x_s + u_s`, :math:`u_s \\sim N(0, \\tau^2)`, and the
games see :math:`g_s = \\theta_s + e_s` with :math:`e_s` of the fit's standard error.

:math:`\\alpha, \\beta` come from the games by weighted least squares (weights
:math:`1 / (\\tau^2 + e_s^2)`), and :math:`\\tau^2`, the spread the evaluations miss, by
the method of moments as :func:`~gyges.setups.selfplay.reliability.true_spread` finds the
spread (what the residuals vary beyond the games' errors; Prasad and Rao 1990). Each
setup's best guess is the prediction moved toward its games by :math:`B_s = \\tau^2 /
(\\tau^2 + e_s^2)`, and its 95% interval from Prasad and Rao's :math:`g_1 + g_2 + 2 g_3`:
the shrinkage's variance :math:`\\tau^2 e_s^2 / (\\tau^2 + e_s^2)`, the prediction's own,
:math:`(1 - B_s)^2` times that of :math:`\\alpha + \\beta x_s`, and what estimating
:math:`\\tau^2` adds. Where the evaluations
predict nothing (:math:`\\beta` near 0) the guess is the games' shrunken strength; where
they predict all of the true spread (:math:`\\tau` = 0) it is their prediction.

>>> from gyges.game.rules import Side
>>> from gyges.setups.selfplay.strengths import Rating
>>> ratings = [Rating(Side.SOUTH, s, g, g - 39.2, g + 39.2, 300, 0.5)    # e = 20
...            for s, g in (("a", 40.0), ("b", 10.0), ("c", -10.0), ("d", -40.0))]
>>> both = combined_strengths(ratings, {"a": 0.60, "b": 0.55, "c": 0.45, "d": 0.40})
>>> [(s, round(v)) for s, v, _, _ in both.estimates]
[('a', 36), ('b', 18), ('c', -18), ('d', -36)]
>>> round(both.tau)      # the evaluations explain the spread: nothing left over
0
"""

from __future__ import annotations

import dataclasses
import math
from collections.abc import Mapping, Sequence

from gyges.engine.stats import Z95
from gyges.setups.selfplay.strengths import Rating

__all__ = ["CombinedStrengths", "combined_strengths"]


@dataclasses.dataclass(frozen=True)
class CombinedStrengths:
    """One side's setups, the games and the evaluations together: the line the
    evaluations predict by (``alpha`` + ``beta`` x, Elo), the spread of the true strengths
    it misses (``tau``, Elo), and each setup's best guess with its 95% interval (Elo,
    centred as the games' strengths are; strongest first)."""

    alpha: float
    beta: float
    tau: float
    estimates: tuple[tuple[str, float, float, float], ...]

    def best(self) -> tuple[str, float, float, float]:
        """The setup with the highest best guess, with its guess and interval."""
        return self.estimates[0]


def _weighted_line(x: Sequence[float], y: Sequence[float], w: Sequence[float]
                   ) -> tuple[float, float, list[list[float]]]:
    """Weighted least squares of ``y`` on ``x``: intercept, slope and their covariance
    (the inverse of X'WX)."""
    sw = sum(w)
    sx = sum(wi * xi for wi, xi in zip(w, x, strict=True))
    sxx = sum(wi * xi * xi for wi, xi in zip(w, x, strict=True))
    sy = sum(wi * yi for wi, yi in zip(w, y, strict=True))
    sxy = sum(wi * xi * yi for wi, xi, yi in zip(w, x, y, strict=True))
    det = sw * sxx - sx * sx
    if det <= 0:       # the evaluations do not vary: predict the weighted mean
        return sy / sw, 0.0, [[1 / sw, 0.0], [0.0, 0.0]]
    beta = (sw * sxy - sx * sy) / det
    alpha = (sy - beta * sx) / sw
    return alpha, beta, [[sxx / det, -sx / det], [-sx / det, sw / det]]


def combined_strengths(ratings: Sequence[Rating], values: Mapping[str, float]
                       ) -> CombinedStrengths:
    """The Fay-Herriot best guesses (see the module) for one side's ``ratings`` (the
    games' fit) given ``values``, the evaluations' number for each setup rated (its
    average win probability, say)."""
    rated = [r for r in ratings if r.setup in values]
    if len(rated) < 3:
        raise ValueError("a combined estimate needs at least three setups with both figures")
    x = [values[r.setup] for r in rated]
    g = [r.strength for r in rated]
    e2 = [max((r.high - r.low) / (2 * Z95), 1e-9) ** 2 for r in rated]
    k = len(rated)
    # the spread the line misses: the ordinary residuals' variance beyond the errors
    alpha, beta, _ = _weighted_line(x, g, [1.0] * k)
    rss = sum((gi - alpha - beta * xi) ** 2 for xi, gi in zip(x, g, strict=True))
    tau2 = max(0.0, rss / (k - 2) - sum(e2) / k)
    w = [1 / (tau2 + v) for v in e2]
    alpha, beta, cov = _weighted_line(x, g, w)
    var_tau2 = 2 * sum((tau2 + v) ** 2 for v in e2) / k ** 2   # of tau2, estimated
    estimates = []
    for r, xi, gi, v in zip(rated, x, g, e2, strict=True):
        b = tau2 / (tau2 + v)
        predicted = alpha + beta * xi
        g1 = tau2 * v / (tau2 + v)
        g2 = (1 - b) ** 2 * (cov[0][0] + 2 * xi * cov[0][1] + xi * xi * cov[1][1])
        g3 = v * v / (tau2 + v) ** 3 * var_tau2
        guess = predicted + b * (gi - predicted)
        sd = math.sqrt(g1 + max(g2, 0.0) + 2 * g3)
        estimates.append((r.setup, guess, guess - Z95 * sd, guess + Z95 * sd))
    estimates.sort(key=lambda t: (-t[1], t[0]))
    return CombinedStrengths(alpha, beta, math.sqrt(tau2), tuple(estimates))
