"""The README's exit-status table, command by command.

Every command is run for each status it can give: 0 (done), 1 (a check failed: only the
commands the README names), 2 (bad input: one line, no traceback) and 130 (interrupted:
Ctrl-C anywhere in the command gives one ``gyges: interrupted`` line).
"""

from __future__ import annotations

import re
from pathlib import Path

import click
import pytest
from click.testing import CliRunner
from common import BOUNCING, DATA, ROOT, START, catalogue_entry, run_gyges, write

from gyges_cli.common import EXIT_BAD_INPUT, EXIT_CHECK_FAILED, EXIT_INTERRUPTED, fail
from gyges_cli.main import cli


def catalogue(tmp: Path, name: str, *entries: str, head: str = "schema: 1\npuzzles:\n") -> str:
    return str(write(tmp / name, head + "".join(entries)))


def good(tmp: Path) -> str:
    return catalogue(tmp, "good.yaml", catalogue_entry("b"))


def wrong(tmp: Path) -> str:   # the solver refutes it: North wins in 1, not 2
    return catalogue(tmp, "wrong.yaml", catalogue_entry("b", stipulation="North wins in 2"))


def illegal(tmp: Path) -> str:  # the key lands on North's own goal
    return catalogue(tmp, "illegal.yaml", catalogue_entry("b", key="51-43-33-31-21-N"))


def malformed(tmp: Path) -> str:
    return catalogue(tmp, "bad.yaml", "- id: b\n  stipulation: [\n")


def record(tmp: Path, text: str) -> str:
    return str(write(tmp / "game.txt", text))


def analysis(tmp: Path) -> str:
    out = tmp / "t.jsonl"
    r = run_gyges("setups", "analyze", "--south", "231123", "--north", "321123,312213",
                  "--depth", "1", "-q", "--jobs", "1", "--out", out)
    assert r.exit_code == 0, r.output
    return str(out)


def study(tmp: Path) -> list[str]:
    """A small games file and an evaluation file of the same pairs: ``setups answer``'s
    arguments."""
    games, evaluations = tmp / "g.jsonl", tmp / "e.jsonl"
    pairs = ["--south", "231123,112233,123123", "--north", "321123,312213,332211"]
    r = run_gyges("setups", "rank", *pairs, "--depth", "1", "--prove", "0", "-q", "--jobs",
                  "1", "--games", "18", "--out", games)
    assert r.exit_code == 0, r.output
    r = run_gyges("setups", "evaluate", *pairs, "--nodes", "300", "-q", "--jobs", "1",
                  "--out", evaluations)
    assert r.exit_code == 0, r.output
    return [str(games), "--evaluations", str(evaluations)]


def rungs(tmp: Path) -> list[str]:
    """Two small games files of the same pairs at depths 1 and 2: a ladder."""
    out = []
    for depth in (1, 2):
        path = tmp / f"d{depth}.jsonl"
        r = run_gyges("setups", "rank", "--south", "231123,112233,123123", "--north",
                      "321123,312213,332211", "--depth", str(depth), "--prove", "0", "-q",
                      "--jobs", "1", "--games", "18", "--out", path)
        assert r.exit_code == 0, r.output
        out.append(str(path))
    return out


# (command, status) -> a function of a temporary directory giving the arguments
GAMES = DATA / "engine-games-sample.jsonl"  # 40 games of engine-data

CASES = {
    ("show", 0): lambda t: ["show", START],
    ("show", 2): lambda t: ["show", "321123/....../....../....../....../231123"],
    ("moves", 0): lambda t: ["moves", START, "--json"],
    ("moves", 2): lambda t: ["moves", str(t / "missing.yaml")],
    ("perft", 0): lambda t: ["perft", START, "-d", "2"],
    ("perft", 2): lambda t: ["perft", START, "-d", "0"],
    ("replay", 0): lambda t: ["replay", str(DATA / "sample_game.txt"), "-q"],
    ("replay", 1): lambda t: ["replay", record(t, "South North\n1 231123 2 321123\n3 16-66\n")],
    ("replay", 2): lambda t: ["replay", record(t, "South North\n1 231123 2 321123\n3 hello\n")],
    ("solve", 0): lambda t: ["solve", BOUNCING, "-n", "1"],
    ("solve", 2): lambda t: ["solve", BOUNCING, "-n", "31"],
    ("analyse", 0): lambda t: ["analyse", START, "--depth", "1"],
    ("analyse", 2): lambda t: ["analyse", START, "--depth", "0"],
    ("ugi", 0): lambda t: ["ugi"],
    ("engine-weights", 0): lambda t: ["engine-weights", "--rounds", "1", "--games", "4",
                                      "--nodes", "50", "--max-plies", "80", "--out",
                                      str(t / "w.json")],
    ("engine-weights", 2): lambda t: ["engine-weights", "--games", "0"],
    ("engine-data", 0): lambda t: ["engine-data", "--games", "2", "--nodes", "100",
                                   "--max-plies", "40", "--jobs", "1", "-q", "--out",
                                   str(t / "d.jsonl")],
    ("engine-data", 2): lambda t: ["engine-data", "--games", "0", "--out", str(t / "d.jsonl")],
    ("engine-labels", 0): lambda t: ["engine-labels", str(GAMES), "--nodes", "20", "--every",
                                     "8", "-q", "--out", str(t / "l.jsonl")],
    ("engine-labels", 2): lambda t: ["engine-labels", str(GAMES), "--every", "2", "--part", "3",
                                     "--out", str(t / "l.jsonl")],
    ("engine-calibration", 0): lambda t: ["engine-calibration", str(GAMES), "-q"],
    ("engine-calibration", 2): lambda t: ["engine-calibration", str(t / "missing.jsonl")],
    ("engine-network", 0): lambda t: ["engine-network", str(GAMES), "--hidden", "2",
                                      "--epochs", "1", "-q", "--out", str(t / "n.json")],
    ("engine-network", 2): lambda t: ["engine-network", str(GAMES), "--hidden", "0"],
    ("ugi", 2): lambda t: ["ugi", "--rules", "nonsense"],
    ("match", 0): lambda t: ["match", "builtin:depth=1,prove=0", "builtin:depth=1,prove=0",
                             "--games", "2", "--max-plies", "4", "--jobs", "1", "-q",
                             "--out", str(t / "m.jsonl")],
    ("match", 2): lambda t: ["match", "builtin", "builtin", "--games", "3",
                             "--out", str(t / "m.jsonl")],
    ("catalogue check", 0): lambda t: ["catalogue", "check", good(t), "-q"],
    ("catalogue check", 1): lambda t: ["catalogue", "check", wrong(t), "-q"],
    ("catalogue check", 2): lambda t: ["catalogue", "check", malformed(t), "-q"],
    ("catalogue list", 0): lambda t: ["catalogue", "list", good(t)],
    ("catalogue list", 2): lambda t: ["catalogue", "list", malformed(t)],
    ("catalogue rate", 0): lambda t: ["catalogue", "rate", good(t), "-q"],
    ("catalogue rate", 2): lambda t: ["catalogue", "rate", malformed(t), "-q"],
    ("catalogue themes", 0): lambda t: ["catalogue", "themes", good(t)],
    ("catalogue themes", 2): lambda t: ["catalogue", "themes", malformed(t)],
    # a new puzzle: the shipped bouncing example under other rules (the one under pbmserv
    # is in puzzles/, which add looks in)
    ("catalogue add", 0): lambda t: ["catalogue", "add", BOUNCING, "--rules", "dorbec",
                                     "--to", str(t / "c.yaml"),
                                     "--id", "x", "--max-moves", "1"],
    ("catalogue add", 2): lambda t: ["catalogue", "add", "nonsense", "--to",
                                     str(t / "c.yaml"), "--id", "x"],
    ("export", 0): lambda t: ["export", good(t), "--format", "text", "--out", str(t / "o")],
    ("export", 1): lambda t: ["export", illegal(t), "--format", "text", "--out", str(t / "o")],
    ("export", 2): lambda t: ["export", malformed(t), "--format", "text", "--out", str(t / "o")],
    ("generate", 0): lambda t: ["generate", "--stipulation", "win in 2", "--count", "1",
                                "--seed", "11", "--source", "play", "--jobs", "1", "--quiet",
                                "--out", str(t / "g.yaml")],
    ("generate", 1): lambda t: ["generate", "--stipulation", "win in 2", "--count", "1",
                                "--max-candidates", "1", "--source", "play", "--jobs", "1",
                                "--quiet", "--out", str(t / "g.yaml")],
    ("generate", 2): lambda t: ["generate", "--stipulation", "win in 2",
                                "--max-candidates", "0", "--out", str(t / "g.yaml")],
    ("review", 0): lambda t: ["review", str(DATA / "sample_game.txt"), "--max-moves", "1"],
    ("review", 2): lambda t: ["review", record(t, "South North\n1 231123 2 321123\n3 hello\n")],
    ("setups search", 0): lambda t: ["setups", "search", "--fix", "3@1", "--count"],
    ("setups search", 2): lambda t: ["setups", "search", "--fix", "3@9"],
    ("setups analyze", 0): lambda t: ["setups", "analyze", "--south", "231123", "--north",
                                      "321123", "--depth", "1", "-q", "--out",
                                      str(t / "a.jsonl")],
    ("setups analyze", 2): lambda t: ["setups", "analyze", "--depth", "31", "--out",
                                      str(t / "a.jsonl")],
    ("setups rank", 0): lambda t: ["setups", "rank", "--south", "231123", "--north",
                                   "321123", "--depth", "1", "--prove", "0", "-q", "--jobs",
                                   "1", "--out", str(t / "g.jsonl")],
    ("setups rank", 2): lambda t: ["setups", "rank", "--nodes", "0", "--out",
                                   str(t / "g.jsonl")],
    ("setups evaluate", 0): lambda t: ["setups", "evaluate", "--south", "231123", "--north",
                                       "321123", "--nodes", "500", "-q", "--jobs", "1",
                                       "--out", str(t / "e.jsonl")],
    ("setups evaluate", 2): lambda t: ["setups", "evaluate", "--nodes", "0", "--out",
                                       str(t / "e.jsonl")],
    ("setups answer", 0): lambda t: ["setups", "answer", *study(t)],
    ("setups answer", 2): lambda t: ["setups", "answer", analysis(t), "--evaluations",
                                     analysis(t)],
    ("setups validation-pairs", 0): lambda t: ["setups", "validation-pairs", "--count", "1",
                                               *study(t)[1:]],
    ("setups validation-pairs", 2): lambda t: ["setups", "validation-pairs", "--evaluations",
                                               analysis(t)],
    ("setups compare", 0): lambda t: ["setups", "compare", study(t)[2], study(t)[2]],
    ("setups compare", 2): lambda t: ["setups", "compare", study(t)[2], analysis(t)],
    ("setups validate", 0): lambda t: ["setups", "validate", *study(t), "--count", "1"],
    ("setups validate", 2): lambda t: ["setups", "validate", analysis(t), "--evaluations",
                                       analysis(t)],
    ("setups ladder", 0): lambda t: ["setups", "ladder", *rungs(t)],
    ("setups ladder", 2): lambda t: ["setups", "ladder", analysis(t), analysis(t)],
    ("setups report", 0): lambda t: ["setups", "report", analysis(t)],
    ("setups report", 2): lambda t: ["setups", "report", str(DATA / "sample_game.txt")],
}


def leaf_commands(group: click.Group = cli, prefix: str = "") -> dict[str, click.Command]:
    out = {}
    for name, command in group.commands.items():
        if isinstance(command, click.Group):
            out.update(leaf_commands(command, f"{prefix}{name} "))
        else:
            out[f"{prefix}{name}"] = command
    return out


def readme_table() -> dict[str, str]:
    """status -> the 'commands' cell of the README's table."""
    text = (ROOT / "README.md").read_text(encoding="utf-8")
    rows = re.findall(r"^\| (\d+) \| [^|]+ \| (.+) \|$", text, re.M)
    return dict(rows)


def test_the_readme_table_names_every_status_and_the_commands_that_fail_a_check():
    table = readme_table()
    assert set(table) == {"0", "1", "2", "130"}
    named = set(re.findall(r"`([a-z ]+)`", table["1"]))
    assert named == {c for c, status in CASES if status == 1}
    for status in ("0", "2", "130"):
        assert table[status] == "every command"


def test_every_command_has_its_cases():
    for name in leaf_commands():
        assert (name, 0) in CASES and (name, 2) in CASES, name


@pytest.mark.parametrize(("name", "status"), sorted(CASES))
def test_exit_status(tmp_path, name, status):
    args = CASES[name, status](tmp_path)
    r = run_gyges(*args)
    assert r.exit_code == status, (args, r.output)
    assert r.exception is None or isinstance(r.exception, SystemExit), repr(r.exception)
    assert "Traceback" not in r.output
    if status == 2:  # one line naming the input (catalogue check: one per error found)
        lines = r.stderr.splitlines()
        assert lines, r.output
        assert all(re.match(r"gyges: |\S+:\d+: ", ln) for ln in lines), r.stderr


@pytest.mark.parametrize("name", sorted(leaf_commands()))
def test_ctrl_c_anywhere_is_exit_130_with_one_message(tmp_path, monkeypatch, name):
    command = leaf_commands()[name]

    def interrupted(*args, **kwargs):
        raise KeyboardInterrupt

    monkeypatch.setattr(command, "callback", interrupted)
    r = run_gyges(*CASES[name, 0](tmp_path))
    assert r.exit_code == 130, r.output
    assert [ln for ln in r.output.splitlines() if "interrupted" in ln] == \
        ["gyges: interrupted"]


@pytest.mark.parametrize(("status", "message"), [
    (EXIT_CHECK_FAILED, ""), (EXIT_CHECK_FAILED, "only 2 of 3 found"),
    (EXIT_BAD_INPUT, "a bad file"), (EXIT_INTERRUPTED, "interrupted: nothing kept"),
])
def test_fail_ends_a_command_with_its_status_and_one_line(status, message):
    @click.command()
    def command() -> None:
        click.echo("printed first")
        fail(status, message)

    r = CliRunner().invoke(command, [])
    assert r.exit_code == status and isinstance(r.exception, SystemExit)
    assert r.stdout == "printed first\n"
    assert r.stderr == (f"gyges: {message}\n" if message else "")
