# cython: language_level=3, boundscheck=False, wraparound=False, cdivision=True, initializedcheck=False
"""The playing engine's compiled search: iterative deepening alpha-beta (principal
variation search) over the core's C API (``_movegen.pxd``), with a transposition table,
move ordering and a linear evaluation of position features.

Scores are integers from the side to move's point of view. A landing ends the game: a
side that lands on its ``p``-th ply from the root scores ``MATE - p`` (the other side
``-(MATE - p)``); every evaluation lies strictly between ``-EVAL_CAP`` and ``EVAL_CAP``,
so proven results and evaluations compare naturally. A pass (``blocked=pass``: the side
to move has no move and its opponent moves again) counts as a ply of the side passed
over, so that the winner's moves stay on alternate plies: a win on ply ``p`` is the
winner's ``(p + 1) // 2``-th move.

Every node first asks the core whether the side to move can land (a win); a move after
which the opponent can land is lost at once and is not searched (the core's landing
search, helped by goal paths that still stand on sibling boards: *witnesses*). At the
horizon, when the opponent threatens to land, the side to move must have a move that
stops every landing (a *parry*) or it loses; otherwise the evaluation decides.

The rules are the core's: ``gen_moves`` with the rule flags and the boards of the game
and of the line (the Renop law), passes and blocked sides as it reports them. Under
``repetition=allowed`` a position met earlier on the line or in the game scores as a
draw. The transposition table's key adds, under the Renop law, the hash of the earlier
boards the subtree could reproduce, so an answer is reused only where the same moves are
legal.

Deterministic on one core: the moves chosen depend on the position, the rules, the
history, the weights and the limits in depth or nodes; only a time limit (or ``stop``)
makes a search end at a moment that depends on the machine. On several cores (helper
processes forked by :class:`Search`, each searching the whole tree, sharing the table
and which moves each is searching) the proven results are the same, the choice between
near-equal moves may vary.

The kernel's parts, one file each, compiled into this one module: its types
(``_engine.pxd``), landings and the evaluation (``_evaluate.pxi``), the transposition
table (``_tt.pxi``), move ordering (``_movepick.pxi``), the search and its root
(``_search.pxi``), several cores (``_threads.pxi``), and here the Python-facing
:class:`Search`. What it shares with the provers (hashing, the relevant history, the line
of boards, the landing cache, witnesses, the signal watch, the lazy move picker) is
``gyges/search/_shared.pxd``.
"""
from libc.stdint cimport uint8_t, int16_t, int32_t, uint64_t
from libc.string cimport memset, memcpy
from libc.stdlib cimport calloc, free
from libc.math cimport nearbyint
from libc.signal cimport signal as c_signal, SIGINT, SIG_IGN
from posix.unistd cimport fork, getpid, getppid, pipe, read, write, close, _exit
from posix.wait cimport waitpid, WNOHANG
from posix.mman cimport mmap, munmap, PROT_READ, PROT_WRITE, MAP_SHARED, MAP_ANONYMOUS, MAP_FAILED
from posix.time cimport clock_gettime, timespec, CLOCK_MONOTONIC

import dataclasses
import threading

from gyges.game._movegen cimport (
    Board, CMove, History, board_load, board_make, count_moves, gen_moves, goal_out_of_reach_in,
    count_simple_moves, land_support, shore_row, simple_moves, surely_moves, zobrist,
    MAX_MOVES, NO_SLOT, SOUTH, R_BLOCK_NEXTROW, R_REPEAT_OK,
)
from gyges.search._shared cimport (
    HISTORY_SIZE, MAX_HIST, LandEntry, Witnesses, land_lookup, line_alloc, line_free,
    line_pop, line_push, line_view, mix, move_index, move_triple, pick_next, popcount,
    relevant_history, same_move, watch_rethrow, watch_signalled, witness_init,
    witness_keep, witness_knows, witness_settle,
)

include "_evaluate.pxi"
include "_tt.pxi"
include "_movepick.pxi"
include "_search.pxi"
include "_threads.pxi"


#: The evaluation's features, in order (``features()`` returns them; the weights file
#: gives one weight per name): their places are ``F_`` and the name in capitals
#: (``_engine.pxd``). X is the side to move, Y its opponent.
FEATURES = (
    "tempo",           # 1: X is to move
    "threat",          # Y could land now: X must (and can) stop it
    "reach_x",         # X's shore could reach the goal were the taboo set aside
    "reach_y",
    "mobility_x",      # simple moves of X's shore (one segment onto an empty slot) / 8
    "mobility_y",
    "advance_x",       # rows X's shore row has moved away from X's home row
    "advance_y",
    "shore_1_x",       # singles, doubles, triples on X's shore row
    "shore_2_x",
    "shore_3_x",
    "shore_1_y",
    "shore_2_y",
    "shore_3_y",
    "same_row",        # both shores are one row
    "between",         # rings strictly between the two shore rows / 4
    "area_x",          # empty slots X's shore reaches in one move (taboo aside) / 8 when
    "area_y",          #   it cannot reach the goal; 36 / 8 when it can
    "goal_row_x",      # rings on the row next to X's goal (where its landings start)
    "goal_row_y",
    "surely_x",        # X surely has a move (else it might be blocked)
    "surely_y",
    "lone_x",          # X's shore row holds a single ring
    "lone_y",
    "moves_x",         # X's legal moves / 50 (0 when X is blocked)
    "moves_y",
    "rings_x",         # rings X can land on with a move (replace moves' landing slots)
    "rings_y",
    "ends_x",          # empty slots X's moves can end on / 4
    "ends_y",
)
assert len(FEATURES) == NFEATURES


def monotonic():
    """The clock the search's deadlines are on (seconds)."""
    return _now()


@dataclasses.dataclass(frozen=True)
class SearchResult:
    """What :meth:`Search.go` found: ``score`` (from the side to move's point of view;
    None when the side to move is blocked, its opponent moving, or every move is
    excluded; 0 with an empty ``pv`` when nobody can move, a draw), the principal
    variation ``pv`` as ``(start, to, reloc)`` triples, best move first, the ``depth``
    completed, the ``nodes`` searched (the helpers' included) and the selective depth
    ``seldepth`` (the deepest ply reached). ``lower_bound``: the move and score come from
    the depth after ``depth``, cut short, where the move beat the completed depth's best:
    the score is a lower bound and the line may be short."""

    score: object
    pv: tuple
    depth: int
    nodes: int
    seldepth: int = 0
    lower_bound: bool = False


cdef class Search:
    """One engine's search state for one rule set: its transposition table (kept from one
    search to the next: a game's later moves reuse what the earlier ones found), killers,
    history and evaluation weights.

    ``go(board, side, history, depth, nodes, seconds, excluded, info)`` searches ``board``
    (36 bytes, ``side`` to move, ``history`` the earlier boards of the game, oldest first)
    by iterative deepening until ``depth`` plies are done, ``nodes`` nodes are spent or
    ``seconds`` have passed (0: no such limit), leaving out the root moves ``excluded``
    (``(start, to, reloc)`` triples). ``info(depth, score, pv, nodes, seldepth)`` is called
    after each completed depth. Returns a :class:`SearchResult`. When a signal's handler
    raises (Ctrl-C), the search returns at once and ``go`` raises that exception, its best
    so far kept in :attr:`last`.

    ``cores``: how many processes search (1: this one alone, and the search is
    deterministic at fixed depth or nodes). With more, helper processes forked here search
    the whole tree too, by iterative deepening, sharing the table; a move one process is
    searching waits, in the others, to the end of its node (ABDADA, ``_threads.pxi``).
    They wait between searches and end with this object (or when this process ends).
    """
    cdef S s
    cdef int tt_bits
    cdef CMove root_moves[MAX_MOVES]
    cdef int root_score[MAX_MOVES]
    cdef uint8_t root_lost[MAX_MOVES]
    cdef Helpers helpers
    cdef readonly object last
    """The result of the last search: what :meth:`go` returned, or its best so far when
    an exception ended it (None before the first)."""

    def __cinit__(self, int rules, weights, int tt_bits=20, int cores=1, network=None):
        if not 10 <= tt_bits <= 28:
            raise ValueError("tt_bits must be 10..28")
        if not 1 <= cores <= MAX_PROCS:
            raise ValueError(f"cores must be 1..{MAX_PROCS}")
        if len(weights) != NFEATURES:
            raise ValueError(f"the evaluation takes {NFEATURES} weights, not {len(weights)}")
        memset(&self.s, 0, sizeof(S))
        memset(&self.helpers, 0, sizeof(Helpers))
        self.tt_bits = tt_bits
        self.s.rules = rules
        self.s.repeat_draw = 1 if rules & R_REPEAT_OK else 0
        if cores > 1:
            self.s.tt = _map_table(&self.helpers, tt_bits)
        else:
            self.s.tt = <TTEntry*>calloc(1ULL << tt_bits, sizeof(TTEntry))
        self.s.tt_mask = (1ULL << (tt_bits - 2)) - 1
        self.s.lc = <LandEntry*>calloc(1ULL << LAND_BITS, sizeof(LandEntry))
        self.s.rc = <ReachEntry*>calloc(1ULL << LAND_BITS, sizeof(ReachEntry))
        self.s.keys = <uint64_t*>calloc(MAX_HIST, sizeof(uint64_t))
        self.s.hist = <int32_t*>calloc(HISTORY_SIZE, sizeof(int32_t))
        if (not line_alloc(&self.s.line) or self.s.tt == NULL or self.s.lc == NULL
                or self.s.rc == NULL or self.s.keys == NULL or self.s.hist == NULL):
            raise MemoryError("no memory for the engine's tables")
        for i, v in enumerate(weights):
            self.s.w[i] = float(v)
        if network is not None:
            self._load_network(network)
        if cores > 1:
            self.s.busy = self.helpers.sh.busy
        _fork_helpers(&self.helpers, &self.s, cores - 1)

    cdef int _load_network(self, network) except -1:
        """Take the learned evaluation ``network`` (``(w1, b1, w2, b2, features)``, the
        integer layers of ``gyges.engine.network.Network``: ``w1`` one row an input, the
        board's, then the attack maps' if it reads them; ``features`` one weight per
        feature, or empty for none) before the helpers are forked."""
        w1, b1, w2, b2, wf = network
        cdef int nh = len(b1), i, j
        if (not 1 <= nh <= NET_MAX_HIDDEN or len(w1) not in (NET_INPUTS, NET_INPUTS + NET_ATTACK)
                or len(w2) != nh):
            raise ValueError(f"a network of {NET_INPUTS} or {NET_INPUTS + NET_ATTACK} inputs "
                             f"and 1..{NET_MAX_HIDDEN} hidden units")
        if len(wf) not in (0, NFEATURES):
            raise ValueError(f"the network weighs {NFEATURES} features, or none")
        for i in range(len(w1)):
            if len(w1[i]) != nh:
                raise ValueError("the network's first layer is not one row an input")
            for j in range(nh):
                if not -32768 <= w1[i][j] <= 32767:
                    raise ValueError("a first-layer weight out of 16 bits")
                self.s.nw1[i * nh + j] = w1[i][j]
        for j in range(nh):
            self.s.nb1[j] = b1[j]
            self.s.nw2[j] = w2[j]
        self.s.nb2 = b2
        for i in range(NFEATURES):
            self.s.nwf[i] = float(wf[i]) if len(wf) else 0.0
        self.s.attack = len(w1) > NET_INPUTS
        self.s.nh = nh
        return 0

    def close(self):
        """End the helper processes: later searches use this process alone."""
        _end_helpers(&self.helpers)

    def __dealloc__(self):
        _end_helpers(&self.helpers)
        if self.helpers.mapping != NULL:
            munmap(self.helpers.mapping, self.helpers.mapping_size)
        else:
            free(self.s.tt)
        free(self.s.lc)
        free(self.s.rc)
        line_free(&self.s.line)
        free(self.s.keys)
        free(self.s.hist)

    def stop(self):
        """Ask a running search (from another thread) to return its best so far; a
        search started later stops at once, until :meth:`resume`."""
        self.s.stop = 1
        if self.helpers.sh != NULL:
            gy_store(&self.helpers.sh.halt, 1)

    def resume(self):
        """Let searches run again after :meth:`stop`."""
        self.s.stop = 0

    def clear(self):
        """Forget what earlier searches learnt (table, killers, history)."""
        _tt_clear(&self.s, self.tt_bits)
        _forget(&self.s)
        if self.helpers.sh != NULL:
            self.helpers.sh.clears += 1

    cdef int _load(self, bytes board, int side, history, Board* b) except -1:
        """Set up a search of ``board``: the earlier boards (the Renop law) and the
        positions' keys (repetition draws; their sides alternate back from ``side``)."""
        cdef Board t
        cdef int i = 0, turn
        if side not in (0, 1):
            raise ValueError("sides are 0 (South) and 1 (North)")
        board_load(b, board)
        items = list(history)[-MAX_GAME:]
        turn = (1 - side) if len(items) % 2 else side
        for past in items:
            board_load(&t, past)
            self.s.line.lo[i] = t.klo
            self.s.line.hi[i] = t.khi
            self.s.keys[i] = zobrist(&t, turn)
            turn = 1 - turn
            i += 1
        self.s.line.n = i
        self.s.kn = i
        return 0

    def go(self, bytes board, int side, history=(), int depth=0, unsigned long long nodes=0,
           double seconds=0.0, excluded=(), info=None):
        cdef Board b, child
        cdef History h
        cdef int n, mover, i, j, d, best = 0, best_i = -1, alpha, beta, delta, done = 0
        cdef int max_depth = depth if depth > 0 else MAX_PLY - 4
        cdef int last_score = 0
        cdef bint cut_short = False
        cdef CMove m
        cdef Witnesses w
        cdef double start = _now()
        self.last = None
        self._load(board, side, history, &b)
        self.s.watch.nodes = 0
        self.s.node_limit = nodes
        self.s.deadline = start + seconds if seconds > 0 else 0.0
        self.s.watch.aborted = 0
        self.s.gen = <uint8_t>((self.s.gen + 1) & 63)
        self.s.seldepth = 0
        self.s.poll_signals = threading.current_thread() is threading.main_thread()
        memset(self.s.killer, 0, sizeof(self.s.killer))
        memset(self.s.nulled, 0, sizeof(self.s.nulled))
        line_view(&self.s.line, &h)
        n = gen_moves(&b, side, self.s.rules, &h, self.root_moves, &mover)
        if n == 0:
            return self._result(0, (), 0, 0)          # nobody can move: drawn
        if mover != side:
            return self._result(None, (), 0, 0)       # blocked: the opponent moves
        skip = {tuple(x) for x in excluded}
        j = 0
        for i in range(n):
            m = self.root_moves[i]
            if move_triple(m) in skip:
                continue
            if m.to >= 36:
                return self._result(MATE - 1, (move_triple(m),), 1, 1)
            self.root_moves[j] = m
            j += 1
        n = j
        if n == 0:
            return self._result(None, (), 0, 0)
        _push(&self.s, &b, side)
        _witness(&self.s, &w, &b, 1 - side)
        for i in range(n):
            memcpy(&child, &b, sizeof(Board))
            board_make(&child, self.root_moves[i])
            self.root_lost[i] = _lands_after(&self.s, &w, &child, self.root_moves[i])
            self.root_score[i] = -(MATE - 2) if self.root_lost[i] else 0
        _pop(&self.s)
        _sort_root(self.root_moves, self.root_score, self.root_lost, n)
        best_pv = [move_triple(self.root_moves[0])]
        best_score = self.root_score[0]
        if self.root_lost[0]:
            return self._result(best_score, best_pv, 1, 1)  # every move lets the opponent land
        _wake_helpers(&self.helpers, &self.s, &b, side, self.root_moves, self.root_lost, n)
        try:
            for d in range(1, max_depth + 1):
                if self.s.stop:
                    break
                delta = ASPIRATION_WINDOW
                alpha = -MATE
                beta = MATE
                if d >= ASPIRATION_DEPTH and -MATE_BOUND < last_score < MATE_BOUND:
                    alpha = last_score - delta
                    beta = last_score + delta
                self.s.root_depth = d
                risen = None
                while True:
                    with nogil:
                        best, best_i = _root(&self.s, &b, side, d, alpha, beta, self.root_moves,
                                             self.root_score, self.root_lost, n)
                    if self.s.watch.aborted:
                        break
                    if best > last_score and d > 1 and self.s.pvlen[0] > 0:
                        # a move beat the last depth's best (a fail high, or within the window)
                        risen = [move_triple(self.s.pv[0][i])
                                 for i in range(self.s.pvlen[0])], best
                    if best <= alpha and alpha > -MATE:
                        alpha = -MATE if delta > ASPIRATION_WIDEST else best - delta
                        delta *= ASPIRATION_GROWTH
                    elif best >= beta and beta < MATE:
                        beta = MATE if delta > ASPIRATION_WIDEST else best + delta
                        delta *= ASPIRATION_GROWTH
                    else:
                        break
                if self.s.watch.aborted:
                    # a move that beat the last depth's best is kept: found in the search cut
                    # short, or in an earlier pass of this depth that failed high
                    if best_i > 0 and best > last_score and self.s.pvlen[0] > 0 \
                            and same_move(self.s.pv[0][0], self.root_moves[best_i]):
                        best_pv = [move_triple(self.s.pv[0][i]) for i in range(self.s.pvlen[0])]
                        best_score = best
                        cut_short = True
                    elif risen is not None:
                        best_pv, best_score = risen
                        cut_short = True
                    break
                _sort_root(self.root_moves, self.root_score, self.root_lost, n)
                best_pv = [move_triple(self.s.pv[0][i]) for i in range(self.s.pvlen[0])]
                best_score = best
                last_score = best
                done = d
                if info is not None:
                    info(d, best, best_pv, _all_nodes(&self.helpers, &self.s), self.s.seldepth)
                if best > MATE_BOUND and MATE - best <= d:
                    break                                # a win no deeper search shortens
                if best < -MATE_BOUND and MATE + best <= d:
                    break
        finally:
            _idle_helpers(&self.helpers)
        result = self._result(best_score, best_pv, done, _all_nodes(&self.helpers, &self.s),
                              cut_short)
        watch_rethrow(&self.s.watch)           # a signal's handler raised: raised here
        return result

    cdef object _result(self, score, pv, int depth, unsigned long long nodes,
                        bint lower_bound=False):
        """The search's result, kept as :attr:`last`."""
        self.last = SearchResult(score, tuple(pv), depth, nodes, self.s.seldepth, lower_bound)
        return self.last

    def evaluate(self, bytes board, int side, history=()):
        """``(score, features)``: ``board`` with ``side`` to move as the search's horizon
        sees it. ``score``: a landing now (``MATE - 1``), a threat with no parry (a loss,
        ``-(MATE - 2)``; 0 when the side is stuck and the game drawn), else the
        evaluation; ``features``: what the evaluation reads (None when a landing
        decides)."""
        cdef Board b
        cdef double f[NFEATURES]
        cdef uint64_t threat, maps[4]
        cdef int r
        cdef Reach reach
        self._load(board, side, history, &b)
        if _land(&self.s, &b, side):
            return MATE - 1, None
        threat = _land(&self.s, &b, 1 - side)
        if threat:
            r = _parry(&self.s, &b, side, threat)
            if r <= 0:
                return (-(MATE - 2) if r == 0 else 0), None
        _reach(&self.s, &b, &reach)
        _features(&self.s, &b, side, threat != 0, &reach, f, maps)
        return (_evaluate(&self.s, &b, side, threat != 0, &reach),
                tuple([f[i] for i in range(NFEATURES)]))

    def attack_maps(self, bytes board, int side, history=()):
        """The attack maps of ``board`` with ``side`` to move, as the learned evaluation
        reads them (``gyges.engine.network.attack_inputs``): four 36-bit masks, the rings
        the side to move's moves land on (replaces), the empty slots its other moves end
        on (goal landings left out), then the same for its opponent (0 for a side that
        cannot move)."""
        cdef Board b
        cdef double f[NFEATURES]
        cdef uint64_t maps[4]
        cdef Reach reach
        self._load(board, side, history, &b)
        _reach(&self.s, &b, &reach)
        _features(&self.s, &b, side, 0, &reach, f, maps)
        return (maps[0], maps[1], maps[2], maps[3])

    @property
    def nodes(self):
        return self.s.watch.nodes
