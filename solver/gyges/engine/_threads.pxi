# Several cores (included in _engine.pyx): helper processes forked by a Search share its
# table and a Shared block (one MAP_SHARED mapping) and take the root's moves after the
# first from a common counter (spin locks and atomics on the mapping); between searches
# they wait on a pipe, and they end with the Search (or when its process ends).

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


cdef void _wake_helpers(Helpers* hp, S* s, const Board* b, int side):
    """Set up the search for the helpers and wake them."""
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
    sh.job = 0
    for k in range(hp.n):
        sh.done[k] = 0
        sh.cut_short[k] = 0
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


# -- a root iteration shared out -----------------------------------------------------------

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
    if not s.watch.aborted:
        _shared_result(s, sh, first, score, alpha)
    _pop(s)
    s.cut = NULL
    if s.watch.aborted == CUT_OFF:
        s.watch.aborted = 0
    if not s.watch.aborted:
        _split(s, sh, b, side)
    if s.watch.aborted:
        gy_store(&sh.halt, 1)
    for k in range(helpers):
        if (gone >> k) & 1:
            continue
        while gy_load(&sh.done[k]) != job and not _gone(sh, k):
            gy_pause()
            spins += 1
            if (spins & 4095) == 0 and not s.watch.aborted and (
                    s.stop or (s.deadline > 0 and _now() >= s.deadline)
                    or (s.poll_signals and watch_signalled(&s.watch))):
                s.watch.aborted = 1            # (the helpers stop at their next look)
                gy_store(&sh.halt, 1)
        if sh.cut_short[k] or sh.dead[k]:
            s.watch.aborted = 1                # the iteration is not complete
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
    while not s.watch.aborted and not gy_load(&sh.cut):
        i = gy_fetch_add(&sh.next, 1)
        if i >= sh.n:
            break
        if sh.lost[i]:
            continue
        a = gy_load(&sh.alpha)
        memcpy(&child, b, sizeof(Board))
        board_make(&child, sh.moves[i])
        score = _root_move(s, &child, side, depth, i, &a, beta, &sh.alpha)
        if s.watch.aborted:
            break
        _shared_result(s, sh, i, score, a)
    _pop(s)
    s.cut = NULL
    if s.watch.aborted == CUT_OFF:
        s.watch.aborted = 0


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
            s.watch.aborted = 0
            _split(s, sh, &b, sh.side)
            sh.cut_short[k] = s.watch.aborted
            sh.nodes[k] = s.watch.nodes
            gy_store(&sh.done[k], job)
        gy_store(&sh.running[k], 0)
