"""The difficulty rating (gyges.puzzles.rating): monotone in every feature, spanning the
scale, its features read back from the state file's record, and one scale for every entry
of the catalogue."""

from __future__ import annotations

import dataclasses
import json

import pytest
from catalogues import every_puzzle
from hypothesis import given, settings
from hypothesis import strategies as st

from gyges.game.position import Position
from gyges.game.rules import PRESETS, Side
from gyges.puzzles.rating import TRIES_UP_TO, Features, PuzzleRating, rate, rating
from gyges.search.stipulation import Stipulation

features = st.builds(Features, moves=st.integers(1, 5), single_tries=st.integers(0, 10),
                     defences=st.integers(0, 60), key_bounces=st.integers(0, 6),
                     quiet=st.booleans())


@settings(max_examples=300, deadline=None)
@given(features, st.sampled_from(["moves", "single_tries", "defences", "key_bounces",
                                  "quiet"]), st.integers(1, 5))
def test_rating_is_monotone(f, field, step):
    if field == "quiet":
        harder = dataclasses.replace(f, quiet=True)
    else:
        harder = dataclasses.replace(f, **{field: getattr(f, field) + step})
    assert rating(harder).score >= rating(f).score
    assert rating(harder).difficulty >= rating(f).difficulty


def test_rating_spans_the_scale():
    easy = Features(2, 0, 1, 0, False)
    hard = Features(3, 5, 40, 4, True)
    assert rating(easy).difficulty == 1 and rating(hard).difficulty == 5


def test_features_read_back_from_their_record():
    f = Features(3, 2, 17, 1, True)
    assert Features.from_json(json.loads(json.dumps(f.to_json()))) == f


def _shipped(deep: bool) -> list:
    return [p for p in every_puzzle() if (p.stipulation.moves == TRIES_UP_TO) == deep]


@pytest.mark.parametrize("deep", [False, pytest.param(True, marks=pytest.mark.slow)])
def test_every_shipped_entry_is_rated_on_the_one_scale(deep):
    """The difficulty of every entry of puzzles/ (deep ones included) is the rating of its
    position, stipulation and key: one scale for the book's chapters. The wins in 4 (whose
    tries take the solver seconds each) are the slow half."""
    puzzles = _shipped(deep)
    assert len(puzzles) >= 12
    for p in puzzles:
        rated = rate(p.position, p.rules, p.stipulation, p.key, history=p.history)
        assert p.difficulty == rated.difficulty, (p.id, rated)


def test_a_win_in_1_is_easy_and_length_weighs_most():
    """What the scale rests on: a win in 1 is difficulty 1 whatever its key; a bare win in
    4 (no tries, no defences, a plain key) is already hard, and one in 5 very hard."""
    p = Position.from_string("....../1...../3.23../3.211./2.132./...... S")
    assert rate(p, PRESETS["pbmserv"], Stipulation("win", 1, Side.SOUTH),
                "24-25-34-44-N") == PuzzleRating(1.5, 1)
    assert rating(Features(1, 0, 0, 4, False)).difficulty == 1
    assert rating(Features(4, 0, 0, 0, False)).difficulty == 4
    assert rating(Features(5, 0, 0, 0, False)).difficulty == 5
