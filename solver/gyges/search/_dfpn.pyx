# cython: language_level=3, boundscheck=False, wraparound=False, cdivision=True, initializedcheck=False
"""A second, independent forced-win prover: depth-first proof-number search (df-pn).

It answers the kernel's question (``_search.pyx``, ``Searcher.win``): with ``side`` to move,
can the winner W land within ``d`` of its own moves, whatever the loser L does?

Written twice on purpose: the tests compare the two provers on thousands of questions, so
this file keeps its own copy of the search rules the kernel also has, where a rule shared
by both would agree with itself when wrong: the table's entries and probe (here with
working numbers and tainted results), the plain search of pass nodes (``_pw``, ``_pl``,
``_pl_body``, ``_ppassed``: the kernel's ``_win_w``, ``_win_l``, ``_l_body``,
``_w_passed``), the simple defences tried first (``_quiet``: the kernel's
``_quiet_defence``). It shares with the kernel only the core's C API (``_movegen.pxd``)
and ``_shared.pxd``, which decides nothing: the limits, the line's boards, the node count
and Ctrl-C, hashing and the relevant history, the landing cache and witnesses.

Nodes: OR (W to move, ``d`` moves left; children are L to move with ``d - 1``) and AND (L
to move; children are W to move with ``d``). Every node has a proof number pn and a
disproof number dn (Allis); df-pn (Nagai) expands the most-proving node depth first, under
thresholds, and keeps pn/dn in a transposition table keyed like the kernel's: (board, side
to move, winner, hash of the relevant history). An entry also keeps the least d proven to
win and the greatest d proven not to (monotone in d, as in the kernel). Thresholds of the
child use the 1 + epsilon trick (Pawlewicz & Lew).

Leaves, exact: W lands now (OR); L lands now, or nobody can move (AND); W with one move
left only needs ``land_support``; an L node with one W move left is decided by a plain
one-ply search. Initial numbers (docs/solver.md): an L node's pn 2 where W threatens a
landing, else 20; a W node's pn 1; dn ``w_dn ** (d - 1)``, a W node's times 20 where L
threatens no landing (L's threatening replies are expanded first).

Passes (``blocked=pass``). L blocked: W moves again (that move counts): the AND node's only
child is the OR node on the same board. W blocked: L moves again and W's d is unchanged, so
a line can be as long as L keeps W blocked. Such a node (a "pass node") is not searched by
df-pn: it is decided by a plain exact search written from the same rules as the kernel's
(a board coming back within one run of W's passes under ``repetition=allowed``: L holds;
more than MAX_PASSES passes in one line: unknown, counted as "no win" and reported by
``truncated``). Under ``repetition=forbidden`` a pass node's answer may depend on earlier
boards beyond the relevant history (its line is not bounded by d): such a result is
*tainted*, carries the hash of the whole history and is only reused with that history;
whatever is proven from it is tainted too.
"""
from libc.stdint cimport uint8_t, uint32_t, uint64_t
from libc.string cimport memset, memcpy
from libc.stdlib cimport calloc, malloc, free

from gyges.game._movegen cimport (
    Board, CMove, History, board_load, board_make, gen_moves, goal_out_of_reach_in,
    simple_moves, shore_row, NO_SLOT, MAX_MOVES, R_BLOCK_NEXTROW, R_REPEAT_OK,
)

from gyges.search._shared cimport (
    LC_BITS, MAX_HIST, MAX_PASSES, UNKNOWN, LandEntry, Line, Watch, Witnesses, board_hash,
    board_in, land_cached, lands_after, line_alloc, line_free, line_load, line_pop, line_push,
    line_view, mix, relevant_history, table_alloc, touched, watch_node, watch_raise,
    win_stopped, witness_far, witness_init, witness_keep, witness_lands,
)

cdef enum:
    QUICK_MOVES = 8       # simple moves of L a quick refutation looks at
    STATS = 6             # the diagnostic counters (``stats``)
    # entry flags
    T_WIN = 1             # win_at is tainted (valid only with the entry's full history)
    T_NOWIN = 2           # nowin is tainted
    U_NOWIN = 4           # nowin rests on a line given up (unknown, counted as no win)
    # flags of a solved child, as seen by its parent
    F_TAINT = 1
    F_UNK = 2

cdef extern from *:
    void __builtin_prefetch(const void*) nogil

cdef extern from *:
    """
    #define DFPN_INF (1ULL << 62)
    #define DFPN_CAP 0xFFFFFFFFULL
    """
    const unsigned long long INF "DFPN_INF"   # pn/dn of a solved node; others stay below
    const unsigned long long CAP "DFPN_CAP"   # the table keeps working numbers up to this

ctypedef unsigned long long num

ctypedef struct Entry:       # 48 bytes: a bucket of four is three cache lines
    uint64_t klo
    uint64_t rh
    uint64_t fh            # full-history hash of the tainted results
    uint32_t pn            # working numbers at depth dw
    uint32_t dn
    uint32_t work          # nodes spent below (replacement)
    uint8_t khi            # the key's high part: slots 32-35, two bits each
    uint8_t tag            # 0 empty, else 1 + side * 2 + winner
    uint8_t dw
    uint8_t win_at         # least d proven to win (255: none)
    uint8_t nowin          # greatest d proven not to win (0: none)
    uint8_t flags

ctypedef struct S:
    int rules
    int winner
    Entry* tt
    uint64_t mask
    LandEntry* lc
    Line line                  # the boards before the node
    Watch watch                # the node count and Ctrl-C
    unsigned long long hits
    unsigned long long taint   # passes seen by the plain search (a subtree with one is tainted)
    int passes
    int chain
    int quiet_pn               # initial pn of an L node where W threatens no landing
    int threat_pn              # ... where W threatens one, if not counted (hold_cap 0)
    int hold_cap               # count L's defences of a threat up to this many (0: no)
    int w_dn                   # initial dn of a W node
    int quiet_dn               # ... times this where L threatens no landing
    int eps16                  # epsilon of the 1 + epsilon trick, in 16ths
    uint64_t* xlo              # the boards a root with exclusions leaves out of its children
    uint64_t* xhi
    int xn
    unsigned long long stat[STATS]  # diagnostics: mid, leaf, holding, land_support, gen, plain

ctypedef struct Child:
    Board b
    uint64_t rh
    uint64_t fh
    num phi
    num delta
    int flags
    int push               # 0: the same board, history not extended (L blocked)
    int ready              # decided before its look (_quick_refutation)


cdef inline uint64_t _relevant(S* s, const Board* b, int plies) noexcept nogil:
    """Hash of the earlier boards a subtree of ``plies`` plies could reproduce
    (``_shared.relevant_history``)."""
    return relevant_history(s.rules, &s.line, b, plies)


cdef inline int _plies(S* s, int side, int d) noexcept nogil:
    return 2 * d - 1 if side == s.winner else 2 * d

# -- the table ------------------------------------------------------------------------------


cdef inline int _match(S* s, Entry* e, const Board* b, int side, uint64_t rh) noexcept nogil:
    return (e.tag == 1 + side * 2 + s.winner and e.klo == b.klo and e.khi == b.khi
            and e.rh == rh)


cdef inline uint64_t _bucket(S* s, const Board* b, int side, uint64_t rh) noexcept nogil:
    """Where the node's bucket of four entries starts in the table: a hash of the board's
    key (cheaper than its Zobrist hash, which walks the rings), the side, the winner and
    the relevant history."""
    return mix(b.klo ^ mix(b.khi + (<uint64_t>(side * 2 + s.winner) << 8) + rh)) \
        & s.mask & ~3ULL


cdef inline void _prefetch(S* s, uint64_t h) noexcept nogil:
    """Start loading a bucket (four entries: up to five cache lines) into the cache, so
    that a later probe of it does not wait for memory."""
    cdef const char* p = <const char*>&s.tt[h]
    cdef const char* end = <const char*>&s.tt[h + 4]
    while p < end:
        __builtin_prefetch(p)
        p += 64
    __builtin_prefetch(end - 1)


cdef Entry* _probe(S* s, const Board* b, int side, uint64_t rh) noexcept nogil:
    """The node's entry in its bucket of four, or the one to replace (least work)."""
    cdef uint64_t h = _bucket(s, b, side, rh)
    cdef Entry* best = &s.tt[h]
    cdef Entry* e
    cdef int i
    for i in range(4):
        e = &s.tt[h + i]
        if _match(s, e, b, side, rh):
            return e
        if e.tag == 0:
            if best.tag != 0:
                best = e
        elif best.tag != 0 and e.work < best.work:
            best = e
    return best


cdef inline void _claim(S* s, Entry* e, const Board* b, int side, uint64_t rh) noexcept nogil:
    if not _match(s, e, b, side, rh):
        e.klo = b.klo
        e.khi = <uint8_t>b.khi
        e.rh = rh
        e.tag = <uint8_t>(1 + side * 2 + s.winner)
        e.win_at = 255
        e.nowin = 0
        e.flags = 0
        e.work = 0
        e.dw = 255
        e.pn = 1
        e.dn = 1


cdef int _known(S* s, Entry* e, const Board* b, int side, uint64_t rh, int d, uint64_t fh,
                num* pn, num* dn, int* flags) noexcept nogil:
    """What the table says of this node at depth ``d``: 1 with pn/dn (solved or working
    numbers at this d), else 0."""
    if not _match(s, e, b, side, rh):
        return 0
    if e.win_at <= d and (not (e.flags & T_WIN) or e.fh == fh):
        pn[0] = 0
        dn[0] = INF
        flags[0] = F_TAINT if e.flags & T_WIN else 0
        s.hits += 1
        return 1
    if e.nowin >= d and (not (e.flags & T_NOWIN) or e.fh == fh):
        pn[0] = INF
        dn[0] = 0
        flags[0] = ((F_TAINT if e.flags & T_NOWIN else 0)
                    | (F_UNK if e.flags & U_NOWIN else 0))
        s.hits += 1
        return 1
    if e.dw == d:
        pn[0] = e.pn
        dn[0] = e.dn
        flags[0] = 0
        return 1
    return 0


cdef void _store_solved(S* s, Entry* e, const Board* b, int side, uint64_t rh, int d,
                        int won, int flags, uint64_t fh) noexcept nogil:
    if s.watch.aborted:
        return
    _claim(s, e, b, side, rh)
    if flags & F_TAINT:
        # one full history per entry: a tainted result of another history goes
        if (e.flags & T_WIN) and e.fh != fh:
            e.win_at = 255
            e.flags &= ~T_WIN
        if (e.flags & T_NOWIN) and e.fh != fh:
            e.nowin = 0
            e.flags &= ~(T_NOWIN | U_NOWIN)
        e.fh = fh
    if won:
        if d < e.win_at or ((e.flags & T_WIN) and not (flags & F_TAINT) and d <= e.win_at):
            e.win_at = <uint8_t>d
            e.flags = (e.flags & ~T_WIN) | (T_WIN if flags & F_TAINT else 0)
    else:
        if d > e.nowin or (d == e.nowin and (e.flags & (T_NOWIN | U_NOWIN))):
            e.nowin = <uint8_t>d
            e.flags = ((e.flags & ~(T_NOWIN | U_NOWIN)) | (T_NOWIN if flags & F_TAINT else 0)
                       | (U_NOWIN if flags & F_UNK else 0))


cdef inline void _store_work(S* s, Entry* e, const Board* b, int side, uint64_t rh, int d,
                             num pn, num dn, unsigned long long work) noexcept nogil:
    if s.watch.aborted:
        return
    _claim(s, e, b, side, rh)
    e.dw = <uint8_t>d
    e.pn = <uint32_t>(pn if pn < CAP else CAP)
    e.dn = <uint32_t>(dn if dn < CAP else CAP)
    work += e.work
    e.work = <uint32_t>(work if work < 0xFFFFFFFFULL else 0xFFFFFFFFULL)

# -- landings and move lists against the line's boards --------------------------------------


cdef inline uint64_t _land(S* s, const Board* b, int side) noexcept nogil:
    """``land_support`` against the line's boards, through the cache (``_shared``)."""
    cdef History h
    line_view(&s.line, &h)
    return land_cached(s.lc, s.rules, b, side, &h, &s.stat[3])


cdef inline int _lands_after(S* s, Witnesses* w, const Board* child, CMove m) noexcept nogil:
    """Can ``w.side`` land on ``child``, the board after ``m``? From a kept goal path that
    ``m`` leaves alone, else asked (and the path found kept): ``_shared.lands_after``."""
    cdef History h
    line_view(&s.line, &h)
    return lands_after(s.lc, s.rules, w, child, m, &h, &s.stat[3])


cdef inline int _stopped(S* s, const Board* b, int side) noexcept nogil:
    """``_shared.win_stopped`` against the line's boards."""
    cdef History h
    line_view(&s.line, &h)
    return win_stopped(s.rules, b, side, &h)


cdef inline int _gen(S* s, const Board* b, int side, CMove* moves, int* mover) noexcept nogil:
    cdef History h
    line_view(&s.line, &h)
    s.stat[4] += 1
    return gen_moves(b, side, s.rules, &h, moves, mover)


# -- the plain search (pass nodes, and L nodes with one W move left) ------------------------
# Three-valued like the kernel: 1 win, 0 no win, UNKNOWN (a line given up). Results of
# subtrees without a pass are exact for their key and stored; others are not.




cdef int _pl_body(S* s, const Board* b, CMove* moves, int n, int d) noexcept nogil:
    """L (not blocked) chooses among ``moves``; W keeps ``d`` moves."""
    cdef int i, r, unknown = 0
    cdef Board child
    cdef Witnesses w
    for i in range(n):
        if moves[i].to >= 36:
            return 0
    if s.line.n + 1 >= MAX_HIST:
        return UNKNOWN
    witness_init(&w, s.winner)
    line_push(&s.line, b)
    for i in range(n):
        memcpy(&child, b, sizeof(Board))
        board_make(&child, moves[i])
        if _lands_after(s, &w, &child, moves[i]):
            continue
        if d == 1 and _stopped(s, &child, s.winner):
            r = 0
        else:
            r = _pw(s, &child, d, 1)
        if r == 0:
            line_pop(&s.line)
            return 0
        if r == UNKNOWN:
            unknown = 1
    line_pop(&s.line)
    return UNKNOWN if unknown else 1


cdef int _ppassed(S* s, const Board* b, CMove* moves, int n, int d) noexcept nogil:
    """W blocked: L moves again, W keeps ``d``. A board back within one run of passes under
    repetition=allowed: L holds; more than MAX_PASSES passes in the line: unknown."""
    cdef int r, i, started = 0
    s.taint += 1
    if s.chain < 0:
        s.chain = s.line.n
        started = 1
    elif s.rules & R_REPEAT_OK:
        for i in range(s.chain, s.line.n):
            if s.line.lo[i] == b.klo and s.line.hi[i] == b.khi:
                return 0
    if s.passes >= MAX_PASSES:
        if started:
            s.chain = -1
        return UNKNOWN
    s.passes += 1
    r = _pl_body(s, b, moves, n, d)
    s.passes -= 1
    if started:
        s.chain = -1
    return r


cdef int _pknown(S* s, Entry* e, const Board* b, int side, uint64_t rh, int d) noexcept nogil:
    """An untainted, exact result of the table, or -1."""
    if _match(s, e, b, side, rh):
        if e.win_at <= d and not (e.flags & T_WIN):
            s.hits += 1
            return 1
        if e.nowin >= d and not (e.flags & (T_NOWIN | U_NOWIN)):
            s.hits += 1
            return 0
    return -1


cdef int _pw(S* s, const Board* b, int d, int w_cannot_land) noexcept nogil:
    cdef int W = s.winner, mover, n, i, r, chain, unknown = 0
    cdef uint64_t rh
    cdef unsigned long long taint0
    cdef Entry* e
    cdef Board child
    cdef Witnesses w
    cdef CMove moves[MAX_MOVES]
    if watch_node(&s.watch) or d <= 0:
        return 0
    s.stat[5] += 1
    if not w_cannot_land and _land(s, b, W):
        return 1
    if d == 1:
        if _stopped(s, b, W):
            return 0
        n = _gen(s, b, W, moves, &mover)
        if n == 0 or mover == W:
            return 0
        return _ppassed(s, b, moves, n, d)
    rh = _relevant(s, b, 2 * d - 1)
    e = _probe(s, b, W, rh)
    r = _pknown(s, e, b, W, rh, d)
    if r >= 0:
        return r
    taint0 = s.taint
    n = _gen(s, b, W, moves, &mover)
    if n == 0:
        r = 0
    elif mover != W:
        r = _ppassed(s, b, moves, n, d)
    else:
        chain = s.chain
        s.chain = -1
        r = 0
        for i in range(n):
            if moves[i].to >= 36:
                r = 1
                break
        if r == 0 and s.line.n + 1 >= MAX_HIST:
            r = UNKNOWN
        elif r == 0:
            witness_init(&w, 1 - W)
            line_push(&s.line, b)
            for i in range(n):
                memcpy(&child, b, sizeof(Board))
                board_make(&child, moves[i])
                if _lands_after(s, &w, &child, moves[i]):
                    continue
                r = _pl(s, &child, d - 1)
                if r == 1:
                    break
                if r == UNKNOWN:
                    unknown = 1
                r = 0
            line_pop(&s.line)
            if r == 0 and unknown:
                r = UNKNOWN
        s.chain = chain
    if s.taint == taint0 and not s.watch.aborted and r != UNKNOWN:
        _store_solved(s, e, b, W, rh, d, r, 0, 0)
    return r


cdef int _quiet(S* s, const Board* b) noexcept nogil:
    """L to move, W one move left: does a simple move of L (no bounce search needed) stop
    W's landing, W then surely able to move (or blocking not a pass)? Then W does not win
    here, whether L could land or not."""
    cdef int n, i
    cdef Board child
    cdef CMove simple[256]
    cdef History h
    cdef Witnesses w
    line_view(&s.line, &h)
    n = simple_moves(b, 1 - s.winner, s.rules, &h, simple, 256)
    if n == 0:
        return 0
    witness_init(&w, s.winner)
    line_push(&s.line, b)
    for i in range(n):
        memcpy(&child, b, sizeof(Board))
        board_make(&child, simple[i])
        if _lands_after(s, &w, &child, simple[i]):
            continue
        if _stopped(s, &child, s.winner):
            line_pop(&s.line)
            return 1
    line_pop(&s.line)
    return 0


cdef int _quick_refutation(S* s, const Board* b) noexcept nogil:
    """L to move on ``b``, W one move left, the line down to ``b``'s parent: does one of
    L's first simple moves surely stop W? Yes when the goal is out of W's reach on ``b``
    even with the taboo set aside, the move leaves the slots that answer rests on alone
    and W's shore where it was (W then still cannot land), and W surely can move (or
    blocking is no pass). A cheap first look before the leaf's table and plain search:
    no landing search after the move, no list of every simple move."""
    cdef int W = s.winner, n, i, row
    cdef uint64_t region
    cdef Board child
    cdef CMove simple[QUICK_MOVES]
    cdef History h
    if s.rules & R_BLOCK_NEXTROW or not goal_out_of_reach_in(b, W, s.rules, &region):
        return 0
    row = shore_row(b, W)
    line_view(&s.line, &h)
    n = simple_moves(b, 1 - W, s.rules, &h, simple, QUICK_MOVES)
    if n == 0:
        return 0
    line_push(&s.line, b)
    for i in range(n):
        if touched(simple[i]) & region:
            continue
        memcpy(&child, b, sizeof(Board))
        board_make(&child, simple[i])
        if shore_row(&child, W) == row and _stopped(s, &child, W):
            line_pop(&s.line)
            return 1
    line_pop(&s.line)
    return 0


cdef int _pl(S* s, const Board* b, int d) noexcept nogil:
    cdef int W = s.winner, L = 1 - s.winner, mover, n, r
    cdef uint64_t rh
    cdef unsigned long long taint0
    cdef Entry* e
    cdef CMove moves[MAX_MOVES]
    if watch_node(&s.watch) or d <= 0:
        return 0
    s.stat[5] += 1
    rh = _relevant(s, b, 2 * d)
    e = _probe(s, b, L, rh)
    r = _pknown(s, e, b, L, rh, d)
    if r >= 0:
        return r
    taint0 = s.taint
    if d == 1 and _quiet(s, b):
        r = 0
    elif _land(s, b, L):
        r = 0
    else:
        n = _gen(s, b, L, moves, &mover)
        if n == 0:
            r = 0
        elif mover == W:
            r = _pw(s, b, d, 0)
        else:
            r = _pl_body(s, b, moves, n, d)
    if s.taint == taint0 and not s.watch.aborted and r != UNKNOWN:
        _store_solved(s, e, b, L, rh, d, r, 0, 0)
    return r


cdef inline void _plain_leaf(S* s, int r, unsigned long long taint0, num* pn,
                             num* dn, int* flags) noexcept nogil:
    """A plain search's answer as a df-pn leaf (pn/dn and flags)."""
    flags[0] = 0
    if s.taint != taint0 and not (s.rules & R_REPEAT_OK):
        flags[0] |= F_TAINT
    if r == 1:
        pn[0] = 0
        dn[0] = INF
    else:
        pn[0] = INF
        dn[0] = 0
        if r == UNKNOWN:
            flags[0] |= F_UNK

# -- df-pn ----------------------------------------------------------------------------------


cdef int _holding(S* s, const Board* b) noexcept nogil:
    """L to move on ``b`` (L cannot land, W has moves left): how many of L's moves stop W's
    immediate landing (at most s.hold_cap); -1 when L has no move at all (a draw: W does not
    win), s.hold_cap when L is blocked (W moves again)."""
    cdef int n, i, mover, count = 0
    cdef Board child
    cdef Witnesses w
    cdef CMove moves[MAX_MOVES]
    n = _gen(s, b, 1 - s.winner, moves, &mover)
    if n == 0:
        return -1
    if mover == s.winner:
        return s.hold_cap
    witness_init(&w, s.winner)
    witness_keep(&w, _land(s, b, s.winner), 0, shore_row(b, s.winner))
    line_push(&s.line, b)
    for i in range(n):
        if moves[i].to >= 36:
            count = s.hold_cap
            break
        memcpy(&child, b, sizeof(Board))
        board_make(&child, moves[i])
        if not _lands_after(s, &w, &child, moves[i]):
            count += 1
            if count >= s.hold_cap:
                break
    line_pop(&s.line)
    return count


cdef inline int _lands(S* s, Child* c, int side, Witnesses* w, const CMove* m) noexcept nogil:
    if w == NULL:
        return _land(s, &c.b, side) != 0
    return _lands_after(s, w, &c.b, m[0])


cdef inline num _dn0(S* s, int d) noexcept nogil:
    """Initial dn of a node with W's ``d`` moves left: w_dn ** (d - 1). Disproving a W
    node means refuting each of W's moves, so dn grows about that fast with d once
    expanded; a leaf that starts at 1 would look far cheaper than its expanded siblings,
    and df-pn would expand every defence of L before going deeper into one."""
    cdef num r = 1
    cdef int i
    for i in range(d - 1):
        r *= s.w_dn
        if r > (1ULL << 40):
            return 1ULL << 40
    return r


cdef void _leaf(S* s, Child* c, int side, int d, Witnesses* w, const CMove* m) noexcept nogil:
    """First look at a child (``c.b``, ``side`` to move, depth ``d``, ``c.rh`` its relevant
    history; the history is the line down to its parent): the table, exact leaves, or
    initial numbers (stored)."""
    cdef num pn, dn
    cdef int flags = 0, hold, r, mover, n
    cdef unsigned long long taint0
    cdef Entry* e
    cdef CMove* moves
    s.stat[1] += 1
    watch_node(&s.watch)                               # a leaf counts as a node (and looks for Ctrl-C)
    e = _probe(s, &c.b, side, c.rh)
    if _known(s, e, &c.b, side, c.rh, d, c.fh, &pn, &dn, &flags):
        pass
    elif d <= 0:
        pn = INF
        dn = 0
    elif side == s.winner:
        if _lands(s, c, side, w, m):
            pn = 0
            dn = INF
        elif d == 1:
            taint0 = s.taint
            r = _pw(s, &c.b, 1, 1)
            _plain_leaf(s, r, taint0, &pn, &dn, &flags)
            e = _probe(s, &c.b, side, c.rh)
            _store_solved(s, e, &c.b, side, c.rh, d, pn == 0, flags, c.fh)
        else:
            pn = 1
            dn = _dn0(s, d)
            if not _land(s, &c.b, 1 - side):
                dn *= s.quiet_dn           # no threat of L: W has every move to try
    else:
        if _lands(s, c, side, w, m):
            pn = INF
            dn = 0
        elif d == 1:
            taint0 = s.taint
            r = _pl(s, &c.b, 1)
            _plain_leaf(s, r, taint0, &pn, &dn, &flags)
            e = _probe(s, &c.b, side, c.rh)
            _store_solved(s, e, &c.b, side, c.rh, d, pn == 0, flags, c.fh)
        elif not _land(s, &c.b, s.winner):
            pn = s.quiet_pn                # no threat: W could not land even if L passed
            dn = _dn0(s, d)
            _store_work(s, e, &c.b, side, c.rh, d, pn, dn, 0)
        elif s.hold_cap == 0:
            pn = s.threat_pn
            dn = _dn0(s, d)
            _store_work(s, e, &c.b, side, c.rh, d, pn, dn, 0)
        else:
            s.stat[2] += 1
            hold = _holding(s, &c.b)
            if hold < 0:
                pn = INF
                dn = 0
                _store_solved(s, e, &c.b, side, c.rh, d, 0, 0, c.fh)
            elif hold == 0:
                pn = 0
                dn = INF
                _store_solved(s, e, &c.b, side, c.rh, d, 1, 0, c.fh)
            else:
                pn = hold
                dn = _dn0(s, d)
                _store_work(s, e, &c.b, side, c.rh, d, pn, dn, 0)
    c.flags = flags
    if side == s.winner:
        c.phi = pn
        c.delta = dn
    else:
        c.phi = dn
        c.delta = pn


cdef inline void _make_child(S* s, Child* c, const Board* b, CMove m, int cside,
                             int cd) noexcept nogil:
    """The child's board (``b`` after ``m``) and its relevant history (the line down to
    ``b`` pushed)."""
    memcpy(&c.b, b, sizeof(Board))
    board_make(&c.b, m)
    c.rh = _relevant(s, &c.b, _plies(s, cside, cd))


cdef inline num _add(num a, num b) noexcept nogil:
    """a + b for unsolved sums: at most INF - 1 (both below INF)."""
    a += b
    return a if a < INF - 1 else INF - 1


ctypedef struct Expansion:   # a node _mid is searching, and its children
    const Board* b
    int side                   # to move
    int d                      # W's moves left
    uint64_t rh                # relevant history (the table's key)
    uint64_t fh                # full-history hash (tainted results)
    int excl                   # a root with exclusions (s.xlo/s.xhi): not read nor stored
    CMove* moves
    Child* ch
    int n                      # children
    int looked                 # the first ``looked`` children have been looked at
    int lazy                   # L's replies: their boards are made when looked at
    int pushed                 # the node's board is on the line (its children's history)
    int cside                  # the children's side to move, and their W moves left
    int cd
    num pdelta                 # a reply not looked at yet counts as (phi 1, delta pdelta)
    Witnesses wit              # goal paths of the children's mover on sibling boards


cdef inline void _unknown(num* ophi, num* odelta) noexcept nogil:
    """The answer of a search cut short (a signal, no memory): numbers of an open node."""
    ophi[0] = 1
    odelta[0] = 1


cdef inline void _answer_solved(S* s, int side, int solved, int flags, num* ophi,
                                num* odelta, int* oflags) noexcept nogil:
    """A solved node's numbers from its mover's side (``solved``: 1 W wins, 0 not)."""
    oflags[0] = flags
    if solved == (side == s.winner):
        ophi[0] = 0
        odelta[0] = INF
    else:
        ophi[0] = INF
        odelta[0] = 0


cdef inline int _solved_meanwhile(S* s, Expansion* x, num* ophi, num* odelta,
                                  int* oflags) noexcept nogil:
    """Is the node solved in the table already (a transposition: the parent's numbers
    were stale)? Then its numbers and flags are the answer: 1."""
    cdef num pn, dn
    cdef int flags
    cdef Entry* e = _probe(s, x.b, x.side, x.rh)
    if not _known(s, e, x.b, x.side, x.rh, x.d, x.fh, &pn, &dn, &flags) or (
            pn != 0 and dn != 0):
        return 0
    oflags[0] = flags
    if x.side == s.winner:
        ophi[0] = pn
        odelta[0] = dn
    else:
        ophi[0] = dn
        odelta[0] = pn
    return 1


cdef inline int _decided_at_once(S* s, Expansion* x, int mover, int* flags) noexcept nogil:
    """Is the node decided without looking at its children? Nobody can move (a draw),
    W is blocked (a pass node: the plain search decides it), or the mover lands. 1: W
    wins, 0: W does not, -1: open. ``flags``: those of the plain search's answer."""
    cdef int i, r
    cdef num pn, dn
    cdef unsigned long long taint0
    flags[0] = 0
    if x.n == 0:
        return 0                           # nobody can move: drawn
    if x.side == s.winner and mover != s.winner:
        taint0 = s.taint
        s.chain = -1
        s.passes = 0
        r = _ppassed(s, x.b, x.moves, x.n, x.d)
        _plain_leaf(s, r, taint0, &pn, &dn, flags)
        return 1 if pn == 0 else 0
    for i in range(x.n):
        if x.moves[i].to >= 36:
            return 1 if mover == s.winner else 0
    return -1


cdef inline int _make_children(S* s, Expansion* x, int mover) noexcept nogil:
    """The node's children: with L blocked, the W node on the same board (W moves again),
    looked at at once; else one per move (boards made now, except L's replies: when
    looked at), each W move with one W move left after it refuted at once where a kept
    goal path or a quick refutation shows L holds, the others' table buckets prefetched.
    0: no memory."""
    cdef int W = s.winner, L = 1 - s.winner, i, r
    cdef uint64_t cfh
    cdef History hist
    x.lazy = x.side == L and not x.excl
    if x.side == L and mover == W:
        x.n = 1                            # L blocked: W moves on the same board
    x.ch = <Child*>malloc(x.n * sizeof(Child))
    if x.ch == NULL:
        return 0
    x.cside = 1 - x.side
    x.cd = x.d - 1 if x.side == W else x.d
    x.looked = x.n
    x.pushed = not (x.side == L and mover == W)
    if not x.pushed:
        memcpy(&x.ch[0].b, x.b, sizeof(Board))
        x.ch[0].push = 0
        x.ch[0].fh = x.fh
        x.ch[0].ready = 0
        x.cside = W
        x.ch[0].rh = _relevant(s, x.b, _plies(s, x.cside, x.cd))
        _leaf(s, &x.ch[0], x.cside, x.cd, NULL, NULL)
        return 1
    cfh = x.fh + board_hash(x.b.klo, x.b.khi)
    line_push(&s.line, x.b)
    witness_init(&x.wit, x.cside)
    line_view(&s.line, &hist)
    witness_far(&x.wit, s.rules, x.b, &hist)
    r = 0
    for i in range(x.n):
        x.ch[r].push = 1
        x.ch[r].fh = cfh
        x.ch[r].ready = 0
        if x.lazy:
            r += 1                         # L's replies: made when looked at
            continue
        memcpy(&x.ch[r].b, x.b, sizeof(Board))
        board_make(&x.ch[r].b, x.moves[i])
        if x.excl and board_in(s.xlo, s.xhi, s.xn, &x.ch[r].b):
            continue
        x.moves[r] = x.moves[i]
        if x.cside == L and x.cd == 1 and (witness_lands(&x.wit, &x.ch[r].b, x.moves[r])
                                           or _quick_refutation(s, &x.ch[r].b)):
            watch_node(&s.watch)           # a leaf, decided: W's move refuted
            x.ch[r].ready = 1
            x.ch[r].flags = 0
            x.ch[r].phi = 0
            x.ch[r].delta = INF
        else:
            x.ch[r].rh = _relevant(s, &x.ch[r].b, _plies(s, x.cside, x.cd))
            _prefetch(s, _bucket(s, &x.ch[r].b, x.cside, x.ch[r].rh))
        r += 1
    x.n = r
    x.looked = r
    return 1


cdef inline void _look(S* s, Expansion* x, int i) noexcept nogil:
    """The first look at child ``i`` (made now if it is one of L's replies)."""
    if x.lazy:
        _make_child(s, &x.ch[i], x.b, x.moves[i], x.cside, x.cd)
    if not x.ch[i].ready:
        _leaf(s, &x.ch[i], x.cside, x.cd, &x.wit, &x.moves[i])


cdef inline void _first_looks(S* s, Expansion* x) noexcept nogil:
    """Look at the children in order up to the first that solves the node, or (L to
    move) the first reply of L that concedes no landing at once: df-pn expands it first
    (the others' numbers would tie with it at best); the rest are looked at when they are
    chosen, in order, with the numbers of such a reply meanwhile (phi 1, delta pdelta)."""
    cdef int i
    if not x.pushed:
        return                             # L blocked: its one child was looked at
    for i in range(x.n):
        _look(s, x, i)
        if s.watch.aborted or x.ch[i].delta == 0 and x.ch[i].flags == 0:
            x.n = x.looked = i + 1         # solved by this child: no more to look at
            return
        if x.side == 1 - s.winner and x.ch[i].phi != 0:
            x.looked = i + 1
            return


cdef inline int _choose(Expansion* x, num* phi, num* delta, num* d2) noexcept nogil:
    """The node's numbers from its children's, and the child to expand (returned): phi,
    the least child's delta (0: a child lost by its mover, so the mover of this node
    wins; a solved child without flags is preferred); delta, the sum of the children's
    phi (0: every child won by its mover, so the mover of this node loses); ``d2`` the
    second least delta."""
    cdef int i, best = 0
    cdef unsigned long long sum = 0
    phi[0] = INF
    d2[0] = INF
    for i in range(x.looked):
        if x.ch[i].delta < phi[0] or (x.ch[i].delta == 0 and phi[0] == 0
                                      and x.ch[best].flags and not x.ch[i].flags):
            if phi[0] < d2[0]:
                d2[0] = phi[0]
            phi[0] = x.ch[i].delta
            best = i
        elif x.ch[i].delta < d2[0]:
            d2[0] = x.ch[i].delta
        sum = _add(sum, x.ch[i].phi)
    for i in range(x.looked, min(x.n, x.looked + 2)):
        # the first two not looked at stand for them all (the rest tie with them)
        if x.pdelta < phi[0]:
            if phi[0] < d2[0]:
                d2[0] = phi[0]
            phi[0] = x.pdelta
            best = i
        elif x.pdelta < d2[0]:
            d2[0] = x.pdelta
    sum = _add(sum, x.n - x.looked)
    delta[0] = INF if phi[0] == 0 else sum
    return best


cdef inline void _child_thresholds(S* s, Expansion* x, int best, num thphi, num thdelta,
                                   num delta, num d2, num* cth_phi,
                                   num* cth_delta) noexcept nogil:
    """The thresholds of the child to expand: this node's delta up to its threshold, and
    the second best child's number times 1 + epsilon (Pawlewicz & Lew)."""
    cth_phi[0] = thdelta - delta + x.ch[best].phi
    if cth_phi[0] > INF - 1:
        cth_phi[0] = INF - 1
    cth_delta[0] = d2 + 1
    if d2 < INF - 1 and d2 + d2 * s.eps16 // 16 > cth_delta[0]:
        cth_delta[0] = d2 + d2 * s.eps16 // 16
    if cth_delta[0] > thphi:
        cth_delta[0] = thphi


cdef inline int _outcome(S* s, Expansion* x, num phi, num delta, int best,
                         int* flags) noexcept nogil:
    """Is the node solved by its children's numbers? 1: W wins, 0: W does not, -1: open;
    ``flags``: those of the children the answer rests on (a win by W rests on none of its
    unknown lines)."""
    cdef int i, solved = -1
    flags[0] = 0
    if phi == 0:
        flags[0] = x.ch[best].flags
        solved = 1 if x.side == s.winner else 0
    elif delta == 0:
        for i in range(x.looked):
            flags[0] |= x.ch[i].flags
        solved = 0 if x.side == s.winner else 1
        if solved:
            flags[0] &= ~F_UNK
    return solved


cdef void _mid(S* s, const Board* b, int side, int d, uint64_t rh, uint64_t fh,
               num thphi, num thdelta, num* ophi, num* odelta,
               int* oflags, int excl) noexcept nogil:
    """Search the node (``b``, ``side`` to move, ``d``) while its phi stays below
    ``thphi`` and its delta below ``thdelta`` (phi/delta: pn/dn at an OR node, dn/pn at
    an AND node), or to its solution. Its numbers (and flags when solved) are returned
    and stored.

    With ``excl`` (a root only), the children whose boards are in ``s.xlo``/``s.xhi`` are
    left out: another question than the node's, so the table is neither read nor written
    for the node itself (its children's entries are theirs)."""
    cdef Expansion x
    cdef Entry* e
    cdef int mover, best, solved, flags
    cdef unsigned long long nodes0 = s.watch.nodes
    cdef num phi, delta, d2, cth_phi, cth_delta, pn, dn
    oflags[0] = 0
    s.stat[0] += 1
    if watch_node(&s.watch):
        _unknown(ophi, odelta)
        return
    x.b = b
    x.side = side
    x.d = d
    x.rh = rh
    x.fh = fh
    x.excl = excl
    x.moves = <CMove*>malloc(MAX_MOVES * sizeof(CMove))
    if x.moves == NULL:
        s.watch.aborted = 1
        _unknown(ophi, odelta)
        return
    if not excl and _solved_meanwhile(s, &x, ophi, odelta, oflags):
        free(x.moves)
        return
    x.n = _gen(s, b, side, x.moves, &mover)
    solved = _decided_at_once(s, &x, mover, &flags)
    if solved >= 0:
        free(x.moves)
        if not excl:
            _store_solved(s, _probe(s, b, side, rh), b, side, rh, d, solved, flags, fh)
        _answer_solved(s, side, solved, flags, ophi, odelta, oflags)
        return
    if not _make_children(s, &x, mover):
        free(x.moves)
        s.watch.aborted = 1
        _unknown(ophi, odelta)
        return
    _first_looks(s, &x)
    x.pdelta = _dn0(s, x.cd)
    while True:
        best = _choose(&x, &phi, &delta, &d2)
        if phi == 0 or delta == 0 or phi >= thphi or delta >= thdelta or s.watch.aborted:
            break
        _child_thresholds(s, &x, best, thphi, thdelta, delta, d2, &cth_phi, &cth_delta)
        if best >= x.looked:
            x.looked += 1                  # the next reply of L, looked at now
            _look(s, &x, best)
            continue
        pn = x.ch[best].phi
        dn = x.ch[best].delta
        _mid(s, &x.ch[best].b, x.cside, x.cd, x.ch[best].rh, x.ch[best].fh, cth_phi,
             cth_delta, &x.ch[best].phi, &x.ch[best].delta, &x.ch[best].flags, 0)
        if x.ch[best].phi == pn and x.ch[best].delta == dn:
            break                          # no progress (numbers at their ceiling): give up
    free(x.moves)
    if x.pushed:
        line_pop(&s.line)
    solved = _outcome(s, &x, phi, delta, best, &flags)
    free(x.ch)
    if s.watch.aborted:
        _unknown(ophi, odelta)
        return
    if excl:
        oflags[0] = flags if solved >= 0 else 0
        ophi[0] = phi if solved < 0 else (0 if solved == (side == s.winner) else INF)
        odelta[0] = delta if solved < 0 else (INF if ophi[0] == 0 else 0)
        return
    e = _probe(s, b, side, rh)
    if solved >= 0:
        _store_solved(s, e, b, side, rh, d, solved, flags, fh)
        _store_work(s, e, b, side, rh, 255, 1, 1, s.watch.nodes - nodes0)
        _answer_solved(s, side, solved, flags, ophi, odelta, oflags)
        return
    oflags[0] = 0
    ophi[0] = phi
    odelta[0] = delta
    if side == s.winner:
        _store_work(s, e, b, side, rh, d, phi, delta, s.watch.nodes - nodes0)
    else:
        _store_work(s, e, b, side, rh, d, delta, phi, s.watch.nodes - nodes0)

# ---------------------------------------------------------------------------------------
# Python entry point.


cdef class DfpnSearcher:
    """The df-pn prover for one rule set, with its own transposition table.

    ``win(board, side, winner, d, history)``: the kernel's question (``Searcher.win``):
    with ``side`` to move on ``board`` (36 bytes) and the earlier boards ``history`` (oldest
    first; the Renop law), can ``winner`` land within ``d`` of its own moves, whatever the
    other side does?
    """
    cdef S s
    cdef int tt_bits
    cdef int any_truncated

    def __cinit__(self, int rules, int tt_bits=20):
        if not 4 <= tt_bits <= 28:
            raise ValueError("tt_bits must be 4..28")
        memset(&self.s, 0, sizeof(S))
        self.tt_bits = tt_bits
        self.s.rules = rules
        self.s.tt = <Entry*>table_alloc((1ULL << tt_bits) * sizeof(Entry))
        self.s.lc = <LandEntry*>calloc(1ULL << LC_BITS, sizeof(LandEntry))
        self.s.mask = (1ULL << tt_bits) - 1
        self.s.quiet_pn = 20
        self.s.threat_pn = 2
        self.s.hold_cap = 0
        self.s.w_dn = 10
        self.s.quiet_dn = 20
        self.s.eps16 = 4
        if not line_alloc(&self.s.line) or self.s.tt == NULL or self.s.lc == NULL:
            raise MemoryError("no memory for the transposition table")

    def __dealloc__(self):
        free(self.s.tt)
        free(self.s.lc)
        line_free(&self.s.line)

    cdef int _start(self, bytes board, int side, int winner, int d, history, Board* b,
                    uint64_t* fh) except -1:
        """Set up a question: the board, the file history (and its hash), the winner."""
        if side not in (0, 1) or winner not in (0, 1):
            raise ValueError("sides are 0 (South) and 1 (North)")
        if d > 30:
            raise ValueError("at most 30 moves")
        board_load(b, board)
        line_load(&self.s.line, history, fh)
        self.s.winner = winner
        self.s.passes = 0
        self.s.chain = -1
        return 0

    def win(self, bytes board, int side, int winner, int d, history=()):
        cdef Board b
        cdef int flags = 0
        cdef uint64_t fh = 0, rh
        cdef num phi = 1, delta = 1
        self._start(board, side, winner, d, history, &b, &fh)
        if d <= 0:
            return False
        with nogil:
            rh = _relevant(&self.s, &b, _plies(&self.s, side, d))
            phi, delta, flags = self._root(&b, side, d, rh, fh)
        watch_raise(&self.s.watch)
        won = (phi == 0) if side == winner else (delta == 0)
        won = won and not (flags & F_UNK)
        if not won and flags & F_UNK:
            self.any_truncated = 1
        return won

    def win_excluding(self, bytes board, int side, int winner, int d, excluded,
                      history=()):
        """``win(board, side, winner, d, history)`` with the moves of ``side`` that lead to
        the boards ``excluded`` (a list) left out at the root: 1 (a win within ``d``
        against, or with, the other moves), 0 (none), -1 (not known: a line given up).
        With ``side`` the loser, 0 means another refutation than the excluded ones exists;
        the children's results are stored as usual, so :meth:`known` then tells which."""
        cdef Board b, t
        cdef int flags = 0, i = 0
        cdef uint64_t fh = 0, rh
        cdef num phi = 1, delta = 1
        self._start(board, side, winner, d, history, &b, &fh)
        if d <= 0:
            return 0
        n = len(excluded)
        self.s.xlo = <uint64_t*>malloc((n + 1) * sizeof(uint64_t))
        self.s.xhi = <uint64_t*>malloc((n + 1) * sizeof(uint64_t))
        if self.s.xlo == NULL or self.s.xhi == NULL:
            free(self.s.xlo)
            free(self.s.xhi)
            self.s.xlo = self.s.xhi = NULL
            raise MemoryError("no memory for the excluded boards")
        for x in excluded:
            board_load(&t, x)
            self.s.xlo[i] = t.klo
            self.s.xhi[i] = t.khi
            i += 1
        self.s.xn = i
        try:
            with nogil:
                rh = _relevant(&self.s, &b, _plies(&self.s, side, d))
                _mid(&self.s, &b, side, d, rh, fh, INF, INF, &phi, &delta, &flags, 1)
                if phi != 0 and delta != 0:
                    flags = F_UNK
        finally:
            self.s.xn = 0
            free(self.s.xlo)
            free(self.s.xhi)
            self.s.xlo = self.s.xhi = NULL
        watch_raise(&self.s.watch)
        if flags & F_UNK:
            return -1                      # the caller asks otherwise: nothing truncated
        return 1 if ((phi == 0) if side == winner else (delta == 0)) else 0

    def known(self, boards, int side, int winner, int d, history=()):
        """What this searcher's table already proves of ``win(board, side, winner, d,
        history)`` for each of ``boards`` (a list), without searching: 1 (a win within
        ``d``), 0 (none), -1 (not known: nothing proven, or a "no" that rests on a line
        given up)."""
        cdef Board b
        cdef int flags = 0
        cdef uint64_t fh = 0, rh
        cdef num pn = 1, dn = 1
        cdef Entry* e
        if not boards:
            return []
        self._start(boards[0], side, winner, d, history, &b, &fh)
        if d <= 0:
            return [0] * len(boards)
        out = []
        for board in boards:
            board_load(&b, board)
            rh = _relevant(&self.s, &b, _plies(&self.s, side, d))
            e = _probe(&self.s, &b, side, rh)
            if not _known(&self.s, e, &b, side, rh, d, fh, &pn, &dn, &flags):
                out.append(-1)
            elif pn == 0:
                out.append(1)
            elif dn == 0 and not flags & F_UNK:
                out.append(0)
            else:
                out.append(-1)
        return out


    cdef (num, num, int) _root(self, Board* b, int side, int d, uint64_t rh,
                                         uint64_t fh) noexcept nogil:
        cdef num phi = 1, delta = 1
        cdef int flags = 0
        cdef Child c
        # the root as a leaf first (the exact leaves), then df-pn to its solution
        memcpy(&c.b, b, sizeof(Board))
        c.push = 0
        c.fh = fh
        c.rh = rh
        _leaf(&self.s, &c, side, d, NULL, NULL)
        phi, delta, flags = c.phi, c.delta, c.flags
        if phi != 0 and delta != 0 and not self.s.watch.aborted:
            _mid(&self.s, b, side, d, rh, fh, INF, INF, &phi, &delta, &flags, 0)
            if phi != 0 and delta != 0:
                flags = F_UNK              # stalled: numbers at their ceiling (unknown)
        return phi, delta, flags

    @property
    def nodes(self):
        return self.s.watch.nodes

    @property
    def stats(self):
        """Diagnostics, counted since the searcher was made: (df-pn nodes, children looked
        at, pn estimates made, land_support calls, move lists made, nodes of the plain
        search of pass nodes)."""
        return tuple(self.s.stat[i] for i in range(STATS))

    @property
    def tt_hits(self):
        return self.s.hits

    @property
    def truncated(self):
        """Was any "no win" answer of this searcher left undecided (it rests on a line given
        up: W passed over more than MAX_PASSES times)?"""
        return bool(self.any_truncated)

    def clear(self):
        memset(self.s.tt, 0, (1ULL << self.tt_bits) * sizeof(Entry))
