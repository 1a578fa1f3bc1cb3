# cython: language_level=3, boundscheck=False, wraparound=False, cdivision=True
# cython: initializedcheck=False
"""The compiled Trial of the Forest: the engine in C (``ext/trial_kernel/``), its game and state
classes, and the ``KernelVTable`` the compiled searchers run it through.

:class:`TrialKernelGame` holds the pack compiled into the C game (``TGame``, filled once from
:func:`solver.games.trial.kernel_tables.compile_game`) and a ``KernelHandle``;
:class:`TrialKernelState` holds one position (``TState``, inline: ``clone()`` is a ``memcpy``) and
plays the protocol's transitions in C: ``legal_actions``, ``chance_outcomes``, ``apply_action``,
``returns``, ``heuristic``, ``information_state_key``, ``resample_hidden``, ``playout_action``.
The history texts (``information_state_string``, ``to_json``) come from the C engine too, written
to a buffer at each ``apply_action`` and kept by the state as a chain shared by its copies.

What a player reads (observations, labels, JSON, ``str``) is presentation: the Python face
(``solver/games/trial/kernel.py``) decodes the struct into the reference's state data
(:mod:`solver.games.trial.kernel_codec`) and calls the reference's views, held to the reference by
the differential tests.
"""

cimport cython
from cpython.bytes cimport PyBytes_FromStringAndSize
from libc.stdint cimport int8_t, int16_t, uint8_t, uint16_t, uint64_t
from libc.stdlib cimport calloc, free
from libc.string cimport memcpy, memset

from state cimport KERNEL_MAX_ACTIONS, KernelHandle, KernelVTable
from trial cimport *

cdef enum:
    SINK = 16384
    BUFFER = 1024

cdef extern from *:
    """
    #define TK_STATE_SIZE sizeof(TState)
    """
    size_t TK_STATE_SIZE


# -- the vtable (ext/state.pxd) --------------------------------------------------------------------
cdef int _current(const void* g, const void* s) noexcept nogil:
    return current_player(<const TState*>s)


cdef bint _terminal(const void* g, const void* s) noexcept nogil:
    return (<const TState*>s).depth == 0


cdef int _legal(const void* g, const void* s, int* out) noexcept nogil:
    cdef int buf[BUFFER]
    cdef int n = tk_legal(<const TGame*>g, <const TState*>s, buf)
    memcpy(out, buf, n * sizeof(int))
    return n


cdef int _chance(const void* g, const void* s, int* acts, double* probs) noexcept nogil:
    return tk_chance(<const TGame*>g, <const TState*>s, acts, probs)


cdef void _apply(const void* g, void* s, int a) noexcept nogil:
    apply_action(<const TGame*>g, <TState*>s, a, NULL)


cdef void _returns(const void* g, const void* s, double* out) noexcept nogil:
    tk_returns_into(<const TGame*>g, <const TState*>s, out)


cdef uint64_t _hash(const void* g, const void* s) noexcept nogil:
    return tk_hash_state(<const TState*>s)


cdef double _heuristic(const void* g, const void* s, int p) noexcept nogil:
    return tk_heuristic_of(<const TGame*>g, <const TState*>s, p)


cdef uint64_t _info_key(const void* g, const void* s, int p) noexcept nogil:
    return tk_info_key(<const TGame*>g, <const TState*>s, p)


cdef int _resample(const void* g, void* s, int p, uint64_t* rng) noexcept nogil:
    return tk_resample(<const TGame*>g, <TState*>s, p, rng)


cdef int _policy(const void* g, const void* s, uint64_t* rng) noexcept nogil:
    return tk_policy(<const TGame*>g, <const TState*>s, rng)


def text_hash(bytes text):
    """The 64-bit hash the engine folds a history text into (``tk_text_hash``)."""
    return tk_text_hash(<const char*>text, len(text))


STATE_SIZE = TK_STATE_SIZE


# -- filling the C game from the compiled tables ---------------------------------------------------
ctypedef fused table_cell:
    int
    int8_t
    uint8_t
    int16_t
    uint16_t
    double


cdef void _table(table_cell* dst, list src, int cap) except *:
    """Copy the compiled table ``src`` into ``dst`` (``cap`` entries at the most); a ``uint8_t``
    table keeps the low byte of each entry (-1 is 255)."""
    if len(src) > cap:
        raise ValueError(f"a table of {len(src)} entries (at most {cap})")
    for i, v in enumerate(src):
        if table_cell is uint8_t:
            dst[i] = <uint8_t>(v & 0xFF)
        else:
            dst[i] = v


cdef void _fill_counts(TGame* g, dict t) except *:
    g.n_players = t["n_players"]; g.n_cards = t["n_cards"]; g.n_deeds = t["n_deeds"]
    g.n_encounters = t["n_encounters"]; g.n_spaces = t["n_spaces"]
    g.n_board_spaces = t["n_board_spaces"]; g.n_kinds = t["n_kinds"]; g.n_items = t["n_items"]
    g.n_tiles = t["n_tiles"]; g.n_areas = t["n_areas"]; g.n_legendary = t["n_legendary"]
    g.n_faces = t["n_faces"]; g.n_tents = t["n_tents"]; g.n_rows = t["n_rows"]
    g.n_cols = t["n_cols"]; g.n_one_each_kinds = t["n_one_each_kinds"]
    g.n_commons = t["n_commons"]; g.n_rares = t["n_rares"]
    g.A_PAW = t["A_PAW"]; g.A_OPTION = t["A_OPTION"]; g.A_FOOD = t["A_FOOD"]
    g.A_COLUMN = t["A_COLUMN"]; g.A_PLAYER = t["A_PLAYER"]; g.A_TENT = t["A_TENT"]
    g.A_CELL = t["A_CELL"]; g.A_BONUS = t["A_BONUS"]; g.A_DIE = t["A_DIE"]; g.A_TILE = t["A_TILE"]
    g.A_ITEM = t["A_ITEM"]; g.A_SELL = t["A_SELL"]; g.A_SPACE = t["A_SPACE"]
    g.A_CARD = t["A_CARD"]; g.A_DROP = t["A_DROP"]; g.A_SIZE = t["A_SIZE"]
    g.food_per_kind = t["food_per_kind"]; g.board_move = t["board_move"]
    g.board_strength = t["board_strength"]; g.board_trade = t["board_trade"]
    g.backpack_slots = t["backpack_slots"]; g.backpack_move = t["backpack_move"]
    g.morality_min = t["morality_min"]; g.morality_max = t["morality_max"]
    g.first_player_fame = t["first_player_fame"]; g.hand_limit = t["hand_limit"]
    g.start_hand = t["start_hand"]; g.paws = t["paws"]; g.tents_each = t["tents_each"]
    g.row_size = t["row_size"]; g.tunnel_tokens = t["tunnel_tokens"]
    g.n_dfaces = t["n_dfaces"]; g.n_artifacts = t["n_artifacts"]; g.n_paths = t["n_paths"]
    g.n_campsites = t["n_campsites"]; g.n_starts = t["n_starts"]; g.n_setup = t["n_setup"]
    g.kind_compass = t["kind_compass"]; g.kind_elixir = t["kind_elixir"]
    g.kind_bow_name = t["kind_bow_name"]
    g.cost_food1 = t["cost_food1"]; g.cost_tea1 = t["cost_tea1"]; g.cost_food2 = t["cost_food2"]


cdef void _fill_components(TGame* g, dict t) except *:
    _table(g.start_food, t["start_food"], 4)
    _table(g.morality_fame, t["morality_fame"], 41)
    _table(g.face_strength, t["face_strength"], TK_MAX_FACES)
    _table(g.face_win, t["face_win"], TK_MAX_FACES)
    _table(g.dface_strength, t["dface_strength"], TK_MAX_FACES)
    _table(g.dface_win, t["dface_win"], TK_MAX_FACES)
    _table(g.dface_prob, t["dface_prob"], TK_MAX_FACES)
    _table(g.dface_of_face, t["dface_of_face"], TK_MAX_FACES)
    _table(g.dsum_count, t["dsum_count"], TK_MAX_DICE + 1)
    _table(g.dsum_first, t["dsum_first"], TK_MAX_DICE + 1)
    _table(g.dsum_value, t["dsum_value"], TK_SUMS * 4)
    _table(g.dsum_prob, t["dsum_prob"], TK_SUMS * 4)
    _table(g.legendary_column, t["legendary_column"], TK_MAX_LEGENDARY)
    _table(g.legendary_cards, t["legendary_cards"], TK_MAX_LEGENDARY)
    _table(g.legendary_fame, t["legendary_fame"], TK_MAX_LEGENDARY)
    _table(g.tent_bonus, t["tent_bonus"], TK_MAX_TENTS)


cdef void _fill_cards(TGame* g, dict t) except *:
    cdef int c, k
    _table(g.card_deck, t["card_deck"], TK_MAX_CARDS)
    _table(g.card_fame, t["card_fame"], TK_MAX_CARDS)
    for c, row in enumerate(t["card_symbols"]):
        for k, v in enumerate(row):
            g.card_symbols[c][k] = v
    for c, row in enumerate(t["card_enhance"]):
        for k, v in enumerate(row):
            g.card_enhance[c][k] = v
    for c, row in enumerate(t["card_moral"]):
        for k, v in enumerate(row):
            g.card_moral[c][k] = v
    _table(g.card_column, t["card_column"], TK_MAX_CARDS)
    _table(g.card_n_moral, t["card_n_moral"], TK_MAX_CARDS)
    _table(g.card_either_or_evil, t["card_either_or_evil"], TK_MAX_CARDS)
    _table(g.card_strength_discard, t["card_strength_discard"], TK_MAX_CARDS)
    _table(g.card_strength_facedown, t["card_strength_facedown"], TK_MAX_CARDS)
    _table(g.card_grove_bonus, t["card_grove_bonus"], TK_MAX_CARDS)
    _table(g.card_lookout_bonus, t["card_lookout_bonus"], TK_MAX_CARDS)
    _table(g.card_cartographer, t["card_cartographer"], TK_MAX_CARDS)
    _table(g.card_company, t["card_company"], TK_MAX_CARDS)
    _table(g.card_cond_first, t["card_cond_first"], TK_MAX_CARDS)
    _table(g.card_cond_count, t["card_cond_count"], TK_MAX_CARDS)
    _table(g.card_cost, t["card_cost"], TK_MAX_CARDS)
    _table(g.card_effect, t["card_effect"], TK_MAX_CARDS)
    _table(g.card_unpaid, t["card_unpaid"], TK_MAX_CARDS)
    _table(g.card_foe, t["card_foe"], TK_MAX_CARDS)
    _table(g.card_area, t["card_area"], TK_MAX_CARDS)
    _table(g.card_rank, t["card_rank"], TK_MAX_CARDS)


cdef void _fill_kinds(TGame* g, dict t) except *:
    _table(g.kind_artifact, t["kind_artifact"], TK_MAX_KINDS)
    _table(g.kind_rare, t["kind_rare"], TK_MAX_KINDS)
    _table(g.kind_size, t["kind_size"], TK_MAX_KINDS)
    _table(g.kind_large, t["kind_large"], TK_MAX_KINDS)
    _table(g.kind_fame, t["kind_fame"], TK_MAX_KINDS)
    _table(g.kind_strength, t["kind_strength"], TK_MAX_KINDS)
    _table(g.kind_trade, t["kind_trade"], TK_MAX_KINDS)
    _table(g.kind_move, t["kind_move"], TK_MAX_KINDS)
    _table(g.kind_dice, t["kind_dice"], TK_MAX_KINDS)
    _table(g.kind_shield, t["kind_shield"], TK_MAX_KINDS)
    _table(g.kind_bow, t["kind_bow"], TK_MAX_KINDS)
    _table(g.kind_amphibian, t["kind_amphibian"], TK_MAX_KINDS)
    _table(g.kind_rank, t["kind_rank"], TK_MAX_KINDS)
    _table(g.artifact_order, t["artifact_order"], TK_GALLERY)
    _table(g.commons_init, t["commons_init"], 24)
    _table(g.rares_init, t["rares_init"], 24)
    _table(g.one_each_init, t["one_each_init"], 24)


cdef void _fill_board(TGame* g, dict t) except *:
    cdef int i
    _table(g.space_kind, t["space_kind"], TK_MAX_SPACES)
    _table(g.space_slot, t["space_slot"], TK_MAX_SPACES)
    _table(g.space_quarter, t["space_quarter"], TK_MAX_SPACES)
    _table(g.space_campsite, t["space_campsite"], TK_MAX_SPACES)
    _table(g.space_printed_tunnel, t["space_printed_tunnel"], TK_MAX_SPACES)
    _table(g.space_area, t["space_area"], TK_MAX_SPACES)
    _table(g.space_finish, t["space_finish"], TK_MAX_SPACES)
    _table(g.space_resource, t["space_resource"], TK_MAX_SPACES)
    _table(g.space_pref, t["space_pref"], TK_MAX_SPACES)
    _table(g.space_camp_prefix, t["space_camp_prefix"], TK_MAX_SPACES)
    _table(g.adj_first, t["adj_first"], TK_MAX_SPACES + 1)
    _table(g.adj, t["adj"], TK_MAX_EDGES * 2)
    _table(g.area_start, t["area_start"], TK_AREAS)
    _table(g.area_exit, t["area_exit"], TK_AREAS)
    _table(g.area_nearest_finish, t["area_nearest_finish"], TK_AREAS)
    if len(t["paths"]) > TK_MAX_PATHS:
        raise ValueError("too many expedition paths")
    for i, p in enumerate(t["paths"]):
        g.paths[i].start = p["from"]
        g.paths[i].to = p["to"]
        g.paths[i].line = p["line"]
        g.paths[i].cost = p["cost"]
    _table(g.slot_space, t["slot_space"], TK_SLOTS)
    _table(g.slot_type, t["slot_type"], TK_SLOTS)
    _table(g.slot_ruin, t["slot_ruin"], TK_SLOTS)
    _table(g.ruin_slot, t["ruin_slot"], TK_RUINS)
    _table(g.campsite_space, t["campsite_space"], TK_CAMPSITES)
    _table(g.campsite_bonus, t["campsite_bonus"], TK_CAMPSITES)
    _table(g.start_spaces, t["start_spaces"], TK_MAX_SPACES)
    _table(g.tile_type, t["tile_type"], TK_TILES)
    _table(g.tile_food, t["tile_food"], TK_TILES)
    _table(g.tile_ruined, t["tile_ruined"], TK_TILES)
    _table(g.tile_restored, t["tile_restored"], TK_TILES)
    _table(g.col_large, t["col_large"], TK_COLS)
    _table(g.col_price, t["col_price"], TK_COLS)
    _table(g.row_price, t["row_price"], TK_ROWS)
    _table(g.cell_cost, t["cell_cost"], TK_CELLS)


cdef void _fill_effects(TGame* g, dict t) except *:
    cdef int i
    if len(t["nodes"]) > TK_MAX_NODES or len(t["instr"]) > TK_MAX_INSTR:
        raise ValueError("too many effect nodes")
    for i, n in enumerate(t["nodes"]):
        g.nodes[i].kind = n["kind"]; g.nodes[i].card = n["card"]; g.nodes[i].first = n["first"]
        g.nodes[i].count = n["count"]; g.nodes[i].a = n["a"]; g.nodes[i].b = n["b"]
        g.nodes[i].n1 = n["n1"]; g.nodes[i].n2 = n["n2"]; g.nodes[i].cost = n["cost"]
        g.nodes[i].c = n["c"]
    for i, n in enumerate(t["instr"]):
        g.instr[i].verb = n["verb"]; g.instr[i].a = n["a"]; g.instr[i].b = n["b"]
        g.instr[i].c = n["c"]; g.instr[i].node = n["node"]; g.instr[i].gains = n["gains"]
        g.instr[i].n_gains = n["n_gains"]
    for i, o in enumerate(t["options"]):
        g.options[i].morality = o["morality"]; g.options[i].cond_first = o["cond_first"]
        g.options[i].cond_count = o["cond_count"]; g.options[i].cost = o["cost"]
        g.options[i].effect = o["effect"]
    for i, (key, arg) in enumerate(t["conds"]):
        g.conds[i].key = key
        g.conds[i].arg = arg
    for i, (first, count) in enumerate(t["costs"]):
        g.costs[i].first = first
        g.costs[i].count = count
    for i, term in enumerate(t["terms"]):
        g.terms[i].alts = term["alts"]; g.terms[i].have = term["have"]
        g.terms[i].per_item = term["per_item"]; g.terms[i].gallery = term["gallery"]
        g.terms[i].unit_type = term["unit_type"]
    _table(g.gain_key, t["gain_key"], TK_MAX_GAINS)
    _table(g.gain_n, t["gain_n"], TK_MAX_GAINS)
    g.n_nodes = t["n_nodes"]; g.n_instr = t["n_instr"]; g.n_options = t["n_options"]
    g.n_conds = t["n_conds"]; g.n_costs = t["n_costs"]; g.n_terms = t["n_terms"]
    g.n_gains = t["n_gains"]


cdef void _fill_setup_and_strings(TGame* g, dict t) except *:
    _table(g.setup_kind, t["setup_kind"], TK_SETUP_QUEUE)
    _table(g.setup_player, t["setup_player"], TK_SETUP_QUEUE)
    _table(g.setup_a, t["setup_a"], TK_SETUP_QUEUE)
    _table(g.setup_b, t["setup_b"], TK_SETUP_QUEUE)
    _table(g.setup_c, t["setup_c"], TK_SETUP_QUEUE)
    cdef bytes chars = t["chars"]
    if len(chars) > TK_STRINGS:
        raise ValueError("too many characters in the ids")
    memcpy(g.chars, <const char*>chars, len(chars))
    _table(g.str_card, t["str_card"], TK_MAX_CARDS)
    _table(g.str_card_json, t["str_card_json"], TK_MAX_CARDS)
    _table(g.str_space, t["str_space"], TK_MAX_SPACES)
    _table(g.str_kind, t["str_kind"], TK_MAX_KINDS)
    _table(g.str_area, t["str_area"], TK_AREAS)
    _table(g.str_bonus, t["str_bonus"], TK_BONUSES)
    _table(g.str_kindname, t["str_kindname"], N_KINDS)


# -- the Python face (``kernel_face.pxi``: the plumbing every kernel shares) -------------------
ctypedef TState KernelStruct
ctypedef TGame KernelData
ctypedef TrialKernelGame KernelGame
ctypedef TrialKernelState KernelState
include "kernel_face.pxi"


cdef inline TrialKernelState kernel_new_state():
    return TrialKernelState.__new__(TrialKernelState)


cdef inline void kernel_initial(const TGame* g, TState* s) noexcept nogil:
    tk_initial(g, s)


cdef inline bint kernel_is_legal(const TGame* g, const TState* s, int a) noexcept nogil:
    return tk_is_legal(g, s, a)


cdef double kernel_tally(const void* game, const void* state) noexcept nogil:
    """``random_playouts`` sums player 0's returns (a shared win counts its share)."""
    cdef double out[TK_MAX_PLAYERS]
    tk_returns_into(<const TGame*>game, <const TState*>state, out)
    return out[0]


cdef _apply_slow(TrialKernelState state, action):
    """``apply_action`` for anything but a legal plain int: the Python face's checked path."""
    state.apply_action(action)


cdef class TrialKernelGame(KernelGameFace):
    """The compiled Trial's game: the C tables of one pack and player count, and its vtable.

    ``_fill(tables)`` builds the C game once from :func:`compile_game`'s tables; the Python face
    (``solver.games.trial.kernel.KernelTrialGame``) subclasses it, and ``state_class`` is the
    class of its states."""

    cdef KernelVTable vtable
    cdef public object state_class

    def __cinit__(self, *args, **kwargs):
        self.data = <TGame*>calloc(1, sizeof(TGame))
        if self.data == NULL:
            raise MemoryError("the compiled Trial's tables")

    cdef TrialKernelState _blank(self):
        cdef TrialKernelState state = self.state_class.__new__(self.state_class)
        state.game = self
        state.history = None
        state.view = None
        return state

    def _fill(self, dict tables):
        """Copy the compiled tables into the C game and fill the vtable."""
        cdef TGame* g = self.data
        _fill_counts(g, tables)
        _fill_components(g, tables)
        _fill_cards(g, tables)
        _fill_kinds(g, tables)
        _fill_board(g, tables)
        _fill_effects(g, tables)
        _fill_setup_and_strings(g, tables)
        self.vtable.name = b"trial"
        self.vtable.state_size = sizeof(TState)
        self.vtable.num_players = g.n_players
        self.vtable.num_distinct_actions = g.A_SIZE
        self.vtable.max_actions = g.A_SIZE if g.A_SIZE > KERNEL_MAX_ACTIONS else KERNEL_MAX_ACTIONS
        self.vtable.current_player = _current
        self.vtable.is_terminal = _terminal
        self.vtable.legal_actions = _legal
        self.vtable.chance_outcomes = _chance
        self.vtable.apply_action = _apply
        self.vtable.returns = _returns
        self.vtable.hash = _hash
        self.vtable.heuristic = _heuristic
        self.vtable.utility_min = 0.0
        self.vtable.utility_max = 1.0
        self.vtable.pack = NULL
        self.vtable.information_state_key = _info_key
        self.vtable.resample_hidden = _resample
        self.vtable.playout_action = _policy
        self.handle.vtable = &self.vtable
        self.handle.game = g

    def _new_state(self):
        """The initial state (the set-up queued and settled), of class ``state_class``."""
        self._check()
        cdef TrialKernelState state = self._blank()
        with nogil:
            tk_initial(self.data, &state.st)
        return state

    def _state_from_raw(self, dict raw, object history):
        """A state from :meth:`TrialKernelState._raw`'s fields and a history chain."""
        self._check()
        cdef TrialKernelState state = self._blank()
        state.history = history
        _load(&state.st, raw)
        tk_rebuild_masks(self.data, &state.st)
        return state

    def _blank_seen(self, list entries):
        """The history hashes of a list of entries ``(seen_by, text, redacted)``: 16 numbers."""
        cdef uint64_t seen[TK_SUBSETS]
        memset(seen, 0, sizeof(seen))
        cdef int n = self.data.n_players, t, mask
        cdef uint64_t ht, hr
        for who, text, red in entries:
            tb = text.encode("utf-8")
            rb = red.encode("utf-8")
            ht = tk_text_hash(<const char*>tb, len(tb))
            hr = tk_text_hash(<const char*>rb, len(rb))
            mask = 0
            if who != "*":
                for ch in who:
                    mask |= 1 << int(ch)
            for t in range(1, 1 << n):
                seen[t] = tk_fold(seen[t], ht if who == "*" or (t & ~mask) == 0 else hr)
        return [seen[t] for t in range(TK_SUBSETS)]


# -- the state ------------------------------------------------------------------------------------
cdef class TrialKernelState(KernelStateFace):
    """One position of the compiled Trial (the struct inline, ``kernel_face.pxi``) and its
    history chain."""

    cdef public object history
    """``None`` or ``(previous, entries)``: each link the raw entries of one step (or of a
    loaded state's history), shared by copies."""
    cdef public object view
    """The Python face's decoded data of this position (``None`` until asked; dropped by every
    ``_apply``)."""

    def is_terminal(self):
        return self.st.depth == 0

    def is_chance_node(self):
        return current_player(&self.st) == -1

    def legal_actions(self):
        cdef int buf[BUFFER]
        cdef int n = tk_legal(self.game.data, &self.st, buf)
        return [buf[i] for i in range(n)]

    def chance_outcomes(self):
        cdef int acts[BUFFER]
        cdef double probs[BUFFER]
        cdef int n = tk_chance(self.game.data, &self.st, acts, probs)
        return [(acts[i], probs[i]) for i in range(n)]

    cpdef bint _is_legal(self, int action):
        return tk_is_legal(self.game.data, &self.st, action)

    def apply_action(self, action):
        """Apply ``action`` if it is a legal action id (in C); anything else goes to the Python
        face's ``_apply_slow``, which raises the reference's error."""
        cdef long a
        if type(action) is int:
            try:
                a = action
            except OverflowError:
                a = -1
            if 0 <= a < self.game.data.A_SIZE and tk_is_legal(self.game.data, &self.st, <int>a):
                self._apply(<int>a)
                return
        self._apply_slow(action)

    def _apply(self, int action):
        """Apply a legal action (unchecked) and keep its history entries."""
        cdef unsigned char buf[SINK]
        cdef TSink sink
        sink.buf = buf
        sink.size = SINK
        sink.used = 0
        sink.overflow = 0
        self.view = None
        apply_action(self.game.data, &self.st, action, &sink)
        if sink.overflow:
            raise RuntimeError("the compiled Trial's history buffer overflowed")
        if self.st.overflow:
            from solver.errors import OptionError

            raise OptionError(f"more than {TK_STACK} steps waiting: beyond the compiled Trial's "
                              'limits; play this pack with engine="reference"')
        if sink.used:
            self.history = (self.history, PyBytes_FromStringAndSize(<char*>buf, sink.used))

    def clone(self):
        cdef TrialKernelState copy = self.game._blank()
        copy.history = self.history
        memcpy(&copy.st, &self.st, sizeof(TState))
        return copy

    def returns(self):
        cdef double out[TK_MAX_PLAYERS]
        tk_returns_into(self.game.data, &self.st, out)
        return [out[p] for p in range(self.st.player_count)]

    def scores(self):
        """Every player's fame as it stands (final at the end)."""
        return [fame_total(self.game.data, &self.st, p) for p in range(self.st.player_count)]

    def _heuristic(self, int p):
        return tk_heuristic_of(self.game.data, &self.st, p)

    def _information_state_key(self, int p):
        return tk_info_key(self.game.data, &self.st, p)

    def _hash(self):
        """The kernel's 64-bit hash of the struct (what the compiled searchers use)."""
        return tk_hash_state(&self.st)

    def _resample_raw(self, int p, uint64_t seed):
        """A copy redealt for ``p`` by the C redeal from a SplitMix64 stream seeded ``seed``
        (its history chain left as it is: the Python face redacts it)."""
        cdef TrialKernelState copy = self.clone()
        cdef uint64_t rng = seed
        cdef int err
        with nogil:
            err = tk_resample(self.game.data, &copy.st, p, &rng)
        if err:
            raise RuntimeError("the compiled Trial could not redeal this state")
        return copy

    def _policy(self, uint64_t rng_state):
        """The playout policy's action and the generator's state after it."""
        cdef uint64_t rng = rng_state
        cdef int a = tk_policy(self.game.data, &self.st, &rng)
        return a, rng

    def _heuristic_choice(self, uint64_t rng_state):
        """The heuristic agent's action with its tie-breaks drawn from ``rng_state`` (and the
        generator's state after)."""
        cdef uint64_t rng = rng_state
        cdef int a = tk_heuristic_choice(self.game.data, &self.st, &rng)
        return a, rng

    def _raw(self):
        """Every field of the struct as plain numbers and lists (the codec's input)."""
        return _dump(&self.st, self.game.data)



# -- the struct as plain fields, and back --------------------------------------------------------
cdef list _list8(const uint8_t* a, int n):
    return [a[i] for i in range(n)]


cdef dict _dump(const TState* s, const TGame* g):
    cdef int i, p
    cdef const TPlayer* me
    cdef const TCard* c
    cdef const TFrame* f
    players = []
    for p in range(s.player_count):
        me = &s.players[p]
        players.append({
            "food": [me.food[i] for i in range(4)], "space": me.space, "morality": me.morality,
            "paws": me.paws, "strong_paw": me.strong_paw, "camped": me.camped,
            "backpack": _list8(me.backpack, me.n_backpack),
            "gallery": _list8(me.gallery, me.n_gallery),
            "placed": [(me.placed_target[i], me.placed_strong[i]) for i in range(me.n_placed)],
            "tents": _list8(me.tents, me.n_tents), "flags": _list8(me.flags, 3),
            "tent_symbols": _list8(me.tent_symbols, 4),
        })
    cards = []
    for i in range(g.n_cards):
        c = &s.cards[i]
        cards.append((c.zone, c.who, c.sub, c.faceup, c.seq, c.know, c.recorded, c.kseq))
    stack = []
    for i in range(s.depth):
        f = &s.stack[i]
        stack.append((f.kind, f.player, f.rep, f.card, _list8(f.v, 12), f.node, f.x))
    fight = {
        "card": s.fight.card, "stage": s.fight.stage, "defender": s.fight.defender,
        "winner": s.fight.winner, "attacker": s.fight.attacker, "stake": s.fight.stake,
        "weapons": _list8(s.fight.weapons, 2),
        "down": [_list8(s.fight.down[0], s.fight.n_down[0]), _list8(s.fight.down[1], s.fight.n_down[1])],
        "discard": [s.fight.discard[0], s.fight.discard[1]],
        "foe": [s.fight.foe_strength, s.fight.foe_dice], "node": s.fight.node,
        "rolls": _list8(s.fight.rolls, s.fight.n_rolls),
    }
    record = {
        "present": s.last_fight.present, "card": s.last_fight.card,
        "attacker": s.last_fight.attacker, "defender": s.last_fight.defender,
        "winner": s.last_fight.winner, "strength": [s.last_fight.strength[0], s.last_fight.strength[1]],
        "rolls": _list8(s.last_fight.rolls, s.last_fight.n_rolls),
    }
    return {
        "player_count": s.player_count, "day": s.day, "first_player": s.first_player,
        "turn_player": s.turn_player, "game_over": s.game_over,
        "tunnel_tokens": s.tunnel_tokens, "has_setup_pool": s.has_setup_pool,
        "has_one_each": s.has_one_each, "common": _list8(s.common, s.n_common),
        "rare": _list8(s.rare, s.n_rare), "one_each": _list8(s.one_each, s.n_one_each),
        "tray": [s.tray[i] for i in range(4)], "gallery_food": [s.gallery_food[i] for i in range(4)],
        "seq": s.seq, "kseq": s.kseq,
        "tiles": _list8(s.tiles, TK_SLOTS), "flipped": _list8(s.flipped, TK_SLOTS),
        "ruins": [(_list8(s.ruin_items[i], s.n_ruin[i]), s.ruin_seen[i]) for i in range(TK_RUINS)],
        "tunnel_open": [i for i in range(g.n_spaces) if (s.tunnel_open[i >> 3] >> (i & 7)) & 1],
        "tunnel_collapsed": [i for i in range(g.n_spaces) if (s.tunnel_collapsed[i >> 3] >> (i & 7)) & 1],
        "store": [(s.store_kind[i], s.store_count[i]) for i in range(TK_CELLS)],
        "box_tents": _list8(s.box_tents, s.n_box_tents),
        "used_tents": _list8(s.used_tents, s.n_used_tents),
        "box_items": _list8(s.box_items, s.n_box_items),
        "box_artifacts": _list8(s.box_artifacts, s.n_box_artifacts),
        "available": _list8(s.available, s.n_available), "row": _list8(s.row, TK_ROW_CARDS),
        "camp_tent": _list8(s.camp_tent, TK_SPOTS), "camp_owner": _list8(s.camp_owner, TK_SPOTS),
        "legendary": _list8(s.legendary, g.n_legendary),
        "bought": _list8(s.bought, s.n_bought), "sold": _list8(s.sold, s.n_sold),
        "swindle": _list8(s.swindle, s.n_swindle),
        "choices": [i for i in range(g.n_cards) if (s.choices[i >> 6] >> (i & 63)) & 1],
        "decks": [(s.decks[i].top, s.decks[i].viewers, s.decks[i].viewers_set, s.decks[i].next_layer)
                  for i in range(TK_DECKS)],
        "players": players, "cards": cards, "fight": fight, "last_fight": record,
        "seen": [s.seen[i] for i in range(TK_SUBSETS)], "stack": stack,
    }


cdef void _set8(uint8_t* dst, uint8_t* count, list src, int cap) except *:
    if len(src) > cap:
        raise ValueError(f"{len(src)} entries where the compiled Trial keeps {cap}")
    for i, v in enumerate(src):
        dst[i] = v
    if count != NULL:
        count[0] = len(src)


cdef void _load_players(TState* s, list players) except *:
    cdef int p, i
    cdef TPlayer* me
    for p, pl in enumerate(players):
        me = &s.players[p]
        for i in range(4):
            me.food[i] = pl["food"][i]
        me.space = pl["space"]; me.morality = pl["morality"]; me.paws = pl["paws"]
        me.strong_paw = pl["strong_paw"]; me.camped = pl["camped"]
        _set8(me.backpack, &me.n_backpack, pl["backpack"], TK_BACKPACK)
        _set8(me.gallery, &me.n_gallery, pl["gallery"], TK_GALLERY)
        if len(pl["placed"]) > TK_PAWS:
            raise ValueError("more paws placed than the compiled Trial keeps")
        for i, (target, strong) in enumerate(pl["placed"]):
            me.placed_target[i] = target
            me.placed_strong[i] = strong
        me.n_placed = len(pl["placed"])
        _set8(me.tents, &me.n_tents, pl["tents"], TK_MAX_TENTS)
        _set8(me.flags, NULL, pl["flags"], 3)
        _set8(me.tent_symbols, NULL, pl["tent_symbols"], 4)


cdef void _load(TState* s, dict r) except *:
    cdef int i
    cdef TCard* c
    cdef TFrame* f
    memset(s, 0, sizeof(TState))
    s.player_count = r["player_count"]; s.day = r["day"]; s.first_player = r["first_player"]
    s.turn_player = r["turn_player"]; s.game_over = r["game_over"]
    s.tunnel_tokens = r["tunnel_tokens"]; s.has_setup_pool = r["has_setup_pool"]
    s.has_one_each = r["has_one_each"]; s.seq = r["seq"]; s.kseq = r["kseq"]
    _set8(s.common, &s.n_common, r["common"], 24)
    _set8(s.rare, &s.n_rare, r["rare"], 24)
    _set8(s.one_each, &s.n_one_each, r["one_each"], 24)
    for i in range(4):
        s.tray[i] = r["tray"][i]
        s.gallery_food[i] = r["gallery_food"][i]
    _set8(s.tiles, NULL, r["tiles"], TK_SLOTS)
    _set8(s.flipped, NULL, r["flipped"], TK_SLOTS)
    for i, (items, seen) in enumerate(r["ruins"]):
        _set8(s.ruin_items[i], &s.n_ruin[i], items, TK_RUIN_ITEMS)
        s.ruin_seen[i] = seen
    for i in r["tunnel_open"]:
        s.tunnel_open[i >> 3] |= 1 << (i & 7)
    for i in r["tunnel_collapsed"]:
        s.tunnel_collapsed[i >> 3] |= 1 << (i & 7)
    for i, (kind, count) in enumerate(r["store"]):
        s.store_kind[i] = kind
        s.store_count[i] = count
    _set8(s.box_tents, &s.n_box_tents, r["box_tents"], TK_MAX_TENTS)
    _set8(s.used_tents, &s.n_used_tents, r["used_tents"], TK_MAX_TENTS)
    _set8(s.box_items, &s.n_box_items, r["box_items"], TK_BOX_ITEMS)
    _set8(s.box_artifacts, &s.n_box_artifacts, r["box_artifacts"], TK_GALLERY)
    _set8(s.available, &s.n_available, r["available"], TK_GALLERY)
    _set8(s.row, NULL, r["row"], TK_ROW_CARDS)
    _set8(s.camp_tent, NULL, r["camp_tent"], TK_SPOTS)
    _set8(s.camp_owner, NULL, r["camp_owner"], TK_SPOTS)
    memset(s.legendary, TK_NONE, sizeof(s.legendary))
    _set8(s.legendary, NULL, r["legendary"], TK_MAX_LEGENDARY)
    _set8(s.bought, &s.n_bought, r["bought"], TK_BOUGHT)
    _set8(s.sold, &s.n_sold, r["sold"], TK_SOLD)
    _set8(s.swindle, &s.n_swindle, r["swindle"], TK_SWINDLE)
    for i in r["choices"]:
        s.choices[i >> 6] |= (<uint64_t>1) << (i & 63)
    for i, (top, viewers, viewers_set, next_layer) in enumerate(r["decks"]):
        s.decks[i].top = top; s.decks[i].viewers = viewers
        s.decks[i].viewers_set = viewers_set; s.decks[i].next_layer = next_layer
    _load_players(s, r["players"])
    for i, (zone, who, sub, faceup, seq, know, recorded, kseq) in enumerate(r["cards"]):
        c = &s.cards[i]
        c.zone = zone; c.who = who; c.sub = sub; c.faceup = faceup; c.seq = seq
        c.know = know; c.recorded = recorded; c.kseq = kseq
    _load_fight(s, r["fight"], r["last_fight"])
    for i in range(TK_SUBSETS):
        s.seen[i] = r["seen"][i]
    if len(r["stack"]) > TK_STACK:
        raise ValueError(f"{len(r['stack'])} steps waiting (the compiled Trial keeps {TK_STACK})")
    for i, (kind, player, rep, card, v, node, x) in enumerate(r["stack"]):
        f = &s.stack[i]
        f.kind = kind; f.player = player; f.rep = rep; f.card = card
        _set8(f.v, NULL, v, 12)
        f.node = node; f.x = x
    s.depth = len(r["stack"])


cdef void _load_fight(TState* s, dict fight, dict record) except *:
    cdef int side
    s.fight.card = fight["card"]; s.fight.stage = fight["stage"]
    s.fight.defender = fight["defender"]; s.fight.winner = fight["winner"]
    s.fight.attacker = fight["attacker"]; s.fight.stake = fight["stake"]
    _set8(s.fight.weapons, NULL, fight["weapons"], 2)
    for side in range(2):
        _set8(s.fight.down[side], &s.fight.n_down[side], fight["down"][side], 2)
        s.fight.discard[side] = fight["discard"][side]
    s.fight.foe_strength = fight["foe"][0]
    s.fight.foe_dice = fight["foe"][1]
    s.fight.node = fight["node"]
    _set8(s.fight.rolls, &s.fight.n_rolls, fight["rolls"], TK_ROLLS)
    s.last_fight.present = record["present"]; s.last_fight.card = record["card"]
    s.last_fight.attacker = record["attacker"]; s.last_fight.defender = record["defender"]
    s.last_fight.winner = record["winner"]
    s.last_fight.strength[0] = record["strength"][0]
    s.last_fight.strength[1] = record["strength"][1]
    _set8(s.last_fight.rolls, &s.last_fight.n_rolls, record["rolls"], TK_ROLLS)
