"""One authoring pipeline (a proven position made a catalogue entry), one stipulation
phrasing, and the solver's tree stored in a catalogue entry."""

from __future__ import annotations

import json

import pytest
from common import BOUNCING as BOUNCING_TEXT
from common import ROOT

from gyges.game.position import Position
from gyges.game.rules import PRESETS, Side
from gyges.puzzles.catalogue import CatalogueError, check_puzzle, load_all, parse_catalogue
from gyges.puzzles.catalogue.authoring import add_entry, findings
from gyges.search import Stipulation, solve

PBM = PRESETS["pbmserv"]
BOUNCING = Position.from_string(BOUNCING_TEXT)


def test_stipulations_read_back_what_they_write():
    for kind in ("win", "loss", "none"):
        for k in (1, 2, 5):
            for side in Side:
                st = Stipulation(kind, k, side)
                assert Stipulation.parse(str(st), side) == st
                if kind != "none":      # the solver's and the book's forms read back too
                    assert Stipulation.parse(st.statement().split(":")[0], side) == st
                    assert Stipulation.parse(st.task(), side) == st


def test_the_phrasings_of_a_stipulation():
    win, loss, none = (Stipulation("win", 2, Side.SOUTH), Stipulation("loss", 3, Side.NORTH),
                       Stipulation("none", 1, Side.NORTH))
    assert [str(s) for s in (win, loss, none)] == [
        "South wins in 2", "North loses in 3", "no forced result in 1"]
    assert [s.task() for s in (win, loss, none)] == [
        "South to move and win in 2", "North to move loses in 3",
        "North to move: hold out for 1 move"]
    assert [s.answer() for s in (win, loss, none)] == [
        "South wins in 2.", "Whatever North does, South wins in 3.",
        "Neither side can force a win within 1 move."]   # singular: 1 move
    assert [s.statement() for s in (win, loss, none)] == [
        "South to move wins in 2", "North to move loses in 3: South wins whatever North does",
        "North to move: no forced win for either side within 1"]
    assert win.statement(stoppable=True).startswith("South to move wins in 2, stoppable")
    assert (win.winner, loss.winner, none.winner) == (Side.SOUTH, Side.SOUTH, None)


def test_the_solution_states_what_it_proved():
    s = solve(BOUNCING, PBM, 2)
    assert s.proven() == Stipulation("win", 1, Side.NORTH)
    assert s.statement() == "North to move wins in 1"
    none = solve(BOUNCING.with_turn(Side.SOUTH), PBM, 1)
    assert none.proven() == Stipulation("none", 1, Side.SOUTH)


def test_authored_entries_of_the_seed_positions_are_proven():
    puzzles, _ = load_all([ROOT / "puzzles" / "seed000.yaml"])
    for p in puzzles:
        sol = solve(p.position, p.rules, p.stipulation.moves, p.history)
        found = findings(p.position, p.rules, sol, p.history)
        assert found.stipulation.kind == sol.result
        text = found.entry(f"again-{p.id}", p.position, p.rules,
                           difficulty=found.rating(p.position, p.rules, p.history).difficulty,
                           history=p.history)
        back = parse_catalogue("schema: 1\npuzzles:\n" + text).puzzles[0]
        assert (back.key, back.main_line, back.themes) == (
            found.key, found.main_line, found.themes)
        assert check_puzzle(back) == [], p.id
        if back.key == p.key:     # rated on the one scale, as the seed file is
            assert back.difficulty == p.difficulty, p.id


def test_add_entry_appends_what_it_authored(tmp_path):
    target = tmp_path / "new.yaml"
    found, text = add_entry(target, "b1", BOUNCING, PBM, max_moves=2)
    assert found.key == "51-43-33-31-21-S" and found.themes == ("bounce chain 4",)
    assert target.read_text(encoding="utf-8").endswith(text)
    assert "Proven by the solver: North wins in 1 and no sooner; the only key." in text
    with pytest.raises(CatalogueError, match="already used"):
        add_entry(target, "b1", BOUNCING, PBM, max_moves=2)


def _entry_with_tree(tree_json: str) -> str:
    return ("schema: 1\npuzzles:\n- id: t1\n"
            '  position: "....../3...../..1.1./1.23.3/3.22.1/....2. N"\n'
            "  stipulation: North wins in 1\n"
            "  solution:\n    key: 51-43-33-31-21-S\n    main-line: [51-43-33-31-21-S]\n"
            f"    tree: {tree_json}\n")


def test_a_stored_tree_is_the_solvers_tree():
    p = Position.from_string("....../3...../..1.1./1.23.3/3.22.1/....2. N")
    s = solve(p, PBM, 1)
    stored = json.dumps(s.to_json()["tree"])
    puzzle = parse_catalogue(_entry_with_tree(stored)).puzzles[0]
    assert puzzle.tree == s.tree
    assert json.dumps(puzzle.tree.to_json()) == stored


def test_a_stored_tree_that_is_not_one_is_located():
    with pytest.raises(CatalogueError) as e:
        parse_catalogue(_entry_with_tree('{"role": "judge"}'), "x.yaml")
    assert str(e.value).startswith("x.yaml:9: puzzle t1: the solution tree is not one")
    assert e.value.malformed
