"""Games between engines (the referee, the record in JSON and in the text ``replay``
reads), engine texts, openings and the match statistics."""

from __future__ import annotations

import json
import math
import os

import pytest

from gyges import PRESETS, Position
from gyges.engine.builtin import MAX_CORES, Analysis, EngineError, Limit, PlayResult
from gyges.engine.client import EngineFailure
from gyges.engine.match import PlayedGame, play_game, replay_moves
from gyges.engine.openings import openings
from gyges.engine.players import EngineSpec, open_player
from gyges.engine.score import Eval
from gyges.engine.stats import Sprt, Tally, elo_of_score, score_of_elo
from gyges.formats.record import parse_record, replay
from gyges.game.moves import Move, legal_moves
from gyges.game.position import canonical_pair

PBM = PRESETS["pbmserv"]
PEER = PRESETS["helios"]


class Scripted:
    """A player that answers with a fixed move, None, or a failure."""

    def __init__(self, answer):
        self.answer = answer

    def play(self, position, limit, history=()):
        if isinstance(self.answer, Exception):
            raise self.answer
        return PlayResult(self.answer, Analysis(position, self.answer, Eval(0), (), 0, 0, 0.0))

    def analyse(self, position, limit, history=()):
        return self.play(position, limit, history).analysis

    def close(self):
        pass


def test_a_game_is_recorded_and_replays_as_text():
    engine = open_player("builtin:depth=2,prove=2", PBM)
    game = play_game(engine, engine, ("231123", "321123"), PBM, max_plies=60,
                     names=("builtin:depth=2,prove=2", "the same"))
    assert game.result in ("south", "north") and game.reason == "landing"
    assert PlayedGame.from_json(json.loads(json.dumps(game.to_json()))) == game
    text = game.record_text(PBM)
    assert text.startswith("# South: builtin:depth=2,prove=2\n# North: the same\n")
    replayed = replay(parse_record(text), PBM)
    assert replayed.error is None and replayed.winner == game.winner()
    assert [str(m) for turn in replayed.moves for m in turn] == list(game.moves)
    positions = replay_moves(game, PBM)
    assert len(positions) == len(game.moves)


def test_the_referee_refuses_bad_answers():
    engine = open_player("builtin:depth=1,prove=0", PBM)
    start = Position.setup("231123", "321123")
    illegal = Move(0, 35)                       # no ring goes from 11 to 66
    for answer, reason in ((illegal, "played an illegal move"), (None, "gave no move"),
                           (EngineFailure("it died"), "failed: it died")):
        game = play_game(Scripted(answer), engine, ("231123", "321123"), PBM)
        assert game.result == "north" and reason in game.reason and game.moves == ()
        text = game.record_text(PBM)
        assert replay(parse_record(text), PBM).winner.value == "N"   # South resigns
    legal = legal_moves(start, PBM)[0]
    game = play_game(Scripted(legal), Scripted(legal), ("231123", "321123"), PBM)
    assert game.result == "south" and "north played an illegal move" in game.reason


def test_a_long_game_is_a_draw_and_bad_openings_are_refused():
    engine = open_player("builtin:depth=1,prove=0", PEER)
    game = play_game(engine, engine, ("123321", "123321"), PEER, max_plies=4)
    assert (game.result, game.reason, len(game.moves)) == ("draw", "max plies: 4 moves played",
                                                           4)
    with pytest.raises(EngineError, match="opening"):
        play_game(engine, engine, ("123", "321123"), PEER)
    with pytest.raises(EngineError):
        PlayedGame.from_json({"south": "a"})


def test_engine_texts_round_trip_and_refuse_nonsense():
    for text in ("builtin", "builtin:depth=3", "builtin:nodes=500,prove=0,hash=16",
                 "ugi:/usr/bin/engine --fast"):
        assert str(EngineSpec.parse(text)) == text
    spec = EngineSpec.parse("builtin:time=0.25")
    assert spec.limit(Limit(depth=9)) == Limit(time=0.25)
    assert EngineSpec.parse("builtin").limit(Limit(depth=9)) == Limit(depth=9)
    for bad in ("stockfish", "builtin:colour=red", "builtin:depth", "builtin:depth=x",
                "builtin:prove=9", "builtin:hash=40", "ugi:", "ugi:'unclosed",
                "builtin:weights=/nonexistent.json", "builtin:cores=0", "builtin:cores=9"):
        with pytest.raises(EngineError):
            EngineSpec.parse(bad)


def test_builtin_cores_are_capped_at_the_machines():
    """``builtin:cores=C`` searches on at most the cores of the machine it runs on (the
    text keeps what was asked, for the game records)."""
    cores = os.cpu_count() or 1
    for asked in range(1, MAX_CORES + 1):
        spec = EngineSpec.parse(f"builtin:cores={asked}")
        assert str(spec) == f"builtin:cores={asked}"
        assert spec.engine_options.cores == min(asked, cores)


def test_openings():
    pairs = openings("canonical")
    assert len(pairs) == 4068 and len(set(pairs)) == 4068
    assert all(canonical_pair(s[::-1], n[::-1]) == (s, n) for s, n in pairs)
    assert len(openings("all")) == 8100 and openings("all", seed=1) != openings("all")
    with pytest.raises(ValueError, match="canonical"):
        openings("some")


def test_match_statistics_on_known_numbers():
    assert elo_of_score(0.5) == 0.0 and elo_of_score(1.0) == math.inf
    assert elo_of_score(0.75) == pytest.approx(190.85, abs=0.01)
    assert score_of_elo(elo_of_score(0.3)) == pytest.approx(0.3)
    t = Tally(130, 0, 70)                       # 65% over 200 games, no draws
    assert t.score == 0.65 and t.elo() == pytest.approx(107.54, abs=0.01)
    lo, hi = t.score_interval()
    assert (lo, hi) == pytest.approx((0.65 - 1.959964 * math.sqrt(0.65 * 0.35 / 200),
                                      0.65 + 1.959964 * math.sqrt(0.65 * 0.35 / 200)))
    assert t.elo_interval()[0] > 0              # the interval lies above an even match
    assert Tally(5, 2, 3) + Tally(1, 0, 1) == Tally(6, 2, 4)
    assert Tally().score == 0.5 and Tally().score_interval() == (0.0, 1.0)
    sprt = Sprt(0, 50)
    assert sprt.bounds() == pytest.approx((math.log(0.05 / 0.95), math.log(0.95 / 0.05)))
    assert sprt.decide(Tally(130, 0, 70)) == "H1"
    even = Tally(180, 40, 180)                 # LLR = 400 * d * (-d) / (2 * 0.225), d = s1 - s0
    d = score_of_elo(50) - 0.5
    assert sprt.llr(even) == pytest.approx(-400 * d * d / 0.45)
    assert sprt.decide(even) == "H0" and sprt.decide(Tally(90, 20, 90)) is None
    assert sprt.decide(Tally(6, 2, 4)) is None
    with pytest.raises(ValueError):
        Sprt(10, 0)
    with pytest.raises(ValueError):
        Tally(-1, 0, 0)
