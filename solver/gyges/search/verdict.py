"""The verdict schedule: the least forced result within N, asked in the order win in 1,
loss in 1, win in 2, loss in 2, ..., and on more than one job split across processes.

A side cannot both force a win and be forced to lose (both strategies played against each
other would make both land), so once the side to move is found to win in k, no loss at any
depth is possible: the opponent's questions are only asked when the side to move has no
win within N. Same answers, about half the work on a win.
"""

from __future__ import annotations

import functools
import time
from collections.abc import Callable
from typing import Any

from gyges.game.moves import Move, MoveList
from gyges.game.position import Position
from gyges.search.keys import find_keys, split_keys
from gyges.search.progress import Reporter
from gyges.search.session import Prover
from gyges.search.stipulation import ResultKind
from gyges.search.workers import FirstMoves, OpponentSearch

__all__ = ["SPLIT_SECONDS", "VERDICT_SPLIT_SECONDS", "verdict", "verdict_and_keys"]

#: With more than one job, once a depth of the side to move's questions is expected to
#: take more than this many CPU seconds (extrapolated from the depths before), the
#: opponent's questions start in a process of their own. Starting it costs a fork and,
#: on a win, work thrown away; waiting costs the opponent's whole series on a loss or no
#: result. Only the time taken depends on it (``python -m bench.bench_solver solve``
#: times the commands it matters for; tests set 0 to start it at once).
SPLIT_SECONDS = 0.5

#: With more than one job, once a depth of the side to move's questions is expected to
#: take more than this many CPU seconds (extrapolated the same way), that depth and the
#: deeper ones are asked one first move at a time on the workers (a win in d is a first
#: move after which the side to move wins within d - 1). It trades the split's gain on a
#: wide "no" (every first move refuted, each refutation independent: the start's -n 4)
#: against its loss on a quick win, where one process's proof makes the cook search cheap
#: (the Rust engine's position). Only the time taken depends on it; ``python -m
#: bench.bench_solver solve`` times both commands on one job and on every core.
VERDICT_SPLIT_SECONDS = 5.0


def verdict(prover: Prover, position: Position, max_moves: int,
            report: Reporter) -> tuple[ResultKind, int | None]:
    """The least forced result within ``max_moves``: ``(WIN, k)``, ``(LOSS, k)`` or
    ``(NONE, None)``, in this process."""
    me, other = position.turn, position.turn.other
    for d in range(1, max_moves + 1):
        report.verdict(d)
        if prover.wins(position, me, d):
            return ResultKind.WIN, d
    for d in range(1, max_moves + 1):
        report.opponent(d)
        if prover.wins(position, other, d):
            return ResultKind.LOSS, d
    return ResultKind.NONE, None


class _Clock:
    """When to split a depth: the CPU time of each depth searched here, extrapolated."""

    def __init__(self) -> None:
        self.times: list[float] = []

    def timed(self, run: Callable[[], Any]) -> Any:
        c = time.process_time()
        out = run()
        self.times.append(time.process_time() - c)
        return out

    def split_next(self, seconds: float) -> bool:
        """Is the next depth expected to take more than ``seconds`` of CPU?"""
        if seconds <= 0:
            return True
        if not self.times:
            return False
        last = max(self.times[-1], 1e-3)
        before = max(self.times[-2], 1e-3) if len(self.times) > 1 else 1e-3
        return last * max(last / before, 10.0) > seconds


def verdict_and_keys(asker: FirstMoves, position: Position, root: MoveList, max_moves: int,
                     report: Reporter) -> tuple[ResultKind, int | None, list[Move]]:
    """The least forced result within ``max_moves`` (as :func:`verdict`) and, for a win,
    every key (the cook search).

    One job: :func:`verdict`, then :func:`~gyges.search.keys.find_keys`. More jobs: the
    same questions, asked as one job asks them, but once a depth is expected to be
    expensive (:data:`SPLIT_SECONDS`) the opponent's questions (win in 1, 2, ..., N for the
    opponent: only needed if the side to move has no win) start in a forked process of
    their own, alongside the side to move's, which go on here; and the cook search is
    split across the workers (:func:`~gyges.search.keys.split_keys`). Once a depth is
    expected to be very expensive (:data:`VERDICT_SPLIT_SECONDS`), the side to move's
    question itself is split the same way, one first move per question."""
    prover = asker.prover
    me = position.turn

    def keys_found(k: int) -> Callable[[int, int], None]:
        return lambda i, n: report.keys(k, i, n)

    if asker.jobs == 1:
        result, k = verdict(prover, position, max_moves, report)
        keys = (find_keys(prover, position, root, k, keys_found(k))
                if result is ResultKind.WIN and k is not None else [])
        return result, k, keys
    clock = _Clock()
    can_split = root.mover is me and not root.wins
    split = False
    with OpponentSearch(prover, position, max_moves) as opponent:
        for d in range(1, max_moves + 1):
            report.verdict(d)
            if not opponent.started and d > 1 and clock.split_next(SPLIT_SECONDS):
                opponent.start()
            # once a depth is expected to be very expensive, it and every deeper one are
            # split (the parent's clock no longer sees the work once the workers do it)
            split = split or (d > 1 and clock.split_next(VERDICT_SPLIT_SECONDS))
            if split and can_split:
                # the side to move's question asked one first move at a time on the
                # workers: a win in d is a first move after which the side to move wins
                # within d - 1, so the answers are the verdict and the keys at once
                keys = split_keys(asker, position, root, d,
                                  functools.partial(report.verdict, d))
                if keys:
                    opponent.stop()
                    return ResultKind.WIN, d, keys
                continue
            if clock.timed(functools.partial(prover.wins, position, me, d)):
                opponent.stop()
                if d > 1 and can_split:
                    keys = split_keys(asker, position, root, d,
                                      functools.partial(report.keys, d, split=True))
                else:
                    keys = find_keys(prover, position, root, d, keys_found(d))
                return ResultKind.WIN, d, keys
        lost = opponent.least(report.opponent)
    asker.effort.add(opponent.effort.nodes, opponent.effort.tt_hits, opponent.effort.truncated)
    return (ResultKind.LOSS, lost, []) if lost is not None else (ResultKind.NONE, None, [])
