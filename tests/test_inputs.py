"""Reading what a user gives (gyges.formats.inputs): position strings, YAML position files,
text diagrams and game records, each problem one InputError; and the CLI's wrapper, which
prints that error's line unchanged (adding the option name only where one is meant)."""

from __future__ import annotations

from pathlib import Path

import pytest
from click.testing import CliRunner

from gyges.formats.diagram import format_diagram
from gyges.formats.inputs import (
    MAX_INPUT_BYTES,
    InputError,
    StartConflict,
    load_game,
    load_position,
    read_text_file,
)
from gyges.formats.posfile import load_position_file
from gyges.game.position import Position
from gyges.game.rules import PRESETS
from gyges_cli.main import cli

DATA = Path(__file__).parent / "data"
POSITIONS = DATA / "positions"
START_TEXT = "321123/....../....../....../....../231123 S"
BOUNCING = "....../3...../..1.1./1.23.3/3.22.1/....2. N"
DIAGRAM = format_diagram(Position.from_string(BOUNCING), turn=False) + "\n"


def stderr_of(*args: str) -> str:
    result = CliRunner().invoke(cli, [str(a) for a in args])
    assert result.exit_code == 2, (result.output, result.exception)
    return result.stderr


def test_a_position_string():
    pf = load_position(START_TEXT)
    assert pf.position == Position.from_string(START_TEXT)
    assert pf.rules is None and pf.history == () and pf.source == "<command line>"


@pytest.mark.parametrize("name", sorted(p.name for p in POSITIONS.glob("*.yaml")))
def test_yaml_files_read_as_load_position_file_does(name):
    path = POSITIONS / name
    assert load_position(str(path)) == load_position_file(path)
    assert load_position(path) == load_position_file(path)        # a path object


def test_a_file_is_told_by_its_content(tmp_path):
    yaml_text = tmp_path / "p.dat"
    yaml_text.write_text(f'# a comment\nposition: "{BOUNCING}"\nrules: bga\n')
    assert load_position(str(yaml_text)).rules == PRESETS["bga"]
    one_line = tmp_path / "one.txt"
    one_line.write_text(f"# just the string\n{BOUNCING}\n")
    assert load_position(str(one_line)).position == Position.from_string(BOUNCING)
    diagram = tmp_path / "d.txt"
    diagram.write_text(DIAGRAM + "North to move\n")
    assert load_position(str(diagram)).position == Position.from_string(BOUNCING)


@pytest.mark.parametrize("arg, message", [
    ("", "an empty argument: give a position string (a position string is six rows"),
    ("nope.yaml", "no such file 'nope.yaml' and not a position string ("),
    ("321123/....../....../....../....../231123 X",
     "bad position string: 'X' is not a side: use S (South) or N (North)"),
    ("321123/" * 30 + " S", "bad position string: a position string has 6 rows separated by"),
])
def test_bad_arguments_are_one_input_error(arg, message):
    with pytest.raises(InputError) as e:
        load_position(arg)
    assert str(e.value).startswith(message) and e.value.source is None
    assert "\n" not in str(e.value) and len(str(e.value)) < 400
    assert stderr_of("show", arg) == f"gyges: {e.value}\n"


def test_file_problems_name_the_file_and_line(tmp_path):
    cases = {
        "noturn.txt": (DIAGRAM, 10, "no side to move: end the diagram with a line"),
        "typo.yaml": ("positon: x\n", 1, "unknown key 'positon': did you mean 'position'?"),
        "onebad.txt": ("# c\n321123/....../..../....../....../231123 S\n", 2,
                       "row 4 ('....') has 4 slots: each row has 6"),
        "bin.txt": (b"\xff\xfe\n", 1, "not a text file (it is not UTF-8)"),
    }
    for name, (text, line, problem) in cases.items():
        path = tmp_path / name
        if isinstance(text, bytes):
            path.write_bytes(text)
        else:
            path.write_text(text)
        with pytest.raises(InputError) as e:
            load_position(str(path))
        assert str(e.value) == f"{path}:{line}: {problem}" or \
            str(e.value).startswith(f"{path}:{line}: {problem}")
        assert (e.value.source, e.value.line) == (str(path), line)
        assert stderr_of("moves", path, "--json") == f"gyges: {e.value}\n"


def test_a_directory_and_a_file_too_large(tmp_path):
    with pytest.raises(InputError, match=f"^{tmp_path} is a directory, not a position file$"):
        load_position(str(tmp_path))
    big = tmp_path / "big.txt"
    big.write_bytes(b"." * 2000)
    with pytest.raises(InputError, match=r"big.txt: larger than 0 MiB: not a diagram$"):
        read_text_file(big, "diagram", limit=1000)
    assert len(read_text_file(big, "diagram", limit=2000)) == 2000
    assert MAX_INPUT_BYTES == 16 << 20


def test_a_missing_path_object(tmp_path):
    with pytest.raises(InputError, match="^no such file '.*nope.yaml'$"):
        load_position(tmp_path / "nope.yaml")


# -- game records ----------------------------------------------------------------------------


def test_load_game_reads_the_record_and_its_start(tmp_path):
    record, start = load_game(DATA / "sample_game.txt")
    assert start is None and record.south_setup == "231123" and len(record.turns) == 10
    assert record.result == "Resign"
    no_setups = tmp_path / "game.txt"
    no_setups.write_text("South North\n3 16-35 4 61-53\n")
    record, start = load_game(no_setups, str(POSITIONS / "sample-game-move5.yaml"))
    assert record.south_setup is None and start is not None and start.rules == PRESETS["pbmserv"]


def test_a_start_for_a_record_with_setups_is_a_conflict():
    with pytest.raises(StartConflict) as e:
        load_game(DATA / "sample_game.txt", START_TEXT)
    assert e.value.source == START_TEXT and "--" not in str(e.value)
    assert str(e.value) == (f"{START_TEXT}: the record gives its own setups (entries 1 and 2), "
                            "so it starts from them: a start position is for a record without "
                            "setups")
    # the CLI says which option that is
    assert stderr_of("replay", DATA / "sample_game.txt", "--start", START_TEXT) == (
        f"gyges: {START_TEXT}: {StartConflict.problem}: --start is for a record without "
        "setups\n")


def test_record_problems(tmp_path):
    bad = tmp_path / "bad.txt"
    bad.write_text("South Nort\n")
    for path, message in [
        (tmp_path / "nope.txt", f"no such file '{tmp_path / 'nope.txt'}'"),
        (bad, f"{bad}:1: a game record begins with the header 'South North', not 'South Nort'"),
        (tmp_path, f"{tmp_path} is a directory, not a game record"),
    ]:
        with pytest.raises(InputError) as e:
            load_game(path)
        assert str(e.value) == message
        assert stderr_of("replay", path) == f"gyges: {message}\n"


def test_the_order_of_the_checks(tmp_path):
    """A missing or unreadable record file is reported first, then a bad start, then a
    record that cannot be parsed."""
    binary = tmp_path / "binary.txt"
    binary.write_bytes(b"\xff")
    with pytest.raises(InputError, match="not a text file"):
        load_game(binary, "nope")
    with pytest.raises(InputError, match="^no such file '.*missing.txt'$"):
        load_game(tmp_path / "missing.txt", "nope")
    bad = tmp_path / "bad.txt"
    bad.write_text("South Nort\n")
    with pytest.raises(InputError, match="^no such file 'nope' and not a position string"):
        load_game(bad, "nope")
