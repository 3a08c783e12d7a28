# cython: language_level=3
"""The engine kernel's types and constants (``_engine.pyx`` and the files it includes:
``_evaluate.pxi``, ``_tt.pxi``, ``_movepick.pxi``, ``_search.pxi``, ``_threads.pxi``):
scores, limits, the evaluation's features, the table's entries, the search state and what
the processes of one search share."""
from libc.stdint cimport uint8_t, int16_t, int32_t, uint64_t

from gyges.game._movegen cimport Board, CMove, MAX_MOVES
from gyges.search._shared cimport MAX_HIST, LandEntry, Line, Watch

cpdef enum:
    MATE = 32000
    MATE_BOUND = 31000     # |score| above this: a landing within MATE - |score| plies
    EVAL_CAP = 30000
    MAX_CORES = 8          # processes one search may use (the first and 7 helpers)

# The evaluation's features: their places in the feature vector and the weights, in the
# order of FEATURES (_engine.pyx): F_ and the feature's name (a test checks that they
# agree). X is the side to move, Y its opponent.
cpdef enum:
    F_TEMPO                # 1: X is to move
    F_THREAT               # Y could land now: X must (and can) stop it
    F_REACH_X              # X's shore could reach the goal were the taboo set aside
    F_REACH_Y
    F_MOBILITY_X           # simple moves of X's shore (one segment onto an empty slot) / 8
    F_MOBILITY_Y
    F_ADVANCE_X            # rows X's shore row has moved away from X's home row
    F_ADVANCE_Y
    F_SHORE_1_X            # singles, doubles, triples on X's shore row
    F_SHORE_2_X
    F_SHORE_3_X
    F_SHORE_1_Y
    F_SHORE_2_Y
    F_SHORE_3_Y
    F_SAME_ROW             # both shores are one row
    F_BETWEEN              # rings strictly between the two shore rows / 4
    F_AREA_X               # empty slots X's shore reaches in one move (taboo aside) / 8
    F_AREA_Y               #   when it cannot reach the goal; 36 / 8 when it can
    F_GOAL_ROW_X           # rings on the row next to X's goal (where its landings start)
    F_GOAL_ROW_Y
    F_SURELY_X             # X surely has a move (else it might be blocked)
    F_SURELY_Y
    F_LONE_X               # X's shore row holds a single ring
    F_LONE_Y
    F_MOVES_X              # X's legal moves / 50 (0 when X is blocked)
    F_MOVES_Y
    F_RINGS_X              # rings X can land on with a move (replace moves' landing slots)
    F_RINGS_Y
    F_ENDS_X               # empty slots X's moves can end on / 4
    F_ENDS_Y

cdef enum:
    NFEATURES = F_ENDS_Y + 1

cdef enum:
    # the learned evaluation (gyges.engine.network): 108 inputs (and 144 more with the
    # attack maps), units 1/QA and 1/QB
    NET_INPUTS = 108        # the board's inputs (gyges.engine.network.INPUTS)
    NET_ATTACK = 144        # the attack maps' (ATTACK_INPUTS), after them
    NET_MAX_HIDDEN = 1024
    NET_QA = 127
    NET_QB = 64
    MAX_PLY = 100
    MAX_GAME = 1024        # earlier boards of the game kept for the Renop law
    CHECK_EVERY = 1023     # nodes between looks at the clock, the node limit and signals
    LAND_BITS = 13         # entries of the landing caches: 2^13 (192 KiB: in the L2 cache)
    BUCKET = 4             # table entries per bucket (one cache line)

# bounds of a table entry
cdef enum:
    B_EXACT = 1
    B_LOWER = 2
    B_UPPER = 3

cdef enum:
    MAX_PROCS = MAX_CORES
    BUSY_BITS = 14         # the moves being searched (ABDADA): 2^14 slots
    DEFER_DEPTH = 3        # from this depth a move another process is searching waits
    MAX_DEFER = 64         # ... up to this many a node (the others are searched at once)

ctypedef struct TTEntry:
    uint64_t key           # the node's key xor the entry's other 8 bytes (see _probe)
    int16_t score
    uint8_t depth
    uint8_t flag           # bound (bits 0-1), generation (bits 2-7)
    uint8_t start
    uint8_t to
    uint8_t reloc
    uint8_t used

ctypedef struct ReachEntry:
    uint64_t klo
    uint64_t khi           # the board's high key, the side in bit 63, bit 62: used
    uint64_t region        # goal_out_of_reach_in's region (its answer: far)
    uint64_t far

ctypedef struct Reach:
    # each side's goal out of reach (the core's quick test) and what that answer rests on
    int far[2]
    uint64_t region[2]

ctypedef struct Shared:
    # what the processes of one search share (a MAP_SHARED mapping, beside the table);
    # the helpers are forked from the first process and wait on a pipe between searches
    int state              # 1 while a search runs (the helpers take part), 0 between
    int running[MAX_PROCS] # 1 while the helper is in the search
    int pid[MAX_PROCS]     # the helpers' process ids, and which have died (not waited for)
    int dead[MAX_PROCS]
    unsigned int spins[MAX_PROCS]
    unsigned long long nodes[MAX_PROCS]
    int halt               # stop now (stop(), Ctrl-C, the node limit, the search's end)
    int n                  # the root's moves, in the first process's order
    CMove moves[MAX_MOVES]
    uint8_t lost[MAX_MOVES]
    int clears             # clear() calls: a helper forgets when it sees a new one
    Board board            # the search's setup
    int side
    double deadline
    uint8_t gen
    int hn
    uint64_t hlo[MAX_HIST]
    uint64_t hhi[MAX_HIST]
    uint64_t keys[MAX_HIST]
    uint64_t busy[1 << BUSY_BITS]  # a (node, move) each process is searching, by its hash

ctypedef struct Helpers:
    # the helper processes of one Search (cores - 1) and what they share with it
    int n                  # how many (0: this process searches alone)
    Shared* sh             # shared with them (NULL without)
    void* mapping          # the shared table and ``sh``
    size_t mapping_size
    int fds[MAX_PROCS]     # the write ends of their pipes
    int owner              # the process that forked them

ctypedef struct S:
    int rules
    int repeat_draw        # repetition=allowed: a position met before is a draw
    TTEntry* tt
    uint64_t tt_mask       # buckets - 1
    uint8_t gen
    LandEntry* lc
    ReachEntry* rc
    Line line              # boards before the node: the game's, then the line's
    uint64_t* keys         # position keys (board and side) of the game and the line
    int kn
    int32_t* hist          # history heuristic
    CMove killer[MAX_PLY][2]
    CMove pv[MAX_PLY][MAX_PLY]
    int pvlen[MAX_PLY]
    double w[NFEATURES]
    int nh                 # the learned evaluation's hidden units (0: the linear one)
    int attack             # ... reads the attack maps (inputs NET_INPUTS on)
    int16_t nw1[(NET_INPUTS + NET_ATTACK) * NET_MAX_HIDDEN]   # input i on unit j: i * nh + j
    int32_t nb1[NET_MAX_HIDDEN]
    int32_t nw2[NET_MAX_HIDDEN]
    int32_t nb2
    double nwf[NFEATURES]  # the features' weights (hundredths of a logit), with nh > 0
    Watch watch            # the node count, aborted and Ctrl-C
    unsigned long long node_limit  # 0: none
    double deadline                # 0: none (monotonic seconds)
    int stop                       # set by stop() from another thread
    int poll_signals
    int seldepth
    uint8_t nulled[MAX_PLY]        # the move into ply + 1 was a pass (null move)
    int root_depth                 # the depth of the iteration under way
    int* halt                      # a helper process: the search's shared stop flag
    int parent                     # ... and its parent's pid (it ends if the parent does)
    uint64_t* busy                 # several processes: the moves being searched (Shared)
