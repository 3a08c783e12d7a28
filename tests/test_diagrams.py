"""A puzzle's SVG diagrams (gyges.puzzles.book.diagrams): the position and its answer drawn, the
key's path or the main line's arrows, and the drawing options."""

from __future__ import annotations

import re
import xml.etree.ElementTree as ET

import pytest
from catalogues import seed_puzzles

from gyges.puzzles.book.diagrams import Arrows, puzzle_svgs, solution_drawing

SVG_NS = "{http://www.w3.org/2000/svg}"


def test_svg_files_per_puzzle_show_the_key():
    for p in seed_puzzles():
        files = puzzle_svgs(p)
        assert set(files) == {f"{p.id}.svg", f"{p.id}-solution.svg"}
        diagram = ET.fromstring(files[f"{p.id}.svg"])
        solution = ET.fromstring(files[f"{p.id}-solution.svg"])
        assert not [e for e in diagram.iter(f"{SVG_NS}polyline")]
        (path,) = [e for e in solution.iter(f"{SVG_NS}polyline") if e.get("class") == "path"]
        rings = [g for g in diagram.iter(f"{SVG_NS}g") if "ring" in g.get("class", "").split()]
        assert len(rings) == sum(1 for x in p.position.board if x)
        relocations = [e for e in solution.iter(f"{SVG_NS}line")
                       if e.get("class") == "relocation"]
        assert len(relocations) == (1 if "x" in p.key else 0)


def test_svg_options_arrows_coordinates_size_monochrome():
    p = next(p for p in seed_puzzles() if len(p.main_line) >= 3)
    line = puzzle_svgs(p, arrows="line")[f"{p.id}-solution.svg"]
    root = ET.fromstring(line)
    arrows = [g for g in root.iter(f"{SVG_NS}g") if g.get("class") == "line-move-arrow"]
    moves = sum(len(t.split(";")) for t in p.main_line)
    assert len(arrows) == moves
    numbers = [t.text for g in root.iter(f"{SVG_NS}g") if g.get("class") == "move-number"
               for t in g.iter(f"{SVG_NS}text")]
    assert numbers == [str(i) for i in range(1, moves + 1)]
    assert set(puzzle_svgs(p, arrows="none")) == {f"{p.id}.svg"}
    plain = puzzle_svgs(p, size=200, coordinates=False, monochrome=True)
    for svg in plain.values():
        root = ET.fromstring(svg)
        assert root.get("width") == "200"
        assert 'class="coordinates"' not in svg
        inks = set(re.findall(r'(?:fill|stroke)="(#[0-9a-fA-F]{6})"', svg))
        assert inks <= {"#000000", "#ffffff"}, inks


def test_arrows_are_an_enum_of_words():
    p = seed_puzzles()[0]
    assert solution_drawing(p, "line") == solution_drawing(p, Arrows.LINE)
    assert solution_drawing(p, Arrows.NONE) == {}
    with pytest.raises(ValueError, match="arrows 'all': use one of none, key, line"):
        solution_drawing(p, "all")
