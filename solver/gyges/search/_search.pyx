# cython: language_level=3, boundscheck=False, wraparound=False, cdivision=True, initializedcheck=False
"""The compiled forced-win search: "can the winner land within d of its moves, whatever
the other side does?", proven exactly.

Two mutually recursive functions over the core's C API (``_movegen.pxd``):

* ``_win_w(b, d)``: the winner W is to move and has ``d`` moves left; W wins if it can land
  now (``can_land``, the last move is never enumerated) or, with ``d >= 2``, has a move after
  which ``_win_l(child, d - 1)`` holds.
* ``_win_l(b, d)``: the loser L is to move; W wins if L cannot land now and, after *every*
  move of L, ``_win_w(child, d)`` holds. Each defence is first refuted by the cheap test
  "can W land on child?"; only defences that stop the immediate landing are searched
  deeper. That test is answered from a witness where it can (``Witnesses``: a goal path
  the core found on a sibling board, still standing when the move leaves its slots alone).

Passes (``blocked=pass``): when L is blocked W moves again (that move counts); when W is
blocked L moves again and W's move count is unchanged. A side without any move
(``blocked=draw``, or both stuck) draws: not a win.

Transposition table and the Renop law: see docs/solver.md. An entry is keyed by the board,
the side to move, the winner and a hash of the *relevant history*: the earlier boards (of
the file and of the line) that differ from the board in few enough slots to be reproduced
within the plies left. Two nodes with equal keys have identical subtrees, so a stored
result is exact wherever it is reused. Results of subtrees in which W was passed over (the
ply count is then not bounded by ``d``) are never stored.

Written twice on purpose: df-pn (``_dfpn.pyx``) answers the same question, and the tests
compare the two on thousands of questions, so each keeps its own copy of the search rules:
the table's entries, probe and replacement, the pass rules (``_w_passed`` and ``_l_body``
here, ``_ppassed`` and ``_pl_body`` there), the simple defences tried first
(``_quiet_defence``, there ``_quiet``) and what "W surely moves" decides. A rule shared
by both would agree with itself when wrong. What they share (``_shared.pxd``) is plumbing
and helpers that decide nothing: the limits, the line's boards, the node count and Ctrl-C,
hashing and the relevant history, the landing cache and witnesses, the lazy move picker.
"""
from libc.stdint cimport uint8_t, uint64_t
from libc.string cimport memset, memcpy
from libc.stdlib cimport calloc, free

from gyges.game._movegen cimport (
    Board, CMove, History, board_load, board_set, board_make, gen_moves,
    simple_moves, zobrist, shore_row,
    GOAL_N, GOAL_S, NO_SLOT, MAX_MOVES, SOUTH, NORTH, R_REPEAT_OK,
)

from gyges.search._shared cimport (
    HISTORY_SIZE, LC_BITS, MAX_PASSES, UNKNOWN, LandEntry, Line, Watch, Witnesses, board_in,
    land_cached, lands_after, line_alloc, line_free, line_load, line_pop, line_push,
    line_view, mix, move_index, move_triple, pick_next, relevant_history, same_move,
    table_alloc, watch_node, watch_raise, win_stopped, witness_init, witness_keep,
    witness_lands,
)

cdef enum:
    MAX_PLY = 160         # plies of one line (the killer moves' slots)
    ESC_CAP = 40
    DEEP_ORDER = 6        # from this many moves left, order W's moves by _holding(..., 2)
    L_TT_ORDER = 3        # from this many moves left, L's defences ordered by the table

ctypedef struct Entry:
    uint64_t klo
    uint64_t khi
    uint64_t rh
    uint8_t tag          # 0 empty, else 1 + side_to_move * 2 + winner
    uint8_t win_at       # least d proven to win (255: none)
    uint8_t nowin        # greatest d proven not to win (0: none)

ctypedef struct S:
    int rules
    LandEntry* lc          # cache of land_support answers (none under blocked=next-row)
    int winner
    Entry* tt
    uint64_t mask
    Line line                  # the boards before the node
    Watch watch                # the node count and Ctrl-C
    unsigned long long hits
    int truncated              # a search gave up on a line (its answer may be unknown)
    int chain                  # index in the line where the current run of W passes began
    unsigned long long taint   # counts W passes: a subtree that saw one is not stored
    int passes
    int ply
    CMove killer[MAX_PLY]
    unsigned int* hw           # history heuristic: how often a move won (W) / held (L)
    unsigned int* hl
    int has_killer[MAX_PLY]


cdef inline uint64_t _relevant(S* s, const Board* b, int plies) noexcept nogil:
    """Hash of the earlier boards a subtree of ``plies`` plies could reproduce
    (``_shared.relevant_history``)."""
    return relevant_history(s.rules, &s.line, b, plies)


cdef inline int _match(S* s, Entry* e, const Board* b, int side, uint64_t rh) noexcept nogil:
    return (e.tag == 1 + side * 2 + s.winner and e.klo == b.klo and e.khi == b.khi
            and e.rh == rh)


cdef inline int _depth(Entry* e) noexcept nogil:
    """How much a table entry is worth keeping: the depth of what it proves."""
    if e.tag == 0:
        return -1
    return e.nowin if e.win_at == 255 or e.nowin > e.win_at else e.win_at


cdef inline Entry* _probe(S* s, const Board* b, int side, uint64_t rh) noexcept nogil:
    """The entry of this node in its bucket of two, or the one to replace: the shallower
    (so that deep results are not pushed out by the many shallow ones)."""
    cdef uint64_t h = (zobrist(b, side) ^ mix(rh + <uint64_t>(s.winner + 1))) & s.mask & ~1ULL
    cdef Entry* a = &s.tt[h]
    cdef Entry* c = &s.tt[h + 1]
    if _match(s, a, b, side, rh):
        return a
    if _match(s, c, b, side, rh):
        return c
    return c if _depth(c) <= _depth(a) else a


cdef inline int _known(S* s, Entry* e, const Board* b, int side, uint64_t rh,
                       int d) noexcept nogil:
    """What the table already proves at depth ``d``: 1 (a win within d), 0 (no win within
    d) or -1 (nothing)."""
    if _match(s, e, b, side, rh):
        if e.win_at <= d:
            s.hits += 1
            return 1
        if e.nowin >= d:
            s.hits += 1
            return 0
    return -1


cdef inline void _store(S* s, Entry* e, const Board* b, int side, uint64_t rh, int d,
                        int won) noexcept nogil:
    if not _match(s, e, b, side, rh):
        e.klo = b.klo
        e.khi = b.khi
        e.rh = rh
        e.tag = <uint8_t>(1 + side * 2 + s.winner)
        e.win_at = 255
        e.nowin = 0
    if won:
        if d < e.win_at:
            e.win_at = <uint8_t>d
    elif d > e.nowin:
        e.nowin = <uint8_t>d


cdef inline void _push(S* s, const Board* b) noexcept nogil:
    line_push(&s.line, b)
    s.ply += 1


cdef inline void _pop(S* s) noexcept nogil:
    line_pop(&s.line)
    s.ply -= 1


cdef inline int _stopped(S* s, const Board* b, int side) noexcept nogil:
    """``_shared.win_stopped`` against the line's boards."""
    cdef History h
    line_view(&s.line, &h)
    return win_stopped(s.rules, b, side, &h)


cdef void _order(unsigned int* table, CMove* moves, int n, int* idx, long long* key) noexcept nogil:
    """Prepare ``idx`` (0..n-1) and the sort keys: ``key`` (higher first), ties by the
    history ``table``. The order itself is made lazily by ``pick_next``: most nodes stop
    after one or two moves, so sorting them all would be wasted."""
    cdef int i
    cdef unsigned int v
    for i in range(n):
        idx[i] = i
        v = table[move_index(moves[i])]
        key[i] = key[i] * (1LL << 24) + <long long>(v if v < (1 << 23) else (1 << 23))


cdef inline int _killer_index(S* s, const CMove* moves, int n) noexcept nogil:
    """Where this ply's killer move stands in ``moves``, or -1."""
    cdef int i
    if s.has_killer[s.ply]:
        for i in range(n):
            if same_move(moves[i], s.killer[s.ply]):
                return i
    return -1


cdef inline uint64_t _land(S* s, const Board* b, int side, const History* h) noexcept nogil:
    """``land_support`` through the cache (see ``_shared.land_cached``)."""
    return land_cached(s.lc, s.rules, b, side, h, NULL)


cdef inline int _lands_after(S* s, Witnesses* w, const Board* child, CMove m,
                             const History* h) noexcept nogil:
    """Can ``w.side`` land on ``child``, the board after move ``m``? (``_shared.lands_after``:
    from a kept goal path, else by the core.)"""
    return lands_after(s.lc, s.rules, w, child, m, h, NULL)


cdef int _l_body(S* s, const Board* b, CMove* moves, int n, int d) noexcept nogil:
    """L (not blocked) chooses among ``moves``; W has ``d`` moves left after."""
    cdef int W = s.winner, L = 1 - s.winner, i, j, first, r
    cdef History h
    cdef Witnesses w
    cdef Board child
    cdef int idx[MAX_MOVES]
    cdef long long key[MAX_MOVES]
    cdef int unknown = 0
    cdef uint64_t rh
    cdef Entry* e
    for i in range(n):
        if moves[i].to >= 36:
            return 0                       # L lands: L wins
    if s.ply + 1 >= MAX_PLY:
        s.truncated = 1
        return UNKNOWN
    first = _killer_index(s, moves, n)
    for i in range(n):
        key[i] = 1 if i == first else 0
    _push(s, b)
    line_view(&s.line, &h)
    if d >= L_TT_ORDER:
        # defences the table already knows to hold at a smaller depth (an earlier
        # iteration, or the proof before a cook search) first, the deepest first;
        # defences known to lose last
        for i in range(n):
            memcpy(&child, b, sizeof(Board))
            board_make(&child, moves[i])
            rh = _relevant(s, &child, 2 * d - 1)
            e = _probe(s, &child, W, rh)
            if _match(s, e, &child, W, rh):
                if e.win_at <= d:
                    key[i] = -1
                elif e.nowin > 0:
                    key[i] += 2 * e.nowin
    _order(s.hl, moves, n, idx, key)
    witness_init(&w, W)
    for j in range(n):
        i = pick_next(idx, key, j, n, False)
        memcpy(&child, b, sizeof(Board))
        board_make(&child, moves[i])
        if _lands_after(s, &w, &child, moves[i], &h):
            continue                       # refuted at once
        if d == 1 and _stopped(s, &child, W):
            r = 0
        else:
            r = _win_w(s, &child, d, 1)
        if r == 0:
            _pop(s)
            s.killer[s.ply] = moves[i]
            s.has_killer[s.ply] = 1
            s.hl[move_index(moves[i])] += d * d
            return 0
        if r == UNKNOWN:
            unknown = 1                    # this defence's line was cut: look on
    _pop(s)
    return UNKNOWN if unknown else 1


cdef int _quiet_defence(S* s, const Board* b, int d) noexcept nogil:
    """Does L (to move, able to move) have a simple move that holds against W's next move?
    Tried before building L's move list: usually one does, and then no list is needed
    (whether L could land instead does not matter: either way W does not win here)."""
    cdef int W = s.winner, L = 1 - s.winner, n, i, j, first
    cdef CMove simple[256]
    cdef History h
    cdef Board child
    cdef Witnesses w
    witness_init(&w, W)
    line_view(&s.line, &h)
    n = simple_moves(b, L, s.rules, &h, simple, 256)
    if n == 0:
        return 0
    first = _killer_index(s, simple, n)
    _push(s, b)
    h.n = s.line.n
    for j in range(-1, n):
        if j < 0:
            if first < 0:
                continue
            i = first
        else:
            i = j
            if i == first:
                continue
        memcpy(&child, b, sizeof(Board))
        board_make(&child, simple[i])
        if _lands_after(s, &w, &child, simple[i], &h):
            continue
        if _stopped(s, &child, W):
            _pop(s)
            s.killer[s.ply] = simple[i]
            s.has_killer[s.ply] = 1
            s.hl[move_index(simple[i])] += 1
            return 1
    _pop(s)
    return 0


cdef int _holding(S* s, const Board* b, int cap, int within) noexcept nogil:
    """How many moves of L (to move on ``b``) leave W without a win within ``within``
    moves (1: W cannot land at once) -- at most ``cap``; ``cap`` also when L is blocked or
    can land itself (not worth ordering). Orders W's moves: the fewer replies hold, the
    better the move."""
    cdef int W = s.winner, L = 1 - s.winner, n, i, mover, count = 0, held
    cdef History h
    cdef Board child
    cdef Witnesses w
    cdef CMove moves[MAX_MOVES]
    witness_init(&w, W)
    line_view(&s.line, &h)
    n = gen_moves(b, L, s.rules, &h, moves, &mover)
    if n == 0 or mover != L:
        return cap
    _push(s, b)
    h.n = s.line.n
    for i in range(n):
        if moves[i].to >= 36:
            count = cap
            break
        memcpy(&child, b, sizeof(Board))
        board_make(&child, moves[i])
        if within == 1:
            held = not _lands_after(s, &w, &child, moves[i], &h)
        else:
            held = _win_w(s, &child, within) != 1
        if held:
            count += 1
            if count >= cap:
                break
    _pop(s)
    return count


cdef int _w_body(S* s, const Board* b, CMove* moves, int n, int d) noexcept nogil:
    """W (not blocked, no landing now) chooses among ``moves``; ``d >= 2``."""
    cdef int W = s.winner, L = 1 - s.winner, i, j, first
    cdef History h
    cdef Board child
    cdef int idx[MAX_MOVES]
    cdef long long key[MAX_MOVES]
    cdef Witnesses wl
    cdef int r, unknown = 0
    witness_init(&wl, L)
    for i in range(n):
        if moves[i].to >= 36:
            return 1
    if s.ply + 1 >= MAX_PLY:
        s.truncated = 1
        return UNKNOWN
    first = _killer_index(s, moves, n)
    _push(s, b)
    line_view(&s.line, &h)
    if d == 2:
        # _win_l sees L's landings (cheaply, before L's moves); only the certain cases
        # are filtered here: L can land already and W's move leaves the path alone
        witness_keep(&wl, _land(s, b, L, &h), 0, shore_row(b, L))
    if first >= 0:
        memcpy(&child, b, sizeof(Board))
        board_make(&child, moves[first])
        if not (witness_lands(&wl, &child, moves[first]) if d == 2
                else _lands_after(s, &wl, &child, moves[first], &h)):
            r = _win_l(s, &child, d - 1)
            if r == 1:
                _pop(s)
                return 1
            if r == UNKNOWN:
                unknown = 1
    for i in range(n):
        key[i] = -1 if i == first else 0
    if d >= 3:
        # threats first: moves after which W could land if L passed
        for i in range(n):
            if i == first:
                continue
            memcpy(&child, b, sizeof(Board))
            board_make(&child, moves[i])
            if _lands_after(s, &wl, &child, moves[i], &h):
                key[i] = -1                # L would land at once
            elif d >= DEEP_ORDER:
                key[i] = 1 + (256 - _holding(s, &child, 256, 2))
            elif _land(s, &child, W, &h):
                # a threat: fewer defences that stop the landing first
                key[i] = 300 + (ESC_CAP - _holding(s, &child, ESC_CAP, 1))
            elif d >= 4:
                # a quiet move: the fewer replies L has, the better
                key[i] = 1 + (256 - _holding(s, &child, 256, 1))
    _order(s.hw, moves, n, idx, key)
    for j in range(n):
        i = pick_next(idx, key, j, n, False)
        if key[i] < 0:
            break
        memcpy(&child, b, sizeof(Board))
        board_make(&child, moves[i])
        if d == 2 and witness_lands(&wl, &child, moves[i]):
            continue                       # L would land at once
        r = _win_l(s, &child, d - 1)
        if r == 1:
            _pop(s)
            s.killer[s.ply] = moves[i]
            s.has_killer[s.ply] = 1
            s.hw[move_index(moves[i])] += d * d
            return 1
        if r == UNKNOWN:
            unknown = 1
    _pop(s)
    return UNKNOWN if unknown else 0


cdef int _w_passed(S* s, const Board* b, CMove* moves, int n, int d) noexcept nogil:
    """W is blocked and passed over: L moves again, W keeps its ``d`` moves.

    Under ``repetition=allowed``, a board that comes back within one run of passes (only L
    moved since, W blocked each time) is a cycle L can repeat for ever: W never lands, so
    L holds, exactly. Otherwise a line with more than MAX_PASSES passes of W is given up:
    its answer is UNKNOWN, which decides nothing unless every other line fails too."""
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
        s.truncated = 1
        if started:
            s.chain = -1
        return UNKNOWN
    s.passes += 1
    r = _l_body(s, b, moves, n, d)
    s.passes -= 1
    if started:
        s.chain = -1
    return r


cdef int _win_w(S* s, const Board* b, int d, int w_cannot_land=0) noexcept nogil:
    cdef int W = s.winner, mover, n, r, chain
    cdef uint64_t rh = 0
    cdef unsigned long long taint0
    cdef Entry* e = NULL
    cdef History h
    cdef CMove moves[MAX_MOVES]
    if watch_node(&s.watch) or d <= 0:
        return 0
    line_view(&s.line, &h)
    if not w_cannot_land and _land(s, b, W, &h):
        return 1
    if d == 1:
        if _stopped(s, b, W):
            return 0
        n = gen_moves(b, W, s.rules, &h, moves, &mover)
        if n == 0 or mover == W:
            return 0
        return _w_passed(s, b, moves, n, d)
    rh = _relevant(s, b, 2 * d - 1)
    e = _probe(s, b, W, rh)
    r = _known(s, e, b, W, rh, d)
    if r >= 0:
        return r
    taint0 = s.taint
    n = gen_moves(b, W, s.rules, &h, moves, &mover)
    if n == 0:
        r = 0
    elif mover != W:
        r = _w_passed(s, b, moves, n, d)
    else:
        chain = s.chain                    # W moves: a run of passes ends here
        s.chain = -1
        r = _w_body(s, b, moves, n, d)
        s.chain = chain
    if s.taint == taint0 and not s.watch.aborted and r != UNKNOWN:
        _store(s, e, b, W, rh, d, r)
    return r


cdef int _win_l(S* s, const Board* b, int d) noexcept nogil:
    cdef int W = s.winner, L = 1 - s.winner, mover, n, r
    cdef uint64_t rh
    cdef unsigned long long taint0
    cdef Entry* e
    cdef History h
    cdef CMove moves[MAX_MOVES]
    if watch_node(&s.watch) or d <= 0:
        return 0
    rh = _relevant(s, b, 2 * d)
    e = _probe(s, b, L, rh)
    r = _known(s, e, b, L, rh, d)
    if r >= 0:
        return r
    taint0 = s.taint
    line_view(&s.line, &h)
    if d == 1 and _quiet_defence(s, b, d):
        if not s.watch.aborted:
            _store(s, e, b, L, rh, d, 0)
        return 0
    if _land(s, b, L, &h):
        r = 0                              # L lands: cheaper to see than L's move list
    else:
        n = gen_moves(b, L, s.rules, &h, moves, &mover)
        if n == 0:
            r = 0
        elif mover == W:
            r = _win_w(s, b, d)            # L blocked: W moves again, that move counts
        else:
            r = _l_body(s, b, moves, n, d)
    if s.taint == taint0 and not s.watch.aborted and r != UNKNOWN:
        _store(s, e, b, L, rh, d, r)
    return r

# ---------------------------------------------------------------------------------------
# Python entry point.

cdef class Searcher:
    """A forced-win prover for one rule set, with its own transposition table.

    ``win(board, side, winner, d, history)``: with ``side`` to move on ``board`` (36 bytes)
    and the earlier boards ``history`` (oldest first; the Renop law), can ``winner`` land on
    the goal with at most ``d`` of its own moves, whatever the other side does?
    """
    cdef S s
    cdef int tt_bits
    cdef Board root
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
        self.s.hw = <unsigned int*>calloc(HISTORY_SIZE, sizeof(unsigned int))
        self.s.hl = <unsigned int*>calloc(HISTORY_SIZE, sizeof(unsigned int))
        if (not line_alloc(&self.s.line) or self.s.tt == NULL or self.s.lc == NULL
                or self.s.hw == NULL or self.s.hl == NULL):
            raise MemoryError("no memory for the transposition table")

    def __dealloc__(self):
        free(self.s.tt)
        free(self.s.lc)
        line_free(&self.s.line)
        free(self.s.hw)
        free(self.s.hl)

    cdef int _start(self, bytes board, int winner, int d, history) except -1:
        cdef uint64_t fh
        if winner not in (0, 1):
            raise ValueError("sides are 0 (South) and 1 (North)")
        if d > 30:
            raise ValueError("at most 30 moves (the search is recursive)")
        board_load(&self.root, board)
        line_load(&self.s.line, history, &fh)
        self.s.winner = winner
        self.s.ply = 0
        self.s.passes = 0
        self.s.chain = -1
        self.s.truncated = 0
        # killers and history are kept from earlier questions: only the order of moves
        # depends on them, and a run of related questions (the depths of a deepening, one
        # question per first move in a cook search) is ordered by what the earlier ones
        # found, at no cost (the cook search: python -m bench.bench_dfpn b)
        return 0

    cdef int _raise_if_aborted(self) except -1:
        """After a search: a signal stopped it, so its answer is void (nor is any line
        given up); raise what the signal's handler raised (``_shared.watch_raise``)."""
        if self.s.watch.aborted:
            self.s.truncated = 0
        return watch_raise(&self.s.watch)

    def win(self, bytes board, int side, int winner, int d, history=()):
        cdef Board b
        cdef int r
        if side not in (0, 1):
            raise ValueError("sides are 0 (South) and 1 (North)")
        self._start(board, winner, d, history)
        b = self.root
        with nogil:
            if side == winner:
                r = _win_w(&self.s, &b, d)
            else:
                r = _win_l(&self.s, &b, d)
        self._raise_if_aborted()
        if r == UNKNOWN:
            self.any_truncated = 1
        return r == 1

    def win_excluding(self, bytes board, int side, int winner, int d, excluded,
                      history=()):
        """With ``side`` the loser: ``win(board, side, winner, d, history)`` with the moves
        of ``side`` that lead to the boards ``excluded`` (a list) left out at the root: 1
        (``winner`` wins against every other move), 0 (another move holds: the table then
        knows which, unless ``d`` is 1, whose answers are not stored), -1 (not known: a line given up, a blocked side, or ``side`` the
        winner, which this kernel does not ask). The root's own entry is not stored."""
        cdef Board b, t, c
        cdef History h
        cdef int n, m = 0, mover, i, r, L = 1 - winner
        cdef CMove moves[MAX_MOVES]
        cdef uint64_t xlo[MAX_MOVES]
        cdef uint64_t xhi[MAX_MOVES]
        cdef int xn = 0
        if side not in (0, 1):
            raise ValueError("sides are 0 (South) and 1 (North)")
        self._start(board, winner, d, history)
        if d <= 0:
            return 0
        if side != L or len(excluded) > MAX_MOVES:
            return -1
        for x in excluded:
            board_load(&t, x)
            xlo[xn] = t.klo
            xhi[xn] = t.khi
            xn += 1
        b = self.root
        line_view(&self.s.line, &h)
        with nogil:
            if _land(&self.s, &b, L, &h):
                r = 0                      # L lands
            else:
                n = gen_moves(&b, L, self.s.rules, &h, moves, &mover)
                if n == 0 or mover != L:
                    r = UNKNOWN
                else:
                    for i in range(n):
                        memcpy(&c, &b, sizeof(Board))
                        board_make(&c, moves[i])
                        if not board_in(xlo, xhi, xn, &c):
                            moves[m] = moves[i]
                            m += 1
                    r = _l_body(&self.s, &b, moves, m, d) if m else 1
        self._raise_if_aborted()
        if r == UNKNOWN:
            return -1
        return r

    def known(self, boards, int side, int winner, int d, history=()):
        """What this searcher's table already proves of ``win(board, side, winner, d,
        history)`` for each of ``boards`` (a list), without searching: 1 (a win within
        ``d``), 0 (none), -1 (not known)."""
        cdef Board b
        cdef Entry* e
        cdef uint64_t rh
        cdef int plies = 2 * d - 1 if side == winner else 2 * d
        if side not in (0, 1):
            raise ValueError("sides are 0 (South) and 1 (North)")
        if not boards:
            return []
        self._start(boards[0], winner, d, history)
        if d <= 0:
            return [0] * len(boards)
        out = []
        for board in boards:
            board_load(&b, board)
            rh = _relevant(&self.s, &b, plies)
            e = _probe(&self.s, &b, side, rh)
            out.append(_known(&self.s, e, &b, side, rh, d))
        return out

    cdef int _root_moves(self, bytes board, int side, int d, history, Board* b, History* h,
                         CMove* moves, int* mover) except -1:
        """Set up a search from ``board`` and list its root moves (``mover`` moves)."""
        self._start(board, side, d, history)
        b[0] = self.root
        line_view(&self.s.line, h)
        return gen_moves(b, side, self.s.rules, h, moves, mover)

    def winning_moves(self, bytes board, int side, int d, history=(), progress=None,
                      int limit=0):
        """Every move of ``side`` (to move) that wins within ``d`` of its moves, as
        ``(start, to, reloc)`` triples (``reloc`` None for plain moves): the keys and cooks.
        Empty when ``side`` is blocked (its opponent would move). ``progress(i, n)`` is
        called before the i-th of the n moves is tried. ``limit > 0``: stop once that
        many are found (``limit=2`` tells a unique key from a cook). The moves are tried
        in the search's order (the last proof's winning move first, then by how often
        moves won), so that a cook shows up early."""
        cdef Board b, child
        cdef int n, i, j, mover, won, first
        cdef History h
        cdef CMove moves[MAX_MOVES]
        cdef int idx[MAX_MOVES]
        cdef long long key[MAX_MOVES]
        n = self._root_moves(board, side, d, history, &b, &h, moves, &mover)
        found = []
        if mover != side:
            return found
        first = _killer_index(&self.s, moves, n)
        for i in range(n):
            key[i] = 1 if i == first else 0
        _order(self.s.hw, moves, n, idx, key)
        _push(&self.s, &b)
        h.n = self.s.line.n
        try:
            for j in range(n):
                if progress is not None:
                    progress(j, n)
                i = pick_next(idx, key, j, n, False)
                if moves[i].to >= 36:
                    won = 1
                elif d < 2:
                    won = 0
                else:
                    memcpy(&child, &b, sizeof(Board))
                    board_make(&child, moves[i])
                    with nogil:
                        won = 0
                        if not _land(&self.s, &child, 1 - side, &h):
                            won = _win_l(&self.s, &child, d - 1)
                    self._raise_if_aborted()
                    if won == UNKNOWN:
                        self.any_truncated = 1
                        won = 0
                if won:
                    found.append(move_triple(moves[i]))
                    if 0 < limit <= len(found):
                        break
        finally:
            _pop(&self.s)
        return found

    def find_win(self, bytes board, int side, int d, history=()):
        """One move of ``side`` (to move) that wins within ``d`` moves, found with the
        search's own ordering, as ``(start, to, reloc)``; None if there is none (or
        ``side`` is blocked)."""
        cdef Board b
        cdef int n, i, mover, r
        cdef History h
        cdef CMove moves[MAX_MOVES]
        n = self._root_moves(board, side, d, history, &b, &h, moves, &mover)
        if mover != side or n == 0 or d < 1:
            return None
        for i in range(n):
            if moves[i].to >= 36:
                return move_triple(moves[i])
        if d < 2:
            return None
        with nogil:
            r = _w_body(&self.s, &b, moves, n, d)
        self._raise_if_aborted()
        if r == UNKNOWN:
            self.any_truncated = 1
        if r != 1 or not self.s.has_killer[0]:
            return None
        return move_triple(self.s.killer[0])

    @property
    def nodes(self):
        return self.s.watch.nodes

    @property
    def tt_hits(self):
        return self.s.hits

    @property
    def truncated(self):
        """Was any answer of this Searcher left undecided because a line it needed was
        given up (W passed over more than MAX_PASSES times in one line)? Such an answer
        was returned as "no win". A line given up where another line decides the answer
        (a defence that holds, a move that wins) does not count: the answer is exact."""
        return bool(self.any_truncated)

    def clear(self):
        memset(self.s.tt, 0, (1ULL << self.tt_bits) * sizeof(Entry))
