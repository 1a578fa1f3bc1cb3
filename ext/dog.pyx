# cython: language_level=3, boundscheck=False, wraparound=False, cdivision=True
# cython: initializedcheck=False
"""The dog game's compiled kernel: an exact twin of ``solver/games/dog/rules.py``.

The reference module is the executable specification; this file transcribes it function by
function (``_begin_turn`` -> ``begin_turn``, ``_step`` -> ``do_step``...) on a packed, fixed-size
C state, so that the differential tests can hold the two engines to every observable.

C level (``ext/state.pxd``)
---------------------------
* ``DogGameData``: the forest's static tables, built once per game (one ``malloc``): terrain per
  cell, the neighbour of every cell in every direction (-1 for the grid edge or a tree), the
  arrows over every cell as (shouter index, printed number) in header order, the squirrel's
  nearest edges per cell, the distraction cells as a bitset and a BFS distance to the human.
* ``DogState``: 120 bytes, no pointers, padding spelled out and always zero, so a copy is a
  ``memcpy`` and equal positions are equal bytes (the hash reads all of them).
* ``DOG_VTABLE``: the ``KernelVTable`` of C functions, ``nogil`` and ``noexcept``, allocation free.

Python level
------------
``DogKernelGame`` and ``DogKernelState`` speak the same protocol as the reference's ``DogGame``
and ``DogState`` (``solver.games.dog.kernel.KernelDogGame`` is the public entry); their plumbing
(copies, capsules, ``==``, hashing, pickling, ``random_playouts``) is the shared face of
``ext/kernel_face.pxi``, which every kernel includes. State JSON is
byte-identical to the reference's for equal states; reading JSON reuses the reference's
validation (``rules._validated_fields``), which is data checking, not game logic. Extras:
``game._kernel_handle()`` and ``state._state_capsule()`` (PyCapsules, see ``state.pxd``; each keeps
its owner alive), ``state._hash()`` (the 64-bit hash), ``state.heuristic()``, ``STATE_SIZE``, and
for benchmarks ``random_playouts(game, n_games, seed)`` (a seeded playout loop in C) and
``copy_loop(state, n)``.

The heuristic (``dog_heuristic``): 1 for a win, 0 for a loss; otherwise, with ``d`` the BFS
distance from the dog to the human through cells that are not trees (``d`` unreachable -> 0), and
``reach`` = the steps left in the current move + (turns still to roll, less one for a pending
skip and one for a pending rest) × the expected budget of a roll (2, or 4/3 with the stick), the
value is ``reach² / (reach² + d²)``: 1/2 when the expected reach equals the distance, increasing in
the reach, decreasing in the distance. It ignores stamina costs, shouts and distractions: it is a
cheap ordering signal, not a probability.
"""

cimport cython
from libc.stdint cimport int16_t, uint8_t, uint32_t, uint64_t, int64_t
from libc.stdlib cimport calloc, malloc, free, realloc
from libc.string cimport memcpy, memset

from rng cimport splitmix64_mix
from state cimport (
    KERNEL_CHANCE, KERNEL_MAX_ACTIONS, KERNEL_TERMINAL,
    KernelHandle, KernelVTable, handle_capsule, state_capsule, state_from_capsule,
)

# -- constants shared with rules.py ----------------------------------------------------------
cdef enum:
    MAX_CELLS = 256
    MAX_ARROW_ENTRIES = 7 * MAX_CELLS   # at most one shouter per cell, each covers <= 7 cells
    NUM_PLAYERS = 1
    MAX_CHANCE = 3                      # a roll: 3 outcomes (2 with the stick); a shout: 2
    MAX_LEGAL = 4                       # four steps, or a squirrel's four runs

cdef enum:
    STEP_N = 0
    STEP_E = 1
    STEP_S = 2
    STEP_W = 3
    IGNORE = 4
    INVESTIGATE = 5
    RUN_N = 6
    RUN_E = 7
    RUN_S = 8
    RUN_W = 9
    ROLL_1 = 10
    ROLL_2 = 11
    ROLL_3 = 12
    SHOUT_SHRUG = 13
    SHOUT_HIT = 14
    N_ACTIONS = 15

cdef enum:
    PH_ROLL = 0
    PH_STEP = 1
    PH_SHOUT = 2
    PH_OFFER = 3
    PH_SQUIRREL = 4
    PH_OVER = 5

cdef enum:
    T_OPEN = 0
    T_UNDERGROWTH = 1
    T_PUDDLE = 2
    T_TREE = 3
    T_SQUIRREL = 4
    T_SCENT_N = 5
    T_SCENT_E = 6
    T_SCENT_S = 7
    T_SCENT_W = 8
    T_DOG = 9
    T_STICK = 10

cdef enum:
    START_STAMINA = 6
    REST_STAMINA = 3
    START_CURIOSITY = 2
    SHOUT_COST = 3
    SQUIRREL_RUN = 3
    SCENT_RUN = 2

# Offer slots in "row-major order" N, W, E, S, as direction indices (N=0, E=1, S=2, W=3).
cdef int OFFER_DIR[4]
OFFER_DIR[0] = 0
OFFER_DIR[1] = 3
OFFER_DIR[2] = 1
OFFER_DIR[3] = 2


ctypedef struct DogState:
    uint64_t marked[4]       # 256-bit bitsets, bit = row * width + col
    uint64_t resolved[4]
    uint64_t offered[4]
    int16_t pos              # cell index
    int16_t last_left        # cell index, -1 for none
    int16_t stamina
    int16_t curiosity
    int16_t turn
    int16_t pending          # shout: shouter index; offer: offer slot; else -1
    uint8_t phase
    uint8_t budget
    uint8_t skip_next
    uint8_t stick
    uint8_t valve
    uint8_t won
    uint8_t _pad[6]          # explicit, always zero: equal states are equal bytes


ctypedef struct DogGameData:
    int width
    int height
    int ncells
    int turns
    int start
    int human
    uint64_t distraction[4]              # static: cells holding a distraction
    uint8_t terrain[MAX_CELLS]
    int16_t nbr[MAX_CELLS * 4]           # neighbour per direction N, E, S, W; -1 edge or tree
    uint8_t edges[MAX_CELLS]             # squirrel's nearest edges: bit d for direction d
    int16_t dist[MAX_CELLS]              # BFS steps to the human through non-tree cells, -1 none
    int16_t arrow_start[MAX_CELLS + 1]   # arrows over cell c: entries arrow_start[c]..[c+1]-1
    int16_t arrow_index[MAX_ARROW_ENTRIES]
    uint8_t arrow_number[MAX_ARROW_ENTRIES]
    # the packed key (dog_pack): field widths in bits and the cells each bitset keeps
    int pack_bytes
    int bits_cell                        # pos
    int bits_last                        # last_left + 1
    int bits_curiosity
    int bits_turn
    int bits_pending                     # pending + 1
    int nopen                            # cells a trail can mark (not a tree, not the human)
    int ndistr                           # distraction cells
    int16_t open_cells[MAX_CELLS]
    int16_t distr_cells[MAX_CELLS]
    int bitset_words                     # the words of a 256-bit bitset this forest's cells use
    uint64_t open_mask[4]                # the open_cells as a bitset
    int16_t open_index[MAX_CELLS]        # a cell's place among open_cells (-1: not one)
    int16_t distr_index[MAX_CELLS]       # a cell's place among distr_cells (-1: not one)


STATE_SIZE = sizeof(DogState)
GAME_DATA_SIZE = sizeof(DogGameData)
NUM_DISTINCT_ACTIONS = N_ACTIONS
MAX_CHANCE_OUTCOMES = MAX_CHANCE
MAX_LEGAL_ACTIONS = MAX_LEGAL
ACTION_IDS = {
    "STEP_N": STEP_N, "STEP_E": STEP_E, "STEP_S": STEP_S, "STEP_W": STEP_W,
    "IGNORE": IGNORE, "INVESTIGATE": INVESTIGATE,
    "RUN_N": RUN_N, "RUN_E": RUN_E, "RUN_S": RUN_S, "RUN_W": RUN_W,
    "ROLL_1": ROLL_1, "ROLL_2": ROLL_2, "ROLL_3": ROLL_3,
    "SHOUT_SHRUG": SHOUT_SHRUG, "SHOUT_HIT": SHOUT_HIT,
}
"""The action ids of ``ext/dog.pyx`` by name (tests hold them to ``rules.py``)."""
TERRAIN_CODES = {
    "OPEN": T_OPEN, "UNDERGROWTH": T_UNDERGROWTH, "PUDDLE": T_PUDDLE, "TREE": T_TREE,
    "SQUIRREL": T_SQUIRREL, "SCENT_N": T_SCENT_N, "SCENT_E": T_SCENT_E, "SCENT_S": T_SCENT_S,
    "SCENT_W": T_SCENT_W, "DOG": T_DOG, "STICK": T_STICK,
}
"""The terrain codes the kernel reads (tests hold them to ``forest.Terrain``)."""
RULE_CONSTANTS = {
    "START_STAMINA": START_STAMINA, "REST_STAMINA": REST_STAMINA,
    "START_CURIOSITY": START_CURIOSITY, "SHOUT_COST": SHOUT_COST,
    "SQUIRREL_RUN": SQUIRREL_RUN, "SCENT_RUN": SCENT_RUN,
}
"""The rule numbers compiled in (tests hold them to ``rules.py``)."""
PHASE_CODES = {"roll": PH_ROLL, "step": PH_STEP, "shout": PH_SHOUT, "offer": PH_OFFER,
               "squirrel": PH_SQUIRREL, "over": PH_OVER}

assert sizeof(DogState) == 120, "DogState must have no implicit padding"


# -- bitsets -------------------------------------------------------------------------------------
cdef extern from *:
    """
    #define DOG_CTZ(x) __builtin_ctzll(x)
    """
    int DOG_CTZ(uint64_t x) noexcept nogil

cdef inline bint bit_get(const uint64_t* bits, int cell) noexcept nogil:
    return (bits[cell >> 6] >> (cell & 63)) & 1

cdef inline void bit_set(uint64_t* bits, int cell) noexcept nogil:
    bits[cell >> 6] |= (<uint64_t>1) << (cell & 63)

cdef inline void bits_clear(uint64_t* bits) noexcept nogil:
    bits[0] = 0
    bits[1] = 0
    bits[2] = 0
    bits[3] = 0


# -- geometry (rules.py: _is_distraction, _ends_move, _complete_move_exists, _step_is_legal) ------
cdef inline bint is_distraction(const DogGameData* g, const DogState* s, int cell) noexcept nogil:
    return bit_get(g.distraction, cell) and not bit_get(s.resolved, cell)

cdef inline bint ends_move(const DogGameData* g, const DogState* s, int cell) noexcept nogil:
    return cell == g.human or is_distraction(g, s, cell)

cdef bint complete_move_exists(const DogGameData* g, const DogState* s, int cell, int left,
                               int budget, bint valve) noexcept nogil:
    cdef int d, nxt
    if budget == 0:
        return True
    for d in range(4):
        nxt = g.nbr[cell * 4 + d]
        if nxt < 0 or (not valve and nxt == left):
            continue
        if ends_move(g, s, nxt) or complete_move_exists(g, s, nxt, cell, budget - 1, valve):
            return True
    return False

cdef inline bint step_is_legal(const DogGameData* g, const DogState* s, int d) noexcept nogil:
    cdef int nxt = g.nbr[s.pos * 4 + d]
    if nxt < 0 or (not s.valve and nxt == s.last_left):
        return False
    return ends_move(g, s, nxt) or complete_move_exists(g, s, nxt, s.pos, s.budget - 1, s.valve)

cdef inline int offer_cell(const DogGameData* g, int pos, int slot) noexcept nogil:
    # The cell in offer slot ``slot``; -1 outside the grid or a tree (never a distraction).
    return g.nbr[pos * 4 + OFFER_DIR[slot]]

cdef inline int pending_arrow_number(const DogGameData* g, const DogState* s) noexcept nogil:
    cdef int i
    for i in range(g.arrow_start[s.pos], g.arrow_start[s.pos + 1]):
        if g.arrow_index[i] == s.pending:
            return g.arrow_number[i]
    return 0


# -- costs ----------------------------------------------------------------------------------------
cdef inline void lose_stamina(DogState* s, int amount) noexcept nogil:
    s.stamina = s.stamina - amount if s.stamina > amount else 0

cdef inline void lose_curiosity(DogState* s) noexcept nogil:
    if not s.stick and s.curiosity > 0:  # the stick gives +1 whenever curiosity would be lost
        s.curiosity -= 1


# -- the turn (rules.py: _begin_turn ... _forced_run) ---------------------------------------------
cdef void begin_turn(const DogGameData* g, DogState* s) noexcept nogil:
    while s.phase != PH_OVER:
        if s.skip_next:
            s.skip_next = 0
        elif s.stamina == 0:
            s.stamina = REST_STAMINA
        else:
            s.phase = PH_ROLL
            return
        end_turn(g, s)

cdef void end_turn(const DogGameData* g, DogState* s) noexcept nogil:
    s.budget = 0
    s.valve = 0
    bits_clear(s.offered)
    s.pending = -1
    if s.turn >= g.turns:
        s.phase = PH_OVER
        s.won = 0
    else:
        s.turn += 1

cdef inline void end_move(const DogGameData* g, DogState* s) noexcept nogil:
    end_turn(g, s)
    begin_turn(g, s)

cdef void start_move(const DogGameData* g, DogState* s, int budget) noexcept nogil:
    if complete_move_exists(g, s, s.pos, s.last_left, budget, False):
        s.valve = 0
    elif complete_move_exists(g, s, s.pos, -1, budget, True):
        s.valve = 1
    else:  # walled in: the dog stays
        end_move(g, s)
        return
    s.budget = budget
    s.phase = PH_STEP
    s.pending = -1

cdef void win(DogState* s) noexcept nogil:
    s.won = 1
    s.phase = PH_OVER
    s.pending = -1
    s.budget = 0
    s.valve = 0
    bits_clear(s.offered)

cdef void do_step(const DogGameData* g, DogState* s, int d) noexcept nogil:
    cdef int nxt = g.nbr[s.pos * 4 + d]
    cdef int terrain
    s.last_left = s.pos
    s.pos = nxt
    s.budget -= 1
    if nxt == g.human:  # a. the human: win at once
        win(s)
        return
    if bit_get(s.marked, nxt):  # b. crossing the trail
        lose_curiosity(s)
    bit_set(s.marked, nxt)
    terrain = g.terrain[nxt]  # c. terrain
    if terrain == T_UNDERGROWTH:
        lose_stamina(s, 1)
    elif terrain == T_PUDDLE:
        lose_stamina(s, 2)
    next_shout(g, s, 0)  # d. arrows, then e./f.

cdef void next_shout(const DogGameData* g, DogState* s, int first_index) noexcept nogil:
    cdef int i, index, number
    for i in range(g.arrow_start[s.pos], g.arrow_start[s.pos + 1]):
        index = g.arrow_index[i]
        if index < first_index:
            continue
        number = g.arrow_number[i]
        if number == 1:  # no roll can shrug it off
            lose_stamina(s, SHOUT_COST)
            continue
        s.phase = PH_SHOUT
        s.pending = index
        return
    s.pending = -1
    if is_distraction(g, s, s.pos):  # e. stepped onto a distraction
        investigate(g, s, s.pos)
    else:
        offers(g, s, 0)  # f.

cdef void offers(const DogGameData* g, DogState* s, int first_slot) noexcept nogil:
    cdef int slot, cell
    for slot in range(first_slot, 4):
        cell = offer_cell(g, s.pos, slot)
        if cell < 0 or not is_distraction(g, s, cell):
            continue
        if bit_get(s.offered, cell):
            continue
        bit_set(s.offered, cell)
        s.phase = PH_OFFER
        s.pending = slot
        return
    s.pending = -1
    if s.budget > 0:
        s.phase = PH_STEP
    else:
        end_move(g, s)

cdef void hop(const DogGameData* g, DogState* s, int cell) noexcept nogil:
    s.last_left = s.pos
    s.pos = cell
    if bit_get(s.marked, cell):
        lose_curiosity(s)
    bit_set(s.marked, cell)
    investigate(g, s, cell)

cdef inline int first_edge(uint8_t edges) noexcept nogil:
    cdef int d
    for d in range(4):
        if edges & (1 << d):
            return d
    return 0

cdef inline bint several_edges(uint8_t edges) noexcept nogil:
    return (edges & (edges - 1)) != 0

cdef void investigate(const DogGameData* g, DogState* s, int cell) noexcept nogil:
    cdef int terrain = g.terrain[cell]
    s.curiosity += 2 if terrain == T_DOG else 1
    bit_set(s.resolved, cell)
    s.pending = -1
    s.budget = 0  # investigating ends the move: the rest of the budget is lost
    s.valve = 0
    bits_clear(s.offered)
    if terrain == T_SQUIRREL:
        if several_edges(g.edges[cell]):
            s.phase = PH_SQUIRREL
            return
        squirrel_run(g, s, first_edge(g.edges[cell]))
        return
    if terrain == T_DOG:
        s.skip_next = 1
    elif terrain == T_STICK:
        s.stick = 1
    else:  # a scent trail
        if forced_run(g, s, terrain - T_SCENT_N, SCENT_RUN):
            return
    end_move(g, s)

cdef void squirrel_run(const DogGameData* g, DogState* s, int d) noexcept nogil:
    if forced_run(g, s, d, SQUIRREL_RUN):
        return
    lose_stamina(s, 1)
    s.skip_next = 1
    end_move(g, s)

cdef bint forced_run(const DogGameData* g, DogState* s, int d, int length) noexcept nogil:
    cdef int i, nxt
    for i in range(length):
        nxt = g.nbr[s.pos * 4 + d]
        if nxt < 0:
            break
        s.last_left = s.pos
        s.pos = nxt
        if nxt == g.human:
            win(s)
            return True
        bit_set(s.marked, nxt)
    return False


# -- the KernelVTable functions ----------------------------------------------------------------------
cdef void dog_init_state(const DogGameData* g, DogState* s) noexcept nogil:
    memset(s, 0, sizeof(DogState))
    s.pos = g.start
    s.last_left = -1
    s.stamina = START_STAMINA
    s.curiosity = START_CURIOSITY
    s.turn = 1
    s.pending = -1
    s.phase = PH_ROLL
    bit_set(s.marked, g.start)
    begin_turn(g, s)

cdef int dog_current_player(const void* game, const void* state) noexcept nogil:
    cdef int phase = (<const DogState*>state).phase
    if phase == PH_OVER:
        return KERNEL_TERMINAL
    if phase == PH_ROLL or phase == PH_SHOUT:
        return KERNEL_CHANCE
    return 0

cdef bint dog_is_terminal(const void* game, const void* state) noexcept nogil:
    return (<const DogState*>state).phase == PH_OVER

cdef int dog_chance_outcomes(const void* game, const void* state, int* actions,
                             double* probs) noexcept nogil:
    cdef const DogGameData* g = <const DogGameData*>game
    cdef const DogState* s = <const DogState*>state
    cdef int number
    if s.phase == PH_ROLL:
        if s.stick:  # budget = max(1, steps - 1): 1-4 -> 1, 5-6 -> 2
            actions[0] = ROLL_1
            probs[0] = 2.0 / 3.0
            actions[1] = ROLL_2
            probs[1] = 1.0 / 3.0
            return 2
        actions[0] = ROLL_1
        probs[0] = 1.0 / 3.0
        actions[1] = ROLL_2
        probs[1] = 1.0 / 3.0
        actions[2] = ROLL_3
        probs[2] = 1.0 / 3.0
        return 3
    if s.phase == PH_SHOUT:
        number = pending_arrow_number(g, s)
        actions[0] = SHOUT_SHRUG
        probs[0] = (number - 1) / 6.0
        actions[1] = SHOUT_HIT
        probs[1] = (7 - number) / 6.0
        return 2
    return 0

cdef int dog_legal_actions(const void* game, const void* state, int* actions) noexcept nogil:
    cdef const DogGameData* g = <const DogGameData*>game
    cdef const DogState* s = <const DogState*>state
    cdef int n = 0, d
    cdef uint8_t edges
    cdef int phase = s.phase
    if phase == PH_ROLL:
        actions[0] = ROLL_1
        actions[1] = ROLL_2
        if s.stick:
            return 2
        actions[2] = ROLL_3
        return 3
    if phase == PH_SHOUT:
        actions[0] = SHOUT_SHRUG
        actions[1] = SHOUT_HIT
        return 2
    if phase == PH_STEP:
        for d in range(4):
            if step_is_legal(g, s, d):
                actions[n] = STEP_N + d
                n += 1
        return n
    if phase == PH_OFFER:
        if s.curiosity == 0 and not s.stick:
            actions[0] = INVESTIGATE
            return 1
        actions[0] = IGNORE
        actions[1] = INVESTIGATE
        return 2
    if phase == PH_SQUIRREL:
        edges = g.edges[s.pos]
        for d in range(4):
            if edges & (1 << d):
                actions[n] = RUN_N + d
                n += 1
        return n
    return 0

cdef bint dog_is_legal(const DogGameData* g, const DogState* s, int action) noexcept nogil:
    """Is ``action`` legal? (Cheaper than listing: one step is checked, not four.)"""
    cdef int phase = s.phase
    if phase == PH_ROLL:
        return action == ROLL_1 or action == ROLL_2 or (action == ROLL_3 and not s.stick)
    if phase == PH_STEP:
        return STEP_N <= action <= STEP_W and step_is_legal(g, s, action - STEP_N)
    if phase == PH_SHOUT:
        return action == SHOUT_SHRUG or action == SHOUT_HIT
    if phase == PH_OFFER:
        return action == INVESTIGATE or (action == IGNORE and (s.curiosity > 0 or s.stick))
    if phase == PH_SQUIRREL:
        return RUN_N <= action <= RUN_W and (g.edges[s.pos] >> (action - RUN_N)) & 1
    return False

cdef void dog_apply_action(const void* game, void* state, int action) noexcept nogil:
    cdef const DogGameData* g = <const DogGameData*>game
    cdef DogState* s = <DogState*>state
    cdef int phase = s.phase
    if phase == PH_ROLL:
        start_move(g, s, action - ROLL_1 + 1)
    elif phase == PH_STEP:
        do_step(g, s, action - STEP_N)
    elif phase == PH_SHOUT:
        if action == SHOUT_HIT:
            lose_stamina(s, SHOUT_COST)
        next_shout(g, s, s.pending + 1)
    elif phase == PH_OFFER:
        if action == IGNORE:
            lose_curiosity(s)
            offers(g, s, s.pending + 1)
        else:
            hop(g, s, offer_cell(g, s.pos, s.pending))
    elif phase == PH_SQUIRREL:
        squirrel_run(g, s, action - RUN_N)

cdef void dog_returns(const void* game, const void* state, double* out) noexcept nogil:
    out[0] = 1.0 if (<const DogState*>state).won else 0.0

cdef inline uint64_t rotl64(uint64_t x, int r) noexcept nogil:
    return (x << r) | (x >> (64 - r))

cdef uint64_t dog_hash(const void* game, const void* state) noexcept nogil:
    # xxHash64-style accumulation over the 15 words of the state, then the SplitMix64 finaliser.
    cdef const uint64_t* w = <const uint64_t*>state
    cdef uint64_t h = 0x27D4EB2F165667C5ULL + sizeof(DogState)
    cdef int i, nwords = <int>(sizeof(DogState) // 8)
    for i in range(nwords):
        h ^= rotl64(w[i] * 0xC2B2AE3D27D4EB4FULL, 31) * 0x9E3779B185EBCA87ULL
        h = rotl64(h, 27) * 0x9E3779B185EBCA87ULL + 0x85EBCA77C2B2AE63ULL
    return splitmix64_mix(h)

cdef double dog_heuristic(const void* game, const void* state, int player) noexcept nogil:
    cdef const DogGameData* g = <const DogGameData*>game
    cdef const DogState* s = <const DogState*>state
    cdef int d, future
    cdef double reach
    if s.phase == PH_OVER:
        return 1.0 if s.won else 0.0
    d = g.dist[s.pos]
    if d < 0:
        return 0.0
    if d == 0:
        return 1.0
    future = g.turns - s.turn  # turns after this one
    if s.phase == PH_ROLL:
        future += 1  # this turn's roll is still to come
    if s.skip_next:
        future -= 1
    if s.stamina == 0:
        future -= 1
    if future < 0:
        future = 0
    reach = s.budget + future * ((4.0 / 3.0) if s.stick else 2.0)
    if reach <= 0.0:
        return 0.0
    return (reach * reach) / (reach * reach + <double>d * d)


# -- the packed key (KernelVTable.pack) -------------------------------------------------------------
cdef inline int bit_length(int x) noexcept nogil:
    cdef int n = 0
    while x > 0:
        n += 1
        x >>= 1
    return n if n > 0 else 1

cdef inline void _pack_put(uint64_t* words, int at, uint64_t value, int width) noexcept nogil:
    # The low ``width`` bits of ``value`` at bit ``at`` of ``words`` (bits numbered from word 0's
    # least significant one).
    cdef int shift = at & 63
    value &= ((<uint64_t>1) << width) - 1
    words[at >> 6] |= value << shift
    if shift + width > 64:
        words[(at >> 6) + 1] |= value >> (64 - shift)

cdef size_t dog_pack(const void* game, const void* state, unsigned char* out) noexcept nogil:
    # The fields of a state in as few bits as the forest allows: pos, last_left, stamina (3 bits),
    # curiosity, turn, pending, phase (3), budget (2), the four flags, then the marked bit of every
    # cell a trail can mark and the resolved and offered bits of every distraction cell (bit i of
    # the key is bit i % 8 of byte i // 8). Built in 64-bit words from the set bits only.
    cdef const DogGameData* g = <const DogGameData*>game
    cdef const DogState* s = <const DogState*>state
    cdef uint64_t words[16]
    cdef uint64_t bits
    cdef int at = 0, i, cell, base
    if state == NULL or out == NULL:
        return <size_t>g.pack_bytes
    memset(words, 0, sizeof(words))
    _pack_put(words, at, <uint64_t>s.pos, g.bits_cell)
    at += g.bits_cell
    _pack_put(words, at, <uint64_t>(s.last_left + 1), g.bits_last)
    at += g.bits_last
    _pack_put(words, at, <uint64_t>s.stamina, 3)
    at += 3
    _pack_put(words, at, <uint64_t>s.curiosity, g.bits_curiosity)
    at += g.bits_curiosity
    _pack_put(words, at, <uint64_t>s.turn, g.bits_turn)
    at += g.bits_turn
    _pack_put(words, at, <uint64_t>(s.pending + 1), g.bits_pending)
    at += g.bits_pending
    _pack_put(words, at, s.phase, 3)
    at += 3
    _pack_put(words, at, s.budget, 2)
    at += 2
    _pack_put(words, at, s.skip_next | (s.stick << 1) | (s.valve << 2) | (s.won << 3), 4)
    at += 4
    for i in range(g.bitset_words):
        bits = s.marked[i] & g.open_mask[i]
        while bits:
            cell = i * 64 + DOG_CTZ(bits)
            bits &= bits - 1
            base = at + g.open_index[cell]
            words[base >> 6] |= (<uint64_t>1) << (base & 63)
        bits = s.resolved[i] & g.distraction[i]
        while bits:
            cell = i * 64 + DOG_CTZ(bits)
            bits &= bits - 1
            base = at + g.nopen + g.distr_index[cell]
            words[base >> 6] |= (<uint64_t>1) << (base & 63)
        bits = s.offered[i] & g.distraction[i]
        while bits:
            cell = i * 64 + DOG_CTZ(bits)
            bits &= bits - 1
            base = at + g.nopen + g.ndistr + g.distr_index[cell]
            words[base >> 6] |= (<uint64_t>1) << (base & 63)
    for i in range(g.pack_bytes):
        out[i] = <unsigned char>(words[i >> 3] >> ((i & 7) * 8))
    return <size_t>g.pack_bytes


cdef void _pack_layout(DogGameData* g) noexcept nogil:
    cdef int cell, i, shouters = 0, bits
    g.nopen = 0
    g.ndistr = 0
    bits_clear(g.open_mask)
    for cell in range(MAX_CELLS):
        g.open_index[cell] = -1
        g.distr_index[cell] = -1
    for cell in range(g.ncells):
        if g.terrain[cell] != T_TREE and cell != g.human:
            g.open_index[cell] = g.nopen
            bit_set(g.open_mask, cell)
            g.open_cells[g.nopen] = cell
            g.nopen += 1
        if bit_get(g.distraction, cell):
            g.distr_index[cell] = g.ndistr
            g.distr_cells[g.ndistr] = cell
            g.ndistr += 1
    for i in range(g.arrow_start[g.ncells]):
        if g.arrow_index[i] + 1 > shouters:
            shouters = g.arrow_index[i] + 1
    g.bits_cell = bit_length(g.ncells - 1)
    g.bits_last = bit_length(g.ncells)
    # a state read from JSON may carry any curiosity up to 30000; play adds at most 2 a distraction
    g.bits_curiosity = bit_length(30000 + 2 * g.ndistr)
    g.bits_turn = bit_length(g.turns)
    g.bits_pending = bit_length(shouters if shouters > 4 else 4)
    bits = (g.bits_cell + g.bits_last + 3 + g.bits_curiosity + g.bits_turn + g.bits_pending
            + 3 + 2 + 4 + g.nopen + 2 * g.ndistr)
    g.pack_bytes = (bits + 7) >> 3


cdef KernelVTable DOG_VTABLE
DOG_VTABLE.name = "dog"
DOG_VTABLE.state_size = sizeof(DogState)
DOG_VTABLE.num_players = NUM_PLAYERS
DOG_VTABLE.num_distinct_actions = N_ACTIONS
DOG_VTABLE.max_actions = MAX_LEGAL if MAX_LEGAL > MAX_CHANCE else MAX_CHANCE
DOG_VTABLE.current_player = dog_current_player
DOG_VTABLE.is_terminal = dog_is_terminal
DOG_VTABLE.legal_actions = dog_legal_actions
DOG_VTABLE.chance_outcomes = dog_chance_outcomes
DOG_VTABLE.apply_action = dog_apply_action
DOG_VTABLE.returns = dog_returns
DOG_VTABLE.hash = dog_hash
DOG_VTABLE.heuristic = dog_heuristic
DOG_VTABLE.utility_min = 0.0   # a loss
DOG_VTABLE.utility_max = 1.0   # a win
DOG_VTABLE.pack = dog_pack


# -- building the static tables -------------------------------------------------------------------
cdef int _build_game_data(DogGameData* g, object forest) except -1:
    cdef int w = forest.width, h = forest.height
    cdef int r, c, cell, d, nr, nc, nxt, n, head, tail, best
    cdef int16_t queue[MAX_CELLS]
    cdef int dists[4]
    memset(g, 0, sizeof(DogGameData))
    g.width = w
    g.height = h
    g.ncells = w * h
    g.turns = forest.turns
    g.start = forest.start[0] * w + forest.start[1]
    g.human = forest.human[0] * w + forest.human[1]
    cdef int DR[4]
    cdef int DC[4]
    DR[:] = [-1, 0, 1, 0]
    DC[:] = [0, 1, 0, -1]
    for r in range(h):
        row = forest.cells[r]
        for c in range(w):
            g.terrain[r * w + c] = <uint8_t>int(row[c])
    for r in range(h):
        for c in range(w):
            cell = r * w + c
            if g.terrain[cell] >= T_SQUIRREL:
                bit_set(g.distraction, cell)
            for d in range(4):
                nr = r + DR[d]
                nc = c + DC[d]
                if 0 <= nr < h and 0 <= nc < w and g.terrain[nr * w + nc] != T_TREE:
                    g.nbr[cell * 4 + d] = nr * w + nc
                else:
                    g.nbr[cell * 4 + d] = -1
            dists[0] = r
            dists[1] = w - 1 - c
            dists[2] = h - 1 - r
            dists[3] = c
            best = min(dists[0], dists[1], dists[2], dists[3])
            g.edges[cell] = 0
            for d in range(4):
                if dists[d] == best:
                    g.edges[cell] |= <uint8_t>(1 << d)
    # Arrows over each cell, in header order (forest.arrows_at is that list).
    n = 0
    for cell in range(g.ncells):
        g.arrow_start[cell] = n
        for index, number in forest.arrows_at((cell // w, cell % w)):
            g.arrow_index[n] = index
            g.arrow_number[n] = number
            n += 1
    g.arrow_start[g.ncells] = n
    # BFS distance to the human through non-tree cells.
    for cell in range(MAX_CELLS):
        g.dist[cell] = -1
    g.dist[g.human] = 0
    queue[0] = g.human
    head = 0
    tail = 1
    while head < tail:
        cell = queue[head]
        head += 1
        for d in range(4):
            nxt = g.nbr[cell * 4 + d]
            if nxt >= 0 and g.dist[nxt] < 0:
                g.dist[nxt] = g.dist[cell] + 1
                queue[tail] = nxt
                tail += 1
    _pack_layout(g)
    g.bitset_words = (g.ncells + 63) // 64
    return 0


# -- the Python level -----------------------------------------------------------------------------------
_PHASE_NAMES = ("roll", "step", "shout", "offer", "squirrel", "over")
_LABELS = (
    "N", "E", "S", "W", "ignore", "investigate",
    "squirrel runs N", "squirrel runs E", "squirrel runs S", "squirrel runs W",
    "roll: 1 step", "roll: 2 steps", "roll: 3 steps", "shout: shrugged off", "shout: -3 stamina",
)
_ROLL_OUTCOMES = ((ROLL_1, 1.0 / 3.0), (ROLL_2, 1.0 / 3.0), (ROLL_3, 1.0 / 3.0))
_STICK_ROLL_OUTCOMES = ((ROLL_1, 2.0 / 3.0), (ROLL_2, 1.0 / 3.0))
_SHOUT_OUTCOMES = tuple(
    ((SHOUT_SHRUG, (k - 1) / 6.0), (SHOUT_HIT, (7 - k) / 6.0)) for k in range(7)
)
_RETURNS_WIN = 1.0
_RETURNS_LOSS = 0.0


cdef inline object _bits_cells_json(const uint64_t* bits, tuple cell_json, int ncells):
    cdef int cell
    cdef list parts = []
    for cell in range(ncells):
        if (bits[cell >> 6] >> (cell & 63)) & 1:
            parts.append(cell_json[cell])
    return "[" + ",".join(parts) + "]"


cdef inline list _bits_cells(const uint64_t* bits, int width, int ncells):
    cdef int cell
    return [[cell // width, cell % width] for cell in range(ncells)
            if (bits[cell >> 6] >> (cell & 63)) & 1]


cdef inline set _bits_cell_set(const uint64_t* bits, tuple cells, int ncells):
    cdef int cell
    return {cells[cell] for cell in range(ncells) if (bits[cell >> 6] >> (cell & 63)) & 1}


# -- the Python face (``kernel_face.pxi``: the plumbing every kernel shares) -------------------
ctypedef DogState KernelStruct
ctypedef DogGameData KernelData
ctypedef DogKernelGame KernelGame
ctypedef DogKernelState KernelState
include "kernel_face.pxi"


cdef inline DogKernelState kernel_new_state():
    return DogKernelState.__new__(DogKernelState)


cdef inline void kernel_initial(const DogGameData* g, DogState* s) noexcept nogil:
    dog_init_state(g, s)


cdef inline bint kernel_is_legal(const DogGameData* g, const DogState* s, int a) noexcept nogil:
    return dog_is_legal(g, s, a)


cdef double kernel_tally(const void* game, const void* state) noexcept nogil:
    """``random_playouts`` counts the wins."""
    return 1.0 if (<const DogState*>state).won else 0.0


cdef class DogKernelGame(KernelGameFace):
    """The dog game on one forest, compiled kernel (see ``solver.games.dog.kernel``)."""

    cdef readonly object forest
    cdef tuple _cells       # cell index -> (row, col)
    cdef tuple _cell_json   # cell index -> "[row,col]"
    cdef tuple _offer_labels  # (cell * 2 + (action - IGNORE)) -> label, for offer cells

    def __init__(self, forest, **options):
        from solver.games.dog.forest import Forest

        if not isinstance(forest, Forest):
            from solver.errors import OptionError

            raise OptionError(f"forest must be a Forest, not {type(forest).__name__}")
        if options:
            from solver.errors import OptionError

            raise OptionError(
                f"the dog game takes no option {sorted(options)[0]!r} (only the forest)"
            )
        if self.data == NULL:
            self.data = <DogGameData*>malloc(sizeof(DogGameData))
            if self.data == NULL:
                raise MemoryError()
        _build_game_data(self.data, forest)
        self.handle.vtable = &DOG_VTABLE
        self.handle.game = self.data
        self.forest = forest
        w = forest.width
        ncells = forest.width * forest.height
        self._cells = tuple((c // w, c % w) for c in range(ncells))
        self._cell_json = tuple(f"[{c // w},{c % w}]" for c in range(ncells))
        labels = []
        for c in range(ncells):
            kind = forest.terrain(self._cells[c]).label
            labels.append(f"ignore {kind} at ({c // w},{c % w})")
            labels.append(f"investigate {kind} at ({c // w},{c % w})")
        self._offer_labels = tuple(labels)

    def num_players(self):
        return NUM_PLAYERS

    def num_distinct_actions(self):
        return N_ACTIONS

    def max_chance_outcomes(self):
        return MAX_CHANCE

    def max_game_length(self):
        """An upper bound on the number of actions in a game (for buffers and tests)."""
        # Per turn: a roll, then per step a step, the shouts over the cell and up to 4 offers.
        cdef int i, most = 0, c
        for c in range(self.data.ncells):
            i = self.data.arrow_start[c + 1] - self.data.arrow_start[c]
            if i > most:
                most = i
        return self.data.turns * (1 + 3 * (1 + most + 4) + 1)

    def state_from_json(self, text):
        """Read a state written by ``to_json`` (either engine's, for this game's forest)."""
        from solver.games.dog.rules import parse_state_json

        self._check()
        return self._state_from_fields(parse_state_json(self.forest, text))

    def state_from_dict(self, data):
        """A state from a dictionary as ``to_dict`` writes it (validated like the reference)."""
        from solver.games.dog.rules import _validated_fields

        self._check()
        return self._state_from_fields(_validated_fields(self.forest, data))

    def _state_from_fields(self, fields):
        cdef DogKernelState state = self._blank()
        cdef DogState* s = &state.st
        cdef int w = self.data.width
        s.pos = fields["pos"][0] * w + fields["pos"][1]
        last_left = fields["last_left"]
        s.last_left = -1 if last_left is None else last_left[0] * w + last_left[1]
        s.stamina = fields["stamina"]
        s.curiosity = fields["curiosity"]
        s.turn = fields["turn"]
        s.skip_next = fields["skip_next"]
        s.stick = fields["stick"]
        for r, c in fields["resolved"]:
            bit_set(s.resolved, r * w + c)
        for r, c in fields["marked"]:
            bit_set(s.marked, r * w + c)
        for r, c in fields["offered"]:
            bit_set(s.offered, r * w + c)
        s.budget = fields["budget"]
        s.valve = fields["valve"]
        s.phase = int(fields["phase"])
        s.pending = fields["pending"]
        s.won = fields["won"]
        return state

    def _state_from_packed(self, bytes raw):
        """The state a packed key (``state._packed()``) stands for: the inverse of the pack."""
        self._check()
        cdef DogGameData* g = self.data
        if len(raw) != g.pack_bytes:
            raise ValueError(f"a packed key of this forest is {g.pack_bytes} bytes, not {len(raw)}")
        value = int.from_bytes(raw, "little")
        at = 0

        def take(width):
            nonlocal at
            field = (value >> at) & ((1 << width) - 1)
            at += width
            return field

        cdef DogKernelState state = self._blank()
        cdef DogState* s = &state.st
        s.pos = take(g.bits_cell)
        s.last_left = take(g.bits_last) - 1
        s.stamina = take(3)
        s.curiosity = take(g.bits_curiosity)
        s.turn = take(g.bits_turn)
        s.pending = take(g.bits_pending) - 1
        s.phase = take(3)
        s.budget = take(2)
        flags = take(4)
        s.skip_next = flags & 1
        s.stick = (flags >> 1) & 1
        s.valve = (flags >> 2) & 1
        s.won = (flags >> 3) & 1
        for i in range(g.nopen):
            if take(1):
                bit_set(s.marked, g.open_cells[i])
        for i in range(g.ndistr):
            if take(1):
                bit_set(s.resolved, g.distr_cells[i])
        for i in range(g.ndistr):
            if take(1):
                bit_set(s.offered, g.distr_cells[i])
        return state

    @property
    def _pack_bytes(self):
        """The size of this forest's packed key, in bytes."""
        self._check()
        return self.data.pack_bytes

    def __reduce__(self):
        return (type(self), (self.forest,))

    def __repr__(self):
        return f"{type(self).__name__}(forest={self.forest.name or '<unnamed>'!r}, engine='kernel')"


cdef class DogKernelState(KernelStateFace):
    """One position of the dog game, compiled kernel: a ``DogState`` struct and its game."""

    # -- the protocol (the rest: ``kernel_face.pxi``) --------------------------------------------
    def is_terminal(self):
        return self.st.phase == PH_OVER

    def is_chance_node(self):
        return self.st.phase == PH_ROLL or self.st.phase == PH_SHOUT

    def returns(self):
        return [_RETURNS_WIN if self.st.won else _RETURNS_LOSS]

    def chance_outcomes(self):
        cdef int phase = self.st.phase
        if phase == PH_ROLL:
            return list(_STICK_ROLL_OUTCOMES if self.st.stick else _ROLL_OUTCOMES)
        if phase == PH_SHOUT:
            return list(_SHOUT_OUTCOMES[pending_arrow_number(self.game.data, &self.st)])
        return []

    def action_to_string(self, action):
        cdef int a
        if type(action) is int and (action == IGNORE or action == INVESTIGATE):
            if self.st.phase == PH_OFFER:
                a = action
                return self.game._offer_labels[
                    offer_cell(self.game.data, self.st.pos, self.st.pending) * 2 + (a - IGNORE)
                ]
            return _LABELS[action]
        if type(action) is int and 0 <= action < N_ACTIONS:
            return _LABELS[action]
        from solver.game import as_action_id
        from solver.games.dog.rules import action_label

        action = as_action_id(action)  # None, 1.5, 4.0, "3": IllegalActionError, no TypeError
        if 0 <= action < N_ACTIONS:  # an integer-like id (NumPy's): the id's label
            return self.action_to_string(int(action))
        return action_label(action)  # out of range: its refusal

    def string_to_action(self, label):
        """The legal action whose label is ``label`` (case-insensitive)."""
        wanted = str(label).strip().lower()
        legal = self.legal_actions()
        for action in legal:
            if self.action_to_string(action).lower() == wanted:
                return action
        for action in legal:  # "ignore" / "investigate" without the cell
            if _LABELS[action].lower() == wanted:
                return action
        from solver.errors import IllegalActionError, shortened

        labels = ", ".join(repr(self.action_to_string(a)) for a in legal)
        said = shortened(str(label))  # a label of 5,000 characters: its start and length
        raise IllegalActionError(f"no legal action is labelled {said!r}; legal: {labels}")

    # -- serialisation -------------------------------------------------------------------------
    def to_dict(self):
        cdef DogState* s = &self.st
        cdef int w = self.game.data.width, n = self.game.data.ncells
        return {
            "budget": s.budget,
            "curiosity": s.curiosity,
            "last_left": [s.last_left // w, s.last_left % w] if s.last_left >= 0 else None,
            "marked": _bits_cells(s.marked, w, n),
            "offered": _bits_cells(s.offered, w, n),
            "outcome": ("win" if s.won else "loss") if s.phase == PH_OVER else None,
            "pending": s.pending,
            "phase": _PHASE_NAMES[s.phase],
            "pos": [s.pos // w, s.pos % w],
            "resolved": _bits_cells(s.resolved, w, n),
            "skip_next": bool(s.skip_next),
            "stamina": s.stamina,
            "stick": bool(s.stick),
            "turn": s.turn,
            "valve": bool(s.valve),
        }

    def to_json(self):
        """The full state as canonical JSON, byte-identical to the reference's."""
        cdef DogState* s = &self.st
        cdef tuple cj = self.game._cell_json
        cdef int n = self.game.data.ncells
        if s.phase == PH_OVER:
            outcome = '"win"' if s.won else '"loss"'
        else:
            outcome = "null"
        return (
            f'{{"budget":{s.budget},"curiosity":{s.curiosity},'
            f'"last_left":{cj[s.last_left] if s.last_left >= 0 else "null"},'
            f'"marked":{_bits_cells_json(s.marked, cj, n)},'
            f'"offered":{_bits_cells_json(s.offered, cj, n)},'
            f'"outcome":{outcome},"pending":{s.pending},"phase":"{_PHASE_NAMES[s.phase]}",'
            f'"pos":{cj[s.pos]},"resolved":{_bits_cells_json(s.resolved, cj, n)},'
            f'"skip_next":{"true" if s.skip_next else "false"},"stamina":{s.stamina},'
            f'"stick":{"true" if s.stick else "false"},"turn":{s.turn},'
            f'"valve":{"true" if s.valve else "false"}}}'
        )

    def heuristic(self, int player=0):
        """The kernel's cheap win-chance estimate in [0, 1] (see the module docstring)."""
        return dog_heuristic(self.game.data, &self.st, player)

    def _packed(self):
        """The packed key (``KernelVTable.pack``): the bytes a transposition table stores."""
        cdef unsigned char buf[256]
        cdef size_t n = dog_pack(self.game.data, &self.st, buf)
        return (<char*>buf)[:n]

    def __str__(self):
        from solver.games.dog.render import render_forest_text

        cdef DogState* s = &self.st
        forest = self.game.forest
        sheet = render_forest_text(
            forest, position=self.pos, marked=self.marked, resolved=self.resolved
        )
        status = (
            f"turn {s.turn}/{forest.turns}  stamina {s.stamina}  "
            f"curiosity {s.curiosity}  {'stick  ' if s.stick else ''}"
            f"{'skip next  ' if s.skip_next else ''}phase {_PHASE_NAMES[s.phase]}"
        )
        if s.phase == PH_OVER:
            status += "  (won)" if s.won else "  (lost)"
        return f"{sheet}\n{status}"

    def __repr__(self):
        return f"DogKernelState({self.to_json()})"

    # -- the reference's attributes, read-only -----------------------------------------------
    @property
    def forest(self):
        return self.game.forest

    @property
    def pos(self):
        return self.game._cells[self.st.pos]

    @property
    def last_left(self):
        return self.game._cells[self.st.last_left] if self.st.last_left >= 0 else None

    @property
    def stamina(self):
        return self.st.stamina

    @property
    def curiosity(self):
        return self.st.curiosity

    @property
    def turn(self):
        return self.st.turn

    @property
    def skip_next(self):
        return bool(self.st.skip_next)

    @property
    def stick(self):
        return bool(self.st.stick)

    @property
    def budget(self):
        return self.st.budget

    @property
    def valve(self):
        return bool(self.st.valve)

    @property
    def pending(self):
        return self.st.pending

    @property
    def won(self):
        return bool(self.st.won)

    @property
    def phase(self):
        from solver.games.dog.rules import Phase

        return Phase(self.st.phase)

    @property
    def marked(self):
        return _bits_cell_set(self.st.marked, self.game._cells, self.game.data.ncells)

    @property
    def resolved(self):
        return _bits_cell_set(self.st.resolved, self.game._cells, self.game.data.ncells)

    @property
    def offered(self):
        return _bits_cell_set(self.st.offered, self.game._cells, self.game.data.ncells)


cdef _apply_slow(DogKernelState state, action):
    """``apply_action`` for anything but a legal plain int: the reference's test and message."""
    from solver.game import as_action_id

    action = as_action_id(action)
    legal = state.legal_actions()
    if action in legal:  # the reference's test: ``action in legal_actions()``
        dog_apply_action(state.game.data, &state.st, <int>legal[legal.index(action)])
        return
    from solver.errors import IllegalActionError

    raise IllegalActionError(
        f"action {action!r} ({_safe_label(action)}) is not legal in this state "
        f"(phase {_PHASE_NAMES[state.st.phase]}, turn {state.st.turn}, dog at {state.pos}); "
        f"legal: {legal}"
    )


def _safe_label(action):
    from solver.errors import IllegalActionError
    from solver.games.dog.rules import action_label

    try:
        return action_label(action)
    except (IllegalActionError, TypeError):
        return "not an action"


# -- benchmarks (``random_playouts``: ``kernel_face.pxi``) ------------------------------------
def copy_loop(DogKernelState state, long n):
    """Copy ``state``'s struct ``n`` times in C, each copy from the previous one (benchmarks).

    Returns a checksum so that the copies cannot be optimised away.
    """
    cdef DogState scratch[2]
    cdef long i
    cdef uint64_t check = 0
    memcpy(&scratch[0], &state.st, sizeof(DogState))
    with nogil:
        for i in range(n):
            memcpy(&scratch[(i + 1) & 1], &scratch[i & 1], sizeof(DogState))
            scratch[(i + 1) & 1].marked[0] ^= <uint64_t>i
            check += scratch[(i + 1) & 1].marked[0]
    return check


# -- the soonest win, breadth-first by turn (the analysis's par and clairvoyant searches) ---------
# The compiled twin of ``solver.games.dog.analysis.turn_search.soonest_win`` as
# ``solver.games.dog.analysis.classify.first_win`` calls it: the same nodes, visited in the same
# order (all of turn t, first found first, before any of turn t + 1), deduplicated by the same
# key (the full state struct and the two counters), pruned by the same distance test, capped at
# the same count of stored nodes, so it answers with the same route and the same node count.
ctypedef struct SearchNode:
    DogState st
    uint64_t hash
    int k                    # step rolls consumed along the route (0 with every outcome open)
    int j                    # shout rolls consumed along the route
    int parent               # node index, -1 for the root
    int next                 # the next node queued for the same turn, -1 for none
    int action               # the action that led here from the parent
    int slot                 # where the node's table entry is


ctypedef struct SoonestSearch:
    SearchNode* nodes
    int count                # nodes stored (the root included)
    int capacity
    uint64_t* table          # open addressing: the hash's high 32 bits | node index + 1; 0 empty
    uint64_t mask            # table size - 1 (a power of two)
    int win_parent           # the node the winning action leaves from
    int win_action
    int win_turn             # the turn of the win


cdef enum:
    SOONEST_INFEASIBLE = 0
    SOONEST_OPTIMAL = 1
    SOONEST_BUDGET = 2
    SOONEST_NO_MEMORY = -1


cdef uint64_t TAG_BITS = 0xFFFFFFFF00000000ULL


cdef inline uint64_t _hash_word(uint64_t h, uint64_t word) noexcept nogil:
    return rotl64(h ^ (word * 0xC2B2AE3D27D4EB4FULL), 31) * 0x9E3779B185EBCA87ULL


cdef inline uint64_t search_hash(const DogGameData* g, const DogState* s, int k,
                                 int j) noexcept nogil:
    # The words of the state that can be non-zero for this forest (the bitsets' words over its
    # cells, then the scalar fields), and the counters.
    cdef const uint64_t* w = <const uint64_t*>s
    cdef uint64_t h = ((<uint64_t>k) << 32) ^ <uint64_t>j ^ 0x5851F42D4C957F2DULL
    cdef int i
    for i in range(g.bitset_words):
        h = _hash_word(h, w[i])
        h = _hash_word(h, w[4 + i])
        h = _hash_word(h, w[8 + i])
    h = _hash_word(h, w[12])
    h = _hash_word(h, w[13])
    h = _hash_word(h, w[14])
    return splitmix64_mix(h)


cdef inline bint same_state(const DogGameData* g, const DogState* a, const DogState* b) noexcept nogil:
    # Equal states (the words search_hash reads: every other word is zero in both).
    cdef const uint64_t* x = <const uint64_t*>a
    cdef const uint64_t* y = <const uint64_t*>b
    cdef int i
    if x[12] != y[12] or x[13] != y[13] or x[14] != y[14]:
        return False
    for i in range(g.bitset_words):
        if x[i] != y[i] or x[4 + i] != y[4 + i] or x[8 + i] != y[8 + i]:
            return False
    return True


cdef int search_open(SoonestSearch* S) noexcept nogil:
    # Empty buffers for a search (-1: out of memory; search_close frees what was allocated).
    memset(S, 0, sizeof(SoonestSearch))
    S.capacity = 1024
    S.nodes = <SearchNode*>malloc(S.capacity * sizeof(SearchNode))
    S.table = <uint64_t*>malloc(4096 * sizeof(uint64_t))
    if S.nodes == NULL or S.table == NULL:
        return -1
    memset(S.table, 0, 4096 * sizeof(uint64_t))
    S.mask = 4095
    return 0


cdef void search_reset(SoonestSearch* S) noexcept nogil:
    # Forget the stored nodes (the buffers stay, for the next world's search): their table
    # entries are cleared one by one when they are few, else the whole table.
    cdef int i
    if 8 * <uint64_t>S.count < S.mask + 1:
        for i in range(S.count):
            S.table[S.nodes[i].slot] = 0
    else:
        memset(S.table, 0, (S.mask + 1) * sizeof(uint64_t))
    S.count = 0


cdef void search_close(SoonestSearch* S) noexcept nogil:
    free(S.nodes)
    free(S.table)
    S.nodes = NULL
    S.table = NULL


cdef int search_grow_table(SoonestSearch* S) noexcept nogil:
    cdef uint64_t size = (S.mask + 1) * 2, slot
    cdef uint64_t* table = <uint64_t*>malloc(size * sizeof(uint64_t))
    cdef int i
    if table == NULL:
        return -1
    memset(table, 0, size * sizeof(uint64_t))
    for i in range(S.count):
        slot = S.nodes[i].hash & (size - 1)
        while table[slot] != 0:
            slot = (slot + 1) & (size - 1)
        table[slot] = (S.nodes[i].hash & TAG_BITS) | <uint64_t>(i + 1)
        S.nodes[i].slot = <int>slot
    free(S.table)
    S.table = table
    S.mask = size - 1
    return 0


cdef int search_find(const DogGameData* g, const SoonestSearch* S, const DogState* s, int k,
                     int j, uint64_t h) noexcept nogil:
    # The index of the stored node (s, k, j), or -1.
    # The table's tag (the hash's high bits) is compared first: a miss reads no node.
    cdef uint64_t slot = h & S.mask, entry, tag = h & TAG_BITS
    cdef int index
    cdef const SearchNode* node
    while True:
        entry = S.table[slot]
        if entry == 0:
            return -1
        if (entry & TAG_BITS) == tag:
            index = <int>(entry & 0xFFFFFFFFULL) - 1
            node = &S.nodes[index]
            if (node.hash == h and node.k == k and node.j == j
                    and same_state(g, &node.st, s)):
                return index
        slot = (slot + 1) & S.mask


cdef int search_store(SoonestSearch* S, const DogState* s, int k, int j, uint64_t h,
                      int parent, int action) noexcept nogil:
    # Store a node that is not stored yet; returns its index (-1: out of memory).
    cdef SearchNode* grown
    cdef uint64_t slot
    cdef int index
    if S.count == S.capacity:
        grown = <SearchNode*>realloc(S.nodes, 2 * <size_t>S.capacity * sizeof(SearchNode))
        if grown == NULL:
            return -1
        S.nodes = grown
        S.capacity *= 2
    if 2 * (<uint64_t>S.count + 1) > S.mask + 1 and search_grow_table(S) != 0:
        return -1
    index = S.count
    memcpy(&S.nodes[index].st, s, sizeof(DogState))
    S.nodes[index].hash = h
    S.nodes[index].k = k
    S.nodes[index].j = j
    S.nodes[index].parent = parent
    S.nodes[index].next = -1
    S.nodes[index].action = action
    S.count += 1
    slot = h & S.mask
    while S.table[slot] != 0:
        slot = (slot + 1) & S.mask
    S.table[slot] = (h & TAG_BITS) | <uint64_t>(index + 1)
    S.nodes[index].slot = <int>slot
    return index


cdef inline bint search_hopeless(const DogGameData* g, const DogState* s, int reach) noexcept nogil:
    # No win in time: the human is farther than the most the turns left can cover.
    cdef int d = g.dist[s.pos]
    return d < 0 or d > reach * (g.turns - s.turn + 1)


cdef int soonest_win_search(const DogGameData* g, const DogState* root, const int* rolls,
                            int nrolls, const int* dice, int ndice, bint open_chance, int reach,
                            long max_nodes, SoonestSearch* S) noexcept nogil:
    # The search itself (see the section comment); S holds the stored nodes afterwards.
    # ``open_chance``: every chance outcome is tried (the par); else ``rolls`` and ``dice`` decide.
    cdef int head[256]
    cdef int tail[256]
    cdef int actions[KERNEL_MAX_ACTIONS]
    cdef int n, i, t, index, k, j, k2, j2, reading, budget, stored
    cdef DogState st, child
    cdef uint64_t h
    for t in range(256):
        head[t] = -1
        tail[t] = -1
    h = search_hash(g, root, 0, 0)
    if search_store(S, root, 0, 0, h, -1, -1) < 0:
        return SOONEST_NO_MEMORY
    if root.phase == PH_OVER or search_hopeless(g, root, reach):
        return SOONEST_INFEASIBLE
    head[root.turn] = 0
    tail[root.turn] = 0
    for t in range(root.turn, g.turns + 1):
        index = head[t]
        while index >= 0:
            memcpy(&st, &S.nodes[index].st, sizeof(DogState))
            k = S.nodes[index].k
            j = S.nodes[index].j
            k2 = k
            j2 = j
            if open_chance or (st.phase != PH_ROLL and st.phase != PH_SHOUT):
                n = dog_legal_actions(g, &st, actions)
            elif st.phase == PH_ROLL:
                n = 0
                if k < nrolls:
                    reading = rolls[k]
                    budget = (reading - 1 if reading > 1 else 1) if st.stick else reading
                    actions[0] = ROLL_1 + budget - 1
                    k2 = k + 1
                    n = 1
            else:
                n = 0
                if j < ndice:
                    actions[0] = SHOUT_SHRUG if dice[j] < pending_arrow_number(g, &st) else SHOUT_HIT
                    j2 = j + 1
                    n = 1
            for i in range(n):
                memcpy(&child, &st, sizeof(DogState))
                dog_apply_action(g, &child, actions[i])
                if child.phase == PH_OVER:
                    if child.won:
                        S.win_parent = index
                        S.win_action = actions[i]
                        S.win_turn = child.turn
                        return SOONEST_OPTIMAL
                    continue
                if search_hopeless(g, &child, reach):
                    continue
                h = search_hash(g, &child, k2, j2)
                if search_find(g, S, &child, k2, j2, h) >= 0:
                    continue
                if S.count >= max_nodes:
                    return SOONEST_BUDGET
                stored = search_store(S, &child, k2, j2, h, index, actions[i])
                if stored < 0:
                    return SOONEST_NO_MEMORY
                if tail[child.turn] >= 0:
                    S.nodes[tail[child.turn]].next = stored
                else:
                    head[child.turn] = stored
                tail[child.turn] = stored
            index = S.nodes[index].next
    return SOONEST_INFEASIBLE


cdef int* _int_array(object values, int low, int high, str what) except? NULL:
    # ``values`` as a malloc'ed C array (freed by the caller), each checked to lie in low..high.
    cdef Py_ssize_t n = len(values), i
    cdef int* out = <int*>malloc((n if n > 0 else 1) * sizeof(int))
    if out == NULL:
        raise MemoryError()
    for i in range(n):
        v = values[i]
        if isinstance(v, bool) or not isinstance(v, int) or not low <= v <= high:
            free(out)
            from solver.errors import OptionError

            raise OptionError(f"{what} reads {low}..{high}, not {v!r}")
        out[i] = v
    return out


def soonest_win(DogKernelState root, rolls, dice, long max_nodes, int reach):
    """The soonest win from ``root`` by breadth-first search bucketed by turn, in C.

    ``rolls`` and ``dice`` are a clairvoyant world (step-roll readings 1..3 and shout d6 values
    consumed along the route: ``solver.games.dog.analysis.soonest``), or both ``None`` to try
    every chance outcome (the par). ``reach`` is the most graph distance a turn can cover (nodes
    farther from the human than the turns left allow are pruned); at most ``max_nodes`` nodes are
    stored. Returns ``(status, nodes, actions, turn)``: ``"optimal"`` with the actions of a soonest
    win and its turn, or ``"infeasible"`` / ``"budget"`` with ``None, None``; ``nodes`` counts the
    nodes stored, the winning one included, exactly as the pure-Python search does.
    """
    cdef DogKernelGame game = root.game
    cdef SoonestSearch S
    cdef int* c_rolls = NULL
    cdef int* c_dice = NULL
    cdef int nrolls = 0, ndice = 0, status, index
    cdef bint open_chance = rolls is None and dice is None
    game._check()
    if max_nodes < 1:
        from solver.errors import OptionError

        raise OptionError(f"max_nodes must be at least 1, not {max_nodes}")
    if not open_chance:
        if rolls is None or dice is None:
            from solver.errors import OptionError

            raise OptionError("give both the step rolls and the shout dice of a world, or neither")
        nrolls = len(rolls)
        ndice = len(dice)
    memset(&S, 0, sizeof(SoonestSearch))
    try:
        if not open_chance:
            c_rolls = _int_array(rolls, 1, 3, "a step-roll reading")
            c_dice = _int_array(dice, 1, 6, "a shout die")
        if search_open(&S) != 0:
            raise MemoryError()
        with nogil:
            status = soonest_win_search(game.data, &root.st, c_rolls, nrolls, c_dice, ndice,
                                        open_chance, reach, max_nodes, &S)
        if status == SOONEST_NO_MEMORY:
            raise MemoryError()
        if status == SOONEST_BUDGET:
            return ("budget", S.count, None, None)
        if status == SOONEST_INFEASIBLE:
            return ("infeasible", S.count, None, None)
        route = [S.win_action]
        index = S.win_parent
        while S.nodes[index].parent >= 0:
            route.append(S.nodes[index].action)
            index = S.nodes[index].parent
        route.reverse()
        return ("optimal", S.count + 1, tuple(route), S.win_turn)
    finally:
        free(c_rolls)
        free(c_dice)
        search_close(&S)


# -- the clairvoyant estimate: the sampled worlds, one search after the other -----------------------
# ``solver.games.dog.analysis.clairvoyant`` samples its worlds as before (Python's Mersenne
# Twister through ``random.Random``, decoded here from bulk words exactly as ``randint`` reads
# them: ``decode_worlds``) and hands them all to ``clairvoyant_worlds``, which runs the loop of the
# reference in C: the world searches of ``soonest_win`` in world order, while fewer than
# ``total_nodes`` nodes were stored, each capped at ``max_nodes`` and at what the total leaves.
cdef int one_by_one(const DogGameData* g, const DogState* root, const uint8_t* rolls, int nrolls,
                    const uint8_t* dice, int ndice, int nworlds, long max_nodes, long total_nodes,
                    int reach, long* out) noexcept nogil:
    # The world searches one after the other with the budgets applied exactly (section comment):
    # out = (wins, samples, undecided). Returns -1 when out of memory.
    cdef SoonestSearch S
    cdef int* c_rolls = <int*>malloc((nrolls + 1) * sizeof(int))
    cdef int* c_dice = <int*>malloc((ndice + 1) * sizeof(int))
    cdef long spent = 0, cap, nodes
    cdef int w, i, status, result = 0
    out[0] = 0
    out[1] = 0
    out[2] = 0
    if c_rolls == NULL or c_dice == NULL or search_open(&S) != 0:
        result = -1
    else:
        for w in range(nworlds):
            if spent >= total_nodes:
                break
            cap = total_nodes - spent
            if cap < 1:
                cap = 1
            if cap > max_nodes:
                cap = max_nodes
            for i in range(nrolls):
                c_rolls[i] = rolls[w * nrolls + i]
            for i in range(ndice):
                c_dice[i] = dice[w * ndice + i]
            search_reset(&S)
            status = soonest_win_search(g, root, c_rolls, nrolls, c_dice, ndice, False, reach,
                                        cap, &S)
            if status == SOONEST_NO_MEMORY:
                result = -1
                break
            nodes = S.count + (1 if status == SOONEST_OPTIMAL else 0)
            spent += nodes
            out[1] += 1
            if status == SOONEST_BUDGET:
                out[2] += 1
                out[0] += 1
            elif status == SOONEST_OPTIMAL:
                out[0] += 1
    free(c_rolls)
    free(c_dice)
    search_close(&S)
    return result


def clairvoyant_worlds(DogKernelState root, bytes rolls, bytes dice, int nworlds, long max_nodes,
                       long total_nodes, int reach):
    """The clairvoyant estimate's counts over ``nworlds`` worlds (the section comment above).

    ``rolls`` holds the worlds' step-roll readings (1..3) one byte each, world after world,
    ``dice`` their shout dice (1..6); each world has ``len(rolls) // nworlds`` readings and
    ``len(dice) // nworlds`` dice. Returns ``(wins, samples, undecided)``: the worlds with a win or
    over their cap (undecided, counted as wins), the worlds searched, the undecided ones.
    """
    cdef DogKernelGame game = root.game
    cdef const uint8_t* c_rolls = rolls
    cdef const uint8_t* c_dice = dice
    cdef int nrolls, ndice, status, i
    cdef long out[3]
    game._check()
    if nworlds < 0 or max_nodes < 1 or total_nodes < 1:
        from solver.errors import OptionError

        raise OptionError("clairvoyant_worlds needs nworlds >= 0 and budgets >= 1")
    if nworlds == 0:
        return (0, 0, 0)
    if len(rolls) % nworlds or len(dice) % nworlds:
        from solver.errors import OptionError

        raise OptionError("the rolls and dice must hold the same count for every world")
    nrolls = len(rolls) // nworlds
    ndice = len(dice) // nworlds
    for i in range(len(rolls)):
        if not 1 <= c_rolls[i] <= 3:
            from solver.errors import OptionError

            raise OptionError(f"a step-roll reading is 1, 2 or 3, not {c_rolls[i]}")
    for i in range(len(dice)):
        if not 1 <= c_dice[i] <= 6:
            from solver.errors import OptionError

            raise OptionError(f"a shout die reads 1..6, not {c_dice[i]}")
    with nogil:
        status = one_by_one(game.data, &root.st, c_rolls, nrolls, c_dice, ndice, nworlds,
                            max_nodes, total_nodes, reach, out)
    if status < 0:
        raise MemoryError()
    return (out[0], out[1], out[2])


cdef Py_ssize_t _read_randint(const unsigned char* raw, Py_ssize_t nwords, Py_ssize_t at, int bits,
                              int below, unsigned char* out, int count) noexcept nogil:
    # ``count`` values of ``randint(1, below)`` from the words at ``at`` (a word's top ``bits``
    # bits, rejected when not below ``below``) into ``out``; returns where the next word is, or
    # -1 when the words run out first.
    cdef uint32_t word, r
    cdef int i = 0
    while i < count:
        if at >= nwords:
            return -1
        word = (<uint32_t>raw[4 * at] | (<uint32_t>raw[4 * at + 1] << 8)
                | (<uint32_t>raw[4 * at + 2] << 16) | (<uint32_t>raw[4 * at + 3] << 24))
        at += 1
        r = word >> (32 - bits)
        if r < <uint32_t>below:
            out[i] = <unsigned char>(r + 1)
            i += 1
    return at


def decode_worlds(bytes words, int nrolls, int ndice, int nworlds):
    """Worlds read from 32-bit Mersenne Twister outputs (``words``: little-endian, as
    ``random.Random.getrandbits(32 * n).to_bytes(4 * n, "little")`` gives them) exactly as
    ``randint(1, 3)`` and ``randint(1, 6)`` read them: the top 2 (3) bits of a word, a word whose
    value is not below 3 (6) rejected and the next one read. Each world is ``nrolls`` readings,
    then ``ndice`` dice. Returns ``(worlds decoded, words used, rolls, dice)``, the rolls and dice
    one byte each, world after world; fewer than ``nworlds`` when the words run out.
    """
    cdef const unsigned char* raw = words
    cdef Py_ssize_t nwords = len(words) // 4, at = 0, start
    cdef int w, done = 0
    cdef bytearray out_rolls = bytearray(nrolls * nworlds if nworlds > 0 else 0)
    cdef bytearray out_dice = bytearray(ndice * nworlds if nworlds > 0 else 0)
    cdef unsigned char* pr = out_rolls
    cdef unsigned char* pd = out_dice
    for w in range(nworlds):
        start = at
        at = _read_randint(raw, nwords, at, 2, 3, pr + w * nrolls, nrolls)
        if at >= 0:
            at = _read_randint(raw, nwords, at, 3, 6, pd + w * ndice, ndice)
        if at < 0:
            at = start
            break
        done += 1
    return (done, at, bytes(out_rolls[:done * nrolls]), bytes(out_dice[:done * ndice]))


# -- the proof search's relaxation (solver.games.dog.analysis.proof.turns_needed) -------------------
cdef int _relaxation_targets(const DogGameData* g, int n, int* out) noexcept nogil:
    # ``{n}`` and where hops and forced runs from a dog that stepped onto ``n`` can end up
    # (``proof.turns_needed``'s ``jumps``): out gets the cells, duplicates allowed; returns the count.
    cdef int count = 0, i, x, d, y, length, first, last, terrain
    out[count] = n
    count += 1
    for i in range(5):
        x = n if i == 0 else g.nbr[n * 4 + (i - 1)]
        if x < 0 or not bit_get(g.distraction, x):
            continue
        out[count] = x
        count += 1
        terrain = g.terrain[x]
        if terrain == T_SQUIRREL:
            first, last, length = 0, 3, SQUIRREL_RUN
        elif T_SCENT_N <= terrain <= T_SCENT_W:
            first = terrain - T_SCENT_N
            last, length = first, SCENT_RUN
        else:
            continue
        for d in range(first, last + 1):
            y = x
            for _ in range(length):
                y = g.nbr[y * 4 + d]
                if y < 0:
                    break
                out[count] = y
                count += 1
                if y == g.human:
                    break
    return count


cdef int _heap_push(int* keys, int* values, int n, int key, int value) noexcept nogil:
    # Push (key, value) on the binary min-heap of n entries; returns the new size.
    cdef int i = n, parent
    while i > 0:
        parent = (i - 1) >> 1
        if keys[parent] <= key:
            break
        keys[i] = keys[parent]
        values[i] = values[parent]
        i = parent
    keys[i] = key
    values[i] = value
    return n + 1


cdef int _heap_pop(int* keys, int* values, int n) noexcept nogil:
    # Drop the smallest entry of the heap of n entries; returns the new size.
    cdef int i = 0, child, key, value
    n -= 1
    if n == 0:
        return 0
    key = keys[n]
    value = values[n]
    while True:
        child = 2 * i + 1
        if child >= n:
            break
        if child + 1 < n and keys[child + 1] < keys[child]:
            child += 1
        if keys[child] >= key:
            break
        keys[i] = keys[child]
        values[i] = values[child]
        i = child
    keys[i] = key
    values[i] = value
    return n


def relaxation_turns(DogKernelGame game):
    """``solver.games.dog.analysis.proof.turns_needed`` in C: a list of ``ncells * 7`` entries,
    the bound for (cell, stamina) at ``cell * 7 + stamina`` (-1: never). The same Dijkstra over the
    same relaxed graph, so the same numbers (tests hold the two to each other)."""
    game._check()
    cdef const DogGameData* g = game.data
    cdef int nnodes = g.ncells * 7 + 1, win = g.ncells * 7
    cdef int cell, d, n, s, left, cost, i, ntargets, x, u, v, w, e, nedges = 0, head, best
    cdef int targets[64]
    # forward edges (u -> v, weight w); at most ncells * 4 * 6 * 64 of them
    cdef int cap = g.ncells * 4 * 6 * 64 + 1
    cdef int* eu = <int*>malloc(cap * sizeof(int))
    cdef int* ev = <int*>malloc(cap * sizeof(int))
    cdef int* ew = <int*>malloc(cap * sizeof(int))
    cdef int* start = <int*>calloc(nnodes + 1, sizeof(int))
    cdef int* into = <int*>malloc(cap * sizeof(int))
    cdef int* dist = <int*>malloc(nnodes * sizeof(int))
    cdef int* fill = <int*>calloc(nnodes + 1, sizeof(int))
    cdef bint* done = <bint*>calloc(nnodes, sizeof(bint))
    cdef int* heap_d = <int*>malloc(cap * sizeof(int))
    cdef int* heap_v = <int*>malloc(cap * sizeof(int))
    cdef int heap_n
    try:
        if (eu == NULL or ev == NULL or ew == NULL or start == NULL or into == NULL
                or dist == NULL or fill == NULL or done == NULL or heap_d == NULL
                or heap_v == NULL):
            raise MemoryError()
        with nogil:
            for cell in range(g.ncells):
                if g.terrain[cell] == T_TREE or cell == g.human:
                    continue
                for d in range(4):
                    n = g.nbr[cell * 4 + d]
                    if n < 0:
                        continue
                    if n == g.human:
                        for s in range(1, 7):
                            eu[nedges] = cell * 7 + s
                            ev[nedges] = win
                            ew[nedges] = 1
                            nedges += 1
                        continue
                    cost = (1 if g.terrain[n] == T_UNDERGROWTH else
                            (2 if g.terrain[n] == T_PUDDLE else 0))
                    cost += SHOUT_COST * (g.arrow_start[n + 1] - g.arrow_start[n])
                    ntargets = _relaxation_targets(g, n, targets)
                    for s in range(1, 7):
                        left = s - cost if s > cost else 0
                        for i in range(ntargets):
                            x = targets[i]
                            eu[nedges] = cell * 7 + s
                            if x == g.human:
                                ev[nedges] = win
                                ew[nedges] = 1
                            elif left == 0:
                                ev[nedges] = x * 7 + REST_STAMINA
                                ew[nedges] = 2
                            else:
                                ev[nedges] = x * 7 + left
                                ew[nedges] = 1
                            nedges += 1
            # reversed adjacency (into v: the edges' sources), then Dijkstra from the win
            for e in range(nedges):
                start[ev[e] + 1] += 1
            for v in range(nnodes):
                start[v + 1] += start[v]
            for e in range(nedges):
                into[start[ev[e]] + fill[ev[e]]] = e
                fill[ev[e]] += 1
            # Dijkstra from the win over the reversed edges, a binary heap of (distance, node)
            for v in range(nnodes):
                dist[v] = -1
            dist[win] = 0
            heap_n = _heap_push(heap_d, heap_v, 0, 0, win)
            while heap_n > 0:
                best = heap_v[0]
                w = heap_d[0]
                heap_n = _heap_pop(heap_d, heap_v, heap_n)
                if done[best] or w != dist[best]:
                    continue
                done[best] = True
                for head in range(start[best], start[best + 1]):
                    e = into[head]
                    u = eu[e]
                    w = dist[best] + ew[e]
                    if dist[u] < 0 or w < dist[u]:
                        dist[u] = w
                        heap_n = _heap_push(heap_d, heap_v, heap_n, w, u)
        return [dist[v] for v in range(win)]
    finally:
        free(eu)
        free(ev)
        free(ew)
        free(start)
        free(into)
        free(dist)
        free(fill)
        free(done)
        free(heap_d)
        free(heap_v)


# -- the clairvoyant value, exactly ----------------------------------------------------------------
# The share of *all* worlds with a hindsight win, computed by revealing a world's entries only when
# a route needs them: the positions reachable with the readings revealed so far are expanded (a
# win ends it: every world with this prefix has one); those left wait either for the next step
# roll or for the next shout die. The next roll is revealed first if any position waits for it
# (three readings, 1/3 each), else the next die (its six values grouped by what they do to the
# waiting shouts, each group with its share of 6). No position waiting: no world with this prefix
# wins. The value is exact (floating-point sums of those shares); every position stored on the
# way counts against a node budget, and the search gives up (-1) beyond it.
ctypedef struct ExactClairvoyant:
    const DogGameData* g
    int reach
    long budget              # positions it may still store
    int* rolls               # the readings revealed so far (room for every turn)
    int* dice                # the dice revealed so far
    int max_rolls
    int max_dice
    SoonestSearch* levels    # one table per reveal depth, reused
    int nlevels


cdef enum:
    EXACT_WAIT_ROLL = 1      # SearchNode.action of a position waiting for the next reading
    EXACT_WAIT_DIE = 2       # ... for the next die
    EXACT_DEAD_END = 3       # ... for a reading or die beyond the world's (never revealed)
    EXACT_OVER_BUDGET = -1
    EXACT_NO_MEMORY = -2
    EXACT_MAX_ENTRIES = 1024 # deeper reveals would need more C stack than is safe


cdef double exact_clairvoyant_from(ExactClairvoyant* X, const SearchNode* waiting, int nwaiting,
                                   int r, int d, int depth) noexcept nogil:
    # The share of worlds with a win among those with the revealed prefix (rolls[:r], dice[:d]),
    # from the positions ``waiting``; EXACT_OVER_BUDGET or EXACT_NO_MEMORY when it gives up.
    cdef const DogGameData* g = X.g
    cdef SoonestSearch* S
    cdef SearchNode* blocked = NULL
    cdef DogState st, child
    cdef int actions[KERNEL_MAX_ACTIONS]
    cdef int numbers[7]
    cdef int i, n, a, k, j, k2, j2, top = 0, capacity, index, reading, budget
    cdef int nblocked = 0, on_roll = 0, v, w, same, first, count
    cdef double value = 0.0, part
    cdef uint64_t h
    cdef int* stack
    cdef int* grown
    if depth >= X.nlevels:
        return EXACT_NO_MEMORY
    S = &X.levels[depth]
    if S.nodes == NULL and search_open(S) != 0:
        return EXACT_NO_MEMORY
    search_reset(S)
    capacity = nwaiting + 64
    stack = <int*>malloc(capacity * sizeof(int))
    if stack == NULL:
        return EXACT_NO_MEMORY
    for i in range(nwaiting):
        h = search_hash(g, &waiting[i].st, waiting[i].k, waiting[i].j)
        if search_find(g, S, &waiting[i].st, waiting[i].k, waiting[i].j, h) < 0:
            index = search_store(S, &waiting[i].st, waiting[i].k, waiting[i].j, h, -1, 0)
            if index < 0:
                free(stack)
                return EXACT_NO_MEMORY
            stack[top] = index
            top += 1
    # the closure: expand what the revealed entries allow, mark what waits (SearchNode.action)
    while top > 0:
        top -= 1
        index = stack[top]
        memcpy(&st, &S.nodes[index].st, sizeof(DogState))
        k = S.nodes[index].k
        j = S.nodes[index].j
        k2 = k
        j2 = j
        if st.phase == PH_ROLL:
            if k >= r:
                S.nodes[index].action = EXACT_WAIT_ROLL if k < X.max_rolls else EXACT_DEAD_END
                on_roll |= k < X.max_rolls
                continue
            reading = X.rolls[k]
            budget = (reading - 1 if reading > 1 else 1) if st.stick else reading
            actions[0] = ROLL_1 + budget - 1
            n = 1
            k2 = k + 1
        elif st.phase == PH_SHOUT:
            if j >= d:
                S.nodes[index].action = EXACT_WAIT_DIE if j < X.max_dice else EXACT_DEAD_END
                continue
            actions[0] = SHOUT_SHRUG if X.dice[j] < pending_arrow_number(g, &st) else SHOUT_HIT
            n = 1
            j2 = j + 1
        else:
            n = dog_legal_actions(g, &st, actions)
        for a in range(n):
            memcpy(&child, &st, sizeof(DogState))
            dog_apply_action(g, &child, actions[a])
            if child.phase == PH_OVER:
                if child.won:
                    free(stack)
                    return 1.0
                continue
            if search_hopeless(g, &child, X.reach):
                continue
            h = search_hash(g, &child, k2, j2)
            if search_find(g, S, &child, k2, j2, h) >= 0:
                continue
            X.budget -= 1
            if X.budget < 0:
                free(stack)
                return EXACT_OVER_BUDGET
            index = search_store(S, &child, k2, j2, h, -1, 0)
            if top == capacity:
                capacity *= 2
                grown = <int*>realloc(stack, capacity * sizeof(int))
                if grown == NULL:
                    index = -1
                else:
                    stack = grown
            if index < 0:
                free(stack)
                return EXACT_NO_MEMORY
            stack[top] = index
            top += 1
    free(stack)
    for i in range(S.count):
        if S.nodes[i].action == EXACT_WAIT_ROLL or S.nodes[i].action == EXACT_WAIT_DIE:
            nblocked += 1
    if nblocked == 0:
        return 0.0
    blocked = <SearchNode*>malloc(nblocked * sizeof(SearchNode))
    if blocked == NULL:
        return EXACT_NO_MEMORY
    nblocked = 0
    for v in range(7):
        numbers[v] = 0
    for i in range(S.count):
        if S.nodes[i].action == EXACT_WAIT_ROLL or S.nodes[i].action == EXACT_WAIT_DIE:
            memcpy(&blocked[nblocked], &S.nodes[i], sizeof(SearchNode))
            nblocked += 1
            if S.nodes[i].action == EXACT_WAIT_DIE:
                numbers[pending_arrow_number(g, &S.nodes[i].st)] = 1
    if on_roll:  # the next reading first: 1, 2 or 3 steps, a third each
        for reading in range(1, 4):
            X.rolls[r] = reading
            part = exact_clairvoyant_from(X, blocked, nblocked, r + 1, d, depth + 1)
            if part < 0:
                value = part
                break
            value += part / 3.0
    else:  # the next die: its values grouped by which waiting shouts they shrug off (v < number)
        first = 1
        while first <= 6:
            count = 1
            for w in range(first + 1, 7):
                same = 1
                for v in range(2, 7):
                    if numbers[v] and ((first < v) != (w < v)):
                        same = 0
                if not same:
                    break
                count += 1
            X.dice[d] = first
            part = exact_clairvoyant_from(X, blocked, nblocked, r, d + 1, depth + 1)
            if part < 0:
                value = part
                break
            value += part * count / 6.0
            first += count
    free(blocked)
    return value


def exact_clairvoyant(DogKernelState root, int nrolls, int ndice, long max_nodes, int reach):
    """The clairvoyant value exactly: the share of all worlds (``nrolls`` step-roll readings and
    ``ndice`` shout dice, uniform and independent) in which some route wins, by revealing a world's
    entries when a route needs them (the section comment above). Returns the value, or ``None``
    when more than ``max_nodes`` positions would be stored (or the worlds hold more than
    ``EXACT_MAX_ENTRIES`` entries: one reveal depth each)."""
    cdef DogKernelGame game = root.game
    cdef ExactClairvoyant X
    cdef SearchNode start
    cdef double value
    cdef int i
    game._check()
    if nrolls < 0 or ndice < 0 or max_nodes < 1:
        from solver.errors import OptionError

        raise OptionError("exact_clairvoyant needs counts >= 0 and max_nodes >= 1")
    if nrolls + ndice > EXACT_MAX_ENTRIES:
        return None
    memset(&X, 0, sizeof(ExactClairvoyant))
    X.g = game.data
    X.reach = reach
    X.budget = max_nodes
    X.max_rolls = nrolls
    X.max_dice = ndice
    X.nlevels = nrolls + ndice + 2
    X.rolls = <int*>calloc(nrolls + 1, sizeof(int))
    X.dice = <int*>calloc(ndice + 1, sizeof(int))
    X.levels = <SoonestSearch*>calloc(X.nlevels, sizeof(SoonestSearch))
    memset(&start, 0, sizeof(SearchNode))
    memcpy(&start.st, &root.st, sizeof(DogState))
    try:
        if X.rolls == NULL or X.dice == NULL or X.levels == NULL:
            raise MemoryError()
        if root.st.phase == PH_OVER:
            return 1.0 if root.st.won else 0.0
        if search_hopeless(X.g, &root.st, reach):
            return 0.0
        with nogil:
            value = exact_clairvoyant_from(&X, &start, 1, 0, 0, 0)
        if value == EXACT_NO_MEMORY:
            raise MemoryError()
        return None if value < 0 else value
    finally:
        if X.levels != NULL:
            for i in range(X.nlevels):
                if X.levels[i].nodes != NULL:
                    search_close(&X.levels[i])
        free(X.levels)
        free(X.rolls)
        free(X.dice)


# -- the uniform policy's exact value (the analysis's skill measure) -------------------------------
# The win probability of the player who picks uniformly among the legal actions at every decision
# (the strength ladder's level1): a depth-first search that averages over a decision's actions as
# over a chance node's outcomes, each non-terminal position's value stored once (the soonest-win
# table, k = j = 0) when its children are done. Positions too far from the human for the turns
# left are worth 0 (no policy wins from them) and, like terminal positions, are not stored. The
# search stops when ``max_nodes`` positions are stored. The pure-Python twin is
# ``solver.games.dog.analysis.skill.uniform_value_reference``: the same nodes in the same order,
# the same sums in the same order, so the same value and the same node count.
ctypedef struct UniformFrame:
    DogState st
    uint64_t hash
    int n
    int i
    double acc
    int actions[KERNEL_MAX_ACTIONS]
    double probs[KERNEL_MAX_ACTIONS]


cdef enum:
    UNIFORM_DONE = 0
    UNIFORM_BUDGET = 1
    UNIFORM_NO_MEMORY = -1


cdef void uniform_frame_fill(const DogGameData* g, UniformFrame* f) noexcept nogil:
    # The frame's moves: a chance node's outcomes with their probabilities, a decision's legal
    # actions each with 1/n.
    cdef int k
    f.i = 0
    f.acc = 0.0
    if f.st.phase == PH_ROLL or f.st.phase == PH_SHOUT:
        f.n = dog_chance_outcomes(g, &f.st, f.actions, f.probs)
    else:
        f.n = dog_legal_actions(g, &f.st, f.actions)
        for k in range(f.n):
            f.probs[k] = 1.0 / f.n


cdef int uniform_search(const DogGameData* g, const DogState* root, int reach, long max_nodes,
                        SoonestSearch* S, double* out) noexcept nogil:
    # The search of the section comment from a non-terminal, non-pruned ``root``.
    cdef UniformFrame* frames = NULL
    cdef UniformFrame* grown
    cdef UniformFrame* f
    cdef double* values = NULL
    cdef double* more
    cdef int values_cap = 0, depth = 1, cap = 64, index
    cdef int result = UNIFORM_DONE
    cdef DogState child
    cdef double v
    cdef uint64_t h
    frames = <UniformFrame*>malloc(cap * sizeof(UniformFrame))
    if frames == NULL:
        return UNIFORM_NO_MEMORY
    memcpy(&frames[0].st, root, sizeof(DogState))
    frames[0].hash = search_hash(g, root, 0, 0)
    uniform_frame_fill(g, &frames[0])
    while depth > 0:
        f = &frames[depth - 1]
        if f.i == f.n:  # done: store the position, hand its value up
            if S.count >= max_nodes:
                result = UNIFORM_BUDGET
                break
            index = search_store(S, &f.st, 0, 0, f.hash, -1, -1)
            if index < 0:
                result = UNIFORM_NO_MEMORY
                break
            if index >= values_cap:
                values_cap = S.capacity
                more = <double*>realloc(values, values_cap * sizeof(double))
                if more == NULL:
                    result = UNIFORM_NO_MEMORY
                    break
                values = more
            values[index] = f.acc
            v = f.acc
            depth -= 1
            if depth == 0:
                out[0] = v
                break
            f = &frames[depth - 1]
            f.acc += f.probs[f.i] * v
            f.i += 1
            continue
        memcpy(&child, &f.st, sizeof(DogState))
        dog_apply_action(g, &child, f.actions[f.i])
        if child.phase == PH_OVER:
            v = 1.0 if child.won else 0.0
        elif search_hopeless(g, &child, reach):
            v = 0.0
        else:
            h = search_hash(g, &child, 0, 0)
            index = search_find(g, S, &child, 0, 0, h)
            if index < 0:
                if depth == cap:
                    grown = <UniformFrame*>realloc(frames, 2 * cap * sizeof(UniformFrame))
                    if grown == NULL:
                        result = UNIFORM_NO_MEMORY
                        break
                    frames = grown
                    cap *= 2
                f = &frames[depth]
                memcpy(&f.st, &child, sizeof(DogState))
                f.hash = h
                uniform_frame_fill(g, f)
                depth += 1
                continue
            v = values[index]
        f.acc += f.probs[f.i] * v
        f.i += 1
    free(frames)
    free(values)
    return result


def uniform_value(DogKernelState root, long max_nodes, int reach):
    """The exact win probability from ``root`` of the uniformly random player (the section comment
    above): ``(value, nodes)``, or ``(None, nodes)`` when more than ``max_nodes`` positions would
    be stored. ``reach`` is the most graph distance a turn can cover (as for ``soonest_win``)."""
    cdef DogKernelGame game = root.game
    cdef SoonestSearch S
    cdef double value = 0.0
    cdef int status
    game._check()
    if max_nodes < 1:
        from solver.errors import OptionError

        raise OptionError(f"max_nodes must be at least 1, not {max_nodes}")
    if root.st.phase == PH_OVER:
        return (1.0 if root.st.won else 0.0), 0
    if search_hopeless(game.data, &root.st, reach):
        return 0.0, 0
    memset(&S, 0, sizeof(SoonestSearch))
    try:
        if search_open(&S) != 0:
            raise MemoryError()
        with nogil:
            status = uniform_search(game.data, &root.st, reach, max_nodes, &S, &value)
        if status == UNIFORM_NO_MEMORY:
            raise MemoryError()
        if status == UNIFORM_BUDGET:
            return None, S.count
        return value, S.count
    finally:
        search_close(&S)
