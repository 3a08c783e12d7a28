"""Game review: seed 000's sample game annotated move by move, cross-checked against the
brute-force reference solver, and the positions found turned into catalogue entries that
``gyges catalogue check`` accepts."""

from __future__ import annotations

import json
import re

import pytest
from catalogues import run, seed_puzzles
from common import ROOT
from reference_solver import reference_solve

from gyges.formats.notation import format_move, parse_move
from gyges.formats.record import parse_record
from gyges.game.moves import apply_move, legal_moves
from gyges.game.position import Position
from gyges.game.rules import PRESETS, Side
from gyges.puzzles.catalogue import load_catalogue
from gyges.puzzles.rating import rate
from gyges.puzzles.review.game_review import GameReview, Kind, Mark, _classify, review_game

GAME = ROOT / "tests" / "data" / "sample_game.txt"
PBM = PRESETS["pbmserv"]


@pytest.fixture(scope="module")
def sample():
    record = parse_record(GAME.read_text(), str(GAME))
    return review_game(record, PBM, max_moves=3)


@pytest.fixture(scope="module")
def sample2(sample):
    return review_game(sample.record, PBM, max_moves=2)


def test_every_turn_and_the_resignation_are_reviewed(sample):
    record = sample.record
    assert [m.number for m in sample.moves] == [t.number for t in record.turns] + [13]
    assert [m.text for m in sample.moves[:-1]] == [t.text for t in record.turns]
    assert sample.moves[-1].text == "Resign"
    # Each verdict's side and position follow the game.
    for m in sample.moves:
        assert m.position.turn is m.side


def test_verdicts_agree_with_the_reference_solver_near_the_end(sample2):
    """The last positions (where the result is decided) solved by brute force, within 2."""
    for m in sample2.moves[-3:]:
        ref = reference_solve(m.position, PBM, 2, m.history)
        got = m.before
        if got.winner is None:
            assert ref == ("none", None)
        else:
            kind = "win" if got.winner is m.position.turn else "loss"
            assert ref == (kind, got.moves)


@pytest.mark.slow
def test_every_verdict_agrees_with_the_reference_solver(sample2):
    for m in sample2.moves:
        ref = reference_solve(m.position, PBM, 2, m.history)
        got = m.before
        expected = ("none", None) if got.winner is None else (
            "win" if got.winner is m.position.turn else "loss", got.moves)
        assert ref == expected, m.number


def test_the_resignation_threw_away_a_win_in_2(sample):
    """South resigned a position where 14-24-33x43=12 wins in 2: checked here with the move
    generator alone (no landing now; a landing after every North reply)."""
    resign = sample.moves[-1]
    assert resign.mark == "??" and resign.kind == "resigned-won"
    assert "14-24-33x43=12 wins in 2" in resign.comment
    pos, hist = resign.position, list(resign.history)
    assert not legal_moves(pos, PBM, hist).wins
    key = parse_move("14-24-33x43=12", pos, PBM, hist)
    after = apply_move(pos, key)
    replies = legal_moves(after, PBM, [*hist, pos])
    assert replies.moves and replies.mover is Side.NORTH
    for reply in replies:
        assert not reply.is_win
        again = apply_move(after, reply)
        assert legal_moves(again, PBM, [*hist, pos, after]).wins, format_move(reply)


def test_marks_follow_the_proven_results(sample):
    """Every mark is what the before/after verdicts say (checked independently of the
    classifier's wording)."""
    for m in sample.moves:
        if m.after is None:
            continue
        before, after = m.before.winner, m.after.winner
        if before is m.side and after is not m.side:
            assert m.mark == ("??" if after is m.side.other else "?")
            assert re.search(rf"wins? in {m.before.moves}", m.comment)
            assert format_move(m.before.keys[0]) in m.comment
        elif before is None and after is m.side.other:
            assert m.mark == "??" and "walks into a forced loss" in m.comment
        elif before is None and after is m.side:
            assert m.mark == "!"
        elif before is m.side and after is m.side:
            assert m.mark in ("!", "")
        else:
            assert m.mark == ""
    marked = {m.number: m.mark for m in sample.moves if m.mark}
    assert marked, "the sample game has marked moves"
    # The result became forced with the last move that made it so, and stayed forced.
    forced = sample.forced_from
    assert forced is not None and forced.after.winner is not None
    later = sample.moves[sample.moves.index(forced) + 1:]
    assert all(m.before.winner is forced.after.winner for m in later)
    assert forced.before.winner is not forced.after.winner


def test_classifier_cases():
    from gyges.puzzles.review.game_review import PositionVerdict

    bounce = Position.from_string("....../3...../..1.1./1.23.3/3.22.1/....2. N")
    key = parse_move("51-43-33-31-21-S", bounce, PBM)
    s, n = Side.SOUTH, Side.NORTH
    win2 = PositionVerdict(s, 2, (key,))
    assert _classify(s, 1, win2, PositionVerdict(s, 1), 3)[:2] == ("kept", "!")
    assert _classify(s, 1, win2, PositionVerdict(s, 3), 3)[:2] == ("slower", "")
    assert _classify(s, 1, win2, PositionVerdict(None, None), 3)[:2] == ("thrown", "?")
    assert _classify(s, 1, win2, PositionVerdict(n, 1), 3)[:2] == ("thrown-into-loss", "??")
    assert _classify(s, 1, PositionVerdict(None, None), PositionVerdict(n, 2), 3)[:2] == \
        ("walked-into-loss", "??")
    assert _classify(s, 1, PositionVerdict(None, None), PositionVerdict(s, 2), 3)[:2] == \
        ("created", "!")
    assert _classify(s, 1, PositionVerdict(n, 2), PositionVerdict(n, 1), 3)[:2] == ("lost", "")
    assert _classify(s, 1, win2, None, 3)[0] == "wins"
    assert "51-43-33-31-21-S wins in 2" in _classify(s, 1, win2, PositionVerdict(None, None), 3)[2]


def test_text_output_in_the_games_notation(sample):
    result = run("review", str(GAME))
    assert result.exit_code == 0, result.output
    out = result.output
    record = sample.annotated_record()
    assert record in out
    assert "13 Resign??" in out
    for m in sample.moves:
        assert f"{m.number} {m.text}{m.mark}" in out
    forced = sample.forced_from
    assert f"The result became forced with {forced.number} {forced.text}" in out
    # The annotated record reads back as the same game.
    clean = re.sub(r"\((\?\?|\?!|\?)\)|[?!]+", "", record)
    back = parse_record(clean)
    assert [(t.number, t.text) for t in back.turns] == [(t.number, t.text)
                                                        for t in sample.record.turns]
    assert back.result == "Resign"


def test_json_output(sample2):
    result = run("review", str(GAME), "--json", "--max-moves", "2")
    assert result.exit_code == 0
    data = json.loads(result.output)
    assert data["max_moves"] == 2
    assert [m["number"] for m in data["moves"]] == [m.number for m in sample2.moves]
    assert [m["mark"] for m in data["moves"]] == [m.mark for m in sample2.moves]
    assert data["forced_from"] == sample2.forced_from.number
    last = data["moves"][-1]
    assert last["before"] == {"winner": "S", "moves": 2, "keys": ["14-24-33x43=12"]}


def test_puzzles_are_catalogue_entries_that_check(tmp_path, sample, sample2):
    """At the default bound the entries include a win in 3 with cooks (entry 10)."""
    assert [m.before.moves for m in sample.puzzle_positions()] == [3, 2]
    out = tmp_path / "found.yaml"
    out.write_text("schema: 1\npuzzles:\n" + "".join(sample.puzzle_entries()))
    checked = run("catalogue", "check", str(out), "-q")
    assert checked.exit_code == 0, checked.output
    titles = [p.title for p in load_catalogue(out).puzzles]   # each tells its puzzle apart
    assert len(set(titles)) == len(titles) and not any("entry" in t for t in titles)
    assert all(f"in {p.stipulation.moves}" in p.title for p in load_catalogue(out).puzzles)
    out = tmp_path / "found2.yaml"
    result = run("review", str(GAME), "--puzzles", str(out), "--max-moves", "2")
    assert result.exit_code == 0, result.output
    assert out.exists()
    checked = run("catalogue", "check", str(out), "-q")
    assert checked.exit_code == 0, checked.output
    n = len(sample2.puzzle_positions())
    assert n >= 1
    assert f"{n} puzzle{'s' if n != 1 else ''} checked: {n} proven" in checked.output
    listed = run("catalogue", "list", str(out)).output
    assert "South wins in 2" in listed  # the resignation position
    # rated on the catalogue's one scale: the resignation as seed 000's file rates it
    found = {str(p.position): p for p in load_catalogue(out).puzzles}
    (seed,) = [p for p in seed_puzzles() if p.id == "seed000-resignation"]
    assert found[str(seed.position)].difficulty == seed.difficulty
    for p in found.values():
        assert p.difficulty == rate(p.position, p.rules, p.stipulation, p.key,
                                    main_line=p.main_line, cooks=p.cooks,
                                    history=p.history).difficulty
    # A second run adds nothing and says so.
    again = run("review", str(GAME), "--puzzles", str(out), "--max-moves", "2")
    assert again.exit_code == 2 and "already there" in again.output


def test_a_position_already_in_the_file_refuses_every_entry(tmp_path, sample2):
    """The appender checks every entry before it writes: the resignation's position, already
    in the file under another id, keeps the other position out too."""
    resign = sample2.puzzle_positions()[-1]
    out = tmp_path / "mine.yaml"
    out.write_text("schema: 1\npuzzles:\n" + sample2.puzzle_entries()[-1]
                   .replace(f'"sample_game-{resign.number}"', '"mine"'))
    before = out.read_text()
    result = run("review", str(GAME), "--puzzles", str(out), "--max-moves", "2")
    assert result.exit_code == 2 and "this position is already puzzle mine" in result.output
    assert out.read_text() == before


def test_the_review_reads_back_from_its_json(sample2):
    data = json.loads(json.dumps(sample2.to_json()))
    back = GameReview.from_json(data, sample2.record)
    assert back == sample2 and back.to_json() == sample2.to_json()
    assert [m.kind for m in back.moves] == [m.kind for m in sample2.moves]
    assert isinstance(back.moves[-1].kind, Kind) and back.moves[-1].mark is Mark.BLUNDER
    assert repr(back.moves[-1].before) == "PositionVerdict(South wins in 2: 14-24-33x43=12)"
    assert repr(back.moves[0]) == "MoveReview(3, South, '16-35', '', quiet)"


def test_bad_record_is_one_line(tmp_path):
    bad = tmp_path / "bad.txt"
    bad.write_text("North South\n1 231123 2 321123\n")
    result = run("review", str(bad))
    assert result.exit_code == 2
    assert result.output.count("\n") == 1 and "bad.txt:1" in result.output
    missing = run("review", str(tmp_path / "nope.txt"))
    assert missing.exit_code == 2


def test_illegal_entry_stops_the_review(tmp_path):
    game = tmp_path / "g.txt"
    game.write_text("South North\n1 231123 2 321123\n3 16-35 4 11-12\n")
    result = run("review", str(game), "--max-moves", "1")
    assert result.exit_code == 1
    assert "illegal entry" in result.output and "entry 4" in result.output
