"""Which setup should I choose? The answer the published files give (``setups answer``):
what the engine's evaluations of the pairs say (:mod:`gyges.setups.evaluation`), what the
self-play games confirm (:mod:`gyges.setups.selfplay`), how large the setups' effect is
beside the first move's, and how sure each statement is. Every sentence is made from its
numbers: a test on synthetic data checks that the words follow the figures.

**What the games confirm** is measured twice. For each side, the evaluation's average of
a setup is set beside the strength the games fit to it: their correlation, with a
permutation p-value (the evaluations shuffled among the setups, seeded) and the ceiling
the games' own noise puts on it (the square root of their split-half reliability). And in
the games played from the pair's own start position (round 0, where the evaluation
searched the very position), the evaluation's win probability is scored against the
results (log-loss) beside one probability for every pair (South's overall score there).

**The first move at each strength**: given a strength ladder (one fixed set of pairs played
at several strengths, :mod:`gyges.setups.selfplay.ladder`), South's score at its weakest
and strongest rungs is set beside the evaluations of the same pairs: whether it moves
with strength (the change's 95% interval excludes none), toward the evaluations or away
from them, and whether the strongest rung's interval holds the evaluations' figure.

**Both together** (:mod:`gyges.setups.combined`): each setup's games shrunk toward what
the evaluations predict for it (a Fay-Herriot fit), the best guesses of its strength with
their 95% intervals.

**The short answer**, for each side: where a test of the games (the validation block's
verdict, or the correlation above at the 0.05 level) confirms the evaluations and none
contradicts them, choose the best guess of both together; else the data cannot tell which
setup is best, and what the choice is worth by the evaluations is given (the best setup's
average over the side's average setup, and one standard deviation of setup choice).
"""

from __future__ import annotations

import math
import textwrap
from collections.abc import Mapping, Sequence
from typing import Any

from gyges.engine.stats import Tally, score_change
from gyges.game.rules import Side
from gyges.setups.combined import combined_strengths
from gyges.setups.evaluation.summary import EvaluationTable
from gyges.setups.selfplay.games import describe_limit
from gyges.setups.selfplay.ladder import Rung
from gyges.setups.selfplay.reliability import (
    RANKABLE,
    correlation,
    permutation_p,
    split_half,
    true_spread,
)
from gyges.setups.selfplay.table import GameTable, fold
from gyges.setups.validation import validation_sentences

__all__ = ["PERMUTATIONS", "Agreement", "agreement", "setup_answer"]

#: Shuffles of the permutation test (seeded: the answer is the same on every run).
PERMUTATIONS = 2000
_SEED = 20261127
_WIDTH = 92
_EPS = 1e-6


class Agreement:
    """One side's evaluations against its games: over ``setups`` setups, the correlation
    ``r`` of the evaluation's averages with the games' fitted strengths, its two-sided
    permutation ``p`` value, and the ``ceiling`` the games' reliability puts on it (None
    when the games are no more reliable than noise)."""

    def __init__(self, side: Side, setups: int, r: float, p: float, ceiling: float | None):
        self.side, self.setups, self.r, self.p, self.ceiling = side, setups, r, p, ceiling


def agreement(evaluations: Mapping[str, float], strengths: Mapping[str, float], side: Side,
              reliability: float | None, permutations: int = PERMUTATIONS) -> Agreement:
    """The :class:`Agreement` of ``evaluations`` and ``strengths`` (by setup) of ``side``.

    >>> a = agreement({"a": 0.1, "b": 0.2, "c": 0.3, "d": 0.4}, {"a": 1, "b": 2, "c": 3,
    ...               "d": 4}, Side.SOUTH, 0.64)
    >>> round(a.r, 3), round(a.ceiling, 2), a.p < 0.2
    (1.0, 0.8, True)
    """
    common = sorted(set(evaluations) & set(strengths))
    x = [evaluations[s] for s in common]
    y = [strengths[s] for s in common]
    r = correlation(x, y) if len(common) >= 3 else 0.0
    p = permutation_p(x, y, permutations, _SEED) if len(common) >= 3 else 1.0
    ceiling = math.sqrt(reliability) if reliability is not None and reliability > 0 else None
    return Agreement(side, len(common), r, p, ceiling)


def _log_loss(pairs: Sequence[tuple[float, float]]) -> float:
    total = 0.0
    for p, y in pairs:
        p = min(max(p, _EPS), 1 - _EPS)
        total -= y * math.log(p) + (1 - y) * math.log(1 - p)
    return total / len(pairs)


def _pct(x: float) -> str:
    return f"{100 * x:.1f}%"


def _points(x: float) -> str:
    return f"{100 * x:.1f} points"


def _paragraph(text: str) -> list[str]:
    return [*textwrap.wrap(text, _WIDTH), ""]


def _side_names(side: Side) -> tuple[str, str]:
    return (side.title, "North" if side is Side.SOUTH else "South")


def setup_answer(table: GameTable, games_params: Mapping[str, Any],
                 games: Sequence[Mapping[str, Any]], evaluations: Sequence[Mapping[str, Any]],
                 evaluation_params: Mapping[str, Any], top: int = 3,
                 validation: Sequence[Mapping[str, Any]] | None = None,
                 ladder: Sequence[Rung] = ()) -> str:
    """The answer, as paragraphs of text (see the module); ``validation``: the games of
    the validation block (:mod:`gyges.setups.validation`), whose verdict then counts;
    ``ladder``: the rungs of a strength ladder, weakest first, set beside the
    evaluations' first move."""
    ev = EvaluationTable.of(evaluations)
    canonical = table.canonical   # the games' setups folded with their mirrors, or not
    folded: dict[Side, dict[str, float]] = {side: {} for side in (Side.SOUTH, Side.NORTH)}
    for side in folded:
        for s, v in ev.average(side.name.lower()).items():
            folded[side][fold(s, canonical)] = v
    out: list[str] = []

    # -- what the evaluations say ---------------------------------------------------------
    total = 4068     # the canonical pairs: each evaluation stands for its mirror too
    searched = len(evaluations)
    sample = (f"{searched:,} of the {total:,} canonical pairs, a random sample of them (the "
              "run is not finished)" if searched < total else
              f"all {total:,} canonical pairs")
    mean = ev.mean_south_win()
    line = (f"The engine's evaluations ({sample}; {evaluation_params['nodes']:,} nodes a "
            f"pair, {evaluation_params['engine']}) give South, who moves first, a mean win "
            f"probability of {_pct(mean)}.")
    spreads = {}
    for side in (Side.SOUTH, Side.NORTH):
        values = folded[side]
        m = sum(values.values()) / len(values)
        sd = math.sqrt(sum((v - m) ** 2 for v in values.values()) / len(values))
        spreads[side] = sd
        order = sorted(values, key=lambda s: (-values[s], s))
        name, _ = _side_names(side)
        best = ", ".join(f"{s} {_pct(values[s])}" for s in order[:top])
        worst = ", ".join(f"{s} {_pct(values[s])}" for s in order[-top:])
        line += (f" {name}'s setups average {_pct(min(values.values()))} to "
                 f"{_pct(max(values.values()))} for {name} (standard deviation "
                 f"{_points(sd)}); best {best}; worst {worst}.")
    out += ["What the evaluations say:", *_paragraph(line)]

    # -- what the games say ---------------------------------------------------------------
    t = table.total
    lo, hi = t.score_interval()
    rounds: dict[bool, list[int]] = {True: [0, 0, 0], False: [0, 0, 0]}
    for g in games:
        rounds[g.get("round", 0) == 0][("south", "draw", "north").index(g["result"])] += 1
    line = (f"In {t.games:,} self-play games ({describe_limit(games_params['limit'])}, "
            f"{games_params['engine']}) South scored {_pct(t.score)} (95% interval "
            f"{_pct(lo)} to {_pct(hi)})")
    if all(sum(c) for c in rounds.values()):
        own, randomized = (Tally(c[0], c[1], c[2]) for c in (rounds[True], rounds[False]))
        d, d_lo, d_hi = score_change(own, randomized)
        line += (f": {_pct(own.score)} from the setups themselves and "
                 f"{_pct(randomized.score)} after a random first move of each side ("
                 f"{100 * d:+.1f} points, 95% interval {100 * d_lo:+.1f} to "
                 f"{100 * d_hi:+.1f}), so "
                 + ("the first-move advantage depends on how the game is opened"
                    if d_lo > 0 or d_hi < 0 else
                    "the games cannot tell the two openings' advantages apart"))
    line += "."
    reliability: dict[Side, float | None] = {}
    for side in (Side.SOUTH, Side.NORTH):
        name, _ = _side_names(side)
        spread = true_spread(table.fit.ratings(side))
        try:
            reliability[side] = split_half(table.results, side)
        except ValueError:
            reliability[side] = None
        rel = reliability[side]
        line += (f" {name}'s setups differ by a true spread of {spread.tau:.0f} Elo (95% "
                 f"interval {spread.low:.0f} to {spread.high:.0f})")
        if rel is None or rel < RANKABLE:
            line += (f", but the games cannot rank them (split-half reliability "
                     f"{'unknown' if rel is None else f'{rel:.2f}'}, below {RANKABLE:g}).")
        else:
            line += f", and the games rank them with split-half reliability {rel:.2f}."
    out += ["What the games say:", *_paragraph(line)]

    # -- do the games confirm the evaluations? ---------------------------------------------
    lines = []
    agreements = {}
    for side in (Side.SOUTH, Side.NORTH):
        name, _ = _side_names(side)
        strengths = {r.setup: r.strength for r in table.fit.ratings(side)}
        a = agreements[side] = agreement(folded[side], strengths, side, reliability[side])
        ceiling = ("" if a.ceiling is None else
                   f"; the games' own noise caps it near {a.ceiling:.2f}")
        verdict = ("the games confirm the evaluations' order" if a.p < 0.05 and a.r > 0
                   else "the games contradict the evaluations' order" if a.p < 0.05
                   else "the games can neither confirm nor refute the evaluations' order")
        lines.append(f"For {name}'s {a.setups} setups the evaluation's average and the "
                     f"games' fitted strength correlate at r = {a.r:+.2f} (permutation "
                     f"p {'< 0.001' if a.p < 0.001 else f'= {a.p:.3f}'}{ceiling}): "
                     f"{verdict}.")
    by_pair = {(r["south"], r["north"]): float(r["south_win"]) for r in evaluations}
    scored = []
    for g in games:
        if g.get("round", 0) == 0 and (g["south"], g["north"]) in by_pair:
            y = {"south": 1.0, "draw": 0.5, "north": 0.0}[g["result"]]
            scored.append((by_pair[g["south"], g["north"]], y))
    if scored:
        rate = sum(y for _, y in scored) / len(scored)
        model = _log_loss(scored)
        base = _log_loss([(rate, y) for _, y in scored])
        better = "better than" if model < base else "no better than"
        lines.append(f"In the {len(scored):,} games played from an evaluated pair's own start "
                     f"position, the evaluation's win probability predicts the result "
                     f"{better} one rate for all ({_pct(rate)}): log-loss {model:.4f} "
                     f"against {base:.4f}.")
    verdicts: dict[Side, str] = {}
    smaller: dict[Side, bool] = {}
    if validation is not None:
        found = validation_sentences(ev, validation)
        lines += ["In the validation block (each side's best and worst setups by the "
                  "evaluations against the other side's middle ones):"]
        for side in (Side.SOUTH, Side.NORTH):
            text, verdicts[side], smaller[side] = found[side.name.lower()]
            lines.append(text)
    out += ["Do the games confirm the evaluations?", *_paragraph(" ".join(lines))]

    # -- both together ---------------------------------------------------------------------
    combined = {side: combined_strengths(table.fit.ratings(side), folded[side])
                for side in (Side.SOUTH, Side.NORTH)}
    lines = []
    for side in (Side.SOUTH, Side.NORTH):
        name, _ = _side_names(side)
        c = combined[side]
        guesses = ", ".join(f"{s} {v:+.0f} Elo ({lo:+.0f} to {hi:+.0f})"
                            for s, v, lo, hi in c.estimates[:top])
        lines.append(f"{name}: the best guesses are {guesses}; each point of a setup's "
                     f"average in the evaluations predicts {_elo_per_point(c.beta)} in the "
                     f"games, and the evaluations miss a true spread of {c.tau:.0f} Elo.")
    out += ["Both together:", *_paragraph(
        "Each setup's games shrunk toward what the evaluations predict for it (a Fay-Herriot "
        "fit; Elo over the side's average setup, with 95% intervals). " + " ".join(lines))]

    # -- how large, and the answer ---------------------------------------------------------
    first = abs(mean - 0.5)
    largest = max(spreads.values())
    size = (f"By the evaluations, one standard deviation of setup choice is worth about "
            f"{_points(spreads[Side.SOUTH])} of win probability for South and "
            f"{_points(spreads[Side.NORTH])} for North, against {_points(first)} for "
            f"moving first")
    size += (": the setup matters more than who moves first." if largest > first else
             ": who moves first matters more than the setup.")
    if not lo <= mean <= hi:
        size += (f" But the evaluations and the games disagree on the first move itself "
                 f"(South {_pct(mean)} against {_pct(t.score)}, outside the games' 95% "
                 f"interval): they measure different things, a "
                 f"{evaluation_params['nodes']:,}-node search of the start position and "
                 f"games played at {describe_limit(games_params['limit'])}, so neither "
                 "figure is the first move's advantage at every strength.")
    if len(ladder) >= 2:
        size += " " + _first_move_by_strength(ladder[0], ladder[-1], ev)
    out += ["How large the effect is:", *_paragraph(size)]

    short = []
    for side in (Side.SOUTH, Side.NORTH):
        name, _ = _side_names(side)
        short.append(_short_answer(name, folded[side], spreads[side], agreements[side],
                                   verdicts.get(side), smaller.get(side, False),
                                   combined[side].best()))
    out += ["In short:", *_paragraph(" ".join(short))]
    return "\n".join(out).rstrip("\n") + "\n"


def _elo_per_point(beta: float) -> str:
    """The Fay-Herriot slope (Elo a unit of win probability) as Elo a point."""
    return f"{beta / 100:+.0f} Elo"


def _short_answer(name: str, values: Mapping[str, float], spread: float, a: Agreement,
                  verdict: str | None, smaller: bool,
                  together: tuple[str, float, float, float]) -> str:
    """One side's short answer: where a test of the games confirms the evaluations and
    none contradicts them, choose the best guess of both together (``together``: the
    setup, its guess and 95% interval, Elo); else the data cannot tell. Either way, what
    the choice is worth by the evaluations."""
    best = min(values, key=lambda s: (-values[s], s))
    gain = values[best] - sum(values.values()) / len(values)
    worth = (f"by the evaluations {best} is worth {_points(gain)} of win probability over "
             f"{name}'s average setup, and one standard deviation of setup choice "
             f"{_points(spread)}")
    confirmed = [test for test, yes in (
        ("the validation block confirms that their best setups beat their worst",
         verdict == "confirm"),
        ("the games confirm the evaluations' order", a.p < 0.05 and a.r > 0)) if yes]
    contradicted = [test for test, yes in (
        ("the validation block finds their worst setups beating their best",
         verdict == "contradict"),
        ("the games rank the setups in the opposite order", a.p < 0.05 and a.r < 0)) if yes]
    closer = (" and finds their best and worst setups closer than they predict" if smaller
              else "")
    if confirmed and not contradicted:
        caveat = ("" if verdict in (None, "confirm") else
                  f"; the validation block cannot tell their best from their worst{closer}")
        pick, guess, low, high = together
        notes = [f"95% interval {low:+.0f} to {high:+.0f}"
                 + (", which holds the average setup" if low <= 0 <= high else "")]
        if pick != best:
            notes.append(f"the evaluations alone favour {best}")
        return (f"As {name}, choose by the evaluations and the games together: "
                f"{' and '.join(confirmed)}{caveat}; together they make {pick} the best "
                f"guess, {guess:+.0f} Elo over {name}'s average setup ({'; '.join(notes)}); "
                f"one standard deviation of setup choice is worth {_points(spread)} of win "
                "probability by the evaluations.")
    if contradicted:
        against = " and ".join(contradicted)
        also = f", though {' and '.join(confirmed)}" if confirmed else ""
        return (f"As {name}, the evaluations favour {best}, but {against}{also}, so the "
                f"data cannot tell which setup is best; {worth}.")
    closer = (", and the validation block finds their best and worst setups closer than "
              "they predict" if smaller else "")
    return (f"As {name}, the evaluations favour {best}, but the games do not confirm their "
            f"order yet{closer}, so the data cannot tell which setup is best; {worth}.")


def _first_move_by_strength(weak: Rung, strong: Rung, ev: EvaluationTable) -> str:
    """South's score at the ladder's weakest and strongest rungs beside the evaluations
    of the same pairs (see the module)."""
    pairs = sorted(strong.pairs)
    known = [ev.south_win[p] for p in pairs if p in ev.south_win]
    d, lo, hi = score_change(weak.tally, strong.tally)
    text = (f"On the strength ladder's {len(pairs):,} pairs (the same pairs played at each "
            f"strength) South scores {_pct(weak.tally.score)} at {weak.name} and "
            f"{_pct(strong.tally.score)} at {strong.name} ({100 * d:+.1f} points, 95% "
            f"interval {100 * lo:+.1f} to {100 * hi:+.1f})")
    if not known:
        return text + ", and none of those pairs is evaluated yet."
    e = sum(known) / len(known)
    of = "" if len(known) == len(pairs) else f" ({len(known):,} of them evaluated so far)"
    text += f", where the evaluations give those pairs {_pct(e)}{of}: "
    if lo > 0 or hi < 0:
        toward = (d > 0) == (e > weak.tally.score)
        text += (f"South's score {'rises' if d > 0 else 'falls'} with strength, "
                 f"{'toward' if toward else 'away from'} the evaluations")
    else:
        text += "the ladder cannot tell whether South's score moves with strength"
    s_lo, s_hi = strong.tally.score_interval()
    if s_lo <= e <= s_hi:
        text += (f", and at {strong.name} the games agree with them (95% interval "
                 f"{_pct(s_lo)} to {_pct(s_hi)}).")
    else:
        text += (f", and at {strong.name} the games still give South "
                 f"{'less' if s_hi < e else 'more'} than they do (95% interval "
                 f"{_pct(s_lo)} to {_pct(s_hi)}).")
    return text
