"""The forced-win solver (``gyges.search.solve``) against the brute-force reference solver.

``tests/reference_solver.py`` is plain minimax over the naive reference generator: no
transposition table, no ordering, no shortcuts. On small random positions (a few rings,
so that the brute force stays affordable) with wins in 1 and 2, losses and no result,
under every preset and some mixed option sets, both must give the same result and k.
"""

from __future__ import annotations

import random
from collections import Counter

import pytest
from positions import sparse_position
from reference import TooComplex, is_win, reference_moves
from reference_solver import reference_solve

from gyges import search
from gyges.game.position import Position
from gyges.game.rules import PRESETS, RuleSet

RULESETS: dict[str, RuleSet] = {
    **PRESETS,
    # The rules of a published Rust engine (the benchmark position's).
    "bga rebounce=once": PRESETS["bga"].with_options({"rebounce": "once"}),
    "pbmserv rebounce=once null-move=allowed": PRESETS["pbmserv"].with_options(
        {"rebounce": "once", "null-move": "allowed"}
    ),
}

#: How many positions of each reference result to keep per rule set.
WANTED = {("win", 1): 3, ("win", 2): 3, ("loss", 1): 2, ("loss", 2): 2, ("none", None): 3}
MAX_BRANCHING = 40  #: both sides' move counts at the root, to keep the brute force small


def small_cases(rules: RuleSet, seed: int, wanted: dict, tries: int):
    """Sparse positions (with, for a third of them, a history holding one of the
    position's own results: the Renop law) classified by the reference, at most
    ``wanted[result]`` of each result."""
    rng = random.Random(seed)
    kept: Counter = Counter()
    cases = []
    for _ in range(tries):
        if all(kept[k] >= n for k, n in wanted.items()):
            break
        position = sparse_position(rng, 3, 7)
        try:
            _, mine = reference_moves(position.board, position.turn, rules)
            _, theirs = reference_moves(position.board, position.turn.other, rules)
            if len(mine) > MAX_BRANCHING or len(theirs) > MAX_BRANCHING:
                continue
            history: list[Position] = []
            boards = sorted(r for r in mine if not is_win(r))
            if boards and rng.random() < 1 / 3:
                history = [Position(rng.choice(boards), position.turn.other)]
            expected = reference_solve(position, rules, 2, history)
        except TooComplex:
            continue
        if kept[expected] >= wanted.get(expected, 0):
            continue
        kept[expected] += 1
        cases.append((position, history, expected))
    return cases, kept


def check(name: str, cases) -> None:
    rules = RULESETS[name]
    failures = []
    for position, history, expected in cases:
        solution = search.solve(position, rules, max_moves=2, history=history, tree=False)
        got = (solution.result, solution.moves)
        if got != expected:
            failures.append(f"{position} history={[str(h) for h in history]}: "
                            f"solver {got}, reference {expected}")
    assert not failures, f"{name}: {failures}"


@pytest.mark.parametrize("name", sorted(RULESETS))
def test_solver_agrees_with_brute_force(name):
    cases, kept = small_cases(RULESETS[name], 100 + len(name), WANTED, 400)
    assert kept[("win", 1)] and kept[("win", 2)] and kept[("none", None)], kept
    check(name, cases)


def test_seed_bouncing_example_is_a_win_in_one():
    """Seed 000: North wins by 51-43-33-31-21-S."""
    position = Position.from_string("....../3...../..1.1./1.23.3/3.22.1/....2. N")
    assert reference_solve(position, PRESETS["pbmserv"], 1) == ("win", 1)
    solution = search.solve(position, PRESETS["pbmserv"], max_moves=1, tree=False)
    assert (solution.result, solution.moves) == ("win", 1)


@pytest.mark.slow
@pytest.mark.parametrize("name", sorted(RULESETS))
def test_solver_agrees_with_brute_force_many(name):
    wanted = {k: 5 * n for k, n in WANTED.items()}
    cases, _ = small_cases(RULESETS[name], 900 + len(name), wanted, 4000)
    check(name, cases)


@pytest.mark.slow
def test_seed_stalemate_chain():
    """Seed 000's stalemate example: North (to move) is blocked; under pbmserv South plays
    on. Both solvers must agree on how soon South lands."""
    position = Position.from_string(".3.3.3/112232/...1../...1.2/....../...... N")
    expected = reference_solve(position, PRESETS["pbmserv"], 2)
    solution = search.solve(position, PRESETS["pbmserv"], max_moves=2, tree=False)
    assert (solution.result, solution.moves) == expected
    assert expected[0] == "loss"
