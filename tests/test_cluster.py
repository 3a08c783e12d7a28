"""Batch work on a real Dask cluster: a scheduler and two workers started here (no mocks).

The cluster runs on 127.0.0.1 on free ports, with Dask's own commands (``python -m dask
scheduler`` / ``worker``). Each run's output must equal the local process pool's, line for
line (order aside), with nothing missing and nothing twice, even when a worker is killed
mid-run or the client is interrupted (Ctrl-C) or killed and then rerun.
"""

from __future__ import annotations

import os
import signal
import socket
import subprocess
import sys
import time
from collections import Counter
from pathlib import Path

import pytest

from gyges.formats.poslist import parse_position_list
from gyges.game.position import Position
from gyges.game.rules import PRESETS
from gyges.search.batch import solve_many
from gyges.setups import select_pairs
from gyges.setups.proven.batch import run_analysis

pytest.importorskip("distributed")

RULES = PRESETS["pbmserv"]
START_UP = 60  # seconds for the cluster to come up on a loaded machine
QUICK, SLOW = 8, 6
TOTAL = QUICK + SLOW


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def _position_list() -> str:
    """QUICK quick positions (start positions, bound 1), then SLOW that take a few tenths
    of a second each (bound 3): a run lasts long enough to be stopped in the middle."""
    pairs = select_pairs()
    quick = [f"{Position.setup(s, n)} max-moves=1" for s, n in pairs[5::1009]]
    slow = [f"{Position.setup(s, n)} max-moves=3" for s, n in pairs[7::1013]]
    return "# a test list\n" + "\n".join(quick[:QUICK] + slow[:SLOW]) + "\n"


class Cluster:
    def __init__(self, logs: Path) -> None:
        self.logs = logs
        self.port = _free_port()
        self.address = f"tcp://127.0.0.1:{self.port}"
        self.procs: list[subprocess.Popen] = []
        self.workers: list[subprocess.Popen] = []
        self.scheduler = self._start("scheduler", ["scheduler", "--host", "127.0.0.1",
                                                   "--port", str(self.port),
                                                   "--no-dashboard"])

    def _start(self, name: str, args: list[str]) -> subprocess.Popen:
        log = open(self.logs / f"{name}-{len(self.procs)}.log", "wb")  # noqa: SIM115
        p = subprocess.Popen([sys.executable, "-m", "dask", *args], stdout=log,
                             stderr=subprocess.STDOUT, stdin=subprocess.DEVNULL,
                             start_new_session=True)
        self.procs.append(p)
        return p

    def add_worker(self) -> subprocess.Popen:
        w = self._start("worker", ["worker", self.address, "--nthreads", "1", "--no-nanny",
                                   "--no-dashboard", "--host", "127.0.0.1"])
        self.workers.append(w)
        return w

    def alive(self) -> list[subprocess.Popen]:
        return [w for w in self.workers if w.poll() is None]

    def wait_for_workers(self, n: int) -> None:
        from distributed import Client

        with Client(self.address, timeout=START_UP, set_as_default=False) as c:
            c.wait_for_workers(n, timeout=START_UP)

    def top_up(self, n: int = 2) -> None:
        """Start workers until ``n`` are alive, and wait for the scheduler to see them."""
        while len(self.alive()) < n:
            self.add_worker()
        self.wait_for_workers(n)

    def stop(self) -> None:
        for p in self.procs:
            if p.poll() is None:
                p.kill()
            p.wait()


@pytest.fixture(scope="module")
def cluster(tmp_path_factory):
    c = Cluster(tmp_path_factory.mktemp("dask-logs"))
    try:
        c.top_up(2)
        yield c
    finally:
        c.stop()


@pytest.fixture(scope="module")
def position_list(tmp_path_factory) -> Path:
    path = tmp_path_factory.mktemp("lists") / "positions.txt"
    path.write_text(_position_list())
    return path


def _entries(path: Path):
    import dataclasses

    entries, bad = parse_position_list(path.read_text(), str(path))
    assert not bad
    return [dataclasses.replace(e, rules=RULES, max_moves=e.max_moves or 3) for e in entries]


@pytest.fixture(scope="module")
def reference(position_list, tmp_path_factory) -> list[str]:
    """The local pool's output (one job), sorted."""
    out = tmp_path_factory.mktemp("ref") / "local.jsonl"
    s = solve_many(_entries(position_list), str(out), scheduler="", jobs=1)
    assert s.run.done == TOTAL and not s.interrupted
    return sorted(out.read_text().splitlines())


def _check(out: Path, reference: list[str]) -> None:
    lines = out.read_text().splitlines()
    assert not [k for k, n in Counter(lines).items() if n > 1], "a line written twice"
    assert sorted(lines) == reference


def killer_after_first(victim: subprocess.Popen, field: str, seen: list):
    """A run's ``watch``: notes each record's ``field`` in ``seen`` and kills the worker
    ``victim`` (SIGKILL) once the first record is in."""
    def watch(event) -> None:
        if event.record is None:
            return
        seen.append(event.record[field])
        if len(seen) == 1:
            os.kill(victim.pid, signal.SIGKILL)
            victim.wait(10)
    return watch


def test_killed_worker_loses_nothing(cluster, position_list, reference, tmp_path):
    out = tmp_path / "dask.jsonl"
    victim = cluster.alive()[0]
    seen: list = []
    kill_after_first = killer_after_first(victim, "line", seen)
    s = solve_many(_entries(position_list), str(out), scheduler=cluster.address,
                   watch=kill_after_first)
    assert victim.poll() is not None and len(cluster.alive()) == 1
    assert s.run.done == TOTAL and not s.interrupted and len(seen) == TOTAL
    _check(out, reference)
    cluster.top_up(2)


def _gyges(*args: str) -> list[str]:
    return [sys.executable, "-c", "from gyges_cli.main import cli; cli()", *args]


def _start_client(cluster, position_list, out) -> subprocess.Popen:
    return subprocess.Popen(
        _gyges("solve", str(position_list), "--out", str(out), "--scheduler",
               cluster.address, "-q"),
        stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)


def _wait_for_lines(out: Path, n: int, proc: subprocess.Popen, timeout: float = 60) -> None:
    end = time.monotonic() + timeout
    while time.monotonic() < end:
        if out.exists() and out.read_text().count("\n") >= n:
            return
        assert proc.poll() is None, proc.communicate()
        time.sleep(0.02)
    raise AssertionError(f"no {n} lines in {out} within {timeout} s")


@pytest.mark.parametrize("how", ["ctrl-c", "killed"])
def test_stopped_client_resumes(cluster, position_list, reference, tmp_path, how):
    cluster.top_up(2)
    out = tmp_path / "client.jsonl"
    proc = _start_client(cluster, position_list, out)
    _wait_for_lines(out, QUICK + 1, proc)  # the quick ones and one slow one
    proc.send_signal(signal.SIGINT if how == "ctrl-c" else signal.SIGKILL)
    stdout, stderr = proc.communicate(timeout=60)
    if how == "ctrl-c":
        assert proc.returncode == 130, stderr
        assert "interrupted" in stderr and "Traceback" not in stderr
        assert out.read_text().count("\n") < TOTAL   # not after the remaining work
    else:
        assert proc.returncode == -signal.SIGKILL
    kept = out.read_text().splitlines(keepends=True)
    assert QUICK + 1 <= len(kept) < TOTAL
    rerun = subprocess.run(_gyges("solve", str(position_list), "--out", str(out),
                                  "--scheduler", cluster.address, "-q"),
                           capture_output=True, text=True, timeout=120)
    assert rerun.returncode == 0, rerun.stderr
    assert f"{len(kept)} already in" in rerun.stderr
    assert rerun.stdout.count("none within") + rerun.stdout.count("wins in") + \
        rerun.stdout.count("loses in") == TOTAL
    _check(out, reference)


def test_a_stop_condition_cancels_the_tasks_still_out(cluster, position_list, reference,
                                                      tmp_path):
    """The run stops at the first slow record: the other slow ones are cancelled, not
    waited for, and the cluster is left ready for the next run."""
    from gyges.parallel import run_tasks
    from gyges.search.batch import EntryKey, solve_entry, solve_results_file

    cluster.top_up(2)
    out = tmp_path / "stopped.jsonl"
    entries = _entries(position_list)
    s = run_tasks(solve_entry, entries, key=EntryKey.of, scheduler=cluster.address,
                  results=solve_results_file(str(out), {"tree": False, "tries": False,
                                                  "duals": None}),
                  stop=lambda records: any(r["max_moves"] == 3 for r in records.values()))
    assert s.stopped and not s.interrupted and 1 <= s.done < TOTAL
    assert set(out.read_text().splitlines()) <= set(reference)
    s = solve_many(entries, str(out), scheduler=cluster.address)
    assert s.run.skipped + s.run.done == TOTAL and not s.interrupted
    _check(out, reference)


def test_setups_analyze_on_dask_equals_local(cluster, tmp_path):
    cluster.top_up(2)
    pairs = select_pairs("231123,112233,321312", "all")[::9]
    local, dask = tmp_path / "local.jsonl", tmp_path / "dask.jsonl"
    run_analysis(pairs, RULES, 2, str(local), jobs=2, scheduler="")
    s = run_analysis(pairs, RULES, 2, str(dask), scheduler=cluster.address,
            log=str(tmp_path / "dask.log"))
    assert s.done == len(pairs) and s.complete
    assert sorted(local.read_text().splitlines()) == sorted(dask.read_text().splitlines())
    # the client logs one line per pair, naming the worker that did it
    log = (tmp_path / "dask.log").read_text().splitlines()
    assert sum(" pid " in line for line in log) == len(pairs)


def test_setups_analyze_split_on_dask_resumes_to_the_local_lines(cluster, tmp_path):
    """A split run (first moves, then pairs, in one Batch) interrupted on Dask after its
    first pair, then resumed there: the local pool's lines, the first moves kept between."""
    cluster.top_up(2)
    pairs = select_pairs("231123,112233", "all")[::15]
    local, dask = tmp_path / "local.jsonl", tmp_path / "dask.jsonl"
    run_analysis(pairs, RULES, 2, str(local), jobs=1, scheduler="")

    def stop(event):
        if event.record is not None:
            raise KeyboardInterrupt

    s = run_analysis(pairs, RULES, 2, str(dask), scheduler=cluster.address, split=True, watch=stop)
    assert s.interrupted and s.done == 1
    assert (tmp_path / "dask.jsonl.parts").exists()
    s = run_analysis(pairs, RULES, 2, str(dask), scheduler=cluster.address, split=True)
    assert s.complete and s.skipped == 1 and s.done == len(pairs) - 1
    assert sorted(local.read_text().splitlines()) == sorted(dask.read_text().splitlines())
    assert not (tmp_path / "dask.jsonl.parts").exists()


def test_unreachable_scheduler_is_one_line(tmp_path, position_list):
    port = _free_port()
    r = subprocess.run(_gyges("solve", str(position_list), "--scheduler",
                              f"tcp://127.0.0.1:{port}", "-q"),
                       capture_output=True, text=True, timeout=120,
                       env={**os.environ, "GYGES_SCHEDULER_TIMEOUT": "2"})
    assert r.returncode == 2
    assert r.stderr.startswith("gyges: --scheduler: cannot reach a Dask scheduler")
    assert "Traceback" not in r.stderr and len(r.stderr.splitlines()) == 1
