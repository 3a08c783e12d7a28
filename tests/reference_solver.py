"""A brute-force reference solver over small horizons, on top of the naive generator.

No transposition table, no move ordering, no goal-landing shortcut: plain minimax over
the results of :func:`tests.reference.reference_moves`, to check the real solver
(``gyges.search.solve``) on small positions.

* **win in k**: the side to move lands on the opponent's goal with its k-th move at the
  latest, whatever the opponent does (k counts the winner's moves; when the loser is
  blocked under ``blocked=pass`` the winner moves again, and that move counts).
* **loss in k**: every move of the side to move leaves the opponent a win in at most k.
* **none**: neither within ``max_moves`` (a side with no move at all draws).

>>> from gyges.game.position import Position
>>> from gyges.game.rules import PRESETS
>>> bounce = Position.from_string("....../3...../..1.1./1.23.3/3.22.1/....2. N")
>>> reference_solve(bounce, PRESETS["pbmserv"], 1)
('win', 1)
>>> reference_solve(bounce.with_turn(bounce.turn.other), PRESETS["pbmserv"], 1)
('none', None)
"""

from __future__ import annotations

from collections.abc import Iterable

from reference import Board, is_win, reference_moves

from gyges.game.position import Position
from gyges.game.rules import RuleSet, Side


def wins_within(
    board: Board,
    turn: Side,
    rules: RuleSet,
    attacker: Side,
    n: int,
    history: tuple[Board, ...] = (),
    since_attacker: frozenset = frozenset(),
) -> bool:
    """Can ``attacker`` force a goal landing with at most ``n`` of its own moves, ``turn``
    being the side to move on ``board`` and ``history`` the earlier boards of the line?

    ``since_attacker`` holds the (board, side) pairs met since the attacker last moved: a
    defender who can come back to one of them (the attacker blocked, the defender playing
    on) can keep doing so forever, so that line does not win.
    """
    mover, results = reference_moves(board, turn, rules, history)
    if not results:
        return False  # nobody can move: drawn
    line = history + (board,)
    if mover is attacker:
        if any(is_win(r) for r in results):
            return True
        if n <= 1:
            return False
        return any(
            wins_within(r, mover.other, rules, attacker, n - 1, line)
            for r in results
        )
    if any(is_win(r) for r in results):
        return False  # the defender lands first
    here = (board, mover)
    if here in since_attacker:
        return False  # the defender can repeat this forever
    seen = since_attacker | {here}
    return all(
        wins_within(r, mover.other, rules, attacker, n, line, seen)
        for r in results
    )


def reference_solve(
    position: Position, rules: RuleSet, max_moves: int, history: Iterable[Position] = ()
) -> tuple[str, int | None]:
    """``("win", k)``, ``("loss", k)`` with k minimal, or ``("none", None)``."""
    board = position.board
    earlier = tuple(h.board for h in history)
    side = position.turn
    for k in range(1, max_moves + 1):
        if wins_within(board, side, rules, side, k, earlier):
            return ("win", k)
    for k in range(1, max_moves + 1):
        if wins_within(board, side, rules, side.other, k, earlier):
            return ("loss", k)
    return ("none", None)
