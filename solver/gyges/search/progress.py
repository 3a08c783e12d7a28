"""What :func:`~gyges.search.solve` reports as it goes: one :class:`SolveProgress` event as
each stage or depth starts (and as first moves are answered), for a status line.

>>> from gyges.game.rules import Side
>>> e = SolveProgress(Stage.OPPONENT, Side.NORTH, 2, mover_none_within=3,
...                   opponent_none_within=1)
>>> str(e), e.proven()
('searching for a loss in 2', 'South has no forced win within 3, North none within 1')
>>> e
SolveProgress(opponent, N, depth=2, proven='South has no forced win within 3, North none within 1')
>>> str(SolveProgress(Stage.KEYS, Side.SOUTH, 3, done=4, total=29))
'looking for cooks: first move 5 of 29'
"""

from __future__ import annotations

import dataclasses
import enum
from collections.abc import Callable

from gyges.game.rules import Side

__all__ = ["Reporter", "SolveProgress", "Stage"]


class Stage(enum.Enum):
    """The stages of a solve, in the order they run."""

    VERDICT = "verdict"      #: does the side to move win within 1, 2, ..., N?
    OPPONENT = "opponent"    #: does the opponent win within 1, 2, ..., N?
    KEYS = "keys"            #: every first move that wins (the cook search)
    TREE = "tree"            #: the solution tree
    TRIES = "tries"          #: the first moves that fail but come close


@dataclasses.dataclass(frozen=True)
class SolveProgress:
    """A stage of a solve starting, or part of it done.

    ``side`` is the side whose win is asked (the opponent in :attr:`Stage.OPPONENT`, the
    winner in :attr:`Stage.TREE`), ``depth`` the number of its moves asked about (the
    proven k from the keys on; the bound for the tries of a position without a forced
    result). ``mover_none_within`` and ``opponent_none_within`` are what the questions
    answered so far prove: the side to move, and its opponent, has no forced win within
    that many moves (0: nothing proven). ``done`` of ``total`` first moves are answered
    where they are counted; ``split``: they are asked one at a time on forked workers.
    ``str()`` is the note a status line shows.
    """

    stage: Stage
    side: Side
    depth: int
    mover_none_within: int = 0
    opponent_none_within: int = 0
    done: int | None = None
    total: int | None = None
    split: bool = False

    @property
    def searching(self) -> bool:
        """Is the verdict still open (the side to move's or the opponent's questions)?"""
        return self.stage in (Stage.VERDICT, Stage.OPPONENT)

    def proven(self) -> str:
        """What the questions answered so far prove, in words ("" when nothing yet)."""
        mover = self.side if self.stage is not Stage.OPPONENT else self.side.other
        if not self.mover_none_within:
            return ""
        text = f"{mover.title} has no forced win within {self.mover_none_within}"
        if self.opponent_none_within:
            text += f", {mover.other.title} none within {self.opponent_none_within}"
        return text

    def __str__(self) -> str:
        done, total = self.done, self.total
        if self.stage is Stage.VERDICT:
            text = f"searching for a win in {self.depth}"
            if done is not None and total is not None:
                text += f": {done} of {total} first moves done"
            return text
        if self.stage is Stage.OPPONENT:
            return f"searching for a loss in {self.depth}"
        if self.stage is Stage.KEYS:
            if done is None or total is None:
                return "looking for cooks"
            if self.split:
                return f"looking for cooks: {done} of {total} first moves done"
            return f"looking for cooks: first move {done + 1} of {total}"
        if self.stage is Stage.TREE:
            return "building the solution tree"
        return "looking for tries"

    def __repr__(self) -> str:
        parts = [self.stage.value, self.side.value, f"depth={self.depth}"]
        if self.proven():
            parts.append(f"proven={self.proven()!r}")
        if self.done is not None:
            parts.append(f"done={self.done}/{self.total}" + (" split" if self.split else ""))
        return f"SolveProgress({', '.join(parts)})"


class Reporter:
    """Makes the events of one solve (the side to move ``mover``, the bound ``max_moves``)
    and hands them to ``progress`` (None: nobody listens)."""

    def __init__(self, progress: Callable[[SolveProgress], object] | None, mover: Side,
                 max_moves: int):
        self._progress = progress
        self._mover = mover
        self._max = max_moves

    def _send(self, event: SolveProgress) -> None:
        if self._progress is not None:
            self._progress(event)

    def verdict(self, depth: int, done: int | None = None, total: int | None = None) -> None:
        """The side to move's question at ``depth`` (``done`` of ``total`` first moves
        answered on the workers, when it is split)."""
        self._send(SolveProgress(Stage.VERDICT, self._mover, depth, depth - 1, 0, done, total,
                                 done is not None))

    def opponent(self, depth: int) -> None:
        """The opponent's question at ``depth`` (the side to move has none within N)."""
        self._send(SolveProgress(Stage.OPPONENT, self._mover.other, depth, self._max,
                                 depth - 1))

    def keys(self, depth: int, done: int | None = None, total: int | None = None,
             split: bool = False) -> None:
        """The cook search of a win in ``depth``: ``done`` of ``total`` first moves."""
        self._send(SolveProgress(Stage.KEYS, self._mover, depth, done=done, total=total,
                                 split=split))

    def tree(self, winner: Side, depth: int) -> None:
        self._send(SolveProgress(Stage.TREE, winner, depth))

    def tries(self, depth: int) -> None:
        self._send(SolveProgress(Stage.TRIES, self._mover, depth))
