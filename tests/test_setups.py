"""Setup search: CP-SAT counts checked against brute force with itertools."""

from __future__ import annotations

import itertools
import json

import pytest
import yaml
from click.testing import CliRunner
from hypothesis import given, settings
from hypothesis import strategies as st

from gyges.game.moves import legal_moves
from gyges.game.position import Position
from gyges.game.rules import PRESETS
from gyges.setups.constraints import (
    ALL_SETUPS,
    SetupError,
    check_pair,
    constraints_from_options,
    mirror,
    replace_threats,
    search,
)
from gyges_cli.main import cli

RULES = PRESETS["pbmserv"]

# An independent list of setups: permutations of the six rings, duplicates removed.
BRUTE = sorted(set(itertools.permutations((1, 1, 2, 2, 3, 3))))
BRUTE_SETUPS = ["".join(map(str, p)) for p in BRUTE]


def brute(pred) -> list[str]:
    return [s for s in BRUTE_SETUPS if pred(s)]


def test_ninety_per_side_and_8100_pairs():
    assert len(BRUTE_SETUPS) == 90 and list(ALL_SETUPS) == BRUTE_SETUPS
    assert search(constraints_from_options({})) == BRUTE_SETUPS
    assert search(constraints_from_options({"side": "north"})) == BRUTE_SETUPS
    pairs = search(constraints_from_options({"side": "pair"}))
    assert len(pairs) == 8100 == len(set(pairs))
    assert pairs == sorted(itertools.product(BRUTE_SETUPS, BRUTE_SETUPS))


def adjacent(s: str, size: str) -> bool:
    return any(a == b == size for a, b in zip(s, s[1:], strict=False))


@pytest.mark.parametrize(
    "options, pred",
    [
        ({"fix": "3@1"}, lambda s: s[0] == "3"),
        ({"fix": ["3@1", "2@4"]}, lambda s: s[0] == "3" and s[3] == "2"),
        ({"off": "3@16"}, lambda s: s[0] != "3" and s[5] != "3"),
        ({"off": ["1@1,2,3"]}, lambda s: "1" not in s[:3]),
        ({"apart": "3"}, lambda s: not adjacent(s, "3")),
        ({"apart": "123"}, lambda s: not any(adjacent(s, k) for k in "123")),
        ({"symmetric": True}, lambda s: s == s[::-1]),
        ({"centre": "3=2"}, lambda s: s[2] == s[3] == "3"),
        ({"centre": "1>=1"}, lambda s: "1" in s[2:4]),
        ({"edges": "2<=0"}, lambda s: s[0] != "2" and s[5] != "2"),
        ({"edges": ["1=1", "3=1"]}, lambda s: sorted(s[0] + s[5]) == ["1", "3"]),
        ({"apart": "1", "centre": "2=1", "off": "3@6"},
         lambda s: not adjacent(s, "1") and (s[2:4].count("2") == 1) and s[5] != "3"),
    ],
)
def test_simple_constraints_match_brute_force(options, pred):
    got = search(constraints_from_options(options))
    assert got == brute(pred)
    assert got, "a constraint of this test should leave some setups"
    # the same constraint on North's row when searching North
    north = {k: v for k, v in options.items()}
    north["side"] = "north"
    assert search(constraints_from_options(north)) == brute(pred)


def test_pair_constraints_match_brute_force():
    c = constraints_from_options(
        {"side": "pair", "fix": ["N:3@1", "S:1@6"], "apart": ["N:2"], "centre": "3>=1"})
    want = [(s, n) for s in BRUTE_SETUPS for n in BRUTE_SETUPS
            if n[0] == "3" and s[5] == "1" and not adjacent(n, "2") and "3" in s[2:4]]
    assert search(c) == want
    assert search(c, count_only=True) == len(want)


@pytest.mark.parametrize("how, tie", [("mirror", lambda s: s), ("rotated", mirror)])
def test_north_tied_to_south(how, tie):
    got = search(constraints_from_options({"side": "pair", "north-as": how, "fix": "2@2"}))
    assert got == [(s, tie(s)) for s in BRUTE_SETUPS if s[1] == "2"]


def test_north_fixed_and_south_search():
    got = search(constraints_from_options({"north": "321123", "off": "1@123456"}))
    assert got == []
    got = search(constraints_from_options({"side": "pair", "north": "321123"}))
    assert got == [(s, "321123") for s in BRUTE_SETUPS]


def test_canonical_reports_each_mirror_class_once():
    got = search(constraints_from_options({"canonical": True}))
    classes = {min(s, s[::-1]) for s in BRUTE_SETUPS}
    assert len(got) == len(classes) == 48  # 6 symmetric setups + 84 / 2
    assert {min(s, s[::-1]) for s in got} == classes
    # a constraint that is not mirror-symmetric: members outside the solutions don't count
    got = search(constraints_from_options({"fix": "3@1", "canonical": True}))
    sols = brute(lambda s: s[0] == "3")
    assert len(got) == len({min(s, s[::-1]) for s in sols})
    pairs = search(constraints_from_options({"side": "pair", "canonical": True}), count_only=True)
    # pairs fixed by the whole-board mirror: both setups symmetric (6 x 6)
    assert pairs == (8100 - 36) // 2 + 36


# -- engine properties, lazily: checked against the engine over the same set ---------------


def brute_pairs(north: str, pred) -> list[tuple[str, str]]:
    return [(s, north) for s in BRUTE_SETUPS if pred(Position.setup(s, north))]


def test_min_moves_is_lazy_and_exact():
    north = "321123"
    got = search(constraints_from_options({"side": "pair", "north": north, "min-moves": 330}),
                 RULES)
    want = brute_pairs(north, lambda p: len(legal_moves(p, RULES)) >= 330)
    assert got == want and 0 < len(got) < 90


def test_replace_threats_lazy_and_defined():
    north = "321123"
    got = search(constraints_from_options({"side": "pair", "north": north, "fix": ["3@1", "1@2"],
                                           "no-replace-threat": True}), RULES)

    def exposed(p: Position) -> int:
        # independent count with the public API: South first moves North answers by a
        # replace landing on the ring South moved.
        from gyges.game.moves import apply_move

        n = 0
        for m in legal_moves(p, RULES):
            after = apply_move(p, m)
            replies = legal_moves(after, RULES, [p])
            if not replies.blocked and any(r.is_replace and r.end == m.end for r in replies):
                n += 1
        return n

    want = [(s, north) for s in brute(lambda s: s[:2] == "31")
            if exposed(Position.setup(s, north)) == 0]
    assert got == want and 0 < len(want) < 12
    for s in BRUTE_SETUPS[:6]:
        assert replace_threats(Position.setup(s, north), RULES) == exposed(Position.setup(s, north))


def test_landing_properties_agree_with_the_engine():
    # From a start position no ring can reach the far row in one move: South never lands at
    # once, so "lands in 1" keeps nothing and "cannot land in 1" keeps everything.
    c = constraints_from_options({"side": "pair", "north": "231123", "lands-in": 1,
                                  "fix": "3@1"})
    assert search(c, RULES) == []
    c = constraints_from_options({"side": "pair", "north": "231123", "cannot-land-in": 1,
                                  "fix": "3@1"})
    assert search(c, RULES) == [(s, "231123") for s in BRUTE_SETUPS if s[0] == "3"]


def test_check_pair_combines_properties():
    c = constraints_from_options({"side": "pair", "min-moves": 1, "max-replace-threats": 1000})
    assert check_pair("231123", "321123", c, RULES)
    c = constraints_from_options({"side": "pair", "min-moves": 10_000})
    assert not check_pair("231123", "321123", c, RULES)


# -- errors --------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "options, words",
    [
        ({"fix": "3@7"}, "SIZE@COLUMN"),
        ({"fix": "3"}, "SIZE@COLUMN"),
        ({"off": "x@1"}, "SIZE@COLUMNS"),
        ({"apart": "4"}, "sizes"),
        ({"centre": "3>2"}, "SIZE=COUNT"),
        ({"side": "east"}, "south, north or pair"),
        ({"north": "111222"}, "two 1s"),
        ({"colour": "red"}, "unknown constraint"),
        ({"fix": "N:3@1"}, "North in the search"),
        ({"min-moves": 3}, "start position"),
        ({"side": "pair", "min-moves": "many"}, "whole number"),
        ({"north-as": "flipped"}, "mirror or rotated"),
    ],
)
def test_bad_constraints_are_clear(options, words):
    with pytest.raises(SetupError, match=words):
        constraints_from_options(options)


# -- the command ----------------------------------------------------------------------------


def test_cli_count_list_json_and_yaml(tmp_path):
    runner = CliRunner()
    r = runner.invoke(cli, ["setups", "search", "--side", "pair", "--count"])
    assert r.exit_code == 0 and r.output.strip() == "8100"
    r = runner.invoke(cli, ["setups", "search", "--fix", "3@1", "--apart", "3"])
    assert r.exit_code == 0
    assert r.output.split() == brute(lambda s: s[0] == "3" and not adjacent(s, "3"))
    f = tmp_path / "c.yaml"
    f.write_text(yaml.safe_dump({"side": "pair", "fix": ["N:3@1"], "north-as": "rotated",
                                 "symmetric": "south"}))
    r = runner.invoke(cli, ["setups", "search", "--file", str(f), "--json"])
    assert r.exit_code == 0, r.output
    data = json.loads(r.output)
    want = [{"south": s, "north": s[::-1]} for s in BRUTE_SETUPS
            if s == s[::-1] and s[5] == "3"]
    assert data["results"] == want and data["count"] == len(want) == 2
    # KEY=VALUE arguments, the file as an argument, and options add up
    r = runner.invoke(cli, ["setups", "search", str(f), "apart=1", "--count"])
    assert r.exit_code == 0 and int(r.output) == len(
        [s for s in BRUTE_SETUPS if s == s[::-1] and s[5] == "3" and not adjacent(s, "1")])


def test_cli_bad_input_exit_2(tmp_path):
    runner = CliRunner()
    for args in (["--fix", "9@9"], ["colour=red"], ["--file", str(tmp_path / "none.yaml")],
                 ["--side", "pair", "--min-moves", "-3"]):
        r = runner.invoke(cli, ["setups", "search", *args])
        assert r.exit_code == 2, (args, r.output)
        assert "Traceback" not in r.output
    bad = tmp_path / "bad.yaml"
    bad.write_text("fix: [3@1\n")
    r = runner.invoke(cli, ["setups", "search", "--file", str(bad)])
    assert r.exit_code == 2 and "bad.yaml" in r.output and "line" in r.output


def test_forced_landing_within_2_lazily_matches_the_solver():
    from gyges.search.prover import win_in

    north = "321123"
    base = {"side": "pair", "north": north, "fix": ["3@1", "1@2"]}
    sols = brute(lambda s: s[0] == "3" and s[1] == "1")
    wins = [(s, north) for s in sols if win_in(Position.setup(s, north), RULES, 2)]
    got = search(constraints_from_options({**base, "lands-in": 2}), RULES)
    assert got == wins
    got = search(constraints_from_options({**base, "cannot-land-in": 2}), RULES)
    assert got == [(s, north) for s in sols if (s, north) not in wins] and len(sols) == 12


def test_cli_symmetric_optional_value_and_rules():
    runner = CliRunner()
    r = runner.invoke(cli, ["setups", "search", "--symmetric", "--apart", "1"])
    assert r.exit_code == 0, r.output
    assert r.output.split() == brute(lambda s: s == s[::-1] and not adjacent(s, "1"))
    r = runner.invoke(cli, ["setups", "search", "--side", "pair", "--symmetric", "north",
                            "--south", "231123", "--count"])
    assert r.exit_code == 0 and int(r.output) == 6
    # engine properties follow --rules: without replace, no first move is a replace
    r = runner.invoke(cli, ["setups", "search", "--rules", "dorbec-beginner", "--side", "pair",
                            "--north", "321123", "--fix", "3@1", "--min-moves", "30"])
    assert r.exit_code == 0, r.output
    rules = PRESETS["dorbec-beginner"]
    want = [f"{s} 321123" for s in BRUTE_SETUPS if s[0] == "3"
            and len(legal_moves(Position.setup(s, "321123"), rules)) >= 30]
    assert r.stdout.strip().splitlines() == want and want


# -- random combinations of placement constraints against an independent reading ---------

OPS = {"=": lambda a, b: a == b, "<=": lambda a, b: a <= b, ">=": lambda a, b: a >= b}


def holds(options: dict, s: str) -> bool:
    """What the options say, read directly from docs/setups.md, on one setup string."""
    for text in options.get("fix", []):
        size, col = text.split("@")
        if s[int(col) - 1] != size:
            return False
    for text in options.get("off", []):
        size, cols = text.split("@")
        if any(s[int(c) - 1] == size for c in cols):
            return False
    for sizes in options.get("apart", []):
        if any(adjacent(s, k) for k in sizes):
            return False
    if options.get("symmetric") and s != s[::-1]:
        return False
    for key, cols in (("centre", (3, 4)), ("edges", (1, 6))):
        for text in options.get(key, []):
            op = next(o for o in ("<=", ">=", "=") if o in text)
            size, count = text.split(op)
            if not OPS[op](sum(s[c - 1] == size for c in cols), int(count)):
                return False
    return True


sizes = st.sampled_from("123")
cols = st.integers(1, 6).map(str)
option_sets = st.fixed_dictionaries({}, optional={
    "fix": st.lists(st.builds(lambda a, b: f"{a}@{b}", sizes, cols), max_size=2),
    "off": st.lists(st.builds(lambda a, b: f"{a}@{''.join(sorted(set(b)))}", sizes,
                              st.lists(cols, min_size=1, max_size=3)), max_size=2),
    "apart": st.lists(st.sampled_from(["1", "2", "3", "12", "123"]), max_size=1),
    "symmetric": st.booleans(),
    "centre": st.lists(st.builds(lambda a, o, k: f"{a}{o}{k}", sizes,
                                 st.sampled_from(["=", "<=", ">="]), st.integers(0, 2)),
                       max_size=2),
    "edges": st.lists(st.builds(lambda a, o, k: f"{a}{o}{k}", sizes,
                                st.sampled_from(["=", "<=", ">="]), st.integers(0, 2)),
                      max_size=2),
})


@settings(max_examples=60, deadline=None)
@given(option_sets, st.sampled_from(["south", "north"]))
def test_random_placement_constraints_match_brute_force(options, side):
    got = search(constraints_from_options({**options, "side": side}))
    assert got == brute(lambda s: holds(options, s))
