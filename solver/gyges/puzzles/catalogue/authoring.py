"""Authoring: a proven position turned into a catalogue entry. One pipeline serves
``gyges catalogue add`` (:func:`add_entry`) and ``gyges generate``
(:func:`gyges.puzzles.generate.soundness.assess_soundness` and its entries): the solver's
result gives the stipulation, the main line is built and replayed, the themes are read
from it (:func:`findings`), and :meth:`Findings.entry` writes the entry.

>>> from gyges.game.rules import PRESETS
>>> from gyges.search import solve
>>> p = Position.from_string("....../3...../..1.1./1.23.3/3.22.1/....2. N")
>>> f = findings(p, PRESETS["pbmserv"], solve(p, PRESETS["pbmserv"], 1))
>>> str(f.stipulation), f.key, f.main_line, f.themes
('North wins in 1', '51-43-33-31-21-S', ('51-43-33-31-21-S',), ('bounce chain 4',))
"""

from __future__ import annotations

import dataclasses
from collections.abc import Iterable, Sequence
from pathlib import Path

from gyges.formats.notation import format_move, format_turn
from gyges.game.position import Position
from gyges.game.rules import RuleSet
from gyges.puzzles.catalogue.schema import Puzzle
from gyges.puzzles.catalogue.writing import (
    DuplicateEntry,
    append_entries,
    check_target,
    find_twin,
    format_entry,
    known_puzzles,
)
from gyges.puzzles.lines import (
    SolveFn,
    distinct_title,
    line_themes,
    play_line,
    principal_line,
    renop_matters,
)
from gyges.puzzles.rating import PuzzleRating, rate
from gyges.search import solve as search_solve
from gyges.search.solution import Solution
from gyges.search.stipulation import Stipulation

__all__ = ["AuthoringError", "Findings", "add_entry", "findings", "proof_note"]


class AuthoringError(ValueError):
    """The solver's main line cannot be built or replayed; ``reason`` says why."""

    def __init__(self, message: str, reason: str) -> None:
        super().__init__(message)
        self.reason = reason


@dataclasses.dataclass(frozen=True)
class Findings:
    """What a proof gives a catalogue entry: the stipulation, the key (the main line's
    first move), the main line turn by turn, the other keys (cooks) and the themes."""

    stipulation: Stipulation
    key: str | None = None
    main_line: tuple[str, ...] = ()
    cooks: tuple[str, ...] = ()
    themes: tuple[str, ...] = ()

    def entry(self, puzzle_id: str, position: Position, rules: RuleSet, *,
              difficulty: int | None, title: str = "", source: str = "", credit: str = "",
              notes: str = "", history: Sequence[Position] = ()) -> str:
        """The catalogue entry (YAML text, :func:`format_entry`)."""
        return format_entry(
            puzzle_id, position, rules, self.stipulation, key=self.key,
            main_line=self.main_line, cooks=self.cooks, themes=self.themes,
            difficulty=difficulty, title=title, source=source, credit=credit, notes=notes,
            history=history,
        )

    def rating(self, position: Position, rules: RuleSet, history: Sequence[Position] = (),
               solve: SolveFn | None = None) -> PuzzleRating:
        """The entry's difficulty on the catalogue's one scale
        (:func:`gyges.puzzles.rating.rate`: the solvers' effort on its main line)."""
        return rate(position, rules, self.stipulation, self.key, main_line=self.main_line,
                    cooks=self.cooks, history=history, solve=solve)


def findings(position: Position, rules: RuleSet, solution: Solution,
             history: Sequence[Position] = (), solve: SolveFn | None = None) -> Findings:
    """The findings of ``solution`` (the solver's answer for ``position``): the main line
    follows its first key against the longest defence, and is replayed for its themes
    (Renop among them when the law changes the answer). AuthoringError if the main line
    cannot be built or replayed."""
    solve = solve or search_solve
    turn = position.turn
    if solution.result == "none" or solution.moves is None:
        return Findings(Stipulation("none", solution.max_moves, None))
    st = Stipulation(solution.result, solution.moves, turn)
    first = solution.keys[0] if solution.result == "win" and solution.keys else None
    try:
        line_moves = principal_line(position, rules, solution.result, solution.moves,
                                    history, solve, first=first)
    except ValueError as e:
        raise AuthoringError(f"cannot build the main line: {e}", str(e)) from None
    turns = tuple(format_turn(t) for t in line_moves)
    try:
        line = play_line(position, rules, turns, history)
    except ValueError as e:
        raise AuthoringError(f"the solver's main line {' / '.join(turns)} cannot be replayed: "
                             f"{e}", str(e)) from None
    themes = line_themes(line, rules, st, history)
    if renop_matters(position, rules, st, history, solve):
        themes.append("Renop")
    cooks = tuple(format_move(k) for k in solution.keys[1:]) if solution.result == "win" else ()
    return Findings(st, format_move(line_moves[0][0]), turns, cooks, tuple(themes))


def proof_note(stipulation: Stipulation, keys: int) -> str:
    """What the solver proved, in words, for the notes of a new entry (``keys``: how many
    first moves win)."""
    unique = "the only key" if keys == 1 else f"{keys} keys (the others declared as cooks)"
    return stipulation.proof_note(unique)


def add_entry(path: str | Path, puzzle_id: str, position: Position, rules: RuleSet, *,
              max_moves: int, history: Sequence[Position] = (), title: str = "",
              source: str = "", credit: str = "", notes: str = "",
              against: Iterable[str | Path] = (),
              solve: SolveFn | None = None) -> tuple[Findings, str]:
    """Solve ``position`` within ``max_moves``, author its entry and append it to the
    catalogue file ``path``: the findings and the entry's text.

    Before the solver's work, the entry is looked up in the catalogue it joins: every
    catalogue file under the folder of ``path`` (its subfolders included; YAML files there
    that cannot be read are passed over) and those of ``against`` (files or directories,
    which must be readable). An entry with the id of one of theirs, or the same puzzle
    (:func:`~gyges.puzzles.catalogue.writing.find_twin`), is refused. Without a ``title``
    the entry gets one from its themes, its first move's square and its length, unlike
    every title of that catalogue (:func:`~gyges.puzzles.lines.distinct_title`).

    SolveError, AuthoringError or CatalogueError
    (:class:`~gyges.puzzles.catalogue.writing.DuplicateEntry`,
    :class:`~gyges.puzzles.catalogue.writing.AppendError`; all ValueErrors) say what went
    wrong."""
    check_target(path)   # before the solver's work
    folder = Path(path).parent
    known = known_puzzles([folder] if folder.is_dir() else [], skip_unreadable=True) \
        + known_puzzles(against)
    new = Puzzle(puzzle_id, position, rules, Stipulation("none", max_moves, None),
                 history=tuple(history))
    twin = find_twin(new, known)
    if twin is not None:
        raise DuplicateEntry(new, twin, twin.id == new.id)
    solve = solve or search_solve
    solution = solve(position, rules, max_moves=max_moves, history=history)
    found = findings(position, rules, solution, history, solve)
    if not title and found.main_line:
        line = play_line(position, rules, found.main_line, history)
        title = distinct_title(line, found.stipulation, found.themes,
                               {p.title for p in known})
    text = found.entry(
        puzzle_id, position, rules,
        difficulty=found.rating(position, rules, history, solve).difficulty,
        title=title, source=source, credit=credit,
        notes=notes or proof_note(found.stipulation, len(solution.keys)), history=history,
    )
    append_entries(path, [text])
    return found, text
