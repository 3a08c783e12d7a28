"""The book as plain text (:func:`export_text`): the reading guide
(:mod:`~gyges.puzzles.book.guide`), contents, each chapter's diagrams (shores
marked, as by ``gyges show``) and tasks, then the solutions and the index of themes. A
function of the book alone.

>>> print(export_text([], title="No problems"))  # doctest: +ELLIPSIS
No problems
===========
<BLANKLINE>
0 problems, every one proven by the gyges solver
<BLANKLINE>
HOW TO READ THIS BOOK
=====================
<BLANKLINE>
The diagrams
------------
...
CONTENTS
<BLANKLINE>
<BLANKLINE>
SOLUTIONS
=========
<BLANKLINE>
<BLANKLINE>
INDEX OF THEMES
===============
<BLANKLINE>
"""

from __future__ import annotations

import textwrap
from collections.abc import Sequence

from gyges.formats.diagram import format_diagram
from gyges.puzzles.book.guide import guide_text
from gyges.puzzles.book.model import (
    Book,
    BookEntry,
    as_book,
    book_phrase,
    rules_note,
    theme_meaning,
    variation_text,
)
from gyges.puzzles.catalogue.schema import Puzzle

__all__ = ["export_text"]


def export_text(book: Book | Sequence[Puzzle], *, title: str | None = None) -> str:
    """The book as plain text: contents, each chapter's diagrams (shores marked, as by
    ``gyges show``) and tasks, then the solutions and the index of themes."""
    book = as_book(book, title)
    out = [book.title, "=" * len(book.title), "", book.subtitle, "", *guide_text(88),
           "CONTENTS", ""]
    for chapter in book.chapters:
        out.append(chapter.title)
        for e in chapter.entries:
            out.append(f"  {e.number:3d}. {e.title} - "
                       f"{book_phrase(e.puzzle.stipulation, e.puzzle.position.turn.title)}")
    for chapter in book.chapters:
        out += ["", "", chapter.title.upper(), "=" * len(chapter.title), ""]
        for e in chapter.entries:
            out += _text_problem(e)
    out += ["", "SOLUTIONS", "=========", ""]
    for e in book.entries:
        out += _text_solution(e)
    out += ["", "INDEX OF THEMES", "===============", ""]
    for theme, numbers in book.theme_index():
        meaning = theme_meaning(theme)
        out += textwrap.wrap(f"{theme}{f' ({meaning})' if meaning else ''}: "
                             f"{', '.join(map(str, numbers))}", 88, subsequent_indent="    ")
    return "\n".join(out).rstrip() + "\n"


def _text_problem(e: BookEntry) -> list[str]:
    p = e.puzzle
    head = f"{e.number}. {e.title}  [{p.id}]"
    out = [head, "-" * len(head), format_diagram(p.position, turn=False, shores=True), ""]
    out.append(book_phrase(p.stipulation, p.position.turn.title) + ".")
    extra = [x for x in (rules_note(p), f"Difficulty {p.difficulty} of 5"
                         if p.difficulty else "") if x]
    if extra:
        out.append("   ".join(extra))
    if p.source:
        out.append(f"Source: {p.source}.")
    if p.credit:
        out.append(f"Credit: {p.credit}.")
    out.append("")
    return out


def _text_solution(e: BookEntry) -> list[str]:
    p = e.puzzle

    def wrap(text: str) -> list[str]:
        return textwrap.wrap(text, 88, initial_indent="   ", subsequent_indent="     ",
                             break_on_hyphens=False)

    out = [f"{e.number}. {e.title}: {p.stipulation}"]
    if p.key:
        out.append(f"   Key: {p.key}")
    if e.threats:
        out += wrap(f"Threat: {', '.join(e.threats)}")
    if p.main_line:
        out += wrap(f"Main line: {e.main_line_text(long=True)}")
    for v in e.variations:
        out += wrap(f"Variation: {variation_text(v, 2)}")
    if p.cooks:
        out += wrap(f"Other keys (cooks): {', '.join(p.cooks)}")
    if p.themes:
        out.append(f"   Themes: {', '.join(p.themes)}")
    if p.notes:
        out += textwrap.wrap(p.notes, 88, initial_indent="   ", subsequent_indent="   ",
                             break_on_hyphens=False)
    out.append("")
    return out
