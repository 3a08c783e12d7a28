"""``setups rank``: self-play games from setup pairs, deterministic at a fixed depth, the
same after Ctrl-C and a rerun, after a killed Dask worker, whatever the workers."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from click.testing import CliRunner
from interrupts import assert_interrupted, run

from gyges.engine import Limit, PlayedGame
from gyges.engine.identity import code_digest, weights_digest
from gyges.engine.openings import openings
from gyges.engine.refereed import replay_moves
from gyges.game.rules import PRESETS
from gyges.setups.pairs import canonical_pairs, select_pairs
from gyges.setups.selfplay.games import (
    OPENING_PLIES,
    is_games_file,
    play_task,
    read_selfplay_games,
    run_games,
    schedule,
)
from gyges_cli.main import cli

RULES = PRESETS["pbmserv"]
SOUTH, NORTH = "231123,112233,213132", "321123,332211"
GAMES = 8   # 6 pairs: one round and two games of the second
RANK = ["setups", "rank", "--south", SOUTH, "--north", NORTH, "--games", str(GAMES),
        "--depth", "2", "--prove", "1", "-q", "--out", "g.jsonl"]


def _lines(path: Path) -> list[str]:
    """The game records, their engine by its code and weights only (a resumed run, one
    with other --jobs or after a commit plays the same games under another command line
    or commit)."""
    out = []
    for line in path.read_text(encoding="utf-8").splitlines():
        record = json.loads(line)
        record["engine"] = {k: record["engine"][k] for k in ("code", "weights")}
        out.append(json.dumps(record, sort_keys=True))
    return sorted(out)


@pytest.fixture(scope="module")
def reference(tmp_path_factory) -> list[str]:
    """The games of RANK on one worker, sorted."""
    d = tmp_path_factory.mktemp("rank-ref")
    r = run([*RANK, "--jobs", "1"], d)
    assert r.code == 0, r.err
    return _lines(d / "g.jsonl")


def test_the_schedule_is_seeded_and_covers_every_pair_once_a_round():
    pairs = canonical_pairs(select_pairs())
    games = schedule(pairs, 2 * len(pairs) + 3)
    first = [(g.south, g.north) for g in games[:len(pairs)]]
    assert first == openings("canonical")   # the engine's match order for the same set
    assert [g.round for g in games[len(pairs) - 1:len(pairs) + 1]] == [0, 1]
    assert [(g.south, g.north) for g in games[len(pairs):2 * len(pairs)]] == first
    assert schedule(reversed(pairs), 5) == games[:5]   # the order asked in does not matter


def test_games_are_records_of_legal_games_and_later_rounds_open_at_random(reference):
    games = [json.loads(line) for line in reference]
    assert sorted(g["game"] for g in games) == list(range(GAMES))
    asked = set(select_pairs(SOUTH, NORTH))
    for g in games:
        PlayedGame.from_json(g)
        assert (g["south"], g["north"]) in asked
        assert g["limit"] == {"depth": 2} and g["prove"] == 1 and g["canonical"] is False
        assert g["round"] == (1 if g["game"] >= len(asked) else 0)
        # every move is legal and the game ends as the record says
        positions = replay_moves(_played(g), RULES)
        assert len(positions) == len(g["moves"])
        if g["reason"] == "landing":
            assert g["moves"][-1][-1] in "NS" and g["result"] in ("south", "north")
    # a second-round game of a pair is another game than its first: its opening differs
    by_pair: dict = {}
    for g in games:
        by_pair.setdefault((g["south"], g["north"]), []).append(g)
    twice = [gs for gs in by_pair.values() if len(gs) == 2]
    assert len(twice) == GAMES - len(asked)
    for first, second in twice:
        assert first["moves"][:OPENING_PLIES] != second["moves"][:OPENING_PLIES]


def _played(g: dict):
    from gyges.engine import PlayedGame
    return PlayedGame("builtin", "builtin", (g["south"], g["north"]), g["result"],
                      g["reason"], tuple(g["moves"]))


def test_a_game_is_the_same_every_time():
    item = schedule([("231123", "321123")], 2)[1]   # a second-round game: random opening
    a = play_task(item, rules=RULES, limit={"depth": 2}, prove=1, max_plies=200)
    b = play_task(item, rules=RULES, limit={"depth": 2}, prove=1, max_plies=200)
    assert a == b


def test_two_workers_and_a_resumed_run_give_the_same_games(reference, tmp_path):
    r = run([*RANK, "--jobs", "2"], tmp_path)
    assert r.code == 0, r.err
    assert _lines(tmp_path / "g.jsonl") == reference
    # more games: the file is extended, the games already there are kept
    more = [a if a != str(GAMES) else str(GAMES + 1) for a in RANK]
    r = run([*more, "--jobs", "2"], tmp_path)
    assert r.code == 0 and "1 game played, 8 already in" in r.err, r.err
    assert set(reference) < set(_lines(tmp_path / "g.jsonl"))


def test_ctrl_c_keeps_whole_games_and_the_rerun_ends_the_same(reference, tmp_path):
    args = [*RANK, "--jobs", "1"]
    r = run(args, tmp_path, delay=0.3, ready="g.jsonl")   # 0.3 s after the first game
    assert_interrupted(r, args)
    out = tmp_path / "g.jsonl"
    kept = _lines(out) if out.exists() else []
    assert set(kept) <= set(reference) and len(set(kept)) == len(kept)
    if r.code == 130:
        assert "rerun the same command to resume" in r.err
    again = run(args, tmp_path)
    assert again.code == 0, again.err
    assert _lines(out) == reference


def test_a_file_of_another_engine_is_not_extended(tmp_path, reference):
    """Every record names the engine that made it; a run refuses to extend a file made by
    another engine (other code or weights), or by one that did not record itself."""
    out = tmp_path / "g.jsonl"
    first = json.loads(reference[0])
    assert first["engine"]["code"] == code_digest()
    assert first["engine"]["weights"] == weights_digest()
    for change, words in ((lambda r: r["engine"].update(code="0123456789abcdef"),
                           "engine 0123456789abcdef"),
                          (lambda r: r["engine"].update(weights="fedcba9876543210"),
                           "weights fedcba9876543210"),
                          (lambda r: r.pop("engine"), "an engine that did not record itself")):
        records = [json.loads(line) for line in reference[:2]]
        for r in records:
            change(r)
        out.write_text("".join(json.dumps(r) + "\n" for r in records))
        before = out.read_bytes()
        res = run([*RANK, "--jobs", "1"], tmp_path)
        assert res.code == 2 and "made with other parameters" in res.err, res.err
        assert words in res.err and f"engine {code_digest()}" in res.err
        assert out.read_bytes() == before                    # not touched
    out.unlink()
    assert run([*RANK, "--jobs", "1"], tmp_path).code == 0   # its own file: fine


def test_another_limit_is_refused_and_bad_options_are_one_line(tmp_path, reference):
    out = tmp_path / "g.jsonl"
    out.write_text("\n".join(reference[:2]) + "\n")
    runner = CliRunner()
    res = runner.invoke(cli, ["setups", "rank", "--south", SOUTH, "--north", NORTH,
                              "--nodes", "500", "-q", "--out", str(out)])
    assert res.exit_code == 2
    assert "made with other parameters (depth 2 a move" in res.output
    assert "or choose another --out" in res.output
    for args, words in ((["--nodes", "0"], "--nodes"),
                        (["--south", "23112"], "--south: '23112' is not a setup")):
        res = runner.invoke(cli, ["setups", "rank", *args, "--out", str(tmp_path / "x")])
        assert res.exit_code == 2 and words in res.output and "Traceback" not in res.output


def test_the_games_file_is_known_for_what_it_is(reference, tmp_path):
    p = tmp_path / "g.jsonl"
    p.write_text("\n".join(reference) + "\n")
    assert is_games_file(str(p))
    assert not is_games_file("data/setups/pbmserv-depth3.jsonl")
    params, games = read_selfplay_games(str(p))
    assert params is not None and params["limit"] == {"depth": 2}
    assert [g["game"] for g in games] == list(range(GAMES))


def test_canonical_runs_play_each_mirror_class_once(tmp_path):
    out = tmp_path / "c.jsonl"
    pairs = [("231123", "321123"), ("321132", "321123"), ("112233", "332211")]
    s = run_games(pairs, RULES, str(out), limit=Limit(depth=1), prove=0, canonical=True,
                  jobs=1)
    assert s.done == 2
    _, games = read_selfplay_games(str(out))
    assert {(g["south"], g["north"]) for g in games} == set(canonical_pairs(pairs))
    assert all(g["canonical"] is True for g in games)


# -- a killed Dask worker -------------------------------------------------------------------


def test_a_killed_dask_worker_loses_no_game(reference, tmp_path):
    pytest.importorskip("distributed")
    from tests.test_cluster import Cluster, killer_after_first

    cluster = Cluster(tmp_path)
    try:
        cluster.top_up(2)
        victim = cluster.alive()[0]
        kill_after_first = killer_after_first(victim, "game", [])
        out = tmp_path / "g.jsonl"
        s = run_games(select_pairs(SOUTH, NORTH), RULES, str(out), games=GAMES,
                      limit=Limit(depth=2), prove=1, scheduler=cluster.address,
                      watch=kill_after_first)
        assert victim.poll() is not None and len(cluster.alive()) == 1
        assert s.done == GAMES and not s.interrupted
        assert _lines(out) == reference
    finally:
        cluster.stop()


def test_several_limits_stop_a_move_at_the_first_reached(tmp_path):
    """``--nodes`` with ``--depth``, as ``match`` and ``analyse`` take them: the games
    file records both, and its report says so."""
    out = tmp_path / "two.jsonl"
    res = CliRunner().invoke(cli, ["setups", "rank", "--south", SOUTH, "--north", NORTH,
                                   "--games", "2", "--nodes", "300", "--depth", "2", "-q",
                                   "--out", str(out)])
    assert res.exit_code == 0, res.output
    params, games = read_selfplay_games(str(out))
    assert params is not None and params["limit"] == {"depth": 2, "nodes": 300}
    assert len(games) == 2


def test_games_with_a_network_name_it_and_are_its(tmp_path, reference):
    """rank --network plays both sides with the learned evaluation: its records name it
    (the evaluation digest), a game plays again the same with it, and the linear
    evaluation's run refuses the file."""
    import dataclasses

    from gyges.engine.identity import engine_identity
    from gyges.engine.network import Network

    net = dataclasses.replace(Network.zeros(4), b2=40)
    (tmp_path / "net.json").write_text(net.dumps())
    res = run([*RANK, "--jobs", "1", "--network", "net.json"], tmp_path)
    assert res.code == 0, res.err
    params, games = read_selfplay_games(str(tmp_path / "g.jsonl"))
    assert params is not None and params["engine"].weights == \
        engine_identity(network=net).weights != weights_digest()
    linear = [json.loads(line) for line in reference]
    assert [g["moves"] for g in games] != [g["moves"] for g in linear]
    g = games[3]
    from gyges.setups.selfplay.games import ScheduledGame
    again = play_task(ScheduledGame(g["game"], g["south"], g["north"], g["round"]),
                      rules=RULES, limit=params["limit"], prove=params["prove"],
                      max_plies=params["max_plies"], network=str(tmp_path / "net.json"))
    assert again["moves"] == g["moves"]
    res = run([*RANK, "--jobs", "1"], tmp_path)
    assert res.code == 2 and "made with other parameters" in res.err
