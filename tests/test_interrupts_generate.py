"""Ctrl-C during ``gyges generate`` (one and two jobs): no candidate's verdict changes, the
catalogue kept is a prefix of the uninterrupted run's, and a rerun resumes to its bytes.
The harness and what every interrupted run must do: interrupts.py."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest
from interrupts import assert_interrupted, records, run

from gyges.puzzles.catalogue import load_catalogue

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
    return {r["index"]: r for r in records(path, drop=("seconds",))}


def _judged_here(index: int) -> dict:
    """A candidate the uninterrupted run never judged (it stopped once its puzzles were
    settled; a run with two workers may have judged more): judged here, uninterrupted."""
    from gyges.game.rules import PRESETS
    from gyges.puzzles.generate.candidates import evaluate
    from gyges.puzzles.generate.params import Params

    rec = json.loads(json.dumps(evaluate(index, Params(2, PRESETS["pbmserv"], seed=5)).to_json()))
    rec.pop("seconds")
    return rec


def check_generate(ref: Path, tmp: Path, jobs: int, delay: float) -> None:
    args = [*GENERATE, "--jobs", str(jobs)]
    shutil.copy(ref / "none.yaml", tmp / "none.yaml")
    r = run(args, tmp, delay, ready="g.yaml.jsonl")
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


@pytest.mark.parametrize(("jobs", "delay"), [(1, 0.5), (2, 0.5)])
def test_generate_interrupted(generate_reference, tmp_path, jobs, delay):
    check_generate(generate_reference, tmp_path, jobs, delay)


@pytest.mark.slow
@pytest.mark.parametrize("jobs", [1, 2])
@pytest.mark.parametrize("try_", range(10))
def test_generate_interrupted_many(generate_reference, tmp_path, jobs, try_):
    check_generate(generate_reference, tmp_path, jobs, 0.1 + 0.3 * try_)
