"""The report of a self-play table (``setups rank``) as text: the setups ranked by their
fitted strengths with 95% intervals, which differences are significant, the best reply to
each setup, South's first-move advantage (by protocol and, given a strength ladder, by
strength), and the proven pairs first.

A pure function of the table (:func:`gyges.setups.selfplay.table.game_table`); each section
says in a line what its numbers are.

>>> from gyges.setups.selfplay.table import game_table
>>> games = [{"south": s, "north": n, "result": r} for s, n, r in (
...     ("231123", "321123", "south"), ("231123", "112233", "south"),
...     ("112233", "321123", "north"), ("112233", "112233", "draw"))]
>>> text = rank_report(game_table(games), {"limit": {"depth": 2}, "prove": 2,
...                    "max_plies": 200, "rules": "pbmserv", "canonical": False})
>>> text.splitlines()[0]
'4 games over 4 setup pairs (2 South setups x 2 North setups)'
"""

from __future__ import annotations

import math
import textwrap
from collections.abc import Mapping, Sequence
from statistics import NormalDist
from typing import Any

from gyges.engine.stats import Tally, elo_of_score
from gyges.formats.quoting import counted
from gyges.game.position import mirror_setup
from gyges.game.rules import Side
from gyges.setups.proven.report import count
from gyges.setups.selfplay.games import describe_limit
from gyges.setups.selfplay.ladder import Rung, advantage_by_strength
from gyges.setups.selfplay.reliability import (
    RANKABLE,
    null_significant,
    split_half,
    true_spread,
)
from gyges.setups.selfplay.table import GameTable

__all__ = ["PRIOR_GAMES", "best_replies", "rank_report"]

_WIDTH = 92  #: the explanations are wrapped to this many columns
#: A pair's score for the best replies is pulled toward the model's expectation by this
#: many games of it: with one or two games a pair, its own games alone would name as
#: best the pair that happened to win its one game; with many, its games decide.
PRIOR_GAMES = 2


def _explain(text: str) -> list[str]:
    return textwrap.wrap(f"({text})", _WIDTH, initial_indent="  ", subsequent_indent="   ")


def _elo(x: float) -> str:
    return f"{x:+.0f}"


def _pct(x: float) -> str:
    return f"{100 * x:.1f}%"


def _label(setup: str, canonical: bool) -> str:
    """``231123 = 321132`` for a folded setup with a mirror image other than itself."""
    if canonical and mirror_setup(setup) != setup:
        return f"{setup} = {mirror_setup(setup)}"
    return setup


def _header(table: GameTable, params: Mapping[str, Any]) -> list[str]:
    pairs = len(table.cells)
    sides = (f"{count(len(table.souths), 'South setup')} x "
             f"{count(len(table.norths), 'North setup')}")
    if table.canonical:
        sides += ", each counted with its mirror image"
    lines = [f"{count(table.total.games, 'game')} over {count(pairs, 'setup pair')} ({sides})"]
    lines.append(f"builtin engine against itself, {describe_limit(params['limit'])}, proof "
                 f"horizon {params['prove']}, a draw after {params['max_plies']} plies; rules "
                 f"{params['rules']}")
    engine = params.get("engine")
    if engine is not None:
        lines.append(f"made by {engine}" + (f": {engine.command}" if engine.command else ""))
    if table.canonical:
        lines += _explain("canonical pairs, each standing for itself and its mirror (both "
                          "rows reversed): every setup is counted with its mirror image, "
                          "shown as '231123 = 321132', one strength for the two")
    return lines


def _proven(table: GameTable, top: int) -> list[str]:
    if not table.proven:
        return []
    lines = [f"\nProven results ({count(len(table.proven), 'pair')}, listed first):",
             *_explain("forced by the solver (setups analyze): the winner lands within the "
                       "moves given whatever the other side plays; each game of such a pair "
                       "counts as that result")]
    for p in table.proven[:max(top, 1) * 4]:
        lines.append(f"  S {p.south} N {p.north}: {p.winner.title()} wins in {p.moves} "
                     f"(depth {p.depth})")
    if len(table.proven) > max(top, 1) * 4:
        lines.append(f"  ... and {len(table.proven) - max(top, 1) * 4} more")
    return lines


def _results(table: GameTable, games: Sequence[Mapping[str, Any]]) -> list[str]:
    t = table.total
    reasons: dict[str, int] = {}
    for g in games:
        reason = g["reason"].split(":")[0]
        reasons[reason] = reasons.get(reason, 0) + 1
    plies = [len(g["moves"]) for g in games]
    lines = ["\nResults:",
             f"  South wins {t.wins:,} ({_pct(t.wins / t.games)}), draws {t.draws:,}, North "
             f"wins {t.losses:,} ({_pct(t.losses / t.games)})"]
    if reasons:
        lines.append("  how games ended: " + ", ".join(
            f"{r} {n:,}" for r, n in sorted(reasons.items(), key=lambda x: -x[1])))
    if plies:
        lines.append(f"  length: mean {sum(plies) / len(plies):.1f} plies, min {min(plies)}, "
                     f"max {max(plies)}")
    return lines


def _by_protocol(games: Sequence[Mapping[str, Any]]) -> list[str]:
    """South's score in the engine's own openings (round 0) and in the randomized ones
    (later rounds: one random move of each side first), each with its interval."""
    groups: dict[str, list[int]] = {}
    for g in games:
        name = ("the engine's own openings (round 0)" if g.get("round", 0) == 0
                else "randomized openings (rounds 1 and later)")
        c = groups.setdefault(name, [0, 0, 0])
        c[("south", "draw", "north").index(g["result"])] += 1
    if len(groups) < 2:
        return []
    out = []
    for name, (w, d, n) in sorted(groups.items()):
        t = Tally(w, d, n)
        lo, hi = t.score_interval()
        out.append(f"  in {name}: {_pct(t.score)} [{_pct(lo)}, {_pct(hi)}], "
                   f"{counted(t.games, 'game')}")
    return out


def _by_strength(rungs: Sequence[Rung]) -> list[str]:
    """South's score on the strength ladder's games (the same pairs at each strength)."""
    if not rungs:
        return []
    return ["  by strength, in a strength ladder's games (the same pairs at each strength):",
            *advantage_by_strength(rungs)]


def _advantage(table: GameTable, games: Sequence[Mapping[str, Any]] = (),
               rungs: Sequence[Rung] = ()) -> list[str]:
    t = table.total
    lo, hi = t.score_interval()
    f = table.fit
    return ["\nFirst-move advantage:",
            *_explain("South moves first. South's score: its points per game over all games "
                      "(a draw half), with its 95% interval from the games' variance; Elo: "
                      "the same score as a rating difference, -400 log10(1/score - 1); fitted: "
                      "the model's advantage at average setups, with its 95% interval"),
            f"  South's score {_pct(t.score)} [{_pct(lo)}, {_pct(hi)}], Elo "
            f"{_elo(elo_of_score(t.score))} [{_elo(elo_of_score(lo))}, "
            f"{_elo(elo_of_score(hi))}]; fitted {_elo(f.advantage)} "
            f"[{_elo(f.advantage_low)}, {_elo(f.advantage_high)}]",
            *_by_protocol(games), *_by_strength(rungs)]


def _ranking(table: GameTable, side: Side) -> list[str]:
    f = table.fit
    ranked = f.ratings(side)
    width = max(len(_label(r.setup, table.canonical)) for r in ranked)
    lines = [f"\n{side.title} setups, strongest first:",
             f"  {'':>3} {'setup':<{width}}  {'Elo':>5}  {'95% interval':<13} {'games':>6} "
             f"{'score':>6}  {'beats':>5}  next"]
    for i, r in enumerate(ranked):
        beats = sum(f.compare(side, r.setup, o.setup).significant
                    for o in ranked if o.strength < r.strength)
        nxt = (i + 1 < len(ranked)
               and f.compare(side, r.setup, ranked[i + 1].setup).significant)
        lines.append(f"  {i + 1:>3} {_label(r.setup, table.canonical):<{width}}  "
                     f"{_elo(r.strength):>5}  [{_elo(r.low):>4}, {_elo(r.high):>4}]  "
                     f"{r.games:>6} {_pct(r.score):>6}  {beats:>5}  {'>' if nxt else ''}")
    return lines


def _significance(table: GameTable) -> list[str]:
    lines = ["\nSignificant differences:",
             *_explain("a pairwise test of two setups of one side: their difference in "
                       "strength against its standard error from the fit (with the two "
                       "strengths' covariance), significant at 5% when larger than 1.96 "
                       "errors; 'beats' above counts the setups a setup is significantly "
                       "stronger than, and '>' marks one significantly stronger than the "
                       "next in the ranking")]
    for side in (Side.SOUTH, Side.NORTH):
        ranked = table.fit.ratings(side)
        n = len(ranked)
        tests = [table.fit.compare(side, a.setup, b.setup).significant
                 for i, a in enumerate(ranked) for b in ranked[i + 1:]]
        adjacent = sum(table.fit.compare(side, a.setup, b.setup).significant
                       for a, b in zip(ranked, ranked[1:], strict=False))
        lines.append(f"  {side.title}: {sum(tests):,} of {len(tests):,} pairs of setups "
                     f"differ significantly; {adjacent} of {max(n - 1, 0)} neighbours in "
                     "the ranking")
    return lines


def best_replies(table: GameTable, side: Side) -> list[tuple[str, str, Tally, float, float]]:
    """For each setup of the other side, the best setup of ``side`` against it: the one
    whose pair scores best for ``side``, each pair's score in its games pulled toward the
    model's expectation by :data:`PRIOR_GAMES` games of it. Rows ``(opponent, reply,
    tally of the pair's games for South, the pulled score for `side`, the model's
    expected score for `side`)``, in the opponents' ranking order."""
    f = table.fit
    opponents = f.ratings(side.other)
    rows = []
    for o in opponents:
        best = None
        for (s, n), cell in table.cells.items():
            mine, theirs = (s, n) if side is Side.SOUTH else (n, s)
            if theirs != o.setup:
                continue
            expected = f.expected(s, n)
            points = cell.tally.wins + 0.5 * cell.tally.draws
            pulled = (points + PRIOR_GAMES * expected) / (cell.games + PRIOR_GAMES)
            if side is Side.NORTH:
                pulled, expected = 1 - pulled, 1 - expected
            key = (pulled, cell.games, f.rating(side, mine).strength)
            if best is None or key > best[0]:
                best = (key, mine, cell.tally, pulled, expected)
        if best is not None:
            rows.append((o.setup, best[1], best[2], best[3], best[4]))
    return rows


def _replies(table: GameTable) -> list[str]:
    lines = ["\nBest replies:",
             *_explain(f"from the games: for each setup of one side, the other side's setup "
                       f"whose pair with it scored best for the replying side, each pair's "
                       f"score (points per game, a draw half) pulled toward the fitted "
                       f"model's expectation by {PRIOR_GAMES} games of it, so that a pair "
                       f"with one lucky game does not lead; shown: the pair's games (South "
                       f"+wins =draws -losses), the pulled score and the model's expected "
                       f"score, both for the replying side; the model alone would name the "
                       f"strongest setup every time; a reply is shown only where its games' "
                       f"95% interval of the score excludes 50%, the interval Wilson's and "
                       f"widened for a best of many (Bonferroni: the best of each side's "
                       f"setups is picked)")]
    for side in (Side.NORTH, Side.SOUTH):
        other = side.other
        lines.append(f"{side.title}'s best reply to each {other.title} setup:")
        rows = best_replies(table, side)
        candidates = len(table.fit.ratings(side))
        z = NormalDist().inv_cdf(1 - 0.025 / candidates)   # the best of that many replies
        shown = 0
        for opponent, reply, tally, pulled, expected in rows:
            lo, hi = tally.wilson_interval(z)
            if side is Side.NORTH:
                lo, hi = 1 - hi, 1 - lo
            if lo <= 0.5:
                continue            # its games cannot tell it from an even pair
            shown += 1
            lines.append(f"  {other.title[0]} {opponent} -> {side.title[0]} {reply}: "
                         f"+{tally.wins} ={tally.draws} -{tally.losses}, score "
                         f"{_pct(pulled)}, model {_pct(expected)}")
        if shown < len(rows):
            total = counted(len(rows), "best reply", "best replies")
            lines.append(f"  ({len(rows) - shown} of {total} left out: their games' "
                         "interval includes 50%)" if shown else
                         f"  (none of the {total} is shown: the games cannot tell any of them "
                         "from an even pair)")
    return lines


def _fit_note(table: GameTable) -> list[str]:
    f = table.fit
    return [*_explain(
        f"Elo: each setup's strength from a Bradley-Terry fit of all {f.games:,} results: "
        f"South's expected score is 1/(1 + 10^(-(A + S - N)/400)) with A the first-move "
        f"advantage, S South's setup's strength and N North's; strengths are centred (the "
        f"side's average setup is 0), with a ridge penalty of {f.ridge:g} on each (in "
        f"logits) so that a setup with few games stays finite; 95% interval: 1.96 standard "
        f"errors from the fit's Fisher information; games: the setup's games; score: its "
        f"side's points per game in them (a draw half)")]


def _how_sure(table: GameTable, rounds: int) -> list[str]:
    """How sure the ranking is, each sentence made from its figure
    (:mod:`~gyges.setups.selfplay.reliability`)."""
    out = ["\nHow sure the ranking is:"]
    out += _explain("The true spread is the standard deviation of the setups' true "
                    "strengths, estimated from the fitted ones and their errors (95% "
                    "interval by the Q-profile); the split-half reliability correlates the "
                    "strengths fitted on the even and the odd games (Spearman-Brown; 0: "
                    "noise, 1: another set of games ranks alike); the significant counts "
                    f"are set beside {rounds} sets of games simulated on the same pairs with "
                    "every setup equal.")
    nulls = dict(zip((Side.SOUTH, Side.NORTH),
                     null_significant(table.results, table.fit, rounds), strict=True))
    for side in (Side.SOUTH, Side.NORTH):
        name = side.title
        if len(table.fit.ratings(side)) < 3:
            out.append(f"  {name}: {counted(len(table.fit.ratings(side)), 'setup')}, too few "
                       "to say")
            continue
        spread = true_spread(table.fit.ratings(side))
        try:
            r: float | None = split_half(table.results, side)
        except ValueError:
            r = None
        null = nulls[side]
        out.append(f"  {name}: true spread {spread.tau:.0f} Elo (95% interval "
                   f"{spread.low:.0f} to {spread.high:.0f}), split-half reliability "
                   + ("not computable (too few setups in each half)" if r is None
                      else f"{r:.2f}"))
        chance = ("no more than chance gives" if null.observed <= null.null_95
                  else "more than chance gives")
        out.append(f"    {null.observed} setups differ significantly from the average: "
                   f"{chance}")
        out.append(f"    (all equal: {null.null_mean:.1f} on average, {null.null_95} at the "
                   "95th percentile)")
        if r is None or r < RANKABLE:
            bound = ("nor can it bound their spread" if math.isinf(spread.high) else
                     f"what it can say: their true strengths spread by at most "
                     f"{spread.high:.0f} Elo (one standard deviation, 95% bound)")
            out += _explain(f"The data cannot rank {name}'s setups: the reliability is below "
                            f"{RANKABLE:g}, so the order above is mostly noise; {bound}.")
        else:
            best = ", ".join(f"{s} {_elo(v)}" for s, v in spread.shrunken[:5])
            out.append(f"    shrunken strengths, the best guess of the true ones: {best}")
    return out


def rank_report(table: GameTable, params: Mapping[str, Any],
                games: Sequence[Mapping[str, Any]] = (), null_rounds: int = 40,
                rungs: Sequence[Rung] = ()) -> str:
    """The report of a self-play table (``params``: the games' parameters; ``games``:
    the records, for how the games ended and their length; ``null_rounds``: the simulated
    sets of games the significant counts are set beside; ``rungs``: a strength ladder,
    whose first-move advantage at each strength the report gives)."""
    return "\n".join([
        *_header(table, params), *_proven(table, 5), *_results(table, games),
        *_advantage(table, games, rungs), "\nSetups ranked:", *_fit_note(table),
        *_ranking(table, Side.SOUTH), *_ranking(table, Side.NORTH), *_significance(table),
        *_how_sure(table, null_rounds), *_replies(table)])
