"""The validation block: games that test the evaluations' strongest claim, that their best
setups beat their worst ones.

For each side, the ``count`` best and the ``count`` worst of its setups by the evaluations'
averages (one of each setup and its mirror, which are one setup) each play the ``count``
setups of the other side whose averages are nearest the middle
(:func:`validation_pairs`). The games of those pairs (``setups rank --pairs``) then give
each block's score for the best group and for the worst, and the gap between them with
its 95% interval, beside the gap the evaluations predict for the same pairs
(:func:`validation_report`): the games confirm the evaluations when the interval lies
above zero, contradict them when it lies below, and cannot tell otherwise; and where the
interval leaves the predicted gap out, the report says the gap is smaller (or larger)
than the evaluations predict.

>>> value = {"112233": 0.1, "121233": 0.2, "123123": 0.3}
>>> records = [{"south": s, "north": n, "south_win": 0.5 + value[s] - value[n]}
...            for s in value for n in value]
>>> validation_pairs(EvaluationTable.of(records), count=1)
[('112233', '121233'), ('121233', '112233'), ('121233', '123123'), ('123123', '121233')]
"""

from __future__ import annotations

import math
import textwrap
from collections.abc import Mapping, Sequence
from typing import Any

from gyges.engine.stats import Z95
from gyges.game.position import mirror_setup
from gyges.setups.evaluation.summary import EvaluationTable

__all__ = ["COUNT", "validation_pairs", "validation_report", "validation_sentences"]

#: Setups in each group (the best, the worst, the opponents): 8 x 2 x 8 = 128 pairs a side.
COUNT = 8
_SIDES = ("south", "north")
_WIDTH = 92


def _folded(table: EvaluationTable, side: str) -> dict[str, float]:
    """``side``'s setups by their average, one of each setup and its mirror."""
    return {s: v for s, v in table.average(side).items() if s <= mirror_setup(s)}


def _groups(table: EvaluationTable, side: str, count: int
            ) -> tuple[list[str], list[str], list[str]]:
    """``side``'s ``count`` best and worst setups and the other side's ``count`` middle
    ones (ties by name)."""
    mine = _folded(table, side)
    order = sorted(mine, key=lambda s: (-mine[s], s))
    other = _folded(table, _SIDES[1 - _SIDES.index(side)])
    middle_value = sorted(other.values())[len(other) // 2]
    middle = sorted(other, key=lambda s: (abs(other[s] - middle_value), s))[:count]
    return order[:count], order[-count:], sorted(middle)


def validation_pairs(table: EvaluationTable, count: int = COUNT) -> list[tuple[str, str]]:
    """The pairs of the validation block, South's setup first, sorted."""
    if count < 1:
        raise ValueError(f"count {count}: give at least 1")
    pairs = set()
    for side in _SIDES:
        best, worst, middle = _groups(table, side, count)
        for mine in (*best, *worst):
            for other in middle:
                pairs.add((mine, other) if side == "south" else (other, mine))
    return sorted(pairs)


def _points(side: str, result: str) -> float:
    return 0.5 if result == "draw" else float(result == side)


def validation_sentences(table: EvaluationTable, games: Sequence[Mapping[str, Any]],
                         count: int = COUNT) -> dict[str, tuple[str, str, bool]]:
    """By side (``south``, ``north``): its sentence of the report, its verdict
    (``confirm``, ``contradict``, ``cannot tell`` or ``no games``) and whether the gap
    is smaller than the evaluations predict (its interval below their figure)."""
    out = {}
    for side in _SIDES:
        best, worst, middle = _groups(table, side, count)
        i = _SIDES.index(side)
        scores: dict[str, list[float]] = {"best": [], "worst": []}
        predicted: dict[str, list[float]] = {"best": [], "worst": []}
        for name, group in (("best", best), ("worst", worst)):
            for g in games:
                pair = (g["south"], g["north"])
                if pair[i] in group and pair[1 - i] in middle:
                    scores[name].append(_points(side, g["result"]))
            for s in group:
                for o in middle:
                    pair = (s, o) if i == 0 else (o, s)
                    if pair in table.south_win:       # (a partial table lacks some)
                        predicted[name].append(table.side_value(side, pair))
        title = side.title()
        if not scores["best"] or not scores["worst"]:
            out[side] = (f"{title}: no games of the block yet.", "no games", False)
            continue
        b, w = (sum(v) / len(v) for v in (scores["best"], scores["worst"]))
        se = math.sqrt(b * (1 - b) / len(scores["best"])
                       + w * (1 - w) / len(scores["worst"]))
        gap = b - w
        low, high = gap - Z95 * se, gap + Z95 * se
        expect = (sum(predicted["best"]) / len(predicted["best"])
                  - sum(predicted["worst"]) / len(predicted["worst"])
                  if predicted["best"] and predicted["worst"] else math.nan)
        verdict = "confirm" if low > 0 else "contradict" if high < 0 else "cannot tell"
        words = {"confirm": "the games confirm the evaluations' best and worst",
                 "contradict": "the games contradict the evaluations' best and worst",
                 "cannot tell": "the games cannot tell the evaluations' best from their "
                                "worst"}[verdict]
        size = ""
        if math.isfinite(expect) and not low <= expect <= high:
            size = (f", and the gap is {'smaller' if high < expect else 'larger'} than the "
                    "evaluations predict (its interval leaves their figure out)")
        text = (f"{title}: the best {count} score {100 * b:.1f}% in "
                f"{len(scores['best']):,} games, the worst {count} {100 * w:.1f}% in "
                f"{len(scores['worst']):,}: a gap of {100 * gap:+.1f} points (95% interval "
                f"{100 * low:+.1f} to {100 * high:+.1f}), where the evaluations predict "
                + (f"{100 * expect:+.1f}" if math.isfinite(expect) else
                   "nothing (they hold none of these pairs)") + f"; {words}{size}.")
        out[side] = (text, verdict, math.isfinite(expect) and high < expect)
    return out


def validation_report(table: EvaluationTable, games: Sequence[Mapping[str, Any]],
                      count: int = COUNT) -> str:
    """For each side: the best group's and the worst group's score in the block's games,
    the gap with its 95% interval, the gap the evaluations predict, and what it says."""
    out = [f"The validation block: each side's {count} best and {count} worst setups by the "
           f"evaluations, against the other side's {count} middle ones", ""]
    for text, _, _ in validation_sentences(table, games, count).values():
        out += [*textwrap.wrap(text, _WIDTH), ""]
    return "\n".join(out).rstrip("\n") + "\n"
