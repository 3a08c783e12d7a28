"""The forest plot of a self-play fit (gyges.setups.selfplay.forest): one row a setup,
sorted by shrunken strength; the shrunken marks follow the fitted ones when the setups
truly differ and gather on the average when they do not."""

from __future__ import annotations

import random
import re
import xml.etree.ElementTree as ET

from click.testing import CliRunner

from gyges.game.rules import Side
from gyges.setups.selfplay.forest import forest_svg, shrunken_interval
from gyges.setups.selfplay.reliability import true_spread
from gyges.setups.selfplay.strengths import fit_strengths
from gyges_cli.main import cli

SVG = "{http://www.w3.org/2000/svg}"
SOUTHS = ["111222", "112122", "121122", "211122", "112212", "121212"]
NORTHS = ["333111", "331311", "313311", "133311"]


def _results(spread: float, games: int = 60, seed: int = 3) -> list[tuple[str, str, float]]:
    """Games whose South setups differ by ``spread`` logits from one to the next."""
    rng = random.Random(seed)
    out = []
    for i, s in enumerate(SOUTHS):
        strength = spread * (len(SOUTHS) / 2 - i)
        for n in NORTHS:
            for _ in range(games):
                p = 1 / (1 + 2.718281828 ** -strength)
                out.append((s, n, 1.0 if rng.random() < p else 0.0))
    return out


def _labels(svg: str) -> list[str]:
    texts = [t.text for t in ET.fromstring(svg).iter(f"{SVG}text")]
    return [t for t in texts if t in SOUTHS]


def test_rows_follow_the_shrunken_strengths_and_the_true_order_when_setups_differ():
    fit = fit_strengths(_results(0.6))
    spread = true_spread(fit.ratings(Side.SOUTH))
    assert _labels(forest_svg(fit)) == [s for s, _ in spread.shrunken] == SOUTHS
    for r in fit.ratings(Side.SOUTH):     # little to shrink: close to the fitted value
        value, low, high = shrunken_interval(r, spread)
        assert abs(value - r.strength) < 0.2 * abs(r.strength) + 5 and low < value < high


def test_equal_setups_shrink_to_the_average():
    fit = fit_strengths(_results(0.0, games=30))
    spread = true_spread(fit.ratings(Side.SOUTH))
    assert spread.low == 0          # the games cannot exclude that they are all equal
    for r in fit.ratings(Side.SOUTH):
        value, low, high = shrunken_interval(r, spread)
        assert abs(value) <= abs(r.strength) + 1e-9 and high - low <= r.high - r.low
    svg = forest_svg(fit)
    assert re.search(r"true spread \d+ Elo", svg)


def test_the_report_draws_the_forest_of_a_games_file(tmp_path):
    runner = CliRunner()
    out = tmp_path / "f.svg"
    res = runner.invoke(cli, ["setups", "report", "data/setups/pbmserv-selfplay.jsonl",
                              "--forest", str(out)])
    assert res.exit_code == 0, res.output
    labels = [t.text for t in ET.fromstring(out.read_text()).iter(f"{SVG}text")]
    assert "South setups (South moves first)" in labels and "North setups" in labels
    assert "132312 = 213231" in labels or any(" = " in t for t in labels if t)
    res = runner.invoke(cli, ["setups", "report", "data/setups/pbmserv-depth3.jsonl",
                              "--forest", str(tmp_path / "g.svg")])
    assert res.exit_code == 2 and "--forest is for a games file" in res.output
