"""Candidate judging (gyges.puzzles.generate.candidates): a candidate depends only on the run's seed
and its index, and its record says what was found."""

from __future__ import annotations

import json

import pytest

from gyges.game.moves import legal_moves
from gyges.game.rules import PRESETS
from gyges.puzzles.generate.candidates import candidate, evaluate
from gyges.puzzles.generate.params import Params
from gyges.search import solve, win_in

RULES = PRESETS["pbmserv"]
PLAY = Params(2, RULES, seed=11, sources=("play",))
DEEP = Params(4, RULES.with_options({"repetition": "allowed"}), seed=42, sources=("play",))


def test_candidates_depend_only_on_seed_and_index():
    assert candidate(5, PLAY) == candidate(5, PLAY)
    assert candidate(5, PLAY)[1] != candidate(6, PLAY)[1]


def test_a_candidate_comes_from_the_source_its_index_is_given():
    both = Params(2, RULES, seed=11)
    assert [candidate(i, both)[0] for i in (0, 1, 2)] == [both.source_of(i) for i in (0, 1, 2)]
    assert candidate(both.compose_every - 1, both)[0] == "compose"


@pytest.mark.parametrize("index, position", [
    (4, "2..2../..1..3/.....2/....31/1...31/2....3 S"),
    (13, "....13/....3./.2.2../....../3..123/..2.11 S"),
])
def test_walk_back_candidates_are_exact_wins_fixed_by_seed_and_index(index, position):
    """A win-in-4 candidate (found by walking back from a side's first win in 2) is
    the same for the same seed and index, and an exact win in 4: fresh searches (no table
    shared with the walk) find a win in 4 and none in 3."""
    src, pos, _ = candidate(index, DEEP)
    assert src == "play" and str(pos) == position
    assert not legal_moves(pos, DEEP.rules).wins
    assert win_in(pos, DEEP.rules, 4) and not win_in(pos, DEEP.rules, 3)
    sol = solve(pos, DEEP.rules, max_moves=4, tree=False, max_keys=1)
    assert (sol.result, sol.moves) == ("win", 4)


def test_a_record_is_plain_json_with_the_runs_parameters():
    rec = evaluate(5, PLAY).to_json()
    assert json.loads(json.dumps(rec)) == rec and type(rec["source"]) is str
    assert rec["index"] == 5 and rec["params"] == PLAY.to_json()
    if rec["sound"]:
        assert rec["canonical"] and rec["key"] and rec["main_line"]
    else:
        assert rec["reasons"]
