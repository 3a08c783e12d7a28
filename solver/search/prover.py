"""The solver's names under the path ``gyges.search.prover``, which the analyses import
them from. Each lives in the module named for its job (:mod:`~gyges.search.policy`,
:mod:`~gyges.search.session`, :mod:`~gyges.search.solving`, ...); new code imports them
from :mod:`gyges.search`. ``winners_among`` is
:func:`~gyges.search.session.winners_among_boards`, the compiled step behind
:meth:`gyges.search.Prover.winners_among`."""

from gyges.search.policy import DFPN_FROM, PROVERS, SolveError, pick, table_bits
from gyges.search.session import win_in
from gyges.search.session import winners_among_boards as winners_among
from gyges.search.solution import Solution, Stats, Try
from gyges.search.solving import solve
from gyges.search.tree import DUALS_UP_TO

__all__ = ["DFPN_FROM", "DUALS_UP_TO", "PROVERS", "Solution", "SolveError", "Stats", "Try",
           "pick", "solve", "table_bits", "win_in", "winners_among"]
