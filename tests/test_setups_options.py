"""Reading constraints (gyges.setups.search.options): option keys, KEY=VALUE arguments, YAML
files (YAML 1.2 booleans), their errors, and the round trip with Constraints.options."""

from __future__ import annotations

import pytest
import yaml
from hypothesis import given, settings
from hypothesis import strategies as st

from gyges.game.rules import Side
from gyges.setups.pairs import SetupError
from gyges.setups.search.constraints import (
    Constraints,
    Count,
    CountOp,
    NorthAs,
    SearchSide,
    SideConstraints,
)
from gyges.setups.search.model import solutions
from gyges.setups.search.options import (
    ConstraintFileError,
    ScopeError,
    Yaml12Loader,
    constraints_from_options,
    load_constraints,
    merge_options,
    read_constraints,
)
from tests.setups_oracle import brute, option_sets


@pytest.mark.parametrize(
    "options, words",
    [
        pytest.param({"fix": "3@7"}, "SIZE@COLUMN", id="fix-column"),
        pytest.param({"fix": "3"}, "SIZE@COLUMN", id="fix-no-column"),
        pytest.param({"off": "x@1"}, "SIZE@COLUMNS", id="off-size"),
        pytest.param({"apart": "4"}, "sizes", id="apart"),
        pytest.param({"centre": "3>2"}, "SIZE=COUNT", id="centre"),
        pytest.param({"side": "east"}, "south, north or pair", id="side"),
        pytest.param({"north": "111222"}, "two 1s", id="setup"),
        pytest.param({"colour": "red"}, "unknown constraint", id="unknown"),
        pytest.param({"fix": "N:3@1"}, "North in the search", id="scope"),
        pytest.param({"min-moves": 3}, "start position", id="engine-scope"),
        pytest.param({"side": "pair", "min-moves": "many"}, "whole number", id="number"),
        pytest.param({"north-as": "flipped"}, "mirror or rotated", id="north-as"),
        pytest.param({"canonical": "yes"}, "canonical: 'yes' is not true or false",
                     id="flag-word"),
        pytest.param({"side": "pair", "no-replace-threat": "no"},
                     "no-replace-threat: 'no' is not true or false", id="flag-no"),
        pytest.param({"symmetric": "no"}, "symmetric: 'no' is not true, south, north or both",
                     id="symmetric-no"),
    ],
)
def test_bad_constraints_are_clear(options, words):
    with pytest.raises(SetupError, match=words):
        constraints_from_options(options)


def test_scope_errors_carry_the_facts_and_name_no_option():
    with pytest.raises(ScopeError) as e:
        constraints_from_options({"fix": "N:3@1"})
    assert e.value.side is Side.NORTH and not e.value.engine
    assert "--" not in str(e.value) and "side: pair" in str(e.value)
    with pytest.raises(ScopeError) as e:
        constraints_from_options({"side": "north", "min-moves": 3})
    assert e.value.side is Side.SOUTH and e.value.engine
    assert "--" not in str(e.value) and "south: SETUP" in str(e.value)


def test_flags_take_true_or_false():
    assert constraints_from_options({"canonical": "true"}).canonical
    assert not constraints_from_options({"canonical": "false"}).canonical
    assert not constraints_from_options({"canonical": False}).canonical
    c = constraints_from_options({"side": "pair", "no-replace-threat": "TRUE"})
    assert c.max_replace_threats == 0


# -- YAML files: YAML 1.2 booleans ----------------------------------------------------------


def test_yaml_loader_keeps_yes_no_on_off_as_words():
    text = "off: [3@16]\non: yes\nno: n\ny: Off\nt: true\nf: FALSE\nn: 3\n"
    assert yaml.load(text, Loader=Yaml12Loader) == {
        "off": ["3@16"], "on": "yes", "no": "n", "y": "Off", "t": True, "f": False, "n": 3}
    # PyYAML's own safe loader is YAML 1.1, and is left as it is
    assert yaml.safe_load("off: [3@16]") == {False: ["3@16"]}


def test_yaml_key_off_is_read(tmp_path):
    f = tmp_path / "off.yaml"
    f.write_text("off: [3@16]\n")
    assert load_constraints(str(f)) == {"off": ["3@16"]}
    got = solutions(read_constraints(files=[str(f)]))
    assert got == brute(lambda s: s[0] != "3" and s[5] != "3") and len(got) == 36


@pytest.mark.parametrize("text, words", [
    pytest.param("canonical: yes\n", "canonical: 'yes' is not true or false", id="canonical"),
    pytest.param("side: pair\nno-replace-threat: on\n",
                 "no-replace-threat: 'on' is not true or false", id="no-replace-threat"),
    pytest.param("symmetric: no\n", "symmetric: 'no' is not true, south, north or both",
                 id="symmetric"),
    pytest.param("yes: 1\n", "unknown constraint 'yes'", id="key"),
])
def test_yaml_yes_no_values_are_refused(tmp_path, text, words):
    f = tmp_path / "c.yaml"
    f.write_text(text)
    with pytest.raises(ConstraintFileError, match=words) as e:
        load_constraints(str(f))
    assert e.value.path == str(f) and str(e.value).startswith(f"{f}: ")


def test_yaml_words_the_docs_allow(tmp_path):
    f = tmp_path / "c.yaml"
    f.write_text("symmetric: yes\ncanonical: true\n")    # symmetric's yes: the side searched
    c = read_constraints(files=[str(f)])
    assert c.south.symmetric and c.canonical
    f.write_text("symmetric: false\ncanonical: false\n")
    assert read_constraints(files=[str(f)]) == Constraints()


def test_constraint_file_errors_name_the_file_and_line(tmp_path):
    bad = tmp_path / "bad.yaml"
    bad.write_text("fix: [3@1\n")
    with pytest.raises(ConstraintFileError) as e:
        load_constraints(str(bad))
    assert e.value.line == 2 and str(e.value).startswith(f"{bad}, line 2: not valid YAML")
    with pytest.raises(ConstraintFileError, match="cannot read it"):
        load_constraints(str(tmp_path / "none.yaml"))
    bad.write_text("- 1\n")
    with pytest.raises(ConstraintFileError, match="a mapping of keys"):
        load_constraints(str(bad))
    bad.write_text("fix: [N:3@1]\n")
    with pytest.raises(ConstraintFileError) as e:
        load_constraints(str(bad))
    assert isinstance(e.value.cause, ScopeError) and e.value.cause.side is Side.NORTH


# -- every source at once --------------------------------------------------------------------


def test_sources_add_up_and_later_values_win(tmp_path):
    a, b = tmp_path / "a.yaml", tmp_path / "b.yaml"
    a.write_text("side: north\nfix: [3@1]\n")
    b.write_text("side: pair\nfix: [N:2@2]\n")
    c = read_constraints([str(a), "apart=1", "fix=1@6"], files=[str(b)],
                         options={"fix": ("2@3",), "canonical": False, "side": None})
    # the files first (an argument's before --file's), then KEY=VALUE, then the options
    assert c.side is SearchSide.PAIR
    assert c.south.fixed == ((1, 6), (2, 3), (3, 1)) and c.north.fixed == ((2, 2),)
    assert c.south.apart == frozenset({1}) and not c.canonical
    with pytest.raises(SetupError, match="neither KEY=VALUE with a constraint key"):
        read_constraints(["colour=red"])
    with pytest.raises(SetupError, match="nor a constraint file"):
        read_constraints([str(tmp_path / "missing.yaml")])


def test_merge_options():
    assert merge_options({"fix": ["3@1"], "side": "pair"},
                         {"fix": ("2@2",), "side": None, "off": (), "canonical": False}
                         ) == {"fix": ["3@1", "2@2"], "side": "pair"}


# -- the values: round trip and notation ---------------------------------------------------


@settings(max_examples=60, deadline=None)
@given(option_sets, option_sets, st.sampled_from(["south", "north", "pair"]),
       st.sampled_from([None, "mirror", "rotated"]), st.booleans())
def test_constraints_round_trip_through_their_options(south, north, side, north_as, canonical):
    options: dict = {"side": side, "canonical": canonical}
    if north_as:
        options["north-as"] = north_as
    searched, other = ("N", "S") if side == "north" else ("S", "N")
    for key in ("fix", "off", "apart", "centre", "edges"):   # on the rows placed
        options[key] = [f"{searched}:{v}" for v in south.get(key, [])]
        if side == "pair" or north_as:
            options[key] += [f"{other}:{v}" for v in north.get(key, [])]
    if south.get("symmetric"):
        options["symmetric"] = True
    if side == "pair":
        options["min-moves"] = 10
    c = constraints_from_options(options)
    assert constraints_from_options(c.options()) == c
    assert repr(c) == f"Constraints({c.options()!r})"


def test_values_show_their_notation():
    c = constraints_from_options({"side": "pair", "fix": ["3@1", "N:2@6"], "off": "3@56",
                                  "centre": "N:1<=1", "symmetric": "north", "south": "331122",
                                  "north-as": "rotated", "no-replace-threat": True})
    assert repr(c) == ("Constraints({'side': 'pair', 'fix': ['S:3@1', 'N:2@6'], "
                       "'off': ['S:3@56'], 'symmetric': 'north', 'centre': ['N:1<=1'], "
                       "'south': '331122', 'north-as': 'rotated', 'max-replace-threats': 0})")
    assert repr(c.north) == ("SideConstraints({'fix': ['2@6'], 'centre': ['1<=1'], "
                             "'symmetric': True})")
    assert repr(c.north.centre[0]) == "Count('1<=1')" and c.north_as is NorthAs.ROTATED
    assert c.north.centre == (Count(1, CountOp.LE, 1),)
    assert repr(SideConstraints()) == "SideConstraints({})" and SideConstraints().empty
