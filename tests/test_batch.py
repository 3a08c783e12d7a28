"""The report and heat map of a setup analysis, and the progress bar of the batch runs."""

from __future__ import annotations

import xml.etree.ElementTree as ET

from gyges.game.rules import PRESETS
from gyges.setups.report import heatmap_svg, report

RULES = PRESETS["pbmserv"]


def synthetic(n_s: int = 3, n_n: int = 4) -> list[dict]:
    from gyges.setups.constraints import ALL_SETUPS

    recs = []
    for i, s in enumerate(ALL_SETUPS[:n_s]):
        for j, n in enumerate(ALL_SETUPS[:n_n]):
            win = (i == 0 and j < 3)
            recs.append({
                "south": s, "north": n, "south_moves": 200 + i, "north_moves": 100 + j,
                "south_replaces": 1, "north_replaces": 2, "landing_threats": i + j,
                "blunders": 0, "replace_threats": j, "result": "win" if win else "none",
                "win_in": 2 if win else None, "keys": ["11-21"] if win else [],
                "defence": None, "depth": 2, "format": 1, "rules": RULES.describe(),
            })
    return recs


def test_report_summarises():
    recs = synthetic()
    recs[5]["defence"] = {"threat": "11-21", "replies": 7, "reply": "61-51"}
    recs[7]["defence"] = {"threat": "12-22", "replies": 3, "reply": "62-52"}
    text = report(recs, {"depth": 2, "format": 1, "rules": RULES.describe()}, top=2)
    assert "12 setup pairs (3 South setups x 4 North setups)" in text
    assert "forces a landing within 2: 3 pairs (25.0%)" in text
    strongest_south = text.split("strongest South setups")[1].splitlines()[1]
    assert strongest_south.split()[0] == "112233" and "South wins 3/4" in strongest_south
    # North setups 0-2 each lose one pair; of those, 2 faces the most landing threats
    weakest_north = text.split("weakest North setups:")[1].splitlines()[1]
    assert weakest_north.split()[0] == "112332" and "South wins 1/3" in weakest_north
    strongest_north = text.split("strongest North setups")[1].splitlines()[1]
    assert strongest_north.split()[0] == "113223" and "South wins 0/3" in strongest_north
    narrow = text.split("narrowest defences")[1].splitlines()[1:3]
    assert "12-22, stopped by 3 replies" in narrow[0] and "stopped by 7" in narrow[1]


def test_heatmap_svg_parses_and_has_a_cell_per_pair():
    recs = synthetic()
    root = ET.fromstring(heatmap_svg(recs))
    ns = "{http://www.w3.org/2000/svg}"
    assert root.tag == f"{ns}svg"
    cells = [r for r in root.iter(f"{ns}rect") if r.find(f"{ns}title") is not None]
    assert len(cells) == 12
    red = [c for c in cells if c.get("fill") == "#d62728"]
    assert len(red) == 3


def test_progress_bar_shows_count_rate_and_time_left():
    import io

    from gyges.parallel import Progress

    stream = io.StringIO()
    bar = Progress(4, stream, every=0.0, unit="pairs")
    for _ in range(4):
        bar.update()
    bar.close()
    lines = stream.getvalue().splitlines()
    assert lines[-1].startswith("[" + "#" * 30 + "] 4/4 ")
    assert "pairs/s" in lines[-1] and "elapsed" in lines[-1] and "0m00s left" in lines[-1]
    assert lines[0].split("] ")[1].startswith("1/4 ")
