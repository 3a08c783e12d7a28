"""How true the engine's win probabilities are (gyges.engine.calibration, `gyges
engine-calibration`): the scores, the recalibration and the reliability bins, each checked
against an independent computation or a known truth."""

from __future__ import annotations

import json
import math
import random
import re
import shlex
import sys
import xml.etree.ElementTree as ET
from pathlib import Path

import pytest
from click.testing import CliRunner

from gyges.engine.builtin import Limit, Options
from gyges.engine.calibration import (
    Calibration,
    Observation,
    ProbabilityFit,
    _bins,
    calibration_report,
    fit_calibration,
    match_scored_game,
    observations,
    read_dataset_games,
    read_scored_games,
    reliability_svg,
)
from gyges.engine.match import MatchSettings, run_match
from gyges.engine.refereed import PlayedGame, replay_moves
from gyges.engine.score import CALIBRATION, Score
from gyges.game.rules import PRESETS
from gyges_cli.main import cli

#: The first 40 games of data/engine/training-games.jsonl.gz.
SAMPLE = Path(__file__).parent / "data" / "engine-games-sample.jsonl"


def _drawn(n: int, truth, seed: int = 1, games: int | None = None) -> list[Observation]:
    """``n`` observations whose outcome is drawn with probability ``truth(p)`` for a
    printed probability p drawn uniformly."""
    rng = random.Random(seed)
    out = []
    for i in range(n):
        p = rng.uniform(0.02, 0.98)
        out.append(Observation(i if games is None else i % games, p,
                               float(rng.random() < truth(p))))
    return out


def test_true_probabilities_need_no_recalibration():
    c = fit_calibration(_drawn(20000, lambda p: p))
    assert abs(c.scale - 1) < 0.08 and abs(c.offset) < 0.08


def test_overconfident_probabilities_are_pulled_in():
    # printed p, true probability logistic(logit(p) / 2): the fit finds the half
    def truth(p: float) -> float:
        return Calibration(0.5, 0.0)(p)
    obs = _drawn(20000, truth)
    c = fit_calibration(obs)
    assert abs(c.scale - 0.5) < 0.05 and abs(c.offset) < 0.05
    assert ProbabilityFit.of(obs, c).log_loss < ProbabilityFit.of(obs).log_loss


def test_the_scores_are_the_textbook_formulas():
    obs = [Observation(0, 0.8, 1.0), Observation(1, 0.3, 0.0), Observation(1, 0.6, 0.5)]
    f = ProbabilityFit.of(obs)
    ll = -(math.log(0.8) + math.log(0.7) + 0.5 * math.log(0.6) + 0.5 * math.log(0.4)) / 3
    brier = ((0.2 ** 2) + (0.3 ** 2) + (0.1 ** 2)) / 3
    assert math.isclose(f.log_loss, ll) and math.isclose(f.brier, brier)
    assert (f.positions, f.games, f.mean_outcome) == (3, 2, 0.5)


def test_a_bins_interval_counts_each_game_once():
    obs = _drawn(2000, lambda p: p, games=200)
    twice_in_game = obs + obs                      # the same games, each position twice
    as_new_games = obs + [Observation(o.game + 1000, o.probability, o.outcome) for o in obs]
    one = {b.low: b for b in _bins(obs, lambda p: p, 10)}
    same = {b.low: b for b in _bins(twice_in_game, lambda p: p, 10)}
    more = {b.low: b for b in _bins(as_new_games, lambda p: p, 10)}
    for low, b in one.items():
        width = b.interval[1] - b.interval[0]
        assert math.isclose(same[low].interval[1] - same[low].interval[0], width)
        assert more[low].interval[1] - more[low].interval[0] < 0.8 * width


def _evaluated(records, game_of, rules_of, scale_of, sides_of=lambda r: ("south", "north")
               ) -> tuple[list[tuple[float, float]], int, int]:
    """Independently of the calibration module (the side of each move from the match
    module's replay of ``game_of(record)`` under ``rules_of(record)``): the (printed
    probability on ``scale_of(record, side)``, outcome) of each evaluated move of the
    sides ``sides_of(record)`` names, and how many of their moves were proven and
    unscored."""
    evals, proven, unscored = [], 0, 0
    for r in records:
        for (position, _), value in zip(replay_moves(game_of(r), rules_of(r)), r["scores"],
                                        strict=False):
            side = position.turn.name.lower()
            if side not in sides_of(r):
                continue
            if value is None:
                unscored += 1
                continue
            score = Score.from_int(value)
            if score.is_proven:
                proven += 1
                continue
            won = {"south": 1.0, "north": 0.0}.get(r["result"], 0.5)
            evals.append((score.probability(scale_of(r, side)),
                          won if side == "south" else 1 - won))
    return evals, proven, unscored


def test_the_observations_of_recorded_games_match_a_replay():
    records = list(read_dataset_games(str(SAMPLE)))
    moved = observations(records)
    evals, proven, unscored = _evaluated(
        records, lambda r: PlayedGame.from_json({**r, "south": r["rules"], "north": r["rules"]}),
        lambda r: PRESETS[r["rules"]], lambda r, side: CALIBRATION)
    assert [(o.probability, o.outcome) for o in moved.evaluations] == evals
    assert (moved.proven, moved.unscored) == (proven, unscored)
    assert moved.proven_missed == 0


def test_the_command_prints_the_report_and_draws_the_diagram(tmp_path):
    svg = tmp_path / "r.svg"
    res = CliRunner().invoke(cli, ["engine-calibration", str(SAMPLE), "--svg", str(svg), "-q"])
    assert res.exit_code == 0, res.output
    report = calibration_report(read_dataset_games(str(SAMPLE)))
    assert res.output == report.text()
    held = report.held_out
    line = next(t for t in res.output.splitlines() if "held-out games, as printed" in t)
    assert line.split()[-3:] == [f"{held.positions:,}", f"{held.log_loss:.4f}",
                                 f"{held.brier:.4f}"]
    root = ET.fromstring(svg.read_text())
    circles = root.findall(".//{http://www.w3.org/2000/svg}circle")
    assert len(circles) == len(report.bins) + len(report.calibrated_bins) + 2   # + legend
    assert svg.read_text() == reliability_svg(report, "Win probability: predicted and observed")


def test_the_base_rate_row_names_the_constant_it_predicts():
    """The null is the fit games' mean result, predicted for every held-out position:
    its row names that constant (not the held-out games' own mean) and scores it."""
    games = list(read_dataset_games(str(SAMPLE)))
    report = calibration_report(games, held_out_every=4)
    fit = [o for o in observations(games).evaluations if o.game % 4 != 0]
    held = [o for o in observations(games).evaluations if o.game % 4 == 0]
    rate = sum(o.outcome for o in fit) / len(fit)
    assert abs(rate - sum(o.outcome for o in held) / len(held)) > 0.0005   # they differ
    loss = -sum(o.outcome * math.log(rate) + (1 - o.outcome) * math.log(1 - rate)
                for o in held) / len(held)
    line = next(t for t in report.text().splitlines() if "base rate" in t)
    assert line.split()[3:] == [f"{rate:.3f}", f"{len(held):,}", f"{loss:.4f}",
                                f"{sum((rate - o.outcome) ** 2 for o in held) / len(held):.4f}"]


def test_a_file_that_is_not_games_is_refused_with_its_line(tmp_path):
    bad = tmp_path / "bad.jsonl"
    bad.write_text(json.dumps({"game": 0}) + "\n")
    res = CliRunner().invoke(cli, ["engine-calibration", str(bad)])
    assert res.exit_code != 0
    assert f"{bad}:1: not a game of gyges engine-data" in res.output
    res = CliRunner().invoke(cli, ["engine-calibration", str(tmp_path / "none.jsonl")])
    assert res.exit_code != 0 and "No such file" in res.output


@pytest.mark.slow
def test_the_published_report_is_what_the_command_makes(tmp_path):
    data = Path(__file__).parent.parent / "data" / "engine"
    svg = tmp_path / "c.svg"
    res = CliRunner().invoke(cli, ["engine-calibration", str(data / "training-games.jsonl.gz"),
                                   "-q", "--svg", str(svg)])
    assert res.exit_code == 0, res.output
    assert res.output == (data / "calibration-report.txt").read_text()
    assert svg.read_text() == (data / "calibration.svg").read_text()


def test_the_printed_probability_is_the_calibrated_one():
    """The shipped scale is the one the published measurement fits: refitted on the
    printed probabilities of the held-out report, one scale for both sides comes out 1
    (to 0.01), and it improves on the probability before calibration."""
    from gyges.engine.score import CALIBRATION, Eval

    text = (Path(__file__).parents[1] / "data" / "engine" / "calibration-report.txt"
            ).read_text()
    scale = float(re.search(r"rescaled \(one scale.*logistic\(([0-9.]+) \* logit", text)[1])
    assert abs(scale - 1.0) <= 0.01
    printed = float(re.search(r"held-out games, as printed +[0-9,]+ +([0-9.]+)", text)[1])
    before = float(re.search(r"held-out, before calibration +[0-9,]+ +([0-9.]+)", text)[1])
    assert printed < before
    assert f"logistic({CALIBRATION:g} * v / 100)" in text
    p = Eval(57).win_probability
    assert abs(p - 1 / (1 + math.exp(-CALIBRATION * 0.57))) < 1e-12
    assert abs(p + Eval(-57).win_probability - 1) < 1e-12


def test_games_printed_on_their_own_scale_are_measured_on_it(tmp_path):
    """Games that record the scale their probabilities were printed on (a learned
    network's) are measured on it; --scale measures them on another; games of two scales
    are refused."""
    records = list(read_dataset_games(str(SAMPLE)))
    halved = [{**r, "calibration": 0.615} for r in records]
    linear = observations(records)
    mine = observations(halved)
    assert mine.scale == 0.615 and linear.scale == 1.23
    for a, b in zip(linear.evaluations, mine.evaluations, strict=True):
        # logit on the scale 0.615 is half the logit on 1.23
        assert math.log(b.probability / (1 - b.probability)) == pytest.approx(
            0.5 * math.log(a.probability / (1 - a.probability)))
    assert [o.probability for o in observations(halved, scale=1.23).evaluations] == \
        [o.probability for o in linear.evaluations]
    report = calibration_report(halved)
    assert "printed: p = logistic(0.615 * v / 100)" in report.text()
    # the probabilities before calibration are the same whatever the printed scale
    before = calibration_report(records).uncalibrated
    assert report.uncalibrated.positions == before.positions
    assert report.uncalibrated.log_loss == pytest.approx(before.log_loss, rel=1e-9)
    # printed on half the right scale, the refit asks for about twice it
    assert report.scale_only.scale == pytest.approx(
        2 * calibration_report(records).scale_only.scale, rel=1e-3)
    with pytest.raises(ValueError, match="printed on the scale 1.23, the games before it "
                                         "on 0.615"):
        observations(halved[:3] + records[3:])
    path = tmp_path / "g.jsonl"
    path.write_text("".join(json.dumps(r) + "\n" for r in halved))
    res = CliRunner().invoke(cli, ["engine-calibration", str(path), "-q", "--scale", "1.23"])
    assert res.exit_code == 0, res.output
    assert res.output == calibration_report(records).text()
    path.write_text("".join(json.dumps(r) + "\n" for r in halved[:3] + records[3:]))
    res = CliRunner().invoke(cli, ["engine-calibration", str(path), "-q"])
    assert res.exit_code != 0 and "give the games of one evaluation" in res.output


def test_the_fitted_scale_is_written_into_a_network_file(tmp_path):
    """--write-scale NET.json: the rescaled factor times the printed scale goes into the
    network's calibration, its weights (and digest) unchanged; measured again on that
    scale the games need no rescaling."""
    from gyges.engine.network import Network

    records = [{**r, "calibration": 0.615} for r in read_dataset_games(str(SAMPLE))]
    games = tmp_path / "g.jsonl"
    games.write_text("".join(json.dumps(r) + "\n" for r in records))
    net = Network.zeros(4)
    path = tmp_path / "net.json"
    path.write_text(net.dumps())
    res = CliRunner().invoke(cli, ["engine-calibration", str(games), "-q", "--write-scale",
                                   str(path)])
    assert res.exit_code == 0, res.output
    report = calibration_report(records)
    written = Network.load(path)
    assert written.calibration == round(report.scale_only.scale * 0.615, 3)
    assert written == net and written.digest == net.digest
    again = calibration_report(records, scale=written.calibration)
    assert again.scale_only.scale == pytest.approx(1.0, abs=0.002)
    path.write_text("{}")
    res = CliRunner().invoke(cli, ["engine-calibration", str(games), "-q", "--write-scale",
                                   str(path)])
    assert res.exit_code != 0 and f"{path}: not a network file" in res.output


GYGES_UGI = [sys.executable, "-c", "from gyges_cli.main import cli; cli()", "ugi"]


def test_a_matchs_games_are_measured_on_its_builtin_engines_moves(tmp_path):
    ugi = "ugi:" + shlex.join(GYGES_UGI)
    settings = MatchSettings(("builtin:depth=2,prove=0", ugi), PRESETS["pbmserv"],
                             Limit(depth=2), max_plies=30)
    out = tmp_path / "m.jsonl"
    run_match(settings, 2, str(out), jobs=1)
    records = [json.loads(line) for line in out.read_text().splitlines()]
    assert len(records) == 2
    for r in records:
        assert len(r["scores"]) == len(r["moves"])
        assert r["calibration"] == {"builtin:depth=2,prove=0": Options().calibration}
        game = PlayedGame.from_json(r)
        movers = [p.turn.name.lower() for p, _ in replay_moves(game, PRESETS["pbmserv"])]
        assert {s for s, v in zip(movers, r["scores"], strict=True) if v is not None} \
            == {side for side in ("south", "north") if r[side] != ugi}  # the UGI's: None
    builtin = {"builtin:depth=2,prove=0": "builtin:depth=2,prove=0"}

    def sides(r):
        return {side: r[side] for side in ("south", "north") if r[side] in builtin}

    evals, proven, _ = _evaluated(records, PlayedGame.from_json,
                                  lambda r: PRESETS["pbmserv"],
                                  lambda r, side: r["calibration"][sides(r)[side]], sides)
    measured = observations(read_scored_games(str(out)))
    assert [(o.probability, o.outcome) for o in measured.evaluations] == evals
    assert measured.proven == proven and evals
    res = CliRunner().invoke(cli, ["engine-calibration", str(out), "--held-out-every", "1",
                                   "-q"])
    assert res.exit_code == 0, res.output
    assert "every game measured, nothing fitted" in res.output
    line = next(t for t in res.output.splitlines() if "held-out games, as printed" in t)
    assert line.split()[-3] == f"{len(evals):,}"
    # the UGI program's scores are its own; an engine not in the match is refused
    for engine, says in ((ugi, "is a UGI program"), ("builtin", "not an engine of the match")):
        res = CliRunner().invoke(cli, ["engine-calibration", str(out), "--engine", engine])
        assert res.exit_code != 0 and f"{out}:1: game 1: " in res.output and says in res.output


def test_a_match_of_two_builtin_engines_names_the_one_measured():
    line = {"game": 2, "south": "builtin:depth=2", "north": "builtin",
            "opening": ["123123", "321321"], "result": "north", "reason": "landing",
            "moves": [], "scores": [], "calibration": {"builtin": 0.9, "builtin:depth=2": 1.23},
            "match": {"engines": ["builtin", "builtin:depth=2"], "rules": "taboo=entry"}}
    with pytest.raises(ValueError, match="builtin and builtin:depth=2: name the one"):
        match_scored_game(line)
    g = match_scored_game(line, "builtin")
    assert (g["sides"], g["calibration"], g["result"]) == (["north"], 0.9, "north")
    assert match_scored_game(line, "builtin:depth=2")["sides"] == ["south"]
    old = {k: v for k, v in line.items() if k not in ("scores", "calibration")}
    with pytest.raises(ValueError, match="before its file noted the scores"):
        match_scored_game(old, "builtin")
