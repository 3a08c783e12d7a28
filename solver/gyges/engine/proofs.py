"""The engine's questions to the provers of :mod:`gyges.search`: every call into the search
layer is here.

Two questions, each "within ``k`` moves of the winner": has the side to move a forced
win (and which first move wins), and does a move leave the opponent a forced win. The
answers are exact (df-pn, the solver's default prover). Their effort is bounded by a time
budget: the provers take no node budget, so a timer (``SIGALRM``, in the main thread
only) interrupts a question that runs over, which then counts as unanswered. Where no
timer can be set (another thread, or another timer running) a question with a budget is
not asked; a question without one (``seconds=None``) always is, to its end.

>>> from gyges import PRESETS, Position
>>> p = Position.from_string(".3.3.3/112232/...1.2/...1../....../...... S")
>>> win = forced_win(p, PRESETS["pbmserv"], 2)
>>> win.moves, str(win.key)
(2, '34x44=41')
"""

from __future__ import annotations

import contextlib
import dataclasses
import signal
import threading
from collections.abc import Iterator, Sequence
from typing import Any

from gyges.game.moves import Move, apply_move
from gyges.game.position import Position
from gyges.game.rules import RuleSet
from gyges.search import solve, win_in

__all__ = ["ProvenWin", "forced_win", "loses_after"]


@dataclasses.dataclass(frozen=True)
class ProvenWin:
    """The side to move wins with its ``moves``-th move at the latest; ``key`` wins."""

    moves: int
    key: Move


class _OutOfTime(Exception):
    """A question's time budget ran out (raised by the timer's handler)."""


def _alarm(signum: int, frame: Any) -> None:
    raise _OutOfTime


@contextlib.contextmanager
def _budget(seconds: float | None) -> Iterator[bool]:
    """Arm a timer for ``seconds`` around the block; yields whether the question may be
    asked (False: a budget that cannot be enforced here)."""
    if seconds is None:
        yield True
        return
    if (seconds <= 0 or threading.current_thread() is not threading.main_thread()
            or signal.getitimer(signal.ITIMER_REAL)[0] > 0):
        yield False
        return
    old = signal.signal(signal.SIGALRM, _alarm)
    signal.setitimer(signal.ITIMER_REAL, seconds)
    try:
        yield True
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)
        signal.signal(signal.SIGALRM, old)


def forced_win(position: Position, rules: RuleSet, k: int,
               history: Sequence[Position] = (),
               seconds: float | None = None) -> ProvenWin | None:
    """The side to move's least forced win within ``k`` moves and a first move that wins,
    or None (no such win, or the budget ran out first)."""
    try:
        with _budget(seconds) as allowed:
            if not allowed or not win_in(position, rules, k, history):
                return None
            solution = solve(position, rules, k, history, tree=False, max_keys=1)
    except _OutOfTime:
        return None
    if solution.result != "win" or not solution.keys or solution.moves is None:
        return None
    return ProvenWin(solution.moves, solution.keys[0])


def loses_after(position: Position, move: Move, rules: RuleSet, k: int,
                history: Sequence[Position] = (), seconds: float | None = None) -> bool | None:
    """Does ``move`` leave the opponent a forced win within ``k`` moves? None: not known
    (the budget ran out first)."""
    if move.is_win:
        return False
    child = apply_move(position, move)
    try:
        with _budget(seconds) as allowed:
            if not allowed:
                return None
            return win_in(child, rules, k, [*history, position])
    except _OutOfTime:
        return None
