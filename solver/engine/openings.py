"""Openings for engine matches: setup pairs (South's setup, North's), in a fixed seeded
order.

``canonical``: one pair of each mirror class (the whole board reflected left to right
is the same game): 4,068 of the 8,100 pairs; ``all``: every pair.

>>> pairs = openings("canonical")
>>> len(pairs), len(openings("all"))
(4068, 8100)
>>> pairs == openings("canonical") and pairs[:3] != sorted(pairs)[:3]
True
>>> all(p == canonical(*p) for p in pairs)
True
"""

from __future__ import annotations

import random

from gyges.game.position import ALL_SETUPS

__all__ = ["OPENING_SETS", "SEED", "OpeningsError", "canonical", "openings", "read_openings"]

OPENING_SETS = ("canonical", "all")
SEED = 24  #: the order's seed: every match over a set plays its pairs in this order


class OpeningsError(ValueError):
    """An openings file that cannot be read: ``str()`` is ``file:line: what is wrong``."""


def canonical(south: str, north: str) -> tuple[str, str]:
    """The representative of a pair's mirror class: the smaller of the pair and the pair
    with the board reflected left to right.

    >>> canonical("321132", "112233")
    ('231123', '332211')
    """
    return min((south, north), (south[::-1], north[::-1]))


def openings(kind: str = "canonical", seed: int = SEED) -> list[tuple[str, str]]:
    """The setup pairs of ``kind`` (:data:`OPENING_SETS`), shuffled by ``seed``."""
    if kind not in OPENING_SETS:
        raise ValueError(f"unknown opening set {kind!r}: use one of {', '.join(OPENING_SETS)}")
    pairs = [(s, n) for s in ALL_SETUPS for n in ALL_SETUPS]
    if kind == "canonical":
        pairs = [p for p in pairs if p == canonical(*p)]
    random.Random(seed).shuffle(pairs)
    return pairs


def read_openings(path: str) -> list[tuple[str, str]]:
    """The setup pairs of a file, in its order: one pair a line, South's setup then
    North's (``231123 321123``), as ``setups search --side pair`` prints them; ``#``
    starts a comment, blank lines are skipped.

    >>> import os, tempfile
    >>> p = os.path.join(tempfile.mkdtemp(), "openings.txt")
    >>> _ = open(p, "w").write("# two openings\n231123 321123\n\n112233 332211  # mirror\n")
    >>> read_openings(p)
    [('231123', '321123'), ('112233', '332211')]
    >>> _ = open(p, "w").write("231123 321124\n")
    >>> read_openings(p)  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    gyges.engine.openings.OpeningsError: ...openings.txt:1: '321124' is not a setup: ...
    """
    try:
        with open(path, encoding="utf-8") as f:
            text = f.read()
    except (OSError, UnicodeDecodeError) as e:
        raise OpeningsError(f"{path}: cannot read it: "
                            f"{getattr(e, 'strerror', None) or e}") from None
    known = set(ALL_SETUPS)
    pairs = []
    for number, line in enumerate(text.splitlines(), 1):
        words = line.split("#", 1)[0].split()
        if not words:
            continue
        if len(words) != 2:
            raise OpeningsError(f"{path}:{number}: write one opening a line, South's setup "
                                f"then North's (like '231123 321123'), not {line.strip()!r}")
        for setup in words:
            if setup not in known:
                raise OpeningsError(f"{path}:{number}: {setup!r} is not a setup: six digits, "
                                    "two each of 1, 2 and 3 (like 231123)")
        pairs.append((words[0], words[1]))
    if not pairs:
        raise OpeningsError(f"{path}: no opening in it: write one a line, South's setup "
                            "then North's (like '231123 321123')")
    return pairs
