"""Exports: the book's layout (order, chapters, titles, numbering), the text booklet, SVG
files, the HTML book's structure and the export command (selection, --check). The PDF is
in test_book_pdf.py, the browser rendering in test_book_browser.py."""

from __future__ import annotations

import re
import xml.etree.ElementTree as ET
from pathlib import Path

import pytest
from click.testing import CliRunner

from gyges.formats.diagram import format_diagram, parse_diagram
from gyges.game.rules import Side
from gyges.puzzles.catalogue import load_all, load_catalogue
from gyges.puzzles.export import (
    Selection,
    book_phrase,
    export_html,
    export_text,
    is_classic,
    make_book,
    numbered_line,
    puzzle_svgs,
    select_puzzles,
)
from gyges_cli.main import cli

ROOT = Path(__file__).resolve().parent.parent
SEEDS = ROOT / "puzzles" / "seed000.yaml"
SVG_NS = "{http://www.w3.org/2000/svg}"


def seed_puzzles():
    return list(load_catalogue(SEEDS).puzzles)


def all_puzzles():
    puzzles, errors = load_all([ROOT / "puzzles"])
    assert not errors
    return puzzles


@pytest.fixture(scope="module")
def full_book():
    return make_book(all_puzzles(), analysis=False)


def run(*args: str):
    return CliRunner().invoke(cli, list(args), catch_exceptions=False)


# -- the book's layout ------------------------------------------------------------------


def test_every_puzzle_once_numbered_in_order(full_book):
    puzzles = all_puzzles()
    entries = full_book.entries
    assert sorted(e.puzzle.id for e in entries) == sorted(p.id for p in puzzles)
    assert [e.number for e in entries] == list(range(1, len(puzzles) + 1))


def test_chapters_by_difficulty_classics_first_among_equals(full_book):
    """The defect: files were taken alphabetically, so generated puzzles came first
    (problem 1 was rated 4/5) and the seed-000 classics were 43-47."""
    difficulties = [e.puzzle.difficulty or 9 for e in full_book.entries]
    assert difficulties == sorted(difficulties)
    assert full_book.entries[0].puzzle.difficulty == 1
    for chapter in full_book.chapters:
        assert len({e.puzzle.difficulty for e in chapter.entries}) == 1
        assert str(chapter.entries[0].puzzle.difficulty) in chapter.title
        for level in {e.puzzle.difficulty for e in chapter.entries}:
            flags = [is_classic(e.puzzle) for e in chapter.entries
                     if e.puzzle.difficulty == level]
            assert flags == sorted(flags, reverse=True)  # classics first
    assert len(full_book.chapters) == len({p.difficulty for p in all_puzzles()})
    # Every classic comes before every other puzzle of its difficulty.
    for e in full_book.entries:
        if is_classic(e.puzzle):
            assert all(is_classic(o.puzzle) for o in full_book.entries
                       if o.number < e.number and o.puzzle.difficulty == e.puzzle.difficulty)


@pytest.mark.parametrize("chapters", ["theme", "stipulation", "file"])
def test_other_chapterings_keep_every_puzzle_once(chapters):
    puzzles = all_puzzles()
    book = make_book(puzzles, chapters=chapters, analysis=False,
                     file_titles={str(ROOT / "puzzles" / "seed000.yaml"): "The classics"})
    assert sorted(e.puzzle.id for e in book.entries) == sorted(p.id for p in puzzles)
    titles = [c.title for c in book.chapters]
    assert len(titles) == len(set(titles))  # one chapter per group
    if chapters == "stipulation":
        for c in book.chapters:
            assert len({(e.puzzle.stipulation.kind, e.puzzle.stipulation.moves)
                        for e in c.entries}) == 1
    if chapters == "file":
        assert len(book.chapters) == len({p.file for p in puzzles})
        assert "The classics" in titles
        order = [p.id for p in puzzles]
        assert [e.puzzle.id for e in book.entries] == order  # catalogue order kept
    if chapters == "theme":
        for c in book.chapters:
            if c.title == "Relocations":
                assert all("relocation" in e.puzzle.themes for e in c.entries)


def test_duplicate_titles_are_told_apart(full_book):
    titles = [e.title for e in full_book.entries]
    assert len(titles) == len(set(titles))
    raw = [e.puzzle.title for e in full_book.entries]
    repeated = {t for t in raw if raw.count(t) > 1}
    assert repeated, "the catalogue has repeated titles: this test needs them"
    for e in full_book.entries:
        if e.puzzle.title in repeated:
            assert re.fullmatch(re.escape(e.puzzle.title) + r" [IVXL]+", e.title)
        else:
            assert e.title == (e.puzzle.title or e.puzzle.id)


def test_main_lines_are_numbered_by_the_winners_moves(full_book):
    """The defect: '1. 62-53 2. 16-15 3. 61-53-33-S' under 'North wins in 2'. The last
    number of a main line is the number of the winner's moves, the stipulation's k."""
    for e in full_book.entries:
        st = e.puzzle.stipulation
        if st.kind == "none" or e.line is None:
            continue
        groups = numbered_line(e.line, e.winner)
        numbers = [int(g.split(".")[0]) for g in groups]
        assert numbers == list(range(1, st.moves + 1)), (e.puzzle.id, groups)
        winner_moves = sum(1 for m in e.line.moves if m.side is e.winner)
        assert winner_moves == st.moves
        # Every move is printed once.
        assert sum(len(g.split()) - 1 for g in groups) == len(e.line.moves)


def test_numbering_of_a_defence_first_line():
    """In 'loses in k' the loser moves first: each number covers a defence and the
    winner's answer."""
    loss = [p for p in all_puzzles() if p.stipulation.kind == "loss"]
    assert loss
    book = make_book(loss, analysis=False)
    for e in book.entries:
        groups = numbered_line(e.line, e.winner)
        first = e.line.moves[0]
        assert first.side is e.puzzle.position.turn and e.winner is first.side.other
        assert groups[0].startswith(f"1. {groups[0].split()[1]}")
        assert len(groups) == e.puzzle.stipulation.moves


def test_theme_index_lists_each_puzzle_under_its_themes(full_book):
    index = dict(full_book.theme_index())
    for e in full_book.entries:
        for t in e.puzzle.themes:
            assert e.number in index[t]
    assert sum(len(v) for v in index.values()) == sum(len(e.puzzle.themes)
                                                      for e in full_book.entries)


def test_threats_and_variations_come_from_the_solver():
    from gyges.formats.notation import parse_move
    from gyges.game.moves import apply_move, legal_moves

    puzzles = [p for p in all_puzzles() if p.stipulation.kind == "win"
               and p.stipulation.moves == 2][:4]
    book = make_book(puzzles)
    assert any(e.threats for e in book.entries) and all(e.variations for e in book.entries)
    for e in book.entries:
        p = e.puzzle
        assert e.defences == len(legal_moves(apply_move(p.position, parse_move(
            p.key, p.position, p.rules, p.history)), p.rules, [*p.history, p.position]))
        key = parse_move(p.key, p.position, p.rules, p.history)
        after = apply_move(p.position, key)
        history = [*p.history, p.position]
        # Each threat lands at once if the defender could pass.
        for t in e.threats:
            threat = parse_move(t, after.with_turn(p.position.turn), p.rules, history)
            assert threat.is_win
        # Each variation's answer lands after each of its defences.
        for v in e.variations:
            for d in v.defences:
                reply = parse_move(d, after, p.rules, history)
                pos = apply_move(after, reply)
                assert parse_move(v.answer, pos, p.rules, [*history, after]).is_win


# -- selection ------------------------------------------------------------------------


@pytest.mark.parametrize("spec,check", [
    (["id=seed000-*"], lambda p: p.id.startswith("seed000")),
    (["rules=bga"], lambda p: p.rules.name == "bga"),
    (["stipulation=win in 3"], lambda p: (p.stipulation.kind, p.stipulation.moves) == ("win", 3)),
    (["stipulation=North wins in 2"],
     lambda p: str(p.stipulation) == "North wins in 2"),
    (["stipulation=loss"], lambda p: p.stipulation.kind == "loss"),
    (["theme=relocation"], lambda p: "relocation" in p.themes),
    (["theme=bounce chain"], lambda p: any(t.startswith("bounce chain") for t in p.themes)),
    (["difficulty=1-2"], lambda p: p.difficulty in (1, 2)),
    (["difficulty=5", "theme=relocation"],
     lambda p: p.difficulty == 5 and "relocation" in p.themes),
    (["difficulty=1,5"], lambda p: p.difficulty in (1, 5)),
])
def test_selection(spec, check):
    puzzles = all_puzzles()
    chosen = select_puzzles(puzzles, Selection.parse(spec))
    assert chosen, spec
    assert chosen == [p for p in puzzles if check(p)]


@pytest.mark.parametrize("bad", ["colour=red", "difficulty=7", "stipulation=draw", "theme"])
def test_bad_selection_is_one_line_exit_2(bad, tmp_path):
    result = run("export", str(SEEDS), "--format", "text", "--out", str(tmp_path),
                 "--select", bad)
    assert result.exit_code == 2
    assert result.output.count("\n") == 1 and "--select" in result.output
    assert "Traceback" not in result.output


# -- text -------------------------------------------------------------------------------


def test_text_has_every_diagram_then_the_solutions():
    puzzles = seed_puzzles()
    book = make_book(puzzles, title="Seed examples", analysis=False)
    text = export_text(book)
    assert text.startswith("Seed examples\n=============\n")
    problems, solutions = text.split("\nSOLUTIONS\n")
    for e in book.entries:
        p = e.puzzle
        diagram = format_diagram(p.position, turn=False, shores=True)
        assert problems.count(diagram) == 1
        assert parse_diagram(diagram).board == p.position.board
        assert book_phrase(p.stipulation, p.position.turn.title) in problems
        assert solutions.count(f"\n{e.number}. {e.title}:") == 1
        if p.key:
            assert f"Key: {p.key}" in solutions
            assert p.key not in problems  # no spoilers before the solutions
    assert "Main line: 1. 51-(41-42-)43-33-(32-)31-21-(11-12-)S" in solutions
    assert "Main line: 1. 34-44-43;  2. 43-53-(63-)N" in solutions
    assert "INDEX OF THEMES" in solutions


def test_text_marks_the_shores_like_gyges_show():
    """The defect: the text export did not mark shores; ``gyges show`` does."""
    text = export_text(make_book(seed_puzzles(), analysis=False))
    for p in seed_puzzles():
        for side in (Side.SOUTH, Side.NORTH):
            row = p.position.shore(side)
            lines = [ln for ln in text.splitlines() if re.match(rf"^[.1-3 ]+ {row}  <- ", ln)]
            assert lines, (p.id, side)
    shown = run("show", str(seed_puzzles()[0].position))
    marks = [ln.split("<-")[1] for ln in shown.output.splitlines() if "<-" in ln]
    assert all(f"<-{m}" in text for m in marks)


# -- svg --------------------------------------------------------------------------------


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


# -- html -------------------------------------------------------------------------------


def test_html_book_structure():
    puzzles = all_puzzles()
    book = make_book(puzzles, title="Test book", analysis=False)
    html = export_html(book)
    assert html.startswith("<!DOCTYPE html>")
    sections = re.findall(r'<section class="([a-z-]+)"', html)
    assert sections[:2] == ["title-page", "contents"]
    assert sections.count("chapter") == len(book.chapters)
    assert sections[-2:] == ["solutions", "index"]
    # Every puzzle once in the contents, once as a diagram, once as a solution.
    assert html.count('<td class="n">') == len(puzzles)
    assert html.count('<div class="puzzle"') == len(puzzles)
    assert html.count('<div class="solution"') == len(puzzles)
    for e in book.entries:
        assert html.count(f'id="{e.anchor}"') == 1
        assert html.count(f'href="#{e.anchor}"') >= 3  # contents (2) and the solution
    # Chapter headings, and the defect: no fixed page box that clips the contents.
    for i, c in enumerate(book.chapters, 1):
        assert f"<h2>{i}. {c.title}" in html
    assert "overflow: hidden" not in html and "overflow:hidden" not in html
    assert not re.search(r"height:\s*297mm", html)
    svgs = re.findall(r"<svg\b.*?</svg>", html, flags=re.S)
    for svg in svgs:
        ET.fromstring(svg)
    for external in ("<link", "<script", "src=", "url(", "@import"):
        assert external not in html


def test_html_paper_sizes():
    book = make_book(seed_puzzles(), analysis=False)
    assert "size: A4 portrait" in export_html(book)
    assert "size: letter portrait" in export_html(book, paper="letter")


# -- the command ----------------------------------------------------------------------


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
    named = tmp_path / "named" / "my.txt"
    result = run("export", str(SEEDS), "--format", "text", "--out", str(named))
    assert result.exit_code == 0 and named.exists()


def test_export_refuses_a_malformed_catalogue(tmp_path):
    bad = tmp_path / "bad.yaml"
    bad.write_text("schema: 1\npuzzles:\n- id: x\n  stipulation: wins in 1\n")
    result = run("export", str(bad), "--format", "text", "--out", str(tmp_path / "o"))
    assert result.exit_code == 2
    assert f"{bad}:3: puzzle x: no position" in result.output


OVERSTATED = """schema: 1
puzzles:
- id: overstated
  position: "....../3...../..1.1./1.23.3/3.22.1/....2. N"
  stipulation: North wins in 2
  solution:
    key: 51-43-33-31-21-S
    main-line: [51-43-33-31-21-S]
"""


def test_check_refuses_an_entry_the_solver_disproves(tmp_path):
    """The defect: an entry claiming 'wins in 2' that the solver proves a win in 1 went to
    print. --check re-proves and refuses; it is on by default for pdf."""
    cat = tmp_path / "cat.yaml"
    cat.write_text(OVERSTATED)
    out = tmp_path / "out"
    result = run("export", str(cat), "--format", "text", "--out", str(out), "--check")
    assert result.exit_code == 1
    assert "the stipulation says 'North wins in 2' but the solver proves 'North wins in 1'" \
        in result.output
    assert "refused" in result.output and not out.exists()
    result = run("export", str(cat), "--format", "pdf", "--out", str(out / "b.pdf"), "-q")
    assert result.exit_code == 1 and not out.exists()
    # Without --check the text export goes through (the claim is the author's).
    result = run("export", str(cat), "--format", "text", "--out", str(out))
    assert result.exit_code == 0
    # A sound entry passes the check.
    result = run("export", str(SEEDS), "--format", "text", "--out", str(out), "--check", "-q")
    assert result.exit_code == 0, result.output


def test_html_book_drawing_options():
    book = make_book(seed_puzzles(), analysis=False)
    default = export_html(book)
    assert default.count('class="path"') == sum(1 for e in book.entries if e.puzzle.key)
    assert 'class="coordinates"' in default
    html = export_html(book, arrows="line", monochrome=True, coordinates=False)
    assert 'class="coordinates"' not in html and 'class="path"' not in html
    moves = sum(len(e.line.moves) for e in book.entries if e.line is not None)
    assert html.count('class="line-move-arrow"') == moves
    inks = set(re.findall(r'(?:fill|stroke)="(#[0-9a-fA-F]{6})"', html))
    assert inks <= {"#000000", "#ffffff"}, inks
    none = export_html(book, arrows="none")
    assert 'class="path"' not in none and 'class="line-move-arrow"' not in none
