"""The report of a self-play table: the numbers on a small fixed table, the mirror folded
in, proven verdicts first; the published table's report, pair map and forest plot are
what the report makes of its games (the map itself: tests/test_score_map.py)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from click.testing import CliRunner

from gyges.game.rules import PRESETS, Side
from gyges.output import signed
from gyges.setups.evaluation.summary import EvaluationTable
from gyges.setups.evaluation.table import read_evaluations
from gyges.setups.proven.records import read_results
from gyges.setups.selfplay.forest import forest_plot
from gyges.setups.selfplay.games import describe_limit, read_selfplay_games
from gyges.setups.selfplay.ladder import Rung
from gyges.setups.selfplay.report import best_replies, rank_report
from gyges.setups.selfplay.scoremap import score_map_svg
from gyges.setups.selfplay.strengths import fit_strengths
from gyges.setups.selfplay.table import game_table
from gyges_cli.main import cli

SVG = "{http://www.w3.org/2000/svg}"
PARAMS = {"limit": {"nodes": 1000}, "prove": 2, "max_plies": 200, "rules": "pbmserv",
          "canonical": False}

# South 231123 is strong, 112233 weak; North 332211 holds, 321123 does not
TABLE = {("231123", "321123"): (5, 0, 1), ("231123", "332211"): (3, 1, 2),
         ("112233", "321123"): (3, 0, 3), ("112233", "332211"): (0, 1, 5)}


def _games(table=TABLE) -> list[dict]:
    games = []
    for (s, n), counts in table.items():
        for result, k in zip(("south", "draw", "north"), counts, strict=True):
            for _ in range(k):
                games.append({"game": len(games), "south": s, "north": n, "result": result,
                              "reason": "landing" if result != "draw" else "max plies: 200",
                              "moves": ["11-12"] * (10 + len(games) % 5)})
    return games


def test_the_report_states_the_tables_numbers():
    games = _games()
    table = game_table(games)
    text = rank_report(table, PARAMS, games)
    lines = text.splitlines()
    assert lines[0] == "24 games over 4 setup pairs (2 South setups x 2 North setups)"
    assert "  South wins 11 (45.8%), draws 2, North wins 11 (45.8%)" in lines
    assert "  how games ended: landing 22, max plies 2" in lines
    # South's score 12/24 = 50% with the interval of Tally; the fitted advantage
    fit = fit_strengths((g["south"], g["north"], {"south": 1, "draw": .5, "north": 0}
                         [g["result"]]) for g in games)
    lo, hi = table.total.score_interval()
    assert (f"  South's score 50.0% [{100 * lo:.1f}%, {100 * hi:.1f}%], Elo +0 "
            in text)
    assert f"fitted {fit.advantage:+.0f} [{fit.advantage_low:+.0f}, " \
           f"{fit.advantage_high:+.0f}]" in text
    # the ranking: strongest first, with the fit's numbers, games and score
    south = text[text.index("South setups, strongest first"):]
    rows = south.splitlines()[2:4]
    assert rows[0].split()[:2] == ["1", "231123"] and rows[1].split()[:2] == ["2", "112233"]
    best = fit.rating(Side.SOUTH, "231123")
    assert f"{best.strength:+.0f}  [{best.low:+4.0f}, {best.high:+4.0f}]" in rows[0]
    assert rows[0].split()[-4:-1] == ["12", "70.8%", "1"] or \
        rows[0].split()[-3:-1] == ["12", "70.8%"]
    # every number explained
    for words in ("points per game", "Bradley-Terry", "1.96 standard errors",
                  "significant at 5%", "pulled toward the fitted model's expectation"):
        assert words in text


def test_best_replies_come_from_the_games():
    table = game_table(_games())
    north = {o: r for o, r, *_ in best_replies(table, Side.NORTH)}
    south = {o: r for o, r, *_ in best_replies(table, Side.SOUTH)}
    assert north == {"231123": "332211", "112233": "332211"}
    assert south == {"321123": "231123", "332211": "231123"}
    rows = best_replies(table, Side.NORTH)
    opponent, reply, tally, pulled, expected = rows[0]
    assert (tally.wins, tally.draws, tally.losses) == TABLE[opponent, reply]
    assert 0 < pulled < 1 and 0 < expected < 1


def test_the_mirror_is_folded_in_and_proven_pairs_lead():
    games = [{"south": "231123", "north": "332211", "result": "north", "reason": "landing",
              "moves": []},
             {"south": "321132", "north": "112233", "result": "north", "reason": "landing",
              "moves": []},
             {"south": "112233", "north": "332211", "result": "south", "reason": "landing",
              "moves": []}]
    proven = [{"south": "321132", "north": "112233", "result": "win", "win_in": 3,
               "depth": 3}]
    table = game_table(games, canonical=True, proven=proven)
    cell = table.cells["231123", "112233"]      # both games folded into one cell ...
    assert cell.games == 2 and cell.proven
    assert cell.score == 1.0                     # ... both counted as the proven win
    assert [(p.south, p.north, p.winner) for p in table.proven] == [
        ("231123", "332211", "south")]      # the pair and its mirror once, canonical
    text = rank_report(table, {**PARAMS, "canonical": True}, games)
    assert text.index("Proven results (1 pair, listed first)") < text.index("Results:")
    assert "S 231123 N 332211: South wins in 3 (depth 3)" in text
    assert "231123 = 321132" in text


def test_the_report_command_reads_a_games_file(tmp_path):
    games = _games()
    rules = PRESETS["pbmserv"].describe()
    path = tmp_path / "g.jsonl"
    path.write_text("".join(json.dumps({**g, "round": 0, "canonical": False, "format": 1,
                                        "limit": {"nodes": 1000}, "max_plies": 200,
                                        "prove": 2, "rules": rules}) + "\n" for g in games))
    runner = CliRunner()
    svg = tmp_path / "g.svg"
    res = runner.invoke(cli, ["setups", "report", str(path), "--svg", str(svg)])
    assert res.exit_code == 0, res.output
    assert "24 games over 4 setup pairs" in res.output and svg.exists()
    other = tmp_path / "d.jsonl"
    other.write_text(json.dumps({"south": "231123", "north": "321123", "depth": 1,
                                 "rules": "taboo=entry"}) + "\n")
    res = runner.invoke(cli, ["setups", "report", str(path), "--proven", str(other)])
    assert res.exit_code == 2 and "Traceback" not in res.output
    res = runner.invoke(cli, ["setups", "report", str(path), "--proven",
                              "data/setups/pbmserv-depth3.jsonl"])
    assert res.exit_code == 0 and "Proven results" not in res.output


@pytest.mark.parametrize("setup", ["231123", "112233"])
def test_the_report_names_each_setup_once_per_ranking(setup):
    text = rank_report(game_table(_games()), PARAMS, _games())
    south = text[text.index("South setups, strongest"):text.index("North setups, strongest")]
    assert south.count(f" {setup} ") == 1


DATA = Path(__file__).resolve().parent.parent / "data" / "setups"


def test_the_published_self_play_report_and_map_are_reproduced():
    games_file = DATA / "pbmserv-selfplay.jsonl"
    found, games = read_selfplay_games(str(games_file))
    assert found is not None and found["canonical"] and found["limit"] == {"nodes": 10000}
    assert [g["game"] for g in games] == list(range(len(games)))   # sorted, none missing
    proven_found, proven = read_results(str(DATA / "pbmserv-depth3.jsonl"))
    assert proven_found is not None and proven_found.rules == found["rules"]
    table = game_table(games, canonical=True, proven=[r.to_json() for r in proven])
    rungs = []
    for nodes in (1000, 10000, 50000):          # the ladder's three rungs (Makefile)
        if (DATA / f"ladder-{nodes}.jsonl").exists():
            rung_found, rung_games = read_selfplay_games(str(DATA / f"ladder-{nodes}.jsonl"))
            assert rung_found is not None and rung_found["rules"] == found["rules"]
            rungs.append(Rung.of(describe_limit(rung_found["limit"]), rung_games,
                                 rung_found["canonical"]))
    assert len(rungs) == 3
    text = (DATA / "pbmserv-selfplay-report.txt").read_text(encoding="utf-8")
    assert rank_report(table, found, games, rungs=rungs) + "\n" == text
    svg = (DATA / "pbmserv-selfplay.svg").read_text(encoding="utf-8")
    assert signed(score_map_svg(table), "<!--", "-->") == svg
    forest = (DATA / "pbmserv-selfplay-forest.svg").read_text(encoding="utf-8")
    _, evaluations = read_evaluations(str(DATA / "pbmserv-evaluations.jsonl"))
    column = EvaluationTable.of(evaluations).forest_column()
    assert signed(forest_plot(table, column, "evaluation"), "<!--", "-->") == forest


def test_a_best_reply_is_shown_only_where_its_games_can_tell_it():
    """Best replies from a handful of games are left out (the games cannot tell such a
    pair from an even one, least of all the best of many); a lopsided pair with many
    games is shown. And South's score is given per protocol: the engine's own openings
    (round 0) and the randomized ones."""
    few = _games()
    text = rank_report(game_table(few), PARAMS, few)
    assert "best replies is shown: the games cannot tell" in text or "left out" in text
    many = [{"game": i, "south": "231123", "north": n, "result": "south" if n == "112233"
             or i % 2 else "north", "reason": "landing", "moves": ["11-12"] * 10,
             "round": i % 2} for i, n in enumerate(["112233", "321123", "123321"] * 80)]
    text = rank_report(game_table(many), PARAMS, many)
    assert "N 112233 -> S 231123: +80 =0 -0" in text
    assert "in the engine's own openings (round 0): " in text
    assert "in randomized openings (rounds 1 and later): " in text
