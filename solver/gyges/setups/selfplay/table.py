"""The games of ``setups rank`` as a table: setups folded with their mirror images, the
score of each pair of setups, the proven verdicts that replace games, the fitted strengths.

**The mirror folded in.** The rules are the same mirrored left to right, so in a table of
canonical pairs (``setups rank --canonical``) each setup is counted together with its
mirror image, under the smaller of the two (:func:`fold`): ``321132`` is ``231123``. The
fit (:mod:`gyges.setups.selfplay.strengths`) then has one strength for the two, from the games of
both; 48 setups a side stand for the 90.

**Proven verdicts first.** A pair that ``setups analyze`` proved (South or North forces a
landing within its depth, whatever the other plays) has that result whatever the engine
played: each of its games (or of its mirror's) counts as the proven result.

>>> games = [{"south": "231123", "north": "332211", "result": "south"},
...          {"south": "321132", "north": "112233", "result": "draw"}]
>>> t = game_table(games, canonical=True)
>>> list(t.cells), t.cells[("231123", "112233")].score
([('231123', '112233')], 0.75)
"""

from __future__ import annotations

import dataclasses
from collections.abc import Iterable, Mapping, Sequence
from typing import Any

from gyges.engine.stats import Tally
from gyges.game.position import canonical_pair, mirror_setup
from gyges.setups.selfplay.strengths import RIDGE, StrengthFit, fit_strengths

__all__ = ["POINTS", "GameTable", "PairScore", "Proven", "fold", "game_table"]

#: South's points for a game's result
POINTS = {"south": 1.0, "draw": 0.5, "north": 0.0}


def fold(setup: str, canonical: bool) -> str:
    """The setup the table counts ``setup`` as: with ``canonical``, the smaller of it and
    its mirror image.

    >>> fold("321132", True), fold("321132", False)
    ('231123', '321132')
    """
    return min(setup, mirror_setup(setup)) if canonical else setup


@dataclasses.dataclass(frozen=True)
class Proven:
    """A pair with a forced result: ``winner`` (``south`` or ``north``) lands within
    ``moves`` of its moves whatever the other plays, proven to ``depth``. The table lists
    each pair and its mirror once, as the canonical pair."""

    south: str
    north: str
    winner: str
    moves: int
    depth: int


@dataclasses.dataclass(frozen=True)
class PairScore:
    """South's games in one cell of the table (a pair of setups, folded): South's wins,
    the draws and North's wins, and whether a proven verdict decided them."""

    south: str
    north: str
    tally: Tally
    proven: bool = False

    @property
    def games(self) -> int:
        return self.tally.games

    @property
    def score(self) -> float:
        """South's points per game (a draw half)."""
        return self.tally.score


@dataclasses.dataclass(frozen=True)
class GameTable:
    """What the games say: the cells (by folded South and North setup), the proven pairs,
    every game's South tally, the fit, and the results fitted (South's setup, North's,
    South's points), in the games' order."""

    canonical: bool
    cells: Mapping[tuple[str, str], PairScore]
    proven: tuple[Proven, ...]
    total: Tally
    fit: StrengthFit
    results: tuple[tuple[str, str, float], ...] = ()

    @property
    def souths(self) -> list[str]:
        return sorted({s for s, _ in self.cells})

    @property
    def norths(self) -> list[str]:
        return sorted({n for _, n in self.cells})


def _proven(records: Iterable[Mapping[str, Any]]) -> dict[tuple[str, str], Proven]:
    """The forced results of analysis records, by pair and by its mirror."""
    out: dict[tuple[str, str], Proven] = {}
    for r in records:
        if r["result"] in ("win", "loss"):
            winner = "south" if r["result"] == "win" else "north"
            p = Proven(r["south"], r["north"], winner, r["win_in"], r["depth"])
            out[r["south"], r["north"]] = p
            out[mirror_setup(r["south"]), mirror_setup(r["north"])] = p
    return out


def game_table(games: Sequence[Mapping[str, Any]], canonical: bool = False,
               proven: Iterable[Mapping[str, Any]] = (), ridge: float = RIDGE) -> GameTable:
    """The table of ``games`` (records of ``setups rank``: ``south``, ``north``,
    ``result``); ``canonical`` folds each setup with its mirror (:func:`fold`);
    ``proven``: records of ``setups analyze`` whose forced results replace the games of
    their pairs."""
    forced = _proven(proven)
    counts: dict[tuple[str, str], list[int]] = {}
    decided: set[tuple[str, str]] = set()
    results = []
    for g in games:
        verdict = forced.get((g["south"], g["north"]))
        result = verdict.winner if verdict else g["result"]
        key = fold(g["south"], canonical), fold(g["north"], canonical)
        c = counts.setdefault(key, [0, 0, 0])
        c[("south", "draw", "north").index(result)] += 1
        if verdict:
            decided.add(key)
        results.append((*key, POINTS[result]))
    if not results:
        raise ValueError("no games")
    cells = {k: PairScore(*k, Tally(c[0], c[1], c[2]), k in decided)
             for k, c in sorted(counts.items())}
    w, d, n = (sum(c[i] for c in counts.values()) for i in range(3))
    total = Tally(w, d, n)
    shown = sorted({dataclasses.replace(p, south=c[0], north=c[1]) for p in forced.values()
                    for c in [canonical_pair(p.south, p.north)]},
                   key=lambda p: (p.winner, p.moves, p.south, p.north))
    return GameTable(canonical, cells, tuple(shown), total,
                     fit_strengths(results, ridge), tuple(results))
