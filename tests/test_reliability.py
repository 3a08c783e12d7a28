"""Each defect a new user found (issues 14 and 15), reproduced; numbers are the issues'.

The interrupt cases with real processes are in test_interrupts.py, the exit-status table
in test_exit_codes.py, the fuzz campaign in test_fuzz.py.
"""

from __future__ import annotations

import json
import os
from pathlib import Path

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


def test_15_7_export_checks_keys_against_the_engine(tmp_path):
    cat = write(tmp_path / "c.yaml", "schema: 1\npuzzles:\n" + entry("a", key="51-43-33-31-21-N"))
    r = gyges("export", cat, "--format", "text", "--out", tmp_path / "o")
    assert r.exit_code == 1 and "puzzle a" in r.output and "not a legal move" in r.output
    assert not (tmp_path / "o").exists()


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


