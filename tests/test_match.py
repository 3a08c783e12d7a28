"""``gyges match`` and :func:`gyges.engine.match.run_match`: games between the builtin
engine and ``gyges ugi`` (a real subprocess over the protocol) at a fixed depth, on one
job, on the local pool, on a real Dask cluster, interrupted and resumed; the summary's
numbers on a known file; the refusals.

The games are short (depth 1 or 2, at most a dozen moves): each run takes a few seconds,
most of it the UGI program's start.
"""

from __future__ import annotations

import json
import math
import os
import shlex
import shutil
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest
from click.testing import CliRunner

from gyges.engine.builtin import EngineError, Limit
from gyges.engine.client import EngineFailure
from gyges.engine.identity import engine_identity
from gyges.engine.match import MatchSettings, play_match_game, run_match
from gyges.engine.openings import openings
from gyges.engine.players import close_started
from gyges.engine.weights import Weights
from gyges.formats.record import parse_record, replay
from gyges.game.rules import PRESETS
from gyges.parallel import ParametersError
from gyges_cli.main import cli

RULES = PRESETS["pbmserv"]
GAMES = 6
MAX_PLIES = 16
GYGES = [sys.executable, "-c", "from gyges_cli.main import cli; cli()"]


@pytest.fixture(scope="module")
def marked_weights(tmp_path_factory) -> str:
    """A copy of the shipped weights at a path of this module's own: it marks the UGI
    programs these tests start (their command lines name it), to find any left running."""
    path = tmp_path_factory.mktemp("ugi-mark") / "weights.json"
    path.write_text(Weights.load().dumps())
    return str(path)


@pytest.fixture(scope="module")
def engines(marked_weights) -> tuple[str, str]:
    ugi = shlex.join([*GYGES, "ugi", "--prove", "0", "--weights", marked_weights])
    return "builtin:prove=0", "ugi:" + ugi


def _settings(engines: tuple[str, str]) -> MatchSettings:
    return MatchSettings(engines, RULES, Limit(depth=2), "canonical", MAX_PLIES)


def _args(engines: tuple[str, str], out: Path, *more: str, games: int = GAMES
          ) -> list[str]:
    return ["match", *engines, "--depth", "2", "--max-plies", str(MAX_PLIES),
            "--games", str(games), "--out", str(out), "-q", *more]


def _running(mark: str) -> list[int]:
    """The processes whose command line names ``mark``."""
    found = []
    for pid in os.listdir("/proc"):
        try:
            with open(f"/proc/{pid}/cmdline", "rb") as f:
                if mark.encode() in f.read():
                    found.append(int(pid))
        except (OSError, ValueError):
            continue
    return found


def _none_left(mark: str, within: float = 10.0) -> None:
    end = time.monotonic() + within
    while _running(mark) and time.monotonic() < end:
        time.sleep(0.1)
    assert not _running(mark), "a UGI program was left running"


def _lines(path: Path) -> list[str]:
    """The file's games, each without the command that ran and the source tree's commit
    (recorded for people: the command differs between the library and the command line,
    the commit when a commit lands while the tests run)."""
    records = [json.loads(line) for line in path.read_text().splitlines()]
    for r in records:
        r["engine"].pop("command", None)
        r["engine"].pop("commit", None)
    return sorted(json.dumps(r, sort_keys=True) for r in records)


@pytest.fixture(scope="module")
def reference(engines, marked_weights, tmp_path_factory) -> list[str]:
    """The match's games on one job, in this process, through the library."""
    out = tmp_path_factory.mktemp("reference") / "games.jsonl"
    result = run_match(_settings(engines), GAMES, str(out), jobs=1)
    assert result.run.complete and len(result.games) == GAMES
    _none_left(marked_weights)
    return _lines(out)


def test_the_games_alternate_sides_over_the_seeded_openings(reference, engines):
    records = [json.loads(line) for line in reference]
    assert sorted(r["game"] for r in records) == list(range(1, GAMES + 1))
    pairs = openings("canonical")
    for r in records:
        n = r["game"]
        assert tuple(r["opening"]) == pairs[(n - 1) // 2]
        first, second = engines
        assert (r["south"], r["north"]) == ((first, second) if n % 2 else (second, first))
        assert r["result"] in ("south", "north", "draw") and r["reason"]
        assert len(r["moves"]) <= MAX_PLIES
        assert r["match"] == _settings(engines).params()
    # both engines really played: each side's moves are in every game
    assert all(len(r["moves"]) >= 2 for r in records)


def test_a_game_is_the_same_in_any_process(reference, engines, marked_weights):
    """A task run again (here, in this process after other games) gives the same line."""
    first = json.loads(reference[0])
    try:
        again = play_match_game((first["game"], tuple(first["opening"])),
                                settings=_settings(engines))
    finally:
        close_started()
    for recorded in ("command", "commit"):  # (the reference's lines are kept without them)
        again["engine"].pop(recorded, None)
    assert again == first
    _none_left(marked_weights)


def test_two_local_jobs_give_the_same_games(reference, engines, marked_weights, tmp_path):
    out = tmp_path / "games.jsonl"
    result = CliRunner().invoke(cli, _args(engines, out, "--jobs", "2"))
    assert result.exit_code == 0, result.output
    assert _lines(out) == reference
    assert f"({GAMES} games)" in result.output
    _none_left(marked_weights)


def test_a_dask_cluster_gives_the_same_games(reference, engines, marked_weights, tmp_path):
    pytest.importorskip("distributed")
    from test_cluster import Cluster

    cluster = Cluster(tmp_path)
    try:
        cluster.top_up(1)
        out = tmp_path / "games.jsonl"
        result = CliRunner().invoke(cli, _args(engines, out, "--scheduler",
                                               cluster.address))
        assert result.exit_code == 0, result.output
        assert _lines(out) == reference
    finally:
        cluster.stop()
    _none_left(marked_weights)


def test_ctrl_c_then_the_same_command_gives_the_same_file(reference, engines,
                                                          marked_weights, tmp_path):
    out = tmp_path / "games.jsonl"
    args = [*GYGES, *_args(engines, out, "--jobs", "2")]
    proc = subprocess.Popen(args, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    end = time.monotonic() + 300      # a loaded machine is slow to start
    while not (out.exists() and out.read_text().count("\n") >= 1):
        assert proc.poll() is None, proc.communicate()
        assert time.monotonic() < end, "no game within 300 s"
        time.sleep(0.02)
    proc.send_signal(signal.SIGINT)
    stdout, stderr = proc.communicate(timeout=30)
    assert proc.returncode == 130, stderr
    assert "interrupted" in stderr and "rerun the same command" in stderr
    assert "Traceback" not in stderr
    kept = _lines(out)
    assert 1 <= len(kept) <= GAMES and set(kept) <= set(reference)
    _none_left(marked_weights)     # the workers' programs were ended with them
    rerun = subprocess.run(args, capture_output=True, text=True, timeout=120)
    assert rerun.returncode == 0, rerun.stderr
    assert _lines(out) == reference
    _none_left(marked_weights)


def test_records_replay(reference, engines, tmp_path):
    """--record writes each game as a text record that replays to the same result."""
    out = tmp_path / "games.jsonl"
    out.write_text("\n".join(reference) + "\n")
    result = CliRunner().invoke(cli, _args(engines, out, "--record", str(tmp_path / "rec")))
    assert result.exit_code == 0, result.output
    files = sorted((tmp_path / "rec").iterdir())
    assert [f.name for f in files] == [f"game-{n:04d}.txt" for n in range(1, GAMES + 1)]
    by_number = {json.loads(line)["game"]: json.loads(line) for line in reference}
    for n, f in enumerate(files, 1):
        game = replay(parse_record(f.read_text(), str(f)), RULES)
        assert game.error is None
        r = by_number[n]
        winner = {"south": "S", "north": "N"}.get(r["result"])
        assert (game.winner.value if game.winner else None) == winner


def _record(number: int, result: str, params: dict) -> dict:
    south, north = params["engines"] if number % 2 else params["engines"][::-1]
    return {"game": number, "south": south, "north": north,
            "opening": list(openings("canonical")[(number - 1) // 2]), "result": result,
            "reason": "landing" if result != "draw" else "max plies: 12 moves played",
            "moves": [], "match": params, "engine": engine_identity().to_json(), "files": {}}


def test_the_summary_of_a_known_file(engines, tmp_path):
    """Six games already played: the first engine (South in games 1, 3, 5) wins 1, 4
    and 5, draws 3 and 6, loses 2: +3 =2 -1, in pairs 1-1, 1.5-0.5, 1.5-0.5 (the
    statistics count the three pairs)."""
    params = _settings(engines).params()
    results = ["south", "south", "draw", "north", "south", "draw"]
    out = tmp_path / "known.jsonl"
    out.write_text("".join(json.dumps(_record(n, r, params)) + "\n"
                           for n, r in enumerate(results, 1)))
    result = CliRunner().invoke(cli, _args(engines, out, "--sprt", "0,50"))
    assert result.exit_code == 0, result.output
    points = [1, 0, 0.5, 1, 1, 0.5]
    pairs = [(points[i] + points[i + 1]) / 2 for i in (0, 2, 4)]   # pentanomial: by pairs
    score = sum(pairs) / 3
    var = sum((p - score) ** 2 for p in pairs) / 3
    half = 1.959964 * math.sqrt(var / 3)

    def elo(s: float) -> float:
        return -400 * math.log10(1 / s - 1)

    text = result.output
    assert f"+3 =2 -1 (6 games): score {100 * score:.1f}%" in text
    assert (f"Elo {elo(score):+.0f} [{elo(score - half):+.0f}, {elo(score + half):+.0f}]"
            in text)
    assert "as South +2 =1 -0, as North +1 =1 -1" in text
    s0, s1 = 0.5, 1 / (1 + 10 ** (-50 / 400))
    llr = 3 * (s1 - s0) * (2 * score - s0 - s1) / (2 * var)
    assert "pairs: 0-2 0, 0.5-1.5 0, 1-1 1, 1.5-0.5 2, 2-0 0" in text
    assert f"LLR {llr:.2f} in [-2.94, 2.94]: no decision yet" in text
    assert out.read_text().count("\n") == 6      # nothing played: all six were there


def test_the_sprt_stops_a_decided_match(engines, tmp_path):
    """A file where the first engine won every game decides H1 before any new game."""
    params = _settings(engines).params()
    out = tmp_path / "decided.jsonl"
    out.write_text("".join(json.dumps(_record(n, "south" if n % 2 else "north", params))
                           + "\n" for n in range(1, 41)))
    result = CliRunner().invoke(cli, _args(engines, out, "--sprt", "0,50", games=100))
    assert result.exit_code == 0, result.output
    assert "+40 =0 -0 (40 games)" in result.output and "H1 accepted" in result.output
    assert out.read_text().count("\n") == 40


def test_the_sprt_waits_for_its_least_number_of_games(engines, tmp_path):
    """The same 40 won games: with --min-games 42 the SPRT has not decided, and says
    when it will; the two games more it asks for then decide it."""
    params = _settings(engines).params()
    out = tmp_path / "decided.jsonl"
    out.write_text("".join(json.dumps(_record(n, "south" if n % 2 else "north", params))
                           + "\n" for n in range(1, 41)))
    result = CliRunner().invoke(cli, _args(engines, out, "--sprt", "0,50", "--min-games",
                                           "42", games=40))
    assert result.exit_code == 0, result.output
    assert "no decision yet (it decides from 42 games on)" in result.output
    result = CliRunner().invoke(cli, _args(engines, out, "--sprt", "0,50", "--min-games",
                                           "42", games=100))
    assert result.exit_code == 0, result.output
    assert "(42 games)" in result.output and "accepted" in result.output, result.output
    assert out.read_text().count("\n") == 42


def test_an_openings_file_is_played_in_its_order(tmp_path):
    pairs = tmp_path / "openings.txt"
    pairs.write_text("# two\n112233 332211\n231123 321123\n")
    out = tmp_path / "games.jsonl"
    result = CliRunner().invoke(cli, ["match", "builtin:depth=1,prove=0", "builtin:depth=1",
                                      "--games", "4", "--openings", str(pairs),
                                      "--max-plies", "4", "--jobs", "1", "--out", str(out),
                                      "-q"])
    assert result.exit_code == 0, result.output
    records = sorted((json.loads(line) for line in out.read_text().splitlines()),
                     key=lambda r: r["game"])
    assert [tuple(r["opening"]) for r in records] == [
        ("112233", "332211"), ("112233", "332211"), ("231123", "321123"),
        ("231123", "321123")]
    assert all(r["match"]["openings"] == str(pairs) for r in records)


@pytest.mark.parametrize("args, message", [
    (["builtin", "builtin", "--games", "3"], "--games: 3: give an even number"),
    (["builtin", "builtin", "--games", "0"], "--games: 0: give an even number"),
    (["builtin:depth=x", "builtin", "--games", "2"], "depth=x: not an integer"),
    (["stockfish", "builtin", "--games", "2"], "is not an engine: write builtin"),
    (["builtin", "builtin:speed=3", "--games", "2"], "'speed=3' is not a builtin option"),
    (["builtin", "ugi:/nonexistent/engine --x", "--games", "2"],
     "/nonexistent/engine: cannot start the program"),
    (["builtin", "builtin", "--games", "2", "--sprt", "50,0"], "--sprt: '50,0': the SPRT"),
    (["builtin", "builtin", "--games", "2", "--sprt", "x"], "--sprt: 'x': write ELO0,ELO1"),
    (["builtin", "builtin", "--games", "2", "--min-games", "4"],
     "--min-games: 4: the SPRT's least number of games, so only with --sprt"),
    (["builtin", "builtin", "--games", "2", "--openings", "/nonexistent/pairs.txt"],
     "/nonexistent/pairs.txt: cannot read it"),
])
def test_bad_input_is_one_line(args, message, tmp_path):
    result = CliRunner().invoke(cli, ["match", *args, "--out", str(tmp_path / "o.jsonl"),
                                      "-q"])
    assert result.exit_code == 2, result.output
    assert message in result.output, result.output
    assert "Traceback" not in result.output and not (tmp_path / "o.jsonl").exists()


def test_a_bad_openings_line_and_too_few_openings(tmp_path):
    pairs = tmp_path / "openings.txt"
    pairs.write_text("231123 321123\n231123\n")
    result = CliRunner().invoke(cli, ["match", "builtin", "builtin", "--games", "2",
                                      "--openings", str(pairs), "--out",
                                      str(tmp_path / "o.jsonl")])
    assert result.exit_code == 2
    assert f"{pairs}:2: '231123' is not a pair: write SOUTH NORTH" in result.output
    pairs.write_text("231123 321123\n")
    result = CliRunner().invoke(cli, ["match", "builtin", "builtin", "--games", "4",
                                      "--openings", str(pairs), "--out",
                                      str(tmp_path / "o.jsonl")])
    assert result.exit_code == 2
    assert "4 games need 2 openings" in result.output and "has 1" in result.output


def test_another_matchs_file_is_refused(reference, engines, tmp_path):
    out = tmp_path / "games.jsonl"
    out.write_text("\n".join(reference) + "\n")
    result = CliRunner().invoke(cli, [*_args(engines, out), "--depth", "3"])
    assert result.exit_code == 2
    assert str(out) in result.output and "made with other parameters" in result.output
    assert "(depth 2, not depth 3)" in result.output      # what differs, only that
    assert "choose another --out" in result.output
    with pytest.raises(ParametersError):
        run_match(MatchSettings(engines, RULES, Limit(depth=3), "canonical", MAX_PLIES),
                  GAMES, str(out), jobs=1)
    assert _lines(out) == reference


def test_the_file_names_its_engine_and_another_engines_is_refused(reference, engines,
                                                                  tmp_path):
    """Every game names the gyges that played it; a file whose games another engine
    played (another code digest) is not extended, and the message names both."""
    here = engine_identity()
    records = [json.loads(line) for line in reference]
    assert all(r["engine"]["code"] == here.code and r["engine"]["weights"] == here.weights
               and r["files"] == {} for r in records)
    for r in records:
        r["engine"]["code"] = "0123456789abcdef"
    out = tmp_path / "games.jsonl"
    out.write_text("".join(json.dumps(r) + "\n" for r in records[:2]))
    with pytest.raises(ParametersError) as refused:
        run_match(_settings(engines), GAMES, str(out), jobs=1)
    assert "engine 0123456789abcdef" in str(refused.value)
    assert f"engine {here.code}" in str(refused.value)
    for r in records:
        del r["engine"], r["files"]          # a file from before games named their engine
    out.write_text("".join(json.dumps(r) + "\n" for r in records[:2]))
    with pytest.raises(ParametersError, match="did not record itself"):
        run_match(_settings(engines), GAMES, str(out), jobs=1)
    assert out.read_text().count("\n") == 2


def test_a_changed_weights_file_is_refused(tmp_path):
    """The digest of a weights file a builtin engine names is in every game: the match
    is not resumed once the file has changed."""
    weights = tmp_path / "w.json"
    weights.write_text(Weights.load().dumps())
    settings = MatchSettings((f"builtin:weights={weights},prove=0", "builtin:prove=0"),
                             RULES, Limit(depth=1), "canonical", 4)
    out = tmp_path / "games.jsonl"
    run_match(settings, 2, str(out), jobs=1)
    record = json.loads(out.read_text().splitlines()[0])
    assert list(record["files"]) == [str(weights)] and len(record["files"][str(weights)]) == 16
    weights.write_text(weights.read_text() + "\n")
    with pytest.raises(ParametersError, match="digest"):
        run_match(settings, 4, str(out), jobs=1)


def test_the_library_refuses_before_any_game(engines, tmp_path):
    out = str(tmp_path / "o.jsonl")
    with pytest.raises(EngineError, match="even number"):
        run_match(_settings(engines), 5, out)
    with pytest.raises(EngineFailure, match="cannot start"):
        run_match(_settings(("builtin", "ugi:/nonexistent/engine")), 2, out)
    assert not os.path.exists(out)


HELIOS = Path("/tmp/peer/ugi/target/release/gyges_engine")


@pytest.mark.skipif(not HELIOS.exists(),
                    reason="Helios is not built (docs/engine.md: Helios, the other engine)")
def test_a_match_against_helios_ends_its_programs(tmp_path):
    """Helios under its rules, two jobs: every game refereed, and no Helios left running
    (it spins at the end of its input: it is told to quit, then killed)."""
    helios = tmp_path / "gyges_engine"    # a path of its own: to find its processes
    shutil.copy(HELIOS, helios)
    out = tmp_path / "helios.jsonl"
    result = CliRunner().invoke(cli, [
        "match", "builtin:depth=1,prove=0", f"ugi:{helios}", "--time", "0.05", "--games",
        "4", "--max-plies", "8", "--jobs", "2", "--rules", "pbmserv", "--rule",
        "rebounce=once", "--rule", "null-move=allowed", "--rule", "blocked=draw", "--rule",
        "repetition=allowed", "--out", str(out), "-q"])
    assert result.exit_code == 0, result.output
    records = [json.loads(line) for line in out.read_text().splitlines()]
    assert len(records) == 4
    assert all("failed" not in r["reason"] and "illegal" not in r["reason"] for r in records)
    _none_left(str(helios))
