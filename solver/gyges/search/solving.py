"""``solve``: prove the shortest forced result of a position within N moves ("win in k",
"loses in k" or "no forced result within N"), with every key, the solution tree and the
tries.

The verdict and the keys come from :mod:`gyges.search.verdict` (and
:mod:`gyges.search.keys`), the tree from :mod:`gyges.search.tree`, the tries from
:mod:`gyges.search.tries`; :mod:`gyges.search.solution` holds the result. docs/solver.md
explains the search and why its answers are exact.

>>> from gyges.game.rules import PRESETS
>>> p = Position.from_string("....../3...../..1.1./1.23.3/3.22.1/....2. N")
>>> s = solve(p, PRESETS["pbmserv"])
>>> s.result, s.moves, [str(k) for k in s.keys]
('win', 1, ['51-43-33-31-21-S'])
>>> notes = []
>>> _ = solve(p, PRESETS["pbmserv"], 1, progress=notes.append)
>>> [str(n) for n in notes]
['searching for a win in 1', 'building the solution tree']
"""

from __future__ import annotations

import time
from collections.abc import Callable, Iterable
from typing import cast

from gyges.game.bounds import MAX_MOVES
from gyges.game.moves import Game, Move, MoveList, NotOneMove, landing_stands, legal_moves
from gyges.game.position import Position
from gyges.game.rules import RuleSet
from gyges.search.keys import find_keys
from gyges.search.policy import ProverKind, SolveError
from gyges.search.progress import Reporter, SolveProgress
from gyges.search.session import Prover
from gyges.search.solution import Solution, Stats, Try
from gyges.search.stipulation import ResultKind
from gyges.search.tree import DUALS_UP_TO, TREE_BUDGET, build_tree
from gyges.search.tries import find_tries
from gyges.search.verdict import verdict, verdict_and_keys
from gyges.search.workers import FirstMoves

__all__ = ["SolveProgressFn", "solve"]

#: What ``solve(progress=...)`` calls with each :class:`~gyges.search.SolveProgress`. A
#: callable of text (a status line's ``show``) is taken too: it receives the event, whose
#: ``str()`` is the note to show.
SolveProgressFn = Callable[[SolveProgress], object] | Callable[[str], object]


def solve(
    position: Position | Game,
    rules: RuleSet,
    max_moves: int = 3,
    history: Iterable[Position | bytes] = (),
    *,
    tries: bool = False,
    try_refutations: int = 3,
    try_count: int = 8,
    jobs: int = 1,
    previous: Position | None = None,
    tree: bool = True,
    duals: int = DUALS_UP_TO,
    progress: SolveProgressFn | None = None,
    max_keys: int | None = None,
    extras_if_cooked: bool = True,
    watch: Callable[[Callable[[], int]], None] | None = None,
    prover: ProverKind | str = ProverKind.AUTO,
) -> Solution:
    """Prove the shortest forced result of ``position`` within ``max_moves`` moves.

    ``history`` holds the earlier positions of the game (Renop law), oldest first (or
    ``position`` is a :class:`~gyges.game.moves.Game`, which holds both);
    ``previous`` the position before the opponent's last move (unstoppable variant).
    ``tries``: list the first moves that fail but come close (:class:`Try`): at most
    ``try_count`` of them, each refuted by at most ``try_refutations`` defences, fewest
    refutations first.
    ``jobs > 1`` splits the deep searches across forked processes: the first moves of the
    side to move (each decided at every depth: this is also the cook search) and, for the
    opponent's questions, the replies to a first move; the answer is the same as with one
    job (docs/solver.md, "Parallel proving"). ``duals``: the solution tree
    lists every winning continuation (and marks duals) where the winner has at most this
    many moves left; above that one winning move is shown (``"dual": null``).
    ``progress`` receives a :class:`~gyges.search.SolveProgress` as each stage or depth
    starts, and as first moves are answered (for a status line).
    ``max_keys``: stop the key search once that many keys are found (``2`` tells a unique
    key from a cook without refuting every other first move once a cook is seen; ``1``
    when the key is known to be unique); ``keys`` then holds those found, and ``jobs`` is
    not used (the keys found first depend on the search's order).
    ``extras_if_cooked=False``: no tree and no tries when more than one key is found (a
    puzzle generator drops a cooked position; asked in the same solve, a unique key's
    tries start from the cook search's table, which holds a refutation of every other
    first move).
    ``watch`` receives, once, a function that returns the nodes searched so far (a status
    line may call it from another thread while the kernel runs).
    ``prover``: which :class:`~gyges.search.ProverKind` answers the questions of the
    verdict, the keys and the tries (the same answers either way; ``auto``: df-pn from
    :data:`~gyges.search.policy.DFPN_FROM` moves, else the kernel). The solution tree is
    always built the same way (the prover ``auto`` picks for its k), so it does not depend
    on this choice.
    """
    try:
        game = Game.of(position, history)
    except ValueError as e:
        raise SolveError(str(e)) from None
    position, history = game.position, game.history
    if not 1 <= max_moves <= MAX_MOVES:
        raise SolveError(f"the bound N must be 1..{MAX_MOVES}, not {max_moves}")
    if jobs < 1:
        raise SolveError(f"the number of processes must be at least 1, not {jobs}")
    if tries and (try_refutations < 1 or try_count < 1):
        raise SolveError(f"tries need at least one refutation and one try listed, not "
                         f"{try_refutations} and {try_count}")
    if duals < 0:
        raise SolveError(f"the dual depth must be 0 or more, not {duals}")
    if max_keys is not None and max_keys < 1:
        raise SolveError(f"the number of keys to find must be at least 1, not {max_keys}")
    history = tuple(history)
    t0 = time.perf_counter()
    asked = Prover(rules, prover, max_moves, history=history)
    me, other = position.turn, position.turn.other
    report = Reporter(cast(Callable[[SolveProgress], object] | None, progress), me,
                      max_moves)
    root = legal_moves(position, rules, history)
    result: ResultKind
    k: int | None
    keys: list[Move] = []
    asker = FirstMoves(asked, jobs if max_keys is None else 1)
    work = asker.effort
    if watch is not None:
        watch(lambda: asked.nodes + work.nodes)
    if max_keys is None:
        result, k, keys = verdict_and_keys(asker, position, root, max_moves, report)
    else:
        result, k = verdict(asked, position, max_moves, report)
        if result is ResultKind.WIN and k is not None:
            keys = find_keys(asked, position, root, k, lambda i, n: report.keys(k, i, n),
                             max_keys)
    proof_nodes = asked.nodes + work.nodes
    if len(keys) > 1 and not extras_if_cooked:
        tree = tries = False
    stoppable = _stoppable(position, previous, rules, history, root, result, k)
    built = None
    tree_nodes = tree_hits = 0
    tree_truncated = False
    if tree and k is not None:      # a win or a loss
        winner = me if result is ResultKind.WIN else other
        report.tree(winner, k)
        # its own table, fresh: where the tree shows one winning move of several, the one
        # shown is the first the search finds, which depends on what the table and the
        # move-ordering statistics hold; starting empty makes the tree the same whatever
        # searched before (one job or many, a cook search or none, either prover)
        builder = Prover(rules, ProverKind.AUTO, k, history=history)
        built = build_tree(builder, position, winner, k, root=root,
                           keys=keys if result is ResultKind.WIN else None,
                           budget=TREE_BUDGET, duals=duals)
        tree_nodes, tree_hits, tree_truncated = builder.nodes, builder.tt_hits, builder.truncated
    found_tries: tuple[Try, ...] = ()
    if tries and result is not ResultKind.LOSS:
        report.tries(k or max_moves)
        found_tries = find_tries(asked, position, root, k or max_moves, try_count,
                                 try_refutations)
    stats = Stats(asked.nodes + work.nodes + tree_nodes, time.perf_counter() - t0,
                  asked.tt_hits + work.tt_hits + tree_hits,
                  asked.truncated or work.truncated or tree_truncated, proof_nodes)
    return Solution(position, rules, max_moves, result, k, tuple(keys), built, found_tries,
                    stats, stoppable)


def _stoppable(position: Position, previous: Position | None, rules: RuleSet,
               history: tuple[Position | bytes, ...], root: MoveList,
               result: ResultKind, k: int | None) -> bool | None:
    """Under ``win=unstoppable``, whether a win could have been avoided by the opponent's
    last move (only a landing available now can be: True unless ``previous`` shows every
    alternative allowed one too); None under other rules or without a win."""
    if rules.win != "unstoppable" or result is not ResultKind.WIN:
        return None
    if k != 1 or root.mover is not position.turn:
        return False
    if previous is None:
        return True
    try:
        return not landing_stands(position, previous, rules, history)
    except NotOneMove as e:
        raise SolveError(str(e)) from None
