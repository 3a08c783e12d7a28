"""Each defect a new user found (issues 14 and 15), reproduced; numbers are the issues'.

The interrupt cases with real processes are in test_interrupts.py, the exit-status table
in test_exit_codes.py, the fuzz campaign in test_fuzz.py.
"""

from __future__ import annotations

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


# -- issue 15 -----------------------------------------------------------------------------


# -- atomic writes, interrupted ------------------------------------------------------------


