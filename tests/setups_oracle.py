"""Independent checks for the setup tests: every setup listed by brute force, and what
constraints mean read directly in plain Python (no CP-SAT, no engine)."""

from __future__ import annotations

import itertools
from collections.abc import Callable

from hypothesis import strategies as st

from gyges.setups.search.constraints import CENTRE, EDGES, Constraints, SideConstraints

# Every setup: the permutations of the six rings, duplicates removed.
BRUTE_SETUPS = sorted({"".join(map(str, p)) for p in itertools.permutations((1, 1, 2, 2, 3, 3))})


def brute(pred: Callable[[str], bool]) -> list[str]:
    return [s for s in BRUTE_SETUPS if pred(s)]


def adjacent(s: str, size: str) -> bool:
    return any(a == b == size for a, b in zip(s, s[1:], strict=False))


def allows(sc: SideConstraints, setup: str) -> bool:
    """Does ``setup`` meet the placement constraints ``sc``?"""
    if sc.setup is not None and setup != sc.setup:
        return False
    if any(setup[c - 1] != str(s) for s, c in sc.fixed):
        return False
    if any(setup[c - 1] == str(s) for s, c in sc.off):
        return False
    if any(setup[i] == setup[i + 1] and int(setup[i]) in sc.apart for i in range(5)):
        return False
    if sc.symmetric and setup != setup[::-1]:
        return False
    for counts, cols in ((sc.centre, CENTRE), (sc.edges, EDGES)):
        for k in counts:
            if not k.holds(sum(setup[c - 1] == str(k.size) for c in cols)):
                return False
    return True


def allowed_pairs(c: Constraints) -> list[tuple[str, str]]:
    """Every pair whose rows meet the placement constraints of ``c`` (North tied to South
    as ``c.north_as`` says), sorted."""
    ties = {None: lambda s, n: True, "mirror": lambda s, n: n == s,
            "rotated": lambda s, n: n == s[::-1]}
    tie = ties[None if c.north_as is None else c.north_as.value]
    return [(s, n) for s in BRUTE_SETUPS for n in BRUTE_SETUPS
            if allows(c.south, s) and allows(c.north, n) and tie(s, n)]


OPS = {"=": lambda a, b: a == b, "<=": lambda a, b: a <= b, ">=": lambda a, b: a >= b}


def holds(options: dict, s: str) -> bool:
    """What the options say, read directly from docs/setups.md, on one setup string."""
    for text in options.get("fix", []):
        size, col = text.split("@")
        if s[int(col) - 1] != size:
            return False
    for text in options.get("off", []):
        size, cols = text.split("@")
        if any(s[int(c) - 1] == size for c in cols):
            return False
    for sizes in options.get("apart", []):
        if any(adjacent(s, k) for k in sizes):
            return False
    if options.get("symmetric") and s != s[::-1]:
        return False
    for key, cols in (("centre", (3, 4)), ("edges", (1, 6))):
        for text in options.get(key, []):
            op = next(o for o in ("<=", ">=", "=") if o in text)
            size, count = text.split(op)
            if not OPS[op](sum(s[c - 1] == size for c in cols), int(count)):
                return False
    return True


# Random placement options of one side, as hypothesis draws them.
sizes = st.sampled_from("123")
cols = st.integers(1, 6).map(str)
option_sets = st.fixed_dictionaries({}, optional={
    "fix": st.lists(st.builds(lambda a, b: f"{a}@{b}", sizes, cols), max_size=2),
    "off": st.lists(st.builds(lambda a, b: f"{a}@{''.join(sorted(set(b)))}", sizes,
                              st.lists(cols, min_size=1, max_size=3)), max_size=2),
    "apart": st.lists(st.sampled_from(["1", "2", "3", "12", "123"]), max_size=1),
    "symmetric": st.booleans(),
    "centre": st.lists(st.builds(lambda a, o, k: f"{a}{o}{k}", sizes,
                                 st.sampled_from(["=", "<=", ">="]), st.integers(0, 2)),
                       max_size=2),
    "edges": st.lists(st.builds(lambda a, o, k: f"{a}{o}{k}", sizes,
                                st.sampled_from(["=", "<=", ">="]), st.integers(0, 2)),
                      max_size=2),
})
