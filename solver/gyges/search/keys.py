"""The cook search: every first move that wins in the proven k (the key, and its cooks).

Proving there is no cook means refuting every other first move, often the longest part of
a solve. :func:`find_keys` asks in this process; :func:`split_keys` asks one first move
at a time on forked workers, which start from this process's table (after a proof here
it holds the proof, which makes the other first moves much cheaper to refute).
"""

from __future__ import annotations

from collections.abc import Callable

from gyges.game.moves import Move, MoveList, apply_move
from gyges.game.position import Position
from gyges.search.policy import ProverKind
from gyges.search.session import Prover, child_wins
from gyges.search.workers import FirstMoves, Question

__all__ = ["find_keys", "split_keys"]

#: ``progress(done, total)``: ``done`` of the ``total`` first moves answered.
FirstMoveProgress = Callable[[int, int], None]


def find_keys(prover: Prover, position: Position, root: MoveList, k: int | None,
              progress: FirstMoveProgress, limit: int = 0) -> list[Move]:
    """Every first move of the side to move that wins within ``k`` (``root``: its legal
    moves), at most ``limit`` of them when it is not 0, in the order of ``root``.
    ``progress(i, n)`` is called before the i-th of the n first moves is asked.

    The kernel lists them with its own search (its order: the proof's key first, then by
    how often moves won). With df-pn each first move's own question is asked straight at
    depth k - 1 (what the proof found is in the table; a refutation is usually a short
    disproof), up to the first key; then the other keys with
    :meth:`~gyges.search.Prover.some_winners_among`: df-pn goes for the likeliest cook,
    where asking the moves in turn refutes every move met before it."""
    me = position.turn
    if root.mover is not me or k is None:
        return []
    landings = [m for m in root if m.is_win]
    if landings or k == 1:
        return landings[:limit] if limit else landings
    if prover.kind is ProverKind.ALPHABETA:
        return prover.winning_moves(position, k, legal=root, limit=limit, progress=progress)
    moves = list(root)
    n = len(moves)
    first = None
    for i, m in enumerate(moves):
        progress(i, n)
        if child_wins(prover, position, apply_move(position, m), me, k):
            first = i
            break
    if first is None:
        return []
    if limit == 1:
        return [moves[first]]
    won, settled = prover.some_winners_among(position, k, moves[:first] + moves[first + 1:],
                                             limit=limit - 1 if limit else n, legal=root)
    keys = [first] + [moves.index(m) for m in won if isinstance(m, Move)]
    for i in range(first + 1, n) if not settled else ():
        if limit and len(keys) >= limit:
            break
        progress(i, n)
        if i not in keys and child_wins(prover, position, apply_move(position, moves[i]), me, k):
            keys.append(i)
    return [moves[j] for j in sorted(keys)]


def split_keys(asker: FirstMoves, position: Position, root: MoveList, k: int,
               progress: FirstMoveProgress) -> list[Move]:
    """Every first move that wins within ``k``, one question per first move on the
    asker's workers; ``progress(done, n)`` as the answers come in. Also the side to move's
    whole question at a depth split before any proof (no key: no win within ``k``)."""
    me = position.turn
    questions = [Question(apply_move(position, m), me, k - 1, (position,)) for m in root]
    answers = asker.ask(questions, progress=progress)
    return [m for m, w in zip(root, answers, strict=True) if w]
