"""SVG diagrams: parsed as XML and checked for what they draw (no snapshots)."""

from __future__ import annotations

import random
import re
import xml.etree.ElementTree as ET

import pytest
from common import BOUNCING as BOUNCING_TEXT

from gyges.formats.notation import parse_move
from gyges.formats.svg import render_position
from gyges.game.moves import legal_moves
from gyges.game.position import START, Position
from gyges.game.rules import PRESETS, Side
from gyges.game.squares import NORTH_GOAL, SOUTH_GOAL, column_of, row_of

NS = {"s": "http://www.w3.org/2000/svg"}
PBM = PRESETS["pbmserv"]
BOUNCING = Position.from_string(BOUNCING_TEXT)
RELOCATION = Position.from_string("213132/....../....../....../....../113223 S")


def parse(svg: str) -> ET.Element:
    root = ET.fromstring(svg)
    assert root.tag == "{http://www.w3.org/2000/svg}svg"
    return root


def classes(el: ET.Element) -> set[str]:
    return set(el.get("class", "").split())


def by_class(root: ET.Element, name: str, tag: str = "*") -> list[ET.Element]:
    return [el for el in root.iter()
            if name in classes(el) and (tag == "*" or el.tag.endswith(tag))]


def rings(root: ET.Element) -> list[ET.Element]:
    return [g for g in root.iter("{http://www.w3.org/2000/svg}g") if "ring" in classes(g)]


def centre(g: ET.Element) -> tuple[float, float]:
    c = g.find("s:circle", NS)
    return float(c.get("cx")), float(c.get("cy"))


def random_position(rng: random.Random) -> Position:
    sizes = [1, 1, 1, 1, 2, 2, 2, 2, 3, 3, 3, 3][: rng.randrange(1, 13)]
    board = [0] * 36
    for size, s in zip(sizes, rng.sample(range(36), len(sizes)), strict=False):
        board[s] = size
    return Position(tuple(board), rng.choice([Side.SOUTH, Side.NORTH]))


def test_document_is_svg_1_1_with_viewbox_and_size():
    root = parse(render_position(START, size=300))
    assert root.get("version") == "1.1"
    x, y, w, h = (float(v) for v in root.get("viewBox").split())
    assert (x, y) == (0, 0) and w > 0 and h > 0
    assert float(root.get("width")) == 300
    assert float(root.get("height")) == pytest.approx(300 * h / w, abs=0.01)
    no_size = parse(render_position(START, size=None))
    assert no_size.get("width") is None and no_size.get("height") is None


@pytest.mark.parametrize("seed", range(25))
def test_each_ring_is_drawn_as_its_size_in_concentric_circles(seed):
    position = random_position(random.Random(seed))
    root = parse(render_position(position))
    drawn = rings(root)
    assert len(drawn) == sum(1 for x in position.board if x)
    by_slot = {}
    for g in drawn:
        size = int(re.search(r"size-(\d)", g.get("class")).group(1))
        circles = [c for c in g if "ring-circle" in classes(c)]
        assert len(circles) == size
        assert len({(c.get("cx"), c.get("cy")) for c in circles}) == 1  # concentric
        assert len({c.get("r") for c in circles}) == size  # distinct radii
        by_slot[centre(g)] = size
    # The same multiset of sizes as the position.
    assert sorted(by_slot.values()) == sorted(x for x in position.board if x)


def test_rings_stand_where_the_position_puts_them():
    root = parse(render_position(BOUNCING))
    # 51 (row 5, column 1) is the triple: leftmost column and the second row from the top.
    rows = sorted({centre(g)[1] for g in rings(root)})
    cols = sorted({centre(g)[0] for g in rings(root)})
    triple_51 = [g for g in rings(root) if centre(g) == (cols[0], rows[0])]
    assert len(triple_51) == 1 and "size-3" in classes(triple_51[0])
    # Flipped: the same ring goes to the bottom right.
    flipped = parse(render_position(BOUNCING, flipped=True))
    rows_f = sorted({centre(g)[1] for g in rings(flipped)})
    cols_f = sorted({centre(g)[0] for g in rings(flipped)})
    assert [g for g in rings(flipped) if centre(g) == (cols_f[-1], rows_f[-1])][0].get(
        "class") == "ring size-3 playable"


def test_both_goals_are_drawn_with_their_letters_and_connections():
    for flipped in (False, True):
        root = parse(render_position(START, flipped=flipped))
        north = by_class(root, "north", "g")
        south = by_class(root, "south", "g")
        assert len(north) == 1 and len(south) == 1
        assert north[0].find("s:text", NS).text == "N"
        assert south[0].find("s:text", NS).text == "S"
        ny = float(north[0].find("s:circle", NS).get("cy"))
        sy = float(south[0].find("s:circle", NS).get("cy"))
        assert (ny < sy) != flipped
        lines = by_class(root, "connections", "g")[0].findall("s:line", NS)
        # 60 connections between slots and 6 from each goal.
        assert len(lines) == 60 + 12
        for goal_y in (ny, sy):
            assert sum(1 for ln in lines if float(ln.get("y2")) == goal_y) == 6


def test_coordinates_shores_and_playable_marks_are_options():
    plain = parse(render_position(START, coordinates=False, shores=False, playable=False))
    assert not by_class(plain, "coordinates")
    assert not by_class(plain, "shore")
    assert not by_class(plain, "playable")
    full = parse(render_position(START))
    labels = [t.text for t in by_class(full, "coordinates", "g")[0].findall("s:text", NS)]
    assert sorted(labels) == sorted([str(i) for i in range(1, 7)] * 2)
    assert len(by_class(full, "shore", "rect")) == 2  # rows 1 and 6
    playable = [g for g in rings(full) if "playable" in classes(g)]
    assert len(playable) == 6  # South's six rings on row 1
    y_south = max(centre(g)[1] for g in rings(full))
    assert all(centre(g)[1] == y_south for g in playable)


def test_playable_rings_are_the_side_to_move_shore():
    position = Position.from_string(".3.3.3/112232/...1.2/...1../....../...... N")
    root = parse(render_position(position))
    playable = [g for g in rings(root) if "playable" in classes(g)]
    assert len(playable) == sum(1 for s in range(36) if position.board[s] and row_of(s) == 6)
    two = Position.from_string("....../....../..12../....../....../...... S")
    shared = parse(render_position(two))
    assert len(by_class(shared, "shore", "rect")) == 1  # both shores on row 4


def test_a_move_path_is_drawn_with_its_bounces():
    move = parse_move("51-43-33-31-21-S", BOUNCING, PBM)
    root = parse(render_position(BOUNCING, path=move))
    polyline = by_class(root, "path", "polyline")
    assert len(polyline) == 1
    points = polyline[0].get("points").split()
    assert len(points) == len(move.path)  # every slot entered, ending near the goal
    assert len(by_class(root, "bounce")) == len(move.landings) == 4
    assert len(by_class(root, "arrowhead", "polygon")) == 1
    assert not by_class(root, "relocation")
    # The arrow ends at South's goal: its tip is within the goal's reach.
    south = by_class(root, "south", "g")[0].find("s:circle", NS)
    tip = by_class(root, "arrowhead", "polygon")[0].get("points").split()[0]
    tx, ty = (float(v) for v in tip.split(","))
    gx, gy = float(south.get("cx")), float(south.get("cy"))
    assert ((tx - gx) ** 2 + (ty - gy) ** 2) ** 0.5 < float(south.get("r")) + 5


def test_a_relocation_is_a_dashed_arrow():
    move = parse_move("13x14=44", RELOCATION, PBM)
    root = parse(render_position(RELOCATION, path=move))
    reloc = by_class(root, "relocation", "line")
    assert len(reloc) == 1 and reloc[0].get("stroke-dasharray")
    assert len(by_class(root, "arrowhead", "polygon")) == 2  # the move and the relocation
    # The dashed arrow goes up the board from row 1 to row 4.
    assert float(reloc[0].get("y2")) < float(reloc[0].get("y1"))


def test_extra_arrows():
    root = parse(render_position(START, arrows=[(0, 6), (30, NORTH_GOAL), (5, SOUTH_GOAL)]))
    assert len(by_class(root, "arrow", "line")) == 3


def test_every_legal_move_of_a_position_renders():
    for move in legal_moves(BOUNCING, PBM):
        root = parse(render_position(BOUNCING, path=move))
        assert len(by_class(root, "bounce")) == move.bounces
        assert len(by_class(root, "relocation")) == (1 if move.is_replace else 0)


def test_self_contained_and_pure():
    svg = render_position(BOUNCING, path=parse_move("51-43-33-31-21-S", BOUNCING, PBM))
    assert svg == render_position(BOUNCING, path=parse_move("51-43-33-31-21-S", BOUNCING, PBM))
    for external in ("href", "url(", "@import", "@font-face", "<image", "<script"):
        assert external not in svg
    families = set(re.findall(r'font-family="([^"]+)"', svg))
    assert families == {"sans-serif"}


def test_title_names_the_position():
    root = parse(render_position(BOUNCING))
    assert root.find("s:title", NS).text == str(BOUNCING)
    root = parse(render_position(BOUNCING, title="Problem <1> & co"))
    assert root.find("s:title", NS).text == "Problem <1> & co"


def test_readable_at_5_cm():
    """At 5 cm (189 px at 96 dpi) the ring circles stay apart and their strokes visible."""
    from gyges.formats.svg import RING_RADII, RING_STROKE, WIDTH

    scale = 189 / WIDTH
    gaps = [a - b for a, b in zip(RING_RADII, RING_RADII[1:], strict=False)]
    assert min(gaps) * scale - RING_STROKE * scale >= 1.0  # at least a pixel of white
    assert RING_STROKE * scale >= 1.0
    assert column_of(0) == 1  # sanity: slot numbering as the renderer assumes


def test_a_main_line_is_drawn_as_numbered_arrows():
    from gyges.puzzles.lines import play_line

    position = Position.from_string(".3.3.3/112232/...1.2/...1../....../...... S")
    line = play_line(position, PBM, ["34-44-43; 43-53-N"])
    root = parse(render_position(position, line=line.moves))
    arrows = by_class(root, "line-move-arrow", "g")
    assert len(arrows) == len(line.moves) == 2
    numbers = [g.find("s:text", NS).text for g in by_class(root, "move-number", "g")]
    assert numbers == ["1", "2"]
    # Each arrow leaves its move's start just outside a ring drawn there (marked or not).
    from gyges.formats.svg import MARKED_R

    for g, move in zip(arrows, line.moves, strict=True):
        ln = g.find("s:line", NS)
        cx, cy = centre_of(root, move.start)
        gap = ((float(ln.get("x1")) - cx) ** 2 + (float(ln.get("y1")) - cy) ** 2) ** 0.5
        assert MARKED_R < gap < MARKED_R + 8, move
        assert not ln.get("stroke-dasharray")  # both moves are the side to move's
    # The other side's moves are dashed.
    mixed = Position.from_string("....../3...../..1.1./1.23.3/3.22.1/....2. N")
    moves = [legal_moves(mixed.with_turn(Side.SOUTH), PBM)[0]]
    root = parse(render_position(mixed, line=moves))
    (ln,) = [g.find("s:line", NS) for g in by_class(root, "line-move-arrow", "g")]
    assert ln.get("stroke-dasharray")


def centre_of(root: ET.Element, slot: int) -> tuple[float, float]:
    """The centre the renderer gives a slot, read from a one-ring drawing."""
    board = [0] * 36
    board[slot] = 1
    one = parse(render_position(Position(tuple(board), Side.SOUTH)))
    return centre(rings(one)[0])


def test_monochrome_prints_in_black_and_white():
    svg = render_position(START, monochrome=True,
                          path=parse_move("16-35", START, PBM))
    inks = set(re.findall(r'(?:fill|stroke)="(#[0-9a-fA-F]{6})"', svg))
    assert inks <= {"#000000", "#ffffff"}
    root = parse(svg)
    shores = by_class(root, "shore", "rect")
    assert len(shores) == 2 and all(r.get("stroke-dasharray") for r in shores)
    # The side to move's rings keep their thick black rim, on a white disc.
    playable = [g for g in rings(root) if "playable" in classes(g)]
    assert len(playable) == 6
    for g in playable:
        disc = g.find("s:circle", NS)
        assert disc.get("fill") == "#ffffff" and float(disc.get("stroke-width")) > 4
    grey = parse(render_position(START))
    marked = [g for g in rings(grey) if "playable" in classes(g)]
    assert {g.find("s:circle", NS).get("fill") for g in marked} == {"#a8a8a8"}


def test_the_path_never_hides_a_ring():
    """The key's path is drawn under the rings (its group comes before theirs) and its
    bounce marks stand outside the discs of the rings they mark, so that every ring's
    circles show where the path passes."""
    from gyges.formats.svg import RING_R

    move = parse_move("51-43-33-31-21-S", BOUNCING, PBM)
    root = parse(render_position(BOUNCING, path=move))
    order = [classes(g) for g in root.iter(f"{{{NS['s']}}}g")]
    first_ring = next(i for i, c in enumerate(order) if "ring" in c)
    assert order.index({"move"}) < first_ring
    marks = by_class(root, "bounce", "rect")
    assert len(marks) == 4
    for mark, slot in zip(marks, move.landings, strict=True):
        x = float(mark.get("x")) + float(mark.get("width")) / 2
        y = float(mark.get("y")) + float(mark.get("height")) / 2
        cx, cy = centre_of(root, slot)
        assert ((x - cx) ** 2 + (y - cy) ** 2) ** 0.5 > RING_R + 2, slot


def test_a_main_line_is_drawn_under_the_rings_and_numbered_over_them():
    from gyges.puzzles.lines import play_line

    position = Position.from_string(".3.3.3/112232/...1.2/...1../....../...... S")
    line = play_line(position, PBM, ["34-44-43; 43-53-N"])
    root = parse(render_position(position, line=line.moves))
    order = [classes(g) for g in root.iter(f"{{{NS['s']}}}g")]
    rings_at = [i for i, c in enumerate(order) if "ring" in c]
    assert order.index({"line"}) < rings_at[0] < rings_at[-1] < order.index({"move-numbers"})
