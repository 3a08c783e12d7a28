"""Ctrl-C as a terminal sends it: SIGINT to the whole process group of the installed
``gyges`` command, at several moments (issue 15).

Every interrupted run must end within a few seconds (a hang fails the test), with exit
status 130 and one ``gyges: interrupted`` line and no traceback; what it wrote must be
valid and a prefix of what an uninterrupted run writes, no record in it may differ from
the uninterrupted run's (an interrupt never changes a result), and the same command run
again must resume to the same output as the uninterrupted run.

The short versions run in ``make test``; the ``slow`` ones try 20 moments per command
(10 with one job, 10 with two).
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

from gyges.puzzles.catalogue import load_catalogue

GYGES = str(Path(sys.executable).with_name("gyges"))
if not os.path.exists(GYGES):  # pragma: no cover - an unusual install
    GYGES = shutil.which("gyges") or GYGES

HANG = 15.0  # seconds an interrupted run may take to end (generous: 2 loaded cores)
START = "321123/....../....../....../....../231123 S"


@dataclasses.dataclass
class Run:
    code: int
    out: str
    err: str
    interrupted: bool   # the signal was sent (the run had not ended before)
    seconds: float      # from the signal to the end


def run(args: list[str], cwd: Path, delay: float | None = None) -> Run:
    """Run ``gyges ARGS`` in its own process group; after ``delay`` seconds send SIGINT to
    the group (as a terminal's Ctrl-C does) unless it has ended."""
    p = subprocess.Popen([GYGES, *args], cwd=cwd, start_new_session=True, text=True,
                         stdout=subprocess.PIPE, stderr=subprocess.PIPE)
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


def _records(path: Path, drop: tuple[str, ...] = ()) -> list[dict]:
    if not path.exists():
        return []
    out = []
    for line in path.read_text(encoding="utf-8").splitlines():
        rec = json.loads(line)
        for k in drop:
            rec.pop(k, None)
        out.append(rec)
    return out


# -- generate --------------------------------------------------------------------------------

GENERATE = ["generate", "--stipulation", "win in 2", "--count", "1", "--seed", "5",
            "--quiet", "--against", "none.yaml", "--out", "g.yaml"]


@pytest.fixture(scope="module")
def generate_reference(tmp_path_factory) -> Path:
    d = tmp_path_factory.mktemp("generate-ref")
    (d / "none.yaml").write_text("schema: 1\npuzzles: []\n", encoding="utf-8")
    r = run([*GENERATE, "--jobs", "1"], d)
    assert r.code == 0, r.err
    return d


def _by_index(path: Path) -> dict[int, dict]:
    return {r["index"]: r for r in _records(path, drop=("seconds",))}


def _judged_here(index: int) -> dict:
    """A candidate the uninterrupted run never judged (it stopped once its puzzles were
    settled; a run with two workers may have judged more): judged here, uninterrupted."""
    from gyges.game.rules import PRESETS
    from gyges.puzzles.judging import evaluate
    from gyges.puzzles.params import Params

    rec = json.loads(json.dumps(evaluate(index, Params(2, PRESETS["pbmserv"], seed=5))))
    rec.pop("seconds")
    return rec


def check_generate(ref: Path, tmp: Path, jobs: int, delay: float) -> None:
    args = [*GENERATE, "--jobs", str(jobs)]
    shutil.copy(ref / "none.yaml", tmp / "none.yaml")
    r = run(args, tmp, delay)
    assert_interrupted(r, args)
    want = _by_index(ref / "g.yaml.jsonl")
    got = _by_index(tmp / "g.yaml.jsonl")
    for i, rec in got.items():   # an interrupt never changes a candidate's verdict
        expected = want[i] if i in want else _judged_here(i)
        assert rec == expected, f"candidate {i} differs after Ctrl-C at {delay} s"
    if (tmp / "g.yaml").exists():  # valid, and a prefix of the uninterrupted run's
        ids = [p.id for p in load_catalogue(tmp / "g.yaml").puzzles]
        ref_ids = [p.id for p in load_catalogue(ref / "g.yaml").puzzles]
        assert ids == ref_ids[: len(ids)]
    again = run(args, tmp)
    assert again.code == 0, again.err
    assert (tmp / "g.yaml").read_bytes() == (ref / "g.yaml").read_bytes()
    assert _by_index(tmp / "g.yaml.jsonl").keys() >= want.keys()
    leftovers = [p.name for p in tmp.iterdir() if p.name.endswith(".tmp")]
    assert leftovers == []


@pytest.mark.parametrize(("jobs", "delay"), [(1, 2.5), (2, 3.5)])
def test_generate_interrupted(generate_reference, tmp_path, jobs, delay):
    check_generate(generate_reference, tmp_path, jobs, delay)


@pytest.mark.slow
@pytest.mark.parametrize("jobs", [1, 2])
@pytest.mark.parametrize("try_", range(10))
def test_generate_interrupted_many(generate_reference, tmp_path, jobs, try_):
    check_generate(generate_reference, tmp_path, jobs, 0.5 + 0.8 * try_)


# -- setups analyze ----------------------------------------------------------------------------

ANALYZE = ["setups", "analyze", "--south", "231123,321123", "--north", "all", "--depth", "2",
           "--quiet", "--out", "a.jsonl"]


@pytest.fixture(scope="module")
def analyze_reference(tmp_path_factory) -> list[str]:
    d = tmp_path_factory.mktemp("analyze-ref")
    r = run([*ANALYZE, "--jobs", "2"], d)
    assert r.code == 0, r.err
    return sorted((d / "a.jsonl").read_text(encoding="utf-8").splitlines())


def check_analyze(ref: list[str], tmp: Path, jobs: int, delay: float) -> None:
    args = [*ANALYZE, "--jobs", str(jobs)]
    r = run(args, tmp, delay)
    assert_interrupted(r, args)
    out = tmp / "a.jsonl"
    if out.exists():
        text = out.read_text(encoding="utf-8")
        lines = text.splitlines()
        assert set(lines) <= set(ref)           # every kept record is right ...
        assert len(set(lines)) == len(lines)    # ... and there once
    again = run(args, tmp)
    assert again.code == 0, again.err
    assert sorted(out.read_text(encoding="utf-8").splitlines()) == ref


@pytest.mark.parametrize(("jobs", "delay"), [(2, 1.5)])
def test_analyze_interrupted(analyze_reference, tmp_path, jobs, delay):
    check_analyze(analyze_reference, tmp_path, jobs, delay)


@pytest.mark.slow
@pytest.mark.parametrize("jobs", [1, 2])
@pytest.mark.parametrize("try_", range(10))
def test_analyze_interrupted_many(analyze_reference, tmp_path, jobs, try_):
    check_analyze(analyze_reference, tmp_path, jobs, 0.4 + 0.5 * try_)


# -- solve FILE ---------------------------------------------------------------------------------

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
    r = run(args, tmp, delay)
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


@pytest.mark.parametrize(("jobs", "delay"), [(1, 1.5), (2, 1.5)])
def test_solve_list_interrupted(solve_list_reference, tmp_path, jobs, delay):
    check_solve_list(solve_list_reference, tmp_path, jobs, delay)


@pytest.mark.slow
@pytest.mark.parametrize("jobs", [1, 2])
@pytest.mark.parametrize("try_", range(10))
def test_solve_list_interrupted_many(solve_list_reference, tmp_path, jobs, try_):
    check_solve_list(solve_list_reference, tmp_path, jobs, 0.4 + 0.4 * try_)


# -- single long computations: perft, solve, setups search -------------------------------------

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
    if name == "solve":   # it says what was proven before the interrupt (issue 14.8)
        assert "(proven)" in r.err or "nothing proven yet" in r.err, r.err


@pytest.mark.slow
@pytest.mark.parametrize("name", sorted(LONG))
@pytest.mark.parametrize("try_", range(10))
def test_long_computation_interrupted_many(tmp_path, name, try_):
    args = LONG[name]
    r = run(args, tmp_path, 0.3 + 0.6 * try_)
    assert_interrupted(r, args)
    assert r.code == 130
