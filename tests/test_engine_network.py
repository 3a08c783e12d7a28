"""The learned evaluation's network (gyges.engine.network) and its training
(gyges.engine.network_training, `gyges engine-network`): the integer network against its
float original, the incremental accumulator against a fresh sum along random games, the
file's round trip, and training that is deterministic on a tiny seeded set."""

from __future__ import annotations

import dataclasses
import json
import math
import random
from pathlib import Path

import pytest
from click.testing import CliRunner

from gyges.engine.calibration import read_dataset_games
from gyges.engine.network import (
    ATTACK_INPUTS,
    INPUTS,
    QA,
    Accumulator,
    Network,
    NetworkError,
    attack_inputs,
    board_inputs,
)
from gyges.engine.network_training import (
    MIRROR,
    NetSettings,
    network_positions,
    train_network,
)
from gyges.engine.refereed import PlayedGame, replay_moves
from gyges.game.moves import apply_move, legal_moves
from gyges.game.position import ALL_SETUPS, Position
from gyges.game.rules import PRESETS
from gyges_cli.main import cli

SAMPLE = Path(__file__).parent / "data" / "engine-games-sample.jsonl"
RULES = PRESETS["pbmserv"]


def random_net(hidden: int = 8, seed: int = 1, features: int = 0,
               attack: bool = False) -> Network:
    rng = random.Random(seed)
    return Network(tuple(tuple(rng.randint(-90, 90) for _ in range(hidden))
                         for _ in range(INPUTS + ATTACK_INPUTS * attack)),
                   tuple(rng.randint(-60, 120) for _ in range(hidden)),
                   tuple(rng.randint(-200, 200) for _ in range(hidden)), rng.randint(-50, 50),
                   tuple(rng.uniform(-20, 20) for _ in range(features)))


def random_games(n: int, plies: int, seed: int = 2, rules=RULES):
    """Random legal games from random setups: each a list of positions."""
    rng = random.Random(seed)
    for _ in range(n):
        pos = Position.setup(rng.choice(ALL_SETUPS), rng.choice(ALL_SETUPS))
        line = [pos]
        for _ in range(plies):
            moves = [m for m in legal_moves(pos, rules, line[:-1]) if not m.is_win]
            if not moves:
                break
            pos = apply_move(pos, rng.choice(moves))
            line.append(pos)
        yield line


def test_the_integer_network_is_its_float_original_rounded():
    net = random_net()
    for line in random_games(5, 20):
        for pos in line:
            assert abs(net.evaluate(pos) - net.float_value(pos)) <= 0.5 + 1e-9


def test_the_side_to_move_sees_the_same_board_in_a_flipped_position():
    for line in random_games(3, 15):
        for pos in line:
            assert sorted(board_inputs(pos)) == sorted(board_inputs(pos.flipped()))
            assert len(set(board_inputs(pos))) == sum(1 for x in pos.board if x)


def test_the_accumulator_follows_a_game_as_a_fresh_sum_would():
    net = random_net(hidden=6, seed=3)
    for line in random_games(6, 30, seed=4):
        acc = Accumulator(net, line[0])
        for before, after in zip(line, line[1:], strict=False):
            acc.update(before, after)
            for side in (after.turn, after.turn.other):
                fresh = net.accumulate(board_inputs(after.with_turn(side)))
                assert acc.sums[side] == fresh
                assert acc.value(side) == net.evaluate(after.with_turn(side))


def test_the_file_round_trips_and_a_bad_one_is_named(tmp_path):
    net = random_net(features=3)
    path = tmp_path / "n.json"
    path.write_text(net.dumps())
    assert Network.load(path) == net
    data = json.loads(net.dumps())
    data["b1"] = data["b1"][:-1]
    path.write_text(json.dumps(data))
    with pytest.raises(NetworkError, match=f"{path}: the layers' sizes"):
        Network.load(path)
    path.write_text("{")
    with pytest.raises(NetworkError, match=f"{path}:1: not JSON"):
        Network.load(path)


def test_the_training_positions_are_those_the_horizon_evaluates():
    records = list(read_dataset_games(str(SAMPLE)))
    data = network_positions(records)
    # independently: every position before a move (not a landing) where the search's
    # evaluation reads features
    from gyges.engine._engine import Search
    from gyges.engine.weights import Weights
    count = 0
    for r in records:
        search = Search(PRESETS[r["rules"]].flags(), list(Weights.load().values), 10)
        game = PlayedGame.from_json({**r, "south": r["rules"], "north": r["rules"]})
        replayed = replay_moves(game, PRESETS[r["rules"]])
        last_lands = len(replayed) == len(r["moves"]) and r["reason"] == "landing"
        for k, (pos, history) in enumerate(replayed):
            if last_lands and k == len(replayed) - 1:
                break
            _, f = search.evaluate(pos.key, pos.turn.index, [h.key for h in history])
            count += f is not None
    assert data.inputs.shape == (count, INPUTS)
    assert set(data.target.tolist()) <= {0.0, 0.5, 1.0}
    assert (data.target == data.result).all()            # the result alone by default
    mixed = network_positions(records, result_weight=0.5)
    assert (mixed.result == data.result).all() and (mixed.target != data.result).any()


def _held_out_loss(net, data, held, targets) -> float:
    """The cross-entropy of the network's win probability against ``targets`` on the
    positions ``held``, position by position with the slow reference, to 4 places."""
    loss = 0.0
    for k in held:
        active = [i for i in range(INPUTS) if data.inputs[k][i]]
        value = net.output(net.accumulate(active), data.features[k].tolist())
        p = min(max(1 / (1 + math.exp(-value / 100)), 1e-6), 1 - 1e-6)
        y = float(targets[k])
        loss -= y * math.log(p) + (1 - y) * math.log(1 - p)
    return round(loss / len(held), 4)


def test_training_is_deterministic_and_its_fast_scores_are_the_reference_ones():
    records = list(read_dataset_games(str(SAMPLE)))[:20]
    data = network_positions(records)
    settings = NetSettings(hidden=4, epochs=2, held_out_every=4)
    a, report = train_network(data, settings)
    b, _ = train_network(data, settings)
    assert a == b and a.fit == b.fit
    assert "the network (integer)" in report
    # the held-out score, recomputed position by position with the slow reference
    held = [k for k in range(len(data.game)) if data.game[k] % 4 == 0]
    assert held and _held_out_loss(a, data, held, data.result) == \
        a.fit["held_out"]["network"]["log_loss"]
    assert max(abs(x) for r in a.w1 for x in r) < 40 * QA
    # against a mixed target: the cross-entropy with the target, not the result
    mixed = network_positions(records, result_weight=0.5)
    c, report = train_network(mixed, settings)
    assert _held_out_loss(c, mixed, held, mixed.target) == c.fit["held_out_target"]["network"]
    assert c.fit["held_out_target"]["network"] != c.fit["held_out"]["network"]["log_loss"]
    assert f"the network {c.fit['held_out_target']['network']:.4f}" in report


def test_a_falling_step_is_recorded_and_each_epoch_is_measured_on_the_held_out_games():
    records = list(read_dataset_games(str(SAMPLE)))[:20]
    data = network_positions(records, result_weight=0.5)
    held = [k for k in range(len(data.game)) if data.game[k] % 4 == 0]
    constant, _ = train_network(data, NetSettings(hidden=4, epochs=3, held_out_every=4))
    falling, report = train_network(data, NetSettings(hidden=4, epochs=3, held_out_every=4,
                                                      final_rate=0.0001))
    assert "final_rate" not in constant.fit["settings"]
    assert falling.fit["settings"]["final_rate"] == 0.0001
    assert falling.w1 != constant.w1        # the same seed and order, another step
    by_epoch = falling.fit["held_out_target_by_epoch"]
    assert len(by_epoch) == 3 and " ".join(f"{x:.4f}" for x in by_epoch) in report
    # the last epoch's float network is the integer network but for its rounding
    assert abs(by_epoch[-1] - _held_out_loss(falling, data, held, data.target)) < 0.01


def test_the_command_writes_a_network_that_loads(tmp_path):
    out = tmp_path / "net.json"
    res = CliRunner().invoke(cli, ["engine-network", str(SAMPLE), "--hidden", "4",
                                   "--epochs", "1", "--out", str(out), "-q"])
    assert res.exit_code == 0, res.output
    net = Network.load(out)
    assert net.hidden == 4 and net.fit["settings"]["hidden"] == 4
    assert f"{net.fit['held_out']['network']['log_loss']:.4f}" in res.output


class _Interrupted(Exception):
    pass


def _interrupt_after(epochs: int):
    """A progress callback that interrupts the training once ``epochs`` are done."""
    def progress(line: str) -> None:
        if line.startswith(f"epoch {epochs} of"):
            raise _Interrupted
    return progress


def test_an_interrupted_training_resumes_from_its_checkpoint_to_the_same_network(tmp_path):
    records = list(read_dataset_games(str(SAMPLE)))[:20]
    data = network_positions(records, result_weight=0.5)
    settings = NetSettings(hidden=4, epochs=3, batch=32, held_out_every=4, final_rate=0.0005)
    whole, report = train_network(data, settings)
    point = tmp_path / "train.npz"
    with pytest.raises(_Interrupted):
        train_network(data, settings, progress=_interrupt_after(1), checkpoint=point)
    assert point.exists()
    lines: list[str] = []
    resumed, resumed_report = train_network(data, settings, progress=lines.append,
                                            checkpoint=point)
    assert lines[0] == f"resuming after epoch 1 of 3 ({point})"
    assert [line.split(":")[0] for line in lines[1:]] == ["epoch 2 of 3", "epoch 3 of 3"]
    assert resumed == whole and resumed.fit == whole.fit and resumed_report == report
    # a checkpoint of other settings or other positions is refused, by name
    with pytest.raises(ValueError, match=f"{point}: a checkpoint of other settings"):
        train_network(data, dataclasses.replace(settings, hidden=5), checkpoint=point)
    other = network_positions(records[:-1], result_weight=0.5)
    with pytest.raises(ValueError, match=f"{point}: a checkpoint of other positions"):
        train_network(other, settings, checkpoint=point)
    point.write_text("not a checkpoint")
    with pytest.raises(ValueError, match=f"{point}: not a training checkpoint"):
        train_network(data, settings, checkpoint=point)


def test_the_command_resumes_from_a_checkpoint_and_removes_it_once_written(tmp_path):
    args = ["engine-network", str(SAMPLE), "--hidden", "3", "--epochs", "2"]
    point = tmp_path / "state.npz"
    fresh = CliRunner().invoke(cli, [*args, "-q", "--out", str(tmp_path / "fresh.json")])
    assert fresh.exit_code == 0, fresh.output
    assert not (tmp_path / "fresh.json.checkpoint.npz").exists()
    # without --out the checkpoint stays: a run with --out then resumes after its 2 epochs
    kept = CliRunner().invoke(cli, [*args, "-q", "--checkpoint", str(point)])
    assert kept.exit_code == 0 and point.exists(), kept.output
    out = tmp_path / "resumed.json"
    resumed = CliRunner().invoke(cli, [*args, "--checkpoint", str(point), "--out", str(out)])
    assert resumed.exit_code == 0, resumed.output
    assert f"resuming after epoch 2 of 2 ({point})" in resumed.stderr
    assert "epoch 1 of 2" not in resumed.stderr and not point.exists()
    assert Network.load(out) == Network.load(tmp_path / "fresh.json")
    assert resumed.stdout == fresh.stdout == kept.stdout
    # another setting against a checkpoint: an error naming it, no traceback
    CliRunner().invoke(cli, [*args, "-q", "--checkpoint", str(point)])
    other = CliRunner().invoke(cli, [*args[:-1], "3", "-q", "--checkpoint", str(point)])
    assert other.exit_code == 2 and "a checkpoint of other settings" in other.output
    assert "Traceback" not in other.output


def test_the_parts_of_one_run_train_as_its_whole_and_a_game_twice_is_refused(tmp_path):
    lines = [line for line in SAMPLE.read_text().splitlines() if line.strip()]
    half = len(lines) // 2
    first, second = tmp_path / "a.jsonl", tmp_path / "b.jsonl"
    first.write_text("\n".join(lines[:half]) + "\n")
    second.write_text("\n".join(lines[half:]) + "\n")
    args = ["--hidden", "3", "--epochs", "1", "-q"]
    whole = CliRunner().invoke(cli, ["engine-network", str(SAMPLE), *args,
                                     "--out", str(tmp_path / "whole.json")])
    parts = CliRunner().invoke(cli, ["engine-network", str(first), str(second), *args,
                                     "--out", str(tmp_path / "parts.json")])
    assert whole.exit_code == 0 and parts.exit_code == 0, whole.output + parts.output
    assert parts.output == whole.output
    assert Network.load(tmp_path / "parts.json") == Network.load(tmp_path / "whole.json")
    twice = CliRunner().invoke(cli, ["engine-network", str(first), str(first), *args])
    assert twice.exit_code == 2
    game = json.loads(lines[0])["game"]
    assert f"{first}: game {game} again (it is also in {first})" in twice.output


def compiled_evaluations(net: Network, seed: int):
    """The compiled search's evaluation with ``net`` along random games: ``(position,
    its history, value, features)`` for each position the horizon evaluates."""
    from gyges.engine._engine import Search
    from gyges.engine.weights import Weights
    layers = (net.w1, net.b1, net.w2, net.b2, net.features)
    search = Search(RULES.flags(), list(Weights.load().values), 12, 1, layers)
    for line in random_games(8, 25, seed=seed):
        for k, pos in enumerate(line):
            value, features = search.evaluate(pos.key, pos.turn.index,
                                              [p.key for p in line[:k]])
            if features is not None:
                yield pos, line[:k], value, features


def test_the_compiled_search_evaluates_the_network_as_the_reference_does():
    from gyges.engine._engine import Search
    from gyges.engine.weights import Weights
    net = random_net(hidden=12, seed=7, features=30)
    linear = Search(RULES.flags(), list(Weights.load().values), 12, 1)
    checked = differs = 0
    for pos, history, value, features in compiled_evaluations(net, seed=8):
        checked += 1
        assert value == max(-29999, min(29999, net.evaluate(pos, features)))
        differs += value != linear.evaluate(pos.key, pos.turn.index,
                                            [p.key for p in history])[0]
    assert checked > 100 and differs > checked // 2


@pytest.mark.parametrize("preset", ["pbmserv", "helios", "bga"])
def test_the_compiled_attack_maps_are_those_of_the_legal_move_lists(preset):
    """The compiled evaluation's attack maps (from its mobility counts, which list only
    part of the moves) equal those read off each side's full legal move list."""
    from gyges.engine._engine import Search
    from gyges.engine.network_training import _oriented_maps
    from gyges.engine.weights import Weights
    rules = PRESETS[preset]
    search = Search(rules.flags(), list(Weights.load().values), 12)
    checked = blocked = 0
    for line in random_games(10, 40, seed=11, rules=rules):
        for k, pos in enumerate(line):
            history = [p.key for p in line[:k]]
            maps = search.attack_maps(pos.key, pos.turn.index, history)
            wanted = attack_inputs(pos, rules, line[:k])
            assert _oriented_maps(maps, pos.turn.index) == wanted, (preset, str(pos))
            checked += 1
            blocked += not (maps[0] or maps[1]) or not (maps[2] or maps[3])
    assert checked > 200 and all(i >= INPUTS for i in wanted)


def test_the_attack_maps_of_a_mirrored_position_are_mirrored():
    """The training's mirror image of the inputs is the mirrored board's: always for the
    board's inputs; for the attack maps but where moves of the same result are one move
    (the list keeps one of them, not always the mirror image of the other's: 24 of 620
    positions of these games)."""
    mirror = {i: MIRROR[i] for i in range(INPUTS + ATTACK_INPUTS)}
    assert all(mirror[mirror[i]] == i for i in mirror) and \
        sorted(mirror.values()) == list(range(INPUTS + ATTACK_INPUTS))
    checked = same = 0
    for line in random_games(20, 30, seed=12):
        for pos in line:
            mirrored = Position.from_string("/".join(
                row[::-1] for row in str(pos).split(" ")[0].split("/")) + " "
                + str(pos).split(" ")[1])
            assert sorted(mirror[i] for i in board_inputs(pos)) == \
                sorted(board_inputs(mirrored))
            checked += 1
            same += sorted(mirror[i] for i in attack_inputs(pos, RULES)) == \
                attack_inputs(mirrored, RULES)
    assert checked > 500 and same >= 0.9 * checked


def test_the_compiled_search_evaluates_a_network_of_the_attack_maps_as_the_reference():
    net = random_net(hidden=16, seed=13, features=30, attack=True)
    board_only = Network(net.w1[:INPUTS], net.b1, net.w2, net.b2, net.features)
    checked = differs = 0
    for pos, history, value, features in compiled_evaluations(net, seed=14):
        checked += 1
        attack = attack_inputs(pos, RULES, history)
        assert value == max(-29999, min(29999, net.evaluate(pos, features, attack)))
        # (two roundings: the network's part and the features')
        assert abs(net.evaluate(pos, features, attack)
                   - net.float_value(pos, features, attack)) <= 1 + 1e-6
        differs += value != board_only.evaluate(pos, features)
    assert checked > 100 and differs > checked // 2
    with pytest.raises(ValueError, match="attack_inputs"):
        net.evaluate(pos)


def test_the_accumulator_adds_the_attack_maps_to_the_board():
    net = random_net(hidden=6, seed=15, attack=True)
    for line in random_games(3, 20, seed=16):
        acc = Accumulator(net, line[0])
        for before, after in zip(line, line[1:], strict=False):
            acc.update(before, after)
            attack = attack_inputs(after, RULES)
            assert acc.value(after.turn, (), attack) == net.evaluate(after, (), attack)


def test_a_network_of_the_attack_maps_round_trips_and_trains_deterministically(tmp_path):
    net = random_net(hidden=5, seed=17, features=3, attack=True)
    path = tmp_path / "n.json"
    path.write_text(net.dumps())
    assert Network.load(path) == net and Network.load(path).attack
    assert json.loads(net.dumps())["inputs"] == INPUTS + ATTACK_INPUTS
    path.write_text(json.dumps({**net.to_json(), "inputs": 200}))
    with pytest.raises(NetworkError, match=f"{path}: a network of format 1, 200 inputs"):
        Network.load(path)
    records = list(read_dataset_games(str(SAMPLE)))[:20]
    data = network_positions(records, attack=True)
    board = network_positions(records)
    assert data.inputs.shape == (board.inputs.shape[0], INPUTS + ATTACK_INPUTS)
    assert (data.inputs[:, :INPUTS] == board.inputs).all() and data.inputs[:, INPUTS:].any()
    settings = NetSettings(hidden=4, epochs=2, held_out_every=4, attack=True)
    a, report = train_network(data, settings)
    b, _ = train_network(data, settings)
    assert a == b and a.attack and a.fit["settings"]["attack"] is True
    assert "with the attack maps" in report
    assert "attack" not in train_network(board, NetSettings(hidden=4, epochs=1,
                                                            held_out_every=4))[0].fit["settings"]
    with pytest.raises(ValueError, match="no attack maps"):
        train_network(data, NetSettings(hidden=4, epochs=1, held_out_every=4))
    res = CliRunner().invoke(cli, ["engine-network", str(SAMPLE), "--hidden", "3", "--epochs",
                                   "1", "--attack", "-q", "--out", str(tmp_path / "a.json")])
    assert res.exit_code == 0, res.output
    assert Network.load(tmp_path / "a.json").attack


def test_a_builtin_engine_takes_a_network_file(tmp_path):
    from gyges.engine.players import EngineError, EngineSpec
    path = tmp_path / "n.json"
    path.write_text(random_net(hidden=4).dumps())
    spec = EngineSpec.parse(f"builtin:network={path},nodes=200")
    assert spec.engine_options.network == Network.load(path)
    path.write_text("[]")
    with pytest.raises(EngineError, match=str(path)):
        EngineSpec.parse(f"builtin:network={path}")


def test_the_file_keeps_the_calibration_and_a_bad_one_is_named(tmp_path):
    net = dataclasses.replace(random_net(hidden=4), calibration=0.8)
    path = tmp_path / "n.json"
    path.write_text(net.dumps())
    assert Network.load(path).calibration == 0.8
    assert Network.load(path).printed_scale == 0.8
    path.write_text(random_net(hidden=4).dumps())
    assert Network.load(path).calibration is None and Network.load(path).printed_scale == 1.0
    path.write_text(json.dumps({**net.to_json(), "calibration": -1}))
    with pytest.raises(NetworkError, match=f"{path}: calibration is a positive number"):
        Network.load(path)


def test_an_analysis_prints_its_evaluations_probability():
    """The win probability of an analysis is on the scale of the evaluation that
    searched: the network's measured one, or the linear evaluation's."""
    from gyges.engine.builtin import Engine, Limit, Options
    from gyges.engine.score import CALIBRATION, Eval

    pos = Position.setup("123321", "213312")
    net = dataclasses.replace(random_net(hidden=8, seed=3), calibration=0.5)
    for options, scale in ((Options(prove=0, hash_bits=14, network=None), CALIBRATION),
                           (Options(prove=0, hash_bits=14, network=net), 0.5)):
        with Engine(RULES, options) as engine:
            a = engine.analyse(pos, Limit(depth=2))
        assert isinstance(a.score, Eval) and a.score.value != 0
        assert a.calibration == scale == options.calibration
        assert a.win_probability == pytest.approx(1 / (1 + math.exp(-scale * a.score.value
                                                                    / 100)))
        assert a.to_json()["win_probability"] == round(a.win_probability, 4)


def test_configure_with_another_network_searches_with_it():
    from gyges.engine.builtin import Engine, Limit, Options

    pos = Position.setup("123321", "213312")
    a, b = random_net(hidden=8, seed=3), random_net(hidden=8, seed=4)
    with Engine(RULES, Options(prove=0, hash_bits=14, network=b)) as fresh:
        wanted = fresh.analyse(pos, Limit(nodes=3000))
    with Engine(RULES, Options(prove=0, hash_bits=14, network=a)) as engine:
        first = engine.analyse(pos, Limit(nodes=3000))
        engine.configure(Options(prove=0, hash_bits=14, network=b))
        again = engine.analyse(pos, Limit(nodes=3000))
    assert (again.score, again.pv) == (wanted.score, wanted.pv) != (first.score, first.pv)


def test_analyse_and_ugi_take_a_network_file(tmp_path):
    path = tmp_path / "n.json"
    path.write_text(dataclasses.replace(random_net(hidden=8, seed=3), calibration=0.5).dumps())
    pos = "123321/....../....../....../....../213312 S"
    res = CliRunner().invoke(cli, ["analyse", pos, "--depth", "2", "--prove", "0",
                                   "--network", str(path), "--json"])
    assert res.exit_code == 0, res.output
    out = json.loads(res.stdout)
    value = out["score"]["eval"]
    assert out["win_probability"] == round(1 / (1 + math.exp(-0.5 * value / 100)), 4)
    linear = json.loads(CliRunner().invoke(cli, ["analyse", pos, "--depth", "2", "--prove",
                                                 "0", "--json"]).stdout)
    assert linear["score"] != out["score"]
    path.write_text("{}")
    for command in (["analyse", pos, "--depth", "1"], ["ugi"]):
        res = CliRunner().invoke(cli, [*command, "--network", str(path)], input="quit\n")
        assert res.exit_code != 0 and f"{path}: not a network file" in res.output
        assert "Traceback" not in res.output


def test_the_compiled_search_takes_a_wide_network():
    """Up to 1,024 hidden units (engine-network --hidden), evaluated as the reference
    does; more are refused."""
    from gyges.engine._engine import Search
    from gyges.engine.weights import Weights
    net = random_net(hidden=1024, seed=9, features=30)
    search = Search(RULES.flags(), list(Weights.load().values), 12, 1,
                    (net.w1, net.b1, net.w2, net.b2, net.features))
    checked = 0
    for line in random_games(2, 12, seed=10):
        for k, pos in enumerate(line):
            value, features = search.evaluate(pos.key, pos.turn.index, [p.key for p in line[:k]])
            if features is not None:
                checked += 1
                assert value == max(-29999, min(29999, net.evaluate(pos, features)))
    assert checked > 5
    wide = random_net(hidden=1025, seed=9)
    with pytest.raises(ValueError, match="1..1024 hidden units"):
        Search(RULES.flags(), list(Weights.load().values), 12, 1,
               (wide.w1, wide.b1, wide.w2, wide.b2, wide.features))


def test_a_shipped_network_is_the_default_and_linear_stays_selectable(tmp_path, monkeypatch):
    """While SHIPPED_NETWORK names a file, an engine given no evaluation searches with
    that network and records its digest; 'linear' (and weights given alone) select the
    linear evaluation; the puzzles' ratings and games stay on the linear evaluation."""
    import gyges.engine.network as network_module
    from gyges.engine.builtin import Options
    from gyges.engine.identity import engine_identity, weights_digest
    from gyges.engine.network import LINEAR, default_network, evaluation_network
    from gyges.engine.players import EngineSpec

    linear_digest = weights_digest(network=None)
    net = dataclasses.replace(random_net(hidden=8, seed=3), calibration=0.5)
    path = tmp_path / "shipped.json"
    path.write_text(net.dumps())
    monkeypatch.setattr(network_module, "SHIPPED_NETWORK", str(path))
    assert default_network() == net == Options().network == evaluation_network(None)
    assert Options().calibration == 0.5
    assert evaluation_network(LINEAR) is None and Options(network=None).network is None
    assert weights_digest() == weights_digest(network=net) != linear_digest
    assert engine_identity().weights == weights_digest(network=net)
    assert engine_identity(network=None).weights == linear_digest == weights_digest(network=None)
    assert EngineSpec.parse("builtin").engine_options.network == net
    assert EngineSpec.parse("builtin:network=linear").engine_options.network is None
    weights = Path(network_module.__file__).with_name("weights.json")
    assert EngineSpec.parse(f"builtin:weights={weights}").engine_options.network is None
    pos = "123321/....../....../....../....../213312 S"
    runs = {}
    for name, extra in (("default", []), ("linear", ["--network", "linear"]),
                        ("file", ["--network", str(path)])):
        out = json.loads(CliRunner().invoke(cli, ["analyse", pos, "--depth", "2", "--prove",
                                                  "0", "--json", *extra]).stdout)
        runs[name] = (out["score"], out["pv"], out["win_probability"])
    assert runs["default"] == runs["file"] != runs["linear"]
    # the puzzles' ratings and games puzzles keep the linear evaluation
    from gyges.puzzles import rating
    from gyges.puzzles.generate import games as games_puzzles
    ladder = rating._Ladder(RULES, 2, ())
    try:
        assert ladder.engine.options.network is None
    finally:
        ladder.close()
    seen = []
    monkeypatch.setattr(games_puzzles, "Engine", lambda rules, options: seen.append(options))
    games_puzzles.engine_chooser(RULES)
    assert seen and seen[0].network is None
