# cython: language_level=3
"""What the two provers (``_search.pyx``, the alpha-beta kernel, and ``_dfpn.pyx``, df-pn)
and the playing engine (``gyges/engine/_engine.pyx``) share: the plumbing of a search (its
limits, the boards of the line searched, the node count and Ctrl-C, the tables' memory),
pure helpers (hashing, the relevant history, the slot distance of two boards, the cache of
the core's landing answers, the landing witnesses, moves as indices and triples) and the
lazy move picker. No search rule: each prover decides with them on its own (each says at
its top what it writes a second time on purpose).

Landing witnesses: goal paths of one side found by the core (``land_support``) on boards
one move apart, reused for the other moves from the same board. A move that leaves one of
them untouched, and the side's shore row where it was, leaves the side able to land. And
the other way: when the goal is out of the side's reach on the board the moves are made
from, a move that leaves the slots that answer rests on alone, and the shore row where it
was, leaves it out of reach.
"""
from cpython.ref cimport PyObject
from libc.stdint cimport int32_t, uint64_t
from libc.stdlib cimport calloc, free

from gyges.game._movegen cimport (
    Board, CMove, History, board_load, goal_out_of_reach, goal_out_of_reach_in, land_search,
    land_support, shore_row, surely_moves, NO_SLOT,
    R_BLOCK_DRAW, R_BLOCK_NEXTROW, R_REPEAT_OK, R_REPLACE_ANY, R_REPLACE_SHORE,
)

cdef extern from *:
    int __builtin_popcountll(unsigned long long) nogil


# -- the plumbing of a search: its limits, the line's boards, the node count and Ctrl-C --

cdef extern from "Python.h":
    # declared without Cython's "except -1": the provers handle the -1 themselves
    int check_signals "PyErr_CheckSignals" () noexcept
    void PyErr_Fetch(PyObject** type, PyObject** value, PyObject** tb) noexcept
    void PyErr_Restore(PyObject* type, PyObject* value, PyObject* tb) noexcept

cdef enum:
    MAX_HIST = 1400       # boards before a node: the question's earlier positions, the line
    MAX_FILE_HIST = 1024  # earlier positions a question may give
    MAX_PASSES = 12       # W passed over this often in one line: the line is given up
    SIGNAL_MASK = 0x3FFF  # look for Ctrl-C every 16384 nodes (a few milliseconds)
    UNKNOWN = 2           # the answer of a search that needed a line it gave up


ctypedef struct Line:     # the boards before a node, oldest first: the question's, the line's
    uint64_t* lo
    uint64_t* hi
    int n


cdef inline int line_alloc(Line* line) noexcept nogil:
    """Room for MAX_HIST boards; 0 if there is no memory (``line_free`` either way)."""
    line.lo = <uint64_t*>calloc(MAX_HIST, sizeof(uint64_t))
    line.hi = <uint64_t*>calloc(MAX_HIST, sizeof(uint64_t))
    line.n = 0
    return line.lo != NULL and line.hi != NULL


cdef inline void line_free(Line* line) noexcept nogil:
    free(line.lo)
    free(line.hi)


cdef inline int line_load(Line* line, object history, uint64_t* fh) except -1:
    """The question's earlier boards (36-byte boards, oldest first) as the line's start;
    ``fh``: the hash of them all (the key of df-pn's tainted results)."""
    cdef Board t
    cdef int i = 0
    fh[0] = 0
    for past in history:
        if i >= MAX_FILE_HIST:
            raise ValueError(f"at most {MAX_FILE_HIST} earlier positions")
        board_load(&t, past)
        line.lo[i] = t.klo
        line.hi[i] = t.khi
        fh[0] += board_hash(t.klo, t.khi)
        i += 1
    line.n = i
    return 0


cdef inline void line_push(Line* line, const Board* b) noexcept nogil:
    """``b`` joins the line (the search goes down from it)."""
    line.lo[line.n] = b.klo
    line.hi[line.n] = b.khi
    line.n += 1


cdef inline void line_pop(Line* line) noexcept nogil:
    line.n -= 1


cdef inline void line_view(const Line* line, History* h) noexcept nogil:
    """The line as the core reads it (the Renop law)."""
    h.lo = line.lo
    h.hi = line.hi
    h.n = line.n


ctypedef struct Watch:    # the node count and Ctrl-C
    unsigned long long nodes
    int aborted           # a signal arrived: every node returns at once, nothing is stored
    PyObject* exc[3]      # the exception its handler raised, raised again on return


cdef inline int watch_signalled(Watch* w) noexcept with gil:
    """Has a signal (Ctrl-C) arrived? Its handler's exception is kept aside and raised by
    the entry point once the search has unwound (``watch_raise``)."""
    if check_signals() != 0:
        PyErr_Fetch(&w.exc[0], &w.exc[1], &w.exc[2])
        return 1
    return 0


cdef inline int watch_node(Watch* w) noexcept nogil:
    """Count a node; every so often look for Ctrl-C. 1: unwind now (answers are void and
    the table is left alone: ``aborted`` forbids storing)."""
    w.nodes += 1
    if not w.aborted and (w.nodes & SIGNAL_MASK) == 0 and watch_signalled(w):
        w.aborted = 1
    return w.aborted


cdef inline int watch_raise(Watch* w) except -1:
    """After a search: if a signal stopped it, its answer is void; raise what the signal's
    handler raised (KeyboardInterrupt for Ctrl-C)."""
    if not w.aborted:
        return 0
    w.aborted = 0
    watch_rethrow(w)
    return -1


cdef inline int watch_rethrow(Watch* w) except -1:
    """Raise the exception a signal's handler raised during the search (kept aside by
    ``watch_signalled``), if one did."""
    if w.exc[0] == NULL:
        return 0
    PyErr_Restore(w.exc[0], w.exc[1], w.exc[2])
    w.exc[0] = w.exc[1] = w.exc[2] = NULL
    return -1


# -- hashing, landings, witnesses ---------------------------------------------------------

cdef enum:
    LC_BITS = 17          # entries of the landing cache: 2^17

cdef extern from *:
    """
    #include <stdlib.h>
    #include <string.h>
    #if defined(__linux__)
    #include <sys/mman.h>
    #endif
    /* A zeroed table, on 2 MiB pages where the system offers them (Linux's transparent
       huge pages) if it is large (16 MiB or more): a probe of a table of tens of MB then
       rarely misses the processor's page-translation cache (with 4 KiB pages, df-pn's
       table probes were a fifth of a proof's cycles, and fell to about an eighth on
       2 MiB pages: docs/performance.md). A smaller table (the many small solves of puzzle
       generation) comes from calloc, its pages mapped as they are first touched. Freed
       with free(). */
    static void* gyges_table_alloc(size_t bytes) {
        void* p = NULL;
        size_t align = (size_t)2 << 20;
        if (bytes < 8 * align)
            return calloc(1, bytes);
        bytes = (bytes + align - 1) / align * align;
        if (posix_memalign(&p, align, bytes) != 0)
            return NULL;
    #if defined(__linux__) && defined(MADV_HUGEPAGE)
        madvise(p, bytes, MADV_HUGEPAGE);
    #endif
        memset(p, 0, bytes);
        return p;
    }
    """
    void* table_alloc "gyges_table_alloc" (size_t bytes) nogil


cdef inline uint64_t mix(uint64_t z) noexcept nogil:
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ULL
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBULL
    return z ^ (z >> 31)


cdef inline int popcount(uint64_t x) noexcept nogil:
    return __builtin_popcountll(x)


cdef inline uint64_t board_hash(uint64_t lo, uint64_t hi) noexcept nogil:
    """A 64-bit hash of a board's key (an earlier board in a relevant-history set)."""
    return mix(lo ^ (hi * 0x9E3779B97F4A7C15ULL) ^ 0x5bd1e995ULL)


cdef inline int diff_slots(uint64_t alo, uint64_t ahi, uint64_t blo, uint64_t bhi) noexcept nogil:
    """In how many slots two boards differ (two bits a slot in the key)."""
    cdef uint64_t x = alo ^ blo, y = ahi ^ bhi
    return (popcount((x | (x >> 1)) & 0x5555555555555555ULL)
            + popcount((y | (y >> 1)) & 0x55ULL))


cdef inline uint64_t relevant_history(int rules, const Line* line, const Board* b,
                                      int plies) noexcept nogil:
    """The hash of the boards of ``line`` that a subtree of ``plies`` plies below ``b``
    could reproduce: those within reach of the slots its moves change (3 a move when a
    replace is allowed: start, landing, relocation; else 2). The key both provers store
    their answers under (docs/solver.md, "Why it is exact"); 0 without the Renop law."""
    cdef uint64_t h = 0
    cdef int i, reach
    if rules & R_REPEAT_OK:
        return 0
    reach = (3 if rules & (R_REPLACE_SHORE | R_REPLACE_ANY) else 2) * plies
    for i in range(line.n):
        if diff_slots(line.lo[i], line.hi[i], b.klo, b.khi) <= reach:
            h += board_hash(line.lo[i], line.hi[i])
    return h


cdef inline int win_stopped(int rules, const Board* b, int side,
                            const History* h) noexcept nogil:
    """``side`` cannot land on ``b`` and has no move left to win with: is its win over
    here? Yes when being blocked is no pass (``blocked=draw`` or ``next-row``) or the core
    sees that the side surely has a move; otherwise the opponent might block it and move
    again."""
    return (rules & (R_BLOCK_DRAW | R_BLOCK_NEXTROW)) != 0 or surely_moves(b, side, rules, h)


ctypedef struct LandEntry:
    uint64_t klo
    uint64_t khi           # the board's high key, the side in bit 63, bit 62 set if used
    uint64_t sup           # land_support's answer


cdef inline uint64_t land_cached(LandEntry* lc, int rules, const Board* b, int side,
                                 const History* h, unsigned long long* misses) noexcept nogil:
    """``land_support`` through the cache ``lc`` (2^LC_BITS entries): the answer is a
    function of the board and the side (the history only matters under
    ``blocked=next-row``, which is not cached). The core's quick test that the goal is
    out of reach comes first, uncached. ``misses``, unless NULL, counts the core's
    searches."""
    if rules & R_BLOCK_NEXTROW:
        return land_support(b, side, rules, h)
    if goal_out_of_reach(b, side, rules):
        return 0                           # cheaper than a look in the cache
    return land_lookup(lc, (1ULL << LC_BITS) - 1, rules, b, side, h, misses)


cdef inline uint64_t land_lookup(LandEntry* lc, uint64_t mask, int rules, const Board* b,
                                 int side, const History* h,
                                 unsigned long long* misses) noexcept nogil:
    """The core's exact landing search (``land_search``, once its quick test has not ruled
    the goal out) through the cache ``lc`` of ``mask + 1`` entries, by board and side (not
    under ``blocked=next-row``). ``misses``, unless NULL, counts the core's searches."""
    cdef uint64_t hi = b.khi | (<uint64_t>side << 63) | (1ULL << 62), sup, region
    cdef LandEntry* e = &lc[mix(b.klo ^ (hi * 0x9E3779B97F4A7C15ULL)) & mask]
    if e.klo == b.klo and e.khi == hi:
        return e.sup
    sup = land_search(b, side, rules, h, &region)
    if misses != NULL:
        misses[0] += 1
    e.klo = b.klo
    e.khi = hi
    e.sup = sup
    return sup


ctypedef struct Witnesses:
    int side
    int n
    uint64_t support[4]
    int row[4]
    int far                # the goal is out of the side's reach on the parent board ...
    int far_row            # ... with its shore on this row ...
    uint64_t region        # ... an answer that rests on these slots (goal_out_of_reach_in)


cdef inline uint64_t touched(CMove m) noexcept nogil:
    """The slots a (non-landing) move changes."""
    cdef uint64_t t = (1ULL << m.start) | (1ULL << m.to)
    if m.reloc != NO_SLOT:
        t |= 1ULL << m.reloc
    return t


cdef inline void witness_init(Witnesses* w, int side) noexcept nogil:
    w.side = side
    w.n = 0
    w.far = 0


cdef inline void witness_far(Witnesses* w, int rules, const Board* parent,
                             const History* h) noexcept nogil:
    """Ask whether the side can land on ``parent``, the board the moves are made from
    (the core's quick test, ``goal_out_of_reach_in``, then its exact search,
    ``land_search``). If not, it cannot after a move that leaves the slots that answer
    rests on alone and the side's shore on its row; if it can, the goal path found is
    kept as a witness. Not under ``blocked=next-row`` (landings from a row behind the
    shore)."""
    if rules & R_BLOCK_NEXTROW:
        return
    witness_settle(w, rules, parent, h, goal_out_of_reach_in(parent, w.side, rules, &w.region))


cdef inline void witness_settle(Witnesses* w, int rules, const Board* parent,
                                const History* h, int far) noexcept nogil:
    """``witness_far`` once the core's quick test has answered (``far``, the slots its
    answer rests on in ``w.region``): the goal out of reach, or the exact search's goal
    path kept, or out of reach after all."""
    cdef uint64_t sup
    if not far:
        sup = land_search(parent, w.side, rules, h, &w.region)
        if sup:
            witness_keep(w, sup, 0, shore_row(parent, w.side))
            return
    w.far = 1
    w.far_row = shore_row(parent, w.side)


cdef inline void witness_keep(Witnesses* w, uint64_t support, uint64_t moved,
                              int row) noexcept nogil:
    """Keep a goal path found on a board that differs from the one the witnesses are for
    on the ``moved`` slots, if it does not use them: it then stands there too."""
    if support and not (support & moved) and w.n < 4:
        w.support[w.n] = support
        w.row[w.n] = row
        w.n += 1


cdef inline int witness_lands(Witnesses* w, const Board* child, CMove m) noexcept nogil:
    """1 when a kept goal path proves ``w.side`` can land after ``m``, else 0 (unknown)."""
    cdef int i, row
    cdef uint64_t t
    if w.n == 0:
        return 0
    t = touched(m)
    row = shore_row(child, w.side)
    for i in range(w.n):
        if not (w.support[i] & t) and w.row[i] == row:
            return 1
    return 0


cdef inline int witness_knows(Witnesses* w, const Board* child, CMove m) noexcept nogil:
    """What the witnesses say of ``w.side``'s landing on ``child``, the board after move
    ``m``: 1 (a kept goal path still stands), 0 (the goal stays out of reach), -1 (they
    do not know)."""
    if w.far and not (touched(m) & w.region) and shore_row(child, w.side) == w.far_row:
        return 0
    if witness_lands(w, child, m):
        return 1
    return -1


cdef inline int lands_after(LandEntry* lc, int rules, Witnesses* w, const Board* child,
                            CMove m, const History* h,
                            unsigned long long* misses) noexcept nogil:
    """Can ``w.side`` land on ``child``, the board after move ``m``? Answered from a kept
    goal path where one still stands, else by the core (and the path it finds kept)."""
    cdef uint64_t sup
    cdef int known = witness_knows(w, child, m)
    if known >= 0:
        return known
    sup = land_cached(lc, rules, child, w.side, h, misses)
    witness_keep(w, sup, touched(m), shore_row(child, w.side))
    return sup != 0


cdef inline int board_in(const uint64_t* lo, const uint64_t* hi, int n,
                         const Board* b) noexcept nogil:
    """Is ``b`` one of the ``n`` boards ``lo``/``hi`` (the boards a root leaves out)?"""
    cdef int i
    for i in range(n):
        if lo[i] == b.klo and hi[i] == b.khi:
            return 1
    return 0



# -- moves: their index in the history tables, as Python triples, the lazy picker --------

cdef inline int move_index(CMove m) noexcept nogil:
    """The move's place in a history table of 36 * 38 * 37 counters."""
    return (m.start * 38 + m.to) * 37 + (36 if m.reloc == NO_SLOT else m.reloc)


cdef inline int same_move(CMove a, CMove b) noexcept nogil:
    return a.start == b.start and a.to == b.to and a.reloc == b.reloc


cdef inline object move_triple(CMove m):
    """A move as ``(start, to, reloc)``, ``reloc`` None for a plain move or a landing."""
    return (m.start, m.to, None if m.reloc == NO_SLOT else m.reloc)


cdef enum:
    HISTORY_SIZE = 36 * 38 * 37   # counters of a history table (``move_index``)
    LAZY_PICKS = 3                # moves picked one by one before the rest are sorted

ctypedef fused sort_key:
    int32_t
    long long


cdef inline int pick_next(int* idx, sort_key* key, int j, int n, bint stable) noexcept nogil:
    """The ``j``-th move in order (asked for j = 0, 1, 2, ...), highest ``key[i]`` first,
    ``idx`` holding the moves' indices 0..n-1: the first LAZY_PICKS are picked one by one
    (most nodes stop after one or two moves: the first of equal keys in ``idx``'s order),
    and a node that gets that far sorts the rest at once (a Shell sort). ``stable``: the
    sort breaks ties by the moves' indices (the generator's order), so the order is the
    one of (key, index); else ties fall as the sort leaves them."""
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
        gap = (n - j) // 2
        while gap > 0:
            for k in range(j + gap, n):
                t = idx[k]
                best = k
                while best - gap >= j and (key[idx[best - gap]] < key[t]
                                           or (stable and key[idx[best - gap]] == key[t]
                                               and idx[best - gap] > t)):
                    idx[best] = idx[best - gap]
                    best -= gap
                idx[best] = t
            gap //= 2
    return idx[j]
