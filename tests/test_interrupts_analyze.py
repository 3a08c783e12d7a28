"""Ctrl-C during ``gyges setups analyze``: every record kept is right and there once, and a
rerun completes the table. The harness and what every interrupted run must do:
interrupts.py."""

from __future__ import annotations

from pathlib import Path

import pytest
from interrupts import assert_interrupted, run

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
    r = run(args, tmp, delay, ready="a.jsonl")
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


@pytest.mark.parametrize(("jobs", "delay"), [(2, 0.2)])
def test_analyze_interrupted(analyze_reference, tmp_path, jobs, delay):
    check_analyze(analyze_reference, tmp_path, jobs, delay)


@pytest.mark.slow
@pytest.mark.parametrize("jobs", [1, 2])
@pytest.mark.parametrize("try_", range(10))
def test_analyze_interrupted_many(analyze_reference, tmp_path, jobs, try_):
    check_analyze(analyze_reference, tmp_path, jobs, 0.05 + 0.2 * try_)
