"""The main line: the key, then at each move of the loser the defence that holds out
longest (ties: the fewest winning answers of the winner, then notation), the winner's
fastest answer, down to the landing. Read off the solution tree, used by ``gyges solve``
(text and JSON) and the catalogue (``principal_line``), and checked here against fresh
solves of every defence, not against the tree."""

from __future__ import annotations

import json

import pytest
from catalogues import all_puzzles, every_puzzle, run

from gyges.formats.notation import format_turn
from gyges.game.moves import Move, apply_move, legal_moves
from gyges.game.position import Position
from gyges.game.rules import PRESETS, RuleSet, Side
from gyges.puzzles.catalogue import Puzzle
from gyges.puzzles.lines import PlayedLine, play_line, principal_line
from gyges.search import solve
from gyges.search.tree import Defence, LoserNode, WinnerNode, main_line_turns, node_from_json

PBM = PRESETS["pbmserv"]
DEEP = "1.1.3./....3./....23/..1.2./...2../.1..32 S"     # South wins in 4 (gen-w4-s41-00000)


def _line_of(p: Puzzle) -> PlayedLine:
    """The solver's main line of a catalogue puzzle: from the catalogue's key for a win
    (a cook's entry may declare another key than the solver's first), the solver's own for
    a loss (the key is then the longest defence)."""
    key = (play_line(p.position, p.rules, p.main_line, p.history).moves[0]
           if p.stipulation.kind == "win" else None)
    turns = principal_line(p.position, p.rules, p.stipulation.kind, p.stipulation.moves,
                           p.history, first=key)
    return play_line(p.position, p.rules, [format_turn(t) for t in turns], p.history)


def _results(line: PlayedLine) -> list:
    """The line's moves by what they do (a move written with other intermediate steps is
    the same move)."""
    return [m.result_key(before) for m, before in zip(line.moves, line.positions, strict=True)]


def _least(position: Position, rules: RuleSet, history: list[Position], k: int,
           winner: Side) -> tuple[int | None, int]:
    """A fresh solve of ``position``: in how many of its moves ``winner`` wins (None: not
    within ``k``), and, ``winner`` to move, how many first moves do it (all the keys)."""
    sol = solve(position, rules, k, history, tree=False)
    return (sol.moves if sol.winner is winner else None), len(sol.keys)


def check_main_line(position: Position, rules: RuleSet, history: list[Position],
                    turns: list[str], result: str, k: int) -> None:
    """``turns`` is a legal line of ``k`` moves of the winner ending on the goal, and at
    each move of the loser no other defence holds out longer, nor as long with fewer
    winning answers, nor as long with as many and an earlier notation; each of the
    winner's moves wins in the moves it has left. Every question is a fresh solve."""
    line = play_line(position, rules, turns, history)
    moves = line.moves
    winner = position.turn if result == "win" else position.turn.other
    assert moves[-1].is_win and moves[-1].side is winner
    assert sum(m.side is winner for m in moves) == k
    hist = list(history)
    left = k
    for m, before in zip(moves, line.positions, strict=True):
        if m.side is winner:
            if not m.is_win:   # the winner's move keeps a win in the moves left
                took, _ = _least(apply_move(before, m), rules, [*hist, before], left,
                                 winner)
                assert took == left - 1, (str(before), str(m), took)
            left -= 1
        else:
            rank = {}
            for d in legal_moves(before, rules, hist):
                took, answers = _least(apply_move(before, d), rules, [*hist, before], left,
                                       winner)
                assert took is not None, f"{d} escapes in {before}"
                rank[d.result_key(before)] = (-took, answers, str(d))
            chosen = rank[m.result_key(before)]
            assert chosen == min(rank.values()), (str(before), str(m), min(rank.values()))
            assert -chosen[0] == left
        if not m.is_win:
            hist.append(before)


def test_the_main_line_is_the_longest_defence_not_the_largest_group():
    """The win in 4 whose first line was two moves long: the main line is 7 turns, the
    catalogue's, and each defence on it holds out longest (fresh solves)."""
    p = Position.from_string(DEEP)
    sol = solve(p, PBM, 4)
    turns = sol.main_line_turns()
    assert len(turns) == 7 and turns[0] == str(sol.keys[0])
    check_main_line(p, PBM, [], turns, "win", 4)
    entry = next(q for q in every_puzzle() if q.position == p)
    assert list(entry.main_line) == turns


def test_solve_prints_the_main_line_in_text_and_json():
    sol = solve(Position.from_string(DEEP), PBM, 4)
    text = run("solve", DEEP, "-n", "4")
    assert f"main line: {' / '.join(sol.main_line_turns())}\n" in text.output
    data = json.loads(run("solve", DEEP, "-n", "4", "--json").output)
    assert data["main_line"] == sol.main_line_turns()
    loss = next(q for q in all_puzzles() if q.id == "solver-006")     # North loses in 2
    text = run("solve", str(loss.position), "-n", "2")
    assert f"main line: {' / '.join(loss.main_line)}\n" in text.output


@pytest.mark.parametrize("pid", ["gen-w2-s7-00019", "gen-w3-s31-00011", "solver-006",
                                 "solver-007", "seed000-stalemate", "seed000-resignation"])
def test_catalogue_main_lines_hold_out_longest(pid):
    """Wins in 2 and 3, losses (the first move is the longest defence), a stalemate chain
    (a cooked entry whose declared key is not the solver's first) and the Renop law."""
    p = next(q for q in all_puzzles() if q.id == pid)
    check_main_line(p.position, p.rules, list(p.history), list(p.main_line),
                    p.stipulation.kind, p.stipulation.moves)


def test_every_catalogue_main_line_is_the_solvers():
    """Every file under puzzles/, up to the wins in 4 (the wins in 5 and 6 of puzzles/deep/
    are the slow test below)."""
    for p in every_puzzle():
        if p.stipulation.kind == "none" or p.stipulation.moves >= 5:
            continue
        want = play_line(p.position, p.rules, p.main_line, p.history)
        assert _results(_line_of(p)) == _results(want), p.id


@pytest.mark.slow
def test_every_deep_catalogue_main_line_is_the_solvers():
    for p in every_puzzle():
        if p.stipulation.kind != "none" and p.stipulation.moves >= 5:
            want = play_line(p.position, p.rules, p.main_line, p.history)
            assert _results(_line_of(p)) == _results(want), p.id


def _winner(moves: tuple[str, ...], left: int = 1) -> WinnerNode:
    return WinnerNode(Side.SOUTH, left, moves=moves, dual=len(moves) > 1)


def test_ties_go_to_the_fewest_answers_then_to_notation():
    """Read off a tree: more moves left first, then fewer winning answers (listed, or
    counted where duals were not searched), then notation; a cut defence never leads."""
    long_many = WinnerNode(Side.SOUTH, 2, moves=("11-12",), dual=None, answers=5,
                           truncated=True)
    long_few = WinnerNode(Side.SOUTH, 2, moves=("11-13",), dual=None, answers=2,
                          truncated=True)
    node = LoserNode(Side.NORTH, 2, defences=(
        Defence("61-51", _winner(("14-N",))), Defence("62-52", long_many),
        Defence("63-53"), Defence("64-54", long_few), Defence("65-55", long_few)))
    assert main_line_turns(node)[0] == "64-54"
    assert node_from_json(json.loads(json.dumps(node.to_json()))) == node
    short = LoserNode(Side.NORTH, 1, defences=(
        Defence("66-56", _winner(("14-N", "15-N"))), Defence("65-55", _winner(("14-N",))),
        Defence("61-51", _winner(("15-N",)))))
    assert main_line_turns(short) == ["61-51", "15-N"]


def test_the_builder_counts_the_answers_of_tied_defences_only_on_the_main_line():
    """Where defences tie for the longest on the main line and duals were not searched,
    the answers carry their count; the count is each position's number of keys."""
    p = Position.from_string(DEEP)
    sol = solve(p, PBM, 4)
    after = sol.tree.after
    counted = [d for d in after.defences if d.reply is not None and d.reply.answers]
    longest = max(d.reply.moves_left for d in after.defences if d.reply is not None)
    tied = [d for d in after.defences if d.reply is not None
            and d.reply.moves_left == longest]
    assert len(tied) > 1 and {d.move for d in counted} == {d.move for d in tied}
    key = sol.keys[0]
    child = apply_move(p, key)
    for d in tied[:3]:
        move = next(m for m in legal_moves(child, PBM, [p]) if str(m) == d.move)
        fresh = solve(apply_move(child, move), PBM, longest, [p, child], tree=False)
        assert (fresh.moves, len(fresh.keys)) == (longest, d.reply.answers), d.move


def test_principal_line_from_another_key_goes_on_from_it():
    """A cooked entry whose declared key is not the solver's first: the line starts with
    the declared key as written and goes on with the main line after it."""
    p = next(q for q in all_puzzles() if q.id == "seed000-stalemate")
    key: Move = play_line(p.position, p.rules, [p.key], p.history).moves[0]
    sol = solve(p.position, p.rules, p.stipulation.moves, p.history)
    assert sol.keys[0].result_key(p.position) != key.result_key(p.position)
    turns = principal_line(p.position, p.rules, "win", 2, p.history, first=key)
    assert turns[0][0] == key and turns[-1][-1].is_win
