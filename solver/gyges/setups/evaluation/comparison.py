"""Two evaluation files of the same pairs set side by side (``setups compare``): do two
searches of the pairs (two evaluations, two budgets, two engines) tell the same story?

A setup's average (:class:`~gyges.setups.evaluation.summary.EvaluationTable`) is a
property of the setup only if another good search finds it too. So for each side the
averages of the two files are correlated over the setups both hold, one of each setup and
its mirror (the two have the same average), with a two-sided permutation p-value (the
first file's averages shuffled among the setups, seeded: the same on every run); the
pairs' own values likewise, one of each pair and its mirror; and the two files' top
setups are compared. The verdict on each side is made from those numbers: the files
agree (a positive correlation, p below 0.05), disagree (a negative one), or the data
cannot tell (p of 0.05 or more): then each file's ranking of the setups is its search's,
not one a second search confirms.

>>> a = [{"south": s, "north": n, "south_win": 0.5 + 0.01 * i - 0.02 * j}
...      for i, s in enumerate(["112233", "121233", "122133", "123123"])
...      for j, n in enumerate(["112233", "121233", "122133"])]
>>> c = compare_evaluations(EvaluationTable.of(a), EvaluationTable.of(a))
>>> c.pairs, round(c.pair_r, 3), [(s.setups, round(s.r, 3)) for s in c.sides]
(12, 1.0, [(4, 1.0), (3, 1.0)])
"""

from __future__ import annotations

import dataclasses
import statistics
from collections.abc import Mapping
from typing import Any

from gyges.game.position import mirror_setup
from gyges.setups.evaluation.summary import EvaluationTable
from gyges.setups.selfplay.reliability import correlation, permutation_p

__all__ = ["EvaluationComparison", "SideComparison", "compare_evaluations",
           "comparison_report"]

#: Shuffles of the permutation test, and its seed.
PERMUTATIONS = 2000
_SEED = 20261129
#: The p-value below which two files are said to agree (or disagree).
ALPHA = 0.05
_SIDES = ("south", "north")


@dataclasses.dataclass(frozen=True)
class SideComparison:
    """One side's setups in two files: over ``setups`` setups (one of each setup and its
    mirror), the correlation ``r`` of their averages and its permutation ``p``, and how
    many of each file's ``top`` best setups are among the other's ``top`` best
    (``top_shared``)."""

    side: str
    setups: int
    r: float
    p: float
    top: int
    top_shared: int

    @property
    def verdict(self) -> str:
        """``agree``, ``disagree`` or ``cannot tell`` (see the module)."""
        if self.p >= ALPHA or self.setups < 3:
            return "cannot tell"
        return "agree" if self.r > 0 else "disagree"


@dataclasses.dataclass(frozen=True)
class EvaluationComparison:
    """Two files' pairs and setups compared: ``pairs`` pairs in both (one of each pair
    and its mirror), the correlation ``pair_r`` of South's win probability in them and
    its permutation ``pair_p``, South's mean win probability over those pairs in each
    file, and each side's :class:`SideComparison`."""

    pairs: int
    pair_r: float
    pair_p: float
    south_mean: tuple[float, float]
    sides: tuple[SideComparison, SideComparison]


def _one_of_mirrors(keys: set[Any], mirror: Any) -> list[Any]:
    """The keys of ``keys`` that are not a mirror of an earlier one (sorted)."""
    return sorted(k for k in keys if k <= mirror(k))


def _mirror_pair(pair: tuple[str, str]) -> tuple[str, str]:
    return mirror_setup(pair[0]), mirror_setup(pair[1])


def compare_evaluations(a: EvaluationTable, b: EvaluationTable, top: int = 5,
                        permutations: int = PERMUTATIONS) -> EvaluationComparison:
    """The :class:`EvaluationComparison` of tables ``a`` and ``b`` over what both hold
    (a setup's averages over the pairs both hold)."""
    pairs = _one_of_mirrors(set(a.south_win) & set(b.south_win), _mirror_pair)
    if len(pairs) < 3:
        raise ValueError(f"the two files share {len(pairs)} pairs (a pair and its mirror "
                         "counted once): at least 3 are needed to compare them")
    x = [a.south_win[p] for p in pairs]
    y = [b.south_win[p] for p in pairs]
    # the averages over the common pairs only, so that both files average the same pairs
    common = {p: None for p in pairs} | {_mirror_pair(p): None for p in pairs}
    a_common = EvaluationTable({p: a.south_win[p] for p in common})
    b_common = EvaluationTable({p: b.south_win[p] for p in common})
    sides = []
    for side in _SIDES:
        avg_a, avg_b = a_common.average(side), b_common.average(side)
        setups = _one_of_mirrors(set(avg_a) & set(avg_b), mirror_setup)
        sa = [avg_a[s] for s in setups]
        sb = [avg_b[s] for s in setups]
        r = correlation(sa, sb) if len(setups) >= 3 else 0.0
        p = permutation_p(sa, sb, permutations, _SEED) if len(setups) >= 3 else 1.0
        k = min(top, len(setups))
        best_a = set(sorted(setups, key=lambda s: (-avg_a[s], s))[:k])
        best_b = set(sorted(setups, key=lambda s: (-avg_b[s], s))[:k])
        sides.append(SideComparison(side, len(setups), r, p, k, len(best_a & best_b)))
    return EvaluationComparison(len(pairs), correlation(x, y),
                                permutation_p(x, y, permutations, _SEED),
                                (statistics.fmean(x), statistics.fmean(y)),
                                (sides[0], sides[1]))


def _p(p: float) -> str:
    return f"p = {p:.3f}" if p >= 0.001 else "p < 0.001"


def comparison_report(first: tuple[str, Mapping[str, Any]],
                      second: tuple[str, Mapping[str, Any]],
                      c: EvaluationComparison) -> str:
    """The report of :func:`compare_evaluations`: each file (``(path, params)``) with
    its search and engine, then the pairs', the first move's and each side's
    comparison, each side's ending in its verdict in words."""
    lines = []
    for name, (path, params) in zip("AB", (first, second), strict=True):
        lines.append(f"{name}: {path}: {params['nodes']:,} nodes a pair, proof horizon "
                     f"{params['prove']}, {params['engine']}")
    lines += ["", f"{c.pairs:,} pairs in both (a pair and its mirror counted once): South's "
                  f"win probability correlates at r = {c.pair_r:.2f} ({_p(c.pair_p)}, "
                  f"{PERMUTATIONS:,} permutations)",
              f"South's mean win probability over them (the first move's advantage): "
              f"A {c.south_mean[0]:.3f}, B {c.south_mean[1]:.3f}"]
    for s in c.sides:
        title = s.side.title()
        lines += ["", f"{title}'s setups ({s.setups}, a setup and its mirror counted once): "
                      f"their averages correlate at r = {s.r:.2f} ({_p(s.p)}); "
                      f"{s.top_shared} of A's {s.top} best are among B's {s.top} best"]
        if s.verdict == "agree":
            words = (f"the two searches tend to order the {title} setups alike (r above "
                     f"0 at the {ALPHA:g} level; 1 would be the same order)")
        elif s.verdict == "disagree":
            words = (f"the two searches rank the {title} setups in opposite orders "
                     f"(r below 0 at the {ALPHA:g} level)")
        else:
            words = (f"the data cannot tell whether the two searches rank the {title} "
                     f"setups alike: each one's order is its own search's, which the "
                     f"other does not confirm")
        lines.append(f"  so {words}")
    return "\n".join(lines) + "\n"
