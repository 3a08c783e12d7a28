"""``solve(..., jobs=N)`` proves the same Solution as one job: result, k, every key in root
order, the solution tree and the tries (only the statistics differ). With more jobs the
opponent's questions run in a worker of their own once the side to move's depths look
expensive, and the cook search is split across the workers (or, once a depth looks very
expensive, the side to move's question itself, one first move at a time); here
``SPLIT_SECONDS = 0`` starts that worker at depth 2, and the tests run once with every
depth split and once with none, so that small positions go through the parallel code."""

from __future__ import annotations

import json
import re

import pytest
from common import run_gyges

from gyges.formats.notation import parse_move
from gyges.game.moves import apply_move
from gyges.game.position import Position
from gyges.game.rules import PRESETS, rules_from
from gyges.search import solve, verdict, workers

PBM = PRESETS["pbmserv"]
SAMPLE_12 = "..1.../..23../..3.../..3113/2..2../2..1.. S"      # win in 2
CHAIN = ".3.3.3/112232/...1.2/...1../....../...... S"         # win in 2, 15 keys, blocked N
TABOO = "....../1...../3.23../3.211./2.132./...... N"         # loses in 2
BOUNCING_S = "....../3...../..1.1./1.23.3/3.22.1/....2. S"    # none within 2
LOSES_IN_1 = "..3.../....../.3..../.....1/..3.../.....3 S"
WIN_3 = ".2..1./1.1.../....3./...2.2/3.23../....13 S"         # bench mid-game, seed 13
LOSS_3 = ".13.../.1..3./...2.2/2.21../3.3.../...1.. S"        # bench mid-game, seed 0
WIN_3_N = "..212./1.3.../..3.3./.1..../.....2/.1.2.3 N"       # seed 30
NONE_3 = "....../...11./2.21../133..3/2..3.2/...... S"        # seed 3


def pos(text: str) -> Position:
    return Position.from_string(text)


def same(a, b) -> None:
    ja, jb = a.to_json(), b.to_json()
    ja.pop("stats")
    jb.pop("stats")
    assert ja == jb
    assert a.text().rsplit("\nstats:", 1)[0] == b.text().rsplit("\nstats:", 1)[0]


@pytest.fixture(params=["verdict split", "cook search split"])
def split_all(request, monkeypatch):
    """Every depth from 2 on goes through the parallel code: the side to move's question
    split one first move at a time (``VERDICT_SPLIT_SECONDS = 0``), or asked here with the
    cook search split afterwards."""
    monkeypatch.setattr(verdict, "SPLIT_SECONDS", 0)
    monkeypatch.setattr(verdict, "VERDICT_SPLIT_SECONDS",
                        0 if request.param == "verdict split" else float("inf"))


CASES = [
    (SAMPLE_12, "pbmserv", [], 2, ()),
    (SAMPLE_12, "pbmserv", [], 3, ()),
    (CHAIN, "pbmserv", [], 3, ()),                       # cook, North blocked
    (CHAIN, "bga", [], 2, ()),
    (CHAIN, "pbmserv", ["blocked=draw"], 2, ()),
    (CHAIN, "pbmserv", ["blocked=next-row"], 2, ()),
    (TABOO, "pbmserv", [], 2, ()),                       # loss
    (TABOO, "dorbec", [], 2, ()),
    (TABOO, "pbmserv", ["taboo=entry"], 2, ()),
    (BOUNCING_S, "pbmserv", [], 2, ()),                  # none
    (BOUNCING_S, "summary", [], 2, ()),
    (LOSES_IN_1, "pbmserv", [], 2, ()),
    (LOSES_IN_1, "dorbec-beginner", [], 2, ()),
    (WIN_3, "pbmserv", [], 3, ()),
    (WIN_3_N, "pbmserv", [], 3, ()),
    (LOSS_3, "pbmserv", [], 3, ()),
    (NONE_3, "pbmserv", [], 2, ()),
    (SAMPLE_12, "pbmserv", [], 2, ("renop",)),           # the key forbidden by the history
    (SAMPLE_12, "pbmserv", ["repetition=allowed"], 2, ("renop",)),
]


@pytest.mark.parametrize(("text", "preset", "options", "n", "extra"), CASES)
def test_two_jobs_prove_the_same_solution(split_all, text, preset, options, n, extra):
    rules = rules_from(preset, options)
    p = pos(text)
    history = ()
    if "renop" in extra:
        history = (apply_move(p, parse_move("14-24-33x43=12", p, PBM)),)
    one = solve(p, rules, n, history, tries=True)
    two = solve(p, rules, n, history, tries=True, jobs=2)
    same(one, two)
    three = solve(p, rules, n, history, tree=False, jobs=3)
    assert (three.result, three.moves, three.keys) == (one.result, one.moves, one.keys)


def test_the_cases_cover_every_kind_of_result(split_all, monkeypatch):
    kinds = {solve(pos(t), rules_from(pr, o), n, tree=False).result
             for t, pr, o, n, _ in CASES[:12]}
    assert kinds == {"win", "loss", "none"}
    assert solve(pos(CHAIN), PBM, 2, tree=False, jobs=2).cook
    # the opponent's worker answers a loss and a none (and is stopped on a win)
    started = []
    start = workers.OpponentSearch.start
    monkeypatch.setattr(workers.OpponentSearch, "start",
                        lambda self: started.append(1) or start(self))
    assert solve(pos(TABOO), PBM, 2, tree=False, jobs=2).moves == 2
    assert solve(pos(BOUNCING_S), PBM, 2, tree=False, jobs=2).result == "none"
    assert solve(pos(WIN_3), PBM, 3, tree=False, jobs=2).moves == 3
    assert len(started) == 3


def test_the_tree_does_not_depend_on_what_was_searched_before():
    """The tree is built with its own, fresh table: a win in 4, whose tree shows one
    winning move (of several) at 3 and 4 moves left, comes out the same after different
    searches."""
    p = pos(WIN_3)
    a = solve(p, PBM, 4, duals=0)
    b = solve(p, PBM, 4, duals=0, jobs=2)
    same(a, b)


def test_max_keys_ignores_jobs(split_all):
    one = solve(pos(CHAIN), PBM, 3, tree=False, max_keys=2)
    two = solve(pos(CHAIN), PBM, 3, tree=False, max_keys=2, jobs=2)
    assert (one.result, one.moves, one.keys) == (two.result, two.moves, two.keys)


def _cli(*args: str) -> str:
    r = run_gyges("solve", *args)
    assert r.exit_code == 0, r.output
    return r.output


@pytest.mark.parametrize("args", [
    [CHAIN, "-n", "3", "--tries"],
    [TABOO, "-n", "2"],
    [BOUNCING_S, "-n", "2"],
    [WIN_3, "-n", "3", "--json"],
])
def test_cli_prints_the_same_with_two_jobs(split_all, args):
    one = _cli(*args, "--jobs", "1")
    two = _cli(*args, "--jobs", "2")
    if "--json" in args:
        a, b = json.loads(one), json.loads(two)
        a.pop("stats")
        b.pop("stats")
        assert a == b
    else:
        strip = re.compile(r"^stats: .*$", re.M)
        assert strip.sub("", one) == strip.sub("", two)


@pytest.mark.slow
def test_rust_engine_position_with_two_jobs():
    """The benchmark position (win in 6, one key), split as a user's run splits it."""
    rules = rules_from("pbmserv", ["rebounce=once", "null-move=allowed", "blocked=draw",
                                   "repetition=allowed"])
    p = pos("030100/000200/002000/021100/300300/002130 S")
    one = solve(p, rules, 6)
    two = solve(p, rules, 6, jobs=2)
    assert (one.result, one.moves, [str(k) for k in one.keys]) == ("win", 6, ["14-24x21=44"])
    same(one, two)
