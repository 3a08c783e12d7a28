"""The pair map of a self-play table as SVG, at the resolution its games support: each
side's setups in groups by shrunken strength, each cell a South group against a North
group, South's score in its games with its 95% interval.

A pure function of the table (:func:`gyges.setups.selfplay.table.game_table`). One cell a
setup pair would show noise: the published table has about 2.5 games a pair, and a score
of 2.5 games says almost nothing. So the map pools pairs into groups:

- **How many groups** (:func:`group_count`): as many as leave each cell, on average,
  :data:`CELL_GAMES` games, the games a score needs for a 95% interval of at most
  :data:`HALF_WIDTH` either side (``1.96^2 / (4 HALF_WIDTH^2)``, the worst case of an even
  score without draws): the largest ``g`` with ``games / g^2 >= CELL_GAMES``, at most
  the side's setups. 10,000 games give 5 (400 games a cell), 1,600 give 2, fewer than
  1,540 one (the map is then a single cell: the data supports no finer picture).
- **Which group** (:func:`group_map`): each side's setups sorted by shrunken strength
  (:func:`gyges.setups.selfplay.reliability.true_spread`), strongest first, cut into
  ``g`` groups of as equal sizes as can be (the first ones a setup larger). Sorting by
  the strengths fitted on the very games shown would paint noise as a gradient: the
  setups that happened to win land in the top group, and its games score high because
  they made it the top group. So the sort is **cross-fitted**: a game with an even index
  is placed by the groups of a fit of the odd-indexed games, and back (the halves of
  the split-half reliability). A cell's score is then a test, on games its grouping did
  not see, of whether the ranking holds: with equal setups the cells scatter around the
  mean within their intervals; with setups that truly differ the map is red top right
  (strong South groups against weak North ones) and blue bottom left.
- **Each cell**: South's score in the cell's games (points per game, a draw half), the
  games, and the score's 95% interval (Wilson's); a thick outline marks a cell whose
  interval excludes the overall mean. The colour is centred on South's overall score
  (white), red above it, blue below, the scale's ends the largest distance of a cell
  from it, rounded up to 5 points. The tooltip adds the model's expected score for the
  cell's games (the fit of all games).

>>> import xml.etree.ElementTree as ET
>>> from gyges.setups.selfplay.table import game_table
>>> games = [{"south": "231123", "north": "321123", "result": r}
...          for r in ("south", "south", "north", "south")]
>>> svg = ET.fromstring(score_map_svg(game_table(games)))
>>> [t.text for t in svg.iter("{http://www.w3.org/2000/svg}text")][:3]
['75.0%', '[30.1, 95.4]', '4 games']
>>> group_count(10_000, 48, 48), group_count(1_600, 48, 48), group_count(1_539, 48, 48)
(5, 2, 1)
"""

from __future__ import annotations

import dataclasses
import math
from collections.abc import Sequence

from gyges.engine.stats import Z95, Tally
from gyges.formats.quoting import counted
from gyges.setups.proven.heatmap import GAP, TITLE_SIZE, Canvas, svg_document
from gyges.setups.selfplay.forest import shrunken_order
from gyges.setups.selfplay.strengths import fit_strengths
from gyges.setups.selfplay.table import GameTable

__all__ = ["CELL_GAMES", "HALF_WIDTH", "GroupCell", "GroupMap", "group_count", "group_map",
           "score_colour", "score_map_svg"]

SOUTH, NORTH = (214, 39, 40), (31, 119, 180)  #: above the mean red, below it blue
HALF_WIDTH = 0.05  #: the 95% interval a cell's score should have at most, either side
#: games a cell needs for that interval: 1.96^2 * 0.25 / HALF_WIDTH^2, rounded up
CELL_GAMES = math.ceil(Z95 * Z95 * 0.25 / (HALF_WIDTH * HALF_WIDTH))
SIGNIFICANT = "#000000"  #: the outline of a cell whose interval excludes the mean
CELL_W, CELL_H = 112, 64  #: a cell (px): room for three lines of text
TEXT = 13  #: the font size of every text (px): digits 9.5 px high at 96 dpi
_SCALE_STEPS = 10  #: the legend's swatches


#: how far toward full red or blue the scale's ends go: light enough for black text
DEPTH = 0.6


def score_colour(t: float) -> str:
    """Blue (``t`` 0) through white (0.5) to red (1), :data:`DEPTH` of the way to full
    colour at the ends: the colour of a cell whose score is ``t`` of the way along the
    scale.

    >>> score_colour(0.0), score_colour(0.5), score_colour(1.0)
    ('#79add2', '#ffffff', '#e67d7e')
    """
    t = min(max(t, 0.0), 1.0)
    end = SOUTH if t >= 0.5 else NORTH
    k = abs(t - 0.5) * 2 * DEPTH
    r, g, b = (round(255 + (e - 255) * k) for e in end)
    return f"#{r:02x}{g:02x}{b:02x}"


def group_count(games: int, souths: int, norths: int) -> int:
    """The groups a side for ``games`` over ``souths`` by ``norths`` setups: the most
    that leave :data:`CELL_GAMES` games a cell on average (at least 1, at most a side's
    setups)."""
    g = 1
    while (g + 1 <= max(souths, norths)
           and games / (min(g + 1, souths) * min(g + 1, norths)) >= CELL_GAMES):
        g += 1
    return g


@dataclasses.dataclass(frozen=True)
class GroupCell:
    """A South group against a North group (0: the strongest): South's games in it and
    the model's expected score for them (mean over the games)."""

    south: int
    north: int
    tally: Tally
    expected: float

    @property
    def score(self) -> float:
        return self.tally.score

    @property
    def interval(self) -> tuple[float, float]:
        return self.tally.wilson_interval()


@dataclasses.dataclass(frozen=True)
class GroupMap:
    """The groups of each side (``south_groups`` by ``north_groups``), the cells, South's
    overall score in the games placed (``mean``), and the games ``left_out`` (a setup
    without games in the other half has no group there)."""

    south_groups: int
    north_groups: int
    cells: dict[tuple[int, int], GroupCell]
    mean: float
    placed: int
    left_out: int


def _cut(setups: Sequence[str], groups: int) -> dict[str, int]:
    """Each setup's group, ``setups`` strongest first, in ``groups`` of near-equal size."""
    size, extra = divmod(len(setups), groups)
    out, i = {}, 0
    for g in range(groups):
        for _ in range(size + (g < extra)):
            out[setups[i]] = g
            i += 1
    return out


def group_map(table: GameTable, groups: int | None = None) -> GroupMap:
    """The table's games pooled by group pair, each game placed by the groups of the fit
    of the other half of the games (even-indexed games by the odd ones' fit, and back);
    ``groups``: a side's groups (default :func:`group_count`)."""
    results = table.results
    souths, norths = len(table.souths), len(table.norths)
    g = groups if groups is not None else group_count(len(results), souths, norths)
    gs, gn = min(g, souths), min(g, norths)
    halves = [list(results[i::2]) for i in (0, 1)]
    placing: list[tuple[dict[str, int], dict[str, int]]] = []
    for half in halves:
        if not half:
            placing.append(({}, {}))
            continue
        fit = fit_strengths(half, table.fit.ridge)
        placing.append((_cut([r.setup for r in shrunken_order(fit.south)], gs),
                        _cut([r.setup for r in shrunken_order(fit.north)], gn)))
    counts: dict[tuple[int, int], list[float]] = {}
    left_out = 0
    for i, (s, n, points) in enumerate(results):
        south_of, north_of = placing[1 - i % 2]
        if s not in south_of or n not in north_of:
            left_out += 1
            continue
        c = counts.setdefault((south_of[s], north_of[n]), [0, 0, 0, 0.0])
        c[0 if points == 1.0 else 1 if points == 0.5 else 2] += 1
        c[3] += table.fit.expected(s, n)
    cells = {k: GroupCell(*k, Tally(int(c[0]), int(c[1]), int(c[2])),
                          c[3] / (c[0] + c[1] + c[2]))
             for k, c in sorted(counts.items())}
    total = sum((c.tally for c in cells.values()), Tally())
    return GroupMap(gs, gn, cells, total.score, total.games, left_out)


def _scale(m: GroupMap) -> float:
    """The distance from the mean at the scale's ends: the farthest cell's, rounded up to
    5 points (at least 5)."""
    far = max([abs(c.score - m.mean) for c in m.cells.values()] + [0.0])
    return max(0.05, math.ceil(far / 0.05 - 1e-9) * 0.05)


def _pct(x: float) -> str:
    return f"{100 * x:.1f}"


def _legend(c: Canvas, x: float, y: float, m: GroupMap, scale: float) -> None:
    line = TEXT + 8
    swatch = 24
    for k in range(_SCALE_STEPS + 1):
        c.rect(x + swatch * k, y, swatch, TEXT, score_colour(k / _SCALE_STEPS),
               stroke="#cccccc")
    end = x + swatch * (_SCALE_STEPS + 1)
    below = y + TEXT + TEXT + 2
    c.text(x, below, f"{_pct(m.mean - scale)}%", TEXT)
    c.text(x + swatch * (_SCALE_STEPS + 1) / 2, below, f"{_pct(m.mean)}%", TEXT,
           anchor="middle")
    c.text(end, below, f"{_pct(m.mean + scale)}%", TEXT, anchor="end")
    c.text(end + 8, y + TEXT - 1, "South's score in the cell's games", TEXT)
    c.text(end + 8, y + TEXT - 1 + line, "(white: South's overall score)", TEXT)
    y = below + line
    c.rect(x, y, TEXT, TEXT, "white", stroke=SIGNIFICANT)
    c.rect(x + 1, y + 1, TEXT - 2, TEXT - 2, "none", stroke=SIGNIFICANT)
    c.text(x + TEXT + 8, y + TEXT - 1, "thick outline: the cell's 95% interval excludes "
                                       "the overall score", TEXT)
    groups = (f"{m.south_groups} groups a side" if m.south_groups == m.north_groups
              else f"{m.south_groups} South and {m.north_groups} North groups")
    notes = [
        "a cell: South's score (points per game, a draw half), its 95% interval, its games",
        f"groups: each side's setups in {groups} by shrunken strength, strongest first,",
        f"as many as leave about {CELL_GAMES} games a cell (a 95% interval of about "
        f"±{100 * HALF_WIDTH:g} points);",
        "each game grouped by the strengths fitted on the other half of the games (even",
        "games by the odd ones, odd by even): a cell tests the ranking on games it did",
        "not sort by",
    ]
    if m.left_out:
        notes.append(f"{m.left_out} games left out: a setup without games in the other "
                     "half")
    for k, words in enumerate(notes):
        c.text(x, y + TEXT - 1 + line * (k + 1), words, TEXT)


def score_map_svg(table: GameTable, groups: int | None = None) -> str:
    """The pair map of ``table`` (:func:`group_map`) as an SVG 1.1 document of its
    natural size."""
    m = group_map(table, groups)
    scale = _scale(m)
    c = Canvas()
    for i in range(m.south_groups):
        for j in range(m.north_groups):
            cell = m.cells.get((i, j))
            x, y = CELL_W * j, CELL_H * i
            if cell is None:
                c.rect(x, y, CELL_W, CELL_H, "#e8e8e8",
                       f"S group {i + 1} N group {j + 1}: no games")
                continue
            lo, hi = cell.interval
            t = cell.tally
            tip = (f"S group {i + 1} N group {j + 1}: South +{t.wins} ={t.draws} "
                   f"-{t.losses}, score {_pct(cell.score)}% [{_pct(lo)}, {_pct(hi)}], "
                   f"model {_pct(cell.expected)}%")
            c.rect(x, y, CELL_W, CELL_H, score_colour(0.5 + (cell.score - m.mean) / (2 * scale)),
                   tip, stroke="#ffffff")
            if lo > m.mean or hi < m.mean:
                c.rect(x + 2, y + 2, CELL_W - 4, CELL_H - 4, "none", stroke=SIGNIFICANT)
                c.rect(x + 3, y + 3, CELL_W - 6, CELL_H - 6, "none", stroke=SIGNIFICANT)
            mid = x + CELL_W / 2
            for k, words in enumerate((f"{_pct(cell.score)}%", f"[{_pct(lo)}, {_pct(hi)}]",
                                       counted(t.games, "game"))):
                c.text(mid, y + 22 + 17 * k, words, TEXT, anchor="middle", bold=k == 0)
    width, height = CELL_W * m.north_groups, CELL_H * m.south_groups
    c.rect(0, 0, width, height, "none", stroke="#999999")
    for j in range(m.north_groups):
        c.text(CELL_W * j + CELL_W / 2, -GAP - 2, str(j + 1), TEXT, anchor="middle")
    for i in range(m.south_groups):
        c.text(-GAP - 2, CELL_H * i + CELL_H / 2 + 0.35 * TEXT, str(i + 1), TEXT,
               anchor="end")
    c.text(0, -GAP - 2 - TEXT - 6, "North group, strongest first →", TITLE_SIZE, bold=True)
    left = -GAP - 2 - TEXT - 8
    c.text(left, 0, "South group, strongest first →", TITLE_SIZE, turn=90, bold=True)
    _legend(c, left - TITLE_SIZE, height + 3 * GAP, m, scale)
    title = (f"Gyges self-play, {table.total.games:,} games: South's score by South setup "
             f"group (rows) and North setup group (columns), {m.south_groups} by "
             f"{m.north_groups}, each side's strongest first; white: South's overall score "
             f"{_pct(m.mean)}%, red above it, blue below")
    return svg_document(c, title)
