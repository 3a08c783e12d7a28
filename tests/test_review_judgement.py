"""The engine's judgement in ``gyges review``: marks for falls in win probability on a
constructed game (proven marks outranking them), the same review at a fixed depth, the
JSON fields, progress on a terminal and Ctrl-C keeping the moves reviewed."""

from __future__ import annotations

import json
import os
import pty
import re
import select
import signal
import subprocess
import sys
import time

import pytest
from catalogues import run
from common import ROOT

from gyges.engine import Limit, Options, Win
from gyges.engine.score import CALIBRATION
from gyges.formats.notation import format_move
from gyges.formats.record import parse_record
from gyges.game.position import Position
from gyges.game.rules import PRESETS
from gyges.puzzles.review.engine_judgement import BLUNDER, INACCURACY, MISTAKE, EngineMark, mark_for
from gyges.puzzles.review.game_review import GameReview, Kind, Mark, review_game

PBM = PRESETS["pbmserv"]
GAME_TEXT = (ROOT / "tests" / "data" / "sample_game.txt").read_text()
#: Seed 000's sample game before South's resignation: South wins in 2, only by
#: 14-24-33x43=12 (tests/test_review.py checks it with the move generator).
WON = "..1.../..23../..3.../..3113/2..2../2..1.. S"
KEY = "14-24-33x43=12"
#: A game where South throws that win away: 14-13 lets North win in 2; 11-13 leaves
#: nothing forced within 2.
INTO_LOSS = "South North\n13 14-13\n"
THROWN = "South North\n13 11-13\n"
#: A longer game (26 turns, the builtin engine against itself at depth 2), for Ctrl-C.
LONG_GAME = """South North
1 312123 2 311322
3 12x11=24 4 62-63-64x65=31
5 13x11=51 6 63-64-65x66=41
7 14-24x16=42 8 61-51x41=21
9 15-24x21=22 10 66-65-64-52
11 11-22-42x52=12 12 65-64x52=32
13 12-22-24x16=66 14 66-56
15 16-26 16 64x56=53
17 26-36 18 56x53=34
19 22-24x34=22 20 53x34=54
21 22-32-34x24=33 22 52-51x41=52
23 21x32=13 24 54-34x24=43
25 13x33=23 26 51-52-44
27 23-11 28 52-44-34-24-S
"""


DEPTH2 = Limit(depth=2)


def _review(text: str, max_moves: int, limit: Limit | None = DEPTH2) -> GameReview:
    return review_game(parse_record(text), PBM, max_moves=max_moves,
                       start=Position.from_string(WON), limit=limit)


def test_thresholds_order_the_marks():
    assert 0 < INACCURACY < MISTAKE < BLUNDER <= 1
    assert mark_for(INACCURACY - 0.001) is EngineMark.NONE
    assert mark_for(INACCURACY) is EngineMark.INACCURACY
    assert mark_for(MISTAKE) is EngineMark.MISTAKE
    assert mark_for(BLUNDER) is EngineMark.BLUNDER and mark_for(1.0) is EngineMark.BLUNDER
    assert mark_for(-0.5) is EngineMark.NONE  # a rise is no error


def test_throwing_a_won_game_into_a_loss_is_a_blunder_and_proven():
    """Within the proofs' bound the proven ?? is shown; the engine agrees (a blunder)
    and names the winning move."""
    (m,) = _review(INTO_LOSS, 2).moves
    assert m.kind is Kind.THROWN_INTO_LOSS and m.mark is Mark.BLUNDER
    j = m.judgement
    assert j.before == Win(2) and j.win_before == 1.0 and j.win_after == 0.0
    assert j.mark is EngineMark.BLUNDER and format_move(j.best) == KEY
    assert m.sign == "??"  # the proven mark outranks the engine's


def test_throwing_a_won_game_away_is_proven_and_judged():
    (m,) = _review(THROWN, 2).moves
    assert m.kind is Kind.THROWN and m.mark is Mark.MISTAKE and m.sign == "?"
    j = m.judgement
    assert j.win_before == 1.0 and j.drop == pytest.approx(1.0 - j.win_after)
    assert j.mark is mark_for(j.drop) and format_move(j.best) == KEY


def test_beyond_the_proofs_bound_the_engine_marks_the_blunder():
    """Proofs within 1 move see nothing (a win in 2); the engine's own prover does, so
    the move gets the engine's bracketed mark and no proven one."""
    review = _review(INTO_LOSS, 1)
    (m,) = review.moves
    assert m.kind is Kind.QUIET and m.mark is Mark.NONE
    assert m.judgement.mark is EngineMark.BLUNDER and m.sign == "(??)"
    assert "13 14-13(??)" in review.annotated_record()
    assert "a blunder (best 14-24-33x43=12, win in 2)" in review.text()


def test_without_the_engine_only_the_proofs():
    review = _review(INTO_LOSS, 1, limit=None)
    assert review.moves[0].judgement is None and review.moves[0].sign == ""
    assert review.to_json()["engine"] is None and review.to_json()["moves"][0]["engine"] is None
    assert "engine" not in review.text()


def test_the_same_review_at_a_fixed_depth():
    record = parse_record(GAME_TEXT)
    first = review_game(record, PBM, max_moves=1, limit=Limit(depth=2))
    again = review_game(record, PBM, max_moves=1, limit=Limit(depth=2))
    assert first.to_json() == again.to_json()
    assert all(m.judgement is not None for m in first.moves)
    # the engine's marks follow the thresholds on the probabilities it reports
    for m in first.moves:
        assert m.judgement.mark is mark_for(m.judgement.win_before - m.judgement.win_after)
        assert m.sign == (m.mark.value or m.judgement.mark.sign)


def test_json_fields(tmp_path):
    game = tmp_path / "thrown.txt"
    game.write_text(INTO_LOSS)
    result = run("review", str(game), "--start", WON, "-n", "1", "--depth", "2", "--json")
    assert result.exit_code == 0, result.output
    data = json.loads(result.output)
    assert data["engine"] == {"limit": {"time": None, "depth": 2, "nodes": None},
                              "marks": {"inaccuracy": INACCURACY, "mistake": MISTAKE,
                                        "blunder": BLUNDER}}
    assert data["stopped_at"] is None
    (move,) = data["moves"]
    assert move["mark"] == "" and move["kind"] == "quiet"
    engine = move["engine"]
    # (and the scale, when the default evaluation prints on another than the linear one's)
    scaled = {"calibration"} if Options().calibration != CALIBRATION else set()
    assert set(engine) == {"before", "win_before", "after", "win_after", "drop", "best",
                           "mark"} | scaled
    assert engine["before"] == {"win": 2} and engine["win_before"] == 1.0
    assert engine["after"] == {"loss": 2} and engine["win_after"] == 0.0
    assert engine["drop"] == 1.0 and engine["best"] == KEY and engine["mark"] == "blunder"
    back = GameReview.from_json(data, parse_record(INTO_LOSS, str(game)),
                                Position.from_string(WON))
    assert back.to_json() == data


def test_limit_options(tmp_path):
    game = tmp_path / "thrown.txt"
    game.write_text(INTO_LOSS)
    both = run("review", str(game), "--start", WON, "--no-engine", "--depth", "2")
    assert both.exit_code == 2 and "--no-engine" in both.output
    bad = run("review", str(game), "--start", WON, "--time", "0")
    assert bad.exit_code == 2 and bad.output.count("\n") == 1
    help_text = run("review", "--help").output
    for value in (INACCURACY, MISTAKE, BLUNDER):
        assert f"{100 * value:g}" in help_text


def test_ctrl_c_keeps_the_moves_reviewed(tmp_path):
    """SIGINT while the review runs: the moves reviewed so far are printed, a line says
    where it stopped, exit status 130, the --puzzles file is left alone. Stderr is a
    terminal, so the progress line shows which move is under review."""
    game = tmp_path / "long.txt"
    game.write_text(LONG_GAME)
    found = tmp_path / "found.yaml"
    master, slave = pty.openpty()
    env = {**os.environ, "PYTHONPATH": os.pathsep.join(sys.path)}
    proc = subprocess.Popen(
        [sys.executable, "-c", "from gyges_cli.main import cli; cli()", "review", str(game),
         "-n", "2",
         "--nodes", "20000", "--puzzles", str(found)],
        stdout=subprocess.PIPE, stderr=slave, env=env, cwd=tmp_path)
    os.close(slave)
    seen = b""
    deadline = time.monotonic() + 120
    try:
        while b"(3 of 26 moves)" not in seen and time.monotonic() < deadline:
            ready, _, _ = select.select([master], [], [], 1.0)
            if ready:
                try:
                    seen += os.read(master, 4096)
                except OSError:  # the command ended: the assertion below says how
                    break
        assert b"(3 of 26 moves)" in seen, seen
        assert b"reviewing 3 12x11=24 (1 of 26 moves)" in seen
        proc.send_signal(signal.SIGINT)
        out, _ = proc.communicate(timeout=60)
    finally:
        if proc.poll() is None:
            proc.kill()
    err = b""
    while select.select([master], [], [], 0.2)[0]:
        try:
            chunk = os.read(master, 4096)
        except OSError:
            break
        if not chunk:
            break
        err += chunk
    os.close(master)
    assert proc.returncode == 130
    text = out.decode()
    stopped = re.search(r"The review stopped before entry (\d+) \(interrupted\): (\d+) of",
                        text)
    assert stopped, text
    number, reviewed = int(stopped[1]), int(stopped[2])
    assert reviewed >= 2 and number == 3 + reviewed
    for n in range(3, number):
        assert re.search(rf"^{n} \S+ +(South|North): .*; engine \d+% -> \d+%", text, re.M)
    assert not re.search(rf"^{number} ", text, re.M)
    assert f"moves reviewed before entry {number} are printed above" in err.decode()
    assert not found.exists()


def test_the_judgement_is_on_the_scale_of_the_evaluation_that_searched():
    """A network's scores are judged on its own scale: the probabilities, the drop and
    the mark follow it, the JSON keeps it (the linear evaluation's JSON stays as it
    was), and a review with a network carries its scale."""
    import dataclasses
    import math

    from gyges.engine import Eval, Options
    from gyges.engine.network import Network
    from gyges.engine.score import CALIBRATION
    from gyges.puzzles.review.engine_judgement import Judgement, PositionAssessment, judge

    def logistic(x: float) -> float:
        return 1 / (1 + math.exp(-x))

    from gyges.game.moves import legal_moves

    p = Position.from_string(WON)
    before = PositionAssessment(p, Eval(150), calibration=0.4)
    after = PositionAssessment(p.with_turn(p.turn.other), Eval(-60), calibration=0.4)
    linear = judge(dataclasses.replace(before, calibration=CALIBRATION), None, None)
    assert linear.calibration == CALIBRATION and "calibration" not in linear.to_json()
    move = next(m for m in legal_moves(p, PBM) if not m.is_win)
    for scale in (0.4, CALIBRATION):
        b = dataclasses.replace(before, calibration=scale)
        a = dataclasses.replace(after, calibration=scale)
        j = judge(b, move, a)
        assert j.win_before == pytest.approx(logistic(scale * 1.5))
        assert j.win_after == pytest.approx(logistic(scale * 0.6))
        assert j.mark is mark_for(j.drop)
        assert Judgement.from_json(j.to_json(), p, PBM) == j
        assert ("calibration" in j.to_json()) == (scale != CALIBRATION)
    net = dataclasses.replace(Network.zeros(4), calibration=0.4)
    review = review_game(parse_record(THROWN), PBM, max_moves=1,
                         start=Position.from_string(WON), limit=Limit(depth=1),
                         options=Options(prove=2, hash_bits=14, network=net))
    judged = [m.judgement for m in review.moves if m.judgement is not None]
    assert judged and all(j.calibration == 0.4 for j in judged)
