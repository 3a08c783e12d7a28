"""The strength ladder (``setups ladder``): one fixed set of setup pairs played at several
strengths (games files of ``setups rank`` that differ only in the engine's limit), and
whether what the games say moves between the rungs.

For each rung: South's score (the first-move advantage) with its 95% interval, overall and
by protocol (the engine's own openings, round 0; randomized openings, later rounds), and
each side's split-half reliability. Between each two rungs: the change in South's score
with its 95% interval (the rungs' games are independent), and for each side the
correlation of the setups' fitted strengths at the two rungs, set beside the ceiling the
rungs' own reliabilities put on it (the square root of their product): when the
correlation's 95% interval (Fisher's z) stays below the ceiling the ranking moves from one
strength to the other; otherwise it holds as far as the games can tell. Every sentence is
made from its numbers.

>>> import random
>>> rng = random.Random(1)
>>> games = [{"south": rng.choice("ab"), "north": rng.choice("xy"), "round": k % 2,
...           "result": rng.choice(["south", "north"])} for k in range(200)]
>>> rung = Rung.of("1,000 nodes a move", games)
>>> rung.tally.games, rung.name
(200, '1,000 nodes a move')

From games files (each its parameters and games, as ``read_selfplay_games`` gives them),
:func:`ladder_rungs` checks that they differ in the limit alone:

>>> params = {"rules": "pbmserv", "canonical": False, "prove": 2, "limit": {"nodes": 1000}}
>>> rungs = ladder_rungs([(params, games), ({**params, "limit": {"nodes": 10000}}, games)])
>>> [r.name for r in rungs]
['1,000 nodes a move', '10,000 nodes a move']
>>> try:
...     ladder_rungs([(params, games), ({**params, "prove": 3}, games)])
... except LadderError as e:
...     print(e.index, e)  # doctest: +NORMALIZE_WHITESPACE
1 differs from the first file in more than the limit (prove): a ladder changes the
  strength alone
"""

from __future__ import annotations

import dataclasses
import math
import textwrap
from collections.abc import Mapping, Sequence
from typing import Any

from gyges.engine.stats import Z95, Tally, score_change
from gyges.game.rules import Side
from gyges.setups.selfplay.games import describe_limit
from gyges.setups.selfplay.reliability import RANKABLE, correlation, split_half
from gyges.setups.selfplay.strengths import StrengthFit
from gyges.setups.selfplay.table import game_table

__all__ = ["LadderError", "Rung", "advantage_by_strength", "ladder_report", "ladder_rungs"]

_WIDTH = 92


def _tally(games: Sequence[Mapping[str, Any]]) -> Tally:
    counts = [0, 0, 0]
    for g in games:
        counts[("south", "draw", "north").index(g["result"])] += 1
    return Tally(counts[0], counts[1], counts[2])


@dataclasses.dataclass(frozen=True)
class Rung:
    """One strength: its ``name`` (the limit in words), South's ``tally`` overall, in the
    engine's own openings (``own``) and in randomized ones (``randomized``; None when
    the rung has none of a kind), the fit, each side's split-half reliability (None
    where it cannot be computed) and the ``pairs`` (South's setup, North's) its games
    were played from."""

    name: str
    tally: Tally
    own: Tally | None
    randomized: Tally | None
    fit: StrengthFit
    reliability: Mapping[Side, float | None]
    pairs: frozenset[tuple[str, str]] = frozenset()

    @classmethod
    def of(cls, name: str, games: Sequence[Mapping[str, Any]], canonical: bool = False
           ) -> Rung:
        table = game_table(games, canonical)
        own = [g for g in games if g.get("round", 0) == 0]
        randomized = [g for g in games if g.get("round", 0) != 0]
        reliability: dict[Side, float | None] = {}
        for side in (Side.SOUTH, Side.NORTH):
            try:
                reliability[side] = split_half(table.results, side)
            except ValueError:
                reliability[side] = None
        return cls(name, _tally(games), _tally(own) if own else None,
                   _tally(randomized) if randomized else None, table.fit, reliability,
                   frozenset((g["south"], g["north"]) for g in games))


class LadderError(ValueError):
    """Games files that do not make a ladder; ``index`` is the place of the file at fault
    (in the order given)."""

    def __init__(self, message: str, index: int) -> None:
        super().__init__(message)
        self.index = index


def ladder_rungs(files: Sequence[tuple[Mapping[str, Any], Sequence[Mapping[str, Any]]]],
                 rules: str | None = None) -> list[Rung]:
    """The rungs of a ladder, one a games file (its parameters and its games, weakest
    first): at least two, alike in everything but the engine's limit (the pairs' kind,
    the rules, the proof horizon, the engine), and under ``rules`` when given (those of
    the games a report sets the ladder beside). Else :class:`LadderError`."""
    if len(files) < 2:
        raise LadderError("give at least two games files, one a strength", len(files) - 1)
    first = {k: v for k, v in files[0][0].items() if k != "limit"}
    rungs = []
    for i, (params, games) in enumerate(files):
        if rules is not None and params["rules"] != rules:
            raise LadderError(f"made under other rules ({params['rules']}) than the games "
                              f"({rules})", i)
        shared = {k: v for k, v in params.items() if k != "limit"}
        if shared != first:
            differs = ", ".join(k for k in sorted(set(shared) | set(first))
                                if shared.get(k) != first.get(k))
            raise LadderError(f"differs from the first file in more than the limit "
                              f"({differs}): a ladder changes the strength alone", i)
        rungs.append(Rung.of(describe_limit(params["limit"]), games, params["canonical"]))
    return rungs


def _pct(x: float) -> str:
    return f"{100 * x:.1f}%"


def _interval(t: Tally) -> str:
    lo, hi = t.score_interval()
    return f"{_pct(t.score)} [{_pct(lo)}, {_pct(hi)}]"


def _change(a: Rung, b: Rung) -> str:
    """South's score from rung ``a`` to rung ``b``: the change, its interval and whether
    it moves."""
    d, lo, hi = score_change(a.tally, b.tally)
    moved = ("South's score moves" if lo > 0 or hi < 0 else
             "the games cannot tell South's score apart")
    return (f"From {a.name} to {b.name}: {moved} ({100 * d:+.1f} points, 95% "
            f"interval {100 * lo:+.1f} to {100 * hi:+.1f}).")


def advantage_by_strength(rungs: Sequence[Rung]) -> list[str]:
    """The first-move advantage at each strength, for a study's report: South's score at
    each rung, overall and by protocol, then its change from each rung to the next, each
    a line (or a few, wrapped) indented by four spaces."""
    out = []
    for r in rungs:
        line = f"{r.name}: {_interval(r.tally)} in {r.tally.games:,} games"
        if r.own is not None and r.randomized is not None:
            line += (f"; in the engine's own openings {_interval(r.own)}, in randomized "
                     f"openings {_interval(r.randomized)}")
        out += textwrap.wrap(line, _WIDTH, initial_indent="    ", subsequent_indent="      ")
    for a, b in zip(rungs, rungs[1:], strict=False):
        out += textwrap.wrap(_change(a, b), _WIDTH, initial_indent="    ",
                             subsequent_indent="      ")
    return out


def ladder_report(rungs: Sequence[Rung]) -> str:
    """The report of a ladder (the rungs from the weakest up)."""
    out = ["The strength ladder: the same setup pairs at each strength", ""]
    for r in rungs:
        line = f"{r.name}: {r.tally.games:,} games, South scores {_interval(r.tally)}"
        if r.own is not None and r.randomized is not None:
            line += (f"; from the setups themselves {_interval(r.own)}, after a random "
                     f"first move of each side {_interval(r.randomized)}")
        rel = ", ".join(f"{side.title} {'?' if v is None else f'{v:.2f}'}"
                        for side, v in r.reliability.items())
        out += textwrap.wrap(line + f"; split-half reliability {rel}.", _WIDTH,
                             subsequent_indent="  ")
    out.append("")
    for i, a in enumerate(rungs):
        for b in rungs[i + 1:]:
            text = _change(a, b)
            for side in (Side.SOUTH, Side.NORTH):
                x = {q.setup: q.strength for q in a.fit.ratings(side)}
                y = {q.setup: q.strength for q in b.fit.ratings(side)}
                common = sorted(set(x) & set(y))
                if len(common) < 3:
                    continue
                rho = correlation([x[s] for s in common], [y[s] for s in common])
                ra, rb = a.reliability[side], b.reliability[side]
                if ra is None or rb is None or ra < RANKABLE or rb < RANKABLE:
                    text += (f" {side.title}'s strengths correlate at r = {rho:+.2f}, but a "
                             f"rung's games cannot rank {side.title}'s setups (reliability "
                             f"below {RANKABLE:g}), so whether the ranking holds is not "
                             "known.")
                    continue
                ceiling = math.sqrt(ra * rb)
                z, se = math.atanh(max(min(rho, 0.999999), -0.999999)), 1 / math.sqrt(
                    max(len(common) - 3, 1))
                low, high = math.tanh(z - Z95 * se), math.tanh(z + Z95 * se)
                holds = ("the ranking moves: the correlation is below what the rungs' noise "
                         "alone leaves" if high < ceiling else
                         "the ranking holds as far as the games can tell")
                text += (f" {side.title}'s strengths correlate at r = {rho:+.2f} (95% "
                         f"interval {low:+.2f} to {high:+.2f}) against a ceiling of "
                         f"{ceiling:.2f} from the rungs' reliabilities: {holds}.")
            out += [*textwrap.wrap(text, _WIDTH), ""]
    return "\n".join(out).rstrip("\n") + "\n"
