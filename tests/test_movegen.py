"""Regression tests of the compiled move generator's own guarantees.

The broad differential test against the naive reference is tests/test_reference_movegen.py;
these pin down cases that were once wrong.
"""

from __future__ import annotations

import random
from collections import Counter

import pytest

from gyges import PRESETS, START, Position, Side, apply_move, legal_moves
from gyges.game.rules import RuleSet
from gyges.game.squares import row_of

RULES = dict(PRESETS)
RULES["once"] = PRESETS["pbmserv"].with_options(
    {"rebounce": "once", "null-move": "allowed", "repetition": "allowed"}
)


def results(position: Position, rules: RuleSet) -> list:
    return [
        ("win", m.start) if m.is_win else apply_move(position, m).key
        for m in legal_moves(position, rules)
    ]


def random_position(rng: random.Random) -> Position:
    board = [0] * 36
    sizes = [1, 1, 1, 1, 2, 2, 2, 2, 3, 3, 3, 3]
    for s, size in zip(rng.sample(range(36), 12), sizes, strict=True):
        board[s] = size
    return Position(tuple(board), rng.choice([Side.SOUTH, Side.NORTH]))


def test_mutual_swap_listed_once():
    # 12x13=12 and 13x12=13 (a triple and a single trading places) leave the same board.
    moves = legal_moves(START, PRESETS["pbmserv"])
    counts = Counter(apply_move(START, m).key for m in moves)
    assert max(counts.values()) == 1
    swaps = [str(m) for m in moves if {m.start, m.end} == {1, 2} and m.relocation in (1, 2)]
    assert len(swaps) == 1


@pytest.mark.parametrize("name", sorted(RULES))
def test_each_result_once(name):
    rng = random.Random(name)
    for _ in range(150):
        p = random_position(rng)
        found = results(p, RULES[name])
        assert len(found) == len(set(found)), str(p)


def test_null_moves_listed_once_and_only_when_allowed():
    # Rings on 65 and 66 can each come back to their own slot: one null result at most.
    p = Position.from_string("1..331/.212../.....2/23..../....../....31 N")
    assert p.key not in results(p, PRESETS["pbmserv"])
    allowed = results(p, PRESETS["summary"])
    assert allowed.count(p.key) == 1


@pytest.mark.parametrize("name", sorted(RULES))
def test_representative_relocation_respects_the_shore(name):
    """The move shown for a result must itself be legal, relocation target included."""
    rules = RULES[name]
    rng = random.Random(f"reloc-{name}")
    for _ in range(150):
        p = random_position(rng)
        for m in legal_moves(p, rules):
            if m.relocation is None or rules.replace != "shore":
                continue
            lifted = [s for s in range(36) if p.board[s] and s != m.start]
            rows = [row_of(s) for s in lifted]
            if m.side is Side.SOUTH:
                assert row_of(m.relocation) <= max(rows), (str(p), str(m))
            else:
                assert row_of(m.relocation) >= min(rows), (str(p), str(m))


def test_plain_move_to_a_row_beyond_the_shore_is_not_shown_as_a_replace():
    # The triple on 21 can reach 61 with bounces; a replace on 22 could not put it there.
    p = Position.from_string("....../...1../22.1.2/.1.2../33331./...... S")
    moves = legal_moves(p, PRESETS["pbmserv"])
    assert not [m for m in moves if m.relocation is not None and row_of(m.relocation) == 6]
    assert "21-22-41-61" in [str(m) for m in moves]


def test_dense_position_under_entry_taboo_is_complete():
    """A position whose bounce tree once took seconds: the pruned search loses nothing.

    Every result found by listing all paths of each shore ring (no pruning, following each
    landing chain the pruned search reports) is also in the move list, and vice versa.
    """
    from gyges.game import _movegen

    p = Position.from_string(".3..../33.2.1/..2.../12.2../13.1../...... N")
    rules = PRESETS["dorbec"]
    moves = legal_moves(p, rules)
    assert len(moves) > 100
    for m in moves[:40]:
        paths = _movegen.ring_paths(p.key, p.turn.index, rules.flags(), m.start, m.landings)
        kinds = {(kind, path[-1]) for kind, path, _ in paths}
        if m.is_win:
            assert ("goal", m.end) in kinds
        elif m.relocation is None:
            assert ("end", m.end) in kinds or ("land", m.end) in kinds
        else:
            assert ("land", m.end) in kinds


@pytest.mark.parametrize("name", list(RULES))
def test_solver_shortcuts_are_legal_moves(name: str):
    """The solver's cheap tests (``quick_moves``): every simple move is a legal move (its
    result is one of the generator's, Renop law included), and "surely not blocked" is
    said of a side exactly when it has a simple move, so only of a side that has a move of
    its own."""
    from gyges.game import _movegen

    rules = RULES[name]
    rng = random.Random(name)
    simple_seen = surely_seen = 0
    for _ in range(300):
        position = random_position(rng)
        history = []
        for _ in range(rng.randint(0, 3)):          # a short line, for the Renop law
            moves = legal_moves(position, rules, [h.key for h in history])
            plain = [m for m in moves if not m.is_win]
            if not plain or moves.mover is not position.turn:
                break
            history.append(position)
            position = apply_move(position, rng.choice(plain))
        keys = [h.key for h in history]
        simple, surely = _movegen.quick_moves(position.key, position.turn.index,
                                              rules.flags(), keys)
        moves = legal_moves(position, rules, keys)
        results = {apply_move(position, m).key for m in moves if not m.is_win}
        for start, end in simple:
            board = list(position.board)
            board[end], board[start] = board[start], 0
            after = Position(tuple(board), position.turn.other).key
            assert after in results and moves.mover is position.turn, (position, start, end)
        if surely:
            assert moves.mover is position.turn and moves.moves
        assert bool(surely) == bool(simple), position   # sure exactly when a simple move is
        simple_seen += len(simple)
        surely_seen += surely
    assert simple_seen > 300 and surely_seen > 30
