"""Selecting puzzles (gyges.puzzles.book.selection): ``KEY=VALUE`` criteria, the values of one
key alternatives, every key applying; a criterion that cannot be read is one line."""

from __future__ import annotations

import pytest
from catalogues import SEEDS, all_puzzles, run

from gyges.puzzles.book.selection import Selection, SelectionError, select_puzzles


@pytest.mark.parametrize("spec,check", [
    (["id=seed000-*"], lambda p: p.id.startswith("seed000")),
    (["rules=bga"], lambda p: p.rules.name == "bga"),
    (["stipulation=win in 3"], lambda p: (p.stipulation.kind, p.stipulation.moves) == ("win", 3)),
    (["stipulation=North wins in 2"],
     lambda p: str(p.stipulation) == "North wins in 2"),
    (["stipulation=loss"], lambda p: p.stipulation.kind == "loss"),
    (["theme=relocation bridge"], lambda p: "relocation bridge" in p.themes),
    (["theme=bounce chain"], lambda p: any(t.startswith("bounce chain") for t in p.themes)),
    (["difficulty=1-2"], lambda p: p.difficulty in (1, 2)),
    (["difficulty=5", "theme=relocation bridge"],
     lambda p: p.difficulty == 5 and "relocation bridge" in p.themes),
    (["difficulty=1,5"], lambda p: p.difficulty in (1, 5)),
])
def test_selection(spec, check):
    puzzles = all_puzzles()
    chosen = select_puzzles(puzzles, Selection.parse(spec))
    assert chosen, spec
    assert chosen == [p for p in puzzles if check(p)]


@pytest.mark.parametrize("bad", ["colour=red", "difficulty=7", "stipulation=draw", "theme"])
def test_bad_selection_is_one_line_exit_2(bad, tmp_path):
    result = run("export", str(SEEDS), "--format", "text", "--out", str(tmp_path),
                 "--select", bad)
    assert result.exit_code == 2
    assert result.output.count("\n") == 1 and "--select" in result.output
    assert "Traceback" not in result.output


@pytest.mark.parametrize("bad, problem", [
    ("colour=red", "unknown key 'colour'"), ("difficulty=7", "difficulty '7'"),
    ("stipulation=draw", "stipulation 'draw'"), ("theme", "write KEY=VALUE"),
])
def test_a_bad_criterion_says_what_is_wrong_and_names_no_option(bad, problem):
    with pytest.raises(SelectionError) as e:
        Selection.parse(["id=*", bad])
    assert e.value.text == bad and problem in e.value.problem and "--" not in str(e.value)


def test_no_criteria_select_every_puzzle_and_a_selection_shows_itself():
    puzzles = all_puzzles()
    assert select_puzzles(puzzles, Selection()) == puzzles
    s = Selection.parse(["id=seed000-*", "difficulty=1,2"])
    assert repr(s) == "Selection('id=seed000-* difficulty=1,2')" and str(s) in repr(s)
