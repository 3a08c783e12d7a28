"""solver.parallel.worker_pool: a pool terminated as soon as it is made ends its workers.
A SIGTERM sent before a worker has set itself up used to be noted by the parent's
deferring handler, inherited through the fork, and swallowed: terminate() then waited for
that worker for ever (it happened to solve(jobs=2) when the side to move won just after
the opponent's worker was forked)."""

from __future__ import annotations

from solver.parallel import worker_pool


def _nothing() -> None:
    pass


def test_a_pool_terminated_at_once_never_hangs():
    for _ in range(60):
        with worker_pool(2, _nothing) as runner:
            runner.terminate()
        with worker_pool(1, _nothing, fork=True) as runner:
            runner.terminate()
