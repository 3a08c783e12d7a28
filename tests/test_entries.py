"""A run's catalogue output (gyges.puzzles.generate.entries): a file the generator wrote is
replaced, any other catalogue keeps its text and gains the puzzles it does not hold (the
appender's duplicate rule), anything else is refused."""

from __future__ import annotations

import pytest

from gyges.game.position import Position
from gyges.game.rules import PRESETS
from gyges.puzzles.catalogue import load_catalogue
from gyges.puzzles.catalogue.writing import format_entry
from gyges.puzzles.generate.entries import (
    OutputNotCatalogue,
    catalogue_text,
    check_catalogue_out,
    entry_id,
    write_catalogue,
)
from gyges.puzzles.generate.params import Params
from gyges.puzzles.generate.soundness import assess_soundness
from gyges.puzzles.generate.state import CandidateRecord
from gyges.puzzles.symmetry import canonical, flipped
from gyges.search.stipulation import Stipulation

RULES = PRESETS["pbmserv"]
PARAMS = Params(2, RULES, seed=3, sources=("play",))
SOUND = Position.from_string("321..2/1...../....../2....2/...3../.331.1 S")


def record(index: int, position: Position) -> CandidateRecord:
    rec = assess_soundness(position, RULES, 2).to_json()
    return CandidateRecord.from_json({**rec, "index": index, "source": "play", "design": {},
                                      "canonical": canonical(position)})


def test_a_signed_file_is_replaced_and_another_catalogue_gains_what_it_lacks(tmp_path):
    out = tmp_path / "g.yaml"
    text = write_catalogue(out, [(PARAMS, [record(4, SOUND)])])
    assert out.read_text() == text == catalogue_text([(PARAMS, [record(4, SOUND)])])
    assert [p.id for p in load_catalogue(out).puzzles] == [entry_id(PARAMS, 4)]
    assert write_catalogue(out, [(PARAMS, [record(4, SOUND)])], counts=[3]) == \
        catalogue_text([(PARAMS, [record(4, SOUND)])], counts=[3])  # ours: replaced
    write_catalogue(out, [(PARAMS, [])])
    assert [p.id for p in load_catalogue(out).puzzles] == [entry_id(PARAMS, 4)]  # never lost
    out.write_text("# mine\nschema: 1\npuzzles: []\n")
    write_catalogue(out, [(PARAMS, [record(4, SOUND)])])
    assert out.read_text().startswith("# mine\nschema: 1\npuzzles:\n- id: \"gen-w2-s3-00004\"")


def test_a_puzzle_the_users_file_holds_under_other_rules_is_added(tmp_path):
    """The appender's rule: the same puzzle is the same rules too. A user's entry of the
    position under bga does not keep the pbmserv puzzle out; its mirror image under
    pbmserv does."""
    out = tmp_path / "mine.yaml"
    bga = format_entry("mine-bga", SOUND, PRESETS["bga"], Stipulation("win", 2, SOUND.turn),
                       key="12-24x36=54", main_line=["12-24x36=54"])
    out.write_text("schema: 1\npuzzles:\n" + bga)
    write_catalogue(out, [(PARAMS, [record(4, SOUND)])])
    assert [p.id for p in load_catalogue(out).puzzles] == ["mine-bga", "gen-w2-s3-00004"]
    before = out.read_text()
    write_catalogue(out, [(PARAMS, [record(5, flipped(SOUND.mirrored()))])])
    assert out.read_text() == before


def test_an_output_that_is_no_catalogue_is_refused_before_the_run(tmp_path):
    out = tmp_path / "notes.yaml"
    out.write_text("my notes: keep them\n")
    with pytest.raises(OutputNotCatalogue, match="exists and is not a catalogue"):
        check_catalogue_out(out)
    check_catalogue_out(out, force=True)
    with pytest.raises(OutputNotCatalogue, match="it is not a catalogue the new puzzles"):
        write_catalogue(out, [(PARAMS, [record(4, SOUND)])])
    assert out.read_text() == "my notes: keep them\n"


def test_a_title_with_a_colon_is_quoted_and_no_puzzles_is_an_empty_list():
    text = catalogue_text([(Params(2, RULES, 0), [])], title="My puzzles: new")
    assert 'title: "My puzzles: new"' in text and "puzzles: []" in text
