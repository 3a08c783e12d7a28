"""A puzzle's diagrams as SVG (:func:`puzzle_svgs`): the position, and the position with
its answer drawn (the key's path, or the main line as numbered arrows:
:func:`solution_drawing`), by :func:`gyges.formats.svg.render_position`.

>>> from gyges import PRESETS, Position
>>> from gyges.search.stipulation import Stipulation
>>> taboo = Position.from_string("....../1...../3.23../3.211./2.132./...... S")
>>> p = Puzzle("taboo", taboo, PRESETS["pbmserv"], Stipulation.parse("South wins in 1"),
...            key="24-25-34-44-N")
>>> sorted(puzzle_svgs(p)), sorted(puzzle_svgs(p, arrows=Arrows.NONE))
(['taboo-solution.svg', 'taboo.svg'], ['taboo.svg'])
"""

from __future__ import annotations

import enum
from typing import Any

from gyges.formats.notation import parse_move
from gyges.formats.svg import render_position
from gyges.game.moves import Move
from gyges.puzzles.catalogue.schema import Puzzle
from gyges.puzzles.lines import PlayedLine, try_play_line

__all__ = ["Arrows", "puzzle_svgs", "solution_drawing"]


class Arrows(str, enum.Enum):
    """What a solution diagram draws."""

    NONE = "none"  #: nothing (no solution diagram)
    KEY = "key"    #: the key's path
    LINE = "line"  #: the main line's moves as numbered arrows

    def __str__(self) -> str:
        return self.value


def solution_drawing(puzzle: Puzzle, arrows: Arrows | str = Arrows.KEY) -> dict[str, Any]:
    """The ``render_position`` options that draw a puzzle's answer: the key's path
    (``key``), the main line's moves as numbered arrows (``line``), or nothing."""
    try:
        arrows = Arrows(arrows)
    except ValueError:
        raise ValueError(f"arrows {arrows!r}: use one of "
                         f"{', '.join(a.value for a in Arrows)}") from None
    if arrows is Arrows.NONE:
        return {}
    line = try_play_line(puzzle.position, puzzle.rules, puzzle.main_line, puzzle.history)
    if arrows is Arrows.LINE and line is not None and line.moves:
        return {"line": line.moves}
    move = _key_move(puzzle, line)
    return {"path": move} if move is not None else {}


def puzzle_svgs(puzzle: Puzzle, size: float | None = 360, *, arrows: Arrows | str = Arrows.KEY,
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


def _key_move(puzzle: Puzzle, line: PlayedLine | None) -> Move | None:
    if line is not None and line.moves:
        return line.moves[0]
    if puzzle.key:
        try:
            return parse_move(puzzle.key, puzzle.position, puzzle.rules, puzzle.history)
        except ValueError:
            return None
    return None
