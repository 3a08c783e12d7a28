"""``gyges solve FILE`` for position lists: reading, bad lines, records, resume, Ctrl-C."""

from __future__ import annotations

import dataclasses
import json
import re
import signal
import subprocess
import sys
import time

import pytest
from common import BOUNCING, POSITIONS, START, run_gyges

from gyges.formats.poslist import looks_like_position_list, parse_position_list
from gyges.game.position import Position
from gyges.game.rules import PRESETS
from gyges.search import solve
from gyges.search.batch import read_solved, solve_many

RULES = PRESETS["pbmserv"]
WIN1 = BOUNCING                                 # North wins in 1
WIN2 = ".3.3.3/112232/...1.2/...1../....../...... S"

TEXT = f"""# a list
{WIN1}
{WIN2}   max-moves=2   # a cook
   not a position
{START} rules=bga max-moves=2
{START} rules=bgx
{START} max-moves=2 colour=red
{WIN1}
"""


def test_text_list_entries_and_bad_lines():
    entries, bad = parse_position_list(TEXT, "l.txt")
    assert [e.line for e in entries] == [2, 3, 5, 8]
    assert [e.max_moves for e in entries] == [None, 2, 2, None]
    assert entries[2].rules == PRESETS["bga"] and entries[0].rules is None
    assert [b.line for b in bad] == [4, 6, 7]
    assert str(bad[0]).startswith("l.txt:4: 'not a position' is not a position string")
    assert "rules=bgx: not a preset" in str(bad[1])
    assert "unknown override 'colour'" in str(bad[2])


def test_yaml_list_entries_and_bad_entries():
    text = f"""- "{WIN1}"
- position: "{WIN2}"
  max-moves: 2
  id: cook
- position: "{START}"
  rules: dorbec
  history: ["321123/....../....../....../....../231123"]
- positon: "{START}"
- position: "{START}"
  max-moves: 99
"""
    entries, bad = parse_position_list(text, "l.yaml", ".yaml")
    assert [(e.line, e.max_moves, e.id) for e in entries] == [(1, None, None), (2, 2, "cook"),
                                                               (5, None, None)]
    assert entries[2].rules == PRESETS["dorbec"] and len(entries[2].history) == 1
    assert [b.line for b in bad] == [8, 10]
    assert "unknown key 'positon'" in str(bad[0]) and "max-moves=99" in str(bad[1])
    assert looks_like_position_list(text, ".yaml")
    assert not looks_like_position_list(f"position: '{START}'\n", ".yaml")


def test_one_position_file_stays_a_single_solve(tmp_path):
    one = tmp_path / "one.txt"
    one.write_text(f"# one\n{WIN2}\n")
    a = run_gyges("solve", str(one), "-n", "2")
    b = run_gyges("solve", WIN2, "-n", "2")
    assert a.exit_code == b.exit_code == 0

    def timeless(text):  # the search time differs from run to run
        return re.sub(r"\d+\.\d+ s\b", "T s", text)

    assert timeless(a.output) == timeless(b.output) and "wins in 2" in a.output


def _filled(entries):
    return [dataclasses.replace(e, rules=e.rules or RULES, max_moves=e.max_moves or 3)
            for e in entries]


def test_records_agree_with_single_solves_and_jobs(tmp_path):
    entries = _filled(parse_position_list(TEXT, "l.txt")[0])
    a, b = tmp_path / "a.jsonl", tmp_path / "b.jsonl"
    sa = solve_many(entries, str(a), jobs=1, scheduler="")
    sb = solve_many(entries, str(b), jobs=2, scheduler="")
    # line 8 asks line 2's question again: solved once
    assert sa.run.done == sb.run.done == 3 and sa.run.duplicates == 1
    assert sorted(a.read_text().splitlines()) == sorted(b.read_text().splitlines())
    for e, rec in zip(sa.entries, sa.records, strict=True):
        sol = solve(e.position, e.rules, e.max_moves)
        assert (rec["result"], rec["moves"], rec["keys"]) == \
            (sol.result, sol.moves, [str(k) for k in sol.keys])
        assert rec["line"] == e.line and rec["rules"] == e.rules.describe()


def test_interrupted_run_resumes(tmp_path):
    entries = _filled(parse_position_list(TEXT, "l.txt")[0])
    full, out = tmp_path / "full.jsonl", tmp_path / "r.jsonl"
    solve_many(entries, str(full), jobs=1, scheduler="")

    def stop(event):
        if event.record is not None:   # after the first record
            raise KeyboardInterrupt

    s = solve_many(entries, str(out), jobs=1, scheduler="", watch=stop)
    assert s.interrupted and s.run.done == 1
    # a line cut short by a kill is rewritten
    out.write_text(out.read_text() + '{"cook":fal')
    s = solve_many(entries, str(out), jobs=2, scheduler="")
    assert s.run.skipped == 1 and s.run.done == 2
    assert sorted(out.read_text().splitlines()) == sorted(full.read_text().splitlines())
    with pytest.raises(ValueError, match="other parameters"):
        read_solved(str(out), {"tree": True, "tries": False, "duals": 2})


def test_cli_table_json_out_and_strict(tmp_path):
    lst = tmp_path / "l.txt"
    lst.write_text(TEXT)
    out = tmp_path / "o.jsonl"
    r = run_gyges("solve", str(lst), "--out", str(out), "-j", "1", "-q")
    assert r.exit_code == 0, r.output
    assert "l.txt:4:" in r.output and "(line skipped)" in r.output
    assert "wins in 2" in r.output and "3 positions: 2 wins, 0 losses, 1 without" in r.output
    recs = [json.loads(x) for x in out.read_text().splitlines()]
    assert len(recs) == 3 and {r["line"] for r in recs} == {2, 3, 5}
    r = run_gyges("solve", str(lst), "--out", str(out), "-q", "--json")
    assert r.exit_code == 0 and "3 already in" in r.output
    assert sum(line.startswith("{") for line in r.output.splitlines()) == 3
    r = run_gyges("solve", str(lst), "--strict")
    assert r.exit_code == 2 and "3 bad lines: nothing solved (--strict)" in r.output
    assert "Traceback" not in r.output
    bad_out = tmp_path / "bad.jsonl"
    bad_out.write_text("not json\n")
    r = run_gyges("solve", str(lst), "--out", str(bad_out), "-q")
    assert r.exit_code == 2 and "bad.jsonl:1: not a solve record" in r.output


def test_ctrl_c_on_the_local_pool_exits_130_promptly(tmp_path):
    from gyges.setups import select_pairs

    lst = tmp_path / "slow.txt"
    lst.write_text("".join(f"{Position.setup(s, n)}\n" for s, n in select_pairs()[::400]))
    out = tmp_path / "o.jsonl"
    proc = subprocess.Popen([sys.executable, "-c", "from gyges_cli.main import cli; cli()",
                             "solve", str(lst), "--out", str(out), "-j", "2", "-q"],
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                            preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL))
    end = time.monotonic() + 60
    while not (out.exists() and out.read_text().count("\n") >= 1):
        assert proc.poll() is None and time.monotonic() < end, proc.communicate()
        time.sleep(0.02)
    proc.send_signal(signal.SIGINT)
    _, err = proc.communicate(timeout=60)              # a hang fails here
    assert proc.returncode == 130
    assert out.read_text().count("\n") < len(lst.read_text().splitlines())   # not all done
    assert "interrupted" in err and "rerun the same command" in err and "Traceback" not in err


@pytest.mark.parametrize("name", ["bouncing.yaml", "stalemate.txt"])
def test_a_position_file_with_out_is_a_one_entry_list(tmp_path, name):
    source = POSITIONS / name
    out = tmp_path / "one.jsonl"
    r = run_gyges("solve", str(source), "--out", str(out), "-q", "-n", "2")
    assert r.exit_code == 0, r.output
    (rec,) = [json.loads(x) for x in out.read_text().splitlines()]
    single = json.loads(run_gyges("solve", str(source), "-n", "2", "--json").output)
    assert rec["line"] == 1 and rec["max_moves"] == 2
    assert (rec["result"], rec["moves"], rec["keys"]) == \
        (single["result"], single["moves"], single["keys"])
    r = run_gyges("solve", str(source), "--out", str(out), "-q", "-n", "2")
    assert r.exit_code == 0 and "1 already in" in r.output


def test_the_library_refuses_a_list_and_fills_rules_and_bounds(tmp_path):
    from gyges.search.batch import SolveListError

    entries, bad = parse_position_list(TEXT, "l.txt")
    with pytest.raises(SolveListError, match="l.txt: 3 bad lines: nothing solved") as e:
        solve_many(entries, bad=bad, strict=True, source="l.txt")
    assert e.value.bad == 3
    with pytest.raises(SolveListError, match="e.txt: no positions to solve"):
        solve_many([], source="e.txt")
    seen = []

    def rules_for(given):
        seen.append(given)
        return PRESETS["dorbec"] if given is None else given

    s = solve_many(entries, bad=bad, max_moves=1, rules_for=rules_for, jobs=1)
    assert seen == [e.rules for e in entries]
    assert [(e.rules.name, e.max_moves) for e in s.entries] == \
        [("dorbec", 1), ("dorbec", 2), ("bga", 2)]
    assert s.notes() == ["1 duplicate entry solved once", "3 bad lines skipped"]
    assert s.json_lines() == [json.dumps(r, sort_keys=True) for r in s.records]


def test_cli_words_the_run_errors_with_its_options(tmp_path):
    lst = tmp_path / "l.txt"
    lst.write_text(f"{WIN1}\n{WIN2}\n")
    out = tmp_path / "o.jsonl"
    assert run_gyges("solve", str(lst), "--out", str(out), "-q", "-j", "1").exit_code == 0
    r = run_gyges("solve", str(lst), "--out", str(out), "-q", "--tries")
    assert r.exit_code == 2
    assert f"{out}:1: made with other parameters (no tree, tries or duals, not tries)" in r.output
    assert "{" not in r.output                      # words, not a Python dict
    assert r.output.rstrip().endswith("rerun with those to resume it, or choose another --out")
    r = run_gyges("solve", str(lst), "--out", str(tmp_path), "-q")
    assert r.exit_code == 2
    assert r.output == f"gyges: {tmp_path}: is a directory: give a file name (--out)\n"
