"""Every worked example of seed 000 (the pbmserv rules), replayed with the engine.

Each diagram of the seed is transcribed as a position string (row 6 first). Where an example
does not hold as printed, the test shows why and then tests the corrected reading (see the
errata section of docs/rules.md):

* Relocation: North's ``64x44=34`` is illegal as written: the ring on 64 is a single, which
  moves one step and reaches 44 only by bouncing on the triple at 65 (or 63); the seed's
  third diagram is the result of ``64-65x44=34`` (or ``64-63x44=34``).
* Stalemating: with the double on 36 as printed, South's shore stays on row 3 after
  ``34-44-43``, so ``43-53-N`` is not a legal move; with that double on 46 the example works.
"""

from __future__ import annotations

import pytest
from common import BOUNCING, DATA

from gyges.formats.notation import NotationError, format_move, parse_move, parse_turn
from gyges.formats.record import parse_record, replay
from gyges.game import _movegen
from gyges.game.moves import apply_move, can_land, legal_moves
from gyges.game.position import START, Position
from gyges.game.rules import PRESETS, Side
from gyges.game.squares import SOUTH_GOAL, parse_slot

PBM = PRESETS["pbmserv"]


def pos(text: str) -> Position:
    return Position.from_string(text)


def play(position: Position, text: str, rules=PBM, history=()) -> Position:
    move = parse_move(text, position, rules, history)
    assert not move.is_win
    return apply_move(position, move)


# -- Recognizing your rings -------------------------------------------------------------------

def test_recognizing_rings_shores_move_after_16_46_and_62_41():
    position = pos(".3..../..21../.2123./.1132./....../.....3 S")
    assert (position.shore(Side.SOUTH), position.shore(Side.NORTH)) == (1, 6)
    # "North and South can only play one triple ring each"
    for side, start in ((Side.SOUTH, "16"), (Side.NORTH, "62")):
        assert {m.start for m in legal_moves(position.with_turn(side), PBM)} == {
            parse_slot(start)}
    after = play(play(position, "16-46"), "62-41")
    assert (after.shore(Side.SOUTH), after.shore(Side.NORTH)) == (3, 5)


# -- Bouncing ---------------------------------------------------------------------------------



@pytest.mark.parametrize("text", ["51-43-33-31-21-(11-12-)S", "51-43-33-31-21-S"])
def test_bouncing_north_wins(text):
    move = parse_move(text, pos(BOUNCING), PBM)
    assert move.is_win and move.side is Side.NORTH and move.end == SOUTH_GOAL
    assert format_move(move) == "51-43-33-31-21-S"
    # the only goal landing of the position
    assert [w.start for w in legal_moves(pos(BOUNCING), PBM).wins] == [move.start]


def test_bouncing_south_wards_off_the_threat():
    south = pos(BOUNCING).with_turn(Side.SOUTH)
    assert can_land(south.with_turn(Side.NORTH), PBM)
    after = play(south, "15-26-36-66")
    assert after.turn is Side.NORTH
    assert after.shore(Side.NORTH) == 6        # "North's new proxime (her shore is now row 6)"
    assert not can_land(after, PBM)
    assert not legal_moves(after, PBM).wins


# -- Eurydice's taboo ---------------------------------------------------------------------------

TABOO = "....../1...../3.23../3.211./2.132./...... N"
ACE = "51-41-(42-32-)31-(32-22-)21-(11-)S"


def test_taboo_north_cannot_win():
    with pytest.raises(NotationError, match="connection 31-32 used twice"):
        parse_move(ACE, pos(TABOO), PBM)
    with pytest.raises(NotationError, match="connection 31-32 used twice"):
        parse_move("51-41-31-21-S", pos(TABOO), PBM)
    assert not legal_moves(pos(TABOO), PBM).wins
    assert not can_land(pos(TABOO), PBM)


def test_taboo_north_wins_under_entry_taboo():
    # taboo=entry (seed 004): 31-32 and 32-31 enter different slots, so the path is fine
    move = parse_move(ACE, pos(TABOO), PRESETS["dorbec"])
    assert move.is_win and format_move(move, long=True) == ACE
    assert can_land(pos(TABOO), PRESETS["dorbec"])


def test_taboo_south_wins_visiting_24_twice():
    text = "24-(14-15-)25-(24-)34-44-(54-64-)N"
    move = parse_move(text, pos(TABOO).with_turn(Side.SOUTH), PBM)
    assert move.is_win and move.side is Side.SOUTH
    assert move.path.count(parse_slot("24")) == 2
    assert format_move(move, long=True) == text


# -- Relocation ---------------------------------------------------------------------------------

RELOCATION_START = "213132/....../....../....../....../113223 S"
# the seed's second diagram: the double relocated to 44 (row 4)
AFTER_13X14 = "213132/....../...2../....../....../11.323 N"
# the seed's third diagram
AFTER_REPLY = "213.32/....../...1../...2../....../11.323 S"


def test_relocation_13x14_44_threatens_14_44_64_N():
    start = pos(RELOCATION_START)
    move = parse_move("13x14=44", start, PBM)
    assert (move.start, move.end, move.relocation) == tuple(map(parse_slot, ("13", "14", "44")))
    after = apply_move(start, move)
    assert str(after) == AFTER_13X14
    threat = parse_move("14-44-64-N", after.with_turn(Side.SOUTH), PBM, [start])
    assert threat.is_win
    assert can_land(after.with_turn(Side.SOUTH), PBM)


def test_relocation_64x44_34_as_printed_is_illegal():
    history = [pos(RELOCATION_START)]
    with pytest.raises(NotationError, match="a single moves 1 step: 64 cannot reach 44 "
                                            "without a bounce"):
        parse_move("64x44=34", pos(AFTER_13X14), PBM, history)


@pytest.mark.parametrize("text", ["64-65x44=34", "64-63x44=34"])
def test_relocation_corrected_reply_wards_off_the_threat(text):
    history = [pos(RELOCATION_START)]
    position = pos(AFTER_13X14)
    after = play(position, text, PBM, history)
    assert str(after) == AFTER_REPLY
    history.append(position)
    assert not can_land(after, PBM, history)
    # "prevents South from reaching the two rings in the middle in her next move": no path
    # of any South ring on its shore even enters 34 or 44
    middle = {parse_slot("34"), parse_slot("44")}
    shore = after.shore(Side.SOUTH)
    for start, _ in after.rings():
        if start // 6 + 1 == shore:
            for _, path, _ in _movegen.ring_paths(after.key, 0, PBM.flags(), start):
                assert not middle & set(path)


# -- Stalemating --------------------------------------------------------------------------------

STALEMATE_PRINTED = ".3.3.3/112232/...1../...1.2/....../...... S"
STALEMATE_CORRECTED = ".3.3.3/112232/...1.2/...1../....../...... S"


@pytest.mark.parametrize("diagram", [STALEMATE_PRINTED, STALEMATE_CORRECTED])
def test_north_is_stalemated(diagram):
    moves = legal_moves(pos(diagram).with_turn(Side.NORTH), PBM)
    assert moves.blocked and moves.mover is Side.SOUTH and moves.moves


def test_stalemate_as_printed_fails_on_the_second_move():
    position = pos(STALEMATE_PRINTED)
    after = play(position, "34-44-43")
    assert after.shore(Side.SOUTH) == 3        # the double on 36 keeps South's shore on row 3
    assert legal_moves(after, PBM).mover is Side.SOUTH   # North still stalemated
    with pytest.raises(NotationError, match="43 is not on South's shore \\(row 3\\)"):
        parse_turn("34-44-43; 43-53-N", position, PBM)


def test_stalemate_corrected_south_wins_in_one_turn():
    position = pos(STALEMATE_CORRECTED)
    first, second = parse_turn("34-44-43; 43-53-N", position, PBM)
    assert first.side is second.side is Side.SOUTH
    after = apply_move(position, first)
    assert legal_moves(after, PBM).mover is Side.SOUTH   # "here North is still stalemated"
    assert second.is_win


# -- the sample game ----------------------------------------------------------------------------

AFTER_PAIRS = {
    2: "321123/....../....../....../....../231123 S",
    4: ".21123/..3.../....../....3./....../23112. S",
    6: ".2113./..3.../....../....3./2..2../2311.. S",
    8: "..113./..2.../....../..3.13/2..2../23.1.. S",
    10: "..1.3./..21../..3.../..3.11/2..2../23.... S",
    12: "..1.../..23../..3.../..3113/2..2../2..1.. S",
}


def test_sample_game_replays_through_the_seed_diagrams():
    record = parse_record((DATA / "sample_game.txt").read_text(), "sample_game.txt")
    game = replay(record, PBM)
    assert game.error is None
    assert game.positions[0] == START
    # positions[i] is the position after entry 2 + i
    for entry, diagram in AFTER_PAIRS.items():
        assert str(game.positions[entry - 2]) == diagram, entry
    assert record.result == "Resign" and game.winner is Side.NORTH


def test_sample_game_continuation_north_lands_on_south_goal():
    record = parse_record((DATA / "sample_game_continued.txt").read_text())
    game = replay(record, PBM)
    assert game.error is None and game.winner is Side.NORTH
    assert str(game.positions[14 - 2]) == "...1.1/..23../..3.../..3113/2..2../2..... S"
    assert game.positions[15 - 2].board_string() == "...1.1/..23../..3.../..3113/22.2../......"
    last = game.moves[-1]
    assert len(last) == 1 and last[0].is_win and last[0].end == SOUTH_GOAL
    assert format_move(last[0]) == "64-54-35-36-S"

