"""The forced-win solver: proven "win in k", "loses in k" or "no forced result within N".

The proofs are made by the compiled kernel (``solver/_search.pyx``); this module asks it
the questions and finds every key move (cooks); :mod:`gyges.search.tree` builds the
solution tree by re-searching from the key, :mod:`gyges.search.solution` holds the
result. docs/solver.md explains the search and why its answers are exact.

>>> from gyges.game.rules import PRESETS
>>> p = Position.from_string("....../3...../..1.1./1.23.3/3.22.1/....2. N")
>>> s = solve(p, PRESETS["pbmserv"])
>>> s.result, s.moves, [str(k) for k in s.keys]
('win', 1, ['51-43-33-31-21-S'])
>>> win_in(p, PRESETS["pbmserv"], 1)
True
"""

from __future__ import annotations

import contextlib
import functools
import time
from collections.abc import Callable, Sequence
from typing import Any

from gyges.game.moves import (
    Move,
    MoveList,
    NotOneMove,
    apply_move,
    board_after,
    landing_moves,
    landing_stands,
    legal_moves,
    result_of,
)
from gyges.game.position import Position
from gyges.game.rules import RuleSet, Side
from gyges.parallel import ForkedCall, forked_call, worker_pool
from gyges.search._dfpn import DfpnSearcher
from gyges.search._search import Searcher
from gyges.search.solution import Solution, Stats, Try
from gyges.search.stipulation import ResultKind
from gyges.search.tree import DUALS_UP_TO, TREE_BUDGET, build_tree

__all__ = ["DFPN_FROM", "DUALS_UP_TO", "PROVERS", "Solution", "SolveError", "Stats", "Try",
           "pick", "solve", "win_in"]



class SolveError(ValueError):
    """A question the solver cannot answer as asked (bad bound, inconsistent files)."""


# -- the questions asked of the kernel ------------------------------------------------------


#: The provers ``solve`` can ask: ``dfpn`` (proof-number search, :mod:`gyges.search._dfpn`)
#: and ``alphabeta`` (the depth-first kernel, :mod:`gyges.search._search`). Both are exact
#: and independent; the tests compare them. ``auto`` picks by the bound (:func:`pick`).
PROVERS = ("auto", "dfpn", "alphabeta")

#: ``auto`` asks df-pn from this many moves on: measured (docs/performance.md), df-pn is
#: several times faster on deep questions (the Rust engine's win in 6 and its cook search:
#: 4.4 s against 37 s) and a little slower on the many small ones of puzzle generation
#: (sound wins in 3: about 25% more CPU).
DFPN_FROM = 4


def table_bits(max_moves: int) -> int:
    """The size of a solve's transposition tables, 2 ** bits entries, by its bound: the
    small solves of puzzle generation (hundreds a minute) would spend more time having
    the system map a 2 ** 20-entry table's pages than searching; from 4 moves on, 2 ** 20.

    >>> [table_bits(n) for n in (1, 2, 3, 4, 6)]
    [14, 16, 18, 20, 20]
    """
    return min(20, 12 + 2 * max_moves)


def pick(prover: str, max_moves: int) -> str:
    """The prover ``auto`` stands for with the bound ``max_moves``; others as they are.

    >>> pick("auto", 3), pick("auto", 6), pick("alphabeta", 6)
    ('alphabeta', 'dfpn', 'alphabeta')
    """
    if prover == "auto":
        return "dfpn" if max_moves >= DFPN_FROM else "alphabeta"
    return prover


class _Prover:
    """The questions of one solve: a prover (its own transposition table) for the yes/no
    questions, the kernel for the lists of winning moves (``winning``), the file history.

    ``searcher`` answers ``win``; ``kernel`` is the alpha-beta Searcher, which also lists
    winning moves in its search's order (the solution tree shows the first it finds). With
    ``prover="alphabeta"`` they are the same object.
    """

    def __init__(self, rules: RuleSet, history: Sequence[Position], tt_bits: int = 20,
                 prover: str = "dfpn"):
        if prover not in PROVERS[1:]:
            raise SolveError(f"unknown prover {prover!r}: one of {', '.join(PROVERS[1:])}")
        self.rules = rules
        self.kernel = Searcher(rules.flags(), tt_bits)
        self.searcher: Searcher | DfpnSearcher = (
            DfpnSearcher(rules.flags(), tt_bits) if prover == "dfpn" else self.kernel)
        self.history = [h.key for h in history]

    @property
    def nodes(self) -> int:
        extra = self.kernel.nodes if self.kernel is not self.searcher else 0
        return self.searcher.nodes + extra

    @property
    def tt_hits(self) -> int:
        extra = self.kernel.tt_hits if self.kernel is not self.searcher else 0
        return self.searcher.tt_hits + extra

    @property
    def truncated(self) -> bool:
        return bool(self.searcher.truncated or self.kernel.truncated)

    def win(self, position: Position, winner: Side, d: int, path: Sequence[Position] = ()) -> bool:
        """Can ``winner`` land within ``d`` of its moves from ``position``?"""
        if d <= 0:
            return False
        return self.searcher.win(position.key, position.turn.index, winner.index, d,
                                 self.history + [p.key for p in path])

    def known(self, boards: list[bytes], turn: Side, winner: Side, d: int,
              path: Sequence[Position] = ()) -> list[bool | None]:
        """What the table already proves of :meth:`win` for each of ``boards`` (36-byte
        boards, ``turn`` to move; the same ``winner``, ``d`` and ``path``), without
        searching: True, False, or None (not known)."""
        if d <= 0:
            return [False] * len(boards)
        found = self.searcher.known(boards, turn.index, winner.index, d,
                                    self.history + [p.key for p in path])
        return [None if k < 0 else bool(k) for k in found]

    def refuted_apart_from(self, position: Position, winner: Side, d: int,
                           path: Sequence[Position], excluded: list[bytes]) -> bool | None:
        """With the loser to move in ``position``: has it a move, other than those leading
        to the boards ``excluded``, after which ``winner`` has no win within ``d``? None:
        not known (a line given up, a blocked side)."""
        r = self.searcher.win_excluding(position.key, position.turn.index, winner.index, d,
                                        excluded, self.history + [p.key for p in path])
        return None if r < 0 else r == 0

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
            found = set(self.kernel.winning_moves(position.key, me, d, hist))
            complete = True
        else:
            one = self.kernel.find_win(position.key, me, d, hist)
            found = {one} if one is not None else set()
            complete = False
        results = {result_of(position.board, *t) for t in found}
        return [m for m in moves if m.result_key(position) in results], complete

    def moves(self, position: Position, path: Sequence[Position] = ()) -> MoveList:
        """The legal moves, with the file history and the line ``path`` for Renop."""
        return legal_moves(position, self.rules, [*self.history, *(q.key for q in path)])

    def landings(self, position: Position, path: Sequence[Position] = ()) -> tuple[Move, ...]:
        """The legal moves of the side to move that land (as :meth:`moves`)."""
        return landing_moves(position, self.rules, [*self.history, *(q.key for q in path)])


def win_in(position: Position, rules: RuleSet, k: int, history: Sequence[Position] = (),
           searcher: Searcher | DfpnSearcher | None = None) -> bool:
    """Does the side to move win in at most ``k`` moves? (Yes/no, for batch use.)

    ``searcher``: a ``Searcher(rules.flags())`` (or a ``DfpnSearcher``) to ask, kept by
    the caller across calls
    (its table's entries are keyed by board and relevant history, so answers stay exact;
    a run of questions along one game line reuses what the earlier ones proved); default
    a fresh one for this question.

    >>> from gyges.game.rules import PRESETS
    >>> win_in(Position.from_string(".3.3.3/112232/...1.2/...1../....../...... S"),
    ...        PRESETS["pbmserv"], 2)
    True
    """
    if k < 1:
        return False
    if searcher is not None:
        me = position.turn.index
        return searcher.win(position.key, me, me, k, [h.key for h in history])
    prover = _Prover(rules, history, tt_bits=16)
    return prover.win(position, position.turn, k)


# -- questions one first move at a time, here or on forked workers --------------------------

#: One question for the kernel: (board, side to move, winner, d, the line's boards after the
#: file history). Asked of a root move's child (or grandchild), it decides that move.
Question = tuple[bytes, int, int, int, tuple[bytes, ...]]

#: With more than one job, once a depth of the side to move's questions is expected to
#: take more than this many CPU seconds (extrapolated from the depths before), the
#: opponent's questions start in a worker of their own. Only the time taken depends on it
#: (tests set 0 to start it at once).
SPLIT_SECONDS = 0.5

#: With more than one job, once a depth of the side to move's questions is expected to
#: take more than this many CPU seconds (extrapolated the same way), that depth and the
#: deeper ones are asked one first move at a time on the workers (a win in d is a first
#: move after which the side to move wins within d - 1). This pays on a wide "no" (the
#: start's depth 4: 64 s -> 39 s of wall time on 2 cores) but not on a quick win, where
#: one process's proof makes the cook search cheap (the Rust engine's position, depths of
#: 0.3-0.4 s: 3.7 -> 4.9 s when split). Only the time taken depends on it.
VERDICT_SPLIT_SECONDS = 5.0

_WORKER: dict[str, Any] = {}


def _worker_adopt(searcher: Searcher | DfpnSearcher, history: list[bytes]) -> None:
    """Set up a forked worker with the parent's searcher (its copy, table included: the
    pool forks, so nothing is pickled)."""
    _WORKER["searcher"] = searcher
    _WORKER["history"] = history


def _ask(searcher: Searcher | DfpnSearcher, history: list[bytes],
         q: Question) -> tuple[bool, int, int, bool]:
    """One question: ``(answer, nodes, tt_hits, truncated)`` (``truncated``: its answer was
    left undecided by a given-up line, and counted as no)."""
    board, side, winner, d, line = q
    n0, h0, t0 = searcher.nodes, searcher.tt_hits, searcher.truncated
    r = searcher.win(board, side, winner, d, [*history, *line])
    return r, searcher.nodes - n0, searcher.tt_hits - h0, searcher.truncated and not t0


def _worker_task(args: tuple[int, Question]) -> tuple[int, bool, int, int, bool]:
    """A worker's question: ``(index, answer, nodes, tt_hits, truncated)``."""
    index, q = args
    return index, *_ask(_WORKER["searcher"], _WORKER["history"], q)


class _Asker:
    """Answers a batch of independent questions (each deciding one first move) on ``jobs``
    forked workers (in this process for one job), which start from this process's table
    as it is when they are forked.

    Every answer is exact whoever computes it (the table only saves work), so which
    process answers a question, and in which order, changes nothing but the time."""

    def __init__(self, prover: _Prover, jobs: int):
        self.prover = prover
        self.jobs = jobs
        self.nodes = 0            # counted in workers
        self.hits = 0
        self.truncated = False

    def ask(self, questions: Sequence[Question],
            progress: Callable[[int, int], None] | None = None) -> list[bool]:
        """The answers, in the order of ``questions``."""
        n = len(questions)
        answers = [False] * n
        with worker_pool(self.jobs, _worker_adopt,
                         (self.prover.searcher, self.prover.history)) as pool:
            numbered = list(enumerate(questions))
            for done, (i, r, nodes, hits, trunc) in enumerate(
                    pool.map_unordered(_worker_task, numbered)):
                answers[i] = r
                if self.jobs > 1:
                    self.nodes += nodes
                    self.hits += hits
                    self.truncated |= trunc
                if progress is not None:
                    progress(done + 1, n)
        return answers


# -- solving ---------------------------------------------------------------------------------


def solve(
    position: Position,
    rules: RuleSet,
    max_moves: int = 3,
    history: Sequence[Position] = (),
    *,
    tries: bool = False,
    try_refutations: int = 3,
    try_count: int = 8,
    jobs: int = 1,
    previous: Position | None = None,
    tree: bool = True,
    duals: int = DUALS_UP_TO,
    progress: Callable[[str], None] | None = None,
    max_keys: int | None = None,
    extras_if_cooked: bool = True,
    watch: Callable[[Callable[[], int]], None] | None = None,
    prover: str = "auto",
) -> Solution:
    """Prove the shortest forced result of ``position`` within ``max_moves`` moves.

    ``history`` holds the earlier positions of the game (Renop law), oldest first;
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
    ``progress`` receives a short note as each stage starts (for a status line).
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
    ``prover``: which of :data:`PROVERS` answers the questions of the verdict, the keys and
    the tries (the same answers either way; ``auto``: df-pn from :data:`DFPN_FROM` moves,
    else the kernel). The solution tree is always built the same way (the prover ``auto``
    picks for its k), so it does not depend on this choice.
    """
    note = progress if progress is not None else (lambda _text: None)
    if not 1 <= max_moves <= 30:
        raise SolveError(f"the bound N must be 1..30, not {max_moves}")
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
    if prover not in PROVERS:
        raise SolveError(f"unknown prover {prover!r}: one of {', '.join(PROVERS)}")
    asked = _Prover(rules, history, table_bits(max_moves), pick(prover, max_moves))
    me, other = position.turn, position.turn.other
    root = legal_moves(position, rules, history)
    result: ResultKind
    k: int | None
    keys: list[Move] = []
    asker = _Asker(asked, jobs if max_keys is None else 1)
    if watch is not None:
        watch(lambda: asked.nodes + asker.nodes)
    if max_keys is None:
        result, k, keys = _verdict_and_keys(asker, position, root, max_moves, note)
    else:
        result, k = _verdict(asked, position, max_moves, note)
        if result == "win":
            keys = _keys(asked, position, root, me, k, note, max_keys)
    proof_nodes = asked.nodes + asker.nodes
    if len(keys) > 1 and not extras_if_cooked:
        tree = tries = False
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
    tree_nodes = tree_hits = 0
    tree_truncated = False
    if tree and k is not None:      # a win or a loss
        note("building the solution tree")
        # its own table, fresh: where the tree shows one winning move of several, the one
        # shown is the first the search finds, which depends on what the table and the
        # move-ordering statistics hold; starting empty makes the tree the same whatever
        # searched before (one job or many, a cook search or none, either prover)
        builder = _Prover(rules, history, table_bits(k), pick("auto", k))
        built = build_tree(builder, position, me if result == "win" else other, k, root=root,
                           keys=keys if result == "win" else None, budget=TREE_BUDGET,
                           duals=duals)
        tree_nodes, tree_hits, tree_truncated = builder.nodes, builder.tt_hits, builder.truncated
    found_tries: tuple[Try, ...] = ()
    if tries and result != "loss":
        note("looking for tries")
        found_tries = _tries(asked, position, root, me, k or max_moves, try_count,
                             try_refutations)
    stats = Stats(asked.nodes + asker.nodes + tree_nodes, time.perf_counter() - t0,
                  asked.tt_hits + asker.hits + tree_hits,
                  asked.truncated or asker.truncated or tree_truncated, proof_nodes)
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


class _Clock:
    """When to split a depth: the CPU time of each depth searched here, extrapolated."""

    def __init__(self) -> None:
        self.times: list[float] = []

    def timed(self, run: Callable[[], Any]) -> Any:
        c = time.process_time()
        out = run()
        self.times.append(time.process_time() - c)
        return out

    def split_next(self, seconds: float) -> bool:
        """Is the next depth expected to take more than ``seconds`` of CPU?"""
        if seconds <= 0:
            return True
        if not self.times:
            return False
        last = max(self.times[-1], 1e-3)
        before = max(self.times[-2], 1e-3) if len(self.times) > 1 else 1e-3
        return last * max(last / before, 10.0) > seconds


def _verdict_and_keys(asker: _Asker, position: Position, root: MoveList, max_moves: int,
                      note: Callable[[str], None]) -> tuple[ResultKind, int | None, list[Move]]:
    """The least forced result within ``max_moves`` (as :func:`_verdict`) and, for a win,
    every key (the cook search).

    One job: :func:`_verdict`, then :func:`_keys`. More jobs: the same questions, asked
    as one job asks them, but once a depth is expected to be expensive the opponent's
    questions (win in 1, 2, ..., N for the opponent: only needed if the side to move has
    no win) start in a forked process of their own, alongside the side to move's, which go
    on here; and the cook search is split across the workers (:func:`_split_keys`). Once a
    depth is expected to be very expensive (:data:`VERDICT_SPLIT_SECONDS`), the side to
    move's question itself is split the same way, one first move per question."""
    prover = asker.prover
    me = position.turn
    if asker.jobs == 1:
        result, k = _verdict(prover, position, max_moves, note)
        keys = _keys(prover, position, root, me, k, note) if result == "win" else []
        return result, k, keys
    clock = _Clock()
    can_split = root.mover is me and not root.wins
    split = False
    with _Opponent(prover, position, max_moves) as opponent:
        for d in range(1, max_moves + 1):
            note(f"searching for a win in {d}")
            if not opponent.started and d > 1 and clock.split_next(SPLIT_SECONDS):
                opponent.start()
            # once a depth is expected to be very expensive, it and every deeper one are
            # split (the parent's clock no longer sees the work once the workers do it)
            split = split or (d > 1 and clock.split_next(VERDICT_SPLIT_SECONDS))
            if split and can_split:
                # the side to move's question asked one first move at a time on the
                # workers: a win in d is a first move after which the side to move wins
                # within d - 1, so the answers are the verdict and the keys at once
                keys = _split_keys(asker, position, root, d, note,
                                   f"searching for a win in {d}")
                if keys:
                    opponent.stop()
                    return "win", d, keys
                continue
            if clock.timed(functools.partial(prover.win, position, me, d)):
                opponent.stop()
                keys = (_split_keys(asker, position, root, d, note) if d > 1 and can_split
                        else _keys(prover, position, root, me, d, note))
                return "win", d, keys
        lost = opponent.least(note)
    asker.nodes += opponent.nodes
    asker.hits += opponent.hits
    asker.truncated |= opponent.truncated
    return ("loss", lost, []) if lost is not None else ("none", None, [])


def _opponent_search(searcher: Searcher | DfpnSearcher, history: list[bytes], depth: Any,
                     board: bytes, side: int, winner: int,
                     most: int) -> tuple[int | None, int, int, bool]:
    """The forked process's iterative deepening on the opponent's questions: ``(least d or
    None, nodes, tt_hits, truncated)``; the depth being searched is kept in ``depth``, a
    shared value. ``searcher`` is the process's copy of the parent's (table included)."""
    n0, h0 = searcher.nodes, searcher.tt_hits
    found = None
    for d in range(1, most + 1):
        depth.value = d
        if searcher.win(board, side, winner, d, history):
            found = d
            break
    return found, searcher.nodes - n0, searcher.tt_hits - h0, searcher.truncated


class _Opponent:
    """The opponent's questions (does the opponent win within 1, 2, ..., N?), asked in a
    forked process of their own while this process asks the side to move's; or here,
    afterwards, if that process was never started (every depth was cheap)."""

    def __init__(self, prover: _Prover, position: Position, most: int):
        self.prover = prover
        self.position = position
        self.most = most
        self.started = False
        self.nodes = self.hits = 0
        self.truncated = False
        self._stack = contextlib.ExitStack()
        self._call: ForkedCall | None = None
        self._depth: Any = None

    def __enter__(self) -> _Opponent:
        return self

    def __exit__(self, *exc: Any) -> None:
        self._stack.__exit__(*exc)

    def start(self) -> None:
        import multiprocessing

        self._depth = multiprocessing.get_context("fork").Value("i", 0, lock=False)
        p = self.position
        self._call = self._stack.enter_context(forked_call(
            _opponent_search, self.prover.searcher, self.prover.history, self._depth,
            p.key, p.turn.index, p.turn.other.index, self.most))
        self.started = True

    def stop(self) -> None:
        """The side to move wins: the opponent's answer is not needed."""
        self._stack.close()
        self._call = None

    def least(self, note: Callable[[str], None]) -> int | None:
        """The least d within which the opponent wins, or None."""
        if self._call is None:
            for d in range(1, self.most + 1):
                note(f"searching for a loss in {d}")
                if self.prover.win(self.position, self.position.turn.other, d):
                    return d
            return None
        shown = -1
        while not self._call.ready(0.2):
            d = max(1, self._depth.value)
            if d != shown:
                note(f"searching for a loss in {d}")
                shown = d
        found, self.nodes, self.hits, self.truncated = self._call.result()
        self.stop()
        return found


def _split_keys(asker: _Asker, position: Position, root: MoveList, k: int,
                note: Callable[[str], None], doing: str = "looking for cooks") -> list[Move]:
    """The keys: every first move that wins within ``k``, asked on forked workers, which
    start from this process's table (after a proof here it holds the proof, which makes
    the other first moves much cheaper to refute). Also the side to move's question at a
    depth split before any proof (none found: no win within ``k``); ``doing`` names the
    stage in the progress notes."""
    me = position.turn
    questions = [(apply_move(position, m).key, me.other.index, me.index, k - 1,
                  (position.key,)) for m in root]

    def moves_done(i: int, n: int) -> None:
        note(f"{doing}: {i} of {n} first moves done")

    answers = asker.ask(questions, progress=moves_done)
    return [m for m, w in zip(root, answers, strict=True) if w]


def _keys(prover: _Prover, position: Position, root: MoveList, me: Side, k: int | None,
          note: Callable[[str], None], limit: int = 0) -> list[Move]:
    """Every first move that wins within ``k`` (at most ``limit`` of them when it is not
    0): the key and its cooks. Proving there is no cook means refuting every other first
    move, often the longest part of a solve."""
    if root.mover is not me or k is None:
        return []
    landings = [m for m in root if m.is_win]
    if landings or k == 1:
        return landings[:limit] if limit else landings
    if prover.searcher is prover.kernel:
        wins = set(prover.kernel.winning_moves(
            position.key, me.index, k, prover.history,
            lambda i, n: note(f"looking for cooks: first move {i + 1} of {n}"), limit))
        results = {result_of(position.board, *t) for t in wins}
        return [m for m in root if m.result_key(position) in results]
    # df-pn: each first move's own question, asked straight at depth k - 1 (what the proof
    # found is in the table; a refutation is usually a short disproof), up to the first
    # key; then the other keys with ``winners_among``: df-pn goes for the likeliest cook,
    # where asking the moves in turn refutes every move met before it (a cook late in the
    # order took minutes)
    boards = [bytes(board_after(position.board, m.start, m.end, m.relocation))
              for m in root]
    n = len(boards)
    first = None
    for i, m in enumerate(root):
        note(f"looking for cooks: first move {i + 1} of {n}")
        if prover.win(apply_move(position, m), me, k - 1, (position,)):
            first = i
            break
    if first is None:
        return []
    if limit == 1:
        return [root.moves[first]]
    assert isinstance(prover.searcher, DfpnSearcher)
    won, settled = winners_among(prover.searcher, position.key, me.index, k, prover.history,
                                 boards, boards[:first] + boards[first + 1:],
                                 limit - 1 if limit else n)
    keys = [first] + [boards.index(b) for b in won]
    for i in range(first + 1, n) if not settled else ():
        if limit and len(keys) >= limit:
            break
        note(f"looking for cooks: first move {i + 1} of {n}")
        if i not in keys and prover.win(apply_move(position, root.moves[i]), me, k - 1,
                                        (position,)):
            keys.append(i)
    return [root.moves[j] for j in sorted(keys)]


def winners_among(searcher: DfpnSearcher, board: bytes, side: int, d: int,
                  history: list[bytes], children: Sequence[bytes], asked: Sequence[bytes],
                  limit: int) -> tuple[list[bytes], bool]:
    """Which of the boards ``asked`` (reached by moves of ``side``, to move on ``board``;
    ``children`` are all its moves' boards) win within ``d``, up to ``limit`` of them,
    in the order found: the position is asked as a whole, less every child not asked and
    each winner found (``win_excluding``: df-pn goes for the likeliest winner), and the
    table tells which child won. Also whether that settled it: False when the searcher
    could not tell (a line given up, a result not kept), and the caller asks the rest of
    ``asked`` in turn."""
    left = set(asked)
    out = [c for c in children if c not in left]
    won: list[bytes] = []
    while len(won) < limit:
        r = searcher.win_excluding(board, side, side, d, out, history)
        if r <= 0:
            return won, r == 0
        known = searcher.known(list(asked), 1 - side, side, d - 1, [*history, board])
        new = [b for b, w in zip(asked, known, strict=True) if w == 1 and b not in won]
        if not new:
            return won, False
        won.append(new[0])
        out.append(new[0])
    return won, True


def _tries(prover: _Prover, position: Position, root: MoveList, me: Side, k: int,
           limit: int = 8, most: int = 3) -> tuple[Try, ...]:
    """First moves of ``me`` that fail to win within ``k`` but come close: those with the
    fewest refutations (defences after which no win within ``k - 1`` remains), at most
    ``most`` refutations each, best first (fewest refutations, then the order of ``root``),
    ``limit`` of them. A move after which the opponent lands at once is not a try.

    Once ``limit`` tries are held, a later move can enter only with fewer refutations than
    the last one held (a tie goes to the earlier move), so its defences are asked only up
    to that many: the same tries as asking every move up to ``most``, found sooner."""
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
        replies = prover.moves(child, (position,))
        if not replies.moves or replies.wins and replies.mover is not me:
            continue
        if replies.mover is me:
            continue            # the opponent is blocked: no defence to list
        held_by = _refutations(prover, position, child, replies, me, k, bound)
        refs = [replies.moves[j] for j in held_by]
        if refs and len(refs) <= bound:
            held.append((len(refs), i, Try(m, tuple(refs))))
            if len(held) >= limit:
                held.sort(key=lambda t: t[:2])
                del held[limit:]
                bound = held[-1][0] - 1
    held.sort(key=lambda t: t[:2])
    return tuple(t for _, _, t in held[:limit])


def _refutations(prover: _Prover, position: Position, child: Position, replies: MoveList,
                 me: Side, k: int, bound: int) -> list[int]:
    """The replies in ``child`` (after a first move of ``me`` from ``position``) after
    which ``me`` has no win within ``k - 1``, by their index in ``replies``, in order: all
    of them, or more than ``bound`` (then the move is no try, and the search stops).

    A key has none (not asked apart: the first refutation found says the same as "no win
    within k - 1 after this move"). The defences the table already knows to hold (the
    refutation a cook search found) are taken first. Then the question "is there
    another?" is asked of ``child`` as a whole, without those defences
    (``win_excluding``): df-pn goes for the defence easiest to prove, the kernel tries
    the defences in its own order (killers, history, landing witnesses), where asking
    the replies in turn proves the first one met, whatever its cost; the table then
    tells which it was. Where it cannot tell (a line given up) the replies are asked in
    turn. The order does not change the answer: a try's every defence is found either
    way, and a move with more than ``bound`` is dropped either way."""
    path = (position, child)
    boards = [bytes(board_after(child.board, r.start, r.end, r.relocation)) for r in replies]
    known = prover.known(boards, me, me, k - 1, path)
    held = [j for j, kn in enumerate(known) if kn is False]
    won = {j for j, kn in enumerate(known) if kn is True}
    whole = True        # ask the reply list as a whole (until it cannot tell)
    while len(held) <= bound:
        if whole:
            more = prover.refuted_apart_from(child, me, k - 1, (position,),
                                             [boards[j] for j in held])
            if more is False:
                break
            if more:
                known = prover.known(boards, me, me, k - 1, path)
                new = [j for j, kn in enumerate(known) if kn is False and j not in held]
                if new:
                    held += new
                    continue
            whole = False
        # not known (a line given up, a result not kept): the replies in turn, to one more
        for j in range(len(boards)):
            if j in won or j in held:
                continue
            if prover.win(apply_move(child, replies.moves[j]), me, k - 1, path):
                won.add(j)
            else:
                held.append(j)
                break
        else:
            break
    return sorted(held)
