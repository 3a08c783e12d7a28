"""The setup space (gyges.setups.pairs): mirrors, canonical pairs, the pairs asked for."""

from __future__ import annotations

import pytest

from gyges.game.rules import Side
from gyges.setups.pairs import (
    ALL_SETUPS,
    PairSelectionError,
    all_pairs,
    canonical_pair,
    mirror,
    select_pairs,
)


def test_mirror_and_canonical_pairs():
    assert all(mirror(mirror(s)) == s for s in ALL_SETUPS)
    assert sum(mirror(s) == s for s in ALL_SETUPS) == 6
    canon = {canonical_pair(s, n) for s, n in all_pairs()}
    assert len(canon) == 4068 and len(all_pairs()) == 8100
    assert all(canonical_pair(*p) == canonical_pair(mirror(p[0]), mirror(p[1])) for p in canon)


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
