# The Python face every compiled kernel shares: include it, never copy it.
#
# A kernel module (``ext/dog.pyx``, ``ext/guardians.pyx``; the compiled Trial when it adopts it)
# gets the protocol plumbing of its game and state classes from two base classes written once
# here, so that cloning, capsules, equality, hashing, pickling and the playout bench behave the
# same on every kernel. How to adopt it, in the kernel's ``.pyx``, after its structs:
#
#     ctypedef MyState KernelStruct        # the state struct (a fixed-size, pointer-free struct)
#     ctypedef MyGameData KernelData       # the game's static data (one ``malloc``, ``free``d here)
#     ctypedef MyKernelGame KernelGame     # the game class below
#     ctypedef MyKernelState KernelState   # the state class below
#     include "kernel_face.pxi"
#
#     cdef class MyKernelGame(KernelGameFace):   # __init__ fills ``data`` and ``handle``
#         ...
#     cdef class MyKernelState(KernelStateFace): # the game's own methods (to_json, labels, ...)
#         ...
#
# and defines these module-level functions (any order):
#
#     cdef inline MyKernelState kernel_new_state():
#         return MyKernelState.__new__(MyKernelState)   # (Cython cannot call a ctypedef'd class)
#     cdef void kernel_initial(const KernelData* g, KernelStruct* s) noexcept nogil
#         # the start position into ``s`` (zeroed before the call)
#     cdef bint kernel_is_legal(const KernelData* g, const KernelStruct* s, int a) noexcept nogil
#         # is ``a`` (0 <= a < num_distinct_actions) legal here: the fast ``apply_action`` test
#     cdef double kernel_tally(const void* game, const void* state) noexcept nogil
#         # what ``random_playouts`` sums over its games' final states (the dog: a win is 1)
#     cdef _apply_slow(KernelState state, action)
#         # ``apply_action`` for anything else: the reference's conversion, test and message
#
# The game's ``__init__`` sets ``self.data`` (malloc'd; freed by the face) and ``self.handle``
# (its ``vtable`` and ``game``); until ``handle.game`` is set, the game refuses to be used. The
# state class inherits ``st`` (the struct) and ``game`` (typed ``KernelGame``), and writes its
# ``to_json`` (``==``, ``hash`` and pickling read it). Everything reads sizes and functions from
# ``handle.vtable``, so a kernel whose state size depends on the game (guardians: the players)
# copies and compares only the bytes in play.
#
# ``==`` (the same on every kernel, and the reference engines' rule): a state equals another
# state of the same kernel class with the same ``to_json()``; for two states of one game object
# the structs decide, byte for byte (``memcmp``, the same answer without writing JSON: a state
# struct is canonical, padding zero). Anything else (another engine's state, another class) is
# not equal. ``hash(state)`` is ``hash(state.to_json())``, so equal states hash equal across
# game objects (a pickled state's game is a new object); ``state._hash()`` is the kernel's
# 64-bit hash of the struct, what the compiled searchers use.

cimport cython
from libc.stdint cimport uint64_t
from libc.stdlib cimport free, malloc
from libc.string cimport memcmp, memcpy, memset

from leaf cimport LeafWork, leaf_work, play_out, LEAF_OK, LEAF_NO_ACTIONS
from state cimport handle_capsule, state_capsule

include "kernel_names.pxi"  # the kernel interface (``state.pxd``) and its exported names


def _restore_state(game, text):
    """Unpickling helper: ``game.state_from_json(text)``."""
    return game.state_from_json(text)


cdef class KernelGameFace:
    """What every kernel game shares: its data, its ``KernelHandle`` and making states."""

    cdef KernelData* data
    cdef KernelHandle handle

    def __cinit__(self, *args, **kwargs):
        self.data = NULL
        self.handle.vtable = NULL
        self.handle.game = NULL

    def __dealloc__(self):
        if self.data != NULL:
            free(self.data)
            self.data = NULL

    cdef int _check(self) except -1:
        if self.handle.game == NULL or self.handle.vtable == NULL:
            raise TypeError(f"{type(self).__name__} was not initialised")
        return 0

    @property
    def max_actions(self):
        """The bound on legal actions or chance outcomes at one node (``vtable.max_actions``)."""
        self._check()
        return self.handle.vtable.max_actions

    @property
    def state_size(self):
        """The bytes of a state a copy moves (``vtable.state_size``)."""
        self._check()
        return self.handle.vtable.state_size

    cdef KernelState _blank(self):
        """A state of this game, its struct all zero."""
        cdef KernelState state = kernel_new_state()
        state.game = <KernelGame>self
        return state

    def new_initial_state(self):
        self._check()
        cdef KernelState state = self._blank()
        kernel_initial(self.data, &state.st)
        return state

    def _kernel_handle(self):
        """A PyCapsule ``forest_solver.KernelHandle`` pointing at this game's ``KernelHandle``
        (``state.pxd``); the capsule keeps the game alive while it exists."""
        self._check()
        return handle_capsule(&self.handle, self)

    def _state_from_capsule(self, capsule):
        """A state holding a copy of the struct a ``forest_solver.KernelState`` points to."""
        self._check()
        cdef const void* src = state_from_capsule(capsule)
        cdef KernelState state = self._blank()
        memcpy(&state.st, src, self.handle.vtable.state_size)
        return state

    def _state_from_bytes(self, bytes raw):
        """A state from ``vtable.state_size`` raw bytes (as ``state._to_bytes()`` gives;
        unchecked)."""
        self._check()
        cdef size_t size = self.handle.vtable.state_size
        if <size_t>len(raw) != size:
            name = self.handle.vtable.name.decode()
            raise ValueError(f"a {name} kernel state is {size} bytes, not {len(raw)}")
        cdef KernelState state = self._blank()
        memcpy(&state.st, <const char*>raw, size)
        return state


cdef inline size_t _state_size(KernelStateFace state) noexcept:
    # a function, not a cdef method: a state class without cdef methods has no vtable pointer
    return state.game.handle.vtable.state_size


@cython.freelist(64)
cdef class KernelStateFace:
    """What every kernel state shares: its struct ``st``, its ``game``, and the protocol's
    plumbing (copies, capsules, ``==``, hashing, pickling)."""

    cdef KernelStruct st
    cdef readonly KernelGame game

    def __init__(self, *args, **kwargs):
        raise TypeError(f"{type(self).__name__} objects come from game.new_initial_state() or "
                        "game.state_from_json(), not from the class")

    def get_game(self):
        """The game this state belongs to (as OpenSpiel's ``State.get_game()``)."""
        return self.game

    def current_player(self):
        return self.game.handle.vtable.current_player(self.game.data, &self.st)

    def legal_actions(self):
        cdef int small[KERNEL_MAX_ACTIONS]
        cdef const KernelVTable* vt = self.game.handle.vtable
        cdef int* actions = small
        cdef int n, i
        if vt.max_actions > KERNEL_MAX_ACTIONS:
            actions = <int*>malloc(vt.max_actions * sizeof(int))
            if actions == NULL:
                raise MemoryError()
        n = vt.legal_actions(self.game.data, &self.st, actions)
        result = [actions[i] for i in range(n)]
        if actions != small:
            free(actions)
        return result

    def apply_action(self, action):
        cdef long a
        if type(action) is int:
            try:
                a = action
            except OverflowError:
                a = -1
            if (0 <= a < self.game.handle.vtable.num_distinct_actions
                    and kernel_is_legal(self.game.data, &self.st, <int>a)):
                self.game.handle.vtable.apply_action(self.game.data, &self.st, <int>a)
                return
        _apply_slow(<KernelState>self, action)

    def clone(self):
        cdef KernelState other = self.game._blank()
        memcpy(&other.st, &self.st, _state_size(self))
        return other

    def __copy__(self):
        return self.clone()

    def __deepcopy__(self, memo):
        return self.clone()

    def child(self, action):
        """A copy with ``action`` applied."""
        other = self.clone()
        other.apply_action(action)
        return other

    def __reduce__(self):
        return (_restore_state, (self.game, self.to_json()))

    def __eq__(self, other):
        if type(other) is not type(self):
            return False
        if (<KernelState>other).game is self.game:
            return memcmp(&self.st, &(<KernelState>other).st, _state_size(self)) == 0
        return other.to_json() == self.to_json()

    def __ne__(self, other):
        return not self.__eq__(other)

    def __hash__(self):
        return hash(self.to_json())

    def _hash(self):
        """The kernel's 64-bit hash of the state (``vtable.hash``), as an int."""
        return self.game.handle.vtable.hash(self.game.data, &self.st)

    def _state_capsule(self):
        """A PyCapsule ``forest_solver.KernelState`` pointing at this state's struct.

        The capsule keeps the state alive while it exists; the struct may be changed in place
        through it (by a searcher's ``apply_action``).
        """
        return state_capsule(&self.st, self)

    def _to_bytes(self):
        """The state struct's ``vtable.state_size`` raw bytes."""
        return (<char*>&self.st)[:_state_size(self)]


def random_playouts(KernelGame game, long n_games, seed):
    """Play ``n_games`` random games in C from the start position: chance by its probabilities,
    decisions uniformly (``leaf.pxd``'s ``play_out``, the loop of MCTS's rollouts).

    Returns ``(games, actions applied, the sum of the kernel's tally over the final states)``
    (the dog: wins; guardians: player 0's scores); deterministic for a given ``seed`` (0 <= seed
    < 2**64, one SplitMix64 stream for all the games). ``solver.testing.random_playouts``
    replays it in Python, draw for draw.
    """
    from solver.errors import OptionError

    if n_games < 0:
        raise OptionError(f"n_games must be at least 0, not {n_games}")
    if isinstance(seed, bool) or not isinstance(seed, int) or not 0 <= seed < 2 ** 64:
        raise OptionError(f"seed must be a whole number from 0 to 2**64 - 1, not {seed!r}")
    game._check()
    cdef const KernelVTable* vt = game.handle.vtable
    cdef int maxa = vt.max_actions if vt.max_actions > KERNEL_MAX_ACTIONS else KERNEL_MAX_ACTIONS
    cdef int* actions = <int*>malloc(maxa * sizeof(int))
    cdef double* probs = <double*>malloc(maxa * sizeof(double))
    cdef KernelStruct* start = <KernelStruct*>malloc(sizeof(KernelStruct))
    cdef KernelStruct* work = <KernelStruct*>malloc(sizeof(KernelStruct))
    cdef uint64_t rng = seed
    cdef long games = 0
    cdef long long applied = 0
    cdef double total = 0.0
    cdef int err = LEAF_OK
    cdef const KernelData* data = game.data
    cdef LeafWork w
    try:
        if actions == NULL or probs == NULL or start == NULL or work == NULL:
            raise MemoryError()
        memset(start, 0, sizeof(KernelStruct))
        kernel_initial(game.data, start)
        w = leaf_work(vt, game.data, maxa, actions, probs, <char*>work, NULL, NULL)
        with nogil:
            while games < n_games:
                memcpy(work, start, sizeof(KernelStruct))
                err = play_out(&w, work, &rng, False, &applied)
                if err != LEAF_OK:
                    break
                total += kernel_tally(data, work)
                games += 1
    finally:
        free(actions)
        free(probs)
        free(start)
        free(work)
    if err != LEAF_OK:
        raise RuntimeError(f"kernel {vt.name.decode()!r}: a playout met a state without legal "
                           f"actions or with more than {maxa} (error {err})")
    return (games, applied, int(total))
