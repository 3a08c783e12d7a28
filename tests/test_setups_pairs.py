"""The setup space (gyges.setups.pairs): mirrors, canonical pairs, the pairs asked for, and
lists of pairs read from text."""

from __future__ import annotations

import pytest

from gyges.game.position import ALL_SETUPS
from gyges.game.rules import Side
from gyges.setups.pairs import (
    PairListError,
    PairSelectionError,
    all_pairs,
    canonical_pair,
    canonical_pairs,
    mirror_setup,
    parse_pairs,
    select_pairs,
)


def test_mirror_and_canonical_pairs():
    assert all(mirror_setup(mirror_setup(s)) == s for s in ALL_SETUPS)
    assert sum(mirror_setup(s) == s for s in ALL_SETUPS) == 6
    canon = {canonical_pair(s, n) for s, n in all_pairs()}
    assert len(canon) == 4068 and len(all_pairs()) == 8100
    assert all(canonical_pair(*p) == canonical_pair(mirror_setup(p[0]), mirror_setup(p[1]))
               for p in canon)


def test_select_pairs():
    assert select_pairs() == all_pairs()
    assert select_pairs(" ALL ", "321123, 231123") == all_pairs(ALL_SETUPS, ["231123", "321123"])
    assert select_pairs("231123,231123", "321123") == [("231123", "321123")]


@pytest.mark.parametrize("south, north, side, bad", [
    ("123", "all", Side.SOUTH, "'123'"), ("231123", "32112", Side.NORTH, "'32112'"),
    ("231123,111222", "all", Side.SOUTH, "'111222'"),
], ids=["south", "north", "in-a-list"])
def test_a_bad_setup_names_its_side_and_no_option(south, north, side, bad):
    with pytest.raises(PairSelectionError) as e:
        select_pairs(south, north)
    assert e.value.side is side and e.value.problem.startswith(f"{bad} is not a setup")
    assert str(e.value) == f"{side.title}'s setups: {e.value.problem}" and "--" not in str(e.value)


def test_canonical_pairs_stand_for_the_pairs_asked():
    canon = canonical_pairs(all_pairs())
    assert len(canon) == 4068 and canon == sorted(set(canon))
    assert all(canonical_pair(*p) == p for p in canon)
    # every pair is one of them or the mirror of one
    mirrors = {(mirror_setup(c[0]), mirror_setup(c[1])) for c in canon}
    assert set(canon) | mirrors == set(all_pairs())
    some = select_pairs("321132", "all")
    assert canonical_pairs(some) == sorted(("231123", mirror_setup(n)) for n in ALL_SETUPS)


def test_a_list_of_pairs_reads_back_what_search_prints():
    text = "".join(f"{s} {n}\n" for s, n in select_pairs("231123,112233", "321123"))
    assert parse_pairs(text) == select_pairs("231123,112233", "321123")
    assert parse_pairs("  231123\t321123  # a comment\n\n# only a comment\n") == [
        ("231123", "321123")]
    assert parse_pairs("231123 321123\n231123 321123\n") == [("231123", "321123")] * 2


@pytest.mark.parametrize("text, line, problem", [
    ("231123 321123\n231123 3211234\n", 2, "'3211234' is not a setup: "),
    ("231123 321123 112233\n", 1, "'231123 321123 112233' is not a pair: write SOUTH NORTH"),
    ("#\n\n", None, "no pairs: write one SOUTH NORTH pair per line"),
    ("x" * 80 + " y z\n", 1, "'" + "x" * 37 + "...' is not a pair"),
], ids=["setup", "three", "empty", "long"])
def test_a_bad_list_of_pairs_names_its_line(text, line, problem):
    with pytest.raises(PairListError) as e:
        parse_pairs(text, "p.txt")
    assert e.value.source == "p.txt" and e.value.line == line
    assert e.value.problem.startswith(problem)
    assert str(e.value).startswith(f"p.txt:{line}: " if line else "p.txt: ")
