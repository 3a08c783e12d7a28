"""SVG diagrams of positions: a pure function of the position, with keyword options.

Like python-chess's ``chess.svg``: :func:`render_position` returns an SVG 1.1 document as
a string and depends on nothing but its arguments. The drawing is made for black and white
print and for screens at 96 dpi: a ring of size k is k concentric circles with white
between them (so the size reads at a glance), the rings the side to move may play are
marked as a whole (a grey disc with a thick black rim, as visible on a triple as on a
single; in monochrome the rim alone), both
goals are drawn with their six connections, the shores are lightly shaded, and a move's
path is a thick line drawn under the rings (so that it never hides a ring's size) with its
bounces marked at the rings' edges (a relocation is a dashed arrow). No fonts or files are
referenced: text uses the generic ``sans-serif`` family.

>>> from gyges.game.position import Position
>>> svg = render_position(Position.from_string("321123/....../....../....../....../231123 S"))
>>> svg.startswith("<svg") and 'version="1.1"' in svg
True
>>> svg.count('class="ring-circle"')  # two singles, two doubles, two triples a side
24
"""

from __future__ import annotations

import dataclasses
from collections.abc import Iterable, Sequence
from typing import TYPE_CHECKING
from xml.sax.saxutils import escape, quoteattr

from gyges.game.rules import Side
from gyges.game.squares import NORTH_GOAL, SLOTS, SOUTH_GOAL, column_of, row_of, slot_name

if TYPE_CHECKING:
    from gyges.game.moves import Move
    from gyges.game.position import Position

SVG_NS = "http://www.w3.org/2000/svg"

# Geometry in user units (the viewBox); ``size`` only scales the whole drawing.
SLOT_SIZE = 60.0
LEFT = 18.0  # left margin
RIGHT = 38.0  # right margin: row numbers, as in seed 000's diagrams
LABELS = 44.0  # band above everything: column numbers, as in seed 000's diagrams
GOAL_BAND = 44.0  # between the board and each goal's centre band
GOAL_R = 17.0
#: The circles of a ring, outer to inner (a ring of size k draws the first k), and their
#: stroke: strokes 3.6 units wide, the white between them 4.2 and a triple's middle 10.8
#: across (on the book's 46 mm diagrams at 96 dpi: 1.5, 1.8 and 4.5 px).
RING_RADII = (22.8, 15.0, 7.2)
RING_STROKE = 3.6
#: The radius of the white disc under a ring; a marked ring's (the side to move's) grey
#: disc reaches further, its thick black rim (MARK_RIM wide) round the outer circle.
RING_R = RING_RADII[0] + RING_STROKE / 2
MARKED_R = RING_R + 3.4
MARK_RIM = 6.0
#: The white margin round an unmarked ring, where the key's path and the grid stop short.
HALO = 2.0
MARKED_FILL = "#a8a8a8"
#: The column and row numbers' font size: 13.8 px at 96 dpi on a 46 mm diagram (their
#: digits 10 px high).
COORDINATE_FONT = 33.0
WIDTH = LEFT + 6 * SLOT_SIZE + RIGHT
HEIGHT = LABELS + 2 * GOAL_BAND + 6 * SLOT_SIZE + 6.0

INK = "#000000"
GRID = "#8c8c8c"
SHORE_FILL = "#ebebeb"
PATH_INK = "#1a1a1a"


@dataclasses.dataclass(frozen=True)
class _Style:
    """The inks of a drawing: the default greys, or pure black on white (``monochrome``)."""

    grid: str = GRID
    grid_width: float = 1.6
    shore_fill: str | None = SHORE_FILL
    shore_stroke: str | None = None
    marked_fill: str = MARKED_FILL
    path_ink: str = PATH_INK
    path_opacity: float | None = 0.85
    label_ink: str = "#222222"


GREY = _Style()
MONOCHROME = _Style(grid=INK, grid_width=1.0, shore_fill=None, shore_stroke=INK,
                    marked_fill="#ffffff", path_ink=INK, path_opacity=None, label_ink=INK)


def _fmt(x: float) -> str:
    """A coordinate without trailing zeros (``12``, ``12.5``)."""
    text = f"{x:.2f}".rstrip("0").rstrip(".")
    return "0" if text == "-0" else text


def _attrs(**attrs: object) -> str:
    """``key="value"`` pairs; ``_`` in a key becomes ``-``; None values are left out."""
    parts = []
    for key, value in attrs.items():
        if value is None:
            continue
        name = "class" if key == "class_" else key.replace("_", "-")
        if isinstance(value, float):
            value = _fmt(value)
        parts.append(f"{name}={quoteattr(str(value))}")
    return " ".join(parts)


class _Layout:
    """Where slots and goals go on the drawing (flipped = South at the top)."""

    def __init__(self, flipped: bool) -> None:
        self.flipped = flipped
        self.board_top = LABELS + GOAL_BAND

    def centre(self, s: int) -> tuple[float, float]:
        """Centre of a slot or goal in user units."""
        mid_x = LEFT + 3 * SLOT_SIZE
        top_goal_y = LABELS + GOAL_BAND * 0.45
        bottom_goal_y = self.board_top + 6 * SLOT_SIZE + GOAL_BAND * 0.55
        if s in (NORTH_GOAL, SOUTH_GOAL):
            at_top = (s == NORTH_GOAL) != self.flipped
            return mid_x, top_goal_y if at_top else bottom_goal_y
        row, col = row_of(s), column_of(s)
        if self.flipped:
            row, col = 7 - row, 7 - col
        return LEFT + (col - 0.5) * SLOT_SIZE, self.board_top + (6 - row + 0.5) * SLOT_SIZE

    def row_y(self, row: int) -> float:
        """The y of the centre line of a row (1..6)."""
        return self.centre((row - 1) * 6)[1]


def _arrowhead(x1: float, y1: float, x2: float, y2: float, length: float, width: float,
               class_: str, ink: str = PATH_INK) -> str:
    """A filled triangle pointing from (x1, y1) to its tip at (x2, y2)."""
    dx, dy = x2 - x1, y2 - y1
    norm = (dx * dx + dy * dy) ** 0.5 or 1.0
    ux, uy = dx / norm, dy / norm
    bx, by = x2 - ux * length, y2 - uy * length
    px, py = -uy * width / 2, ux * width / 2
    points = " ".join(
        f"{_fmt(x)},{_fmt(y)}" for x, y in ((x2, y2), (bx + px, by + py), (bx - px, by - py))
    )
    return f"<polygon {_attrs(class_=class_, points=points, fill=ink)}/>"


def _shorten(x1: float, y1: float, x2: float, y2: float, by: float) -> tuple[float, float]:
    """The point ``by`` units before (x2, y2) on the segment from (x1, y1)."""
    dx, dy = x2 - x1, y2 - y1
    norm = (dx * dx + dy * dy) ** 0.5 or 1.0
    return x2 - dx / norm * by, y2 - dy / norm * by


def render_position(
    position: Position,
    *,
    size: float | None = 360,
    coordinates: bool = True,
    flipped: bool = False,
    shores: bool = True,
    playable: bool = True,
    path: Move | None = None,
    line: Sequence[Move] = (),
    arrows: Iterable[tuple[int, int]] = (),
    monochrome: bool = False,
    title: str | None = None,
) -> str:
    """An SVG 1.1 document drawing ``position``.

    ``size`` is the width in pixels (None: no width or height, the drawing fills its
    container); ``coordinates`` draws column numbers above and row numbers on the right, as
    in seed 000; ``flipped`` puts South's goal at the top; ``shores`` shades both shore rows;
    ``playable`` marks the side to move's shore rings (a grey disc and a thick black rim;
    in ``monochrome`` the rim alone); ``path`` (a Move of this position) draws its route
    from start to end under the rings, with every bounce marked at the ring's edge and a
    relocation as a dashed arrow; ``line`` (the moves of a main line, the first one a move of this
    position) draws each move as a numbered arrow from its start to its end, the side to
    move's solid and the other side's dashed; ``arrows`` are extra ``(from, to)`` slot or
    goal arrows; ``monochrome`` draws in black on white only (shores outlined, no grey),
    for black-and-white print; ``title`` is the document's ``<title>``
    (default: the position string).

    >>> from gyges.game.position import Position
    >>> svg = render_position(Position.from_string("....../....../....../..3.../....../...... S"),
    ...                       size=None, coordinates=False)
    >>> ' width=' in svg.split('>')[0], svg.count('class="ring-circle"')
    (False, 3)
    >>> import re
    >>> mono = render_position(Position.from_string("....../....../....../..3.../....../...... S"),
    ...                        monochrome=True)
    >>> sorted(set(re.findall(r'(?:fill|stroke)="(#[0-9a-f]{6})"', mono)))
    ['#000000', '#ffffff']
    """
    lay = _Layout(flipped)
    style = MONOCHROME if monochrome else GREY
    out = _document_head(position, size, title)
    if shores:
        out += _shore_bands(position, lay, style)
    out += _connections(lay, style)
    out += _empty_slots(position, lay, style)
    out += _goals(lay)
    if coordinates:
        out += _coordinates(lay, style)
    if path is not None:
        out += _move_path(path, position, lay, style)
    if line:
        out += _line_arrows(line, position, lay, style)
    out += _rings(position, lay, style, playable)
    if line:
        out += _move_numbers(line, lay)
    if path is not None:
        out += _bounce_marks(path, position, lay, style)
        if path.relocation is not None:
            out.append(_straight_arrow(lay, path.end, path.relocation, "relocation", style))
    for a, b in arrows:
        out.append(_straight_arrow(lay, a, b, "arrow", style, dashed=False))
    out.append("</svg>")
    return "\n".join(out) + "\n"


def _document_head(position: Position, size: float | None, title: str | None) -> list[str]:
    """The ``<svg>`` element (width and height from ``size``), its title, a white ground."""
    width_attr = height_attr = None
    if size is not None:
        width_attr = _fmt(float(size))
        height_attr = _fmt(float(size) * HEIGHT / WIDTH)
    svg = "<svg " + _attrs(xmlns=SVG_NS, version="1.1", width=width_attr, height=height_attr,
                           viewBox=f"0 0 {_fmt(WIDTH)} {_fmt(HEIGHT)}",
                           class_="gyges-board") + ">"
    return [svg, f"<title>{escape(title if title is not None else str(position))}</title>",
            f"<rect {_attrs(x=0.0, y=0.0, width=WIDTH, height=HEIGHT, fill='#ffffff')}/>"]


def _shore_bands(position: Position, lay: _Layout, style: _Style) -> list[str]:
    """A light band (monochrome: a dashed outline) behind each side's shore row."""
    out = []
    for row in sorted({position.shore(Side.SOUTH), position.shore(Side.NORTH)}):
        y = lay.row_y(row)
        out.append("<rect " + _attrs(
            class_="shore", x=LEFT + 4.0, y=y - SLOT_SIZE / 2 + 3, width=6 * SLOT_SIZE - 8,
            height=SLOT_SIZE - 6, rx=10.0, fill=style.shore_fill or "none",
            stroke=style.shore_stroke, stroke_width=1.4 if style.shore_stroke else None,
            stroke_dasharray="5 4" if style.shore_stroke else None) + "/>")
    return out


def _connections(lay: _Layout, style: _Style) -> list[str]:
    """The grid, and each goal's six connections to its row."""
    lines = []
    for s in SLOTS:
        x1, y1 = lay.centre(s)
        if column_of(s) < 6:
            lines.append((x1, y1, *lay.centre(s + 1)))
        if row_of(s) < 6:
            lines.append((x1, y1, *lay.centre(s + 6)))
    for goal, row in ((NORTH_GOAL, 6), (SOUTH_GOAL, 1)):
        gx, gy = lay.centre(goal)
        for col in range(1, 7):
            lines.append((*lay.centre((row - 1) * 6 + col - 1), gx, gy))
    out = [f'<g {_attrs(class_="connections", stroke=style.grid, stroke_width=style.grid_width)}>']
    out += [f"<line {_attrs(x1=x1, y1=y1, x2=x2, y2=y2)}/>" for x1, y1, x2, y2 in lines]
    out.append("</g>")
    return out


def _empty_slots(position: Position, lay: _Layout, style: _Style) -> list[str]:
    """A small dot on every empty slot."""
    out = [f'<g {_attrs(class_="slots", fill=style.grid)}>']
    for s in SLOTS:
        if not position.board[s]:
            x, y = lay.centre(s)
            out.append(f"<circle {_attrs(cx=x, cy=y, r=3.5)}/>")
    out.append("</g>")
    return out


def _goals(lay: _Layout) -> list[str]:
    """Each goal: a circle with its letter."""
    out = []
    for goal, letter, name in ((NORTH_GOAL, "N", "north"), (SOUTH_GOAL, "S", "south")):
        gx, gy = lay.centre(goal)
        out += [
            f'<g {_attrs(class_=f"goal {name}")}>',
            "<circle " + _attrs(cx=gx, cy=gy, r=GOAL_R, fill="#ffffff", stroke=INK,
                                stroke_width=2.4) + "/>",
            "<text " + _attrs(x=gx, y=gy + 6.5, text_anchor="middle", font_family="sans-serif",
                              font_size=19.0, font_weight="bold", fill=INK) + f">{letter}</text>",
            "</g>",
        ]
    return out


def _coordinates(lay: _Layout, style: _Style) -> list[str]:
    """Column numbers above everything, row numbers on the right (seed 000's diagrams)."""
    out = ["<g " + _attrs(class_="coordinates", font_family="sans-serif",
                          font_size=COORDINATE_FONT, fill=style.label_ink,
                          text_anchor="middle") + ">"]
    for col in range(1, 7):
        x, _ = lay.centre(col - 1)
        out.append(f"<text {_attrs(x=x, y=LABELS - 8.0)}>{col}</text>")
    for row in range(1, 7):
        y = lay.row_y(row)
        out.append(f"<text {_attrs(x=LEFT + 6 * SLOT_SIZE + RIGHT / 2 + 2, y=y + 11.5)}>{row}"
                   "</text>")
    out.append("</g>")
    return out


def _ring_elements(x: float, y: float, size: int, marked: bool = False,
                  style: _Style | None = None) -> list[str]:
    """The SVG elements of one ring of ``size`` centred on (x, y): ``size`` black circles
    on a white disc; ``marked`` (the side to move's), on a grey disc (white in
    ``monochrome``) with a thick black rim round the outer circle: a mark of the whole
    piece, as visible on a triple as on a single, that keeps the circles apart."""
    style = style or GREY
    if marked:
        out = ["<circle " + _attrs(class_="ring-disc", cx=x, cy=y, r=MARKED_R - MARK_RIM / 2,
                                   fill=style.marked_fill, stroke=INK,
                                   stroke_width=MARK_RIM) + "/>"]
    else:
        out = ["<circle " + _attrs(class_="ring-disc", cx=x, cy=y, r=RING_R + HALO,
                                   fill="#ffffff") + "/>"]
    out += ["<circle " + _attrs(class_="ring-circle", cx=x, cy=y, r=radius, fill="none",
                                stroke=INK, stroke_width=RING_STROKE) + "/>"
            for radius in RING_RADII[:size]]
    return out


def ring_symbol(size: int, marked: bool = False, px: float = 34.0,
                monochrome: bool = False) -> str:
    """A small SVG document of one ring, drawn as in the diagrams (for a legend), ``px``
    pixels wide."""
    style = MONOCHROME if monochrome else GREY
    half = MARKED_R + 2.0
    return ("<svg " + _attrs(xmlns=SVG_NS, version="1.1", width=px, height=px,
                             viewBox=f"0 0 {_fmt(2 * half)} {_fmt(2 * half)}",
                             class_="ring-symbol") + ">"
            + "".join(_ring_elements(half, half, size, marked, style)) + "</svg>")


def _rings(position: Position, lay: _Layout, style: _Style, playable: bool) -> list[str]:
    """Every ring (:func:`_ring_elements`), the side to move's playable ones marked."""
    mover_shore = position.shore() if playable else None
    out = []
    for s in SLOTS:
        ring = position.board[s]
        if not ring:
            continue
        x, y = lay.centre(s)
        is_playable = mover_shore is not None and row_of(s) == mover_shore
        out.append(
            f'<g {_attrs(class_=f"ring size-{ring}" + (" playable" if is_playable else ""))}>')
        out += _ring_elements(x, y, ring, is_playable, style)
        out.append("</g>")
    return out


def _ring_reach(position: Position, s: int) -> float:
    """How far from a slot's centre its ring's disc reaches (0: no ring there)."""
    if s not in SLOTS or not position.board[s]:
        return 0.0
    return MARKED_R if row_of(s) == position.shore() else RING_R + HALO


def _move_path(path: Move, position: Position, lay: _Layout, style: _Style) -> list[str]:
    """A move's route, drawn before the rings so that they hide it and it hides none of
    them: a thick line through every slot entered, an arrowhead at its end (at the edge of
    the ring or goal it ends on), a small diamond where it meets each ring it bounces on."""
    points = [lay.centre(s) for s in path.path] or [lay.centre(path.start), lay.centre(path.end)]
    if len(points) < 2:
        return []
    end_gap = GOAL_R + 2 if path.is_win else max(11.0, _ring_reach(position, path.end) + 1)
    tip = _shorten(*points[-2], *points[-1], by=end_gap)
    base = _shorten(*points[-2], *tip, by=11.0)
    drawn = points[:-1] + [base]
    ink = style.path_ink
    out = [f'<g {_attrs(class_="move")}>']
    out.append("<polyline " + _attrs(
        class_="path", points=" ".join(f"{_fmt(x)},{_fmt(y)}" for x, y in drawn), fill="none",
        stroke=ink, stroke_width=4.5, stroke_linejoin="round", stroke_linecap="round",
        stroke_opacity=style.path_opacity) + "/>")
    out.append(_arrowhead(*points[-2], *tip, length=16.0, width=15.0, class_="arrowhead",
                          ink=ink))
    out.append("</g>")
    return out


def _bounce_marks(path: Move, position: Position, lay: _Layout, style: _Style) -> list[str]:
    """A small diamond on the path where it reaches each ring it bounces on, outside the
    ring (drawn over the rings: it touches the disc's edge, never its circles)."""
    out = [f'<g {_attrs(class_="bounces")}>']
    slots = list(path.path)
    for n, s in enumerate(path.landings, 1):
        i = slots.index(s, 1) if s in slots[1:] else None
        bx, by = lay.centre(s)
        if i is not None:
            bx, by = _shorten(*lay.centre(slots[i - 1]), bx, by,
                              by=_ring_reach(position, s) + 6.0)
        out.append("<rect " + _attrs(
            class_="bounce", x=bx - 4.5, y=by - 4.5, width=9.0, height=9.0,
            fill=style.path_ink, transform=f"rotate(45 {_fmt(bx)} {_fmt(by)})",
        ) + f"><title>bounce {n} on {slot_name(s)}</title></rect>")
    out.append("</g>")
    return out


def _line_arrows(line: Sequence[Move], position: Position, lay: _Layout,
                 style: _Style) -> list[str]:
    """The moves of a line as straight arrows from start to end, drawn under the rings (so
    that they hide none): the side to move's solid, the other's dashed; an arrow to a slot
    the position holds a ring on stops at that ring's edge."""
    out = [f'<g {_attrs(class_="line")}>']
    for move in line:
        out.append(_straight_arrow(lay, move.start, move.end, "line-move", style,
                                   dashed=move.side is not position.turn,
                                   end_gap=_ring_reach(position, move.end) + 1))
    out.append("</g>")
    return out


def _move_numbers(line: Sequence[Move], lay: _Layout) -> list[str]:
    """Each move's number in a white disc on its start ring's upper left, over the rings."""
    out = [f'<g {_attrs(class_="move-numbers")}>']
    for n, move in enumerate(line, 1):
        x, y = lay.centre(move.start)
        lx, ly = x - RING_RADII[0] * 0.8, y - RING_RADII[0] * 0.8
        out.append("<g " + _attrs(class_="move-number") + ">"
                   + "<circle " + _attrs(cx=lx, cy=ly, r=11.5, fill="#ffffff", stroke=INK,
                                         stroke_width=1.6) + "/>"
                   + "<text " + _attrs(x=lx, y=ly + 6.0, text_anchor="middle",
                                       font_family="sans-serif", font_size=17.0,
                                       font_weight="bold", fill=INK) + f">{n}</text></g>")
    out.append("</g>")
    return out


def _straight_arrow(lay: _Layout, a: int, b: int, class_: str, style: _Style = GREY,
                    dashed: bool = True, end_gap: float = 0.0) -> str:
    """A straight arrow from slot (or goal) ``a`` to ``b``, leaving ``a``'s ring clear and
    stopping ``end_gap`` (at least 10) short of a slot ``b``."""
    x0, y0 = lay.centre(a)
    x2, y2 = lay.centre(b)
    x1, y1 = _shorten(x2, y2, x0, y0, by=MARKED_R + 3)
    gap = GOAL_R + 2 if b in (NORTH_GOAL, SOUTH_GOAL) else max(10.0, end_gap)
    tip = _shorten(x1, y1, x2, y2, by=gap)
    base = _shorten(x1, y1, *tip, by=11.0)
    line = "<line " + _attrs(
        class_=class_, x1=x1, y1=y1, x2=base[0], y2=base[1], stroke=style.path_ink,
        stroke_width=3.5, stroke_dasharray="9 6" if dashed else None, stroke_linecap="butt",
    ) + "/>"
    return f'<g {_attrs(class_=class_ + "-arrow")}>' + line + _arrowhead(
        x1, y1, *tip, length=15.0, width=14.0, class_="arrowhead", ink=style.path_ink
    ) + "</g>"
