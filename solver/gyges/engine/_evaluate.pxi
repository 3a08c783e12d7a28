# The engine's landings and evaluation (included in _engine.pyx): the core's landing answers
# through the engine's caches, the witnesses of a move loop, the features of a position and
# their weighted sum, and the value of a horizon node.

cdef extern from *:
    int __builtin_ctzll(unsigned long long) nogil


# -- landings ------------------------------------------------------------------------------

cdef inline int _out_of_reach(S* s, const Board* b, int side, uint64_t* region) noexcept nogil:
    """The core's ``goal_out_of_reach_in``, cached by board and side (a leaf asks it of
    boards its parent asked it of)."""
    cdef uint64_t hi = b.khi | (<uint64_t>side << 63) | (1ULL << 62)
    cdef ReachEntry* e = &s.rc[mix(b.klo ^ (hi * 0xC2B2AE3D27D4EB4FULL))
                               & ((1ULL << LAND_BITS) - 1)]
    if e.klo != b.klo or e.khi != hi:
        e.far = goal_out_of_reach_in(b, side, s.rules, &e.region)
        e.klo = b.klo
        e.khi = hi
    region[0] = e.region
    return <int>e.far


cdef inline uint64_t _land_near(S* s, const Board* b, int side) noexcept nogil:
    """``_land`` once the core's quick test has not ruled the goal out: its exact search,
    cached by board and side (``_shared.land_lookup``)."""
    return land_lookup(s.lc, (1ULL << LAND_BITS) - 1, s.rules, b, side, NULL, NULL)


cdef inline uint64_t _land(S* s, const Board* b, int side) noexcept nogil:
    """The core's ``land_support`` (0: ``side`` cannot land on ``b``): its quick test,
    then its exact search through a cache (not under ``blocked=next-row``, where the
    answer depends on the history)."""
    cdef History h
    cdef uint64_t region
    if s.rules & R_BLOCK_NEXTROW:
        line_view(&s.line, &h)
        return land_support(b, side, s.rules, &h)
    if _out_of_reach(s, b, side, &region):
        return 0
    return _land_near(s, b, side)


cdef inline void _witness(S* s, Witnesses* w, const Board* b, int side) noexcept nogil:
    """What the parent board ``b`` says of ``side``'s landings, for its children
    (``_shared.witness_settle`` after the cached quick test): ``w.n`` is 1 when ``side``
    could land on ``b`` (a threat), else 0."""
    witness_init(w, side)
    if s.rules & R_BLOCK_NEXTROW:
        return
    witness_settle(w, s.rules, b, NULL, _out_of_reach(s, b, side, &w.region))


cdef inline int _lands_after(S* s, Witnesses* w, const Board* child, CMove m) noexcept nogil:
    """Can ``w.side`` land on ``child``, the board after move ``m``? A goal path of the
    parent board that the move leaves alone stands; an answer "out of reach" whose slots
    the move leaves alone stands too (the shore row unchanged, both ways:
    ``_shared.witness_knows``); otherwise the core is asked (and nothing more is kept:
    ``w.n`` still says whether the parent was threatened)."""
    cdef int known = witness_knows(w, child, m)
    if known >= 0:
        return known
    return _land(s, child, w.side) != 0


# -- the evaluation ------------------------------------------------------------------------

cdef void _reach(S* s, const Board* b, Reach* r) noexcept nogil:
    cdef int side
    for side in range(2):
        r.far[side] = _out_of_reach(s, b, side, &r.region[side])


cdef void _features(S* s, const Board* b, int x, int threat, Reach* reach,
                    double* f, uint64_t* maps) noexcept nogil:
    """The features of ``b`` with ``x`` to move (``threat``: its opponent could land;
    ``reach``: both sides' quick goal tests), at their places (``F_...``, ``_engine.pxd``),
    and the attack maps the mobility counts come from (``maps``: X's replaces' rings, X's
    other moves' empty end slots, then Y's; ``Search.attack_maps``)."""
    cdef int y = 1 - x, rx = shore_row(b, x), ry = shore_row(b, y), i, lo, hi, r, side
    cdef uint64_t rowx, rowy, occ = b.occ
    cdef History h
    line_view(&s.line, &h)
    memset(f, 0, NFEATURES * sizeof(double))
    f[F_TEMPO] = 1.0
    f[F_THREAT] = 1.0 if threat else 0.0
    for i in range(2):                         # i: 0 for X, 1 for Y
        side = x if i == 0 else y
        if reach.far[side]:
            f[F_AREA_X + i] = popcount(reach.region[side] & ~occ) / 8.0
        else:
            f[F_REACH_X + i] = 1.0
            f[F_AREA_X + i] = 36 / 8.0
        f[F_MOBILITY_X + i] = count_simple_moves(b, side, s.rules, &h) / 8.0
    f[F_ADVANCE_X] = rx if x == SOUTH else 5 - rx
    f[F_ADVANCE_Y] = ry if y == SOUTH else 5 - ry
    rowx = (occ >> (6 * rx)) & 63
    rowy = (occ >> (6 * ry)) & 63
    for i in range(6):
        if (rowx >> i) & 1:
            f[F_SHORE_1_X - 1 + b.size[6 * rx + i]] += 1.0
        if (rowy >> i) & 1:
            f[F_SHORE_1_Y - 1 + b.size[6 * ry + i]] += 1.0
    f[F_SAME_ROW] = 1.0 if rx == ry else 0.0
    lo = rx if rx < ry else ry
    hi = ry if rx < ry else rx
    for r in range(lo + 1, hi):
        f[F_BETWEEN] += popcount((occ >> (6 * r)) & 63) / 4.0
    f[F_GOAL_ROW_X] = popcount((occ >> (30 if x == SOUTH else 0)) & 63)
    f[F_GOAL_ROW_Y] = popcount((occ >> (30 if y == SOUTH else 0)) & 63)
    f[F_SURELY_X] = 1.0 if surely_moves(b, x, s.rules, &h) else 0.0
    f[F_SURELY_Y] = 1.0 if surely_moves(b, y, s.rules, &h) else 0.0
    f[F_LONE_X] = 1.0 if popcount(rowx) == 1 else 0.0
    f[F_LONE_Y] = 1.0 if popcount(rowy) == 1 else 0.0
    _mobility(s, b, x, &h, &f[F_MOVES_X], &f[F_RINGS_X], &f[F_ENDS_X], &maps[0])
    _mobility(s, b, y, &h, &f[F_MOVES_Y], &f[F_RINGS_Y], &f[F_ENDS_Y], &maps[2])


cdef void _mobility(S* s, const Board* b, int side, const History* h, double* moves,
                    double* rings, double* ends, uint64_t* maps) noexcept nogil:
    """The side's legal moves, the rings it can land on and the empty slots its moves end
    on, from the core's count of its move list (left at 0 when the side is blocked); the
    last two as slot masks in ``maps[0]`` and ``maps[1]``."""
    cdef CMove list_[MAX_MOVES]
    cdef int n, mover
    cdef uint64_t landed = 0, ended = 0
    n = count_moves(b, side, s.rules, h, list_, &mover, &landed, &ended)
    maps[0] = 0
    maps[1] = 0
    if mover != side:
        return
    maps[0] = landed
    maps[1] = ended
    moves[0] = n / 50.0
    rings[0] = popcount(landed)
    ends[0] = popcount(ended) / 4.0


cdef long long _network(S* s, const Board* b, int x, const double* f,
                        const uint64_t* maps) noexcept nogil:
    """The learned evaluation (``gyges.engine.network.Network.evaluate``, the same integer
    arithmetic): the first layer summed over the occupied slots seen from X (rows turned
    over for North) and, if it reads them, the slots of the attack ``maps`` (seen so
    too), clipped, weighed by the output layer, rounded half away from zero; plus the
    features' term, rounded to nearest (half to even, as Python's ``round``)."""
    cdef int32_t acc[NET_MAX_HIDDEN]
    cdef int nh = s.nh, i, j, slot, o, k
    cdef long long total, value, den = NET_QA * NET_QB, out
    cdef double t = 0.0
    cdef const int16_t* row
    cdef uint64_t m
    for j in range(nh):
        acc[j] = s.nb1[j]
    for slot in range(36):
        if b.size[slot]:
            o = slot if x == SOUTH else (5 - slot // 6) * 6 + slot % 6
            row = &s.nw1[(3 * o + b.size[slot] - 1) * nh]
            for j in range(nh):
                acc[j] += row[j]
    if s.attack:
        for k in range(4):
            m = maps[k]
            while m:
                slot = __builtin_ctzll(m)
                m &= m - 1
                o = slot if x == SOUTH else (5 - slot // 6) * 6 + slot % 6
                row = &s.nw1[(NET_INPUTS + 36 * k + o) * nh]
                for j in range(nh):
                    acc[j] += row[j]
    total = <long long>s.nb2 * NET_QA
    for j in range(nh):
        if acc[j] > 0:
            total += <long long>s.nw2[j] * (acc[j] if acc[j] < NET_QA else NET_QA)
    value = total * 100
    if value >= 0:
        out = (value + den // 2) // den
    else:
        out = -((-value + den // 2) // den)
    for i in range(NFEATURES):
        t += s.nwf[i] * f[i]
    return out + <long long>nearbyint(t)


cdef int _evaluate(S* s, const Board* b, int x, int threat, Reach* reach) noexcept nogil:
    cdef double f[NFEATURES]
    cdef double v = 0.0
    cdef int i
    cdef uint64_t maps[4]
    _features(s, b, x, threat, reach, f, maps)
    if s.nh:
        v = <double>_network(s, b, x, f, maps)
    else:
        for i in range(NFEATURES):
            v += s.w[i] * f[i]
        v *= 100.0
    if v > EVAL_CAP - 1:
        return EVAL_CAP - 1
    if v < -(EVAL_CAP - 1):
        return -(EVAL_CAP - 1)
    return <int>(v + 0.5) if v >= 0 else -<int>(0.5 - v)


# -- the horizon ---------------------------------------------------------------------------

cdef int _parry(S* s, const Board* b, int x, uint64_t threat) noexcept nogil:
    """X (to move on ``b``) faces a landing of its opponent (``threat``: a goal path).
    1: X has a move after which the opponent cannot land; 0: none (X is lost: blocked
    and passed over, or every move leaves a landing); -1: X has no move and the game is
    drawn (``blocked=draw``, or both sides stuck)."""
    cdef int y = 1 - x, n, i, mover
    cdef CMove moves[MAX_MOVES]
    cdef Board child
    cdef History h
    cdef Witnesses w
    line_view(&s.line, &h)
    witness_init(&w, y)
    if not (s.rules & R_BLOCK_NEXTROW):
        witness_keep(&w, threat, 0, shore_row(b, y))
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
        line_view(&s.line, &h)
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
