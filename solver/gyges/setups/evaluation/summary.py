"""An evaluation file as a table (:class:`EvaluationTable`): South's win probability for
every pair (each canonical pair counted for its mirror too), each setup's average over the
other side's setups, the best reply to each setup, and the report ``setups report``
prints for an evaluation file.

A setup's average is over every setup of the other side (a setup missing from the file
is left out, and the report says how many pairs are in): South's average win probability
for a South setup, North's (one minus South's) for a North setup. The best reply to a
South setup is the North setup that leaves South the least, and the other way round.

>>> records = [{"south": "112233", "north": "112233", "south_win": 0.6},
...            {"south": "112233", "north": "123123", "south_win": 0.4}]
>>> t = EvaluationTable.of(records)
>>> len(t.south_win), t.average("south")["112233"], t.average("south")["332211"]
(4, 0.5, 0.5)
>>> t.best_reply("south", "112233"), t.best_reply("north", "123123")
(('123123', 0.4), ('112233', 0.6))
"""

from __future__ import annotations

import dataclasses
import functools
import math
import statistics
from collections.abc import Iterable, Mapping, Sequence
from typing import Any

from gyges.game.position import mirror_setup
from gyges.game.rules import Side
from gyges.setups.pairs import all_pairs

__all__ = ["EvaluationTable", "evaluation_report"]

_SIDES = ("south", "north")


@dataclasses.dataclass(frozen=True)
class EvaluationTable:
    """South's win probability by pair (``south_win``), mirrors filled in."""

    south_win: Mapping[tuple[str, str], float]

    @classmethod
    def of(cls, records: Iterable[Mapping[str, Any]]) -> EvaluationTable:
        """The table of an evaluation file's records (each also standing for its mirror)."""
        table: dict[tuple[str, str], float] = {}
        for r in records:
            p = float(r["south_win"])
            table[r["south"], r["north"]] = p
            table[mirror_setup(r["south"]), mirror_setup(r["north"])] = p
        return cls(table)

    def side_value(self, side: str, pair: tuple[str, str]) -> float:
        """``side``'s win probability in ``pair``."""
        p = self.south_win[pair]
        return p if side == "south" else 1.0 - p

    def _pairs_of(self, side: str, setup: str) -> list[tuple[str, str]]:
        i = _SIDES.index(side)
        return [pair for pair in self.south_win if pair[i] == setup]

    def setups(self, side: str) -> list[str]:
        """``side``'s setups in the table, sorted."""
        return sorted({pair[_SIDES.index(side)] for pair in self.south_win})

    def average(self, side: str) -> dict[str, float]:
        """Each of ``side``'s setups: its mean win probability over the other side's
        setups in the table."""
        return dict(self._averages[_SIDES.index(side)])

    @functools.cached_property
    def _averages(self) -> tuple[dict[str, float], dict[str, float]]:
        sums: tuple[dict[str, list[float]], dict[str, list[float]]] = ({}, {})
        for (south, north), p in self.south_win.items():
            sums[0].setdefault(south, []).append(p)
            sums[1].setdefault(north, []).append(1.0 - p)
        south_avg, north_avg = ({s: statistics.fmean(v) for s, v in sorted(d.items())}
                                for d in sums)
        return south_avg, north_avg

    def best_reply(self, side: str, setup: str) -> tuple[str, float]:
        """The other side's setup that leaves ``side``'s ``setup`` the least, and what
        it leaves (``side``'s win probability); ties go to the first setup in order."""
        pairs = sorted(self._pairs_of(side, setup))
        other = 1 - _SIDES.index(side)
        best = min(pairs, key=lambda p: self.side_value(side, p))
        return best[other], self.side_value(side, best)

    def forest_column(self) -> dict[Side, dict[str, float]]:
        """By side, each setup's average to three places: the forest plot's evaluation
        column (:func:`gyges.setups.selfplay.forest.forest_plot`)."""
        return {side: {s: round(v, 3) for s, v in self.average(side.name.lower()).items()}
                for side in (Side.SOUTH, Side.NORTH)}

    def mean_south_win(self) -> float:
        """South's mean win probability over the pairs in the table: the first move's
        advantage as the engine sees it."""
        return statistics.fmean(self.south_win.values())


def _spread(values: Sequence[float]) -> str:
    sd = statistics.pstdev(values) if len(values) > 1 else 0.0
    return (f"standard deviation {sd:.3f} ({_elo_width(sd)}), range {min(values):.3f} to "
            f"{max(values):.3f}")


def _elo_width(sd: float) -> str:
    """A spread of win probabilities around 1/2 in Elo, for comparison with the games'."""
    p = min(max(0.5 + sd, 1e-9), 1 - 1e-9)
    return f"about {400 * math.log10(p / (1 - p)):.0f} Elo"


def evaluation_report(params: Mapping[str, Any] | None, records: Sequence[Mapping[str, Any]],
                      top: int = 5) -> str:
    """The report of an evaluation file: what was searched, by which engine, South's mean
    win probability, each side's setups by their averages (the ``top`` best and worst,
    then all of them with their best replies)."""
    table = EvaluationTable.of(records)
    total = len(all_pairs())
    lines = [f"engine evaluations of {len(table.south_win):,} of {total:,} setup pairs "
             f"({len(records):,} searched, each standing for its mirror too)"]
    if params is not None:
        lines.append(f"  {params['nodes']:,} nodes a pair, proof horizon {params['prove']}, "
                     f"rules {params['rules']}")
        lines.append(f"  made by {params['engine']}")
    depths = [int(r["depth"]) for r in records]
    lines += ["", f"South's mean win probability (South moves first): "
                  f"{table.mean_south_win():.3f}; depth reached {min(depths)} to "
                  f"{max(depths)}, median {statistics.median(depths):g}"]
    for side in _SIDES:
        avg = table.average(side)
        order = sorted(avg, key=lambda s: (-avg[s], s))
        title = side.title()
        other = 'North' if side == 'south' else 'South'
        per = len(table.south_win) / max(len(avg), 1)
        others = len(table.setups(other.lower()))
        over = (f"{others} {other} setups" if per >= others else
                f"the {other} setups evaluated with it (about {per:.0f} of {others} each)")
        lines += ["", f"{title}'s setups by their average win probability over {over}: "
                      f"{_spread(list(avg.values()))}"]
        best = ", ".join(f"{s} {avg[s]:.3f}" for s in order[:top])
        worst = ", ".join(f"{s} {avg[s]:.3f}" for s in order[-top:])
        lines += [f"  best:  {best}", f"  worst: {worst}"]
    for side in _SIDES:
        avg = table.average(side)
        other = "North" if side == "south" else "South"
        lines += ["", f"every {side.title()} setup: its average, and {other}'s best reply "
                      f"(what it leaves {side.title()})"]
        for s in sorted(avg, key=lambda s: (-avg[s], s)):
            reply, value = table.best_reply(side, s)
            lines.append(f"  {s}  {avg[s]:.3f}   best reply {reply}  {value:.3f}")
    return "\n".join(lines) + "\n"
