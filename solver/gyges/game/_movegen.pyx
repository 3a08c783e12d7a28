# cython: language_level=3, boundscheck=False, wraparound=False, cdivision=True, initializedcheck=False
"""The compiled core: how rings move, which rings may move, and what a move leaves behind.

This module is the single source of truth for the rules of movement; every rule option of
``gyges.game.rules.RuleSet`` that affects movement is read here as a bit of ``rules`` (see the
``R_*`` flags in ``_movegen.pxd``). docs/rules.md quotes the seed sentence behind each one.

Slots are numbered ``(row - 1) * 6 + (column - 1)``: 0 is ``11`` (row 1, column 1, South's
starting row), 35 is ``66``. The goals are the pseudo-slots 36 (North's goal, beyond row 6)
and 37 (South's goal, beyond row 1).

A move of a ring of size k is a chain of *segments*: exactly k steps along connections whose
intermediate slots are empty (the moving ring's own start slot counts as empty, since the
ring has been lifted), ending on an empty slot (the move ends there), on a ring (the move
bounces, going on with that ring's size, or, if replacing is allowed, stops there and
relocates that ring), or, as the exact last step, on the opponent's goal (a win). The taboo
forbids reusing a connection (``connection``) or entering a slot from the same side twice
(``entry``) within one move.
"""
from libc.stdint cimport int16_t, uint8_t, uint64_t
from libc.string cimport memset, memcpy
from cpython.ref cimport PyObject

# ---------------------------------------------------------------------------------------
# Segment tables: every way to take exactly k steps from a slot, for each taboo reading
# (mode 0: taboo=connection, 1: taboo=entry; mode 2 ignores the taboo, for explaining a
# refusal: see ``follow_chain``). A segment never reuses a connection (mode 0) or an entry
# (mode 1) within itself; the bits it uses are checked against the rest of the move.

cdef enum:
    MAX_SEGS = 12288
    MAX_PATH = 200
    MAX_LAND = 64
    MAX_DOM = 512         # explored bounce states kept per slot for dominance pruning

ctypedef struct Segment:
    uint64_t mid         # slots stepped on before the end: must be empty
    uint64_t elo         # taboo bits used (directed-edge ids 0..63)
    uint64_t ehi         # taboo bits used (directed-edge ids 64..119)
    uint8_t end          # end slot or goal pseudo-slot
    uint8_t nsteps
    uint8_t steps[3]     # slots entered, in order (the last is ``end``)

cdef Segment SEGS[MAX_SEGS]
cdef int SEG_LEX[MAX_SEGS]      # each table's segments again, by their slots (lexicographic)
cdef int SEG_FIRST[3 * 36 * 4]
cdef int SEG_COUNT[3 * 36 * 4]
# The same segments with the taboo between segments set aside (``goal_out_of_reach``): for
# each taboo reading, slot and k, the distinct sets of intermediate slots, each with the
# ends (bits 36 and 37: the goals) its segments reach.
cdef uint64_t REACH_MID[MAX_SEGS]
cdef uint64_t REACH_END[MAX_SEGS]
cdef int REACH_FIRST[2 * 36 * 4]
cdef int REACH_COUNT[2 * 36 * 4]
cdef uint64_t ROW_MASK[6]
cdef uint64_t ALL_SLOTS = (1ULL << 36) - 1
cdef uint64_t ZOB[38][4]
cdef uint64_t ZOB_SIDE


cdef int _edge_id(int a, int b):
    """Undirected connection id (0..59) between two adjacent slots."""
    cdef int lo = a if a < b else b
    cdef int hi = b if a < b else a
    if hi - lo == 1:           # horizontal: row r, columns c and c+1
        return (lo // 6) * 5 + (lo % 6)
    return 30 + lo             # vertical: lo in rows 1..5


cdef list _neighbours(int s):
    cdef int r = s // 6, c = s % 6
    out = []
    if r < 5:
        out.append(s + 6)
    else:
        out.append(GOAL_N)
    if r > 0:
        out.append(s - 6)
    else:
        out.append(GOAL_S)
    if c > 0:
        out.append(s - 1)
    if c < 5:
        out.append(s + 1)
    return out


cdef void _build_tables():
    cdef int mode, s, k, n = 0, i
    cdef Segment* seg
    for i in range(6):
        ROW_MASK[i] = ((1ULL << 6) - 1) << (6 * i)
    for mode in range(3):
        for s in range(36):
            for k in range(1, 4):
                SEG_FIRST[(mode * 36 + s) * 4 + k] = n
                paths = [[s]]
                for _ in range(k):
                    longer = []
                    for p in paths:
                        if p[len(p) - 1] >= 36:
                            continue              # a goal can only be the last step
                        for nb in _neighbours(p[len(p) - 1]):
                            longer.append(p + [nb])
                    paths = longer
                for p in paths:
                    used = set()
                    ok = True
                    bits = []
                    for i in range(k):
                        a, b = p[i], p[i + 1]
                        if b >= 36:
                            continue              # the step onto a goal ends the move
                        e = _edge_id(a, b)
                        if mode == 2:
                            continue              # no taboo
                        key = e if mode == 0 else (e, a < b)
                        if key in used:
                            ok = False
                            break
                        used.add(key)
                        if mode == 0:
                            bits.extend([2 * e, 2 * e + 1])
                        else:
                            bits.append(2 * e + (0 if a < b else 1))
                    if not ok:
                        continue
                    seg = &SEGS[n]
                    seg.mid = 0
                    seg.elo = 0
                    seg.ehi = 0
                    for i in range(1, k):
                        seg.mid |= 1ULL << p[i]
                    for bit in bits:
                        if bit < 64:
                            seg.elo |= 1ULL << bit
                        else:
                            seg.ehi |= 1ULL << (bit - 64)
                    seg.end = p[k]
                    seg.nsteps = k
                    for i in range(k):
                        seg.steps[i] = p[i + 1]
                    n += 1
                first = SEG_FIRST[(mode * 36 + s) * 4 + k]
                SEG_COUNT[(mode * 36 + s) * 4 + k] = n - first
                order = sorted([([SEGS[j].steps[x] for x in range(k)], j)
                                for j in range(first, n)])
                for i in range(n - first):
                    SEG_LEX[first + i] = order[i][1]
    _build_reach_tables()


cdef void _build_reach_tables():
    cdef int mode, s, k, i, n = 0
    for mode in range(2):
        for s in range(36):
            for k in range(1, 4):
                t = (mode * 36 + s) * 4 + k
                ends = {}
                for i in range(SEG_FIRST[t], SEG_FIRST[t] + SEG_COUNT[t]):
                    ends[SEGS[i].mid] = ends.get(SEGS[i].mid, 0) | (1 << int(SEGS[i].end))
                REACH_FIRST[t] = n
                for mid in sorted(ends):
                    REACH_MID[n] = mid
                    REACH_END[n] = ends[mid]
                    n += 1
                REACH_COUNT[t] = n - REACH_FIRST[t]


cdef uint64_t _splitmix(uint64_t* state) noexcept:
    state[0] += 0x9E3779B97F4A7C15ULL
    cdef uint64_t z = state[0]
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ULL
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBULL
    return z ^ (z >> 31)


cdef void _build_zobrist():
    global ZOB_SIDE
    cdef uint64_t state = 0x6779676573ULL   # fixed seed: hashes are the same on every run
    cdef int s, z
    for s in range(38):
        for z in range(4):
            ZOB[s][z] = _splitmix(&state) if z > 0 else 0
    ZOB_SIDE = _splitmix(&state)


_build_tables()
_build_zobrist()

# ---------------------------------------------------------------------------------------
# Boards.

cdef inline int _popcount(uint64_t x) noexcept nogil:
    return __builtin_popcountll(x)

cdef inline int _lowbit(uint64_t x) noexcept nogil:
    return __builtin_ctzll(x)

cdef extern from *:
    int __builtin_popcountll(unsigned long long) nogil
    int __builtin_ctzll(unsigned long long) nogil


cdef void board_set(Board* b, int slot, int size) noexcept nogil:
    cdef int old = b.size[slot]
    b.size[slot] = <uint8_t>size
    if size:
        b.occ |= 1ULL << slot
    else:
        b.occ &= ~(1ULL << slot)
    if slot < 32:
        b.klo ^= (<uint64_t>(old ^ size)) << (2 * slot)
    else:
        b.khi ^= (<uint64_t>(old ^ size)) << (2 * (slot - 32))


cdef void board_make(Board* b, CMove m) noexcept nogil:
    """Play a (non-winning) move on the board."""
    cdef int mover = b.size[m.start]
    cdef int landed
    if m.reloc == NO_SLOT:
        board_set(b, m.start, 0)
        board_set(b, m.to, mover)
    else:
        landed = b.size[m.to]
        board_set(b, m.start, 0)
        board_set(b, m.to, mover)
        board_set(b, m.reloc, landed)


cdef int shore_row(const Board* b, int side) noexcept nogil:
    """The row (0..5) of the side's proximes: the non-empty row nearest its own goal."""
    cdef int r
    if b.occ == 0:
        return -1
    if side == SOUTH:
        return _lowbit(b.occ) // 6
    for r in range(5, -1, -1):
        if b.occ & ROW_MASK[r]:
            return r
    return -1


cdef uint64_t zobrist(const Board* b, int side) noexcept nogil:
    cdef uint64_t h = ZOB_SIDE if side == NORTH else 0
    cdef uint64_t occ = b.occ
    cdef int s
    while occ:
        s = _lowbit(occ)
        occ &= occ - 1
        h ^= ZOB[s][b.size[s]]
    return h

# ---------------------------------------------------------------------------------------
# The bounce search from one ring.

ctypedef struct Ctx:
    const Board* b
    uint64_t occm        # occupancy with the moving ring lifted
    int rules
    int goal             # the goal this side wins on
    int goal_only        # stop at the first goal landing
    int stop
    int replace
    int verbose
    PyObject* collector  # a list receiving every path (ring_paths), or NULL
    uint64_t ends        # empty slots where the move can end
    uint64_t lands       # rings the move can land on (candidates for a replace)
    int win
    uint64_t support     # goal_only: the slots the goal path found relies on
    uint64_t read        # goal_only: the rings that closed a segment, the ends of the others
    uint8_t depth[38]    # fewest bounces to reach each end / landing / the goal
    # explored bounce states per slot (used taboo bits, landed rings, bounces so far)
    int dom_n[36]
    uint64_t dom_lo[36][MAX_DOM]
    uint64_t dom_hi[36][MAX_DOM]
    uint64_t dom_land[36][MAX_DOM]
    uint8_t dom_depth[36][MAX_DOM]
    int prune            # dominance pruning on (off when every path must be listed)
    int near_n           # earlier boards one move could reproduce (Renop), see _near_history
    uint64_t near_lo[64]
    uint64_t near_hi[64]
    int count_only       # count_moves: moves that no rule could drop are counted, not listed
    int counted          # ... how many
    uint64_t counted_rings   # ... the rings their replaces land on
    uint64_t counted_ends    # ... the empty slots their other moves end on
    int null_index       # where the row's null move (board unchanged) went, or -1
    int null_depth
    # swaps emitted in the current row (its rings: swap_row): bit e of swap_to[a] when
    # ring a swapped with the ring on e, with its bounces and its place in the list (-1:
    # dropped)
    uint64_t swap_row
    uint64_t swap_to[36]
    uint8_t swap_depth[36][36]
    int16_t swap_index[36][36]
    # follow_chain: the written chain (landings, then the final slot or -1 for any), the
    # kind of the final slot (0 end, 1 land, 2 goal, -1 any), the written intermediate
    # steps of each segment (grp_n -1: not written) and how many paths to collect
    int chain_len
    uint8_t chain[MAX_LAND]
    int fin
    int fin_kind
    int grp_n[MAX_LAND]
    uint8_t grp[MAX_LAND][3]
    int limit
    int nfound
    int mode             # which segment table (2: ignore the taboo)
    # verbose: the current path and landings, and the best path recorded per slot
    int plen
    int nland
    uint8_t path[MAX_PATH]
    uint8_t landing[MAX_LAND]
    int best_plen[38]
    int best_nland[38]
    uint8_t best_path[38][MAX_PATH]
    uint8_t best_landing[38][MAX_LAND]


cdef void _collect(Ctx* c, int slot, const Segment* seg) noexcept with gil:
    path = [c.path[j] for j in range(c.plen)] + [seg.steps[j] for j in range(seg.nsteps)]
    kind = "goal" if slot >= 36 else ("land" if (c.occm >> slot) & 1 else "end")
    (<list>c.collector).append((kind, tuple(path), tuple([c.landing[j] for j in range(c.nland)])))


cdef inline void _record(Ctx* c, int slot, const Segment* seg, int depth) noexcept nogil:
    if c.collector != NULL:
        _collect(c, slot, seg)
    if depth >= c.depth[slot]:
        return
    c.depth[slot] = <uint8_t>depth
    if not c.verbose:
        return
    memcpy(c.best_path[slot], c.path, c.plen)
    memcpy(&c.best_path[slot][c.plen], seg.steps, seg.nsteps)
    c.best_plen[slot] = c.plen + seg.nsteps
    memcpy(c.best_landing[slot], c.landing, c.nland)
    c.best_nland[slot] = c.nland


cdef inline int _dominated(Ctx* c, int e, uint64_t ulo, uint64_t uhi, uint64_t landed,
                           int depth) noexcept nogil:
    """Has the search already bounced on ``e`` with no more used and no more bounces?

    From such an earlier state every continuation of this one is open too, with at most as
    many bounces, so this one can reach nothing new: skipping it is exact (fewest-bounce
    representatives included). New states are remembered while there is room.
    """
    cdef int i, n = c.dom_n[e]
    cdef uint64_t lmask = landed if c.rules & R_ONCE else 0
    for i in range(n):
        if (c.dom_lo[e][i] & ~ulo) == 0 and (c.dom_hi[e][i] & ~uhi) == 0 \
                and (c.dom_land[e][i] & ~lmask) == 0 and c.dom_depth[e][i] <= depth:
            return 1
    if n < MAX_DOM:
        c.dom_lo[e][n] = ulo
        c.dom_hi[e][n] = uhi
        c.dom_land[e][n] = lmask
        c.dom_depth[e][n] = <uint8_t>depth
        c.dom_n[e] = n + 1
    return 0


cdef inline int _path_push(Ctx* c, const Segment* seg, int e) noexcept nogil:
    """Extend the written path by a segment that bounces on ``e``; 0 when it would not fit."""
    if c.plen + 3 >= MAX_PATH or c.nland + 1 >= MAX_LAND:
        return 0
    memcpy(&c.path[c.plen], seg.steps, seg.nsteps)
    c.plen += seg.nsteps
    c.landing[c.nland] = <uint8_t>e
    c.nland += 1
    return 1


cdef inline void _path_pop(Ctx* c, const Segment* seg) noexcept nogil:
    c.plen -= seg.nsteps
    c.nland -= 1


cdef void _dfs(Ctx* c, int at, int k, uint64_t ulo, uint64_t uhi, uint64_t landed,
               int depth) noexcept nogil:
    cdef int mode = 1 if c.rules & R_ENTRY else 0
    cdef int t = (mode * 36 + at) * 4 + k
    cdef int i, e
    cdef uint64_t eb
    cdef const Segment* seg
    for i in range(SEG_FIRST[t], SEG_FIRST[t] + SEG_COUNT[t]):
        seg = &SEGS[i]
        if seg.mid & c.occm:
            if c.goal_only:
                c.read |= seg.mid & c.occm
            continue
        if (seg.elo & ulo) | (seg.ehi & uhi):
            continue
        e = seg.end
        if e >= 36:
            if e == c.goal:
                c.win = 1
                _record(c, e, seg, depth)
                if c.goal_only:
                    c.stop = 1
                    c.support = seg.mid    # the frames below add their own steps
                    return
            continue
        if e >= 36:
            continue
        eb = 1ULL << e
        if c.goal_only:
            c.read |= eb                   # land_search's region: an end tried
        if not (c.occm & eb):
            if not c.goal_only:
                c.ends |= eb
                if not c.count_only or e == c.path[0]:
                    _record(c, e, seg, depth)   # (counting reads the start's only)
            continue
        if (c.rules & R_ONCE) and (landed & eb):
            continue
        if c.replace and not c.goal_only:
            c.lands |= eb
            _record(c, e, seg, depth)
        if c.prune and _dominated(c, e, ulo | seg.elo, uhi | seg.ehi, landed | eb, depth + 1):
            continue
        if c.verbose and not _path_push(c, seg, e):
            continue
        _dfs(c, e, c.b.size[e], ulo | seg.elo, uhi | seg.ehi, landed | eb, depth + 1)
        if c.verbose:
            _path_pop(c, seg)
        if c.stop:
            c.support |= seg.mid | eb
            return


cdef inline int _steps_written(Ctx* c, int depth, const Segment* seg) noexcept nogil:
    """Does the segment step on exactly the slots written for segment ``depth``?"""
    cdef int j
    if c.grp_n[depth] != seg.nsteps - 1:
        return 0
    for j in range(seg.nsteps - 1):
        if seg.steps[j] != c.grp[depth][j]:
            return 0
    return 1


cdef void _follow(Ctx* c, int at, int k, uint64_t ulo, uint64_t uhi, uint64_t landed,
                  int depth) noexcept nogil:
    """The bounce search restricted to a written chain (``follow_chain``): segment
    ``depth`` must end on ``chain[depth]``, a ring, and take the written intermediate steps
    when they are given; after the chain, the last segment ends on ``fin`` (any slot when
    -1) of the kind asked. The segments are tried by their slots, so the first path found
    is the lexicographically first. Every path found goes to the collector."""
    cdef int t = (c.mode * 36 + at) * 4 + k
    cdef int i, e, kind
    cdef uint64_t eb
    cdef const Segment* seg
    for i in range(SEG_FIRST[t], SEG_FIRST[t] + SEG_COUNT[t]):
        seg = &SEGS[SEG_LEX[i]]
        if seg.mid & c.occm:
            continue
        if (seg.elo & ulo) | (seg.ehi & uhi):
            continue
        if c.grp_n[depth] >= 0 and not _steps_written(c, depth, seg):
            continue
        e = seg.end
        eb = (1ULL << e) if e < 36 else 0
        if depth < c.chain_len:             # a bounce of the chain
            if e != c.chain[depth] or e >= 36 or not (c.occm & eb):
                continue
            if (c.rules & R_ONCE) and (landed & eb):
                continue
            if not _path_push(c, seg, e):
                continue
            _follow(c, e, c.b.size[e], ulo | seg.elo, uhi | seg.ehi, landed | eb, depth + 1)
            _path_pop(c, seg)
            if c.stop:
                return
            continue
        if c.fin >= 0 and e != c.fin:       # the last segment
            continue
        if e >= 36:
            if e != c.goal:
                continue
            kind = 2
        elif c.occm & eb:
            if (c.rules & R_ONCE) and (landed & eb):
                continue
            kind = 1
        else:
            kind = 0
        if c.fin_kind >= 0 and kind != c.fin_kind:
            continue
        _collect(c, e, seg)
        c.nfound += 1
        if c.nfound >= c.limit:
            c.stop = 1
            return


cdef void _search_ring(Ctx* c, const Board* b, int side, int rules, int s, int goal_only,
                       int verbose) noexcept nogil:
    c.b = b
    c.occm = b.occ & ~(1ULL << s)
    c.rules = rules
    c.goal = GOAL_N if side == SOUTH else GOAL_S
    c.goal_only = goal_only
    c.stop = 0
    c.replace = 1 if rules & (R_REPLACE_SHORE | R_REPLACE_ANY) else 0
    c.verbose = verbose
    c.collector = NULL
    c.prune = 1
    memset(c.dom_n, 0, sizeof(c.dom_n))
    c.ends = 0
    c.lands = 0
    c.win = 0
    memset(c.depth, 255, sizeof(c.depth))
    c.plen = 1
    c.path[0] = <uint8_t>s
    c.nland = 0
    _dfs(c, s, b.size[s], 0, 0, 0, 0)


cdef uint64_t _reloc_targets(const Board* b, int side, int rules, int s) noexcept nogil:
    """Empty slots a landed-on ring may be relocated to, once it is lifted.

    The opponent's shore is judged on the board as it stands at that moment: the moving
    ring set down on the landing slot, the landed-on ring in hand. The moving ring's
    vacated start slot is a legal target.
    """
    cdef uint64_t occm = b.occ & ~(1ULL << s)
    cdef uint64_t free = ~occm & ALL_SLOTS
    cdef int r, opp_shore
    if rules & R_REPLACE_ANY:
        return free
    if side == SOUTH:                 # North's shore: the highest non-empty row
        opp_shore = 5
        while opp_shore > 0 and not (occm & ROW_MASK[opp_shore]):
            opp_shore -= 1
        return free & ((1ULL << (6 * (opp_shore + 1))) - 1)
    opp_shore = _lowbit(occm) // 6    # South's shore: the lowest non-empty row
    return free & ~((1ULL << (6 * opp_shore)) - 1) & ALL_SLOTS

# ---------------------------------------------------------------------------------------
# Move lists.

cdef inline void _key_flip(uint64_t* lo, uint64_t* hi, int slot, int bits) noexcept nogil:
    if slot < 32:
        lo[0] ^= (<uint64_t>bits) << (2 * slot)
    else:
        hi[0] ^= (<uint64_t>bits) << (2 * (slot - 32))


cdef inline void _key_after(const Board* b, CMove m, uint64_t* lo, uint64_t* hi) noexcept nogil:
    """The board key after a (non-winning) move, from the current key by XOR."""
    cdef int mover = b.size[m.start], landed
    lo[0] = b.klo
    hi[0] = b.khi
    _key_flip(lo, hi, m.start, mover)              # start: mover -> empty
    if m.reloc == NO_SLOT:
        _key_flip(lo, hi, m.to, mover)             # end: empty -> mover
    else:
        landed = b.size[m.to]
        _key_flip(lo, hi, m.to, landed ^ mover)    # landing: landed ring -> mover
        _key_flip(lo, hi, m.reloc, landed)         # target: empty -> landed ring


cdef inline int _slots_changed(uint64_t x, uint64_t y) noexcept nogil:
    """How many slots differ between two board keys (2 bits per slot)."""
    return _popcount((x | (x >> 1)) & 0x5555555555555555ULL) \
        + _popcount((y | (y >> 1)) & 0x5555555555555555ULL)


cdef void _near_history(Ctx* c, const Board* b, int rules, const History* hist) noexcept nogil:
    """Keep the earlier boards that one move could reproduce: at most 3 slots differ.

    A move changes 2 slots (3 for a replace), so only those boards can be repeated; the
    current board itself is reproduced only by a null move, which _emit_null refuses
    under the Renop law. If too many are near, all are kept (near_n = -1).
    """
    cdef int i
    c.near_n = 0
    if rules & R_REPEAT_OK or hist == NULL:
        return
    for i in range(hist.n):
        if _slots_changed(hist.lo[i] ^ b.klo, hist.hi[i] ^ b.khi) <= 3:
            if c.near_n == 64:
                c.near_n = -1
                return
            c.near_lo[c.near_n] = hist.lo[i]
            c.near_hi[c.near_n] = hist.hi[i]
            c.near_n += 1


cdef inline int _repeats(Ctx* c, const Board* b, CMove m, const History* hist) noexcept nogil:
    """Renop law: does the move reproduce an earlier board? (Null moves: see _emit_null.)"""
    cdef uint64_t lo, hi
    cdef int i
    if c.near_n == 0:
        return 0
    _key_after(b, m, &lo, &hi)
    if c.near_n < 0:
        for i in range(hist.n):
            if hist.lo[i] == lo and hist.hi[i] == hi:
                return 1
        return 0
    for i in range(c.near_n):
        if c.near_lo[i] == lo and c.near_hi[i] == hi:
            return 1
    return 0


cdef int _emit(Ctx* c, const Board* b, const History* hist, CMove* out, int n,
               int start, int to, int reloc) noexcept nogil:
    cdef CMove m
    m.start = <uint8_t>start
    m.to = <uint8_t>to
    m.reloc = <uint8_t>reloc
    if to < 36 and _repeats(c, b, m, hist):
        return n
    if n < MAX_MOVES:
        out[n] = m
        return n + 1
    return n


cdef int _gen_ring(Ctx* c, const Board* b, int side, int rules, const History* hist,
                   int s, CMove* out, int n) noexcept nogil:
    """All distinct results of moving the ring on slot ``s``, appended to ``out``.

    Each resulting position is produced once. A replace whose landed-on ring has the
    moving ring's size leaves the same board as a plain move of the moving ring to the
    relocation slot, so those are merged; the representative is the plain move when there
    is one (as the seeds write such moves: ``34-44-43``, not ``34x44=43``), else the
    replace; among paths of one kind, the one with the fewest bounces.
    """
    cdef uint64_t reloc = 0, same = 0, diff = 0, targets, lands, rs
    cdef int t, e, best_e, mover = b.size[s]
    _search_ring(c, b, side, rules, s, 0, c.verbose)
    if c.win:
        n = _emit(c, b, hist, out, n, s, c.goal, NO_SLOT)
    if c.lands:
        reloc = _reloc_targets(b, side, rules, s)
        lands = c.lands
        while lands:
            e = _lowbit(lands)
            lands &= lands - 1
            if b.size[e] == mover:
                same |= 1ULL << e
            else:
                diff |= 1ULL << e
    best_e = -1
    if same and reloc:
        lands = same
        while lands:
            e = _lowbit(lands)
            lands &= lands - 1
            if best_e < 0 or c.depth[e] < c.depth[best_e]:
                best_e = e
    targets = c.ends | (reloc if same else 0)
    if c.count_only and c.near_n == 0:
        # no earlier board to reproduce: every target but the start is a move
        t = _popcount(targets & ~(1ULL << s))
        c.counted += t
        c.counted_ends |= c.ends & ~(1ULL << s)
        if (targets & ~c.ends) & ~(1ULL << s):
            c.counted_rings |= 1ULL << best_e
        targets &= 1ULL << s             # the null move is listed (one per row)
    while targets:
        t = _lowbit(targets)
        targets &= targets - 1
        if t == s:
            n = _emit_null(c, b, rules, hist, out, n, s, best_e if (reloc >> s) & 1 else -1)
        elif (c.ends >> t) & 1:
            n = _emit(c, b, hist, out, n, s, t, NO_SLOT)
        else:
            n = _emit(c, b, hist, out, n, s, best_e, t)
    if diff and reloc:
        lands = diff
        while lands:
            e = _lowbit(lands)
            lands &= lands - 1
            if c.count_only and c.near_n == 0:
                # no earlier board to reproduce: every target but the start is a move
                t = _popcount(reloc & ~(1ULL << s))
                if t:
                    c.counted += t
                    c.counted_rings |= 1ULL << e
                if (reloc >> s) & 1:
                    n = _emit_swap(c, b, rules, hist, out, n, s, e)
                continue
            rs = reloc
            while rs:
                t = _lowbit(rs)
                rs &= rs - 1
                if t == s:
                    n = _emit_swap(c, b, rules, hist, out, n, s, e)
                else:
                    n = _emit(c, b, hist, out, n, s, e, t)
    return n


cdef int _emit_null(Ctx* c, const Board* b, int rules, const History* hist, CMove* out, int n,
                    int s, int best_e) noexcept nogil:
    """Emit the null move of ring ``s`` (the board is left unchanged), if the rules allow.

    ``best_e`` is the same-size ring whose replace can put it back on ``s`` (-1: none).

    Every ring that can come back to its start (or swap with a ring of its own size) gives
    the same result: the row lists one null move, a plain one if any (then fewest bounces).
    """
    cdef int plain = (c.ends >> s) & 1
    cdef int depth = c.depth[s] if plain else 256 + c.depth[best_e]   # rank: plain first
    cdef int to = s if plain else best_e
    cdef int reloc = NO_SLOT if plain else s
    if not (rules & R_NULL_OK) or not (rules & R_REPEAT_OK):
        return n                     # forbidden, or it reproduces the current position (Renop)
    if c.null_index >= 0:
        if depth < c.null_depth:
            out[c.null_index].start = <uint8_t>s
            out[c.null_index].to = <uint8_t>to
            out[c.null_index].reloc = <uint8_t>reloc
            c.null_depth = depth
        return n
    cdef int before = n
    n = _emit(c, b, hist, out, n, s, to, reloc)
    c.null_index = before
    c.null_depth = depth
    return n


cdef int _emit_swap(Ctx* c, const Board* b, int rules, const History* hist, CMove* out, int n,
                    int s, int e) noexcept nogil:
    """Emit the replace that swaps the rings on ``s`` and ``e`` (relocation to the start).

    When both rings may move, ring ``e`` replacing ring ``s`` back onto ``e`` leaves the same
    board: the swap is listed once, with the path of fewer bounces (the first one on ties).
    """
    cdef int i, depth = c.depth[e]
    if (c.swap_row >> e) & 1 and (c.swap_to[e] >> s) & 1:
        i = c.swap_index[e][s]
        if depth < c.swap_depth[e][s] and i >= 0:
            out[i].start = <uint8_t>s
            out[i].to = <uint8_t>e
            out[i].reloc = <uint8_t>s
            c.swap_depth[e][s] = <uint8_t>depth
        return n
    cdef int before = n
    n = _emit(c, b, hist, out, n, s, e, s)
    c.swap_to[s] |= 1ULL << e
    c.swap_depth[s][e] = <uint8_t>depth
    c.swap_index[s][e] = <int16_t>(before if n > before else -1)
    return n


cdef int _gen_row(Ctx* c, const Board* b, int side, int rules, const History* hist, int row,
                  CMove* out) noexcept nogil:
    cdef uint64_t rings = b.occ & ROW_MASK[row], left = rings
    cdef int s, n = 0
    c.swap_row = rings
    while left:
        s = _lowbit(left)
        left &= left - 1
        c.swap_to[s] = 0
    c.null_index = -1
    while rings:
        s = _lowbit(rings)
        rings &= rings - 1
        n = _gen_ring(c, b, side, rules, hist, s, out, n)
    return n


cdef inline int _next_row(const Board* b, int side, int row) noexcept nogil:
    """The next non-empty row away from the side's own goal, or -1."""
    cdef int step = 1 if side == SOUTH else -1
    row += step
    while 0 <= row <= 5:
        if b.occ & ROW_MASK[row]:
            return row
        row += step
    return -1


cdef int _gen_side(Ctx* c, const Board* b, int side, int rules, const History* hist,
                   CMove* out) noexcept nogil:
    cdef int row = shore_row(b, side), n
    while row >= 0:
        n = _gen_row(c, b, side, rules, hist, row, out)
        if n or c.counted or not (rules & R_BLOCK_NEXTROW):
            return n
        row = _next_row(b, side, row)
    return 0


cdef Ctx _CTX   # scratch space for the nogil entry points (the module is not re-entrant)


cdef int _moves(Ctx* c, const Board* b, int side, int rules, const History* hist, CMove* out,
                int* mover, int count_only) noexcept nogil:
    """gen_moves, or with ``count_only`` its count's listed part (see count_moves)."""
    cdef int n
    c.verbose = 0
    c.count_only = count_only
    c.counted = 0
    c.counted_rings = 0
    c.counted_ends = 0
    mover[0] = side
    _near_history(c, b, rules, hist)
    n = _gen_side(c, b, side, rules, hist, out)
    if not (n or c.counted or rules & (R_BLOCK_DRAW | R_BLOCK_NEXTROW)):
        mover[0] = 1 - side
        n = _gen_side(c, b, 1 - side, rules, hist, out)
    c.count_only = 0
    return n


cdef int gen_moves(const Board* b, int side, int rules, const History* hist,
                   CMove* out, int* mover) noexcept nogil:
    """Every legal move of the side to move (one per distinct result, wins included).

    ``mover`` receives the side that actually moves: under ``blocked=pass`` a side with
    no legal move is passed over and its opponent moves again. 0 moves means the game
    cannot go on (``blocked=draw``, or both sides stuck).
    """
    return _moves(&_CTX, b, side, rules, hist, out, mover, 0)


cdef int count_moves(const Board* b, int side, int rules, const History* hist, CMove* out,
                     int* mover, uint64_t* rings, uint64_t* ends) noexcept nogil:
    """How many moves ``gen_moves`` lists (``mover`` as there), without listing them
    all: ``rings`` receives the slots its replaces land on, ``ends`` the empty slots its
    other moves end on (goal landings left out); ``out`` is scratch space of
    ``MAX_MOVES``. The evaluation's mobility, at a fraction of the cost: a ring's plain
    moves are its end slots, a replace is a landing times its relocation targets, and
    only the Renop law, a null move or a swap (relocation to the start) can drop one of
    them; those are listed."""
    cdef Ctx* c = &_CTX
    cdef int n = _moves(c, b, side, rules, hist, out, mover, 1), i
    cdef int total = n + c.counted
    c.counted = 0
    rings[0] = c.counted_rings
    ends[0] = c.counted_ends
    for i in range(n):
        if out[i].to >= 36:
            continue
        if out[i].reloc != NO_SLOT:
            rings[0] |= 1ULL << out[i].to
        else:
            ends[0] |= 1ULL << out[i].to
    return total if total < MAX_MOVES else MAX_MOVES


cdef int can_land(const Board* b, int side, int rules, const History* hist) noexcept nogil:
    """Can the side to move land on the opponent's goal with this move?

    Does not enumerate moves, except under ``blocked=next-row`` when the shore has no
    goal landing: then whether the shore can move at all decides which row plays.
    """
    return land_support(b, side, rules, hist) != 0


cdef int goal_out_of_reach(const Board* b, int side, int rules) noexcept nogil:
    cdef uint64_t region
    return goal_out_of_reach_in(b, side, rules, &region)


cdef int goal_out_of_reach_in(const Board* b, int side, int rules,
                              uint64_t* region) noexcept nogil:
    """1 when no ring of the side's shore can land on the goal even with the taboo (and
    ``rebounce=once``) set aside: then it surely cannot land. A cheap test before the
    exact bounce search, which spends most of its time proving that it cannot.

    Which rings a move could bounce off is found breadth first, each ring once: from a
    shore ring, or from a ring bounced off, every segment of its size whose intermediate
    slots are empty (the shore's own slots counted as empty, as the moving ring lifts
    one of them) reaches the goal, an empty slot, or another ring to bounce off. Every
    legal goal path is such a chain of segments, so none exists when no chain ends on
    the goal.

    With 1, ``region`` receives the slots the answer rests on: the shore row, the rings
    that closed a segment, and every slot an open segment ends on. On a board that
    differs only elsewhere, the shore on the same row, the goal is out of reach too (no
    segment opens, no new ring to bounce off, the same rings where chains go).
    """
    cdef int row = shore_row(b, side), a, i, t
    cdef int mode = 1 if rules & R_ENTRY else 0
    cdef uint64_t goal = 1ULL << (GOAL_N if side == SOUTH else GOAL_S)
    cdef uint64_t starts, occm, todo, seen, ends, closed
    if row < 0:
        region[0] = ALL_SLOTS
        return 1
    starts = b.occ & ROW_MASK[row]
    occm = b.occ & ~starts
    todo = starts
    seen = starts
    closed = 0
    region[0] = ROW_MASK[row]
    while todo:
        a = _lowbit(todo)
        todo &= todo - 1
        t = (mode * 36 + a) * 4 + b.size[a]
        ends = 0
        for i in range(REACH_FIRST[t], REACH_FIRST[t] + REACH_COUNT[t]):
            if REACH_MID[i] & occm:
                closed |= REACH_MID[i] & occm
            else:
                ends |= REACH_END[i]
        if ends & goal:
            return 0
        region[0] |= ends & ALL_SLOTS
        ends &= b.occ & ~seen
        seen |= ends
        todo |= ends
    region[0] |= closed
    return 1


cdef uint64_t land_support(const Board* b, int side, int rules, const History* hist) noexcept nogil:
    """``can_land`` with a witness: 0 when the side cannot land now, else the slots one
    goal path relies on (its start ring, every slot it steps on, every ring it bounces
    off). That path stays legal on any board where none of those slots changed and the
    side's shore row is the same, so the side can still land there: the solver reuses it
    across sibling moves. A landing from a row behind the shore (``blocked=next-row``)
    has no such witness: every slot is returned.
    """
    cdef uint64_t region
    if not (rules & R_BLOCK_NEXTROW) and goal_out_of_reach(b, side, rules):
        return 0
    return land_search(b, side, rules, hist, &region)


cdef uint64_t land_search(const Board* b, int side, int rules, const History* hist,
                          uint64_t* region) noexcept nogil:
    """``land_support`` by the exact bounce search alone; when the side cannot land (0),
    ``region`` receives the slots that answer rests on, as ``goal_out_of_reach_in``'s:
    the shore row, every ring that closed a segment tried, every slot a segment tried
    (open, its taboo free) ends on. A board that differs only elsewhere, with the shore
    on the same row, offers no goal path either: every segment open there was open here,
    every ring bounced off there was one here, of the same size. (Dominance pruning skips
    only states whose segments an explored state tried.) Not for ``blocked=next-row``:
    the region is then every slot."""
    cdef Ctx* c = &_CTX
    cdef uint64_t rings
    cdef int s, row = shore_row(b, side), first = 1
    cdef CMove buf[MAX_MOVES]
    region[0] = ALL_SLOTS
    c.read = 0
    _near_history(c, b, rules, hist)
    while row >= 0:
        rings = b.occ & ROW_MASK[row]
        while rings:
            s = _lowbit(rings)
            rings &= rings - 1
            _search_ring(c, b, side, rules, s, 1, 0)
            if c.win:
                return (c.support | (1ULL << s)) if first else ALL_SLOTS
        if not (rules & R_BLOCK_NEXTROW):
            region[0] = (c.read & ALL_SLOTS) | ROW_MASK[row]
            return 0
        c.verbose = 0
        if _gen_row(c, b, side, rules, hist, row, buf):
            return 0
        row = _next_row(b, side, row)
        first = 0
    return 0

# ---------------------------------------------------------------------------------------
# Cheap sufficient tests for the solver: moves certainly legal, a side certainly not blocked.

cdef inline int _in_history(const History* hist, uint64_t lo, uint64_t hi) noexcept nogil:
    cdef int i
    if hist == NULL:
        return 0
    for i in range(hist.n):
        if hist.lo[i] == lo and hist.hi[i] == hi:
            return 1
    return 0


cdef inline int _walk_repeats(const Board* b, int rules, const History* hist, int start,
                              int end) noexcept nogil:
    """Renop law for a plain move from ``start`` to the empty slot ``end``."""
    cdef Board t
    if rules & R_REPEAT_OK:
        return 0
    memcpy(&t, b, sizeof(Board))
    board_set(&t, end, b.size[start])
    board_set(&t, start, 0)
    return _in_history(hist, t.klo, t.khi)


cdef inline uint64_t _simple_ends(const Board* b, int r) noexcept nogil:
    """The empty slots the ring on ``r`` reaches by a simple move: one segment of its k
    steps (taboo=connection, the stricter reading) through empty slots only."""
    cdef int t = r * 4 + b.size[r], i                # mode 0: taboo=connection
    cdef uint64_t ends = 0
    for i in range(SEG_FIRST[t], SEG_FIRST[t] + SEG_COUNT[t]):
        if SEGS[i].end < 36 and not (SEGS[i].mid & b.occ):
            ends |= 1ULL << SEGS[i].end
    return ends & ~b.occ


cdef int surely_moves(const Board* b, int side, int rules, const History* hist) noexcept nogil:
    """A cheap sufficient test that ``side`` is not blocked: a ring on its shore has a
    simple move (``simple_moves``: its k steps through empty slots onto an empty slot,
    never back over a connection, a move under every rule set) that does not reproduce an
    earlier board. 0 means "not sure"."""
    cdef int row = shore_row(b, side), r, a
    cdef uint64_t rings, ends
    if row < 0:
        return 0
    rings = b.occ & ROW_MASK[row]
    while rings:
        r = _lowbit(rings)
        rings &= rings - 1
        ends = _simple_ends(b, r)
        while ends:
            a = _lowbit(ends)
            ends &= ends - 1
            if not _walk_repeats(b, rules, hist, r, a):
                return 1
    return 0


cdef inline int _add_walk(const Board* b, int rules, const History* hist, int start, int end,
                          CMove* out, int n, int cap) noexcept nogil:
    cdef int i
    for i in range(n):
        if out[i].start == start and out[i].to == end:
            return n                        # another walk to the same slot
    if n >= cap or _walk_repeats(b, rules, hist, start, end):
        return n
    out[n].start = <uint8_t>start
    out[n].to = <uint8_t>end
    out[n].reloc = NO_SLOT
    return n + 1


cdef int simple_moves(const Board* b, int side, int rules, const History* hist, CMove* out,
                      int cap) noexcept nogil:
    """Moves legal under every rule set, found without the bounce search: a shore ring
    takes one segment of its k steps (taboo=connection, the stricter reading: never back
    over a connection it used) through empty slots only, never its start slot, and stops
    on an empty slot, not reproducing an earlier board. (A shore ring that can move makes
    the shore row the moving row, ``blocked=next-row`` included.) At most ``cap`` moves;
    one per end slot and ring."""
    cdef int row = shore_row(b, side), r, t, i, n = 0
    cdef uint64_t rings
    cdef const Segment* seg
    if row < 0:
        return 0
    rings = b.occ & ROW_MASK[row]
    while rings:
        r = _lowbit(rings)
        rings &= rings - 1
        t = r * 4 + b.size[r]                    # mode 0: taboo=connection
        for i in range(SEG_FIRST[t], SEG_FIRST[t] + SEG_COUNT[t]):
            seg = &SEGS[i]
            if seg.end >= 36 or seg.mid & b.occ or (b.occ >> seg.end) & 1:
                continue
            n = _add_walk(b, rules, hist, r, seg.end, out, n, cap)
    return n


cdef int count_simple_moves(const Board* b, int side, int rules,
                            const History* hist) noexcept nogil:
    """How many moves ``simple_moves`` lists (with no cap), without listing them: each
    ring's end slots, less those that would reproduce an earlier board (asked only of the
    boards one move could reproduce)."""
    cdef Ctx* c = &_CTX
    cdef int row = shore_row(b, side), r, a, n = 0
    cdef uint64_t rings, ends
    if row < 0:
        return 0
    _near_history(c, b, rules, hist)
    rings = b.occ & ROW_MASK[row]
    while rings:
        r = _lowbit(rings)
        rings &= rings - 1
        ends = _simple_ends(b, r)
        if c.near_n == 0:
            n += _popcount(ends)
            continue
        while ends:
            a = _lowbit(ends)
            ends &= ends - 1
            if not _walk_repeats(b, rules, hist, r, a):
                n += 1
    return n

# ---------------------------------------------------------------------------------------
# Python entry points. Boards cross the boundary as 36-byte ``bytes`` (ring size per slot).

cdef int board_load(Board* b, const unsigned char[:] sizes) except -1:
    """Fill a Board from 36 ring sizes (ValueError on anything else)."""
    cdef int i
    if sizes.shape[0] != 36:
        raise ValueError("a board has 36 slots")
    memset(b, 0, sizeof(Board))
    for i in range(36):
        if sizes[i] > 3:
            raise ValueError("ring sizes are 0..3")
        board_set(b, i, sizes[i])
    return 0


cdef class _Hist:
    cdef uint64_t lo[1024]
    cdef uint64_t hi[1024]
    cdef History h

    def __init__(self, boards):
        cdef Board t
        cdef int i = 0
        for sizes in boards:
            if i >= 1024:
                break
            board_load(&t, sizes)
            self.lo[i] = t.klo
            self.hi[i] = t.khi
            i += 1
        self.h.lo = self.lo
        self.h.hi = self.hi
        self.h.n = i


def generate(bytes sizes, int side, int rules, history=(), bint verbose=False):
    """Legal moves as ``(mover, [(start, to, reloc, path, landings), ...])``.

    ``to`` is the end slot, the landing slot of a replace, or a goal (36/37); ``reloc`` is
    the relocation slot or None. With ``verbose``, ``path`` lists every slot the ring
    enters (starting with its start slot) along the representative path, and ``landings``
    the rings it bounced on; otherwise both are None.
    """
    cdef Board b
    cdef Ctx* c = &_CTX
    cdef int n, i, j, slot, mover = side, searched = -1
    cdef _Hist h = _Hist(history)
    cdef CMove out[MAX_MOVES]
    board_load(&b, sizes)
    n = gen_moves(&b, side, rules, &h.h, out, &mover)
    result = []
    for i in range(n):
        path = landings = None
        if verbose:
            if out[i].start != searched:   # re-run this ring's search, keeping its paths
                searched = out[i].start
                _search_ring(c, &b, mover, rules, searched, 0, 1)
            slot = out[i].to
            path = tuple([c.best_path[slot][j] for j in range(c.best_plen[slot])])
            landings = tuple([c.best_landing[slot][j] for j in range(c.best_nland[slot])])
        result.append((out[i].start, out[i].to,
                       None if out[i].reloc == NO_SLOT else out[i].reloc, path, landings))
    return mover, result


def ring_paths(bytes sizes, int side, int rules, int start, chain=None):
    """Every path the ring on ``start`` can take, as ``(kind, path, landings)`` tuples.

    With ``chain`` (a sequence of slots), only the paths that bounce on exactly those rings,
    in that order, are listed: the search follows the chain (``follow_chain``), so this
    stays fast where the full list of paths would be astronomically long (under
    ``taboo=entry``).

    ``kind`` is ``"end"`` (stops on an empty slot), ``"land"`` (stands on a ring: it may
    bounce on, or replace it when replacing is allowed) or ``"goal"`` (lands on the
    opponent's goal). ``path`` lists every slot entered, starting with ``start``;
    ``landings`` the rings bounced on before. Which rows may move, null moves and the
    Renop law are not applied here: ``generate`` decides legality.
    """
    cdef Board b
    cdef Ctx* c = &_CTX
    if chain is not None:
        return follow_chain(sizes, side, rules, start, chain, limit=-1)
    board_load(&b, sizes)
    if not 0 <= start < 36 or not b.size[start]:
        raise ValueError("no ring on that slot")
    found = []
    c.b = &b
    c.occm = b.occ & ~(1ULL << start)
    c.rules = rules
    c.goal = GOAL_N if side == SOUTH else GOAL_S
    c.goal_only = 0
    c.stop = 0
    c.replace = 1
    c.verbose = 1
    c.collector = <PyObject*>found
    c.prune = 0
    c.ends = 0
    c.lands = 0
    c.win = 0
    memset(c.depth, 255, sizeof(c.depth))
    c.plen = 1
    c.path[0] = <uint8_t>start
    c.nland = 0
    try:
        _dfs(c, start, b.size[start], 0, 0, 0, 0)
    finally:
        c.collector = NULL
        c.verbose = 0
    return found


_KINDS = {"end": 0, "land": 1, "goal": 2}


def follow_chain(bytes sizes, int side, int rules, int start, chain, final=None, kind=None,
                 groups=None, int limit=1, bint ignore_taboo=False):
    """The paths of the ring on ``start`` that follow a written chain, as ``ring_paths``
    lists them: the path-constrained bounce search that notation parsing asks.

    The ring bounces on the rings of ``chain``, in order, then its last segment ends on
    ``final`` (any slot or goal when None) of ``kind`` (``"end"``, ``"land"``,
    ``"goal"``, or any when None). ``groups`` maps a segment's index (0: the one leaving
    ``start``) to the slots it must step on between its ends. The first ``limit`` paths
    (all when negative) are listed, lexicographically first first; with ``ignore_taboo``
    the taboo is not applied (to explain a refusal). Rows, null moves and the Renop law
    are not applied: ``generate`` decides legality.

    >>> board = bytes([1, 2] + [0] * 34)      # a single on 11, a double on 12
    >>> follow_chain(board, 0, 0, 0, [1], final=8, kind="end")
    [('end', (0, 1, 2, 8), (1,))]
    >>> follow_chain(board, 0, 0, 0, [1], final=8, groups={1: [7]}, limit=-1)
    [('end', (0, 1, 7, 8), (1,))]
    """
    cdef Board b
    cdef Ctx* c = &_CTX
    cdef int j, n
    board_load(&b, sizes)
    if not 0 <= start < 36 or not b.size[start]:
        raise ValueError("no ring on that slot")
    found = []
    if len(chain) >= MAX_LAND - 1:
        return found
    for slot in chain:
        if not 0 <= slot < 36:
            return found
    c.b = &b
    c.occm = b.occ & ~(1ULL << start)
    c.rules = rules
    c.goal = GOAL_N if side == SOUTH else GOAL_S
    c.stop = 0
    c.collector = <PyObject*>found
    c.mode = 2 if ignore_taboo else (1 if rules & R_ENTRY else 0)
    c.chain_len = len(chain)
    for j, slot in enumerate(chain):
        c.chain[j] = <uint8_t>slot
    c.fin = -1 if final is None else final
    c.fin_kind = -1 if kind is None else _KINDS[kind]
    for j in range(c.chain_len + 1):
        c.grp_n[j] = -1
    for j, steps in (groups or {}).items():
        if not 0 <= j <= c.chain_len:
            return found
        n = len(steps)
        c.grp_n[j] = n if n <= 2 else 99      # more than 2 steps between: never matches
        for i, slot in enumerate(steps[:2]):
            c.grp[j][i] = 255
            if 0 <= slot < 36:
                c.grp[j][i] = <uint8_t>slot
    c.limit = limit if limit > 0 else 1 << 30
    c.nfound = 0
    c.plen = 1
    c.path[0] = <uint8_t>start
    c.nland = 0
    try:
        _follow(c, start, b.size[start], 0, 0, 0, 0)
    finally:
        c.collector = NULL
    return found


def taboo_clash(path, int rules):
    """The first step ``(a, b)`` of ``path`` (slots entered, start first) that breaks the
    taboo of ``rules``, whichever segments the steps belong to, or None.

    >>> taboo_clash((0, 1, 7, 6, 0, 1), 0)    # 11-12 taken twice (taboo=connection)
    (0, 1)
    >>> taboo_clash((0, 1, 0), 0), taboo_clash((0, 1, 0), 1)  # out and back: entry allows it
    ((1, 0), None)
    """
    cdef int i, a, b, bit
    cdef int entry = rules & R_ENTRY
    used = set()
    for i in range(len(path) - 1):
        a, b = path[i], path[i + 1]
        if a >= 36 or b >= 36:
            continue                     # the step onto a goal ends the move
        bit = _edge_id(a, b)
        if entry:
            bit = 2 * bit + (0 if a < b else 1)
        if bit in used:
            return (a, b)
        used.add(bit)
    return None


def segments(int start, int k, int rules=0, bint ignore_taboo=False):
    """Every way to take exactly ``k`` steps from slot ``start`` on an empty board, as the
    slots entered (``start`` excluded), in the core's table order: the one adjacency of the
    game. The taboo of ``rules`` holds within the segment unless ``ignore_taboo``.

    >>> segments(0, 1)
    [(6,), (37,), (1,)]
    """
    if not 0 <= start < 36 or not 1 <= k <= 3:
        raise ValueError("a segment starts on a slot and takes 1 to 3 steps")
    cdef int mode = 2 if ignore_taboo else (1 if rules & R_ENTRY else 0)
    cdef int t = (mode * 36 + start) * 4 + k
    return [tuple([SEGS[i].steps[j] for j in range(k)])
            for i in range(SEG_FIRST[t], SEG_FIRST[t] + SEG_COUNT[t])]


def relocation_targets(bytes sizes, int side, int rules, int start):
    """Slots where a ring landed on by the ring from ``start`` may be relocated (sorted).

    Empty under ``replace=off``. The landing slot itself is never empty, so never listed.
    """
    cdef Board b
    board_load(&b, sizes)
    if not rules & (R_REPLACE_SHORE | R_REPLACE_ANY):
        return []
    cdef uint64_t m = _reloc_targets(&b, side, rules, start)
    return [t for t in range(36) if (m >> t) & 1]


def quick_moves(bytes sizes, int side, int rules, history=()):
    """``(simple, surely)``: the solver's cheap tests on a position (``simple_moves`` as
    ``(start, end)`` pairs, and ``surely_moves``), for testing them against the full
    generator."""
    cdef Board b
    cdef _Hist h = _Hist(history)
    cdef CMove out[256]
    cdef int n, i
    board_load(&b, sizes)
    n = simple_moves(&b, side, rules, &h.h, out, 256)
    return ([(out[i].start, out[i].to) for i in range(n)],
            bool(surely_moves(&b, side, rules, &h.h)))


def goal_reachable(bytes sizes, int side, int rules, history=()):
    """Can the side to move land on the opponent's goal now? (No move list is built.)"""
    cdef Board b
    cdef _Hist h = _Hist(history)
    board_load(&b, sizes)
    return bool(can_land(&b, side, rules, &h.h))


def landing_witness(bytes sizes, int side, int rules, history=()):
    """0 if the side to move cannot land now, else a bit mask of the slots one goal path
    relies on (``land_support``): on a board that agrees on those slots, with the same
    shore row for the side, the side can land too."""
    cdef Board b
    cdef _Hist h = _Hist(history)
    board_load(&b, sizes)
    return land_support(&b, side, rules, &h.h)


def out_of_reach_region(bytes sizes, int side, int rules):
    """The core's quick test (``goal_out_of_reach_in``), as the solver uses it: None when it
    cannot rule out a landing of the side now (or under ``blocked=next-row``, where it is
    not used), else a bit mask of the slots its answer rests on: on a board that differs
    only elsewhere, with the same shore row for the side, the side cannot land either."""
    cdef Board b
    cdef uint64_t region = 0
    board_load(&b, sizes)
    if rules & R_BLOCK_NEXTROW or not goal_out_of_reach_in(&b, side, rules, &region):
        return None
    return region


def landing_region(bytes sizes, int side, int rules, history=()):
    """The exact search's counterpart of ``out_of_reach_region`` (``land_search``): None
    when the side to move can land now (or under ``blocked=next-row``), else a bit mask
    of the slots that answer rests on."""
    cdef Board b
    cdef _Hist h = _Hist(history)
    cdef uint64_t region = 0
    board_load(&b, sizes)
    if rules & R_BLOCK_NEXTROW or land_search(&b, side, rules, &h.h, &region):
        return None
    return region


def shore(bytes sizes, int side):
    """The side's shore row (1..6), or None on an empty board."""
    cdef Board b
    board_load(&b, sizes)
    cdef int r = shore_row(&b, side)
    return None if r < 0 else r + 1


def position_hash(bytes sizes, int side):
    """A 64-bit Zobrist hash of the rings and the side to move (fixed across runs)."""
    cdef Board b
    board_load(&b, sizes)
    return zobrist(&b, side)

# ---------------------------------------------------------------------------------------
# Perft.

cdef extern from "Python.h":
    int _check_signals "PyErr_CheckSignals" () noexcept
    void PyErr_Fetch(PyObject** type, PyObject** value, PyObject** tb) noexcept
    void PyErr_Restore(PyObject* type, PyObject* value, PyObject* tb) noexcept

cdef int _perft_stopped = 0        # a signal (Ctrl-C) arrived: every node returns at once
cdef PyObject* _perft_exc[3]       # what its handler raised, raised again by perft()


cdef int _perft_signalled() noexcept with gil:
    if _check_signals() != 0:
        PyErr_Fetch(&_perft_exc[0], &_perft_exc[1], &_perft_exc[2])
        return 1
    return 0


cdef int _perft_raise() except -1:
    global _perft_stopped
    if not _perft_stopped:
        return 0
    _perft_stopped = 0
    PyErr_Restore(_perft_exc[0], _perft_exc[1], _perft_exc[2])
    _perft_exc[0] = _perft_exc[1] = _perft_exc[2] = NULL
    return -1


cdef unsigned long long _perft(Board* b, int side, int rules, int depth, uint64_t* hlo,
                               uint64_t* hhi, int hn, unsigned long long* lists) noexcept nogil:
    cdef CMove moves[MAX_MOVES]
    cdef int n, i, mover
    cdef History h
    cdef Board child
    cdef unsigned long long total = 0
    h.lo = hlo
    h.hi = hhi
    h.n = hn
    global _perft_stopped
    if _perft_stopped:
        return 0
    n = gen_moves(b, side, rules, &h, moves, &mover)
    lists[0] += 1
    if (lists[0] & 0x3FFF) == 0 and _perft_signalled():   # look for Ctrl-C (as the kernel)
        _perft_stopped = 1
        return 0
    if depth == 1:
        return n
    hlo[hn] = b.klo
    hhi[hn] = b.khi
    for i in range(n):
        if moves[i].to >= 36:
            continue          # a win ends the game: no leaves below it
        memcpy(&child, b, sizeof(Board))
        board_make(&child, moves[i])
        total += _perft(&child, 1 - mover, rules, depth - 1, hlo, hhi, hn + 1, lists)
    return total


def perft(bytes sizes, int side, int rules, int depth, history=()):
    """Number of move sequences of exactly ``depth`` moves, and the move lists generated.

    Each node's moves are its distinct resulting positions (plus one goal landing per
    ring that can land); a goal landing ends its line. Returns ``(leaves, move_lists)``.
    Signals are looked for every 16,384 move lists (Ctrl-C raises KeyboardInterrupt).
    """
    global _perft_stopped
    cdef Board b
    cdef uint64_t hlo[1100]
    cdef uint64_t hhi[1100]
    cdef int hn = 0
    cdef unsigned long long lists = 0, leaves
    cdef Board t
    if depth < 1:
        return 1, 0
    if depth > 64:
        raise ValueError("perft depth is at most 64")
    for past in history:
        if hn >= 1024:
            break
        board_load(&t, past)
        hlo[hn] = t.klo
        hhi[hn] = t.khi
        hn += 1
    board_load(&b, sizes)
    _perft_stopped = 0
    with nogil:
        leaves = _perft(&b, side, rules, depth, hlo, hhi, hn, &lists)
    _perft_raise()   # Ctrl-C stopped it: KeyboardInterrupt, the count is void
    return leaves, lists
