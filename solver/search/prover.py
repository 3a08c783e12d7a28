"""The forced-win solver: proven "win in k", "loses in k" or "no forced result within N".

The proofs are made by the compiled kernel (``solver/_search.pyx``); this module asks it
the questions and finds every key move (cooks); :mod:`solver.search.tree` builds the
solution tree by re-searching from the key, :mod:`solver.search.solution` holds the
result. docs/solver.md explains the search and why its answers are exact.

>>> from solver.game.rules import PRESETS
>>> p = Position.from_string("....../3...../..1.1./1.23.3/3.22.1/....2. N")
>>> s = solve(p, PRESETS["pbmserv"])
>>> s.result, s.moves, [str(k) for k in s.keys]
('win', 1, ['51-43-33-31-21-S'])
>>> win_in(p, PRESETS["pbmserv"], 1)
True
"""

from __future__ import annotations

import time
from collections.abc import Callable, Sequence
from typing import Any

from solver.game.moves import (
    Move,
    MoveList,
    NotOneMove,
    apply_move,
    landing_stands,
    legal_moves,
    result_of,
)
from solver.game.position import Position
from solver.game.rules import RuleSet, Side
from solver.parallel import worker_pool
from solver.search._search import Searcher
from solver.search.solution import Solution, Stats, Try
from solver.search.stipulation import ResultKind
from solver.search.tree import DUALS_UP_TO, TREE_BUDGET, build_tree

__all__ = ["DUALS_UP_TO", "Solution", "SolveError", "Stats", "Try", "solve", "win_in"]



class SolveError(ValueError):
    """A question the solver cannot answer as asked (bad bound, inconsistent files)."""


# -- the questions asked of the kernel ------------------------------------------------------


class _Prover:
    """One Searcher (one transposition table) plus the file history."""

    def __init__(self, rules: RuleSet, history: Sequence[Position], tt_bits: int = 20):
        self.rules = rules
        self.searcher = Searcher(rules.flags(), tt_bits)
        self.history = [h.key for h in history]

    def win(self, position: Position, winner: Side, d: int, path: Sequence[Position] = ()) -> bool:
        """Can ``winner`` land within ``d`` of its moves from ``position``?"""
        if d <= 0:
            return False
        return self.searcher.win(position.key, position.turn.index, winner.index, d,
                                 self.history + [p.key for p in path])

    def least(self, position: Position, winner: Side, d: int,
              path: Sequence[Position] = ()) -> int | None:
        """The least ``d' <= d`` with a win within ``d'``, or None."""
        for k in range(1, d + 1):
            if self.win(position, winner, k, path):
                return k
        return None

    def winning(self, position: Position, d: int, path: Sequence[Position], moves: MoveList,
                all_of_them: bool = True) -> tuple[list[Move], bool]:
        """The moves of the side to move that win within ``d`` (all of them, or one found
        by the search's ordering), and whether the list is complete."""
        hist = self.history + [q.key for q in path]
        me = position.turn.index
        if all_of_them:
            found = set(self.searcher.winning_moves(position.key, me, d, hist))
            complete = True
        else:
            one = self.searcher.find_win(position.key, me, d, hist)
            found = {one} if one is not None else set()
            complete = False
        results = {result_of(position.board, *t) for t in found}
        return [m for m in moves if m.result_key(position) in results], complete

    def moves(self, position: Position, path: Sequence[Position] = ()) -> MoveList:
        """The legal moves, with the file history and the line ``path`` for Renop."""
        return legal_moves(position, self.rules, [*self.history, *(q.key for q in path)])


def win_in(position: Position, rules: RuleSet, k: int, history: Sequence[Position] = ()) -> bool:
    """Does the side to move win in at most ``k`` moves? (Yes/no, for batch use.)

    >>> from solver.game.rules import PRESETS
    >>> win_in(Position.from_string(".3.3.3/112232/...1.2/...1../....../...... S"),
    ...        PRESETS["pbmserv"], 2)
    True
    """
    if k < 1:
        return False
    prover = _Prover(rules, history, tt_bits=16)
    return prover.win(position, position.turn, k)


# -- parallel root split ---------------------------------------------------------------------

_WORKER: dict[str, Any] = {}


def _worker_adopt(searcher: Searcher, history: list[bytes]) -> None:
    """Set up a forked worker with the parent's searcher (its copy, table included: the
    pool forks, so nothing is pickled)."""
    _WORKER["searcher"] = searcher
    _WORKER["history"] = history


def _worker_task(args: tuple[int, bytes, int, int, int, bytes]) -> tuple[int, bool, int, int]:
    """One root move's question: ``(index, won, nodes, tt_hits)``."""
    index, child, side, winner, d, root = args
    s: Searcher = _WORKER["searcher"]
    n0, h0 = s.nodes, s.tt_hits
    r = s.win(child, side, winner, d, [*_WORKER["history"], root])
    return index, r, s.nodes - n0, s.tt_hits - h0


# -- solving ---------------------------------------------------------------------------------


def solve(
    position: Position,
    rules: RuleSet,
    max_moves: int = 3,
    history: Sequence[Position] = (),
    *,
    tries: bool = False,
    jobs: int = 1,
    previous: Position | None = None,
    tree: bool = True,
    duals: int = DUALS_UP_TO,
    progress: Callable[[str], None] | None = None,
    max_keys: int | None = None,
    watch: Callable[[Callable[[], int]], None] | None = None,
) -> Solution:
    """Prove the shortest forced result of ``position`` within ``max_moves`` moves.

    ``history`` holds the earlier positions of the game (Renop law), oldest first;
    ``previous`` the position before the opponent's last move (unstoppable variant).
    ``jobs > 1`` splits the cook search (every first move checked once the least k is
    known) across processes; the proof itself runs here, where iterative deepening's
    table and move ordering serve it best. ``duals``: the solution tree
    lists every winning continuation (and marks duals) where the winner has at most this
    many moves left; above that one winning move is shown (``"dual": null``).
    ``progress`` receives a short note as each stage starts (for a status line).
    ``max_keys``: stop the key search once that many keys are found (``2`` tells a unique
    key from a cook without refuting every other first move once a cook is seen; ``1``
    when the key is known to be unique); ``keys`` then holds those found.
    ``watch`` receives, once, a function that returns the nodes searched so far in this
    process (a status line may call it from another thread while the kernel runs).
    """
    note = progress if progress is not None else (lambda _text: None)
    if not 1 <= max_moves <= 30:
        raise SolveError(f"the bound N must be 1..30, not {max_moves}")
    if jobs < 1:
        raise SolveError(f"the number of processes must be at least 1, not {jobs}")
    if duals < 0:
        raise SolveError(f"the dual depth must be 0 or more, not {duals}")
    if max_keys is not None and max_keys < 1:
        raise SolveError(f"the number of keys to find must be at least 1, not {max_keys}")
    history = tuple(history)
    t0 = time.perf_counter()
    prover = _Prover(rules, history)
    if watch is not None:
        watch(lambda: prover.searcher.nodes)
    me, other = position.turn, position.turn.other
    root = legal_moves(position, rules, history)
    result: ResultKind
    k: int | None
    result, k = _verdict(prover, position, max_moves, note)
    keys: list[Move] = []
    extra_nodes = extra_hits = 0
    if result == "win":
        if jobs > 1 and root.mover is me and k > 1 and not root.wins and max_keys is None:
            keys, extra_nodes, extra_hits = _parallel_keys(
                jobs, prover, position, root, me, k, note)
        else:
            keys = _keys(prover, position, root, me, k, note, max_keys or 0)
    stoppable = None
    if rules.win == "unstoppable" and result == "win":
        if k == 1 and root.mover is me:
            try:
                stoppable = True if previous is None else not landing_stands(
                    position, previous, rules, history)
            except NotOneMove as e:
                raise SolveError(str(e)) from None
        else:
            stoppable = False
    built = None
    if tree and result != "none":
        note("building the solution tree")
        built = build_tree(prover, position, me if result == "win" else other, k, root=root,
                           keys=keys if result == "win" else None, budget=TREE_BUDGET,
                           duals=duals)
    found_tries: tuple[Try, ...] = ()
    if tries and result != "loss":
        note("looking for tries")
        found_tries = _tries(prover, position, root, me, k or max_moves)
    searcher = prover.searcher
    stats = Stats(searcher.nodes + extra_nodes, time.perf_counter() - t0,
                  searcher.tt_hits + extra_hits, searcher.truncated)
    return Solution(position, rules, max_moves, result, k, tuple(keys), built, found_tries,
                    stats, stoppable)


def _verdict(prover: _Prover, position: Position, max_moves: int,
             note: Callable[[str], None]) -> tuple[ResultKind, int | None]:
    """The least forced result within ``max_moves``: ``("win", k)``, ``("loss", k)`` or
    ``("none", None)``, in the order win in 1, loss in 1, win in 2, loss in 2, ...

    A side cannot both force a win and be forced to lose (both strategies played against
    each other would make both land), so once the side to move is found to win in k, no
    loss at any depth is possible: the opponent's questions are only asked when the side
    to move has no win within ``max_moves``. Same answers, about half the work on a win.
    """
    me, other = position.turn, position.turn.other
    for d in range(1, max_moves + 1):
        note(f"searching for a win in {d}")
        if prover.win(position, me, d):
            return "win", d
    for d in range(1, max_moves + 1):
        note(f"searching for a loss in {d}")
        if prover.win(position, other, d):
            return "loss", d
    return "none", None


def _parallel_keys(jobs: int, prover: _Prover, position: Position, root: MoveList, me: Side,
                   k: int, note: Callable[[str], None]):
    """The keys (every first move winning within ``k``), the first moves split across
    ``jobs`` forked processes: ``(keys, nodes, tt_hits)``. Each worker starts from a copy of
    the prover's searcher, whose table already holds what the proof found."""
    tasks = [(apply_move(position, m).key, me.other.index, me.index, k - 1, position.key)
             for m in root]
    out: list[tuple[bool, int, int]] = [(False, 0, 0)] * len(tasks)
    with worker_pool(jobs, _worker_adopt, (prover.searcher, prover.history)) as pool:
        numbered = [(i, *t) for i, t in enumerate(tasks)]
        for done, (i, won, nodes, hits) in enumerate(pool.map_unordered(_worker_task, numbered)):
            out[i] = (won, nodes, hits)
            note(f"looking for cooks: {done + 1} of {len(tasks)} first moves done")
    keys = [m for m, (won, _, _) in zip(root, out, strict=True) if won]
    return keys, sum(o[1] for o in out), sum(o[2] for o in out)


def _keys(prover: _Prover, position: Position, root: MoveList, me: Side, k: int,
          note: Callable[[str], None], limit: int = 0) -> list[Move]:
    """Every first move that wins within ``k`` (at most ``limit`` of them when it is not
    0): the key and its cooks. Proving there is no cook means refuting every other first
    move, often the longest part of a solve."""
    if root.mover is not me:
        return []
    landings = [m for m in root if m.is_win]
    if landings or k == 1:
        return landings[:limit] if limit else landings
    wins = set(prover.searcher.winning_moves(
        position.key, me.index, k, prover.history,
        lambda i, n: note(f"looking for cooks: first move {i + 1} of {n}"), limit))
    results = {result_of(position.board, *t) for t in wins}
    return [m for m in root if m.result_key(position) in results]


def _tries(prover: _Prover, position: Position, root: MoveList, me: Side, k: int,
           limit: int = 8, most: int = 3) -> tuple[Try, ...]:
    """First moves of ``me`` that fail to win within ``k`` but come close: those with the
    fewest refutations (defences after which no win within ``k - 1`` remains), at most
    ``most`` refutations each, best first. A move after which the opponent lands at once
    is not a try."""
    if root.mover is not me or k < 2:
        return ()
    scored = []
    for m in root:
        if m.is_win:
            continue
        child = apply_move(position, m)
        replies = prover.moves(child, (position,))
        if not replies.moves or replies.wins and replies.mover is not me:
            continue
        if prover.win(child, me, k - 1, (position,)):
            continue            # a key, not a try
        refs = []
        for r in replies:
            after = apply_move(child, r)
            if r.side is me:
                continue        # the opponent is blocked: no defence to list
            if not prover.win(after, me, k - 1, (position, child)):
                refs.append(r)
                if len(refs) > most:
                    break
        if refs and len(refs) <= most:
            scored.append((len(refs), len(scored), Try(m, tuple(refs))))
    scored.sort(key=lambda t: t[:2])
    return tuple(t for _, _, t in scored[:limit])
