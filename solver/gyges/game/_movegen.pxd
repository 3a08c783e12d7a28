# C-level interface of the compiled core, for other compiled modules (search kernels).
# The rules of movement live in _movegen.pyx and nowhere else; docs/rules.md explains them.
from libc.stdint cimport uint8_t, uint64_t

cdef enum:
    NSLOTS = 36
    GOAL_N = 36          # North's goal: beyond row 6; South wins by landing here
    GOAL_S = 37          # South's goal: beyond row 1; North wins by landing here
    NO_SLOT = 255
    MAX_MOVES = 4096
    SOUTH = 0
    NORTH = 1

# Rule flags (RuleSet.flags() builds them; see solver/gyges/game/rules.py).
cdef enum:
    R_ENTRY = 1          # taboo=entry (else connection)
    R_ONCE = 2           # rebounce=once
    R_REPLACE_SHORE = 4  # replace=shore
    R_REPLACE_ANY = 8    # replace=anywhere
    R_NULL_OK = 16       # null-move=allowed
    R_BLOCK_NEXTROW = 32 # blocked=next-row
    R_BLOCK_DRAW = 64    # blocked=draw
    R_REPEAT_OK = 128    # repetition=allowed

ctypedef struct Board:
    uint8_t size[36]
    uint64_t occ
    uint64_t klo         # board key: 2 bits per slot, slots 0..31
    uint64_t khi         # slots 32..35

ctypedef struct CMove:
    uint8_t start
    uint8_t to           # end slot, landing slot of a replace, or GOAL_N / GOAL_S
    uint8_t reloc        # relocation target of a replace, else NO_SLOT

ctypedef struct History:
    const uint64_t* lo
    const uint64_t* hi
    int n

cdef void board_set(Board* b, int slot, int size) noexcept nogil
cdef int board_load(Board* b, const unsigned char[:] sizes) except -1
cdef void board_make(Board* b, CMove m) noexcept nogil
cdef int shore_row(const Board* b, int side) noexcept nogil
cdef int gen_moves(const Board* b, int side, int rules, const History* hist,
                   CMove* out, int* mover) noexcept nogil
cdef int count_moves(const Board* b, int side, int rules, const History* hist, CMove* out,
                     int* mover, uint64_t* rings, uint64_t* ends) noexcept nogil
cdef int can_land(const Board* b, int side, int rules, const History* hist) noexcept nogil
cdef uint64_t land_support(const Board* b, int side, int rules, const History* hist) noexcept nogil
cdef int goal_out_of_reach(const Board* b, int side, int rules) noexcept nogil
cdef uint64_t land_search(const Board* b, int side, int rules, const History* hist,
                          uint64_t* region) noexcept nogil
cdef int goal_out_of_reach_in(const Board* b, int side, int rules,
                              uint64_t* region) noexcept nogil
cdef uint64_t zobrist(const Board* b, int side) noexcept nogil
cdef int surely_moves(const Board* b, int side, int rules, const History* hist) noexcept nogil
cdef int count_simple_moves(const Board* b, int side, int rules,
                            const History* hist) noexcept nogil
cdef int simple_moves(const Board* b, int side, int rules, const History* hist, CMove* out,
                      int cap) noexcept nogil
