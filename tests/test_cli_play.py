"""The play commands (show, moves, perft, replay) through click, and their clean errors."""

from __future__ import annotations

import json
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
from common import DATA, POSITIONS, run_gyges
from common import START as START_TEXT

from gyges.formats.diagram import parse_diagram
from gyges.formats.posfile import load_position_file
from gyges.game.moves import apply_move, legal_moves
from gyges.game.position import START, Position
from gyges.game.rules import PRESETS, Side

run = run_gyges


def ok(*args: str):
    result = run(*args)
    assert result.exit_code == 0, (result.output, result.exception)
    return result.stdout


# -- show ----------------------------------------------------------------------------------


def test_show_start():
    out = ok("show", START_TEXT)
    lines = out.splitlines()
    assert lines[:10] == [
        "1 2 3 4 5 6",
        "N",
        "3 2 1 1 2 3 6  <- North's shore",
        ". . . . . . 5",
        ". . . . . . 4",
        ". . . . . . 3",
        ". . . . . . 2",
        "2 3 1 1 2 3 1  <- South's shore",
        "S",
        "South to move",
    ]
    assert f"position: {START_TEXT}" in lines
    assert any(line.startswith("rules:    pbmserv (taboo=connection") for line in lines)
    n = len(legal_moves(START, PRESETS["pbmserv"]))
    assert f"South to move: {n} legal moves, not blocked" in lines
    assert "South cannot land on North's goal now" in lines


def test_show_bouncing_example_north_can_land():
    out = ok("show", POSITIONS / "bouncing.yaml")
    # Seed 000: North wins by 51-43-33-31-21-(11-12-)S.
    assert "North to move" in out
    assert "North can land on South's goal now" in out
    assert "3 . . . . . 5  <- North's shore" in out


def test_show_stalemate_north_is_blocked(tmp_path):
    # Seed 000, "Stalemating": North is stalemated, so South plays on.
    text = (POSITIONS / "stalemate.txt").read_text().replace("South to move", "North to move")
    path = tmp_path / "stalemate.txt"
    path.write_text(text)
    out = ok("show", path)
    assert "North to move is blocked (no legal move): South moves again" in out
    out = ok("show", path, "--rule", "blocked=draw")
    assert "North to move is blocked (no legal move): the game is drawn" in out
    # Under blocked=next-row (the summary preset) North's row 5 moves instead.
    out = ok("show", path, "--rules", "summary")
    assert "North to move: the shore rings have no legal move, so the rings of row 5 move" in out
    data = json.loads(ok("moves", path, "--rules", "summary", "--json"))
    assert data["mover"] == "N" and data["blocked"] is False
    assert {m["notation"][:2] for m in data["moves"]} <= {"51", "52", "53", "54", "55", "56"}


def test_show_file_rules_apply_unless_given_on_the_command_line():
    path = POSITIONS / "taboo-dorbec.yaml"
    assert "rules:    custom (taboo=entry" in ok("show", path)
    assert "rules:    pbmserv (taboo=connection" in ok("show", path, "--rules", "pbmserv")
    # --rules replaces the file's rules as a whole; --rule alone amends them.
    assert "rules:    dorbec (" in ok("show", path, "--rules", "dorbec")
    assert "rules:    dorbec (taboo=entry rebounce=allowed replace=anywhere" in ok(
        "show", path, "--rule", "replace=anywhere")
    assert "rules:    custom (taboo=connection rebounce=allowed replace=anywhere" in ok(
        "show", path, "--rules", "pbmserv", "--rule", "replace=anywhere")


def test_show_names_a_preset_with_overrides_as_asked():
    r = run("show", START_TEXT, "--rules", "dorbec", "--rule", "replace=off")
    assert "rules:    dorbec with replace=off (= dorbec-beginner)" in r.output
    r = run("show", START_TEXT, "--rules", "dorbec-beginner")
    assert "rules:    dorbec-beginner (" in r.output

def test_show_history_and_previous():
    out = ok("show", POSITIONS / "sample-game-move5.yaml")
    assert "history:  2 earlier positions (Renop law)" in out
    assert "previous: 321123/....../....../....3./....../23112. N" in out


# -- moves ---------------------------------------------------------------------------------


def test_moves_json_is_every_legal_move_with_its_result():
    data = json.loads(ok("moves", START_TEXT, "--json"))
    assert set(data) == {"position", "mover", "blocked", "moves"}
    assert data["position"] == START_TEXT and data["mover"] == "S" and data["blocked"] is False
    expected = legal_moves(START, PRESETS["pbmserv"])
    assert [m["notation"] for m in data["moves"]] == [str(m) for m in expected]
    for entry, move in zip(data["moves"], expected, strict=True):
        assert set(entry) == {"notation", "result", "win"}
        assert entry["win"] is False
        result = Position.from_string(entry["result"])
        assert result.turn is Side.NORTH
        assert result == apply_move(START, move)
        # The moved ring left its start slot.
        assert result.board[move.start] == 0 or move.relocation == move.start


def test_moves_json_marks_the_seed_bouncing_win():
    data = json.loads(ok("moves", POSITIONS / "bouncing.yaml", "--json"))
    wins = [m for m in data["moves"] if m["win"]]
    assert {"notation": "51-43-33-31-21-S", "result": None, "win": True} in wins
    assert all(m["result"] is None for m in wins)


def test_moves_under_stalemate_the_opponent_moves(tmp_path):
    text = (POSITIONS / "stalemate.txt").read_text().replace("South to move", "North to move")
    path = tmp_path / "stalemate.txt"
    path.write_text(text)
    data = json.loads(ok("moves", path, "--json"))
    assert data["blocked"] is True and data["mover"] == "S"
    # Seed 000: South plays 34-44-43 while North stays stalemated. Its board is also that
    # of the replace 34x44=43 (same-size rings), which represents it.
    after = ".3.3.3/112232/..11../.....2/....../...... N"
    (entry,) = [m for m in data["moves"] if m["result"] == after]
    assert entry["notation"] in ("34-44-43", "34x44=43")
    text_out = ok("moves", path)
    assert "North is blocked: South moves again" in text_out


def test_moves_text_lists_and_counts():
    out = ok("moves", POSITIONS / "bouncing.yaml")
    lines = out.splitlines()
    data = json.loads(ok("moves", POSITIONS / "bouncing.yaml", "--json"))
    listed = [line for line in lines if line.startswith("  ")]
    assert len(listed) == len(data["moves"])
    for line, entry in zip(listed, data["moves"], strict=True):
        words = line.split()
        assert words[0] == entry["notation"]
        assert words[1] == ("WIN" if entry["win"] else entry["result"].split()[0])
    replaces = sum("x" in m["notation"] for m in data["moves"])
    wins = sum(m["win"] for m in data["moves"])
    assert lines[-1] == f"{len(data['moves'])} moves for North: {replaces} replaces, {wins} wins"


def test_moves_is_deterministic_and_follows_rules():
    assert ok("moves", START_TEXT, "--json") == ok("moves", START_TEXT, "--json")
    off = json.loads(ok("moves", START_TEXT, "--json", "--rule", "replace=off"))
    assert not any("x" in m["notation"] for m in off["moves"])
    assert len(off["moves"]) == len(legal_moves(START, PRESETS["pbmserv"].with_options(
        {"replace": "off"})))


# -- perft ---------------------------------------------------------------------------------


def _perft2(position: Position, rules, history) -> int:
    """Depth-2 count from the Python move lists (the current position joins the history)."""
    total = 0
    for move in legal_moves(position, rules, history):
        if move.is_win:
            total += 1
        else:
            after = apply_move(position, move)
            total += len(legal_moves(after, rules, (*history, position)))
    return total


def test_perft_counts_match_the_move_lists():
    data = json.loads(ok("perft", START_TEXT, "--depth", "2", "--json"))
    assert data["position"] == START_TEXT and data["preset"] == "pbmserv"
    assert data["rules"] == PRESETS["pbmserv"].options()   # the shape of solve --json
    depths = data["depths"]
    assert [d["depth"] for d in depths] == [1, 2]
    assert depths[0]["nodes"] == len(legal_moves(START, PRESETS["pbmserv"]))
    assert depths[1]["nodes"] == _perft2(START, PRESETS["pbmserv"], ())
    for d in depths:
        assert set(d) == {"depth", "nodes", "seconds", "nodes_per_second"}
        assert d["seconds"] >= 0


def test_perft_applies_a_files_history(tmp_path):
    pf = load_position_file(POSITIONS / "sample-game-move5.yaml")
    nodes = json.loads(ok("perft", POSITIONS / "sample-game-move5.yaml", "-d", "2",
                          "--json"))["depths"][1]["nodes"]
    assert nodes == _perft2(pf.position, PRESETS["pbmserv"], pf.history)
    # A history holding the result of one of South's moves forbids that move (Renop law).
    first = legal_moves(START, PRESETS["pbmserv"])[0]
    earlier = apply_move(START, first)
    path = _write(tmp_path, "renop.yaml", f"position: {START_TEXT}\nhistory: ['{earlier}']\n")
    n1 = len(legal_moves(START, PRESETS["pbmserv"]))
    with_history = json.loads(ok("perft", path, "-d", "1", "--json"))["depths"][0]["nodes"]
    assert with_history == n1 - 1
    allowed = json.loads(ok("perft", path, "-d", "1", "--json", "--rule",
                            "repetition=allowed"))["depths"][0]["nodes"]
    assert allowed >= n1


def test_perft_text_table():
    out = ok("perft", START_TEXT, "-d", "2", "--rules", "dorbec")
    lines = out.splitlines()
    assert lines[0].startswith(f"perft from {START_TEXT} under dorbec")
    assert lines[1].split() == ["depth", "nodes", "seconds", "nodes/s"]
    n1 = len(legal_moves(START, PRESETS["dorbec"]))
    assert lines[2].split()[:2] == ["1", f"{n1:,}"]
    assert lines[3].split()[0] == "2"


# -- replay --------------------------------------------------------------------------------

# Seed 000 draws the position after move 12 of its sample game (first of the second row).
SEED_AFTER_12 = """\
N
. . 1 . . .
. . 2 3 . .
. . 3 . . .
. . 3 1 1 3
2 . . 2 . .
2 . . 1 . .
S
"""


def test_replay_sample_game():
    out = ok("replay", DATA / "sample_game.txt")
    assert "all 10 moves legal" in out
    assert out.splitlines()[-1] == "South resigns: North wins"
    assert "9 South 14-24-35x36=43" in out
    # The diagram printed after move 12 is the seed's.
    after12 = out.split("12 North 65-35x36=34\n", 1)[1].split("\n\n", 1)[0]
    assert parse_diagram(after12) == parse_diagram(SEED_AFTER_12)


def test_replay_continued_game_ends_on_the_goal():
    out = ok("replay", "--quiet", DATA / "sample_game_continued.txt")
    assert out.splitlines() == [
        "all 14 moves legal",
        "North wins: 64-54-35-36-S lands on South's goal (move 16)",
    ]


def test_replay_stops_at_the_first_illegal_move(tmp_path):
    text = (DATA / "sample_game.txt").read_text().replace("9 14-24-35x36=43", "9 14-24-35x36=63")
    path = tmp_path / "bad.txt"
    path.write_text(text)
    result = run("replay", path)
    assert result.exit_code == 1
    assert "Traceback" not in result.output
    line = next(n for n, t in enumerate(text.splitlines(), 1) if "14-24-35x36=63" in t)
    last = result.stdout.splitlines()[-1]
    assert last.startswith(f"move 9 (14-24-35x36=63, line {line}): ")
    assert last.endswith("): 63 is not empty: a relocated ring goes to an empty slot")
    assert "6 moves legal, then" in result.stdout
    quiet = run("replay", "-q", path)
    assert quiet.exit_code == 1 and len(quiet.stdout.splitlines()) == 2


def test_replay_with_a_start_position(tmp_path):
    path = tmp_path / "game.txt"
    path.write_text("South North\n3 16-35 4 61-53\n")
    out = ok("replay", path, "--start", START_TEXT)
    assert "all 2 moves legal" in out
    assert "no result yet: South to move in .21123/..3.../....../....3./....../23112. S" in out


# -- errors: exit status 2, one line, no traceback -------------------------------------------


def _write(tmp_path: Path, name: str, text: str) -> str:
    path = tmp_path / name
    path.write_text(text)
    return str(path)


ERRORS = [
    # (files to write, arguments, what the message must contain)
    ({}, ["show", "321123/....../23 S"], "gyges: bad position string: a position string has 6 "
     "rows separated by '/', found 3"),
    ({}, ["moves", "333333/....../....../....../....../.3.... S"],
     "gyges: bad position string: 7 triples on the board: there are only 4 rings"),
    ({}, ["show", "321123/....../....../....../....../2311x3 S"],
     "gyges: bad position string: row 1, column 5: 'x' is not a ring"),
    ({"r.yaml": "rings:\n  13: 3\n  13: 1\n"}, ["show", "{r.yaml}"],
     "gyges: {r.yaml}:3: two rings on slot 13 (first on line 2)"),
    ({"h.yaml": f"position: {START_TEXT}\nhistory:\n  - 3333333/....../....../....../....../"
      "...... N\n"}, ["moves", "{h.yaml}"], "gyges: {h.yaml}:3: history entry 1: row 6"),
    ({"t.txt": "N\n3 3 3 3 . . 6\n. 3 . . . . 5\n"}, ["show", "{t.txt}"],
     "gyges: {t.txt}:3: 5 triples so far"),
    ({}, ["moves", START_TEXT, "--rules", "pbmserve"],
     "gyges: --rules/--rule: unknown rule preset 'pbmserve'"),
    ({"p.yaml": f"position: {START_TEXT}\nrules: pbmserve\n"}, ["show", "{p.yaml}"],
     "gyges: {p.yaml}:2: unknown rule preset 'pbmserve': did you mean 'pbmserv'?"),
    ({}, ["perft", START_TEXT, "-d", "1", "--rule", "tabu=entry"],
     "gyges: --rules/--rule: unknown rule 'tabu'"),
    ({}, ["show", START_TEXT, "--rule", "taboo=sometimes"],
     "gyges: --rules/--rule: rule taboo cannot be 'sometimes'"),
    ({"k.yaml": f"position: {START_TEXT}\nrule:\n  replace: nowhere\n"}, ["moves", "{k.yaml}"],
     "gyges: {k.yaml}:3: rule replace cannot be 'nowhere'"),
    ({}, ["show", "missing.yaml"], "gyges: no such file 'missing.yaml' and not a position string"),
    ({}, ["replay", "missing.txt"], "gyges: no such file 'missing.txt'"),
    ({"m.yaml": f"position: {START_TEXT}\nrule: {{taboo: entry\n"}, ["show", "{m.yaml}"],
     "gyges: {m.yaml}:3: malformed YAML"),
    ({"u.yaml": f"position: {START_TEXT}\nside: N\n"}, ["perft", "{u.yaml}", "-d", "1"],
     "gyges: {u.yaml}:2: unknown key 'side': did you mean 'to-move'?"),
    ({"g.txt": "South North\n1 231123 2 321123\n3 16-35 5 61-53\n"}, ["replay", "{g.txt}"],
     "gyges: {g.txt}:3: entry 5 follows entry 3"),
    ({"g.txt": "Black White\n"}, ["replay", "{g.txt}"], "gyges: {g.txt}:1: a game record begins"),
    ({}, ["perft", START_TEXT, "--depth", "0"], "gyges: Invalid value for '--depth'"),
    ({}, ["show"], "gyges: Missing argument 'POS|FILE'; see 'gyges show --help'"),
]


@pytest.mark.parametrize("files, args, message", ERRORS)
def test_bad_input_exits_2_with_one_line(workdir, files, args, message):
    names = {}
    for name, text in files.items():
        names[name] = _write(workdir, name, text)
    for name, path in names.items():
        args = [a.replace("{" + name + "}", path) for a in args]
        message = message.replace("{" + name + "}", path)
    result = run(*args)
    assert result.exit_code == 2, (result.output, result.exception)
    assert "Traceback" not in result.output
    assert result.stdout == ""
    assert result.stderr.count("\n") == 1, result.stderr
    assert result.stderr.startswith(message), result.stderr


def test_a_directory_is_not_a_position_file(tmp_path):
    result = run("show", tmp_path)
    assert result.exit_code == 2
    assert result.stderr == f"gyges: {tmp_path} is a directory, not a position file\n"


def test_inputs_by_content(tmp_path):
    # A YAML file without the .yaml extension, a position string in a file, a diagram.
    yaml_text = (POSITIONS / "taboo-dorbec.yaml").read_text()
    for name, text in [("a.pos", yaml_text), ("b.txt", f"# start\n{START_TEXT}\n"),
                       ("c", (POSITIONS / "stalemate.txt").read_text())]:
        data = json.loads(ok("moves", _write(tmp_path, name, text), "--json"))
        assert Position.from_string(data["position"])
    assert "rules:    custom (taboo=entry" in ok("show", tmp_path / "a.pos")


def test_every_command_help_teaches():
    for command in ("show", "moves", "perft", "replay"):
        out = ok(command, "--help")
        assert "Example:" in out and f"gyges {command} " in out
        assert "--rules PRESET" in out and "--rule KEY=VALUE" in out
    assert "--json" in ok("moves", "--help") and "--depth" in ok("perft", "--help")
    assert "--quiet" in ok("replay", "--help")


def test_the_real_entry_point():
    exe = shutil.which("gyges") or str(Path(sys.executable).parent / "gyges")
    good = subprocess.run([exe, "show", START_TEXT], capture_output=True, text=True, timeout=60)
    assert good.returncode == 0 and "South to move" in good.stdout
    bad = subprocess.run([exe, "moves", "321123/....../....../....../....../2311233 S"],
                         capture_output=True, text=True, timeout=60)
    assert bad.returncode == 2
    assert bad.stdout == ""
    assert bad.stderr == "gyges: bad position string: row 1 ('2311233') has 7 slots: each row " \
                         "has 6\n"


def test_replay_flags_a_stoppable_landing(tmp_path):
    game = tmp_path / "careless.txt"
    game.write_text("South North\n1 15-35 2 51-43-33-31-21-S\n")
    start = "....../3...../..1.1./1.23.3/3.22.1/....2. S"
    out = ok("replay", game, "--start", start, "--rules", "summary", "--quiet")
    assert "North wins" in out and "stoppable (win=unstoppable)" in out
    assert "stoppable" not in ok("replay", game, "--start", start, "--rules", "bga", "--quiet")
