"""Publishing the book (gyges.puzzles.book.publish, ``gyges export``): every format written, a
malformed catalogue refused, the engine's and the solver's refusals, the output policy, and
the library's errors worded by the command with its options."""

from __future__ import annotations

import xml.etree.ElementTree as ET

import pytest
from catalogues import SEEDS, run, seed_puzzles
from common import catalogue_entry, write

from gyges.output import OutputError
from gyges.puzzles.book.publish import (
    BookFormat,
    BookOptions,
    Disproved,
    EngineRefused,
    NothingSelected,
    publish_book,
)
from gyges.puzzles.book.selection import Selection
from gyges.puzzles.catalogue import parse_catalogue


def test_export_command_writes_each_format(tmp_path):
    for fmt, expected in (("text", ["puzzles.txt"]), ("html", ["book.html"])):
        out = tmp_path / fmt
        result = run("export", str(SEEDS), "--format", fmt, "--out", str(out))
        assert result.exit_code == 0, result.output
        assert sorted(p.name for p in out.iterdir()) == expected
    out = tmp_path / "svg"
    result = run("export", str(SEEDS), "--format", "svg", "--out", str(out))
    assert result.exit_code == 0, result.output
    names = sorted(p.name for p in out.iterdir())
    assert len(names) == 2 * len(seed_puzzles())
    for name in names:
        ET.parse(out / name)
    named = tmp_path / "named" / "my.txt"
    result = run("export", str(SEEDS), "--format", "text", "--out", str(named))
    assert result.exit_code == 0 and named.exists()


def test_export_refuses_a_malformed_catalogue(tmp_path):
    bad = tmp_path / "bad.yaml"
    bad.write_text("schema: 1\npuzzles:\n- id: x\n  stipulation: wins in 1\n")
    result = run("export", str(bad), "--format", "text", "--out", str(tmp_path / "o"))
    assert result.exit_code == 2
    assert f"{bad}:3: puzzle x: no position" in result.output


def test_export_checks_keys_against_the_engine(tmp_path):
    cat = write(tmp_path / "c.yaml", "schema: 1\npuzzles:\n"
                + catalogue_entry("a", key="51-43-33-31-21-N"))
    r = run("export", cat, "--format", "text", "--out", tmp_path / "o")
    assert r.exit_code == 1 and "puzzle a" in r.output and "not a legal move" in r.output
    assert not (tmp_path / "o").exists()

OVERSTATED = """schema: 1
puzzles:
- id: overstated
  position: "....../3...../..1.1./1.23.3/3.22.1/....2. N"
  stipulation: North wins in 2
  solution:
    key: 51-43-33-31-21-S
    main-line: [51-43-33-31-21-S]
"""


def test_check_refuses_an_entry_the_solver_disproves(tmp_path):
    """An entry claiming 'wins in 2' that the solver proves a win in 1 does not go to print:
    --check re-proves and refuses; it is on by default for pdf."""
    cat = tmp_path / "cat.yaml"
    cat.write_text(OVERSTATED)
    out = tmp_path / "out"
    result = run("export", str(cat), "--format", "text", "--out", str(out), "--check")
    assert result.exit_code == 1
    assert "the stipulation says 'North wins in 2' but the solver proves 'North wins in 1'" \
        in result.output
    assert "refused" in result.output and not out.exists()
    result = run("export", str(cat), "--format", "pdf", "--out", str(out / "b.pdf"), "-q")
    assert result.exit_code == 1 and not out.exists()
    # Without --check the text export goes through (the claim is the author's).
    result = run("export", str(cat), "--format", "text", "--out", str(out))
    assert result.exit_code == 0
    # A sound entry passes the check.
    result = run("export", str(SEEDS), "--format", "text", "--out", str(out), "--check", "-q")
    assert result.exit_code == 0, result.output


def test_publish_book_writes_signed_files_and_says_where(tmp_path):
    puzzles = seed_puzzles()
    done = publish_book(puzzles, tmp_path / "t", BookFormat.TEXT)
    assert done.files == (tmp_path / "t" / "puzzles.txt",) and done.directory == tmp_path / "t"
    text = done.files[0].read_text()
    assert text.splitlines()[-1].startswith("# written by gyges; checksum ")
    again = publish_book(puzzles, tmp_path / "t", "text", BookOptions(title="Other"))
    assert again.files == done.files and "Other\n=====" in done.files[0].read_text()
    svgs = publish_book(puzzles, tmp_path / "svg", "svg", BookOptions(arrows="none", size=100))
    assert len(svgs.files) == len(puzzles) and svgs.directory == tmp_path / "svg"
    for f in svgs.files:
        assert ET.parse(f).getroot().get("width") == "100"


def test_publish_book_refusals_are_typed(tmp_path):
    puzzles = seed_puzzles()
    with pytest.raises(NothingSelected) as e:
        publish_book(puzzles, tmp_path, "text", selection=Selection.parse(["id=none"]))
    assert str(e.value.selection) == "id=none" and "--" not in str(e.value)
    bad = parse_catalogue(OVERSTATED.replace("51-43-33-31-21-S]", "51-43-33-31-21-N]"),
                          "o.yaml").puzzles
    with pytest.raises(EngineRefused) as refused:
        publish_book(bad, tmp_path / "o", "text")
    assert "main line is not legal" in str(refused.value.problems[0])
    steps = []
    with pytest.raises(Disproved) as disproved:
        publish_book(parse_catalogue(OVERSTATED, "o.yaml").puzzles, tmp_path / "o", "html",
                     check=True, progress=steps.append)
    assert disproved.value.ids == ["overstated"] and not (tmp_path / "o").exists()
    assert [(s.index, s.done) for s in steps] == [(1, False), (1, True)]
    mine = tmp_path / "mine.txt"
    mine.write_text("my notes\n")
    with pytest.raises(OutputError):
        publish_book(puzzles, mine, "text")
    assert mine.read_text() == "my notes\n"
    publish_book(puzzles, mine, "text", force=True)
    assert mine.read_text() != "my notes\n"


def test_the_command_words_the_refusals_with_its_options(tmp_path):
    r = run("export", str(SEEDS), "--format", "text", "--out", str(tmp_path),
            "--select", "id=none")
    assert r.exit_code == 2 and r.output == "gyges: no puzzle matches --select id=none\n"
    cat = tmp_path / "cat.yaml"
    cat.write_text(OVERSTATED)
    r = run("export", str(cat), "--format", "text", "--out", str(tmp_path / "o"), "--check",
            "-q")
    assert r.exit_code == 1 and r.output.splitlines()[-1] == (
        "gyges: export refused: the solver disproves 1 entry (overstated); fix them (gyges "
        "catalogue check) or leave them out with --select")
