"""Themes read from the main line, titles that tell problems apart, and notes that state no
count the check does not redo (issue 39, points 2, 3 and 5)."""

from __future__ import annotations

import dataclasses
import re

import pytest
from catalogues import every_puzzle, run

from gyges.formats.notation import parse_move
from gyges.game.rules import PRESETS
from gyges.puzzles.catalogue import THEMES, check_puzzle, parse_catalogue, theme_counts
from gyges.puzzles.catalogue.checking import title_problems
from gyges.puzzles.catalogue.schema import CatalogueError, theme_problem
from gyges.puzzles.generate.params import parse_themes
from gyges.puzzles.lines import (
    catalogue_titles,
    distinct_title,
    line_themes,
    play_line,
    title_candidates,
)

RULES = PRESETS["pbmserv"]

#: One shipped entry for each theme the shipped catalogue shows (docs/catalogue.md quotes
#: them), and one that does not show it.
EXAMPLES = {
    "bounce chain 4": ("seed000-bouncing", "seed000-taboo"),
    "relocation bridge": ("gen-w2-s7-00010", "gen-w2-s1-00026"),
    "late relocation": ("gen-w3-s1-00014", "gen-w2-s7-00010"),
    "relocation backfires": ("gen-w2-s7-00019", "gen-w2-s7-00010"),
    "relocating defence": ("gen-w2-s1-00026", "gen-w2-s7-00010"),
    "waiting key": ("gen-w2-s1-00032", "gen-w2-s7-00010"),
    "gift": ("gen-w3-s1-00014", "gen-w2-s7-00010"),
    "runner": ("gen-w2-s7-00010", "gen-w2-s1-00026"),
    "back-row landing": ("gen-w2-s7-00010", "gen-w2-s1-00032"),
    "stalemate chain": ("seed000-stalemate", "seed000-taboo"),
    "taboo": ("seed000-taboo", "seed000-bouncing"),
    "unstoppable": ("solver-006", "seed000-taboo"),
}


@pytest.fixture(scope="module")
def shipped():
    return every_puzzle()


def _shown(p) -> list[str]:
    return line_themes(play_line(p.position, p.rules, p.main_line, p.history), p.rules,
                       p.stipulation, p.history)


def test_every_theme_is_described_and_accepted():
    assert "bounce chain N" in THEMES and all(d for d in THEMES.values())
    for t in THEMES:
        if t != "bounce chain N":
            assert theme_problem(t) is None
    assert "no longer used" in theme_problem("relocation")
    assert "unknown theme" in theme_problem("sparkle")


@pytest.mark.parametrize("theme", sorted(EXAMPLES))
def test_each_theme_has_an_entry_that_shows_it_and_one_that_does_not(shipped, theme):
    by_id = {p.id: p for p in shipped}
    yes, no = (by_id[i] for i in EXAMPLES[theme])
    assert theme in _shown(yes) and theme in yes.themes
    assert theme not in _shown(no) and theme not in no.themes


def test_the_themes_follow_their_definitions_on_a_line(shipped):
    """gen-w3-s1-00014, 1. 51-41-43-13 13-23 2. 53-45x35=55 23-13 3. 55-45-35-S: the key
    puts a single on South's row 1 (South plays it: a gift), relocates nothing (a later
    move does: a late relocation), and the ring the key moved is not the one that lands."""
    p = next(q for q in shipped if q.id == "gen-w3-s1-00014")
    line = play_line(p.position, RULES, ["51-41-43-13", "13-23", "53-45x35=55", "23-13",
                                         "55-45-35-S"], p.history)
    key, defence = line.moves[0], line.moves[1]
    assert key.relocation is None and line.moves[2].relocation is not None
    assert defence.start == key.end                       # the defender moves the gift
    shown = line_themes(line, RULES, p.stipulation, p.history)
    assert {"late relocation", "gift"} <= set(shown)
    assert not {"runner", "relocation bridge", "waiting key"} & set(shown)
    # the same line read as a loss of the other side's: the key's themes are a winner's
    assert "gift" not in line_themes(line, RULES, dataclasses.replace(p.stipulation,
                                                                      kind="none"))


def test_every_shipped_entry_declares_the_themes_its_line_shows(shipped):
    for p in shipped:
        assert [t for t in p.themes if t != "Renop"] == _shown(p), p.id


def test_no_theme_is_on_more_than_half_of_the_shipped_catalogue(shipped):
    counts = theme_counts(shipped)
    assert counts and counts[0].total == len(shipped)
    assert [c.problems for c in counts] == sorted((c.problems for c in counts), reverse=True)
    assert all(c.share <= 0.5 for c in counts), counts[0]
    by_theme = {c.theme: c.problems for c in counts}
    assert by_theme["relocation bridge"] == sum("relocation bridge" in p.themes
                                                for p in shipped)


def test_the_themes_command_prints_the_counts():
    result = run("catalogue", "themes", "puzzles/seed000.yaml")
    assert result.exit_code == 0
    lines = result.output.splitlines()
    assert lines[0].split() == ["theme", "puzzles", "share"]
    assert re.fullmatch(r"stalemate chain\s+1\s+20%", lines[2 + [
        r.split("  ")[0] for r in lines[2:]].index("stalemate chain")])
    assert lines[-1].startswith("5 puzzles; the most common theme is on 40%")


def test_generate_targets_every_theme_it_can_compose():
    names = [t for t in THEMES if t not in ("bounce chain N", "unstoppable")]
    assert parse_themes(", ".join(names)) == tuple(names)


# Titles


def test_shipped_titles_are_unique_and_numeral_free(shipped):
    titles = [p.title for p in shipped]
    assert len(titles) == len(set(titles)) and all(titles)
    assert not any(re.search(r"\b[IVXL]+$", t) for t in titles)
    assert title_problems(shipped) == {}


def test_no_title_gives_the_key_away(shipped):
    """A title is printed above the problem: it names the key's square, never the key."""
    for p in shipped:
        assert p.key is None or p.key not in p.title, (p.id, p.title)
        assert not re.search(r"\d\d[-x]\d\d", p.title), (p.id, p.title)


def test_a_generated_title_names_the_motif_the_square_and_the_length(shipped):
    for p in shipped:
        if p.id.startswith("seed000"):
            continue
        line = play_line(p.position, p.rules, p.main_line, p.history)
        assert p.title in title_candidates(line, p.stipulation, p.themes), p.id
        key = parse_move(p.key, p.position, p.rules, p.history)
        assert f"{key.start // 6 + 1}{key.start % 6 + 1}" in p.title
        assert f"in {p.stipulation.moves}" in p.title


def test_titles_move_on_until_they_tell_problems_apart(shipped):
    by_id = {p.id: p for p in shipped}
    p = by_id["gen-w2-s7-00010"]
    line = play_line(p.position, p.rules, p.main_line, p.history)
    first = title_candidates(line, p.stipulation, p.themes)[0]
    assert distinct_title(line, p.stipulation, p.themes) == first
    taken = {first}
    assert distinct_title(line, p.stipulation, p.themes, taken) not in taken
    # the same problem twice: the catalogue's titles still differ... unless the problems
    # are alike in every particular, when the id tells them apart
    twin = ("twin", line, p.stipulation, p.themes)
    titles = catalogue_titles([(p.id, line, p.stipulation, p.themes), twin])
    assert len(set(titles.values())) == 2
    fixed = catalogue_titles([(p.id, line, p.stipulation, p.themes)], {"x": first})
    assert fixed[p.id] != first


def test_check_names_both_ids_of_a_repeated_title(shipped):
    a, b = shipped[0], shipped[1]
    twin = dataclasses.replace(b, title=a.title)
    (problem,) = title_problems([a, twin])[id(twin)]
    assert isinstance(problem, CatalogueError)
    assert a.id in str(problem) and twin.id in str(problem) and repr(a.title) in str(problem)


# Notes and sources


def test_no_shipped_note_states_a_count_the_check_does_not_redo(shipped):
    counted = re.compile(r"\b\d+ of [A-Z]?\w+'s \d+|\(and \d+ more\)|duals after \d+|"
                         r"\b(?:\d+|two|three|four|five|six|seven|eight|nine|ten|eleven|"
                         r"twelve|thirteen|fourteen|fifteen) (?:first )?moves (?:win|lose)")
    for p in shipped:
        assert not counted.search(p.notes), (p.id, p.notes)


SOUND = "321..2/1...../....../2....2/...3../.331.1 S"   # South wins in 2, key 12-24x36=54


def _entry(source: str) -> str:
    return f"""schema: 1
puzzles:
- id: stated
  position: "{SOUND}"
  source: "{source}"
  stipulation: South wins in 2
  solution: {{key: 12-24x36=54, main-line: [12-24x36=54, 62-42, 14-24-54-N]}}
"""


def test_check_refuses_a_source_that_misstates_the_keys_kind():
    (p,) = parse_catalogue(_entry("CP-SAT construction: a plain key, then ...")).puzzles
    problems = check_puzzle(p)
    assert len(problems) == 1
    assert "says 'a plain key' but the key 12-24x36=54 relocates a ring" in str(problems[0])
    assert "write 'a relocation key'" in str(problems[0])
    (p,) = parse_catalogue(_entry("CP-SAT construction: a relocation key, ...")).puzzles
    assert check_puzzle(p) == []


def test_generate_and_add_title_a_new_entry_unlike_the_catalogues(tmp_path):
    from gyges.puzzles.catalogue import add_entry
    from gyges.puzzles.generate.entries import entry_text
    from gyges.puzzles.generate.params import Params
    from gyges.puzzles.generate.soundness import assess_soundness
    from gyges.puzzles.generate.state import CandidateRecord
    from gyges.puzzles.symmetry import canonical

    position = parse_catalogue(_entry("")).puzzles[0].position
    rec = CandidateRecord.from_json({
        **assess_soundness(position, RULES, 2).to_json(), "index": 1, "source": "play",
        "canonical": canonical(position), "design": {}})
    params = Params(2, RULES, seed=3)

    def title(text: str) -> str:
        return parse_catalogue("schema: 1\npuzzles:\n" + text).puzzles[0].title

    first = title(entry_text(rec, params))
    assert first == "Relocation bridge from 12 in 2"
    second = title(entry_text(rec, params, {first}))
    assert second != first and second.startswith("Relocation bridge and back-row landing")
    # catalogue add: a title of the catalogue the entry joins is not given again
    mine = tmp_path / "mine.yaml"
    mine.write_text(f"schema: 1\npuzzles:\n- id: other\n  title: {first}\n"
                    "  position: \"....../3...../..1.1./1.23.3/3.22.1/....2. N\"\n"
                    "  stipulation: North wins in 1\n"
                    "  solution: {key: 51-43-33-31-21-S, main-line: [51-43-33-31-21-S]}\n")
    found, text = add_entry(mine, "new", position, RULES, max_moves=2)
    assert title(text) == second
