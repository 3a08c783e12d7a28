"""The forest plot of a self-play fit as SVG: each setup's strength with its interval, one
row a setup, each side's setups sorted by their shrunken strengths.

A pure function of the fit (:func:`gyges.setups.selfplay.strengths.fit_strengths`) and its
true spreads (:func:`gyges.setups.selfplay.reliability.true_spread`). Each row draws two
estimates of the setup's strength: in grey the fitted one with its 95% interval, from its
games alone; in black the shrunken one (empirical Bayes: the best guess of the true
strength given how much the side's setups truly differ), with its 95% interval
(:math:`\\pm 1.96\\,\\tau e / \\sqrt{\\tau^2 + e^2}` for a fitted strength of standard
error :math:`e` and a true spread :math:`\\tau`). Where the setups do not truly differ
(:math:`\\tau` near 0) every black mark sits on the side's average: what the games can
tell. ``evaluations`` (a number a setup and side, say its average win probability in the
engine's evaluation of every pair, :mod:`gyges.setups.evaluation`) are written at the end
of each row, to three places, in a column clear of the axis's labels.

>>> import xml.etree.ElementTree as ET
>>> from gyges.setups.selfplay.strengths import fit_strengths
>>> results = [("231123", "321123", 1.0), ("231123", "321123", 0.0),
...            ("112233", "321123", 0.0), ("112233", "321123", 1.0)]
>>> svg = ET.fromstring(forest_svg(fit_strengths(results)))
>>> [t.text for t in svg.iter("{http://www.w3.org/2000/svg}text")][0]
'South setups (South moves first)'
"""

from __future__ import annotations

import math
from collections.abc import Callable, Mapping, Sequence

from gyges.engine.stats import Z95
from gyges.game.position import mirror_setup
from gyges.game.rules import Side
from gyges.setups.proven.heatmap import GAP, Canvas, text_width
from gyges.setups.proven.heatmap import svg_document as _document
from gyges.setups.selfplay.reliability import Spread, true_spread
from gyges.setups.selfplay.strengths import Rating, StrengthFit
from gyges.setups.selfplay.table import GameTable

__all__ = ["FITTED", "SHRUNKEN", "forest_plot", "forest_svg", "shrunken_interval",
           "shrunken_order"]

FITTED = "#a0a0a0"    #: the fitted strengths and their intervals
SHRUNKEN = "#000000"  #: the shrunken strengths and their intervals
ROW = 16              #: a row's height (px)
#: font sizes (px), read at the picture's natural size (96 dpi): at 13 px a digit is
#: 9.5 px of ink high (tests/test_selfplay_pictures_browser.py measures it in a browser)
_LABEL_SIZE = _LEGEND_SIZE = 13
_TITLE_SIZE = 14
ELO_PX = 2.0          #: pixels an Elo point
_TICK = 50            #: Elo between the axis's ticks


def shrunken_interval(rating: Rating, spread: Spread) -> tuple[float, float, float]:
    """The shrunken strength of ``rating``'s setup with its 95% interval (Elo): the
    normal model's posterior given the side's true spread.

    >>> from gyges.setups.selfplay.strengths import Rating
    >>> r = Rating(Side.SOUTH, "231123", 40.0, 0.0, 80.0, 100, 0.6)   # e = 20.4
    >>> s = Spread(Side.SOUTH, 20.4, 10.0, 30.0, (("231123", 20.0),))
    >>> [round(v) for v in shrunken_interval(r, s)]
    [20, -8, 48]
    """
    value = dict(spread.shrunken)[rating.setup]
    e = max((rating.high - rating.low) / (2 * Z95), 1e-9)
    tau2 = spread.tau ** 2
    sd = math.sqrt(tau2 * e * e / (tau2 + e * e))
    return value, value - Z95 * sd, value + Z95 * sd


def shrunken_order(ratings: Sequence[Rating]) -> list[Rating]:
    """One side's ratings, strongest first by shrunken strength; ties (every shrunken
    strength is the average when the true spread is 0) by fitted strength, then setup."""
    if len(ratings) < 2:
        return list(ratings)
    shrunken = dict(true_spread(ratings).shrunken)
    return sorted(ratings, key=lambda r: (-shrunken[r.setup], -r.strength, r.setup))


def forest_svg(fit: StrengthFit, evaluations: Mapping[Side, Mapping[str, float]] | None = None,
               label: Callable[[str], str] = str, evaluation_label: str = "") -> str:
    """The forest plot of ``fit``: South's setups above North's, each sorted by shrunken
    strength, strongest first. ``label`` names a setup (for example with its mirror);
    ``evaluations``: by side, a number a setup written at the end of its row, under the
    column title ``evaluation_label``."""
    c = Canvas()
    sides = [(side, fit.ratings(side)) for side in (Side.SOUTH, Side.NORTH)]
    low = min([0.0, *(r.low for _, rs in sides for r in rs)])
    high = max([0.0, *(r.high for _, rs in sides for r in rs)])
    lo_tick, hi_tick = math.floor(low / _TICK) * _TICK, math.ceil(high / _TICK) * _TICK

    def x(elo: float) -> float:
        return (elo - lo_tick) * ELO_PX

    def tick_label(tick: int) -> str:
        return f"{tick:+d}" if tick else "0"

    # the column right of the axis starts clear of the last tick's label, centred on it
    width = x(hi_tick)
    column = width + text_width(tick_label(hi_tick), _LEGEND_SIZE) / 2 + 2 * GAP
    y = 0.0
    for side, ratings in sides:
        if len(ratings) < 2:
            continue
        spread = true_spread(ratings)
        rows = shrunken_order(ratings)
        title = "South setups (South moves first)" if side is Side.SOUTH else "North setups"
        c.text(0, y + _TITLE_SIZE, title, _TITLE_SIZE, bold=True)
        c.text(0, y + _TITLE_SIZE + _LEGEND_SIZE + 4,
               "strength, Elo (0: the side's average setup)", _LEGEND_SIZE)
        c.text(column, y + _TITLE_SIZE + _LEGEND_SIZE + 4,
               f"true spread {spread.tau:.0f} Elo [{spread.low:.0f}, {spread.high:.0f}]"
               if math.isfinite(spread.high) else f"true spread {spread.tau:.0f} Elo",
               _LEGEND_SIZE)
        top = y + _TITLE_SIZE + 2 * _LEGEND_SIZE + 10
        for tick in range(lo_tick, hi_tick + 1, _TICK):
            c.text(x(tick), top - 2, tick_label(tick), _LEGEND_SIZE, anchor="middle")
            c.rect(x(tick), top, 0.5, ROW * len(rows), "#d0d0d0")
        c.rect(x(0) - 0.5, top, 1, ROW * len(rows), "#606060")
        if evaluations is not None and evaluation_label:
            c.text(column, top - 2, evaluation_label, _LEGEND_SIZE)
        for i, r in enumerate(rows):
            mid = top + ROW * i + ROW / 2
            c.text(-GAP, mid + _LABEL_SIZE * 0.35, label(r.setup), _LABEL_SIZE, anchor="end")
            c.rect(x(r.low), mid - 3.5, x(r.high) - x(r.low), 1, FITTED,
                   tip=f"{r.setup}: fitted {r.strength:+.0f} Elo [{r.low:+.0f}, "
                       f"{r.high:+.0f}], {r.games} games")
            c.rect(x(r.strength) - 2, mid - 5, 4, 4, "white", stroke=FITTED)
            value, s_low, s_high = shrunken_interval(r, spread)
            c.rect(x(s_low), mid + 2, max(x(s_high) - x(s_low), 1), 2, SHRUNKEN,
                   tip=f"{r.setup}: shrunken {value:+.0f} Elo [{s_low:+.0f}, {s_high:+.0f}]")
            c.rect(x(value) - 2.5, mid + 0.5, 5, 5, SHRUNKEN)
            value_of = (evaluations or {}).get(side, {})
            if r.setup in value_of:
                c.text(column, mid + _LABEL_SIZE * 0.35, f"{value_of[r.setup]:.3f}",
                       _LABEL_SIZE)
        y = top + ROW * len(rows) + 2 * _LEGEND_SIZE
    legend = [("grey, hollow: the fitted strength and its 95% interval, from the setup's "
               "games alone", FITTED),
              ("black, filled: the shrunken strength (empirical Bayes) and its 95% "
               "interval, given the side's true spread", SHRUNKEN)]
    for text, colour in legend:
        c.rect(0, y - 6, 12, 4, colour)
        c.text(18, y, text, _LEGEND_SIZE)
        y += _LEGEND_SIZE + 6
    return _document(c, "Setup strengths: fitted and shrunken, with 95% intervals")


def forest_plot(table: GameTable,
                evaluations: Mapping[Side, Mapping[str, float]] | None = None,
                evaluation_label: str = "") -> str:
    """:func:`forest_svg` of a self-play table's fit, a folded setup labelled with its
    mirror image (``231123 = 321132``)."""
    def label(setup: str) -> str:
        mirror = mirror_setup(setup)
        return f"{setup} = {mirror}" if table.canonical and mirror != setup else setup
    return forest_svg(table.fit, evaluations, label, evaluation_label)
