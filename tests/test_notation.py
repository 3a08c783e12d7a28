"""pbmserv notation: reading, writing, the round trip, and the reasons given for bad moves."""

from __future__ import annotations

import random

import pytest
from common import BOUNCING as BOUNCING_TEXT

from gyges.formats.notation import (
    NotationError,
    ParsedMove,
    _chain_path,
    format_move,
    format_turn,
    parse_move,
    parse_setup,
    parse_turn,
    read_move,
)
from gyges.game import _movegen
from gyges.game.moves import Move, apply_move, legal_moves
from gyges.game.position import START, Position
from gyges.game.rules import PRESETS, Side, rules_from
from gyges.game.squares import NORTH_GOAL, SOUTH_GOAL, parse_slot

PBM = PRESETS["pbmserv"]
BOUNCING = Position.from_string(BOUNCING_TEXT)


def slots(*names: str) -> tuple[int, ...]:
    return tuple(parse_slot(n) for n in names)


# -- reading the text alone ----------------------------------------------------------------


def test_read_plain_bounce_goal_and_groups():
    m = read_move("51-43-33-31-21-(11-12-)S")
    assert m.chain == (*slots("51", "43", "33", "31", "21"), SOUTH_GOAL)
    assert m.kind == "goal" and m.relocation is None
    assert m.groups == ((4, slots("11", "12")),)
    m = read_move("24-(14-15-)25-(24-)34-44-(54-64-)N")
    assert m.chain == (*slots("24", "25", "34", "44"), NORTH_GOAL)
    assert m.groups == ((0, slots("14", "15")), (1, slots("24")), (3, slots("54", "64")))
    assert read_move("16-35").chain == slots("16", "35") and read_move("16-35").kind == "end"


def test_read_replace_forms():
    m = read_move("13-14-24x35=33")
    assert m.chain == slots("13", "14", "24", "35")
    assert m.kind == "land" and m.relocation == parse_slot("33")
    m = read_move("13x14=44")
    assert m.chain == slots("13", "14") and m.relocation == parse_slot("44")
    m = read_move("13-14-24-(25-)x35=33")
    assert m.groups == ((2, slots("25")),) and m.chain[-1] == parse_slot("35")


def test_read_is_lenient_about_case_and_spaces():
    assert read_move(" 51-43-33-31-21-s ").chain == read_move("51-43-33-31-21-S").chain
    upper, lower = read_move("13X14=44"), read_move("13x14=44")
    assert (upper.chain, upper.relocation) == (lower.chain, lower.relocation)
    assert read_move("21-(11-12)-S").groups == read_move("21-(11-12-)S").groups


@pytest.mark.parametrize(
    "text, why",
    [
        ("", "it is empty"),
        ("44", "give the start and the end"),
        ("16-", "ends with '-'"),
        ("16-35x", "xLANDING=TARGET"),
        ("13x14", "xLANDING=TARGET"),
        ("1a-35", "cannot read"),
        ("(14-)16-35", "must begin with the start slot"),
        ("16-(26-36-35", "not closed"),
        ("16-()35", "empty parenthesized group"),
        ("16-(26-)", "must be followed by the next listed slot"),
        ("51-S-21", "nothing may follow the end"),
        ("13x14=44-45", "nothing may follow the end"),
        ("77-35", "77 is not a slot"),
        ("16-(N-)35", "slots only"),
    ],
)
def test_read_errors_say_what_is_wrong(text, why):
    with pytest.raises(NotationError, match="is not a (move|slot)") as e:
        read_move(text)
    assert why in str(e.value)


def test_setup():
    assert parse_setup("231123") == "231123"
    for bad in ("23112", "231124", "111223", "2311234", "23112x"):
        with pytest.raises(NotationError, match="six digits, two 1s, two 2s and two 3s"):
            parse_setup(bad)


# -- writing -------------------------------------------------------------------------------


def test_format_short_and_long():
    m = parse_move("51-43-33-31-21-S", BOUNCING, PBM)
    assert format_move(m) == "51-43-33-31-21-S"
    assert format_move(m, long=True) == "51-(41-42-)43-33-(32-)31-21-(11-12-)S"
    # a replace: the long form puts the steps before the landing slot
    position = Position.from_string(".2113./..3.../....../....3./2..2../2311.. S")
    for text in ("13-14-24-(34-)x35=33", "13-14-24-(25-)x35=33"):
        m = parse_move(text, position, PBM)
        assert format_move(m) == "13-14-24x35=33"
        assert format_move(m, long=True) == text
    # a bare move (no path) still writes its short form
    assert format_move(Move(5, 16), long=True) == "16-35"
    assert format_turn([Move(20, 21), Move(21, NORTH_GOAL)]) == "43-44; 44-N"


# -- the round trip over the moves of many positions -----------------------------------------


def _random_position(rng: random.Random) -> Position:
    """A random setup played on by random non-winning moves, or rings scattered at random."""
    if rng.random() < 0.5:
        south, north = list("112233"), list("112233")
        rng.shuffle(south)
        rng.shuffle(north)
        position = Position.setup("".join(south), "".join(north))
        rules = PRESETS[rng.choice(sorted(PRESETS))]
        for _ in range(rng.randrange(0, 12)):
            quiet = [m for m in legal_moves(position, rules) if not m.is_win]
            if not quiet:
                break
            position = apply_move(position, rng.choice(quiet))
        return position
    board = [0] * 36
    rings = [1, 1, 2, 2, 3, 3] * 2
    rng.shuffle(rings)
    for size, s in zip(rings[: rng.randrange(4, 13)], rng.sample(range(36), 12), strict=False):
        board[s] = size
    return Position(tuple(board), rng.choice([Side.SOUTH, Side.NORTH]))


def _round_trip(position: Position, rules, moves) -> int:
    board = position.board
    checked = 0
    for m in moves:
        back = parse_move(format_move(m), position, rules)
        assert (back.start, back.end, back.side) == (m.start, m.end, m.side), format_move(m)
        if m.relocation is None or back.relocation is None:
            assert back.relocation == m.relocation, format_move(m)
        if not m.is_win:
            assert apply_move(position, back) == apply_move(position, m), format_move(m)
        assert back.landings == m.landings
        longer = parse_move(format_move(m, long=True), position, rules)
        assert longer.path == m.path and format_move(longer, long=True) == format_move(m, True)
        assert board == position.board
        checked += 1
    return checked


@pytest.mark.parametrize("name", sorted(PRESETS))
def test_round_trip_sampled(name):
    rules = PRESETS[name]
    rng = random.Random(f"notation-{name}")
    checked = 0
    for _ in range(4):
        position = _random_position(rng)
        moves = list(legal_moves(position, rules))
        sample = [m for m in moves if m.is_win or m.is_replace][:30]
        sample += rng.sample(moves, min(40, len(moves)))
        checked += _round_trip(position, rules, sample)
    assert checked > 0


@pytest.mark.slow
@pytest.mark.parametrize("name", sorted(PRESETS))
def test_round_trip_every_move(name):
    rules = PRESETS[name]
    rng = random.Random(f"notation-all-{name}")
    for _ in range(25):
        position = _random_position(rng)
        _round_trip(position, rules, legal_moves(position, rules))


def test_round_trip_with_a_blocked_side():
    # North (to move) is stalemated: the moves listed are South's, and parse finds them
    position = Position.from_string(".3.3.3/112232/...1../...1.2/....../...... N")
    moves = legal_moves(position, PBM)
    assert moves.mover is Side.SOUTH
    assert _round_trip(position, PBM, moves) == len(moves) > 0


# -- why a move is refused -------------------------------------------------------------------


def refusal(text: str, position: Position | str, rules=PBM, history=()) -> str:
    if isinstance(position, str):
        position = Position.from_string(position)
    with pytest.raises(NotationError) as e:
        parse_move(text, position, rules, history)
    message = str(e.value)
    assert message.startswith(text.strip() + ": ")
    return message[len(text.strip()) + 2 :]


def test_refusals_about_the_start():
    assert refusal("44-45", BOUNCING) == "no ring on 44"
    assert refusal("43-33", BOUNCING) == "43 is not on North's shore (row 5)"


def test_refusals_about_the_path():
    assert refusal("51-43-33", BOUNCING) == (
        "the move cannot end on 33: it holds a ring (bounce on or replace it)")
    assert refusal("51-43-33-31-21-N", BOUNCING) == "North cannot enter its own goal (N)"
    assert refusal("51-(41-52-)43-33-31-21-S", BOUNCING) == "41 and 52 are not connected"
    assert refusal("51-(41-42-43-)33-31-21-S", BOUNCING) == (
        "a triple moves 3 steps: 51-41-42-43-33 takes 4 steps")
    assert refusal("51-43-33-31-21-11-S", BOUNCING) == "no ring on 11 to bounce on"
    assert refusal("51-43-34-S", BOUNCING) == (
        "a single moves 1 step: 43 cannot reach 34 without a bounce")
    assert refusal("51-43-33-(34-)35", BOUNCING) == (
        "34 holds a ring: a ring passes only through empty slots")
    assert refusal("16-26-36-(46-56-)66", START) == "no ring on 26 to bounce on"
    assert refusal("12-(22-)33", START) == "a triple moves 3 steps: 12-22-33 takes 2 steps"


LOOP = Position.from_string("...3../....../....../....../21..../11.... S")


def test_taboo_and_rebounce_refusals():
    # 11-12, bounce on 12, 22, 21 and, through the empty start slot 11, on 12 again
    text = "11-12-22-21-(11-)12-13"
    assert refusal(text, LOOP) == "connection 11-12 used twice"
    assert refusal(text, LOOP, PRESETS["dorbec"]) == "slot 12 entered twice from the west"
    # without the parentheses the only way between 21 and 12 is still through 11
    assert refusal("11-12-22-21-12-13", LOOP) == "connection 11-12 used twice"
    once = rules_from("pbmserv", ["rebounce=once"])
    assert refusal("11-12-22-21-12-13", LOOP, once) == (
        "the move lands twice on the ring at 12, which rebounce=once does not allow")


def test_relocation_refusals():
    position = "1...../2...../....../..1.../....../...... N"
    assert refusal("61x51=23", position) == (
        "23 cannot take a relocated ring: it is beyond South's shore (row 3)")
    assert refusal("61x51=33", position) == (
        "33 is not empty: a relocated ring goes to an empty slot")
    assert refusal("61x51=23", position, PRESETS["dorbec-beginner"]) == (
        "relocation needs replace, which these rules (dorbec-beginner) do not allow")
    m = parse_move("61x51=23", Position.from_string(position), PRESETS["dorbec"])
    assert (m.start, m.end, m.relocation) == slots("61", "51", "23")
    assert refusal("13x14=16", START) == "16 is not empty: a relocated ring goes to an empty slot"


def test_same_size_replace_beyond_the_shore_is_refused_although_the_board_is_legal():
    # the double on 11 lands on the double at 13: relocating it to 31 leaves the board that
    # the plain move 11-(21-)31 leaves, but 31 is beyond North's shore (row 1) for a replace
    position = Position.from_string("....../....../....../....../....../2.2... S")
    assert refusal("11x13=31", position) == (
        "31 cannot take a relocated ring: it is beyond North's shore (row 1)")
    assert parse_move("11-31", position, PBM).path == slots("11", "21", "31")
    assert parse_move("11x13=31", position, PRESETS["dorbec"]).relocation == parse_slot("31")


def test_null_move_and_renop_refusals():
    # the double on 11 goes out to 21 and back: a null move
    position = "....../....../....../....../..1.../2.1..3 S"
    dorbec = PRESETS["dorbec"]
    m = parse_move("11-(21-)11", Position.from_string(position), dorbec)
    assert m.path == slots("11", "21", "11")
    assert refusal("11-(21-)11", position, dorbec.with_options({"null-move": "forbidden"})) == (
        "the move leaves the board as it was, which null-move=forbidden does not allow")
    assert refusal("11-(21-)11", position, dorbec.with_options({"repetition": "forbidden"})) == (
        "the move reproduces an earlier position (Renop law)")
    assert refusal("11-(21-)11", position) == "connection 11-21 used twice"
    assert refusal("13x14=13", START) == (
        "the move leaves the board as it was, which null-move=forbidden does not allow")
    # Renop: a board of the history may not come back
    move = parse_move("12-31", START, PBM)
    earlier = apply_move(START, move)
    assert refusal("12-31", START, PBM, [earlier]) == (
        "the move reproduces an earlier position (Renop law)")
    assert refusal("12-31", START, PBM, [earlier.key]) == (
        "the move reproduces an earlier position (Renop law)")
    assert parse_move("12-31", START, rules_from("pbmserv", ["repetition=allowed"]), [earlier])


def test_refusal_when_nobody_can_move():
    position = Position.from_string(".3.3.3/112232/...1../...1.2/....../...... N")
    with pytest.raises(NotationError, match="under blocked=draw the game is drawn"):
        parse_move("62-52", position, PRESETS["bga"])


def test_next_row_names_the_row_that_moves():
    position = ".3.3.3/112232/...1../...1.2/....../...... N"
    assert refusal("62-52", position, PRESETS["summary"]) == (
        "62 is not in row 5, the row North moves from (its shore, row 6, has no legal move)")
    move = parse_move("51-41", Position.from_string(position), PRESETS["summary"])
    assert move.side is Side.NORTH and move.end == parse_slot("41")


def test_a_blocked_side_names_the_side_that_plays_on():
    position = ".3.3.3/112232/...1../...1.2/....../...... N"
    assert refusal("62-51", position) == (
        "62 is not on South's shore (row 3); North has no legal move, so South plays on")


# -- turns -----------------------------------------------------------------------------------


def test_turn_of_a_side_playing_on():
    position = Position.from_string(".3.3.3/112232/...1.2/...1../....../...... S")
    moves = parse_turn("34-44-43; 43-53-N", position, PBM)
    assert [format_move(m) for m in moves] == ["34-44-43", "43-53-N"]
    assert all(m.side is Side.SOUTH for m in moves) and moves[-1].is_win
    assert format_turn(moves) == "34-44-43; 43-53-N"


def test_turn_refusals():
    position = Position.from_string(".3.3.3/112232/...1.2/...1../....../...... S")
    with pytest.raises(NotationError, match="North is not blocked after 16-35"):
        parse_turn("16-35; 35-46", START, PBM)
    with pytest.raises(NotationError, match="moves are joined by '; '"):
        parse_turn("34-44-43;", position, PBM)
    with pytest.raises(NotationError, match="the game ended with 43-53-N"):
        parse_turn("34-44-43; 43-53-N; 36-46", position, PBM)


# -- the chain walker against the core's list of every path ----------------------------------


def _chain_of(kind: str, path: tuple[int, ...], landings: tuple[int, ...],
              board) -> ParsedMove:
    groups = []
    at = 0
    for i, s in enumerate((path[0], *landings)):
        k = board[s]
        if k > 1:
            groups.append((i, path[at + 1 : at + k]))
        at += k
    return ParsedMove("", (path[0], *landings, path[-1]), kind,
                      path[0] if kind == "land" else None, tuple(groups))


@pytest.mark.parametrize(
    "name, overrides",
    [("pbmserv", []), ("dorbec", []), ("pbmserv", ["rebounce=once"]),
     ("dorbec", ["rebounce=once"])],
)
def test_chain_walker_agrees_with_ring_paths(name, overrides):
    """Every path the core lists is found again from its full text, and a chain has a path
    for the walker exactly when the core lists a path with that chain."""
    rules = rules_from(name, overrides)
    rng = random.Random(f"walker-{rules.describe()}")
    compared = 0
    for _ in range(16):
        board = [0] * 36
        count = rng.randrange(3, 8)
        for size, s in zip([rng.choice((1, 2, 3)) for _ in range(count)],
                           rng.sample(range(36), count), strict=True):
            board[s] = size
        if any(board.count(size) > 4 for size in (1, 2, 3)):
            continue
        position = Position(tuple(board), rng.choice([Side.SOUTH, Side.NORTH]))
        side = position.turn
        for start in (s for s in range(36) if board[s]):
            lifted = list(board)
            paths = _movegen.ring_paths(position.key, side.index, rules.flags(), start)
            chains = {}
            for kind, path, landings in paths:
                parsed = _chain_of(kind, path, landings, board)
                found, why = _chain_path(parsed, position, side, rules)
                assert found == path, (str(position), path, why)
                chains.setdefault((kind, parsed.chain), set()).add(path)
                compared += 1
            # chains without parentheses: the core's chains, and random chains
            candidates = set(chains)
            for _ in range(30):
                n = rng.randrange(1, 4)
                middle = tuple(rng.sample([s for s in range(36) if lifted[s] and s != start],
                                          min(n - 1, sum(1 for x in lifted if x) - 1)))
                end = rng.choice([rng.randrange(36), NORTH_GOAL, SOUTH_GOAL])
                kind = "goal" if end in (NORTH_GOAL, SOUTH_GOAL) else (
                    "land" if board[end] and end != start else "end")
                candidates.add((kind, (start, *middle, end)))
            for kind, chain in candidates:
                parsed = ParsedMove("", chain, kind, start if kind == "land" else None)
                found, why = _chain_path(parsed, position, side, rules)
                if (kind, chain) in chains:
                    assert found in chains[(kind, chain)], (str(position), chain, why)
                else:
                    assert why is not None, (str(position), chain, found)
    assert compared > 100
