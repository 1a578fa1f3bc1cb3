# cython: language_level=3
"""Single-observer information-set MCTS over the C interface of ``state.pxd`` (knows no game).

The hot loop behind :func:`solver.search.ismcts.ismcts` for compiled kernels; the Python wrapper
checks the options, reads the tree back and builds the ``SearchResult``. It is the twin of the
pure-Python ``ISMCTSTree`` of ``solver/search/ismcts.py``: the same steps, the same random draws
and the same floating-point operations in the same order, so on the same game the two build the
same tree (``tests/search/test_ismcts_kernel.py`` holds them to it).

One simulation:

1. Copy the root state into the work state. With hidden information (the kernel fills
   ``resample_hidden`` and ``information_state_key``), draw the next number ``d`` of the *deal*
   stream and let the kernel redeal, in place, everything the observer cannot see, from a
   SplitMix64 seeded with ``d``: the determinisation.
2. Walk the observer's tree from the root. Every node records the mover it met last. At a chance
   node draw ``u`` from the tree stream and take the first outcome whose running probability
   exceeds ``u``. At a decision node take the legal actions of this determinisation: every one
   that already has an edge gains one *availability*; if some have none, one of them (uniform,
   ``below(untried)``, in the order of the legal actions) gets a new edge with availability 1,
   is applied, and the walk stops there; else the edge maximising
   ``mean_mover + c * sqrt(ln(availability) / visits)`` is taken (the first on ties).
   A step is keyed below its node by its action when the observer took it (or without hidden
   information), else by the observer's information key after the step. The walk also stops at
   the first node it creates (a chance outcome or another player's step the tree has not met):
   one new node a simulation, so a run of chance steps (the Trial's deals) is not grown node
   after node by every simulation.
3. The reached leaf is valued: its returns if terminal, else the evaluator (``rollout``:
   ``rollouts`` random games to the end; ``heuristic``; ``guided``/``mixed``: the shared leaf
   evaluators of ``leaf.pxd``, as MCTS; ``playout``: up to ``depth`` actions of the kernel's ``playout_action``, chance
   by its probabilities, then the heuristic, or the returns if the game ended).
4. Every node on the path, and every edge taken, gains a visit and the returns of every player.

Memory: a node is 32 bytes (its key, parent, block of edges, visits, kind and mover) plus
``num_players`` doubles of value sums; an edge 16 bytes (action, child, visits, availability)
plus ``num_players`` doubles. A node's edges lie in one block sorted by action (a merge with the
sorted legal actions finds them; a full block moves to the arena's end at twice the room, so
edges take at most twice their size); a decision's child hangs on its edge; an open-addressed
hash table of 32-bit indices (at most half full) finds the children reached by chance or by
another player's move, by their key. The loop runs without the GIL; a tree serves one thread at a time.
A ``seconds`` budget reads a monotonic clock after every simulation.
"""

cimport cython
from libc.stdint cimport int8_t, int32_t, int64_t, uint8_t, uint32_t, uint64_t
from libc.stdlib cimport free, malloc, realloc
from libc.string cimport memcpy, memset
from libc.math cimport INFINITY, log, sqrt

from leaf cimport (
    LEAF_GUIDED, LEAF_HEURISTIC, LEAF_MIXED, LEAF_ROLLOUT,
    LeafWork, leaf_sample, leaf_value, leaf_work,
)
from rng cimport splitmix64_below, splitmix64_mix, splitmix64_next
from tree cimport (
    ERR_BAD_PLAYER, ERR_MEMORY, ERR_NO_ACTIONS, ERR_NONE, ERR_SEARCHER, ERR_TOO_MANY_ACTIONS,
    check_node, grow_arena, now, raise_search_error,
)
from state cimport KERNEL_ABI_VERSION, handle_abi_version

include "kernel_names.pxi"  # the kernel interface (``state.pxd``) and its exported names

cdef enum:
    EVAL_ROLLOUT = LEAF_ROLLOUT
    EVAL_HEURISTIC = LEAF_HEURISTIC
    EVAL_GUIDED = LEAF_GUIDED
    EVAL_MIXED = LEAF_MIXED
    EVAL_PLAYOUT = 4

EVALUATOR_ROLLOUT = EVAL_ROLLOUT
EVALUATOR_HEURISTIC = EVAL_HEURISTIC
EVALUATOR_GUIDED = EVAL_GUIDED
EVALUATOR_MIXED = EVAL_MIXED
EVALUATOR_PLAYOUT = EVAL_PLAYOUT
ABI_VERSION = KERNEL_ABI_VERSION
"""The ``KernelVTable`` layout this searcher was compiled with."""

cdef enum:                  # the shared codes: ``tree.pxd``
    ERR_RESAMPLE = ERR_SEARCHER
    ERR_BAD_POLICY = ERR_SEARCHER + 1

cdef enum:
    MAX_RECORDS = 1073741823    # nodes or edges at the most (int32 indices, with room to double)

cdef enum:
    KEY_ACTION = 0      # a chance step without hidden information, keyed by its outcome
    KEY_INFO = 1        # a step keyed by the observer's information key after it
    KEY_EDGE = 2        # a decision step keyed by its action: the edge's own child (no table)


ctypedef struct INode:
    uint64_t key        # the step from the parent: an action id or an information key
    int32_t parent      # -1 at the root
    int32_t edges       # the node's block of edges (sorted by action); -1: none yet
    uint32_t visits
    uint32_t num_edges
    uint32_t cap_edges  # the block's room
    uint8_t kind        # KEY_ACTION, KEY_INFO or KEY_EDGE
    int8_t player       # the mover met at the last visit; KERNEL_TERMINAL before any
    uint8_t _pad[2]

ctypedef struct IEdge:
    int32_t action
    int32_t child       # the node this action leads to when keyed by it (KEY_EDGE); -1: none
    uint32_t visits
    uint32_t availability

ctypedef struct Step:
    int32_t node
    int32_t edge        # -1: a chance step (no edge)


cdef const KernelVTable* _vtable(object handle_capsule) except NULL:
    return handle_from_capsule(handle_capsule).vtable


def kernel_abi(handle_capsule):
    """The ``KernelVTable`` layout the kernel behind ``handle_capsule`` was compiled with."""
    return handle_abi_version(handle_capsule)


def kernel_slots(handle_capsule):
    """The optional slots the kernel fills: a set of ``"heuristic"``, ``"information_state_key"``,
    ``"resample_hidden"`` and ``"playout_action"`` (the last three only from a kernel of ABI 2 or
    later: an older kernel's table ends before them and they are never read)."""
    cdef const KernelVTable* vt = _vtable(handle_capsule)
    slots = set()
    if vt.heuristic != NULL:
        slots.add("heuristic")
    if handle_abi_version(handle_capsule) >= 2:
        if vt.information_state_key != NULL:
            slots.add("information_state_key")
        if vt.resample_hidden != NULL:
            slots.add("resample_hidden")
        if vt.playout_action != NULL:
            slots.add("playout_action")
    return slots


cdef class Tree:
    """An ISMCTS tree for one observer over one kernel game, rooted at a copy of a state.

    ``Tree(game, handle_capsule, state_capsule, observer, hidden, multi=False)``: ``game`` is
    kept alive while the tree uses its handle; ``hidden`` asks for determinisations and
    information keys (the kernel must fill both slots and be of ABI 2), else every step is keyed
    by its action (perfect information). ``multi``: multiple-observer ISMCTS, one tree per player
    walked together, each mover choosing in its own tree (see :meth:`_simulate_multi`). The
    observer's root is node 0 (with ``multi`` the other players' roots are nodes 1..n-1, in seat
    order without the observer).
    """

    cdef object _game
    cdef object _handle_capsule
    cdef const KernelVTable* vt
    cdef const void* kgame
    cdef int np
    cdef readonly int observer
    cdef readonly bint hidden
    cdef readonly bint multi
    cdef int32_t* roots        # multi: each player's root node (the observer's is 0)
    cdef int32_t* cursor       # multi: each player's node in the current walk
    cdef int32_t* mpath        # multi: the path's nodes, ``np`` a step (``path_cap`` steps)
    cdef size_t ssize
    cdef INode* nodes
    cdef double* nsums
    cdef int32_t ncount
    cdef int32_t ncap
    cdef IEdge* edges
    cdef double* esums
    cdef int32_t ecount
    cdef int32_t ecap
    cdef int32_t* ntable       # child lookup: (parent, kind, key) -> node + 1; 0 empty
    cdef int64_t nmask
    cdef char* root_state
    cdef char* work
    cdef char* scratch
    cdef char* probe
    cdef double* ret
    cdef double* acc
    cdef Step* path
    cdef int32_t path_cap
    cdef int maxa
    cdef int* abuf
    cdef double* pbuf
    cdef int32_t* ebuf
    cdef LeafWork leaf          # the buffers the leaf evaluators use (``leaf.pxd``)
    cdef bint busy
    cdef uint64_t rng_left      # the tree and deal streams where the last search left them
    cdef uint64_t deal_left
    cdef bint searched          # a search ran (``resume`` goes on from its streams)

    def __cinit__(self, game, handle_capsule, state_capsule, int observer, bint hidden,
                  bint multi=False):
        cdef const KernelHandle* handle = handle_from_capsule(handle_capsule)
        cdef const void* src = state_from_capsule(state_capsule)
        cdef const KernelVTable* vt = handle.vtable
        self._game = game
        self._handle_capsule = handle_capsule
        self.vt = vt
        self.kgame = handle.game
        self.np = vt.num_players
        self.ssize = vt.state_size
        name = vt.name.decode()
        if self.np < 1 or self.np > 127:
            raise ValueError(f"kernel {name!r} has {self.np} players")
        if not 0 <= observer < self.np:
            raise ValueError(f"observer {observer} is not a player of kernel {name!r}")
        if hidden and not {"information_state_key", "resample_hidden"} <= kernel_slots(
                handle_capsule):
            raise ValueError(f"kernel {name!r} fills no information_state_key and "
                             "resample_hidden: it cannot be searched with hidden information")
        self.observer = observer
        self.hidden = hidden
        self.multi = multi
        self.maxa = vt.max_actions if vt.max_actions > KERNEL_MAX_ACTIONS else KERNEL_MAX_ACTIONS
        self.path_cap = 256
        self.root_state = <char*>malloc(self.ssize)
        self.work = <char*>malloc(self.ssize)
        self.scratch = <char*>malloc(self.ssize)
        self.probe = <char*>malloc(self.ssize)
        self.ret = <double*>malloc(self.np * sizeof(double))
        self.acc = <double*>malloc(self.np * sizeof(double))
        self.path = <Step*>malloc(self.path_cap * sizeof(Step))
        self.abuf = <int*>malloc(self.maxa * sizeof(int))
        self.pbuf = <double*>malloc(self.maxa * sizeof(double))
        self.ebuf = <int32_t*>malloc(self.maxa * sizeof(int32_t))
        self.roots = <int32_t*>malloc(self.np * sizeof(int32_t))
        self.cursor = <int32_t*>malloc(self.np * sizeof(int32_t))
        self.mpath = <int32_t*>malloc(self.path_cap * self.np * sizeof(int32_t))
        if (self.roots == NULL or self.cursor == NULL or self.mpath == NULL
                or self.root_state == NULL or self.work == NULL or self.scratch == NULL
                or self.probe == NULL or self.ret == NULL or self.acc == NULL
                or self.path == NULL or self.abuf == NULL or self.pbuf == NULL
                or self.ebuf == NULL):
            raise MemoryError("cannot allocate the ISMCTS buffers")
        memcpy(self.root_state, src, self.ssize)
        self.leaf = leaf_work(vt, self.kgame, self.maxa, self.abuf, self.pbuf, self.scratch,
                              self.probe, self.acc)
        if (self._grow_nodes(1024) != ERR_NONE or self._grow_edges(1024) != ERR_NONE
                or self._rehash_nodes(2048) != ERR_NONE):
            raise MemoryError("cannot allocate the ISMCTS tree")
        self._new_node(-1, KEY_ACTION, 0)
        self._make_roots()

    cdef int _make_roots(self) except -1:
        cdef int t
        self.roots[self.observer] = 0
        if not self.multi:
            return 0
        for t in range(self.np):
            if t != self.observer:
                self.roots[t] = self._new_node(-1, KEY_ACTION, <uint64_t>(t + 1))
                if self.roots[t] < 0:
                    raise MemoryError("cannot allocate the ISMCTS tree")
        return 0

    def __dealloc__(self):
        free(self.nodes)
        free(self.nsums)
        free(self.edges)
        free(self.esums)
        free(self.ntable)
        free(self.root_state)
        free(self.work)
        free(self.scratch)
        free(self.probe)
        free(self.ret)
        free(self.acc)
        free(self.path)
        free(self.abuf)
        free(self.pbuf)
        free(self.ebuf)
        free(self.roots)
        free(self.cursor)
        free(self.mpath)

    # -- storage ----------------------------------------------------------------------------------
    cdef int _grow_nodes(self, int64_t cap) noexcept nogil:
        return grow_arena(<void**>&self.nodes, sizeof(INode), &self.nsums, self.np, cap,
                          MAX_RECORDS, &self.ncap)

    cdef int _grow_edges(self, int64_t cap) noexcept nogil:
        return grow_arena(<void**>&self.edges, sizeof(IEdge), &self.esums, self.np, cap,
                          MAX_RECORDS, &self.ecap)

    cdef inline uint64_t _node_slot(self, int32_t parent, int kind, uint64_t key) noexcept nogil:
        return splitmix64_mix(key ^ splitmix64_mix((<uint64_t>(parent + 1) << 1) | <uint64_t>kind))

    cdef int _rehash_nodes(self, int64_t size) noexcept nogil:
        cdef int32_t* table = <int32_t*>malloc(size * sizeof(int32_t))
        cdef int64_t mask = size - 1
        cdef int64_t slot
        cdef int32_t i
        if table == NULL:
            return ERR_MEMORY
        memset(table, 0, size * sizeof(int32_t))
        for i in range(1, self.ncount):  # the root and the edges' children are in no table
            if self.nodes[i].kind == KEY_EDGE:
                continue
            slot = <int64_t>(self._node_slot(self.nodes[i].parent, self.nodes[i].kind,
                                             self.nodes[i].key) & <uint64_t>mask)
            while table[slot] != 0:
                slot = (slot + 1) & mask
            table[slot] = i + 1
        free(self.ntable)
        self.ntable = table
        self.nmask = mask
        return ERR_NONE

    cdef int32_t _new_node(self, int32_t parent, int kind, uint64_t key) noexcept nogil:
        """Append a node (indexed below ``parent`` unless an edge holds it); -1: out of memory."""
        cdef int32_t i = self.ncount
        cdef int64_t slot
        cdef int p
        if i == self.ncap and self._grow_nodes(2 * <int64_t>self.ncap) != ERR_NONE:
            return -1
        if 2 * (<int64_t>i + 1) > self.nmask + 1:
            if self._rehash_nodes(2 * (self.nmask + 1)) != ERR_NONE:
                return -1
        self.nodes[i].key = key
        self.nodes[i].parent = parent
        self.nodes[i].edges = -1
        self.nodes[i].visits = 0
        self.nodes[i].num_edges = 0
        self.nodes[i].cap_edges = 0
        self.nodes[i].kind = <uint8_t>kind
        self.nodes[i].player = KERNEL_TERMINAL
        memset(self.nodes[i]._pad, 0, sizeof(self.nodes[i]._pad))
        for p in range(self.np):
            self.nsums[<int64_t>i * self.np + p] = 0.0
        self.ncount = i + 1
        if parent >= 0 and kind != KEY_EDGE:
            slot = <int64_t>(self._node_slot(parent, kind, key) & <uint64_t>self.nmask)
            while self.ntable[slot] != 0:
                slot = (slot + 1) & self.nmask
            self.ntable[slot] = i + 1
        return i

    cdef int32_t _find_child(self, int32_t parent, int kind, uint64_t key) noexcept nogil:
        cdef int64_t slot = <int64_t>(self._node_slot(parent, kind, key) & <uint64_t>self.nmask)
        cdef int32_t found
        while self.ntable[slot] != 0:
            found = self.ntable[slot] - 1
            if (self.nodes[found].parent == parent and self.nodes[found].kind == kind
                    and self.nodes[found].key == key):
                return found
            slot = (slot + 1) & self.nmask
        return -1

    cdef int32_t _child(self, int32_t parent, int kind, uint64_t key) noexcept nogil:
        """The child of ``parent`` by this step key, made if new; -1 when memory runs out."""
        cdef int32_t found = self._find_child(parent, kind, key)
        if found >= 0:
            return found
        return self._new_node(parent, kind, key)

    cdef int32_t _edge_child(self, int32_t node, int32_t e) noexcept nogil:
        """The node the edge's action leads to (keyed by the action), made if new; -1: memory."""
        cdef int32_t child = self.edges[e].child
        if child < 0:
            child = self._new_node(node, KEY_EDGE, <uint64_t>self.edges[e].action)
            self.edges[e].child = child
        return child

    cdef int32_t _edge_of(self, int32_t node, int action) noexcept nogil:
        """The edge of ``node`` for ``action``, or -1 (a scan of the node's sorted block)."""
        cdef int32_t first = self.nodes[node].edges
        cdef uint32_t k
        for k in range(self.nodes[node].num_edges):
            if self.edges[first + k].action >= action:
                return first + k if self.edges[first + k].action == action else -1
        return -1

    cdef int32_t _new_edge(self, int32_t node, int action) noexcept nogil:
        """A new edge of ``node`` for ``action`` (availability 1), in its place in the node's
        sorted block, which moves to the arena's end when full; -1 when memory runs out."""
        cdef uint32_t n = self.nodes[node].num_edges
        cdef uint32_t cap = self.nodes[node].cap_edges
        cdef int32_t first = self.nodes[node].edges
        cdef int32_t block
        cdef uint32_t k, at
        cdef int np = self.np
        if n == cap:
            cap = 4 if cap == 0 else 2 * cap
            if <int64_t>self.ecount + cap > self.ecap:
                if self._grow_edges(2 * (<int64_t>self.ecount + cap)) != ERR_NONE:
                    return -1
            block = self.ecount
            if n > 0:
                memcpy(&self.edges[block], &self.edges[first], n * sizeof(IEdge))
                memcpy(&self.esums[<int64_t>block * np], &self.esums[<int64_t>first * np],
                       n * np * sizeof(double))
            self.ecount += <int32_t>cap
            self.nodes[node].edges = block
            self.nodes[node].cap_edges = cap
            first = block
        at = n
        while at > 0 and self.edges[first + at - 1].action > action:
            at -= 1
        k = n
        while k > at:
            self.edges[first + k] = self.edges[first + k - 1]
            memcpy(&self.esums[<int64_t>(first + k) * np], &self.esums[<int64_t>(first + k - 1) * np],
                   np * sizeof(double))
            k -= 1
        self.edges[first + at].action = action
        self.edges[first + at].child = -1
        self.edges[first + at].visits = 0
        self.edges[first + at].availability = 1
        for k in range(np):
            self.esums[<int64_t>(first + at) * np + k] = 0.0
        self.nodes[node].num_edges = n + 1
        return first + at

    # -- one simulation ---------------------------------------------------------------------------
    cdef int _playout(self, uint64_t* rng, int depth) noexcept nogil:
        """Up to ``depth`` actions of the kernel's policy from the work state, then the heuristic
        (the returns if the game ended), into ``self.ret``."""
        cdef int step, player, action, err, p
        memcpy(self.scratch, self.work, self.ssize)
        for step in range(depth):
            player = self.vt.current_player(self.kgame, self.scratch)
            if player == KERNEL_TERMINAL:
                break
            if player == KERNEL_CHANCE:
                err = leaf_sample(&self.leaf, self.scratch, rng, &action)
                if err != ERR_NONE:
                    return err
            else:
                action = self.vt.playout_action(self.kgame, self.scratch, rng)
                if action < 0 or action >= self.vt.num_distinct_actions:
                    return ERR_BAD_POLICY
            self.vt.apply_action(self.kgame, self.scratch, action)
        if self.vt.current_player(self.kgame, self.scratch) == KERNEL_TERMINAL:
            self.vt.returns(self.kgame, self.scratch, self.ret)
        else:
            for p in range(self.np):
                self.ret[p] = self.vt.heuristic(self.kgame, self.scratch, p)
        return ERR_NONE

    cdef int _evaluate(self, uint64_t* rng, int evaluator, int rollouts, int depth) noexcept nogil:
        """Value the (non-terminal) work state into ``self.ret``."""
        if evaluator == EVAL_PLAYOUT:
            return self._playout(rng, depth)
        return leaf_value(&self.leaf, self.work, rng, evaluator, rollouts, self.ret)

    cdef int _push(self, int32_t* depth, int32_t node, int32_t edge) noexcept nogil:
        """Append a step to the path (with ``multi``, every tree's node too, from the cursors)."""
        cdef Step* grown
        cdef int32_t* more
        if depth[0] == self.path_cap:
            grown = <Step*>realloc(self.path, 2 * self.path_cap * sizeof(Step))
            if grown == NULL:
                return ERR_MEMORY
            self.path = grown
            more = <int32_t*>realloc(self.mpath, 2 * self.path_cap * self.np * sizeof(int32_t))
            if more == NULL:
                return ERR_MEMORY
            self.mpath = more
            self.path_cap *= 2
        self.path[depth[0]].node = node
        self.path[depth[0]].edge = edge
        if self.multi:
            memcpy(&self.mpath[<int64_t>depth[0] * self.np], self.cursor,
                   self.np * sizeof(int32_t))
        depth[0] += 1
        return ERR_NONE

    cdef int32_t _step_for(self, int32_t node, int viewer, int mover, int action,
                           int32_t edge) noexcept nogil:
        """The child of ``node`` in ``viewer``'s tree after ``mover`` took ``action`` (already
        applied to the work state), through ``edge`` when ``viewer`` is the mover (-1 for
        chance): by the action when the viewer took it (or without hidden information), else by
        the viewer's information key after the step."""
        if not self.hidden or mover == viewer:
            if edge >= 0:
                return self._edge_child(node, edge)
            return self._child(node, KEY_ACTION, <uint64_t>action)
        return self._child(node, KEY_INFO,
                           self.vt.information_state_key(self.kgame, self.work, viewer))

    cdef int32_t _step(self, int32_t node, int mover, int action, int32_t edge) noexcept nogil:
        """The child of ``node`` in the observer's tree (see :meth:`_step_for`)."""
        return self._step_for(node, self.observer, mover, action, edge)

    cdef int _select(self, int32_t node, int mover, uint64_t* rng, double c,
                     int* chosen, int32_t* chosen_edge) noexcept nogil:
        """The decision at ``node`` (``mover`` to move in the work state): every legal action
        with an edge gains an availability; an untried one (uniform) gets a new edge (returns 1),
        else the UCB1 choice (returns 0, the first on ties). Negative: an ``ERR_*`` code."""
        cdef int32_t e, best, k, first
        cdef uint32_t j, m
        cdef int n, untried, r
        cdef double score, best_score, visits
        n = self.vt.legal_actions(self.kgame, self.work, self.abuf)
        if n <= 0:
            return -ERR_NO_ACTIONS
        if n > self.maxa:
            return -ERR_TOO_MANY_ACTIONS
        untried = 0
        first = self.nodes[node].edges
        j = 0
        m = self.nodes[node].num_edges
        for k in range(n):  # both sorted by action: one merge
            while j < m and self.edges[first + j].action < self.abuf[k]:
                j += 1
            if j < m and self.edges[first + j].action == self.abuf[k]:
                e = first + j
                self.edges[e].availability += 1
            else:
                e = -1
                untried += 1
            self.ebuf[k] = e
        if untried > 0:
            r = splitmix64_below(rng, untried)
            for k in range(n):
                if self.ebuf[k] < 0:
                    if r == 0:
                        chosen[0] = self.abuf[k]
                        break
                    r -= 1
            e = self._new_edge(node, chosen[0])
            if e < 0:
                return -ERR_MEMORY
            chosen_edge[0] = e
            return 1
        best = self.ebuf[0]
        best_score = -INFINITY
        for k in range(n):
            e = self.ebuf[k]
            if self.edges[e].visits == 0:
                best = e
                break
            visits = <double>self.edges[e].visits
            score = (self.esums[<int64_t>e * self.np + mover] / visits
                     + c * sqrt(log(<double>self.edges[e].availability) / visits))
            if score > best_score:
                best = e
                best_score = score
        chosen[0] = self.edges[best].action
        chosen_edge[0] = best
        return 0

    cdef int _leaf(self, uint64_t* rng, int evaluator, int rollouts, int depth) noexcept nogil:
        """The returns of a new leaf: the game's if it ended, else the evaluator's."""
        if self.vt.current_player(self.kgame, self.work) == KERNEL_TERMINAL:
            self.vt.returns(self.kgame, self.work, self.ret)
            return ERR_NONE
        return self._evaluate(rng, evaluator, rollouts, depth)

    cdef void _back_edge(self, int32_t e) noexcept nogil:
        cdef int64_t base = <int64_t>e * self.np
        cdef int p
        self.edges[e].visits += 1
        for p in range(self.np):
            self.esums[base + p] += self.ret[p]

    @cython.final
    cdef inline int _deal(self, uint64_t* deal) noexcept nogil:
        """The work state: the root, redealt for the observer (with hidden information) by the
        next number of ``deal``; ``ERR_RESAMPLE`` if the kernel cannot redeal it."""
        cdef uint64_t sub
        memcpy(self.work, self.root_state, self.ssize)
        if self.hidden:
            sub = splitmix64_next(deal)
            if self.vt.resample_hidden(self.kgame, self.work, self.observer, &sub) != 0:
                return ERR_RESAMPLE
        return ERR_NONE

    @cython.final
    cdef inline int _mover(self) noexcept nogil:
        """The player to move in the work state; at the end of the game ``KERNEL_TERMINAL``, with
        the returns in ``self.ret``."""
        cdef int mover = self.vt.current_player(self.kgame, self.work)
        if mover == KERNEL_TERMINAL:
            self.vt.returns(self.kgame, self.work, self.ret)
        return mover

    @cython.final
    cdef inline int _play(self, int32_t node, int mover, uint64_t* rng, double c, int* action,
                          int32_t* e) noexcept nogil:
        """One step of a walk at ``node``, applied to the work state: a chance outcome drawn, or
        the mover's choice (``_select``) with its edge in ``e`` (-1 for chance). 1 when the
        choice expanded a new edge, 0 otherwise, minus an error code on failure."""
        cdef int err
        cdef int got = 0
        e[0] = -1
        if mover == KERNEL_CHANCE:
            err = leaf_sample(&self.leaf, self.work, rng, action)
            if err != ERR_NONE:
                return -err
        elif mover < 0 or mover >= self.np:
            return -ERR_BAD_PLAYER
        else:
            got = self._select(node, mover, rng, c, action, e)
            if got < 0:
                return got
        self.vt.apply_action(self.kgame, self.work, action[0])
        return got

    cdef int _simulate(self, uint64_t* rng, uint64_t* deal, double c, int evaluator,
                       int rollouts, int depth) noexcept nogil:
        """One single-observer simulation: a determinisation, a walk of the observer's tree to a
        new edge (or the end), a leaf value, a backup."""
        cdef int32_t node = 0
        cdef int32_t steps = 0
        cdef int32_t e, i, made
        cdef int mover, action, got, err
        if self._deal(deal) != ERR_NONE:
            return ERR_RESAMPLE
        while True:
            mover = self._mover()
            if mover == KERNEL_TERMINAL:
                break
            self.nodes[node].player = <int8_t>mover
            got = self._play(node, mover, rng, c, &action, &e)
            if got < 0:
                return -got
            if self._push(&steps, node, e) != ERR_NONE:
                return ERR_MEMORY
            made = self.ncount
            node = self._step(node, mover, action, e)
            if node < 0:
                return ERR_MEMORY
            if got == 1 or self.ncount > made:  # a new edge or a new node: the leaf
                err = self._leaf(rng, evaluator, rollouts, depth)
                if err != ERR_NONE:
                    return err
                break
        self._add(node)
        for i in range(steps):
            self._add(self.path[i].node)
            if self.path[i].edge >= 0:
                self._back_edge(self.path[i].edge)
        return ERR_NONE

    cdef int _enter_multi(self) noexcept nogil:
        """Every tree's cursor at its root for the work state: the observer's root, and (with
        hidden information) each other player's root child keyed by its own information key, so
        that player chooses, even at the root, by what it knows in this determinisation."""
        cdef int t
        for t in range(self.np):
            if t == self.observer or not self.hidden:
                self.cursor[t] = self.roots[t]
                continue
            self.cursor[t] = self._child(
                self.roots[t], KEY_INFO,
                self.vt.information_state_key(self.kgame, self.work, t))
            if self.cursor[t] < 0:
                return ERR_MEMORY
        return ERR_NONE

    cdef int _simulate_multi(self, uint64_t* rng, uint64_t* deal, double c, int evaluator,
                             int rollouts, int depth) noexcept nogil:
        """One multiple-observer simulation (MO-ISMCTS, Cowling, Powley and Whitehouse 2012):
        the observer's determinisation walks every player's tree at once; the mover chooses in
        its own tree (availability, expansion and UCB1 as in :meth:`_simulate`), and every tree
        follows the step as its player sees it (its own move by the action, any other step by its
        information key after it). The walk stops at the mover's new edge; every tree's path
        gains the visit, the mover's edges the returns."""
        cdef int32_t steps = 0
        cdef int32_t e, i, made, here
        cdef int mover, action, got, err, t
        if self._deal(deal) != ERR_NONE:
            return ERR_RESAMPLE
        if self._enter_multi() != ERR_NONE:
            return ERR_MEMORY
        while True:
            mover = self._mover()
            if mover == KERNEL_TERMINAL:
                break
            for t in range(self.np):
                self.nodes[self.cursor[t]].player = <int8_t>mover
            # a chance step (or a bad mover, refused by _play) reads no tree: the observer's
            # cursor stands in for the mover's
            here = self.cursor[mover] if 0 <= mover < self.np else self.cursor[self.observer]
            got = self._play(here, mover, rng, c, &action, &e)
            if got < 0:
                return -got
            if self._push(&steps, self.cursor[self.observer], e) != ERR_NONE:
                return ERR_MEMORY
            made = self.ncount
            for t in range(self.np):
                self.cursor[t] = self._step_for(self.cursor[t], t, mover, action,
                                                e if t == mover else -1)
                if self.cursor[t] < 0:
                    return ERR_MEMORY
            if got == 1 or self.ncount > made:  # a new edge or a node new in any tree
                err = self._leaf(rng, evaluator, rollouts, depth)
                if err != ERR_NONE:
                    return err
                break
        for t in range(self.np):
            self._add(self.cursor[t])
        for i in range(steps):
            for t in range(self.np):
                self._add(self.mpath[<int64_t>i * self.np + t])
            if self.path[i].edge >= 0:
                self._back_edge(self.path[i].edge)
        return ERR_NONE

    cdef inline void _add(self, int32_t node) noexcept nogil:
        cdef int64_t base = <int64_t>node * self.np
        cdef int p
        self.nodes[node].visits += 1
        for p in range(self.np):
            self.nsums[base + p] += self.ret[p]

    # -- the Python face --------------------------------------------------------------------------
    def search(self, int64_t iterations, double seconds, uint64_t seed, uint64_t deal_seed,
               double c, int evaluator, int rollouts=1, int depth=0, int64_t max_nodes=-1,
               bint resume=False):
        """Run simulations; return ``(simulations, stop_reason)``.

        ``iterations < 0``: no iteration budget; ``seconds <= 0``: no time budget (one of them
        must be given). At least one simulation runs; before each further one the tree must have
        fewer than ``max_nodes`` nodes (``max_nodes <= 0``: no cap). ``seed`` seeds the tree's
        stream (chance, expansion, leaves), ``deal_seed`` the determinisations'.
        ``stop_reason``: ``"iterations"``, ``"seconds"`` or ``"max_nodes"``.
        ``resume``: go on from the streams where the last search left them (``seed`` and
        ``deal_seed`` unused) and check the node cap before the first simulation too, so a
        search run in several calls is the same as one call (a watched search's slices).
        """
        cdef uint64_t rng = self.rng_left if resume else seed
        cdef uint64_t deal = self.deal_left if resume else deal_seed
        cdef int64_t done = 0
        cdef int err = ERR_NONE
        cdef bint timed = seconds > 0.0
        cdef double deadline = 0.0
        cdef int reason = 0
        name = self.vt.name.decode()
        if iterations == 0 or (iterations < 0 and not timed):
            raise ValueError("give a budget: iterations > 0 and/or seconds > 0")
        if resume and not self.searched:
            raise ValueError("resume needs a search before it: no streams to go on from")
        if rollouts < 1:
            raise ValueError("rollouts must be at least 1")
        if evaluator < EVAL_ROLLOUT or evaluator > EVAL_PLAYOUT:
            raise ValueError(f"unknown evaluator code {evaluator}")
        if evaluator != EVAL_ROLLOUT and self.vt.heuristic == NULL:
            raise ValueError(f"kernel {name!r} has no heuristic")
        if evaluator == EVAL_PLAYOUT:
            if "playout_action" not in kernel_slots(self._handle_capsule):
                raise ValueError(f"kernel {name!r} has no playout_action")
            if depth < 0:
                raise ValueError("depth must be at least 0")
        if self.busy:
            raise RuntimeError("this ISMCTS tree is already in use by another thread")
        self.busy = True
        try:
            with nogil:
                if timed:
                    deadline = now() + seconds
                self.leaf.deadline = deadline  # rollouts stop at it too (``leaf.pxd``)
                self.leaf.cut = False
                while True:
                    if max_nodes > 0 and (done > 0 or resume) and self.ncount >= max_nodes:
                        reason = 2
                        break
                    if self.nodes[0].visits == <uint32_t>0xFFFFFFFF:
                        break
                    if self.multi:
                        err = self._simulate_multi(&rng, &deal, c, evaluator, rollouts, depth)
                    else:
                        err = self._simulate(&rng, &deal, c, evaluator, rollouts, depth)
                    if err != ERR_NONE:
                        break
                    done += 1
                    if self.leaf.cut:  # the deadline passed inside the leaf's rollouts
                        reason = 1
                        break
                    if iterations > 0 and done >= iterations:
                        break
                    if timed and now() >= deadline:
                        reason = 1
                        break
        finally:
            self.rng_left, self.deal_left, self.searched = rng, deal, True
            self.busy = False
        raise_search_error(err, name, self.maxa,
                           f"ISMCTS tree: cannot grow beyond {self.ncount} nodes")
        if err == ERR_RESAMPLE:
            raise RuntimeError(f"kernel {name!r}: resample_hidden could not redeal the state "
                               f"for observer {self.observer}")
        if err == ERR_BAD_POLICY:
            raise RuntimeError(f"kernel {name!r}: playout_action returned an action id out of "
                               "range")
        return done, ("max_nodes" if reason == 2 else "seconds" if reason == 1 else "iterations")

    # -- reading the tree -------------------------------------------------------------------------
    @property
    def node_count(self):
        """Information sets in the tree (the root included)."""
        return self.ncount

    @property
    def edge_count(self):
        return self.ecount

    def player(self, int32_t node):
        """The mover met at the node's last visit (``KERNEL_TERMINAL`` if none)."""
        self._check(node)
        return self.nodes[node].player

    def visits(self, int32_t node):
        self._check(node)
        return self.nodes[node].visits

    def value_sums(self, int32_t node):
        self._check(node)
        return tuple(self.nsums[<int64_t>node * self.np + p] for p in range(self.np))

    def edges_of(self, int32_t node):
        """``[(action, visits, availability, value sums)]`` of the node's edges, by action."""
        cdef int32_t first
        cdef uint32_t k
        self._check(node)
        first = self.nodes[node].edges
        return [
            (self.edges[first + k].action, self.edges[first + k].visits,
             self.edges[first + k].availability,
             tuple(self.esums[<int64_t>(first + k) * self.np + p] for p in range(self.np)))
            for k in range(self.nodes[node].num_edges)
        ]

    def root_of(self, int player):
        """The root node of ``player``'s tree (with ``multi``; else the observer's, node 0)."""
        if not 0 <= player < self.np or (player != self.observer and not self.multi):
            raise IndexError(f"no tree of player {player}")
        return self.roots[player]

    def child_by_action(self, int32_t node, int action):
        """The child of ``node`` reached by its decision ``action``, or -1."""
        cdef int32_t e
        self._check(node)
        e = self._edge_of(node, action)
        return -1 if e < 0 else self.edges[e].child

    cdef int _check(self, int32_t node) except -1:
        return check_node("ISMCTS", self.busy, node, self.ncount)
