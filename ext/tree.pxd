# cython: language_level=3
"""What the compiled tree searchers (``mcts.pyx``, ``ismcts.pyx``) share, written once: their
common error codes and the exceptions they become, the monotonic clock of a ``seconds`` budget
(defined in ``leaf.pxd``, whose rollouts read it too),
growing a record array together with its per-player value sums, and the check of a node index
the Python-facing readers make.

Inline functions only (a ``.pxd`` is compiled into each searcher): the ``nogil`` ones cost what
the copies they replace cost.
"""

from libc.stdint cimport int32_t, int64_t
from libc.stdlib cimport realloc

from leaf cimport LEAF_NO_ACTIONS, LEAF_TOO_MANY_ACTIONS, now  # the clock: ``leaf.pxd``

cdef enum:
    ERR_NONE = 0
    ERR_MEMORY = 1
    ERR_NO_ACTIONS = LEAF_NO_ACTIONS
    ERR_TOO_MANY_ACTIONS = LEAF_TOO_MANY_ACTIONS
    ERR_BAD_PLAYER = 4
    ERR_SEARCHER = 5           # a searcher's own codes start here


cdef inline int grow_arena(void** records, size_t record_size, double** sums, int num_players,
                           int64_t cap, int64_t max_cap, int32_t* capacity) noexcept nogil:
    """Reallocate ``records`` to ``cap`` records of ``record_size`` bytes and ``sums`` to
    ``cap * num_players`` doubles (contents kept) and set ``capacity`` to ``cap``. ``ERR_MEMORY``
    when ``cap`` exceeds ``max_cap`` (at most 2**31 - 1) or an allocation fails (what was
    reallocated stays valid, ``capacity`` unchanged), else ``ERR_NONE``."""
    cdef void* moved
    cdef double* moved_sums
    if cap > max_cap:
        return ERR_MEMORY
    moved = realloc(records[0], cap * record_size)
    if moved == NULL:
        return ERR_MEMORY
    records[0] = moved
    moved_sums = <double*>realloc(sums[0], cap * num_players * sizeof(double))
    if moved_sums == NULL:
        return ERR_MEMORY
    sums[0] = moved_sums
    capacity[0] = <int32_t>cap
    return ERR_NONE


cdef inline int check_node(str searcher, bint busy, int32_t node, int32_t count) except -1:
    """Refuse to read a tree a search is using, or a node index outside ``0..count - 1``."""
    if busy:
        raise RuntimeError(f"this {searcher} tree is being searched by another thread")
    if node < 0 or node >= count:
        raise IndexError(f"node {node} is not in the tree (0..{count - 1})")
    return 0


cdef inline int raise_search_error(int err, str name, int max_actions, str memory) except -1:
    """The exception of a search that stopped with a shared error code ``err`` on kernel
    ``name`` (``memory``: the message of ``ERR_MEMORY``); nothing for ``ERR_NONE`` or a
    searcher's own codes (the caller raises those)."""
    if err == ERR_MEMORY:
        raise MemoryError(memory)
    if err == ERR_NO_ACTIONS:
        raise RuntimeError(f"kernel {name!r}: a non-terminal node without legal actions or "
                           "chance outcomes")
    if err == ERR_TOO_MANY_ACTIONS:
        raise RuntimeError(f"kernel {name!r}: more than {max_actions} actions at a node "
                           "(its max_actions)")
    if err == ERR_BAD_PLAYER:
        raise RuntimeError(f"kernel {name!r}: current_player out of range")
    return 0
