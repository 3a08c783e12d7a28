"""Each defect a new user found (issues 14 and 15), reproduced; numbers are the issues'.

The interrupt cases with real processes are in test_interrupts.py, the exit-status table
in test_exit_codes.py, the fuzz campaign in test_fuzz.py.
"""

from __future__ import annotations

import json
import os
import textwrap
from pathlib import Path

import pytest
from click.testing import CliRunner

from gyges_cli.main import cli

ROOT = Path(__file__).resolve().parent.parent
DATA = ROOT / "tests" / "data"
START = "321123/....../....../....../....../231123 S"
BOUNCING = "....../3...../..1.1./1.23.3/3.22.1/....2. N"


def gyges(*args: str, cwd: Path | None = None):
    old = os.getcwd()
    if cwd is not None:
        os.chdir(cwd)
    try:
        return CliRunner().invoke(cli, [str(a) for a in args])
    finally:
        os.chdir(old)


def entry(pid: str, st: str = "North wins in 1", key: str = "51-43-33-31-21-S",
          pos: str = BOUNCING, extra: str = "") -> str:
    return (f'- id: {pid}\n  position: "{pos}"\n  stipulation: {st}\n'
            f"  solution: {{key: {key}, main-line: [{key}]}}\n{extra}")


def write(path: Path, text: str) -> Path:
    path.write_text(text, encoding="utf-8")
    return path


# -- issue 14 -----------------------------------------------------------------------------


def test_14_4_a_row_missing_a_slot_among_labelled_rows_is_an_error(tmp_path):
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
    r = gyges("show", diagram)
    assert r.exit_code == 2
    assert f"{diagram}:6:" in r.output and "is a slot missing" in r.output
    r = gyges("catalogue", "check", write(tmp_path / "c.yaml", "schema: 1\npuzzles:\n- id: x\n"
              "  diagram: |\n" + textwrap.indent(diagram.read_text(), "    ")
              + "  stipulation: North wins in 1\n"
              "  solution: {key: 51-43-33-31-21-S, main-line: [51-43-33-31-21-S]}\n"), "-q")
    assert r.exit_code == 2 and "is a slot missing" in r.output


def _analysis(tmp_path: Path) -> Path:
    out = tmp_path / "t.jsonl"
    r = gyges("setups", "analyze", "--south", "231123", "--north", "321123,312213,113322",
              "--depth", "1", "-q", "--jobs", "1", "--out", out)
    assert r.exit_code == 0, r.output
    return out


def test_14_5_report_keeps_a_last_record_without_newline(tmp_path):
    out = _analysis(tmp_path)
    data = out.read_bytes()
    write(tmp_path / "cut.jsonl", data.rstrip(b"\n").decode())
    r = gyges("setups", "report", tmp_path / "cut.jsonl")
    assert r.exit_code == 0 and r.output.startswith("3 setup pairs"), r.output
    first = data.split(b"\n")[0].decode()
    r = gyges("setups", "report", write(tmp_path / "one.jsonl", first))
    assert r.exit_code == 0 and r.output.startswith("1 setup pair ("), r.output
    # resuming the file also keeps it (and adds the missing newline)
    r = gyges("setups", "analyze", "--south", "231123", "--north", "321123,312213,113322",
              "--depth", "1", "-q", "--jobs", "1", "--out", tmp_path / "cut.jsonl")
    assert "0 pairs analysed, 3 already" in r.output
    assert (tmp_path / "cut.jsonl").read_bytes() == data


@pytest.mark.parametrize("command", ["replay", "review"])
def test_14_6_start_with_a_record_that_has_setups_is_refused(command):
    r = gyges(command, DATA / "sample_game.txt", "--start", START)
    assert r.exit_code == 2 and "--start is for a record without setups" in r.output


def test_14_9_catalogue_check_reports_every_error_in_one_pass(tmp_path):
    path = write(tmp_path / "c.yaml", "schema: 1\npuzzles:\n"
                 + entry("a", st="North wins in 99")
                 + entry("b", pos=BOUNCING.replace(" N", " X"))
                 + entry("c") + entry("d", key="16-35"))
    r = gyges("catalogue", "check", path, "-q")
    assert r.exit_code == 2
    assert "puzzle a:" in r.output and "puzzle b:" in r.output and "puzzle d:" in r.output
    assert "1 proven" in r.output      # c is read and proven despite the others


def test_14_10_a_stipulation_beyond_30_names_no_cli_option(tmp_path):
    path = write(tmp_path / "c.yaml", "schema: 1\npuzzles:\n" + entry("a", st="North wins in 99"))
    r = gyges("catalogue", "check", path, "-q")
    assert r.exit_code == 2
    assert f"{path}:5: puzzle a:" in r.output and "N must be 1..30" in r.output
    assert "--max-moves" not in r.output


@pytest.mark.parametrize(("text", "line", "message"), [
    ("South North\n1 231123 2 321123\n3 16-35 4 61-53\nhello world\n", 4, "numbered entries"),
    ("South North\n1 231123 2 321123\n3 hello\n", 3, "is not a move"),
    ("South North\n1 231123 2 321123\n3 16-99\n", 3, "99 is not a slot"),
])
def test_14_11_an_unreadable_record_line_is_exit_2_at_its_line(tmp_path, text, line, message):
    path = write(tmp_path / "g.txt", text)
    r = gyges("replay", path)
    assert r.exit_code == 2 and f"{path}:{line}:" in r.output and message in r.output


def test_14_11_an_illegal_move_is_still_exit_1(tmp_path):
    r = gyges("replay", write(tmp_path / "g.txt", "South North\n1 231123 2 321123\n3 16-66\n"))
    assert r.exit_code == 1


def test_14_12_docs_say_what_the_reader_requires(tmp_path):
    doc = (ROOT / "docs" / "catalogue.md").read_text()
    assert "requires `solution`" in doc
    path = write(tmp_path / "c.yaml", f'schema: 1\npuzzles:\n- id: a\n  position: "{BOUNCING}"\n'
                 "  stipulation: North wins in 1\n")
    r = gyges("catalogue", "check", path, "-q")
    assert r.exit_code == 2 and "no 'solution'" in r.output


def test_14_13_cooks_listing_the_key_itself(tmp_path):
    path = write(tmp_path / "c.yaml", "schema: 1\npuzzles:\n"
                 + entry("a", extra="  cooks: [51-43-33-31-21-S]\n"))
    r = gyges("catalogue", "check", path, "-q")
    assert r.exit_code == 1 and "is the key itself" in r.output


def test_14_13_search_count_json(tmp_path):
    r = gyges("setups", "search", "--fix", "3@1", "--count", "--json")
    data = json.loads(r.output)
    assert "results" not in data
    full = json.loads(gyges("setups", "search", "--fix", "3@1", "--json").output)
    listed = gyges("setups", "search", "--fix", "3@1").output.split()
    assert data["count"] == full["count"] == len(full["results"]) == len(listed) > 0


def test_14_13_perft_and_solve_json_spell_rules_alike():
    perft = json.loads(gyges("perft", START, "-d", "1", "--json").output)
    solve = json.loads(gyges("solve", BOUNCING, "-n", "1", "--json").output)
    assert perft["rules"] == solve["rules"] and isinstance(perft["rules"], dict)


# -- issue 15 -----------------------------------------------------------------------------


def test_15_3_a_position_file_without_side_to_move_is_refused(tmp_path):
    text = (DATA / "positions" / "bouncing.yaml").read_text()
    b = write(tmp_path / "b.yaml", "".join(ln for ln in text.splitlines(keepends=True)
                                           if not ln.startswith("to-move")))
    r = gyges("solve", b, "-n", "1")
    assert r.exit_code == 2 and "who is to move" in r.output
    d = write(tmp_path / "d.txt", "\n".join((DATA / "positions" / "stalemate.txt").read_text()
                                           .splitlines()[:-1]) + "\n")
    r = gyges("show", d)
    assert r.exit_code == 2 and "no side to move" in r.output


def test_15_6_a_huge_line_is_quoted_as_a_short_excerpt(tmp_path):
    big = tmp_path / "big.txt"
    big.write_text("321123/" * 300_000 + "\n")          # 2 MB on one line
    r = gyges("show", big)
    assert r.exit_code == 2 and len(r.output) < 500, len(r.output)
    huge = tmp_path / "huge.txt"
    with open(huge, "wb") as f:
        f.truncate(20 << 20)                           # sparse: 20 MB of zeros, no write
    r = gyges("show", huge)
    assert r.exit_code == 2 and "larger than 16 MiB" in r.output


def test_15_6_dev_zero_is_refused_without_reading_it_whole():
    if not os.path.exists("/dev/zero"):
        pytest.skip("no /dev/zero")
    r = gyges("show", "/dev/zero")
    assert r.exit_code == 2 and "larger than" in r.output


def test_15_7_export_checks_keys_against_the_engine(tmp_path):
    cat = write(tmp_path / "c.yaml", "schema: 1\npuzzles:\n" + entry("a", key="51-43-33-31-21-N"))
    r = gyges("export", cat, "--format", "text", "--out", tmp_path / "o")
    assert r.exit_code == 1 and "puzzle a" in r.output and "not a legal move" in r.output
    assert not (tmp_path / "o").exists()


def test_15_9_previous_must_be_one_move_before(tmp_path):
    f = write(tmp_path / "p.yaml", f'position: "{BOUNCING}"\nprevious: "{START}"\n')
    r = gyges("solve", f, "-n", "1")
    assert r.exit_code == 2 and f"{f}:2:" in r.output and "not one move before" in r.output


def test_15_9_one_position_under_two_ids(tmp_path):
    cat = write(tmp_path / "c.yaml", "schema: 1\npuzzles:\n" + entry("a") + entry("b"))
    r = gyges("catalogue", "check", cat, "-q")
    assert r.exit_code == 1 and "the same position as puzzle a" in r.output


# -- atomic writes, interrupted ------------------------------------------------------------


def test_14_13_a_preset_with_overrides_is_shown_as_asked():
    r = gyges("show", START, "--rules", "dorbec", "--rule", "replace=off")
    assert "rules:    dorbec with replace=off (= dorbec-beginner)" in r.output
    r = gyges("show", START, "--rules", "dorbec-beginner")
    assert "rules:    dorbec-beginner (" in r.output


