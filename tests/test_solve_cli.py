"""``gyges solve``: text and JSON output, position files, rules, errors (exit 2)."""

from __future__ import annotations

import json

from click.testing import CliRunner

from gyges_cli.main import cli

SAMPLE_12 = "..1.../..23../..3.../..3113/2..2../2..1.. S"
TABOO = "....../1...../3.23../3.211./2.132./...... N"


def run(*args: str):
    return CliRunner().invoke(cli, ["solve", *args])


def test_text_output():
    r = run(SAMPLE_12)
    assert r.exit_code == 0, r.output
    assert "South to move wins in 2" in r.output
    assert "key: 14-24-33x43=12" in r.output
    assert "nodes" in r.output and "transposition hits" in r.output


def test_json_output():
    r = run(SAMPLE_12, "--json", "--max-moves", "2")
    data = json.loads(r.output)
    assert (data["result"], data["moves"], data["keys"]) == ("win", 2, ["14-24-33x43=12"])
    assert data["tree"]["role"] == "winner"


def test_rules_change_the_answer():
    pbm = json.loads(run(TABOO, "--json", "-n", "1").output)
    assert pbm["result"] == "none"
    dorbec = json.loads(run(TABOO, "--json", "-n", "1", "--rules", "dorbec").output)
    assert (dorbec["result"], dorbec["keys"]) == ("win", ["51-41-31-21-S"])
    entry = json.loads(run(TABOO, "--json", "-n", "1", "--rule", "taboo=entry").output)
    assert entry["result"] == "win"


def test_loss_and_tries_and_jobs():
    r = run(TABOO, "-n", "2", "--jobs", "2")
    assert r.exit_code == 0
    assert "North to move loses in 2" in r.output
    one = json.loads(run(SAMPLE_12, "--json", "-n", "2").output)
    two = json.loads(run(SAMPLE_12, "--json", "-n", "2", "-j", "2").output)
    assert (two["result"], two["moves"], two["keys"]) == (one["result"], one["moves"], one["keys"])
    r = run(SAMPLE_12, "-n", "2", "--tries")
    assert "tries:" in r.output and "refuted by" in r.output


def test_position_file_with_history(tmp_path):
    f = tmp_path / "p.yaml"
    f.write_text(
        f'position: "{SAMPLE_12}"\n'
        'history:\n  - "..1.../..23../..3.../..3.13/2..2../.2.... N"\n'
    )
    r = run(str(f), "--json", "-n", "2")
    assert r.exit_code == 0, r.output
    assert json.loads(r.output)["moves"] == 2
    # the key's result in the history: the Renop law forbids the key
    f.write_text(
        f'position: "{SAMPLE_12}"\n'
        'history:\n  - "..1.../..23../..3.../..3113/2..2../2..1.. N"\n'
        '  - "..1.../..23../..1.../..3113/2..2../23.... N"\n'
    )
    r = run(str(f), "--json", "-n", "2")
    assert r.exit_code == 0, r.output
    assert json.loads(r.output)["result"] == "none"


def test_errors_exit_2(tmp_path):
    for args in (["nope"], [SAMPLE_12, "--max-moves", "0"], [SAMPLE_12, "--jobs", "0"],
                 [SAMPLE_12, "--duals", "-1"],
                 [SAMPLE_12, "--rules", "chess"], ["321123/....../....../....../....../2311 S"]):
        r = run(*args)
        assert r.exit_code == 2, (args, r.output)
        assert "Traceback" not in r.output


def test_unstoppable_with_previous(tmp_path):
    """South's every move from the previous position allowed North a landing (seed 001's
    take-back variant): with ``previous:`` the landing stands; without it, it is stoppable."""
    f = tmp_path / "u.yaml"
    f.write_text(
        'position: "..3.../....../.3..../.....1/..3.../..3... N"\n'
        "rule:\n  win: unstoppable\n"
        'previous: "..3.../....../.3..../.....1/..3.../.....3 S"\n'
    )
    data = json.loads(run(str(f), "--json", "-n", "1").output)
    assert (data["result"], data["moves"], data["stoppable"]) == ("win", 1, False)
    f.write_text(
        'position: "..3.../....../.3..../.....1/..3.../..3... N"\n'
        "rule:\n  win: unstoppable\n"
    )
    r = run(str(f), "-n", "1")
    assert "North to move wins in 1, stoppable" in r.output
    # a previous position that does not lead here is an error
    f.write_text(
        'position: "..3.../....../.3..../.....1/..3.../..3... N"\n'
        "rule:\n  win: unstoppable\n"
        'previous: "..3.../....../.3..../.....1/..3.../..3... S"\n'
    )
    r = run(str(f), "-n", "1")
    assert r.exit_code == 2 and "not one move before" in r.output
