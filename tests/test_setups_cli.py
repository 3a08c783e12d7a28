"""The ``gyges setups`` commands (gyges_cli/setups.py): output modes, constraint sources,
and bad input as one line, in the command's words (the options the user typed)."""

from __future__ import annotations

import json
import xml.etree.ElementTree as ET

import pytest
import yaml
from click.testing import CliRunner

from gyges.engine.identity import engine_identity
from gyges.game.moves import legal_moves
from gyges.game.position import Position
from gyges.game.rules import PRESETS
from gyges_cli.main import cli
from tests.setups_oracle import BRUTE_SETUPS, adjacent, brute

RULES_TEXT = ("taboo=connection rebounce=allowed replace=shore blocked=pass "
              "repetition=forbidden null-move=forbidden win=goal setup=south-first")


def gyges(*args: str):
    return CliRunner().invoke(cli, list(args))


def test_cli_count_list_json_and_yaml(tmp_path):
    r = gyges("setups", "search", "--side", "pair", "--count")
    assert r.exit_code == 0 and r.output.strip() == "8100"
    r = gyges("setups", "search", "--fix", "3@1", "--apart", "3")
    assert r.exit_code == 0
    assert r.output.split() == brute(lambda s: s[0] == "3" and not adjacent(s, "3"))
    f = tmp_path / "c.yaml"
    f.write_text(yaml.safe_dump({"side": "pair", "fix": ["N:3@1"], "north-as": "rotated",
                                 "symmetric": "south"}))
    r = gyges("setups", "search", "--file", str(f), "--json")
    assert r.exit_code == 0, r.output
    data = json.loads(r.output)
    want = [{"south": s, "north": s[::-1]} for s in BRUTE_SETUPS
            if s == s[::-1] and s[5] == "3"]
    assert data["results"] == want and data["count"] == len(want) == 2
    assert data["side"] == "pair" and data["preset"] == "pbmserv" and not data["canonical"]
    # KEY=VALUE arguments, the file as an argument, and options add up
    r = gyges("setups", "search", str(f), "apart=1", "--count")
    assert r.exit_code == 0 and int(r.output) == len(
        [s for s in BRUTE_SETUPS if s == s[::-1] and s[5] == "3" and not adjacent(s, "1")])
    r = gyges("setups", "search", "--fix", "3@1", "--count", "--json")
    data = json.loads(r.output)
    assert "results" not in data and data["count"] == 30


def test_cli_bad_input_exit_2(tmp_path):
    for args in (["--fix", "9@9"], ["colour=red"], ["--file", str(tmp_path / "none.yaml")],
                 ["--side", "pair", "--min-moves", "-3"]):
        r = gyges("setups", "search", *args)
        assert r.exit_code == 2, (args, r.output)
        assert "Traceback" not in r.output
    bad = tmp_path / "bad.yaml"
    bad.write_text("fix: [3@1\n")
    r = gyges("setups", "search", "--file", str(bad))
    assert r.exit_code == 2 and "bad.yaml" in r.output and "line" in r.output


def test_cli_symmetric_optional_value_and_rules():
    r = gyges("setups", "search", "--symmetric", "--apart", "1")
    assert r.exit_code == 0, r.output
    assert r.output.split() == brute(lambda s: s == s[::-1] and not adjacent(s, "1"))
    r = gyges("setups", "search", "--side", "pair", "--symmetric", "north", "--south", "231123",
              "--count")
    assert r.exit_code == 0 and int(r.output) == 6
    # engine properties follow --rules: without replace, no first move is a replace
    r = gyges("setups", "search", "--rules", "dorbec-beginner", "--side", "pair",
              "--north", "321123", "--fix", "3@1", "--min-moves", "30")
    assert r.exit_code == 0, r.output
    rules = PRESETS["dorbec-beginner"]
    want = [f"{s} 321123" for s in BRUTE_SETUPS if s[0] == "3"
            and len(legal_moves(Position.setup(s, "321123"), rules)) >= 30]
    assert r.stdout.strip().splitlines() == want and want


def test_cli_engine_rounds_on_stderr():
    r = gyges("setups", "search", "--side", "pair", "--north", "321123", "--min-moves", "400")
    assert r.exit_code == 0 and len(r.stdout.split("\n")) == 6
    assert r.stderr == ("gyges: round 1: 90 proposed, 85 cut\n"
                        "gyges: round 2: 5 proposed, 0 cut\n")


def test_cli_yaml_key_off_and_flag_words(tmp_path):
    f = tmp_path / "off.yaml"
    f.write_text("off: [3@16]\n")
    r = gyges("setups", "search", str(f))
    assert r.exit_code == 0, r.output
    assert r.output.split() == brute(lambda s: "3" not in s[0] + s[5])
    f.write_text("canonical: yes\n")
    r = gyges("setups", "search", "--file", str(f), "--count")
    assert r.exit_code == 2
    assert r.stderr == f"gyges: {f}: canonical: 'yes' is not true or false\n"
    r = gyges("setups", "search", "side=pair", "canonical=false", "--count")
    assert r.exit_code == 0 and r.output.strip() == "8100"


@pytest.mark.parametrize("args, message", [
    pytest.param(["--fix", "N:3@1"],
                 "setups search: constraints on North's setup need North in the search: use "
                 "--side pair, or fix North's setup with --north SETUP", id="scope"),
    pytest.param(["--side", "north", "--fix", "S:1@1"],
                 "setups search: constraints on South's setup need South in the search: use "
                 "--side pair, or fix South's setup with --south SETUP", id="scope-south"),
    pytest.param(["--min-moves", "3"],
                 "setups search: engine properties (lands-in, cannot-land-in, min-moves, "
                 "replace threats) are properties of the start position: fix North's setup "
                 "with --north SETUP, tie it with --north-as, or use --side pair",
                 id="engine-scope"),
    pytest.param(["--side", "north", "--min-moves", "3"],
                 "setups search: engine properties (lands-in, cannot-land-in, min-moves, "
                 "replace threats) are properties of the start position: fix South's setup "
                 "with --south SETUP, tie it with --north-as, or use --side pair",
                 id="engine-scope-north"),
    pytest.param(["colour=red"],
                 "setups search: 'colour=red' is neither KEY=VALUE with a constraint key (side, "
                 "fix, off, apart, symmetric, centre, edges, south, north, north-as, lands-in, "
                 "cannot-land-in, min-moves, no-replace-threat, max-replace-threats, canonical) "
                 "nor a constraint file", id="argument"),
    pytest.param(["--fix", "9@9"], "setups search: fix: '9@9' is not SIZE@COLUMN: write a size "
                 "1-3, '@' and a column 1-6, like 3@1", id="fix"),
])
def test_cli_search_messages(args, message):
    r = gyges("setups", "search", *args)
    assert r.exit_code == 2 and r.stderr == f"gyges: {message}\n"


def test_cli_search_file_messages(tmp_path):
    f = tmp_path / "scope.yaml"
    f.write_text("fix: [N:3@1]\n")
    r = gyges("setups", "search", "--file", str(f))
    assert r.exit_code == 2 and r.stderr == (
        f"gyges: {f}: constraints on North's setup need North in the search: use --side "
        "pair, or fix North's setup with --north SETUP\n")
    f.write_text("fix: [3@1\n")
    r = gyges("setups", "search", "--file", str(f))
    assert r.stderr == (f"gyges: {f}, line 2: not valid YAML: expected ',' or ']', but got "
                        "'<stream end>'\n")
    r = gyges("setups", "search", "--file", str(tmp_path / "none.yaml"))
    assert r.stderr == (f"gyges: {tmp_path / 'none.yaml'}: cannot read it: No such file or "
                        "directory\n")


@pytest.mark.parametrize("option, value", [("--south", "123"), ("--north", "32112")],
                         ids=["south", "north"])
def test_cli_analyze_names_the_option_of_a_bad_setup(tmp_path, option, value):
    r = gyges("setups", "analyze", option, value, "--out", str(tmp_path / "x.jsonl"))
    assert r.exit_code == 2 and r.stderr == (
        f"gyges: {option}: {value!r} is not a setup: give six digits, two 1s, two 2s and two "
        "3s, for columns 1 to 6, like 231123\n")
    assert not (tmp_path / "x.jsonl").exists()


def test_cli_analyze_names_the_option_of_another_analysis(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)       # a short path: the message is not shortened
    out = tmp_path / "a.jsonl"
    args = ["setups", "analyze", "--south", "231123", "--north", "321123", "--jobs", "1", "-q",
            "--out", "a.jsonl"]
    assert gyges(*args, "--depth", "1").exit_code == 0
    before = out.read_bytes()
    r = gyges(*args, "--depth", "2")
    engine = str(engine_identity())        # the same engine: the depth differs
    assert r.exit_code == 2 and r.stderr == (
        f"gyges: a.jsonl:1: made with other parameters (depth 1, rules {RULES_TEXT}, "
        f"{engine}, not depth 2, rules {RULES_TEXT}, {engine}): rerun with those to resume "
        "it, or choose another --out\n")
    assert out.read_bytes() == before
    r = gyges(*args, "--depth", "1", "--canonical")
    assert r.exit_code == 2 and r.stderr.startswith(
        f"gyges: a.jsonl:1: made with other parameters (depth 1, rules {RULES_TEXT}, "
        f"{engine}, not depth 1, canonical pairs, rules {RULES_TEXT}")
    assert out.read_bytes() == before


def test_cli_analyze_report_and_svg(tmp_path):
    out = tmp_path / "c.jsonl"
    r = gyges("setups", "analyze", "--south", "231123", "--north", "321123,123321", "--depth",
              "1", "--jobs", "1", "--out", str(out), "--quiet")
    assert r.exit_code == 0, r.output
    assert r.stderr == f"2 pairs analysed, 0 already in {out}\n"
    assert len(out.read_text().splitlines()) == 2
    svg = tmp_path / "h.svg"
    r = gyges("setups", "report", str(out), "--svg", str(svg))
    assert r.exit_code == 0 and "2 setup pairs" in r.output
    ET.parse(svg)
    for args in (["analyze", "--south", "123", "--out", str(out)],
                 ["analyze", "--depth", "0", "--out", str(out)],
                 ["report", str(tmp_path / "missing.jsonl")]):
        r = gyges("setups", *args)
        assert r.exit_code == 2 and "Traceback" not in r.output, (args, r.output)


def test_cli_analyze_a_list_of_pairs_and_canonical_pairs(tmp_path):
    pairs = tmp_path / "p.txt"
    r = gyges("setups", "search", "--side", "pair", "--south", "321132", "--fix", "N:3@1")
    assert r.exit_code == 0
    listed = [tuple(line.split()) for line in r.stdout.splitlines()]
    pairs.write_text("# pairs\n" + r.stdout + f"{r.stdout.splitlines()[0]}  # again\n")
    out = tmp_path / "p.jsonl"
    r = gyges("setups", "analyze", "--pairs", str(pairs), "--depth", "1", "-j", "1", "-q",
              "--out", str(out))
    assert r.exit_code == 0, r.output
    assert [(x["south"], x["north"]) for x in map(json.loads, out.read_text().splitlines())
            ] == listed and len(listed) == 30
    # the same pairs, canonical: South 321132 is the mirror of 231123, which comes first
    canon = tmp_path / "c.jsonl"
    r = gyges("setups", "analyze", "--pairs", str(pairs), "--canonical", "--depth", "1",
              "-j", "1", "-q", "--out", str(canon))
    assert r.exit_code == 0, r.output
    records = [json.loads(line) for line in canon.read_text().splitlines()]
    assert sorted((x["south"], x["north"]) for x in records) == sorted(
        ("231123", n[::-1]) for _, n in listed)
    assert all(x["canonical"] is True for x in records)
    r = gyges("setups", "report", str(canon))
    norths = {n for _, n in listed} | {n[::-1] for _, n in listed}
    assert r.exit_code == 0 and r.stdout.startswith(
        f"30 canonical pairs (60 with mirrors: 2 South setups x {len(norths)} North setups), "
        "depth 1")
    r = gyges("setups", "report", str(out))
    assert r.stdout.startswith("30 setup pairs (1 South setup x 30 North setups), depth 1")


@pytest.mark.parametrize("text, message", [
    pytest.param("231123 321123\n231123 32112\n", "p.txt:2: '32112' is not a setup: give six "
                 "digits, two 1s, two 2s and two 3s, for columns 1 to 6, like 231123",
                 id="setup"),
    pytest.param("231123,321123\n", "p.txt:1: '231123,321123' is not a pair: write SOUTH "
                 "NORTH, two setups like 231123 321123", id="pair"),
    pytest.param("# nothing\n", "p.txt: no pairs: write one SOUTH NORTH pair per line, as "
                 "'gyges setups search --side pair' prints them", id="empty"),
])
def test_cli_analyze_a_bad_list_of_pairs(tmp_path, monkeypatch, text, message):
    monkeypatch.chdir(tmp_path)
    (tmp_path / "p.txt").write_text(text)
    r = gyges("setups", "analyze", "--pairs", "p.txt", "--out", "x.jsonl")
    assert r.exit_code == 2 and r.stderr == f"gyges: {message}\n"
    r = gyges("setups", "analyze", "--pairs", "p.txt", "--north", "all", "--out", "x.jsonl")
    assert r.exit_code == 2 and r.stderr == ("gyges: --pairs: give either a list of pairs or "
                                             "--south and --north, not both\n")
    assert not (tmp_path / "x.jsonl").exists()


def test_cli_report_help_says_what_its_numbers_are():
    r = gyges("setups", "report", "--help")
    text = " ".join(r.output.split())
    for words in ("score", "landing threats", "narrowest defence", "canonical"):
        assert words in text, words
