"""The bounds that every layer checks against, defined once.

:data:`MAX_PERFT_DEPTH` is the deepest move count the compiled core takes.
:data:`MAX_MOVES` is the longest stipulation the solver proves ("win in N", N counted in
the winner's moves): the compiled provers take questions that deep, a position list's
``max-moves=`` and the command line's ``--max-moves`` and ``--depth`` are checked against
it, and every message that states the range reads it from here.

>>> MAX_MOVES
30
"""

from __future__ import annotations

__all__ = ["MAX_MOVES", "MAX_PERFT_DEPTH"]

MAX_MOVES = 30  #: the longest stipulation the solver proves, in the winner's moves
MAX_PERFT_DEPTH = 64  #: the deepest perft the compiled core counts (``gyges perft -d``)
