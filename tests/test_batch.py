"""Batch analysis: figures, parallel determinism, resume, report and heat map."""

from __future__ import annotations

import json
import xml.etree.ElementTree as ET

import pytest
from click.testing import CliRunner

from gyges.game.moves import apply_move, can_land, legal_moves
from gyges.game.position import Position
from gyges.game.rules import PRESETS, Side
from gyges.setups.batch import (
    BatchError,
    analyse_pair,
    dumps,
    heatmap_svg,
    read_results,
    report,
    run,
    select_pairs,
)
from gyges_cli.main import cli

RULES = PRESETS["pbmserv"]
PAIRS = select_pairs("231123,112332,231132", "321123,132312")


def test_figures_agree_with_the_public_api():
    rec = analyse_pair("231132", "132312", RULES, 1)
    p = Position.setup("231132", "132312")
    south = legal_moves(p, RULES)
    north = legal_moves(p.with_turn(Side.NORTH), RULES)
    assert rec["south_moves"] == len(south) and rec["north_moves"] == len(north)
    assert rec["south_replaces"] == sum(m.is_replace for m in south)
    assert rec["north_replaces"] == sum(m.is_replace for m in north)
    afters = [apply_move(p, m) for m in south]
    assert rec["blunders"] == sum(can_land(a, RULES, [p]) for a in afters)
    assert rec["landing_threats"] == sum(can_land(a.with_turn(Side.SOUTH), RULES, [p])
                                         for a in afters)
    # no ring reaches the far row in one move from a start position
    assert rec["result"] == "none" and rec["win_in"] is None and rec["keys"] == []
    d = rec["defence"]
    assert d is not None and d["replies"] > 0
    # the reply given really stops the threat given
    threat = next(m for m in south if str(m) == d["threat"])
    after = apply_move(p, threat)
    reply = next(m for m in legal_moves(after, RULES, [p]) if str(m) == d["reply"])
    assert reply.is_win or not can_land(apply_move(after, reply), RULES, [p, after])
    assert rec["depth"] == 1 and rec["rules"] == RULES.describe()
    assert list(json.loads(dumps(rec))) == sorted(rec)


def test_jobs_1_and_2_give_the_same_results(tmp_path):
    out1, out2 = tmp_path / "a.jsonl", tmp_path / "b.jsonl"
    s1 = run(PAIRS, RULES, 1, str(out1), jobs=1)
    s2 = run(PAIRS, RULES, 1, str(out2), jobs=2, log=str(tmp_path / "b.log"), chunksize=1)
    assert s1["done"] == s2["done"] == len(PAIRS) and not s1["interrupted"]
    p1, r1 = read_results(str(out1))
    p2, r2 = read_results(str(out2))
    assert p1 == p2 and r1 == r2 and len(r1) == len(PAIRS)
    assert sorted(out1.read_text().splitlines()) == sorted(out2.read_text().splitlines())
    log = (tmp_path / "b.log").read_text()
    # the workers' lines reach the one log file
    assert sum("pid " in line for line in log.splitlines()) == len(PAIRS)


def test_resume_after_interruption(tmp_path):
    out = tmp_path / "r.jsonl"
    full = tmp_path / "full.jsonl"
    run(PAIRS, RULES, 1, str(full), jobs=1)
    lines = full.read_text().splitlines(keepends=True)
    # an interrupted run: two complete lines and half of a third
    out.write_text(lines[0] + lines[1] + lines[2][: len(lines[2]) // 2])
    seen = []
    s = run(PAIRS, RULES, 1, str(out), jobs=2, on_result=seen.append)
    assert s["skipped"] == 2 and s["done"] == len(PAIRS) - 2 == len(seen)
    assert read_results(str(out)) == read_results(str(full))
    # nothing left to do on a third run
    assert run(PAIRS, RULES, 1, str(out), jobs=1)["done"] == 0


def test_resume_refuses_other_parameters(tmp_path):
    out = tmp_path / "p.jsonl"
    run(PAIRS[:1], RULES, 1, str(out), jobs=1)
    with pytest.raises(BatchError, match="depth 1"):
        run(PAIRS, PRESETS["dorbec"], 1, str(out), jobs=1)
    bad = tmp_path / "bad.jsonl"
    bad.write_text("not json\n")
    with pytest.raises(BatchError, match="line 1"):
        read_results(str(bad))


def test_interrupt_keeps_written_lines(tmp_path):
    out = tmp_path / "i.jsonl"

    def stop(record):
        if stop.n == 2:
            raise KeyboardInterrupt
        stop.n += 1

    stop.n = 0
    s = run(PAIRS, RULES, 1, str(out), jobs=2, on_result=stop)
    assert s["interrupted"]
    _, recs = read_results(str(out))
    assert len(recs) == 3
    s = run(PAIRS, RULES, 1, str(out), jobs=1)
    assert s["skipped"] == 3 and s["done"] == len(PAIRS) - 3


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


def test_cli_analyze_report_and_svg(tmp_path):
    runner = CliRunner()
    out = tmp_path / "c.jsonl"
    r = runner.invoke(cli, ["setups", "analyze", "--south", "231123", "--north",
                            "321123,123321", "--depth", "1", "--jobs", "1", "--out", str(out),
                            "--quiet"])
    assert r.exit_code == 0, r.output
    assert len(out.read_text().splitlines()) == 2
    svg = tmp_path / "h.svg"
    r = runner.invoke(cli, ["setups", "report", str(out), "--svg", str(svg)])
    assert r.exit_code == 0 and "2 setup pairs" in r.output
    ET.parse(svg)
    for args in (["analyze", "--south", "123", "--out", str(out)],
                 ["analyze", "--depth", "0", "--out", str(out)],
                 ["report", str(tmp_path / "missing.jsonl")]):
        r = runner.invoke(cli, ["setups", *args])
        assert r.exit_code == 2 and "Traceback" not in r.output, (args, r.output)


def test_win_defence_is_the_reply_leaving_fewest_landings():
    # not a start position (no setup pair has a win within 2): the defence logic itself
    from gyges.search.prover import solve
    from gyges.setups.batch import _win_defence

    p = Position.from_string("1...../...3../2323.2/11..23/..1.../...... S")
    sol = solve(p, RULES, max_moves=2)
    assert sol.result == "win" and sol.moves == 2
    key_text = sorted(str(k) for k in sol.keys)[0]
    d = _win_defence(p, RULES, key_text, 2)
    key = next(m for m in legal_moves(p, RULES) if str(m) == key_text)
    after = apply_move(p, key)
    replies = legal_moves(after, RULES, [p])
    counts = {str(r): len(legal_moves(apply_move(after, r), RULES, [p, after]).wins)
              for r in replies if not r.is_win}
    assert d["replies"] == len(replies) and d["landings"] == min(counts.values()) > 0
    assert counts[d["reply"]] == d["landings"]
    assert d["reply"] == min(r for r, n in counts.items() if n == d["landings"])


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
