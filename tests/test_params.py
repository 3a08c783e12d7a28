"""A generation run's parameters (gyges.puzzles.generate.params): what a state record stores and
reads back, the command that makes the run, and the words a user gives them."""

from __future__ import annotations

import dataclasses
import json

import pytest

from gyges.game.rules import PRESETS
from gyges.puzzles.generate.params import (
    MOVES,
    SOURCES,
    Params,
    ParamsError,
    Source,
    generated_moves,
    parse_themes,
)
from gyges.puzzles.generate.play import PLAY_WAY

RULES = PRESETS["pbmserv"]


@pytest.mark.parametrize("params", [
    Params(2, RULES),
    Params(3, PRESETS["bga"], seed=7, sources=("compose",), themes=("taboo",)),
    Params(5, RULES.with_options({"repetition": "allowed"}), seed=53, sources=("play",),
           no_duals=True, min_tries=0),
])
def test_parameters_read_back_from_a_state_record(params):
    d = json.loads(json.dumps(params.to_json()))
    assert Params.from_json(d) == params
    assert ("play" in d) == (Source.PLAY in params.sources)
    assert d.get("play", PLAY_WAY) == PLAY_WAY


def test_sources_are_an_enum_written_as_words():
    p = Params(2, RULES, sources=("play",))
    assert p.sources == (Source.PLAY,) and p.to_json()["sources"] == ["play"]
    assert Params(2, RULES).sources == SOURCES == (Source.PLAY, Source.COMPOSE)
    with pytest.raises(ValueError):
        Params(2, RULES, sources=("dream",))
    with pytest.raises(ValueError, match="format"):
        Params.from_json({**p.to_json(), "format": 0})


#: A constructed candidate costs up to this many play candidates (CPU time, wins in 2 and
#: 3: ``python -m bench.bench_generate --share``) for about as many sound puzzles.
CONSTRUCTION_COST = 70


@pytest.mark.parametrize("moves", MOVES)
def test_the_construction_has_a_bounded_share_of_a_default_run(moves):
    """Counted in candidates, each constructed one as many play candidates as it costs:
    the construction takes at most a third of a default run's work (both sources then take
    at most 1.5 times play alone for the same puzzles), and still some of it in a long
    run. With themes asked for (which the construction builds to order) it makes every
    other candidate."""
    default = Params(moves, RULES)
    assert default.sources == SOURCES
    for judged in (10, 57, 256, 1000, 10_000):
        built = sum(default.source_of(i) is Source.COMPOSE for i in range(judged))
        work = CONSTRUCTION_COST * built + (judged - built)
        assert 3 * CONSTRUCTION_COST * built <= work
        assert built >= judged // 300
    themed = Params(moves, RULES, themes=("relocation bridge",))
    assert [themed.source_of(i) for i in range(4)] == [Source.PLAY, Source.COMPOSE] * 2
    alone = Params(moves, RULES, sources=("compose",))
    assert {alone.source_of(i) for i in range(300)} == {Source.COMPOSE}
    assert default.to_json()["compose_every"] != themed.to_json()["compose_every"]
    assert "compose_every" not in alone.to_json()


def test_the_command_and_the_repr_say_the_run():
    p = Params(3, RULES.with_options({"repetition": "allowed"}), seed=7, sources=("play",),
               themes=("bounce chain 2",), no_duals=True, min_tries=3)
    assert p.command(4) == ("gyges generate --stipulation 'win in 3' --rules pbmserv "
                            "--rule repetition=allowed --seed 7 --count 4 --source play "
                            "--themes 'bounce chain 2' --no-duals --min-tries 3")
    assert repr(p) == ("Params(win in 3, rules=pbmserv repetition=allowed, seed=7, "
                       "sources=('play',), themes=('bounce chain 2',), no_duals=True, "
                       "min_tries=3)")
    assert dataclasses.replace(p, seed=8) != p


@pytest.mark.parametrize("text, moves", [("win in 2", 2), ("Win in 5", 5), ("wins in 3", 3),
                                         ("win in 6", 6)])
def test_the_stipulations_the_generator_makes(text, moves):
    assert generated_moves(text) == moves
    assert moves in MOVES


@pytest.mark.parametrize("text, words", [
    ("win in 1", "choose 2, 3, 4, 5 or 6 (a win in 1 is never a puzzle"),
    ("win in 7", "choose 2, 3, 4, 5 or 6 (the generator's walk and proofs go 6 moves deep"),
    ("loses in 2", "write 'win in N'"), ("South wins in 2", "write 'win in N'"),
    ("mate in 2", "write 'win in N'"),
])
def test_other_stipulations_are_refused_with_the_field(text, words):
    with pytest.raises(ParamsError) as e:
        generated_moves(text)
    assert e.value.field == "stipulation" and words in e.value.problem
    assert "--" not in str(e.value)                       # no command-line option named


def test_themes_are_read_and_checked():
    assert parse_themes(None) == parse_themes("") == ()
    assert parse_themes(" runner, bounce chain 3 ,") == ("runner", "bounce chain 3")
    for bad, words in (("sparkle", "unknown theme"), ("unstoppable", "'loses in N'")):
        with pytest.raises(ParamsError) as e:
            parse_themes(f"taboo,{bad}")
        assert e.value.field == "themes" and words in e.value.problem
