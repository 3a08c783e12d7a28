"""The report of a setup analysis (gyges.setups.proven.report): the published depth-3 and depth-4
tables' reports and heat maps are exactly what the report makes of their records (the
depth-4 table whole: every canonical pair once, sorted); the numbers of a
small fixed table, the ranking and its lists, singular forms, the explanations, and a
table of canonical pairs counted with its mirrors."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from gyges.game.position import ALL_SETUPS
from gyges.game.rules import PRESETS, Side
from gyges.output import signed
from gyges.setups.pairs import all_pairs, canonical_pair, canonical_pairs, mirror_setup
from gyges.setups.proven.heatmap import heatmap_svg
from gyges.setups.proven.records import AnalysisParams, PairRecord, read_results
from gyges.setups.proven.report import report, strengths

DATA = Path(__file__).resolve().parent.parent / "data" / "setups"
RULES = PRESETS["pbmserv"]


@pytest.fixture(scope="module")
def published() -> tuple[AnalysisParams, list[PairRecord]]:
    found, records = read_results(str(DATA / "pbmserv-depth3.jsonl"))
    assert len(records) == 8100 and found is not None and found.depth == 3
    return found, records


def test_the_published_report_and_heat_map_are_reproduced(published):
    found, records = published
    text = (DATA / "pbmserv-depth3-report.txt").read_text(encoding="utf-8")
    assert report(records, found) + "\n" == text
    svg = (DATA / "pbmserv-depth3.svg").read_text(encoding="utf-8")
    assert signed(heatmap_svg(records), "<!--", "-->") == svg


def test_the_published_depth_4_table_is_whole_and_its_report_reproduced():
    found, records = read_results(str(DATA / "pbmserv-depth4.jsonl"))
    assert found is not None and found.depth == 4 and found.canonical
    lines = (DATA / "pbmserv-depth4.jsonl").read_text(encoding="utf-8").splitlines()
    order = [(json.loads(line)["south"], json.loads(line)["north"]) for line in lines]
    assert order == sorted(order) and len(order) == len(records)   # sorted by pair, once
    assert {r.pair for r in records} == set(canonical_pairs(all_pairs()))
    text = (DATA / "pbmserv-depth4-report.txt").read_text(encoding="utf-8")
    assert report(records, found) + "\n" == text
    svg = (DATA / "pbmserv-depth4.svg").read_text(encoding="utf-8")
    assert signed(heatmap_svg(records), "<!--", "-->") == svg


def test_a_small_report_ranks_by_the_tie_break(published):
    found, records = published
    few = [r for r in records if r.south in ("213132", "323211")
           and r.north in ("112233", "332211")]
    text = report(few, found, top=1)
    assert text.splitlines()[0].startswith("4 setup pairs (2 South setups x 2 North setups)")
    # nothing is forced within 3: the order is the landing threats', and says it is no
    # strength (a decided table's report ranks by strength: test_report_summarises)
    assert "Setups ranked:" not in text and "strongest" not in text
    assert "Setups by landing threats:" in text
    assert "a count of first-move chances, not a strength" in " ".join(text.split())
    most = section(text, "South setups giving South the most landing threats a pair (of 2):")
    fewest = section(text, "South setups giving South the fewest, fewest first:")
    assert most[0].split()[0] == "213132" and fewest[0].split()[0] == "323211"
    most_north = section(text, "North setups leaving South the fewest landing threats a pair "
                               "(of 2):")
    fewest_north = section(text, "North setups leaving South the most, most first:")
    assert {most_north[0].split()[0], fewest_north[0].split()[0]} == {"112233", "332211"}
    # two setups a side, top 2: one list a side, in the same order
    whole = report(few, found, top=2)
    south = section(whole, "South setups, most landing threats first (all 2 setups):")
    north = section(whole, "North setups, fewest landing threats for South first (all 2 "
                           "setups):")
    assert [line.split()[0] for line in south] == ["213132", "323211"]
    threats = [float(line.split(",")[-1].split()[0]) for line in north]
    assert len(threats) == 2 and threats[0] <= threats[1]


def typed(rows: list[dict]) -> list[PairRecord]:
    """The records of JSON objects (as a results file holds them)."""
    return [PairRecord.from_json(r) for r in rows]


def synthetic(n_s: int = 3, n_n: int = 4) -> list[dict]:
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


def section(text: str, heading: str) -> list[str]:
    """The lines of a list after its heading, up to the next heading or blank line."""
    lines = text.split(heading, 1)[1].splitlines()[1:]
    out = []
    for line in lines:
        if not line.startswith("  "):
            break
        out.append(line)
    return out


def test_report_summarises():
    recs = synthetic()
    recs[5]["defence"] = {"threat": "11-21", "replies": 7, "reply": "61-51"}
    recs[7]["defence"] = {"threat": "12-22", "replies": 1, "reply": "62-52"}
    text = report(typed(recs), AnalysisParams.of(RULES, 2), top=2)
    assert "12 setup pairs (3 South setups x 4 North setups)" in text
    assert "forces a landing within 2: 3 pairs (25.0%)" in text
    assert "  win in 2: 3 pairs" in text and "North forces a landing whatever South does: " \
        "0 pairs (0.0%)" in text
    assert "South setups with a forced win against some North setup: 1 of 3" in text
    # 3 South setups, fewer than two lists of 2: one ranked list of all three
    assert "strongest South setups" not in text and "weakest South setups" not in text
    south = section(text, "South setups, strongest first (all 3 setups):")
    assert [line.split()[0] for line in south] == ["112233", "112332", "112323"]
    assert "South wins 3/4, North wins 0/4, score +0.7500" in south[0]
    # 4 North setups: the strongest two and the weakest two, none twice
    strongest_north = section(text, "strongest North setups (of 4):")
    weakest_north = section(text, "weakest North setups, weakest first:")
    assert [line.split()[0] for line in strongest_north] == ["113223", "112233"]
    # North setups 0-2 each lose one pair; of those, 2 faces the most landing threats
    assert [line.split()[0] for line in weakest_north] == ["112332", "112323"]
    assert "South wins 1/3, North wins 0/3, score -0.3333, 3.0 landing threats" \
        in weakest_north[0]
    narrow = [line for line in section(text, "narrowest defences:") if line.startswith("  S ")]
    assert "12-22, stopped by 1 reply, e.g. 62-52" in narrow[0] and "stopped by 7 replies" \
        in narrow[1]


def test_every_section_says_what_its_numbers_are():
    text = report(typed(synthetic()), None)
    lines = text.splitlines()
    for heading in ("Forced results within 2:", "Setups ranked:", "Distributions:",
                    "South's first moves: ", "North's moves (if to move): ",
                    "South's landing threats: ", "South's blunders: ", "replace threats: "):
        at = next(i for i, line in enumerate(lines) if line.startswith(heading))
        assert lines[at + 1].startswith("  ("), heading   # its explanation follows
    assert "score: those its side wins less those it loses, per pair" in " ".join(text.split())


def test_singular_forms():
    rec = {**synthetic(1, 1)[0], "defence": {"threat": "11-21", "replies": 1, "reply": "x"}}
    text = report(typed([rec]), None)
    assert text.startswith("1 setup pair (1 South setup x 1 North setup), depth 2")
    assert "within 2: 1 pair (100.0%)" in text and "  win in 2: 1 pair\n" in text
    assert "South setups, strongest first (all 1 setup):" in text
    assert "stopped by 1 reply," in text
    for plural in ("1 pairs", "1 setups", "1 South setups", "1 replies"):
        assert plural not in text


def test_a_win_outranks_any_number_of_landing_threats():
    rows = [PairRecord.from_json({**synthetic(1, 1)[0], "south": s, "north": n, "result": r,
                                  "win_in": 2 if r == "win" else None, "landing_threats": t})
            for s, n, r, t in (("231123", "112233", "win", 0), ("231123", "112323", "none", 1),
                               ("321132", "112233", "none", 90),
                               ("321132", "112323", "none", 90))]
    south = strengths(rows, Side.SOUTH)
    assert [(s.setup, s.score, s.threats_per_pair) for s in south] == [
        ("231123", 0.5, 0.5), ("321132", 0.0, 90.0)]
    north = strengths(rows, Side.NORTH)
    assert [(s.setup, s.score) for s in north] == [("112323", 0.0), ("112233", -0.5)]


def test_a_canonical_table_is_counted_with_its_mirrors():
    every = synthetic(90, 90)
    for r in every:   # figures that the mirror leaves alike, as the rules do
        twin = canonical_pair(r["south"], r["north"])
        r["landing_threats"] = int(twin[0][:3]) % 7 + int(twin[1][3:]) % 5
        r["result"] = "win" if twin == ("112233", "112233") else "none"
        r["win_in"] = 2 if r["result"] == "win" else None
        r["south_moves"] = sum(map(int, twin[0][:2]))
        r["north_moves"] = r["blunders"] = r["replace_threats"] = 0
    table = [{**r, "canonical": True} for r in every
             if canonical_pair(r["south"], r["north"]) == (r["south"], r["north"])]
    assert len(table) == 4068
    found = AnalysisParams.of(RULES, 2, canonical=True)
    text = report(typed(table), found)
    first = text.splitlines()[0]
    assert first.startswith("4,068 canonical pairs (8,100 with mirrors: 90 South setups x 90 "
                            "North setups), depth 2")
    full = report(typed(every), AnalysisParams.of(RULES, 2))
    assert "8,100 setup pairs (90 South setups x 90 North setups)" in full
    # every count, ranking and distribution is the whole table's
    after = text.split("Forced results within 2:")[1]
    assert after == full.split("Forced results within 2:")[1]
    assert "within 2: 2 pairs" in after     # the win and its mirror
    top = section(text, "strongest South setups (of 90):")[:2]
    assert {line.split()[0] for line in top} == {"112233", mirror_setup("112233")}
