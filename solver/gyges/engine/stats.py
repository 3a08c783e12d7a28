"""Match statistics: wins, draws and losses, the score, the Elo difference with its 95 %
interval, and the sequential probability ratio test (SPRT) that can stop a match early.

The Elo difference of a score ``s`` (draws counting half) is ``-400 log10(1 / s - 1)``;
its interval maps the score's normal interval (the per-game variance of the observed
wins, draws and losses) the same way. The SPRT weighs "the difference is ``elo1``"
against "it is ``elo0``" by the log-likelihood ratio of the normal approximation of the
score (as chess engine testing frameworks do), stopping when it leaves
``[log(beta / (1 - alpha)), log((1 - beta) / alpha)]``.

>>> t = Tally(60, 20, 20)
>>> t.games, t.score, round(t.elo(), 1)
(100, 0.7, 147.2)
>>> [round(x, 1) for x in t.elo_interval()]
[86.2, 218.3]
>>> Sprt(0, 50).decide(Tally(60, 20, 20))
'H1'
"""

from __future__ import annotations

import dataclasses
import math

__all__ = ["Sprt", "Tally", "elo_of_score", "score_of_elo"]

#: The normal quantile of a two-sided 95 % interval.
Z95 = 1.959964


def elo_of_score(score: float) -> float:
    """The Elo difference that gives an expected ``score`` (infinite at 0 and 1).

    >>> round(elo_of_score(0.65), 1), elo_of_score(0.5)
    (107.5, 0.0)
    """
    if score <= 0:
        return -math.inf
    if score >= 1:
        return math.inf
    return -400.0 * math.log10(1.0 / score - 1.0) + 0.0


def score_of_elo(elo: float) -> float:
    """The expected score of a side ``elo`` points stronger.

    >>> round(score_of_elo(107.5), 3)
    0.65
    """
    return 1.0 / (1.0 + 10.0 ** (-elo / 400.0))


@dataclasses.dataclass(frozen=True)
class Tally:
    """One engine's wins, draws and losses against another."""

    wins: int = 0
    draws: int = 0
    losses: int = 0

    def __post_init__(self) -> None:
        if min(self.wins, self.draws, self.losses) < 0:
            raise ValueError("game counts cannot be negative")

    def __add__(self, other: Tally) -> Tally:
        return Tally(self.wins + other.wins, self.draws + other.draws,
                     self.losses + other.losses)

    @property
    def games(self) -> int:
        return self.wins + self.draws + self.losses

    @property
    def score(self) -> float:
        """Points per game (a draw half a point); 0.5 with no game."""
        if not self.games:
            return 0.5
        return (self.wins + 0.5 * self.draws) / self.games

    def variance(self) -> float:
        """The per-game variance of the points."""
        if not self.games:
            return 0.0
        s, n = self.score, self.games
        return (self.wins * (1 - s) ** 2 + self.draws * (0.5 - s) ** 2
                + self.losses * s ** 2) / n

    def score_interval(self, z: float = Z95) -> tuple[float, float]:
        """The score's interval (normal approximation), clipped to [0, 1]."""
        if not self.games:
            return 0.0, 1.0
        half = z * math.sqrt(self.variance() / self.games)
        return max(0.0, self.score - half), min(1.0, self.score + half)

    def elo(self) -> float:
        return elo_of_score(self.score)

    def elo_interval(self, z: float = Z95) -> tuple[float, float]:
        """The Elo difference's 95 % interval (for another ``z``, another level)."""
        lo, hi = self.score_interval(z)
        return elo_of_score(lo), elo_of_score(hi)

    def summary(self) -> str:
        """``+W =D -L``, the score and the Elo difference with its interval.

        >>> Tally(60, 20, 20).summary()
        '+60 =20 -20 (100 games): score 70.0%, Elo +147 [+86, +218]'
        """
        lo, hi = self.elo_interval()
        return (f"+{self.wins} ={self.draws} -{self.losses} ({self.games} games): "
                f"score {100 * self.score:.1f}%, Elo {_signed(self.elo())} "
                f"[{_signed(lo)}, {_signed(hi)}]")


def _signed(x: float) -> str:
    if math.isinf(x):
        return "+inf" if x > 0 else "-inf"
    return f"{x:+.0f}"


@dataclasses.dataclass(frozen=True)
class Sprt:
    """A sequential test of "``elo1`` better" (H1) against "``elo0``" (H0) with error
    rates ``alpha`` (accepting H1 when H0 holds) and ``beta``."""

    elo0: float
    elo1: float
    alpha: float = 0.05
    beta: float = 0.05

    def __post_init__(self) -> None:
        if not self.elo0 < self.elo1:
            raise ValueError(f"the SPRT needs elo0 < elo1, not {self.elo0} and {self.elo1}")
        if not (0 < self.alpha < 1 and 0 < self.beta < 1):
            raise ValueError("the SPRT's error rates lie between 0 and 1")

    def bounds(self) -> tuple[float, float]:
        return (math.log(self.beta / (1 - self.alpha)),
                math.log((1 - self.beta) / self.alpha))

    def llr(self, tally: Tally) -> float:
        """The log-likelihood ratio of H1 against H0 after ``tally``.

        Games that all ended alike have no variance: they are weighed as if one more
        game had been drawn, so that a run of wins (or losses) decides, and one game
        alone does not.

        >>> s = Sprt(0, 50)
        >>> [s.decide(Tally(n, 0, 0)) for n in (1, 3, 4)], s.decide(Tally(0, 0, 4))
        ([None, None, 'H1'], 'H0')
        """
        if tally.games == 0:
            return 0.0
        if tally.variance() <= 0:
            tally = tally + Tally(0, 1, 0)
        var = tally.variance()
        s0, s1 = score_of_elo(self.elo0), score_of_elo(self.elo1)
        return tally.games * (s1 - s0) * (2 * tally.score - s0 - s1) / (2 * var)

    def decide(self, tally: Tally) -> str | None:
        """``"H1"``, ``"H0"``, or None (play on)."""
        lower, upper = self.bounds()
        llr = self.llr(tally)
        if llr >= upper:
            return "H1"
        if llr <= lower:
            return "H0"
        return None
