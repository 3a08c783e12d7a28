"""The heat map of a setup analysis as SVG: South setups (rows) by North setups (columns).

A pure function of the records (:func:`heatmap_svg`). Every setup is labelled on both
axes (the North setups turned upright above the columns), the axis titles and a legend
of the colours say what is shown, and everything drawn lies inside the picture, whatever
the number of setups: the picture is sized to what it holds. A table of canonical pairs
is drawn with its mirror pairs (:func:`gyges.setups.proven.records.with_mirrors`).

The text is in a monospace font, whose width is known without measuring it (at most
:data:`CHAR_WIDTH` of the font size a character), so the layout can make room for it.

>>> import xml.etree.ElementTree as ET
>>> from gyges.game.rules import PRESETS
>>> from gyges.setups.proven.analysis import analyse_pair
>>> svg = ET.fromstring(heatmap_svg([analyse_pair("231123", "321123", PRESETS["pbmserv"], 1)]))
>>> svg.tag, [t.text for t in svg.iter("{http://www.w3.org/2000/svg}text")][:4]
('{http://www.w3.org/2000/svg}svg', ['321123', '231123', 'North setup →', 'South setup →'])
"""

from __future__ import annotations

import dataclasses
import math
from collections.abc import Sequence
from typing import Any
from xml.sax.saxutils import escape, quoteattr

from gyges.setups.pairs import canonical_pair
from gyges.setups.proven.records import COUNTS, PairRecord, is_canonical, with_mirrors

__all__ = ["CELL_SIZE", "CHAR_WIDTH", "Canvas", "axes", "heatmap_svg", "svg_document", "text_width"]

#: cell side (px): larger cells read more easily but make a larger picture; 15 holds a
#: label of LABEL_SIZE in each row and column, and 90 setups make a grid of 1,350 px
CELL_SIZE = 15
LABEL_SIZE = 12  #: font size of the setup labels (px): read at the picture's natural size
TITLE_SIZE = 13  #: font size of the axis titles (px)
LEGEND_SIZE = 11  #: font size of the legend (px)
#: a monospace character's advance, in font sizes: 0.6 in the fonts named (DejaVu Sans
#: Mono 0.602), and a little more so that a wider fallback font still fits
CHAR_WIDTH = 0.62
ASCENT, DESCENT = 0.8, 0.25  #: a line's reach above and below its baseline, in font sizes
GAP = 4  #: between a label and what it labels (px)
PAD = 10  #: around the picture (px)
FONT = "DejaVu Sans Mono, Menlo, Consolas, monospace"

WIN, LOSS = "#d62728", "#1f77b4"  #: South forces a landing; North does
#: swatches of the legend's white-to-green scale, at most: one a value up to 24 (the
#: landing threats of the published table go to 22); more would only lengthen the legend
_SCALE_STEPS = 24

#: what the shade of a pair without a forced result shows, by record key: a name, and
#: what it counts
MEANINGS = {
    "landing_threats": ("South's landing threats",
                        "first moves after which South could land next move"),
    "blunders": ("South's blunders", "first moves that let North land at once"),
    "replace_threats": ("replace threats",
                        "South's first moves North can answer by replacing the ring moved"),
    "south_moves": ("South's first moves", "its distinct legal moves"),
    "north_moves": ("North's moves", "its distinct legal moves, were it to move first"),
}


def _shade(v: float, hi: float) -> str:
    """White (0) to green (``hi``)."""
    level = 255 - round(200 * v / hi)
    return f"#{level:02x}{(level + 255) // 2:02x}{level:02x}"


def text_width(text: str, size: float) -> float:
    return len(text) * CHAR_WIDTH * size


@dataclasses.dataclass
class Canvas:
    """The elements drawn so far, and the box they cover (grown as they are added)."""

    parts: list[str] = dataclasses.field(default_factory=list)
    box: list[float] = dataclasses.field(
        default_factory=lambda: [float("inf"), float("inf"), float("-inf"), float("-inf")])

    def _cover(self, x0: float, y0: float, x1: float, y1: float) -> None:
        b = self.box
        b[0], b[1], b[2], b[3] = min(b[0], x0), min(b[1], y0), max(b[2], x1), max(b[3], y1)

    def rect(self, x: float, y: float, w: float, h: float, fill: str, tip: str = "",
             stroke: str = "") -> None:
        self._cover(x, y, x + w, y + h)
        extra = f' stroke="{stroke}"' if stroke else ""
        body = f"><title>{escape(tip)}</title></rect>" if tip else "/>"
        self.parts.append(f'<rect x="{x:g}" y="{y:g}" width="{w:g}" height="{h:g}" '
                          f'fill="{fill}"{extra}{body}')

    def text(self, x: float, y: float, text: str, size: float, anchor: str = "start",
             turn: int = 0, bold: bool = False) -> None:
        """``text`` with its baseline at (x, y), read along its direction from ``x`` as
        ``anchor`` says; ``turn`` -90 reads upwards, 90 downwards."""
        w = text_width(text, size)
        start = {"start": 0.0, "middle": -w / 2, "end": -w}[anchor]
        if turn == 0:
            self._cover(x + start, y - ASCENT * size, x + start + w, y + DESCENT * size)
        elif turn == -90:   # along -y; the glyphs' tops face -x
            self._cover(x - ASCENT * size, y - start - w, x + DESCENT * size, y - start)
        else:               # along +y; the glyphs' tops face +x
            self._cover(x - DESCENT * size, y + start, x + ASCENT * size, y + start + w)
        attrs = f'x="{x:g}" y="{y:g}" font-size="{size:g}"'
        if anchor != "start":
            attrs += f' text-anchor="{anchor}"'
        if turn:
            attrs += f' transform="rotate({turn} {x:g} {y:g})"'
        if bold:
            attrs += ' font-weight="bold"'
        self.parts.append(f"<text {attrs}>{escape(text)}</text>")


def _grid(c: Canvas, rows: Sequence[PairRecord], souths: list[str], norths: list[str],
          key: str, hi: int, canonical: bool) -> None:
    """The cells, one per pair, with a tooltip each; the grid's top left corner at 0, 0."""
    si = {s: i for i, s in enumerate(souths)}
    ni = {s: i for i, s in enumerate(norths)}
    results = {"win": "South forces a landing", "loss": "North forces a landing",
               "none": "no forced result"}
    for r in rows:
        s, n = r.pair
        colour = (WIN if r.result == "win" else LOSS if r.result == "loss"
                  else _shade(r.count(key), hi))
        mirrored = canonical and canonical_pair(s, n) != (s, n)
        tip = (f"S {s} N {n}: {results.get(r.result, str(r.result))}, "
               f"{key.replace('_', ' ')} {r.count(key)}"
               + (f" (as its mirror S {s[::-1]} N {n[::-1]})" if mirrored else ""))
        c.rect(CELL_SIZE * ni[n], CELL_SIZE * si[s], CELL_SIZE, CELL_SIZE, colour, tip)
    c.rect(0, 0, CELL_SIZE * len(norths), CELL_SIZE * len(souths), "none", stroke="#999999")


def axes(c: Canvas, souths: list[str], norths: list[str],
         titles: tuple[str, str] = ("North setup →", "South setup →")) -> float:
    """Setup labels on both axes (the grid's top left corner at 0, 0, cells of
    :data:`CELL_SIZE`) and the axis titles (North's, South's); returns the x where the row
    labels begin (a legend is aligned with it)."""
    width, height = CELL_SIZE * len(norths), CELL_SIZE * len(souths)
    label = text_width("000000", LABEL_SIZE)
    for j, n in enumerate(norths):   # upright, read upwards, centred on the column
        c.text(CELL_SIZE * j + CELL_SIZE / 2 + 0.35 * LABEL_SIZE, -GAP, n, LABEL_SIZE, turn=-90)
    for i, s in enumerate(souths):
        c.text(-GAP, CELL_SIZE * i + CELL_SIZE / 2 + 0.35 * LABEL_SIZE, s, LABEL_SIZE, anchor="end")
    north, south = titles
    top = -GAP - label - 2 * GAP - DESCENT * TITLE_SIZE
    if text_width(north, TITLE_SIZE) <= width:
        c.text(width / 2, top, north, TITLE_SIZE, anchor="middle", bold=True)
    else:
        c.text(0, top, north, TITLE_SIZE, bold=True)
    left = -GAP - label - 2 * GAP - ASCENT * TITLE_SIZE
    if text_width(south, TITLE_SIZE) <= height:
        c.text(left, height / 2, south, TITLE_SIZE, anchor="middle", turn=90, bold=True)
    else:
        c.text(left, 0, south, TITLE_SIZE, turn=90, bold=True)
    return -GAP - label


def _legend(c: Canvas, x: float, y: float, depth: Any, key: str, hi: int) -> None:
    """What the colours mean, from (x, y) down: the two forced results, then the scale of
    the shade of the other pairs, from 0 to ``hi``."""
    line = LEGEND_SIZE + 8
    box = LEGEND_SIZE
    for colour, words in ((WIN, f"South (moving first) forces a landing within {depth}"),
                          (LOSS, f"North forces a landing within {depth}, whatever South "
                                 "does")):
        c.rect(x, y, box, box, colour, stroke="#888888")
        c.text(x + box + 6, y + box - 1, words, LEGEND_SIZE)
        y += line
    steps = min(hi, _SCALE_STEPS)
    swatch = 10
    for k in range(steps + 1):
        c.rect(x + swatch * k, y, swatch, box, _shade(hi * k / steps, hi), stroke="#cccccc")
    end = x + swatch * (steps + 1)
    c.text(x, y + box + LEGEND_SIZE + 1, "0", LEGEND_SIZE)
    c.text(end, y + box + LEGEND_SIZE + 1, str(hi), LEGEND_SIZE, anchor="end")
    name, meaning = MEANINGS.get(key, (key.replace("_", " "), ""))
    c.text(end + 6, y + box - 1, f"no forced result: {name}", LEGEND_SIZE)
    if meaning:
        c.text(end + 6, y + box - 1 + line, f"({meaning})", LEGEND_SIZE)


def heatmap_svg(records: Sequence[PairRecord], value: str = "auto") -> str:
    """A heat map, South setup (rows) by North setup (columns), both sorted, as an SVG 1.1
    document of its natural size.

    Each cell's colour shows the pair's result: a South win red, a North win blue; for
    pairs without a forced result, a shade from white to green shows South's landing
    threats (``value``: ``auto``, or another of the record's counts,
    :data:`~gyges.setups.proven.records.COUNTS`). Every cell has a tooltip.
    """
    key = "landing_threats" if value == "auto" else value
    if key not in COUNTS:
        raise ValueError(f"{value!r} is not a count of a record: {', '.join(COUNTS)}")
    table = sorted(records, key=lambda r: r.pair)
    rows = with_mirrors(table)
    souths = sorted({r.south for r in rows})
    norths = sorted({r.north for r in rows})
    hi = max([r.count(key) for r in rows] + [1])
    depth = table[0].params.depth if table else "?"
    c = Canvas()
    _grid(c, rows, souths, norths, key, hi, is_canonical(table))
    left = axes(c, souths, norths)
    _legend(c, left, CELL_SIZE * len(souths) + 3 * GAP, depth, key, hi)
    title = (f"Gyges setup pairs, depth {depth}: South setups (rows) by North setups "
             f"(columns); red: South forces a landing, blue: North does, white to green: "
             f"{key.replace('_', ' ')} (0 to {hi})")
    return svg_document(c, title)


def svg_document(c: Canvas, title: str) -> str:
    """What ``c`` holds as an SVG 1.1 document of its natural size (all of it inside,
    with a margin), titled ``title``, on white."""
    x0, y0 = math.floor(c.box[0] - PAD), math.floor(c.box[1] - PAD)
    w, h = math.ceil(c.box[2] + PAD) - x0, math.ceil(c.box[3] + PAD) - y0
    view = f"{x0} {y0} {w} {h}"
    return "\n".join([
        '<?xml version="1.0" encoding="UTF-8"?>',
        f'<svg xmlns="http://www.w3.org/2000/svg" version="1.1" width="{w}" height="{h}" '
        f'viewBox="{view}" font-family={quoteattr(FONT)}>',
        f"<title>{escape(title)}</title>",
        f'<rect x="{x0}" y="{y0}" width="{w}" height="{h}" fill="white"/>',
        *c.parts,
        "</svg>",
    ]) + "\n"
