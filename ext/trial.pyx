# cython: language_level=3, boundscheck=False, wraparound=False, cdivision=True
# cython: initializedcheck=False
"""Compiled helpers for the Trial of the Forest: the three hot spots of its reference rules.

The Trial's rules stay the pure-Python reference (``solver/games/trial/``); its ``kernel`` engine
(``solver.games.trial.kernel``) runs those same rules and swaps in these twins where a profile of
ISMCTS self-play found the time going. Each is a transcription of one reference function and must
agree with it on every input (``tests/games/trial/test_compiled_*.py`` hold them together):

* :func:`copy_data` is ``rules._copy``: the deep copy of the state's JSON-like data behind
  ``clone()`` (and so behind every determinisation of ISMCTS). Dicts and lists are rebuilt, every
  other value is shared, key order is kept. Containers are copied with ``dict.copy`` / slicing
  (C loops) and only nested containers recurse.
* :class:`BoardGraph` ``.reachable`` is ``board.Board.reachable``: the breadth-first reach of a
  move over the board, on an integer adjacency table built once per board instead of dicts of
  string ids. Steps are tried in the reference's order (lines in the board's edge order, then the
  open tunnels in the iteration order of the set handed in, then the expedition starts behind an
  exit), so even the result's key order matches.
* :class:`FameTables` ``.totals`` is ``scoring.fame(st, p)["total"]`` for every player at once:
  the per-card, per-item and per-finishing-space fame read from precomputed tables instead of
  scanning the pack.

These are helpers, not a full kernel: the state stays a Python dict, so there is no fixed-size
struct and no ``KernelVTable`` (``ext/state.pxd``) to fill yet; compiled searchers see the
Trial's kernel states as Python states. A full kernel may follow.
"""

cimport cython
from cpython.dict cimport PyDict_Next
from cpython.list cimport PyList_GET_ITEM, PyList_GET_SIZE
from cpython.object cimport PyObject
from libc.stdlib cimport free, malloc


# -- the state copy --------------------------------------------------------------------------------
cdef object _copy(object value):
    cdef type kind = type(value)
    if kind is dict:
        return _copy_dict(<dict>value)
    if kind is list:
        return _copy_list(<list>value)
    return value


cdef dict _copy_dict(dict source):
    # dict.copy keeps the keys, their order and every scalar value; nested containers are
    # replaced in place (assigning an existing key keeps its position).
    cdef dict out = source.copy()
    cdef Py_ssize_t pos = 0
    cdef PyObject* key
    cdef PyObject* item
    cdef type kind
    while PyDict_Next(source, &pos, &key, &item):
        kind = type(<object>item)
        if kind is dict:
            out[<object>key] = _copy_dict(<dict>item)
        elif kind is list:
            out[<object>key] = _copy_list(<list>item)
    return out


cdef list _copy_list(list source):
    cdef list out = source[:]
    cdef Py_ssize_t i, n = PyList_GET_SIZE(source)
    cdef object item
    cdef type kind
    for i in range(n):
        item = <object>PyList_GET_ITEM(source, i)
        kind = type(item)
        if kind is dict:
            out[i] = _copy_dict(<dict>item)
        elif kind is list:
            out[i] = _copy_list(<list>item)
    return out


def copy_data(value):
    """A deep copy of plain JSON-like data: dicts and lists (exactly those types, not their
    subclasses) are rebuilt, every other value is shared; key order is kept (``rules._copy``)."""
    return _copy(value)


# -- movement --------------------------------------------------------------------------------------
cdef class BoardGraph:
    """A board's spaces as integers: adjacency in CSR form, the expedition flags, the exits.

    Built from a :class:`solver.games.trial.board.Board` (its ``spaces``, ``index``,
    ``neighbours``, ``area_of``, ``area_start``, ``area_exit`` and ``areas``), so it follows
    whatever the pack's board is.
    """

    cdef int n
    cdef int* adj_start      # n + 1 offsets into adj
    cdef int* adj            # neighbours, in the board's order
    cdef int* exit_start     # n + 1 offsets into exit_to
    cdef int* exit_to        # the expedition start spaces behind an exit, in area order
    cdef char* in_area       # the space lies in an expedition area (its start included)
    cdef char* is_start      # the space is an expedition's start space
    cdef int* dist           # scratch, n ints
    cdef int* queue          # scratch, n ints
    cdef int* tunnels        # scratch, n ints
    cdef char* tunnel_open   # scratch, n flags
    cdef readonly list spaces
    cdef readonly dict index

    def __cinit__(self, board):
        spaces = list(board.spaces)
        index = {s: i for i, s in enumerate(spaces)}
        cdef int n = len(spaces)
        cdef int i, k, total_adj = 0, total_exit = 0
        neighbours = [list(board.neighbours.get(s, [])) for s in spaces]
        starts_behind = [
            [board.area_start[a] for a in board.areas if board.area_exit[a] == s] for s in spaces
        ]
        for row in neighbours:
            total_adj += len(row)
        for row in starts_behind:
            total_exit += len(row)
        self.n = n
        self.spaces = spaces
        self.index = index
        self.adj_start = <int*>malloc((n + 1) * sizeof(int))
        self.adj = <int*>malloc((total_adj + 1) * sizeof(int))
        self.exit_start = <int*>malloc((n + 1) * sizeof(int))
        self.exit_to = <int*>malloc((total_exit + 1) * sizeof(int))
        self.in_area = <char*>malloc(n + 1)
        self.is_start = <char*>malloc(n + 1)
        self.dist = <int*>malloc((n + 1) * sizeof(int))
        self.queue = <int*>malloc((n + 1) * sizeof(int))
        self.tunnels = <int*>malloc((n + 1) * sizeof(int))
        self.tunnel_open = <char*>malloc(n + 1)
        if (self.adj_start == NULL or self.adj == NULL or self.exit_start == NULL
                or self.exit_to == NULL or self.in_area == NULL or self.is_start == NULL
                or self.dist == NULL or self.queue == NULL or self.tunnels == NULL
                or self.tunnel_open == NULL):
            raise MemoryError()
        start_spaces = set(board.area_start.values())
        k = 0
        for i in range(n):
            self.adj_start[i] = k
            for s in neighbours[i]:
                self.adj[k] = index[s]
                k += 1
        self.adj_start[n] = k
        k = 0
        for i in range(n):
            self.exit_start[i] = k
            for s in starts_behind[i]:
                self.exit_to[k] = index[s]
                k += 1
        self.exit_start[n] = k
        for i in range(n):
            self.in_area[i] = spaces[i] in board.area_of
            self.is_start[i] = spaces[i] in start_spaces
            self.tunnel_open[i] = 0

    def __dealloc__(self):
        free(self.adj_start)
        free(self.adj)
        free(self.exit_start)
        free(self.exit_to)
        free(self.in_area)
        free(self.is_start)
        free(self.dist)
        free(self.queue)
        free(self.tunnels)
        free(self.tunnel_open)

    def __reduce__(self):
        raise TypeError("a BoardGraph is not picklable; rebuild it from its Board")

    def reachable(self, str origin, int budget, open_tunnels):
        """Every space a move of at most ``budget`` steps from ``origin`` can end on, with its
        distance (``Board.reachable``). ``open_tunnels``: the spaces with a usable tunnel."""
        cdef int here, nxt, head = 0, tail = 0, count = 0, i, j, o
        cdef object found = self.index.get(origin)
        if found is None:
            return {}  # as the reference: nothing is reachable from an unknown space
        o = found
        for t in open_tunnels:  # the set's own iteration order, as the reference walks it
            j = self.index[t]   # KeyError for a tunnel that is no space of the board
            self.tunnels[count] = j
            count += 1
        for i in range(count):
            self.tunnel_open[self.tunnels[i]] = 1
        for i in range(self.n):
            self.dist[i] = -1
        self.dist[o] = 0
        self.queue[tail] = o
        tail += 1
        while head < tail:
            here = self.queue[head]
            head += 1
            if self.dist[here] >= budget:
                continue
            if here != o and self.in_area[here]:
                continue  # an expedition start space stops the move
            for j in range(self.adj_start[here], self.adj_start[here + 1]):
                nxt = self.adj[j]
                if self.dist[nxt] < 0 and (not self.in_area[nxt] or self.is_start[nxt]):
                    self.dist[nxt] = self.dist[here] + 1
                    self.queue[tail] = nxt
                    tail += 1
            if self.tunnel_open[here]:
                for i in range(count):
                    nxt = self.tunnels[i]
                    if nxt != here and self.dist[nxt] < 0 and (
                        not self.in_area[nxt] or self.is_start[nxt]
                    ):
                        self.dist[nxt] = self.dist[here] + 1
                        self.queue[tail] = nxt
                        tail += 1
            for j in range(self.exit_start[here], self.exit_start[here + 1]):
                nxt = self.exit_to[j]
                if self.dist[nxt] < 0 and (not self.in_area[nxt] or self.is_start[nxt]):
                    self.dist[nxt] = self.dist[here] + 1
                    self.queue[tail] = nxt
                    tail += 1
        for i in range(count):
            self.tunnel_open[self.tunnels[i]] = 0
        spaces = self.spaces
        out = {}
        for i in range(1, tail):
            here = self.queue[i]
            out[<object>PyList_GET_ITEM(spaces, here)] = self.dist[here]
        return out


# -- scoring ---------------------------------------------------------------------------------------
cdef class FameTables:
    """A pack's fame values, looked up by id: ``card`` (cards), ``item`` (items and artifacts;
    0 when unprinted), ``finish`` (finishing spaces), the morality track's fame from its
    minimum, the legendary tokens as ``(id, fame)`` and the first player's fame."""

    cdef dict card
    cdef dict item
    cdef dict finish
    cdef list morality
    cdef long morality_min
    cdef list legendary
    cdef long first_player

    def __init__(self, dict card, dict item, dict finish, list morality, long morality_min,
                 list legendary, long first_player):
        self.card = card
        self.item = item
        self.finish = finish
        self.morality = morality
        self.morality_min = morality_min
        self.legendary = legendary
        self.first_player = first_player

    def totals(self, dict data):
        """Every player's fame total in the state data ``data`` (``scoring.fame``)."""
        cdef list players = data["players"]
        cdef dict legendary = data["legendary"]
        cdef object first = data["first"]
        cdef Py_ssize_t p, n = len(players)
        cdef long total
        cdef list out = []
        cdef dict me
        for p in range(n):
            me = <dict>players[p]
            total = 0
            for entry in me["story"]:
                if entry[1]:
                    total += <long>self.card[entry[0]]
            for kind in me["pack"]:
                total += <long>self.item[kind]
            for kind in me["gallery"]:
                total += <long>self.item[kind]
            for space in (<dict>me["flags"]).values():
                if space is not None:
                    total += <long>self.finish[space]
            total += self._morality(me["morality"])
            for token in self.legendary:
                if legendary[token[0]] == p:
                    total += <long>token[1]
            if first == p:
                total += self.first_player
            out.append(total)
        return out

    @cython.boundscheck(True)
    @cython.wraparound(True)
    cdef long _morality(self, object morality) except? -1:
        # Python indexing, negative indices included, as the reference's list lookup.
        return self.morality[morality - self.morality_min]
