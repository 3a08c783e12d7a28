"""The state file of a generation run (gyges.puzzles.generate.state): the puzzles kept from its
records, and a state file made another way refused. (Mutated state files: test_fuzz.py.)"""

from __future__ import annotations

import dataclasses
import json

import pytest

from gyges.game.position import Position
from gyges.game.rules import PRESETS
from gyges.puzzles.generate.params import Params
from gyges.puzzles.generate.play import PLAY_WAY
from gyges.puzzles.generate.state import (
    CandidateRecord,
    StateError,
    StateMismatch,
    read_state,
    select,
)
from gyges.puzzles.symmetry import canonical, flipped

RULES = PRESETS["pbmserv"]
PLAY = Params(2, RULES, seed=11, sources=("play",))
DEEP = Params(4, RULES.with_options({"repetition": "allowed"}), seed=42, sources=("play",))


def test_select_drops_duplicates_and_known_positions():
    pos = Position.from_string("321..2/1...../....../2....2/...3../.331.1 S")
    other = Position.from_string("2..3.3/....../....1./....13/.3..../212.12 S")
    recs = {i: CandidateRecord(i, True, canonical=canonical(p))
            for i, p in enumerate([pos, pos.mirrored(), other, flipped(pos)])}
    assert [r.index for r in select(recs, 10)] == [0, 2]
    assert [r.index for r in select(recs, 10, {canonical(other)})] == [0]
    assert [r.index for r in select(recs, 1)] == [0]


@pytest.mark.parametrize("params", [PLAY, dataclasses.replace(PLAY, moves=3), DEEP])
def test_play_runs_do_not_resume_state_files_of_earlier_candidates(tmp_path, params):
    """Play candidates changed (walking back, the safe move drawn lazily, a cooked walk
    played on, fewer threats asked): a state file of an earlier way (no mark,
    "walk-back", "walk-back 2", "walk-back 3") is refused, for every stipulation; a run
    with no play candidates carries no mark (its candidates are unchanged)."""
    assert params.to_json()["play"] == PLAY_WAY
    assert "play" not in dataclasses.replace(params, sources=("compose",)).to_json()
    for earlier in (None, "walk-back", "walk-back 2", "walk-back 3"):
        old = {**params.to_json()}
        del old["play"]
        if earlier is not None:
            old["play"] = earlier
        state = tmp_path / "old.jsonl"
        state.write_text(json.dumps({"index": 0, "sound": False, "reasons": ["x"],
                                     "params": old}) + "\n")
        with pytest.raises(ValueError, match="other parameters"):
            read_state(state, params)


def test_a_state_file_that_is_not_one_is_refused_with_its_line(tmp_path):
    state = tmp_path / "s.jsonl"
    rec = {"index": 0, "sound": False, "reasons": ["x"], "params": PLAY.to_json()}
    state.write_text(json.dumps(rec) + "\n" + "[1, 2]\n" + json.dumps(rec) + "\n")
    with pytest.raises(StateError, match=f"^{state}:2: not a candidate's record"):
        read_state(state, PLAY)
    state.write_text(json.dumps(rec) + "\n" + '{"index": 1, "so')       # cut short
    assert list(read_state(state, PLAY)) == [0]
    other = dataclasses.replace(PLAY, seed=12)
    with pytest.raises(StateMismatch) as e:
        read_state(state, other)
    assert (e.value.path, e.value.line, e.value.found) == (state, 1, PLAY.to_json())


def test_a_record_reads_back_typed_and_a_wrong_one_is_refused_in_words(tmp_path):
    from gyges.puzzles.generate.params import Source
    from gyges.puzzles.generate.soundness import assess_soundness

    pos = Position.from_string("321..2/1...../....../2....2/...3../.331.1 S")
    a = assess_soundness(pos, RULES, 2)
    rec = CandidateRecord(3, True, (), Source.PLAY, pos, canonical(pos), {}, a.key,
                          a.main_line, a.themes, a.features, a.rating, a.tries, a.duals,
                          a.threats, 0.5, PLAY.to_json())
    assert CandidateRecord.from_json(json.loads(json.dumps(rec.to_json()))) == rec
    state = tmp_path / "s.jsonl"
    state.write_text(json.dumps(rec.to_json()) + "\n")
    assert read_state(state, PLAY) == {3: rec}
    without_key = {k: v for k, v in rec.to_json().items() if k != "key"}
    bad_features = {**rec.to_json(), "features": {"moves": 2}}
    for line, words in ((without_key, "(no 'key' key)"), (bad_features, "features {'moves': 2}")):
        state.write_text(json.dumps(line) + "\n")
        with pytest.raises(StateError, match=f"^{state}:1: not a candidate's record") as e:
            read_state(state, PLAY)
        assert words in str(e.value)
