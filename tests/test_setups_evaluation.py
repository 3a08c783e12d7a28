"""``setups evaluate`` (gyges.setups.evaluation): each pair's start position searched at a
fixed budget, the file resumable and versioned, the table's averages and best replies
checked against a slow reference of their own."""

from __future__ import annotations

import json
import random
import statistics
from pathlib import Path

import pytest
from click.testing import CliRunner

from gyges.engine.identity import engine_identity
from gyges.game.position import Position, mirror_setup
from gyges.game.rules import PRESETS
from gyges.parallel import ParametersError
from gyges.setups.evaluation.summary import EvaluationTable, evaluation_report
from gyges.setups.evaluation.table import (
    is_evaluation_file,
    read_evaluations,
    run_evaluations,
)
from gyges.setups.pairs import all_pairs, canonical_pair, canonical_pairs
from gyges_cli.main import cli

RULES = PRESETS["pbmserv"]
NODES = 1500
PAIRS = [("231123", "321123"), ("321132", "321123"), ("112233", "332211"),
         ("123321", "231132")]


def _records(path: Path) -> list[dict]:
    out = []
    for line in path.read_text().splitlines():
        r = json.loads(line)
        r["engine"].pop("command", None)    # recorded for people, as the commit is
        r["engine"].pop("commit", None)     # (which moves when a commit lands meanwhile)
        out.append(r)
    return sorted(out, key=lambda r: (r["south"], r["north"]))


@pytest.fixture(scope="module")
def reference(tmp_path_factory) -> list[dict]:
    out = tmp_path_factory.mktemp("evaluations") / "e.jsonl"
    summary = run_evaluations(PAIRS, RULES, str(out), nodes=NODES, jobs=1)
    assert summary.complete
    return _records(out)


def test_one_record_a_canonical_pair_searched_as_analyse_would(reference):
    assert [(r["south"], r["north"]) for r in reference] == canonical_pairs(PAIRS)
    assert len(reference) == 3              # 321132 321123 is the mirror of 231123 ...
    for r in reference:
        assert r["nodes"] == NODES and r["searched"] >= 1 and r["depth"] >= 1
        assert r["engine"]["code"] == engine_identity().code
        # independently: the engine's own analysis of the start position
        from gyges.engine import Engine, Limit, Options
        a = Engine(RULES, Options(hash_bits=22)).analyse(
            Position.setup(r["south"], r["north"]), Limit(nodes=NODES))
        assert r["score"] == a.score.to_json() and r["best"] == str(a.move)
        assert r["south_win"] == round(a.win_probability, 4)


def test_two_jobs_and_a_rerun_give_the_same_file(reference, tmp_path):
    out = tmp_path / "e.jsonl"
    run_evaluations(PAIRS[:2], RULES, str(out), nodes=NODES, jobs=2)
    summary = run_evaluations(PAIRS, RULES, str(out), nodes=NODES, jobs=2)
    assert summary.complete
    assert _records(out) == reference


def test_a_dask_cluster_gives_the_same_file(reference, tmp_path):
    pytest.importorskip("distributed")
    from test_cluster import Cluster

    cluster = Cluster(tmp_path)
    try:
        cluster.top_up(1)
        out = tmp_path / "e.jsonl"
        run_evaluations(PAIRS, RULES, str(out), nodes=NODES, scheduler=cluster.address)
        assert _records(out) == reference
    finally:
        cluster.stop()


def test_another_budget_or_another_engine_is_refused(reference, tmp_path):
    out = tmp_path / "e.jsonl"
    out.write_text("".join(json.dumps(r) + "\n" for r in reference))
    with pytest.raises(ParametersError) as e:
        run_evaluations(PAIRS, RULES, str(out), nodes=NODES + 1, jobs=1)
    assert f"{NODES:,} nodes a pair" in str(e.value) and f"{NODES + 1:,}" in str(e.value)
    other = [{**r, "engine": {**r["engine"], "code": "0123456789abcdef"}} for r in reference]
    out.write_text("".join(json.dumps(r) + "\n" for r in other))
    with pytest.raises(ParametersError, match="engine 0123456789abcdef"):
        run_evaluations(PAIRS, RULES, str(out), nodes=NODES, jobs=1)
    assert read_evaluations(str(out))[1] == sorted(other, key=lambda r: (r["south"],
                                                                          r["north"]))


def _slow_summary(canonical_values: dict[tuple[str, str], float]):
    """Averages and best replies counted pair by pair over all 8,100 pairs."""
    value = {}
    for s, n in all_pairs():
        value[s, n] = canonical_values[canonical_pair(s, n)]
    south = {s: statistics.fmean(value[s, n] for n in {n for _, n in value})
             for s in {s for s, _ in value}}
    north = {n: statistics.fmean(1 - value[s, n] for s in south) for n in {n for _, n in value}}
    reply_s = {s: min(sorted(n for n in north), key=lambda n: value[s, n]) for s in south}
    return value, south, north, reply_s


def test_the_table_against_a_slow_reference():
    rng = random.Random(5)
    canonical = {p: round(rng.random(), 4) for p in canonical_pairs(all_pairs())}
    records = [{"south": s, "north": n, "south_win": v} for (s, n), v in canonical.items()]
    t = EvaluationTable.of(records)
    value, south, north, reply_s = _slow_summary(canonical)
    assert dict(t.south_win) == value
    assert t.average("south") == pytest.approx(south)
    assert t.average("north") == pytest.approx(north)
    for s in south:
        assert t.best_reply("south", s) == (reply_s[s], value[s, reply_s[s]])
        assert t.best_reply("south", mirror_setup(s))[1] == value[s, reply_s[s]]
    for n in north:
        reply, left = t.best_reply("north", n)
        assert left == pytest.approx(1 - max(value[s, n] for s in south))
        assert value[reply, n] == max(value[s, n] for s in south)
    assert t.mean_south_win() == pytest.approx(statistics.fmean(value.values()))


def test_the_report_and_the_command(reference, tmp_path):
    out = tmp_path / "e.jsonl"
    result = CliRunner().invoke(cli, ["setups", "evaluate", "--pairs", str(_pairs(tmp_path)),
                                      "--nodes", str(NODES), "--jobs", "1", "-q",
                                      "--out", str(out)])
    assert result.exit_code == 0, result.output
    assert is_evaluation_file(str(out)) and _records(out) == reference
    result = CliRunner().invoke(cli, ["setups", "report", str(out)])
    assert result.exit_code == 0, result.output
    params, records = read_evaluations(str(out))
    assert result.output == evaluation_report(params, records)
    first = result.output.splitlines()
    # 5: 123321 231132 is its own mirror
    assert first[0].startswith("engine evaluations of 5 of 8,100 setup pairs (3 searched")
    assert f"made by engine {engine_identity().code}" in result.output
    mean = statistics.fmean(EvaluationTable.of(records).south_win.values())
    assert f"South's mean win probability (South moves first): {mean:.3f}" in result.output
    bad = CliRunner().invoke(cli, ["setups", "report", str(out), "--forest", "f.svg"])
    assert bad.exit_code == 2 and "--forest is not for an evaluation file" in bad.output


def _pairs(tmp_path: Path) -> Path:
    p = tmp_path / "pairs.txt"
    p.write_text("".join(f"{s} {n}\n" for s, n in PAIRS))
    return p


def test_the_forest_writes_each_setups_evaluation(reference, tmp_path):
    """A games report with --evaluations writes each setup's average (by the evaluation
    file, its side's) at the end of its forest row."""
    from gyges.engine import Limit
    from gyges.game.rules import Side
    from gyges.setups.selfplay.games import run_games

    games = tmp_path / "g.jsonl"
    run_games(PAIRS, RULES, str(games), games=8, prove=0, jobs=1, limit=Limit(depth=1))
    evaluations = tmp_path / "e.jsonl"
    evaluations.write_text("".join(json.dumps(r) + "\n" for r in reference))
    forest = tmp_path / "f.svg"
    result = CliRunner().invoke(cli, ["setups", "report", str(games), "--evaluations",
                                      str(evaluations), "--forest", str(forest)])
    assert result.exit_code == 0, result.output
    table = EvaluationTable.of(reference)
    texts = forest.read_text()
    assert ">evaluation<" in texts
    for side in (Side.SOUTH, Side.NORTH):
        for value in table.average(side.name.lower()).values():
            assert f">{value:.3f}<" in texts
    other = CliRunner().invoke(cli, ["setups", "report", str(games), "--evaluations",
                                     str(games), "--forest", str(tmp_path / "g.svg")])
    assert other.exit_code == 2 and "is not a 'setups evaluate' file" in other.output


def test_the_evaluation_map_has_a_cell_a_pair():
    """Every pair a cell with its probability in the tooltip, the pairs not evaluated
    grey, rows and columns sorted best first; `setups report FILE --svg` draws it."""
    import xml.etree.ElementTree as ET

    from gyges.setups.evaluation.heatmap import MISSING, evaluation_map_svg

    rng = random.Random(3)
    done = canonical_pairs(all_pairs())[::7]
    records = [{"south": s, "north": n, "south_win": round(rng.random(), 4)} for s, n in done]
    table = EvaluationTable.of(records)
    root = ET.fromstring(evaluation_map_svg(table))
    ns = "{http://www.w3.org/2000/svg}"
    cells = {}
    for r in root.iter(f"{ns}rect"):
        title = r.find(f"{ns}title")
        if title is not None and title.text and title.text.startswith("S "):
            words = title.text.split()
            cells[words[1], words[3].rstrip(":")] = (r.get("fill"), title.text)
    souths, norths = table.setups("south"), table.setups("north")
    assert len(cells) == len(souths) * len(norths)
    for pair, (fill, text) in cells.items():
        if pair in table.south_win:
            assert f"{100 * table.south_win[pair]:.1f}%" in text and fill != MISSING
        else:
            assert fill == MISSING and "not evaluated yet" in text
    rows = [t.text for t in root.iter(f"{ns}text") if t.get("text-anchor") == "end"
            and t.text in souths]
    avg = table.average("south")
    assert rows == sorted(avg, key=lambda s: (-avg[s], s))


def test_a_network_searches_names_itself_and_prints_on_its_scale(reference, tmp_path):
    """evaluate --network: each pair searched with the learned evaluation (as analyse
    with it would), its win probability on the network's scale, the records naming the
    network by the evaluation digest; the linear evaluation's file is another engine's."""
    import dataclasses
    import math

    from gyges.engine import Engine, Limit, Options
    from gyges.engine.network import Network

    net = dataclasses.replace(Network.zeros(4), b2=40, calibration=0.5)
    path = tmp_path / "net.json"
    path.write_text(net.dumps())
    out = tmp_path / "e.jsonl"
    res = CliRunner().invoke(cli, ["setups", "evaluate", "--south", "231123", "--north",
                                   "321123", "--nodes", str(NODES), "--network", str(path),
                                   "-q", "--out", str(out)])
    assert res.exit_code == 0, res.output
    [record] = _records(out)
    assert record["engine"]["weights"] == engine_identity(network=net).weights \
        != engine_identity().weights
    a = Engine(RULES, Options(hash_bits=22, network=net)).analyse(
        Position.setup("231123", "321123"), Limit(nodes=NODES))
    assert record["score"] == a.score.to_json()
    if "eval" in record["score"]:
        assert record["south_win"] == round(1 / (1 + math.exp(-0.5 * a.score.value / 100)), 4)
    linear = next(r for r in reference if (r["south"], r["north"]) == ("231123", "321123"))
    assert linear["score"] != record["score"]
    res = CliRunner().invoke(cli, ["setups", "evaluate", "--south", "231123", "--north",
                                   "321123", "--nodes", str(NODES), "-q", "--out", str(out)])
    assert res.exit_code != 0 and "other parameters" in res.output
    path.write_text("{}")
    res = CliRunner().invoke(cli, ["setups", "evaluate", "--south", "231123", "--north",
                                   "321123", "--network", str(path), "-q", "--out",
                                   str(tmp_path / "f.jsonl")])
    assert res.exit_code != 0 and f"{path}: not a network file" in res.output
