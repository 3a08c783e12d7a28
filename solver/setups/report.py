"""The report of a setup analysis: its summary as text, and a heat map as SVG.

Both are pure functions of the records (:func:`gyges.setups.results.read_results`).

>>> from gyges.game.rules import PRESETS
>>> from gyges.setups.analysis import analyse_pair
>>> rec = analyse_pair("231123", "321123", PRESETS["pbmserv"], 1)
>>> report([rec], None).splitlines()[0]
'1 setup pairs (1 South setups x 1 North setups), depth 1, rules taboo=connection ...'
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from typing import Any
from xml.sax.saxutils import escape

from gyges.game.rules import Side

__all__ = ["heatmap_svg", "report"]

Record = Mapping[str, Any]


def _strength(records: Iterable[Record], side: Side) -> list[tuple[float, str, int, int, int]]:
    """Per setup of ``side``, strongest first: (score, setup, South wins, North wins, pairs).

    The score is the share of pairs the setup's side forces a win in, less the share it
    loses, then South's landing threats per pair as a tie-break (more is better for South,
    fewer for North).
    """
    key = side.title.lower()
    table: dict[str, list[int]] = {}
    for r in records:
        t = table.setdefault(r[key], [0, 0, 0, 0])
        t[0] += r["result"] == "win"
        t[1] += r["result"] == "loss"
        t[2] += 1
        t[3] += r["landing_threats"]
    out = []
    for setup, (wins, losses, n, threats) in table.items():
        sign = 1 if side is Side.SOUTH else -1
        score = sign * ((wins - losses) / n + threats / n / 1000)
        out.append((score, setup, wins, losses, n))
    return sorted(out, key=lambda t: (-t[0], t[1]))


def _histogram(values: Sequence[int], bins: int = 8) -> list[str]:
    if not values:
        return []
    lo, hi = min(values), max(values)
    step = max(1, -(-(hi - lo + 1) // bins))
    lines = []
    for b in range(lo, hi + 1, step):
        n = sum(b <= v < b + step for v in values)
        label = f"{b}" if step == 1 else f"{b}-{b + step - 1}"
        lines.append(f"  {label:>9} {n:6d} {'#' * max(1 if n else 0, round(40 * n / len(values)))}")
    return lines


def report(records: Sequence[Record], found: Mapping[str, Any] | None, top: int = 5) -> str:
    """The summary of an analysis as text (``found``: its parameters, as
    :func:`~gyges.setups.results.read_results` gives them)."""
    if not records:
        return "no results"
    records = sorted(records, key=lambda r: (r["south"], r["north"]))
    depth = found["depth"] if found else records[0]["depth"]
    n = len(records)
    wins = [r for r in records if r["result"] == "win"]
    losses = [r for r in records if r["result"] == "loss"]
    souths = sorted({r["south"] for r in records})
    norths = sorted({r["north"] for r in records})
    lines = [
        f"{n} setup pairs ({len(souths)} South setups x {len(norths)} North setups), "
        f"depth {depth}, rules {found['rules'] if found else records[0]['rules']}",
        f"South (moving first) forces a landing within {depth}: {len(wins)} pairs "
        f"({100 * len(wins) / n:.1f}%)",
        f"North forces a landing whatever South does: {len(losses)} pairs",
        f"no forced result within {depth}: {n - len(wins) - len(losses)} pairs",
    ]
    by_k: dict[int, int] = {}
    for r in wins:
        by_k[r["win_in"]] = by_k.get(r["win_in"], 0) + 1
    for k in sorted(by_k):
        lines.append(f"  win in {k}: {by_k[k]} pairs")
    south_wins = sorted({r["south"] for r in wins})
    lines.append(f"South setups with a forced win against some North setup: {len(south_wins)}")
    for side in (Side.SOUTH, Side.NORTH):
        ranked = _strength(records, side)
        lines.append(f"\nstrongest {side.title} setups (share of pairs, South's landing "
                     "threats as tie-break):")
        for score, setup, w, lost, m in ranked[:top]:
            lines.append(f"  {setup}  South wins {w}/{m}, North wins {lost}/{m}, "
                         f"score {round(score, 4) + 0.0:+.4f}")
        lines.append(f"weakest {side.title} setups:")
        for score, setup, w, lost, m in ranked[-top:][::-1]:
            lines.append(f"  {setup}  South wins {w}/{m}, North wins {lost}/{m}, "
                         f"score {round(score, 4) + 0.0:+.4f}")
    narrow = sorted((r for r in records if r.get("defence") and "threat" in r["defence"]),
                    key=lambda r: (r["defence"]["replies"], r["south"], r["north"]))
    if narrow:
        lines.append("\nnarrowest defences (South's landing threat that the fewest North "
                     "replies stop):")
        for r in narrow[:top]:
            d = r["defence"]
            lines.append(f"  S {r['south']} N {r['north']}: {d['threat']}, stopped by "
                         f"{d['replies']} replies, e.g. {d['reply']}")
    for key, title in (
        ("south_moves", "South's first moves"), ("north_moves", "North's moves (if to move)"),
        ("landing_threats", "South's landing threats"), ("blunders", "South's blunders"),
        ("replace_threats", "replace threats"),
    ):
        values = [r[key] for r in records]
        lines.append(f"\n{title}: min {min(values)}, mean {sum(values) / n:.1f}, "
                     f"max {max(values)}")
        lines.extend(_histogram(values))
    return "\n".join(lines)


def heatmap_svg(records: Sequence[Record], cell: int = 6, value: str = "auto") -> str:
    """A heat map, South setup (rows) by North setup (columns), as an SVG 1.1 document.

    Each cell's colour shows the pair's result (a South win red, a North win blue); for
    pairs without a forced result, a shade from white to green shows South's landing
    threats (``value``: ``auto``, or any numeric record key).

    >>> import xml.etree.ElementTree as ET
    >>> from gyges.game.rules import PRESETS
    >>> from gyges.setups.analysis import analyse_pair
    >>> rec = analyse_pair("231123", "321123", PRESETS["pbmserv"], 1)
    >>> ET.fromstring(heatmap_svg([rec])).tag
    '{http://www.w3.org/2000/svg}svg'
    """
    souths = sorted({r["south"] for r in records})
    norths = sorted({r["north"] for r in records})
    key = "landing_threats" if value == "auto" else value
    values = [r[key] for r in records] or [0]
    hi = max(max(values), 1)
    margin = 60
    w = margin + cell * len(norths) + 10
    h = margin + cell * len(souths) + 30
    out = [
        '<?xml version="1.0" encoding="UTF-8"?>',
        f'<svg xmlns="http://www.w3.org/2000/svg" version="1.1" width="{w}" height="{h}" '
        f'viewBox="0 0 {w} {h}">',
        f"<title>Gyges setup pairs: South (rows) by North (columns), {escape(key)}</title>",
        f'<rect x="0" y="0" width="{w}" height="{h}" fill="white"/>',
        f'<text x="{margin}" y="14" font-family="sans-serif" font-size="11">North setup '
        "&#8594;</text>",
        f'<text x="12" y="{margin}" font-family="sans-serif" font-size="11" '
        f'transform="rotate(90 12 {margin})">South setup &#8594;</text>',
    ]
    si = {s: i for i, s in enumerate(souths)}
    ni = {s: i for i, s in enumerate(norths)}
    for r in sorted(records, key=lambda r: (r["south"], r["north"])):
        x = margin + cell * ni[r["north"]]
        y = margin + cell * si[r["south"]]
        if r["result"] == "win":
            colour = "#d62728"
        elif r["result"] == "loss":
            colour = "#1f77b4"
        else:
            level = 255 - round(200 * r[key] / hi)
            colour = f"#{level:02x}{(level + 255) // 2:02x}{level:02x}"  # white to green
        out.append(
            f'<rect x="{x}" y="{y}" width="{cell}" height="{cell}" fill="{colour}">'
            f"<title>S {r['south']} N {r['north']}: {escape(str(r['result']))}, "
            f"{escape(key)} {r[key]}</title></rect>"
        )
    out.append(
        f'<text x="{margin}" y="{h - 10}" font-family="sans-serif" font-size="10">red: South '
        f"forces a landing; blue: North does; white to green: {escape(key)} (0 to {hi})</text>"
    )
    out.append("</svg>")
    return "\n".join(out) + "\n"
