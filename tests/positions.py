"""Deterministic random positions for the tests: setups, play-outs and arbitrary placements.

Every generator takes a seeded :class:`random.Random`, so a failing case is reproduced
from its seed alone.

>>> import random
>>> str(random_setup(random.Random(1))).endswith(" S")
True
>>> len(random_playout(random.Random(2), PRESETS["pbmserv"], 6)[1])
6
"""

from __future__ import annotations

import random

from gyges.game.moves import apply_move, legal_moves
from gyges.game.position import Position
from gyges.game.rules import PRESETS, RuleSet, Side

__all__ = [
    "PRESETS",
    "arbitrary_position",
    "random_arrangement",
    "random_playout",
    "random_setup",
    "reachable_positions",
    "sparse_position",
]


def random_arrangement(rng: random.Random) -> str:
    """One side's setup: two 1s, two 2s and two 3s in a random order (``"231123"``)."""
    digits = list("112233")
    rng.shuffle(digits)
    return "".join(digits)


def random_setup(rng: random.Random) -> Position:
    """Both sides' random setups on rows 1 and 6, South to move."""
    return Position.setup(random_arrangement(rng), random_arrangement(rng))


def random_playout(
    rng: random.Random, rules: RuleSet, plies: int, start: Position | None = None
) -> tuple[Position, list[Position]]:
    """Play up to ``plies`` random non-winning moves with the engine from ``start`` (a random
    setup by default). Returns the last position and the earlier ones (the game history,
    oldest first). Stops early when no non-winning move is left."""
    position = start if start is not None else random_setup(rng)
    history: list[Position] = []
    for _ in range(plies):
        moves = legal_moves(position, rules, history)
        quiet = [m for m in moves if not m.is_win]
        if not quiet:
            break
        move = rng.choice(quiet)
        history.append(position)
        position = apply_move(position, move)
    return position, history


def reachable_positions(
    seed: int, rules: RuleSet, count: int, max_plies: int = 30
) -> list[tuple[Position, list[Position]]]:
    """``count`` positions reached by random play (0..max_plies plies) from random setups,
    each with its history."""
    rng = random.Random(seed)
    return [random_playout(rng, rules, rng.randint(0, max_plies)) for _ in range(count)]


def arbitrary_position(rng: random.Random) -> Position:
    """0..4 rings of each size on random slots (at least one ring), either side to move."""
    while True:
        sizes = [size for size in (1, 2, 3) for _ in range(rng.randint(0, 4))]
        if sizes:
            break
    board = [0] * 36
    for slot, size in zip(rng.sample(range(36), len(sizes)), sizes, strict=True):
        board[slot] = size
    return Position(tuple(board), rng.choice([Side.SOUTH, Side.NORTH]))


def sparse_position(rng: random.Random, min_rings: int = 2, max_rings: int = 6) -> Position:
    """A few rings (sizes at random, at most four of each) on random slots, either side to
    move: small enough for brute-force searches."""
    sizes = [size for size in (1, 2, 3) for _ in range(4)]
    rng.shuffle(sizes)
    sizes = sizes[: rng.randint(min_rings, max_rings)]
    board = [0] * 36
    for slot, size in zip(rng.sample(range(36), len(sizes)), sizes, strict=True):
        board[slot] = size
    return Position(tuple(board), rng.choice([Side.SOUTH, Side.NORTH]))
