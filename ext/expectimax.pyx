# cython: language_level=3
"""Expectimax's hot loop over any compiled kernel (``ext/state.pxd`` only), GIL released.

The algorithm, its modes and its tie-break are described in ``solver/search/expectimax.py``;
this file is the same search as that module's pure-Python loop, node for node.

Transposition table
-------------------
Open addressing over two arrays:

- the *index*: a power-of-two array of 64-bit slots, linear probing, load ≤ 1/2. A slot is 0 when
  empty, else ``(tag << 32) | (entry index + 1)`` where ``tag`` is the high half of the mixed hash
  (most misses and collisions are rejected without touching an entry);
- the *arena*: the entries, dense, in insertion order (an index never changes, so the search can
  keep it across growth). One entry is ``ENTRY_HEADER`` (32) bytes -- the kernel's 64-bit hash,
  the path probability it was computed at, its remaining depth, its player, its chosen action --
  then ``num_players`` values and ``num_players`` win-weighted lengths (doubles), then a copy of
  the state struct (``vtable.state_size`` rounded up to 8). A hash hit is confirmed by ``memcmp``
  of the stored state: two different states with the same hash get two entries.

The index doubles when it is half full; the arena doubles when full (or grows to what still fits
under the cap). Every allocation -- index, arena and the search stack -- is counted against the
memory cap; a growth that would pass it stops the search with ``SearchBudgetError``.
"""

from libc.math cimport fabs
from libc.stdint cimport int32_t, int64_t, uint64_t
from libc.stdlib cimport free, malloc, realloc
from libc.string cimport memcmp, memcpy, memset

from exact cimport *  # all of what the two exact searches share (``exact.pxd``)
from rng cimport splitmix64_mix

include "kernel_names.pxi"  # the kernel interface (``state.pxd``) and its exported names

cdef enum:
    ENTRY_HEADER = 32
    MIN_SLOTS = 64
    MIN_ARENA = 16
    MIN_STACK = 16
    MAX_PLIES = 65536
    UNLIMITED_DEPTH = 2147483647

SEARCH_CONSTANTS = {
    "MAX_PLAYERS": MAX_PLAYERS,
    "MAX_PLIES": MAX_PLIES,
    "VALUE_EPS": VALUE_EPS,
    "PLIES_EPS": PLIES_EPS,
    "KERNEL_MAX_ACTIONS": KERNEL_MAX_ACTIONS,
}
"""The limits and tolerances compiled in (tests hold ``solver.search.expectimax`` to them)."""


ctypedef struct EntryHeader:      # 32 bytes, then values, plies, state
    uint64_t hash
    double path_probability
    int32_t depth_left
    int32_t player
    int32_t best_action
    int32_t flags


ctypedef struct Table:
    const KernelVTable* vt
    const void* game
    size_t state_size
    size_t state_stride        # state_size rounded up to 8
    int num_players
    size_t entry_size
    char* arena
    size_t arena_cap           # entries the arena can hold
    size_t count               # entries stored
    uint64_t* slots
    size_t nslots              # a power of two
    size_t stack_bytes         # the search stack's allocation (counted against the cap)
    size_t cap_bytes
    uint64_t hash_mask         # all ones; tests narrow it to force hash collisions


ctypedef struct Frame:
    int32_t n
    int32_t i
    int32_t player
    int32_t best_action
    int32_t depth_left
    int32_t have
    int64_t entry_index        # an entry to overwrite (a stale one in depth-limited mode), or -1
    uint64_t hash
    double path_probability
    double values[MAX_PLAYERS]
    double plies[MAX_PLAYERS]
    int actions[KERNEL_MAX_ACTIONS]
    double probs[KERNEL_MAX_ACTIONS]


ctypedef struct Search:
    # settings
    bint adversarial
    bint limited
    double min_probability
    int target
    double deadline            # time.monotonic() past which the search stops (ERR_DEADLINE); 0: none
    unsigned char stop         # set by stop() from another thread: the search stops (ERR_DEADLINE)
    # the explicit stack: frames and their states (state_stride bytes each)
    Frame* frames
    char* states
    size_t stack_cap
    size_t depth
    char* child                # scratch child state
    # results
    int64_t expanded
    int64_t leaves
    int root_n
    int root_actions[KERNEL_MAX_ACTIONS]
    double root_values[KERNEL_MAX_ACTIONS * MAX_PLAYERS]
    double root_plies[KERNEL_MAX_ACTIONS * MAX_PLAYERS]


# -- the table -----------------------------------------------------------------------------------
cdef inline uint64_t state_hash(Table* t, const void* state) noexcept nogil:
    return t.vt.hash(t.game, state) & t.hash_mask


cdef inline EntryHeader* entry_at(Table* t, size_t index) noexcept nogil:
    return <EntryHeader*>(t.arena + index * t.entry_size)


cdef inline double* entry_values(Table* t, EntryHeader* e) noexcept nogil:
    return <double*>((<char*>e) + ENTRY_HEADER)


cdef inline double* entry_plies(Table* t, EntryHeader* e) noexcept nogil:
    return <double*>((<char*>e) + ENTRY_HEADER + 8 * t.num_players)


cdef inline char* entry_state(Table* t, EntryHeader* e) noexcept nogil:
    return (<char*>e) + ENTRY_HEADER + 16 * t.num_players


cdef inline size_t table_bytes(Table* t, size_t arena_cap, size_t nslots, size_t stack_bytes) noexcept nogil:
    return arena_cap * t.entry_size + nslots * sizeof(uint64_t) + stack_bytes


cdef int table_init(Table* t, const KernelVTable* vt, const void* game, size_t cap_bytes) noexcept nogil:
    memset(t, 0, sizeof(Table))
    t.vt = vt
    t.game = game
    t.state_size = vt.state_size
    t.state_stride = (vt.state_size + 7) & ~(<size_t>7)
    t.num_players = vt.num_players
    t.entry_size = ENTRY_HEADER + 16 * vt.num_players + t.state_stride
    t.cap_bytes = cap_bytes
    t.hash_mask = ~(<uint64_t>0)
    if table_bytes(t, MIN_ARENA, MIN_SLOTS, 0) > cap_bytes:
        return ERR_BUDGET
    t.slots = <uint64_t*>malloc(MIN_SLOTS * sizeof(uint64_t))
    t.arena = <char*>malloc(MIN_ARENA * t.entry_size)
    if t.slots == NULL or t.arena == NULL:
        return ERR_NOMEM
    memset(t.slots, 0, MIN_SLOTS * sizeof(uint64_t))
    t.nslots = MIN_SLOTS
    t.arena_cap = MIN_ARENA
    return OK


cdef void table_free(Table* t) noexcept nogil:
    free_clear(<void**>&t.slots)
    free_clear(<void**>&t.arena)
    t.count = 0
    t.nslots = 0
    t.arena_cap = 0


cdef int64_t table_find(Table* t, uint64_t h, const void* state) noexcept nogil:
    """The index of the entry holding ``state`` (hash ``h``), or -1."""
    cdef uint64_t m = splitmix64_mix(h)
    cdef uint64_t tag = m >> 32
    cdef size_t mask = t.nslots - 1
    cdef size_t pos = <size_t>m & mask
    cdef uint64_t slot
    cdef EntryHeader* e
    while True:
        slot = t.slots[pos]
        if slot == 0:
            return -1
        if (slot >> 32) == tag:
            e = entry_at(t, <size_t>(slot & 0xffffffffULL) - 1)
            if e.hash == h and memcmp(entry_state(t, e), state, t.state_size) == 0:
                return <int64_t>(slot & 0xffffffffULL) - 1
        pos = (pos + 1) & mask


cdef void slot_place(Table* t, uint64_t h, size_t index) noexcept nogil:
    cdef uint64_t m = splitmix64_mix(h)
    cdef size_t mask = t.nslots - 1
    cdef size_t pos = <size_t>m & mask
    while t.slots[pos] != 0:
        pos = (pos + 1) & mask
    t.slots[pos] = ((m >> 32) << 32) | <uint64_t>(index + 1)


cdef int table_reserve_one(Table* t) noexcept nogil:
    """Room for one more entry: grow the index and/or the arena within the cap."""
    cdef size_t new_slots, new_cap, fit, i
    cdef uint64_t* slots
    cdef char* arena
    if (t.count + 1) * 2 > t.nslots:
        new_slots = t.nslots * 2
        if table_bytes(t, t.arena_cap, new_slots, t.stack_bytes) > t.cap_bytes:
            return ERR_BUDGET
        slots = <uint64_t*>malloc(new_slots * sizeof(uint64_t))
        if slots == NULL:
            return ERR_NOMEM
        memset(slots, 0, new_slots * sizeof(uint64_t))
        free(t.slots)
        t.slots = slots
        t.nslots = new_slots
        for i in range(t.count):
            slot_place(t, entry_at(t, i).hash, i)
    if t.count == t.arena_cap:
        new_cap = t.arena_cap * 2
        if table_bytes(t, new_cap, t.nslots, t.stack_bytes) > t.cap_bytes:
            fit = (t.cap_bytes - table_bytes(t, 0, t.nslots, t.stack_bytes)) // t.entry_size
            if fit <= t.arena_cap:
                return ERR_BUDGET
            new_cap = fit
        if new_cap > 0xfffffff0ULL:
            return ERR_BUDGET
        arena = <char*>realloc(t.arena, new_cap * t.entry_size)
        if arena == NULL:
            return ERR_NOMEM
        t.arena = arena
        t.arena_cap = new_cap
    return OK


cdef int64_t table_insert(Table* t, uint64_t h, const void* state, int* status) noexcept nogil:
    """A new entry for ``state`` (not in the table); its index, or -1 with ``status`` set."""
    cdef int err = table_reserve_one(t)
    cdef EntryHeader* e
    if err != OK:
        status[0] = err
        return -1
    e = entry_at(t, t.count)
    memset(e, 0, t.entry_size)
    e.hash = h
    memcpy(entry_state(t, e), state, t.state_size)
    slot_place(t, h, t.count)
    t.count += 1
    return <int64_t>(t.count - 1)


# -- the search ----------------------------------------------------------------------------------
cdef inline Frame* frame_at(Search* s, size_t k) noexcept nogil:
    return &s.frames[k]


cdef inline char* state_at(Table* t, Search* s, size_t k) noexcept nogil:
    return s.states + k * t.state_stride


cdef int stack_grow(Table* t, Search* s) noexcept nogil:
    cdef size_t new_cap = s.stack_cap * 2 if s.stack_cap else MIN_STACK
    cdef size_t new_bytes = new_cap * (sizeof(Frame) + t.state_stride)
    cdef Frame* frames
    cdef char* states
    if new_cap > MAX_PLIES + 1:
        new_cap = MAX_PLIES + 1
        new_bytes = new_cap * (sizeof(Frame) + t.state_stride)
    if table_bytes(t, t.arena_cap, t.nslots, new_bytes) > t.cap_bytes:
        return ERR_BUDGET
    frames = <Frame*>realloc(s.frames, new_cap * sizeof(Frame))
    if frames == NULL:
        return ERR_NOMEM
    s.frames = frames
    states = <char*>realloc(s.states, new_cap * t.state_stride)
    if states == NULL:
        return ERR_NOMEM
    s.states = states
    s.stack_cap = new_cap
    t.stack_bytes = new_bytes
    return OK


cdef int push(Table* t, Search* s, const char* state, uint64_t h, int64_t entry_index,
              int32_t depth_left, double path_probability) noexcept nogil:
    """Expand ``state``: a new frame on the stack with its actions or outcomes."""
    cdef int err, k
    cdef Frame* f
    cdef double top
    if s.depth >= MAX_PLIES:
        return ERR_DEPTH
    if s.depth == s.stack_cap:
        err = stack_grow(t, s)
        if err != OK:
            return err
    f = frame_at(s, s.depth)
    memcpy(state_at(t, s, s.depth), state, t.state_size)
    s.depth += 1
    s.expanded += 1
    if (s.expanded & (CLOCK_EVERY - 1)) == 0 and _past(s.deadline, &s.stop):
        return ERR_DEADLINE
    f.i = 0
    f.have = 0
    f.best_action = -1
    f.hash = h
    f.entry_index = entry_index
    f.depth_left = depth_left
    f.path_probability = path_probability
    for k in range(t.num_players):
        f.values[k] = 0.0
        f.plies[k] = 0.0
    f.player = t.vt.current_player(t.game, state)
    if f.player == KERNEL_CHANCE:
        f.n = t.vt.chance_outcomes(t.game, state, f.actions, f.probs)
        top = -1.0
        for k in range(f.n):  # the most likely outcome (the first of equals)
            if f.probs[k] > top:
                top = f.probs[k]
                f.best_action = f.actions[k]
    else:
        f.n = t.vt.legal_actions(t.game, state, f.actions)
    if f.n <= 0:
        return ERR_NO_ACTIONS
    if f.n > KERNEL_MAX_ACTIONS:
        return ERR_TOO_MANY
    return OK


cdef inline bint better(int p, const double* v, const double* w, const double* bv,
                        const double* bw) noexcept nogil:
    if v[p] > bv[p] + VALUE_EPS:
        return True
    return fabs(v[p] - bv[p]) <= VALUE_EPS and w[p] < bw[p] - PLIES_EPS


cdef inline bint worse(int p, const double* v, const double* w, const double* bv,
                       const double* bw) noexcept nogil:
    if v[p] < bv[p] - VALUE_EPS:
        return True
    return fabs(v[p] - bv[p]) <= VALUE_EPS and w[p] > bw[p] + PLIES_EPS


cdef inline void take(Frame* f, int np, const double* rv, const double* wp, int action) noexcept nogil:
    """The child reached by ``action`` (values ``rv``, win-weighted lengths ``wp``) becomes the
    frame's best so far."""
    cdef int k
    for k in range(np):
        f.values[k] = rv[k]
        f.plies[k] = wp[k]
    f.best_action = action
    f.have = 1


cdef inline bint decided(const Frame* f, int target) noexcept nogil:
    """Adversarial mode: whether no further child can change the node's value. Returns lie in
    [0, 1] (the protocol), so a chance node (the target's minimum) that has seen a 0 and a
    decision node whose mover has a 1 are settled. The chance cut changes nothing else (a value
    of 0 weighs 0 plies, so later zeros tie and the first is kept anyway); the decision cut
    keeps the first guaranteed win in action order instead of the fastest (docs/search.md)."""
    if not f.have:
        return False
    if f.player == KERNEL_CHANCE:
        return f.values[target] <= 0.0
    return f.values[f.player] >= 1.0


cdef int run_search(Table* t, Search* s, const char* root, int32_t depth_left) noexcept nogil:
    """Search from ``root``; the root's entry is (re)written, its children's values recorded."""
    cdef const KernelVTable* vt = t.vt
    cdef int np = t.num_players
    cdef int err = OK
    cdef int k, action, i
    cdef int64_t idx
    cdef int32_t child_depth
    cdef double child_p, p
    cdef bint chance, have_result = False
    cdef double rv[MAX_PLAYERS]
    cdef double rw[MAX_PLAYERS]
    cdef double wp[MAX_PLAYERS]
    cdef Frame* f
    cdef EntryHeader* e
    cdef uint64_t h
    cdef char* fstate
    cdef double* ev
    cdef double* ew

    s.depth = 0
    s.expanded = 0
    s.leaves = 0
    s.root_n = 0
    h = state_hash(t, root)
    err = push(t, s, root, h, table_find(t, h, root), depth_left, 1.0)
    if err != OK:
        return err
    while s.depth > 0:
        f = frame_at(s, s.depth - 1)
        if not have_result:
            if f.i == f.n:
                # done: store the entry, hand the value up
                idx = f.entry_index
                if idx < 0:
                    idx = table_insert(t, f.hash, state_at(t, s, s.depth - 1), &err)
                    if idx < 0:
                        return err
                e = entry_at(t, <size_t>idx)
                e.path_probability = f.path_probability
                e.depth_left = f.depth_left
                e.player = f.player
                e.best_action = f.best_action
                ev = entry_values(t, e)
                ew = entry_plies(t, e)
                for k in range(np):
                    ev[k] = f.values[k]
                    ew[k] = f.plies[k]
                    rv[k] = f.values[k]
                    rw[k] = f.plies[k]
                s.depth -= 1
                have_result = True
                continue
            action = f.actions[f.i]
            chance = f.player == KERNEL_CHANCE
            fstate = state_at(t, s, s.depth - 1)
            memcpy(s.child, fstate, t.state_size)
            vt.apply_action(t.game, s.child, action)
            child_depth = f.depth_left if f.depth_left == UNLIMITED_DEPTH else f.depth_left - 1
            child_p = f.path_probability * f.probs[f.i] if chance else f.path_probability
            if vt.is_terminal(t.game, s.child):
                vt.returns(t.game, s.child, rv)
                for k in range(np):
                    rw[k] = 0.0
            elif s.limited and (child_depth <= 0
                                or (s.min_probability > 0.0 and child_p < s.min_probability)):
                s.leaves += 1
                for k in range(np):
                    rv[k] = vt.heuristic(t.game, s.child, k)
                    rw[k] = 0.0
            else:
                h = state_hash(t, s.child)
                idx = table_find(t, h, s.child)
                if idx >= 0:
                    e = entry_at(t, <size_t>idx)
                    if ((not s.limited or e.depth_left >= child_depth)
                            and (s.min_probability <= 0.0 or e.path_probability >= child_p)):
                        ev = entry_values(t, e)
                        ew = entry_plies(t, e)
                        for k in range(np):
                            rv[k] = ev[k]
                            rw[k] = ew[k]
                        have_result = True
                if not have_result:
                    err = push(t, s, s.child, h, idx, child_depth, child_p)
                    if err != OK:
                        return err
                    continue
            have_result = True
        # absorb the child's result (rv, rw) into the frame on top
        have_result = False
        f = frame_at(s, s.depth - 1)
        i = f.i
        action = f.actions[i]
        for k in range(np):
            wp[k] = rw[k] + rv[k]
        if s.depth == 1:
            s.root_actions[s.root_n] = action
            for k in range(np):
                s.root_values[s.root_n * MAX_PLAYERS + k] = rv[k]
                s.root_plies[s.root_n * MAX_PLAYERS + k] = wp[k]
            s.root_n += 1
        if f.player == KERNEL_CHANCE:
            if s.adversarial:
                if not f.have or worse(s.target, rv, wp, f.values, f.plies):
                    take(f, np, rv, wp, action)
            else:
                p = f.probs[i]
                for k in range(np):
                    f.values[k] += p * rv[k]
                    f.plies[k] += p * wp[k]
        elif not f.have or better(f.player, rv, wp, f.values, f.plies):
            take(f, np, rv, wp, action)
        f.i = i + 1
        if s.adversarial and s.depth > 1 and decided(f, s.target):
            f.i = f.n  # no sibling can change the value: store the node now
    return OK


# -- the Python face -----------------------------------------------------------------------------
cdef class ExpectimaxTable:
    """A transposition table over one kernel game, and the search that fills it.

    ``ExpectimaxTable(game, memory_bytes, adversarial=False, limited=False,
    min_probability=0.0, target=0, hash_bits=64)``: ``game`` exposes ``_kernel_handle()``;
    ``hash_bits`` below 64 keeps only the low bits of the kernel's hash (a test of collision
    handling: the answers must not change). The settings are fixed
    for the table's life (the entries depend on them); :meth:`search` may run many times.
    """

    cdef Table t
    cdef Search s
    cdef readonly object game  # the game searched (kept alive while its kernel is in use)
    cdef object _handle_capsule
    cdef bint _busy
    cdef bint _ready

    def __init__(self, game, memory_bytes, *, adversarial=False, limited=False,
                 min_probability=0.0, target=0, hash_bits=64):
        from solver.errors import OptionError

        if self._ready:
            raise RuntimeError("ExpectimaxTable is already initialised")
        capsule = game._kernel_handle()
        cdef const KernelHandle* handle = handle_from_capsule(capsule)
        cdef const KernelVTable* vt = handle.vtable
        if vt == NULL or vt.state_size == 0:
            raise TypeError("the kernel handle has no vtable or a zero state size")
        if not 1 <= vt.num_players <= MAX_PLAYERS:
            raise OptionError(f"expectimax handles 1..{MAX_PLAYERS} players, "
                              f"not {vt.num_players}")
        if vt.max_actions > KERNEL_MAX_ACTIONS:
            raise OptionError(f"the kernel's max_actions {vt.max_actions} exceeds "
                              f"KERNEL_MAX_ACTIONS {KERNEL_MAX_ACTIONS}")
        if not 0 <= target < vt.num_players:
            raise OptionError(f"target player {target} is not a player of this game")
        if limited and vt.heuristic == NULL:
            name = vt.name.decode("utf-8", "replace") if vt.name != NULL else "?"
            raise OptionError(f"a depth-limited search needs a heuristic, and the {name!r} "
                              "kernel has none (vtable.heuristic is NULL); use exact=True")
        if not 0 <= hash_bits <= 64:
            raise OptionError(f"hash_bits must be in 0..64, not {hash_bits}")
        if memory_bytes < 1:
            raise OptionError(f"memory_bytes must be positive, not {memory_bytes}")
        self.game = game
        self._handle_capsule = capsule
        self.s.adversarial = bool(adversarial)
        self.s.limited = bool(limited)
        self.s.min_probability = float(min_probability)
        self.s.target = int(target)
        cdef int err = table_init(&self.t, vt, handle.game, <size_t>memory_bytes)
        if err == OK and hash_bits < 64:
            self.t.hash_mask = ((<uint64_t>1) << <int>hash_bits) - 1
        if err == OK:
            self.s.child = <char*>malloc(self.t.state_stride)
            if self.s.child == NULL:
                err = ERR_NOMEM
        if err != OK:
            self._raise(err)  # what was allocated goes with the object, at once
        self._ready = True

    def __dealloc__(self):
        # (the C fields start zeroed: a table never initialised frees nothing)
        table_free(&self.t)
        free(self.s.frames)
        free(self.s.states)
        free(self.s.child)

    cdef _raise(self, int err):
        from solver.errors import SearchBudgetError, SolverError

        if err == ERR_BUDGET:
            raise SearchBudgetError.table_full(self.t.cap_bytes, self.t.count, self.t.entry_size)
        if err == ERR_NOMEM:
            raise MemoryError(f"expectimax could not allocate memory (below its cap of "
                              f"{self.t.cap_bytes} bytes, with {self.t.count} entries stored)")
        _raise_game_error(err, "expectimax", MAX_PLIES)
        if err == ERR_DEADLINE:
            raise _deadline_error(self.s.deadline, self.s.stop, self.t.count)
        raise SolverError(f"expectimax failed with status {err}")

    def set_deadline(self, deadline):
        """Stop every later search at ``deadline`` (a ``time.monotonic()`` value; None: never)
        with ``SearchTimeoutError``; the table keeps what it stored before. Clears ``stop()``."""
        self.s.deadline = 0.0 if deadline is None else max(1e-9, float(deadline))
        self.s.stop = 0

    def stop(self):
        """Make the running search (called from another thread) and later ones stop soon, with
        ``SearchTimeoutError``, until :meth:`set_deadline` is called again."""
        self.s.stop = 1

    @property
    def entries(self):
        """Entries stored."""
        return self.t.count

    @property
    def entry_size(self):
        """Bytes per entry in the arena (header, values, lengths, state copy)."""
        return self.t.entry_size

    @property
    def bytes(self):
        """Bytes allocated now: arena, index and search stack."""
        return table_bytes(&self.t, self.t.arena_cap, self.t.nslots, self.t.stack_bytes)

    @property
    def cap_bytes(self):
        return self.t.cap_bytes

    def lookup(self, state):
        """``(player, best_action, values, plies, depth_left, path_probability)`` or None."""
        if not self._ready:
            raise RuntimeError("ExpectimaxTable is not initialised")
        if self._busy:
            raise RuntimeError("this ExpectimaxTable is searching: look up once it is done")
        cdef const void* ptr = _state_pointer(state)
        cdef uint64_t h = state_hash(&self.t, ptr)
        cdef int64_t idx = table_find(&self.t, h, ptr)
        if idx < 0:
            return None
        cdef EntryHeader* e = entry_at(&self.t, <size_t>idx)
        cdef double* ev = entry_values(&self.t, e)
        cdef double* ew = entry_plies(&self.t, e)
        np = self.t.num_players
        return (e.player, e.best_action, tuple(ev[k] for k in range(np)),
                tuple(ew[k] for k in range(np)), e.depth_left, e.path_probability)

    def search(self, state, depth_left):
        """Search ``state``: ``(root entry, children, expanded, leaves)``.

        ``children`` lists ``(action, values, win-weighted lengths)`` for each root action or
        outcome, in the kernel's order. Raises ``SearchBudgetError`` at the memory cap (the table
        keeps what it stored before).
        """
        if not self._ready:
            raise RuntimeError("ExpectimaxTable is not initialised")
        if self._busy:
            raise RuntimeError("this ExpectimaxTable is already searching (one search at a time)")
        cdef const void* ptr = _state_pointer(state)
        if self.t.vt.is_terminal(self.t.game, ptr):
            raise ValueError("the game is over in this state: there is nothing to search")
        cdef int32_t depth = <int32_t>min(int(depth_left), UNLIMITED_DEPTH)
        cdef char* root = <char*>malloc(self.t.state_stride)
        if root == NULL:
            raise MemoryError("expectimax could not copy the root state")
        memcpy(root, ptr, self.t.state_size)
        cdef int err
        self._busy = True
        try:
            with nogil:
                err = run_search(&self.t, &self.s, root, depth)
        finally:
            self._busy = False
            free(root)
        if err != OK:
            self._raise(err)
        cdef size_t i
        np = self.t.num_players
        children = []
        for i in range(<size_t>self.s.root_n):
            children.append((
                self.s.root_actions[i],
                tuple(self.s.root_values[i * MAX_PLAYERS + k] for k in range(np)),
                tuple(self.s.root_plies[i * MAX_PLAYERS + k] for k in range(np)),
            ))
        entry = self.lookup(state)
        return entry, children, self.s.expanded, self.s.leaves
