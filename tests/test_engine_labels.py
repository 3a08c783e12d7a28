"""Deeper labels of the training games (gyges.engine.labels, `gyges engine-labels`) and
the network trained on them: each score is a fresh search of the position at the given
nodes, the run resumes and refuses other settings, and the training target takes the
deeper score in place of the game's own."""

from __future__ import annotations

import json
import math
from pathlib import Path

import pytest
from click.testing import CliRunner

from gyges.engine.builtin import Engine, Limit, Options
from gyges.engine.calibration import read_dataset_games, recorded_moves
from gyges.engine.identity import code_digest
from gyges.engine.labels import LabelSettings, label_game, label_games, read_labels
from gyges.engine.network_training import network_positions
from gyges.engine.score import Score
from gyges.game.rules import PRESETS
from gyges.parallel import ResultsFileError
from gyges_cli.main import cli

SAMPLE = Path(__file__).parent / "data" / "engine-games-sample.jsonl"


def test_a_label_is_a_fresh_search_of_each_position_before_a_move():
    record = next(r for r in read_dataset_games(str(SAMPLE)) if r["result"] in ("south", "north"))
    line = label_game(record, LabelSettings(nodes=250, prove=1))
    moves = list(recorded_moves(record))
    assert line["game"] == record["game"] and len(line["deep"]) == len(moves)
    # independently: a new engine for every position, its own table
    for m, deep in zip(moves, line["deep"], strict=True):
        if m.move.is_win:
            assert deep is None
            continue
        fresh = Engine(PRESETS[record["rules"]], Options(prove=1, hash_bits=18))
        assert fresh.analyse(m.position, Limit(nodes=250), m.before).score.to_int() == deep


def test_a_run_labels_its_share_resumes_and_refuses_other_settings(tmp_path):
    records = list(read_dataset_games(str(SAMPLE)))
    out = str(tmp_path / "labels.jsonl")
    settings = LabelSettings(nodes=100, every=3, part=2)
    first = label_games(out, records[:9], settings, jobs=1)
    assert first.done == sum(1 for r in records[:9] if r["game"] % 3 == 2)
    again = label_games(out, records, settings, jobs=1)
    assert again.done == sum(1 for r in records if r["game"] % 3 == 2) - first.done
    labels = read_labels([out])
    assert sorted(labels.scores) == sorted(r["game"] for r in records if r["game"] % 3 == 2)
    summary = labels.summary()
    assert (summary["nodes"], summary["prove"], summary["games"]) == (100, 2, len(labels.scores))
    assert [e["code"] for e in summary["engines"]] == [code_digest()]
    with pytest.raises(ResultsFileError, match="other parameters"):
        label_games(out, records, LabelSettings(nodes=101, every=3, part=2), jobs=1)
    other = str(tmp_path / "other.jsonl")
    label_games(other, records[:3], LabelSettings(nodes=101), jobs=1)
    with pytest.raises(ValueError, match="101 nodes.*give the labels of one kind of search"):
        read_labels([out, other])


def test_a_network_labels_with_its_own_scores_and_names_itself(tmp_path):
    """--network FILE searches with the network and names it; a file of one evaluation
    is not extended by another; 'linear' is the linear evaluation's file."""
    from gyges.engine.identity import weights_digest
    from gyges.engine.network import Network
    from tests.test_engine_network import random_net

    records = list(read_dataset_games(str(SAMPLE)))[:4]
    path = tmp_path / "n.json"
    path.write_text(random_net(hidden=8, seed=3).dumps())
    net = Network.load(path)
    out = str(tmp_path / "net.jsonl")
    label_games(out, records, LabelSettings(nodes=200), jobs=1, network=str(path))
    lines = [json.loads(x) for x in open(out)]
    assert {x["engine"]["weights"] for x in lines} == {weights_digest(network=net)}
    record = next(r for r in records if r["game"] == lines[0]["game"])
    engine = Engine(PRESETS[record["rules"]], Options(prove=2, hash_bits=18, network=net))
    m = next(iter(recorded_moves(record)))
    assert engine.analyse(m.position, Limit(nodes=200), m.before).score.to_int() == \
        lines[0]["deep"][0] != label_game(record, LabelSettings(nodes=200),
                                          network="linear")["deep"][0]
    with pytest.raises(ResultsFileError, match="another engine|other parameters"):
        label_games(out, records, LabelSettings(nodes=200), jobs=1, network="linear")
    res = CliRunner().invoke(cli, ["engine-labels", str(SAMPLE), "--nodes", "200", "-q",
                                   "--network", str(tmp_path / "missing.json"),
                                   "--out", str(tmp_path / "x.jsonl")])
    assert res.exit_code != 0 and "missing.json" in res.output and "Traceback" not in res.output


def _restamped(src: str, dst: str, **engine: str) -> None:
    """``src``'s label lines as if another engine (``engine``'s digests) had made them."""
    with open(src) as f, open(dst, "w") as g:
        for line in f:
            record = json.loads(line)
            record["engine"].update(engine)
            g.write(json.dumps(record) + "\n")


def test_labels_of_one_evaluation_by_two_codes_are_read_together(tmp_path):
    """A labelling that spans a change to the code (one that plays no move differently)
    goes on in a new file: the two are read together, each engine recorded; labels of
    another evaluation (other weights) are refused."""
    records = list(read_dataset_games(str(SAMPLE)))[:6]
    out = str(tmp_path / "a.jsonl")
    label_games(out, records, LabelSettings(nodes=60, every=2, part=0), jobs=1)
    mine = str(tmp_path / "b.jsonl")
    label_games(mine, records, LabelSettings(nodes=60, every=2, part=1), jobs=1)
    older = str(tmp_path / "older.jsonl")
    _restamped(out, older, code="0123456789abcdef")
    labels = read_labels([older, mine])
    assert sorted(labels.scores) == sorted(r["game"] for r in records)
    assert [e.code for e in labels.engines] == ["0123456789abcdef", code_digest()]
    other = str(tmp_path / "other-weights.jsonl")
    _restamped(out, other, weights="fedcba9876543210")
    with pytest.raises(ValueError, match="weights fedcba9876543210.*one evaluation"):
        read_labels([mine, other])


def test_a_labelling_resumes_across_a_change_to_the_code_but_not_of_evaluation(tmp_path):
    """A file begun by other code of the same evaluation is extended (each line naming
    its engine); one begun with other weights is refused, naming the evaluation."""
    records = list(read_dataset_games(str(SAMPLE)))[:6]
    first = str(tmp_path / "first.jsonl")
    label_games(first, records[:3], LabelSettings(nodes=60), jobs=1)
    older = str(tmp_path / "older.jsonl")
    _restamped(first, older, code="0123456789abcdef")
    more = label_games(older, records, LabelSettings(nodes=60), jobs=1)
    assert more.done == 3
    labels = read_labels([older])
    assert sorted(labels.scores) == sorted(r["game"] for r in records)
    assert [e.code for e in labels.engines] == ["0123456789abcdef", code_digest()]
    other = str(tmp_path / "other.jsonl")
    _restamped(first, other, weights="fedcba9876543210")
    with pytest.raises(ResultsFileError, match="the evaluation fedcba9876543210"):
        label_games(other, records, LabelSettings(nodes=60), jobs=1)
    mixed = str(tmp_path / "mixed.jsonl")
    with open(mixed, "w") as f:
        f.write(open(first).read() + open(other).read().splitlines()[0] + "\n")
    with pytest.raises(ResultsFileError, match="one file holds the records of one run"):
        read_labels([mixed])


def test_the_target_takes_the_deeper_score_where_there_is_one():
    records = list(read_dataset_games(str(SAMPLE)))[:6]
    labelled = records[1]
    deep = [None if s is None else 0 for s in label_game(labelled,
                                                         LabelSettings(nodes=50))["deep"]]
    plain = network_positions(records, result_weight=0.25)
    data = network_positions(records, result_weight=0.25, labels={labelled["game"]: deep})
    rows = data.game == labelled["game"]
    assert rows.any() and data.labelled == int(rows.sum())
    # a score of 0 is a win probability of one half
    assert all(math.isclose(t, 0.25 * r + 0.75 * 0.5, abs_tol=1e-6)
               for t, r in zip(data.target[rows], data.result[rows], strict=True))
    assert (data.target[~rows] == plain.target[~rows]).all()
    assert (data.linear == plain.linear).all() and plain.labelled == 0
    assert Score.from_int(0).win_probability == 0.5
    # the result alone: the labels change nothing
    assert network_positions(records, labels={labelled["game"]: deep}).labelled == 0


def test_the_commands_label_and_train_on_the_labels(tmp_path):
    labels = tmp_path / "labels.jsonl"
    res = CliRunner().invoke(cli, ["engine-labels", str(SAMPLE), "--nodes", "60", "--every",
                                   "4", "--part", "1", "-q", "--out", str(labels)])
    assert res.exit_code == 0, res.output
    res = CliRunner().invoke(cli, ["engine-network", str(SAMPLE), "--labels", str(labels),
                                   "--result-weight", "0.5", "--hidden", "3", "--epochs", "1",
                                   "-q", "--out", str(tmp_path / "net.json")])
    assert res.exit_code == 0, res.output
    assert "(a deeper search's for " in res.output
    fit = json.loads((tmp_path / "net.json").read_text())["fit"]
    assert fit["labels"]["nodes"] == 60 and fit["labelled_positions"] > 0
    # the games the labels cover, with the deeper scores and with the games' own
    own = CliRunner().invoke(cli, ["engine-network", str(SAMPLE), "--only-games-of",
                                   str(labels), "--result-weight", "0.5", "--hidden", "3",
                                   "--epochs", "1", "-q"])
    covered = len(read_labels([str(labels)]).scores)
    positions = network_positions([r for r in read_dataset_games(str(SAMPLE))
                                   if r["game"] % 4 == 1])
    assert own.exit_code == 0 and covered == sum(1 for r in read_dataset_games(str(SAMPLE))
                                                 if r["game"] % 4 == 1)
    assert f"{len(positions.target) - (positions.game % 5 == 0).sum():,} positions" in own.output
    assert "(a deeper search's" not in own.output
    # two label files: the games either covers
    other = tmp_path / "labels-3.jsonl"
    res = CliRunner().invoke(cli, ["engine-labels", str(SAMPLE), "--nodes", "60", "--every",
                                   "4", "--part", "3", "-q", "--out", str(other)])
    assert res.exit_code == 0, res.output
    both = CliRunner().invoke(cli, ["engine-network", str(SAMPLE), "--only-games-of",
                                    str(labels), "--only-games-of", str(other), "--hidden", "3",
                                    "--epochs", "1", "-q", "--out", str(tmp_path / "both.json")])
    positions = network_positions([r for r in read_dataset_games(str(SAMPLE))
                                   if r["game"] % 4 in (1, 3)])
    assert both.exit_code == 0, both.output
    assert f"{len(positions.target) - (positions.game % 5 == 0).sum():,} positions" in both.output
    fit = json.loads((tmp_path / "both.json").read_text())["fit"]
    assert fit["only_games_of"] == [str(labels), str(other)]
    bad = CliRunner().invoke(cli, ["engine-labels", str(SAMPLE), "--every", "2", "--part", "2",
                                   "--out", str(tmp_path / "x.jsonl")])
    assert bad.exit_code == 2 and "give a part from 0 to 1" in bad.output
    missing = CliRunner().invoke(cli, ["engine-network", str(SAMPLE), "--labels",
                                       str(tmp_path / "none.jsonl")])
    assert missing.exit_code == 2 and "no label line" in missing.output
