"""Tries: the first moves of the would-be winner that fail but come close, with the
defences that refute them (fewest refutations first)."""

from __future__ import annotations

from gyges.game.moves import MoveList, apply_move
from gyges.game.position import Position
from gyges.search.session import Known, Prover
from gyges.search.solution import Try

__all__ = ["find_tries"]


def find_tries(prover: Prover, position: Position, root: MoveList, k: int, limit: int = 8,
               most: int = 3) -> tuple[Try, ...]:
    """First moves of the side to move that fail to win within ``k`` but come close: those
    with the fewest refutations (defences after which no win within ``k - 1`` remains), at
    most ``most`` refutations each, best first (fewest refutations, then the order of
    ``root``), ``limit`` of them. A move after which the opponent lands at once is not a
    try.

    Once ``limit`` tries are held, a later move can enter only with fewer refutations than
    the last one held (a tie goes to the earlier move), so its defences are asked only up
    to that many: the same tries as asking every move up to ``most``, found sooner."""
    me = position.turn
    if root.mover is not me or k < 2 or limit < 1:
        return ()
    held: list[tuple[int, int, Try]] = []
    bound = most
    for i, m in enumerate(root):
        if bound == 0:
            break
        if m.is_win:
            continue
        child = apply_move(position, m)
        replies = prover.legal_moves(child, (position,))
        if not replies.moves or replies.wins and replies.mover is not me:
            continue
        if replies.mover is me:
            continue            # the opponent is blocked: no defence to list
        held_by = _refutations(prover, position, child, replies, k, bound)
        refs = [replies.moves[j] for j in held_by]
        if refs and len(refs) <= bound:
            held.append((len(refs), i, Try(m, tuple(refs))))
            if len(held) >= limit:
                held.sort(key=lambda t: t[:2])
                del held[limit:]
                bound = held[-1][0] - 1
    held.sort(key=lambda t: t[:2])
    return tuple(t for _, _, t in held[:limit])


def _refutations(prover: Prover, position: Position, child: Position, replies: MoveList,
                 k: int, bound: int) -> list[int]:
    """The replies in ``child`` (after a first move from ``position``) after which the
    side to move of ``position`` has no win within ``k - 1``, by their index in
    ``replies``, in order: all of them, or more than ``bound`` (then the move is no try,
    and the search stops).

    A key has none (not asked apart: the first refutation found says the same as "no win
    within k - 1 after this move"). The defences the table already knows to hold (the
    refutation a cook search found) are taken first. Then the question "is there
    another?" is asked of ``child`` as a whole, without those defences
    (:meth:`~gyges.search.Prover.wins_excluding`): df-pn goes for the defence easiest to
    prove, the kernel tries the defences in its own order (killers, history, landing
    witnesses), where asking the replies in turn proves the first one met, whatever its
    cost; the table then tells which it was. Where it cannot tell (a line given up) the
    replies are asked in turn. The order does not change the answer: a try's every
    defence is found either way, and a move with more than ``bound`` is dropped either
    way."""
    me = position.turn
    path = (position, child)
    moves = replies.moves
    known = prover.known(child, moves, me, k - 1, (position,))
    held = [j for j, kn in enumerate(known) if kn is Known.NO_WIN]
    won = {j for j, kn in enumerate(known) if kn is Known.WIN}
    whole = True        # ask the reply list as a whole (while that tells)
    while len(held) <= bound:
        if whole:
            more = prover.wins_excluding(child, me, k - 1, [moves[j] for j in held],
                                         (position,))
            if more is Known.WIN:
                break
            if more is Known.NO_WIN:
                known = prover.known(child, moves, me, k - 1, (position,))
                new = [j for j, kn in enumerate(known) if kn is Known.NO_WIN and j not in held]
                if new:
                    held += new
                    continue
            whole = False
        # not known (a line given up, a result not kept): the replies in turn, to one more
        for j in range(len(moves)):
            if j in won or j in held:
                continue
            if prover.wins(apply_move(child, moves[j]), me, k - 1, path):
                won.add(j)
            else:
                held.append(j)
                break
        else:
            break
    return sorted(held)
