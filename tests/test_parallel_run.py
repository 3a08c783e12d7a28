"""gyges.parallel.run and gyges.parallel.results: the resumable run every batch command
uses, and the one reader of results files (on its own, and under ``setups report`` and
``setups analyze``)."""

from __future__ import annotations

import io
import json
import os
import signal
import time
from pathlib import Path

import pytest
from common import run_gyges, write

from gyges.output import OutputError
from gyges.parallel import (
    Batch,
    ParametersError,
    ResultsFile,
    ResultsFileError,
    run_tasks,
)

ITEMS = [5, 3, 8, 1, 3, 9, 2]          # 3 twice: asked once
DISTINCT = sorted(set(ITEMS))


def record_of(n: int) -> dict:
    """A task: a record that depends on its item and on nothing else."""
    return {"n": n, "square": n * n, "depth": 2}


def slow_after_first(n: int) -> dict:
    """A task whose items but the first take far longer than any test waits; each slow
    item that gets to its end leaves a mark in $SLOW_MARKS (when set)."""
    if n != ITEMS[0]:
        time.sleep(600)
        if os.environ.get("SLOW_MARKS"):
            (Path(os.environ["SLOW_MARKS"]) / f"{n}.done").touch()
    return record_of(n)


def fails_on_eight(n: int) -> dict:
    if n == 8:
        raise ArithmeticError("eight")
    return record_of(n)


def spec(path: Path, depth: int | None = 2) -> ResultsFile:
    return ResultsFile(str(path), "a square record", key=lambda r: r["n"],
                       check=lambda r: r["square"], params=depth,
                       params_of=lambda r: r["depth"], describe=lambda d: f"depth {d}")


def lines(path: Path) -> list[str]:
    return path.read_text(encoding="utf-8").splitlines()


# -- the reader ----------------------------------------------------------------------------


def rec(n: int, depth: int = 2) -> str:
    return json.dumps(record_of(n) | {"depth": depth})


def test_a_missing_file_holds_nothing(tmp_path):
    assert spec(tmp_path / "none.jsonl").read().lines == ()


def test_a_record_cut_short_is_dropped_and_cut_from_the_file(tmp_path):
    whole = f"{rec(1)}\n{rec(2)}\n"
    p = write(tmp_path / "r.jsonl", whole + rec(3)[:9])
    assert [(line.number, line.key) for line in spec(p).read().lines] == [(1, 1), (2, 2)]
    assert p.read_text() == whole + rec(3)[:9]          # untouched without repair
    spec(p).read(repair=True)
    assert p.read_text() == whole


def test_a_whole_last_record_without_newline_is_kept_and_given_one(tmp_path):
    p = write(tmp_path / "r.jsonl", f"{rec(1)}\n{rec(2)}")
    assert [line.key for line in spec(p).read(repair=True).lines] == [1, 2]
    assert p.read_text() == f"{rec(1)}\n{rec(2)}\n"


def test_setups_report_and_analyze_keep_a_last_record_without_newline(tmp_path,
                                                                      setups_table):
    data = setups_table.read_bytes()
    write(tmp_path / "cut.jsonl", data.rstrip(b"\n").decode())
    r = run_gyges("setups", "report", tmp_path / "cut.jsonl")
    assert r.exit_code == 0 and r.output.startswith("3 setup pairs"), r.output
    first = data.split(b"\n")[0].decode()
    r = run_gyges("setups", "report", write(tmp_path / "one.jsonl", first))
    assert r.exit_code == 0 and r.output.startswith("1 setup pair ("), r.output
    # resuming the file also keeps it (and adds the missing newline)
    r = run_gyges("setups", "analyze", "--south", "231123", "--north", "321123,312213,113322",
                  "--depth", "1", "-q", "--jobs", "1", "--out", tmp_path / "cut.jsonl")
    assert "0 pairs analysed, 3 already" in r.output
    assert (tmp_path / "cut.jsonl").read_bytes() == data

@pytest.mark.parametrize(("text", "line", "words"), [
    (f"{rec(1)}\nnot json\n{rec(2)}\n", 2, "not a square record (not JSON: expecting value"),
    (f"{rec(1)}\n[1, 2]\n", 2, "not a square record (not a JSON object)"),
    (f"{rec(1)}\n{{\"n\": 4}}\n", 2, "not a square record (no 'square' key)"),
    (f"{rec(1)}\n\n{rec(2)}\nhello", 4, "not a square record"),
])
def test_a_bad_line_is_named_by_file_and_line(tmp_path, text, line, words):
    p = write(tmp_path / "r.jsonl", text)
    with pytest.raises(ResultsFileError) as e:
        spec(p).read(repair=True)
    assert str(e.value).startswith(f"{p}:{line}: {words}")
    assert (e.value.path, e.value.line) == (str(p), line)
    assert p.read_text() == text                          # a refused file is not touched


def test_records_of_other_parameters_are_refused_with_both(tmp_path):
    p = write(tmp_path / "r.jsonl", f"{rec(1)}\n{rec(2, depth=3)}\n{rec(4)[:5]}")
    with pytest.raises(ParametersError) as e:
        spec(p).read(repair=True)
    assert str(e.value) == (f"{p}:2: made with other parameters (depth 3, not depth 2): "
                            "rerun with those to resume it")
    assert (e.value.found, e.value.wanted) == ("depth 3", "depth 2")
    assert p.read_text().endswith(rec(4)[:5])             # not repaired
    # without parameters asked for, the file's own are found, and must agree
    p = write(tmp_path / "same.jsonl", f"{rec(1, 3)}\n{rec(2, 3)}\n")
    assert spec(p, depth=None).read().params == 3
    p = write(tmp_path / "mixed.jsonl", f"{rec(1, 3)}\n{rec(2, 4)}\n")
    with pytest.raises(ResultsFileError, match=r"mixed.jsonl:2: made with depth 4, but the "
                                               r"lines before with depth 3"):
        spec(p, depth=None).read()


def test_a_directory_is_not_a_results_file(tmp_path):
    with pytest.raises(ResultsFileError, match="is a directory: give a file name"):
        spec(tmp_path).read()


# -- the run -------------------------------------------------------------------------------


def test_a_run_answers_each_question_once_and_skips_what_is_done(tmp_path):
    out = tmp_path / "deep" / "dir" / "r.jsonl"            # directories made
    s = run_tasks(record_of, ITEMS[:4], results=spec(out), jobs=1)
    assert (s.todo, s.done, s.skipped, s.duplicates, s.resumed) == (4, 4, 0, 0, 0)
    assert s.complete and not s.interrupted and not s.stopped
    assert lines(out) == [json.dumps(record_of(n), sort_keys=True, separators=(",", ":"))
                          for n in ITEMS[:4]]
    s = run_tasks(record_of, ITEMS, results=spec(out), jobs=1)
    assert (s.todo, s.done, s.skipped, s.duplicates, s.resumed) == (2, 2, 4, 1, 4)
    assert sorted(s.records) == DISTINCT and s.records[9] == record_of(9)
    assert len(lines(out)) == len(DISTINCT)
    assert run_tasks(record_of, ITEMS, results=spec(out), jobs=1).todo == 0


def test_jobs_and_resumes_give_the_same_lines(tmp_path):
    one, two, resumed = tmp_path / "1.jsonl", tmp_path / "2.jsonl", tmp_path / "r.jsonl"
    run_tasks(record_of, ITEMS, results=spec(one), jobs=1)
    run_tasks(record_of, ITEMS, results=spec(two), jobs=2)
    assert sorted(lines(one)) == sorted(lines(two))
    # killed in the middle of its third line: resumed to the very same file
    text = one.read_text()
    cut = len("".join(one.read_text().splitlines(keepends=True)[:2])) + 7
    resumed.write_text(text[:cut])
    s = run_tasks(record_of, ITEMS, results=spec(resumed), jobs=1)
    assert s.skipped == 2 and resumed.read_bytes() == one.read_bytes()


def test_without_a_file_the_records_are_kept_in_memory(tmp_path):
    s = run_tasks(record_of, ITEMS, jobs=2)
    assert dict(s.records) == {n: record_of(n) for n in DISTINCT} and s.done == len(DISTINCT)
    assert list(tmp_path.iterdir()) == []


def test_other_parameters_are_refused_before_any_task(tmp_path):
    out = tmp_path / "r.jsonl"
    run_tasks(record_of, ITEMS[:2], results=spec(out), jobs=1)
    asked = []

    def task(n):
        asked.append(n)
        return record_of(n)

    with pytest.raises(ParametersError):
        run_tasks(task, ITEMS, results=spec(out, depth=3), jobs=1)
    assert asked == [] and len(lines(out)) == 2
    with pytest.raises(OutputError, match="is a directory"):
        run_tasks(task, ITEMS, results=spec(tmp_path), jobs=1)


def test_ctrl_c_keeps_every_line_and_the_run_resumes(tmp_path):
    out, full = tmp_path / "r.jsonl", tmp_path / "full.jsonl"
    run_tasks(record_of, ITEMS, results=spec(full), jobs=1)

    def ctrl_c_at_third(event):
        if event.done == 3:
            raise KeyboardInterrupt

    s = run_tasks(record_of, ITEMS, results=spec(out), jobs=2, watch=ctrl_c_at_third)
    assert s.interrupted and not s.complete and s.done == 3 and len(lines(out)) == 3
    assert set(lines(out)) <= set(lines(full))
    s = run_tasks(record_of, ITEMS, results=spec(out), jobs=2)
    assert s.skipped == 3 and s.complete and sorted(lines(out)) == sorted(lines(full))


def test_a_stop_condition_ends_the_run_and_stops_busy_workers(tmp_path, monkeypatch):
    out, marks = tmp_path / "r.jsonl", tmp_path / "marks"
    marks.mkdir()
    monkeypatch.setenv("SLOW_MARKS", str(marks))
    seen = []

    def watch(event):
        seen.append(event.record)

    s = run_tasks(slow_after_first, ITEMS, results=spec(out), jobs=2, watch=watch,
            stop=lambda records: 5 in records)
    assert not list(marks.iterdir())           # the sleeping worker was stopped, not waited for
    assert s.stopped and not s.interrupted and s.done == 1 and list(s.records) == [5]
    assert seen == [None, record_of(5)]
    # a condition already met: nothing runs
    s = run_tasks(slow_after_first, ITEMS, results=spec(out), jobs=2,
            stop=lambda records: 5 in records)
    assert s.stopped and s.done == 0 and s.resumed == 1


def test_a_failing_task_stops_the_run_and_keeps_the_lines_before(tmp_path):
    out = tmp_path / "r.jsonl"
    with pytest.raises(ArithmeticError, match="eight"):
        run_tasks(fails_on_eight, ITEMS, results=spec(out), jobs=1)
    assert [json.loads(x)["n"] for x in lines(out)] == [5, 3]


def test_a_record_must_answer_its_item(tmp_path):
    with pytest.raises(ValueError, match="a record for 5 says it answers 6"):
        run_tasks(record_of, [5], key=lambda n: n, results=ResultsFile(
            str(tmp_path / "r.jsonl"), key=lambda r: r["n"] + 1), jobs=1)


def test_progress_and_log(tmp_path):
    stream = io.StringIO()
    log = tmp_path / "run.log"
    run_tasks(record_of, ITEMS, results=spec(tmp_path / "r.jsonl"), jobs=2, progress=stream,
        unit="squares", log=str(log), describe=lambda r: f"square of {r['n']}")
    bar = stream.getvalue().splitlines()
    assert bar[-1].startswith("[" + "#" * 30 + f"] {len(DISTINCT)}/{len(DISTINCT)} ")
    assert "squares/s" in bar[-1]
    text = log.read_text().splitlines()
    done = [line for line in text if " pid " in line]
    assert sorted(int(line.split("square of ")[1].split()[0]) for line in done) == DISTINCT
    assert any(f"{len(DISTINCT)} squares to do (0 already done) on local" in line
               for line in text)


def test_a_batch_runs_passes_on_one_executor(tmp_path):
    """Two passes over two files, the second fed by the first: one executor, each file
    read once and seen by the later passes."""
    first, second = tmp_path / "a.jsonl", tmp_path / "b.jsonl"
    with Batch(jobs=2) as batch:
        a = batch.run(record_of, ITEMS, results=spec(first))
        ex = batch.executor()
        b = batch.run(record_of, [n * 10 for n in batch.records(spec(first))],
                      results=spec(second))
        assert batch.executor() is ex
        again = batch.run(record_of, ITEMS, results=spec(first))
    assert a.done == len(DISTINCT) and b.done == len(DISTINCT) and again.skipped == a.done
    assert sorted(json.loads(x)["n"] for x in lines(second)) == [n * 10 for n in DISTINCT]


def test_ctrl_c_ends_a_batch_cleanly(tmp_path):
    out = tmp_path / "a.jsonl"
    after = []
    with Batch(jobs=1) as batch:
        batch.run(record_of, ITEMS[:2], results=spec(out))
        os.kill(os.getpid(), signal.SIGTERM)    # as a batch system ends a job
        after.append("not reached")
    assert batch.interrupted and after == [] and len(lines(out)) == 2

    def ctrl_c(event):
        if event.record is not None:
            raise KeyboardInterrupt

    with Batch(jobs=1) as batch:
        first = batch.run(record_of, ITEMS, results=spec(out), watch=ctrl_c)
        later = batch.run(record_of, ITEMS, results=spec(out))
    assert first.interrupted and first.done == 1
    assert later.interrupted and later.todo == later.done == 0 and len(lines(out)) == 3
