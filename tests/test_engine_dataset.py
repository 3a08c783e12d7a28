"""Self-play games for training (gyges.engine.dataset, `gyges engine-data`): each game is
the same whatever the workers and however the run is split, replays legally under its
rules, scores every searched move, and names the engine that played it."""

from __future__ import annotations

import dataclasses
import json

from click.testing import CliRunner

from gyges.engine.dataset import DATASET_RULES, DataSettings, dataset_game
from gyges.engine.identity import code_digest, weights_digest
from gyges.engine.refereed import PlayedGame, replay_moves
from gyges.engine.score import Score
from gyges.game.rules import PRESETS
from gyges_cli.main import cli

FAST = ["--nodes", "300", "--random-plies", "4", "--max-plies", "80"]


def _games(path) -> list[dict]:
    return sorted((json.loads(line) for line in path.read_text().splitlines()),
                  key=lambda r: r["game"])


def _without_command(records: list[dict]) -> list[dict]:
    """The records, their engine by its code and weights only (not the command or the
    commit that ran)."""
    for r in records:
        r["engine"] = {k: r["engine"][k] for k in ("code", "weights")}
    return records


def test_the_games_do_not_depend_on_the_workers_or_on_resuming(tmp_path):
    runner = CliRunner()
    one, two = tmp_path / "one.jsonl", tmp_path / "two.jsonl"
    res = runner.invoke(cli, ["engine-data", "--games", "6", *FAST, "--out", str(one), "-q"])
    assert res.exit_code == 0, res.output
    for games in ("2", "6"):       # the same file, resumed
        res = runner.invoke(cli, ["engine-data", "--games", games, *FAST, "--jobs", "2",
                                  "--out", str(two), "-q"])
        assert res.exit_code == 0, res.output
    assert "4 games played, 2 already in" in res.output
    assert _without_command(_games(one)) == _without_command(_games(two))
    # a later file of the same run goes on from a game number: the same games
    later = tmp_path / "later.jsonl"
    res = runner.invoke(cli, ["engine-data", "--first-game", "4", "--games", "6", *FAST,
                              "--out", str(later), "-q"])
    assert res.exit_code == 0, res.output
    assert [r["game"] for r in _games(later)] == [4, 5]
    assert _without_command(_games(later)) == _without_command(_games(one))[4:]
    res = runner.invoke(cli, ["engine-data", "--first-game", "6", "--games", "6", *FAST,
                              "--out", str(later), "-q"])
    assert res.exit_code == 2 and "first game of 0 up to 5" in res.output


def test_a_game_replays_under_its_rules_with_a_score_for_each_searched_move():
    settings = DataSettings(nodes=300, random_plies=4, max_plies=80)
    for number in range(4):
        r = dataset_game(number, settings)
        assert r["rules"] == DATASET_RULES[number % 2]
        assert r["engine"]["code"] == code_digest()
        assert r["engine"]["weights"] == weights_digest()
        game = PlayedGame.from_json({**r, "south": r["rules"], "north": r["rules"]})
        positions = list(replay_moves(game, PRESETS[r["rules"]]))
        assert len(positions) == len(r["moves"])           # every move legal
        assert r["scores"][:4] == [None] * 4                # the random first moves
        searched = [s for s in r["scores"][4:] if s is not None]
        assert len(searched) == len(r["moves"]) - 4
        assert all(isinstance(Score.from_int(s), Score) for s in searched)
        if r["result"] != "draw":
            assert r["reason"] == "landing" and r["moves"][-1][-1] in "NS"
            last_mover = positions[-1][0].turn          # the side that landed
            assert r["result"] == last_mover.title.lower()


def test_a_file_of_other_settings_or_another_engine_is_refused(tmp_path):
    runner = CliRunner()
    out = tmp_path / "d.jsonl"
    assert runner.invoke(cli, ["engine-data", "--games", "2", *FAST, "--out", str(out),
                               "-q"]).exit_code == 0
    res = runner.invoke(cli, ["engine-data", "--games", "3", "--nodes", "400",
                              "--random-plies", "4", "--max-plies", "80", "--out", str(out)])
    assert res.exit_code == 2 and "made with other parameters" in res.output
    assert "nodes 300" in res.output and "nodes 400" in res.output
    records = _games(out)
    for r in records:
        r["engine"]["weights"] = "0" * 16
    out.write_text("".join(json.dumps(r) + "\n" for r in records))
    res = runner.invoke(cli, ["engine-data", "--games", "3", *FAST, "--out", str(out)])
    assert res.exit_code == 2 and "weights 0000000000000000" in res.output


def test_games_of_a_network_name_it_and_record_its_scale(tmp_path):
    """engine-data --network plays with the learned evaluation: the lines name it (the
    weights' digest covers the network), record the scale its probability is printed
    on, and are another engine's than the linear evaluation's."""
    from gyges.engine.builtin import Engine, Limit, Options
    from gyges.engine.network import Network

    net = Network.zeros(4)
    net = dataclasses.replace(net, b2=5, calibration=0.7)   # a constant, +0.05 for the mover
    path = tmp_path / "net.json"
    path.write_text(net.dumps())
    out = tmp_path / "g.jsonl"
    res = CliRunner().invoke(cli, ["engine-data", "--games", "3", *FAST, "--network",
                                   str(path), "-q", "--out", str(out)])
    assert res.exit_code == 0, res.output
    games = _games(out)
    assert [g["calibration"] for g in games] == [0.7] * 3
    assert {g["engine"]["weights"] for g in games} == {weights_digest(network=net)}
    assert weights_digest(network=net) != weights_digest()
    assert games[0]["settings"]["network"] == str(path)
    # the scores are the network's: the first searched move, searched again by a fresh
    # engine with the network, scores the same
    from gyges.engine.calibration import recorded_moves
    record = games[0]
    first = next(m for m in recorded_moves(record)
                 if m.score is not None and not Score.from_int(m.score).is_proven)
    with Engine(PRESETS[record["rules"]], Options(prove=2, hash_bits=18, network=net)) as e:
        again = e.analyse(first.position, Limit(nodes=300), first.before)
    assert again.score.to_int() == first.score
    with Engine(PRESETS[record["rules"]], Options(prove=2, hash_bits=18)) as e:
        assert e.analyse(first.position, Limit(nodes=300), first.before).score != again.score
    # the linear evaluation's games do not record a scale or a network, and a run of it
    # refuses to extend the network's file
    plain = DataSettings(nodes=300, random_plies=4, max_plies=80, network="linear")
    linear = dataset_game(0, plain)
    assert "calibration" not in linear and linear["settings"]["network"] == "linear"
    res = CliRunner().invoke(cli, ["engine-data", "--games", "4", *FAST, "-q", "--out",
                                   str(out)])
    assert res.exit_code != 0 and "other parameters" in res.output
    bad = tmp_path / "bad.json"
    bad.write_text("[]")
    res = CliRunner().invoke(cli, ["engine-data", "--games", "1", *FAST, "--network", str(bad),
                                   "-q", "--out", str(tmp_path / "h.jsonl")])
    assert res.exit_code != 0 and str(bad) in res.output and "Traceback" not in res.output
