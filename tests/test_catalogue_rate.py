"""``gyges catalogue rate`` (gyges.puzzles.difficulty): each entry's effort and level, and
with ``--write`` its ``difficulty:`` line set in place, every other byte of the file kept;
the efforts remembered so that a second run measures nothing."""

from __future__ import annotations

import difflib
import re

from catalogues import SEEDS, run, seed_puzzles

from gyges.output import is_signed, signed
from gyges.puzzles.catalogue import load_catalogue
from gyges.puzzles.difficulty import EffortCache, rate_catalogue
from gyges.puzzles.rating import effort, level


def _levels() -> dict[str, int]:
    return {p.id: level(effort(p.position, p.rules, p.stipulation, p.main_line, p.cooks,
                               p.history, p.key)) for p in seed_puzzles()}


def _spoilt(text: str) -> str:
    """Seed 000's file with every difficulty wrong (5 for 1, 1 for the others, a comment
    kept after one) and the first entry's difficulty line removed."""
    text = re.sub(r"(?m)^(\s*difficulty: )(\d)$",
                  lambda m: m.group(1) + ("5" if m.group(2) == "1" else "1"), text)
    text = text.replace("difficulty: 1\n", "difficulty: 1  # a comment kept\n", 1)
    first = re.search(r"(?m)^\s*difficulty: .*\n", text)
    assert first is not None
    return text[:first.start()] + text[first.end():]


def test_write_changes_the_difficulty_lines_only(tmp_path):
    original = SEEDS.read_text(encoding="utf-8")
    path = tmp_path / "seeds.yaml"
    spoilt = _spoilt(original)
    path.write_text(spoilt, encoding="utf-8")
    report = rate_catalogue([path], write=True, cache=EffortCache(None))
    assert report.written == (str(path),)
    levels = _levels()
    assert {r.puzzle.id: r.level for r in report.rated} == levels
    new = path.read_text(encoding="utf-8")
    old_lines, new_lines = spoilt.splitlines(), new.splitlines()
    assert len(new_lines) == len(old_lines) + 1            # the missing line added
    ops = difflib.SequenceMatcher(None, old_lines, new_lines, autojunk=False).get_opcodes()
    edits = [old_lines[i1:i2] + new_lines[j1:j2] for tag, i1, i2, j1, j2 in ops
             if tag != "equal"]
    assert edits and all("difficulty:" in line for lines in edits for line in lines)
    assert "# a comment kept" in new
    assert {p.id: p.difficulty for p in load_catalogue(path).puzzles} == levels
    # rated again: nothing to write
    assert rate_catalogue([path], write=True, cache=EffortCache(None)).written == ()
    assert path.read_text(encoding="utf-8") == new


def test_the_command_reports_writes_and_remembers(tmp_path):
    path = tmp_path / "seeds.yaml"
    path.write_text(_spoilt(SEEDS.read_text(encoding="utf-8")), encoding="utf-8")
    first = run("catalogue", "rate", path, "-q")
    assert first.exit_code == 0, first.output
    assert "declared difficulties differ from the level (--write sets them)" in first.output
    assert "levels: 1: " in first.output and "efforts: " in first.output
    written = run("catalogue", "rate", path, "--write")
    assert written.exit_code == 0, written.output
    assert "measured before" in written.stderr and " s)" not in written.stderr
    assert "written in 1 file" in written.output
    again = run("catalogue", "rate", path)
    assert again.exit_code == 0 and "differ" not in again.output and "written" not in again.output
    assert {p.id: p.difficulty for p in load_catalogue(path).puzzles} == _levels()


def test_an_unreadable_file_is_an_error_with_its_place(tmp_path):
    bad = tmp_path / "bad.yaml"
    bad.write_text("schema: 1\npuzzles:\n- id: x\n  stipulation: wins in 2\n",
                   encoding="utf-8")
    result = run("catalogue", "rate", bad)
    assert result.exit_code == 2
    assert "gyges: " in result.output and "bad.yaml" in result.output


def test_a_file_gyges_wrote_stays_signed(tmp_path):
    """A catalogue file gyges wrote (signed: `generate` appends to it) is signed again
    after its difficulties are set, so that it stays one gyges may append to."""
    path = tmp_path / "seeds.yaml"
    path.write_text(signed(_spoilt(SEEDS.read_text(encoding="utf-8")), "#"), encoding="utf-8")
    assert rate_catalogue([path], write=True, cache=EffortCache(None)).written == (str(path),)
    assert is_signed(path.read_text(encoding="utf-8"))
    assert {p.id: p.difficulty for p in load_catalogue(path).puzzles} == _levels()
