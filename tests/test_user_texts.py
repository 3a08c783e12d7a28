"""What a user reads says what is true: help texts whose examples exist, option help,
singular forms and no negative zero in what a command prints, book notes without solver
internals, and the files the README makes ignored by git."""

from __future__ import annotations

import pytest
from common import ROOT, START, run_gyges


@pytest.mark.parametrize("command", [["solve"], ["catalogue"], ["catalogue", "check"],
                                     ["catalogue", "add"], ["export"], ["generate"],
                                     ["setups", "analyze"], ["setups", "report"], ["perft"]],
                         ids=" ".join)
def test_help_texts_have_examples_that_exist(command):
    text = run_gyges(*command, "--help").output
    assert "Example" in text
    for path in {w for w in text.split() if w.startswith("tests/")}:
        assert (ROOT / path).exists(), path


def test_option_help_says_what_is_true():
    assert "file's preset" not in run_gyges("generate", "--help").output
    assert "1..30" in run_gyges("solve", "--help").output


def test_match_help_names_every_builtin_option():
    from gyges.engine.players import BUILTIN_OPTIONS

    text = " ".join(run_gyges("match", "--help").output.split())
    listed = text.split("(the builtin engine; options ")[1].split(")")[0]
    assert [w.strip() for w in listed.split(",")] == list(BUILTIN_OPTIONS)


def test_setups_report_has_no_negative_zero():
    from gyges.setups import PairRecord, report

    rec = {"south": "231123", "north": "321123", "result": "none", "landing_threats": 0,
           "south_moves": 1, "north_moves": 1, "blunders": 0, "replace_threats": 0,
           "south_replaces": 0, "north_replaces": 0, "keys": [], "format": 1,
           "depth": 1, "rules": "r", "win_in": None, "defence": None}
    text = report([PairRecord.from_json(r) for r in (rec, {**rec, "north": "312213"})], None)
    assert "-0.0000" not in text and "+0.0000" in text


def test_book_html_says_within_one_move_in_the_singular():
    from gyges.puzzles.book.html import export_html
    from gyges.puzzles.catalogue import parse_catalogue

    cat = parse_catalogue(f'schema: 1\npuzzles:\n- id: a\n  position: "{START}"\n'
                          "  stipulation: no forced result in 1\n")
    text = export_html(list(cat.puzzles), title="t")
    assert "within 1 move." in text and "within 1 moves" not in text


def test_readme_outputs_are_ignored_and_book_notes_have_no_internals():
    ignored = (ROOT / ".gitignore").read_text().split()
    for name in ("/book/", "/table.jsonl", "/heatmap.svg", "/my-puzzles.yaml",
                 "/my-puzzles.yaml.jsonl", "/m.jsonl", "/games.jsonl", "/ranking.svg"):
        assert name in ignored
    import inspect

    from gyges.puzzles.book import model as book
    from gyges.puzzles.generate import entries
    assert "solver nodes" not in inspect.getsource(entries.entry_text)
    assert '"; ".join(x for x in (p.source, p.credit)' not in inspect.getsource(book)
