"""The book as text (gyges.puzzles.book.text): every diagram, then the solutions; the
shores marked as ``gyges show`` marks them."""

from __future__ import annotations

import re

from catalogues import run, seed_puzzles

from gyges.formats.diagram import format_diagram, parse_diagram
from gyges.game.rules import Side
from gyges.puzzles.book.model import book_phrase, make_book
from gyges.puzzles.book.text import export_text


def test_text_has_every_diagram_then_the_solutions():
    puzzles = seed_puzzles()
    book = make_book(puzzles, title="Seed examples")
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
    """The text export marks the shores as ``gyges show`` does."""
    text = export_text(make_book(seed_puzzles()))
    for p in seed_puzzles():
        for side in (Side.SOUTH, Side.NORTH):
            row = p.position.shore(side)
            lines = [ln for ln in text.splitlines() if re.match(rf"^[.1-3 ]+ {row}  <- ", ln)]
            assert lines, (p.id, side)
    shown = run("show", str(seed_puzzles()[0].position))
    marks = [ln.split("<-")[1] for ln in shown.output.splitlines() if "<-" in ln]
    assert all(f"<-{m}" in text for m in marks)


def test_the_puzzles_make_their_own_book():
    puzzles = seed_puzzles()
    assert export_text(puzzles, title="T") == export_text(make_book(puzzles, title="T"))


def test_the_reading_guide_comes_before_the_contents():
    """The text booklet prints the guide's one text (gyges.puzzles.book.guide) before its
    contents, with the legend of its own character diagrams."""
    from gyges.puzzles.book.guide import guide_text, plain, reading_guide
    from gyges.puzzles.catalogue import THEMES

    text = export_text(make_book(seed_puzzles(), title="Seed examples"))
    head, contents = text.split("\nCONTENTS\n", 1)
    assert "\n".join(guide_text()) in head
    flat = " ".join(head.split())
    for section in reading_guide(text=True):
        assert section.heading in head
        for paragraph in section.paragraphs:
            assert " ".join(plain(paragraph).split()) in flat
    assert "<- North's shore" in flat and "thick black rim" not in flat
    for theme in THEMES:
        assert theme in flat
    assert "Flaw: duals, e.g." in flat and "66x65=21" in flat
