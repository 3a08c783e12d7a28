"""The search session (``gyges.search.Prover``): its answers are those of fresh searches
whatever it asked before, the same with either compiled prover, in positions, sides and
moves; the three-valued answers (``Known``); the names older callers import."""

from __future__ import annotations

import random

import pytest
from positions import random_playout

from gyges.formats.notation import parse_move
from gyges.game.moves import apply_move, legal_moves
from gyges.game.position import Position
from gyges.game.rules import PRESETS, Side
from gyges.search import Known, Prover, ProverKind, SolveError, solve, win_in
from gyges.search._dfpn import DfpnSearcher
from gyges.search.policy import pick, table_bits
from gyges.search.session import winners_among_boards as winners_among

PBM = PRESETS["pbmserv"]
SAMPLE_12 = "..1.../..23../..3.../..3113/2..2../2..1.. S"      # win in 2, one key
CHAIN = ".3.3.3/112232/...1.2/...1../....../...... S"         # win in 2, 15 keys
TABOO = "....../1...../3.23../3.211./2.132./...... N"         # loses in 2
KINDS = ["dfpn", "alphabeta"]


def pos(text: str) -> Position:
    return Position.from_string(text)


def _playouts(n: int, seed: int = 300):
    for i in range(n):
        yield random_playout(random.Random(seed + i), PBM, 8 + i)


@pytest.mark.parametrize("kind", KINDS)
def test_answers_are_those_of_solve(kind):
    for text in (SAMPLE_12, CHAIN, TABOO):
        p = pos(text)
        prover = Prover(PBM, kind, 3)
        s = solve(p, PBM, 3, tree=False)
        winner = s.winner or p.turn
        assert prover.least(p, winner, 3) == s.moves
        assert prover.wins(p, winner, 3) is (s.moves is not None)
        if s.result == "win":
            assert prover.winning_moves(p, s.moves) == list(s.keys)
            assert prover.winning_move(p, s.moves) in s.keys
            assert prover.winners_among(p, s.moves) == list(s.keys)
    assert prover.nodes > 0 and prover.tt_hits > 0 and not prover.truncated


@pytest.mark.parametrize("kind", KINDS)
def test_a_kept_table_answers_as_fresh_ones(kind):
    """One session asked along random game lines (each position with its line) answers
    every question as a fresh session does."""
    kept = Prover(PBM, kind, 2)
    for p, history in _playouts(6):
        for winner in Side:
            for d in (1, 2):
                fresh = Prover(PBM, kind, 2, history=history)
                assert kept.wins(p, winner, d, history) == fresh.wins(p, winner, d)


def test_the_history_is_the_session_s_and_the_line_the_question_s():
    p = pos(SAMPLE_12)
    after = apply_move(p, parse_move("14-24-33x43=12", p, PBM))
    with_history = Prover(PBM, "alphabeta", 2, history=[after])
    assert not with_history.wins(p, Side.SOUTH, 2)           # Renop forbids the key
    assert Prover(PBM, "alphabeta", 2).wins(p, Side.SOUTH, 2)
    assert not Prover(PBM, "dfpn", 2).wins(p, Side.SOUTH, 2, [after.key])  # as a board
    assert with_history.history == (after.key,)
    assert len(with_history.legal_moves(p)) == len(legal_moves(p, PBM)) - 1


@pytest.mark.parametrize("kind", KINDS)
def test_winners_among_the_moves_asked(kind):
    """``winners_among`` finds exactly the asked moves that win (asked given as moves or
    as the positions they reach), at most ``limit``, each once."""
    p = pos(CHAIN)
    prover = Prover(PBM, kind, 2)
    root = legal_moves(p, PBM)
    keys = [m for m in root if prover.wins(apply_move(p, m), Side.SOUTH, 1, [p])]
    asked = list(root)[::3]
    expected = [m for m in asked if m in keys]
    assert expected
    fresh = Prover(PBM, kind, 2)
    found = fresh.winners_among(p, 2, asked)
    assert sorted(map(str, found)) == sorted(map(str, expected))
    as_positions = [apply_move(p, m) for m in asked]
    found = Prover(PBM, kind, 2).winners_among(p, 2, as_positions + as_positions[:2])
    assert sorted(found, key=str) == sorted((apply_move(p, m) for m in expected), key=str)
    assert len(Prover(PBM, kind, 2).winners_among(p, 2, asked, limit=1)) == 1


@pytest.mark.parametrize("kind", KINDS)
def test_winners_among_counts_a_landing_and_refuses_its_position(kind):
    p = pos("....../3...../..1.1./1.23.3/3.22.1/....2. N")     # North lands at once
    prover = Prover(PBM, kind, 2)
    legal = legal_moves(p, PBM)
    assert prover.winners_among(p, 1) == list(legal.wins)
    quiet = [m for m in legal if not m.is_win][:3]
    assert prover.winners_among(p, 1, [*legal.wins, *quiet]) == list(legal.wins)
    with pytest.raises(ValueError, match="lands on the goal"):
        prover.known(p, legal.wins, Side.NORTH, 1)


def test_winners_among_is_the_compiled_step_older_callers_use():
    """What ``puzzles/generate.py`` asks of a DfpnSearcher through
    ``gyges.search.session.winners_among_boards`` is what ``Prover.some_winners_among`` answers."""
    p = pos(CHAIN)
    root = legal_moves(p, PBM)
    children = [apply_move(p, m).key for m in root]
    asked = children[1::4]
    old = winners_among(DfpnSearcher(PBM.flags(), 16), p.key, 0, 2, [], children, asked, 2)
    prover = Prover(PBM, "dfpn", 2, table_bits=16)
    won, settled = prover.some_winners_among(p, 2, [apply_move(p, m) for m in root][1::4],
                                             limit=2)
    assert ([w.key for w in won], settled) == old
    assert pick("auto", 2) == "alphabeta" and table_bits(2) == 16


@pytest.mark.parametrize("kind", KINDS)
def test_known_and_wins_excluding_agree_with_fresh_searches(kind):
    """The defences of a first move: what the table knows after the move's question
    (``known``), and "does another defence hold?" with some left out (``wins_excluding``),
    against a fresh search of each."""
    seen = {Known.WIN: 0, Known.NO_WIN: 0}
    for p, history in _playouts(4, seed=400):
        me = p.turn
        prover = Prover(PBM, kind, 3, history=history)
        for m in [m for m in prover.legal_moves(p) if not m.is_win][:4]:
            child = apply_move(p, m)
            replies = prover.legal_moves(child, [p])
            if replies.wins or replies.mover is me or not replies.moves:
                continue
            prover.wins(child, me, 2, [p])
            fresh = [Prover(PBM, kind, 3, history=history).wins(apply_move(child, r), me, 2,
                                                                [p, child])
                     for r in replies]
            for known, won in zip(prover.known(child, replies, me, 2, [p]), fresh,
                                  strict=True):
                if known is not Known.UNKNOWN:
                    seen[known] += 1
                    assert (known is Known.WIN) is won
            holding = [r for r, won in zip(replies, fresh, strict=True) if not won]
            for left_out in (holding[:1], holding):
                answer = prover.wins_excluding(child, me, 2, left_out, [p])
                if answer is not Known.UNKNOWN:
                    seen[answer] += 1
                    assert (answer is Known.WIN) is (len(left_out) == len(holding))
    assert seen[Known.WIN] > 0 and seen[Known.NO_WIN] > 0


def test_known_has_no_truth_value_and_reads_the_compiled_codes():
    with pytest.raises(TypeError, match="three-valued"):
        bool(Known.UNKNOWN)
    assert [Known.of(c) for c in (1, 0, -1)] == [Known.WIN, Known.NO_WIN, Known.UNKNOWN]
    p = pos(SAMPLE_12)
    prover = Prover(PBM)
    assert prover.known(p, legal_moves(p, PBM), Side.SOUTH, 0) == [Known.NO_WIN] * len(
        legal_moves(p, PBM))
    after = apply_move(p, legal_moves(p, PBM).moves[0])
    with pytest.raises(ValueError, match="same side to move"):
        prover.known(p, [after, after.with_turn(Side.SOUTH)], Side.SOUTH, 1)


def test_the_kind_and_the_table_follow_the_policy():
    assert Prover(PBM).kind == "alphabeta" and Prover(PBM).table_bits == 18
    deep = Prover(PBM, within=6)
    assert deep.kind is ProverKind.DFPN and deep.table_bits == 20
    assert Prover(PBM, ProverKind.ALPHABETA, 6, table_bits=12).table_bits == 12
    assert repr(deep) == "Prover(pbmserv, kind=dfpn, table_bits=20)"
    with pytest.raises(SolveError, match="unknown prover 'mcts': one of auto, dfpn, alphabeta"):
        Prover(PBM, "mcts")
    with pytest.raises(SolveError, match="1..30"):
        Prover(PBM, within=31)


def test_win_in_asks_a_session_or_a_fresh_table():
    p = pos(SAMPLE_12)
    prover = Prover(PBM, "dfpn", 2)
    assert win_in(p, PBM, 2, searcher=prover) and prover.nodes > 0
    assert win_in(p, PBM, 2) and not win_in(p, PBM, 1) and not win_in(p, PBM, 0)
