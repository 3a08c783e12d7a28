"""The CP-SAT model of setups (gyges.setups.search.model): its solutions checked against brute
force with itertools and against plain-Python readings of the constraints."""

from __future__ import annotations

import itertools

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from gyges.game.position import ALL_SETUPS
from gyges.game.rules import PRESETS
from gyges.setups.pairs import SetupError, mirror_setup
from gyges.setups.search.find import search
from gyges.setups.search.model import RoundProgress, solutions
from gyges.setups.search.options import constraints_from_options
from tests.setups_oracle import (
    BRUTE_SETUPS,
    adjacent,
    allowed_pairs,
    allows,
    brute,
    holds,
    option_sets,
)

RULES = PRESETS["pbmserv"]  # the model's constraints do not depend on the rules


def test_ninety_per_side_and_8100_pairs():
    assert len(BRUTE_SETUPS) == 90 and list(ALL_SETUPS) == BRUTE_SETUPS
    assert search(constraints_from_options({}), RULES) == BRUTE_SETUPS
    assert search(constraints_from_options({"side": "north"}), RULES) == BRUTE_SETUPS
    pairs = search(constraints_from_options({"side": "pair"}), RULES)
    assert len(pairs) == 8100 == len(set(pairs))
    assert pairs == sorted(itertools.product(BRUTE_SETUPS, BRUTE_SETUPS))


@pytest.mark.parametrize(
    "options, pred",
    [
        pytest.param({"fix": "3@1"}, lambda s: s[0] == "3", id="fix"),
        pytest.param({"fix": ["3@1", "2@4"]}, lambda s: s[0] == "3" and s[3] == "2",
                     id="fix-two"),
        pytest.param({"off": "3@16"}, lambda s: s[0] != "3" and s[5] != "3", id="off"),
        pytest.param({"off": ["1@1,2,3"]}, lambda s: "1" not in s[:3], id="off-commas"),
        pytest.param({"apart": "3"}, lambda s: not adjacent(s, "3"), id="apart"),
        pytest.param({"apart": "123"}, lambda s: not any(adjacent(s, k) for k in "123"),
                     id="apart-all"),
        pytest.param({"symmetric": True}, lambda s: s == s[::-1], id="symmetric"),
        pytest.param({"centre": "3=2"}, lambda s: s[2] == s[3] == "3", id="centre-eq"),
        pytest.param({"centre": "1>=1"}, lambda s: "1" in s[2:4], id="centre-ge"),
        pytest.param({"edges": "2<=0"}, lambda s: s[0] != "2" and s[5] != "2", id="edges-le"),
        pytest.param({"edges": ["1=1", "3=1"]}, lambda s: sorted(s[0] + s[5]) == ["1", "3"],
                     id="edges-two"),
        pytest.param({"apart": "1", "centre": "2=1", "off": "3@6"},
                     lambda s: not adjacent(s, "1") and (s[2:4].count("2") == 1)
                     and s[5] != "3", id="mixed"),
    ],
)
def test_simple_constraints_match_brute_force(options, pred):
    got = search(constraints_from_options(options), RULES)
    assert got == brute(pred)
    assert got, "a constraint of this test should leave some setups"
    # the same constraint on North's row when searching North
    north = {k: v for k, v in options.items()}
    north["side"] = "north"
    assert search(constraints_from_options(north), RULES) == brute(pred)


def test_pair_constraints_match_brute_force():
    c = constraints_from_options(
        {"side": "pair", "fix": ["N:3@1", "S:1@6"], "apart": ["N:2"], "centre": "3>=1"})
    want = [(s, n) for s in BRUTE_SETUPS for n in BRUTE_SETUPS
            if n[0] == "3" and s[5] == "1" and not adjacent(n, "2") and "3" in s[2:4]]
    assert search(c, RULES) == want == allowed_pairs(c)
    assert search(c, RULES, count_only=True) == len(want)


@pytest.mark.parametrize("how, tie", [("mirror", lambda s: s), ("rotated", mirror_setup)],
                         ids=["mirror", "rotated"])
def test_north_tied_to_south(how, tie):
    c = constraints_from_options({"side": "pair", "north-as": how, "fix": "2@2"})
    got = search(c, RULES)
    assert got == [(s, tie(s)) for s in BRUTE_SETUPS if s[1] == "2"] == allowed_pairs(c)


def test_north_fixed_and_south_search():
    # North fixed while South's setups are listed and nothing reads North's row: refused
    with pytest.raises(SetupError, match="a fixed setup changes nothing here"):
        constraints_from_options({"north": "321123", "off": "1@123456"})
    got = search(constraints_from_options({"side": "pair", "north": "321123"}), RULES)
    assert got == [(s, "321123") for s in BRUTE_SETUPS]


def test_canonical_reports_each_mirror_class_once():
    got = search(constraints_from_options({"canonical": True}), RULES)
    classes = {min(s, s[::-1]) for s in BRUTE_SETUPS}
    assert len(got) == len(classes) == 48  # 6 symmetric setups + 84 / 2
    assert {min(s, s[::-1]) for s in got} == classes
    # a constraint that is not mirror-symmetric: members outside the solutions don't count
    got = search(constraints_from_options({"fix": "3@1", "canonical": True}), RULES)
    sols = brute(lambda s: s[0] == "3")
    assert len(got) == len({min(s, s[::-1]) for s in sols})
    pairs = search(constraints_from_options({"side": "pair", "canonical": True}), RULES,
                   count_only=True)
    # pairs fixed by the whole-board mirror: both setups symmetric (6 x 6)
    assert pairs == (8100 - 36) // 2 + 36


def test_a_judge_is_asked_lazily_and_its_verdict_is_exact():
    """The lazy rounds keep exactly the pairs the judge accepts, ask it once per pair, and
    report each round."""
    c = constraints_from_options({"side": "pair", "north": "321123", "fix": "3@1"})
    asked: list[tuple[str, str]] = []

    def judge(south: str, north: str) -> bool:
        asked.append((south, north))
        return south.count("3", 0, 3) == 2

    events: list[RoundProgress] = []
    got = solutions(c, judge, events.append)
    want = [p for p in allowed_pairs(c) if p[0].count("3", 0, 3) == 2]
    assert got == want and 0 < len(want) < 30
    assert sorted(asked) == allowed_pairs(c) and len(asked) == len(set(asked)) == 30
    over = [e for e in events if e.over]
    assert [(e.round, e.proposed, e.cut) for e in over] == [(1, 30, 30 - len(want)),
                                                            (2, len(want), 0)]
    assert str(over[0]) == f"round 1: 30 proposed, {30 - len(want)} cut"
    assert [str(e) for e in events if not e.over] == ["round 1: 0 of 30 judged by the engine"]


def test_a_judge_needs_both_rows():
    with pytest.raises(ValueError, match="both rows"):
        solutions(constraints_from_options({"fix": "3@1"}), lambda s, n: True)


# -- random combinations of placement constraints against independent readings -------------

@settings(max_examples=60, deadline=None)
@given(option_sets, st.sampled_from(["south", "north"]))
def test_random_placement_constraints_match_brute_force(options, side):
    c = constraints_from_options({**options, "side": side})
    got = solutions(c)
    assert got == brute(lambda s: holds(options, s))
    assert got == brute(lambda s: allows(c.south if side == "south" else c.north, s))


@settings(max_examples=25, deadline=None)
@given(option_sets, option_sets)
def test_random_pair_constraints_match_the_oracle(south, north):
    options = {key: [f"S:{v}" for v in south.get(key, [])] + [f"N:{v}" for v in
                                                                north.get(key, [])]
               for key in ("fix", "off", "apart", "centre", "edges")}
    sym = [s for s, o in (("south", south), ("north", north)) if o.get("symmetric")]
    if sym:
        options["symmetric"] = "both" if len(sym) == 2 else sym[0]
    c = constraints_from_options({**options, "side": "pair"})
    assert solutions(c) == allowed_pairs(c)
