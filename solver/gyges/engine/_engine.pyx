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
processes forked by :class:`Search`, sharing the table and the root's moves) the proven
results are the same, the choice between near-equal moves may vary.
"""
from libc.stdint cimport uint8_t, int16_t, int32_t, uint64_t
from libc.string cimport memset, memcpy
from libc.stdlib cimport calloc, free
from libc.signal cimport signal as c_signal, SIGINT, SIG_IGN
from posix.unistd cimport fork, getpid, getppid, pipe, read, write, close, _exit
from posix.wait cimport waitpid, WNOHANG
from posix.mman cimport mmap, munmap, PROT_READ, PROT_WRITE, MAP_SHARED, MAP_ANONYMOUS, MAP_FAILED
from libc.math cimport exp
from posix.time cimport clock_gettime, timespec, CLOCK_MONOTONIC
from cpython.ref cimport PyObject

import threading

cdef extern from "Python.h":
    int _check_signals "PyErr_CheckSignals" () noexcept
    void PyErr_Fetch(PyObject** type, PyObject** value, PyObject** tb) noexcept
    void PyErr_Restore(PyObject* type, PyObject* value, PyObject* tb) noexcept

cdef extern from *:
    int __builtin_popcountll(unsigned long long) nogil

cdef extern from *:
    """
    static inline int gy_fetch_add(int* p, int v) { return __atomic_fetch_add(p, v, __ATOMIC_SEQ_CST); }
    static inline int gy_load(int* p) { return __atomic_load_n(p, __ATOMIC_SEQ_CST); }
    static inline void gy_store(int* p, int v) { __atomic_store_n(p, v, __ATOMIC_SEQ_CST); }
    static inline void gy_pause(void) {
    #if defined(__x86_64__) || defined(__i386__)
        __builtin_ia32_pause();
    #endif
    }
    static inline void gy_lock(int* p) { while (__atomic_exchange_n(p, 1, __ATOMIC_ACQUIRE)) gy_pause(); }
    static inline void gy_unlock(int* p) { __atomic_store_n(p, 0, __ATOMIC_RELEASE); }
    """
    int gy_fetch_add(int* p, int v) noexcept nogil
    int gy_load(int* p) noexcept nogil
    void gy_store(int* p, int v) noexcept nogil
    void gy_pause() noexcept nogil
    void gy_lock(int* p) noexcept nogil
    void gy_unlock(int* p) noexcept nogil

from gyges.game._movegen cimport (
    Board, CMove, History, board_load, board_make, count_moves, gen_moves, goal_out_of_reach_in,
    count_simple_moves, land_search, land_support, shore_row, simple_moves, surely_moves,
    zobrist,
    GOAL_N, GOAL_S, MAX_MOVES, NO_SLOT, NORTH, SOUTH,
    R_BLOCK_DRAW, R_BLOCK_NEXTROW, R_REPEAT_OK, R_REPLACE_ANY, R_REPLACE_SHORE,
)

cpdef enum:
    MATE = 32000
    MATE_BOUND = 31000     # |score| above this: a landing within MATE - |score| plies
    EVAL_CAP = 30000

cdef enum:
    MAX_PLY = 100
    MAX_GAME = 1024        # earlier boards of the game kept for the Renop law
    MAX_HIST = MAX_GAME + MAX_PLY + 8
    HIST_SIZE = 36 * 38 * 37
    CHECK_EVERY = 1023     # nodes between looks at the clock, the node limit and signals
    LAND_BITS = 13         # entries of the landing cache: 2^13 (192 KiB: in the L2 cache)
    BUCKET = 4             # table entries per bucket (one cache line)
    NFEATURES = 30

# bounds of a table entry
cdef enum:
    B_EXACT = 1
    B_LOWER = 2
    B_UPPER = 3

#: The evaluation's features, in order (``features()`` returns them; the weights file
#: gives one weight per name). X is the side to move, Y its opponent.
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

ctypedef struct TTEntry:
    uint64_t key           # the node's key xor the entry's other 8 bytes (see _probe)
    int16_t score
    uint8_t depth
    uint8_t flag           # bound (bits 0-1), generation (bits 2-7)
    uint8_t start
    uint8_t to
    uint8_t reloc
    uint8_t used

ctypedef struct LandEntry:
    uint64_t klo
    uint64_t khi           # the board's high key, the side in bit 63, bit 62: used
    uint64_t sup

ctypedef struct ReachEntry:
    uint64_t klo
    uint64_t khi           # the board's high key, the side in bit 63, bit 62: used
    uint64_t region        # goal_out_of_reach_in's region (its answer: far)
    uint64_t far

ctypedef struct Witness:
    # the opponent's landing (or its absence) on the parent board of a move loop
    int side
    int row                # the side's shore row on the parent board
    uint64_t sup           # a goal path that stands on the parent board, or 0
    int far                # 1: the goal is out of the side's reach on the parent board
    uint64_t region        # ... an answer resting on these slots

ctypedef struct Reach:
    # each side's goal out of reach (the core's quick test) and what that answer rests on
    int far[2]
    uint64_t region[2]

cpdef enum:
    MAX_CORES = 8          # processes one search may use (the first and 7 helpers)

cdef enum:
    MAX_PROCS = MAX_CORES
    SPLIT_DEPTH = 3        # from this depth, the root's moves after the first are shared out
    CUT_OFF = 2            # S.aborted: another process's move failed high at the root

ctypedef struct Shared:
    # what the processes of one search share (a MAP_SHARED mapping, beside the table);
    # the helpers are forked from the first process and wait on a pipe between searches
    int state              # 1 while a search runs (the helpers take part), 0 between
    int job                # root iterations posted in this search
    int done[MAX_PROCS]    # the last iteration each helper finished
    int running[MAX_PROCS] # 1 while the helper is in the search
    int cut_short[MAX_PROCS]  # the helper's part of its last iteration was cut short
    int pid[MAX_PROCS]     # the helpers' process ids, and which have died (not waited for)
    int dead[MAX_PROCS]
    unsigned int spins[MAX_PROCS]
    unsigned long long nodes[MAX_PROCS]
    int halt               # stop now (stop(), Ctrl-C, the node limit)
    int lock
    int next               # the next root move to take
    int cut                # a move failed high: no more are taken
    int alpha
    int beta
    int depth
    int best
    int best_i
    int pvlen
    CMove pv[MAX_PLY]
    int n
    CMove moves[MAX_MOVES]
    uint8_t lost[MAX_MOVES]
    int scores[MAX_MOVES]
    int clears             # clear() calls: a helper forgets when it sees a new one
    Board board            # the search's setup
    int side
    double deadline
    uint8_t gen
    int hn
    uint64_t hlo[MAX_HIST]
    uint64_t hhi[MAX_HIST]
    uint64_t keys[MAX_HIST]

ctypedef struct S:
    int rules
    int repeat_draw        # repetition=allowed: a position met before is a draw
    int replace
    TTEntry* tt
    uint64_t tt_mask       # buckets - 1
    uint8_t gen
    LandEntry* lc
    ReachEntry* rc
    uint64_t* hlo          # boards before the node: the game's, then the line's
    uint64_t* hhi
    int hn
    uint64_t* keys         # position keys (board and side) of the game and the line
    int kn
    int game_keys
    int32_t* hist          # history heuristic
    CMove killer[MAX_PLY][2]
    CMove pv[MAX_PLY][MAX_PLY]
    int pvlen[MAX_PLY]
    double w[NFEATURES]
    unsigned long long nodes
    unsigned long long node_limit  # 0: none
    double deadline                # 0: none (monotonic seconds)
    int stop                       # set by stop() from another thread
    int aborted
    int poll_signals
    PyObject* exc[3]
    int seldepth
    uint8_t nulled[MAX_PLY]        # the move into ply + 1 was a pass (null move)
    int root_depth                 # the depth of the iteration under way
    int* halt                      # a helper process: the search's shared stop flag
    int parent                     # ... and its parent's pid (it ends if the parent does)
    int* cut                       # sharing the root's moves: a move failed high


cdef inline double _now() noexcept nogil:
    cdef timespec t
    clock_gettime(CLOCK_MONOTONIC, &t)
    return t.tv_sec + t.tv_nsec * 1e-9


def monotonic():
    """The clock the search's deadlines are on (seconds)."""
    return _now()


cdef inline uint64_t _mix(uint64_t z) noexcept nogil:
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ULL
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBULL
    return z ^ (z >> 31)


cdef inline int _popcount(uint64_t x) noexcept nogil:
    return __builtin_popcountll(x)


cdef inline int _mi(CMove m) noexcept nogil:
    return (m.start * 38 + m.to) * 37 + (36 if m.reloc == NO_SLOT else m.reloc)


cdef inline int _same(CMove a, CMove b) noexcept nogil:
    return a.start == b.start and a.to == b.to and a.reloc == b.reloc


cdef inline uint64_t _touched(CMove m) noexcept nogil:
    cdef uint64_t t = (1ULL << m.start) | (1ULL << m.to)
    if m.reloc != NO_SLOT:
        t |= 1ULL << m.reloc
    return t


# -- the history of the game and of the line -----------------------------------------------

cdef inline void _hview(S* s, History* h) noexcept nogil:
    h.lo = s.hlo
    h.hi = s.hhi
    h.n = s.hn


cdef inline void _push(S* s, const Board* b, int side) noexcept nogil:
    s.hlo[s.hn] = b.klo
    s.hhi[s.hn] = b.khi
    s.hn += 1
    s.keys[s.kn] = zobrist(b, side)
    s.kn += 1


cdef inline void _pop(S* s) noexcept nogil:
    s.hn -= 1
    s.kn -= 1


cdef inline int _repeated(S* s, uint64_t key) noexcept nogil:
    """Was this position (board and side) met before, in the game or on the line?"""
    cdef int i
    for i in range(s.kn - 1, -1, -1):
        if s.keys[i] == key:
            return 1
    return 0


cdef inline int _diff_slots(uint64_t alo, uint64_t ahi, uint64_t blo, uint64_t bhi) noexcept nogil:
    cdef uint64_t x = alo ^ blo, y = ahi ^ bhi
    return (_popcount((x | (x >> 1)) & 0x5555555555555555ULL)
            + _popcount((y | (y >> 1)) & 0x55ULL))


cdef inline uint64_t _relevant(S* s, const Board* b, int plies) noexcept nogil:
    """Under the Renop law, a hash of the earlier boards a subtree of ``plies`` plies
    below ``b`` could reproduce (a move changes 2 slots, 3 with a replace): the part of
    the history the subtree's legal moves depend on. 0 under ``repetition=allowed``."""
    cdef uint64_t h = 0
    cdef int i, reach
    if s.rules & R_REPEAT_OK:
        return 0
    reach = (3 if s.replace else 2) * plies
    for i in range(s.hn):
        if _diff_slots(s.hlo[i], s.hhi[i], b.klo, b.khi) <= reach:
            h += _mix(s.hlo[i] ^ (s.hhi[i] * 0x9E3779B97F4A7C15ULL) ^ 0x5bd1e995ULL)
    return h


# -- landings --------------------------------------------------------------------------------

cdef inline uint64_t _land_near(S* s, const Board* b, int side) noexcept nogil:
    """``_land`` once the core's quick test has not ruled the goal out: its exact search,
    cached by board and side."""
    cdef uint64_t hi, sup, region
    cdef LandEntry* e
    hi = b.khi | (<uint64_t>side << 63) | (1ULL << 62)
    e = &s.lc[_mix(b.klo ^ (hi * 0x9E3779B97F4A7C15ULL)) & ((1ULL << LAND_BITS) - 1)]
    if e.klo == b.klo and e.khi == hi:
        return e.sup
    sup = land_search(b, side, s.rules, NULL, &region)
    e.klo = b.klo
    e.khi = hi
    e.sup = sup
    return sup


cdef inline int _out_of_reach(S* s, const Board* b, int side, uint64_t* region) noexcept nogil:
    """The core's ``goal_out_of_reach_in``, cached by board and side (a leaf asks it of
    boards its parent asked it of)."""
    cdef uint64_t hi = b.khi | (<uint64_t>side << 63) | (1ULL << 62)
    cdef ReachEntry* e = &s.rc[_mix(b.klo ^ (hi * 0xC2B2AE3D27D4EB4FULL))
                               & ((1ULL << LAND_BITS) - 1)]
    if e.klo != b.klo or e.khi != hi:
        e.far = goal_out_of_reach_in(b, side, s.rules, &e.region)
        e.klo = b.klo
        e.khi = hi
    region[0] = e.region
    return <int>e.far


cdef inline uint64_t _land(S* s, const Board* b, int side) noexcept nogil:
    """The core's ``land_support`` (0: ``side`` cannot land on ``b``): its quick test,
    then its exact search through a cache (not under ``blocked=next-row``, where the
    answer depends on the history)."""
    cdef History h
    cdef uint64_t region
    if s.rules & R_BLOCK_NEXTROW:
        _hview(s, &h)
        return land_support(b, side, s.rules, &h)
    if _out_of_reach(s, b, side, &region):
        return 0
    return _land_near(s, b, side)


cdef inline void _witness(S* s, Witness* w, const Board* b, int side) noexcept nogil:
    """What the parent board ``b`` says of ``side``'s landings, for its children."""
    w.side = side
    w.row = shore_row(b, side)
    w.far = 0
    w.sup = 0
    if s.rules & R_BLOCK_NEXTROW:
        return
    if _out_of_reach(s, b, side, &w.region):
        w.far = 1
        return
    w.sup = land_search(b, side, s.rules, NULL, &w.region)
    if w.sup == 0:
        w.far = 1


cdef inline int _lands_after(S* s, Witness* w, const Board* child, CMove m) noexcept nogil:
    """Can ``w.side`` land on ``child``, the board after move ``m``? A goal path of the
    parent board that the move leaves alone stands; an answer "out of reach" whose slots
    the move leaves alone stands too (the shore row unchanged, both ways); otherwise the
    core is asked."""
    cdef uint64_t t
    if not (s.rules & R_BLOCK_NEXTROW) and shore_row(child, w.side) == w.row:
        t = _touched(m)
        if w.sup and not (w.sup & t):
            return 1
        if w.far and not (w.region & t):
            return 0
    return _land(s, child, w.side) != 0


# -- the table ---------------------------------------------------------------------------------

cdef inline uint64_t _tt_data(const TTEntry* e) noexcept nogil:
    """The entry's 8 bytes after its key, as one number."""
    cdef uint64_t d
    memcpy(&d, &e.score, 8)
    return d


cdef inline int _probe(S* s, uint64_t key, TTEntry* out) noexcept nogil:
    """Copy the entry of ``key`` in its bucket to ``out``; 0: none. The processes of one
    search share the table: an entry keeps its key xor its data, so one half-written by
    another process does not match (the lockless table of chess engines)."""
    cdef TTEntry* e = &s.tt[(key & s.tt_mask) * BUCKET]
    cdef int i
    for i in range(BUCKET):
        memcpy(out, &e[i], sizeof(TTEntry))
        if out.used and (out.key ^ _tt_data(out)) == key:
            return 1
    return 0


cdef inline int _to_tt(int score, int ply) noexcept nogil:
    if score > MATE_BOUND:
        return score + ply
    if score < -MATE_BOUND:
        return score - ply
    return score


cdef inline int _from_tt(int score, int ply) noexcept nogil:
    if score > MATE_BOUND:
        return score - ply
    if score < -MATE_BOUND:
        return score + ply
    return score


cdef inline void _store(S* s, uint64_t key, int depth, int score, int bound, CMove m,
                        int ply) noexcept nogil:
    """Keep an answer: over the same key, else an empty slot, else the entry of an older
    search, else the shallowest."""
    cdef TTEntry* e = &s.tt[(key & s.tt_mask) * BUCKET]
    cdef TTEntry* r = NULL
    cdef int i, worth, best = 1 << 30
    for i in range(BUCKET):
        if not e[i].used or (e[i].key ^ _tt_data(&e[i])) == key:
            r = &e[i]
            break
        worth = e[i].depth + (256 if (e[i].flag >> 2) == s.gen else 0)
        if worth < best:
            best = worth
            r = &e[i]
    if r.used and (r.key ^ _tt_data(r)) == key and r.depth > depth and bound != B_EXACT:
        return                                 # a deeper answer of the same node stays
    r.score = <int16_t>_to_tt(score, ply)
    r.depth = <uint8_t>(depth if depth < 255 else 255)
    r.flag = <uint8_t>(bound | (s.gen << 2))
    r.start = m.start
    r.to = m.to
    r.reloc = m.reloc
    r.used = 1
    r.key = key ^ _tt_data(r)


# -- stopping ------------------------------------------------------------------------------------

cdef int _signalled(S* s) noexcept with gil:
    if _check_signals() != 0:
        PyErr_Fetch(&s.exc[0], &s.exc[1], &s.exc[2])
        return 1
    return 0


cdef inline int _out(S* s) noexcept nogil:
    """Count a node; every so often look at the limits and for Ctrl-C. 1: unwind now."""
    s.nodes += 1
    if s.aborted:
        return 1
    if s.node_limit and s.nodes >= s.node_limit:
        s.aborted = 1
    elif (s.nodes & CHECK_EVERY) == 0:
        if s.stop or (s.deadline > 0 and _now() >= s.deadline) or (
                s.halt != NULL and (gy_load(s.halt) or getppid() != s.parent)):
            s.aborted = 1
        elif s.cut != NULL and gy_load(s.cut):
            s.aborted = CUT_OFF                # this move's search is not needed
        elif s.poll_signals and _signalled(s):
            s.aborted = 1
    return s.aborted


# -- the evaluation ------------------------------------------------------------------------------

cdef void _reach(S* s, const Board* b, Reach* r) noexcept nogil:
    cdef int side
    for side in range(2):
        r.far[side] = _out_of_reach(s, b, side, &r.region[side])


cdef void _features(S* s, const Board* b, int x, int threat, Reach* reach,
                    double* f) noexcept nogil:
    """The features of ``b`` with ``x`` to move (``threat``: its opponent could land;
    ``reach``: both sides' quick goal tests)."""
    cdef int y = 1 - x, rx = shore_row(b, x), ry = shore_row(b, y), i, lo, hi, r, side
    cdef uint64_t rowx, rowy, occ = b.occ
    cdef History h
    _hview(s, &h)
    memset(f, 0, NFEATURES * sizeof(double))
    f[0] = 1.0
    f[1] = 1.0 if threat else 0.0
    for i in range(2):
        side = x if i == 0 else y
        if reach.far[side]:
            f[16 + i] = _popcount(reach.region[side] & ~occ) / 8.0
        else:
            f[2 + i] = 1.0
            f[16 + i] = 36 / 8.0
        f[4 + i] = count_simple_moves(b, side, s.rules, &h) / 8.0
    f[6] = rx if x == SOUTH else 5 - rx
    f[7] = ry if y == SOUTH else 5 - ry
    rowx = (occ >> (6 * rx)) & 63
    rowy = (occ >> (6 * ry)) & 63
    for i in range(6):
        if (rowx >> i) & 1:
            f[7 + b.size[6 * rx + i]] += 1.0
        if (rowy >> i) & 1:
            f[10 + b.size[6 * ry + i]] += 1.0
    f[14] = 1.0 if rx == ry else 0.0
    lo = rx if rx < ry else ry
    hi = ry if rx < ry else rx
    for r in range(lo + 1, hi):
        f[15] += _popcount((occ >> (6 * r)) & 63) / 4.0
    f[18] = _popcount((occ >> (30 if x == SOUTH else 0)) & 63)
    f[19] = _popcount((occ >> (30 if y == SOUTH else 0)) & 63)
    f[20] = 1.0 if surely_moves(b, x, s.rules, &h) else 0.0
    f[21] = 1.0 if surely_moves(b, y, s.rules, &h) else 0.0
    f[22] = 1.0 if _popcount(rowx) == 1 else 0.0
    f[23] = 1.0 if _popcount(rowy) == 1 else 0.0
    _mobility(s, b, x, &h, &f[24])
    _mobility(s, b, y, &h, &f[25])


cdef void _mobility(S* s, const Board* b, int side, const History* h,
                    double* f) noexcept nogil:
    """The side's legal moves (``f[0]``), the rings it can land on (``f[2]``) and the
    empty slots its moves end on (``f[4]``), from the core's count of its move list."""
    cdef CMove moves[MAX_MOVES]
    cdef int n, mover
    cdef uint64_t rings = 0, ends = 0
    n = count_moves(b, side, s.rules, h, moves, &mover, &rings, &ends)
    if mover != side:
        return
    f[0] = n / 50.0
    f[2] = _popcount(rings)
    f[4] = _popcount(ends) / 4.0


cdef int _evaluate(S* s, const Board* b, int x, int threat, Reach* reach) noexcept nogil:
    cdef double f[NFEATURES]
    cdef double v = 0.0
    cdef int i
    _features(s, b, x, threat, reach, f)
    for i in range(NFEATURES):
        v += s.w[i] * f[i]
    v *= 100.0
    if v > EVAL_CAP - 1:
        return EVAL_CAP - 1
    if v < -(EVAL_CAP - 1):
        return -(EVAL_CAP - 1)
    return <int>(v + 0.5) if v >= 0 else -<int>(0.5 - v)


cdef int _parry(S* s, const Board* b, int x, uint64_t threat) noexcept nogil:
    """X (to move on ``b``) faces a landing of its opponent (``threat``: a goal path).
    1: X has a move after which the opponent cannot land; 0: none (X is lost: blocked
    and passed over, or every move leaves a landing); -1: X has no move and the game is
    drawn (``blocked=draw``, or both sides stuck)."""
    cdef int y = 1 - x, n, i, mover
    cdef CMove moves[MAX_MOVES]
    cdef Board child
    cdef History h
    cdef Witness w
    _hview(s, &h)
    w.side = y
    w.row = shore_row(b, y)
    w.sup = threat
    w.far = 0
    _push(s, b, x)
    n = simple_moves(b, x, s.rules, &h, moves, 256)
    for i in range(n):
        memcpy(&child, b, sizeof(Board))
        board_make(&child, moves[i])
        if not _lands_after(s, &w, &child, moves[i]):
            _pop(s)
            return 1
    _pop(s)
    n = gen_moves(b, x, s.rules, &h, moves, &mover)
    if n == 0:
        return -1
    if mover != x:
        return 0
    _push(s, b, x)
    for i in range(n):
        if moves[i].to >= 36:
            _pop(s)
            return 1                           # X lands itself (not asked at a leaf)
        memcpy(&child, b, sizeof(Board))
        board_make(&child, moves[i])
        if not _lands_after(s, &w, &child, moves[i]):
            _pop(s)
            return 1
    _pop(s)
    return 0


cdef uint64_t _threat(S* s, const Board* b, int y, Reach* reach) noexcept nogil:
    """Can ``y`` land on ``b`` (were it to move)? Its goal path, or 0."""
    cdef History h
    if s.rules & R_BLOCK_NEXTROW:
        _hview(s, &h)
        return land_support(b, y, s.rules, &h)
    if reach.far[y]:
        return 0
    return _land_near(s, b, y)


cdef int _leaf(S* s, const Board* b, int x, int ply) noexcept nogil:
    """The value of the horizon node ``b`` (X to move, known not to be able to land)."""
    cdef Reach reach
    cdef uint64_t threat
    cdef int r
    _reach(s, b, &reach)
    threat = _threat(s, b, 1 - x, &reach)
    if threat:
        r = _parry(s, b, x, threat)
        if r == 0:
            return -(MATE - (ply + 2))
        if r < 0:
            return 0
    return _evaluate(s, b, x, threat != 0, &reach)


# -- the search ----------------------------------------------------------------------------------

cdef enum:
    LAZY_PICKS = 3         # moves picked one by one before the rest are sorted
    # late move reductions: from this depth, after this many moves, a quiet move (no
    # threat, the side not facing one) is searched a ply shallower first (two plies
    # after LMR_MORE moves), and again at full depth only if it beats alpha
    THREAT_ORDER = 1       # from this depth, threats are tried before quiet moves
    LMR_DEPTH = 3
    LMR_AFTER = 3
    LMR_MORE = 12
    # null-move pruning: from NULL_DEPTH, off the principal variation, the side to move
    # first lets the opponent move twice (a pass) in a search NULL_R plies shallower
    # (NULL_R + 1 from NULL_DEEP); if that still fails high the node is cut. Never two
    # passes in a row, nor with a landing score at stake (a cut is a bound, never a proof)
    NULL_DEPTH = 3
    NULL_R = 2
    NULL_DEEP = 4
    # late move pruning: at depth 1 (2), off the principal variation, a quiet move (no
    # threat, the side not facing one) after LMP_MOVES (2 * LMP_MOVES) moves is not searched
    LMP_MOVES = 16
    # a side facing a threat with at most this many parries is searched a ply deeper (as a
    # check with one reply is in chess), within twice the iteration's depth from the root
    REPLY_EXT = 1
    # late move reductions at the root: from this depth, a quiet root move (no threat)
    # after ROOT_LMR_AFTER moves in the last depth's order is searched a ply shallower
    # first, and at full depth only if it beats alpha
    ROOT_LMR_DEPTH = 5
    ROOT_LMR_AFTER = 8


cdef inline int _next(int* idx, int32_t* key, int j, int n) noexcept nogil:
    """The ``j``-th move in order (asked for j = 0, 1, 2, ...), highest key first: the
    first few are picked one by one (most nodes stop after one or two moves), and a node
    that gets that far sorts the rest at once (ties keep the generator's order)."""
    cdef int best = j, k, t, gap
    if j < LAZY_PICKS:
        for k in range(j + 1, n):
            if key[idx[k]] > key[idx[best]]:
                best = k
        t = idx[best]
        idx[best] = idx[j]
        idx[j] = t
        return t
    if j == LAZY_PICKS:
        # insertion sort by gaps, stable per gap class; descending keys
        gap = 1
        while gap < (n - j) // 3:
            gap = gap * 3 + 1
        while gap > 0:
            for k in range(j + gap, n):
                t = idx[k]
                best = k
                while best - gap >= j and (key[idx[best - gap]] < key[t]
                                           or (key[idx[best - gap]] == key[t]
                                               and idx[best - gap] > t)):
                    idx[best] = idx[best - gap]
                    best -= gap
                idx[best] = t
            gap //= 3
    return idx[j]


cdef inline void _pv_set(S* s, int ply, CMove m) noexcept nogil:
    cdef int n = s.pvlen[ply + 1] if ply + 1 < MAX_PLY else 0
    s.pv[ply][0] = m
    if n > MAX_PLY - ply - 1:
        n = MAX_PLY - ply - 1
    if n > 0:
        memcpy(&s.pv[ply][1], &s.pv[ply + 1][0], n * sizeof(CMove))
    s.pvlen[ply] = n + 1


cdef inline int _find(const CMove* moves, int n, CMove m) noexcept nogil:
    cdef int i
    if m.start == NO_SLOT:
        return -1
    for i in range(n):
        if _same(moves[i], m):
            return i
    return -1


cdef int _child(S* s, const Board* b, int side, CMove m, int depth, int alpha, int beta,
                int ply, int first, int pv_node) noexcept nogil:
    """The value of move ``m`` (its child searched with the opponent to move, known not
    to be able to land): the first move with the full window, the others with a null
    window first (principal variation search)."""
    cdef Board child
    cdef int score
    memcpy(&child, b, sizeof(Board))
    board_make(&child, m)
    if first:
        return -_search(s, &child, 1 - side, depth - 1, -beta, -alpha, ply + 1, pv_node, 1)
    score = -_search(s, &child, 1 - side, depth - 1, -alpha - 1, -alpha, ply + 1, 0, 1)
    if score > alpha and score < beta and not s.aborted:
        score = -_search(s, &child, 1 - side, depth - 1, -beta, -alpha, ply + 1, 1, 1)
    return score


cdef inline void _good(S* s, CMove m, int ply, int depth) noexcept nogil:
    """A move that cut: a killer of its ply, and credit in the history table."""
    cdef int k
    if not _same(m, s.killer[ply][0]):
        s.killer[ply][1] = s.killer[ply][0]
        s.killer[ply][0] = m
    s.hist[_mi(m)] += depth * depth
    if s.hist[_mi(m)] > (1 << 26):
        for k in range(HIST_SIZE):
            s.hist[k] >>= 1


cdef int _order_rest(S* s, const Board* b, int side, int depth, CMove* moves, int n,
                     const int* early, int32_t* order, int* idx, Witness* w,
                     int lazy) noexcept nogil:
    """The moves not tried early, compacted at the front of ``moves``: those after which
    the opponent lands dropped (lost), each keyed by the history table, threats (moves
    after which the side could land) first. Returns how many. ``lazy``: the lost moves
    are kept, for the caller to drop as it comes to them (where late moves may be pruned,
    most are never looked at)."""
    cdef int i, k, live = 0
    cdef CMove m
    cdef Board child
    for i in range(n):
        if i == early[0] or i == early[1] or i == early[2]:
            continue
        m = moves[i]
        memcpy(&child, b, sizeof(Board))
        board_make(&child, m)
        if not lazy and _lands_after(s, w, &child, m):
            continue
        moves[live] = m
        k = s.hist[_mi(m)]
        if depth >= THREAT_ORDER and _land(s, &child, side):
            k += 1 << 27                       # a threat: the opponent must answer it
        order[live] = k
        idx[live] = live
        live += 1
    return live


cdef int _parries(S* s, const Board* b, const CMove* moves, int n, Witness* w) noexcept nogil:
    """How many of the ``n`` moves leave ``w.side`` (the opponent) unable to land, counted
    up to REPLY_EXT + 1."""
    cdef int i, k = 0
    cdef Board child
    for i in range(n):
        memcpy(&child, b, sizeof(Board))
        board_make(&child, moves[i])
        if not _lands_after(s, w, &child, moves[i]):
            k += 1
            if k > REPLY_EXT:
                break
    return k


cdef int _search(S* s, const Board* b, int side, int depth, int alpha, int beta, int ply,
                 int pv_node, int no_land) noexcept nogil:
    """Negamax with principal variation search. ``no_land``: the side to move is known
    not to be able to land (its parent looked).

    The moves are tried in stages: the table's move and the killers first, each checked
    on its own (a cut there spares the rest of the node's work); then every other move,
    those after which the opponent lands dropped (lost), threats (moves after which the
    side could land) first, the rest by the history table."""
    cdef int opp = 1 - side, n, i, j, mover, score, best, bound, nlive, tried, cut, lazy = 0
    cdef uint64_t key
    cdef TTEntry e
    cdef CMove tt_move, m
    cdef CMove moves[MAX_MOVES]
    cdef int32_t order[MAX_MOVES]
    cdef int idx[MAX_MOVES]
    cdef int early[3]
    cdef Board child
    cdef History h
    cdef Witness w
    s.pvlen[ply] = 0
    if _out(s):
        return 0
    if ply > s.seldepth:
        s.seldepth = ply
    # no side lands before ply + 1, or loses before ply + 2
    if alpha < -(MATE - (ply + 2)):
        alpha = -(MATE - (ply + 2))
    if beta > MATE - (ply + 1):
        beta = MATE - (ply + 1)
    if alpha >= beta:
        return alpha
    if not no_land and _land(s, b, side):
        return MATE - (ply + 1)
    if depth <= 0 or ply >= MAX_PLY - 2:
        return _leaf(s, b, side, ply)
    if s.repeat_draw and _repeated(s, zobrist(b, side)):
        return 0
    key = zobrist(b, side) ^ _relevant(s, b, depth + 2)
    tt_move.start = NO_SLOT
    tt_move.to = NO_SLOT
    tt_move.reloc = NO_SLOT
    if _probe(s, key, &e):
        tt_move.start = e.start
        tt_move.to = e.to
        tt_move.reloc = e.reloc
        if e.depth >= depth and not pv_node:
            score = _from_tt(e.score, ply)
            bound = e.flag & 3
            if (bound == B_EXACT or (bound == B_LOWER and score >= beta)
                    or (bound == B_UPPER and score <= alpha)):
                return score
    if (not pv_node and depth >= NULL_DEPTH and not s.nulled[ply - 1 if ply > 0 else 0]
            and -MATE_BOUND < beta < MATE_BOUND):
        _push(s, b, side)
        s.nulled[ply] = 1
        score = -_search(s, b, opp, depth - 1 - NULL_R - (depth >= NULL_DEEP), -beta, -beta + 1,
                         ply + 1, 0, 0)
        s.nulled[ply] = 0
        _pop(s)
        if s.aborted:
            return 0
        if score >= beta:
            return beta
    _hview(s, &h)
    n = gen_moves(b, side, s.rules, &h, moves, &mover)
    if n == 0:
        return 0                               # nobody can move: a draw
    if mover != side:
        # blocked and passed over: the opponent moves again (a ply of this side)
        return -_search(s, b, opp, depth, -beta, -alpha, ply + 1, pv_node, 0)
    for i in range(n):
        if moves[i].to >= 36:                  # a landing (not seen by the parent's look)
            return MATE - (ply + 1)
    _push(s, b, side)
    _witness(s, &w, b, opp)
    if w.sup and ply < 2 * s.root_depth and _parries(s, b, moves, n, &w) <= REPLY_EXT:
        depth += 1
    best = -MATE
    bound = B_UPPER
    tried = 0
    # the table's move and the killers first, each checked on its own; then the others
    early[0] = _find(moves, n, tt_move)
    early[1] = _find(moves, n, s.killer[ply][0])
    early[2] = _find(moves, n, s.killer[ply][1])
    if early[1] == early[0]:
        early[1] = -1
    if early[2] == early[0] or early[2] == early[1]:
        early[2] = -1
    j = 0                                      # moves taken: the 3 early places, then the rest
    nlive = -1                                 # how many others, once ordered
    while True:
        cut = 0
        if j < 3:
            i = early[j]
            j += 1
            if i < 0:
                continue
            m = moves[i]
            memcpy(&child, b, sizeof(Board))
            board_make(&child, m)
            if _lands_after(s, &w, &child, m):
                continue                       # lost: the opponent lands
        else:
            if nlive < 0:
                lazy = depth <= 2 and not pv_node and not w.sup
                nlive = _order_rest(s, b, side, depth, moves, n, early, order, idx, &w, lazy)
            if j - 3 >= nlive:
                break
            i = _next(idx, order, j - 3, nlive)
            j += 1
            m = moves[i]
            if (depth <= 2 and tried >= LMP_MOVES * depth and not pv_node and not w.sup
                    and order[i] < (1 << 27) and best > -MATE_BOUND):
                continue                       # a late quiet move near the horizon
            if lazy:
                memcpy(&child, b, sizeof(Board))
                board_make(&child, m)
                if _lands_after(s, &w, &child, m):
                    continue                   # lost: the opponent lands
            if (depth >= LMR_DEPTH and tried >= LMR_AFTER and not w.sup
                    and order[i] < (1 << 27)):
                cut = 1 if tried < LMR_MORE else 2
                if depth - 1 - cut < 1:
                    cut = depth - 2
        if cut > 0:
            # a late quiet move: searched shallower first, fully only if it beats alpha
            memcpy(&child, b, sizeof(Board))
            board_make(&child, m)
            score = -_search(s, &child, opp, depth - 1 - cut, -alpha - 1, -alpha, ply + 1, 0, 1)
            if score > alpha and not s.aborted:
                score = _child(s, b, side, m, depth, alpha, beta, ply, 0, pv_node)
        else:
            score = _child(s, b, side, m, depth, alpha, beta, ply, tried == 0, pv_node)
        tried += 1
        if s.aborted:
            _pop(s)
            return 0
        if score > best:
            best = score
            tt_move = m
            if score > alpha:
                alpha = score
                bound = B_EXACT
                _pv_set(s, ply, m)
                if score >= beta:
                    bound = B_LOWER
                    _good(s, m, ply, depth)
                    break
    _pop(s)
    if tried == 0:
        s.pvlen[ply] = 0
        return -(MATE - (ply + 2))             # every move lets the opponent land
    _store(s, key, depth, best, bound, tt_move, ply)
    return best


# -- the root ----------------------------------------------------------------------------------

cdef int _raise_pending() except -1:
    """Raise the exception that PyErr_Restore has just set (the error indicator)."""
    return -1


cdef object _triple(CMove m):
    return (m.start, m.to, None if m.reloc == NO_SLOT else m.reloc)


cdef void _sort_root(CMove* moves, int* score, uint8_t* lost, int n) noexcept:
    """Root moves by score, best first (stable: ties keep their order)."""
    cdef int i, j, ts
    cdef uint8_t tl
    cdef CMove tm
    for i in range(1, n):
        tm = moves[i]
        ts = score[i]
        tl = lost[i]
        j = i - 1
        while j >= 0 and score[j] < ts:
            moves[j + 1] = moves[j]
            score[j + 1] = score[j]
            lost[j + 1] = lost[j]
            j -= 1
        moves[j + 1] = tm
        score[j + 1] = ts
        lost[j + 1] = tl


cdef int _root_move(S* s, const Board* child, int side, int depth, int i, int* alpha,
                    int beta, int* shared) noexcept nogil:
    """The score of the root's ``i``-th move (not the first; ``child`` the board after
    it): a null window at ``alpha`` (a ply shallower first for a late quiet move, from
    ROOT_LMR_DEPTH), and the full window when it beats alpha. ``shared``: the alpha the
    processes of a search share (others may raise it): read again before the full window,
    and ``alpha`` set to it."""
    cdef int opp = 1 - side, a = alpha[0], score = alpha[0] + 1
    if depth >= ROOT_LMR_DEPTH and i >= ROOT_LMR_AFTER and not _land(s, child, side):
        score = -_search(s, child, opp, depth - 2, -a - 1, -a, 1, 0, 1)
    if score > a and not s.aborted:
        score = -_search(s, child, opp, depth - 1, -a - 1, -a, 1, 0, 1)
    if score > a and score < beta and not s.aborted:
        if shared != NULL:
            a = gy_load(shared)                # (it may have risen meanwhile)
            alpha[0] = a
        if score > a:
            score = -_search(s, child, opp, depth - 1, -beta, -a, 1, 1, 1)
    return score


cdef (int, int) _root(S* s, const Board* b, int side, int depth, int alpha, int beta,
                      CMove* moves, int* scores, uint8_t* lost, int n, Shared* sh,
                      int helpers) noexcept nogil:
    """One depth of the root: every move in the order of the last depth, the first with a
    full window, the others as :func:`_root_move` searches them. A move after which the
    opponent lands at once is not searched. Returns the best score and the index of its
    move (-1: none searched, every move loses at once); each move's score (its value, or
    a bound below the best) orders the next depth. With ``helpers`` (processes sharing
    ``sh``), from SPLIT_DEPTH the moves are shared out among them (:func:`_share`)."""
    cdef int i, score, best = -MATE, best_i = -1, opp = 1 - side
    cdef Board child
    s.pvlen[0] = 0
    if helpers > 0 and depth >= SPLIT_DEPTH:
        return _share(s, sh, helpers, b, side, depth, alpha, beta, moves, scores, lost, n)
    _push(s, b, side)
    for i in range(n):
        if lost[i]:
            continue
        memcpy(&child, b, sizeof(Board))
        board_make(&child, moves[i])
        if best_i < 0:
            score = -_search(s, &child, opp, depth - 1, -beta, -alpha, 1, 1, 1)
        else:
            score = _root_move(s, &child, side, depth, i, &alpha, beta, NULL)
        if s.aborted:
            break
        scores[i] = score
        if best_i < 0 or score > best:
            best = score
            best_i = i
            if score > alpha:
                alpha = score
                _pv_set(s, 0, moves[i])
                if score >= beta:
                    break
    _pop(s)
    if best_i >= 0 and s.pvlen[0] == 0:
        s.pv[0][0] = moves[best_i]
        s.pvlen[0] = 1
    return best, best_i


cdef (int, int) _share(S* s, Shared* sh, int helpers, const Board* b, int side, int depth,
                       int alpha, int beta, CMove* moves, int* scores, uint8_t* lost,
                       int n) noexcept nogil:
    """One depth of the root as :func:`_root` searches it, shared out: this process
    searches the first move with the full window while its helpers take the others from
    a common counter, with a null window at the window's alpha until the first move's
    score raises it; then this process takes moves too. A move that beats alpha is
    searched again with the full window; the best, its line and alpha are shared."""
    cdef int k, job, first = 0, spins = 0, score, gone = 0
    cdef Board child
    while first < n and lost[first]:
        first += 1
    if first == n:
        return -MATE, -1
    sh.n = n
    memcpy(sh.moves, moves, n * sizeof(CMove))
    memcpy(sh.lost, lost, n * sizeof(uint8_t))
    memcpy(sh.scores, scores, n * sizeof(int))
    sh.best = -MATE
    sh.best_i = -1
    sh.alpha = alpha
    sh.beta = beta
    sh.depth = depth
    sh.pvlen = 0
    sh.cut = 0
    gy_store(&sh.next, first + 1)
    for k in range(helpers):
        if sh.dead[k]:
            gone |= 1 << k                     # (killed from outside: not waited for)
    job = gy_fetch_add(&sh.job, 1) + 1          # the helpers take part from here
    _push(s, b, side)
    s.cut = &sh.cut
    memcpy(&child, b, sizeof(Board))
    board_make(&child, moves[first])
    score = -_search(s, &child, 1 - side, depth - 1, -beta, -alpha, 1, 1, 1)
    if not s.aborted:
        _shared_result(s, sh, first, score, alpha)
    _pop(s)
    s.cut = NULL
    if s.aborted == CUT_OFF:
        s.aborted = 0
    if not s.aborted:
        _split(s, sh, b, side)
    if s.aborted:
        gy_store(&sh.halt, 1)
    for k in range(helpers):
        if (gone >> k) & 1:
            continue
        while gy_load(&sh.done[k]) != job and not _gone(sh, k):
            gy_pause()
            spins += 1
            if (spins & 4095) == 0 and not s.aborted and (
                    s.stop or (s.deadline > 0 and _now() >= s.deadline)
                    or (s.poll_signals and _signalled(s))):
                s.aborted = 1                  # (the helpers stop at their next look)
                gy_store(&sh.halt, 1)
        if sh.cut_short[k] or sh.dead[k]:
            s.aborted = 1                      # the iteration is not complete
    memcpy(scores, sh.scores, n * sizeof(int))
    if sh.pvlen == 0 and sh.best_i >= 0:
        sh.pv[0] = moves[sh.best_i]
        sh.pvlen = 1
    memcpy(s.pv[0], sh.pv, sh.pvlen * sizeof(CMove))
    s.pvlen[0] = sh.pvlen
    return sh.best, sh.best_i


cdef int _gone(Shared* sh, int k) noexcept nogil:
    """Has helper ``k`` died (killed from outside)? Looked at now and then."""
    cdef int status
    if sh.dead[k]:
        return 1
    sh.spins[k] += 1
    if (sh.spins[k] & 65535) == 0 and waitpid(sh.pid[k], &status, WNOHANG) == sh.pid[k]:
        sh.dead[k] = 1
    return sh.dead[k]


cdef void _shared_result(S* s, Shared* sh, int i, int score, int a) noexcept nogil:
    """Record root move ``i``'s score, searched with ``a`` as alpha (its line in
    ``s.pv[1]`` when it beat ``a``): the best, alpha and the line are shared."""
    cdef int n
    sh.scores[i] = score
    gy_lock(&sh.lock)
    if score > sh.best:
        sh.best = score
        sh.best_i = i
        if score > sh.alpha:
            sh.alpha = score
            sh.pv[0] = sh.moves[i]
            n = s.pvlen[1] if score > a else 0
            if n > MAX_PLY - 1:
                n = MAX_PLY - 1
            memcpy(&sh.pv[1], s.pv[1], n * sizeof(CMove))
            sh.pvlen = n + 1
            if score >= sh.beta:
                sh.cut = 1
    gy_unlock(&sh.lock)


cdef void _split(S* s, Shared* sh, const Board* b, int side) noexcept nogil:
    """Take the root's moves one by one from the shared counter until none is left (or a
    move fails high): each searched as :func:`_root_move` does, at the shared alpha."""
    cdef int i, a, score, depth = sh.depth, beta = sh.beta
    cdef Board child
    _push(s, b, side)
    s.cut = &sh.cut
    while not s.aborted and not gy_load(&sh.cut):
        i = gy_fetch_add(&sh.next, 1)
        if i >= sh.n:
            break
        if sh.lost[i]:
            continue
        a = gy_load(&sh.alpha)
        memcpy(&child, b, sizeof(Board))
        board_make(&child, sh.moves[i])
        score = _root_move(s, &child, side, depth, i, &a, beta, &sh.alpha)
        if s.aborted:
            break
        _shared_result(s, sh, i, score, a)
    _pop(s)
    s.cut = NULL
    if s.aborted == CUT_OFF:
        s.aborted = 0


cdef void _helper(S* s, Shared* sh, int k, int fd) noexcept nogil:
    """A helper process's life: wait on the pipe for a search, take part in its root
    iterations until it ends, and again; return when the pipe closes or says quit."""
    cdef char c
    cdef int job, state, clears = 0, spins = 0
    cdef Board b
    s.halt = &sh.halt
    s.poll_signals = 0
    while True:
        if read(fd, &c, 1) != 1 or c == b'q':
            return
        if sh.clears != clears:
            clears = sh.clears
            _forget(s)
        memcpy(&b, &sh.board, sizeof(Board))
        memcpy(s.hlo, sh.hlo, sh.hn * sizeof(uint64_t))
        memcpy(s.hhi, sh.hhi, sh.hn * sizeof(uint64_t))
        memcpy(s.keys, sh.keys, sh.hn * sizeof(uint64_t))
        s.hn = sh.hn
        s.kn = sh.hn
        s.gen = sh.gen
        s.deadline = sh.deadline
        s.nodes = 0
        s.node_limit = 0
        s.stop = 0
        s.seldepth = 0
        memset(s.killer, 0, sizeof(s.killer))
        memset(s.nulled, 0, sizeof(s.nulled))
        job = 0
        while True:
            state = gy_load(&sh.state)
            if state == 0:
                break
            if gy_load(&sh.job) == job:
                gy_pause()
                spins += 1
                if (spins & 65535) == 0 and getppid() != s.parent:
                    return                     # the parent has ended mid-search
                continue
            job += 1
            s.root_depth = sh.depth
            s.aborted = 0
            _split(s, sh, &b, sh.side)
            sh.cut_short[k] = s.aborted
            sh.nodes[k] = s.nodes
            gy_store(&sh.done[k], job)
        gy_store(&sh.running[k], 0)


cdef void _forget(S* s) noexcept nogil:
    """Forget what earlier searches learnt, but the shared table (killers, history,
    landing caches)."""
    memset(s.lc, 0, (1ULL << LAND_BITS) * sizeof(LandEntry))
    memset(s.rc, 0, (1ULL << LAND_BITS) * sizeof(ReachEntry))
    memset(s.hist, 0, HIST_SIZE * sizeof(int32_t))
    memset(s.killer, 0, sizeof(s.killer))


cdef class Search:
    """One engine's search state for one rule set: its transposition table (kept from one
    search to the next: a game's later moves reuse what the earlier ones found), killers,
    history and evaluation weights.

    ``go(board, side, history, depth, nodes, seconds, excluded, info)`` searches ``board``
    (36 bytes, ``side`` to move, ``history`` the earlier boards of the game, oldest first)
    by iterative deepening until ``depth`` plies are done, ``nodes`` nodes are spent or
    ``seconds`` have passed (0: no such limit), leaving out the root moves ``excluded``
    (``(start, to, reloc)`` triples). ``info(depth, score, pv, nodes, seldepth)`` is called
    after each completed depth. Returns ``(score, pv, depth, nodes, interrupted)``: the
    principal variation ``pv`` as triples, best move first; ``score`` None when the side
    to move is blocked (its opponent moves) or every move is excluded, 0 with an empty
    ``pv`` when nobody can move (a draw); ``interrupted`` the exception a signal's handler
    raised (Ctrl-C), the search having returned its best so far.

    ``cores``: how many processes search (1: this one alone, and the search is
    deterministic at fixed depth or nodes). With more, helper processes forked here share
    the table and take the root's moves after the first from a common counter, from
    depth SPLIT_DEPTH on; they wait between searches and end with this object (or when
    this process ends).
    """
    cdef S s
    cdef int tt_bits
    cdef CMove root_moves[MAX_MOVES]
    cdef int root_score[MAX_MOVES]
    cdef uint8_t root_lost[MAX_MOVES]
    cdef int helpers                   # helper processes (cores - 1)
    cdef Shared* sh                    # shared with them (NULL without)
    cdef void* mapping                 # the shared table and ``sh``
    cdef size_t mapping_size
    cdef int fds[MAX_PROCS]            # the write ends of their pipes
    cdef int owner                     # the process that forked them

    def __cinit__(self, int rules, weights, int tt_bits=20, int cores=1):
        cdef int fd[2]
        cdef int k, j, pid, parent
        if not 10 <= tt_bits <= 28:
            raise ValueError("tt_bits must be 10..28")
        if not 1 <= cores <= MAX_PROCS:
            raise ValueError(f"cores must be 1..{MAX_PROCS}")
        if len(weights) != NFEATURES:
            raise ValueError(f"the evaluation takes {NFEATURES} weights, not {len(weights)}")
        memset(&self.s, 0, sizeof(S))
        self.tt_bits = tt_bits
        self.s.rules = rules
        self.s.repeat_draw = 1 if rules & R_REPEAT_OK else 0
        self.s.replace = 1 if rules & (R_REPLACE_SHORE | R_REPLACE_ANY) else 0
        if cores > 1:
            self.mapping_size = (1ULL << tt_bits) * sizeof(TTEntry) + sizeof(Shared)
            self.mapping = mmap(NULL, self.mapping_size, PROT_READ | PROT_WRITE,
                                MAP_SHARED | MAP_ANONYMOUS, -1, 0)
            if self.mapping == MAP_FAILED:
                self.mapping = NULL
                raise MemoryError("no memory for the engine's shared table")
            self.s.tt = <TTEntry*>self.mapping
            self.sh = <Shared*>(<char*>self.mapping + (1ULL << tt_bits) * sizeof(TTEntry))
        else:
            self.s.tt = <TTEntry*>calloc(1ULL << tt_bits, sizeof(TTEntry))
        self.s.tt_mask = (1ULL << (tt_bits - 2)) - 1
        self.s.lc = <LandEntry*>calloc(1ULL << LAND_BITS, sizeof(LandEntry))
        self.s.rc = <ReachEntry*>calloc(1ULL << LAND_BITS, sizeof(ReachEntry))
        self.s.hlo = <uint64_t*>calloc(MAX_HIST, sizeof(uint64_t))
        self.s.hhi = <uint64_t*>calloc(MAX_HIST, sizeof(uint64_t))
        self.s.keys = <uint64_t*>calloc(MAX_HIST, sizeof(uint64_t))
        self.s.hist = <int32_t*>calloc(HIST_SIZE, sizeof(int32_t))
        if (self.s.tt == NULL or self.s.lc == NULL or self.s.rc == NULL or self.s.hlo == NULL
                or self.s.hhi == NULL or self.s.keys == NULL or self.s.hist == NULL):
            raise MemoryError("no memory for the engine's tables")
        for i, v in enumerate(weights):
            self.s.w[i] = float(v)
        for k in range(cores - 1):
            if pipe(fd) != 0:
                raise OSError("no pipe for a helper process")
            parent = getpid()
            self.owner = parent
            pid = fork()
            if pid < 0:
                close(fd[0])
                close(fd[1])
                raise OSError("could not start a helper process")
            if pid == 0:
                # the helper: no Python from here on; it ends when its pipe closes
                c_signal(SIGINT, SIG_IGN)
                close(fd[1])
                for j in range(k):
                    close(self.fds[j])
                self.s.parent = parent
                _helper(&self.s, self.sh, k, fd[0])
                _exit(0)
            close(fd[0])
            self.sh.pid[k] = pid
            self.fds[k] = fd[1]
            self.helpers = k + 1

    def close(self):
        """End the helper processes: later searches use this process alone."""
        cdef int k, status
        cdef int mine = getpid() == self.owner
        for k in range(self.helpers):
            if mine and not self.sh.dead[k]:   # (a copy in a forked process leaves them be)
                write(self.fds[k], b"q", 1)
            close(self.fds[k])
            if mine and not self.sh.dead[k]:
                waitpid(self.sh.pid[k], &status, 0)
        self.helpers = 0

    def __dealloc__(self):
        self.close()
        if self.mapping != NULL:
            munmap(self.mapping, self.mapping_size)
        else:
            free(self.s.tt)
        free(self.s.lc)
        free(self.s.rc)
        free(self.s.hlo)
        free(self.s.hhi)
        free(self.s.keys)
        free(self.s.hist)

    def stop(self):
        """Ask a running search (from another thread) to return its best so far; a
        search started later stops at once, until :meth:`resume`."""
        self.s.stop = 1
        if self.sh != NULL:
            gy_store(&self.sh.halt, 1)

    def resume(self):
        """Let searches run again after :meth:`stop`."""
        self.s.stop = 0

    def clear(self):
        """Forget what earlier searches learnt (table, killers, history)."""
        memset(self.s.tt, 0, (1ULL << self.tt_bits) * sizeof(TTEntry))
        _forget(&self.s)
        if self.sh != NULL:
            self.sh.clears += 1

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
            self.s.hlo[i] = t.klo
            self.s.hhi[i] = t.khi
            self.s.keys[i] = zobrist(&t, turn)
            turn = 1 - turn
            i += 1
        self.s.hn = i
        self.s.kn = i
        return 0

    def go(self, bytes board, int side, history=(), int depth=0, unsigned long long nodes=0,
           double seconds=0.0, excluded=(), info=None):
        cdef Board b, child
        cdef History h
        cdef int n, mover, i, j, d, best = 0, best_i = -1, alpha, beta, delta, done = 0
        cdef int max_depth = depth if depth > 0 else MAX_PLY - 4
        cdef int last_score = 0
        cdef CMove m
        cdef Witness w
        cdef double start = _now()
        self._load(board, side, history, &b)
        self.s.nodes = 0
        self.s.node_limit = nodes
        self.s.deadline = start + seconds if seconds > 0 else 0.0
        self.s.aborted = 0
        self.s.gen = <uint8_t>((self.s.gen + 1) & 63)
        self.s.seldepth = 0
        self.s.poll_signals = threading.current_thread() is threading.main_thread()
        memset(self.s.killer, 0, sizeof(self.s.killer))
        memset(self.s.nulled, 0, sizeof(self.s.nulled))
        _hview(&self.s, &h)
        n = gen_moves(&b, side, self.s.rules, &h, self.root_moves, &mover)
        if n == 0:
            return 0, [], 0, 0, None                 # nobody can move: drawn
        if mover != side:
            return None, [], 0, 0, None              # blocked: the opponent moves
        skip = {tuple(x) for x in excluded}
        j = 0
        for i in range(n):
            m = self.root_moves[i]
            if _triple(m) in skip:
                continue
            if m.to >= 36:
                return MATE - 1, [_triple(m)], 1, 1, None
            self.root_moves[j] = m
            j += 1
        n = j
        if n == 0:
            return None, [], 0, 0, None
        _push(&self.s, &b, side)
        _witness(&self.s, &w, &b, 1 - side)
        for i in range(n):
            memcpy(&child, &b, sizeof(Board))
            board_make(&child, self.root_moves[i])
            self.root_lost[i] = _lands_after(&self.s, &w, &child, self.root_moves[i])
            self.root_score[i] = -(MATE - 2) if self.root_lost[i] else 0
        _pop(&self.s)
        _sort_root(self.root_moves, self.root_score, self.root_lost, n)
        best_pv = [_triple(self.root_moves[0])]
        best_score = self.root_score[0]
        if self.root_lost[0]:
            return best_score, best_pv, 1, 1, None     # every move lets the opponent land
        self._wake(&b, side)
        try:
            for d in range(1, max_depth + 1):
                if self.s.stop:
                    break
                delta = 40
                alpha = -MATE
                beta = MATE
                if d >= 3 and -MATE_BOUND < last_score < MATE_BOUND:
                    alpha = last_score - delta
                    beta = last_score + delta
                self.s.root_depth = d
                risen = None
                while True:
                    with nogil:
                        best, best_i = _root(&self.s, &b, side, d, alpha, beta, self.root_moves,
                                             self.root_score, self.root_lost, n, self.sh,
                                             self.helpers)
                    if self.s.aborted:
                        break
                    if best > last_score and d > 1 and self.s.pvlen[0] > 0:
                        # a move beat the last depth's best (a fail high, or within the window)
                        risen = [_triple(self.s.pv[0][i]) for i in range(self.s.pvlen[0])], best
                    if best <= alpha and alpha > -MATE:
                        alpha = -MATE if delta > 400 else best - delta
                        delta *= 4
                    elif best >= beta and beta < MATE:
                        beta = MATE if delta > 400 else best + delta
                        delta *= 4
                    else:
                        break
                if self.s.aborted:
                    # a move that beat the last depth's best is kept: found in the search cut
                    # short, or in an earlier pass of this depth that failed high
                    if best_i > 0 and best > last_score and self.s.pvlen[0] > 0 \
                            and _same(self.s.pv[0][0], self.root_moves[best_i]):
                        best_pv = [_triple(self.s.pv[0][i]) for i in range(self.s.pvlen[0])]
                        best_score = best
                    elif risen is not None:
                        best_pv, best_score = risen
                    break
                _sort_root(self.root_moves, self.root_score, self.root_lost, n)
                best_pv = [_triple(self.s.pv[0][i]) for i in range(self.s.pvlen[0])]
                best_score = best
                last_score = best
                done = d
                if info is not None:
                    info(d, best, best_pv, self._nodes(), self.s.seldepth)
                if best > MATE_BOUND and MATE - best <= d:
                    break                                # a win no deeper search shortens
                if best < -MATE_BOUND and MATE + best <= d:
                    break
        finally:
            self._idle()
        exc = None
        if self.s.exc[0] != NULL:
            PyErr_Restore(self.s.exc[0], self.s.exc[1], self.s.exc[2])
            self.s.exc[0] = self.s.exc[1] = self.s.exc[2] = NULL
            try:
                _raise_pending()
            except BaseException as e:
                exc = e
        return best_score, best_pv, done, self._nodes(), exc

    cdef void _wake(self, const Board* b, int side):
        """Set up the search for the helpers and wake them."""
        cdef Shared* sh = self.sh
        cdef int k
        if self.helpers and getpid() != self.owner:
            self.close()                       # a copy in a forked process: alone
        if self.helpers == 0:
            return
        memcpy(&sh.board, b, sizeof(Board))
        sh.side = side
        sh.deadline = self.s.deadline
        sh.gen = self.s.gen
        sh.hn = self.s.hn
        memcpy(sh.hlo, self.s.hlo, self.s.hn * sizeof(uint64_t))
        memcpy(sh.hhi, self.s.hhi, self.s.hn * sizeof(uint64_t))
        memcpy(sh.keys, self.s.keys, self.s.hn * sizeof(uint64_t))
        sh.halt = self.s.stop
        sh.job = 0
        for k in range(self.helpers):
            sh.done[k] = 0
            sh.cut_short[k] = 0
            sh.nodes[k] = 0
            sh.running[k] = 0 if sh.dead[k] else 1
        gy_store(&sh.state, 1)
        for k in range(self.helpers):
            if not sh.dead[k]:
                write(self.fds[k], b"g", 1)

    cdef void _idle(self):
        """End the helpers' part in the search; they wait for the next."""
        cdef int k
        if self.helpers == 0:
            return
        gy_store(&self.sh.state, 0)
        with nogil:
            for k in range(self.helpers):
                while gy_load(&self.sh.running[k]) and not _gone(self.sh, k):
                    gy_pause()

    cdef unsigned long long _nodes(self):
        """The nodes of this search, its helpers' included."""
        cdef unsigned long long total = self.s.nodes
        cdef int k
        for k in range(self.helpers):
            total += self.sh.nodes[k]
        return total

    def evaluate(self, bytes board, int side, history=()):
        """``(score, features)``: ``board`` with ``side`` to move as the search's horizon
        sees it. ``score``: a landing now (``MATE - 1``), a threat with no parry (a loss,
        ``-(MATE - 2)``; 0 when the side is stuck and the game drawn), else the
        evaluation; ``features``: what the evaluation reads (None when a landing
        decides)."""
        cdef Board b
        cdef double f[NFEATURES]
        cdef uint64_t threat
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
        _features(&self.s, &b, side, threat != 0, &reach, f)
        return (_evaluate(&self.s, &b, side, threat != 0, &reach),
                tuple([f[i] for i in range(NFEATURES)]))

    @property
    def nodes(self):
        return self.s.nodes
