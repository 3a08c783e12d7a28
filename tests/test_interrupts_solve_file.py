"""Ctrl-C during ``gyges solve FILE --out``: every line kept is whole, right and there once,
the message says the results are kept, and a rerun resumes to the uninterrupted run's file
and table. The harness and what every interrupted run must do: interrupts.py."""

from __future__ import annotations

import os
import shutil
import signal
import subprocess
import time
from pathlib import Path

import pytest
from interrupts import GYGES, assert_interrupted, run

SOLVE_LIST = ["solve", "positions.txt", "--out", "s.jsonl", "--quiet"]


def _position_list() -> str:
    """30 start positions, bound 3: a few tenths of a second each."""
    from gyges.game.position import Position
    from gyges.setups import select_pairs

    pairs = select_pairs()[7::270]
    return "".join(f"{Position.setup(s, n)} max-moves=3\n" for s, n in pairs)


@pytest.fixture(scope="module")
def solve_list_reference(tmp_path_factory) -> Path:
    d = tmp_path_factory.mktemp("solve-list-ref")
    (d / "positions.txt").write_text(_position_list(), encoding="utf-8")
    r = run([*SOLVE_LIST, "--jobs", "1"], d)
    assert r.code == 0, r.err
    return d


def check_solve_list(ref: Path, tmp: Path, jobs: int, delay: float) -> None:
    args = [*SOLVE_LIST, "--jobs", str(jobs)]
    shutil.copy(ref / "positions.txt", tmp / "positions.txt")
    want = (ref / "s.jsonl").read_text(encoding="utf-8")
    r = run(args, tmp, delay, ready="s.jsonl")
    assert_interrupted(r, args)
    out = tmp / "s.jsonl"
    kept = out.read_text(encoding="utf-8") if out.exists() else ""
    if r.code == 130:
        assert "new results kept in s.jsonl; rerun the same command to resume" in r.err
    assert kept.endswith("\n") or kept == ""           # every line whole ...
    assert set(kept.splitlines()) <= set(want.splitlines())   # ... and right ...
    assert len(set(kept.splitlines())) == len(kept.splitlines())   # ... and there once
    again = run(args, tmp)
    assert again.code == 0, again.err
    got = out.read_text(encoding="utf-8")
    if jobs == 1:    # one worker: the positions in list order, whatever the interruption
        assert got == want
    assert sorted(got.splitlines()) == sorted(want.splitlines())
    assert again.out == run([*SOLVE_LIST, "--jobs", "1"], ref).out   # the same table


@pytest.mark.parametrize(("jobs", "delay"), [(1, 0.2), (2, 0.2)])
def test_solve_list_interrupted(solve_list_reference, tmp_path, jobs, delay):
    check_solve_list(solve_list_reference, tmp_path, jobs, delay)


@pytest.mark.slow
@pytest.mark.parametrize("jobs", [1, 2])
@pytest.mark.parametrize("try_", range(10))
def test_solve_list_interrupted_many(solve_list_reference, tmp_path, jobs, try_):
    check_solve_list(solve_list_reference, tmp_path, jobs, 0.05 + 0.15 * try_)


@pytest.mark.slow
def test_ctrl_c_under_a_local_cluster_ends_within_seconds(solve_list_reference, tmp_path):
    """Under ``--scheduler local`` (a Dask LocalCluster started by the command), Ctrl-C
    once results are coming ends the command at once: its workers are killed rather than
    waited for (about a second on two cores; the bound allows a loaded machine)."""
    shutil.copy(solve_list_reference / "positions.txt", tmp_path / "positions.txt")
    out = tmp_path / "s.jsonl"
    p = subprocess.Popen([GYGES, *SOLVE_LIST, "--scheduler", "local", "--jobs", "2"],
                         cwd=tmp_path, start_new_session=True, text=True,
                         stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    deadline = time.monotonic() + 120
    while not (out.exists() and out.read_text(encoding="utf-8").count("\n") >= 1):
        assert p.poll() is None, p.communicate()
        assert time.monotonic() < deadline, "no result from the local cluster in 120 s"
        time.sleep(0.05)
    os.killpg(p.pid, signal.SIGINT)
    _, err = p.communicate(timeout=60)                 # a hang fails here
    assert p.returncode == 130, err
    assert "new results kept in s.jsonl" in err
    kept = out.read_text(encoding="utf-8").splitlines()
    want = (solve_list_reference / "s.jsonl").read_text(encoding="utf-8").splitlines()
    assert len(kept) < len(want)             # ended, not after the remaining work
