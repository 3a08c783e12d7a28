"""The puzzle book and the catalogue's other exports: a text booklet, SVG diagrams, and
the book in HTML and PDF (what ``gyges export`` writes, docs/catalogue.md).

The room's modules:

- :mod:`~gyges.puzzles.book.selection`: which puzzles (``--select``: :class:`Selection`);
- :mod:`~gyges.puzzles.book.model`: the book's layout (:func:`make_book`: numbered,
  grouped in chapters, titles told apart, each main line played out) and the phrases
  every rendering prints;
- :mod:`~gyges.puzzles.book.commentary`: the solver's threats and variations, handed to
  the book;
- :mod:`~gyges.puzzles.book.guide`: the reading guide, one text every rendering prints;
- the renderings: :mod:`~gyges.puzzles.book.text`, :mod:`~gyges.puzzles.book.html` (with
  its print CSS, ``book.css``, package data) and
  :mod:`~gyges.puzzles.book.pdf`; :mod:`~gyges.puzzles.book.diagrams` (SVG);
- :mod:`~gyges.puzzles.book.publish`: the whole of ``gyges export`` (:func:`publish_book`).

The text export and the HTML book are two renderings of the same book: title page,
contents, the chapters' problems, the solutions at the back cross-referenced by number,
and an index of themes. Every rendering is a function of the book it is given.

This package is the export's public face: the names below are those of its modules.

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

from gyges.puzzles.book.commentary import commentary_cache, solver_commentary
from gyges.puzzles.book.diagrams import Arrows, puzzle_svgs
from gyges.puzzles.book.html import Paper, export_html
from gyges.puzzles.book.model import Book, Chapters, make_book
from gyges.puzzles.book.pdf import PdfError, export_pdf
from gyges.puzzles.book.publish import (
    BookFormat,
    BookOptions,
    Disproved,
    EngineRefused,
    NoPuzzles,
    NothingSelected,
    Published,
    PublishError,
    WrongSuffix,
    publish_book,
)
from gyges.puzzles.book.selection import Selection, SelectionError, select_puzzles
from gyges.puzzles.book.text import export_text

__all__ = [
    "Arrows", "Book", "BookFormat", "BookOptions", "Chapters", "Disproved", "EngineRefused",
    "NoPuzzles", "NothingSelected", "Paper", "PdfError", "PublishError", "Published",
    "Selection", "SelectionError", "WrongSuffix", "commentary_cache", "export_html",
    "export_pdf", "export_text",
    "make_book", "publish_book", "puzzle_svgs", "select_puzzles", "solver_commentary",
]
