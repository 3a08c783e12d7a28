"""The pair map of a self-play table (gyges.setups.selfplay.scoremap): setups pooled in
groups by shrunken strength, as many as the games support; on games with known
strengths the groups come out in their true order, on games of equal setups the map
shows no pattern (each game is grouped by the fit of the other half of the games)."""

from __future__ import annotations

import math
import random
import xml.etree.ElementTree as ET

from gyges.setups.selfplay.scoremap import (
    CELL_GAMES,
    HALF_WIDTH,
    group_count,
    group_map,
    score_map_svg,
)
from gyges.setups.selfplay.table import game_table

SVG = "{http://www.w3.org/2000/svg}"
SOUTHS = ["111222", "112122", "121122", "211122", "112212", "121212", "212112", "122112",
          "211212", "221112", "212121", "121221"]
NORTHS = ["333111", "331311", "313311", "133311", "331131", "313131", "133131", "311331",
          "131331", "113331", "331113", "313113"]


def _games(spread: float, per_pair: int, seed: int = 5) -> list[dict]:
    """Games whose setups' true strengths (logits) fall evenly from ``+spread`` (the first
    setup) to ``-spread`` (the last), South's and North's alike, in a shuffled order."""
    rng = random.Random(seed)
    k = len(SOUTHS)
    strength = [spread * (1 - 2 * i / (k - 1)) for i in range(k)]
    games = []
    for i, s in enumerate(SOUTHS):
        for j, n in enumerate(NORTHS):
            p = 1 / (1 + math.exp(-(strength[i] - strength[j])))
            for _ in range(per_pair):
                games.append({"south": s, "north": n,
                              "result": "south" if rng.random() < p else "north"})
    rng.shuffle(games)
    return games


def test_the_group_count_leaves_enough_games_a_cell():
    assert CELL_GAMES == 385            # 1.96^2 / (4 * 0.05^2), rounded up
    for games in (100, 800, 1_600, 3_888, 10_000, 40_000):
        g = group_count(games, 48, 48)
        assert g == 1 or games / g ** 2 >= CELL_GAMES
        assert games / (g + 1) ** 2 < CELL_GAMES
    assert group_count(10_000, 48, 48) == 5
    assert group_count(10 ** 6, 3, 4) == 4          # no more groups than setups
    # the interval such a cell has, at an even score: at most HALF_WIDTH either side
    assert 1.96 * math.sqrt(0.25 / CELL_GAMES) <= HALF_WIDTH


def test_groups_come_out_in_their_true_order():
    games = _games(1.2, 27)                      # 3,888 games: 3 groups a side
    m = group_map(game_table(games))
    assert (m.south_groups, m.north_groups) == (3, 3)
    assert m.placed == len(games) and m.left_out == 0
    assert sum(c.tally.games for c in m.cells.values()) == len(games)
    score = {k: c.score for k, c in m.cells.items()}
    for i in range(3):
        for j in range(2):
            # South's score rises toward weaker North groups, falls toward weaker South ones
            assert score[i, j] < score[i, j + 1]
            assert score[j, i] > score[j + 1, i]
    assert m.cells[0, 2].interval[0] > m.mean       # strong South, weak North: above
    assert m.cells[2, 0].interval[1] < m.mean       # weak South, strong North: below


def test_equal_setups_show_no_pattern():
    """With every setup equal, the groups sorted on one half's noise do not carry it to
    the other half's games: no corner stands out. (Grouped by the fit of the same games,
    the strongest South group against the weakest North one would score several points
    above the mean.)"""
    m = group_map(game_table(_games(0.0, 27, seed=11)))
    outside = [k for k, c in m.cells.items()
               if not c.interval[0] <= m.mean <= c.interval[1]]
    assert len(outside) <= 1
    corner = m.cells[0, m.north_groups - 1].score - m.cells[m.south_groups - 1, 0].score
    assert abs(corner) < 2 * HALF_WIDTH


def test_the_map_draws_each_cell_with_its_score_interval_and_games():
    games = _games(1.2, 27)
    table = game_table(games)
    m = group_map(table)
    root = ET.fromstring(score_map_svg(table))
    texts = [t.text for t in root.iter(f"{SVG}text")]
    for c in m.cells.values():
        lo, hi = c.interval
        assert f"{100 * c.score:.1f}%" in texts
        assert f"[{100 * lo:.1f}, {100 * hi:.1f}]" in texts
        assert f"{c.tally.games} games" in texts
    assert texts.count("1") == 2 and texts.count("3") == 2          # both axes' groups
    assert "North group, strongest first →" in texts
    assert "South group, strongest first →" in texts
    assert any("3 groups a side by shrunken strength" in (t or "") for t in texts)
    tips = [r.find(f"{SVG}title") for r in root.iter(f"{SVG}rect")]
    assert sum(1 for t in tips if t is not None and "model" in (t.text or "")) == 9
    # the two corners that exclude the mean are outlined (twice, a thick line)
    outlined = [r for r in root.iter(f"{SVG}rect") if r.get("fill") == "none"
                and r.get("stroke") == "#000000"]
    significant = [c for c in m.cells.values() if c.interval[0] > m.mean
                   or c.interval[1] < m.mean]
    assert len(outlined) == 2 * len(significant) + 1    # and the legend's sample
    assert len(significant) >= 2
