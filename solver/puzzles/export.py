"""Exports of the catalogue: a text booklet and a printable HTML puzzle book.

Both are pure functions of the puzzles (see :mod:`solver.puzzles.catalogue`): the text export puts
seed-000 diagrams and stipulations first and the solutions in a separate section; the HTML
book has a title page, the puzzles several to a page (inline SVG from :mod:`solver.formats.svg`)
and the solutions at the back, with ``@media print`` page breaks.

>>> from solver.puzzles.catalogue import parse_catalogue
>>> cat = parse_catalogue('''
... schema: 1
... puzzles:
... - id: bounce
...   position: "....../3...../..1.1./1.23.3/3.22.1/....2. N"
...   stipulation: North wins in 1
...   solution: {key: 51-43-33-31-21-S, main-line: [51-43-33-31-21-S]}
... ''')
>>> text = export_text(cat.puzzles, "Demo")
>>> "North to move and win in 1" in text, text.index("SOLUTIONS") > text.index("N\\n")
(True, True)
>>> "51-(41-42-)43-33-(32-)31-21-(11-12-)S" in text
True
"""

from __future__ import annotations

import dataclasses
import html
import textwrap
from collections.abc import Sequence

from solver.formats.diagram import format_diagram
from solver.formats.svg import render_position
from solver.game.position import START
from solver.game.rules import Side
from solver.puzzles.catalogue import Line, Puzzle, Stipulation, play_line

BOOK_TITLE = "Gygès puzzles"


def _solution_phrase(p: Puzzle) -> str:
    """The stipulation as proven, for the solutions pages."""
    return p.stipulation.answer(p.position.turn)


def book_phrase(st: Stipulation, turn_title: str) -> str:
    """The stipulation as a book prints it: ``South to move and win in 2``.

    >>> from solver.game.rules import Side
    >>> book_phrase(Stipulation("loss", 2, Side.SOUTH), "South")
    'South to move loses in 2'
    >>> book_phrase(Stipulation("none", 1), "North")
    'North to move: hold out for 1 move'
    """
    return st.task(Side.parse(turn_title))


@dataclasses.dataclass(frozen=True)
class Solved:
    """A puzzle with its main line played out (``line`` None if it cannot be played)."""

    puzzle: Puzzle
    line: Line | None

    def turns_text(self, long: bool = True) -> list[str]:
        """The main line, turn by turn, in pbmserv notation (long form: every step)."""
        from solver.formats.notation import format_turn

        if self.line is None:
            return list(self.puzzle.main_line)
        return [format_turn(t, long) for t in self.line.turns]

    def numbered(self) -> str:
        """``1. 34-44-43; 43-53-N 2. ...``: turn numbers from the puzzle's first turn."""
        return "  ".join(f"{i}. {t}" for i, t in enumerate(self.turns_text(), 1))


def solved(puzzle: Puzzle) -> Solved:
    try:
        line = play_line(puzzle.position, puzzle.rules, puzzle.main_line, puzzle.history)
    except ValueError:
        line = None
    return Solved(puzzle, line)


def _rules_note(puzzle: Puzzle) -> str:
    name = puzzle.rules.name
    if name == "pbmserv":
        return ""
    return f"Rules: {name if name != 'custom' else puzzle.rules.describe()}"


# -- text --------------------------------------------------------------------------------


def export_text(puzzles: Sequence[Puzzle], title: str = BOOK_TITLE) -> str:
    """Diagrams and stipulations, then a separate solutions section."""
    out = [title, "=" * len(title), ""]
    for n, p in enumerate(puzzles, 1):
        head = f"{n}. {p.title or p.id}  [{p.id}]"
        out += [head, "-" * len(head), format_diagram(p.position, turn=False), ""]
        out.append(book_phrase(p.stipulation, p.position.turn.title) + ".")
        extra = [x for x in (_rules_note(p), f"Difficulty {p.difficulty} of 5"
                             if p.difficulty else "") if x]
        if extra:
            out.append("   ".join(extra))
        if p.source:
            out.append(f"Source: {p.source}.")
        if p.credit:
            out.append(f"Credit: {p.credit}.")
        out.append("")
    out += ["", "SOLUTIONS", "=========", ""]
    for n, p in enumerate(puzzles, 1):
        s = solved(p)
        out.append(f"{n}. {p.title or p.id}: {p.stipulation}")
        if p.key:
            out.append(f"   Key: {p.key}")
        if p.cooks:
            out += textwrap.wrap(f"Other keys (cooks): {', '.join(p.cooks)}", 88,
                                 initial_indent="   ", subsequent_indent="     ",
                                 break_on_hyphens=False)
        if p.main_line:
            out += textwrap.wrap(f"Main line: {s.numbered()}", 88, initial_indent="   ",
                                 subsequent_indent="     ", break_on_hyphens=False)
        if p.themes:
            out.append(f"   Themes: {', '.join(p.themes)}")
        if p.notes:
            out += textwrap.wrap(p.notes, 88, initial_indent="   ", subsequent_indent="   ",
                                 break_on_hyphens=False)
        out.append("")
    return "\n".join(out).rstrip() + "\n"


# -- svg ---------------------------------------------------------------------------------


def puzzle_svgs(puzzle: Puzzle, size: float | None = 360) -> dict[str, str]:
    """``{name: svg}``: the puzzle's diagram and, when it has a key, the key's path."""
    out = {f"{puzzle.id}.svg": render_position(puzzle.position, size=size,
                                               title=f"{puzzle.title or puzzle.id}: "
                                               f"{puzzle.stipulation}")}
    move = _key_move(puzzle)
    if move is not None:
        out[f"{puzzle.id}-solution.svg"] = render_position(
            puzzle.position, size=size, path=move, title=f"{puzzle.id}: key {puzzle.key}"
        )
    return out


def _key_move(puzzle: Puzzle):
    s = solved(puzzle)
    if s.line is not None and s.line.moves:
        return s.line.moves[0]
    if puzzle.key:
        from solver.formats.notation import parse_move

        try:
            return parse_move(puzzle.key, puzzle.position, puzzle.rules, puzzle.history)
        except ValueError:
            return None
    return None


# -- html --------------------------------------------------------------------------------

PER_PAGE = 6  # puzzles on a page: three rows of two
SOLUTIONS_PER_PAGE = 3

_CSS = """
@page { size: A4 portrait; margin: 0; }
* { box-sizing: border-box; }
html { background: #d9d9d9; }
body { margin: 0; font-family: "DejaVu Serif", Georgia, "Times New Roman", serif; color: #111;
       -webkit-print-color-adjust: exact; print-color-adjust: exact; }
.page { width: 210mm; height: 297mm; margin: 0 auto 8mm auto; padding: 14mm 15mm 12mm 15mm;
        background: #fff; position: relative; overflow: hidden; }
.page-number { position: absolute; bottom: 7mm; left: 0; right: 0; text-align: center;
               font-size: 9pt; color: #555; }
h1 { font-size: 34pt; font-weight: normal; letter-spacing: 0.04em; margin: 6mm 0 1mm 0;
     text-align: center; }
.subtitle { text-align: center; font-size: 13pt; font-style: italic; color: #333;
            margin-bottom: 6mm; }
.rule { border: 0; border-top: 0.6pt solid #333; margin: 4mm 28mm; }
.front { display: flex; gap: 9mm; align-items: flex-start; margin-top: 6mm; }
.front .frontispiece { width: 78mm; flex: none; text-align: center; font-size: 9.5pt; }
.front .frontispiece svg { width: 78mm; height: auto; display: block; }
.front .legend { flex: 1; font-size: 10pt; line-height: 1.45; }
.legend h2, .contents h2 { font-size: 12pt; margin: 0 0 2mm 0; letter-spacing: 0.05em;
                           text-transform: uppercase; font-weight: bold; }
.legend p { margin: 0 0 2.2mm 0; }
.legend .rings { display: flex; gap: 5mm; align-items: center; margin: 1mm 0 3mm 0; }
.legend .rings span { display: inline-flex; flex-direction: column; align-items: center;
                      font-size: 8.5pt; }
.contents { margin-top: 7mm; font-size: 10pt; }
.contents table { width: 100%; border-collapse: collapse; }
.contents td { padding: 1.1mm 2mm; border-bottom: 0.4pt solid #bbb; vertical-align: top; }
.contents td.n { width: 9mm; text-align: right; font-weight: bold; }
.contents td.st { white-space: nowrap; }
.contents td.p { width: 12mm; text-align: right; color: #555; }
.credits { position: absolute; bottom: 14mm; left: 15mm; right: 15mm; font-size: 8.5pt;
           color: #444; text-align: center; line-height: 1.4; }
.section-title { font-size: 16pt; letter-spacing: 0.08em; text-transform: uppercase;
                 text-align: center; margin: 0 0 5mm 0; font-weight: normal; }
.grid { display: grid; grid-template-columns: 1fr 1fr; column-gap: 12mm; row-gap: 5mm; }
.puzzle { break-inside: avoid; text-align: center; }
.puzzle svg { width: 54mm; height: auto; display: block; margin: 0 auto; }
.puzzle .caption { font-size: 10pt; margin-top: 1mm; line-height: 1.3; }
.puzzle .num { font-weight: bold; }
.puzzle .stip { font-weight: bold; }
.puzzle .meta { font-size: 8.5pt; color: #444; }
.solutions { display: flex; flex-direction: column; gap: 5mm; }
.solution { break-inside: avoid; display: flex; gap: 6mm; font-size: 9.5pt;
            line-height: 1.38; border-bottom: 0.4pt solid #ccc; padding-bottom: 4mm; }
.solution:last-child { border-bottom: 0; }
.solution .diagram { flex: none; width: 40mm; }
.solution .diagram svg { width: 40mm; height: auto; display: block; }
.solution .text { flex: 1; }
.solution .head { font-weight: bold; font-size: 11pt; margin-bottom: 0.5mm; }
.solution .key { font-family: "DejaVu Sans Mono", monospace; font-size: 9pt; }
.solution .move { white-space: nowrap; }
.solution .cooks { font-size: 8pt; color: #333; }
.solution .notes { color: #222; font-size: 9pt; margin-top: 1mm; }
.solution .credit { color: #555; font-size: 8pt; font-style: italic; margin-top: 0.8mm; }
.mono { font-family: "DejaVu Sans Mono", monospace; font-size: 9pt; }
@media print {
  html { background: none; }
  .page { margin: 0; page-break-after: always; break-after: page; }
  .page:last-child { page-break-after: auto; break-after: auto; }
}
"""


def _e(text: object) -> str:
    return html.escape(str(text), quote=True)


def _strip_xml_header(svg: str) -> str:
    return svg.strip()


def _legend_ring(size: int) -> str:
    """A small SVG of one ring of the given size, drawn as in the diagrams."""
    from solver.formats.svg import RING_RADII, RING_STROKE

    circles = "".join(
        f'<circle cx="30" cy="30" r="{r}" fill="none" stroke="#000" '
        f'stroke-width="{RING_STROKE}"/>'
        for r in RING_RADII[:size]
    )
    return (f'<svg xmlns="http://www.w3.org/2000/svg" version="1.1" width="34" height="34" '
            f'viewBox="0 0 60 60">{circles}</svg>')


def export_html(puzzles: Sequence[Puzzle], title: str = BOOK_TITLE, subtitle: str = "",
                per_page: int = PER_PAGE) -> str:
    """A printable book: title page, puzzles ``per_page`` to a page, solutions at the back."""
    pages: list[str] = []
    puzzle_pages = [puzzles[i:i + per_page] for i in range(0, len(puzzles), per_page)]
    first_puzzle_page = 2
    page_of = {}
    for i, chunk in enumerate(puzzle_pages):
        for p in chunk:
            page_of[p.id] = first_puzzle_page + i
    subtitle = subtitle or (f"{len(puzzles)} problem{'s' if len(puzzles) != 1 else ''}, "
                            "every one proven by the gyges solver")

    # Title page.
    rows = "".join(
        f'<tr><td class="n">{n}</td><td>{_e(p.title or p.id)}</td>'
        f'<td class="st">{_e(book_phrase(p.stipulation, p.position.turn.title))}'
        f'</td><td class="p">p. {page_of[p.id]}</td></tr>'
        for n, p in enumerate(puzzles, 1)
    )
    frontispiece = (
        f'<div class="frontispiece">{render_position(START, size=None, title="Start")}'
        "<div>The opening position of seed 000's sample game: both shores shaded, South "
        "to move (its rings grey).</div></div>"
    )
    pages.append(
        '<section class="page title-page">'
        f"<h1>{_e(title)}</h1>"
        f'<div class="subtitle">{_e(subtitle)}</div><hr class="rule"/>'
        f'<div class="front">{frontispiece}<div class="legend"><h2>Reading the diagrams</h2>'
        '<div class="rings">'
        + "".join(f"<span>{_legend_ring(k)}{name}</span>"
                  for k, name in ((1, "single"), (2, "double"), (3, "triple")))
        + "</div>"
        "<p>A ring of size <i>k</i> is drawn as <i>k</i> circles, and moves exactly <i>k</i> "
        "steps. North plays towards the goal <b>S</b> at the bottom, South towards <b>N</b> "
        "at the top; a move wins by landing on the opponent's goal.</p>"
        "<p>The shaded rows are the two <i>shores</i>: only rings on one's shore may move. The "
        "rings of the side to move are filled grey.</p>"
        "<p>Moves are written in pbmserv notation: start, every ring bounced on, end "
        '(<span class="mono">51-43-33-31-21-S</span>); <span class="mono">x</span> marks a '
        'ring landed on and relocated (<span class="mono">13x14=44</span>); steps in '
        "parentheses; moves of one side while the other is blocked are joined by "
        '<span class="mono">;</span>.</p>'
        "<p>Each stipulation is exact: the solver has proved there is no quicker win, and "
        "the solution at the back names every key.</p>"
        "</div></div>"
        f'<div class="contents"><h2>Contents</h2><table>{rows}</table></div>'
        + '<div class="credits">Gygès is a game by Claude Leroy (1984). Each problem\'s '
        "source and credit are given with its solution; every stipulation was proved by the "
        "gyges solver.</div>"
        + "</section>"
    )

    # Puzzle pages.
    n = 0
    for i, chunk in enumerate(puzzle_pages):
        cells = []
        for p in chunk:
            n += 1
            meta = [x for x in (_rules_note(p), f"difficulty {p.difficulty}/5"
                                if p.difficulty else "") if x]
            svg = render_position(p.position, size=None,
                                  title=f"Problem {n}: {p.title or p.id}")
            cells.append(
                f'<div class="puzzle" id="puzzle-{_e(p.id)}">{svg}<div class="caption">'
                f'<span class="num">{n}.</span> {_e(p.title or p.id)}<br/>'
                f'<span class="stip">{_e(book_phrase(p.stipulation, p.position.turn.title))}'
                f"</span>"
                + (f'<br/><span class="meta">{_e(" · ".join(meta))}</span>' if meta else "")
                + "</div></div>"
            )
        heading = '<h2 class="section-title">Problems</h2>' if i == 0 else ""
        pages.append(f'<section class="page puzzles">{heading}<div class="grid">'
                     f'{"".join(cells)}</div>'
                     f'<div class="page-number">{first_puzzle_page + i}</div></section>')

    # Solutions, three to a page.
    sols = []
    for n, p in enumerate(puzzles, 1):
        s = solved(p)
        move = s.line.moves[0] if s.line is not None and s.line.moves else _key_move(p)
        svg = render_position(p.position, size=None, path=move, coordinates=False,
                              title=f"Solution {n}") if move is not None else ""
        parts = [f'<div class="head">{n}. {_e(p.title or p.id)}</div>',
                 f"<div>{_e(_solution_phrase(p))}</div>"]
        if p.key:
            parts.append(f'<div>Key: <b class="key">{_e(p.key)}</b></div>')
        if p.main_line:
            turns = "  ".join(
                f'<span class="move">{i}.&#160;{_e(t)}</span>'
                for i, t in enumerate(s.turns_text(long=False), 1)
            )
            parts.append(f'<div>Main line: <span class="key">{turns}</span></div>')
        if p.cooks:
            cooks = ", ".join(f'<span class="move">{_e(c)}</span>' for c in p.cooks)
            parts.append(f'<div class="cooks">{len(p.cooks)} other key'
                         f'{"s" if len(p.cooks) > 1 else ""} (declared cooks): '
                         f'<span class="key">{cooks}</span></div>')
        if p.themes:
            parts.append(f"<div>Themes: <i>{_e(', '.join(p.themes))}</i></div>")
        if p.notes:
            parts.append(f'<div class="notes">{_e(p.notes)}</div>')
        if p.source or p.credit:
            credit = "; ".join(x for x in (p.source, p.credit) if x)
            parts.append(f'<div class="credit">{_e(credit)}</div>')
        sols.append(f'<div class="solution"><div class="diagram">{svg}</div>'
                    f'<div class="text">{"".join(parts)}</div></div>')
    page_no = first_puzzle_page + len(puzzle_pages)
    for i in range(0, len(sols), SOLUTIONS_PER_PAGE):
        heading = '<h2 class="section-title">Solutions</h2>' if i == 0 else ""
        pages.append(f'<section class="page solutions-page">{heading}<div class="solutions">'
                     f'{"".join(sols[i:i + SOLUTIONS_PER_PAGE])}</div>'
                     f'<div class="page-number">{page_no}</div></section>')
        page_no += 1

    return (
        "<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\"/>"
        f"<title>{_e(title)}</title><style>{_CSS}</style></head><body>\n"
        + "\n".join(pages)
        + "\n</body></html>\n"
    )
