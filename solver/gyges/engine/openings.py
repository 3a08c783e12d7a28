"""Openings for engine matches: setup pairs (South's setup, North's), in a fixed seeded
order.

``canonical``: one pair of each mirror class (the whole board reflected left to right
is the same game): 4,068 of the 8,100 pairs; ``all``: every pair.

>>> pairs = openings("canonical")
>>> len(pairs), len(openings("all"))
(4068, 8100)
>>> pairs == openings("canonical") and pairs[:3] != sorted(pairs)[:3]
True
>>> all(p == canonical_pair(*p) for p in pairs)
True
"""

from __future__ import annotations

import random

from gyges.game.position import ALL_SETUPS, canonical_pair

__all__ = ["OPENING_SETS", "SEED", "openings"]

OPENING_SETS = ("canonical", "all")
SEED = 24  #: the order's seed: every match over a set plays its pairs in this order


def openings(kind: str = "canonical", seed: int = SEED) -> list[tuple[str, str]]:
    """The setup pairs of ``kind`` (:data:`OPENING_SETS`), shuffled by ``seed``."""
    if kind not in OPENING_SETS:
        raise ValueError(f"unknown opening set {kind!r}: use one of {', '.join(OPENING_SETS)}")
    pairs = [(s, n) for s in ALL_SETUPS for n in ALL_SETUPS]
    if kind == "canonical":
        pairs = [p for p in pairs if p == canonical_pair(*p)]
    random.Random(seed).shuffle(pairs)
    return pairs

