"""The evaluation map as SVG: South's win probability for every pair, one cell a pair,
the picture the evaluations support at full resolution (one search a pair has no sampling
noise to pool away, unlike the games' map).

Rows are South's setups, best for South first; columns North's setups, best for North
first (both by their averages, :class:`~gyges.setups.evaluation.summary.EvaluationTable`).
The colour is centred on South's mean win probability (white): red where South does
better, blue where worse, full colour at the distance from the mean that 98% of the pairs
stay within, rounded up to 5 points (the rest at full colour); a pair the file does not
hold yet is grey. Every cell has a
tooltip. A pure function of the table.

>>> import xml.etree.ElementTree as ET
>>> t = EvaluationTable.of([{"south": "112233", "north": "112233", "south_win": 0.6},
...                         {"south": "112233", "north": "121233", "south_win": 0.4}])
>>> svg = ET.fromstring(evaluation_map_svg(t))
>>> len(svg.findall("{http://www.w3.org/2000/svg}rect")) > 4
True
"""

from __future__ import annotations

import math

from gyges.setups.evaluation.summary import EvaluationTable
from gyges.setups.proven.heatmap import CELL_SIZE, Canvas, axes, svg_document
from gyges.setups.selfplay.scoremap import score_colour

__all__ = ["MISSING", "evaluation_map_svg"]

MISSING = "#d9d9d9"  #: a pair not evaluated yet
_TEXT = 12
_STEPS = 8


def _pct(x: float) -> str:
    return f"{100 * x:.1f}%"


def evaluation_map_svg(table: EvaluationTable) -> str:
    """The map of ``table`` as an SVG 1.1 document of its natural size."""
    south_avg, north_avg = table.average("south"), table.average("north")
    souths = sorted(south_avg, key=lambda s: (-south_avg[s], s))
    norths = sorted(north_avg, key=lambda s: (-north_avg[s], s))
    mean = table.mean_south_win()
    deviations = sorted(abs(p - mean) for p in table.south_win.values())
    spread = deviations[int(0.98 * (len(deviations) - 1))]    # a few outliers aside
    scale = max(0.05, math.ceil(spread * 20 - 1e-9) / 20)
    c = Canvas()
    for i, s in enumerate(souths):
        for j, n in enumerate(norths):
            p = table.south_win.get((s, n))
            if p is None:
                c.rect(CELL_SIZE * j, CELL_SIZE * i, CELL_SIZE, CELL_SIZE, MISSING,
                       f"S {s} N {n}: not evaluated yet")
                continue
            colour = score_colour(0.5 + (p - mean) / (2 * scale))
            c.rect(CELL_SIZE * j, CELL_SIZE * i, CELL_SIZE, CELL_SIZE, colour,
                   f"S {s} N {n}: South's win probability {_pct(p)}")
    c.rect(0, 0, CELL_SIZE * len(norths), CELL_SIZE * len(souths), "none", stroke="#999999")
    left = axes(c, souths, norths, ("North setup, best for North first →",
                                    "South setup, best for South first →"))
    y = CELL_SIZE * len(souths) + 3 * 4
    swatch = 24
    for k in range(_STEPS + 1):
        c.rect(left + swatch * k, y, swatch, _TEXT, score_colour(k / _STEPS),
               stroke="#cccccc")
    end = left + swatch * (_STEPS + 1)
    below = y + 2 * _TEXT + 2
    c.text(left, below, f"≤{_pct(max(mean - scale, 0.0))}", _TEXT)
    c.text(left + swatch * (_STEPS + 1) / 2, below, _pct(mean), _TEXT, anchor="middle")
    c.text(end, below, f"≥{_pct(min(mean + scale, 1.0))}", _TEXT, anchor="end")
    c.text(end + 8, y + _TEXT - 1, "South's win probability by the engine's evaluation",
           _TEXT)
    c.text(end + 8, y + 2 * _TEXT + 7, f"(white: South's mean, {_pct(mean)}; grey: not "
                                       "evaluated yet)", _TEXT)
    title = ("Gyges setup pairs: South's win probability by the engine's evaluation, "
             "South setups (rows) by North setups (columns)")
    return svg_document(c, title)
