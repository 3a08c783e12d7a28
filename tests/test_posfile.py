"""YAML position files: the examples, round trips and every kind of error, with its line."""

from __future__ import annotations

import pytest
from common import POSITIONS
from common import START as START_TEXT
from hypothesis import given, settings
from hypothesis import strategies as st

from gyges.formats.diagram import parse_diagram
from gyges.formats.posfile import (
    PositionFile,
    PositionFileError,
    dump_position_file,
    load_position_file,
    parse_position_file,
)
from gyges.game.moves import apply_move, legal_moves
from gyges.game.position import START, Position
from gyges.game.rules import OPTIONS, PRESETS, RuleSet, Side

# -- the example files -----------------------------------------------------------------------


def test_bouncing_example_is_the_seed_diagram_with_north_to_move():
    pf = load_position_file(POSITIONS / "bouncing.yaml")
    seed = parse_diagram(
        "N\n. . . . . .\n3 . . . . .\n. . 1 . 1 .\n1 . 2 3 . 3\n3 . 2 2 . 1\n. . . . 2 .\nS\n"
    )
    assert pf.position == seed.with_turn(Side.NORTH)
    assert pf.rules == PRESETS["pbmserv"]
    assert pf.history == () and pf.previous is None
    assert pf.comment == "The bouncing example of seed 000."
    assert pf.source.endswith("bouncing.yaml")


def test_sample_game_example_history_is_the_games_positions():
    pf = load_position_file(POSITIONS / "sample-game-move5.yaml")
    # Independently: play the seed's first moves 16-35 and 61-53 from the setups.
    positions = [Position.setup("231123", "321123")]
    for text in ("16-35", "61-53"):
        p = positions[-1]
        (move,) = [m for m in legal_moves(p, PRESETS["pbmserv"]) if str(m) == text]
        positions.append(apply_move(p, move))
    assert pf.history == tuple(positions[:2])
    assert pf.position == positions[2]
    assert pf.previous == positions[1]


def test_taboo_example_applies_overrides_to_the_preset():
    pf = load_position_file(POSITIONS / "taboo-dorbec.yaml")
    assert pf.rules == PRESETS["dorbec"].with_options({"replace": "shore"})
    assert pf.rules.taboo == "entry"


def test_rings_example():
    pf = load_position_file(POSITIONS / "composed.yaml")
    assert str(pf.position) == "3...../....../.2.1../....../1...../....2. S"
    assert pf.rules == PRESETS["summary"]


@pytest.mark.parametrize("name", [p.name for p in sorted(POSITIONS.glob("*.yaml"))])
@pytest.mark.parametrize("diagram", [False, True])
def test_examples_round_trip(name, diagram):
    pf = load_position_file(POSITIONS / name)
    text = dump_position_file(pf, diagram=diagram)
    assert parse_position_file(text) == pf


# -- reading details -------------------------------------------------------------------------


def test_no_rules_gives_none_and_rule_alone_starts_from_pbmserv():
    assert parse_position_file(f"position: {START_TEXT}").rules is None
    pf = parse_position_file(f"position: {START_TEXT}\nrule:\n  replace: off\n")
    # 'off' is read as the word, not YAML 1.1's boolean false.
    assert pf.rules == RuleSet(replace="off")


def test_history_sides_default_to_alternating_backwards():
    text = f"position: {START_TEXT}\nhistory:\n  - {START_TEXT.split()[0]}\n  - " \
           f"{START_TEXT.split()[0]}\nprevious: {START_TEXT.split()[0]}\n"
    pf = parse_position_file(text)
    assert [h.turn for h in pf.history] == [Side.SOUTH, Side.NORTH]
    assert pf.previous.turn is Side.NORTH


def test_diagram_side_line_or_to_move():
    body = "diagram: |\n  321123\n  ......\n  ......\n  ......\n  ......\n  231123\n"
    with pytest.raises(PositionFileError, match="does not say who is to move"):
        parse_position_file(body)     # never a silent South to move
    assert parse_position_file(body + "to-move: S\n").position == START
    assert parse_position_file(body + "to-move: north\n").position.turn is Side.NORTH
    with_line = body.replace("231123\n", "231123\n  North to move\n")
    assert parse_position_file(with_line).position.turn is Side.NORTH
    assert parse_position_file(with_line + "to-move: N\n").position.turn is Side.NORTH


def test_dump_writes_the_nearest_preset_and_quotes_off():
    rules = PRESETS["bga"].with_options({"replace": "off"})
    text = dump_position_file(START, rules)
    assert "rules: bga\nrule:\n  replace: \"off\"\n" in text
    assert parse_position_file(text).rules == rules


@st.composite
def boards(draw):
    board = [0] * 36
    slots = draw(st.permutations(range(36)))
    n = 0
    for size in (1, 2, 3):
        for _ in range(draw(st.integers(0, 4))):
            board[slots[n]] = size
            n += 1
    if n == 0:
        board[slots[0]] = 1
    return Position(tuple(board), draw(st.sampled_from(list(Side))))


rule_sets = st.builds(
    lambda values: RuleSet().with_options(values),
    st.fixed_dictionaries({k: st.sampled_from(v) for k, v in OPTIONS.items()}),
)


@settings(max_examples=150, deadline=None)
@given(boards(), st.none() | rule_sets, st.lists(boards(), max_size=3), st.none() | boards(),
       st.none() | st.text(max_size=30), st.booleans())
def test_round_trip(position, rules, history, previous, comment, diagram):
    if previous is not None:  # the previous position is one move before
        moves = [m for m in legal_moves(previous, PRESETS["pbmserv"]) if not m.is_win]
        if moves:
            position = apply_move(previous, moves[len(history) % len(moves)])
        else:
            previous = None
    pf = PositionFile(position, rules, tuple(history), previous, comment=comment)
    assert parse_position_file(dump_position_file(pf, diagram=diagram)) == pf


# -- errors ----------------------------------------------------------------------------------

ERRORS = [
    # malformed YAML
    (f"position: {START_TEXT}\nrules: [pbmserv\n", 3, "malformed YAML"),
    ("position: '321123/....../....../....../....../231123 S\n", 2, "malformed YAML"),
    # unknown keys, with the right one suggested
    (f"positon: {START_TEXT}\n", 1, "unknown key 'positon': did you mean 'position'?"),
    (f"position: {START_TEXT}\nside: N\n", 2, "unknown key 'side': did you mean 'to-move'?"),
    (f"position: {START_TEXT}\nrules: bga\nfoo: 1\n", 3, "the keys are position, diagram"),
    # bad position strings
    ("position: 321123/....../....../231123 S\n", 1, "has 6 rows separated by '/', found 4"),
    ("\nposition: 321123/....../....../....../....../23112x S\n", 2, "'x' is not a ring"),
    ("position: 321123/....../....../....../....../231123 E\n", 1, "is not a side"),
    # seven triples
    ("position: 333333/....../....../....../....../.3.... S\n", 1, "7 triples on the board"),
    (f"position: {START_TEXT}\nhistory:\n  - {START_TEXT}\n  - 333333/....../....../....../"
     "....../.3.... N\n", 4, "history entry 2: 7 triples"),
    (f"position: {START_TEXT}\nprevious: 321123/....../....../....../....../33 N\n", 2,
     "previous: row 1"),
    # two rings on a slot
    ("rings:\n  13: 3\n  24: 1\n  13: 2\n", 4, "two rings on slot 13 (first on line 2)"),
    ("rings: {13: 3, 77: 1}\n", 1, "no slot at row 7"),
    ("rings: {13: 4}\n", 1, "has size '4'"),
    ("rings: {13: 3, 14: 3, 15: 3, 16: 3, 21: 3}\n", 1, "5 triples"),
    # unknown preset, rule key or value
    (f"position: {START_TEXT}\nrules: pbmserve\n", 2,
     "unknown rule preset 'pbmserve': did you mean 'pbmserv'? use one of pbmserv, summary"),
    (f"position: {START_TEXT}\nrule:\n  taboo: entry\n  rebound: once\n", 4,
     "unknown rule 'rebound': did you mean 'rebounce'?"),
    (f"position: {START_TEXT}\nrule:\n  replace: everywhere\n", 3,
     "rule replace cannot be 'everywhere': did you mean 'anywhere'? use one of shore, off"),
    (f"position: {START_TEXT}\nrule: taboo=entry\n", 2, "rule is a mapping of options"),
    # structure
    ("", 1, "the file is empty"),
    ("- a\n- b\n", 1, "a position file is a YAML mapping"),
    ("rules: bga\n", 1, "no position: give one of"),
    (f"position: {START_TEXT}\ndiagram: |\n  N\n", 2, "both 'position' and 'diagram'"),
    (f"position: {START_TEXT}\nposition: {START_TEXT}\n", 2, "'position' appears twice"),
    (f"position: {START_TEXT}\nto-move: N\n", 2, "to-move says N but the position string"),
    (f"position: {START_TEXT}\nto-move: west\n", 2, "to-move cannot be 'west'"),
    (f"position: {START_TEXT}\nhistory: {START_TEXT}\n", 2, "history is a list"),
    ("position:\n", 1, "position must be a position string"),
    ("diagram: |\n  N\n  . . . . . . 6\n  . . . . . x 5\n", 4, "is not a row"),
    ("diagram: |\n  N\n  1 . . . . . 6\n", 4, "ends after 1 row"),
    ("diagram: |\n  N\n  1 . . . . . 6\n  . . . . . . 4\n", 4, "this is row 5"),
    ("diagram: |\n  321123\n  ......\n  ......\n  ......\n  ......\n  231123\n  North to move\n"
     "to-move: S\n", 9, "to-move says S but the diagram says North to move"),
]


@pytest.mark.parametrize("text, line, message", ERRORS)
def test_errors_name_file_line_and_problem(text, line, message):
    with pytest.raises(PositionFileError) as info:
        parse_position_file(text, "p.yaml")
    error = info.value
    assert isinstance(error, ValueError)
    assert str(error).startswith(f"p.yaml:{line}: "), str(error)
    assert message in str(error)


def test_a_folded_diagram_reports_the_diagrams_line():
    with pytest.raises(PositionFileError, match=r"^p.yaml:2: diagram: .* is not a row"):
        parse_position_file("rules: bga\ndiagram: 'N 1 2'\n", "p.yaml")


def test_missing_file(tmp_path):
    with pytest.raises(PositionFileError, match=r"nope\.yaml: no such file"):
        load_position_file(tmp_path / "nope.yaml")


def test_load_reads_the_file(tmp_path):
    path = tmp_path / "p.yaml"
    path.write_text(dump_position_file(START, PRESETS["bga"]))
    assert load_position_file(path) == PositionFile(START, PRESETS["bga"])
    path.write_text("rules: [\n")
    with pytest.raises(PositionFileError, match=rf"^{path}:2: malformed YAML"):
        load_position_file(path)
