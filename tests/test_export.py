"""Exports: the text booklet, SVG files and the HTML book (its structure; the browser
rendering is in test_book_browser.py)."""

from __future__ import annotations

import re
import xml.etree.ElementTree as ET
from pathlib import Path

from click.testing import CliRunner

from gyges_cli.main import cli
from solver.formats.diagram import format_diagram, parse_diagram
from solver.puzzles.catalogue import load_catalogue
from solver.puzzles.export import book_phrase, export_html, export_text, puzzle_svgs

ROOT = Path(__file__).resolve().parent.parent
SEEDS = ROOT / "puzzles" / "seed000.yaml"
SVG_NS = "{http://www.w3.org/2000/svg}"


def seed_puzzles():
    return list(load_catalogue(SEEDS).puzzles)


def run(*args: str):
    return CliRunner().invoke(cli, list(args), catch_exceptions=False)


def test_text_has_every_diagram_then_the_solutions():
    puzzles = seed_puzzles()
    text = export_text(puzzles, "Seed examples")
    assert text.startswith("Seed examples\n=============\n")
    problems, solutions = text.split("\nSOLUTIONS\n")
    for n, p in enumerate(puzzles, 1):
        diagram = format_diagram(p.position, turn=False)
        assert diagram in problems
        # The diagram as exported reads back as the same board.
        assert parse_diagram(diagram).board == p.position.board
        assert book_phrase(p.stipulation, p.position.turn.title) in problems
        assert f"{n}. {p.title}" in solutions
        if p.key:
            assert f"Key: {p.key}" in solutions
            assert p.key not in problems  # no spoilers before the solutions
    assert "Main line: 1. 51-(41-42-)43-33-(32-)31-21-(11-12-)S" in solutions
    assert "Main line: 1. 34-44-43; 43-53-(63-)N" in solutions


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
        relocations = [e for e in solution.iter(f"{SVG_NS}line") if e.get("class") == "relocation"]
        assert len(relocations) == (1 if "x" in p.key else 0)


def test_html_book_structure():
    puzzles = seed_puzzles() * 2  # twelve: two pages of puzzles
    html = export_html(puzzles, "Test book")
    assert html.startswith("<!DOCTYPE html>")
    assert "@media print" in html and "break-after: page" in html
    pages = re.findall(r'<section class="page ([a-z-]+)', html)
    assert pages[0] == "title-page"
    assert pages.count("puzzles") == 2
    assert pages.count("solutions-page") == 4  # three solutions a page
    assert pages.index("solutions-page") > max(i for i, k in enumerate(pages) if k == "puzzles")
    assert html.count('<div class="puzzle"') == len(puzzles)
    assert html.count('<div class="solution"') == len(puzzles)
    # Every inline SVG is well-formed XML.
    svgs = re.findall(r"<svg\b.*?</svg>", html, flags=re.S)
    assert len(svgs) >= 2 * len(puzzles) + 1
    for svg in svgs:
        ET.fromstring(svg)
    # No external resources: the book prints offline.
    for external in ("<link", "<script", "src=", "url(", "@import"):
        assert external not in html


def test_html_book_contents_and_stipulations():
    puzzles = seed_puzzles()
    html = export_html(puzzles)
    for p in puzzles:
        assert book_phrase(p.stipulation, p.position.turn.title) in html
    assert "Gygès puzzles" in html
    assert "Agt the Walker" in html


def test_export_command_writes_each_format(tmp_path):
    for fmt, expected in (("text", ["puzzles.txt"]), ("html", ["book.html"])):
        out = tmp_path / fmt
        result = run("export", str(SEEDS), "--format", fmt, "--out", str(out))
        assert result.exit_code == 0, result.output
        assert sorted(p.name for p in out.iterdir()) == expected
    out = tmp_path / "svg"
    result = run("export", str(SEEDS), "--format", "svg", "--out", str(out))
    assert result.exit_code == 0, result.output
    names = sorted(p.name for p in out.iterdir())
    assert len(names) == 2 * len(seed_puzzles())
    for name in names:
        ET.parse(out / name)


def test_export_refuses_a_malformed_catalogue(tmp_path):
    bad = tmp_path / "bad.yaml"
    bad.write_text("schema: 1\npuzzles:\n- id: x\n  stipulation: wins in 1\n")
    result = run("export", str(bad), "--format", "text", "--out", str(tmp_path / "o"))
    assert result.exit_code == 2
    assert f"{bad}:3: puzzle x: no position" in result.output
