"""Exports of the catalogue: a text booklet, SVG files and the puzzle book (HTML, and PDF).

This module gathers the export's public names from the modules that hold them:
:mod:`~gyges.puzzles.selection` (which puzzles), :mod:`~gyges.puzzles.book` (the book's
layout: numbered, grouped in chapters, titles told apart, each main line played out),
:mod:`~gyges.puzzles.commentary` (the solver's threats and variations, handed to the
book), the renderings :mod:`~gyges.puzzles.booktext`, :mod:`~gyges.puzzles.bookhtml` and
:mod:`~gyges.puzzles.pdf`, :mod:`~gyges.puzzles.diagrams` (SVG), and
:mod:`~gyges.puzzles.publish` (the whole of ``gyges export``: :func:`publish_book`).

The text export and the HTML book are two renderings of the same book: title page,
contents, the chapters' problems, the solutions at the back cross-referenced by number,
and an index of themes. Every rendering is a function of the book it is given.

>>> from gyges.puzzles.catalogue import parse_catalogue
>>> cat = parse_catalogue('''
... schema: 1
... puzzles:
... - id: bounce
...   position: "....../3...../..1.1./1.23.3/3.22.1/....2. N"
...   stipulation: North wins in 1
...   solution: {key: 51-43-33-31-21-S, main-line: [51-43-33-31-21-S]}
... ''')
>>> text = export_text(make_book(cat.puzzles, title="Demo"))
>>> "North to move and win in 1" in text, text.index("SOLUTIONS") > text.index("N\\n")
(True, True)
"""

from gyges.puzzles.book import (
    BOOK_TITLE,
    THEME_ORDER,
    Book,
    Chapter,
    Chapters,
    Entry,
    book_phrase,
    is_classic,
    make_book,
    numbered_line,
    rules_note,
    solution_phrase,
)
from gyges.puzzles.bookhtml import Paper, export_html
from gyges.puzzles.booktext import export_text
from gyges.puzzles.commentary import Commentary, Variation, commentary, solver_commentary
from gyges.puzzles.diagrams import Arrows, puzzle_svgs, solution_drawing
from gyges.puzzles.pdf import PdfError, book_date, export_pdf, source_date
from gyges.puzzles.publish import (
    BookFormat,
    BookOptions,
    Disproved,
    EngineRefused,
    NothingSelected,
    Published,
    PublishError,
    publish_book,
)
from gyges.puzzles.selection import SELECT_KEYS, Selection, SelectionError, select_puzzles

__all__ = [
    "BOOK_TITLE", "SELECT_KEYS", "THEME_ORDER", "Arrows", "Book", "BookFormat", "BookOptions",
    "Chapter", "Chapters", "Commentary", "Disproved", "EngineRefused", "Entry",
    "NothingSelected", "Paper", "PdfError", "PublishError", "Published", "Selection",
    "SelectionError", "Variation", "book_date", "book_phrase", "commentary", "export_html",
    "export_pdf", "export_text", "is_classic", "make_book", "numbered_line", "publish_book",
    "puzzle_svgs", "rules_note", "select_puzzles", "solution_drawing", "solution_phrase",
    "solver_commentary", "source_date",
]
