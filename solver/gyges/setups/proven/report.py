"""The report of a setup analysis as text: forced results, setups ranked, distributions.

A pure function of the records (:func:`gyges.setups.proven.records.read_results`); each section
says in one line what its numbers are. A table of canonical pairs (``setups analyze
--canonical``) is counted with its mirror pairs (:func:`gyges.setups.proven.records.with_mirrors`).
The heat map is :func:`gyges.setups.proven.heatmap.heatmap_svg`.

>>> from gyges.game.rules import PRESETS
>>> from gyges.setups.proven.analysis import analyse_pair
>>> rec = analyse_pair("231123", "321123", PRESETS["pbmserv"], 1)
>>> report([rec], rec.params).splitlines()[0]
'1 setup pair (1 South setup x 1 North setup), depth 1, rules taboo=connection ...'
"""

from __future__ import annotations

import dataclasses
import textwrap
from collections.abc import Iterable, Sequence

from gyges.game.rules import Side
from gyges.setups.proven.records import AnalysisParams, PairRecord, is_canonical, with_mirrors

__all__ = ["Strength", "count", "report", "strengths"]

def count(n: int, noun: str, plural: str | None = None) -> str:
    """``n`` and its noun, singular for 1 (thousands separated).

    >>> count(1, "pair"), count(8100, "pair"), count(0, "reply", "replies")
    ('1 pair', '8,100 pairs', '0 replies')
    """
    return f"{n:,} {noun if n == 1 else plural or noun + 's'}"


@dataclasses.dataclass(frozen=True)
class Strength:
    """How one setup of one side fared over its pairs: ``south_wins`` and ``north_wins``
    (pairs each side forces a landing in), ``pairs``, and South's landing threats over
    them (``threats``)."""

    side: Side
    setup: str
    south_wins: int
    north_wins: int
    pairs: int
    threats: int

    @property
    def score(self) -> float:
        """Pairs the setup's side wins by force less pairs it loses, per pair: from -1 (it
        loses every pair) to +1 (it wins every pair)."""
        won, lost = ((self.south_wins, self.north_wins) if self.side is Side.SOUTH
                     else (self.north_wins, self.south_wins))
        return (won - lost) / self.pairs

    @property
    def threats_per_pair(self) -> float:
        """South's landing threats per pair (the tie-break: more is better for South,
        fewer for North)."""
        return self.threats / self.pairs

    def rank_key(self) -> tuple[float, float, str]:
        """Strongest first: score, then South's landing threats per pair, then setup."""
        sign = 1 if self.side is Side.SOUTH else -1
        return -self.score, -sign * self.threats_per_pair, self.setup

    def __str__(self) -> str:
        """The report's line for the setup."""
        return (f"{self.setup}  South wins {self.south_wins}/{self.pairs}, North wins "
                f"{self.north_wins}/{self.pairs}, score {round(self.score, 4) + 0.0:+.4f}, "
                f"{self.threats_per_pair:.1f} landing threats a pair")


def strengths(records: Iterable[PairRecord], side: Side) -> list[Strength]:
    """Every setup of ``side`` over its pairs, strongest first (:meth:`Strength.rank_key`).

    >>> from gyges.game.rules import PRESETS
    >>> from gyges.setups.proven.analysis import analyse_pair
    >>> rows = [analyse_pair("231123", n, PRESETS["pbmserv"], 1) for n in ("112233", "332211")]
    >>> [(s.setup, s.score, s.threats) for s in strengths(rows, Side.NORTH)]
    [('112233', 0.0, 9), ('332211', 0.0, 14)]
    """
    table: dict[str, list[int]] = {}
    for r in records:
        t = table.setdefault(r.setup(side), [0, 0, 0, 0])
        t[0] += r.result == "win"
        t[1] += r.result == "loss"
        t[2] += 1
        t[3] += r.landing_threats
    ranked = [Strength(side, setup, *figures) for setup, figures in table.items()]
    return sorted(ranked, key=Strength.rank_key)


def _histogram(values: Sequence[int], bins: int = 8) -> list[str]:
    if not values:
        return []
    lo, hi = min(values), max(values)
    step = max(1, -(-(hi - lo + 1) // bins))
    lines = []
    for b in range(lo, hi + 1, step):
        n = sum(b <= v < b + step for v in values)
        label = f"{b}" if step == 1 else f"{b}-{b + step - 1}"
        lines.append(f"  {label:>9} {n:6d} {'#' * max(1 if n else 0, round(40 * n / len(values)))}")
    return lines


_WIDTH = 92  #: the explanations are wrapped to this many columns


def _explain(text: str) -> list[str]:
    """A section's explanation: in parentheses, indented, wrapped."""
    return textwrap.wrap(f"({text})", _WIDTH, initial_indent="  ", subsequent_indent="   ")


def _percent(part: int, whole: int) -> str:
    return f"{100 * part / whole:.1f}%"


def _header(table: Sequence[PairRecord], rows: Sequence[PairRecord], canonical: bool,
            params: AnalysisParams) -> list[str]:
    sides = (f"{count(len({r.south for r in rows}), 'South setup')} x "
             f"{count(len({r.north for r in rows}), 'North setup')}")
    depth, rules = params.depth, params.rules
    made = f"  made by {params.engine}"
    if not canonical:
        return [f"{count(len(rows), 'setup pair')} ({sides}), depth {depth}, rules {rules}",
                made]
    return [f"{count(len(table), 'canonical pair')} ({len(rows):,} with mirrors: {sides}), "
            f"depth {depth}, rules {rules}", made,
            *_explain("each canonical pair stands for itself and its mirror, both rows "
                      "reversed: the same verdict and figures; the counts below are over all "
                      f"{len(rows):,} pairs")]


def _results(rows: Sequence[PairRecord], depth: int) -> list[str]:
    n = len(rows)
    wins = [r for r in rows if r.result == "win"]
    losses = sum(r.result == "loss" for r in rows)
    lines = [
        f"\nForced results within {depth}:",
        *_explain(f"proven by the solver: a side lands on the goal within {depth} of its own "
                  "moves, whatever the other side plays; South moves first"),
        f"South (moving first) forces a landing within {depth}: {count(len(wins), 'pair')} "
        f"({_percent(len(wins), n)})",
        f"North forces a landing whatever South does: {count(losses, 'pair')} "
        f"({_percent(losses, n)})",
        f"no forced result within {depth}: {count(n - len(wins) - losses, 'pair')}",
    ]
    by_k: dict[int, int] = {}
    for r in wins:
        assert r.win_in is not None
        by_k[r.win_in] = by_k.get(r.win_in, 0) + 1
    lines += [f"  win in {k}: {count(by_k[k], 'pair')}" for k in sorted(by_k)]
    winners = len({r.south for r in wins})
    lines.append(f"South setups with a forced win against some North setup: {winners} of "
                 f"{len({r.south for r in rows})}")
    return lines


def _rankings(rows: Sequence[PairRecord], top: int) -> list[str]:
    if top <= 0:
        return []
    decided = any(r.result != "none" for r in rows)
    if decided:
        lines = ["\nSetups ranked:",
                 *_explain("South wins, North wins: the setup's pairs in which that side "
                           "forces a landing; score: those its side wins less those it loses, "
                           "per pair, from -1 to +1; equal scores are ranked by South's "
                           "landing threats a pair, more being better for South and fewer "
                           "for North")]
    else:
        # nothing is forced: every score is 0 and the order is the tie-break's alone
        depth = rows[0].params.depth if rows else 0
        lines = ["\nSetups by landing threats:",
                 *_explain(f"no pair has a forced result within {depth}, so every setup "
                           "scores 0 and none is stronger than another by force; the setups "
                           "are listed by South's landing threats a pair (more for South, "
                           "fewer for North): a count of first-move chances, not a strength "
                           "(the engine's evaluations and the self-play games measure "
                           "strength: 'setups evaluate', 'setups rank')")]
    for side in (Side.SOUTH, Side.NORTH):
        ranked = strengths(rows, side)
        if len(ranked) < 2 * top:   # two lists would repeat each other: one, in full
            order = ("strongest first" if decided else "most landing threats first"
                     if side is Side.SOUTH else "fewest landing threats for South first")
            lines.append(f"{side.title} setups, {order} (all "
                         f"{count(len(ranked), 'setup')}):")
            lines += [f"  {s}" for s in ranked]
            continue
        if decided:
            lines.append(f"strongest {side.title} setups (of {len(ranked)}):")
        else:
            verb, first, last = (("giving", "most", "fewest") if side is Side.SOUTH
                                 else ("leaving", "fewest", "most"))
            lines.append(f"{side.title} setups {verb} South the {first} landing threats a "
                         f"pair (of {len(ranked)}):")
        lines += [f"  {s}" for s in ranked[:top]]
        lines.append(f"weakest {side.title} setups, weakest first:" if decided else
                     f"{side.title} setups {verb} South the {last}, {last} first:")
        lines += [f"  {s}" for s in ranked[::-1][:top]]
    return lines


def _defences(table: Sequence[PairRecord], canonical: bool, top: int) -> list[str]:
    narrow = [(r, r.defence) for r in table if r.defence and "threat" in r.defence]
    narrow.sort(key=lambda rd: (rd[1]["replies"], rd[0].south, rd[0].north))
    if not narrow or top <= 0:
        return []
    lines = ["\nnarrowest defences:",
             *_explain("South's first move threatening to land next move that the fewest "
                       "North replies stop, by landing first or by leaving South no landing; "
                       "one of those replies is shown"
                       + ("; a pair and its mirror are listed once" if canonical else ""))]
    for r, d in narrow[:top]:
        lines.append(f"  S {r.south} N {r.north}: {d['threat']}, stopped by "
                     f"{count(d['replies'], 'reply', 'replies')}, "
                     f"e.g. {d['reply']}")
    return lines


_DISTRIBUTIONS = (
    ("south_moves", "South's first moves", "South's distinct legal moves in the start position"),
    ("north_moves", "North's moves (if to move)",
     "North's distinct legal moves, were it to move first"),
    ("landing_threats", "South's landing threats",
     "South's first moves after which South could land next move if North did nothing"),
    ("blunders", "South's blunders", "South's first moves that let North land at once"),
    ("replace_threats", "replace threats",
     "South's first moves North can answer by replacing the ring just moved"),
)


def _distributions(rows: Sequence[PairRecord]) -> list[str]:
    n = len(rows)
    lines = ["\nDistributions:",
             *_explain("over the pairs; each line is a range of values, how many pairs fall "
                       "in it, and a bar")]
    for key, title, meaning in _DISTRIBUTIONS:
        values = [r.count(key) for r in rows]
        lines.append(f"\n{title}: min {min(values)}, mean {sum(values) / n:.1f}, "
                     f"max {max(values)}")
        lines += _explain(meaning)
        lines.extend(_histogram(values))
    return lines


def report(records: Sequence[PairRecord], found: AnalysisParams | None, top: int = 5) -> str:
    """The summary of an analysis as text (``found``: its parameters, as
    :func:`~gyges.setups.proven.records.read_results` gives them, None: the first
    record's; ``top``: how many strongest and weakest setups of each side to list, and
    narrowest defences)."""
    if not records:
        return "no results"
    table = sorted(records, key=lambda r: r.pair)
    canonical = is_canonical(table)
    rows = with_mirrors(table)
    params = found if found is not None else table[0].params
    depth = params.depth
    return "\n".join([*_header(table, rows, canonical, params), *_results(rows, depth),
                      *_rankings(rows, top), *_defences(table, canonical, top),
                      *_distributions(rows)])
