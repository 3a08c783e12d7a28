"""The self-play pictures (the forest plot and the pair map) rendered by a real headless
browser at 96 dpi (device scale 1: one CSS pixel a screen pixel), checked for what a
reader needs: every text at least :data:`MIN_INK` pixels of ink high, nothing drawn past
the canvas (its margin blank), no two texts across each other, the forest's rows apart.

Like tests/test_book_browser.py (whose browser finder and PNG decoder it uses), it
installs nothing and skips only when no browser binary is found. The pictures are made
from the published games, as ``make data-pictures`` renders them.
"""

from __future__ import annotations

import re
import xml.etree.ElementTree as ET
from pathlib import Path

import pytest
from test_book_browser import decode_png, run_browser

from gyges.setups.evaluation.summary import EvaluationTable
from gyges.setups.evaluation.table import read_evaluations
from gyges.setups.proven.heatmap import ASCENT, CHAR_WIDTH, DESCENT
from gyges.setups.proven.records import read_results
from gyges.setups.selfplay.forest import forest_plot
from gyges.setups.selfplay.games import read_selfplay_games
from gyges.setups.selfplay.scoremap import score_map_svg
from gyges.setups.selfplay.table import GameTable, game_table

DATA = Path(__file__).resolve().parent.parent / "data" / "setups"
SVG = "{http://www.w3.org/2000/svg}"
MIN_INK = 9      #: a text's ink (its digits' height, or more) in screen pixels, at least
DARK = 110       #: a grey level below this is ink (the book test's threshold)
MARGIN = 4       #: the screenshot's border band that must stay blank (the SVG pads 10 px)


@pytest.fixture(scope="module")
def table() -> GameTable:
    found, games = read_selfplay_games(str(DATA / "pbmserv-selfplay.jsonl"))
    assert found is not None
    _, proven = read_results(str(DATA / "pbmserv-depth3.jsonl"))
    return game_table(games, found["canonical"], [r.to_json() for r in proven])


def _shoot(tmp: Path, name: str, svg: str) -> tuple[ET.Element, list[list[int]]]:
    """The SVG and the browser's screenshot of it at its natural size, 96 dpi."""
    root = ET.fromstring(svg)
    width, height = int(root.get("width", 0)), int(root.get("height", 0))
    path = tmp / f"{name}.svg"
    path.write_text(svg, encoding="utf-8")
    png = tmp / f"{name}.png"
    done = run_browser(tmp, "--force-device-scale-factor=1", f"--screenshot={png}",
                       f"--window-size={width},{height}", path.as_uri())
    assert png.exists(), f"the browser wrote no screenshot: {done.stderr.decode()[-2000:]}"
    w, h, rows = decode_png(png.read_bytes())
    assert (w, h) == (width, height)
    return root, rows


def _texts(root: ET.Element) -> list[tuple[str, tuple[int, int, int, int], bool]]:
    """Each text, its box in screen pixels (x0, y0, x1, y1) as laid out, and whether it
    is turned."""
    vx, vy = (float(v) for v in root.get("viewBox", "0 0").split()[:2])
    out = []
    for t in root.iter(f"{SVG}text"):
        x, y = float(t.get("x", 0)) - vx, float(t.get("y", 0)) - vy
        size = float(t.get("font-size", 0))
        w = len(t.text or "") * CHAR_WIDTH * size
        start = {"start": 0.0, "middle": -w / 2, "end": -w}[t.get("text-anchor", "start")]
        turned = "rotate(" in t.get("transform", "")
        if not turned:
            box = (x + start, y - ASCENT * size, x + start + w, y + DESCENT * size)
        elif "rotate(-90" in t.get("transform", ""):   # read upwards: tops face -x
            box = (x - ASCENT * size, y - start - w, x + DESCENT * size, y - start)
        else:   # read downwards (turn 90): the glyphs' tops face +x
            box = (x - DESCENT * size, y + start, x + ASCENT * size, y + start + w)
        x0, y0, x1, y1 = (round(v) for v in box)
        out.append((t.text or "", (x0, y0, x1, y1), turned))
    return out


def _ink(rows: list[list[int]], box: tuple[int, int, int, int], across: bool
         ) -> tuple[int, int] | None:
    """The first and last row (``across``: column) of ``box`` holding ink, or None."""
    x0, y0, x1, y1 = box
    if not across:
        lines = [y for y in range(max(y0, 0), min(y1, len(rows)))
                 if any(v < DARK for v in rows[y][max(x0, 0):x1])]
    else:
        lines = [x for x in range(max(x0, 0), min(x1, len(rows[0])))
                 if any(rows[y][x] < DARK for y in range(max(y0, 0), min(y1, len(rows))))]
    return (lines[0], lines[-1]) if lines else None


def _legible(root: ET.Element, rows: list[list[int]]) -> list[tuple[int, int]]:
    """Every text's ink extent across its line (in the document's order), each checked
    at least MIN_INK high."""
    extents = []
    for text, box, turned in _texts(root):
        ink = _ink(rows, box, turned)
        assert ink is not None, f"{text!r}: no ink where it is laid out ({box})"
        assert ink[1] - ink[0] + 1 >= MIN_INK, \
            f"{text!r}: {ink[1] - ink[0] + 1} px of ink high, under {MIN_INK}"
        extents.append(ink)
    return extents


def _texts_apart(root: ET.Element) -> None:
    """No two texts laid out across each other (their boxes as laid out, the ink test
    holding each box to what the browser draws)."""
    boxes = _texts(root)
    for i, (a, (ax0, ay0, ax1, ay1), _) in enumerate(boxes):
        for b, (bx0, by0, bx1, by1), _ in boxes[i + 1:]:
            assert ax1 <= bx0 or bx1 <= ax0 or ay1 <= by0 or by1 <= ay0, \
                f"{a!r} and {b!r} are laid out across each other"


def _margin_blank(rows: list[list[int]]) -> None:
    h, w = len(rows), len(rows[0])
    band = [v for y in range(h) for x in (*range(MARGIN), *range(w - MARGIN, w))
            for v in [rows[y][x]]]
    band += [v for y in (*range(MARGIN), *range(h - MARGIN, h)) for v in rows[y]]
    assert min(band) >= 250, "something is drawn in the picture's blank margin"


def test_the_forest_plot_reads_at_96_dpi(table, tmp_path):
    """The published forest plot, with the evaluations' column."""
    _, evaluations = read_evaluations(str(DATA / "pbmserv-evaluations.jsonl"))
    column = EvaluationTable.of(evaluations).forest_column()
    root, rows = _shoot(tmp_path, "forest", forest_plot(table, column, "evaluation"))
    extents = _legible(root, rows)
    _texts_apart(root)
    _margin_blank(rows)
    labels = [ink for t, ink in zip(root.iter(f"{SVG}text"), extents, strict=True)
              if re.fullmatch(r"\d{6}( = \d{6})?", t.text or "")]
    assert len(labels) == 96                    # 48 setups a side, each a row
    for inks in (labels[:48], labels[48:]):     # one side's rows, top to bottom, apart
        for (_, bottom), (top, _) in zip(inks, inks[1:], strict=False):
            assert bottom < top, "two rows of the forest plot overlap"


def test_the_pair_map_reads_at_96_dpi(table, tmp_path):
    root, rows = _shoot(tmp_path, "map", score_map_svg(table))
    _legible(root, rows)
    _texts_apart(root)
    _margin_blank(rows)


def test_the_evaluation_map_reads_at_96_dpi(tmp_path):
    from gyges.setups.evaluation.heatmap import evaluation_map_svg

    _, evaluations = read_evaluations(str(DATA / "pbmserv-evaluations.jsonl"))
    root, rows = _shoot(tmp_path, "evaluations",
                        evaluation_map_svg(EvaluationTable.of(evaluations)))
    _legible(root, rows)
    _texts_apart(root)
    _margin_blank(rows)
