"""Game records: reading, writing (round trip) and replaying."""

from __future__ import annotations

import random

import pytest
from common import DATA

from gyges.formats.notation import format_move
from gyges.formats.record import (
    GameRecord,
    RecordedTurn,
    RecordError,
    format_record,
    parse_record,
    record_from_moves,
    replay,
)
from gyges.game.moves import apply_move, legal_moves
from gyges.game.position import Position
from gyges.game.rules import PRESETS, Side

PBM = PRESETS["pbmserv"]


def test_sample_game_reads_and_round_trips():
    text = (DATA / "sample_game.txt").read_text()
    record = parse_record(text, "sample_game.txt")
    assert (record.south_setup, record.north_setup) == ("231123", "321123")
    assert [(t.number, t.side) for t in record.turns[:2]] == [(3, Side.SOUTH), (4, Side.NORTH)]
    assert record.turns[-1] == RecordedTurn(12, Side.NORTH, "65-35x36=34", 7)
    assert record.result == "Resign" and record.source == "sample_game.txt"
    assert format_record(record) == text
    again = parse_record(format_record(record))
    assert (again.turns, again.result) == (record.turns, record.result)


@pytest.mark.parametrize("name", ["sample_game.txt", "sample_game_continued.txt"])
def test_record_files_are_written_in_the_canonical_form(name):
    text = (DATA / name).read_text()
    assert format_record(parse_record(text)) == text


def test_lenient_reading():
    text = ("# a game\nsouth north\n\n1 231123\n2 321123\n3 16-35   4 61-53 # comment\n"
            "5 resign\n")
    record = parse_record(text)
    assert [t.text for t in record.turns] == ["16-35", "61-53"]
    assert record.result == "Resign"
    assert format_record(record) == ("South North\n1 231123 2 321123\n3 16-35 4 61-53\n"
                                     "5 Resign\n")


def test_turn_of_several_moves_spans_the_semicolon():
    text = "South North\n1 231123 2 321123\n3 16-35; 35-46 4 61-53\n"
    record = parse_record(text)
    assert [t.text for t in record.turns] == ["16-35; 35-46", "61-53"]
    assert format_record(record) == text


@pytest.mark.parametrize(
    "text, where, why",
    [
        ("", "<record>:1", "needs the header"),
        ("White Black\n1 231123 2 321123\n", "<record>:1", "begins with the header"),
        ("South North\n16-35\n", "<record>:2", "each entry begins with its number"),
        ("South North\n1 231123 2 321123\n3 16-35 5 61-53\n", "<record>:3",
         "expected 4"),
        ("South North\n1 231124 2 321123\n", "<record>:2", "South's setup"),
        ("South North\n1 231123 2 32112\n", "<record>:2", "North's setup"),
        ("South North\n1 231123\n3 16-35\n", "<record>:3", "expected 2"),
        ("South North\n1 231123 2 321123\n3 Resign 4 61-53\n", "<record>:3",
         "follows the result"),
        ("South North\n1 231123 2 321123\n3\n", "<record>:3", "entry 3 is empty"),
    ],
)
def test_record_errors_name_source_and_line(text, where, why):
    with pytest.raises(RecordError) as e:
        parse_record(text)
    assert str(e.value).startswith(where + ":")
    assert why in str(e.value)


def test_replay_stops_at_the_first_illegal_move():
    text = "South North\n1 231123 2 321123\n3 16-35 4 61-53\n5 15-24 6 66x65=11\n7 13-14\n"
    game = replay(parse_record(text, "bad.txt"), PBM)
    assert game.error is not None
    assert (game.error.number, game.error.line, game.error.text) == (6, 4, "66x65=11")
    assert game.error.reason == (
        "66x65=11: 11 is not empty: a relocated ring goes to an empty slot")
    assert len(game.positions) == 4 and len(game.moves) == 3 and game.winner is None
    assert str(game.error) == f"line 4: entry 6 (66x65=11): {game.error.reason}"


def test_replay_renop_history():
    # a single and a triple go out and come back: the fourth move would rebuild the start
    start = Position.from_string("....3./....../....../....../....../..1... S")
    turns = tuple(RecordedTurn(n, side, text, n + 1) for n, side, text in (
        (1, Side.SOUTH, "13-23"), (2, Side.NORTH, "65-55"), (3, Side.SOUTH, "23-13"),
        (4, Side.NORTH, "55-65")))
    record = GameRecord(None, None, turns, None)
    game = replay(record, PBM, start=start)
    assert game.error is not None and game.error.number == 4
    assert game.error.reason == "55-65: the move reproduces an earlier position (Renop law)"
    assert len(game.positions) == 4
    allowed = replay(record, PBM.with_options({"repetition": "allowed"}), start=start)
    assert allowed.error is None and allowed.positions[-1] == start.with_turn(Side.SOUTH)


def test_replay_wrong_side_when_opponent_is_blocked():
    start = Position.from_string(".3.3.3/112232/...1.2/...1../....../...... S")
    ok = GameRecord(None, None, (RecordedTurn(1, Side.SOUTH, "34-44-43; 43-53-N", 3),), None)
    game = replay(ok, PBM, start=start)
    assert game.error is None and game.winner is Side.SOUTH and len(game.moves[0]) == 2
    # South stops after one move although North is still stalemated: North cannot answer
    split = GameRecord(None, None, (RecordedTurn(1, Side.SOUTH, "34-44-43", 3),
                                    RecordedTurn(2, Side.NORTH, "43-53-N", 3)), None)
    game = replay(split, PBM, start=start)
    assert game.error is not None and game.error.number == 2
    assert "North has no legal move, so South plays on" in game.error.reason


def test_replay_needs_a_start():
    record = GameRecord(None, None, (RecordedTurn(1, Side.SOUTH, "16-35", 2),), None)
    with pytest.raises(RecordError, match="no setups"):
        replay(record, PBM)


def test_moves_after_a_win_are_refused():
    text = ("South North\n1 231123 2 321123\n3 16-35 4 61-53\n5 15-24 6 66x65=21\n"
            "7 13-14-24x35=33 8 62x53=36\n9 14-24-35x36=43 10 64-54\n"
            "11 12-33x54=14 12 65-35x36=34\n13 14-24-35-36-66 14 63-64\n"
            "15 11-22 16 64-54-35-36-S\n17 22-32\n")
    game = replay(parse_record(text), PBM)
    assert game.winner is Side.NORTH
    assert game.error is not None and game.error.number == 17
    assert "game is over" in game.error.reason


def test_random_games_round_trip_through_records():
    rng = random.Random(7)
    for name in ("pbmserv", "dorbec", "summary"):
        rules = PRESETS[name]
        south, north = "".join(rng.sample("112233", 6)), "".join(rng.sample("112233", 6))
        position = Position.setup(south, north)
        history: list[Position] = []
        turns = []
        for _ in range(16):
            moves = legal_moves(position, rules, history)
            if not moves:
                break
            move = rng.choice(moves.moves)
            if move.side is not position.turn and turns:
                turns[-1].append(move)     # the opponent is blocked: the mover plays on
            else:
                turns.append([move])
            if move.is_win:
                break
            history.append(position)
            position = apply_move(position, move)
        record = record_from_moves(turns, south, north)
        text = format_record(record)
        game = replay(parse_record(text, name), rules)
        assert game.error is None, (name, text, game.error)
        assert [[format_move(m) for m in ms] for ms in game.moves] == [
            [format_move(m) for m in ms] for ms in turns]
        if turns[-1][0].is_win:
            assert game.winner is turns[-1][0].side
        else:
            assert game.positions[-1] == position


def test_unstoppable_variant_flags_a_landing_the_loser_could_have_avoided():
    """Seed 001: "If the opponent could have evaded it, he can take his last move back"."""
    bouncing = Position.from_string("....../3...../..1.1./1.23.3/3.22.1/....2. S")
    summary = PRESETS["summary"]                      # win=unstoppable
    # South's 15-35 leaves North its landing, though 15-26-36-66 would have stopped it.
    careless = parse_record("South North\n1 15-35 2 51-43-33-31-21-S\n")
    game = replay(careless, summary, start=bouncing)
    assert game.winner is Side.NORTH and game.error is None
    assert game.stoppable is True
    # Under the plain goal rule nobody asks.
    assert replay(careless, PRESETS["bga"], start=bouncing).stoppable is None


def test_unstoppable_landing_that_stands():
    record = parse_record(open(DATA / "sample_game_continued.txt").read())
    game = replay(record, PRESETS["pbmserv"].with_options({"win": "unstoppable"}))
    assert game.winner is Side.NORTH and game.stoppable is False
