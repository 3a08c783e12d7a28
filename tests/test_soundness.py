"""Soundness (gyges.puzzles.generate.soundness): a cooked, a trivial and a wrongly long position are
rejected, a sound one records its key, main line, features and rating, and duals are a
flaw unless refused. Each key is checked independently of the solver, move by move."""

from __future__ import annotations

import dataclasses
import json
from pathlib import Path

from gyges.formats.notation import parse_move
from gyges.formats.posfile import load_position_file
from gyges.game.moves import apply_move, can_land, legal_moves
from gyges.game.position import Position
from gyges.game.rules import PRESETS, Side
from gyges.puzzles.generate.soundness import (
    SoundnessAssessment,
    assess_soundness,
    dual_notes,
    plausible_moves,
    theme_matches,
)
from gyges.puzzles.lines import play_line
from gyges.search import solve
from gyges.search.tree import node_from_json

RULES = PRESETS["pbmserv"]
SOUND = Position.from_string("321..2/1...../....../2....2/...3../.331.1 S")


def wins_in_two_by(pos: Position, move, history=()) -> bool:
    """Independent of the solver: after ``move`` every reply leaves the mover a landing
    (``history``: the game before ``pos``, whose boards the Renop law forbids)."""
    if move.is_win:
        return False
    me = pos.turn
    after = apply_move(pos, move)
    replies = legal_moves(after, RULES, [*history, pos])
    if replies.mover is me:  # the opponent is blocked: the mover plays again at once
        return bool(replies.wins)
    if not replies.moves:
        return False
    for r in replies:
        if r.is_win:
            return False
        nxt = apply_move(after, r)
        if not can_land(nxt, RULES, [*history, pos, after]):
            return False
    return True


def test_a_cooked_position_is_rejected():
    pos = Position.from_string("2.3.31/...2.3/1...../.3..../.....1/.1..22 N")
    assert not can_land(pos, RULES)
    keys = [m for m in legal_moves(pos, RULES) if wins_in_two_by(pos, m)]
    assert len(keys) >= 2                       # two first moves win in 2: a cook
    a = assess_soundness(pos, RULES, 2)
    assert not a.sound and a.reasons[0].startswith("cooked")


def test_a_trivial_position_is_rejected():
    pos = Position.from_string("...331/1.2222/.....3/.....1/....../3.1... N")
    keys = [m for m in legal_moves(pos, RULES) if wins_in_two_by(pos, m)]
    assert len(keys) == 1                       # one key, a win in exactly 2 ...
    threats = [m for m in legal_moves(pos, RULES)
               if not can_land(apply_move(pos, m), RULES, [pos])
               and can_land(apply_move(pos, m).with_turn(Side.NORTH), RULES, [pos])]
    assert threats == keys                      # ... but the only move that threatens to land
    a = assess_soundness(pos, RULES, 2)
    assert not a.sound
    assert "the key is the only move that threatens to land" in a.reasons


def test_wrong_length_is_rejected():
    pos = Position.from_string("321..2/1...../....../2....2/...3../.331.1 S")
    assert not assess_soundness(pos, RULES, 3).sound          # a win in 2 is not a win in 3
    assert assess_soundness(pos, RULES, 2).sound


def test_a_sound_puzzle_and_what_it_records():
    pos = Position.from_string("321..2/1...../....../2....2/...3../.331.1 S")
    keys = [m for m in legal_moves(pos, RULES) if wins_in_two_by(pos, m)]
    assert len(keys) == 1 and not can_land(pos, RULES)
    a = assess_soundness(pos, RULES, 2)
    assert a.sound and a.key == str(keys[0])
    assert a.main_line[0] == a.key and a.main_line[-1].endswith("-N")
    assert a.features.key_bounces == keys[0].bounces
    assert a.threats >= 2 and 1 <= a.rating.difficulty <= 5
    assert any(t.startswith("bounce chain") for t in a.themes)


def test_a_games_position_is_judged_after_its_game():
    # the Renop law forbids bringing back a board of the game: here it leaves one key
    game = load_position_file(Path(__file__).parent / "data/positions/renop-game.yaml")
    pos, history = game.position, game.history
    legal = legal_moves(pos, RULES, history)
    assert not legal.wins
    after_game = [m for m in legal if wins_in_two_by(pos, m, history)]
    alone = [m for m in legal_moves(pos, RULES) if wins_in_two_by(pos, m)]
    assert len(after_game) == 1 and len(alone) == 2
    a = assess_soundness(pos, RULES, 2, history=history)
    assert a.sound and a.key == str(after_game[0])
    assert "Renop" in a.themes
    b = assess_soundness(pos, RULES, 2)
    assert not b.sound and b.reasons == ("cooked: 2 keys",)


def test_duals_are_a_flaw_unless_refused():
    # stub solver answers: a proven win in 2 with one key, and a tree with a dual
    pos = Position.from_string("321..2/1...../....../2....2/...3../.331.1 S")
    from gyges.search import solve as real

    def dual_solve(*args, **kwargs):
        sol = real(*args, **kwargs)
        if sol.tree and sol.moves == 2 and kwargs.get("tries"):
            tree = json.loads(json.dumps(sol.tree.to_json()))
            reply = tree["after"]["defences"][0]["reply"]
            reply.update(moves_left=2, dual=True, moves=["a", "b"])
            sol = dataclasses.replace(sol, tree=node_from_json(tree))
        return sol

    kept = assess_soundness(pos, RULES, 2, solve=dual_solve)
    assert kept.sound and kept.duals
    refused = assess_soundness(pos, RULES, 2, solve=dual_solve, no_duals=True)
    assert not refused.sound and refused.reasons[0].startswith("duals")


def test_a_dual_note_names_each_defence_once_and_gives_its_line():
    """North's win in 4 (seed 3's candidate 16): the defence 26x36=12 allows duals at two
    points of the tree. Each note gives the line from the key down to its point, numbered
    by the winner's moves; no two notes name the same point, and each line replays, after
    it each move named wins in the moves left (and nothing quicker)."""
    pos = Position.from_string(".1..../323132/.3...2/.....2/...1.1/...... N")
    sol = solve(pos, RULES, max_moves=4, tree=True, max_keys=2)
    notes = dual_notes(sol.tree, shown=5)
    assert len(notes) == 3
    lines = [n.split(": ")[0] for n in notes]
    assert len(set(lines)) == len(lines)
    assert sum(" 26x36=12 " in line for line in lines) == 2
    for note in notes:
        line, moves = note.removeprefix("after ").split(": ")
        numbers = [t for t in line.split() if t.endswith(".") and t != "..."]
        assert numbers == [f"{i}." for i in range(1, len(numbers) + 1)]
        assert line.startswith("1. 62x52=21 ") and line.endswith(f"{numbers[-1]} ...")
        played = play_line(pos, RULES, [t for t in line.split()
                                        if not t.endswith(".") and t != "..."])
        at = played.end
        assert at is not None and at.turn is Side.NORTH
        history = [*played.positions, at]
        named = moves.split(" (and ")[0].split(" or ")
        assert len(named) == len(set(named)) >= 2
        left = 4 - len(numbers)      # North's moves after the one named
        for text in named:
            child = apply_move(at, parse_move(text, at, RULES, history[:-1]))
            answer = solve(child, RULES, max_moves=left, history=history, tree=False)
            assert answer.result == "loss" and answer.moves <= left, (note, text)


def test_the_threats_are_the_plausible_tries():
    """A threat lets the mover land next move if the opponent passed, and does not let the
    opponent land at once; the sound puzzle's key is one of them and the others are its
    tries."""
    a = assess_soundness(SOUND, RULES, 2)
    threats = plausible_moves(SOUND, RULES)
    for m in threats:
        after = apply_move(SOUND, m)
        assert not can_land(after, RULES, [SOUND])
        assert can_land(after.with_turn(SOUND.turn), RULES, [SOUND])
    assert a.key in [str(m) for m in threats] and a.threats == len(threats) - 1


def test_an_assessment_reads_back_from_its_record():
    a = assess_soundness(SOUND, RULES, 2)
    back = SoundnessAssessment.from_json(json.loads(json.dumps(a.to_json())))
    assert back == a and repr(back) == f"SoundnessAssessment({SOUND}: sound, key {a.key})"
    refused = assess_soundness(SOUND, RULES, 3)
    assert SoundnessAssessment.from_json(refused.to_json()) == refused


def test_theme_matches_asks_for_bounce_chains_at_least_that_long():
    assert theme_matches(["bounce chain 2"], ["bounce chain 3", "taboo"])
    assert not theme_matches(["bounce chain 4"], ["bounce chain 3"])
    assert not theme_matches(["relocation bridge"], ["taboo"])
    assert theme_matches([], [])
