"""Writing the catalogue (gyges.puzzles.catalogue.writing): entries appended to a file with one
duplicate rule for ``catalogue add``, ``review --puzzles`` and ``generate``: an entry is
already there when an entry has its id, or is the same puzzle (its rules, and its position
and history up to the board's symmetries)."""

from __future__ import annotations

import pytest
from common import BOUNCING as BOUNCING_TEXT

from gyges.game.position import Position
from gyges.game.rules import PRESETS, Side
from gyges.puzzles.catalogue import load_catalogue, parse_catalogue
from gyges.puzzles.catalogue.writing import (
    AppendError,
    DuplicateEntry,
    Duplicates,
    append_entries,
    appended_text,
    format_entry,
)
from gyges.puzzles.symmetry import flipped
from gyges.search.stipulation import Stipulation

PBM = PRESETS["pbmserv"]
BOUNCING = Position.from_string(BOUNCING_TEXT)
TABOO = Position.from_string("....../1...../3.23../3.211./2.132./...... S")


def entry(puzzle_id: str, position: Position = BOUNCING, rules=PBM, history=()) -> str:
    return format_entry(puzzle_id, position, rules, Stipulation("win", 1, position.turn),
                        key="51-43-33-31-21-S", main_line=["51-43-33-31-21-S"],
                        history=history)


def test_entries_are_appended_to_a_new_file_with_its_title(tmp_path):
    target = tmp_path / "sub" / "new.yaml"
    done = append_entries(target, [entry("a"), entry("b", TABOO)], title="Mine")
    cat = load_catalogue(target)
    assert done.added == ("a", "b") and cat.title == "Mine"
    assert [p.id for p in cat.puzzles] == ["a", "b"] and done.text == target.read_text()
    assert append_entries(tmp_path / "none.yaml", []).added == ()
    assert not (tmp_path / "none.yaml").exists()            # nothing to add: no file


def test_a_bare_list_and_an_indented_list_keep_their_form(tmp_path):
    bare = tmp_path / "bare.yaml"
    bare.write_text("- id: a\n  schema: 1\n" + entry("x").split("\n", 1)[1])
    append_entries(bare, [entry("b", TABOO)])
    assert [p.id for p in load_catalogue(bare).puzzles] == ["a", "b"]
    assert bare.read_text().count("schema: 1") == 2
    indented = tmp_path / "indented.yaml"
    indented.write_text("schema: 1\npuzzles:\n  " + entry("a").replace("\n", "\n  ").rstrip()
                        + "\n")
    append_entries(indented, [entry("b", TABOO)])
    assert "\n  - id: \"b\"\n" in indented.read_text()
    assert [p.id for p in load_catalogue(indented).puzzles] == ["a", "b"]


@pytest.mark.parametrize("same_id, position, history, words", [
    (True, TABOO, (), "the id 'a' is already used on line 3"),
    (False, BOUNCING, (), "this position is already puzzle a (line 3)"),
    (False, BOUNCING.mirrored(), (), "this position, mirrored or turned around, is already "
                                     "puzzle a (line 3)"),
    (False, flipped(BOUNCING), (), "mirrored or turned around"),
])
def test_a_duplicate_is_refused_and_nothing_written(tmp_path, same_id, position, history,
                                                    words):
    target = tmp_path / "c.yaml"
    target.write_text("schema: 1\npuzzles:\n" + entry("a"))
    before = target.read_text()
    new = entry("a" if same_id else "b", position, history=history)
    with pytest.raises(DuplicateEntry) as e:
        append_entries(target, [entry("c", TABOO), new])
    assert e.value.same_id is same_id and words in str(e.value)
    assert str(e.value).startswith(f"{target}:3: puzzle {'a' if same_id else 'b'}: ")
    assert e.value.existing.id == "a" and target.read_text() == before   # "c" not written


def test_the_same_position_under_other_rules_or_after_other_positions_is_another_puzzle(
        tmp_path):
    target = tmp_path / "c.yaml"
    target.write_text("schema: 1\npuzzles:\n" + entry("a"))
    before = Position.from_string("....../3...../..1.1./1.23.3/3.22../....21 S")
    done = append_entries(target, [entry("b", rules=PRESETS["bga"]),
                                   entry("c", history=[before])])
    assert done.added == ("b", "c") and done.skipped == ()


def test_duplicates_among_the_new_entries_and_skipping(tmp_path):
    text = "schema: 1\npuzzles:\n"
    with pytest.raises(DuplicateEntry) as e:
        appended_text(text, [entry("a"), entry("b", BOUNCING.mirrored())], "x.yaml")
    assert e.value.existing.line == 3                  # the new entry "a", where it landed
    done = appended_text(text, [entry("a"), entry("a", TABOO), entry("b", flipped(BOUNCING)),
                                entry("c", TABOO)], "x.yaml", duplicates=Duplicates.SKIP)
    assert done.added == ("a", "c") and done.skipped == ("a", "b")
    assert [p.id for p in parse_catalogue(done.text).puzzles] == ["a", "c"]


def test_an_empty_flow_list_takes_the_first_entry():
    """``puzzles: []`` becomes ``puzzles:`` with the entries under it, for every caller
    (``catalogue add`` refused such a file before the appender was shared)."""
    done = appended_text("schema: 1\ntitle: t\npuzzles: []\n", [entry("a")], "x.yaml")
    assert done.text.startswith("schema: 1\ntitle: t\npuzzles:\n- id: \"a\"\n")


@pytest.mark.parametrize("text, detail", [
    ("schema: 1\npuzzles:\n- id: a\n  position: \"" + str(TABOO) + "\"\n"
     "  stipulation: no forced result in 1\ntitle: after\n", "malformed YAML"),
    ("schema: 1\npuzzles:\n  - id: a\n    position: \"" + str(TABOO) + "\"\n"
     "    stipulation: no forced result in 1\ndescription: |\n  notes\n", None),
])
def test_a_file_that_cannot_be_extended_cleanly(text, detail):
    with pytest.raises(AppendError) as e:
        appended_text(text, [entry("b")], "x.yaml")
    if detail is None:
        assert e.value.detail is None and "not the last thing" in str(e.value)
    else:
        assert detail in e.value.detail


def test_a_file_that_is_not_text_is_a_catalogue_error(tmp_path):
    target = tmp_path / "bin.yaml"
    target.write_bytes(b"\xff\xfe schema")
    with pytest.raises(ValueError, match="not UTF-8"):
        append_entries(target, [entry("a")])


def test_the_side_to_move_of_an_entry_is_its_own(tmp_path):
    """An entry for South's puzzle and its image turned around (North's) are one puzzle."""
    done = appended_text("schema: 1\npuzzles:\n", [entry("a", TABOO),
                                                    entry("b", flipped(TABOO))],
                         "x.yaml", duplicates=Duplicates.SKIP)
    assert done.skipped == ("b",) and flipped(TABOO).turn is Side.NORTH
