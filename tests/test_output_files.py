"""The output-path policy (gyges.output) and the commands that follow it: a file written
whole or not at all, even when Ctrl-C or SIGKILL stops the writer; a file gyges did not
write, or one the user edited, never replaced without ``--force``; missing folders made."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time

import pytest
from common import ROOT, catalogue_entry, run_gyges, write

from gyges.output import check_output, is_signed, open_atomic, signed, write_atomic


def test_check_output_refuses_what_gyges_did_not_write(tmp_path):
    text = signed("a: 1\n", "#")
    assert is_signed(text) and not is_signed(text + "b: 2\n")
    mine = write(tmp_path / "m.yaml", "a: 1\n")
    with pytest.raises(ValueError, match="--force"):
        check_output(mine)
    check_output(mine, force=True)
    write(tmp_path / "s.yaml", text)
    check_output(tmp_path / "s.yaml")
    with pytest.raises(ValueError, match="is a directory"):
        check_output(tmp_path)
    with pytest.raises(ValueError, match="not a directory"):
        check_output(mine / "x.yaml")
    check_output(tmp_path / "new" / "dir" / "x.yaml")


def test_an_atomic_write_interrupted_in_process_keeps_the_old_file(tmp_path):
    target = write(tmp_path / "t.yaml", "old\n")

    class Boom(KeyboardInterrupt):
        pass

    with pytest.raises(Boom), open_atomic(target) as f:
        f.write("new, half")
        raise Boom
    assert target.read_text() == "old\n" and os.listdir(tmp_path) == ["t.yaml"]
    write_atomic(target, "new\n")
    assert target.read_text() == "new\n" and os.listdir(tmp_path) == ["t.yaml"]


WRITER = """
import sys
from gyges.output import write_atomic
path, n = sys.argv[1], int(sys.argv[2])
i = 0
print("ready", flush=True)
while True:
    i += 1
    write_atomic(path, (str(i % 10) * 1000 + "\\n") * n)
"""


@pytest.mark.parametrize("sig", [signal.SIGINT, signal.SIGKILL], ids=["sigint", "sigkill"])
def test_an_atomic_write_stopped_by_a_signal_leaves_one_whole_version(tmp_path, sig):
    """A process rewriting a 2 MB file over and over, stopped by Ctrl-C or killed at
    random moments: the file is always one whole version, never a mix or a cut."""
    target = tmp_path / "t.txt"
    for k in range(6):
        p = subprocess.Popen([sys.executable, "-c", WRITER, str(target), "2000"],
                             stdout=subprocess.PIPE, stderr=subprocess.PIPE, cwd=ROOT)
        assert p.stdout.readline().strip() == b"ready"
        time.sleep(0.05 + 0.07 * k)
        p.send_signal(sig)
        p.communicate(timeout=30)
        if target.exists():
            lines = target.read_text().splitlines()
            assert len(lines) == 2000 and len(set(lines)) == 1
    leftovers = [n for n in os.listdir(tmp_path) if n != "t.txt"]
    if sig == signal.SIGINT:
        assert leftovers == []       # Ctrl-C: the temporary file is removed too


def test_generate_keeps_the_edits_of_its_catalogue(tmp_path):
    from gyges.game.rules import PRESETS
    from gyges.puzzles.generate import generate_puzzles
    from gyges.puzzles.generate.params import Params

    params = Params(2, PRESETS["pbmserv"], seed=11, sources=("play",))
    out = tmp_path / "gi.yaml"
    generate_puzzles(params, out, 2, jobs=1)
    edited = out.read_text().replace("schema: 1", "# my comment\nschema: 1")
    out.write_text(edited)
    r = run_gyges("generate", "--stipulation", "win in 2", "--count", "1", "--seed", "11",
                  "--source", "play", "--jobs", "1", "--quiet", "--out", out)
    assert r.exit_code == 0, r.output
    assert out.read_text() == edited          # smaller --count: nothing removed or rewritten


def test_generate_creates_a_missing_directory(tmp_path):
    r = run_gyges("generate", "--stipulation", "win in 2", "--count", "1",
                  "--max-candidates", "1", "--source", "play", "--jobs", "1", "--quiet",
                  "--out", tmp_path / "nodir/q.yaml")
    assert r.exit_code == 1, r.output       # 1: fewer puzzles found than --count asked
    assert "only 0 of 1 puzzles found" in r.output and "Errno" not in r.output
    assert (tmp_path / "nodir" / "q.yaml").exists()


def test_generate_refuses_out_and_state_naming_the_same_file(tmp_path):
    r = run_gyges("generate", "--stipulation", "win in 2", "--out", tmp_path / "s.yaml",
                  "--state", tmp_path / "s.yaml")
    assert r.exit_code == 2 and "name the same file" in r.output


def test_report_svg_never_clobbers_a_users_file(tmp_path, setups_table):
    out = setups_table
    precious = write(tmp_path / "precious.txt", "mine\n")
    r = run_gyges("setups", "report", out, "--svg", precious)
    assert r.exit_code == 2 and "--force" in r.output and precious.read_text() == "mine\n"
    assert "setup pairs" not in r.output                 # refused before the report
    svg = tmp_path / "new" / "dir" / "h.svg"
    assert run_gyges("setups", "report", out, "--svg", svg).exit_code == 0   # folders made
    assert run_gyges("setups", "report", out, "--svg", svg).exit_code == 0   # its own file
    svg.write_text(svg.read_text().replace("<svg", "<svg data-edited='1'"))
    assert run_gyges("setups", "report", out, "--svg", svg).exit_code == 2   # edited: refused
    assert run_gyges("setups", "report", out, "--svg", svg, "--force").exit_code == 0
    assert run_gyges("setups", "report", out, "--svg", precious, "--force").exit_code == 0
    assert precious.read_text().startswith("<?xml") or "<svg" in precious.read_text()


def test_export_refuses_a_file_it_did_not_write(tmp_path):
    cat = write(tmp_path / "c.yaml", "schema: 1\npuzzles:\n" + catalogue_entry("a"))
    (tmp_path / "book").mkdir()
    mine = write(tmp_path / "book" / "puzzles.txt", "my notes\n")
    r = run_gyges("export", cat, "--format", "text", "--out", tmp_path / "book")
    assert r.exit_code == 2 and mine.read_text() == "my notes\n"
    assert run_gyges("export", cat, "--format", "text", "--out", tmp_path / "book",
                     "--force").exit_code == 0
    assert run_gyges("export", cat, "--format", "text", "--out",
                     tmp_path / "book").exit_code == 0
