"""The puzzles under other rules than the book's in the book: the wins in 5 without the
Renop law (``puzzles/deep/win-in-5-no-renop.yaml``) in a chapter of their own whose title
says which rule they use, in the text, the HTML and the PDF book (its page rendered)."""

from __future__ import annotations

import pytest
from catalogues import seed_puzzles
from common import PUZZLES
from pdftext import need_poppler, page_png, page_texts
from test_book_browser import decode_png

from gyges.puzzles.book.html import export_html
from gyges.puzzles.book.model import BOOK_RULES, make_book
from gyges.puzzles.book.text import export_text
from gyges.puzzles.catalogue import load_catalogue

NO_RENOP = PUZZLES / "deep" / "win-in-5-no-renop.yaml"
TITLE = "Without the Renop law: pbmserv with repetition=allowed"


@pytest.fixture(scope="module")
def book():
    no_renop = list(load_catalogue(NO_RENOP).puzzles)
    assert no_renop and all(p.rules != BOOK_RULES for p in no_renop)
    # the deep file first: its chapter still comes after the book's rules' chapters
    return make_book([*no_renop, *seed_puzzles()])


def test_the_no_renop_puzzles_have_the_last_chapter_named_for_their_rule(book):
    last = book.chapters[-1]
    assert last.title == TITLE
    assert [e.puzzle.file for e in last.entries] == [str(NO_RENOP)] * len(last.entries)
    assert all(e.puzzle.rules == BOOK_RULES for c in book.chapters[:-1] for e in c.entries)


def test_text_book_prints_the_chapter_and_the_rule(book):
    text = export_text(book)
    contents, rest = text.split("\n\n\n", 1)
    assert f"\n{TITLE}\n" in contents
    heading = f"\n{TITLE.upper()}\n{'=' * len(TITLE)}\n"
    assert rest.count(heading) == 1
    chapter = rest.split(heading)[1].split("\nSOLUTIONS\n")[0]
    for e in book.chapters[-1].entries:
        assert f"{e.number}. {e.title}" in chapter
    assert chapter.count("Rules: pbmserv with repetition=allowed") == len(
        book.chapters[-1].entries)


def test_html_book_has_the_chapter_in_its_contents_and_heading(book):
    html = export_html(book)
    n = len(book.chapters)
    assert f'<h2>{n}. {TITLE}</h2>' in html
    assert f'href="#chapter-{n}"' in html and TITLE in html.split('id="chapter-1"')[0]


def test_pdf_page_of_the_chapter(book, tmp_path):
    """The chapter's first page, rendered: its title is on it, with ink (diagrams)."""
    from gyges.puzzles.book.pdf import PdfError, _weasyprint, export_pdf

    try:
        _weasyprint()
    except PdfError as e:
        pytest.skip(str(e))
    need_poppler()
    pdf = tmp_path / "book.pdf"
    pdf.write_bytes(export_pdf(book))
    texts = page_texts(pdf)
    n = len(book.chapters)
    pages = [i for i, t in enumerate(texts) if f"{n}. Without the Renop law" in t
             and "repetition=allowed" in t and "CONTENTS" not in t]
    assert len(pages) == 1
    _, _, rows = decode_png(page_png(pdf, pages[0] + 1, tmp_path, 40).read_bytes())
    dark = sum(v < 128 for row in rows for v in row) / sum(len(row) for row in rows)
    assert 0.001 < dark < 0.5
