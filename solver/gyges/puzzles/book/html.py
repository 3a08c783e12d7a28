"""The book as one self-contained HTML page (:func:`export_html`), laid out for print: its
print CSS (``book.css``, package data: ``@page`` rules, page breaks) lets WeasyPrint
(:mod:`~gyges.puzzles.book.pdf`) paginate it and fill in the page numbers of the contents and
cross-references. A function of the book and of the drawing options.

>>> page = export_html([], title="No problems", paper=Paper.LETTER)
>>> page.startswith("<!DOCTYPE html>"), "size: letter portrait" in page
(True, True)
"""

from __future__ import annotations

import enum
import html
import string
from collections.abc import Sequence
from importlib import resources
from typing import Any

from gyges.formats.svg import render_position, ring_symbol
from gyges.game.position import START, Position
from gyges.puzzles.book.diagrams import Arrows, solution_drawing
from gyges.puzzles.book.guide import GUIDE_TITLE, guide_html
from gyges.puzzles.book.model import (
    Book,
    BookEntry,
    Chapter,
    as_book,
    book_phrase,
    credit_line,
    credit_text,
    numbered_line,
    rules_note,
    solution_phrase,
    theme_meaning,
    variation_text,
)
from gyges.puzzles.catalogue.schema import Puzzle

__all__ = ["PAPERS", "Paper", "export_html"]


class Paper(str, enum.Enum):
    """The page size of the book."""

    A4 = "a4"
    LETTER = "letter"

    def __str__(self) -> str:
        return self.value


#: Each paper's name in CSS, and its width and height in mm.
PAPERS = {Paper.A4: ("A4", 210.0, 297.0), Paper.LETTER: ("letter", 215.9, 279.4)}


def _css(paper: Paper) -> str:
    """The book's print CSS (``book.css``) for ``paper``."""
    page, width, _ = PAPERS[paper]
    text = resources.files("gyges.puzzles.book").joinpath("book.css").read_text(encoding="utf-8")
    return string.Template(text).substitute(page=f"{page} portrait", width=f"{width:g}")


def _diagram(position: Position, *, monochrome: bool = False, **options: Any) -> str:
    """A diagram of the book (:func:`~gyges.formats.svg.render_position`, filling its
    box)."""
    return render_position(position, size=None, monochrome=monochrome, **options)


def _e(text: object) -> str:
    return html.escape(str(text), quote=True)


def _legend_ring(size: int, marked: bool = False, monochrome: bool = False) -> str:
    """A small SVG of one ring of the given size, drawn as in the diagrams."""
    return ring_symbol(size, marked, px=30, monochrome=monochrome)


def export_html(book: Book | Sequence[Puzzle], *, title: str | None = None,
                paper: Paper | str = Paper.A4, arrows: Arrows | str = Arrows.KEY,
                monochrome: bool = False, coordinates: bool = True) -> str:
    """The book as one self-contained HTML page, laid out for print (``@page`` rules,
    page breaks; WeasyPrint also fills in the page numbers of the contents and
    cross-references). ``paper``: ``a4`` or ``letter``; ``arrows``: what the solution
    diagrams draw (``key``, ``line`` or ``none``); ``monochrome``: black-and-white
    diagrams; ``coordinates``: column and row numbers on the problems' diagrams."""
    book = as_book(book, title)
    try:
        paper = Paper(paper)
    except ValueError:
        raise ValueError(f"paper {paper!r}: use one of "
                         f"{', '.join(p.value for p in Paper)}") from None
    css = _css(paper)
    draw = {"monochrome": monochrome}
    cells = {**draw, "coordinates": coordinates}
    sections = [_title_page(book, cells, monochrome), guide_html(), _contents(book)]
    sections += [_chapter(book, i, c, cells) for i, c in enumerate(book.chapters, 1)]
    sections += [_solutions(book, arrows, draw), _index(book)]
    return (
        '<!DOCTYPE html>\n<html lang="en"><head><meta charset="utf-8"/>'
        f"<title>{_e(book.title)}</title><style>\n{css}</style></head><body>\n"
        + "\n".join(f'<div class="sheet">{s}</div>' for s in sections)
        + "\n</body></html>\n"
    )


def _title_page(book: Book, draw: dict[str, Any], monochrome: bool = False) -> str:
    frontispiece = (
        f'<div class="frontispiece">{_diagram(START, title="Start", **draw)}'
        "<div>The opening position of seed 000's sample game: both shores shaded, South "
        "to move (its rings marked).</div></div>"
    )
    rings = "".join(f"<span>{_legend_ring(k, marked, monochrome)}{name}</span>"
                    for marked in (False, True)
                    for k, name in ((1, "single"), (2, "double"), (3, "triple")))
    return (
        '<section class="title-page">'
        f"<h1>{_e(book.title)}</h1>"
        f'<div class="subtitle">{_e(book.subtitle)}</div><hr class="rule"/>'
        f'<div class="front">{frontispiece}<div class="legend"><h3>Reading the diagrams</h3>'
        f'<div class="rings">{rings}</div>'
        "<p>A ring of size <i>k</i> is drawn as <i>k</i> circles, and moves exactly <i>k</i> "
        "steps; the rings of the side to move (on its shore) are marked, as in the second "
        "row above. North plays towards the goal <b>S</b> at the bottom, South towards "
        "<b>N</b> at the top; a move wins by landing on the opponent's goal.</p>"
        "<p>The shaded rows are the two <i>shores</i>: only rings on one's shore may move.</p>"
        "<p>Slots are named by row then column (<span class=\"mono\">16</span>: row 1, "
        "column 6). The notation, the solutions, the themes and the difficulty are "
        f'explained in <a href="#guide"><i>{_e(GUIDE_TITLE)}</i></a>, on the next page.</p>'
        "<p>Each stipulation is exact: the solver has proved there is no quicker win, and "
        "the solution at the back names every key.</p>"
        "</div></div>"
        '<div class="credits">Gygès is a game by Claude Leroy (1985). Each problem\'s '
        "source and credit are given under its diagram and with its solution; every "
        "stipulation was proved by the gyges solver.</div></section>"
    )


def _contents(book: Book) -> str:
    """Every chapter, problem, the solutions and the index, each with its page."""
    parts = ['<section class="contents"><h2>Contents</h2>']
    for i, chapter in enumerate(book.chapters, 1):
        parts.append(_contents_heading(f"chapter-{i}", f"{i}. {chapter.title}") + "<table>")
        parts += [
            f'<tr><td class="n">{e.number}</td><td><a href="#{e.anchor}">{_e(e.title)}</a></td>'
            f'<td class="st">{_e(book_phrase(e.puzzle.stipulation, e.puzzle.position.turn.title))}'
            f'</td><td class="p"><a class="pageref" href="#{e.anchor}"></a></td></tr>'
            for e in chapter.entries
        ]
        parts.append("</table>")
    parts += [_contents_heading("solutions", "Solutions"),
              _contents_heading("index", "Index of themes"), "</section>"]
    return "".join(parts)


def _contents_heading(anchor: str, title: str) -> str:
    """A heading of the contents, with its page at the right."""
    return (f'<h3><a href="#{anchor}">{_e(title)}</a>'
            f'<a class="pageref" href="#{anchor}"></a></h3>')


def _chapter(book: Book, i: int, chapter: Chapter, draw: dict[str, Any]) -> str:
    first, last = chapter.entries[0].number, chapter.entries[-1].number
    span = f"Problem {first}" if first == last else f"Problems {first}–{last}"
    cells = [_puzzle_cell(e, draw) for e in chapter.entries]
    return (f'<section class="chapter" id="chapter-{i}"><h2>{i}. {_e(chapter.title)}</h2>'
            f'<div class="chapter-intro">{span}</div><div class="grid">{"".join(cells)}'
            "</div></section>")


def _puzzle_cell(e: BookEntry, draw: dict[str, Any]) -> str:
    p = e.puzzle
    meta = [x for x in (rules_note(p), f"difficulty {p.difficulty}/5" if p.difficulty else "")
            if x]
    svg = _diagram(p.position, title=f"Problem {e.number}: {e.title}", **draw)
    credit = credit_line(p) or p.source
    return (
        f'<div class="puzzle" id="{e.anchor}">{svg}<div class="caption">'
        f'<span class="num">{e.number}.</span> {_e(e.title)}<br/>'
        f'<span class="stip">{_e(book_phrase(p.stipulation, p.position.turn.title))}</span>'
        + (f'<br/><span class="meta">{_e(" · ".join(meta))}</span>' if meta else "")
        + (f'<br/><span class="meta credit-line">{_e(credit)}</span>' if credit else "")
        + "</div></div>"
    )


def _solutions(book: Book, arrows: Arrows | str, draw: dict[str, Any]) -> str:
    parts = ['<section class="solutions" id="solutions"><h2>Solutions</h2>']
    for i, chapter in enumerate(book.chapters, 1):
        parts.append(f"<h3>{i}. {_e(chapter.title)}</h3>")
        parts += [_solution(e, arrows, draw) for e in chapter.entries]
    parts.append("</section>")
    return "".join(parts)


def _solution(e: BookEntry, arrows: Arrows | str, draw: dict[str, Any]) -> str:
    p = e.puzzle
    drawn = solution_drawing(p, arrows)
    svg = _diagram(p.position, coordinates=False, title=f"Solution {e.number}", **drawn,
                   **draw) if drawn else ""
    parts = [f'<div class="head">{e.number}. {_e(e.title)} '
             f'<a class="ref" href="#{e.anchor}">(problem, p.&#160;'
             f'<span class="pageref" href="#{e.anchor}"></span>)</a></div>',
             f"<div>{_e(solution_phrase(p))}</div>"]
    if p.key:
        parts.append(f'<div>Key: <b class="key">{_e(p.key)}</b></div>')
    if e.threats:
        shown = ", ".join(f'<span class="move">{_e(t)}</span>' for t in e.threats[:3])
        more = f" (and {len(e.threats) - 3} more)" if len(e.threats) > 3 else ""
        parts.append(f'<div>Threat: <span class="key">{shown}</span>{more}</div>')
    elif p.stipulation.kind == "win" and p.stipulation.moves > 1 and e.line is not None:
        parts.append("<div>Threat: none (a quiet key)</div>")
    if p.main_line:
        counted = e.winner or p.position.turn
        groups = numbered_line(e.line, counted) if e.line is not None else list(p.main_line)
        turns = "  ".join(f'<span class="move">{_e(g)}</span>' for g in groups)
        parts.append(f'<div>Main line: <span class="key">{turns}</span></div>')
    if e.variations:
        items = "; ".join(f'<span class="move">{_e(variation_text(v, 2))}</span>'
                          for v in e.variations)
        parts.append(f'<div>Variations ({e.defences} defences): <span class="key">{items}'
                     "</span></div>")
    if p.cooks:
        cooks = ", ".join(f'<span class="move">{_e(c)}</span>' for c in p.cooks)
        parts.append(f'<div class="cooks">{len(p.cooks)} other key'
                     f'{"s" if len(p.cooks) > 1 else ""} (declared cooks): '
                     f'<span class="key">{cooks}</span></div>')
    if p.themes:
        parts.append(f"<div>Themes: <i>{_e(', '.join(p.themes))}</i></div>")
    if p.notes:
        parts.append(f'<div class="notes">{_e(p.notes)}</div>')
    if credit_text(p):
        parts.append(f'<div class="credit">{_e(credit_text(p))}</div>')
    return (f'<div class="solution" id="solution-{e.number}"><div class="diagram">{svg}</div>'
            f'<div class="text">{"".join(parts)}</div></div>')


def _index(book: Book) -> str:
    rows = []
    for theme, numbers in book.theme_index():
        refs = ", ".join(f'<a href="#problem-{n}">{n}</a>' for n in numbers)
        meaning = theme_meaning(theme)
        said = f" ({_e(meaning)})" if meaning else ""
        rows.append(f"<p><i>{_e(theme)}</i>{said}: {refs}</p>")
    return ('<section class="index" id="index"><h2>Index of themes</h2>'
            + ("".join(rows) or "<p>No themes declared.</p>") + "</section>")
