"""Opening setups: the setups meeting some constraints, searched with CP-SAT, and the batch
analysis of setup pairs with its report. Uses search, formats and game.

The modules, by job:

- ``values``: what a search asks for (:class:`Constraints`) and what it found
  (:class:`SearchResult`);
- ``pairs``: the setup space (the mirror, canonical pairs, the pairs asked for, lists of
  pairs);
- ``options``: constraints read from option keys, ``KEY=VALUE`` arguments and YAML files;
- ``model``: the CP-SAT model of the placements;
- ``constraints``: the search itself, and the engine's figures of a start position;
- ``analysis``: the analysis of one pair, as a record;
- ``results``: the results file and its records (:class:`PairRecord`);
- ``batch``: the run over many pairs (one resumable run of :mod:`gyges.parallel`), whole
  or split per first move;
- ``report``: the summary as text;
- ``heatmap``: the heat map as SVG;
- ``rank``: self-play games of the engine from setup pairs (``setups rank``), one
  resumable run of :mod:`gyges.parallel`, and the games file;
- ``strengths``: the Bradley-Terry fit of one strength per setup and side, with intervals;
- ``selfplay``: the games as a table (the mirror folded in, proven verdicts first);
- ``rankreport`` and ``scoremap``: the report of a games file as text, its heat map.

>>> found = find_setups(read_constraints(["fix=3@1", "fix=3@6", "apart=1"]))
>>> found.lines()
['312123', '312213', '321213']
"""

from gyges.setups.analysis import analyse_pair, win_defence
from gyges.setups.batch import combine_verdicts, first_move_verdicts, first_moves, run
from gyges.setups.constraints import (
    check_pair,
    find_setups,
    forced_landing_within,
    replace_threats,
    search,
)
from gyges.setups.heatmap import heatmap_svg
from gyges.setups.model import RoundProgress
from gyges.setups.options import (
    KEYS,
    ConstraintFileError,
    ScopeError,
    constraints_from_options,
    load_constraints,
    read_constraints,
)
from gyges.setups.pairs import (
    ALL_SETUPS,
    PairListError,
    PairSelectionError,
    all_pairs,
    canonical_pair,
    canonical_pairs,
    mirror_setup,
    parse_pairs,
    select_pairs,
)
from gyges.setups.report import report
from gyges.setups.results import BatchError, PairRecord, read_results, results_file
from gyges.setups.selfplay.games import read_games, run_games
from gyges.setups.selfplay.report import rank_report
from gyges.setups.selfplay.scoremap import score_map_svg
from gyges.setups.selfplay.strengths import Fit, Rating, fit_strengths
from gyges.setups.selfplay.table import GameTable, game_table
from gyges.setups.values import (
    Constraints,
    Count,
    CountOp,
    NorthAs,
    SearchResult,
    SearchSide,
    SetupError,
    SideConstraints,
)

__all__ = [
    "ALL_SETUPS", "KEYS", "BatchError", "ConstraintFileError", "Constraints", "Count",
    "CountOp", "Fit", "GameTable", "NorthAs", "PairListError", "PairRecord",
    "PairSelectionError", "Rating", "RoundProgress", "ScopeError", "SearchResult",
    "SearchSide", "SetupError", "SideConstraints", "all_pairs", "analyse_pair",
    "canonical_pair", "canonical_pairs", "check_pair", "combine_verdicts",
    "constraints_from_options", "find_setups", "first_move_verdicts", "first_moves",
    "fit_strengths", "forced_landing_within", "game_table", "heatmap_svg",
    "load_constraints", "mirror_setup", "parse_pairs", "rank_report", "read_constraints",
    "read_games", "read_results", "replace_threats", "report", "results_file", "run",
    "run_games", "score_map_svg", "search", "select_pairs", "win_defence",
]
