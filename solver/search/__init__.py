"""Search: the compiled proof kernel (``_search``), ``solve`` and ``win_in``, and the
solution they return with its text rendering. Uses the game and formats layers.

>>> from solver import PRESETS, Position
>>> solve(Position.from_string("....../3...../..1.1./1.23.3/3.22.1/....2. N"),
...       PRESETS["pbmserv"]).moves
1
"""

from solver.search.prover import Solution, SolveError, Stats, Try, main_line, solve, win_in

__all__ = ["Solution", "SolveError", "Stats", "Try", "main_line", "solve", "win_in"]
