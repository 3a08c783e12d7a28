"""The batch run of setup pairs (gyges.setups.proven.batch): one resumable run of gyges.parallel.
One and two workers write the same records, a run resumes after an interruption, a file
of other parameters is refused untouched, the per-first-move split gives what the unsplit
solver gives, and a run of canonical pairs writes the records of the pairs it stands for."""

from __future__ import annotations

import random

import pytest

from gyges.game.rules import PRESETS
from gyges.parallel import ParametersError, ResultsFileError, dumps
from gyges.search import solve
from gyges.search.policy import DFPN_FROM
from gyges.setups.pairs import canonical_pair, mirror_setup, select_pairs
from gyges.setups.proven.analysis import analyse_pair
from gyges.setups.proven.batch import (
    combine_verdicts,
    first_move_verdicts,
    first_moves,
    run_analysis,
)
from gyges.setups.proven.records import AnalysisParams, read_results
from tests.positions import sparse_position

RULES = PRESETS["pbmserv"]
PAIRS = select_pairs("231123,112332,231132", "321123,132312")


def records_of(event_records: list, event) -> None:
    if event.record is not None:
        event_records.append(event.record)


def test_jobs_1_and_2_give_the_same_results(tmp_path):
    out1, out2 = tmp_path / "a.jsonl", tmp_path / "b.jsonl"
    s1 = run_analysis(PAIRS, RULES, 1, str(out1), jobs=1)
    s2 = run_analysis(PAIRS, RULES, 1, str(out2), jobs=2, log=str(tmp_path / "b.log"), chunksize=1)
    assert s1.done == s2.done == len(PAIRS) and not s1.interrupted and s1.complete
    p1, r1 = read_results(str(out1))
    p2, r2 = read_results(str(out2))
    assert p1 == p2 == AnalysisParams.of(RULES, 1) and r1 == r2 and len(r1) == len(PAIRS)
    assert sorted(out1.read_text().splitlines()) == sorted(out2.read_text().splitlines())
    # one job: the records in the order of the pairs, each as analyse_pair makes it
    assert out1.read_text() == "".join(dumps(analyse_pair(s, n, RULES, 1).to_json()) + "\n"
                                       for s, n in PAIRS)
    log = (tmp_path / "b.log").read_text()
    # the workers' lines reach the one log file
    assert sum("pid " in line for line in log.splitlines()) == len(PAIRS)


def test_resume_after_interruption(tmp_path):
    out = tmp_path / "r.jsonl"
    full = tmp_path / "full.jsonl"
    run_analysis(PAIRS, RULES, 1, str(full), jobs=1)
    lines = full.read_text().splitlines(keepends=True)
    # an interrupted run: two complete lines and half of a third
    out.write_text(lines[0] + lines[1] + lines[2][: len(lines[2]) // 2])
    seen: list = []
    s = run_analysis(PAIRS, RULES, 1, str(out), jobs=2, watch=lambda e: records_of(seen, e))
    assert s.skipped == 2 and s.done == len(PAIRS) - 2 == len(seen) and s.resumed == 2
    assert read_results(str(out)) == read_results(str(full))
    # nothing left to do on a third run
    assert run_analysis(PAIRS, RULES, 1, str(out), jobs=1).done == 0


def test_resume_refuses_other_parameters(tmp_path):
    out = tmp_path / "p.jsonl"
    run_analysis(PAIRS[:1], RULES, 1, str(out), jobs=1)
    before = out.read_bytes()
    with pytest.raises(ParametersError, match=r"p\.jsonl:1: .*depth 1"):
        run_analysis(PAIRS, PRESETS["dorbec"], 1, str(out), jobs=1)
    assert out.read_bytes() == before


def test_resume_refuses_other_parameters_with_the_facts(tmp_path):
    out = tmp_path / "p.jsonl"
    pairs = select_pairs("231123", "321123")
    run_analysis(pairs, RULES, 1, str(out), jobs=1, scheduler="")
    before = out.read_bytes()
    with pytest.raises(ParametersError) as e:
        run_analysis(pairs, RULES, 2, str(out), jobs=1, scheduler="")
    assert e.value.path == str(out) and e.value.line == 1
    assert e.value.found == str(AnalysisParams.of(RULES, 1))
    assert e.value.wanted == str(AnalysisParams.of(RULES, 2))
    assert "--" not in str(e.value) and "depth 1" in str(e.value)
    assert out.read_bytes() == before


def test_interrupt_keeps_written_lines(tmp_path):
    out = tmp_path / "i.jsonl"
    seen: list = []

    def stop(event):
        records_of(seen, event)
        if len(seen) == 3:
            raise KeyboardInterrupt

    s = run_analysis(PAIRS, RULES, 1, str(out), jobs=2, watch=stop)
    assert s.interrupted and not s.complete
    _, recs = read_results(str(out))
    assert len(recs) == 3
    s = run_analysis(PAIRS, RULES, 1, str(out), jobs=1)
    assert s.skipped == 3 and s.done == len(PAIRS) - 3


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


def test_split_verdict_equals_solve_where_the_split_uses_dfpn():
    """From DFPN_FROM moves on the first moves' questions go to df-pn: the same verdicts."""
    rng = random.Random(5)
    seen = set()
    checked = 0
    while checked < 8 or seen != {"win", "loss", "none"} and checked < 80:
        p = sparse_position(rng, 3, 6)
        n = first_moves(p, RULES)
        if not n:
            continue
        checked += 1
        found = first_move_verdicts(p, RULES, DFPN_FROM, range(n))
        got = combine_verdicts(p, RULES, DFPN_FROM, found)
        sol = solve(p, RULES, DFPN_FROM, tree=False)
        assert got == (sol.result, sol.moves, sorted(str(k) for k in sol.keys)), p
        seen.add(got[0])
    assert seen == {"win", "loss", "none"}  # every branch of the combination was exercised


def test_split_run_writes_the_same_records(tmp_path):
    pairs = select_pairs("231123,112233", "321123,213132")
    a, b, c = tmp_path / "a.jsonl", tmp_path / "b.jsonl", tmp_path / "c.jsonl"
    run_analysis(pairs, RULES, 2, str(a), jobs=1, scheduler="", split=False)
    s = run_analysis(pairs, RULES, 2, str(b), jobs=2, scheduler="", split=True)
    assert s.done == len(pairs) and s.complete
    assert read_results(str(a)) == read_results(str(b))
    assert read_results(str(a))[1][0] == analyse_pair("112233", "213132", RULES, 2)
    # one job: the very same file, line for line
    run_analysis(pairs, RULES, 2, str(c), jobs=1, scheduler="", split=True)
    assert c.read_bytes() == a.read_bytes()


def test_interrupted_split_run_keeps_its_first_moves(tmp_path):
    pairs = select_pairs("231123", "321123,213132,112233")
    full, out = tmp_path / "full.jsonl", tmp_path / "o.jsonl"
    run_analysis(pairs, RULES, 2, str(full), jobs=1, scheduler="")

    def stop(event):
        if event.record is not None:
            raise KeyboardInterrupt

    s = run_analysis(pairs, RULES, 2, str(out), jobs=1, scheduler="", split=True, group=50,
                     watch=stop)
    assert s.interrupted and s.done == 1
    parts = (tmp_path / "o.jsonl.parts").read_text().splitlines()
    assert len(parts) >= 3  # every group of the block was kept
    s = run_analysis(pairs, RULES, 2, str(out), jobs=1, scheduler="", split=True, group=50)
    assert s.done == 2 and s.skipped == 1
    assert read_results(str(out)) == read_results(str(full))
    assert not (tmp_path / "o.jsonl.parts").exists()


def test_a_parts_file_of_other_parameters_is_refused(tmp_path):
    pairs = select_pairs("231123", "321123,213132")
    out = tmp_path / "o.jsonl"

    def stop(event):
        if event.record is not None:
            raise KeyboardInterrupt

    run_analysis(pairs, RULES, 1, str(out), jobs=1, split=True, group=50, watch=stop)
    parts = tmp_path / "o.jsonl.parts"
    out.unlink()                  # the results file gone, its first moves of depth 1 kept
    before = parts.read_bytes()
    with pytest.raises(ParametersError, match=r"o\.jsonl\.parts:1: made with other "
                                              r"parameters \(depth 1, .*, not depth 2"):
        run_analysis(pairs, RULES, 2, str(out), jobs=1, split=True)
    assert parts.read_bytes() == before and not out.exists()
    parts.write_text('{"south": "231123"}\n')
    with pytest.raises(ResultsFileError, match=r"o\.jsonl\.parts:1: not a first-move record"):
        run_analysis(pairs, RULES, 1, str(out), jobs=1, split=True)


def test_a_canonical_run_writes_the_records_of_the_pairs_it_stands_for(tmp_path):
    pairs = select_pairs("231123,321132,123123,321321", "112233,332211")
    canon, full = tmp_path / "canon.jsonl", tmp_path / "full.jsonl"
    s = run_analysis(pairs, RULES, 1, str(canon), jobs=1, canonical=True)
    stand = sorted({canonical_pair(*p) for p in pairs})
    assert s.done == s.todo == len(stand) == 4 and s.complete
    found, records = read_results(str(canon))
    assert found == AnalysisParams.of(RULES, 1, canonical=True)
    assert [r.pair for r in records] == stand
    run_analysis(pairs, RULES, 1, str(full), jobs=1)
    _, every = read_results(str(full))
    by_pair = {r.pair: r.to_json() for r in every}
    for r in records:
        same = by_pair[r.pair]
        assert {k: v for k, v in r.to_json().items() if k != "canonical"} == same
        # the mirror pair has the same figures and verdict (its moves are mirrored)
        twin = by_pair[(mirror_setup(r.south), mirror_setup(r.north))]
        differ = {k for k in same if same[k] != twin[k]}
        assert differ <= {"south", "north", "keys", "defence"}
    # a table of canonical pairs is one analysis, a table of every pair another
    with pytest.raises(ParametersError, match="canonical pairs"):
        run_analysis(pairs, RULES, 1, str(full), jobs=1, canonical=True)
    # the split run writes the same records
    split = tmp_path / "split.jsonl"
    run_analysis(pairs, RULES, 1, str(split), jobs=1, canonical=True, split=True)
    assert split.read_bytes() == canon.read_bytes()
