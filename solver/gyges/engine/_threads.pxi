# Several cores (included in _engine.pyx): helper processes forked by a Search share its
# table and a Shared block (one MAP_SHARED mapping: atomics on it). In a search every
# process searches the whole tree by iterative deepening; a move one of them is searching
# waits, in the others, to the end of its node (ABDADA: ``_search`` and ``_root`` look in
# ``Shared.busy``), so that they share the work out instead of doing it twice. Between
# searches the helpers wait on a pipe; they end with the Search (or when its process ends).

cdef extern from *:
    """
    static inline int gy_load(int* p) { return __atomic_load_n(p, __ATOMIC_SEQ_CST); }
    static inline void gy_store(int* p, int v) { __atomic_store_n(p, v, __ATOMIC_SEQ_CST); }
    static inline void gy_pause(void) {
    #if defined(__x86_64__) || defined(__i386__)
        __builtin_ia32_pause();
    #endif
    }
    static inline uint64_t gy_load64(uint64_t* p) { return __atomic_load_n(p, __ATOMIC_RELAXED); }
    static inline void gy_store64(uint64_t* p, uint64_t v) { __atomic_store_n(p, v, __ATOMIC_RELAXED); }
    """
    int gy_load(int* p) noexcept nogil
    void gy_store(int* p, int v) noexcept nogil
    void gy_pause() noexcept nogil
    uint64_t gy_load64(uint64_t* p) noexcept nogil
    void gy_store64(uint64_t* p, uint64_t v) noexcept nogil


# -- the helper processes' lives, from the Search ----------------------------------------

cdef TTEntry* _map_table(Helpers* hp, int tt_bits) except NULL:
    """The table and the Shared block, in one mapping the helpers will share."""
    hp.mapping_size = (1ULL << tt_bits) * sizeof(TTEntry) + sizeof(Shared)
    hp.mapping = mmap(NULL, hp.mapping_size, PROT_READ | PROT_WRITE,
                      MAP_SHARED | MAP_ANONYMOUS, -1, 0)
    if hp.mapping == MAP_FAILED:
        hp.mapping = NULL
        raise MemoryError("no memory for the engine's shared table")
    hp.sh = <Shared*>(<char*>hp.mapping + (1ULL << tt_bits) * sizeof(TTEntry))
    return <TTEntry*>hp.mapping


cdef int _fork_helpers(Helpers* hp, S* s, int count) except -1:
    """Fork ``count`` helper processes, each waiting on its pipe (``_helper``)."""
    cdef int fd[2]
    cdef int k, j, pid, parent
    for k in range(count):
        if pipe(fd) != 0:
            raise OSError("no pipe for a helper process")
        parent = getpid()
        hp.owner = parent
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
                close(hp.fds[j])
            s.parent = parent
            _helper(s, hp.sh, k, fd[0])
            _exit(0)
        close(fd[0])
        hp.sh.pid[k] = pid
        hp.fds[k] = fd[1]
        hp.n = k + 1
    return 0


cdef void _end_helpers(Helpers* hp):
    """End the helper processes: later searches use this process alone."""
    cdef int k, status
    cdef int mine = getpid() == hp.owner
    for k in range(hp.n):
        if mine and not hp.sh.dead[k]:   # (a copy in a forked process leaves them be)
            write(hp.fds[k], b"q", 1)
        close(hp.fds[k])
        if mine and not hp.sh.dead[k]:
            waitpid(hp.sh.pid[k], &status, 0)
    hp.n = 0


cdef void _wake_helpers(Helpers* hp, S* s, const Board* b, int side, const CMove* moves,
                        const uint8_t* lost, int n):
    """Set up the search for the helpers (the root's ``n`` moves, in order) and wake them."""
    cdef Shared* sh = hp.sh
    cdef int k
    if hp.n and getpid() != hp.owner:
        _end_helpers(hp)                       # a copy in a forked process: alone
    if hp.n == 0:
        return
    memcpy(&sh.board, b, sizeof(Board))
    sh.side = side
    sh.deadline = s.deadline
    sh.gen = s.gen
    sh.hn = s.line.n
    memcpy(sh.hlo, s.line.lo, s.line.n * sizeof(uint64_t))
    memcpy(sh.hhi, s.line.hi, s.line.n * sizeof(uint64_t))
    memcpy(sh.keys, s.keys, s.line.n * sizeof(uint64_t))
    sh.halt = s.stop
    sh.n = n
    memcpy(sh.moves, moves, n * sizeof(CMove))
    memcpy(sh.lost, lost, n * sizeof(uint8_t))
    for k in range(hp.n):
        sh.nodes[k] = 0
        sh.running[k] = 0 if sh.dead[k] else 1
    gy_store(&sh.state, 1)
    for k in range(hp.n):
        if not sh.dead[k]:
            write(hp.fds[k], b"g", 1)


cdef void _idle_helpers(Helpers* hp):
    """End the helpers' part in the search; they wait for the next."""
    cdef int k
    if hp.n == 0:
        return
    gy_store(&hp.sh.state, 0)
    gy_store(&hp.sh.halt, 1)                   # the helpers' searches end
    with nogil:
        for k in range(hp.n):
            while gy_load(&hp.sh.running[k]) and not _gone(hp.sh, k):
                gy_pause()


cdef unsigned long long _all_nodes(Helpers* hp, S* s):
    """The nodes of this search, its helpers' included."""
    cdef unsigned long long total = s.watch.nodes
    cdef int k
    for k in range(hp.n):
        total += hp.sh.nodes[k]
    return total


cdef int _gone(Shared* sh, int k) noexcept nogil:
    """Has helper ``k`` died (killed from outside)? Looked at now and then."""
    cdef int status
    if sh.dead[k]:
        return 1
    sh.spins[k] += 1
    if (sh.spins[k] & 65535) == 0 and waitpid(sh.pid[k], &status, WNOHANG) == sh.pid[k]:
        sh.dead[k] = 1
    return sh.dead[k]


cdef void _helper(S* s, Shared* sh, int k, int fd) noexcept nogil:
    """A helper process's life: wait on the pipe for a search, search with the first
    process until it ends the search (:func:`_deepen`), and again; return when the pipe
    closes or says quit."""
    cdef char c
    cdef int clears = 0
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
        memcpy(s.line.lo, sh.hlo, sh.hn * sizeof(uint64_t))
        memcpy(s.line.hi, sh.hhi, sh.hn * sizeof(uint64_t))
        memcpy(s.keys, sh.keys, sh.hn * sizeof(uint64_t))
        s.line.n = sh.hn
        s.kn = sh.hn
        s.gen = sh.gen
        s.deadline = sh.deadline
        s.watch.nodes = 0
        s.node_limit = 0
        s.stop = 0
        s.seldepth = 0
        memset(s.killer, 0, sizeof(s.killer))
        memset(s.nulled, 0, sizeof(s.nulled))
        _deepen(s, sh, k, &b)
        gy_store(&sh.running[k], 0)


cdef void _deepen(S* s, Shared* sh, int k, const Board* b) noexcept nogil:
    """A helper's part in a search: the whole tree by iterative deepening from the
    root's moves in the first process's order, each depth with the full window, until
    the first process ends the search (``sh.halt``, or the deadline). What it finds
    reaches the first process through the table; its nodes are counted at each depth."""
    cdef CMove moves[MAX_MOVES]
    cdef int scores[MAX_MOVES]
    cdef uint8_t lost[MAX_MOVES]
    cdef int n = sh.n, d, best, best_i
    memcpy(moves, sh.moves, n * sizeof(CMove))
    memcpy(lost, sh.lost, n * sizeof(uint8_t))
    memset(scores, 0, n * sizeof(int))
    s.watch.aborted = 0
    for d in range(1, MAX_PLY - 2):
        if gy_load(&sh.state) == 0:
            break
        s.root_depth = d
        best, best_i = _root(s, b, sh.side, d, -MATE, MATE, moves, scores, lost, n)
        sh.nodes[k] = s.watch.nodes
        if s.watch.aborted:
            break
        _sort_root(moves, scores, lost, n)
