"""gyges.parallel.worker_pool and forked_call: a pool terminated as soon as it is made
ends its workers; a forked call gives its result or its exception, and ends at once when
its block is left.

worker_pool: a pool terminated as soon as it is made ends its workers.
A SIGTERM sent before a worker has set itself up used to be noted by the parent's
deferring handler, inherited through the fork, and swallowed: terminate() then waited for
that worker for ever (it happened to solve(jobs=2) when the side to move won just after
the opponent's worker was forked)."""

from __future__ import annotations

import os
import time

import pytest

from gyges.parallel import forked_call, worker_pool


def _nothing() -> None:
    pass


@pytest.mark.timeout(120)     # a pool that hangs on terminate fails here, not the suite
def test_a_pool_terminated_at_once_never_hangs():
    import multiprocessing

    for _ in range(60):
        with worker_pool(2, _nothing) as runner:
            runner.terminate()
        assert multiprocessing.active_children() == []     # its workers are gone


def _square_of_parent_value(box: list[int], extra: int) -> int:
    return box[0] * box[0] + extra


def _fails() -> None:
    raise ValueError("from the child")


def _dies() -> None:
    os._exit(3)


def test_a_forked_call_gives_its_result_from_inherited_memory():
    box = [7]           # not pickled: the child has it through the fork
    with forked_call(_square_of_parent_value, box, 1) as call:
        assert call.ready(10)
        assert call.result() == 50


def test_a_forked_call_raises_its_exception_here():
    with forked_call(_fails) as call, pytest.raises(ValueError, match="from the child"):
        call.result()


def test_a_forked_call_that_dies_says_so():
    with forked_call(_dies) as call, pytest.raises(RuntimeError, match="exit code 3"):
        call.result()


@pytest.mark.timeout(300)     # waiting for the calls would take 30 minutes
def test_leaving_a_forked_call_ends_it_at_once():
    """The opponent's questions in solve(jobs=2) run this way: when the side to move wins,
    the call is abandoned in the middle of its search, and must not be waited for (a pool
    terminated there once hung for minutes)."""
    for _ in range(30):
        with forked_call(time.sleep, 60) as call:
            assert not call.ready()
        assert not call._process.is_alive()
