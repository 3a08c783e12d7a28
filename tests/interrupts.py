"""The harness of the interrupt tests: Ctrl-C as a terminal sends it, SIGINT to the whole
process group of the installed ``gyges`` command, at a chosen moment.

Every interrupted run must end within a few seconds (a hang fails the test), with exit
status 130 and one ``gyges: interrupted`` line and no traceback; what it wrote must be
valid and a prefix of what an uninterrupted run writes, no record in it may differ from
the uninterrupted run's (an interrupt never changes a result), and the same command run
again must resume to the same output as the uninterrupted run. The tests are in
``test_interrupts_*.py``, one file a command: a short version runs in ``make test``, the
``slow`` ones try 20 moments per command (10 with one job, 10 with two).
"""

from __future__ import annotations

import dataclasses
import json
import os
import shutil
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

GYGES = str(Path(sys.executable).with_name("gyges"))
if not os.path.exists(GYGES):  # pragma: no cover - an unusual install
    GYGES = shutil.which("gyges") or GYGES

HANG = 15.0  # seconds an interrupted run may take to end (generous: 2 loaded cores)
READY = 300.0  # seconds a run may take to write its first record (a loaded machine)


@dataclasses.dataclass
class Run:
    code: int
    out: str
    err: str
    interrupted: bool   # the signal was sent (the run had not ended before)
    seconds: float      # from the signal to the end


def _first_record(p: subprocess.Popen, path: Path) -> None:
    """Wait until ``path`` holds a whole line (the run's first record) or the run ends:
    the event after which an interrupt has something to keep, however slow the start-up
    on a loaded machine."""
    deadline = time.monotonic() + READY
    while p.poll() is None and time.monotonic() < deadline:
        try:
            if b"\n" in path.read_bytes():
                return
        except FileNotFoundError:
            pass
        time.sleep(0.01)
    if p.poll() is None:
        pytest.fail(f"{path.name}: no record after {READY} s")


def run(args: list[str], cwd: Path, delay: float | None = None,
        ready: str | None = None) -> Run:
    """Run ``gyges ARGS`` in its own process group; after ``delay`` seconds send SIGINT to
    the group (as a terminal's Ctrl-C does) unless it has ended. With ``ready`` (a file in
    ``cwd``) the delay counts from the first record written to that file."""
    p = subprocess.Popen([GYGES, *args], cwd=cwd, start_new_session=True, text=True,
                         stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    if ready is not None and delay is not None:
        _first_record(p, cwd / ready)
    try:
        out, err = p.communicate(timeout=delay)
        return Run(p.returncode, out, err, False, 0.0)
    except subprocess.TimeoutExpired:
        pass
    t0 = time.monotonic()
    os.killpg(p.pid, signal.SIGINT)
    try:
        out, err = p.communicate(timeout=HANG)
    except subprocess.TimeoutExpired:
        os.killpg(p.pid, signal.SIGKILL)
        p.communicate()
        pytest.fail(f"gyges {' '.join(args)}: still running {HANG} s after Ctrl-C at "
                    f"{delay} s (hung)")
    return Run(p.returncode, out, err, True, time.monotonic() - t0)


def assert_interrupted(r: Run, args: list[str]) -> None:
    """Exit 130 with one interrupted message (or, if the run finished before the signal
    was handled, a normal exit 0); never a traceback, never a death by signal."""
    what = f"gyges {' '.join(args)}: exit {r.code}, stderr {r.err[-600:]!r}"
    assert "Traceback" not in r.err, what
    assert "Aborted!" not in r.err, what
    assert r.code in (0, 130), what
    messages = [ln for ln in r.err.splitlines() if "interrupted" in ln]
    if r.code == 130:
        assert len(messages) == 1 and messages[0].startswith("gyges: interrupted"), what
    else:
        assert messages == [], what


def records(path: Path, drop: tuple[str, ...] = ()) -> list[dict]:
    if not path.exists():
        return []
    out = []
    for line in path.read_text(encoding="utf-8").splitlines():
        rec = json.loads(line)
        for k in drop:
            rec.pop(k, None)
        out.append(rec)
    return out
