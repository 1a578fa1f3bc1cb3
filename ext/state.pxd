# cython: language_level=3
"""The C-level interface every compiled game kernel fills and every searcher uses.

A kernel keeps its static data (the board, precomputed tables) once in a *game* struct and its
positions in a fixed-size *state* struct, so a copy is a ``memcpy`` of ``vtable.state_size``
bytes. Every function takes ``(game, state)`` pointers, allocates nothing, touches no Python
object and runs without the GIL.

A Python-level kernel game object hands its ``KernelHandle`` to searchers as a PyCapsule named
``forest_solver.KernelHandle`` (method ``_kernel_handle()``), and a kernel state object hands a
pointer to its state struct the same way (``_state_capsule()``, ``forest_solver.KernelState``).
Each capsule keeps its owner alive, and a handle capsule records the table layout its kernel was
compiled with (``KERNEL_ABI_VERSION``: the hidden-information slots exist from 2 on). The helpers
at the end of this file make and read them, so a kernel module writes only its structs, its
transitions and its ``KernelVTable``; the full contract is ``docs/kernel-abi.md``.
"""

from libc.stdint cimport uint64_t

cdef enum:
    KERNEL_CHANCE = -1        # current_player() at a chance node
    KERNEL_TERMINAL = -4      # current_player() once the game is over
    KERNEL_MAX_ACTIONS = 64   # a stack buffer of actions; a vtable may declare more (see the docs)
    KERNEL_ABI_VERSION = 2    # the KernelVTable layout of this file (1: it ended at ``pack``)

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
# Optional: a compact key of ``state`` into ``out`` (the bytes that tell states apart, equal for
# equal states, different for different ones); returns how many bytes it wrote. Called with
# ``state`` and ``out`` NULL it returns the key's size for this game (the same for every state).
# May be NULL: the whole state struct is the key.
ctypedef size_t (*kernel_pack_fn)(const void* game, const void* state,
                                  unsigned char* out) noexcept nogil
# -- hidden information (optional; ABI 2, see ``docs/kernel-abi.md``) --
# A 64-bit key of what ``observer`` knows at ``state``: equal for states the observer cannot tell
# apart, different (as a good hash is) for states it can. ISMCTS keys a step of another player
# or of chance by the observer's key after it.
ctypedef uint64_t (*kernel_info_key_fn)(const void* game, const void* state,
                                         int observer) noexcept nogil
# Redeal, in place, everything ``observer`` cannot see, at random from the caller's SplitMix64
# state ``rng`` and consistently with the observer's information; the redeal reads only what the
# observer sees (never the hidden cards it replaces). Returns 0, or non-zero when it cannot.
ctypedef int (*kernel_resample_fn)(const void* game, void* state, int observer,
                                   uint64_t* rng) noexcept nogil
# The action the kernel's playout policy takes at a decision node (one of its legal actions),
# drawing any tie-break from ``rng``: the moves of ISMCTS's heavy playouts.
ctypedef int (*kernel_policy_fn)(const void* game, const void* state,
                                 uint64_t* rng) noexcept nogil

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
    # -- optional fields (a kernel that leaves them zero keeps working) --
    # The utility range: every return of every player lies in [utility_min, utility_max]. Declared
    # when utility_min < utility_max (both 0: not declared). The pruning exact search needs it.
    double utility_min
    double utility_max
    kernel_pack_fn pack       # may be NULL (see kernel_pack_fn)
    # -- hidden information (each may be NULL; read only from a kernel of ABI 2 or later) --
    kernel_info_key_fn information_state_key
    kernel_resample_fn resample_hidden
    kernel_policy_fn playout_action

ctypedef struct KernelHandle:
    const KernelVTable* vtable
    const void* game


# -- capsules: how Python objects hand these structs to searchers ----------------------------------
# Capsule names are compared by content (``strcmp``), so every module may use its own copy of
# the literals. A capsule's *context* holds a strong reference to the Python object that owns the
# pointed-to memory (the state; for a handle, the ABI record holding the game); the capsule's
# destructor drops it.

from cpython.pycapsule cimport (
    PyCapsule_GetContext, PyCapsule_GetPointer, PyCapsule_IsValid, PyCapsule_New,
    PyCapsule_SetContext,
)
from cpython.ref cimport Py_DECREF, Py_INCREF

cdef extern from *:
    """
    #define FOREST_SOLVER_HANDLE_CAPSULE "forest_solver.KernelHandle"
    #define FOREST_SOLVER_STATE_CAPSULE "forest_solver.KernelState"
    """
    const char* KERNEL_HANDLE_NAME "FOREST_SOLVER_HANDLE_CAPSULE"
    const char* KERNEL_STATE_NAME "FOREST_SOLVER_STATE_CAPSULE"


cdef inline void release_capsule_owner(object capsule) noexcept:
    # The capsule destructor: drop the reference to the owner taken by ``make_capsule``.
    cdef void* owner = PyCapsule_GetContext(capsule)
    if owner != NULL:
        Py_DECREF(<object>owner)


cdef inline object make_capsule(void* pointer, const char* name, object owner):
    # A capsule named ``name`` pointing at ``pointer``, memory that ``owner`` holds; the capsule
    # keeps ``owner`` alive as long as it exists.
    capsule = PyCapsule_New(pointer, name, release_capsule_owner)
    Py_INCREF(owner)
    PyCapsule_SetContext(capsule, <void*>owner)
    return capsule


cdef inline object handle_capsule(KernelHandle* handle, object game):
    # ``game._kernel_handle()`` in one line: ``return handle_capsule(&self.handle, self)``.
    # The context is ``(game, "forest_solver.abi", KERNEL_ABI_VERSION)``: it keeps the game alive
    # and records the vtable layout the kernel was compiled with (``handle_abi_version``).
    record = (game, "forest_solver.abi", KERNEL_ABI_VERSION)
    return make_capsule(handle, KERNEL_HANDLE_NAME, record)


cdef inline object state_capsule(void* state, object owner):
    # ``state._state_capsule()`` in one line: ``return state_capsule(&self.st, self)``.
    return make_capsule(state, KERNEL_STATE_NAME, owner)


cdef inline const KernelHandle* handle_from_capsule(object capsule) except NULL:
    # The ``KernelHandle`` behind a ``forest_solver.KernelHandle`` capsule (TypeError otherwise).
    # Valid while the capsule (or its game) lives.
    if not PyCapsule_IsValid(capsule, KERNEL_HANDLE_NAME):
        raise TypeError(f"expected a PyCapsule named 'forest_solver.KernelHandle' "
                        f"(from game._kernel_handle()), not {capsule!r}")
    return <const KernelHandle*>PyCapsule_GetPointer(capsule, KERNEL_HANDLE_NAME)


cdef inline int handle_abi_version(object capsule) except -1:
    # The ``KernelVTable`` layout the kernel behind a handle capsule was compiled with: the
    # version its capsule records, or 1 for a kernel built before versions were recorded (its
    # table ends at ``pack``: a searcher must not read the fields after it).
    handle_from_capsule(capsule)
    cdef void* context = PyCapsule_GetContext(capsule)
    if context == NULL:
        return 1
    record = <object>context
    if type(record) is tuple and len(record) == 3 and record[1] == "forest_solver.abi":
        return record[2]
    return 1


cdef inline void* state_from_capsule(object capsule) except NULL:
    # The state struct behind a ``forest_solver.KernelState`` capsule (TypeError otherwise).
    # Valid while the capsule (or its state object) lives.
    if not PyCapsule_IsValid(capsule, KERNEL_STATE_NAME):
        raise TypeError(f"expected a PyCapsule named 'forest_solver.KernelState' "
                        f"(from state._state_capsule()), not {capsule!r}")
    return PyCapsule_GetPointer(capsule, KERNEL_STATE_NAME)
