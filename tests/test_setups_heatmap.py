"""The heat map of a setup analysis (gyges.setups.proven.heatmap): a cell per pair in its colour,
every setup labelled on both axes beside its row or column, nothing drawn outside the
picture on any map size, a legend, a pure function of the table, and a table of canonical
pairs drawn whole."""

from __future__ import annotations

import itertools
import math
import re
import xml.etree.ElementTree as ET
from pathlib import Path

import pytest

from gyges.game.position import ALL_SETUPS
from gyges.setups.pairs import canonical_pair
from gyges.setups.proven.heatmap import heatmap_svg
from gyges.setups.proven.records import PairRecord, read_results

DATA = Path(__file__).resolve().parent.parent / "data" / "setups"
NS = "{http://www.w3.org/2000/svg}"
ADVANCE = 0.61   # a character of the monospace fonts named, at most (DejaVu Sans Mono: 0.602)
ASCENT, DESCENT = 0.8, 0.25   # a line's reach above and below its baseline, in font sizes


@pytest.fixture(scope="module")
def table() -> list[PairRecord]:
    return read_results(str(DATA / "pbmserv-depth3.jsonl"))[1]


def part(records: list[PairRecord], souths: int, norths: int) -> list[PairRecord]:
    """The pairs of the first ``souths`` South setups and ``norths`` North setups (every
    90 // n-th setup, to spread them)."""
    s = set(ALL_SETUPS[::max(1, 90 // souths)][:souths])
    n = set(ALL_SETUPS[::max(1, 90 // norths)][:norths])
    return [r for r in records if r.south in s and r.north in n]


def rotated(points: list[tuple[float, float]], transform: str | None
            ) -> list[tuple[float, float]]:
    """The points under an SVG ``rotate(a cx cy)`` transform (or none)."""
    if not transform:
        return points
    m = re.fullmatch(r"rotate\(([-\d.]+) ([-\d.]+) ([-\d.]+)\)", transform)
    assert m, transform
    a, cx, cy = (float(g) for g in m.groups())
    cos, sin = math.cos(math.radians(a)), math.sin(math.radians(a))
    return [(cx + (x - cx) * cos - (y - cy) * sin, cy + (x - cx) * sin + (y - cy) * cos)
            for x, y in points]


def extents(el: ET.Element) -> tuple[float, float, float, float]:
    """The box an element covers: a rectangle's, or a line of text's (its advance along
    the baseline, its ascent and descent across), turned as its transform says."""
    x, y = float(el.get("x", 0)), float(el.get("y", 0))
    if el.tag == f"{NS}rect":
        corners = [(x, y), (x + float(el.get("width")), y + float(el.get("height")))]
    else:
        size = float(el.get("font-size"))
        width = len(el.text) * ADVANCE * size
        start = x - {"start": 0, "middle": width / 2, "end": width}[el.get("text-anchor",
                                                                            "start")]
        corners = [(start, y - ASCENT * size), (start + width, y - ASCENT * size),
                   (start, y + DESCENT * size), (start + width, y + DESCENT * size)]
    points = rotated(corners, el.get("transform"))
    xs, ys = [p[0] for p in points], [p[1] for p in points]
    return min(xs), min(ys), max(xs), max(ys)


def cells(root: ET.Element) -> dict[tuple[str, str], ET.Element]:
    """The cells by pair (a cell's tooltip names its pair)."""
    out = {}
    for r in root.iter(f"{NS}rect"):
        tip = r.find(f"{NS}title")
        if tip is not None:
            m = re.match(r"S (\d{6}) N (\d{6}):", tip.text)
            assert m, tip.text
            out[m.groups()] = r
    return out


@pytest.mark.parametrize("souths, norths", [(1, 1), (4, 4), (20, 20), (1, 90), (90, 1),
                                            (90, 90)],
                         ids=["1x1", "4x4", "20x20", "1x90", "90x1", "90x90"])
def test_labels_on_both_axes_and_nothing_outside(table, souths, norths):
    records = part(table, souths, norths)
    root = ET.fromstring(heatmap_svg(records))
    x0, y0, w, h = (float(v) for v in root.get("viewBox").split())
    assert (float(root.get("width")), float(root.get("height"))) == (w, h)  # natural size
    drawn = [el for el in root.iter() if el.tag in (f"{NS}rect", f"{NS}text")]
    for el in drawn:
        left, top, right, bottom = extents(el)
        assert x0 <= left and right <= x0 + w and y0 <= top and bottom <= y0 + h, (
            el.tag, el.text, el.attrib)
    by_pair = cells(root)
    assert len(by_pair) == len(records) == souths * norths
    # every setup once on each axis: South's beside its row, North's upright above its
    # column, in a font that reads, in cells large enough for it
    labels = [t for t in root.iter(f"{NS}text") if re.fullmatch(r"\d{6}", t.text or "")]
    row_labels = {t.text: t for t in labels if not t.get("transform")}
    column_labels = {t.text: t for t in labels
                     if (t.get("transform") or "").startswith("rotate(-90 ")}
    assert len(labels) == souths + norths
    assert sorted(row_labels) == sorted({r.south for r in records})
    assert sorted(column_labels) == sorted({r.north for r in records})
    grid_left = min(float(c.get("x")) for c in by_pair.values())
    grid_top = min(float(c.get("y")) for c in by_pair.values())
    for (s, n), cell in by_pair.items():
        cx, cy = float(cell.get("x")), float(cell.get("y"))
        size = float(cell.get("width"))
        row, column = row_labels[s], column_labels[n]
        assert float(row.get("font-size")) >= 11 and size >= float(row.get("font-size")) + 2
        # the row label's text sits within its row, left of the grid
        _, top, right, bottom = extents(row)
        assert cy - 1 <= top and bottom <= cy + size + 1 and right <= grid_left
        # the column label within its column, above the grid
        left, _, right, bottom = extents(column)
        assert cx - 1 <= left and right <= cx + size + 1 and bottom <= grid_top
    texts = [t.text for t in root.iter(f"{NS}text")]
    assert "North setup →" in texts and "South setup →" in texts
    assert "South (moving first) forces a landing within 3" in texts
    assert "North forces a landing within 3, whatever South does" in texts
    assert "no forced result: South's landing threats" in texts


def test_a_cell_per_pair_in_its_colour_and_a_pure_function(table):
    records = []
    for i, s in enumerate(ALL_SETUPS[:3]):
        for j, n in enumerate(ALL_SETUPS[:4]):
            result = "win" if i == 0 and j < 3 else "loss" if (i, j) == (2, 3) else "none"
            records.append(PairRecord.from_json({
                **table[0].to_json(), "south": s, "north": n, "result": result,
                "win_in": None if result == "none" else 2, "landing_threats": i + j,
                "depth": 2}))
    svg = heatmap_svg(records)
    assert heatmap_svg(records[::-1]) == svg     # the table, not the order of its lines
    by_pair = cells(ET.fromstring(svg))
    assert len(by_pair) == 12
    fills = {pair: cell.get("fill") for pair, cell in by_pair.items()}
    assert sorted(pair for pair, f in fills.items() if f == "#d62728") == [
        (ALL_SETUPS[0], n) for n in ALL_SETUPS[:3]]
    assert [pair for pair, f in fills.items() if f == "#1f77b4"] == [(ALL_SETUPS[2],
                                                                      ALL_SETUPS[3])]
    # the other pairs: a green, darker with more landing threats
    threats = {r.pair: r.landing_threats for r in records if r.result == "none"}
    shades = sorted((threats[p], tuple(int(fills[p][k:k + 2], 16) for k in (1, 3, 5)))
                    for p in threats)
    assert len({v for v, _ in shades}) == 4 and all(
        sum(a[1]) > sum(b[1]) for a, b in itertools.pairwise(shades) if a[0] < b[0])
    assert all(g > r == b for _, (r, g, b) in shades)
    assert "(0 to 5)" in svg


def test_a_canonical_table_is_drawn_with_its_mirrors(table):
    every = part(table, 20, 20)
    setups = {r.south for r in every} | {r[::-1] for r in {r.south for r in every}}
    every = [r for r in table if r.south in setups and r.north in setups]
    canonical = [PairRecord.from_json({**r.to_json(), "canonical": True}) for r in every
                 if canonical_pair(*r.pair) == r.pair]
    assert len(canonical) < len(every)
    drawn = {pair: c.get("fill") for pair, c in cells(ET.fromstring(heatmap_svg(canonical)))
             .items()}
    whole = {pair: c.get("fill") for pair, c in cells(ET.fromstring(heatmap_svg(every)))
             .items()}
    assert drawn == whole
