"""The search layer: proven forced wins.

- :class:`Prover` (:mod:`~gyges.search.session`): a search session, one rule set and one
  compiled prover with its table, asked yes/no questions about positions ("can this side
  win within d moves?"), which moves win, what the table already knows. The analyses and
  the engine ask it.
- :func:`solve` (:mod:`~gyges.search.solving`): the shortest forced result of a position
  within N moves, every key (cooks), the solution tree and the tries, as a
  :class:`Solution`; :class:`SolveProgress` events as it goes.
- The compiled provers behind them, independent of each other: df-pn (``_dfpn.pyx``) and
  the alpha-beta kernel (``_search.pyx``); :mod:`~gyges.search.policy` picks one by the
  depth asked. Nothing outside this package calls them directly.
- The values: :class:`Solution` (with :class:`Stats` and :class:`Try`), the solution tree
  (:class:`WinnerNode`, :class:`LoserNode`), :class:`Stipulation`, :class:`ResultKind`,
  :class:`Known`. :mod:`~gyges.search.batch` solves position lists.

Uses the game and formats layers.

>>> from gyges import PRESETS, Position
>>> p = Position.from_string("....../3...../..1.1./1.23.3/3.22.1/....2. N")
>>> solve(p, PRESETS["pbmserv"]).moves
1
>>> Prover(PRESETS["pbmserv"]).wins(p, p.turn, 1)
True
"""

from gyges.search.policy import PROVERS, ProverKind, SolveError
from gyges.search.progress import SolveProgress, Stage
from gyges.search.session import Known, Prover, win_in
from gyges.search.solution import Solution, SolutionError, Stats, Try
from gyges.search.solving import solve
from gyges.search.stipulation import ResultKind, Stipulation
from gyges.search.tree import (
    DUALS_UP_TO,
    Defence,
    LoserNode,
    Node,
    Step,
    TreeError,
    WinnerNode,
    main_line_steps,
    main_line_turns,
    node_from_json,
    walk,
)

__all__ = [
    "DUALS_UP_TO", "PROVERS", "Defence", "Known", "LoserNode", "Node", "Prover",
    "ProverKind", "ResultKind", "Solution", "SolutionError", "SolveError", "SolveProgress",
    "Stage", "Stats", "Step", "Stipulation", "Try", "TreeError", "WinnerNode",
    "main_line_steps", "main_line_turns", "node_from_json", "solve",
    "walk", "win_in",
]
