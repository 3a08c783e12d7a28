"""Search: the compiled proof kernel (``_search``), ``solve`` and ``win_in``, the typed
solution tree, the stipulation and the solution with its text rendering. Uses the game and
formats layers.

>>> from gyges import PRESETS, Position
>>> solve(Position.from_string("....../3...../..1.1./1.23.3/3.22.1/....2. N"),
...       PRESETS["pbmserv"]).moves
1
"""

from gyges.search.prover import SolveError, solve, win_in
from gyges.search.solution import Solution, Stats, Try
from gyges.search.stipulation import ResultKind, Stipulation
from gyges.search.tree import Defence, LoserNode, Node, WinnerNode, main_line, node_from_json

__all__ = [
    "Defence", "LoserNode", "Node", "ResultKind", "Solution", "SolveError", "Stats",
    "Stipulation", "Try", "WinnerNode", "main_line", "node_from_json", "solve", "win_in",
]
