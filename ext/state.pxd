# cython: language_level=3
"""The C-level interface every compiled game kernel fills and every searcher uses.

A kernel keeps its static data (the board, precomputed tables) once in a *game* struct and its
positions in a fixed-size *state* struct, so a copy is a ``memcpy`` of ``vtable.state_size``
bytes. Every function takes ``(game, state)`` pointers, allocates nothing, touches no Python
object and runs without the GIL.

A Python-level kernel game object hands its ``KernelHandle`` to searchers as a PyCapsule named
``KERNEL_HANDLE_CAPSULE`` (method ``_kernel_handle()``), and a kernel state object hands a
pointer to its state struct the same way (``_state_capsule()``, name ``KERNEL_STATE_CAPSULE``).
The searcher keeps a reference to the Python game while it uses the handle.
"""

from libc.stdint cimport uint64_t

cdef enum:
    KERNEL_CHANCE = -1        # current_player() at a chance node
    KERNEL_TERMINAL = -4      # current_player() once the game is over
    KERNEL_MAX_ACTIONS = 64   # no kernel has more legal actions or chance outcomes at a node

ctypedef int (*kernel_player_fn)(const void* game, const void* state) noexcept nogil
ctypedef bint (*kernel_terminal_fn)(const void* game, const void* state) noexcept nogil
# Legal actions (sorted ascending) into ``actions``; returns how many. At a chance node: the
# chance outcomes' actions.
ctypedef int (*kernel_legal_fn)(const void* game, const void* state, int* actions) noexcept nogil
# Chance outcomes with their probabilities (summing to 1); returns how many (0 off chance nodes).
ctypedef int (*kernel_chance_fn)(const void* game, const void* state, int* actions,
                                 double* probs) noexcept nogil
# Apply a legal action in place. Applying an illegal action is undefined: check first.
ctypedef void (*kernel_apply_fn)(const void* game, void* state, int action) noexcept nogil
# Returns per player into ``out`` (num_players doubles).
ctypedef void (*kernel_returns_fn)(const void* game, const void* state, double* out) noexcept nogil
# A 64-bit hash of the full state (equal states, equal hashes).
ctypedef uint64_t (*kernel_hash_fn)(const void* game, const void* state) noexcept nogil
# A heuristic value in [0, 1] of ``state`` for ``player`` (an estimate of the return), for
# depth-limited searches and heuristic MCTS evaluation. May be NULL.
ctypedef double (*kernel_heuristic_fn)(const void* game, const void* state,
                                       int player) noexcept nogil

ctypedef struct KernelVTable:
    const char* name
    size_t state_size
    int num_players
    int num_distinct_actions
    int max_actions
    kernel_player_fn current_player
    kernel_terminal_fn is_terminal
    kernel_legal_fn legal_actions
    kernel_chance_fn chance_outcomes
    kernel_apply_fn apply_action
    kernel_returns_fn returns
    kernel_hash_fn hash
    kernel_heuristic_fn heuristic

ctypedef struct KernelHandle:
    const KernelVTable* vtable
    const void* game
