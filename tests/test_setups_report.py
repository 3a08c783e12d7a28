"""The report of a setup analysis (gyges.setups.report): the published depth-3 table's
report and heat map are exactly what the report makes of its records."""

from __future__ import annotations

from pathlib import Path

from gyges.output import signed
from gyges.setups.report import heatmap_svg, report
from gyges.setups.results import read_results

DATA = Path(__file__).resolve().parent.parent / "data" / "setups"


def test_the_published_report_and_heat_map_are_reproduced():
    found, records = read_results(str(DATA / "pbmserv-depth3.jsonl"))
    assert len(records) == 8100 and found is not None and found["depth"] == 3
    text = (DATA / "pbmserv-depth3-report.txt").read_text(encoding="utf-8")
    assert report(records, found) + "\n" == text
    svg = (DATA / "pbmserv-depth3.svg").read_text(encoding="utf-8")
    assert signed(heatmap_svg(records), "<!--", "-->") == svg


def test_a_small_report_ranks_by_the_tie_break():
    found, records = read_results(str(DATA / "pbmserv-depth3.jsonl"))
    few = [r for r in records if r["south"] in ("213132", "323211")
           and r["north"] in ("112233", "332211")]
    text = report(few, found, top=1)
    assert text.splitlines()[0].startswith("4 setup pairs (2 South setups x 2 North setups)")
    strongest = text.split("strongest South setups")[1].splitlines()[1]
    weakest = text.split("weakest South setups:")[1].splitlines()[1]
    assert strongest.split()[0] == "213132" and weakest.split()[0] == "323211"
