"""Questions asked in forked processes: one first move at a time on a pool of workers
(:class:`FirstMoves`), and the opponent's questions in a process of their own
(:class:`OpponentSearch`).

Each forked process starts from a copy of the parent's :class:`~gyges.search.Prover`,
its table included (the processes fork, so nothing is pickled but the questions and the
answers). Every answer is exact whoever computes it (a table only saves work), so which
process answers a question, and in which order, changes nothing but the time and the
statistics.
"""

from __future__ import annotations

import contextlib
import dataclasses
import multiprocessing
from collections.abc import Callable, Sequence
from typing import Any

from gyges.game.position import Position
from gyges.game.rules import Side
from gyges.parallel import ForkedCall, forked_call, worker_pool
from gyges.search.session import Prover

__all__ = ["Effort", "FirstMoves", "OpponentSearch", "Question"]


@dataclasses.dataclass(frozen=True)
class Question:
    """Does ``winner`` win within ``within`` moves from ``position``, after ``line``?"""

    position: Position
    winner: Side
    within: int
    line: tuple[Position, ...] = ()


@dataclasses.dataclass
class Effort:
    """Search effort spent in forked processes (the parent's own prover counts its own)."""

    nodes: int = 0
    tt_hits: int = 0
    truncated: bool = False

    def add(self, nodes: int, tt_hits: int, truncated: bool) -> None:
        self.nodes += nodes
        self.tt_hits += tt_hits
        self.truncated |= truncated


def _ask(prover: Prover, q: Question) -> tuple[bool, int, int, bool]:
    """One question: ``(answer, nodes, tt_hits, truncated)`` (``truncated``: its answer was
    left undecided by a given-up line, and counted as no)."""
    n0, h0, t0 = prover.nodes, prover.tt_hits, prover.truncated
    r = prover.wins(q.position, q.winner, q.within, q.line)
    return r, prover.nodes - n0, prover.tt_hits - h0, prover.truncated and not t0


#: The prover a pool worker inherited, set once by the pool's initialiser as the worker
#: starts. A pool sends its tasks pickled, by the task function's name, so a worker finds
#: what it inherited at its fork only through module state; the parent never reads it.
_INHERITED: dict[str, Prover] = {}


def _adopt(prover: Prover) -> None:
    _INHERITED["prover"] = prover


def _worker_task(args: tuple[int, Question]) -> tuple[int, bool, int, int, bool]:
    """A worker's question: ``(index, answer, nodes, tt_hits, truncated)``."""
    index, q = args
    return index, *_ask(_INHERITED["prover"], q)


class FirstMoves:
    """Answers a batch of independent questions (each deciding one first move) on
    ``jobs`` forked workers (in this process for one job), which start from ``prover``'s
    table as it is when they are forked; ``effort`` counts the workers' work."""

    def __init__(self, prover: Prover, jobs: int):
        self.prover = prover
        self.jobs = jobs
        self.effort = Effort()

    def ask(self, questions: Sequence[Question],
            progress: Callable[[int, int], None] | None = None) -> list[bool]:
        """The answers, in the order of ``questions``; ``progress(done, total)`` after
        each."""
        n = len(questions)
        answers = [False] * n
        with worker_pool(self.jobs, _adopt, (self.prover,)) as pool:
            numbered = list(enumerate(questions))
            for done, (i, r, nodes, hits, trunc) in enumerate(
                    pool.map_unordered(_worker_task, numbered)):
                answers[i] = r
                if self.jobs > 1:
                    self.effort.add(nodes, hits, trunc)
                if progress is not None:
                    progress(done + 1, n)
        return answers


def _opponent_search(prover: Prover, position: Position, depth: Any,
                     most: int) -> tuple[int | None, int, int, bool]:
    """The forked process's iterative deepening on the opponent's questions: ``(least d or
    None, nodes, tt_hits, truncated)``; the depth being searched is kept in ``depth``, a
    shared value. ``prover`` is the process's copy of the parent's (table included)."""
    n0, h0 = prover.nodes, prover.tt_hits
    found = None
    for d in range(1, most + 1):
        depth.value = d
        if prover.wins(position, position.turn.other, d):
            found = d
            break
    return found, prover.nodes - n0, prover.tt_hits - h0, prover.truncated


class OpponentSearch:
    """The opponent's questions (does the opponent win within 1, 2, ..., ``most``?),
    asked in a forked process of their own while this process asks the side to move's;
    or here, afterwards, if that process was never started (every depth was cheap).
    Use it as a context manager: leaving the block ends the process."""

    def __init__(self, prover: Prover, position: Position, most: int):
        self.prover = prover
        self.position = position
        self.most = most
        self.started = False
        self.effort = Effort()
        self._stack = contextlib.ExitStack()
        self._call: ForkedCall | None = None
        self._depth: Any = None

    def __enter__(self) -> OpponentSearch:
        return self

    def __exit__(self, *exc: Any) -> None:
        self._stack.__exit__(*exc)

    def start(self) -> None:
        """Start the forked process (from this process's table as it is now)."""
        self._depth = multiprocessing.get_context("fork").Value("i", 0, lock=False)
        self._call = self._stack.enter_context(forked_call(
            _opponent_search, self.prover, self.position, self._depth, self.most))
        self.started = True

    def stop(self) -> None:
        """The side to move wins: the opponent's answer is not needed."""
        self._stack.close()
        self._call = None

    def least(self, searching: Callable[[int], None]) -> int | None:
        """The least d within which the opponent wins, or None; ``searching(d)`` as each
        depth is seen to start."""
        if self._call is None:
            other = self.position.turn.other
            for d in range(1, self.most + 1):
                searching(d)
                if self.prover.wins(self.position, other, d):
                    return d
            return None
        shown = -1
        while not self._call.ready(0.2):
            d = max(1, self._depth.value)
            if d != shown:
                searching(d)
                shown = d
        found, nodes, hits, truncated = self._call.result()
        self.effort = Effort(nodes, hits, truncated)
        self.stop()
        return found
