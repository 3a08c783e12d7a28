"""Exports of the catalogue: a text booklet, SVG files and the puzzle book (HTML, and PDF
through :mod:`gyges.puzzles.book`).

Every export is a pure function of the puzzles (see :mod:`gyges.puzzles.catalogue`). The
puzzles are first laid out as a :class:`Book` by :func:`make_book`: numbered, grouped in
chapters (by difficulty unless asked otherwise, the seed-000 classics first among equals),
with duplicate titles told apart and each main line played out. The text export and the
HTML book are then two renderings of the same book: title page, contents, the chapters'
problems, the solutions at the back cross-referenced by number, and an index of themes.

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
>>> "51-(41-42-)43-33-(32-)31-21-(11-12-)S" in text
True
"""

from __future__ import annotations

import dataclasses
import fnmatch
import html
import re
import textwrap
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

from gyges.formats.diagram import format_diagram
from gyges.formats.notation import format_move, parse_move
from gyges.formats.svg import RING_RADII, RING_STROKE, render_position
from gyges.game.moves import Move, apply_move, legal_moves
from gyges.game.position import START
from gyges.game.rules import Side
from gyges.puzzles.catalogue import Line, Puzzle, Stipulation, play_line
from gyges.search.prover import solve

BOOK_TITLE = "Gygès puzzles"
CHAPTERINGS = ("difficulty", "theme", "stipulation", "file")
ARROWS = ("none", "key", "line")
PAPERS = {"a4": ("A4", 210.0, 297.0), "letter": ("letter", 215.9, 279.4)}
SELECT_KEYS = ("id", "rules", "stipulation", "theme", "difficulty")

DIFFICULTY_NAMES = {1: "Easy", 2: "Moderate", 3: "Intermediate", 4: "Hard", 5: "Very hard"}
#: The order of the theme chapters; a puzzle goes to the first of its themes in this list.
THEME_ORDER = ("Renop", "unstoppable", "taboo", "stalemate chain", "relocation",
               "bounce chain")
THEME_CHAPTERS = {"Renop": "The Renop law", "unstoppable": "Unstoppable wins",
                  "taboo": "Taboos", "stalemate chain": "Stalemate chains",
                  "relocation": "Relocations", "bounce chain": "Bounce chains"}


# -- selection ---------------------------------------------------------------------------

_SELECT_STIPULATION = re.compile(
    r"^(?:(?P<side>south|north)\s+)?(?:(?P<kind>wins?|loss|loses|none|no forced result)"
    r"(?:\s+(?:in|within)\s+(?P<k>\d+))?)$", re.IGNORECASE)


@dataclasses.dataclass(frozen=True)
class Selection:
    """``--select`` criteria: ``(key, values)`` pairs; a puzzle matches when, for every
    key, one of its values matches (values are alternatives, keys all apply).

    >>> s = Selection.parse(["difficulty=1-2", "theme=relocation,taboo"])
    >>> s.criteria
    (('difficulty', ('1-2',)), ('theme', ('relocation', 'taboo')))
    >>> Selection.parse(["colour=red"])  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    ValueError: --select 'colour=red': unknown key 'colour'; the keys are id, rules, ...
    """

    criteria: tuple[tuple[str, tuple[str, ...]], ...] = ()

    @classmethod
    def parse(cls, texts: Sequence[str]) -> Selection:
        """Read ``KEY=VALUE[,VALUE...]`` texts; ValueError says which one is wrong."""
        out = []
        for text in texts:
            key, sep, value = text.partition("=")
            key = key.strip().lower()
            values = tuple(v.strip() for v in value.split(",") if v.strip())
            where = f"--select {text!r}"
            if not sep or not values:
                raise ValueError(f"{where}: write KEY=VALUE, like difficulty=1-2 or "
                                 "theme=relocation")
            if key not in SELECT_KEYS:
                raise ValueError(f"{where}: unknown key {key!r}; the keys are "
                                 f"{', '.join(SELECT_KEYS)}")
            for v in values:
                problem = _value_problem(key, v)
                if problem:
                    raise ValueError(f"{where}: {problem}")
            out.append((key, values))
        return cls(tuple(out))

    def matches(self, puzzle: Puzzle) -> bool:
        return all(any(_matches(key, v, puzzle) for v in values)
                   for key, values in self.criteria)

    def __str__(self) -> str:
        return " ".join(f"{k}={','.join(v)}" for k, v in self.criteria)


def _value_problem(key: str, value: str) -> str | None:
    if key == "difficulty" and not re.fullmatch(r"[1-5](-[1-5])?|unrated", value):
        return f"difficulty {value!r}: give 1 to 5, a range like 2-4, or 'unrated'"
    if key == "stipulation" and not _SELECT_STIPULATION.match(value):
        return (f"stipulation {value!r}: give 'win', 'win in 2', 'South wins in 2', "
                "'loss', 'loses in 3' or 'none'")
    return None


def _matches(key: str, value: str, p: Puzzle) -> bool:
    if key == "id":
        return fnmatch.fnmatchcase(p.id, value)
    if key == "rules":
        return p.rules.name == value.lower()
    if key == "theme":
        v = value.lower()
        return any(t.lower() == v or (v == "bounce chain" and t.startswith("bounce chain"))
                   for t in p.themes)
    if key == "difficulty":
        if value == "unrated":
            return p.difficulty is None
        lo, _, hi = value.partition("-")
        return p.difficulty is not None and int(lo) <= p.difficulty <= int(hi or lo)
    m = _SELECT_STIPULATION.match(value)
    assert m is not None
    st = p.stipulation
    kind = m.group("kind").lower()
    kind = "win" if kind.startswith("win") else "loss" if kind.startswith("los") else "none"
    if kind != st.kind or (m.group("k") and int(m.group("k")) != st.moves):
        return False
    return not m.group("side") or Side.parse(m.group("side")) is p.position.turn


def select_puzzles(puzzles: Sequence[Puzzle], selection: Selection) -> list[Puzzle]:
    """The puzzles that match ``selection``, in their order."""
    return [p for p in puzzles if selection.matches(p)]


# -- the book ------------------------------------------------------------------------------


@dataclasses.dataclass(frozen=True)
class Variation:
    """After the key: defences (that hold out longest) answered by the same winning move."""

    defences: tuple[str, ...]
    answer: str
    more: int = 0  #: further defences answered the same way, not listed


@dataclasses.dataclass(frozen=True)
class Entry:
    """A puzzle as the book prints it: its number, its (disambiguated) title, its main line
    played out (None if it cannot be), and the solver's threat and variations."""

    number: int
    puzzle: Puzzle
    title: str
    line: Line | None
    threats: tuple[str, ...] = ()
    variations: tuple[Variation, ...] = ()
    defences: int = 0  #: the number of defences to the key

    @property
    def anchor(self) -> str:
        return f"problem-{self.number}"

    @property
    def winner(self) -> Side | None:
        st = self.puzzle.stipulation
        if st.kind == "win":
            return self.puzzle.position.turn
        if st.kind == "loss":
            return self.puzzle.position.turn.other
        return None

    def main_line(self, long: bool = False) -> str:
        """The main line numbered by the winner's moves: ``1. 62-53 16-15 2. 61-53-33-S``."""
        if self.line is None:
            return "  ".join(self.puzzle.main_line)
        counted = self.winner or self.puzzle.position.turn
        return "  ".join(numbered_line(self.line, counted, long=long))


@dataclasses.dataclass(frozen=True)
class Chapter:
    title: str
    entries: tuple[Entry, ...]


@dataclasses.dataclass(frozen=True)
class Book:
    title: str
    subtitle: str
    chapters: tuple[Chapter, ...]

    @property
    def entries(self) -> tuple[Entry, ...]:
        return tuple(e for c in self.chapters for e in c.entries)

    def theme_index(self) -> list[tuple[str, tuple[int, ...]]]:
        """``(theme, problem numbers)``, themes alphabetically (bounce chains by length)."""
        found: dict[str, list[int]] = {}
        for e in self.entries:
            for t in e.puzzle.themes:
                found.setdefault(t, []).append(e.number)

        def order(t: str) -> tuple:
            m = re.fullmatch(r"bounce chain (\d+)", t)
            return ("bounce chain", int(m.group(1))) if m else (t.lower(), 0)

        return [(t, tuple(found[t])) for t in sorted(found, key=order)]


def numbered_line(line: Line, counted: Side, long: bool = False) -> list[str]:
    """The moves of ``line`` numbered by ``counted``'s moves, as problem books do: each
    number covers one move of ``counted`` and the other side's move beside it; a side's
    consecutive moves (its opponent blocked) keep their ``;``.

    >>> from gyges.game.position import Position
    >>> from gyges.game.rules import PRESETS
    >>> p = Position.from_string(".3.3.3/112232/...1.2/...1../....../...... S")
    >>> numbered_line(play_line(p, PRESETS["pbmserv"], ["34-44-43; 43-53-N"]), Side.SOUTH)
    ['1. 34-44-43;', '2. 43-53-N']
    """
    moves = [m for turn in line.turns for m in turn]
    if not moves:
        return []
    offset = 0 if moves[0].side is counted else 1
    groups: list[str] = []
    count, current = 0, None
    for turn in line.turns:
        for i, move in enumerate(turn):
            if move.side is counted:
                count += 1
                number = count
            else:
                number = count + offset
            text = format_move(move, long)
            if number != current:
                if i > 0:
                    groups[-1] += ";"
                groups.append(f"{number}. {text}")
                current = number
            else:
                groups[-1] += ("; " if i > 0 else " ") + text
    return groups


def is_classic(p: Puzzle) -> bool:
    """A worked example of seed 000 (the pbmserv rules): printed first among equals."""
    return p.id.startswith("seed000") or p.source.lower().startswith("seed 000")


def _stipulation_order(st: Stipulation) -> tuple[int, int]:
    return ({"win": 0, "loss": 1, "none": 2}[st.kind], st.moves)


def _primary_theme(p: Puzzle) -> str | None:
    for theme in THEME_ORDER:
        if any(t == theme or t.startswith(theme + " ") for t in p.themes):
            return theme
    return None


def _chapter_key(p: Puzzle, chapters: str, file_order: Mapping[str, int]) -> tuple:
    if chapters == "difficulty":
        return (p.difficulty or 9,)
    if chapters == "stipulation":
        return _stipulation_order(p.stipulation)
    if chapters == "theme":
        theme = _primary_theme(p)
        return (THEME_ORDER.index(theme) if theme else len(THEME_ORDER),)
    return (file_order[p.file],)


def _chapter_title(p: Puzzle, chapters: str, file_titles: Mapping[str, str]) -> str:
    if chapters == "difficulty":
        if p.difficulty is None:
            return "Unrated"
        return f"Difficulty {p.difficulty}: {DIFFICULTY_NAMES[p.difficulty]}"
    if chapters == "stipulation":
        st = p.stipulation
        s = "s" if st.moves > 1 else ""
        if st.kind == "win":
            return f"Wins in {st.moves}"
        if st.kind == "loss":
            return f"Unstoppable: loses in {st.moves}"
        return f"Defences: no forced result in {st.moves} move{s}"
    if chapters == "theme":
        theme = _primary_theme(p)
        return THEME_CHAPTERS[theme] if theme else "Other problems"
    return file_titles.get(p.file) or Path(p.file).stem


def _roman(n: int) -> str:
    """``n`` in Roman numerals, for telling repeated titles apart.

    >>> _roman(14)
    'XIV'
    """
    out = ""
    for value, letters in ((10, "X"), (9, "IX"), (5, "V"), (4, "IV"), (1, "I")):
        while n >= value:
            out, n = out + letters, n - value
    return out


def _played(p: Puzzle) -> Line | None:
    try:
        return play_line(p.position, p.rules, p.main_line, p.history)
    except ValueError:
        return None


def make_book(
    puzzles: Sequence[Puzzle],
    *,
    title: str = BOOK_TITLE,
    subtitle: str = "",
    chapters: str = "difficulty",
    file_titles: Mapping[str, str] | None = None,
    analysis: bool = True,
) -> Book:
    """Lay ``puzzles`` out as a book.

    ``chapters``: ``difficulty`` (easiest first), ``theme`` (each puzzle under its most
    distinctive theme, see :data:`THEME_ORDER`), ``stipulation`` (wins by length, then
    losses, then defences) or ``file`` (the catalogue files in the order given, titled by
    ``file_titles`` or the file's name). Within a chapter: easier first, seed 000's
    classics first among equals, then shorter stipulations, then catalogue order. Titles
    that repeat get a Roman numeral in book order. ``analysis`` asks the solver for each
    entry's threat and main variations.
    """
    if chapters not in CHAPTERINGS:
        raise ValueError(f"chapters {chapters!r}: use one of {', '.join(CHAPTERINGS)}")
    file_titles = dict(file_titles or {})
    file_order: dict[str, int] = {}
    for p in puzzles:
        file_order.setdefault(p.file, len(file_order))
    index = {id(p): i for i, p in enumerate(puzzles)}

    def within(p: Puzzle) -> tuple:
        if chapters == "file":
            return (index[id(p)],)
        return (p.difficulty or 9, not is_classic(p), _stipulation_order(p.stipulation),
                index[id(p)])

    ordered = sorted(puzzles, key=lambda p: (_chapter_key(p, chapters, file_order), within(p)))
    names = [p.title or p.id for p in ordered]
    repeats = {n for n in names if names.count(n) > 1}
    seen: dict[str, int] = {}
    groups: list[tuple[str, list[Entry]]] = []
    last_key = None
    for number, (p, name) in enumerate(zip(ordered, names, strict=True), 1):
        if name in repeats:
            seen[name] = seen.get(name, 0) + 1
            name = f"{name} {_roman(seen[name])}"
        line = _played(p)
        extra = _commentary(p, line) if analysis else {}
        entry = Entry(number, p, name, line, **extra)
        key = _chapter_key(p, chapters, file_order)
        if key != last_key:
            groups.append((_chapter_title(p, chapters, file_titles), []))
            last_key = key
        groups[-1][1].append(entry)
    if not subtitle:
        n = len(ordered)
        subtitle = f"{n} problem{'s' if n != 1 else ''}, every one proven by the gyges solver"
    return Book(title, subtitle, tuple(Chapter(t, tuple(es)) for t, es in groups))


def _commentary(p: Puzzle, line: Line | None) -> dict:
    """The threat of a win's key and its main variations (the defences that hold out
    longest, grouped by the winner's answer), from the solver."""
    st = p.stipulation
    if st.kind != "win" or line is None or not line.moves or line.moves[0].is_win:
        return {}
    key = line.moves[0]
    winner = p.position.turn
    history = [*p.history, p.position]
    after = apply_move(p.position, key)
    out: dict = {}
    if st.moves >= 2:
        threat = solve(after.with_turn(winner), p.rules, max_moves=st.moves - 1,
                       history=history, tree=False)
        if threat.result == "win":
            out["threats"] = tuple(format_move(m) for m in threat.keys)
    replies = legal_moves(after, p.rules, history)
    if replies.mover is winner:  # the defender is blocked: no defence
        return out
    answers: dict[str, list[str]] = {}
    longest = 0
    for reply in replies:
        if reply.is_win:
            continue
        pos = apply_move(after, reply)
        sol = solve(pos, p.rules, max_moves=st.moves - 1, history=[*history, after],
                    tree=False)
        if sol.result != "win" or not sol.keys or sol.moves is None:
            continue
        if sol.moves > longest:
            answers, longest = {}, sol.moves
        if sol.moves == longest:
            answers.setdefault(format_move(sol.keys[0]), []).append(format_move(reply))
    out["defences"] = len(replies)
    groups = sorted(answers.items(), key=lambda kv: (-len(kv[1]), kv[0]))
    out["variations"] = tuple(Variation(tuple(d[:3]), a, max(0, len(d) - 3))
                              for a, d in groups[:4])
    return out


def _as_book(book: Book | Sequence[Puzzle], title: str | None) -> Book:
    if isinstance(book, Book):
        return book if title is None else dataclasses.replace(book, title=title)
    return make_book(book, title=title or BOOK_TITLE, analysis=False)


# -- phrases -------------------------------------------------------------------------------


def solution_phrase(p: Puzzle) -> str:
    """The stipulation as proven, for the solutions pages."""
    return p.stipulation.answer(p.position.turn)


def book_phrase(st: Stipulation, turn_title: str) -> str:
    """The stipulation as a book prints it: ``South to move and win in 2``.

    >>> book_phrase(Stipulation("loss", 2, Side.SOUTH), "South")
    'South to move loses in 2'
    >>> book_phrase(Stipulation("none", 1), "North")
    'North to move: hold out for 1 move'
    """
    return st.task(Side.parse(turn_title))


def rules_note(puzzle: Puzzle) -> str:
    """``Rules: bga`` for a puzzle not under the pbmserv rules, else empty."""
    name = puzzle.rules.name
    if name == "pbmserv":
        return ""
    return f"Rules: {name if name != 'custom' else puzzle.rules.describe()}"


def _credit(p: Puzzle) -> str:
    """Source and credit as sentences ("... a short forced result. Composed with ...")."""
    return " ".join(x.rstrip(".") + "." for x in (p.source, p.credit) if x)


def _variation_text(v: Variation, number: int) -> str:
    more = f" (and {v.more} more)" if v.more else ""
    return f"{', '.join(v.defences)}{more} {number}. {v.answer}"


# -- text ----------------------------------------------------------------------------------


def export_text(book: Book | Sequence[Puzzle], title: str | None = None) -> str:
    """The book as plain text: contents, each chapter's diagrams (shores marked, as by
    ``gyges show``) and tasks, then the solutions and the index of themes."""
    book = _as_book(book, title)
    out = [book.title, "=" * len(book.title), "", book.subtitle, "", "CONTENTS", ""]
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
        out += textwrap.wrap(f"{theme}: {', '.join(map(str, numbers))}", 88,
                             subsequent_indent="    ")
    return "\n".join(out).rstrip() + "\n"


def _text_problem(e: Entry) -> list[str]:
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


def _text_solution(e: Entry) -> list[str]:
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
        out += wrap(f"Main line: {e.main_line(long=True)}")
    for v in e.variations:
        out += wrap(f"Variation: {_variation_text(v, 2)}")
    if p.cooks:
        out += wrap(f"Other keys (cooks): {', '.join(p.cooks)}")
    if p.themes:
        out.append(f"   Themes: {', '.join(p.themes)}")
    if p.notes:
        out += textwrap.wrap(p.notes, 88, initial_indent="   ", subsequent_indent="   ",
                             break_on_hyphens=False)
    out.append("")
    return out


# -- svg -----------------------------------------------------------------------------------


def solution_drawing(puzzle: Puzzle, arrows: str = "key") -> dict:
    """The ``render_position`` options that draw a puzzle's answer: the key's path
    (``key``), the main line's moves as numbered arrows (``line``), or nothing."""
    if arrows not in ARROWS:
        raise ValueError(f"arrows {arrows!r}: use one of {', '.join(ARROWS)}")
    if arrows == "none":
        return {}
    line = _played(puzzle)
    if arrows == "line" and line is not None and line.moves:
        return {"line": line.moves}
    move = _key_move(puzzle, line)
    return {"path": move} if move is not None else {}


def puzzle_svgs(puzzle: Puzzle, size: float | None = 360, *, arrows: str = "key",
                coordinates: bool = True, monochrome: bool = False) -> dict[str, str]:
    """``{name: svg}``: the puzzle's diagram and, unless ``arrows`` is ``none`` or there is
    nothing to draw, the diagram with its answer drawn (see :func:`solution_drawing`)."""
    options: dict[str, Any] = {"size": size, "coordinates": coordinates,
                               "monochrome": monochrome}
    out = {f"{puzzle.id}.svg": render_position(
        puzzle.position, title=f"{puzzle.title or puzzle.id}: {puzzle.stipulation}", **options)}
    drawn = solution_drawing(puzzle, arrows)
    if drawn:
        what = f"key {puzzle.key}" if "path" in drawn else "main line"
        out[f"{puzzle.id}-solution.svg"] = render_position(
            puzzle.position, title=f"{puzzle.id}: {what}", **options, **drawn)
    return out


def _key_move(puzzle: Puzzle, line: Line | None) -> Move | None:
    if line is not None and line.moves:
        return line.moves[0]
    if puzzle.key:
        try:
            return parse_move(puzzle.key, puzzle.position, puzzle.rules, puzzle.history)
        except ValueError:
            return None
    return None


# -- html ----------------------------------------------------------------------------------

_CSS = """
@page { size: %(page)s; margin: 15mm 17mm 18mm 17mm;
        @bottom-center { content: counter(page); font: 9pt "DejaVu Serif", serif;
                         color: #555; } }
@page :first { @bottom-center { content: none; } }
* { box-sizing: border-box; }
html { background: #d9d9d9; }
body { margin: 0; font-family: "DejaVu Serif", Georgia, "Times New Roman", serif; color: #111;
       font-size: 10pt; -webkit-print-color-adjust: exact; }
.sheet { max-width: %(width)smm; margin: 0 auto 8mm auto; padding: 15mm 17mm;
         background: #fff; }
a { color: inherit; text-decoration: none; }
h1 { font-size: 32pt; font-weight: normal; letter-spacing: 0.04em; margin: 4mm 0 1mm 0;
     text-align: center; }
h2 { font-size: 15pt; letter-spacing: 0.08em; text-transform: uppercase;
     text-align: center; margin: 0 0 5mm 0; font-weight: normal; }
h3 { font-size: 11pt; margin: 4mm 0 2mm 0; letter-spacing: 0.04em; }
.subtitle { text-align: center; font-size: 13pt; font-style: italic; color: #333;
            margin-bottom: 5mm; }
.rule { border: 0; border-top: 0.6pt solid #333; margin: 4mm 28mm; }
.front { display: flex; gap: 9mm; align-items: flex-start; margin-top: 6mm; }
.frontispiece { width: 70mm; flex: none; text-align: center; font-size: 9pt; }
.frontispiece svg { width: 70mm; height: auto; display: block; }
.legend { flex: 1; font-size: 9.5pt; line-height: 1.42; }
.legend h3 { margin-top: 0; text-transform: uppercase; }
.legend p { margin: 0 0 2mm 0; }
.rings { display: flex; gap: 5mm; align-items: center; margin: 1mm 0 3mm 0; }
.rings span { display: inline-flex; flex-direction: column; align-items: center;
              font-size: 8.5pt; }
.credits { margin-top: 8mm; font-size: 8.5pt; color: #444; text-align: center;
           line-height: 1.4; }
.contents table { width: 100%%; border-collapse: collapse; font-size: 9.5pt;
                  table-layout: fixed; }
.contents td { padding: 0.7mm 2mm; border-bottom: 0.4pt solid #bbb; vertical-align: top; }
.contents tr { break-inside: avoid; }
.contents td.n { width: 9mm; text-align: right; font-weight: bold; }
.contents td.st { white-space: nowrap; width: 62mm; }
.contents td.p { width: 12mm; text-align: right; color: #555; }
.contents h3 { break-after: avoid; }
.pageref::after { content: target-counter(attr(href), page); }
.chapter, .solutions, .index, .contents { break-before: page; }
.chapter-intro { text-align: center; font-style: italic; color: #444; margin: -3mm 0 4mm 0; }
.grid { text-align: left; orphans: 1; widows: 1; }
.puzzle { display: inline-block; width: 49.5%%; vertical-align: top; text-align: center;
          break-inside: avoid; page-break-inside: avoid; padding: 0 3mm 4mm 3mm; }
.puzzle svg { width: 40mm; height: auto; display: block; margin: 0 auto; }
.caption { font-size: 9.5pt; margin-top: 1mm; line-height: 1.3; }
.num, .stip { font-weight: bold; }
.meta { font-size: 8pt; color: #444; }
.solution { break-inside: avoid; page-break-inside: avoid; display: flex; gap: 5mm;
            font-size: 9pt; line-height: 1.36; border-bottom: 0.4pt solid #ccc;
            padding: 2.5mm 0 3mm 0; }
.solution .diagram { flex: none; width: 34mm; }
.solution .diagram svg { width: 34mm; height: auto; display: block; }
.solution .text { flex: 1; }
.solution .head { font-weight: bold; font-size: 10.5pt; margin-bottom: 0.5mm; }
.solution .ref { font-weight: normal; font-size: 8.5pt; color: #555; }
.key { font-family: "DejaVu Sans Mono", monospace; font-size: 8.5pt; }
.move { white-space: nowrap; }
.cooks { font-size: 8pt; color: #333; }
.notes { color: #222; font-size: 8.5pt; margin-top: 1mm; }
.credit { color: #555; font-size: 8pt; font-style: italic; margin-top: 0.8mm; }
.mono { font-family: "DejaVu Sans Mono", monospace; font-size: 9pt; }
.index p { margin: 0 0 1.5mm 0; padding-left: 6mm; text-indent: -6mm; }
@media print {
  html { background: none; }
  .sheet { max-width: none; margin: 0; padding: 0; }
}
"""


def _e(text: object) -> str:
    return html.escape(str(text), quote=True)


def _legend_ring(size: int) -> str:
    """A small SVG of one ring of the given size, drawn as in the diagrams."""
    circles = "".join(
        f'<circle cx="30" cy="30" r="{r}" fill="none" stroke="#000" '
        f'stroke-width="{RING_STROKE}"/>'
        for r in RING_RADII[:size]
    )
    return (f'<svg xmlns="http://www.w3.org/2000/svg" version="1.1" width="34" height="34" '
            f'viewBox="0 0 60 60">{circles}</svg>')


def export_html(book: Book | Sequence[Puzzle], title: str | None = None, *,
                paper: str = "a4", arrows: str = "key", monochrome: bool = False,
                coordinates: bool = True) -> str:
    """The book as one self-contained HTML page, laid out for print (``@page`` rules,
    page breaks; WeasyPrint also fills in the page numbers of the contents and
    cross-references). ``paper``: ``a4`` or ``letter``; ``arrows``: what the solution
    diagrams draw (``key``, ``line`` or ``none``); ``monochrome``: black-and-white
    diagrams; ``coordinates``: column and row numbers on the problems' diagrams."""
    book = _as_book(book, title)
    if paper not in PAPERS:
        raise ValueError(f"paper {paper!r}: use one of {', '.join(PAPERS)}")
    page, width, _ = PAPERS[paper]
    css = _CSS % {"page": f"{page} portrait", "width": f"{width:g}"}
    draw = {"monochrome": monochrome}
    cells = {**draw, "coordinates": coordinates}
    sections = [_title_page(book, cells), _contents(book)]
    sections += [_chapter(book, i, c, cells) for i, c in enumerate(book.chapters, 1)]
    sections += [_solutions(book, arrows, draw), _index(book)]
    return (
        '<!DOCTYPE html>\n<html lang="en"><head><meta charset="utf-8"/>'
        f"<title>{_e(book.title)}</title><style>{css}</style></head><body>\n"
        + "\n".join(f'<div class="sheet">{s}</div>' for s in sections)
        + "\n</body></html>\n"
    )


def _title_page(book: Book, draw: dict) -> str:
    frontispiece = (
        f'<div class="frontispiece">{render_position(START, size=None, title="Start", **draw)}'
        "<div>The opening position of seed 000's sample game: both shores shaded, South "
        "to move (its rings marked).</div></div>"
    )
    rings = "".join(f"<span>{_legend_ring(k)}{name}</span>"
                    for k, name in ((1, "single"), (2, "double"), (3, "triple")))
    return (
        '<section class="title-page">'
        f"<h1>{_e(book.title)}</h1>"
        f'<div class="subtitle">{_e(book.subtitle)}</div><hr class="rule"/>'
        f'<div class="front">{frontispiece}<div class="legend"><h3>Reading the diagrams</h3>'
        f'<div class="rings">{rings}</div>'
        "<p>A ring of size <i>k</i> is drawn as <i>k</i> circles, and moves exactly <i>k</i> "
        "steps. North plays towards the goal <b>S</b> at the bottom, South towards <b>N</b> "
        "at the top; a move wins by landing on the opponent's goal.</p>"
        "<p>The shaded rows are the two <i>shores</i>: only rings on one's shore may move. The "
        "rings of the side to move are marked.</p>"
        "<p>Moves are written in pbmserv notation: start, every ring bounced on, end "
        '(<span class="mono">51-43-33-31-21-S</span>); <span class="mono">x</span> marks a '
        'ring landed on and relocated (<span class="mono">13x14=44</span>); moves of one '
        "side while the other is blocked are joined by "
        '<span class="mono">;</span>. Solutions are numbered by the winner\'s moves.</p>'
        "<p>Each stipulation is exact: the solver has proved there is no quicker win, and "
        "the solution at the back names every key.</p>"
        "</div></div>"
        '<div class="credits">Gygès is a game by Claude Leroy (1984). Each problem\'s '
        "source and credit are given under its diagram and with its solution; every "
        "stipulation was proved by the gyges solver.</div></section>"
    )


def _contents(book: Book) -> str:
    parts = ['<section class="contents"><h2>Contents</h2>']
    for i, chapter in enumerate(book.chapters, 1):
        parts.append(f'<h3><a href="#chapter-{i}">{i}. {_e(chapter.title)}</a></h3><table>')
        parts += [
            f'<tr><td class="n">{e.number}</td><td><a href="#{e.anchor}">{_e(e.title)}</a></td>'
            f'<td class="st">{_e(book_phrase(e.puzzle.stipulation, e.puzzle.position.turn.title))}'
            f'</td><td class="p"><a class="pageref" href="#{e.anchor}"></a></td></tr>'
            for e in chapter.entries
        ]
        parts.append("</table>")
    parts.append('<h3><a href="#solutions">Solutions</a> · <a href="#index">Index of themes'
                 "</a></h3></section>")
    return "".join(parts)


def _chapter(book: Book, i: int, chapter: Chapter, draw: dict) -> str:
    first, last = chapter.entries[0].number, chapter.entries[-1].number
    span = f"Problem {first}" if first == last else f"Problems {first}–{last}"
    cells = [_puzzle_cell(e, draw) for e in chapter.entries]
    return (f'<section class="chapter" id="chapter-{i}"><h2>{i}. {_e(chapter.title)}</h2>'
            f'<div class="chapter-intro">{span}</div><div class="grid">{"".join(cells)}'
            "</div></section>")


def _puzzle_cell(e: Entry, draw: dict) -> str:
    p = e.puzzle
    meta = [x for x in (rules_note(p), f"difficulty {p.difficulty}/5" if p.difficulty else "")
            if x]
    svg = render_position(p.position, size=None, title=f"Problem {e.number}: {e.title}", **draw)
    credit = p.credit or p.source
    return (
        f'<div class="puzzle" id="{e.anchor}">{svg}<div class="caption">'
        f'<span class="num">{e.number}.</span> {_e(e.title)}<br/>'
        f'<span class="stip">{_e(book_phrase(p.stipulation, p.position.turn.title))}</span>'
        + (f'<br/><span class="meta">{_e(" · ".join(meta))}</span>' if meta else "")
        + (f'<br/><span class="meta credit-line">{_e(credit)}</span>' if credit else "")
        + "</div></div>"
    )


def _solutions(book: Book, arrows: str, draw: dict) -> str:
    parts = ['<section class="solutions" id="solutions"><h2>Solutions</h2>']
    for i, chapter in enumerate(book.chapters, 1):
        parts.append(f"<h3>{i}. {_e(chapter.title)}</h3>")
        parts += [_solution(e, arrows, draw) for e in chapter.entries]
    parts.append("</section>")
    return "".join(parts)


def _solution(e: Entry, arrows: str, draw: dict) -> str:
    p = e.puzzle
    drawn = solution_drawing(p, arrows)
    svg = render_position(p.position, size=None, coordinates=False,
                          title=f"Solution {e.number}", **drawn, **draw) if drawn else ""
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
        items = "; ".join(f'<span class="move">{_e(_variation_text(v, 2))}</span>'
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
    if _credit(p):
        parts.append(f'<div class="credit">{_e(_credit(p))}</div>')
    return (f'<div class="solution" id="solution-{e.number}"><div class="diagram">{svg}</div>'
            f'<div class="text">{"".join(parts)}</div></div>')


def _index(book: Book) -> str:
    rows = []
    for theme, numbers in book.theme_index():
        refs = ", ".join(f'<a href="#problem-{n}">{n}</a>' for n in numbers)
        rows.append(f"<p><i>{_e(theme)}</i>: {refs}</p>")
    return ('<section class="index" id="index"><h2>Index of themes</h2>'
            + ("".join(rows) or "<p>No themes declared.</p>") + "</section>")
