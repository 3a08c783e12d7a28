"""A deliberately naive reference move generator, written from the rules text alone.

This module exists to check the compiled generator (``solver/gyges/game/_movegen.pyx``) and was
written without reading it. It knows nothing of bitboards or tables: a ring walks the
board one step at a time, by recursion, and remembers the connections it has used in a
plain Python set (a walk state met before is not walked again: its future is the same).
It is slow, and it is meant to be obviously right.

The rules it implements (seed 000, with the options of :class:`gyges.game.rules.RuleSet`):

* South's shore is its lowest non-empty row, North's its highest; only shore rings move
  (``blocked=next-row``: when the shore has no legal move, the next non-empty row away from
  the mover's goal plays, and so on).
* A ring of size k takes exactly k steps along orthogonal connections. Every step but the
  last of a segment enters an empty slot (the ring's own start slot is empty: it was
  lifted). The last step of a segment ends the move on an empty slot, or lands on a ring:
  the ring then bounces (a new segment as long as that ring's size) or, when replacing is
  allowed, stands there and relocates the ring it landed on.
* The opponent's goal can be entered only as the exact last step of a segment; it wins.
  The mover's own goal is never entered.
* ``taboo=connection``: a connection is used at most once per move, in either direction;
  ``taboo=entry``: a directed step a->b is taken at most once.
* ``rebounce=once``: a move lands at most once on a given ring (bounce or replace).
* Replace: the landed-on ring goes to an empty slot (the vacated start slot counts as
  empty); ``replace=shore`` forbids slots beyond the opponent's shore, the shore being
  judged on the board with the mover lifted from its start and standing on the landing.
* A move is its result: the board after it, or ``("win", start)`` for a goal landing.
  ``null-move=forbidden`` drops a result equal to the current board;
  ``repetition=forbidden`` (Renop) drops a result equal to the current board or to any
  board of the history.
* ``blocked=pass``: a side with no legal move is skipped, the opponent moves again from the
  same board; ``blocked=draw``: no moves.

>>> from gyges.game.rules import PRESETS, Side
>>> start = tuple([2, 3, 1, 1, 2, 3] + [0] * 24 + [3, 2, 1, 1, 2, 3])
>>> mover, results = reference_moves(start, Side.SOUTH, PRESETS["pbmserv"])
>>> mover, len(results)
(<Side.SOUTH: 'S'>, 336)
"""

from __future__ import annotations

import functools
from collections.abc import Iterable

from gyges.game.rules import RuleSet, Side

Board = tuple[int, ...]
Result = tuple  # a 36-tuple board, or ("win", start)

NORTH_GOAL = 36  # beyond row 6: South lands here to win
SOUTH_GOAL = 37  # beyond row 1: North lands here to win


def row(s: int) -> int:
    """Row 1..6 of slot s (slot = (row - 1) * 6 + (column - 1))."""
    return s // 6 + 1


def col(s: int) -> int:
    return s % 6 + 1


def at(r: int, c: int) -> int:
    return (r - 1) * 6 + (c - 1)


@functools.cache
def neighbours(s: int) -> tuple[int, ...]:
    """The slots (and goal) joined to slot s by a connection."""
    r, c = row(s), col(s)
    out = []
    if c > 1:
        out.append(at(r, c - 1))
    if c < 6:
        out.append(at(r, c + 1))
    out.append(at(r - 1, c) if r > 1 else SOUTH_GOAL)
    out.append(at(r + 1, c) if r < 6 else NORTH_GOAL)
    return tuple(out)


def shore(board: Board, side: Side) -> int | None:
    """The side's shore row: its non-empty row nearest its own goal."""
    rows = [row(s) for s in range(36) if board[s]]
    if not rows:
        return None
    return min(rows) if side is Side.SOUTH else max(rows)


def rows_outward(board: Board, side: Side) -> list[int]:
    """Non-empty rows, from the side's shore away from its goal."""
    rows = sorted({row(s) for s in range(36) if board[s]})
    return rows if side is Side.SOUTH else rows[::-1]


class TooComplex(Exception):
    """The search met more walk states than its budget allows (see :func:`ring_outcomes`)."""


#: Default cap on the walk states one ring may visit: a few positions under taboo=entry
#: have millions of walks; the tests skip those rather than wait.
BUDGET = 200_000


def ring_outcomes(
    board: Board, side: Side, rules: RuleSet, start: int, budget: int = BUDGET
) -> dict[tuple[str, int], int]:
    """Where the ring on ``start`` can stop, with the fewest bounces that get it there.

    Keys are ``("end", slot)`` (stops on an empty slot), ``("land", slot)`` (stands on a
    ring: it may bounce on or replace it) and ``("goal", goal)``. A depth-first walk, step
    by step; a walk state is (slot, steps left, connections used, rings landed on), and a
    state already explored with no more bounces is not explored again (its future is the
    same). Raises :class:`TooComplex` past ``budget`` states.
    """
    goal = NORTH_GOAL if side is Side.SOUTH else SOUTH_GOAL
    once = rules.rebounce == "once"
    seen: dict[tuple, int] = {}
    best: dict[tuple[str, int], int] = {}

    def empty(s: int) -> bool:
        return s == start or board[s] == 0

    def connection(a: int, b: int) -> tuple[int, int]:
        if rules.taboo == "connection":
            return (a, b) if a < b else (b, a)  # either direction: one connection
        return (a, b)  # taboo=entry: the directed step

    def reach(outcome, bounces):
        if outcome not in best or bounces < best[outcome]:
            best[outcome] = bounces

    def walk(here, left, used, landed, bounces):
        state = (here, left, used, landed if once else None)
        if state in seen and seen[state] <= bounces:
            return
        seen[state] = bounces
        if len(seen) > budget:
            raise TooComplex(f"more than {budget} walk states from slot {start}")
        for there in neighbours(here):
            link = connection(here, there)
            if link in used:
                continue
            if there in (NORTH_GOAL, SOUTH_GOAL):
                if there == goal and left == 1:
                    reach(("goal", there), bounces)
                continue
            if left > 1:
                if empty(there):
                    walk(there, left - 1, used | {link}, landed, bounces)
                continue
            if empty(there):
                reach(("end", there), bounces)
                continue
            if once and there in landed:
                continue
            reach(("land", there), bounces)
            walk(there, board[there], used | {link}, landed | {there}, bounces + 1)

    walk(start, board[start], frozenset(), frozenset(), 0)
    return best


def relocations(board: Board, side: Side, rules: RuleSet, start: int, landing: int) -> list[int]:
    """Where the ring on ``landing`` may go when the ring from ``start`` replaces it."""
    if rules.replace == "off":
        return []
    lifted = list(board)
    lifted[start] = 0
    targets = [s for s in range(36) if s != landing and lifted[s] == 0]
    if rules.replace == "shore":
        # The mover stands on ``landing`` (occupied either way), its start is empty.
        limit = shore(tuple(lifted), side.other)
        if side is Side.SOUTH:
            targets = [s for s in targets if row(s) <= limit]
        else:
            targets = [s for s in targets if row(s) >= limit]
    return targets


def ring_results(
    board: Board, side: Side, rules: RuleSet, start: int, budget: int = BUDGET
) -> dict[Result, int]:
    """Every result of moving the ring on ``start``, with the rank of its best path (which
    rows may move, null moves and Renop not applied).

    The rank is the number of bounces of the path, plus REPLACE_RANK for a replace: a
    result reached both by a plain move and by a same-size replace is shown as the plain
    move (as the seeds write it), whatever the bounces.
    """
    best: dict[Result, int] = {}

    def note(result, bounces):
        if result not in best or bounces < best[result]:
            best[result] = bounces

    for (kind, end), bounces in ring_outcomes(board, side, rules, start, budget).items():
        if kind == "goal":
            note(("win", start), bounces)
            continue
        after = list(board)
        after[start] = 0
        if kind == "end":
            after[end] = board[start]
            note(tuple(after), bounces)
            continue
        for target in relocations(board, side, rules, start, end):
            moved = list(after)
            moved[target] = board[end]
            moved[end] = board[start]
            note(tuple(moved), REPLACE_RANK + bounces)
    return best


REPLACE_RANK = 1000  #: added to a replace path's bounces when ranking representatives


def rank(bounces: int, is_replace: bool) -> int:
    """The rank of a path (see ring_results): fewer is preferred."""
    return bounces + (REPLACE_RANK if is_replace else 0)


def _legal(board: Board, rules: RuleSet, history: Iterable[Board], found: dict) -> dict:
    forbidden = set()
    if rules.null_move == "forbidden" or rules.repetition == "forbidden":
        forbidden.add(tuple(board))
    if rules.repetition == "forbidden":
        forbidden.update(tuple(h) for h in history)
    return {r: b for r, b in found.items() if r not in forbidden}


def _side_results(
    board: Board, side: Side, rules: RuleSet, history, next_row: bool, budget: int
) -> dict:
    for r in rows_outward(board, side):
        found: dict[Result, int] = {}
        for s in range(36):
            if board[s] and row(s) == r:
                for result, bounces in ring_results(board, side, rules, s, budget).items():
                    if result not in found or bounces < found[result]:
                        found[result] = bounces
        found = _legal(board, rules, history, found)
        if found or not next_row:
            return found
    return {}


def reference_results(
    board: Board, side: Side, rules: RuleSet, history: Iterable[Board] = (), budget: int = BUDGET
) -> tuple[Side, dict[Result, int]]:
    """The side that moves and ``{result: fewest bounces}`` over its legal moves."""
    board = tuple(board)
    history = [tuple(h) for h in history]
    found = _side_results(board, side, rules, history, rules.blocked == "next-row", budget)
    if found or rules.blocked != "pass":
        return side, found
    other = _side_results(board, side.other, rules, history, False, budget)
    return (side.other, other) if other else (side, {})


def reference_moves(
    board: Board, side: Side, rules: RuleSet, history: Iterable[Board] = (), budget: int = BUDGET
) -> tuple[Side, frozenset]:
    """The mover and its set of results: resulting boards, and ``("win", start)``."""
    mover, found = reference_results(board, side, rules, history, budget)
    return mover, frozenset(found)


def reference_can_land(
    board: Board, side: Side, rules: RuleSet, history: Iterable[Board] = (), budget: int = BUDGET
) -> bool:
    """Does the side to move (itself, not an opponent playing on) land on its goal now?"""
    mover, results = reference_moves(board, side, rules, history, budget)
    return mover is side and any(r[0] == "win" for r in results)


def is_win(result: Result) -> bool:
    return len(result) == 2 and result[0] == "win"


def reference_perft(
    board: Board, side: Side, rules: RuleSet, depth: int, history: Iterable[Board] = ()
) -> int:
    """Move sequences of exactly ``depth`` moves (a goal landing ends its line)."""
    if depth == 0:
        return 1
    history = tuple(tuple(h) for h in history)
    mover, results = reference_moves(board, side, rules, history)
    if depth == 1:
        return len(results)
    line = history + (tuple(board),)
    return sum(
        reference_perft(r, mover.other, rules, depth - 1, line)
        for r in results
        if not is_win(r)
    )
