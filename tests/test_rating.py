"""The difficulty rating (gyges.puzzles.rating): monotone in every feature, spanning the
scale, and its features read back from the state file's record."""

from __future__ import annotations

import dataclasses
import json

from hypothesis import given, settings
from hypothesis import strategies as st

from gyges.puzzles.rating import Features, rating

features = st.builds(Features, moves=st.integers(2, 4), single_tries=st.integers(0, 10),
                     defences=st.integers(0, 60), key_bounces=st.integers(0, 6),
                     quiet=st.booleans(), nodes=st.integers(0, 10**7))


@settings(max_examples=300, deadline=None)
@given(features, st.sampled_from(["moves", "single_tries", "defences", "key_bounces",
                                  "quiet", "nodes"]), st.integers(1, 5))
def test_rating_is_monotone(f, field, step):
    if field == "quiet":
        harder = dataclasses.replace(f, quiet=True)
    else:
        harder = dataclasses.replace(f, **{field: getattr(f, field) + step})
    assert rating(harder).score >= rating(f).score
    assert rating(harder).difficulty >= rating(f).difficulty


def test_rating_spans_the_scale():
    easy = Features(2, 0, 1, 0, False, 10)
    hard = Features(3, 5, 40, 4, True, 10**6)
    assert rating(easy).difficulty == 1 and rating(hard).difficulty == 5


def test_features_read_back_from_their_record():
    f = Features(3, 2, 17, 1, True, 4321)
    assert Features.from_json(json.loads(json.dumps(f.to_json()))) == f
