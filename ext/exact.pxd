# cython: language_level=3
"""What the two compiled exact searches share (``ext/expectimax.pyx``, the plain table, and
``ext/pruning.pyx``, the pruning search): their status codes, the tie tolerances, the players'
bound, the monotonic clock behind ``seconds=`` and the error of a search stopped by it."""

from posix.time cimport clock_gettime, timespec, CLOCK_MONOTONIC

from state cimport state_from_capsule

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
