"""Match statistics: wins, draws and losses, the score, the Elo difference with its 95 %
interval, and the sequential probability ratio test (SPRT) that can stop a match early.

A match plays each opening twice, the sides swapped, so its games come in pairs whose
results are not independent (a lopsided opening tends to be won by whoever has the
better side of it, in both games). As chess engine testing does (Fishtest, cutechess),
the statistics of a match count pairs, not games: the **pentanomial** model, the pairs
by their score (the first engine's points in the two games: 0, 0.5, 1, 1.5 or 2).
Games that are not in pairs (the self-play of ``setups rank``, each game on its own) are
counted one by one: the **trinomial** model, wins, draws and losses. In a match, a game
whose partner is missing (an odd number of games, or a match interrupted between the
two) is counted in the wins, draws and losses but left out of the statistics, and the
summary says so.

The score ``s`` is the mean points per game (a draw half) over the samples (pairs, or
games); its variance is the samples' variance, so in a match it includes the
correlation of a pair's two games. The Elo difference of a score is
``-400 log10(1 / s - 1)``; its 95 % interval maps the score's normal interval
``s ± 1.96 sqrt(var / n)`` the same way.

The SPRT weighs "the difference is ``elo1``" (H1) against "it is ``elo0``" (H0), both in
logistic Elo, by the generalized SPRT's normal approximation of the log-likelihood ratio,

    LLR = n (s1 - s0) (2 s - s0 - s1) / (2 var)

with ``n`` samples (pairs in a match) of mean ``s`` and variance ``var`` (of a sample's
points per game), ``s0`` and ``s1`` the scores of ``elo0`` and ``elo1``; it stops when
the LLR leaves ``[log(beta / (1 - alpha)), log((1 - beta) / alpha)]``. This is the
logistic-Elo GSPRT of Fishtest and cutechess (M. Van den Bergh, "A practical
introduction to the GSPRT", https://www.cantate.be/Fishtest/GSPRT_approximation.pdf,
and Fishtest's ``stat_util.py``) on the pentanomial frequencies.

>>> t = Tally(60, 20, 20)
>>> t.games, t.score, round(t.elo(), 1)
(100, 0.7, 147.2)
>>> [round(x, 1) for x in t.elo_interval()]
[86.2, 218.3]
>>> Sprt(0, 50).decide(Tally(60, 20, 20))
'H1'
>>> m = Tally.of_pairs({1: 1.0, 2: 0.0, 3: 1.0, 4: 0.5, 5: 1.0})
>>> m.wins, m.draws, m.losses, m.pairs, m.unpaired
(3, 1, 1, (0, 0, 1, 1, 0), 1)
>>> m.pairs_text()
'pairs: 0-2 0, 0.5-1.5 0, 1-1 1, 1.5-0.5 1, 2-0 0; 1 game without its partner, left out'
"""

from __future__ import annotations

import dataclasses
import math
from collections.abc import Iterable, Mapping

__all__ = ["PAIR_SCORES", "Z95", "Sprt", "Tally", "elo_of_score", "score_change",
           "score_of_elo"]

#: The normal quantile of a two-sided 95 % interval.
Z95 = 1.959964
#: The score of a pair of games, the first engine's points in the two, as written in
#: :meth:`Tally.pairs_text`.
PAIR_SCORES = ("0-2", "0.5-1.5", "1-1", "1.5-0.5", "2-0")


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
    """One engine's wins, draws and losses against another, and, for games played in
    pairs (one opening, the sides swapped), ``pairs``: how many complete pairs scored
    0, 0.5, 1, 1.5 and 2 points (None: the games are independent, counted one by one).
    """

    wins: int = 0
    draws: int = 0
    losses: int = 0
    pairs: tuple[int, int, int, int, int] | None = None

    def __post_init__(self) -> None:
        if min(self.wins, self.draws, self.losses) < 0:
            raise ValueError("game counts cannot be negative")
        if self.pairs is not None:
            if len(self.pairs) != 5 or min(self.pairs) < 0:
                raise ValueError("pair counts are five counts, none negative")
            if 2 * sum(self.pairs) > self.games:
                raise ValueError("more games in pairs than games")

    @classmethod
    def of_games(cls, points: Iterable[float]) -> Tally:
        """Independent games by their points (1, 0.5, 0).

        >>> Tally.of_games([1, 0.5, 1, 0])
        Tally(wins=2, draws=1, losses=1, pairs=None)
        """
        counts = [0, 0, 0]
        for p in points:
            counts[_result_index(p)] += 1
        return cls(counts[0], counts[1], counts[2])

    @classmethod
    def of_pairs(cls, points: Mapping[int, float]) -> Tally:
        """A match's games by number (from 1) and the first engine's points: games
        ``2k - 1`` and ``2k`` are a pair."""
        t = cls(pairs=(0, 0, 0, 0, 0))
        for n in sorted(points):
            partner = points.get(n - 1) if n % 2 == 0 else None
            t = t.add_game(points[n], partner)
        return t

    def add_game(self, points: float, partner: float | None = None) -> Tally:
        """The tally with one more game of ``points``; ``partner``: the points of the
        other game of its pair, already counted, which the two now complete (a paired
        tally only)."""
        counts = [self.wins, self.draws, self.losses]
        counts[_result_index(points)] += 1
        pairs = self.pairs
        if partner is not None:
            if pairs is None:
                raise ValueError("a tally of independent games has no pairs")
            k = round(2 * (points + partner))
            pairs = tuple(c + (i == k) for i, c in enumerate(pairs))  # type: ignore[assignment]
        return Tally(counts[0], counts[1], counts[2], pairs)

    def __add__(self, other: Tally) -> Tally:
        if (self.pairs is None) != (other.pairs is None):
            raise ValueError("a tally of pairs and one of independent games do not add")
        pairs = None if self.pairs is None or other.pairs is None else tuple(
            a + b for a, b in zip(self.pairs, other.pairs, strict=True))
        return Tally(self.wins + other.wins, self.draws + other.draws,
                     self.losses + other.losses, pairs)  # type: ignore[arg-type]

    @property
    def games(self) -> int:
        return self.wins + self.draws + self.losses

    @property
    def paired(self) -> bool:
        return self.pairs is not None

    @property
    def unpaired(self) -> int:
        """Games without their partner (left out of the statistics of pairs)."""
        return 0 if self.pairs is None else self.games - 2 * sum(self.pairs)

    def _samples(self) -> list[tuple[float, int]]:
        """The samples the statistics count, as (points per game, how many): pairs, or
        games."""
        if self.pairs is not None:
            return [(k / 4, n) for k, n in enumerate(self.pairs)]
        return [(1.0, self.wins), (0.5, self.draws), (0.0, self.losses)]

    @property
    def samples(self) -> int:
        """How many samples the statistics count: complete pairs, or games."""
        return sum(n for _, n in self._samples())

    @property
    def score(self) -> float:
        """Points per game (a draw half) over the samples; 0.5 with none."""
        n = self.samples
        if not n:
            return 0.5
        return sum(x * c for x, c in self._samples()) / n

    def variance(self) -> float:
        """The variance of a sample's points per game (a pair's: the mean of its two)."""
        n = self.samples
        if not n:
            return 0.0
        s = self.score
        return sum(c * (x - s) ** 2 for x, c in self._samples()) / n

    def score_interval(self, z: float = Z95) -> tuple[float, float]:
        """The score's interval (normal approximation), clipped to [0, 1]."""
        if not self.samples:
            return 0.0, 1.0
        half = z * math.sqrt(self.variance() / self.samples)
        return max(0.0, self.score - half), min(1.0, self.score + half)

    def wilson_interval(self, z: float = Z95) -> tuple[float, float]:
        """The score's Wilson interval over the games (a draw half a point): for a few
        games, where the normal approximation collapses (every game won, or lost, gives an
        interval of width 0), it stays honest.

        >>> lo, hi = Tally(0, 0, 3).wilson_interval()
        >>> round(lo, 3), round(hi, 3)
        (0.0, 0.561)
        """
        n = self.wins + self.draws + self.losses
        if n == 0:
            return 0.0, 1.0
        p = (self.wins + 0.5 * self.draws) / n
        centre = (p + z * z / (2 * n)) / (1 + z * z / n)
        half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / (1 + z * z / n)
        return max(0.0, centre - half), min(1.0, centre + half)

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

    def pairs_text(self) -> str:
        """The pairs by their score, and the games without their partner."""
        if self.pairs is None:
            return "independent games (no pairs)"
        text = "pairs: " + ", ".join(f"{label} {n}"
                                     for label, n in zip(PAIR_SCORES, self.pairs, strict=True))
        if self.unpaired:
            text += (f"; {self.unpaired} game{'s' if self.unpaired != 1 else ''} without "
                     "its partner, left out")
        return text


def _result_index(points: float) -> int:
    if points not in (0, 0.5, 1):
        raise ValueError(f"a game's points are 0, 0.5 or 1, not {points}")
    return {1: 0, 0.5: 1, 0: 2}[points]


def _signed(x: float) -> str:
    if math.isinf(x):
        return "+inf" if x > 0 else "-inf"
    return f"{x:+.0f}"


@dataclasses.dataclass(frozen=True)
class Sprt:
    """A sequential test of "``elo1`` better" (H1) against "``elo0``" (H0) with error
    rates ``alpha`` (accepting H1 when H0 holds) and ``beta``: the logistic-Elo GSPRT
    (the module's text), on pairs for a tally of pairs. It decides nothing before
    ``min_games`` games: the normal approximation under the GSPRT is poor on a handful of
    samples (six pairs won 2-0 cross an upper bound of 2.94), and a match that must
    also say how large the difference is needs games enough for an interval.

    >>> Sprt(100, 150).decide(Tally(12, 0, 0, (0, 0, 0, 0, 6)))
    'H1'
    >>> Sprt(100, 150, min_games=200).decide(Tally(12, 0, 0, (0, 0, 0, 0, 6))) is None
    True
    """

    elo0: float
    elo1: float
    alpha: float = 0.05
    beta: float = 0.05
    min_games: int = 0

    def __post_init__(self) -> None:
        if not self.elo0 < self.elo1:
            raise ValueError(f"the SPRT needs elo0 < elo1, not {self.elo0} and {self.elo1}")
        if not (0 < self.alpha < 1 and 0 < self.beta < 1):
            raise ValueError("the SPRT's error rates lie between 0 and 1")
        if self.min_games < 0:
            raise ValueError(f"the SPRT's least number of games is 0 or more, not "
                             f"{self.min_games}")

    def bounds(self) -> tuple[float, float]:
        return (math.log(self.beta / (1 - self.alpha)),
                math.log((1 - self.beta) / self.alpha))

    def llr(self, tally: Tally) -> float:
        """The log-likelihood ratio of H1 against H0 after ``tally``.

        Samples that all ended alike have no variance: they are weighed as if one more
        had been even (a drawn game, or a pair 1-1), so that a run of wins (or losses)
        decides, and one sample alone does not; samples that were all even, as if one
        more had been won and one more lost.

        >>> s = Sprt(0, 50)
        >>> [s.decide(Tally(n, 0, 0)) for n in (1, 3, 4)], s.decide(Tally(0, 0, 4))
        ([None, None, 'H1'], 'H0')
        >>> [s.decide(Tally(2 * n, 0, 0, (0, 0, 0, 0, n))) for n in (1, 4)]
        [None, 'H1']
        >>> s.decide(Tally(1, 0, 1, (0, 0, 1, 0, 0))), s.decide(Tally(0, 3, 0))
        (None, None)
        """
        if tally.samples == 0:
            return 0.0
        if tally.variance() <= 0:
            if tally.score == 0.5:
                tally = tally + (Tally(2, 0, 2, (1, 0, 0, 0, 1)) if tally.paired
                                 else Tally(1, 0, 1))
            else:
                tally = tally + (Tally(1, 0, 1, (0, 0, 1, 0, 0)) if tally.paired
                                 else Tally(0, 1, 0))
        var = tally.variance()
        s0, s1 = score_of_elo(self.elo0), score_of_elo(self.elo1)
        return tally.samples * (s1 - s0) * (2 * tally.score - s0 - s1) / (2 * var)

    def decide(self, tally: Tally) -> str | None:
        """``"H1"``, ``"H0"``, or None (play on; always before ``min_games`` games)."""
        if tally.games < self.min_games:
            return None
        lower, upper = self.bounds()
        llr = self.llr(tally)
        if llr >= upper:
            return "H1"
        if llr <= lower:
            return "H0"
        return None


def score_change(a: Tally, b: Tally, z: float = Z95) -> tuple[float, float, float]:
    """The change of the score from ``a`` to ``b`` (independent samples) and its
    interval (normal approximation).

    >>> d, lo, hi = score_change(Tally(50, 0, 50), Tally(70, 0, 30))
    >>> round(d, 2), round(lo, 3), round(hi, 3)
    (0.2, 0.067, 0.333)
    """
    d = b.score - a.score
    se = math.sqrt(a.variance() / max(a.samples, 1) + b.variance() / max(b.samples, 1))
    return d, d - z * se, d + z * se
