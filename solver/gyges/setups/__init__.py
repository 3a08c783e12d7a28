"""Opening setups: the setups meeting some constraints, searched with CP-SAT; the proven
analysis of setup pairs in batch, with its report; self-play games ranking the setups; the
engine's evaluation of every pair; the answer they give together.
Uses engine, search, formats and game.

The package is laid out by job, each room a subpackage; this module gathers their public
names:

- ``pairs``: the setup space, shared by every room (the mirror, canonical pairs, the
  pairs asked for, lists of pairs) and :class:`SetupError`;
- ``search``: the setup search (``setups search``): what it asks for and found
  (``search.constraints``), constraints read from options and files (``search.options``),
  the CP-SAT model (``search.model``), the engine's figures of a start position
  (``search.figures``) and the search itself (``search.find``);
- ``proven``: the proven analysis of pairs (``setups analyze``, ``setups report``): one
  pair (``proven.analysis``), the records and their file (``proven.records``), the run
  over many pairs (``proven.batch``), the report as text (``proven.report``) and the heat
  map (``proven.heatmap``);
- ``selfplay``: self-play games of the engine from setup pairs (``setups rank``): the
  games and their resumable run (``selfplay.games``), the games as a table, the mirror
  folded in and proven verdicts first (``selfplay.table``), the Bradley-Terry fit of one
  strength per setup and side (``selfplay.strengths``), how sure a ranking is: the true
  spread, shrunken strengths, split-half reliability, a simulated null
  (``selfplay.reliability``), the report as text (``selfplay.report``), the pair map
  (``selfplay.scoremap``), the forest plot (``selfplay.forest``) and the strength ladder
  (``selfplay.ladder``, ``setups ladder``);
- ``evaluation``: the engine's evaluation of every pair at a fixed budget (``setups
  evaluate``): the records, their file and the run (``evaluation.table``), the table of
  setup averages and best replies and its report (``evaluation.summary``) and the
  evaluation map (``evaluation.heatmap``);
- on top of the rooms: ``validation``, the validation block's pairs and report (``setups
  validation-pairs``, ``setups validate``), and ``answer``, the answer to "which setup
  should I choose?" made from the published files (``setups answer``).

>>> from gyges.game.rules import PRESETS
>>> found = find_setups(read_constraints(["fix=3@1", "fix=3@6", "apart=1"]), PRESETS["pbmserv"])
>>> found.lines()
['312123', '312213', '321213']
"""

from gyges.setups.pairs import (
    PairListError,
    PairSelectionError,
    SetupError,
    all_pairs,
    canonical_pair,
    canonical_pairs,
    mirror_setup,
    parse_pairs,
    select_pairs,
)
from gyges.setups.proven.analysis import (
    MAX_ANALYSIS_DEPTH,
    MIN_ANALYSIS_DEPTH,
    analyse_pair,
    win_defence,
)
from gyges.setups.proven.batch import (
    combine_verdicts,
    first_move_verdicts,
    first_moves,
    run_analysis,
)
from gyges.setups.proven.heatmap import heatmap_svg
from gyges.setups.proven.records import (
    AnalysisParams,
    BatchError,
    PairRecord,
    analysis_results_file,
    read_results,
)
from gyges.setups.proven.report import report
from gyges.setups.search.constraints import (
    Constraints,
    Count,
    CountOp,
    NorthAs,
    SearchResult,
    SearchSide,
    SideConstraints,
)
from gyges.setups.search.figures import forced_landing_within, replace_threats
from gyges.setups.search.find import check_pair, find_setups, search
from gyges.setups.search.model import RoundProgress
from gyges.setups.search.options import (
    CONSTRAINT_KEYS,
    MAX_LANDING_MOVES,
    ConstraintFileError,
    ScopeError,
    constraints_from_options,
    load_constraints,
    read_constraints,
)
from gyges.setups.selfplay.games import read_selfplay_games, run_games
from gyges.setups.selfplay.report import rank_report
from gyges.setups.selfplay.scoremap import score_map_svg
from gyges.setups.selfplay.strengths import Rating, StrengthFit, fit_strengths
from gyges.setups.selfplay.table import GameTable, game_table

__all__ = [
    "CONSTRAINT_KEYS", "MAX_ANALYSIS_DEPTH", "MAX_LANDING_MOVES", "MIN_ANALYSIS_DEPTH",
    "AnalysisParams", "BatchError", "ConstraintFileError", "Constraints", "Count", "CountOp",
    "GameTable", "NorthAs", "PairListError", "PairRecord", "PairSelectionError", "Rating",
    "RoundProgress", "ScopeError", "SearchResult", "SearchSide", "SetupError", "SideConstraints",
    "StrengthFit", "all_pairs", "analyse_pair", "analysis_results_file", "canonical_pair",
    "canonical_pairs", "check_pair", "combine_verdicts", "constraints_from_options", "find_setups",
    "first_move_verdicts", "first_moves", "fit_strengths", "forced_landing_within", "game_table",
    "heatmap_svg", "load_constraints", "mirror_setup", "parse_pairs", "rank_report",
    "read_constraints", "read_results", "read_selfplay_games", "replace_threats", "report",
    "run_analysis", "run_games", "score_map_svg", "search", "select_pairs", "win_defence",
]
