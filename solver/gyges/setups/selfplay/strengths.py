"""Setup strengths fitted from game results: a Bradley-Terry (Elo-style) model.

South's expected score in a game of South setup ``a`` against North setup ``b`` is

    E = 1 / (1 + exp(-(h + s[a] - n[b])))

with one strength ``s`` per South setup, one ``n`` per North setup and South's first-move
advantage ``h``. A draw counts half a point, as in the score of a match (the likelihood
of a draw is that of half a win and half a loss). The fit maximises the likelihood of the
results with a small ridge penalty, ``RIDGE / 2`` times the sum of the squared
strengths (a normal prior of standard deviation ``1 / sqrt(RIDGE)`` logits on each):
a setup that won or lost every game gets a finite strength, pulled toward the average,
the more so the fewer its games. The advantage, which every game informs, is not pulled
(a weight of :data:`ADVANTAGE_RIDGE` only keeps it finite should one side win every
game). Newton's method finds the maximum (:func:`gyges.engine.logistic.logistic_fit`).

Strengths are only known up to a shift on each side (adding ``c`` to every ``s`` and
taking it from ``h`` changes no prediction), so they are reported centred: each side's
average setup is 0, and the advantage is South's at average setups. They are given in
Elo points, ``400 / ln 10`` (about 174) to a logit, so that a difference of ``d`` Elo
gives the stronger an expected score of ``1 / (1 + 10 ** (-d / 400))``.

The 95% intervals are ``±1.96`` standard errors from the inverse of the penalised
log-likelihood's Hessian at the maximum (its Fisher information), mapped to the centred
values. :meth:`StrengthFit.compare` tests the difference of two setups of a side the same way,
with their covariance.

>>> games = [("a", "x", 1.0)] * 30 + [("a", "x", 0.0)] * 10 + [("b", "x", 0.5)] * 40
>>> fit = fit_strengths(games)
>>> [(r.setup, round(r.strength)) for r in fit.south]
[('a', 86), ('b', -86)]
>>> round(fit.expected("a", "x"), 3), round(fit.expected("b", "x"), 3)
(0.738, 0.512)

(With 40 games each, the ridge pulls the two strengths a little toward each other: the
scores seen were 0.75 and 0.5.)
"""

from __future__ import annotations

import dataclasses
import math
from collections.abc import Iterable

from gyges.engine.logistic import logistic_fit, numpy
from gyges.engine.stats import Z95
from gyges.game.rules import Side

__all__ = ["ADVANTAGE_RIDGE", "ELO", "RIDGE", "Comparison", "Rating", "StrengthFit",
           "fit_strengths"]

#: The ridge penalty's weight (a prior of one logit's standard deviation on each
#: strength). A setup's information is about a quarter per game, so at about 220 games a
#: setup (the published table) the prior moves its strength by 2-4% toward 0; with few
#: games it keeps the strength finite and near the average.
RIDGE = 1.0
ADVANTAGE_RIDGE = 1e-6
ELO = 400.0 / math.log(10.0)  #: Elo points to a logit


@dataclasses.dataclass(frozen=True)
class Rating:
    """One setup of one side: its fitted ``strength`` (Elo, centred: the side's average
    setup is 0) with its 95% interval ``low``..``high``, and what its games gave: their
    number and the points its side scored in them, per game."""

    side: Side
    setup: str
    strength: float
    low: float
    high: float
    games: int
    score: float


@dataclasses.dataclass(frozen=True)
class Comparison:
    """Two setups of one side: the difference of their strengths (Elo, the first's less
    the second's), its standard error, and whether it is significant at 5% (two-sided:
    ``|difference| > 1.96`` standard errors)."""

    difference: float
    error: float

    @property
    def significant(self) -> bool:
        return abs(self.difference) > Z95 * self.error


@dataclasses.dataclass(frozen=True)
class StrengthFit:
    """The fitted model: the ratings of each side, strongest first, South's first-move
    ``advantage`` (Elo, at average setups) with its 95% interval, the ``games`` fitted
    and the ``ridge`` used."""

    south: tuple[Rating, ...]
    north: tuple[Rating, ...]
    advantage: float
    advantage_low: float
    advantage_high: float
    games: int
    ridge: float
    _index: dict[tuple[Side, str], int] = dataclasses.field(repr=False)
    _values: tuple[float, ...] = dataclasses.field(repr=False)
    _cov: tuple[tuple[float, ...], ...] = dataclasses.field(repr=False)

    def ratings(self, side: Side) -> tuple[Rating, ...]:
        return self.south if side is Side.SOUTH else self.north

    def rating(self, side: Side, setup: str) -> Rating:
        return next(r for r in self.ratings(side) if r.setup == setup)

    def expected(self, south: str, north: str) -> float:
        """South's expected score (points per game) with ``south`` against ``north``."""
        v = self._values
        x = (v[0] + v[self._index[Side.SOUTH, south]] - v[self._index[Side.NORTH, north]])
        return 1.0 / (1.0 + math.exp(-x / ELO))

    def compare(self, side: Side, a: str, b: str) -> Comparison:
        """Setup ``a`` of ``side`` against setup ``b``: :class:`Comparison`."""
        i, j = self._index[side, a], self._index[side, b]
        c = self._cov
        var = c[i][i] + c[j][j] - 2 * c[i][j]
        return Comparison(self._values[i] - self._values[j], math.sqrt(max(var, 0.0)))


def fit_strengths(results: Iterable[tuple[str, str, float]], ridge: float = RIDGE) -> StrengthFit:
    """Fit the model to ``results``: (South's setup, North's setup, South's points: 1 a
    win, 0.5 a draw, 0 a loss) per game."""
    np = numpy()  # heavy, and optional: loaded by a fit, not by every command that reports

    cells: dict[tuple[str, str], list[float]] = {}
    for s, n, scored in results:
        if not 0.0 <= scored <= 1.0:
            raise ValueError(f"a game's points are 0, 0.5 or 1, not {scored}")
        c = cells.setdefault((s, n), [0.0, 0.0])
        c[0] += 1
        c[1] += scored
    if not cells:
        raise ValueError("no games to fit")
    souths = sorted({s for s, _ in cells})
    norths = sorted({n for _, n in cells})
    index = {(Side.SOUTH, s): 1 + i for i, s in enumerate(souths)}
    index.update({(Side.NORTH, n): 1 + len(souths) + j for j, n in enumerate(norths)})
    k = 1 + len(souths) + len(norths)
    pairs = list(cells)
    x = np.zeros((len(pairs), k))
    x[:, 0] = 1.0
    for row, (s, n) in enumerate(pairs):
        x[row, index[Side.SOUTH, s]] = 1.0
        x[row, index[Side.NORTH, n]] = -1.0
    games = np.array([cells[p][0] for p in pairs])
    points = np.array([cells[p][1] for p in pairs])
    penalty = np.full(k, ridge)
    penalty[0] = ADVANTAGE_RIDGE
    fitted = logistic_fit(x, points, games, penalty)
    theta, hessian = fitted.theta, fitted.hessian
    # the centred values: each side's strengths less their mean, the advantage with the
    # means moved into it (predictions unchanged); their covariance by the same map
    t = np.eye(k)
    south_cols = slice(1, 1 + len(souths))
    north_cols = slice(1 + len(souths), k)
    t[south_cols, south_cols] -= 1.0 / len(souths)
    t[north_cols, north_cols] -= 1.0 / len(norths)
    t[0, south_cols] = 1.0 / len(souths)
    t[0, north_cols] = -1.0 / len(norths)
    values = ELO * (t @ theta)
    cov = ELO * ELO * (t @ np.linalg.inv(hessian) @ t.T)
    err = np.sqrt(np.maximum(np.diag(cov), 0.0))

    def ratings(side: Side, setups: list[str]) -> tuple[Rating, ...]:
        key = 0 if side is Side.SOUTH else 1
        out = []
        for setup in setups:
            i = index[side, setup]
            mine = [(c[0], c[1]) for p, c in cells.items() if p[key] == setup]
            played = sum(g for g, _ in mine)
            won = sum(w for _, w in mine)
            score = won / played if side is Side.SOUTH else 1.0 - won / played
            out.append(Rating(side, setup, float(values[i]), float(values[i] - Z95 * err[i]),
                              float(values[i] + Z95 * err[i]), int(played), score))
        return tuple(sorted(out, key=lambda r: (-r.strength, r.setup)))

    return StrengthFit(ratings(Side.SOUTH, souths), ratings(Side.NORTH, norths), float(values[0]),
               float(values[0] - Z95 * err[0]), float(values[0] + Z95 * err[0]),
               int(games.sum()), ridge, index, tuple(float(v) for v in values),
               tuple(tuple(float(v) for v in row) for row in cov))
