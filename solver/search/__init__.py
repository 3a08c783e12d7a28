"""Search: the compiled proof kernel (``_search``), ``solve`` and ``win_in``, the typed
solution tree, the stipulation and the solution with its text rendering. Uses the game and
formats layers.

>>> from solver import PRESETS, Position
>>> solve(Position.from_string("....../3...../..1.1./1.23.3/3.22.1/....2. N"),
...       PRESETS["pbmserv"]).moves
1
"""

from solver.search.prover import SolveError, solve, win_in
from solver.search.solution import Solution, Stats, Try
from solver.search.stipulation import ResultKind, Stipulation
from solver.search.tree import Defence, LoserNode, Node, WinnerNode, main_line, node_from_json

__all__ = [
    "Defence", "LoserNode", "Node", "ResultKind", "Solution", "SolveError", "Stats",
    "Stipulation", "Try", "WinnerNode", "main_line", "node_from_json", "solve", "win_in",
]
