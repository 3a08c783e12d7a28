"""The batch run of setup pairs (gyges.setups.batch): the per-first-move split of a pair
gives what the unsplit solver gives, and a split run writes the same records."""

from __future__ import annotations

import random

from gyges.game.rules import PRESETS
from gyges.search.prover import solve
from gyges.setups.analysis import analyse_pair
from gyges.setups.batch import combine_verdicts, first_move_verdicts, first_moves, run
from gyges.setups.pairs import select_pairs
from gyges.setups.results import read_results
from tests.positions import sparse_position

RULES = PRESETS["pbmserv"]


def test_split_verdict_equals_solve_on_random_positions():
    rng = random.Random(12)
    seen = set()
    checked = 0
    while checked < 30:
        p = sparse_position(rng, 3, 6)
        n = first_moves(p, RULES)
        if not n:
            continue  # the side to move is blocked: such a pair is not split
        checked += 1
        for depth in (1, 2, 3):
            found = {}
            for g in range(0, n, 7):  # groups, as the tasks get them
                found.update(first_move_verdicts(p, RULES, depth, range(g, min(n, g + 7))))
            got = combine_verdicts(p, RULES, depth, found)
            sol = solve(p, RULES, depth, tree=False)
            assert got == (sol.result, sol.moves, sorted(str(k) for k in sol.keys)), (p, depth)
            seen.add(got[0])
    assert seen == {"win", "loss", "none"}  # every branch of the combination was exercised


def test_split_run_writes_the_same_records(tmp_path):
    pairs = select_pairs("231123,112233", "321123,213132")
    a, b = tmp_path / "a.jsonl", tmp_path / "b.jsonl"
    run(pairs, RULES, 2, str(a), jobs=1, scheduler="", split=False)
    s = run(pairs, RULES, 2, str(b), jobs=2, scheduler="", split=True)
    assert s["done"] == len(pairs)
    assert read_results(str(a)) == read_results(str(b))
    assert read_results(str(a))[1][0] == analyse_pair("112233", "213132", RULES, 2)


def test_interrupted_split_run_keeps_its_first_moves(tmp_path):
    pairs = select_pairs("231123", "321123,213132,112233")
    full, out = tmp_path / "full.jsonl", tmp_path / "o.jsonl"
    run(pairs, RULES, 2, str(full), jobs=1, scheduler="")

    def stop(record):
        raise KeyboardInterrupt

    s = run(pairs, RULES, 2, str(out), jobs=1, scheduler="", split=True, group=50,
            on_result=stop)
    assert s["interrupted"] and s["done"] == 1
    parts = (tmp_path / "o.jsonl.parts").read_text().splitlines()
    assert len(parts) >= 3  # every group of the block was kept
    s = run(pairs, RULES, 2, str(out), jobs=1, scheduler="", split=True, group=50)
    assert s["done"] == 2 and s["skipped"] == 1
    assert read_results(str(out)) == read_results(str(full))
    assert not (tmp_path / "o.jsonl.parts").exists()


def test_resume_refuses_other_parameters_with_the_facts(tmp_path):
    from gyges.setups.results import ParametersError, params

    out = tmp_path / "p.jsonl"
    pairs = select_pairs("231123", "321123")
    run(pairs, RULES, 1, str(out), jobs=1, scheduler="")
    before = out.read_bytes()
    try:
        run(pairs, RULES, 2, str(out), jobs=1, scheduler="")
    except ParametersError as e:
        assert e.path == str(out) and e.found == params(RULES, 1) and e.wanted == params(RULES, 2)
        assert "--" not in str(e) and "depth 1" in str(e)
    else:
        raise AssertionError("a file of depth 1 resumed at depth 2")
    assert out.read_bytes() == before
