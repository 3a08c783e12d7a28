"""The JSON forms of the values, each read back by its from_json: move lists (the
``moves --json`` object), perft counts (``perft --json``), positions, position files and
game records; and the commands' JSON alike where they say the same thing (the rules, the
count of ``setups search``)."""

from __future__ import annotations

import copy
import json
import random

import pytest
from common import BOUNCING, DATA, POSITIONS, run_gyges
from common import START as START_TEXT
from positions import random_playout, sparse_position

from gyges.formats.movelist import move_list_from_json, move_list_to_json
from gyges.formats.posfile import PositionFile, PositionFileError, load_position_file
from gyges.formats.record import GameRecord, RecordError, parse_record
from gyges.game.movecount import Perft, PerftDepth, perft_table
from gyges.game.moves import apply_move, legal_moves, perft
from gyges.game.position import START, Position, PositionError
from gyges.game.rules import PRESETS


def cases() -> list[tuple[Position, str]]:
    rng = random.Random(3)
    out = []
    for name in PRESETS:
        for _ in range(6):
            position, _moves = random_playout(rng, PRESETS[name], rng.randrange(0, 12))
            out.append((position, name))
        out.append((sparse_position(rng), name))
    return out


def test_move_lists_round_trip():
    for position, name in cases():
        listed = legal_moves(position, PRESETS[name])
        data = json.loads(json.dumps(move_list_to_json(listed)))
        back = move_list_from_json(data)
        assert (back.position, back.mover, back.blocked) == \
            (listed.position, listed.mover, listed.blocked)
        assert [(m.start, m.end, m.relocation, m.landings, m.side) for m in back] == \
            [(m.start, m.end, m.relocation, m.landings, m.side) for m in listed]
        assert back.wins == tuple(m for m in back if m.is_win)
        assert move_list_to_json(back) == data


def test_the_move_list_form():
    data = move_list_to_json(legal_moves(START, PRESETS["pbmserv"]))
    assert list(data) == ["position", "mover", "blocked", "moves"]
    first = data["moves"][0]
    assert first == {"notation": "11-22", "win": False,
                     "result": str(apply_move(START, legal_moves(START, PRESETS["pbmserv"])[0]))}


@pytest.mark.parametrize("change, message", [
    (lambda d: d["moves"][0].update(notation="11-23"), r"move 1 \(11-23\) leads to"),
    (lambda d: d["moves"][0].update(notation="22-23"), "no ring on its start slot"),
    (lambda d: d["moves"][0].update(notation="11"), "is not a move"),
    (lambda d: d["moves"][0].update(win=True), "move 1 .* not what its entry says"),
    (lambda d: d.update(mover="X"), "mover is S or N"),
    (lambda d: d.update(blocked=True), "blocked is False"),
    (lambda d: d.update(position="nope"), "is not a position string"),
    (lambda d: d.update(moves=None), "a move list is an object"),
])
def test_a_changed_move_list_is_refused(change, message):
    data = move_list_to_json(legal_moves(START, PRESETS["pbmserv"]))
    data = copy.deepcopy(data)
    change(data)
    with pytest.raises(ValueError, match=message):
        move_list_from_json(data)


def test_moves_json_is_the_library_form():
    text = BOUNCING
    result = run_gyges("moves", text, "--json", "--rules", "dorbec")
    assert result.exit_code == 0
    listed = legal_moves(Position.from_string(text), PRESETS["dorbec"])
    assert result.stdout == json.dumps(move_list_to_json(listed), indent=1) + "\n"


def test_perft_counts_round_trip():
    table = perft_table(START, PRESETS["dorbec"], 2)
    assert [d.nodes for d in table.depths] == [perft(START, PRESETS["dorbec"], d)[0]
                                              for d in (1, 2)]
    data = json.loads(json.dumps(table.to_json()))
    assert list(data) == ["position", "preset", "rules", "depths"]
    assert data["preset"] == "dorbec" and data["rules"] == PRESETS["dorbec"].options()
    back = Perft.from_json(data)
    assert back == table and back.to_json()["depths"][0]["nodes"] == table.depths[0].nodes
    assert PerftDepth(1, 10, 0.0).to_json() == {"depth": 1, "nodes": 10, "seconds": 0.0,
                                                "nodes_per_second": None}
    assert PerftDepth(1, 10, 0.5).to_json()["nodes_per_second"] == 20
    with pytest.raises(ValueError, match="a perft depth is"):
        Perft.from_json({**data, "depths": [{"depth": 1}]})


def test_perft_json_is_the_library_form():
    result = run_gyges("perft", POSITIONS / "bouncing.yaml", "-d", "2", "--json")
    assert result.exit_code == 0
    printed = Perft.from_json(json.loads(result.stdout))
    pf = load_position_file(POSITIONS / "bouncing.yaml")
    assert printed == perft_table(pf.position, PRESETS["pbmserv"], 2)


def test_perft_and_solve_json_spell_rules_alike():
    perft = json.loads(run_gyges("perft", START_TEXT, "-d", "1", "--json").output)
    solve = json.loads(run_gyges("solve", BOUNCING, "-n", "1", "--json").output)
    assert perft["rules"] == solve["rules"] and isinstance(perft["rules"], dict)


def test_setups_search_count_json_is_the_count_of_the_list():
    data = json.loads(run_gyges("setups", "search", "--fix", "3@1", "--count", "--json").output)
    assert "results" not in data
    full = json.loads(run_gyges("setups", "search", "--fix", "3@1", "--json").output)
    listed = run_gyges("setups", "search", "--fix", "3@1").output.split()
    assert data["count"] == full["count"] == len(full["results"]) == len(listed) > 0

def test_positions_round_trip():
    for position, _ in cases():
        assert position.to_json() == str(position)
        assert Position.from_json(position.to_json()) == position
    with pytest.raises(PositionError, match="a position is a position string"):
        Position.from_json(12)


@pytest.mark.parametrize("name", sorted(p.name for p in POSITIONS.glob("*.yaml")))
def test_position_files_round_trip(name):
    pf = load_position_file(POSITIONS / name)
    data = json.loads(json.dumps(pf.to_json()))
    assert PositionFile.from_json(data) == pf


def test_position_file_json_is_checked():
    pf = load_position_file(POSITIONS / "sample-game-move5.yaml")
    data = pf.to_json()
    with pytest.raises(PositionFileError, match="previous is not one move before"):
        PositionFile.from_json({**data, "previous": str(START)}, "p.json")
    with pytest.raises(PositionFileError, match="^p.json: unknown rule 'tabu'"):
        PositionFile.from_json({**data, "rules": {"tabu": "entry"}}, "p.json")
    with pytest.raises(PositionFileError, match="history is a list"):
        PositionFile.from_json({**data, "history": "x"})


@pytest.mark.parametrize("name", ["sample_game.txt", "sample_game_continued.txt"])
def test_records_round_trip(name):
    record = parse_record((DATA / name).read_text(), name)
    data = json.loads(json.dumps(record.to_json()))
    assert GameRecord.from_json(data) == record


def test_record_json_is_checked():
    record = parse_record((DATA / "sample_game.txt").read_text(), "g.txt")
    data = record.to_json()
    wrong_side = copy.deepcopy(data)
    wrong_side["turns"][0]["side"] = "N"
    with pytest.raises(RecordError, match="^g.txt: the turns' sides do not follow"):
        GameRecord.from_json(wrong_side)
    bad_move = copy.deepcopy(data)
    bad_move["turns"][0]["text"] = "16-7"
    with pytest.raises(RecordError, match="entry 3: '16-7' is not a move"):
        GameRecord.from_json(bad_move)
    with pytest.raises(RecordError, match="a game record is an object"):
        GameRecord.from_json({"source": "g.txt"})
