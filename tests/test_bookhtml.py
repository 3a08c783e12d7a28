"""The HTML book (gyges.puzzles.book.html): its sections, every puzzle once in the contents,
as a diagram and as a solution, nothing external, the paper sizes from the package's print
CSS, and the drawing options. (Rendered by a browser: test_book_browser.py; as a PDF:
test_book_pdf.py.)"""

from __future__ import annotations

import dataclasses
import re
import xml.etree.ElementTree as ET
from importlib import resources

from catalogues import all_puzzles, seed_puzzles

from gyges.puzzles.book.html import Paper, export_html
from gyges.puzzles.book.model import make_book


def test_html_book_structure():
    puzzles = all_puzzles()
    book = make_book(puzzles, title="Test book")
    html = export_html(book)
    assert html.startswith("<!DOCTYPE html>")
    sections = re.findall(r'<section class="([a-z-]+)"', html)
    assert sections[:3] == ["title-page", "guide", "contents"]
    assert sections.count("chapter") == len(book.chapters)
    assert sections[-2:] == ["solutions", "index"]
    # Every puzzle once in the contents, once as a diagram, once as a solution.
    assert html.count('<td class="n">') == len(puzzles)
    assert html.count('<div class="puzzle"') == len(puzzles)
    assert html.count('<div class="solution"') == len(puzzles)
    for e in book.entries:
        assert html.count(f'id="{e.anchor}"') == 1
        assert html.count(f'href="#{e.anchor}"') >= 3  # contents (2) and the solution
    # Chapter headings, and no fixed page box that would clip the contents.
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
    book = make_book(seed_puzzles())
    assert "size: A4 portrait" in export_html(book)
    assert "size: letter portrait" in export_html(book, paper="letter")



def test_html_book_drawing_options():
    book = make_book(seed_puzzles())
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


def test_the_print_css_is_package_data_filled_in_for_the_paper():
    css = resources.files("gyges.puzzles.book").joinpath("book.css").read_text(encoding="utf-8")
    assert "${page}" in css and "${width}" in css
    html = export_html(seed_puzzles(), paper=Paper.LETTER)
    assert "size: letter portrait" in html and "max-width: 215.9mm" in html
    assert "${" not in html and "width: 49.5%;" in html


def test_the_title_page_dates_the_game():
    assert "Claude Leroy (1985)" in export_html(seed_puzzles())


def test_a_credit_says_what_it_credits():
    """A bare name is printed "Composed by NAME" under the diagram and with the solution;
    a credit that says what it credits keeps its words, with a capital."""
    bouncing, taboo = seed_puzzles()[:2]
    named = dataclasses.replace(bouncing, credit="Jane Doe", source="")
    found = dataclasses.replace(taboo, credit="found by gyges review", source="")
    html = export_html([named, found])
    assert html.count("Composed by Jane Doe") == 2
    assert html.count("Found by gyges review") == 2
    assert ">Jane Doe" not in html and "found by gyges review" not in html


def test_the_contents_give_every_entry_its_page():
    """Each chapter, the solutions and the index have their page in the contents (filled
    in by WeasyPrint), like each problem."""
    book = make_book(seed_puzzles())
    contents = export_html(book).split('<section class="contents">')[1].split("</section>")[0]
    anchors = [f"chapter-{i}" for i in range(1, len(book.chapters) + 1)]
    anchors += [e.anchor for e in book.entries] + ["solutions", "index"]
    for anchor in anchors:
        assert contents.count(f'class="pageref" href="#{anchor}"') == 1, anchor


def test_the_reading_guide_is_on_the_first_pages():
    """The guide's one text (gyges.puzzles.book.guide), after the title page and before the
    contents: every heading and paragraph, with the notation's moves set as code, every
    theme the checker knows, and the legend of the drawn diagrams (the marking of the side
    to move's rings, the key's path)."""
    from gyges.puzzles.book.guide import guide_html, reading_guide
    from gyges.puzzles.catalogue import THEMES

    html = export_html(seed_puzzles())
    assert guide_html() in html
    assert html.index('class="title-page"') < html.index('class="guide"') \
        < html.index('class="contents"')
    guide = re.sub(r"<[^>]+>", "", guide_html()).replace("&amp;", "&")
    for section in reading_guide():
        assert section.heading in guide
        for paragraph in section.paragraphs:
            assert re.sub(r"[`*]", "", paragraph) in guide
    assert "<code>66x65=21</code>" in html and "<code>64-54-35-36-S</code>" in html
    for theme in THEMES:
        assert theme in guide
    for words in ("thick black rim", "under the rings it bounces on", "Flaw: duals, e.g.",
                  "cook", "try", "difficulty", "main line", "variations"):
        assert words in guide, words
