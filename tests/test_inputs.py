"""Reading what a user gives (gyges.formats.inputs): position strings, YAML position files,
text diagrams and game records, each problem one InputError; and the CLI's wrapper, which
prints that error's line unchanged (adding the option name only where one is meant)."""

from __future__ import annotations

import os
import textwrap

import pytest
from common import BOUNCING, DATA, POSITIONS, run_gyges, write
from common import START as START_TEXT

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

DIAGRAM = format_diagram(Position.from_string(BOUNCING), turn=False) + "\n"


def stderr_of(*args: str) -> str:
    result = run_gyges(*args)
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


def test_a_row_missing_a_slot_among_labelled_rows_is_an_error(tmp_path):
    diagram = write(tmp_path / "d.txt", textwrap.dedent("""\
        N
        . . . . . . 6
        3 . . . . . 5
        . . 1 . 1 . 4
        1 . 2 3 . 3 3
        3 . 2 . 1 2
        . . . . 2 . 1
        S
        North to move
        """))
    r = run_gyges("show", diagram)
    assert r.exit_code == 2
    assert f"{diagram}:6:" in r.output and "is a slot missing" in r.output
    r = run_gyges("catalogue", "check", write(tmp_path / "c.yaml", "schema: 1\npuzzles:\n"
                  "- id: x\n  diagram: |\n" + textwrap.indent(diagram.read_text(), "    ")
                  + "  stipulation: North wins in 1\n"
                  "  solution: {key: 51-43-33-31-21-S, main-line: [51-43-33-31-21-S]}\n"),
                  "-q")
    assert r.exit_code == 2 and "is a slot missing" in r.output


def test_a_position_file_or_diagram_without_side_to_move_is_refused(tmp_path):
    text = (POSITIONS / "bouncing.yaml").read_text()
    b = write(tmp_path / "b.yaml", "".join(ln for ln in text.splitlines(keepends=True)
                                           if not ln.startswith("to-move")))
    r = run_gyges("solve", b, "-n", "1")
    assert r.exit_code == 2 and "who is to move" in r.output
    d = write(tmp_path / "d.txt", "\n".join((POSITIONS / "stalemate.txt").read_text()
                                            .splitlines()[:-1]) + "\n")
    r = run_gyges("show", d)
    assert r.exit_code == 2 and "no side to move" in r.output


def test_previous_must_be_one_move_before(tmp_path):
    f = write(tmp_path / "p.yaml", f'position: "{BOUNCING}"\nprevious: "{START_TEXT}"\n')
    r = run_gyges("solve", f, "-n", "1")
    assert r.exit_code == 2 and f"{f}:2:" in r.output and "not one move before" in r.output


def test_a_huge_line_is_quoted_as_a_short_excerpt(tmp_path):
    big = tmp_path / "big.txt"
    big.write_text("321123/" * 300_000 + "\n")          # 2 MB on one line
    r = run_gyges("show", big)
    assert r.exit_code == 2 and len(r.output) < 500, len(r.output)
    huge = tmp_path / "huge.txt"
    with open(huge, "wb") as f:
        f.truncate(20 << 20)                           # sparse: 20 MB of zeros, no write
    r = run_gyges("show", huge)
    assert r.exit_code == 2 and "larger than 16 MiB" in r.output


def test_dev_zero_is_refused_without_reading_it_whole():
    if not os.path.exists("/dev/zero"):
        pytest.skip("no /dev/zero")
    r = run_gyges("show", "/dev/zero")
    assert r.exit_code == 2 and "larger than" in r.output


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



@pytest.mark.parametrize("command", ["replay", "review"])
def test_start_with_a_record_that_has_setups_is_refused(command):
    r = run_gyges(command, DATA / "sample_game.txt", "--start", START_TEXT)
    assert r.exit_code == 2 and "--start is for a record without setups" in r.output

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


@pytest.mark.parametrize(("text", "line", "message"), [
    ("South North\n1 231123 2 321123\n3 16-35 4 61-53\nhello world\n", 4, "numbered entries"),
    ("South North\n1 231123 2 321123\n3 hello\n", 3, "is not a move"),
    ("South North\n1 231123 2 321123\n3 16-99\n", 3, "99 is not a slot"),
], ids=["not-an-entry", "not-a-move", "not-a-slot"])
def test_an_unreadable_record_line_is_exit_2_at_its_line(tmp_path, text, line, message):
    path = write(tmp_path / "g.txt", text)
    r = run_gyges("replay", path)
    assert r.exit_code == 2 and f"{path}:{line}:" in r.output and message in r.output


def test_an_illegal_move_in_a_record_is_exit_1(tmp_path):
    r = run_gyges("replay", write(tmp_path / "g.txt",
                                  "South North\n1 231123 2 321123\n3 16-66\n"))
    assert r.exit_code == 1
