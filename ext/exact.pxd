# cython: language_level=3
"""What the two compiled exact searches share (``ext/expectimax.pyx``, the plain table, and
``ext/pruning.pyx``, the pruning search): their status codes, the tie tolerances, the players'
bound, the monotonic clock behind ``seconds=``, the error of a search stopped by it and those of a
game it cannot solve."""

from libc.stdlib cimport free
from posix.time cimport clock_gettime, timespec, CLOCK_MONOTONIC

from state cimport KERNEL_MAX_ACTIONS, state_from_capsule

cdef enum:
    MAX_PLAYERS = 8

cdef enum Status:
    OK = 0
    ERR_BUDGET = 1
    ERR_NOMEM = 2
    ERR_DEPTH = 3
    ERR_NO_ACTIONS = 4
    ERR_TOO_MANY = 5
    ERR_DEADLINE = 10          # the deadline passed, or stop() was called (both searches)

cdef enum:
    CLOCK_EVERY = 4096         # nodes expanded between two looks at the clock (a power of two)

cdef extern from *:
    """
    static const double EXACT_VALUE_EPS = 1e-12;  /* two values this close tie */
    static const double EXACT_PLIES_EPS = 1e-9;   /* two win-weighted lengths this close tie */
    """
    const double VALUE_EPS "EXACT_VALUE_EPS"
    const double PLIES_EPS "EXACT_PLIES_EPS"


cdef inline double _now() noexcept nogil:
    """The monotonic clock (Python's ``time.monotonic()`` on Linux), in seconds."""
    cdef timespec ts
    clock_gettime(CLOCK_MONOTONIC, &ts)
    return <double>ts.tv_sec + <double>ts.tv_nsec * 1e-9


cdef inline void free_clear(void** block) noexcept nogil:
    """``free`` the block and forget it (NULL), so that a second release frees nothing."""
    free(block[0])
    block[0] = NULL


cdef inline bint _past(double deadline, const unsigned char* stop) noexcept nogil:
    """Whether a search must stop: ``stop()`` was called, or the deadline (> 0) has passed."""
    return stop[0] != 0 or (deadline > 0.0 and _now() >= deadline)


cdef inline object _deadline_error(double deadline, unsigned char stopped, entries):
    """The ``SearchTimeoutError`` of a search stopped by its deadline or by ``stop()``."""
    from solver.errors import SearchTimeoutError

    if stopped:
        return SearchTimeoutError("the exact search was stopped before it finished",
                                  entries=entries)
    return SearchTimeoutError("the exact search did not finish before its deadline (seconds=)",
                              entries=entries)


cdef inline const void* _state_pointer(object state) except NULL:
    # ``state`` (held by the caller) owns the struct: the pointer outlives the capsule.
    return state_from_capsule(state._state_capsule())


cdef inline int _raise_game_error(int err, str search, int max_plies) except -1:
    """The ``SolverError`` of a game the exact search ``search`` cannot solve: one deeper than its
    ``max_plies`` (``ERR_DEPTH``), or a kernel that broke the protocol (``ERR_NO_ACTIONS``,
    ``ERR_TOO_MANY``); nothing for any other status (the search raises its own)."""
    from solver.errors import SolverError

    if err == ERR_DEPTH:
        raise SolverError(f"{search} went deeper than {max_plies} plies: "
                          "the game does not seem to end")
    if err == ERR_NO_ACTIONS:
        raise SolverError("the kernel reports no legal action at a non-terminal node")
    if err == ERR_TOO_MANY:
        raise SolverError(f"the kernel reports more than {KERNEL_MAX_ACTIONS} actions")
    return 0
