"""How sure a ranking of setups is: the true spread of their strengths, shrunken
strengths, the ranking's split-half reliability, and significance counts calibrated on a
simulated null.

A fit's strengths (:mod:`~gyges.setups.selfplay.strengths`) are true strengths plus
noise, so their spread overstates the true one, and the best setup's strength is, more
often than not, partly luck. Four figures say how much:

- **The true spread** :math:`\\tau` (the standard deviation of the true strengths of a
  side's setups, Elo): the random-effects estimate from the strengths and their standard
  errors (the method of moments: what the strengths vary beyond their errors), with a
  95% interval by the Q-profile method (the :math:`\\tau` at which Cochran's Q equals the
  chi-square quantiles; Viechtbauer 2007). The quantiles come from the Wilson-Hilferty
  approximation, within a few tenths of a percent at the degrees of freedom met here.
- **Shrunken strengths** (empirical Bayes): each strength times
  :math:`\\tau^2 / (\\tau^2 + se^2)`, the best guess of the true strength given the spread.
- **Split-half reliability**: the strengths fitted on the even-numbered games against
  those fitted on the odd ones, their correlation stepped up to the whole data
  (Spearman-Brown). Near 0: the ranking is noise; near 1: another set of games would
  rank alike. Below :data:`RANKABLE` the report says the data cannot rank the setups.
- **Significant, against a null**: how many setups' intervals exclude the side's average,
  beside how many do when every setup is equal (games simulated on the same pairs with the
  observed first-move advantage and draw rate, fitted the same way): its mean and 95th
  percentile.

>>> import random
>>> rng = random.Random(1)
>>> strong = {"a": 1.2, "b": 0.4, "c": -0.4, "d": -1.2}
>>> results = []
>>> for _ in range(400):
...     for s, v in strong.items():
...         for n in "xy":
...             p = 1 / (1 + 2.718281828 ** -v)
...             results.append((s, n, 1.0 if rng.random() < p else 0.0))
>>> r = split_half(results, Side.SOUTH)
>>> r > 0.9
True
"""

from __future__ import annotations

import dataclasses
import math
import random
from collections.abc import Sequence
from statistics import NormalDist

from gyges.engine.stats import Z95
from gyges.game.rules import Side
from gyges.setups.selfplay.strengths import Rating, StrengthFit, fit_strengths

__all__ = ["RANKABLE", "NullCount", "Spread", "correlation", "null_significant",
           "permutation_p", "split_half", "true_spread"]

#: The split-half reliability below which the report says the data cannot rank setups.
RANKABLE = 0.5

Result = tuple[str, str, float]


@dataclasses.dataclass(frozen=True)
class Spread:
    """One side's true spread: ``tau`` (Elo, the standard deviation of the true
    strengths) with its 95% interval ``low``..``high``, and each setup's shrunken
    strength (Elo, strongest first)."""

    side: Side
    tau: float
    low: float
    high: float
    shrunken: tuple[tuple[str, float], ...]


def _errors(ratings: Sequence[Rating]) -> list[float]:
    return [max((r.high - r.low) / (2 * Z95), 1e-9) for r in ratings]


def _q(values: Sequence[float], errors: Sequence[float], tau2: float) -> float:
    """Cochran's Q of centred values at the between-setup variance ``tau2``."""
    w = [1.0 / (e * e + tau2) for e in errors]
    mean = sum(wi * v for wi, v in zip(w, values, strict=True)) / sum(w)
    return sum(wi * (v - mean) ** 2 for wi, v in zip(w, values, strict=True))


def _chi2_quantile(p: float, df: int) -> float:
    """The chi-square quantile (Wilson-Hilferty)."""
    z = NormalDist().inv_cdf(p)
    a = 2.0 / (9.0 * df)
    return df * max(1.0 - a + z * math.sqrt(a), 0.0) ** 3


def _tau2_at(q_wanted: float, values: Sequence[float], errors: Sequence[float]) -> float:
    """The ``tau2`` at which Q equals ``q_wanted`` (Q falls as tau2 grows, toward 0); 0 if
    Q is below it already at 0, infinite if it is never (too few setups to bound it)."""
    if _q(values, errors, 0.0) <= q_wanted:
        return 0.0
    lo, hi = 0.0, 1.0
    while _q(values, errors, hi) > q_wanted:
        hi *= 4.0
        if hi > 1e12:
            return math.inf
    for _ in range(100):
        mid = (lo + hi) / 2
        if _q(values, errors, mid) > q_wanted:
            lo = mid
        else:
            hi = mid
    return (lo + hi) / 2


def true_spread(ratings: Sequence[Rating]) -> Spread:
    """The side's true spread and shrunken strengths, from its ratings (one side's, as a
    :class:`~gyges.setups.selfplay.strengths.StrengthFit` gives them)."""
    values = [r.strength for r in ratings]
    errors = _errors(ratings)
    k = len(values)
    if k < 2:
        raise ValueError("a spread needs at least two setups")
    mean = sum(values) / k
    tau2 = max(0.0, sum((v - mean) ** 2 for v in values) / (k - 1)
               - sum(e * e for e in errors) / k)
    df = k - 1
    low2 = _tau2_at(_chi2_quantile(0.975, df), values, errors)
    high2 = _tau2_at(_chi2_quantile(0.025, df), values, errors)
    shrunken = sorted(((r.setup, mean + (r.strength - mean) * tau2 / (tau2 + e * e))
                       for r, e in zip(ratings, errors, strict=True)),
                      key=lambda t: (-t[1], t[0]))
    side = ratings[0].side
    return Spread(side, math.sqrt(tau2), math.sqrt(low2), math.sqrt(high2), tuple(shrunken))


def split_half(results: Sequence[Result], side: Side) -> float:
    """The split-half reliability of ``side``'s strengths: fitted on the even-numbered and
    on the odd-numbered ``results``, the correlation over the setups in both, stepped up
    by Spearman-Brown (``2r / (1 + r)``; a negative correlation is reported as it is)."""
    halves = [fit_strengths(results[i::2]) for i in (0, 1)]
    a, b = ({r.setup: r.strength for r in h.ratings(side)} for h in halves)
    common = sorted(set(a) & set(b))
    if len(common) < 3:
        raise ValueError("a split-half reliability needs at least three setups in each half")
    x, y = [a[s] for s in common], [b[s] for s in common]
    r = correlation(x, y)
    return 2 * r / (1 + r) if r > 0 else r


def correlation(x: Sequence[float], y: Sequence[float]) -> float:
    """Pearson's correlation of ``x`` and ``y`` (0 when either does not vary)."""
    mx, my = sum(x) / len(x), sum(y) / len(y)
    sxy = sum((a - mx) * (b - my) for a, b in zip(x, y, strict=True))
    sxx = sum((a - mx) ** 2 for a in x)
    syy = sum((b - my) ** 2 for b in y)
    return sxy / math.sqrt(sxx * syy) if sxx > 0 and syy > 0 else 0.0


def permutation_p(x: Sequence[float], y: Sequence[float], permutations: int, seed: int
                  ) -> float:
    """The two-sided permutation p-value of the correlation of ``x`` and ``y``: the share
    of ``permutations`` shuffles of ``x`` (seeded by ``seed``: the same on every run) whose
    correlation with ``y`` is at least as far from 0, counting the data's own.

    >>> up, down = [1, 2, 3, 4, 5, 6], [6, 5, 4, 3, 2, 1]
    >>> permutation_p(up, up, 999, 1) < 0.01
    True
    >>> permutation_p(up, up, 999, 1) == permutation_p(down, up, 999, 1)
    True
    """
    r = correlation(x, y)
    shuffled = list(x)
    rng = random.Random(seed)
    as_far = 0
    for _ in range(permutations):
        rng.shuffle(shuffled)
        as_far += abs(correlation(shuffled, y)) >= abs(r) - 1e-12
    return (as_far + 1) / (permutations + 1)


@dataclasses.dataclass(frozen=True)
class NullCount:
    """How many of ``side``'s setups differ significantly from the side's average: in
    the data (``observed``), and when every setup is equal (``null_mean`` and its 95th
    percentile ``null_95``, over ``rounds`` simulated sets of games)."""

    side: Side
    observed: int
    null_mean: float
    null_95: int
    rounds: int


def _significant(fit: StrengthFit, side: Side) -> int:
    return sum(1 for r in fit.ratings(side) if r.low > 0 or r.high < 0)


def null_significant(results: Sequence[Result], fit: StrengthFit, rounds: int = 100,
                     seed: int = 0) -> tuple[NullCount, NullCount]:
    """South's and North's :class:`NullCount`: the games replayed ``rounds`` times on the
    same pairs with every setup equal (South's win and draw rates as observed), each set
    fitted as the data was (seeded: the same figures every time)."""
    n = len(results)
    draws = sum(1 for r in results if r[2] == 0.5) / n
    wins = sum(1 for r in results if r[2] == 1.0) / n
    rng = random.Random(seed)
    counts: dict[Side, list[int]] = {Side.SOUTH: [], Side.NORTH: []}
    for _ in range(rounds):
        sim = []
        for s, north, _ in results:
            u = rng.random()
            sim.append((s, north, 1.0 if u < wins else 0.5 if u < wins + draws else 0.0))
        f = fit_strengths(sim, fit.ridge)
        for side in counts:
            counts[side].append(_significant(f, side))

    def summary(side: Side) -> NullCount:
        c = sorted(counts[side])
        return NullCount(side, _significant(fit, side), sum(c) / rounds,
                         c[min(rounds - 1, math.ceil(0.95 * rounds) - 1)], rounds)

    return summary(Side.SOUTH), summary(Side.NORTH)
