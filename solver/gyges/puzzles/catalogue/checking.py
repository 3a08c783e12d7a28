"""Checking a catalogue entry: the solver re-proves it and says what is wrong, located on
the entry's lines (``puzzles/x.yaml:12: puzzle x1: the key 16-35 is not a key: ...``);
checking a whole catalogue (:func:`check_catalogue`, what ``gyges catalogue check`` does),
and what the engine alone can tell of an entry (:func:`engine_problems`, no proof).

>>> from gyges import PRESETS, Position
>>> from gyges.puzzles.catalogue.schema import Puzzle
>>> from gyges.search.stipulation import Stipulation
>>> bouncing = Position.from_string("....../3...../..1.1./1.23.3/3.22.1/....2. N")
>>> overstated = Puzzle("x1", bouncing, PRESETS["pbmserv"], Stipulation.parse("North wins in 2"),
...                     key="51-43-33-31-21-S", main_line=("51-43-33-31-21-S",))
>>> engine_problems(overstated)
[]
>>> report = check_catalogue([overstated])
>>> report
CheckReport(checked=1, proven=0, wrong=1, unreadable=0)
>>> print(report.problems[0])
<catalogue>:1: puzzle x1: the stipulation says 'North wins in 2' but the solver proves ...
"""

from __future__ import annotations

import dataclasses
import re
import time
from collections.abc import Callable, Sequence

from gyges.formats.notation import format_move, parse_move
from gyges.game.moves import Move, apply_move
from gyges.game.rules import Side
from gyges.puzzles.catalogue.schema import CatalogueError, Puzzle
from gyges.puzzles.catalogue.verified import VerifiedEntries
from gyges.puzzles.lines import PlayedLine, SolveFn, line_themes, play_line, renop_matters
from gyges.search import SolveError
from gyges.search import solve as search_solve
from gyges.search.solution import Solution
from gyges.search.stipulation import Stipulation

__all__ = ["CheckReport", "CheckStep", "ThemeCount", "check_catalogue", "check_puzzle",
           "engine_problems", "recheck", "theme_counts", "title_problems"]


def check_puzzle(puzzle: Puzzle, solve: SolveFn | None = None) -> list[CatalogueError]:
    """Re-prove an entry; the problems found (empty when the entry is right).

    The stipulation must be exact (the solver's result and k), the declared key must be a
    key and every other key declared under ``cooks``, the main line legal, starting with
    the key, ending on the goal with the stipulated number of winner's moves, and every
    declared theme shown by it.
    """
    solve = solve or search_solve
    problems: list[CatalogueError] = []
    st = puzzle.stipulation
    pos = puzzle.position
    sol = solve(pos, puzzle.rules, max_moves=st.moves, history=puzzle.history)
    found = _describe(sol, pos.turn)
    if sol.result != st.kind or (st.kind != "none" and sol.moves != st.moves):
        problems.append(puzzle.error(
            f"the stipulation says '{st}' but the solver proves '{found}'", "stipulation"))
        return problems

    key_move = _parse(puzzle, puzzle.key, "key", "key", problems) \
        if puzzle.key is not None else None
    if key_move is not None:
        problems.extend(_check_stated_kind(puzzle, key_move))
    if st.kind == "win":
        problems.extend(_check_keys(puzzle, sol, key_move, problems))
    elif key_move is not None and not key_move.is_win:
        problems.extend(_check_defence(puzzle, key_move, solve))
    if puzzle.main_line:
        problems.extend(_check_line(puzzle, st, solve))
    return problems


def _parse(puzzle: Puzzle, text: str, what: str, key: str,
           problems: list[CatalogueError]) -> Move | None:
    """The move ``text`` in the puzzle's position, or None with the problem noted."""
    try:
        return parse_move(text, puzzle.position, puzzle.rules, puzzle.history)
    except ValueError as e:
        problems.append(puzzle.error(f"the {what} {text} is not a legal move: {e}", key))
        return None


#: How a source or a note states the key's kind: "a plain key", "a relocation key".
_STATED_KIND = re.compile(r"\ban? (plain|relocation|relocating) key\b")


def _check_stated_kind(puzzle: Puzzle, key_move: Move) -> list[CatalogueError]:
    """A source or note that states the key's kind ("a plain key", "a relocation key")
    must say the kind of the declared key: a relocation when it relocates a ring."""
    kind = "relocation" if key_move.is_replace else "plain"
    problems = []
    for field in ("source", "notes"):
        for m in _STATED_KIND.finditer(getattr(puzzle, field)):
            said = "plain" if m.group(1) == "plain" else "relocation"
            if said != kind:
                problems.append(puzzle.error(
                    f"the {field} says '{m.group(0)}' but the key {puzzle.key} "
                    f"{'relocates a ring' if key_move.is_replace else 'relocates no ring'}: "
                    f"write 'a {kind} key'", field))
    return problems


def _check_keys(puzzle: Puzzle, sol: Solution, key_move: Move | None,
                earlier: list[CatalogueError]) -> list[CatalogueError]:
    """The declared key is a key and every other key is declared under ``cooks``
    (``earlier``: the problems found so far; an undeclared cook is told only without)."""
    pos = puzzle.position
    problems: list[CatalogueError] = []
    keys = {m.result_key(pos): m for m in sol.keys}
    declared = {key_move.result_key(pos): key_move} if key_move else {}
    if key_move is not None and key_move.result_key(pos) not in keys:
        shown = ", ".join(format_move(m) for m in keys.values())
        problems.append(puzzle.error(
            f"the key {puzzle.key} is not a key: the solver's key"
            f"{'s are' if len(keys) > 1 else ' is'} {shown}", "key"))
    for cook in puzzle.cooks:
        m = _parse(puzzle, cook, "declared cook", "cooks", problems)
        if m is None:
            continue
        if key_move is not None and m.result_key(pos) == key_move.result_key(pos):
            problems.append(puzzle.error(f"the declared cook {cook} is the key itself: "
                                         "list only the other keys", "cooks"))
            continue
        if m.result_key(pos) not in keys:
            problems.append(puzzle.error(f"the declared cook {cook} is not a key", "cooks"))
        declared[m.result_key(pos)] = m
    extra = [format_move(m) for r, m in keys.items() if r not in declared]
    if extra and not problems and not earlier:
        problems.append(puzzle.error(
            f"cooked: {', '.join(extra)} also win{'s' if len(extra) == 1 else ''} in "
            f"{puzzle.stipulation.moves}; declare {'it' if len(extra) == 1 else 'them'} under "
            "'cooks' or change the position", "key"))
    return problems


def _check_defence(puzzle: Puzzle, key_move: Move, solve: SolveFn) -> list[CatalogueError]:
    """The key of a loss or no-result puzzle is a defence: after it the opponent must win
    in exactly k (loss) or not at all (none)."""
    st, pos = puzzle.stipulation, puzzle.position
    after = apply_move(pos, key_move)
    reply = solve(after, puzzle.rules, max_moves=st.moves, history=[*puzzle.history, pos])
    problems = []
    if st.kind == "loss" and (reply.result != "win" or reply.moves != st.moves):
        problems.append(puzzle.error(
            f"the key {puzzle.key} is not a longest defence: after it "
            f"{_describe(reply, after.turn)}", "key"))
    if st.kind == "none" and reply.result == "win":
        problems.append(puzzle.error(
            f"the key {puzzle.key} does not hold: after it {_describe(reply, after.turn)}",
            "key"))
    return problems


def _describe(sol: Solution, turn: Side) -> str:
    """What the solver proved, in the catalogue's words."""
    if sol.result == "none" or sol.moves is None:
        return f"no forced result in {sol.moves}" if sol.moves else "no forced result"
    return str(Stipulation(sol.result, sol.moves, turn))


def _played(puzzle: Puzzle) -> PlayedLine | CatalogueError:
    """The entry's main line played, or why it cannot be."""
    try:
        return play_line(puzzle.position, puzzle.rules, puzzle.main_line, puzzle.history)
    except ValueError as e:
        return puzzle.error(f"the main line is not legal: {e}", "main-line")


def _no_landing(puzzle: Puzzle, line: PlayedLine) -> CatalogueError | None:
    """Unless the main line ends with the stipulated winner landing on the goal, why."""
    st = puzzle.stipulation
    winner = puzzle.position.turn if st.kind == "win" else puzzle.position.turn.other
    moves = line.moves
    if not moves or not moves[-1].is_win or moves[-1].side is not winner:
        return puzzle.error(f"the main line does not end with {winner.title} landing on the "
                            "goal", "main-line")
    return None


def _check_line(puzzle: Puzzle, st: Stipulation, solve: SolveFn) -> list[CatalogueError]:
    line = _played(puzzle)
    if isinstance(line, CatalogueError):
        return [line]
    moves = line.moves
    problems = []
    if puzzle.key is not None and moves and format_move(moves[0]) != puzzle.key:
        problems.append(puzzle.error(
            f"the main line starts with {format_move(moves[0])}, not with the key "
            f"{puzzle.key}", "main-line"))
    if st.kind == "none":
        return problems
    no_landing = _no_landing(puzzle, line)
    if no_landing is not None:
        return [*problems, no_landing]
    winner = moves[-1].side
    count = sum(1 for m in moves if m.side is winner)
    if count != st.moves:
        problems.append(puzzle.error(
            f"the main line has {count} move{'s' if count != 1 else ''} of {winner.title}, "
            f"the stipulation {st.moves}", "main-line"))
    shown = line_themes(line, puzzle.rules, st, puzzle.history)
    if "Renop" in puzzle.themes and renop_matters(puzzle.position, puzzle.rules, st,
                                                  puzzle.history, solve):
        shown.append("Renop")
    for theme in puzzle.themes:
        if theme not in shown:
            problems.append(puzzle.error(
                f"the theme {theme!r} is not shown by the main line (it shows: "
                f"{', '.join(shown) or 'none of the known themes'})", "themes"))
    return problems


def recheck(puzzle: Puzzle, solve: SolveFn | None = None) -> list[CatalogueError]:
    """:func:`check_puzzle`, with an entry the solver cannot take (a bound beyond its
    limit, a main line that cannot be read) reported as a problem of the entry."""
    try:
        return check_puzzle(puzzle, solve)
    except (SolveError, ValueError) as e:
        return [puzzle.error(f"cannot be checked: {e}")]


@dataclasses.dataclass(frozen=True)
class CheckStep:
    """Progress of a catalogue check: puzzle ``index`` of ``total`` is about to be
    re-proven (``problems`` None), or was, in ``seconds``, with ``problems``; ``cached``:
    it was proven before, unchanged since (:mod:`~gyges.puzzles.catalogue.verified`), and
    not proven again."""

    index: int
    total: int
    puzzle: Puzzle
    problems: tuple[CatalogueError, ...] | None = None
    seconds: float = 0.0
    cached: bool = False

    @property
    def done(self) -> bool:
        return self.problems is not None


@dataclasses.dataclass(frozen=True)
class CheckReport:
    """A catalogue checked: ``checked`` entries read, ``proven``, ``wrong`` (an entry the
    solver refutes, or one position under two ids) and ``unreadable`` (entries or files
    that cannot be read); ``problems``: what the solver found, entry by entry."""

    checked: int
    proven: int
    wrong: int
    unreadable: int
    problems: tuple[CatalogueError, ...] = dataclasses.field(default=(), repr=False)


def check_catalogue(puzzles: Sequence[Puzzle], errors: Sequence[CatalogueError] = (),
                    progress: Callable[[CheckStep], None] | None = None,
                    solve: SolveFn | None = None,
                    verified: VerifiedEntries | None = None) -> CheckReport:
    """Re-prove every puzzle (:func:`recheck`), telling ``progress`` before and after
    each; ``errors`` are the reading's (:func:`~gyges.puzzles.catalogue.schema.load_all`): an
    unreadable entry, or one position under two ids (counted wrong once). ``verified``:
    the entries proven before, not proven again; each entry proven right joins them."""
    problems: list[CatalogueError] = []
    wrong = 0
    flagged = {e.puzzle for e in errors}
    titled = title_problems(puzzles)
    for i, p in enumerate(puzzles, 1):
        if progress is not None:
            progress(CheckStep(i, len(puzzles), p))
        t0 = time.perf_counter()
        cached = verified is not None and p in verified
        found = [] if cached else recheck(p, solve)
        found += titled.get(id(p), [])
        if verified is not None and not found:
            verified.add(p)
        if progress is not None:
            progress(CheckStep(i, len(puzzles), p, tuple(found), time.perf_counter() - t0,
                               cached))
        problems += found
        wrong += bool(found) and p.id not in flagged
    unreadable = sum(1 for e in errors if e.malformed)
    wrong += len({e.puzzle for e in errors if not e.malformed})   # one position, two ids
    return CheckReport(len(puzzles), len(puzzles) - wrong, wrong, unreadable, tuple(problems))


def title_problems(puzzles: Sequence[Puzzle]) -> dict[int, list[CatalogueError]]:
    """Titles that do not tell problems apart: each puzzle (by ``id()``) titled like an
    earlier one, with the problem naming both.

    >>> from gyges import PRESETS, Position
    >>> from gyges.search.stipulation import Stipulation
    >>> p = Position.from_string("....../3...../..1.1./1.23.3/3.22.1/....2. N")
    >>> a, b = (Puzzle(i, p, PRESETS["pbmserv"], Stipulation.parse("North wins in 1"),
    ...                title="Bouncing") for i in ("a", "b"))
    >>> [str(e) for es in title_problems([a, b]).values() for e in es]
    ["<catalogue>:1: puzzle b: the title 'Bouncing' is also puzzle a's (<catalogue>:1): \
each title must tell its problem apart"]
    """
    first: dict[str, Puzzle] = {}
    found: dict[int, list[CatalogueError]] = {}
    for p in puzzles:
        if not p.title:
            continue
        other = first.setdefault(p.title, p)
        if other is not p:
            found[id(p)] = [p.error(
                f"the title {p.title!r} is also puzzle {other.id}'s ({other.file}:"
                f"{other.line}): each title must tell its problem apart", "title")]
    return found


@dataclasses.dataclass(frozen=True)
class ThemeCount:
    """A theme and the number of ``problems`` (of ``total``) that declare it."""

    theme: str
    problems: int
    total: int

    @property
    def share(self) -> float:
        """The fraction of the problems that declare the theme."""
        return self.problems / self.total if self.total else 0.0


def theme_counts(puzzles: Sequence[Puzzle]) -> list[ThemeCount]:
    """How many puzzles declare each theme, the most common first (then by name; each
    ``bounce chain N`` on its own): what ``gyges catalogue themes`` prints.

    >>> from gyges import PRESETS, Position
    >>> from gyges.search.stipulation import Stipulation
    >>> p = Position.from_string("....../3...../..1.1./1.23.3/3.22.1/....2. N")
    >>> st = Stipulation.parse("North wins in 1")
    >>> theme_counts([Puzzle("a", p, PRESETS["pbmserv"], st, themes=("bounce chain 4",)),
    ...               Puzzle("b", p, PRESETS["pbmserv"], st)])
    [ThemeCount(theme='bounce chain 4', problems=1, total=2)]
    """
    counts: dict[str, int] = {}
    for p in puzzles:
        for t in dict.fromkeys(p.themes):
            counts[t] = counts.get(t, 0) + 1
    order = sorted(counts, key=lambda t: (-counts[t], t))
    return [ThemeCount(t, counts[t], len(puzzles)) for t in order]


def engine_problems(puzzle: Puzzle) -> list[CatalogueError]:
    """What the engine alone can tell of an entry (no proof): the key is a legal move, the
    main line replays from the key to the stipulated landing."""
    p = puzzle
    problems = []
    if p.key is not None:
        try:
            parse_move(p.key, p.position, p.rules, p.history)
        except ValueError as e:
            problems.append(p.error(f"the key {p.key} is not a legal move: {e}", "key"))
    if not p.main_line:
        return problems
    line = _played(p)
    if isinstance(line, CatalogueError):
        return [*problems, line]
    no_landing = _no_landing(p, line) if p.stipulation.kind != "none" else None
    return problems if no_landing is None else [*problems, no_landing]
