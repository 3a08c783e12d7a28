"""The validation block (``setups validation-pairs``, ``setups validate``): its pairs drawn
from the evaluations as documented, and its verdict following the games."""

from __future__ import annotations

import json
import random
import re

from click.testing import CliRunner

from gyges.game.position import mirror_setup
from gyges.setups.evaluation.summary import EvaluationTable
from gyges.setups.pairs import all_pairs, canonical_pairs
from gyges.setups.validation import validation_pairs, validation_report
from gyges_cli.main import cli


def _table(seed: int = 2) -> tuple[EvaluationTable, dict[str, float]]:
    """Evaluations of every pair from a strength per setup (the same for its mirror)."""
    rng = random.Random(seed)
    strength: dict[str, float] = {}
    for s in sorted({s for s, _ in all_pairs()}):
        strength[s] = strength.get(mirror_setup(s), rng.uniform(-0.2, 0.2))
    records = [{"south": s, "north": n, "south_win": 0.5 + (strength[s] - strength[n]) / 2}
               for s, n in canonical_pairs(all_pairs())]
    return EvaluationTable.of(records), strength


def test_the_pairs_are_the_best_and_the_worst_against_the_middle():
    table, strength = _table()
    pairs = validation_pairs(table, 8)
    folded = sorted(s for s in strength if s <= mirror_setup(s))
    ranked = sorted(folded, key=lambda s: (-strength[s], s))
    best, worst = set(ranked[:8]), set(ranked[-8:])
    souths = {s for s, _ in pairs}
    assert best | worst <= souths                     # South's block
    south_block = [(s, n) for s, n in pairs if s in best | worst]
    assert len(south_block) == 16 * 8 and len({n for _, n in south_block}) == 8
    # North's best is South's worst here (the same strengths), so the blocks share setups
    assert len(pairs) <= 2 * 16 * 8 and pairs == sorted(set(pairs))


def _games(table: EvaluationTable, pairs, truth: float, n: int = 4000) -> list[dict]:
    """Games of the block where a setup's win probability is ``truth`` times the
    evaluations' lean (1: as they say, 0: coin flips, -1: the reverse)."""
    rng = random.Random(7)
    out = []
    for k in range(n):
        s, o = pairs[k % len(pairs)]
        p = 0.5 + truth * (table.south_win[s, o] - 0.5)
        out.append({"game": k, "round": 0, "south": s, "north": o, "moves": [],
                    "reason": "landing", "result": "south" if rng.random() < p else "north"})
    return out


def test_the_verdict_follows_the_games():
    table, _ = _table()
    pairs = validation_pairs(table, 8)
    for truth, words in ((1.0, "the games confirm the evaluations' best and worst"),
                         (-1.0, "the games contradict the evaluations' best and worst")):
        text = " ".join(validation_report(table, _games(table, pairs, truth)).split())
        assert text.count(words) == 2, (truth, text)
    # coin flips: each side's verdict is what its interval says (it may exclude 0 by chance)
    text = " ".join(validation_report(table, _games(table, pairs, 0.0)).split())
    found = re.findall(r"95% interval ([-+][0-9.]+) to ([-+][0-9.]+)\), where the "
                       r"evaluations predict [-+][0-9.]+; the games (\w+)", text)
    assert len(found) == 2
    for low, high, verb in found:          # (an end printed as 0.0 may be either side)
        allowed = {"confirm"} if float(low) > 0 else {"contradict"} if float(high) < 0 \
            else {"cannot"} | ({"confirm"} if float(low) == 0 else set()) \
            | ({"contradict"} if float(high) == 0 else set())
        assert verb in allowed, (low, high, verb)


def test_a_gap_smaller_than_predicted_is_said():
    """Games with a quarter of the evaluations' lean: the gap is smaller than they predict
    (its interval leaves their figure out); games with all of it: nothing is said."""
    table, _ = _table()
    pairs = validation_pairs(table, 8)
    weak = " ".join(validation_report(table, _games(table, pairs, 0.25, 8000)).split())
    found = re.findall(r"95% interval ([-+][0-9.]+) to ([-+][0-9.]+)\), where the "
                       r"evaluations predict ([-+][0-9.]+);", weak)
    assert len(found) == 2 and all(float(high) < float(expect) for _, high, expect in found)
    assert weak.count("the gap is smaller than the evaluations predict") == 2, weak
    full = " ".join(validation_report(table, _games(table, pairs, 1.0, 8000)).split())
    assert "than the evaluations predict" not in full, full


def test_the_commands(tmp_path):
    table, _ = _table()
    evaluations = tmp_path / "e.jsonl"
    params = {"engine": {"code": "c", "weights": "w"}, "format": 1, "nodes": 1000,
              "prove": 3, "rules": "pbmserv"}
    evaluations.write_text("".join(json.dumps(
        {"south": s, "north": n, "score": {"eval": 0}, "south_win": table.south_win[s, n],
         "best": None, "depth": 1, "searched": 1, **params}) + "\n"
        for s, n in canonical_pairs(all_pairs())))
    r = CliRunner().invoke(cli, ["setups", "validation-pairs", "--evaluations",
                                 str(evaluations), "--count", "2"])
    assert r.exit_code == 0, r.output
    assert [tuple(line.split()) for line in r.output.splitlines()] == validation_pairs(
        EvaluationTable.of(json.loads(x) for x in evaluations.read_text().splitlines()), 2)
    games = tmp_path / "g.jsonl"
    base = {"canonical": False, "engine": params["engine"], "format": 1, "limit":
            {"nodes": 1000}, "max_plies": 200, "prove": 2, "rules": "pbmserv"}
    games.write_text("".join(json.dumps({**g, **base}) + "\n" for g in _games(
        table, validation_pairs(table, 2), 1.0, 200)))
    r = CliRunner().invoke(cli, ["setups", "validate", str(games), "--evaluations",
                                 str(evaluations), "--count", "2"])
    assert r.exit_code == 0, r.output
    assert r.output.startswith("The validation block: each side's 2 best and 2 worst")
    r = CliRunner().invoke(cli, ["setups", "validate", str(evaluations), "--evaluations",
                                 str(evaluations)])
    assert r.exit_code == 2 and "is not a 'setups rank' games file" in r.output
