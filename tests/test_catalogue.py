"""The puzzle catalogue: reading with located errors, re-proving, and the CLI commands."""

from __future__ import annotations

import pytest
from catalogues import PUZZLES, run
from common import BOUNCING as BOUNCING_STRING
from common import ROOT, catalogue_entry, write

from gyges.formats.notation import parse_move
from gyges.game.moves import apply_move, legal_moves
from gyges.game.position import Position
from gyges.game.rules import PRESETS, Side
from gyges.puzzles.catalogue import (
    CatalogueError,
    add_entry,
    catalogue_files,
    check_catalogue,
    check_puzzle,
    load_all,
    load_catalogue,
    parse_catalogue,
)
from gyges.puzzles.lines import play_line
from gyges.search.stipulation import Stipulation

PBM = PRESETS["pbmserv"]

BOUNCING = """\
schema: 1
puzzles:
- id: bouncing
  title: Bouncing
  rules: pbmserv
  diagram: |
    1 2 3 4 5 6
    N
    . . . . . . 6
    3 . . . . . 5
    . . 1 . 1 . 4
    1 . 2 3 . 3 3
    3 . 2 2 . 1 2
    . . . . 2 . 1
    S
    North to move
  stipulation: North wins in 1
  solution:
    key: 51-43-33-31-21-S
    main-line: ["51-43-33-31-21-(11-12-)S"]
  themes: [bounce chain 4]
  difficulty: 1
"""

TABOO = """\
schema: 1
puzzles:
- id: taboo
  position: "....../1...../3.23../3.211./2.132./...... S"
  stipulation: South wins in 1
  solution:
    key: 24-25-34-44-N
    main-line: ["24-25-34-44-N"]
"""

STALEMATE = """\
schema: 1
puzzles:
- id: stalemate
  position: ".3.3.3/112232/...1.2/...1../....../...... S"
  stipulation: South wins in 2
  solution:
    key: 34-44-43
    main-line: ["34-44-43; 43-53-N"]
"""


def load(text: str, name: str = "t.yaml"):
    return parse_catalogue(text, name)


def error_of(text: str) -> CatalogueError:
    with pytest.raises(CatalogueError) as info:
        load(text)
    return info.value


# -- reading -------------------------------------------------------------------------------


def test_reads_a_puzzle_with_its_diagram_and_lines():
    (p,) = load(BOUNCING).puzzles
    assert p.id == "bouncing" and p.title == "Bouncing"
    assert str(p.position) == "....../3...../..1.1./1.23.3/3.22.1/....2. N"
    assert p.stipulation == Stipulation("win", 1, Side.NORTH)
    assert p.key == "51-43-33-31-21-S"
    assert p.main_line == ("51-43-33-31-21-(11-12-)S",)
    assert p.themes == ("bounce chain 4",) and p.difficulty == 1
    assert p.rules == PBM
    assert p.line == 3 and p.line_of("stipulation") == 17 and p.line_of("key") == 19


def test_a_bare_list_needs_schema_in_each_entry():
    text = BOUNCING.replace("schema: 1\npuzzles:\n", "")
    e = error_of(text)
    assert "schema: 1" in e.problem and e.puzzle == "bouncing"
    ok = text.replace("  title: Bouncing\n", "  title: Bouncing\n  schema: 1\n")
    assert load(ok).puzzles[0].id == "bouncing" and load(ok).form == "list"


@pytest.mark.parametrize(
    "change, line, words",
    [
        (("stipulation: North wins in 1", "stipulation: North wins quickly"), 17,
         "not a stipulation"),
        (("stipulation: North wins in 1", "stipulation: South wins in 1"), 17,
         "North is to move"),
        (("  difficulty: 1", "  difficulty: 9"), 22, "difficulty"),
        (("[bounce chain 4]", "[bounce chain four]"), 21, "unknown theme"),
        (("  rules: pbmserv", "  rules: pbmserve"), 5, "did you mean 'pbmserv'"),
        (("  title: Bouncing", "  titel: Bouncing"), 4, "unknown key 'titel'"),
        (("    3 . 2 2 . 1 2", "    3 . 2 2 . x 2"), 13, "not a row"),
        (("    North to move\n", ""), 6, "who is to move"),
        (("schema: 1", "schema: 2"), 1, "schema '2' is not known"),
        (("    key: 51-43-33-31-21-S\n", ""), 19, "no 'key'"),
    ],
)
def test_errors_name_file_line_and_puzzle(change, line, words):
    text = BOUNCING.replace(*change)
    assert text != BOUNCING
    e = error_of(text)
    assert e.line == line, str(e)
    assert words in e.problem, str(e)
    assert str(e).startswith(f"t.yaml:{line}:")
    if line > 2:
        assert f"puzzle bouncing: {e.problem}" in str(e)
    assert e.malformed


def test_too_many_rings_in_a_diagram_is_located():
    text = BOUNCING.replace("    . . . . . . 6", "    3 3 . . . . 6")
    e = error_of(text)
    assert e.line == 12 and "triples" in e.problem and e.puzzle == "bouncing"


def test_malformed_yaml_and_duplicates():
    e = error_of("schema: 1\npuzzles:\n- id: [a\n")
    assert e.line is not None and "malformed YAML" in e.problem
    twice = BOUNCING + BOUNCING.split("puzzles:\n", 1)[1]
    e = error_of(twice)
    assert "already used on line 3" in e.problem and e.line == 23
    e = error_of(BOUNCING.replace("  title: Bouncing\n", "  title: Bouncing\n  title: Again\n"))
    assert "appears twice" in e.problem


def test_stipulation_forms():
    assert Stipulation.parse("win in 2", Side.SOUTH) == Stipulation("win", 2, Side.SOUTH)
    assert str(Stipulation.parse("S loses in 3", Side.SOUTH)) == "South loses in 3"
    assert Stipulation.parse("no forced result in 2", Side.NORTH).kind == "none"
    for bad in ("wins in 0", "mate in 2", "wins in two"):
        with pytest.raises(ValueError):
            Stipulation.parse(bad, Side.SOUTH)


# -- checking ------------------------------------------------------------------------------


def problems(text: str) -> list[str]:
    (p,) = load(text).puzzles
    return [str(e) for e in check_puzzle(p)]


def test_a_right_entry_has_no_problem():
    assert problems(BOUNCING) == []


def test_a_wrong_stipulation_is_refuted_with_the_proven_one():
    (msg,) = problems(BOUNCING.replace("North wins in 1", "North wins in 2"))
    assert msg.startswith("t.yaml:17: puzzle bouncing:")
    assert "North wins in 1" in msg


def test_a_wrong_key_and_a_wrong_main_line():
    text = BOUNCING.replace("key: 51-43-33-31-21-S", "key: 51-54")
    msgs = problems(text)
    assert any("t.yaml:19: puzzle bouncing: the key 51-54 is not a key: the solver's key is "
               "51-43-33-31-21-S" in m for m in msgs)
    assert any("t.yaml:20:" in m and "starts with 51-43-33-31-21-S, not with the key" in m
               for m in msgs)
    msgs = problems(BOUNCING.replace("key: 51-43-33-31-21-S", "key: 51-43-33"))
    assert any("the key 51-43-33 is not a legal move" in m for m in msgs)
    text = BOUNCING.replace('["51-43-33-31-21-(11-12-)S"]', '["51-54"]')
    msgs = problems(text)
    assert any("t.yaml:20:" in m and "does not end with North landing" in m for m in msgs)
    text = BOUNCING.replace('["51-43-33-31-21-(11-12-)S"]', '["51-42"]')
    msgs = problems(text)
    assert any("main line is not legal" in m for m in msgs)


def test_a_theme_the_line_does_not_show():
    msgs = problems(BOUNCING.replace("[bounce chain 4]", "[bounce chain 4, relocation bridge]"))
    assert len(msgs) == 1 and "'relocation bridge' is not shown" in msgs[0]
    msgs = problems(BOUNCING.replace("[bounce chain 4]", "[bounce chain 3]"))
    assert "'bounce chain 3' is not shown" in msgs[0]


def test_an_undeclared_cook_and_declared_cooks():
    msgs = problems(STALEMATE)
    assert len(msgs) == 1 and "cooked:" in msgs[0]
    cooks = msgs[0].split("cooked: ")[1].split(" also win")[0].split(", ")
    # Each listed cook really wins in 2: North is left without a move and South lands next
    # (checked here with the move generator alone, independently of the solver).
    position = Position.from_string(".3.3.3/112232/...1.2/...1../....../...... S")
    for text in cooks:
        after = apply_move(position, parse_move(text, position, PBM))
        replies = legal_moves(after, PBM, [position])
        assert replies.mover is Side.SOUTH and replies.wins
    declared = STALEMATE.replace("  solution:", f"  cooks: [{', '.join(cooks)}]\n  solution:")
    assert problems(declared) == []
    wrong = declared.replace("cooks: [", "cooks: [34-44-45, ")
    msgs = problems(wrong)
    assert any("declared cook 34-44-45 is not a key" in m for m in msgs)


def test_the_seed_stalemate_line_needs_the_corrected_diagram():
    """Seed 000's own diagram has the double on 36: its line 34-44-43; 43-53-N is illegal."""
    original = Position.from_string(".3.3.3/112232/...1../...1.2/....../...... S")
    with pytest.raises(ValueError, match="not on South's shore"):
        play_line(original, PBM, ["34-44-43; 43-53-N"])
    corrected = Position.from_string(".3.3.3/112232/...1.2/...1../....../...... S")
    line = play_line(corrected, PBM, ["34-44-43; 43-53-N"])
    assert line.end is None and line.moves[-1].is_win and len(line.moves) == 2


def test_the_resignation_was_a_win_in_2():
    """The sample game's position where South resigned: the catalogue says South wins in 2
    by 14-24-33x43=12. Checked here with the move generator alone: no landing now, and
    after the key every North reply leaves South a landing."""
    cat = load_catalogue(PUZZLES / "seed000.yaml")
    (p,) = [p for p in cat.puzzles if p.id == "seed000-resignation"]
    assert str(p.position) == "..1.../..23../..3.../..3113/2..2../2..1.. S"
    assert not legal_moves(p.position, PBM, p.history).wins
    key = parse_move(p.key, p.position, PBM, p.history)
    after = apply_move(p.position, key)
    history = [*p.history, p.position]
    replies = legal_moves(after, PBM, history)
    assert replies.mover is Side.NORTH and len(replies) > 10
    for reply in replies:
        assert not reply.is_win
        assert legal_moves(apply_move(after, reply), PBM, [*history, after]).wins, str(reply)


def test_the_catalogue_in_the_repository_is_proven():
    for path in sorted(PUZZLES.glob("*.yaml")):
        for p in load_catalogue(path).puzzles:
            assert [str(e) for e in check_puzzle(p)] == [], p.id


@pytest.mark.slow
def test_the_deep_catalogue_in_the_repository_is_proven():
    """The files under puzzles/'s subdirectories (wins in 5: minutes each), which
    ``catalogue check`` with no arguments proves too."""
    deep = [f for f in catalogue_files([PUZZLES], recursive=True) if f.parent != PUZZLES]
    assert deep
    for path in deep:
        for p in load_catalogue(path).puzzles:
            assert [str(e) for e in check_puzzle(p)] == [], p.id


def test_seed_entries_credit_the_seed():
    cat = load_catalogue(PUZZLES / "seed000.yaml")
    ids = {p.id for p in cat.puzzles}
    assert {"seed000-bouncing", "seed000-taboo", "seed000-relocation", "seed000-stalemate",
            "seed000-resignation"} <= ids
    for p in cat.puzzles:
        assert "Seed 000" in p.source and "Agt the Walker" in p.credit and p.notes


# -- the commands --------------------------------------------------------------------------


def test_check_command_exit_codes(tmp_path):
    good = tmp_path / "good.yaml"
    good.write_text(BOUNCING)
    result = run("catalogue", "check", str(good))
    assert result.exit_code == 0, result.output
    assert "1 puzzle checked: 1 proven, 0 wrong" in result.output

    wrong = tmp_path / "wrong.yaml"
    wrong.write_text(BOUNCING.replace("North wins in 1", "North wins in 2"))
    result = run("catalogue", "check", str(wrong))
    assert result.exit_code == 1
    assert f"{wrong}:17: puzzle bouncing: the stipulation says" in result.output

    both = tmp_path / "both"
    both.mkdir()
    (both / "a-good.yaml").write_text(BOUNCING)
    (both / "b-other.yaml").write_text(BOUNCING.replace("id: bouncing", "id: again"))
    bad = both / "c-bad.yaml"
    bad.write_text(BOUNCING.replace("  title: Bouncing", "  titel: Bouncing"))
    result = run("catalogue", "check", str(both))
    assert result.exit_code == 2
    assert f"{bad}:4: puzzle bouncing: unknown key 'titel'" in result.output
    assert "[1/2] bouncing" in result.output  # progress lines (stderr) for the readable files


def test_check_catalogue_counts_as_the_command_reports(tmp_path):
    """The library's check (what the command prints): a wrong entry, an entry under a
    second id (the same position), an unreadable one; progress before and after each."""
    both = tmp_path / "both"
    both.mkdir()
    (both / "a.yaml").write_text(BOUNCING)
    (both / "b.yaml").write_text(BOUNCING.replace("id: bouncing", "id: again"))
    (both / "c.yaml").write_text(STALEMATE.replace("South wins in 2", "South wins in 3"))
    (both / "d.yaml").write_text(BOUNCING.replace("  title: Bouncing", "  titel: Bouncing"))
    puzzles, errors = load_all([both])
    steps = []
    report = check_catalogue(puzzles, errors, progress=steps.append)
    assert (report.checked, report.proven, report.wrong, report.unreadable) == (3, 1, 2, 1)
    # 'again' also repeats the title of 'bouncing': told once, named both
    assert [p.puzzle for p in report.problems] == ["again", "stalemate"]
    assert "the title 'Bouncing' is also puzzle bouncing's" in str(report.problems[0])
    assert [(s.index, s.done) for s in steps] == [(1, False), (1, True), (2, False),
                                                 (2, True), (3, False), (3, True)]


def test_the_commands_take_every_file_under_puzzles(workdir):
    """With no arguments, check, list and export read every catalogue file under
    puzzles/, those in subdirectories too; check's progress names each entry's file."""
    deep = workdir / "puzzles" / "deep" / "deeper"
    deep.mkdir(parents=True)
    (workdir / "puzzles" / "top.yaml").write_text(BOUNCING)
    (workdir / "puzzles" / "deep" / "inner.yaml").write_text(
        TABOO.replace("id: taboo", "id: inner"))
    add_entry(deep / "innermost.yml", "innermost",
              Position.from_string("321..2/1...../....../2....2/...3../.331.1 S"), PBM,
              max_moves=2, title="Innermost")
    assert load_all(["puzzles"])[0] == load_all(["puzzles/top.yaml"])[0]
    puzzles, errors = load_all(["puzzles"], recursive=True)
    assert [p.id for p in puzzles] == ["bouncing", "inner", "innermost"] and not errors
    checked = run("catalogue", "check")
    assert "3 puzzles checked: 3 proven, 0 wrong" in checked.output, checked.output
    assert "] inner (puzzles/deep/inner.yaml:3): South wins in 1 ... ok" in checked.output
    listed = run("catalogue", "list")
    assert {"inner", "innermost", "bouncing"} <= set(listed.output.split())
    exported = run("export", "--format", "text", "--out", "book", "-q")
    assert exported.exit_code == 0, exported.output
    text = (workdir / "book" / "puzzles.txt").read_text()
    assert all(title in text for title in ("Bouncing", "Innermost", "inner"))


def test_check_command_on_a_missing_path():
    result = run("catalogue", "check", "no/such/dir")
    assert result.exit_code == 2 and "no/such/dir: no such file or directory" in result.output


def test_check_reports_every_error_in_one_pass(tmp_path):
    path = write(tmp_path / "c.yaml", "schema: 1\npuzzles:\n"
                 + catalogue_entry("a", stipulation="North wins in 99")
                 + catalogue_entry("b", position=BOUNCING_STRING.replace(" N", " X"))
                 + catalogue_entry("c") + catalogue_entry("d", key="16-35"))
    r = run("catalogue", "check", path, "-q")
    assert r.exit_code == 2
    assert "puzzle a:" in r.output and "puzzle b:" in r.output and "puzzle d:" in r.output
    assert "1 proven" in r.output      # c is read and proven despite the others


def test_check_a_stipulation_beyond_30_names_no_cli_option(tmp_path):
    path = write(tmp_path / "c.yaml", "schema: 1\npuzzles:\n"
                 + catalogue_entry("a", stipulation="North wins in 99"))
    r = run("catalogue", "check", path, "-q")
    assert r.exit_code == 2
    assert f"{path}:5: puzzle a:" in r.output and "N must be 1..30" in r.output
    assert "--max-moves" not in r.output


def test_check_requires_a_solution_as_the_docs_say(tmp_path):
    doc = (ROOT / "docs" / "catalogue.md").read_text()
    assert "requires `solution`" in doc
    path = write(tmp_path / "c.yaml", "schema: 1\npuzzles:\n- id: a\n"
                 f'  position: "{BOUNCING_STRING}"\n  stipulation: North wins in 1\n')
    r = run("catalogue", "check", path, "-q")
    assert r.exit_code == 2 and "no 'solution'" in r.output


def test_check_refuses_cooks_listing_the_key_itself(tmp_path):
    path = write(tmp_path / "c.yaml", "schema: 1\npuzzles:\n"
                 + catalogue_entry("a", extra="  cooks: [51-43-33-31-21-S]\n"))
    r = run("catalogue", "check", path, "-q")
    assert r.exit_code == 1 and "is the key itself" in r.output


def test_check_refuses_one_position_under_two_ids(tmp_path):
    cat = write(tmp_path / "c.yaml", "schema: 1\npuzzles:\n" + catalogue_entry("a")
                + catalogue_entry("b"))
    r = run("catalogue", "check", cat, "-q")
    assert r.exit_code == 1 and "the same position as puzzle a" in r.output

def test_list_command():
    result = run("catalogue", "list", str(PUZZLES / "seed000.yaml"))
    assert result.exit_code == 0
    lines = result.output.splitlines()
    assert lines[0].split() == ["id", "stipulation", "themes", "difficulty"]
    row = [ln for ln in lines if ln.startswith("seed000-bouncing ")][0]
    assert "North wins in 1" in row and "bounce chain 4" in row and row.rstrip().endswith("1")


def test_add_command_appends_and_refuses_duplicates(tmp_path, workdir):
    target = tmp_path / "mine.yaml"
    target.write_text("# my puzzles\nschema: 1\ntitle: Mine\npuzzles:\n"
                      + BOUNCING.split("puzzles:\n", 1)[1])
    taboo = "....../1...../3.23../3.211./2.132./...... S"
    result = run("catalogue", "add", taboo, "--to", str(target), "--id", "taboo",
                 "--title", "Taboo", "--credit", "seed 000")
    assert result.exit_code == 0, result.output
    assert "South wins in 1, key 24-25-34-44-N" in result.output
    text = target.read_text()
    assert text.startswith("# my puzzles\nschema: 1\ntitle: Mine\npuzzles:\n- id: bouncing")
    cat = load_catalogue(target)
    assert [p.id for p in cat.puzzles] == ["bouncing", "taboo"]
    new = cat.puzzles[1]
    assert str(new.position) == taboo and new.title == "Taboo"
    assert new.stipulation == Stipulation("win", 1, Side.SOUTH)
    assert "taboo" in new.themes and "bounce chain 3" in new.themes
    assert check_puzzle(new) == []

    again = run("catalogue", "add", taboo, "--to", str(target), "--id", "other")
    assert again.exit_code == 2 and "already puzzle taboo" in again.output
    same_id = run("catalogue", "add", "....../3...../..1.1./1.23.3/3.22.1/.....2 N",
                  "--to", str(target), "--id", "taboo")
    assert same_id.exit_code == 2 and "'taboo' is already used" in same_id.output
    assert target.read_text() == text


def test_add_command_follows_the_appenders_duplicate_rule(tmp_path, workdir):
    """One rule with ``generate`` and ``review --puzzles``: the mirror image of a puzzle is
    that puzzle (refused), and a file whose list is ``puzzles: []`` takes the entry."""
    target = tmp_path / "mine.yaml"
    target.write_text("schema: 1\npuzzles: []\n")
    result = run("catalogue", "add", "....../3...../..1.1./1.23.3/3.22.1/....2. N",
                 "--to", str(target), "--id", "b1", "--max-moves", "1")
    assert result.exit_code == 0, result.output
    assert [p.id for p in load_catalogue(target).puzzles] == ["b1"]
    text = target.read_text()
    mirrored = run("catalogue", "add", "....../.....3/.1.1../3.32.1/1.22.3/.2.... N",
                   "--to", str(target), "--id", "b2", "--max-moves", "1")
    assert mirrored.exit_code == 2 and target.read_text() == text
    assert mirrored.output == (f"gyges: {target}:3: puzzle b2: this position, mirrored or "
                               "turned around, is already puzzle b1 (line 3)\n")


def test_add_command_creates_a_file_with_cooks_declared(tmp_path, workdir):
    target = tmp_path / "new" / "cooked.yaml"
    result = run("catalogue", "add", ".3.3.3/112232/...1.2/...1../....../...... S",
                 "--to", str(target), "--id", "chain", "--max-moves", "2")
    assert result.exit_code == 0, result.output
    (p,) = load_catalogue(target).puzzles
    assert p.stipulation == Stipulation("win", 2, Side.SOUTH)
    assert len(p.cooks) == 14 and "stalemate chain" in p.themes
    assert "Proven by the solver" in p.notes
    assert check_puzzle(p) == []


def test_add_command_records_no_forced_result(tmp_path, workdir):
    target = tmp_path / "none.yaml"
    result = run("catalogue", "add", "321123/....../....../....../....../231123 S",
                 "--to", str(target), "--id", "start", "--max-moves", "1")
    assert result.exit_code == 0, result.output
    (p,) = load_catalogue(target).puzzles
    assert str(p.stipulation) == "no forced result in 1" and p.key is None
    assert check_puzzle(p) == []


def test_add_command_bad_input(tmp_path, workdir):
    result = run("catalogue", "add", "not a position", "--to", str(tmp_path / "x.yaml"),
                 "--id", "x")
    assert result.exit_code == 2 and result.output.startswith("gyges: ")
    result = run("catalogue", "add", "321123/....../....../....../....../231123 S",
                 "--to", str(tmp_path / "x.yaml"), "--id", "bad id!")
    assert result.exit_code == 2 and "may hold only" in result.output
    assert not (tmp_path / "x.yaml").exists()


def test_add_command_keeps_the_rules(tmp_path, workdir):
    target = tmp_path / "rules.yaml"
    taboo = "....../1...../3.23../3.211./2.132./...... S"
    result = run("catalogue", "add", taboo, "--to", str(target), "--id", "entry-taboo",
                 "--max-moves", "1", "--rules", "pbmserv", "--rule", "taboo=entry")
    assert result.exit_code == 0, result.output
    assert "rule: {taboo: entry}" in target.read_text()
    (p,) = load_catalogue(target).puzzles
    assert p.rules == PBM.with_options({"taboo": "entry"})
    assert check_puzzle(p) == []


def test_add_command_reads_a_position_file_with_history(tmp_path, workdir):
    source = tmp_path / "pos.yaml"
    resign = load_catalogue(PUZZLES / "seed000.yaml").puzzles[-1]
    assert resign.id == "seed000-resignation"
    source.write_text(f'position: "{resign.position}"\nhistory:\n'
                      + "".join(f'  - "{h}"\n' for h in resign.history))
    target = tmp_path / "game.yaml"
    result = run("catalogue", "add", str(source), "--to", str(target), "--id", "resign",
                 "--max-moves", "2")
    assert result.exit_code == 0, result.output
    (p,) = load_catalogue(target).puzzles
    assert p.history == resign.history
    assert p.key == resign.key and p.stipulation == resign.stipulation
    assert check_puzzle(p) == []
