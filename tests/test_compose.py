"""The CP-SAT construction (gyges.puzzles.generate.compose): the designed bounces, a crossing path,
a stalemate chain, and designs drawn only as the rules allow."""

from __future__ import annotations

import random

import pytest

from gyges.game.moves import apply_move, can_land, legal_moves
from gyges.game.position import Position
from gyges.game.rules import PRESETS, Side
from gyges.puzzles.generate.compose import Design, construct, draw_path

RULES = PRESETS["pbmserv"]


def counts(pos: Position) -> dict[int, int]:
    return {v: sum(1 for x in pos.board if x == v) for v in (1, 2, 3)}


@pytest.mark.parametrize("bounces,key", [(0, "plain"), (1, "relocation"), (2, "plain")])
def test_construction_has_the_designed_bounces(bounces, key):
    design = Design(bounces=bounces, key=key)
    built = construct(design, RULES, random.Random(bounces))
    assert built is not None
    pos, key_move, landing = built
    assert counts(pos) == {1: 4, 2: 4, 3: 4}
    assert key_move.is_replace == (key == "relocation")
    assert not can_land(pos, RULES)
    legal = legal_moves(pos, RULES)
    assert key_move in legal.moves
    after = apply_move(pos, key_move)
    assert not can_land(after, RULES, [pos])
    threats = legal_moves(after.with_turn(Side.SOUTH), RULES, [pos]).wins
    assert landing in threats
    assert min(m.bounces for m in threats) == bounces == landing.bounces


def test_drawn_paths_cross_when_asked():
    path = draw_path(Design(bounces=2, crossing=True), random.Random(1))
    entered = [t for w in path for t in w[1:]]
    assert len(set(entered)) < len(entered)
    edges = [frozenset(e) for w in path for e in zip(w, w[1:], strict=False)]
    assert len(set(edges)) == len(edges)


def test_construction_of_a_stalemate_chain():
    from gyges.formats.notation import format_turn
    from gyges.puzzles.lines import line_themes, play_line
    from gyges.search.stipulation import Stipulation

    design = Design(bounces=1, stalemate=True, defenders=3)
    built = construct(design, RULES, random.Random(1))
    assert built is not None
    pos, key_move, landing = built
    assert counts(pos) == {1: 4, 2: 4, 3: 4}
    assert not can_land(pos, RULES) and key_move in legal_moves(pos, RULES).moves
    after = apply_move(pos, key_move)
    replies = legal_moves(after, RULES, [pos])
    assert replies.mover is Side.SOUTH              # North has no legal move: South again
    assert not legal_moves(after, PRESETS["bga"], [pos]).moves   # (bga: blocked = draw)
    assert after.shore(Side.NORTH) == 6             # the jammed shore: twos and threes only
    assert {after.board[s] for s in range(30, 36)} <= {0, 2, 3}
    assert landing in replies.wins and landing.bounces == 1
    turn = format_turn([key_move, landing])
    assert "; " in turn and turn.endswith("-N")
    line = play_line(pos, RULES, [turn])            # the checker's reader takes the turn
    assert line.moves[0].side is line.moves[1].side is Side.SOUTH
    assert "stalemate chain" in line_themes(line, RULES, Stipulation("win", 2, Side.SOUTH))


def test_stalemate_designs_only_when_asked_and_blocked_passes():
    from gyges.puzzles.generate.compose import ComposeError, draw_design

    rng = random.Random(5)
    assert not any(draw_design(rng, (), RULES).stalemate for _ in range(50))
    d = draw_design(rng, ("stalemate chain",), RULES)
    assert d.stalemate and d.bounces >= 1 and d.defenders >= 3
    assert not draw_design(rng, ("stalemate chain",), PRESETS["bga"]).stalemate
    with pytest.raises(ComposeError):
        Design(bounces=0, stalemate=True, defenders=3)
