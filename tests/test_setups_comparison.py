"""``setups compare``: two evaluation files of the same pairs set side by side, the
verdict on each side following the numbers (synthetic tables of known agreement)."""

from __future__ import annotations

import json
import random

import pytest
from click.testing import CliRunner

from gyges.game.position import mirror_setup
from gyges.setups.evaluation.comparison import compare_evaluations, comparison_report
from gyges.setups.evaluation.summary import EvaluationTable
from gyges.setups.pairs import all_pairs, canonical_pairs
from gyges_cli.main import cli


def _strengths(seed: int) -> dict[str, float]:
    """A strength per setup, the same for its mirror."""
    rng = random.Random(seed)
    out: dict[str, float] = {}
    for s in sorted({s for s, _ in all_pairs()}):
        out[s] = out.get(mirror_setup(s), rng.uniform(-0.2, 0.2))
    return out


def _records(strength: dict[str, float], noise: float = 0.0, seed: int = 0) -> list[dict]:
    rng = random.Random(seed)
    return [{"south": s, "north": n,
             "south_win": 0.5 + (strength[s] - strength[n]) / 2 + rng.gauss(0, noise)}
            for s, n in canonical_pairs(all_pairs())]


def _table(records: list[dict]) -> EvaluationTable:
    return EvaluationTable.of(records)


def test_a_file_against_itself_agrees_everywhere():
    t = _table(_records(_strengths(1)))
    c = compare_evaluations(t, t, permutations=200)
    assert c.pairs == len(canonical_pairs(all_pairs()))
    assert c.pair_r == pytest.approx(1.0) and c.south_mean[0] == c.south_mean[1]
    for side in c.sides:
        assert side.setups == 48 and side.r == pytest.approx(1.0)
        assert side.p < 0.01 and side.top_shared == side.top == 5
        assert side.verdict == "agree"


def test_independent_strengths_cannot_be_told_and_opposite_ones_disagree():
    a = _table(_records(_strengths(1)))
    unrelated = compare_evaluations(a, _table(_records(_strengths(2))), permutations=500)
    for side in unrelated.sides:
        assert abs(side.r) < 0.35 and side.verdict == "cannot tell", side
    opposite = _table(_records({s: -v for s, v in _strengths(1).items()}))
    flipped = compare_evaluations(a, opposite, permutations=500)
    for side in flipped.sides:
        assert side.r == pytest.approx(-1.0) and side.verdict == "disagree"
    report = comparison_report(("a", {"nodes": 1, "prove": 3, "engine": "x"}),
                               ("b", {"nodes": 2, "prove": 3, "engine": "y"}), unrelated)
    assert report.count("the data cannot tell whether the two searches rank") == 2
    assert "opposite orders" not in report


def test_noise_on_the_same_strengths_still_agrees_and_the_averages_use_shared_pairs():
    strength = _strengths(3)
    full = _table(_records(strength))
    # the second file holds only every other pair, and noisy values
    half = _table(_records(strength, noise=0.05, seed=4)[::2])
    c = compare_evaluations(full, half, permutations=500)
    assert c.pairs == len(canonical_pairs(all_pairs())[::2])
    assert 0.5 < c.pair_r < 1.0
    assert all(s.verdict == "agree" and s.r > 0.8 for s in c.sides)


def test_too_few_shared_pairs_are_refused():
    a = _table(_records(_strengths(1))[:2])
    with pytest.raises(ValueError, match="share 2 pairs"):
        compare_evaluations(a, a)


def test_the_command(tmp_path):
    params = {"engine": {"code": "c", "weights": "w"}, "format": 1, "nodes": 1000,
              "prove": 3, "rules": "pbmserv"}
    files = []
    for name, seed in (("a", 1), ("b", 2)):
        path = tmp_path / f"{name}.jsonl"
        path.write_text("".join(json.dumps({**r, "score": {"eval": 0}, "best": None,
                                            "depth": 1, "searched": 1, **params}) + "\n"
                                for r in _records(_strengths(seed))))
        files.append(str(path))
    r = CliRunner().invoke(cli, ["setups", "compare", *files])
    assert r.exit_code == 0, r.output
    assert r.output.startswith(f"A: {files[0]}: 1,000 nodes a pair")
    expected = comparison_report(
        (files[0], {**params, "engine": "engine c, weights w (gyges unknown)"}),
        (files[1], {**params, "engine": "engine c, weights w (gyges unknown)"}),
        compare_evaluations(_table(_records(_strengths(1))), _table(_records(_strengths(2)))))
    assert r.output.split("\n", 2)[2] == expected.split("\n", 2)[2]
    other = tmp_path / "other.jsonl"
    other.write_text((tmp_path / "b.jsonl").read_text().replace('"pbmserv"', '"helios"'))
    r = CliRunner().invoke(cli, ["setups", "compare", files[0], str(other)])
    assert r.exit_code == 2 and "made under other rules" in r.output
