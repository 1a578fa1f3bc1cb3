# cython: language_level=3
"""UCT Monte Carlo tree search over the C interface of ``state.pxd`` (knows no game).

This is the hot loop behind :func:`solver.search.mcts.mcts` for compiled kernels; the Python
wrapper validates options, builds labels and the ``SearchResult``. Everything here is written
against ``KernelVTable`` only, so every kernel gets MCTS for free.

The algorithm (the pure-Python adapter in ``solver/search/mcts.py`` mirrors it step by step,
with the same pseudo-random generator and the same floating-point operations in the same order):

One *iteration* (simulation):

1. Copy the root state into a work state; start at the root node.
2. Selection, while the node is expanded and not terminal:
   - chance node: draw ``u`` uniform in [0, 1) and take the first child whose cumulative
     probability exceeds ``u`` (the last child if rounding leaves none): ``rng.pxd``'s
     ``weighted_index``, the library's one chance draw;
   - decision node of player ``p``: if some children are unvisited, take one of them uniformly
     at random; otherwise take the child maximising ``Q_p + c * sqrt(ln N / n)`` where ``Q_p`` is
     the child's mean return for ``p`` (max^n: every node stores a value sum per player), ``N``
     the node's visits and ``n`` the child's; ties go to the lower action id.
   Apply the child's action to the work state.
3. Expansion: an unexpanded node learns its player from the work state and gets one child per
   legal action (decision) or per chance outcome with its probability (chance). One node is
   expanded per iteration.
4. Evaluation of the reached node: its returns if terminal, else the evaluator: ``rollout``
   plays ``rollouts`` games to the end (``leaf.pxd``'s ``play_out``: decisions uniformly at
   random, chance by probability) and averages their returns; ``heuristic`` asks ``vtable.heuristic`` for every player;
   ``guided`` plays ``rollouts`` games like ``rollout`` except that every decision of player
   ``p`` takes the legal action whose successor state has the highest ``vtable.heuristic`` for
   ``p`` (one-ply greedy; ties broken uniformly at random by reservoir sampling: the ``t``-th
   tying action replaces the pick when ``below(t) == 0``, so no random number is drawn
   without a tie); ``mixed`` is ``(heuristic + guided) / 2`` per player (the guided average
   first, then ``0.5 * (h + g)``).
5. Backpropagation: every node on the path gets one visit and the returns added per player.
6. Only with a max backup (``backup = w`` in [0, 1]; ``w < 0`` is the plain mean): the path's
   nodes but the last are re-valued bottom up, each only once all its children have visits:
   chance node: ``V = sum(prob * mean) / sum(prob)`` over the children; decision node of player
   ``p``: ``V = w * mean(best child for p) + (1 - w) * (children's value sums / their visits)``
   (best: the first child with the highest mean for ``p``); then the node's value sums become
   ``V * visits``. With ``evaluator == heuristic``, expanding a decision node also primes each
   child with one visit and its heuristic (its returns if terminal) as value sums.

Random numbers come from the searcher's own SplitMix64 stream seeded with the search's seed
(``ext/rng.pxd``, the twin of ``solver/rng.py``): ``u = (next >> 11) * 2**-53``; a uniform index
below ``k`` is ``((next >> 32) * k) >> 32``.

Memory: states are **not** stored per node; every iteration replays the actions from the root
state (a kernel ``apply`` is cheap, and a rollout costs more applies than the replay). A node is
a 24-byte ``Node`` (probability: double; first child index: int32, -1 while unexpanded; visits:
uint32; action: int16; number of children: uint16; player: int8) plus ``num_players`` doubles of
value sums in a parallel array: **24 + 8 * num_players bytes per node** (32 for one player). The
children of a node are contiguous in one flat arena grown with ``realloc`` (no Python object per
node); ``advance`` re-roots the tree by copying the chosen child's subtree into a fresh compact
arena. Besides the nodes, the tree holds four state buffers of ``vtable.state_size`` bytes, the
path of the current iteration, and one buffer of actions and probabilities sized by the kernel's
``vtable.max_actions`` (at least ``KERNEL_MAX_ACTIONS``), on the heap: a kernel may have more
actions at a node than a stack buffer of ``KERNEL_MAX_ACTIONS`` holds (guardians: up to 6 pool
tiles times the frontier of a forest), up to 65535.

The search loop runs without the GIL. A ``Tree`` must not be used by two threads at once (it
raises ``RuntimeError`` if a second search or advance starts while one is running).
Seconds budgets read a monotonic clock every ``check_every`` iterations (default 16), and inside
a leaf's rollouts every ``LEAF_CHECK_EVERY`` games (``leaf.pxd``: a leaf of many rollouts stops
at the deadline and ends the search): they are not deterministic, iteration budgets are.
"""

from libc.stdint cimport int8_t, int16_t, int32_t, int64_t, uint8_t, uint16_t, uint32_t, uint64_t
from libc.stdlib cimport free, malloc, realloc
from libc.string cimport memcmp, memcpy
from libc.math cimport log, sqrt, INFINITY

from leaf cimport (
    LEAF_GUIDED, LEAF_HEURISTIC, LEAF_MIXED, LEAF_ROLLOUT,
    LeafWork, leaf_value, leaf_work,
)
from rng cimport (
    sample_outcome, splitmix64_below, splitmix64_next, splitmix64_uniform, weighted_index_strided,
)
from tree cimport (
    ERR_BAD_PLAYER, ERR_MEMORY, ERR_NO_ACTIONS, ERR_NONE, ERR_SEARCHER, ERR_TOO_MANY_ACTIONS,
    check_node, grow_arena, now, raise_search_error,
)

include "kernel_names.pxi"  # the kernel interface (``state.pxd``) and its exported names

cdef enum:
    EVAL_ROLLOUT = LEAF_ROLLOUT
    EVAL_HEURISTIC = LEAF_HEURISTIC
    EVAL_GUIDED = LEAF_GUIDED
    EVAL_MIXED = LEAF_MIXED

EVALUATOR_ROLLOUT = EVAL_ROLLOUT
EVALUATOR_HEURISTIC = EVAL_HEURISTIC
EVALUATOR_GUIDED = EVAL_GUIDED
EVALUATOR_MIXED = EVAL_MIXED

NODE_BYTES = sizeof(Node)
"""Bytes of one ``Node`` (the value sums add ``8 * num_players`` bytes per node)."""

MAX_VISITS = 4294967295
"""Visits are counted in 32 bits: a tree's root never gets more visits than this."""

cdef enum:
    NODE_UNEXPANDED = -2      # player code of a node not expanded yet
    ERR_NO_HEURISTIC = ERR_SEARCHER   # the shared codes: ``tree.pxd``


ctypedef struct Node:
    double prob            # chance probability of this node as a child of a chance node, else 0
    int32_t first_child    # index of the first child (children are contiguous); -1: none
    uint32_t visits
    int16_t action         # the action leading here from the parent; -1 at the root
    uint16_t num_children
    int8_t player          # 0..n-1, KERNEL_CHANCE, KERNEL_TERMINAL, or NODE_UNEXPANDED


def _splitmix_stream(uint64_t seed, int count, str kind="next", int k=1):
    """The first ``count`` numbers of the searcher's generator seeded with ``seed`` (a test hook).

    ``kind``: ``"next"`` (raw 64-bit outputs), ``"uniform"`` (doubles in [0, 1)) or ``"below"``
    (indices below ``k``, 1 <= k < 2**31), drawn by the same inline functions the search uses.
    """
    cdef uint64_t s = seed
    cdef int i
    if kind == "next":
        return [splitmix64_next(&s) for i in range(count)]
    if kind == "uniform":
        return [splitmix64_uniform(&s) for i in range(count)]
    if kind == "below":
        if k < 1:
            raise ValueError(f"k must be at least 1, not {k}")
        return [splitmix64_below(&s, k) for i in range(count)]
    raise ValueError(f"kind must be 'next', 'uniform' or 'below', not {kind!r}")


def _sample_outcomes(uint64_t seed, actions, probs, int count):
    """``count`` chance draws from ``(actions, probs)`` with the generator seeded ``seed``, by
    ``rng.pxd``'s ``sample_outcome`` (a test hook: the twin of ``solver.rng.sample_outcome``)."""
    cdef int n = len(actions)
    cdef int i
    cdef uint64_t s = seed
    if n < 1 or len(probs) != n:
        raise ValueError("give as many probabilities as actions, at least one")
    cdef int* acts = <int*>malloc(n * sizeof(int))
    cdef double* ps = <double*>malloc(n * sizeof(double))
    if acts == NULL or ps == NULL:
        free(acts)
        free(ps)
        raise MemoryError()
    try:
        for i in range(n):
            acts[i] = actions[i]
            ps[i] = probs[i]
        return [sample_outcome(acts, ps, n, &s) for i in range(count)]
    finally:
        free(acts)
        free(ps)


def kernel_has_heuristic(handle_capsule):
    """Whether the kernel behind ``handle_capsule`` fills ``vtable.heuristic``."""
    return handle_from_capsule(handle_capsule).vtable.heuristic != NULL


cdef class Tree:
    """A UCT search tree over one kernel game, rooted at a copy of a kernel state.

    ``Tree(game, handle_capsule, state_capsule)``: ``game`` is the Python kernel game (kept
    alive while the tree uses its handle), the capsules come from ``game._kernel_handle()`` and
    ``state._state_capsule()``. The root is node 0 and always stays node 0.
    """

    cdef object _game
    cdef object _handle_capsule
    cdef const KernelVTable* vt
    cdef const void* kgame
    cdef int np
    cdef size_t ssize
    cdef Node* nodes
    cdef double* values
    cdef int32_t count
    cdef int32_t capacity
    cdef char* root_state
    cdef char* work
    cdef char* scratch
    cdef char* probe
    cdef double* ret
    cdef double* acc
    cdef double* tmp
    cdef int32_t* path
    cdef int32_t path_cap
    cdef int maxa             # capacity of abuf / pbuf: max(vtable.max_actions, KERNEL_MAX_ACTIONS)
    cdef int* abuf            # actions of the node being expanded / the rollout's node
    cdef double* pbuf         # their chance probabilities
    cdef LeafWork leaf        # the buffers the leaf evaluators use (``leaf.pxd``)
    cdef bint busy
    cdef uint64_t rng_left    # the stream where the last search left it (``resume``)
    cdef bint searched        # a search ran: ``resume`` has a stream to go on from

    def __cinit__(self, game, handle_capsule, state_capsule):
        cdef const KernelHandle* handle = handle_from_capsule(handle_capsule)
        cdef const void* src = state_from_capsule(state_capsule)
        self._game = game
        self._handle_capsule = handle_capsule
        self.vt = handle.vtable
        self.kgame = handle.game
        self.np = self.vt.num_players
        self.ssize = self.vt.state_size
        if self.np < 1 or self.np > 127:
            raise ValueError(f"kernel {self.vt.name.decode()!r} has {self.np} players")
        if self.vt.num_distinct_actions > 32767:
            raise ValueError(f"kernel {self.vt.name.decode()!r}: action ids must fit in int16")
        if self.vt.max_actions > 65535:
            raise ValueError(f"kernel {self.vt.name.decode()!r}: max_actions "
                             f"{self.vt.max_actions} exceeds 65535 (children per node)")
        self.maxa = self.vt.max_actions if self.vt.max_actions > KERNEL_MAX_ACTIONS else KERNEL_MAX_ACTIONS
        self.count = 0
        self.capacity = 0
        self.path_cap = 256
        self.root_state = <char*>malloc(self.ssize)
        self.work = <char*>malloc(self.ssize)
        self.scratch = <char*>malloc(self.ssize)
        self.probe = <char*>malloc(self.ssize)
        self.ret = <double*>malloc(self.np * sizeof(double))
        self.acc = <double*>malloc(self.np * sizeof(double))
        self.tmp = <double*>malloc(2 * self.np * sizeof(double))
        self.path = <int32_t*>malloc(self.path_cap * sizeof(int32_t))
        self.abuf = <int*>malloc(self.maxa * sizeof(int))
        self.pbuf = <double*>malloc(self.maxa * sizeof(double))
        if (self.abuf == NULL or self.pbuf == NULL or self.root_state == NULL or self.work == NULL or self.scratch == NULL
                or self.probe == NULL or self.ret == NULL or self.acc == NULL or self.tmp == NULL
                or self.path == NULL):
            raise MemoryError("cannot allocate the MCTS state buffers")
        memcpy(self.root_state, src, self.ssize)
        self.leaf = leaf_work(self.vt, self.kgame, self.maxa, self.abuf, self.pbuf, self.scratch,
                              self.probe, self.acc)
        self._fresh_root()

    def __dealloc__(self):
        free(self.nodes)
        free(self.values)
        free(self.root_state)
        free(self.work)
        free(self.scratch)
        free(self.probe)
        free(self.ret)
        free(self.acc)
        free(self.tmp)
        free(self.path)
        free(self.abuf)
        free(self.pbuf)

    cdef int _fresh_root(self) except -1:
        """Drop the tree: a lone root in an arena of 1024 nodes (grown, or shrunk, to that)."""
        if grow_arena(<void**>&self.nodes, sizeof(Node), &self.values, self.np, 1024, 1024,
                      &self.capacity) != ERR_NONE:
            raise MemoryError("cannot allocate the MCTS node arena")
        self._init_node(0, -1, 1.0)
        self.count = 1
        return 0

    # -- the arena ----------------------------------------------------------------------------
    cdef int _reserve(self, int64_t needed) noexcept nogil:
        cdef int64_t cap = self.capacity
        if needed <= cap:
            return ERR_NONE
        if needed > 2147483647:
            return ERR_MEMORY
        if cap < 1024:
            cap = 1024
        while cap < needed:
            cap *= 2
        if cap > 2147483647:
            cap = 2147483647
        return grow_arena(<void**>&self.nodes, sizeof(Node), &self.values, self.np, cap, cap,
                          &self.capacity)

    cdef inline void _init_node(self, int32_t i, int action, double prob) noexcept nogil:
        cdef int p
        self.nodes[i].prob = prob
        self.nodes[i].first_child = -1
        self.nodes[i].visits = 0
        self.nodes[i].action = <int16_t>action
        self.nodes[i].num_children = 0
        self.nodes[i].player = NODE_UNEXPANDED
        for p in range(self.np):
            self.values[<int64_t>i * self.np + p] = 0.0

    cdef int _expand(self, int32_t node, const void* state, bint prior) noexcept nogil:
        cdef int* actions = self.abuf
        cdef double* probs = self.pbuf
        cdef int player = self.vt.current_player(self.kgame, state)
        cdef int n, k, err, p
        cdef int32_t first
        if player == KERNEL_TERMINAL:
            self.nodes[node].player = KERNEL_TERMINAL
            return ERR_NONE
        if player == KERNEL_CHANCE:
            n = self.vt.chance_outcomes(self.kgame, state, actions, probs)
        elif 0 <= player < self.np:
            n = self.vt.legal_actions(self.kgame, state, actions)
        else:
            return ERR_BAD_PLAYER
        if n <= 0:
            return ERR_NO_ACTIONS
        if n > self.maxa:
            return ERR_TOO_MANY_ACTIONS
        err = self._reserve(<int64_t>self.count + n)
        if err != ERR_NONE:
            return err
        first = self.count
        for k in range(n):
            self._init_node(first + k, actions[k], probs[k] if player == KERNEL_CHANCE else 0.0)
        self.count += n
        if prior and player != KERNEL_CHANCE:
            for k in range(n):
                memcpy(self.probe, state, self.ssize)
                self.vt.apply_action(self.kgame, self.probe, actions[k])
                if self.vt.current_player(self.kgame, self.probe) == KERNEL_TERMINAL:
                    self.vt.returns(self.kgame, self.probe, self.tmp)
                else:
                    for p in range(self.np):
                        self.tmp[p] = self.vt.heuristic(self.kgame, self.probe, p)
                self.nodes[first + k].visits = 1
                for p in range(self.np):
                    self.values[<int64_t>(first + k) * self.np + p] = self.tmp[p]
        self.nodes[node].first_child = first
        self.nodes[node].num_children = <uint16_t>n
        self.nodes[node].player = <int8_t>player
        return ERR_NONE

    # -- one iteration ------------------------------------------------------------------------
    cdef int32_t _select(self, int32_t node, uint64_t* rng, double c) noexcept nogil:
        cdef int32_t first = self.nodes[node].first_child
        cdef int n = self.nodes[node].num_children
        cdef int k, unvisited, r, p
        cdef int32_t child, best
        cdef double q, score, best_score, logn, visits
        if self.nodes[node].player == KERNEL_CHANCE:
            return first + weighted_index_strided(<const char*>&self.nodes[first].prob,
                                                  sizeof(Node), n, splitmix64_uniform(rng))
        p = self.nodes[node].player
        unvisited = 0
        for k in range(n):
            if self.nodes[first + k].visits == 0:
                unvisited += 1
        if unvisited > 0:
            r = splitmix64_below(rng, unvisited)
            for k in range(n):
                if self.nodes[first + k].visits == 0:
                    if r == 0:
                        return first + k
                    r -= 1
        logn = log(<double>self.nodes[node].visits)
        best = first
        best_score = -INFINITY
        for k in range(n):
            child = first + k
            visits = <double>self.nodes[child].visits
            q = self.values[<int64_t>child * self.np + p] / visits
            score = q + c * sqrt(logn / visits)
            if score > best_score:
                best_score = score
                best = child
        return best

    cdef int _evaluate(self, uint64_t* rng, int evaluator, int rollouts) noexcept nogil:
        """Evaluate the (non-terminal) work state into ``self.ret`` (``leaf.pxd``)."""
        if evaluator != EVAL_ROLLOUT and self.vt.heuristic == NULL:
            return ERR_NO_HEURISTIC
        return leaf_value(&self.leaf, self.work, rng, evaluator, rollouts, self.ret)

    cdef void _rebackup(self, int32_t node, double w) noexcept nogil:
        """Reset the node's value sums to ``visits * V`` (``backup``: see the module docstring)."""
        cdef int32_t first = self.nodes[node].first_child
        cdef int n = self.nodes[node].num_children
        cdef int np = self.np
        cdef int k, p, player
        cdef int32_t child, best
        cdef double tot, visits, mean, best_q
        cdef double* csum = self.tmp
        cdef double* cbest = self.tmp + np
        cdef uint32_t cvis
        player = self.nodes[node].player
        for k in range(n):
            if self.nodes[first + k].visits == 0:
                return  # not all children tried yet: keep the plain mean (own evaluation in it)
        for p in range(np):
            self.acc[p] = 0.0
        if player == KERNEL_CHANCE:
            tot = 0.0
            for k in range(n):
                child = first + k
                visits = <double>self.nodes[child].visits
                tot += self.nodes[child].prob
                for p in range(np):
                    mean = self.values[<int64_t>child * np + p] / visits
                    self.acc[p] += self.nodes[child].prob * mean
            if tot <= 0.0:
                return
            for p in range(np):
                self.acc[p] = self.acc[p] / tot
        else:
            best = -1
            best_q = -INFINITY
            cvis = 0
            for p in range(np):
                csum[p] = 0.0
            for k in range(n):
                child = first + k
                visits = <double>self.nodes[child].visits
                cvis += self.nodes[child].visits
                for p in range(np):
                    csum[p] += self.values[<int64_t>child * np + p]
                mean = self.values[<int64_t>child * np + player] / visits
                if mean > best_q:
                    best_q = mean
                    best = child
            if best < 0:
                return
            visits = <double>self.nodes[best].visits
            for p in range(np):
                cbest[p] = self.values[<int64_t>best * np + p] / visits
                self.acc[p] = w * cbest[p] + (1.0 - w) * (csum[p] / <double>cvis)
        visits = <double>self.nodes[node].visits
        for p in range(np):
            self.values[<int64_t>node * np + p] = self.acc[p] * visits

    cdef int _iterate(self, uint64_t* rng, double c, int evaluator, int rollouts,
                      double backup) noexcept nogil:
        cdef int32_t node = 0
        cdef int32_t depth = 1
        cdef int32_t* grown
        cdef int err, p, i
        cdef int64_t base
        memcpy(self.work, self.root_state, self.ssize)
        self.path[0] = 0
        while (self.nodes[node].player != NODE_UNEXPANDED
               and self.nodes[node].player != KERNEL_TERMINAL):
            node = self._select(node, rng, c)
            self.vt.apply_action(self.kgame, self.work, self.nodes[node].action)
            if depth == self.path_cap:
                grown = <int32_t*>realloc(self.path, 2 * self.path_cap * sizeof(int32_t))
                if grown == NULL:
                    return ERR_MEMORY
                self.path = grown
                self.path_cap *= 2
            self.path[depth] = node
            depth += 1
        if self.nodes[node].player == NODE_UNEXPANDED:
            err = self._expand(node, self.work, backup >= 0.0 and evaluator == EVAL_HEURISTIC)
            if err != ERR_NONE:
                return err
        if self.nodes[node].player == KERNEL_TERMINAL:
            self.vt.returns(self.kgame, self.work, self.ret)
        else:
            err = self._evaluate(rng, evaluator, rollouts)
            if err != ERR_NONE:
                return err
        for i in range(depth):
            node = self.path[i]
            self.nodes[node].visits += 1
            base = <int64_t>node * self.np
            for p in range(self.np):
                self.values[base + p] += self.ret[p]
        if backup >= 0.0:
            for i in range(depth - 2, -1, -1):
                self._rebackup(self.path[i], backup)
        return ERR_NONE

    # -- the Python face ----------------------------------------------------------------------
    def search(self, int64_t iterations, double seconds, uint64_t seed, double c,
               int evaluator, int rollouts, int check_every=16, int64_t max_nodes=-1,
               double backup=-1.0, bint resume=False):
        """Run simulations from the root; return ``(simulations, stop_reason)``.

        ``iterations < 0``: no iteration budget; ``seconds <= 0``: no time budget (at least one
        must be given). At least one simulation always runs. Root visits are capped at
        ``MAX_VISITS``. ``max_nodes > 0`` caps the tree: a simulation starts only while the tree
        has room for one more expansion (``count + KERNEL_MAX_ACTIONS <= max_nodes``).
        ``stop_reason`` is ``"iterations"``, ``"seconds"`` or ``"max_nodes"``. ``resume``: go on
        from the stream where the last search left it (``seed`` unused) and check the node cap
        before the first simulation too, so a search run in several calls (a watched search's
        slices) is the same search as one call.
        """
        cdef bint by_nodes = False
        cdef uint64_t rng = self.rng_left if resume else seed
        cdef int64_t done = 0
        cdef int64_t limit
        cdef int err = ERR_NONE
        cdef bint timed = seconds > 0.0
        cdef bint by_time = False
        cdef double deadline = 0.0
        if iterations == 0 or (iterations < 0 and not timed):
            raise ValueError("give a budget: iterations > 0 and/or seconds > 0")
        if resume and not self.searched:
            raise ValueError("resume needs a search before it: no stream to go on from")
        if rollouts < 1:
            raise ValueError("rollouts must be at least 1")
        if check_every < 1:
            check_every = 1
        if evaluator != EVAL_ROLLOUT and self.vt.heuristic == NULL:
            raise ValueError(f"kernel {self.vt.name.decode()!r} has no heuristic")
        if self.busy:
            raise RuntimeError("this MCTS tree is already in use by another thread")
        limit = <int64_t>MAX_VISITS - <int64_t>self.nodes[0].visits
        if iterations > 0 and iterations < limit:
            limit = iterations
        if limit <= 0:
            raise ValueError("the tree's root has reached the maximum number of visits")
        self.busy = True
        try:
            with nogil:
                if timed:
                    deadline = now() + seconds
                self.leaf.deadline = deadline  # rollouts stop at it too (``leaf.pxd``)
                self.leaf.cut = False
                while True:
                    if max_nodes > 0 and (done > 0 or resume) and (
                        <int64_t>self.count + KERNEL_MAX_ACTIONS > max_nodes
                    ):
                        by_nodes = True
                        break
                    err = self._iterate(&rng, c, evaluator, rollouts, backup)
                    if err != ERR_NONE:
                        break
                    done += 1
                    if self.leaf.cut:  # the deadline passed inside the leaf's rollouts
                        by_time = True
                        break
                    if done >= limit:
                        break
                    if timed and done % check_every == 0 and now() >= deadline:
                        by_time = True
                        break
        finally:
            self.rng_left, self.searched = rng, True
            self.busy = False
        raise_search_error(err, self.vt.name.decode(), self.maxa,
                           f"MCTS node arena: cannot grow beyond {self.count} nodes")
        if err == ERR_NO_HEURISTIC:
            raise ValueError(f"kernel {self.vt.name.decode()!r} has no heuristic")
        return done, ("max_nodes" if by_nodes else "seconds" if by_time else "iterations")

    def matches(self, state_capsule):
        """Whether the root state equals the state behind ``state_capsule`` (byte for byte)."""
        return memcmp(self.root_state, state_from_capsule(state_capsule), self.ssize) == 0

    def advance(self, int action):
        """Apply ``action`` to the root state and re-root the tree on that child.

        The child's subtree keeps its statistics; the rest is freed. Raises ``ValueError`` if
        the action is not legal at the root (or the game is over).
        """
        cdef int* actions = self.abuf
        cdef double* probs = self.pbuf
        cdef int player, n, k
        cdef bint legal = False
        cdef int32_t child = -1
        if self.busy:
            raise RuntimeError("this MCTS tree is already in use by another thread")
        player = self.vt.current_player(self.kgame, self.root_state)
        if player == KERNEL_TERMINAL:
            raise ValueError(f"action {action}: the game is over")
        if player == KERNEL_CHANCE:
            n = self.vt.chance_outcomes(self.kgame, self.root_state, actions, probs)
        else:
            n = self.vt.legal_actions(self.kgame, self.root_state, actions)
        for k in range(n):
            if actions[k] == action:
                legal = True
        if not legal:
            raise ValueError(
                f"action {action} is not legal at the tree's root; legal: "
                f"{[actions[k] for k in range(n)]}")
        self.vt.apply_action(self.kgame, self.root_state, action)
        if self.nodes[0].first_child >= 0:
            for k in range(self.nodes[0].num_children):
                if self.nodes[self.nodes[0].first_child + k].action == action:
                    child = self.nodes[0].first_child + k
        if child < 0 or self.nodes[child].visits == 0:
            self._fresh_root()
        else:
            self._reroot(child)

    cdef int _reroot(self, int32_t child) except -1:
        """Copy the subtree under ``child`` into a fresh arena, breadth first, as node 0."""
        cdef int64_t size = 0
        cdef int32_t head, old, first, k, n
        cdef int32_t* origin
        cdef Node* nodes
        cdef double* values
        cdef int32_t count = 1
        cdef int np = self.np
        cdef int p
        # size of the subtree
        origin = <int32_t*>malloc(self.count * sizeof(int32_t))
        if origin == NULL:
            raise MemoryError("cannot re-root the MCTS tree")
        origin[0] = child
        head = 0
        while head < count:
            old = origin[head]
            first = self.nodes[old].first_child
            if first >= 0:
                for k in range(self.nodes[old].num_children):
                    origin[count] = first + k
                    count += 1
            head += 1
        size = count
        nodes = <Node*>malloc((size if size > 1024 else 1024) * sizeof(Node))
        values = <double*>malloc((size if size > 1024 else 1024) * np * sizeof(double))
        if nodes == NULL or values == NULL:
            free(origin)
            free(nodes)
            free(values)
            raise MemoryError("cannot re-root the MCTS tree")
        # breadth-first order keeps every node's children contiguous: the children of the node
        # at new index ``head`` are appended together, so a running counter gives their block
        count = 1
        for head in range(size):
            old = origin[head]
            nodes[head] = self.nodes[old]
            for p in range(np):
                values[<int64_t>head * np + p] = self.values[<int64_t>old * np + p]
            if self.nodes[old].first_child >= 0:
                nodes[head].first_child = count
                count += self.nodes[old].num_children
        nodes[0].action = -1
        nodes[0].prob = 1.0
        free(origin)
        free(self.nodes)
        free(self.values)
        self.nodes = nodes
        self.values = values
        self.count = <int32_t>size
        self.capacity = <int32_t>(size if size > 1024 else 1024)
        return 0

    # -- reading the tree ---------------------------------------------------------------------
    @property
    def num_players(self):
        return self.np

    @property
    def node_count(self):
        """Nodes in the arena (expanded or not)."""
        return self.count

    @property
    def bytes_per_node(self):
        return sizeof(Node) + self.np * sizeof(double)

    def player(self, int32_t node):
        """The node's player: 0..n-1, CHANCE (-1), TERMINAL (-4) or -2 (not expanded)."""
        self._check(node)
        return self.nodes[node].player

    def visits(self, int32_t node):
        self._check(node)
        return self.nodes[node].visits

    def value_sums(self, int32_t node):
        """The node's summed returns, one per player (divide by visits for the means)."""
        self._check(node)
        return tuple(self.values[<int64_t>node * self.np + p] for p in range(self.np))

    def children(self, int32_t node):
        """``[(index, action, probability, visits, value sums)]`` of the node's children."""
        cdef int32_t first, k
        self._check(node)
        first = self.nodes[node].first_child
        if first < 0:
            return []
        return [
            (first + k, self.nodes[first + k].action, self.nodes[first + k].prob,
             self.nodes[first + k].visits,
             tuple(self.values[<int64_t>(first + k) * self.np + p] for p in range(self.np)))
            for k in range(self.nodes[node].num_children)
        ]

    def most_visited(self, int32_t node, int player):
        """The row (as :meth:`children` gives it) of the node's most visited child, ties to the
        higher mean for seat ``player``, then the lower action; None without children. A node's
        value is read from it without listing every child (``solver.search.mcts``: a chance
        root of 240 faces, each with 240 placements, listed 57,000 rows after the search)."""
        cdef int32_t first, c, k, best = -1
        cdef uint32_t visits
        cdef double mean, best_mean = 0.0
        self._check(node)
        if player < 0 or player >= self.np:
            raise ValueError(f"player must be a seat from 0 to {self.np - 1}, not {player}")
        first = self.nodes[node].first_child
        if first < 0:
            return None
        for k in range(self.nodes[node].num_children):
            c = first + k
            visits = self.nodes[c].visits
            mean = self.values[<int64_t>c * self.np + player] / visits if visits else 0.0
            if (best < 0 or visits > self.nodes[best].visits
                    or (visits == self.nodes[best].visits
                        and (mean > best_mean or (mean == best_mean
                                                  and self.nodes[c].action
                                                  < self.nodes[best].action)))):
                best, best_mean = c, mean
        if best < 0:
            return None
        return (best, self.nodes[best].action, self.nodes[best].prob, self.nodes[best].visits,
                tuple(self.values[<int64_t>best * self.np + p] for p in range(self.np)))

    cdef int _check(self, int32_t node) except -1:
        return check_node("MCTS", self.busy, node, self.count)
