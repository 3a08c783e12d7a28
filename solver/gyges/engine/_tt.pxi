# The engine's transposition table (included in _engine.pyx): buckets of BUCKET entries (one
# cache line), shared by the processes of one search without locks (an entry keeps its key
# xor its data, as chess engines' lockless tables do).

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
    """A score as the table keeps it: a landing counted from the node, not the root."""
    if score > MATE_BOUND:
        return score + ply
    if score < -MATE_BOUND:
        return score - ply
    return score


cdef inline int _from_tt(int score, int ply) noexcept nogil:
    """A score from the table, seen from the root again (``_to_tt`` undone)."""
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


cdef void _tt_clear(S* s, int tt_bits) noexcept nogil:
    """Empty the table (``1 << tt_bits`` entries)."""
    memset(s.tt, 0, (1ULL << tt_bits) * sizeof(TTEntry))
