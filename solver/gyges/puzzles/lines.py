"""Main lines: played from their notation (:class:`Line`), the themes they show, and built
by the solver (:func:`principal_line`: the solution tree's main line, the winner's fastest
moves against the longest defence).

>>> from gyges.game.rules import PRESETS, Side
>>> p = Position.from_string("....../3...../..1.1./1.23.3/3.22.1/....2. N")
>>> line = play_line(p, PRESETS["pbmserv"], ["51-43-33-31-21-S"])
>>> line
Line('51-43-33-31-21-S')
>>> line_themes(line, PRESETS["pbmserv"], Stipulation("win", 1, Side.NORTH))
['bounce chain 4']
>>> [[str(m) for m in turn] for turn in principal_line(p, PRESETS["pbmserv"], "win", 1)]
[['51-43-33-31-21-S']]
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable, Sequence

from gyges.formats.notation import format_turn, parse_turn
from gyges.game.moves import Game, Move, apply_move
from gyges.game.position import Position
from gyges.game.rules import RuleSet
from gyges.search import solve as search_solve
from gyges.search.solution import Solution
from gyges.search.stipulation import ResultKind, Stipulation

__all__ = ["Line", "SolveFn", "line_themes", "play_line", "principal_line", "renop_matters",
           "try_play_line"]

#: The solver as the catalogue calls it (``solve(position, rules, max_moves=, history=)``);
#: a parameter so that tests can hand in a stub.
SolveFn = Callable[..., Solution]


@dataclasses.dataclass(frozen=True)
class Line:
    """A main line played out: its moves (turn by turn) and the positions before each."""

    turns: tuple[tuple[Move, ...], ...]
    positions: tuple[Position, ...]  # the position before each move, in order
    end: Position | None  # after the last move (None when it landed on a goal)

    @property
    def moves(self) -> tuple[Move, ...]:
        return tuple(m for turn in self.turns for m in turn)

    def __repr__(self) -> str:
        return f"Line({' / '.join(format_turn(t) for t in self.turns)!r})"


def play_line(position: Position, rules: RuleSet, turns: Sequence[str],
              history: Sequence[Position] = ()) -> Line:
    """Play turns written in pbmserv notation; NotationError (a ValueError) if one fails."""
    game = Game(position, tuple(history))
    played = []
    before = []
    over = False
    for i, text in enumerate(turns):
        if over:
            raise ValueError(f"turn {i + 1} ({text}) comes after the game ended on a goal")
        moves = parse_turn(text, game.position, rules, game.history)
        for move in moves:
            before.append(game.position)
            if move.is_win:
                over = True
                break
            game = game.play(move)
        played.append(tuple(moves))
    return Line(tuple(played), tuple(before), None if over else game.position)


def try_play_line(position: Position, rules: RuleSet, turns: Sequence[str],
                  history: Sequence[Position] = ()) -> Line | None:
    """:func:`play_line`, or None when a turn cannot be played."""
    try:
        return play_line(position, rules, turns, history)
    except ValueError:
        return None


def line_themes(line: Line, rules: RuleSet, stipulation: Stipulation,
                history: Sequence[Position] = ()) -> list[str]:
    """The themes a played main line shows (see :data:`THEMES`), all but Renop (which
    needs the solver: :func:`renop_matters`)."""
    moves = line.moves
    if not moves:
        return []
    # The winner's moves make the themes (with no winner: the side to move's).
    winner = moves[-1].side if moves[-1].is_win else moves[0].side
    themes = []
    chain = max((m.bounces for m in moves if m.side is winner), default=0)
    if chain:
        themes.append(f"bounce chain {chain}")
    if any(m.is_replace for m in moves if m.side is winner):
        themes.append("relocation")
    if any(a.side is b.side for a, b in zip(moves, moves[1:], strict=False)):
        themes.append("stalemate chain")
    if any(m.side is winner and len(set(m.path)) < len(m.path) for m in moves):
        themes.append("taboo")
    if stipulation.kind == "loss":
        themes.append("unstoppable")
    return themes


def renop_matters(position: Position, rules: RuleSet, stipulation: Stipulation,
                  history: Sequence[Position] = (), solve: SolveFn | None = None) -> bool:
    """Does the Renop law change the answer? (The solver's result without it differs.)"""
    if rules.repetition != "forbidden":
        return False
    solve = solve or search_solve
    free = rules.with_options({"repetition": "allowed"})
    sol = solve(position, free, max_moves=stipulation.moves, history=history)
    return (sol.result, sol.moves) != (stipulation.kind,
                                       stipulation.moves if stipulation.kind != "none" else None)


def principal_line(position: Position, rules: RuleSet, result: ResultKind, k: int,
                   history: Sequence[Position] = (), solve: SolveFn | None = None,
                   first: Move | None = None) -> list[list[Move]]:
    """The main line proving ``result`` in ``k``, grouped in turns (a side playing on while
    its opponent is blocked stays in one turn): the solution tree's main line
    (:func:`gyges.search.tree.main_line_steps`: the key, then at each move of the loser the
    defence that holds out longest, at each move of the winner its fastest answer, down to
    the landing). With ``first`` (a key, or a loss's defence) the line starts with that
    move as it is written (its path), and goes on with the main line of the position after
    it. ValueError if the solver does not prove ``result`` in ``k``."""
    solve = solve or search_solve
    # with ``first`` given, the search stops at the first key it finds: the tree follows
    # it, and when it is another move the line is made from ``first`` below
    sol = solve(position, rules, max_moves=k, history=history, tree=True,
                max_keys=1 if first is not None else None)
    _expect_proven(sol, result, k, position)
    line = play_line(position, rules, sol.main_line_turns(), history)
    moves = list(line.moves)
    if first is not None and moves and (moves[0].result_key(position)
                                        == first.result_key(position)):
        moves[0] = first        # the same move, as ``first`` writes it (its path)
    elif first is not None:
        moves = [first]
        if not first.is_win:
            after = apply_move(position, first)
            rest = solve(after, rules, max_moves=k, history=[*history, position], tree=True,
                         max_keys=1)
            _expect_proven(rest, ResultKind.LOSS if result == "win" else ResultKind.WIN,
                           k - 1 if result == "win" else k, after)
            moves += play_line(after, rules, rest.main_line_turns(),
                               [*history, position]).moves
    if not moves:
        raise ValueError(f"the solver gives no main line in {position}")
    turns: list[list[Move]] = []
    for m in moves:
        if turns and turns[-1][0].side is m.side:
            turns[-1].append(m)
        else:
            turns.append([m])
    return turns


def _expect_proven(sol: Solution, result: ResultKind, k: int, position: Position) -> None:
    if sol.result != result or sol.moves != k:
        found = f"{sol.result.value} in {sol.moves}" if sol.moves else sol.result.value
        raise ValueError(f"the solver finds {found}, not {result} in {k}, in {position}")
