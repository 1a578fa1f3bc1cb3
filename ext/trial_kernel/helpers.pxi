# The Trial's compiled helpers of the earlier kernel engine (reference rules + twins): kept
# while kernel.py moves to the whole compiled engine; included by ext/trial.pyx.


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
        if (self.adj_start == NULL or self.adj == NULL or self.exit_start == NULL
                or self.exit_to == NULL or self.in_area == NULL or self.is_start == NULL):
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

    def __dealloc__(self):
        free(self.adj_start)
        free(self.adj)
        free(self.exit_start)
        free(self.exit_to)
        free(self.in_area)
        free(self.is_start)

    def __reduce__(self):
        raise TypeError("a BoardGraph is not picklable; rebuild it from its Board")

    def reachable(self, origin, int budget, open_tunnels):
        """Every space a move of at most ``budget`` steps from ``origin`` can end on, with its
        distance (``Board.reachable``). ``open_tunnels``: the spaces with a usable tunnel."""
        cdef int n = self.n, o, j, count = 0, tail, i, here
        cdef object found = self.index.get(origin)
        if found is None:
            return {}  # as the reference: nothing is reachable from an unknown space
        o = found
        # scratch per call (no state shared between threads): dist, queue, tunnels, open flags
        cdef int* work = <int*>malloc(4 * (n + 1) * sizeof(int))
        if work == NULL:
            raise MemoryError()
        cdef int* dist = work
        cdef int* queue = work + (n + 1)
        cdef int* tunnels = work + 2 * (n + 1)
        cdef int* tunnel_open = work + 3 * (n + 1)
        try:
            for i in range(n):
                tunnel_open[i] = 0
            for t in open_tunnels:  # the iteration order the reference walks them in
                j = self.index[t]   # KeyError for a tunnel that is no space of the board
                if not tunnel_open[j]:
                    tunnel_open[j] = 1
                    tunnels[count] = j
                    count += 1
            tail = self._search(o, budget, dist, queue, tunnels, count, tunnel_open)
            spaces = self.spaces
            out = {}
            for i in range(1, tail):
                here = queue[i]
                out[<object>PyList_GET_ITEM(spaces, here)] = dist[here]
            return out
        finally:
            free(work)

    cdef int _search(self, int o, int budget, int* dist, int* queue, const int* tunnels,
                     int count, const int* tunnel_open) noexcept nogil:
        # Breadth-first from ``o``; fills ``dist`` and ``queue`` and returns the queue's length.
        cdef int here, nxt, head = 0, tail = 0, i, j
        for i in range(self.n):
            dist[i] = -1
        dist[o] = 0
        queue[tail] = o
        tail += 1
        while head < tail:
            here = queue[head]
            head += 1
            if dist[here] >= budget:
                continue
            if here != o and self.in_area[here]:
                continue  # an expedition start space stops the move
            for j in range(self.adj_start[here], self.adj_start[here + 1]):
                nxt = self.adj[j]
                if dist[nxt] < 0 and (not self.in_area[nxt] or self.is_start[nxt]):
                    dist[nxt] = dist[here] + 1
                    queue[tail] = nxt
                    tail += 1
            if tunnel_open[here]:
                for i in range(count):
                    nxt = tunnels[i]
                    if nxt != here and dist[nxt] < 0 and (
                        not self.in_area[nxt] or self.is_start[nxt]
                    ):
                        dist[nxt] = dist[here] + 1
                        queue[tail] = nxt
                        tail += 1
            for j in range(self.exit_start[here], self.exit_start[here + 1]):
                nxt = self.exit_to[j]
                if dist[nxt] < 0 and (not self.in_area[nxt] or self.is_start[nxt]):
                    dist[nxt] = dist[here] + 1
                    queue[tail] = nxt
                    tail += 1
        return tail


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
        cdef object first = data["first_player"]
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
            for kind in me["backpack"]:
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


# -- card playability ------------------------------------------------------------------------------
cdef enum:
    MAX_UNITS = 64          # spend units of one cost (terms, ``per: item`` expanded)
    MAX_KINDS = 64          # distinct kinds in one backpack
    NUM_FOODS = 4           # FOODS: raspberry, acorn, mushroom, tea (tea stands in for the raw three)

cdef enum:
    C_AT_CAMPSITE = 0
    C_AT_TUNNEL = 1
    C_AT_LOCATION = 2
    C_AT_TYPE = 3
    C_COMPANY = 4
    C_COMPANY_EVIL = 5
    C_MORALITY = 6
    C_PAWS_CORNERS = 7
    C_PAWS_DIAGONAL = 8
    C_PAWS_TYPES = 9
    C_TRACKER = 10
    C_NO_TUNNEL = 11
    C_STORY_EVIL = 12
    C_NEVER = 13


cdef class _Unit:
    # One spend term, classified once: which foods pay it (bit f for FOODS[f]), which item kinds
    # (``any_item`` or the set ``kinds``), whether a card does, whether it is food-like.
    cdef int food_mask
    cdef bint any_item
    cdef frozenset kinds
    cdef bint card
    cdef bint foodlike
    cdef bint per_item


cdef class _Card:
    cdef list conditions      # (code, argument) pairs
    cdef list haves           # each a list of alternatives
    cdef list units           # _Unit, in cost order


ctypedef struct PaySearch:
    # The backtracking of ``payments.can_pay`` on C counters (on the caller's stack: reentrant).
    int n_units
    int n_kinds
    int card_units
    int food[NUM_FOODS]
    int count[MAX_KINDS]
    int food_mask[MAX_UNITS]
    char match[MAX_UNITS][MAX_KINDS]
    char card[MAX_UNITS]
    char foodlike[MAX_UNITS]


cdef bint pay_search(PaySearch* s, int i, int hand_left) noexcept nogil:
    cdef int f, j, skip
    cdef bint ok
    if i >= s.n_units:
        return True
    for f in range(NUM_FOODS):
        if s.food[f] > 0 and (s.food_mask[i] >> f) & 1:
            s.food[f] -= 1
            ok = pay_search(s, i + 1, hand_left)
            s.food[f] += 1
            if ok:
                return True
    for j in range(s.n_kinds):
        if s.count[j] > 0 and s.match[i][j]:
            s.count[j] -= 1
            ok = pay_search(s, i + 1, hand_left)
            s.count[j] += 1
            if ok:
                return True
    if hand_left > 0 and (s.card[i] or (s.card_units and s.foodlike[i])):
        skip = 1 + (s.card_units - 1 if s.card_units > 1 and s.foodlike[i] else 0)
        return pay_search(s, min(s.n_units, i + skip), hand_left - 1)
    return False


cdef class PlayTables:
    """What ``conditions.playable`` reads, precomputed per pack: every card's conditions, ``have``
    terms and spend terms (classified), and the board and tile facts the conditions ask about.

    ``playable(data, p, cid)`` is ``conditions.playable(st, p, cid)`` for the state data ``data``:
    the card's conditions hold and its cost can be paid (the same backtracking over food, tea
    standing in, backpack items and cards in hand)."""

    cdef dict cards
    cdef tuple foods
    cdef frozenset amphibians
    cdef frozenset campsites
    cdef frozenset slots
    cdef frozenset printed_tunnels
    cdef dict quarter
    cdef dict tile_type       # tile id -> (type, restored type or None)
    cdef frozenset evil_cards

    def __init__(self, dict cards, tuple foods, amphibians, campsites, slots, printed_tunnels,
                 dict quarter, dict tile_type, evil_cards):
        # ``cards``: id -> the card's ``requires`` and ``cost`` lists (as in the pack).
        if len(foods) != NUM_FOODS or foods[3] != "tea":
            raise ValueError(f"expected {NUM_FOODS} foods, tea last, not {foods!r}")
        self.foods = foods
        self.amphibians = frozenset(amphibians)
        self.campsites = frozenset(campsites)
        self.slots = frozenset(slots)
        self.printed_tunnels = frozenset(printed_tunnels)
        self.quarter = quarter
        self.tile_type = tile_type
        self.evil_cards = frozenset(evil_cards)
        self.cards = {cid: self._card(requires, cost) for cid, (requires, cost) in cards.items()}

    cdef _Card _card(self, list requires, list cost):
        cdef _Card card = _Card()
        card.conditions = [self._condition(c) for c in requires]
        card.haves = [list(term["have"]) for term in cost if "have" in term]
        card.units = [self._unit(term) for term in cost if "spend" in term]
        return card

    cdef tuple _condition(self, dict cond):
        ((key, arg),) = cond.items()
        if key == "at":
            if arg == "campsite":
                return (C_AT_CAMPSITE, arg)
            if arg == "tunnel":
                return (C_AT_TUNNEL, arg)
            if arg == "location":
                return (C_AT_LOCATION, arg)
            return (C_AT_TYPE, arg)
        if key == "company":
            return (C_COMPANY_EVIL if arg == "evil" else C_COMPANY, arg)
        if key == "morality":
            return (C_MORALITY, arg)
        if key == "paws":
            if arg == "corners":
                return (C_PAWS_CORNERS, arg)
            if arg == "diagonal":
                return (C_PAWS_DIAGONAL, arg)
            return (C_PAWS_TYPES, arg)
        if key == "tracker":
            return (C_TRACKER, arg)
        if key == "no_tunnel":
            return (C_NO_TUNNEL, arg)
        if key == "story_evil":
            return (C_STORY_EVIL, arg)
        return (C_NEVER, arg)

    cdef _Unit _unit(self, dict term):
        cdef _Unit unit = _Unit()
        cdef int f
        alts = list(term["spend"])
        raw = self.foods[:3]
        unit.food_mask = 0
        for f in range(NUM_FOODS):
            food = self.foods[f]
            if food in alts or "food" in alts or (f == 3 and any(a in raw for a in alts)):
                unit.food_mask |= 1 << f
        items = [a for a in alts if a not in (*self.foods, "food", "card")]
        unit.any_item = "item" in items
        kinds = set(a for a in items if a not in ("item", "amphibian"))
        if "amphibian" in items:
            kinds |= self.amphibians
        unit.kinds = frozenset(kinds)
        unit.card = "card" in alts
        unit.foodlike = any(a in self.foods or a == "food" for a in alts)
        unit.per_item = term.get("per") == "item"
        return unit

    cdef object _location_type(self, dict data, object slot):
        tile = data["tiles"].get(slot)
        if not tile:
            return None
        kind, restored = self.tile_type[tile[0]]
        if kind == "ruins" and tile[1]:
            return restored
        return kind

    cdef bint _condition_ok(self, dict data, list players, int p, int code, object arg) except -1:
        cdef dict me = players[p]
        cdef int q
        pos = me["space"]
        if code == C_AT_CAMPSITE:
            return pos in self.campsites
        if code == C_AT_TUNNEL:
            state = data["tunnels"].get(pos)
            return (pos in self.printed_tunnels and state != "collapsed") or state == "open"
        if code == C_AT_LOCATION:
            return pos in self.slots
        if code == C_AT_TYPE:
            return self._location_type(data, pos) == arg
        if code == C_COMPANY or code == C_COMPANY_EVIL:
            for q in range(<int>data["player_count"]):
                if q != p and players[q]["space"] == pos:
                    if code == C_COMPANY or players[q]["morality"] > 0:
                        return True
            return False
        if code == C_MORALITY:
            m = me["morality"]
            return ("good" if m < 0 else "evil" if m > 0 else "neutral") == arg
        if code == C_PAWS_CORNERS or code == C_PAWS_DIAGONAL or code == C_PAWS_TYPES:
            locs = _paw_locations(me)
            quarters = {self.quarter[s] for s in locs}
            if code == C_PAWS_CORNERS:
                return quarters >= {"NW", "NE", "SW", "SE"}
            if code == C_PAWS_DIAGONAL:
                return {"NW", "SE"} <= quarters or {"NE", "SW"} <= quarters
            return len({self._location_type(data, s) for s in locs}) >= 4
        if code == C_TRACKER:
            mine = set(_paw_locations(me))
            for q in range(<int>data["player_count"]):
                if q != p and len(mine & set(_paw_locations(players[q]))) >= arg:
                    return True
            return False
        if code == C_NO_TUNNEL:
            return pos not in self.printed_tunnels and pos not in data["tunnels"]
        if code == C_STORY_EVIL:
            count = 0
            for entry in me["story"]:
                if entry[1] and entry[0] in self.evil_cards:
                    count += 1
            return count >= arg
        return False

    cdef bint _owns(self, dict me, str alt) except -1:
        cdef dict food = me["food"]
        if alt in self.foods:
            return food[alt] > 0 or (alt != "tea" and food["tea"] > 0)
        if alt == "food":
            return any(food.values())
        for kind in me["backpack"]:
            if alt == "item" or kind == alt or (alt == "amphibian" and kind in self.amphibians):
                return True
        return False

    def playable(self, dict data, int p, str cid):
        """``conditions.playable``: whether player ``p`` may resolve card ``cid`` now (``data``:
        the state's data)."""
        return self._playable(data, p, cid)

    def state_playable(self, state, int p, str cid):
        """The same for a state object (``state.data``): ``conditions.playable``'s signature, so a
        game can offer it as its ``playable``."""
        return self._playable(state.data, p, cid)

    cdef bint _playable(self, dict data, int p, str cid) except -1:
        cdef _Card card = self.cards[cid]
        cdef list players = data["players"]
        cdef dict me = players[p]
        cdef PaySearch s
        cdef _Unit unit
        cdef int f, i, j, n = 0, times, kinds = 0
        for code, arg in card.conditions:
            if not self._condition_ok(data, players, p, code, arg):
                return False
        for alts in card.haves:
            for alt in alts:
                if self._owns(me, alt):
                    break
            else:
                return False
        if not card.units:
            return True
        pack = me["backpack"]
        distinct = sorted(set(pack))
        if len(distinct) > MAX_KINDS:
            raise ValueError(f"more than {MAX_KINDS} kinds in a backpack")
        for i in range(len(distinct)):
            s.count[i] = pack.count(distinct[i])
        kinds = len(distinct)
        for unit in card.units:
            times = len(pack) if unit.per_item else 1
            if n + times > MAX_UNITS:
                raise ValueError(f"a cost of more than {MAX_UNITS} units")
            for _ in range(times):
                s.food_mask[n] = unit.food_mask
                s.card[n] = unit.card
                s.foodlike[n] = unit.foodlike
                for j in range(kinds):
                    s.match[n][j] = unit.any_item or distinct[j] in unit.kinds
                n += 1
        food = me["food"]
        for f in range(NUM_FOODS):
            s.food[f] = food[self.foods[f]]
        s.n_units = n
        s.n_kinds = kinds
        s.card_units = 0
        return pay_search(&s, 0, len(me["hand"]))


cdef list _paw_locations(dict me):
    return [t[4:] for t, _ in me["paws_placed"] if t.startswith("loc:")]
