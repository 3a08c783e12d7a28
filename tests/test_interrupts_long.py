"""Ctrl-C during one long computation (``perft``, ``solve`` a position with one or two jobs,
``setups search --lands-in``): exit 130 with one message, and ``solve`` says what it had
proven. The harness and what every interrupted run must do: interrupts.py."""

from __future__ import annotations

import pytest
from common import START
from interrupts import assert_interrupted, run

LONG = {
    "perft": ["perft", START, "-d", "5"],
    "solve": ["solve", START, "-n", "8"],
    "solve-jobs": ["solve", START, "-n", "8", "--jobs", "2"],
    "search": ["setups", "search", "--side", "pair", "--lands-in", "3"],
}


@pytest.mark.parametrize(("name", "delay"), [("perft", 1.5), ("solve", 1.5)])
def test_long_computation_interrupted(tmp_path, name, delay):
    args = LONG[name]
    r = run(args, tmp_path, delay)
    assert r.interrupted, f"gyges {' '.join(args)} ended before Ctrl-C: choose a longer one"
    assert_interrupted(r, args)
    assert r.code == 130
    if name == "solve":   # it says what was proven before the interrupt
        assert "(proven)" in r.err or "nothing proven yet" in r.err, r.err


@pytest.mark.slow
@pytest.mark.parametrize("name", sorted(LONG))
@pytest.mark.parametrize("try_", range(10))
def test_long_computation_interrupted_many(tmp_path, name, try_):
    args = LONG[name]
    r = run(args, tmp_path, 0.3 + 0.6 * try_)
    assert_interrupted(r, args)
    assert r.code == 130
