# The engine's search (included in _engine.pyx): its limits, the line's boards and
# repetitions, negamax with principal variation search below the root, and the root's
# iterations; on several processes (``_threads.pxi``) a move another process is searching
# waits to the end of its node (``S.busy``).

cdef enum:
    # late move reductions: from this depth, after this many moves, a quiet move (no
    # threat, the side not facing one) is searched a ply shallower first (two plies
    # after LMR_MORE moves), and again at full depth only if it beats alpha
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
    # reverse futility pruning, with a network only (its margin is in the network's
    # units): at depth RFP_DEPTH or less, off the principal variation, a side not facing
    # a threat whose evaluation beats beta by RFP_MARGIN a ply of depth is not searched:
    # its evaluation is the node's value (never with a landing score at stake). With a
    # network, null-move pruning is tried only where the evaluation is at least beta
    RFP_DEPTH = 2
    RFP_MARGIN = 50
    # aspiration windows: from ASPIRATION_DEPTH, a depth is searched first within
    # ASPIRATION_WINDOW of the last depth's score; a score outside widens that side by
    # ASPIRATION_GROWTH times, and once the window is wider than ASPIRATION_WIDEST, fully
    ASPIRATION_DEPTH = 3
    ASPIRATION_WINDOW = 40
    ASPIRATION_GROWTH = 4
    ASPIRATION_WIDEST = 400


# -- the line: the boards before the node and the positions' keys ---------------------------

cdef inline void _push(S* s, const Board* b, int side) noexcept nogil:
    line_push(&s.line, b)
    s.keys[s.kn] = zobrist(b, side)
    s.kn += 1


cdef inline void _pop(S* s) noexcept nogil:
    line_pop(&s.line)
    s.kn -= 1


cdef inline int _repeated(S* s, uint64_t key) noexcept nogil:
    """Was this position (board and side) met before, in the game or on the line?"""
    cdef int i
    for i in range(s.kn - 1, -1, -1):
        if s.keys[i] == key:
            return 1
    return 0


cdef inline uint64_t _relevant(S* s, const Board* b, int plies) noexcept nogil:
    """Under the Renop law, a hash of the earlier boards a subtree of ``plies`` plies
    below ``b`` could reproduce (``_shared.relevant_history``): the part of the history
    the subtree's legal moves depend on. 0 under ``repetition=allowed``."""
    return relevant_history(s.rules, &s.line, b, plies)


# -- the limits ------------------------------------------------------------------------------

cdef inline double _now() noexcept nogil:
    cdef timespec t
    clock_gettime(CLOCK_MONOTONIC, &t)
    return t.tv_sec + t.tv_nsec * 1e-9


cdef inline int _out(S* s) noexcept nogil:
    """Count a node; every so often look at the limits and for Ctrl-C. 1: unwind now."""
    s.watch.nodes += 1
    if s.watch.aborted:
        return 1
    if s.node_limit and s.watch.nodes >= s.node_limit:
        s.watch.aborted = 1
    elif (s.watch.nodes & CHECK_EVERY) == 0:
        if s.stop or (s.deadline > 0 and _now() >= s.deadline) or (
                s.halt != NULL and (gy_load(s.halt) or getppid() != s.parent)):
            s.watch.aborted = 1
        elif s.poll_signals and watch_signalled(&s.watch):
            s.watch.aborted = 1
    return s.watch.aborted


# -- below the root ---------------------------------------------------------------------------

cdef inline void _pv_set(S* s, int ply, CMove m) noexcept nogil:
    cdef int n = s.pvlen[ply + 1] if ply + 1 < MAX_PLY else 0
    s.pv[ply][0] = m
    if n > MAX_PLY - ply - 1:
        n = MAX_PLY - ply - 1
    if n > 0:
        memcpy(&s.pv[ply][1], &s.pv[ply + 1][0], n * sizeof(CMove))
    s.pvlen[ply] = n + 1


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
    if score > alpha and score < beta and not s.watch.aborted:
        score = -_search(s, &child, 1 - side, depth - 1, -beta, -alpha, ply + 1, 1, 1)
    return score


cdef int _parries(S* s, const Board* b, const CMove* moves, int n, Witnesses* w) noexcept nogil:
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


cdef inline uint64_t _move_hash(CMove m) noexcept nogil:
    """A move mixed into 64 bits (with a node's key: the (node, move) being searched)."""
    cdef uint64_t x = (<uint64_t>m.start << 16) | (<uint64_t>m.to << 8) | m.reloc
    x = (x + 0x9E3779B97F4A7C15ULL) * 0xBF58476D1CE4E5B9ULL
    return x ^ (x >> 31)


cdef int _search(S* s, const Board* b, int side, int depth, int alpha, int beta, int ply,
                 int pv_node, int no_land) noexcept nogil:
    """Negamax with principal variation search. ``no_land``: the side to move is known
    not to be able to land (its parent looked).

    The moves are tried in stages: the table's move and the killers first, each checked
    on its own (a cut there spares the rest of the node's work); then every other move,
    those after which the opponent lands dropped (lost), threats (moves after which the
    side could land) first, the rest by the history table."""
    cdef int opp = 1 - side, n, i, j, mover, score, best, bound, nlive, tried, cut, lazy = 0
    cdef int threatened, nd = 0, di = -1, static
    cdef Reach reach
    cdef uint64_t key, busy = 0, slot = 0
    cdef int deferred[MAX_DEFER]
    cdef int dcut[MAX_DEFER]
    cdef TTEntry e
    cdef CMove tt_move, m
    cdef CMove moves[MAX_MOVES]
    cdef int32_t order[MAX_MOVES]
    cdef int idx[MAX_MOVES]
    cdef int early[3]
    cdef Board child
    cdef History h
    cdef Witnesses w
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
    static = MATE                              # the network's evaluation, where needed
    if (s.nh and not pv_node and not s.nulled[ply - 1 if ply > 0 else 0]
            and -MATE_BOUND < beta < MATE_BOUND):
        static = -MATE                         # facing a threat: no pruning
        _reach(s, b, &reach)
        if not _threat(s, b, opp, &reach):
            static = _evaluate(s, b, side, 0, &reach)
            if depth <= RFP_DEPTH and static - RFP_MARGIN * depth >= beta:
                return static
    if (not pv_node and depth >= NULL_DEPTH and not s.nulled[ply - 1 if ply > 0 else 0]
            and -MATE_BOUND < beta < MATE_BOUND and static >= beta):
        _push(s, b, side)
        s.nulled[ply] = 1
        score = -_search(s, b, opp, depth - 1 - NULL_R - (depth >= NULL_DEEP), -beta, -beta + 1,
                         ply + 1, 0, 0)
        s.nulled[ply] = 0
        _pop(s)
        if s.watch.aborted:
            return 0
        if score >= beta:
            return beta
    line_view(&s.line, &h)
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
    threatened = w.n > 0                       # the opponent could land now: parry it
    if threatened and ply < 2 * s.root_depth and _parries(s, b, moves, n, &w) <= REPLY_EXT:
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
        if di >= 0:                            # the moves left while another searched them
            if di >= nd:
                break
            i = deferred[di]
            cut = dcut[di]
            di += 1
            m = moves[i]
        elif j < 3:
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
                lazy = depth <= 2 and not pv_node and not threatened
                nlive = _order_rest(s, b, side, depth, moves, n, early, order, idx, &w, lazy)
            if j - 3 >= nlive:
                if nd > 0:
                    di = 0
                    continue
                break
            i = _next(idx, order, j - 3, nlive)
            j += 1
            m = moves[i]
            if (depth <= 2 and tried >= LMP_MOVES * depth and not pv_node and not threatened
                    and _quiet(order[i]) and best > -MATE_BOUND):
                continue                       # a late quiet move near the horizon
            if lazy:
                memcpy(&child, b, sizeof(Board))
                board_make(&child, m)
                if _lands_after(s, &w, &child, m):
                    continue                   # lost: the opponent lands
            if (depth >= LMR_DEPTH and tried >= LMR_AFTER and not threatened
                    and _quiet(order[i])):
                cut = 1 if tried < LMR_MORE else 2
                if depth - 1 - cut < 1:
                    cut = depth - 2
        busy = 0
        if (s.busy != NULL and tried > 0 and depth >= DEFER_DEPTH and di < 0
                and nd < MAX_DEFER):
            # several processes (ABDADA): a move another is searching waits for the end
            busy = (key ^ _move_hash(m)) | 1
            slot = busy & ((1 << BUSY_BITS) - 1)
            if gy_load64(&s.busy[slot]) == busy:
                deferred[nd] = i
                dcut[nd] = cut
                nd += 1
                continue
            gy_store64(&s.busy[slot], busy)
        if cut > 0:
            # a late quiet move: searched shallower first, fully only if it beats alpha
            memcpy(&child, b, sizeof(Board))
            board_make(&child, m)
            score = -_search(s, &child, opp, depth - 1 - cut, -alpha - 1, -alpha, ply + 1, 0, 1)
            if score > alpha and not s.watch.aborted:
                score = _child(s, b, side, m, depth, alpha, beta, ply, 0, pv_node)
        else:
            score = _child(s, b, side, m, depth, alpha, beta, ply, tried == 0, pv_node)
        if busy and gy_load64(&s.busy[slot]) == busy:
            gy_store64(&s.busy[slot], 0)
        tried += 1
        if s.watch.aborted:
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


# -- the root --------------------------------------------------------------------------------

cdef int _root_move(S* s, const Board* child, int side, int depth, int i, int alpha,
                    int beta) noexcept nogil:
    """The score of the root's ``i``-th move (not the first; ``child`` the board after
    it): a null window at ``alpha`` (a ply shallower first for a late quiet move, from
    ROOT_LMR_DEPTH), and the full window when it beats alpha."""
    cdef int opp = 1 - side, score = alpha + 1
    if depth >= ROOT_LMR_DEPTH and i >= ROOT_LMR_AFTER and not _land(s, child, side):
        score = -_search(s, child, opp, depth - 2, -alpha - 1, -alpha, 1, 0, 1)
    if score > alpha and not s.watch.aborted:
        score = -_search(s, child, opp, depth - 1, -alpha - 1, -alpha, 1, 0, 1)
    if score > alpha and score < beta and not s.watch.aborted:
        score = -_search(s, child, opp, depth - 1, -beta, -alpha, 1, 1, 1)
    return score


cdef (int, int) _root(S* s, const Board* b, int side, int depth, int alpha, int beta,
                      CMove* moves, int* scores, uint8_t* lost, int n) noexcept nogil:
    """One depth of the root: every move in the order of the last depth, the first with a
    full window, the others as :func:`_root_move` searches them. A move after which the
    opponent lands at once is not searched. Returns the best score and the index of its
    move (-1: none searched, every move loses at once); each move's score (its value, or
    a bound below the best) orders the next depth. On several processes (``s.busy``),
    from DEFER_DEPTH a move another process is searching waits for the end, as in
    :func:`_search`."""
    cdef int i, k = 0, nd = 0, score, best = -MATE, best_i = -1, opp = 1 - side
    cdef int deferred[MAX_MOVES]
    cdef uint64_t key = 0, busy = 0, slot = 0
    cdef Board child
    s.pvlen[0] = 0
    if s.busy != NULL:
        key = zobrist(b, side) ^ _relevant(s, b, depth + 2)
    _push(s, b, side)
    while k < n + nd:
        i = k if k < n else deferred[k - n]
        k += 1
        if lost[i]:
            continue
        busy = 0
        if s.busy != NULL and best_i >= 0 and depth >= DEFER_DEPTH and k <= n:
            busy = (key ^ _move_hash(moves[i])) | 1
            slot = busy & ((1 << BUSY_BITS) - 1)
            if gy_load64(&s.busy[slot]) == busy:
                deferred[nd] = i               # another process is searching it
                nd += 1
                continue
            gy_store64(&s.busy[slot], busy)
        memcpy(&child, b, sizeof(Board))
        board_make(&child, moves[i])
        if best_i < 0:
            score = -_search(s, &child, opp, depth - 1, -beta, -alpha, 1, 1, 1)
        else:
            score = _root_move(s, &child, side, depth, i, alpha, beta)
        if busy and gy_load64(&s.busy[slot]) == busy:
            gy_store64(&s.busy[slot], 0)
        if s.watch.aborted:
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


# -- what searches learn ---------------------------------------------------------------------

cdef void _forget(S* s) noexcept nogil:
    """Forget what earlier searches learnt, but the shared table (killers, history,
    landing caches)."""
    memset(s.lc, 0, (1ULL << LAND_BITS) * sizeof(LandEntry))
    memset(s.rc, 0, (1ULL << LAND_BITS) * sizeof(ReachEntry))
    memset(s.hist, 0, HISTORY_SIZE * sizeof(int32_t))
    memset(s.killer, 0, sizeof(s.killer))
