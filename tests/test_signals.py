"""Ctrl-C inside the process: every CP-SAT solve leaves SIGINT to Python, and the compiled
core's perft polls for signals. (Real process groups interrupted: test_interrupts_*.py.)"""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import textwrap
import threading
import time

import pytest
from common import ROOT, START


def test_cp_sat_leaves_sigint_to_python():
    """After a CP-SAT solve, Ctrl-C still raises KeyboardInterrupt (OR-Tools' own handler,
    on by default, would leave SIGINT at its default: death without a message)."""
    code = textwrap.dedent("""
        import random, signal
        from gyges.puzzles.generate.compose import Design, _solve_model, draw_path
        from gyges.game.rules import PRESETS
        from gyges.setups import constraints_from_options, search
        search(constraints_from_options({"fix": ["3@1"]}), PRESETS["pbmserv"])
        rng = random.Random(1)
        d = Design(bounces=1, defenders=1)
        for _ in range(5):
            path = draw_path(d, rng)
            if path:
                _solve_model(d, path, rng, [])
        status = open("/proc/self/status").read()
        caught = int(status.split("SigCgt:")[1].split()[0], 16)
        print("caught" if caught & (1 << (signal.SIGINT - 1)) else "default")
    """)
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                         cwd=ROOT, timeout=120)
    assert out.stdout.strip() == "caught", out.stderr


def test_every_cp_sat_solver_turns_its_handler_off():
    for path in (ROOT / "solver").rglob("*.py"):
        text = path.read_text()
        assert text.count("CpSolver()") == text.count("catch_sigint_signal = False"), path


def test_perft_polls_for_signals():
    """The core's perft looks for signals: a SIGINT during a long count raises
    KeyboardInterrupt within a fraction of a second."""
    from gyges.game import _movegen
    from gyges.game.position import Position
    from gyges.game.rules import PRESETS

    p = Position.from_string(START)
    timer = threading.Timer(0.3, os.kill, (os.getpid(), signal.SIGINT))
    t0 = time.process_time()         # this process's CPU: the machine's load aside
    timer.start()
    with pytest.raises(KeyboardInterrupt):
        _movegen.perft(p.key, p.turn.index, PRESETS["pbmserv"].flags(), 6, [])
    assert time.process_time() - t0 < 5      # perft 6 alone takes minutes
    assert _movegen.perft(p.key, p.turn.index, PRESETS["pbmserv"].flags(), 2, [])[0] == 82046
