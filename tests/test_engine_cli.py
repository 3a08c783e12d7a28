"""``gyges analyse``: text and JSON, bad input (exit 2), Ctrl-C (exit 130 with the best
move found so far)."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest
from click.testing import CliRunner

from gyges_cli.main import cli

GYGES = [sys.executable, "-c", "from gyges_cli.main import cli; cli()"]
START = "321123/....../....../....../....../231123 S"
BOUNCING = "....../3...../..1.1./1.23.3/3.22.1/....2. N"


def invoke(*args: str):
    return CliRunner().invoke(cli, list(args), catch_exceptions=False)


def test_analyse_prints_the_move_score_and_line():
    r = invoke("analyse", START, "--depth", "2", "--prove", "0")
    assert r.exit_code == 0, r.output
    lines = r.output.splitlines()
    assert [ln.split()[0] for ln in lines] == ["best", "score", "line", "search"]
    assert "win probability" in lines[1] and "depth 2" in lines[3]
    r = invoke("analyse", BOUNCING, "--depth", "3")
    assert "best move  51-43-33-31-21-S" in r.output
    assert "score      wins in 1 (proven)" in r.output


def test_analyse_json_and_rules():
    r = invoke("analyse", ".3.3.3/112232/...1.2/...1../....../...... S", "--depth", "3",
               "--json", "--rules", "pbmserv")
    data = json.loads(r.output)
    assert data["score"] == {"win": 2} and data["proven"] is True
    assert data["move"] == data["pv"][0]
    r = invoke("analyse", START, "--nodes", "3000", "--json", "--rule", "taboo=entry")
    data = json.loads(r.output)
    assert data["nodes"] <= 3000 and 0 < data["win_probability"] < 1


def test_analyse_bad_input_is_one_line():
    for args in (["analyse", "nonsense"], ["analyse", START, "--time", "0"],
                 ["analyse", START, "--depth", "0"], ["analyse", START, "--rule", "x=y"],
                 ["analyse", START, "--weights", "/nonexistent.json"],
                 ["analyse", START, "--cores", "0"], ["ugi", "--cores", "9"]):
        r = subprocess.run([*GYGES, *args], capture_output=True, text=True, timeout=60)
        assert r.returncode == 2, (args, r.stderr)
        assert r.stderr.count("\n") == 1 and r.stderr.startswith("gyges: "), r.stderr
        assert "Traceback" not in r.stderr


@pytest.mark.parametrize("cores", ["1", "2"])
def test_analyse_ctrl_c_prints_the_best_so_far(cores):
    """Ctrl-C reaches the whole process group (the helpers of ``--cores 2`` too): the
    best move so far is printed, and nothing is left running."""
    p = subprocess.Popen([*GYGES, "analyse", START, "--depth", "30", "--prove", "0",
                          "--cores", cores],
                         start_new_session=True, text=True, stdout=subprocess.PIPE,
                         stderr=subprocess.PIPE)
    _until_busy(p.pid, 2.0)                  # the search is under way, whatever the load
    os.killpg(p.pid, signal.SIGINT)
    out, err = p.communicate(timeout=20)
    assert p.returncode == 130, err
    assert err.strip().splitlines() == ["gyges: interrupted: the best found so far is "
                                        "printed above"]
    assert out.startswith("best move  ") and "line " in out
    deadline = time.monotonic() + 30             # the helpers end with their parent
    while time.monotonic() < deadline:
        try:
            os.killpg(p.pid, 0)
        except ProcessLookupError:
            break                                # the process group is empty
        time.sleep(0.05)
    with pytest.raises(ProcessLookupError):
        os.killpg(p.pid, 0)


def _until_busy(pid: int, seconds: float) -> None:
    """Wait until process ``pid`` has used ``seconds`` of CPU (an event: its work is under
    way, however long a loaded machine takes to get there)."""
    tick = os.sysconf("SC_CLK_TCK")
    while True:
        fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
        if (int(fields[11]) + int(fields[12])) / tick >= seconds:
            return
        time.sleep(0.05)


def test_more_cores_than_the_machine_has_are_capped_with_a_note():
    cores = os.cpu_count() or 1
    if cores >= 8:
        pytest.skip("the machine has the most cores a search may use")
    r = subprocess.run([*GYGES, "analyse", START, "--depth", "2", "--prove", "0",
                        "--cores", str(cores + 1)], capture_output=True, text=True,
                       timeout=60)
    assert r.returncode == 0, r.stderr
    assert r.stderr == (f"gyges: --cores {cores + 1}: this machine has {cores} core"
                        f"{'s' if cores != 1 else ''}; using {cores}\n")
    assert r.stdout.startswith("best move  ")
