"""The puzzle book's model: the puzzles laid out as a :class:`Book` by :func:`make_book`,
numbered, grouped in chapters (by difficulty unless asked otherwise, the seed-000 classics
first among equals; the puzzles under other rules than the book's, :data:`BOOK_RULES`,
after them in a chapter per rule set), with duplicate titles told apart and each main
line played out; and
the phrases every rendering of it prints. The renderings are :mod:`~gyges.puzzles.book.text`,
:mod:`~gyges.puzzles.book.html` and :mod:`~gyges.puzzles.book.pdf`; the solver's commentary
(threats and variations) is :mod:`~gyges.puzzles.book.commentary`'s, handed in.

>>> make_book([])
Book('Gygès puzzles', 0 problems in 0 chapters)
>>> book_phrase(Stipulation("win", 2, Side.SOUTH), "South")
'South to move and win in 2'
"""

from __future__ import annotations

import dataclasses
import enum
import re
from collections.abc import Mapping, Sequence
from pathlib import Path

from gyges.formats.notation import format_move
from gyges.game.rules import PRESETS, RuleSet, Side, closest_preset
from gyges.puzzles.book.commentary import Commentary, Variation
from gyges.puzzles.catalogue.schema import Puzzle
from gyges.puzzles.lines import THEMES, PlayedLine, try_play_line
from gyges.search.stipulation import Stipulation

__all__ = [
    "BOOK_RULES", "BOOK_TITLE", "CREDIT_VERBS", "DIFFICULTY_NAMES", "THEME_CHAPTERS", "THEME_ORDER",
    "Book", "BookEntry", "Chapter", "Chapters", "as_book", "book_phrase", "credit_line",
    "credit_text", "is_classic", "make_book", "numbered_line", "rules_chapter", "rules_note",
    "rules_text", "solution_phrase", "theme_meaning", "variation_text",
]

BOOK_TITLE = "Gygès puzzles"
#: The rules the book is for: those of seed 000 (pbmserv), whose notation and diagrams it
#: prints. Puzzles under other rules get chapters of their own (:func:`rules_chapter`).
BOOK_RULES = PRESETS["pbmserv"]


class Chapters(str, enum.Enum):
    """How the book groups its puzzles into chapters."""

    DIFFICULTY = "difficulty"    #: easiest first
    THEME = "theme"              #: each puzzle under its most distinctive theme
    STIPULATION = "stipulation"  #: wins by length, then losses, then defences
    FILE = "file"                #: one chapter per catalogue file, in the order given

    def __str__(self) -> str:
        return self.value


DIFFICULTY_NAMES = {1: "Easy", 2: "Moderate", 3: "Intermediate", 4: "Hard", 5: "Very hard"}
#: The chapters by theme; a puzzle goes to the first of its themes in :data:`THEME_ORDER`.
THEME_CHAPTERS = {
    "Renop": "The Renop law", "unstoppable": "Unstoppable wins", "quiet key": "Quiet keys",
    "stalemate chain": "Stalemate chains", "waiting key": "Waiting keys", "gift": "Gifts",
    "late relocation": "Late relocations", "relocation backfires": "Relocations that backfire",
    "relocating defence": "Relocating defences", "taboo": "Taboos", "runner": "Runners",
    "relocation bridge": "Relocation bridges", "back-row landing": "Back-row landings",
    "bounce chain": "Bounce chains"}
#: The themes (:data:`gyges.puzzles.lines.THEMES`; bounce chains of any length as one) in
#: the order a puzzle's chapter is chosen: the rarest kinds first.
THEME_ORDER = tuple(THEME_CHAPTERS)


@dataclasses.dataclass(frozen=True)
class BookEntry:
    """A puzzle as the book prints it: its number, its (disambiguated) title, its main line
    played out (None if it cannot be), and the solver's threat and variations."""

    number: int
    puzzle: Puzzle
    title: str
    line: PlayedLine | None
    threats: tuple[str, ...] = ()
    variations: tuple[Variation, ...] = ()
    defences: int = 0  #: the number of defences to the key

    def __repr__(self) -> str:
        return f"BookEntry({self.number}, {self.puzzle.id!r}, {self.title!r})"

    @property
    def anchor(self) -> str:
        """The id of the problem's diagram in the HTML book: ``problem-12``."""
        return f"problem-{self.number}"

    @property
    def winner(self) -> Side | None:
        """The side the stipulation makes the winner (None: no forced result)."""
        st = self.puzzle.stipulation
        if st.kind == "win":
            return self.puzzle.position.turn
        if st.kind == "loss":
            return self.puzzle.position.turn.other
        return None

    def main_line_text(self, long: bool = False) -> str:
        """The main line numbered by the winner's moves: ``1. 62-53 16-15 2. 61-53-33-S``."""
        if self.line is None:
            return "  ".join(self.puzzle.main_line)
        counted = self.winner or self.puzzle.position.turn
        return "  ".join(numbered_line(self.line, counted, long=long))


@dataclasses.dataclass(frozen=True)
class Chapter:
    """A chapter: its title and its problems, in book order."""

    title: str
    entries: tuple[BookEntry, ...]

    def __repr__(self) -> str:
        return f"Chapter({self.title!r}, {len(self.entries)} problems)"


@dataclasses.dataclass(frozen=True)
class Book:
    """The book: title page, chapters of problems; the solutions and the index of themes
    are made from the same entries."""

    title: str
    subtitle: str
    chapters: tuple[Chapter, ...]

    def __repr__(self) -> str:
        n, c = len(self.entries), len(self.chapters)
        return (f"Book({self.title!r}, {n} problem{'s' if n != 1 else ''} in {c} "
                f"chapter{'s' if c != 1 else ''})")

    @property
    def entries(self) -> tuple[BookEntry, ...]:
        """Every problem, in book order."""
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


def theme_meaning(theme: str) -> str:
    """What a theme of the catalogue means (:data:`gyges.puzzles.lines.THEMES`; a bounce
    chain of any length as ``bounce chain N``; "" for one the catalogue does not know).

    >>> theme_meaning("bounce chain 3")[:40]
    'the longest move of the winner bounces o'
    """
    return THEMES.get("bounce chain N" if theme.startswith("bounce chain ") else theme, "")


def numbered_line(line: PlayedLine, counted: Side, long: bool = False) -> list[str]:
    """The moves of ``line`` numbered by ``counted``'s moves, as problem books do: each
    number covers one move of ``counted`` and the other side's move beside it; a side's
    consecutive moves (its opponent blocked) keep their ``;``.

    >>> from gyges.game.position import Position
    >>> from gyges.game.rules import PRESETS
    >>> from gyges.puzzles.lines import play_line
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


def _chapter_key(p: Puzzle, chapters: str, file_order: Mapping[str, int],
                 rules_order: Mapping[str, int]) -> tuple:
    if chapters != "file":
        if p.rules != BOOK_RULES:       # after the book's rules' chapters, by rule set
            return (1, rules_order[p.rules.describe()])
        return (0, *_grouping_key(p, chapters))
    return (file_order[p.file],)


def _grouping_key(p: Puzzle, chapters: str) -> tuple:
    if chapters == "difficulty":
        return (p.difficulty or 9,)
    if chapters == "stipulation":
        return _stipulation_order(p.stipulation)
    theme = _primary_theme(p)
    return (THEME_ORDER.index(theme) if theme else len(THEME_ORDER),)


def _chapter_title(p: Puzzle, chapters: str, file_titles: Mapping[str, str]) -> str:
    if chapters != "file" and p.rules != BOOK_RULES:
        return rules_chapter(p.rules)
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


def make_book(
    puzzles: Sequence[Puzzle],
    *,
    title: str = BOOK_TITLE,
    subtitle: str = "",
    chapters: Chapters | str = Chapters.DIFFICULTY,
    file_titles: Mapping[str, str] | None = None,
    commentary: Mapping[str, Commentary] | None = None,
) -> Book:
    """Lay ``puzzles`` out as a book.

    ``chapters``: ``difficulty`` (easiest first), ``theme`` (each puzzle under its most
    distinctive theme, see :data:`THEME_ORDER`), ``stipulation`` (wins by length, then
    losses, then defences) or ``file`` (the catalogue files in the order given, titled by
    ``file_titles`` or the file's name). Except by file, the puzzles under other rules
    than :data:`BOOK_RULES` come last, a chapter per rule set titled by its rules
    (:func:`rules_chapter`), in the order first met. Within a chapter: easier first, seed 000's
    classics first among equals, then shorter stipulations, then catalogue order. Titles
    that repeat get a Roman numeral in book order. ``commentary`` (by puzzle id, from
    :func:`~gyges.puzzles.book.commentary.solver_commentary`) gives each entry its threat and
    main variations.
    """
    try:
        chapters = Chapters(chapters)
    except ValueError:
        raise ValueError(f"chapters {chapters!r}: use one of "
                         f"{', '.join(c.value for c in Chapters)}") from None
    file_titles = dict(file_titles or {})
    commentary = commentary or {}
    file_order: dict[str, int] = {}
    rules_order: dict[str, int] = {}   # the other rule sets, in the order first met
    for p in puzzles:
        file_order.setdefault(p.file, len(file_order))
        rules_order.setdefault(p.rules.describe(), len(rules_order))
    index = {id(p): i for i, p in enumerate(puzzles)}

    def within(p: Puzzle) -> tuple:
        if chapters == "file":
            return (index[id(p)],)
        return (p.difficulty or 9, not is_classic(p), _stipulation_order(p.stipulation),
                index[id(p)])

    ordered = sorted(puzzles, key=lambda p: (_chapter_key(p, chapters, file_order, rules_order),
                                             within(p)))
    names = [p.title or p.id for p in ordered]
    repeats = {n for n in names if names.count(n) > 1}
    seen: dict[str, int] = {}
    groups: list[tuple[str, list[BookEntry]]] = []
    last_key = None
    for number, (p, name) in enumerate(zip(ordered, names, strict=True), 1):
        if name in repeats:
            seen[name] = seen.get(name, 0) + 1
            name = f"{name} {_roman(seen[name])}"
        line = try_play_line(p.position, p.rules, p.main_line, p.history)
        said = commentary.get(p.id, Commentary())
        entry = BookEntry(number, p, name, line, said.threats, said.variations, said.defences)
        key = _chapter_key(p, chapters, file_order, rules_order)
        if key != last_key:
            groups.append((_chapter_title(p, chapters, file_titles), []))
            last_key = key
        groups[-1][1].append(entry)
    if not subtitle:
        n = len(ordered)
        subtitle = f"{n} problem{'s' if n != 1 else ''}, every one proven by the gyges solver"
    return Book(title, subtitle, tuple(Chapter(t, tuple(es)) for t, es in groups))


def as_book(book: Book | Sequence[Puzzle], title: str | None = None) -> Book:
    """``book`` (retitled when ``title`` is given), or the book of the puzzles given (no
    commentary): what every rendering accepts."""
    if isinstance(book, Book):
        return book if title is None else dataclasses.replace(book, title=title)
    return make_book(book, title=title or BOOK_TITLE)


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
    """``Rules: bga`` for a puzzle not under the book's rules (:data:`BOOK_RULES`), else
    empty."""
    if puzzle.rules == BOOK_RULES:
        return ""
    return f"Rules: {rules_text(puzzle.rules)}"


def rules_text(rules: RuleSet) -> str:
    """A rule set in words: its preset, or the closest preset and what differs.

    >>> rules_text(PRESETS["bga"]), rules_text(PRESETS["pbmserv"].with_options({"taboo": "entry"}))
    ('bga', 'pbmserv with taboo=entry')
    """
    preset, changes = closest_preset(rules)
    if not changes:
        return preset
    return f"{preset} with {', '.join(f'{k}={v}' for k, v in changes.items())}"


def rules_chapter(rules: RuleSet) -> str:
    """The title of the chapter of the puzzles under ``rules`` (not the book's): the rule
    set in words, after what it means for a reader of the book where it says so.

    >>> rules_chapter(PRESETS["pbmserv"].with_options({"repetition": "allowed"}))
    'Without the Renop law: pbmserv with repetition=allowed'
    >>> rules_chapter(PRESETS["bga"])
    'Under the bga rules'
    >>> rules_chapter(PRESETS["pbmserv"].with_options({"taboo": "entry"}))
    'Under other rules: pbmserv with taboo=entry'
    """
    changes = closest_preset(rules)[1]
    if not changes:
        return f"Under the {rules_text(rules)} rules"
    if changes.get("repetition") == "allowed" and BOOK_RULES.repetition == "forbidden":
        return f"Without the Renop law: {rules_text(rules)}"
    return f"Under other rules: {rules_text(rules)}"


#: Words by which a credit says what it credits ("translated by ...", "analysed with the
#: solver", "found by gyges review"); a credit with none of them is a bare name, printed
#: as "Composed by NAME".
CREDIT_VERBS = ("adapted", "after", "analysed", "analyzed", "by", "composed", "corrected",
                "found", "from", "translated")


def credit_line(p: Puzzle) -> str:
    """The puzzle's credit as a book prints it: a credit that says what it credits as
    written, with a capital; a bare name as "Composed by NAME"; empty without a credit.

    >>> from gyges.game.position import START
    >>> from gyges.game.rules import PRESETS
    >>> def credited(credit):
    ...     return Puzzle("x", START, PRESETS["pbmserv"], Stipulation("none", 1), credit=credit)
    >>> credit_line(credited("Jane Doe")), credit_line(credited("found by gyges review"))
    ('Composed by Jane Doe', 'Found by gyges review')
    """
    credit = p.credit.strip()
    if not credit:
        return ""
    if set(re.findall(r"[a-z]+", credit.lower())) & set(CREDIT_VERBS):
        return credit[0].upper() + credit[1:]
    return f"Composed by {credit}"


def credit_text(p: Puzzle) -> str:
    """Source and credit as sentences ("Random play from random setups. Composed by gyges
    generate, seed 7 (candidate 19).")."""
    source = p.source.strip()
    parts = [source[0].upper() + source[1:] if source else "", credit_line(p)]
    return " ".join(x.rstrip(".") + "." for x in parts if x)


def variation_text(v: Variation, number: int) -> str:
    """A variation as the solutions print it: ``16-15, 16-26 (and 2 more) 2. 61-53-33-S``."""
    more = f" (and {v.more} more)" if v.more else ""
    return f"{', '.join(v.defences)}{more} {number}. {v.answer}"
