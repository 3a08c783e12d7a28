# The engine's move ordering (included in _engine.pyx): the table's move and the killers
# first, then the other moves, threats first, the rest by the history table, picked lazily
# (``_shared.pick_next``); killers and history credited by the moves that cut; the root's
# moves ordered by the scores of the last depth.

cdef enum:
    THREAT_ORDER = 1       # from this depth, threats are tried before quiet moves
    THREAT_KEY = 1 << 27   # added to a threat's key: above every history count
    HISTORY_MAX = 1 << 26  # a history count above this halves the table


cdef inline int _find(const CMove* moves, int n, CMove m) noexcept nogil:
    """Where ``m`` stands in ``moves``, or -1 (also for no move: ``start`` NO_SLOT)."""
    cdef int i
    if m.start == NO_SLOT:
        return -1
    for i in range(n):
        if same_move(moves[i], m):
            return i
    return -1


cdef inline void _good(S* s, CMove m, int ply, int depth) noexcept nogil:
    """A move that cut: a killer of its ply, and credit in the history table."""
    cdef int k
    if not same_move(m, s.killer[ply][0]):
        s.killer[ply][1] = s.killer[ply][0]
        s.killer[ply][0] = m
    s.hist[move_index(m)] += depth * depth
    if s.hist[move_index(m)] > HISTORY_MAX:
        for k in range(HISTORY_SIZE):
            s.hist[k] >>= 1


cdef inline int _quiet(int32_t key) noexcept nogil:
    """Is the move of this key (``_order_rest``) quiet: no threat?"""
    return key < THREAT_KEY


cdef int _order_rest(S* s, const Board* b, int side, int depth, CMove* moves, int n,
                     const int* early, int32_t* order, int* idx, Witnesses* w,
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
        k = s.hist[move_index(m)]
        if depth >= THREAT_ORDER and _land(s, &child, side):
            k += THREAT_KEY                    # a threat: the opponent must answer it
        order[live] = k
        idx[live] = live
        live += 1
    return live


cdef inline int _next(int* idx, int32_t* order, int j, int n) noexcept nogil:
    """The ``j``-th of the moves ``_order_rest`` keyed, highest key first; ties keep the
    generator's order."""
    return pick_next(idx, order, j, n, True)


cdef void _sort_root(CMove* moves, int* score, uint8_t* lost, int n) noexcept nogil:
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
