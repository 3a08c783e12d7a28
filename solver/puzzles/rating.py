"""The difficulty rating of a sound puzzle: the :class:`Features` the solver measures, and
:func:`rating`, a weighted sum of capped, increasing terms cut into 1..5 (docs/generate.md).

>>> rating(Features(moves=2, single_tries=0, defences=5, key_bounces=0, quiet=False,
...                 nodes=100)).difficulty
1
>>> f = Features(2, 3, 20, 2, True, 5000)
>>> Features.from_json(f.to_json()) == f
True
"""

from __future__ import annotations

import dataclasses
import math
from typing import Any

__all__ = ["CAPS", "THRESHOLDS", "WEIGHTS", "Features", "Rating", "rating"]


@dataclasses.dataclass(frozen=True)
class Features:
    """What makes a sound puzzle hard, measured by the solver.

    ``moves``: the stipulated number of moves; ``single_tries``: tries (first moves that
    fail) refuted by one defence only, counted up to the rating's cap; ``defences``: the
    defender's legal replies to the key; ``key_bounces``: bounces of the key; ``quiet``:
    the key neither relocates a ring nor threatens to land; ``nodes``: positions the
    solver visited to prove the win.
    """

    moves: int
    single_tries: int
    defences: int
    key_bounces: int
    quiet: bool
    nodes: int

    def to_json(self) -> dict[str, Any]:
        return dataclasses.asdict(self)

    @classmethod
    def from_json(cls, d: dict[str, Any]) -> Features:
        """The features :meth:`to_json` wrote."""
        return cls(**d)


@dataclasses.dataclass(frozen=True)
class Rating:
    score: float
    difficulty: int  #: 1 (easy) .. 5 (hard), as in the catalogue


#: The score's terms (docs/generate.md); each grows with its feature and is capped.
WEIGHTS = {"moves": 2.0, "single_tries": 0.6, "defences": 0.05, "key_bounces": 0.5,
           "quiet": 1.5, "nodes": 0.3}
CAPS = {"single_tries": 5, "defences": 40, "key_bounces": 4, "nodes": 6.0}
#: Score thresholds of difficulty 2, 3, 4, 5.
THRESHOLDS = (3.5, 5.0, 6.5, 8.5)


def rating(f: Features) -> Rating:
    """The difficulty of a puzzle from its features: a weighted sum of capped, increasing
    terms (so more of any feature never makes a puzzle easier), cut into 1..5.

    >>> rating(Features(2, 3, 20, 2, True, 5000))
    Rating(score=8.41, difficulty=4)
    """
    w, c = WEIGHTS, CAPS
    score = (
        w["moves"] * (f.moves - 1)
        + w["single_tries"] * min(f.single_tries, c["single_tries"])
        + w["defences"] * min(f.defences, c["defences"])
        + w["key_bounces"] * min(f.key_bounces, c["key_bounces"])
        + (w["quiet"] if f.quiet else 0.0)
        + w["nodes"] * min(math.log10(f.nodes + 1), c["nodes"])
    )
    difficulty = 1 + sum(score >= t for t in THRESHOLDS)
    return Rating(round(score, 3), difficulty)
