"""The book's reading guide (:func:`reading_guide`): how to read the diagrams, the notation,
the stipulations and the solutions (main line, variations, duals, cooks, tries), the themes
and the difficulty. One text, printed on the first pages of every rendering: the text
booklet (:func:`guide_text`) and the HTML and PDF book (:func:`guide_html`).

The paragraphs carry two marks of their own: ```code``` (a move, a slot) and ``*words*``
(a term being explained). Only the legend of the diagrams differs between the text booklet
(its diagrams are characters) and the drawn ones. The themes are those the catalogue's
checker knows (:data:`gyges.puzzles.catalogue.THEMES`), the difficulty's names those of the
book's chapters (:data:`gyges.puzzles.book.model.DIFFICULTY_NAMES`).

>>> [s.heading for s in reading_guide()][:3]
['The diagrams', 'The notation', 'The stipulations']
>>> print(guide_text(width=60)[0])
HOW TO READ THIS BOOK
>>> "<code>66x65=21</code>" in guide_html()
True
"""

from __future__ import annotations

import dataclasses
import html
import re
import textwrap

from gyges.puzzles.book.model import DIFFICULTY_NAMES
from gyges.puzzles.catalogue import THEMES

__all__ = ["GUIDE_TITLE", "GuideSection", "guide_html", "guide_text", "plain", "reading_guide"]

GUIDE_TITLE = "How to read this book"


@dataclasses.dataclass(frozen=True)
class GuideSection:
    """A heading and its paragraphs (marked up with ```code``` and ``*terms*``)."""

    heading: str
    paragraphs: tuple[str, ...]


#: The legend of the drawn diagrams (HTML and PDF).
DRAWN_DIAGRAMS = (
    "North plays towards the goal `S` at the bottom, South towards the goal `N` at the "
    "top; a move wins by landing on the opponent's goal. Rows are numbered 1 (South's "
    "starting row, at the bottom) to 6 (North's), columns 1 to 6 from the left, above the "
    "board and on its right.",
    "A ring of size *k* (a single, a double, a triple) is drawn as *k* concentric circles "
    "and moves exactly *k* steps.",
    "A side may only move the rings of its *shore*: its non-empty row nearest its own end "
    "of the board (South's lowest, North's highest). Rings are shared: a ring belongs to "
    "whoever's shore it is on. The two shores are shaded, and the rings of the side to move "
    "are *marked*: a grey disc with a thick black rim (in black-and-white books, the thick "
    "rim alone), whatever their size.",
    "The diagram beside each solution draws the key: a thick line from its ring through "
    "every slot it enters, under the rings it bounces on (a small diamond where it reaches "
    "each, so that no ring's circles are hidden), to an arrowhead on the slot or goal it "
    "ends on; a dashed arrow takes a relocated ring to its new slot. (With `--arrows line` "
    "the main line is drawn instead, as numbered arrows.)",
)

#: The legend of the text booklet's diagrams.
TEXT_DIAGRAMS = (
    "North plays towards the goal `S` at the bottom, South towards the goal `N` at the "
    "top; a move wins by landing on the opponent's goal. Rows are numbered 1 (South's "
    "starting row, at the bottom) to 6 (North's, at the top), columns 1 to 6 from the left: "
    "the numbers are printed above the board and on its right.",
    "`1`, `2` and `3` are a single, a double and a triple ring (a ring of size *k* moves "
    "exactly *k* steps); `.` is an empty slot.",
    "A side may only move the rings of its *shore*: its non-empty row nearest its own end "
    "of the board (South's lowest, North's highest), marked `<- North's shore` and "
    "`<- South's shore`. Rings are shared: a ring belongs to whoever's shore it is on. The "
    "task under the diagram says which side is to move.",
)


def _themes() -> str:
    """The themes paragraph: every theme of the catalogue's list (the index at the back
    says what each means)."""
    return ("Each solution names the problem's *themes*, motifs of its main line that the "
            "solver checks: " + ", ".join(f"*{name}*" for name in THEMES) + ". The index of "
            "themes at the back says what each means and lists the problems that show it.")


def _difficulty() -> str:
    names = ", ".join(f"{k} {name.lower()}" for k, name in sorted(DIFFICULTY_NAMES.items()))
    return (f"Each problem has a *difficulty* from 1 to 5 ({names}), on one scale for the "
            "whole catalogue (docs/catalogue.md says how it is measured); unless the book "
            "is grouped otherwise, its chapters follow it, easier first.")


def reading_guide(text: bool = False) -> tuple[GuideSection, ...]:
    """The guide's sections; ``text``: with the legend of the text booklet's diagrams."""
    return (
        GuideSection("The diagrams", TEXT_DIAGRAMS if text else DRAWN_DIAGRAMS),
        GuideSection("The notation", (
            "Moves are written in the pbmserv notation (the examples are moves of seed "
            "000's sample game). A slot is named by its row, then its column: `16` is row "
            "1, column 6. A move lists its start, every ring it bounces on, and its end: "
            "`16-35` is the ring on 16 moving to 35; `14-24-35-36-66` the ring on 14 "
            "bouncing on the rings on 24, 35 and 36 and ending on 66; a move that lands on a "
            "goal ends with its letter (`64-54-35-36-S`: North wins on `S`, South on `N`).",
            "The empty slots a ring passes are left out; where a move is written in full "
            "(the text booklet's main lines), they are given in parentheses: "
            "`12-(13-23-)33-(34-44-)x54=14`.",
            "A *replace* is written with `x` and `=`: in `66x65=21` the ring on 66 stops on "
            "the ring on 65 instead of bouncing on it, and that ring is relocated to 21 "
            "(`13-14-24x35=33`: bouncing on 14 and 24 first).",
            "A side that cannot move (*stalemated*) passes, and its opponent plays on until "
            "it wins or the other can move again; such consecutive moves of one side are "
            "joined by `;` (`1. A; B`).",
        )),
        GuideSection("The stipulations", (
            "*South to move and win in 2*: South lands on the goal with its 2nd move at the "
            "latest whatever North does, and not with its 1st: every stipulation is exact, "
            "the solver has proved there is no quicker win. *North to move, loses in 3*: "
            "every move of North leaves South a win, and the best defence lasts 3 moves. "
            "*No forced result in 2*: a defence problem, the key parries the threat.",
        )),
        GuideSection("The solutions", (
            "The *key* is the first move that solves, and the only one unless the solution "
            "says otherwise. The *threat* is the win the key threatens if the opponent does "
            "nothing about it; a key that threatens nothing is *quiet*.",
            "The *main line* is the key, then the defence that holds out longest, then the "
            "winner's fastest answer, down to the landing. Moves are numbered by the "
            "winner's moves, as in chess problems: in `1. 16-35 61-53 2. 15-24` South's "
            "1st move is answered by North's 61-53, then comes South's 2nd; `2. ...` stands "
            "for the winner's 2nd move where a line stops before it.",
            "The *variations* are the other defences to the key, each with the winner's "
            "answer: `D1, D2 (and 3 more) 2. A` means that after the defence D1 or D2, or "
            "three more, the winner plays A as its 2nd move. (The HTML and PDF book give "
            "the number of defences to the key after the word \"Variations\".)",
            "A *dual* is a point where the winner has more than one way to win before its "
            "last move (several rings landing on the goal at the last move is not a dual). "
            "A note \"Flaw: duals, e.g. after 1. K D 2. ...: A or B (and others)\" says "
            "that after some defences to the key the winner has such a choice; for example "
            "after the key K and the defence D, its 2nd move may be A or B or yet another "
            "move.",
            "A *cook* is another first move that solves as well as the key; the solution "
            "lists the cooks the catalogue declares (\"other keys\"). A *try* is a tempting "
            "first move that fails: it threatens a win too, but one defence refutes it. The "
            "solutions do not list the tries: finding why the obvious moves fail is part of "
            "solving.",
        )),
        GuideSection("Themes and difficulty", (_themes(), _difficulty())),
    )


_MARKS = re.compile(r"`([^`]+)`|\*([^*]+)\*")


def plain(paragraph: str) -> str:
    """A paragraph without its marks: ``*terms*`` and ```code``` as plain words, but a
    one-character code (```;```, ```x```) in quotes, to be read as a sign.

    >>> plain("*x* is `13x14=44`; moves are joined by `;`")
    "x is 13x14=44; moves are joined by ';'"
    """
    def unmark(m: re.Match[str]) -> str:
        if m.group(1) is not None:
            return f"'{m.group(1)}'" if len(m.group(1)) == 1 else m.group(1)
        return m.group(2)

    return _MARKS.sub(unmark, paragraph)


def _html_paragraph(paragraph: str) -> str:
    out, pos = [], 0
    for m in _MARKS.finditer(paragraph):
        out.append(html.escape(paragraph[pos:m.start()], quote=False))
        if m.group(1):
            out.append(f"<code>{html.escape(m.group(1), quote=False)}</code>")
        else:
            out.append(f"<i>{html.escape(m.group(2), quote=False)}</i>")
        pos = m.end()
    out.append(html.escape(paragraph[pos:], quote=False))
    return "".join(out)


def guide_text(width: int = 88) -> list[str]:
    """The guide as lines of the text booklet (its own legend of the diagrams)."""
    out = [GUIDE_TITLE.upper(), "=" * len(GUIDE_TITLE), ""]
    for section in reading_guide(text=True):
        out += [section.heading, "-" * len(section.heading)]
        for paragraph in section.paragraphs:
            out += textwrap.wrap(plain(paragraph), width, break_on_hyphens=False,
                                 break_long_words=False)
            out.append("")
    return out


def guide_html() -> str:
    """The guide as an HTML section of the drawn book (headings ``h3``)."""
    parts = ['<section class="guide" id="guide">'
             f"<h2>{html.escape(GUIDE_TITLE)}</h2>"]
    for section in reading_guide():
        parts.append(f"<h3>{html.escape(section.heading)}</h3>")
        parts += [f"<p>{_html_paragraph(p)}</p>" for p in section.paragraphs]
    parts.append("</section>")
    return "".join(parts)
