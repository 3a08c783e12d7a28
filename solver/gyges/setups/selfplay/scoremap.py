"""The heat map of a self-play table as SVG: South's score in each pair's games, South
setups (rows) by North setups (columns), each side's strongest first.

A pure function of the table (:func:`gyges.setups.selfplay.table.game_table`). Ordering both
axes by the fitted strengths turns the table into a picture: if the setups' strengths
explain the results, the top right (strong South setups against weak North ones) is red,
the bottom left blue, and a cell that breaks the pattern stands out. Every setup is
labelled on both axes (:func:`gyges.setups.proven.heatmap.axes`), the legend says what the
colours mean, and every cell has a tooltip with its games and the model's expectation.

>>> import xml.etree.ElementTree as ET
>>> from gyges.setups.selfplay.table import game_table
>>> games = [{"south": "231123", "north": "321123", "result": "south"}]
>>> svg = ET.fromstring(score_map_svg(game_table(games)))
>>> [t.text for t in svg.iter("{http://www.w3.org/2000/svg}text")][:2]
['321123', '231123']
"""

from __future__ import annotations

from gyges.setups.proven.heatmap import CELL, GAP, LEGEND_SIZE, Canvas, axes, svg_document
from gyges.setups.selfplay.table import GameTable

__all__ = ["NO_GAMES", "score_colour", "score_map_svg"]

SOUTH, NORTH = (214, 39, 40), (31, 119, 180)  #: South's wins red, North's blue
NO_GAMES = "#e8e8e8"  #: a pair without games
PROVEN = "#000000"  #: the outline of a pair with a proven result
_SCALE_STEPS = 10  #: the legend's swatches from 0 to 1 (every tenth of a point)


def score_colour(score: float) -> str:
    """Blue (North won every game: 0) through white (0.5) to red (South won every game).

    >>> score_colour(0.0), score_colour(0.5), score_colour(1.0)
    ('#1f77b4', '#ffffff', '#d62728')
    """
    end = SOUTH if score >= 0.5 else NORTH
    t = abs(score - 0.5) * 2
    r, g, b = (round(255 + (e - 255) * t) for e in end)
    return f"#{r:02x}{g:02x}{b:02x}"


def _legend(c: Canvas, x: float, y: float, canonical: bool) -> None:
    line = LEGEND_SIZE + 8
    box = LEGEND_SIZE
    swatch = 16
    for k in range(_SCALE_STEPS + 1):
        c.rect(x + swatch * k, y, swatch, box, score_colour(k / _SCALE_STEPS),
               stroke="#cccccc")
    end = x + swatch * (_SCALE_STEPS + 1)
    c.text(x, y + box + LEGEND_SIZE + 1, "0", LEGEND_SIZE)
    c.text(x + swatch * (_SCALE_STEPS + 1) / 2, y + box + LEGEND_SIZE + 1, "0.5", LEGEND_SIZE,
           anchor="middle")
    c.text(end, y + box + LEGEND_SIZE + 1, "1", LEGEND_SIZE, anchor="end")
    c.text(end + 6, y + box - 1, "South's score in the pair's games (points per game, a draw "
                                 "half)", LEGEND_SIZE)
    c.text(end + 6, y + box - 1 + line, "blue: North won them all, white: even, red: South "
                                        "won them all", LEGEND_SIZE)
    y += 2 * line + 4
    c.rect(x, y, box, box, NO_GAMES, stroke="#888888")
    c.text(x + box + 6, y + box - 1, "no game of this pair", LEGEND_SIZE)
    y += line
    c.rect(x, y, box, box, "white", stroke=PROVEN)
    c.text(x + box + 6, y + box - 1, "outlined: a proven result (setups analyze) counted "
                                     "for its games", LEGEND_SIZE)
    if canonical:
        y += line
        c.text(x, y + box - 1, "each setup stands for itself and its mirror image "
                               "(both rows reversed)", LEGEND_SIZE)


def score_map_svg(table: GameTable) -> str:
    """The heat map of ``table`` as an SVG 1.1 document of its natural size."""
    fit = table.fit
    souths = [r.setup for r in fit.south]
    norths = [r.setup for r in fit.north]
    si = {s: i for i, s in enumerate(souths)}
    ni = {n: j for j, n in enumerate(norths)}
    c = Canvas()
    for i in range(len(souths)):
        for j in range(len(norths)):
            c.rect(CELL * j, CELL * i, CELL, CELL, NO_GAMES)
    for (s, n), cell in table.cells.items():
        t = cell.tally
        tip = (f"S {s} N {n}: South +{t.wins} ={t.draws} -{t.losses}, score "
               f"{100 * cell.score:.0f}%, model {100 * fit.expected(s, n):.0f}%"
               + (" (proven)" if cell.proven else ""))
        c.rect(CELL * ni[n], CELL * si[s], CELL, CELL, score_colour(cell.score), tip,
               stroke=PROVEN if cell.proven else "")
    c.rect(0, 0, CELL * len(norths), CELL * len(souths), "none", stroke="#999999")
    left = axes(c, souths, norths, ("North setup, strongest first →",
                                    "South setup, strongest first →"))
    _legend(c, left, CELL * len(souths) + 3 * GAP, table.canonical)
    title = (f"Gyges self-play, {table.total.games:,} games: South's score by South setup "
             f"(rows) and North setup (columns), each side's strongest first; blue: North "
             f"won, white: even, red: South won")
    return svg_document(c, title)
