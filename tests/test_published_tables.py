"""The published tables of ``setups analyze`` (data/setups/pbmserv-depth*.jsonl) are what
this checkout's prover makes: a sample of each file's pairs, analysed again here, gives
the same record. A table's records are proofs, which no evaluation enters: the sample is
what vouches for a table, whatever evaluation the engine that made it had. The depth-3
table names the engine that made it (code and weights, for people); the depth-4 and
depth-5 tables, which cost hours, were made before records named their engine. The
evaluations (searches, which the evaluation decides) must also name an evaluation this
checkout has (its weights' digest: the default one, or the linear one, which stays
selectable; ``tests/published.py``) and are searched again with it (the code's digest is
recorded beside, for people: code that changes no record leaves the file valid, ``make
data`` remakes it when one changes; docs/setups.md)."""

from __future__ import annotations

from pathlib import Path

import pytest

from gyges.engine.identity import UNRECORDED, code_digest
from gyges.game.rules import RuleSet
from gyges.setups.proven.analysis import analyse_pair
from gyges.setups.proven.records import AnalysisParams, PairRecord, read_results
from tests.published import evaluation_named

DATA = Path(__file__).resolve().parents[1] / "data" / "setups"
#: each table, the pairs analysed again (spread over the file) and whether it must name
#: the engine that made it
TABLES = [("pbmserv-depth3.jsonl", 6, True), ("pbmserv-depth4.jsonl", 2, False)]
#: the strength ladder's rungs (nodes a move), as the Makefile plays them
LADDER_NODES = (1000, 10000, 50000)


def _ladder_files() -> list[Path]:
    """The rungs published, weakest first (the Makefile's order)."""
    return [DATA / f"ladder-{n}.jsonl" for n in LADDER_NODES
            if (DATA / f"ladder-{n}.jsonl").exists()]


def _rules(text: str) -> RuleSet:
    return RuleSet.from_json(dict(w.split("=", 1) for w in text.split()))


def _check_replays(name: str, record: PairRecord, params: AnalysisParams) -> None:
    again = analyse_pair(record.south, record.north, _rules(params.rules), params.depth)
    mine, theirs = again.to_json(), record.to_json()
    for r in (mine, theirs):
        r.pop("engine", None)
        r.pop("canonical", None)
    assert mine == theirs, f"{name}: pair {record.pair} is not proved the same"


@pytest.mark.parametrize(("name", "sample", "stamped"), TABLES, ids=[t[0] for t in TABLES])
def test_a_published_table_is_what_this_checkout_proves(name, sample, stamped):
    params, records = read_results(str(DATA / name))
    assert params is not None and records
    if stamped:
        assert params.engine != UNRECORDED, f"{name} does not name the engine that made it"
    step = max(1, len(records) // max(sample, 1))
    for record in records[::step][:sample]:
        _check_replays(name, record, params)


@pytest.mark.slow
def test_the_depth5_sample_replays():
    """Two pairs of the depth-5 sample (about 2 to 6 minutes each)."""
    params, records = read_results(str(DATA / "pbmserv-depth5-sample.jsonl"))
    assert params is not None
    assert params.engine == UNRECORDED
    for record in records[:2]:
        _check_replays("pbmserv-depth5-sample.jsonl", record, params)


def _evaluation_files() -> list[str]:
    """Every evaluation file under data/ (the study's, and any other kept beside it)."""
    from gyges.setups.evaluation.table import is_evaluation_file

    return sorted(str(p) for p in DATA.parent.rglob("*.jsonl") if is_evaluation_file(str(p)))


def test_the_published_evaluation_files_are_found():
    assert str(DATA / "pbmserv-evaluations.jsonl") in _evaluation_files()


@pytest.mark.parametrize("path", _evaluation_files(),
                         ids=lambda p: str(Path(p).relative_to(DATA.parent)))
def test_a_published_evaluation_file_is_this_checkouts(path):
    """A published evaluation file names an evaluation of this checkout (``make data``
    remakes the study's, resumably) and two of its pairs, searched again here with it,
    give the same record."""
    from gyges.setups.evaluation.table import evaluation_task, read_evaluations

    params, records = read_evaluations(path)
    assert params is not None and records
    made_by = params["engine"]
    network = evaluation_named(made_by, path)
    for record in records[:: max(1, len(records) // 2)][:2]:
        again = evaluation_task((record["south"], record["north"]),
                                rules=_rules(params["rules"]), nodes=params["nodes"],
                                prove=params["prove"], network=network)
        for r in (again, record):
            r["engine"] = r["engine"]["weights"]
        assert again == record, (
            f"{path}: pair {record['south']} {record['north']} is not searched the same by "
            f"this checkout (engine {code_digest()}; the file's: {made_by}): run `make data`")


def test_the_published_evaluation_report_and_map_are_what_the_command_makes():
    from gyges.output import signed
    from gyges.setups.evaluation.heatmap import evaluation_map_svg
    from gyges.setups.evaluation.summary import EvaluationTable, evaluation_report
    from gyges.setups.evaluation.table import read_evaluations

    params, records = read_evaluations(str(DATA / "pbmserv-evaluations.jsonl"))
    report = (DATA / "pbmserv-evaluations-report.txt").read_text(encoding="utf-8")
    assert evaluation_report(params, records) == report
    svg = (DATA / "pbmserv-evaluations.svg").read_text(encoding="utf-8")
    assert signed(evaluation_map_svg(EvaluationTable.of(records)), "<!--", "-->") == svg


def test_the_published_ladder_report_is_what_the_command_makes():
    from gyges.setups.selfplay.games import read_selfplay_games
    from gyges.setups.selfplay.ladder import ladder_report, ladder_rungs

    rungs = ladder_rungs([read_selfplay_games(str(file)) for file in _ladder_files()])
    assert ladder_report(rungs) == (DATA / "ladder-report.txt").read_text(encoding="utf-8")


def _cli_output(args: list[str]) -> str:
    from click.testing import CliRunner

    from gyges_cli.main import cli

    result = CliRunner().invoke(cli, args)
    assert result.exit_code == 0, result.output
    return result.stdout


def test_the_published_validation_report_is_what_the_command_makes():
    games = DATA / "pbmserv-validation.jsonl"
    evaluations = str(DATA / "pbmserv-evaluations.jsonl")
    pairs = _cli_output(["setups", "validation-pairs", "--evaluations", evaluations])
    assert pairs == (DATA / "pbmserv-validation.pairs").read_text(encoding="utf-8")
    text = _cli_output(["setups", "validate", str(games), "--evaluations", evaluations])
    assert text == (DATA / "pbmserv-validation-report.txt").read_text(encoding="utf-8")


def test_the_published_answer_is_what_the_command_makes():
    """data/setups/pbmserv-answer.txt is `setups answer` of the published files, with the
    ladder's rungs and the validation block as the Makefile gives them."""
    args = ["setups", "answer", str(DATA / "pbmserv-selfplay.jsonl"), "--evaluations",
            str(DATA / "pbmserv-evaluations.jsonl")]
    for file in _ladder_files():
        args += ["--ladder", str(file)]
    if (DATA / "pbmserv-validation.jsonl").exists():
        args += ["--validation", str(DATA / "pbmserv-validation.jsonl")]
    assert _cli_output(args) == (DATA / "pbmserv-answer.txt").read_text(encoding="utf-8")
