"""The two provers behind ``solve``, df-pn (the default) and the alpha-beta kernel, are
independent programs; ``solve`` proves the same Solution with either: result, k, every key
in root order, the tree and the tries (only the statistics differ). The cases are those of
tests/test_parallel_solve.py (every kind of result, cooks, blocked sides, Renop histories,
every preset), plus random positions reached by play."""

from __future__ import annotations

import random

import pytest
from common import run_gyges
from positions import random_playout

from gyges.formats.notation import parse_move
from gyges.game.moves import apply_move, legal_moves
from gyges.game.position import Position
from gyges.game.rules import PRESETS, rules_from
from gyges.search import PROVERS, SolveError, solve
from gyges.search._dfpn import DfpnSearcher
from gyges.search._search import Searcher
from tests.test_parallel_solve import CASES, PBM, same

RUST = "030100/000200/002000/021100/300300/002130 S"
RUST_RULES = ["rebounce=once", "null-move=allowed", "blocked=draw", "repetition=allowed"]


def _both(p, rules, n, history=(), **kw):
    a = solve(p, rules, n, history, prover="dfpn", **kw)
    b = solve(p, rules, n, history, prover="alphabeta", **kw)
    same(a, b)
    return a


@pytest.mark.parametrize(("text", "preset", "options", "n", "extra"), CASES)
def test_both_provers_prove_the_same_solution(text, preset, options, n, extra):
    p = Position.from_string(text)
    history = ()
    if "renop" in extra:
        history = (apply_move(p, parse_move("14-24-33x43=12", p, PBM)),)
    _both(p, rules_from(preset, options), n, history, tries=True)


@pytest.mark.parametrize("seed", range(12))
@pytest.mark.parametrize("preset", ["pbmserv", "bga"])
def test_random_positions_with_their_histories(seed, preset):
    """Positions after 8-19 random plies, with the game's earlier positions (Renop)."""
    p, history = random_playout(random.Random(seed), PBM, 8 + seed)
    _both(p, PRESETS[preset], 2, history, tree=False, tries=True)


def test_an_unknown_prover_is_refused():
    with pytest.raises(SolveError, match="unknown prover 'mcts'"):
        solve(Position.from_string(CASES[0][0]), PBM, 2, prover="mcts")
    assert PROVERS == ("auto", "dfpn", "alphabeta")


def test_cli_prover_option():
    outs = []
    for name in PROVERS:
        r = run_gyges("solve", CASES[2][0], "-n", "2", "--prover", name)
        assert r.exit_code == 0, r.output
        outs.append(r.output.rsplit("stats:", 1)[0])
    assert len(set(outs)) == 1
    r = run_gyges("solve", CASES[2][0], "--prover", "mcts")
    assert r.exit_code == 2 and "mcts" in r.output


@pytest.mark.slow
def test_rust_engine_position_with_either_prover():
    p = Position.from_string(RUST)
    a = _both(p, rules_from("pbmserv", RUST_RULES), 6)
    assert (a.result, a.moves, [str(k) for k in a.keys]) == ("win", 6, ["14-24x21=44"])


@pytest.mark.parametrize("kind", [Searcher, DfpnSearcher])
def test_what_a_table_knows_is_what_a_fresh_search_answers(kind):
    """``known`` (the table's answer without searching, which the tries use to ask first
    the defences a cook search already proved) never differs from a fresh search."""
    told = {True: 0, False: 0}
    for seed in range(6):
        p, history = random_playout(random.Random(100 + seed), PBM, 8 + seed)
        hist = [h.key for h in history]
        me = p.turn.index
        searcher = kind(PBM.flags(), 16)
        firsts = [m for m in legal_moves(p, PBM, history) if not m.is_win]
        for m in firsts:                            # the questions of a cook search
            searcher.win(apply_move(p, m).key, 1 - me, me, 2, [*hist, p.key])
        for m in firsts:
            after = apply_move(p, m)
            line = [*hist, p.key, after.key]
            boards = [apply_move(after, r).key
                      for r in legal_moves(after, PBM, [*history, p]) if not r.is_win]
            for board, k in zip(boards, searcher.known(boards, me, me, 2, line), strict=True):
                if k >= 0:
                    told[bool(k)] += 1
                    assert bool(k) == kind(PBM.flags(), 16).win(board, me, me, 2, line)
    assert told[True] > 0 and told[False] > 0


@pytest.mark.parametrize("kind", [Searcher, DfpnSearcher])
def test_a_root_without_some_replies_answers_as_the_other_replies_asked_in_turn(kind):
    """``win_excluding`` (the tries' "is there another refutation?") agrees with fresh
    searches of every reply left, whatever is left out; the table still gives whole
    questions their own answers afterwards."""
    asked = {0: 0, 1: 0}
    for seed in range(6):
        p, history = random_playout(random.Random(200 + seed), PBM, 8 + seed)
        me = p.turn.index
        line = [h.key for h in history]
        searcher = kind(PBM.flags(), 16)
        for m in legal_moves(p, PBM, history).moves[:10]:
            if m.is_win:
                continue
            after = apply_move(p, m)
            replies = legal_moves(after, PBM, [*history, p])
            if replies.wins or replies.mover is p.turn:
                continue
            boards = [apply_move(after, r).key for r in replies]
            fresh = [DfpnSearcher(PBM.flags(), 16).win(b, me, me, 2, [*line, p.key, after.key])
                     for b in boards]
            refuting = [b for b, w in zip(boards, fresh, strict=True) if not w]
            for left_out in (refuting[:1], refuting, boards[:3]):
                got = searcher.win_excluding(after.key, 1 - me, me, 2, left_out, [*line, p.key])
                expected = all(w for b, w in zip(boards, fresh, strict=True)
                               if b not in left_out)
                assert got == expected
                asked[got] += 1
            assert searcher.win(after.key, 1 - me, me, 2, [*line, p.key]) == all(fresh)
    assert asked[0] > 0 and asked[1] > 0


@pytest.mark.parametrize(("text", "preset", "options", "n", "extra"), CASES)
def test_a_solve_stopped_at_two_keys_finds_keys_of_the_whole_list(text, preset, options, n,
                                                                  extra):
    """``max_keys``: with df-pn, the first key is the first in move order, the second
    comes from "another key?" asked of the position less the first (``win_excluding``,
    the table then telling which); the kernel finds them in its search's order. Keys of
    the full list either way, as many as there are, at most the limit."""
    p = Position.from_string(text)
    history = ()
    if "renop" in extra:
        history = (apply_move(p, parse_move("14-24-33x43=12", p, PBM)),)
    rules = rules_from(preset, options)
    full = solve(p, rules, n, history, tree=False, prover="dfpn")
    in_order = [m for m in legal_moves(p, rules, history) if m in full.keys]
    for limit in (1, 2, 3):
        for name in ("dfpn", "alphabeta"):
            got = solve(p, rules, n, history, tree=False, max_keys=limit, prover=name)
            assert (got.result, got.moves) == (full.result, full.moves)
            assert len(got.keys) == min(limit, len(full.keys))
            assert set(got.keys) <= set(full.keys)
            if name == "dfpn":
                assert got.keys[:1] == tuple(in_order[:1])
