"""The setup search with engine properties (gyges.setups.search.find): lazily enforced,
checked against the engine's public API over the same set; and the search's result."""

from __future__ import annotations

import json

import pytest

from gyges.game.moves import apply_move, legal_moves
from gyges.game.position import Position
from gyges.game.rules import PRESETS
from gyges.search import win_in
from gyges.setups.pairs import SetupError
from gyges.setups.search.constraints import SearchResult, SearchSide
from gyges.setups.search.figures import first_move_threats, replace_threats
from gyges.setups.search.find import check_pair, find_setups, search
from gyges.setups.search.model import RoundProgress
from gyges.setups.search.options import constraints_from_options
from tests.setups_oracle import BRUTE_SETUPS, brute

RULES = PRESETS["pbmserv"]


def brute_pairs(north: str, pred) -> list[tuple[str, str]]:
    return [(s, north) for s in BRUTE_SETUPS if pred(Position.setup(s, north))]


def test_min_moves_is_lazy_and_exact():
    north = "321123"
    got = search(constraints_from_options({"side": "pair", "north": north, "min-moves": 330}),
                 RULES)
    want = brute_pairs(north, lambda p: len(legal_moves(p, RULES)) >= 330)
    assert got == want and 0 < len(got) < 90


def exposed(p: Position) -> int:
    """An independent count with the public API: South first moves (one per board left)
    after which North, not blocked, can leave a ring of another size where the ring South
    moved stands (its end; the relocation slot for a replace by a ring of its own size,
    whose board is a plain move's there; either slot of a swap)."""
    n = 0
    boards = set()
    for m in legal_moves(p, RULES):
        if m.is_win:
            continue
        after = apply_move(p, m)
        if after.board in boards:
            continue
        boards.add(after.board)
        if m.relocation == m.start:
            moved = {m.start, m.end}
        elif m.is_replace and p.board[m.end] == p.board[m.start]:
            moved = {m.relocation}
        else:
            moved = {m.end}
        replies = legal_moves(after, RULES, [p])
        if not replies.blocked and any(
                not r.is_win and apply_move(after, r).board[x] not in (0, after.board[x])
                for r in replies for x in moved):
            n += 1
    return n


def test_replace_threats_lazy_and_defined():
    north = "321123"
    got = search(constraints_from_options({"side": "pair", "north": north, "fix": ["3@1", "1@2"],
                                           "no-replace-threat": True}), RULES)
    want = [(s, north) for s in brute(lambda s: s[:2] == "31")
            if exposed(Position.setup(s, north)) == 0]
    assert got == want and 0 < len(want) < 12
    for s in BRUTE_SETUPS[:6]:
        assert replace_threats(Position.setup(s, north), RULES) == exposed(Position.setup(s, north))


def test_replace_threats_read_boards_not_the_generators_choice():
    # The generator keeps one move per board: a replace by a ring of the moved ring's size
    # (the board of a plain move to its relocation slot) is listed as landing on one of
    # the rings of that size, chosen by slot order, so by the orientation. After South's
    # 15-16-14-13x12=33 here North's 3 from 63 is listed landing on the 3 just moved
    # (63-33-13x12=...), after the mirror's 12-11-13-14x15=34 on another 3: the count once
    # read that landing slot (23 here, 22 for the mirror). Both counts are now the
    # oracle's, which reads boards.
    for south, north in (("121332", "123213"), ("233121", "312321")):
        p = Position.setup(south, north)
        assert replace_threats(p, RULES) == exposed(p)


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


def test_forced_landing_within_2_lazily_matches_the_solver():
    north = "321123"
    base = {"side": "pair", "north": north, "fix": ["3@1", "1@2"]}
    sols = brute(lambda s: s[0] == "3" and s[1] == "1")
    wins = [(s, north) for s in sols if win_in(Position.setup(s, north), RULES, 2)]
    got = search(constraints_from_options({**base, "lands-in": 2}), RULES)
    assert got == wins
    got = search(constraints_from_options({**base, "cannot-land-in": 2}), RULES)
    assert got == [(s, north) for s in sols if (s, north) not in wins] and len(sols) == 12


def test_first_move_threats_agree_with_the_public_api():
    from gyges.game.moves import can_land
    from gyges.game.rules import Side

    p = Position.setup("231132", "132312")
    moves = legal_moves(p, RULES)
    got = first_move_threats(p, RULES, moves)
    afters = {m: apply_move(p, m) for m in moves}
    assert got.blunders == sum(can_land(a, RULES, [p]) for a in afters.values())
    assert got.landing_threats == sum(can_land(a.with_turn(Side.SOUTH), RULES, [p])
                                      for a in afters.values())
    assert got.threats == tuple(m for m, a in afters.items()
                                if can_land(a.with_turn(Side.SOUTH), RULES, [p])
                                and not can_land(a, RULES, [p]))
    assert got.threats


def test_search_reports_its_rounds():
    events: list[RoundProgress] = []
    c = constraints_from_options({"side": "pair", "north": "321123", "min-moves": 400})
    got = search(c, RULES, progress=events.append)
    assert [str(e) for e in events if e.over] == [
        "round 1: 90 proposed, 85 cut", f"round 2: {len(got)} proposed, 0 cut"]
    assert len(got) == 5


@pytest.mark.parametrize("options", [
    pytest.param({"side": "pair", "north-as": "mirror", "canonical": True}, id="pairs"),
    pytest.param({"fix": "3@1", "apart": "3"}, id="setups"),
])
def test_search_result_and_its_json(options):
    c = constraints_from_options(options)
    found = find_setups(c, RULES)
    listed = search(c, RULES)
    assert list(found.results) == listed and found.count == len(listed) > 0
    assert found.lines() == [r if isinstance(r, str) else " ".join(r) for r in listed]
    data = json.loads(json.dumps(found.to_json()))
    assert data["side"] == str(c.side) and data["preset"] == "pbmserv"
    assert SearchResult.from_json(data) == found
    counted = found.to_json(results=False)
    assert "results" not in counted and counted["count"] == found.count
    back = SearchResult.from_json(counted)
    assert back.results is None and back.count == found.count and back.lines() == []


@pytest.mark.parametrize("data, words", [
    pytest.param({"side": "east"}, "side is south, north or pair, not 'east'", id="side"),
    pytest.param({"side": "pair", "rules": "pbmserv"}, "rules is an object", id="rules"),
    pytest.param({"side": "pair", "rules": {"taboo": "x"}}, "rule taboo cannot be", id="rule"),
    pytest.param({"side": "pair", "rules": {}, "canonical": False}, "no 'count' key",
                 id="no-count"),
    pytest.param({"side": "south", "rules": {}, "canonical": "no", "count": 1},
                 "canonical is true or false", id="canonical"),
    pytest.param({"side": "south", "rules": {}, "canonical": False, "count": 1,
                  "results": ["123"]}, "is not a setup", id="setup"),
])
def test_search_result_from_bad_json(data, words):
    with pytest.raises(SetupError, match=words):
        SearchResult.from_json(data)


def test_search_result_values():
    r = SearchResult(SearchSide.SOUTH, False, RULES, ("231123",))
    assert r.count == 1 and repr(r) == "SearchResult(south: 1, rules pbmserv)"
    with pytest.raises(SetupError):
        SearchResult(SearchSide.SOUTH, False, RULES, ("231123",), count=2)
    with pytest.raises(SetupError):
        SearchResult(SearchSide.SOUTH, False, RULES, None)
