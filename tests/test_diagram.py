"""Seed-000 text diagrams: reading the seed's own diagrams, writing, round trip, errors."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from gyges.formats.diagram import DiagramError, format_diagram, looks_like_diagram, parse_diagram
from gyges.game.moves import legal_moves
from gyges.game.position import START, Position, PositionError
from gyges.game.rules import PRESETS, Side
from gyges.game.squares import NORTH_GOAL, SOUTH_GOAL, parse_slot

# Copied verbatim from seed 000 ("Recognizing your Rings").
SEED_RECOGNIZING = """\
1 2 3 4 5 6
N
. 3 . . . . 6
. . 2 1 . . 5
. 2 1 2 3 . 4
. 1 1 3 2 . 3
. . . . . . 2
. . . . . 3 1
S
"""

# Copied verbatim from seed 000 ("Bouncing").
SEED_BOUNCING = """\
1 2 3 4 5 6
N
. . . . . . 6
3 . . . . . 5
. . 1 . 1 . 4
1 . 2 3 . 3 3
3 . 2 2 . 1 2
. . . . 2 . 1
S
"""

# Copied verbatim from seed 000 ("Eurydice's Taboo").
SEED_TABOO = """\
1 2 3 4 5 6
N
. . . . . . 6
1 . . . . . 5
3 . 2 3 . . 4
3 . 2 1 1 . 3
2 . 1 3 2 . 2
. . . . . . 1
S
"""

# Copied verbatim from seed 000 ("Stalemating").
SEED_STALEMATE = """\
1 2 3 4 5 6
N
. 3 . 3 . 3 6
1 1 2 2 3 2 5
. . . 1 . . 4
. . . 1 . 2 3
. . . . . . 2
. . . . . . 1
S
"""

# The seed's first (empty) board, with its arrow annotations.
SEED_EMPTY = """\
N -> "North" goal
. . . . . . -> "North" starting row
. . . . . .
. . . . . .
. . . . . .
. . . . . .
. . . . . . -> "South" starting row
S -> "South" goal
"""


def test_reads_the_seed_recognizing_diagram():
    p = parse_diagram(SEED_RECOGNIZING)
    assert str(p) == ".3..../..21../.2123./.1132./....../.....3 S"
    # The seed: "the shores are still the starting rows (1 and 6)".
    assert p.shore(Side.SOUTH) == 1 and p.shore(Side.NORTH) == 6


def test_reads_the_seed_bouncing_diagram_and_north_can_win_from_51():
    p = parse_diagram(SEED_BOUNCING).with_turn(Side.NORTH)
    assert p.board[parse_slot("51")] == 3
    assert p.board[parse_slot("12")] == 0 and p.board[parse_slot("15")] == 2
    # The seed: North can win by 51-43-33-31-21-(11-12-)S.
    wins = legal_moves(p, PRESETS["pbmserv"]).wins
    assert any(m.start == parse_slot("51") and m.end == SOUTH_GOAL for m in wins)


def test_reads_the_seed_taboo_diagram_and_south_wins_from_24():
    p = parse_diagram(SEED_TABOO)
    assert p.turn is Side.SOUTH
    # The seed: South can win by 24-(14-15-)25-(24-)34-44-(54-64-)N.
    wins = legal_moves(p, PRESETS["pbmserv"]).wins
    assert any(m.start == parse_slot("24") and m.end == NORTH_GOAL for m in wins)


def test_reads_the_seed_stalemate_diagram():
    p = parse_diagram(SEED_STALEMATE)
    assert p.board_string() == ".3.3.3/112232/...1../...1.2/....../......"


def test_the_seeds_empty_board_is_read_but_refused_as_empty():
    with pytest.raises(DiagramError, match=r"seed:8: the board is empty"):
        parse_diagram(SEED_EMPTY, "seed")


def test_without_coordinates_goals_or_spaces():
    bare = "\n".join(SEED_BOUNCING.splitlines()[2:8])  # rows only, with row numbers
    assert parse_diagram(bare) == parse_diagram(SEED_BOUNCING)
    compact = "321123\n......\n......\n......\n......\n231123\n"
    assert parse_diagram(compact) == START
    zeros = "321123\n000000\n000000\n000000\n000000\n231123\nNorth to move"
    assert parse_diagram(zeros) == START.with_turn(Side.NORTH)


@pytest.mark.parametrize(
    "line, side",
    [("South to move", Side.SOUTH), ("North to move", Side.NORTH), ("N to move", Side.NORTH),
     ("to move: N", Side.NORTH), ("to-move: S", Side.SOUTH), ("north to play.", Side.NORTH)],
)
def test_side_to_move_line(line, side):
    assert parse_diagram(SEED_BOUNCING + line + "\n").turn is side


def test_side_defaults_to_south():
    assert parse_diagram(SEED_BOUNCING).turn is Side.SOUTH


def test_format_matches_the_seed_layout():
    p = parse_diagram(SEED_BOUNCING)
    assert format_diagram(p, turn=False) + "\n" == SEED_BOUNCING


def test_format_marks_shores():
    text = format_diagram(START, shores=True)
    lines = text.splitlines()
    assert lines[2] == "3 2 1 1 2 3 6  <- North's shore"
    assert lines[7] == "2 3 1 1 2 3 1  <- South's shore"
    assert lines[-1] == "South to move"
    assert parse_diagram(text) == START


def test_format_marks_a_shared_shore():
    p = Position.from_string("....../....../..3.1./....../....../...... N")
    text = format_diagram(p, shores=True)
    assert ". . 3 . 1 . 4  <- both shores" in text.splitlines()
    assert parse_diagram(text) == p


def test_format_without_coordinates():
    text = format_diagram(START, coordinates=False)
    assert text.splitlines()[:2] == ["N", "3 2 1 1 2 3"]
    assert parse_diagram(text) == START


@st.composite
def positions(draw):
    board = [0] * 36
    slots = draw(st.permutations(range(36)))
    n = 0
    for size in (1, 2, 3):
        for _ in range(draw(st.integers(0, 4))):
            board[slots[n]] = size
            n += 1
    if n == 0:
        board[slots[0]] = draw(st.integers(1, 3))
    return Position(tuple(board), draw(st.sampled_from(list(Side))))


@settings(max_examples=200, deadline=None)
@given(positions(), st.booleans(), st.booleans())
def test_round_trip(p, coordinates, shores):
    text = format_diagram(p, coordinates=coordinates, shores=shores)
    assert parse_diagram(text) == p
    assert looks_like_diagram(text)


@pytest.mark.parametrize(
    "text, line, message",
    [
        ("N\n. . . . . . 6\n3 . . . . . 5\n", 4, "ends after 2 rows"),
        ("N\n. . . . . . 6\n3 . . . . .\n", 3, "no row number while other rows"),
        ("N\n. . . . . x 6\n", 2, "is not a row"),
        ("N\n. . . . . . 5\n", 2, "this is row 6"),
        ("3 3 3 3 . . 6\n. . . . . 3 5\n", 2, "5 triples so far"),
        ("\n\n. . . . . 1\nN\n", 4, "North's goal 'N' belongs above row 6"),
        ("N\nS\n", 2, "South's goal 'S' belongs below row 1"),
        (SEED_BOUNCING + ". . . . . .\n", 10, "a row below South's goal"),
        (SEED_BOUNCING.replace("S\n", ". . . . . .\nS\n"), 9, "a seventh row"),
        (SEED_BOUNCING + "East to move\n", 10, "after the six rows"),
        (SEED_BOUNCING + "North to move\nS\n", 11, "after the side to move"),
        ("N\n. . . 1 . .\nSouth to move\n", 3, "comes after the six rows"),
    ],
)
def test_errors_name_source_line_and_problem(text, line, message):
    with pytest.raises(DiagramError) as info:
        parse_diagram(text, "x.txt")
    assert str(info.value).startswith(f"x.txt:{line}: ")
    assert message in str(info.value)
    assert info.value.line == line and info.value.source == "x.txt"
    assert isinstance(info.value, ValueError) and isinstance(info.value, PositionError)


def test_first_line_offsets_line_numbers():
    with pytest.raises(DiagramError, match=r"^f.yaml:12: "):
        parse_diagram("N\n. . . . . x 6\n", "f.yaml", first_line=11)


def test_looks_like_diagram_rejects_other_text():
    assert not looks_like_diagram("hello\nworld\n")
    assert not looks_like_diagram("rules: pbmserv\nposition: x\n")
    assert looks_like_diagram(SEED_EMPTY)
