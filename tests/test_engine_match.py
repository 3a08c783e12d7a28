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
from gyges.engine.openings import openings
from gyges.engine.players import EngineSpec, open_player
from gyges.engine.refereed import PlayedGame, play_game, replay_moves
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


def test_pentanomial_statistics_on_known_pairs():
    # every pair 1-1 (each side of each opening wins): 0 Elo, and no spread at all
    even = Tally.of_pairs({n: 1.0 if n % 2 else 0.0 for n in range(1, 41)})
    assert even.pairs == (0, 0, 20, 0, 0) and (even.wins, even.losses) == (20, 20)
    assert even.elo() == 0.0 and even.elo_interval() == (0.0, 0.0)
    # the same games counted one by one: a wide interval (they are not independent)
    alone = Tally(20, 0, 20)
    assert alone.elo_interval()[0] < -100
    # the two games of a pair alike (both won or both lost): the pentanomial variance of
    # a pair's mean is the trinomial one of a game, so the interval is sqrt(2) wider
    alike = Tally.of_pairs({n: 1.0 if (n + 1) // 2 % 2 else 0.0 for n in range(1, 41)})
    assert alike.pairs == (10, 0, 0, 0, 10) and alike.score == 0.5
    lo, hi = alike.score_interval()
    lo1, hi1 = Tally(20, 0, 20).score_interval()
    assert (hi - lo) == pytest.approx(math.sqrt(2) * (hi1 - lo1))
    assert alike.variance() == pytest.approx(0.25)
    # known numbers: pairs 0.5-1.5, 1-1, 1.5-0.5, 2-0 once each: score 1.25 / 2 a pair
    t = Tally.of_pairs({1: 0.0, 2: 0.5, 3: 1.0, 4: 0.0, 5: 1.0, 6: 0.5, 7: 1.0, 8: 1.0})
    assert t.pairs == (0, 1, 1, 1, 1) and t.score == 0.625
    var = sum((x - 0.625) ** 2 for x in (0.25, 0.5, 0.75, 1.0)) / 4
    assert t.variance() == pytest.approx(var)
    assert t.score_interval() == pytest.approx((0.625 - 1.959964 * math.sqrt(var / 4),
                                                0.625 + 1.959964 * math.sqrt(var / 4)))
    # the SPRT on pairs: the trinomial LLR's formula with pairs as samples
    sprt = Sprt(0, 50)
    s0, s1 = 0.5, score_of_elo(50)
    assert sprt.llr(t) == pytest.approx(4 * (s1 - s0) * (2 * 0.625 - s0 - s1) / (2 * var))


def test_a_game_without_its_partner_is_counted_but_left_out():
    t = Tally.of_pairs({1: 1.0, 2: 1.0, 3: 1.0})       # a pair 2-0 and a lone win
    assert (t.wins, t.games, t.samples, t.unpaired) == (3, 3, 1, 1)
    assert t.score == 1.0
    assert "1 game without its partner, left out" in t.pairs_text()
    # a running tally, game by game, ends where the whole count does
    running = Tally(pairs=(0, 0, 0, 0, 0)).add_game(1.0).add_game(1.0, 1.0).add_game(1.0)
    assert running == t
    with pytest.raises(ValueError):
        Tally(1, 0, 0, (0, 0, 0, 0, 1))                # a pair needs two games


def test_the_published_games_load_as_played_games():
    from gyges.engine.identity import UNRECORDED
    from gyges.engine.match import match_results_file
    from gyges.setups.selfplay.games import read_selfplay_games

    found = match_results_file("data/engine/helios-0.5s.jsonl").read()
    assert found.params["engines"][0] == "builtin" and found.params["limit"] == {"time": 0.5}
    assert found.params["engine"] == UNRECORDED       # played before games named it
    games = found.values()
    assert len(games) == 200 and all(isinstance(g, PlayedGame) for g in games.values())
    assert games[1].opening == ("123213", "321312") and games[1].number == 1
    params, records = read_selfplay_games("data/setups/pbmserv-selfplay.jsonl")
    assert params is not None and len(records) == 16000
    first = PlayedGame.from_json(records[0])
    assert (first.south, first.opening, first.round) == ("builtin", ("123213", "321312"), 0)
    assert first.to_json() == {k: records[0][k] for k in first.to_json()}


def test_an_engine_text_is_read_once_and_round_trips():
    for text in ("builtin", "builtin:depth=3,prove=2", "builtin:nodes=500,hash=16",
                 "ugi:/path/to/engine --quiet"):
        spec = EngineSpec.parse(text)
        assert str(spec) == text and EngineSpec.parse(str(spec)) == spec
    spec = EngineSpec.parse("builtin:nodes=500")
    assert spec.limit(Limit(time=1.0)) == Limit(nodes=500)
    assert EngineSpec.parse("builtin").limit(Limit(time=1.0)) == Limit(time=1.0)


def test_a_game_is_a_position_with_its_history():
    from gyges.engine.builtin import Engine, Options
    from gyges.game.moves import Game

    game = Game(Position.setup("231123", "321123"))
    for _ in range(3):
        game = game.play(legal_moves(game.position, PBM, game.history)[0])
    engine = Engine(PBM, Options(prove=0, hash_bits=16))
    a = engine.analyse(game, Limit(depth=2))
    engine.clear()
    b = engine.analyse(game.position, Limit(depth=2), game.history)
    assert a.move == b.move and a.score == b.score
    engine.configure(Options(prove=0, hash_bits=17))
    assert engine.analyse(game, Limit(depth=2)).move == a.move
    with pytest.raises(EngineError):
        engine.analyse(game, Limit(depth=2), game.history)
