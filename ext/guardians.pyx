# cython: language_level=3, boundscheck=False, wraparound=False, cdivision=True
# cython: initializedcheck=False
"""Forest guardians' compiled kernel: an exact twin of ``solver/games/guardians/rules.py``.

The reference module is the executable specification; this file transcribes it function by
function (``_begin_turn`` -> ``begin_turn``, ``_walk`` -> ``do_walk``...) on a fixed-size C
state, so that the differential tests can hold the two engines to every observable.

C level (``ext/state.pxd``)
---------------------------
* ``GGame``: the static data of one game, built once (one ``malloc``): per catalogue tile its
  forest colour, mission sequence, points and walk length; the level's tasks; the initial state;
  and the game's own ``KernelVTable`` (its ``state_size`` covers the players in play only and its
  ``max_actions`` is this game's bound, so the table lives in the game, not in a static).
* ``GState``: every player's forest as bitboards over the 64 x 64 board window (one ``uint64``
  per row, bit = column + 32): ``occ`` (a tile), and three planes holding the forest-side colour
  code 1..6 (0 on the mission side). Tile identities are kept per tile id (``tile_cell``: the
  player and cell of every tile in a forest), the pool, track and points piles as short arrays,
  bag and discard as 256-bit sets. No pointers, padding spelled out: a copy is a ``memcpy`` of
  ``vtable.state_size`` bytes and equal positions are equal bytes. The players come last, so a
  solo state is 4 KB and a four-player state 10 KB.
* Walk enumeration is a depth-first search over the colour planes (direction codes computed on
  the way); the connectivity rule is a breadth-first search from one neighbour of the mission
  tile that stops as soon as it has met all of them (every forest is one piece: the rules keep
  it so, and the kernel refuses a starting position that is not). ``articulation_points`` (a
  Tarjan depth-first search, all cut vertices at once) is there for the measurements.

Python level
------------
``GuardiansKernelGame`` and ``GuardiansKernelState`` speak the same protocol as the reference's
``GuardiansGame`` and ``GuardiansState`` (``solver.games.guardians.kernel.KernelGuardiansGame``
is the public entry) and expose the reference's attributes read-only (``people``, ``pool``,
``bag``, ``phase``...), built from the struct on demand. The game keeps a reference game for its
data (tile set, level, position, catalogue): validation and parsing are the reference's. Their
plumbing (copies, capsules, ``==``, hashing, pickling, ``random_playouts``) is the shared face of
``ext/kernel_face.pxi``, which every kernel includes.
Module functions for tests and measurements: ``random_playouts`` (seeded random games in C),
``cut_vertices`` (Tarjan's search or the rules' test on every tile), ``time_cut_vertices`` and
``time_walks`` (the C routines in a loop, without the GIL).

Limits (checked when a game is built, ``OptionError`` otherwise): at most 255 catalogue tiles
(the set's tiles plus a position's), at most 8 level tasks, a starting forest in one piece.
"""

from libc.math cimport exp, pow
from libc.stdint cimport int16_t, uint8_t, uint16_t, uint64_t
from libc.stdlib cimport free, malloc
from libc.string cimport memcpy, memset

from rng cimport splitmix64_mix
from state cimport (
    KERNEL_CHANCE, KERNEL_TERMINAL,
    KernelHandle, KernelVTable, handle_capsule, state_capsule, state_from_capsule,
)

cdef extern from *:
    """
    #define GD_POPCOUNT(x) __builtin_popcountll(x)
    #define GD_CTZ(x) __builtin_ctzll(x)
    """
    int GD_POPCOUNT(uint64_t x) nogil
    int GD_CTZ(uint64_t x) nogil

# -- constants shared with rules.py / actions.py --------------------------------------------------
cdef enum:
    END_TURN = 0
    TAKE_TWO = 1
    TAKE_ONE = 2
    RESET = 3
    PAWNS = 4
    PAWN_BASE = 4
    WALK_BASE = 8
    WALK_CODES = 1456
    BOARD = 64
    BOARD_MIN = -32
    CELLS = 4096
    POOL_SIZE = 6
    PLACE_BASE = WALK_BASE + PAWNS * WALK_CODES
    DRAW_BASE = PLACE_BASE + POOL_SIZE * CELLS
    MAX_PLAYERS = 4
    MAX_TILES = 256          # catalogue ids 0..255 (0: the start tile)
    MAX_PILE = MAX_TILES + MAX_PLAYERS
    MAX_TASKS = 8
    MAX_SEQ = 5
    START_WALK = 6
    BASE_ROUNDS = 12
    MAX_WALKS = 1024         # walks of one pawn before deduplication (4 * 3**5 = 972 at most)
    ORIGIN_CELL = 32 * 64 + 32
    UNSEEN = 255             # back[t] of a tile whose mission side nobody has seen

cdef enum:
    PH_DRAW = 0
    PH_START_PAWN = 1
    PH_GROW = 2
    PH_PLACE = 3
    PH_PAWN = 4
    PH_MISSIONS = 5
    PH_TRACK = 6
    PH_OVER = 7
    PH_PICK = 8
    PH_REVEAL = 9
    PH_HORIZON = 10          # a search twin's end of the turn: terminal, valued by the heuristic

cdef enum:
    TASK_ALL_COLOURS = 0
    TASK_START_TILE = 1
    TASK_COLOUR_POINTS = 2
    TASK_MISSIONS_IN_TURN = 3
    TASK_LONG_MISSION = 4
    TASK_SMALL_FOREST = 5

cdef int WALK_OFFSETS[8]
WALK_OFFSETS[:] = [0, 0, 4, 16, 52, 160, 484, 1456]
cdef int POW3[6]
POW3[:] = [1, 3, 9, 27, 81, 243]
cdef int COMBO_SUPPLY_C[4]
COMBO_SUPPLY_C[:] = [4, 3, 2, 1]


ctypedef struct GPlayer:
    uint64_t occ[64]          # a tile on the cell (either side)
    uint64_t col[3][64]       # forest-side colour code 1..6 in three bit planes; 0: mission side
    int16_t pawns[4]          # cell of each pawn, -1 in the reserve
    int16_t start_cell        # cell of this player's start tile, -1 once completed
    uint16_t resets
    uint8_t pawn_tile[4]      # the tile id under each pawn (meaningful while it stands)
    uint8_t cards[10]         # combo cards in the order taken
    uint8_t ncards
    uint8_t _pad[5]           # explicit, always zero


ctypedef struct GState:
    uint64_t bag[4]           # tile ids in the bag (bit = id)
    uint64_t discard[4]
    int16_t tile_cell[256]    # tile id -> player * 4096 + cell while in a forest, else -1
    uint16_t pile_round[260]  # the points piles, in the order missions were completed
    uint16_t ntrack
    uint16_t npile_total
    uint16_t npile[4]
    uint16_t round
    uint16_t turn_missions
    int16_t placed
    uint8_t pile_tile[260]
    uint8_t pile_who[260]     # player * 4 + pawn
    uint8_t track[256]
    uint8_t pool[6]           # sorted by tile id
    uint8_t npool
    uint8_t supply[4]
    uint8_t current
    uint8_t phase
    uint8_t draws_left
    uint8_t reset_used
    uint8_t to_place
    uint8_t mission_side
    uint8_t end_triggered
    uint8_t tasks_done        # bit i: level task i done
    uint8_t picked            # hidden backs: the pool tile `take 1 tile` flipped (0: none)
    uint8_t revealing         # hidden backs: the tile the reveal node flips (0: none)
    uint8_t _pad[1]           # explicit, always zero
    uint8_t back[256]         # tile id -> the code of the mission it shows (UNSEEN: not flipped)
    GPlayer players[4]        # only the first ``players`` are copied and hashed


ctypedef struct GGame:
    KernelVTable vt
    int players
    int solo
    int has_position
    int n_set
    int ncat
    int mission_limit
    int open_backs
    int horizon               # a search twin: the end of a turn ends the search (PH_HORIZON)
    int pick_base
    int threshold
    int ntasks
    int task_kind[8]
    int task_value[8]
    int task_colour[8]
    uint8_t colour[256]
    uint8_t seq[256][5]
    uint8_t seqlen[256]
    uint8_t is_start[256]
    uint8_t palindrome[256]
    uint8_t walklen[256]
    int points[256]
    uint8_t face[256]         # set tiles: the index of their face (colour and points)
    uint8_t canon[256]        # set tiles: the code of their back (first tile of the face with it)
    uint8_t mult[256]         # per back code: tiles of the set with that face and back
    uint8_t face_first[256]   # per face: its first index into ``members``
    uint8_t face_size[256]    # per face: how many set tiles it has
    uint8_t members[256]      # the set's tile ids grouped by face, each group in id order
    GState initial


cdef size_t HEADER_SIZE = sizeof(GState) - MAX_PLAYERS * sizeof(GPlayer)
assert sizeof(GPlayer) == 2080, "GPlayer must have no implicit padding"
assert HEADER_SIZE == 2168, "GState's header must have no implicit padding"

STATE_SIZE = sizeof(GState)
PHASE_CODES = {"draw": PH_DRAW, "start_pawn": PH_START_PAWN, "grow": PH_GROW,
               "place": PH_PLACE, "pawn": PH_PAWN, "missions": PH_MISSIONS,
               "track": PH_TRACK, "over": PH_OVER, "pick": PH_PICK, "reveal": PH_REVEAL}
ACTION_LAYOUT = {"END_TURN": END_TURN, "TAKE_TWO": TAKE_TWO, "TAKE_ONE": TAKE_ONE,
                 "RESET": RESET, "PAWN_BASE": PAWN_BASE, "WALK_BASE": WALK_BASE,
                 "WALK_CODES": WALK_CODES, "PLACE_BASE": PLACE_BASE, "DRAW_BASE": DRAW_BASE,
                 "CELLS": CELLS, "POOL_SLOTS": POOL_SIZE}
"""The action layout compiled in (tests hold it to ``actions.py``)."""


# -- bits and cells -------------------------------------------------------------------------------
cdef inline bint bit64(const uint64_t* bits, int i) noexcept nogil:
    return (bits[i >> 6] >> (i & 63)) & 1

cdef inline void set64(uint64_t* bits, int i) noexcept nogil:
    bits[i >> 6] |= (<uint64_t>1) << (i & 63)

cdef inline void clear64(uint64_t* bits, int i) noexcept nogil:
    bits[i >> 6] &= ~((<uint64_t>1) << (i & 63))

cdef inline int count256(const uint64_t* bits) noexcept nogil:
    return GD_POPCOUNT(bits[0]) + GD_POPCOUNT(bits[1]) + GD_POPCOUNT(bits[2]) + GD_POPCOUNT(bits[3])

cdef inline int step_cell(int cell, int d) noexcept nogil:
    # The neighbour of ``cell`` in direction d (N, E, S, W) inside the window, else -1.
    cdef int r = cell >> 6, b = cell & 63
    if d == 0:
        return cell - 64 if r > 0 else -1
    if d == 1:
        return cell + 1 if b < 63 else -1
    if d == 2:
        return cell + 64 if r < 63 else -1
    return cell - 1 if b > 0 else -1

cdef inline bint occupied(const GPlayer* P, int cell) noexcept nogil:
    return (P.occ[cell >> 6] >> (cell & 63)) & 1

cdef inline int colour_at(const GPlayer* P, int cell) noexcept nogil:
    # The colour code (1..6) of a forest-side tile on ``cell``; 0 for no tile or a mission tile.
    cdef int r = cell >> 6, b = cell & 63
    return (<int>((P.col[0][r] >> b) & 1) | (<int>((P.col[1][r] >> b) & 1) << 1)
            | (<int>((P.col[2][r] >> b) & 1) << 2))

cdef inline void set_colour(GPlayer* P, int cell, int code) noexcept nogil:
    cdef int r = cell >> 6, b = cell & 63, k
    cdef uint64_t m = (<uint64_t>1) << b
    for k in range(3):
        if (code >> k) & 1:
            P.col[k][r] |= m
        else:
            P.col[k][r] &= ~m

cdef inline int forest_size(const GPlayer* P) noexcept nogil:
    cdef int r, n = 0
    for r in range(64):
        n += GD_POPCOUNT(P.occ[r])
    return n

cdef int board_cells(const uint64_t* rows, int* cells) noexcept nogil:
    # The cells (row * 64 + column) of a bitboard's set bits in row order into ``cells``; returns
    # how many. The boards listed are forests or parts of one: MAX_PILE cells at most.
    cdef int r, n = 0
    cdef uint64_t x
    for r in range(64):
        x = rows[r]
        while x:
            cells[n] = r * 64 + GD_CTZ(x)
            n += 1
            x &= x - 1
    return n

cdef int cell_tile(const GState* s, int p, int cell) noexcept nogil:
    # The id of the tile on ``cell`` of player p's forest (-1: none).
    cdef int t, key = p * CELLS + cell
    if s.players[p].start_cell == cell:
        return 0
    for t in range(1, MAX_TILES):
        if s.tile_cell[t] == key:
            return t
    return -1

cdef inline void forest_add(const GGame* g, GState* s, int p, int cell, int tile,
                            bint mission) noexcept nogil:
    cdef GPlayer* P = &s.players[p]
    set64(P.occ, cell)
    set_colour(P, cell, 0 if mission else g.colour[tile])
    if tile == 0:
        P.start_cell = cell
    else:
        s.tile_cell[tile] = p * CELLS + cell

cdef inline void forest_remove(GState* s, int p, int cell, int tile) noexcept nogil:
    cdef GPlayer* P = &s.players[p]
    clear64(P.occ, cell)
    set_colour(P, cell, 0)
    if tile == 0:
        P.start_cell = -1
    else:
        s.tile_cell[tile] = -1


# -- the connectivity rule (connectivity.py: splits_forest) ---------------------------------------
cdef bint splits_forest(const GPlayer* P, int v) noexcept nogil:
    """Whether removing the tile on ``v`` splits the forest (which is one piece)."""
    cdef int nb[4]
    cdef int count = 0, d, n, found, head, tail, here, k
    cdef int16_t queue[MAX_PILE + 8]
    cdef uint64_t seen[64]
    for d in range(4):
        n = step_cell(v, d)
        if n >= 0 and occupied(P, n):
            nb[count] = n
            count += 1
    if count <= 1:
        return False  # a leaf (or the last tile) never splits a connected forest
    memset(seen, 0, sizeof(seen))
    set64(seen, v)
    set64(seen, nb[0])
    queue[0] = <int16_t>nb[0]
    head = 0
    tail = 1
    found = 1
    while head < tail:
        here = queue[head]
        head += 1
        for d in range(4):
            n = step_cell(here, d)
            if n < 0 or not occupied(P, n) or bit64(seen, n):
                continue
            set64(seen, n)
            for k in range(1, count):
                if nb[k] == n:
                    found += 1
            if found == count:
                return False
            queue[tail] = <int16_t>n
            tail += 1
    return True


cdef int articulation_points(const GPlayer* P, uint64_t* ap) noexcept nogil:
    """Every cut vertex of the forest at once into the bitboard ``ap`` (64 words); returns how
    many. Tarjan's depth-first search (iterative): a non-root tile u is a cut vertex when a
    child v has ``low[v] >= disc[u]``; the root when it has two children or more. Each piece of
    a forest in several pieces gets its own search."""
    cdef int16_t idx[CELLS]
    cdef int16_t cellof[MAX_PILE + 8]
    cdef int16_t disc[MAX_PILE + 8]
    cdef int16_t low[MAX_PILE + 8]
    cdef int16_t parent[MAX_PILE + 8]
    cdef int16_t stack[MAX_PILE + 8]
    cdef uint8_t nexti[MAX_PILE + 8]
    cdef int cells[MAX_PILE]
    cdef int n, r, i, u, v, d, nc, sp, root, rootkids, clock = 0, count = 0, p
    memset(ap, 0, 64 * sizeof(uint64_t))
    n = board_cells(P.occ, cells)
    for i in range(n):
        idx[cells[i]] = <int16_t>i
        cellof[i] = <int16_t>cells[i]
        disc[i] = -1
    for root in range(n):
        if disc[root] >= 0:
            continue
        disc[root] = low[root] = <int16_t>clock
        clock += 1
        parent[root] = -1
        nexti[root] = 0
        sp = 0
        stack[0] = <int16_t>root
        rootkids = 0
        while sp >= 0:
            u = stack[sp]
            if nexti[u] < 4:
                d = nexti[u]
                nexti[u] += 1
                nc = step_cell(cellof[u], d)
                if nc < 0 or not occupied(P, nc):
                    continue
                v = idx[nc]
                if disc[v] < 0:
                    parent[v] = <int16_t>u
                    disc[v] = low[v] = <int16_t>clock
                    clock += 1
                    nexti[v] = 0
                    sp += 1
                    stack[sp] = <int16_t>v
                    if u == root:
                        rootkids += 1
                elif v != parent[u] and disc[v] < low[u]:
                    low[u] = disc[v]
            else:
                sp -= 1
                if sp >= 0:
                    p = stack[sp]
                    if low[u] < low[p]:
                        low[p] = low[u]
                    if p != root and low[u] >= disc[p]:
                        set64(ap, cellof[p])
        if rootkids >= 2:
            set64(ap, cellof[root])
    for r in range(64):
        count += GD_POPCOUNT(ap[r])
    return count


# -- walks (walks.py) -----------------------------------------------------------------------------
ctypedef struct WalkSearch:
    const GPlayer* P
    int start
    int length
    const uint8_t* want       # the sequence's colour codes (a sequence walk)
    bint start_walk
    int path[6]
    int colours[6]
    int* out
    int n

cdef void walk_dfs(WalkSearch* w, int here, int depth, int prev_dir, int code) noexcept nogil:
    cdef int d, n, colour, k, turn, c
    cdef bint clash
    if depth == w.length:
        if w.n < MAX_WALKS:
            w.out[w.n] = WALK_OFFSETS[w.length] + code
            w.n += 1
        return
    for d in range(4):
        n = step_cell(here, d)
        if n < 0:
            continue
        colour = colour_at(w.P, n)
        if colour == 0:
            continue
        clash = False
        for k in range(depth):
            if w.path[k] == n:
                clash = True
                break
        if clash:
            continue
        if w.start_walk:
            if 1 <= depth <= 4:
                for k in range(depth):
                    if w.colours[k] == colour:
                        clash = True
                        break
                if clash:
                    continue
            elif depth == 5 and colour != w.colours[0]:
                continue
        elif colour != w.want[depth]:
            continue
        if depth == 0:
            c = d
        else:
            turn = (d - prev_dir + 1) & 3
            c = code + 4 * turn * POW3[depth - 1]
        w.path[depth] = n
        w.colours[depth] = colour
        walk_dfs(w, n, depth + 1, d, c)

cdef inline void sort_unique(int* a, int* n) noexcept nogil:
    cdef int i, j, x, m
    for i in range(1, n[0]):
        x = a[i]
        j = i - 1
        while j >= 0 and a[j] > x:
            a[j + 1] = a[j]
            j -= 1
        a[j + 1] = x
    m = 0
    for i in range(n[0]):
        if m == 0 or a[m - 1] != a[i]:
            a[m] = a[i]
            m += 1
    n[0] = m

cdef int walks_from(const GGame* g, const GPlayer* P, int start, int tile, int* out) noexcept nogil:
    """The direction codes of every walk completing the mission on ``start``, sorted; ``tile``
    is the code of the mission it shows (``GState.back`` of the tile there), never UNSEEN."""
    cdef WalkSearch w
    cdef uint8_t rev[5]
    cdef int k, L
    w.P = P
    w.start = start
    w.out = out
    w.n = 0
    if g.is_start[tile]:
        w.start_walk = True
        w.length = START_WALK
        w.want = NULL
        walk_dfs(&w, start, 0, 0, 0)
    else:
        w.start_walk = False
        L = g.seqlen[tile]
        w.length = L
        w.want = g.seq[tile]
        walk_dfs(&w, start, 0, 0, 0)
        if not g.palindrome[tile]:
            for k in range(L):
                rev[k] = g.seq[tile][L - 1 - k]
            w.want = rev
            walk_dfs(&w, start, 0, 0, 0)
    sort_unique(out, &w.n)
    return w.n

cdef inline int path_end(int start, int code) noexcept nogil:
    # The last cell of the walk ``code`` from ``start`` (walks.path_from_code).
    cdef int k = 1, i, direction, cell = start
    while WALK_OFFSETS[k + 1] <= code:
        k += 1
    code -= WALK_OFFSETS[k]
    direction = code % 4
    code = code // 4
    for i in range(k):
        if i:
            direction = (direction + code % 3 + 3) % 4
            code = code // 3
        cell = step_cell(cell, direction)
    return cell


# -- queries --------------------------------------------------------------------------------------
cdef inline int reserve_count(const GPlayer* P) noexcept nogil:
    cdef int p, n = 0
    for p in range(PAWNS):
        if P.pawns[p] < 0:
            n += 1
    return n

cdef inline bint may_reset(const GState* s) noexcept nogil:
    # with an empty bag a reset would only throw the pool away: refused
    return (not s.reset_used and s.npile[s.current] > s.players[s.current].resets
            and count256(s.bag) > 0)

cdef inline int pile_start(const GState* s, int p) noexcept nogil:
    cdef int q, at = 0
    for q in range(p):
        at += s.npile[q]
    return at

cdef void pile_push(GState* s, int p, int tile, int pawn, int rnd) noexcept nogil:
    # The piles are one array grouped by player (player 0's missions first), each group in the
    # order its missions were completed: equal positions are equal bytes however play went.
    cdef int at = pile_start(s, p) + s.npile[p], i
    i = s.npile_total
    while i > at:
        s.pile_tile[i] = s.pile_tile[i - 1]
        s.pile_who[i] = s.pile_who[i - 1]
        s.pile_round[i] = s.pile_round[i - 1]
        i -= 1
    s.pile_tile[at] = <uint8_t>tile
    s.pile_who[at] = <uint8_t>(p * 4 + pawn)
    s.pile_round[at] = <uint16_t>rnd
    s.npile_total += 1
    s.npile[p] += 1

cdef int score_of(const GGame* g, const GState* s, int p) noexcept nogil:
    cdef int i, total = 0, at = pile_start(s, p)
    cdef const GPlayer* P = &s.players[p]
    for i in range(at, at + s.npile[p]):
        total += g.points[s.pile_tile[i]]
    for i in range(P.ncards):
        total += P.cards[i]
    return total - P.resets

cdef inline int tile_count(const GState* s, int p) noexcept nogil:
    return forest_size(&s.players[p]) + s.npile[p]

cdef inline int rounds_of(const GGame* g, const GState* s) noexcept nogil:
    return BASE_ROUNDS + GD_POPCOUNT(s.tasks_done)


# -- the turn (rules.py: _begin_turn ... _finish) -------------------------------------------------
cdef void enter_growth(GState* s) noexcept nogil:
    s.phase = PH_GROW if s.npool else PH_MISSIONS

cdef void after_draws(const GGame* g, GState* s) noexcept nogil:
    cdef const GPlayer* P = &s.players[s.current]
    cdef int p
    cdef bint none = True
    if g.solo and not g.has_position and s.round == 1:
        for p in range(PAWNS):
            if P.pawns[p] >= 0:
                none = False
        if none:
            s.phase = PH_START_PAWN
            return
    enter_growth(s)

cdef void begin_turn(const GGame* g, GState* s) noexcept nogil:
    cdef int need, bagn
    s.reset_used = 0
    s.turn_missions = 0
    need = POOL_SIZE - s.npool
    bagn = count256(s.bag)
    s.draws_left = <uint8_t>(need if need < bagn else bagn)
    if s.draws_left:
        s.phase = PH_DRAW
    else:
        after_draws(g, s)

cdef void pool_insert(GState* s, int tile) noexcept nogil:
    cdef int i = s.npool
    while i > 0 and s.pool[i - 1] > tile:
        s.pool[i] = s.pool[i - 1]
        i -= 1
    s.pool[i] = <uint8_t>tile
    s.npool += 1

cdef void pool_remove_slot(GState* s, int slot) noexcept nogil:
    cdef int i
    for i in range(slot, s.npool - 1):
        s.pool[i] = s.pool[i + 1]
    s.npool -= 1
    s.pool[s.npool] = 0

cdef void do_draw(const GGame* g, GState* s, int tile) noexcept nogil:
    clear64(s.bag, tile)
    if count256(s.bag) == 0:
        s.end_triggered = 1  # the bag ran out: this round is the last
    pool_insert(s, tile)
    s.draws_left -= 1
    if s.draws_left == 0:
        after_draws(g, s)

cdef void do_grow(const GGame* g, GState* s, int action) noexcept nogil:
    cdef int i, bagn
    if action == RESET:
        s.players[s.current].resets += 1
        s.reset_used = 1
        for i in range(s.npool):
            set64(s.discard, s.pool[i])
            s.pool[i] = 0
        s.npool = 0
        bagn = count256(s.bag)
        s.draws_left = <uint8_t>(POOL_SIZE if POOL_SIZE < bagn else bagn)
        if s.draws_left:
            s.phase = PH_DRAW
        else:
            enter_growth(s)
        return
    s.mission_side = action == TAKE_ONE
    if action == TAKE_ONE:
        s.to_place = 1
        # with hidden backs the tile is flipped (a reveal) before it is placed
        s.phase = PH_PLACE if g.open_backs else PH_PICK
        return
    s.to_place = 2 if s.npool >= 2 else s.npool
    s.phase = PH_PLACE

cdef void after_placement(GState* s) noexcept nogil:
    if s.to_place > 0 and s.npool:
        s.phase = PH_PLACE
        return
    s.to_place = 0
    s.mission_side = 0
    s.phase = PH_MISSIONS

cdef void do_place(const GGame* g, GState* s, int slot, int cell) noexcept nogil:
    cdef int p = s.current, tile = s.pool[slot], k
    cdef GPlayer* P = &s.players[p]
    pool_remove_slot(s, slot)
    s.picked = 0
    forest_add(g, s, p, cell, tile, s.mission_side)
    s.to_place -= 1
    if s.mission_side:
        if g.solo:
            s.placed = <int16_t>cell
            s.phase = PH_PAWN
            return
        for k in range(PAWNS):
            if P.pawns[k] < 0:
                P.pawns[k] = <int16_t>cell
                P.pawn_tile[k] = <uint8_t>tile
                break
    after_placement(s)

cdef void do_walk(const GGame* g, GState* s, int pawn, int code) noexcept nogil:
    cdef int p = s.current
    cdef GPlayer* P = &s.players[p]
    cdef int start = P.pawns[pawn]
    cdef int done = P.pawn_tile[pawn]
    cdef int end = path_end(start, code)
    cdef int end_tile
    forest_remove(s, p, start, done)
    pile_push(s, p, done, pawn, s.round)
    end_tile = cell_tile(s, p, end)
    set_colour(P, end, 0)  # the end tile turns mission side up
    P.pawns[pawn] = <int16_t>end
    P.pawn_tile[pawn] = <uint8_t>end_tile
    s.turn_missions += 1
    if s.back[end_tile] == UNSEEN:
        s.revealing = <uint8_t>end_tile
        s.phase = PH_REVEAL

cdef void do_reveal(GState* s, int code) noexcept nogil:
    # the tile being flipped shows the back coded ``code``; play goes on where it was
    s.back[s.revealing] = <uint8_t>code
    s.revealing = 0
    s.phase = PH_PLACE if s.picked else PH_MISSIONS

cdef inline int combo_card(int missions, const uint8_t* supply) noexcept nogil:
    cdef int value
    if missions < 2:
        return 0
    value = missions if missions < 5 else 5
    while value > 1:
        if supply[value - 2] > 0:
            return value
        value -= 1
    return 0

cdef bint task_met(const GGame* g, const GState* s, int i) noexcept nogil:
    cdef int kind = g.task_kind[i], value = g.task_value[i], k, j, seen = 0, total, r, n
    if kind == TASK_ALL_COLOURS:
        for k in range(s.npile_total):
            seen |= 1 << (s.pile_who[k] & 3)
        return seen == 15
    if kind == TASK_START_TILE:
        for k in range(s.npile_total):
            if s.pile_tile[k] == 0:
                return True
        return False
    if kind == TASK_COLOUR_POINTS:
        total = 0
        for k in range(s.npile_total):
            if (s.pile_who[k] & 3) == g.task_colour[i]:
                total += g.points[s.pile_tile[k]]
        return total >= value
    if kind == TASK_MISSIONS_IN_TURN:
        for k in range(s.npile_total):
            r = s.pile_round[k]
            n = 0
            for j in range(s.npile_total):
                if s.pile_round[j] == r:
                    n += 1
            if n >= value:
                return True
        return False
    if kind == TASK_LONG_MISSION:
        for k in range(s.npile_total):
            if g.walklen[s.back[s.pile_tile[k]]] >= value:
                return True
        return False
    return s.round >= BASE_ROUNDS and forest_size(&s.players[0]) <= value

cdef void finish(GState* s) noexcept nogil:
    s.phase = PH_OVER
    s.draws_left = 0

cdef void next_round(const GGame* g, GState* s) noexcept nogil:
    s.round += 1
    s.current = 0
    begin_turn(g, s)

cdef void end_round(const GGame* g, GState* s) noexcept nogil:
    cdef int i
    if g.solo:
        for i in range(g.ntasks):
            if not (s.tasks_done >> i) & 1 and task_met(g, s, i):
                s.tasks_done |= <uint8_t>(1 << i)
        if s.end_triggered or s.round >= rounds_of(g, s):
            finish(s)
            return
        if count256(s.bag):
            s.phase = PH_TRACK
            return
    elif s.end_triggered:
        finish(s)
        return
    next_round(g, s)

cdef void end_turn(const GGame* g, GState* s) noexcept nogil:
    cdef GPlayer* P = &s.players[s.current]
    cdef int card
    if not g.solo:
        card = combo_card(s.turn_missions, s.supply)
        if card:
            s.supply[card - 2] -= 1
            P.cards[P.ncards] = <uint8_t>card
            P.ncards += 1
        if s.npile[s.current] >= g.mission_limit:
            s.end_triggered = 1
    s.turn_missions = 0
    s.reset_used = 0
    if s.current < g.players - 1:
        s.current += 1
        begin_turn(g, s)
        return
    end_round(g, s)

cdef void round_track(const GGame* g, GState* s, int tile) noexcept nogil:
    cdef int colour = g.colour[tile], i, m = 0
    clear64(s.bag, tile)
    s.track[s.ntrack] = <uint8_t>tile
    s.ntrack += 1
    for i in range(s.npool):
        if g.colour[s.pool[i]] == colour:
            set64(s.discard, s.pool[i])
        else:
            s.pool[m] = s.pool[i]
            m += 1
    for i in range(m, s.npool):
        s.pool[i] = 0
    s.npool = <uint8_t>m
    if count256(s.bag) == 0:  # the bag ran out after a finished round: the game ends
        s.end_triggered = 1
        finish(s)
        return
    next_round(g, s)


# -- the KernelVTable functions -------------------------------------------------------------------
cdef int gd_current_player(const void* game, const void* state) noexcept nogil:
    cdef const GState* s = <const GState*>state
    if s.phase == PH_OVER or s.phase == PH_HORIZON:
        return KERNEL_TERMINAL
    if s.phase == PH_DRAW or s.phase == PH_TRACK or s.phase == PH_REVEAL:
        return KERNEL_CHANCE
    return s.current

cdef bint gd_is_terminal(const void* game, const void* state) noexcept nogil:
    cdef int phase = (<const GState*>state).phase
    return phase == PH_OVER or phase == PH_HORIZON

cdef int bag_actions(const GState* s, int* actions) noexcept nogil:
    cdef int w, n = 0
    cdef uint64_t x
    for w in range(4):
        x = s.bag[w]
        while x:
            actions[n] = DRAW_BASE + w * 64 + GD_CTZ(x) - 1
            n += 1
            x &= x - 1
    return n

cdef int face_draws(const GGame* g, const GState* s, int* actions, double* probs) noexcept nogil:
    # Hidden backs: a draw reveals a face; each face of the bag is named by its first tile there.
    cdef int counts[256]
    cdef int firsts[256]
    cdef int t, f, n = 0, total = 0, k
    for t in range(g.ncat):
        counts[t] = 0
    for t in range(1, g.n_set + 1):
        if bit64(s.bag, t):
            f = g.face[t]
            if counts[f] == 0:
                firsts[f] = t
            counts[f] += 1
            total += 1
    for t in range(1, g.n_set + 1):
        if bit64(s.bag, t):
            f = g.face[t]
            if firsts[f] == t:
                actions[n] = DRAW_BASE + t - 1
                if probs != NULL:
                    probs[n] = <double>counts[f] / total
                n += 1
    return n

cdef int back_outcomes(const GGame* g, const GState* s, int* actions, double* probs) noexcept nogil:
    # The unseen backs of the face of the tile being flipped, by code, with their exact odds.
    return back_outcomes_of(g, s, s.revealing, actions, probs)

cdef int back_outcomes_of(const GGame* g, const GState* s, int tile, int* actions,
                          double* probs) noexcept nogil:
    # The unseen backs of ``tile``'s face as reveal outcomes (``DRAW_BASE + code - 1``).
    cdef int f = g.face[tile], first = g.face_first[f], size = g.face_size[f]
    cdef int counts[256]
    cdef int i, j, t, u, total = 0, n = 0
    for i in range(size):
        counts[i] = 0
    for i in range(size):
        t = g.members[first + i]
        u = g.canon[t]
        if u == t:
            counts[i] = g.mult[u]
    for i in range(size):
        t = g.members[first + i]
        if s.back[t] != UNSEEN:
            for j in range(size):
                if g.members[first + j] == s.back[t]:
                    counts[j] -= 1
    for i in range(size):
        total += counts[i]
    for i in range(size):
        if counts[i] > 0:
            actions[n] = DRAW_BASE + g.members[first + i] - 1
            if probs != NULL:
                probs[n] = <double>counts[i] / total
            n += 1
    return n

cdef int gd_chance_outcomes(const void* game, const void* state, int* actions,
                            double* probs) noexcept nogil:
    cdef const GGame* g = <const GGame*>game
    cdef const GState* s = <const GState*>state
    cdef int n, i
    cdef double p
    if s.phase == PH_REVEAL:
        return back_outcomes(g, s, actions, probs)
    if s.phase != PH_DRAW and s.phase != PH_TRACK:
        return 0
    if not g.open_backs:
        return face_draws(g, s, actions, probs)
    n = bag_actions(s, actions)
    p = 1.0 / n
    for i in range(n):
        probs[i] = p
    return n

cdef int mission_actions(const GGame* g, const GState* s, int* actions) noexcept nogil:
    cdef const GPlayer* P = &s.players[s.current]
    cdef int n = 1, pawn, k, m, cell
    actions[0] = END_TURN
    for pawn in range(PAWNS):
        cell = P.pawns[pawn]
        if cell < 0 or splits_forest(P, cell):
            continue
        m = walks_from(g, P, cell, s.back[P.pawn_tile[pawn]], actions + n)
        for k in range(m):
            actions[n + k] += WALK_BASE + pawn * WALK_CODES
        n += m
    return n

cdef int gd_legal_actions(const void* game, const void* state, int* actions) noexcept nogil:
    cdef const GGame* g = <const GGame*>game
    cdef const GState* s = <const GState*>state
    cdef const GPlayer* P
    cdef int phase = s.phase, n = 0, p, slot, r, base
    cdef uint64_t f[64]
    cdef uint64_t o, x
    if phase == PH_REVEAL:
        return back_outcomes(g, s, actions, NULL)
    if phase == PH_DRAW or phase == PH_TRACK:
        return bag_actions(s, actions) if g.open_backs else face_draws(g, s, actions, NULL)
    if phase == PH_OVER or phase == PH_HORIZON:
        return 0
    P = &s.players[s.current]
    if phase == PH_START_PAWN:
        for p in range(PAWNS):
            actions[p] = PAWN_BASE + p
        return PAWNS
    if phase == PH_GROW:
        actions[0] = TAKE_TWO
        n = 1
        if reserve_count(P):
            actions[n] = TAKE_ONE
            n += 1
        if may_reset(s):
            actions[n] = RESET
            n += 1
        return n
    if phase == PH_PICK:
        for slot in range(s.npool):
            actions[slot] = g.pick_base + slot
        return s.npool
    if phase == PH_PLACE:
        for r in range(64):
            o = P.occ[r]
            x = (o << 1) | (o >> 1)
            if r > 0:
                x |= P.occ[r - 1]
            if r < 63:
                x |= P.occ[r + 1]
            f[r] = x & ~o
        for slot in range(s.npool):
            if s.picked and s.pool[slot] != s.picked:
                continue
            base = PLACE_BASE + slot * CELLS
            for r in range(64):
                x = f[r]
                while x:
                    actions[n] = base + r * 64 + GD_CTZ(x)
                    n += 1
                    x &= x - 1
        return n
    if phase == PH_PAWN:
        for p in range(PAWNS):
            if P.pawns[p] < 0:
                actions[n] = PAWN_BASE + p
                n += 1
        return n
    if phase == PH_MISSIONS:
        return mission_actions(g, s, actions)
    return 0

cdef bint gd_is_legal(const GGame* g, const GState* s, int action) noexcept nogil:
    """Is ``action`` legal? (Cheaper than listing for the common kinds.)"""
    cdef int phase = s.phase, slot, cell, r, b, d, n, pawn, code, m, k
    cdef const GPlayer* P
    cdef int codes[MAX_WALKS]
    if phase == PH_DRAW or phase == PH_TRACK or phase == PH_REVEAL:
        if g.open_backs and phase != PH_REVEAL:
            return (DRAW_BASE <= action < DRAW_BASE + MAX_TILES - 1
                    and bit64(s.bag, action - DRAW_BASE + 1))
        if phase == PH_REVEAL:
            m = back_outcomes(g, s, codes, NULL)
        else:
            m = face_draws(g, s, codes, NULL)
        for k in range(m):
            if codes[k] == action:
                return True
        return False
    if phase == PH_OVER:
        return False
    P = &s.players[s.current]
    if phase == PH_START_PAWN:
        return PAWN_BASE <= action < PAWN_BASE + PAWNS
    if phase == PH_PAWN:
        return PAWN_BASE <= action < PAWN_BASE + PAWNS and P.pawns[action - PAWN_BASE] < 0
    if phase == PH_GROW:
        return (action == TAKE_TWO or (action == TAKE_ONE and reserve_count(P) > 0)
                or (action == RESET and may_reset(s)))
    if phase == PH_PICK:
        return g.pick_base <= action < g.pick_base + s.npool
    if phase == PH_PLACE:
        if action < PLACE_BASE or action >= DRAW_BASE:
            return False
        slot = (action - PLACE_BASE) // CELLS
        cell = (action - PLACE_BASE) % CELLS
        if slot >= s.npool or occupied(P, cell) or (s.picked and s.pool[slot] != s.picked):
            return False
        for d in range(4):
            n = step_cell(cell, d)
            if n >= 0 and occupied(P, n):
                return True
        return False
    if phase == PH_MISSIONS:
        if action == END_TURN:
            return True
        if action < WALK_BASE or action >= PLACE_BASE:
            return False
        pawn = (action - WALK_BASE) // WALK_CODES
        code = (action - WALK_BASE) % WALK_CODES
        cell = P.pawns[pawn]
        if cell < 0 or splits_forest(P, cell):
            return False
        m = walks_from(g, P, cell, s.back[P.pawn_tile[pawn]], codes)
        for k in range(m):
            if codes[k] == code:
                return True
        return False
    return False

cdef void gd_apply_action(const void* game, void* state, int action) noexcept nogil:
    cdef const GGame* g = <const GGame*>game
    cdef GState* s = <GState*>state
    cdef int phase = s.phase, pawn
    cdef GPlayer* P = &s.players[s.current]
    if phase == PH_DRAW:
        do_draw(g, s, action - DRAW_BASE + 1)
    elif phase == PH_REVEAL:
        do_reveal(s, action - DRAW_BASE + 1)
    elif phase == PH_PICK:
        s.picked = s.pool[action - g.pick_base]
        s.revealing = s.picked
        s.phase = PH_REVEAL
    elif phase == PH_TRACK:
        round_track(g, s, action - DRAW_BASE + 1)
    elif phase == PH_START_PAWN:
        pawn = action - PAWN_BASE
        P.pawns[pawn] = ORIGIN_CELL
        P.pawn_tile[pawn] = <uint8_t>cell_tile(s, s.current, ORIGIN_CELL)
        enter_growth(s)
    elif phase == PH_GROW:
        do_grow(g, s, action)
    elif phase == PH_PLACE:
        do_place(g, s, (action - PLACE_BASE) // CELLS, (action - PLACE_BASE) % CELLS)
    elif phase == PH_PAWN:
        pawn = action - PAWN_BASE
        P.pawns[pawn] = s.placed
        P.pawn_tile[pawn] = <uint8_t>cell_tile(s, s.current, s.placed)
        s.placed = -1
        after_placement(s)
    elif action == END_TURN:
        end_turn(g, s)
        if g.horizon and s.phase != PH_OVER:
            s.phase = PH_HORIZON
    else:
        do_walk(g, s, (action - WALK_BASE) // WALK_CODES, (action - WALK_BASE) % WALK_CODES)

cdef void gd_returns(const void* game, const void* state, double* out) noexcept nogil:
    cdef const GGame* g = <const GGame*>game
    cdef const GState* s = <const GState*>state
    cdef int p, best = -2147483647, fewest = 2147483647, winners = 0
    cdef int scores[4]
    cdef int tiles[4]
    for p in range(g.players):
        out[p] = 0.0
    if s.phase == PH_HORIZON:
        for p in range(g.players):
            out[p] = evaluation_of(g, s, p)
        return
    if s.phase != PH_OVER:
        return
    if g.solo:
        out[0] = 1.0 if score_of(g, s, 0) >= g.threshold else 0.0
        return
    for p in range(g.players):
        scores[p] = score_of(g, s, p)
        tiles[p] = tile_count(s, p)
        if scores[p] > best:
            best = scores[p]
    for p in range(g.players):
        if scores[p] == best and tiles[p] < fewest:
            fewest = tiles[p]
    for p in range(g.players):
        if scores[p] == best and tiles[p] == fewest:
            winners += 1
    for p in range(g.players):
        if scores[p] == best and tiles[p] == fewest:
            out[p] = 1.0 / winners

cdef inline uint64_t rotl64(uint64_t x, int r) noexcept nogil:
    return (x << r) | (x >> (64 - r))

cdef uint64_t gd_hash(const void* game, const void* state) noexcept nogil:
    # xxHash64-style accumulation over the used words of the state, then SplitMix64's finaliser.
    cdef const GGame* g = <const GGame*>game
    cdef const uint64_t* w = <const uint64_t*>state
    cdef uint64_t h = 0x27D4EB2F165667C5ULL + g.vt.state_size
    cdef size_t i, nwords = g.vt.state_size // 8
    for i in range(nwords):
        h ^= rotl64(w[i] * 0xC2B2AE3D27D4EB4FULL, 31) * 0x9E3779B185EBCA87ULL
        h = rotl64(h, 27) * 0x9E3779B185EBCA87ULL + 0x85EBCA77C2B2AE63ULL
    return splitmix64_mix(h)


# -- the colour heuristic (heuristic.py): the hint engine's and the shared MCTS's leaves --------
cdef int lined_up_dfs(const GPlayer* P, int here, const uint8_t* want, int length, int depth,
                      int* path, int best) noexcept nogil:
    cdef int d, n, k
    cdef bint clash
    if depth > best:
        best = depth
    if depth == length or best == length:
        return best
    for d in range(4):
        n = step_cell(here, d)
        if n < 0 or colour_at(P, n) != want[depth]:
            continue
        clash = False
        for k in range(depth):
            if path[k] == n:
                clash = True
                break
        if clash:
            continue
        path[depth] = n
        best = lined_up_dfs(P, n, want, length, depth + 1, path, best)
    return best

cdef double progress(const GGame* g, const GState* s, int p) noexcept nogil:
    cdef const GPlayer* P = &s.players[p]
    cdef double total = 0.0
    cdef int pawn, tile, L, j, j2, k
    cdef int path[6]
    cdef uint8_t rev[5]
    for pawn in range(PAWNS):
        if P.pawns[pawn] < 0:
            continue
        tile = s.back[P.pawn_tile[pawn]]
        if tile == UNSEEN or g.is_start[tile]:
            continue  # the start walk's pattern is no fixed sequence; an unseen back: no colours
        L = g.seqlen[tile]
        for k in range(L):
            rev[k] = g.seq[tile][L - 1 - k]
        j = lined_up_dfs(P, P.pawns[pawn], g.seq[tile], L, 0, path, 0)
        j2 = lined_up_dfs(P, P.pawns[pawn], rev, L, 0, path, 0)
        if j2 > j:
            j = j2
        total += <double>(g.points[tile] * j) / L
    return total

cdef double standing(const GGame* g, const GState* s, int p) noexcept nogil:
    cdef const GPlayer* P = &s.players[p]
    cdef double total = 0.0
    cdef int pawn, tile
    for pawn in range(PAWNS):
        if P.pawns[pawn] < 0:
            continue
        tile = P.pawn_tile[pawn]
        if not g.is_start[tile]:
            total += g.points[tile]  # the points preview: known with the face
    return total

cdef double softmax_share(const double* values, int players, int player,
                          double temperature) noexcept nogil:
    """``player``'s share of ``exp((value - top) / temperature)`` over the players: both
    heuristics' chance to win from every player's projected score."""
    cdef double out[4]
    cdef double top = values[0], total = 0.0
    cdef int p
    for p in range(1, players):
        if values[p] > top:
            top = values[p]
    for p in range(players):
        out[p] = exp((values[p] - top) / temperature)
        total += out[p]
    return out[player] / total

from libc.math cimport sqrt

cdef double SOLO_ROUND_POINTS = 5.0    # heuristic.py's ROUND_POINTS ... SPREAD_FLOOR
cdef double SOLO_PROGRESS_SHARE = 0.4
cdef double SOLO_TASK_POINTS = 1.2
cdef double SOLO_SPREAD_PER_ROUND = 3.75
cdef double SOLO_SPREAD_FLOOR = 1.0

cdef bint never_met(const GGame* g, const GState* s, int i) noexcept nogil:
    """Level task ``i`` can never be met: the start tile's, with player 0's start tile neither in
    the forest nor in the pile (a position without one: state_parts.never_met)."""
    cdef int k
    if g.task_kind[i] != TASK_START_TILE or s.players[0].start_cell >= 0:
        return False
    for k in range(s.npile_total):
        if s.pile_tile[k] == 0:
            return False
    return True

cdef double solo_chance(const GGame* g, const GState* s) noexcept nogil:
    """The estimated chance of reaching the level's threshold (heuristic.solo_chance)."""
    cdef int left = rounds_of(g, s) - s.round + 1
    cdef int pending = 0, i
    cdef double projected, spread, scale
    for i in range(g.ntasks):
        if not (s.tasks_done >> i) & 1 and not never_met(g, s, i):
            pending += 1
    if left < 0:
        left = 0
    if s.end_triggered and left > 1:  # the bag ran out: this round is the last
        left = 1
    projected = (score_of(g, s, 0) + SOLO_PROGRESS_SHARE * progress(g, s, 0)
                 + SOLO_ROUND_POINTS * left + SOLO_TASK_POINTS * pending)
    spread = sqrt(SOLO_SPREAD_PER_ROUND * SOLO_SPREAD_PER_ROUND * left
                  + SOLO_SPREAD_FLOOR * SOLO_SPREAD_FLOOR)
    scale = spread * sqrt(3.0) / 3.141592653589793
    return 1.0 / (1.0 + exp(-(projected - g.threshold + 0.5) / scale))

cdef double colour_heuristic(const GGame* g, const GState* s, int player) noexcept nogil:
    cdef double prospects[4]
    cdef int p
    if g.solo:
        return solo_chance(g, s)
    for p in range(g.players):
        prospects[p] = score_of(g, s, p) + 0.5 * progress(g, s, p) + 0.25 * standing(g, s, p)
    return softmax_share(prospects, g.players, player, 5.0)


# -- the heuristic: the planner's evaluation (evaluation.py) -------------------------------------
cdef double WEIGHT_C[7]
WEIGHT_C[:] = [0.95, 0.75, 0.5, 0.3, 0.15, 0.07, 0.03]
cdef double START_POW[7]          # START_FILL ** d
cdef double START_BEST[7]         # max over e >= d of WEIGHT[e] * START_FILL ** e
cdef double PLAIN_BEST[7]         # max over e >= d of WEIGHT[e]
cdef int _e, _d
for _e in range(7):
    START_POW[_e] = pow(0.8, _e)
for _d in range(7):
    START_BEST[_d] = 0.0
    PLAIN_BEST[_d] = 0.0
    for _e in range(_d, 7):
        if WEIGHT_C[_e] * START_POW[_e] > START_BEST[_d]:
            START_BEST[_d] = WEIGHT_C[_e] * START_POW[_e]
        if WEIGHT_C[_e] > PLAIN_BEST[_d]:
            PLAIN_BEST[_d] = WEIGHT_C[_e]

cdef enum:
    MAX_DEFICIENCY = 6
    START_BUDGET = 4

cdef double TILE_VALUE = 0.6
cdef double EDGE_VALUE = 0.15
cdef double RESERVE_VALUE = 2.5
cdef double PAWN_STREAM = 0.25
cdef double TASK_VALUE = 7.0
cdef double SOLO_SCALE = 30.0
cdef double TEMPERATURE = 5.0


ctypedef GPlayer ProspectBoard  # read by step_cell, colour_at and occupied (above)
include "guardians_prospect.pxi"


cdef double prospect_of(const GGame* g, const GPlayer* P, int cell, int code, double points,
                        const double* avail, int budget) noexcept nogil:
    """The prospect of the mission coded ``code`` on ``cell`` (evaluation.prospect)."""
    cdef Prospect w
    cdef int d, L, i
    w.board = P
    w.avail = avail
    w.weight = WEIGHT_C
    w.start_pow = START_POW
    w.start_best = START_BEST
    w.points = points
    for d in range(7):
        w.bound[d] = points * PLAIN_BEST[d]
    w.best = w.bound[6] if budget >= MAX_DEFICIENCY else 0.0
    w.path[0] = cell
    w.depth = 1
    if g.is_start[code]:
        w.budget = budget if budget < START_BUDGET else START_BUDGET
        prospect_start_walks(&w, cell, 0)
        return w.best
    w.budget = budget
    L = g.seqlen[code]
    w.k = L + 1
    for i in range(L):
        w.want[i] = g.seq[code][i]
    prospect_templates(&w, cell, 0, 1.0)
    if not g.palindrome[code]:
        for i in range(L):
            w.want[i] = g.seq[code][L - 1 - i]
        w.depth = 1
        prospect_templates(&w, cell, 0, 1.0)
    return w.best


cdef double mission_value(const GGame* g, const GPlayer* P, int cell, int code, double points,
                          const double* avail, int turns) noexcept nogil:
    cdef int budget = 2 * turns
    cdef double v
    if budget > MAX_DEFICIENCY:
        budget = MAX_DEFICIENCY
    v = prospect_of(g, P, cell, code, points, avail, budget)
    if v >= points * WEIGHT_C[0] and splits_forest(P, cell):
        v = points * WEIGHT_C[1]
    return v


cdef int future_turns(const GGame* g, const GState* s, int player) noexcept nogil:
    cdef int later, most = 0, p, rounds, left
    if g.solo:
        left = rounds_of(g, s) - s.round
        return left if left > 0 else 0
    later = 1 if player > s.current else 0
    if s.end_triggered:
        return later
    for p in range(g.players):
        if s.npile[p] > most:
            most = s.npile[p]
    rounds = count256(s.bag) // (2 * g.players)
    left = g.mission_limit - most
    if left < 0:
        left = 0
    if left < rounds:
        rounds = left
    return rounds + later


cdef void next_pool(const GGame* g, const GState* s, double* avail) noexcept nogil:
    """The chance of each colour code 1..6 in the next pool (evaluation.next_pool)."""
    cdef int bag[7]
    cdef int left[7]
    cdef int c, t, n = 0, draws
    cdef double share, fresh, keep
    for c in range(7):
        bag[c] = 0
        left[c] = 0
    for t in range(1, g.n_set + 1):
        if bit64(s.bag, t):
            bag[g.colour[t]] += 1
            n += 1
    for t in range(s.npool):
        left[g.colour[s.pool[t]]] += 1
    draws = POOL_SIZE - s.npool
    if draws < 0:
        draws = 0
    draws += 1
    for c in range(1, 7):
        share = <double>bag[c] / n if n else 0.0
        fresh = 1.0 - pow(1.0 - share, draws)
        if left[c]:
            keep = 1.0 - share if n else 1.0
            avail[c] = keep + (1.0 - keep) * fresh
        else:
            avail[c] = fresh


cdef double player_value(const GGame* g, const GState* s, int player,
                         const double* avail) noexcept nogil:
    """The projected final score of ``player`` (evaluation.value)."""
    cdef const GPlayer* P = &s.players[player]
    cdef double total = <double>score_of(g, s, player), v
    cdef int i, pawn, tile, code, turns, cell, n, edges = 0, forest_side = 0, nb
    cdef int codes[256]
    cdef double probs[256]
    cdef int cells[MAX_PILE]
    if not g.solo and player == s.current and s.phase != PH_OVER:
        total += combo_card(s.turn_missions, s.supply)
    if g.solo:
        for i in range(g.ntasks):
            if not (s.tasks_done >> i) & 1 and task_met(g, s, i):
                total += TASK_VALUE
    turns = future_turns(g, s, player)
    if turns <= 0:
        return total
    for pawn in range(PAWNS):
        cell = P.pawns[pawn]
        if cell < 0:
            if turns > 1:
                total += RESERVE_VALUE
            continue
        tile = P.pawn_tile[pawn]
        code = s.back[tile]
        if code == UNSEEN:  # being flipped: the mean over the backs it may show
            v = 0.0
            n = back_outcomes_of(g, s, tile, codes, probs)
            for i in range(n):
                v += probs[i] * mission_value(g, P, cell, codes[i] - DRAW_BASE + 1,
                                              g.points[tile], avail, turns)
        else:
            v = mission_value(g, P, cell, code, g.points[tile], avail, turns)
        total += v + PAWN_STREAM * turns
    for i in range(board_cells(P.occ, cells)):
        cell = cells[i]
        if colour_at(P, cell):
            forest_side += 1
        nb = step_cell(cell, 2)
        if nb >= 0 and occupied(P, nb):
            edges += 1
        nb = step_cell(cell, 1)
        if nb >= 0 and occupied(P, nb):
            edges += 1
    total += TILE_VALUE * forest_side + EDGE_VALUE * edges
    return total


cdef extern from *:
    """
    static __thread unsigned long long gd_memo_hash = 0;
    static __thread const void* gd_memo_game = 0;
    static __thread int gd_memo_valid = 0;
    static __thread double gd_memo_values[4];
    """
    unsigned long long gd_memo_hash
    const void* gd_memo_game
    int gd_memo_valid
    double gd_memo_values[4]


cdef double gd_heuristic(const void* game, const void* state, int player) noexcept nogil:
    """The colour heuristic (heuristic.py) on a game; the planner's evaluation on a search twin
    (the ``mcts`` agent's search)."""
    cdef const GState* s = <const GState*>state
    cdef double out[4]
    if s.phase == PH_OVER:
        gd_returns(game, state, out)
        return out[player]
    if (<const GGame*>game).horizon:
        return evaluation_of(<const GGame*>game, s, player)
    return colour_heuristic(<const GGame*>game, s, player)


cdef double evaluation_of(const GGame* g, const GState* s, int player) noexcept nogil:
    """The heuristic of a state not over (evaluation.heuristic)."""
    cdef double avail[7]
    cdef double x
    cdef int p
    cdef uint64_t h
    global gd_memo_hash, gd_memo_game, gd_memo_valid
    cdef const void* game = <const void*>g
    if g.solo:
        next_pool(g, s, avail)
        x = (player_value(g, s, 0, avail) - g.threshold) / SOLO_SCALE
        return 1.0 / (1.0 + exp(-x))
    # the values of every player are needed for each player's share: one state's values are
    # kept (per thread) for the calls that follow on it
    h = gd_hash(game, s)
    if not (gd_memo_valid and gd_memo_game == game and gd_memo_hash == h):
        next_pool(g, s, avail)
        for p in range(g.players):
            gd_memo_values[p] = player_value(g, s, p, avail)
        gd_memo_hash = h
        gd_memo_game = game
        gd_memo_valid = 1
    return softmax_share(gd_memo_values, g.players, player, TEMPERATURE)




cdef KernelVTable GUARDIANS_VTABLE
GUARDIANS_VTABLE.name = "guardians"
GUARDIANS_VTABLE.state_size = sizeof(GState)
GUARDIANS_VTABLE.num_players = 1
GUARDIANS_VTABLE.num_distinct_actions = DRAW_BASE
GUARDIANS_VTABLE.max_actions = 1
GUARDIANS_VTABLE.current_player = gd_current_player
GUARDIANS_VTABLE.is_terminal = gd_is_terminal
GUARDIANS_VTABLE.legal_actions = gd_legal_actions
GUARDIANS_VTABLE.chance_outcomes = gd_chance_outcomes
GUARDIANS_VTABLE.apply_action = gd_apply_action
GUARDIANS_VTABLE.returns = gd_returns
GUARDIANS_VTABLE.hash = gd_hash
GUARDIANS_VTABLE.heuristic = gd_heuristic
GUARDIANS_VTABLE.utility_min = 0.0
GUARDIANS_VTABLE.utility_max = 1.0
GUARDIANS_VTABLE.pack = NULL


# -- building the game data ----------------------------------------------------------------------
_COLOUR_CODES = {c: i + 1 for i, c in enumerate("BGREPY")}
_COLOUR_LETTERS = " BGREPY"
_TASK_CODES = {"all_colours": TASK_ALL_COLOURS, "start_tile": TASK_START_TILE,
               "colour_points": TASK_COLOUR_POINTS, "missions_in_turn": TASK_MISSIONS_IN_TURN,
               "long_mission": TASK_LONG_MISSION, "small_forest": TASK_SMALL_FOREST}


cdef inline int cell_index(object cell):
    return (cell[0] - BOARD_MIN) * BOARD + (cell[1] - BOARD_MIN)


cdef inline tuple cell_pair(int cell):
    return ((cell >> 6) + BOARD_MIN, (cell & 63) + BOARD_MIN)


cdef int max_actions_bound(int ncat, int players, int n_set) noexcept:
    # Placements: 6 pool slots x the frontier of the largest forest (at most 2 n + 2 cells);
    # missions: end turn + 4 pawns x 4 * 3**5 walks; chance: the bag; pawns and growth: 4.
    cdef int forest = ncat + 1
    cdef int frontier = 2 * forest + 2
    cdef int most = 1 + PAWNS * MAX_WALKS
    if frontier > CELLS:
        frontier = CELLS
    if POOL_SIZE * frontier > most:
        most = POOL_SIZE * frontier
    if n_set > most:
        most = n_set
    return most


cdef int _build(GGame* g, object ref) except -1:
    from solver.errors import OptionError
    from solver.games.guardians.connectivity import is_connected

    cdef GState* s = &g.initial
    cdef GPlayer* P
    cdef int p, k, t
    memset(g, 0, sizeof(GGame))
    memcpy(&g.vt, &GUARDIANS_VTABLE, sizeof(KernelVTable))
    catalogue = ref.catalogue
    ncat = max(catalogue) + 1
    if ncat > MAX_TILES - 1:
        raise OptionError(
            f"the guardians kernel holds at most {MAX_TILES - 2} tiles (tile set and position "
            f"together), not {ncat - 1}; use the reference engine (--engine reference, "
            "engine='reference')")
    g.players = ref.players
    g.solo = 1 if ref.solo else 0
    g.has_position = 1 if ref.position is not None else 0
    g.n_set = len(ref.tiles)
    g.ncat = ncat
    g.mission_limit = ref.mission_limit
    if ref.level is not None:
        g.threshold = ref.level.threshold
        if len(ref.level.tasks) > MAX_TASKS:
            raise OptionError(f"the guardians kernel holds at most {MAX_TASKS} level tasks")
        g.ntasks = len(ref.level.tasks)
        for i, task in enumerate(ref.level.tasks):
            g.task_kind[i] = _TASK_CODES.get(task.kind, TASK_SMALL_FOREST)
            g.task_value[i] = task.value
            g.task_colour[i] = task.colour
    g.open_backs = 1 if ref.open_backs else 0
    g.pick_base = DRAW_BASE + g.n_set
    faces = {}
    for tile in ref.tiles.tiles:
        faces.setdefault(tile.face, []).append(tile.id)
    at = 0
    for f, (face, ids) in enumerate(faces.items()):
        g.face_first[f] = at
        g.face_size[f] = len(ids)
        for t in ids:
            g.face[t] = f
            g.members[at] = t
            g.canon[t] = ref.canon[t]
            at += 1
    for u, n in ref.multiplicity.items():
        g.mult[u] = n
    for tid, tile in catalogue.items():
        if 1 <= tid <= g.n_set:
            tile = ref.tiles.tile(tid)  # the data of every back, whoever has seen it
        g.colour[tid] = _COLOUR_CODES.get(tile.colour, 0) if tile.colour else 0
        g.is_start[tid] = 1 if tile.start else 0
        g.points[tid] = tile.points
        g.walklen[tid] = tile.walk_length
        seq = tile.sequence
        g.seqlen[tid] = len(seq)
        for j, letter in enumerate(seq):
            g.seq[tid][j] = _COLOUR_CODES[letter]
        g.palindrome[tid] = 1 if seq == seq[::-1] else 0
    if ref.position is not None and not is_connected(ref._position_forest):
        raise OptionError("the guardians kernel needs a starting forest in one piece")
    g.vt.num_players = g.players
    g.vt.num_distinct_actions = DRAW_BASE + g.n_set + POOL_SIZE
    g.vt.state_size = HEADER_SIZE + g.players * sizeof(GPlayer)
    g.vt.max_actions = max_actions_bound(ncat, g.players, g.n_set)
    # the initial state (rules.GuardiansState.__init__)
    memset(s, 0, sizeof(GState))
    for t in range(MAX_TILES):
        s.tile_cell[t] = -1
        s.back[t] = t if t < ncat else UNSEEN
    tokens = set(ref._position_tokens)
    for t in range(1, g.n_set + 1):
        if t not in tokens:
            set64(s.bag, t)
        if not g.open_backs:
            s.back[t] = UNSEEN
    if not g.solo:
        for k in range(4):
            s.supply[k] = COMBO_SUPPLY_C[k]
    s.round = 1
    s.placed = -1
    s.phase = PH_DRAW
    for p in range(g.players):
        for k in range(PAWNS):
            s.players[p].pawns[k] = -1
        s.players[p].start_cell = -1
        forest_add(g, s, p, ORIGIN_CELL, 0, True)
        if not g.solo:
            s.players[p].pawns[0] = ORIGIN_CELL
            s.players[p].pawn_tile[0] = 0
    if ref.position is not None:
        P = &s.players[0]
        memset(P.occ, 0, sizeof(P.occ))
        memset(P.col, 0, sizeof(P.col))
        P.start_cell = -1
        for cell, face in ref._position_forest.items():
            forest_add(g, s, 0, cell_index(cell), face.tile, face.mission)
        for k, cell in enumerate(ref._position_pawns):
            if cell is None:
                P.pawns[k] = -1
                P.pawn_tile[k] = 0
            else:
                P.pawns[k] = cell_index(cell)
                P.pawn_tile[k] = ref._position_forest[cell].tile
        s.phase = PH_MISSIONS
        s.end_triggered = 1 if count256(s.bag) == 0 else 0
    else:
        begin_turn(g, s)
    return 0


# -- the Python level -----------------------------------------------------------------------------
_PHASE_NAMES = ("draw", "start_pawn", "grow", "place", "pawn", "missions", "track", "over",
                "pick", "reveal", "horizon")
_PAWN_NAMES = ("blue", "green", "yellow", "red")


# -- the Python face (``kernel_face.pxi``: the plumbing every kernel shares) -------------------
ctypedef GState KernelStruct
ctypedef GGame KernelData
ctypedef GuardiansKernelGame KernelGame
ctypedef GuardiansKernelState KernelState
include "kernel_face.pxi"


cdef inline GuardiansKernelState kernel_new_state():
    return GuardiansKernelState.__new__(GuardiansKernelState)


cdef inline void kernel_initial(const GGame* g, GState* s) noexcept nogil:
    memcpy(s, &g.initial, sizeof(GState))


cdef inline bint kernel_is_legal(const GGame* g, const GState* s, int a) noexcept nogil:
    return gd_is_legal(g, s, a)


cdef double kernel_tally(const void* game, const void* state) noexcept nogil:
    """``random_playouts`` sums player 0's final scores."""
    return score_of(<const GGame*>game, <const GState*>state, 0)


cdef class GuardiansKernelGame(KernelGameFace):
    """Forest guardians, compiled kernel (see ``solver.games.guardians.kernel``).

    Takes the reference game's options; the reference game it builds (``reference``) holds the
    data (tile set, level, position) and does all validation.
    """

    cdef readonly object reference

    def __init__(self, players=None, **options):
        from solver.games.guardians.rules import GuardiansGame

        ref = GuardiansGame(players, **options)
        if self.data == NULL:
            self.data = <GGame*>malloc(sizeof(GGame))
            if self.data == NULL:
                raise MemoryError()
        _build(self.data, ref)
        self.handle.vtable = &self.data.vt
        self.handle.game = self.data
        self.reference = ref

    # -- the reference's attributes --------------------------------------------------------------
    @property
    def players(self):
        return self.reference.players

    @property
    def solo(self):
        return self.reference.solo

    @property
    def tiles(self):
        return self.reference.tiles

    @property
    def level(self):
        return self.reference.level

    @property
    def position(self):
        return self.reference.position

    @property
    def codec(self):
        return self.reference.codec

    @property
    def catalogue(self):
        return self.reference.catalogue

    @property
    def mission_limit(self):
        return self.reference.mission_limit

    @property
    def open_backs(self):
        return self.reference.open_backs

    @property
    def face_members(self):
        return self.reference.face_members

    @property
    def canon(self):
        return self.reference.canon

    @property
    def multiplicity(self):
        return self.reference.multiplicity

    @property
    def _position_tokens(self):
        return self.reference._position_tokens

    def back(self, code):
        return self.reference.back(code)

    def face_of(self, tile_id):
        return self.reference.face_of(tile_id)

    @property
    def _position_forest(self):
        return self.reference._position_forest

    @property
    def _position_pawns(self):
        return self.reference._position_pawns

    def tile(self, tile_id):
        return self.reference.tile(tile_id)

    # -- the protocol ----------------------------------------------------------------------------
    def num_players(self):
        return self.data.players

    def num_distinct_actions(self):
        return self.data.vt.num_distinct_actions

    def max_chance_outcomes(self):
        return self.data.n_set

    def state_from_json(self, text):
        """Read a state written by ``to_json`` (either engine's), validated by the reference."""
        self._check()
        return self.from_reference(self.reference.state_from_json(text))

    def from_reference(self, ref_state):
        """The kernel state equal to the reference state ``ref_state`` (of this game's twin)."""
        self._check()
        cdef GuardiansKernelState state = self._blank()
        cdef GState* s = &state.st
        cdef GGame* g = self.data
        cdef GPlayer* P
        cdef int p, k, i
        for k in range(MAX_TILES):
            s.tile_cell[k] = -1
        for t in ref_state.bag:
            set64(s.bag, t)
        for t in ref_state.discard:
            set64(s.discard, t)
        for t in ref_state.pool:
            pool_insert(s, t)
        for i, t in enumerate(ref_state.track):
            s.track[i] = t
        s.ntrack = len(ref_state.track)
        for k in range(4):
            s.supply[k] = ref_state.supply[k]
        s.current = ref_state.current
        s.round = ref_state.round
        s.phase = int(ref_state.phase)
        s.draws_left = ref_state.draws_left
        s.reset_used = ref_state.reset_used
        s.to_place = ref_state.to_place
        s.mission_side = ref_state.mission_side
        s.placed = -1 if ref_state.placed is None else cell_index(ref_state.placed)
        s.turn_missions = ref_state.turn_missions
        s.end_triggered = ref_state.end_triggered
        memcpy(s.back, g.initial.back, sizeof(s.back))
        for t, code in ref_state.backs.items():
            s.back[t] = code
        s.picked = ref_state.picked or 0
        s.revealing = ref_state.revealing or 0
        for i, done in enumerate(ref_state.tasks_done):
            if done:
                s.tasks_done |= 1 << i
        for p, who in enumerate(ref_state.people):
            P = &s.players[p]
            P.start_cell = -1
            for cell, face in who.forest.items():
                forest_add(g, s, p, cell_index(cell), face.tile, face.mission)
            for k, cell in enumerate(who.pawns):
                if cell is None:
                    P.pawns[k] = -1
                else:
                    P.pawns[k] = cell_index(cell)
                    P.pawn_tile[k] = who.forest[cell].tile
            P.resets = who.resets
            for i, card in enumerate(who.cards):
                P.cards[i] = card
            P.ncards = len(who.cards)
        for p, who in enumerate(ref_state.people):
            for tile, pawn, rnd in who.pile:
                pile_push(s, p, tile, pawn, rnd)
        return state

    def search_twin(self):
        """A twin of this game for searching one turn: the same rules, except that ``end turn``
        (unless it ends the game) is a terminal node whose returns are the heuristic (the
        planner's evaluation) of the position reached. ``twin.transfer(state)`` copies a state
        of this game into the twin. Internal: the ``mcts`` agent's search."""
        self._check()
        cdef GuardiansKernelGame twin = GuardiansKernelGame.__new__(GuardiansKernelGame)
        twin.data = <GGame*>malloc(sizeof(GGame))
        if twin.data == NULL:
            raise MemoryError()
        memcpy(twin.data, self.data, sizeof(GGame))
        twin.data.horizon = 1
        twin.handle.vtable = &twin.data.vt
        twin.handle.game = twin.data
        twin.reference = self.reference
        return twin

    def transfer(self, GuardiansKernelState state):
        """A state of this game holding a copy of ``state``'s struct (a state of the same game
        data, e.g. of the game this one is the search twin of)."""
        self._check()
        cdef GuardiansKernelState out = self._blank()
        memcpy(&out.st, &state.st, self.data.vt.state_size)
        return out

    def __reduce__(self):
        ref = self.reference
        options = {"tiles": ref.tiles, "position": ref.position, "open_backs": ref.open_backs}
        if ref.level is not None:
            options["level"] = ref.level
        return (_make_game, (type(self), ref.players, options))

    def __repr__(self):
        extra = f", level={self.reference.level.number}" if self.reference.level is not None else ""
        extra += ", open_backs=True" if self.reference.open_backs else ""
        return f"GuardiansGame(players={self.reference.players}{extra}, engine='kernel')"


def _make_game(cls, players, options):
    """Unpickling helper."""
    return cls(players, **options)


cdef class GuardiansKernelState(KernelStateFace):
    """One position of forest guardians, compiled kernel: a ``GState`` struct and its game."""

    # -- the protocol (the rest: ``kernel_face.pxi``) --------------------------------------------
    def is_terminal(self):
        return self.st.phase == PH_OVER or self.st.phase == PH_HORIZON

    def is_chance_node(self):
        return self.st.phase == PH_DRAW or self.st.phase == PH_TRACK or self.st.phase == PH_REVEAL

    def returns(self):
        cdef double out[4]
        gd_returns(self.game.data, &self.st, out)
        return [out[p] for p in range(self.game.data.players)]

    def chance_outcomes(self):
        """The outcomes with their exact probabilities (see the reference's method)."""
        cdef int actions[MAX_TILES]
        cdef double probs[MAX_TILES]
        cdef int n, i
        n = gd_chance_outcomes(self.game.data, &self.st, actions, probs)
        return [(actions[i], probs[i]) for i in range(n)]

    # -- scores ----------------------------------------------------------------------------------
    def scores(self):
        """Each player's score now: mission points + combo cards - resets."""
        return [score_of(self.game.data, &self.st, p) for p in range(self.game.data.players)]

    def score(self, int player):
        self._player(player)
        return score_of(self.game.data, &self.st, player)

    def tile_count(self, int player):
        """Tiles in the player's forest and pile together (the tie-break: fewer wins)."""
        self._player(player)
        return tile_count(&self.st, player)

    def heuristic(self, int player=0):
        """The kernel's heuristic (the twin of ``heuristic.heuristic``), in [0, 1]."""
        self._player(player)
        return gd_heuristic(self.game.data, &self.st, player)

    cdef int _player(self, int player) except -1:
        if not 0 <= player < self.game.data.players:
            raise IndexError(f"player {player} is not in this game (0..{self.game.data.players - 1})")
        return 0

    def rounds(self):
        """Solo: the rounds on the track, 12 plus one per completed level task."""
        return rounds_of(self.game.data, &self.st)

    def colour_points(self):
        """Solo: mission points credited to each pawn colour (blue, green, yellow, red)."""
        out = [0] * PAWNS
        for tile, pawn, _ in self._pile(0):
            out[pawn] += self.game.data.points[tile]
        return out

    def task_met(self, task):
        """Whether the solo player meets ``task`` now (the reference's method on this state)."""
        from solver.games.guardians.rules import GuardiansState

        return GuardiansState.task_met(self, task)

    def pawn_name(self, int pawn):
        return f"{_PAWN_NAMES[pawn]} pawn" if self.game.data.solo else "pawn"

    def walks(self):
        """The legal walks now, as ``(pawn, mission cell, path)`` (empty off the mission step)."""
        from solver.games.guardians.walks import path_from_code

        if self.st.phase != PH_MISSIONS:
            return []
        out = []
        for action in self.legal_actions()[1:]:
            pawn, code = divmod(action - WALK_BASE, WALK_CODES)
            cell = cell_pair(self.st.players[self.st.current].pawns[pawn])
            out.append((pawn, cell, path_from_code(cell, code)))
        return out

    # -- labels ----------------------------------------------------------------------------------
    def action_to_string(self, action):
        cdef int a = -1
        cdef GState* s = &self.st
        if type(action) is not int:
            from solver.game import as_action_id

            action = as_action_id(action)
        if not 0 <= action < self.game.data.vt.num_distinct_actions:
            from solver.errors import IllegalActionError

            raise IllegalActionError(
                f"{action} is not a guardians action id "
                f"(0..{self.game.data.vt.num_distinct_actions - 1})")
        a = action
        if a == END_TURN:
            return "end turn"
        if a == TAKE_TWO:
            return "take 2 tiles"
        if a == TAKE_ONE:
            return "take 1 tile"
        if a == RESET:
            return "reset the pool"
        if a < WALK_BASE:
            colour = _PAWN_NAMES[a - PAWN_BASE]
            if s.phase == PH_PAWN and s.placed >= 0:
                r, c = cell_pair(s.placed)
                return f"put {colour} pawn on ({r},{c})"
            return f"put {colour} pawn on the start tile"
        if a >= self.game.data.pick_base:
            slot = a - self.game.data.pick_base
            if s.phase != PH_PICK or slot >= s.npool:
                return f"flip the pool's tile {slot + 1}"
            return f"flip tile {s.pool[slot]}"
        if a >= DRAW_BASE:
            if s.phase == PH_TRACK:
                return f"round track: tile {a - DRAW_BASE + 1}"
            if s.phase == PH_REVEAL and s.revealing:
                back = "-".join(self.game.reference.back(a - DRAW_BASE + 1))
                return f"reveal tile {s.revealing}: {back}"
            return f"draw tile {a - DRAW_BASE + 1}"
        if a >= PLACE_BASE:
            slot, cell = divmod(a - PLACE_BASE, CELLS)
            r, c = cell_pair(cell)
            if s.phase != PH_PLACE or slot >= s.npool:
                return f"place the pool's tile {slot + 1} at ({r},{c})"
            side = " mission side up" if s.mission_side else ""
            return f"place tile {s.pool[slot]} at ({r},{c}){side}"
        pawn, code = divmod(a - WALK_BASE, WALK_CODES)
        start = s.players[s.current].pawns[pawn] if s.phase != PH_OVER else -1
        name = self.pawn_name(pawn)
        if start < 0:
            return f"walk {name}: code {code}"
        from solver.games.guardians.walks import path_from_code

        here = cell_pair(start)
        cells = " ".join(f"({r},{c})" for r, c in path_from_code(here, code))
        return f"walk {name}: ({here[0]},{here[1]}) -> {cells}"

    def string_to_action(self, label):
        """The legal action whose label is ``label`` (case and runs of spaces ignored): the
        reference's method, run on this state's attributes."""
        from solver.games.guardians.rules import GuardiansState

        return GuardiansState.string_to_action(self, label)

    def _parse_label(self, label):
        from solver.games.guardians.rules import GuardiansState

        return GuardiansState._parse_label(self, label)

    def _safe_label(self, action):
        from solver.errors import IllegalActionError

        try:
            return self.action_to_string(action)
        except (IllegalActionError, ValueError, KeyError, IndexError):
            return "not an action"

    # -- the reference's attributes, read-only -----------------------------------------------
    cdef list _pile(self, int p):
        cdef int i
        return [(self.st.pile_tile[i], self.st.pile_who[i] & 3, self.st.pile_round[i])
                for i in range(self.st.npile_total) if (self.st.pile_who[i] >> 2) == p]

    cdef list _tiles_by_cell(self, int p):
        """The tile id on every cell of player p's forest (None off the forest)."""
        cdef int tile
        cdef list tiles = [None] * CELLS
        for tile in range(1, MAX_TILES):
            if self.st.tile_cell[tile] >= 0 and self.st.tile_cell[tile] // CELLS == p:
                tiles[self.st.tile_cell[tile] % CELLS] = tile
        if self.st.players[p].start_cell >= 0:
            tiles[self.st.players[p].start_cell] = 0
        return tiles

    cdef dict _forest(self, int p):
        from solver.games.guardians.board import Face

        cdef GPlayer* P = &self.st.players[p]
        cdef int i, cell
        cdef int cells[MAX_PILE]
        cdef list tiles = self._tiles_by_cell(p)
        cdef dict out = {}
        for i in range(board_cells(P.occ, cells)):
            cell = cells[i]
            out[cell_pair(cell)] = Face(tiles[cell], colour_at(P, cell) == 0)
        return out

    @property
    def people(self):
        """Every player as a fresh reference ``PlayerState`` (a copy: changing it changes nothing)."""
        from solver.games.guardians.rules import PlayerState

        cdef GPlayer* P
        out = []
        for p in range(self.game.data.players):
            P = &self.st.players[p]
            who = PlayerState()
            who.forest = self._forest(p)
            who.pawns = [cell_pair(P.pawns[k]) if P.pawns[k] >= 0 else None for k in range(PAWNS)]
            who.pile = self._pile(p)
            who.resets = P.resets
            who.cards = [P.cards[k] for k in range(P.ncards)]
            out.append(who)
        return out

    @property
    def pool(self):
        return [self.st.pool[i] for i in range(self.st.npool)]

    @property
    def bag(self):
        return [t for t in range(1, MAX_TILES) if bit64(self.st.bag, t)]

    @property
    def discard(self):
        return [t for t in range(1, MAX_TILES) if bit64(self.st.discard, t)]

    @property
    def track(self):
        return [self.st.track[i] for i in range(self.st.ntrack)]

    @property
    def supply(self):
        return [self.st.supply[i] for i in range(4)]

    @property
    def current(self):
        return self.st.current

    @property
    def round(self):
        return self.st.round

    @property
    def phase(self):
        from solver.games.guardians.rules import Phase

        return Phase(self.st.phase)

    @property
    def draws_left(self):
        return self.st.draws_left

    @property
    def reset_used(self):
        return bool(self.st.reset_used)

    @property
    def to_place(self):
        return self.st.to_place

    @property
    def mission_side(self):
        return bool(self.st.mission_side)

    @property
    def placed(self):
        return cell_pair(self.st.placed) if self.st.placed >= 0 else None

    @property
    def turn_missions(self):
        return self.st.turn_missions

    @property
    def end_triggered(self):
        return bool(self.st.end_triggered)

    @property
    def tasks_done(self):
        return [bool((self.st.tasks_done >> i) & 1) for i in range(self.game.data.ntasks)]

    @property
    def backs(self):
        """Hidden backs: every flipped tile of the set with the code of the back it showed."""
        if self.game.data.open_backs:
            return {}
        return {t: self.st.back[t] for t in range(1, self.game.data.n_set + 1)
                if self.st.back[t] != UNSEEN}

    @property
    def picked(self):
        return self.st.picked or None

    @property
    def revealing(self):
        return self.st.revealing or None

    @property
    def known(self):
        """Every tile as known now (the reference's ``known``; a fresh dictionary)."""
        catalogue = self.game.reference.catalogue
        if self.game.data.open_backs:
            return catalogue
        out = dict(catalogue)
        for t, code in self.backs.items():
            out[t] = out[t].showing(self.game.reference.back(code))
        return out

    @property
    def catalogue(self):
        return self.known

    def tile(self, int tile_id):
        """Tile ``tile_id`` as known now (the reference's ``tile``)."""
        tile = self.game.reference.catalogue[tile_id]
        if self.game.data.open_backs or not 1 <= tile_id <= self.game.data.n_set:
            return tile
        if self.st.back[tile_id] == UNSEEN:
            return tile
        return tile.showing(self.game.reference.back(self.st.back[tile_id]))

    def unseen_backs(self, face):
        """The backs not yet seen for ``face`` (the reference's ``unseen_backs``)."""
        from solver.games.guardians.rules import GuardiansState

        return GuardiansState.unseen_backs(self, face)

    # -- serialisation -------------------------------------------------------------------------
    def to_dict(self):
        """The state as a JSON-ready dictionary (the reference's ``to_dict``)."""
        import json

        return json.loads(self.to_json())

    def to_json(self):
        """The full state as canonical JSON, byte-identical to the reference's for equal states
        (``json.dumps(to_dict(), sort_keys=True, separators=(",", ":"))``, written directly)."""
        cdef GState* s = &self.st
        cdef GPlayer* P
        cdef int p, k, i, cell, at
        cdef int cells[MAX_PILE]
        cdef list people = []
        cdef list forest, tiles
        for p in range(self.game.data.players):
            P = &s.players[p]
            tiles = self._tiles_by_cell(p)
            forest = []
            for i in range(board_cells(P.occ, cells)):
                cell = cells[i]
                side = "mission" if colour_at(P, cell) == 0 else "forest"
                forest.append(f'[{(cell >> 6) + BOARD_MIN},{(cell & 63) + BOARD_MIN},'
                              f'{tiles[cell]},"{side}"]')
            pawns = ",".join(
                f"[{(P.pawns[k] >> 6) + BOARD_MIN},{(P.pawns[k] & 63) + BOARD_MIN}]"
                if P.pawns[k] >= 0 else "null" for k in range(PAWNS))
            at = pile_start(s, p)
            pile = ",".join(f"[{s.pile_tile[k]},{s.pile_who[k] & 3},{s.pile_round[k]}]"
                            for k in range(at, at + s.npile[p]))
            cards = ",".join(str(P.cards[k]) for k in range(P.ncards))
            people.append(f'{{"cards":[{cards}],"forest":[{",".join(forest)}],"pawns":[{pawns}],'
                          f'"pile":[{pile}],"resets":{P.resets}}}')
        placed = "null"
        if s.placed >= 0:
            placed = f"[{(s.placed >> 6) + BOARD_MIN},{(s.placed & 63) + BOARD_MIN}]"
        tasks = ",".join("true" if (s.tasks_done >> k) & 1 else "false"
                         for k in range(self.game.data.ntasks))
        hidden = not self.game.data.open_backs
        level = self.game.reference.level  # solo: its number recorded (state_json._check_level)
        level_field = f'"level":{level.number},' if level is not None else ""
        backs = picked = revealing = unseen = ""
        if hidden:
            import json
            from solver.games.guardians.state_json import unseen_multiset

            ref = self.game.reference
            backs = ",".join(f'[{t},"{ref.back(u)}"]' for t, u in sorted(self.backs.items()))
            backs = f'"backs":[{backs}],'
            picked = f'"picked":{s.picked if s.picked else "null"},'
            revealing = f'"revealing":{s.revealing if s.revealing else "null"},'
            unseen = f',"unseen":{json.dumps(unseen_multiset(self), separators=(",", ":"))}'
        return (
            f'{{{backs}"bag":[{",".join(str(t) for t in self.bag)}],"current":{s.current},'
            f'"discard":[{",".join(str(t) for t in self.discard)}],'
            f'"draws_left":{s.draws_left},'
            f'"end_triggered":{"true" if s.end_triggered else "false"},{level_field}'
            f'"mission_side":{"true" if s.mission_side else "false"},'
            f'"phase":"{_PHASE_NAMES[s.phase]}",{picked}"placed":{placed},'
            f'"players":[{",".join(people)}],'
            f'"pool":[{",".join(str(s.pool[k]) for k in range(s.npool))}],'
            f'"reset_used":{"true" if s.reset_used else "false"},{revealing}"round":{s.round},'
            f'"supply":[{s.supply[0]},{s.supply[1]},{s.supply[2]},{s.supply[3]}],'
            f'"tasks_done":[{tasks}],"to_place":{s.to_place},'
            f'"track":[{",".join(str(s.track[k]) for k in range(s.ntrack))}],'
            f'"turn_missions":{s.turn_missions}{unseen}}}'
        )

    def to_reference(self):
        """The equal state of the reference engine (for its game ``game.reference``)."""
        return self.game.reference.state_from_json(self.to_json())

    def _splits(self, int player, cell):
        """The kernel's connectivity test: does removing ``cell`` split the player's forest?"""
        self._player(player)
        return bool(splits_forest(&self.st.players[player], cell_index(cell)))

    def _mission_key(self):
        """The player to move's forest and pawns as bytes: the tiles' cells (every forest's),
        the player's colour planes (which side each tile shows) and its pawns and start cell.
        Equal for two states at the mission step exactly when the reference's forest and pawns
        are (the mission-order search's memo key; the points piles are left out)."""
        cdef GPlayer* P = &self.st.players[self.st.current]
        return ((<char*>self.st.tile_cell)[:sizeof(self.st.tile_cell)]
                + (<char*>P.col)[:sizeof(P.col)]
                + (<char*>P.pawns)[:sizeof(P.pawns) + sizeof(P.start_cell)])

    def _pawn_tiles(self):
        """The tile id under each pawn of the player to move (-1: the pawn is in the reserve)."""
        cdef GPlayer* P = &self.st.players[self.st.current]
        return tuple(P.pawn_tile[k] if P.pawns[k] >= 0 else -1 for k in range(PAWNS))

    def _walk_codes(self, int player, cell):
        """The kernel's walk enumeration from the mission on ``cell`` (direction codes)."""
        cdef int codes[MAX_WALKS]
        cdef int n, i, tile
        self._player(player)
        tile = cell_tile(&self.st, player, cell_index(cell))
        if tile < 0 or colour_at(&self.st.players[player], cell_index(cell)) != 0:
            return []
        if self.st.back[tile] == UNSEEN:
            return []
        n = walks_from(self.game.data, &self.st.players[player], cell_index(cell),
                       self.st.back[tile], codes)
        return [codes[i] for i in range(n)]

    def __str__(self):
        from solver.games.guardians.render_text import render_state_text

        return render_state_text(self)

    def __repr__(self):
        return f"GuardiansState({self.to_json()})"


cdef _apply_slow(GuardiansKernelState state, action):
    """``apply_action`` for anything but a legal plain int: the reference's test and message."""
    from solver.errors import IllegalActionError
    from solver.game import as_action_id

    action = as_action_id(action)
    legal = state.legal_actions()
    if action in legal:
        gd_apply_action(state.game.data, &state.st, <int>legal[legal.index(action)])
        return
    raise IllegalActionError(
        f"action {action} ({state._safe_label(action)}) is not legal in this state "
        f"(phase {_PHASE_NAMES[state.st.phase]}, round {state.st.round}, "
        f"player {state.st.current})"
    )


# -- measurements -------------------------------------------------------------------------------
# ``random_playouts`` (the C playout loop): ``kernel_face.pxi``.


def cut_vertices(GuardiansKernelState state, int player, method="tarjan"):
    """The tiles of the player's forest whose removal splits it, in cell order: all at once by
    Tarjan's search (``method="tarjan"``) or by the rules' test on every tile (``"test"``)."""
    cdef GPlayer* P = &state.st.players[player]
    cdef uint64_t ap[64]
    cdef int i
    cdef int cells[MAX_PILE]
    if not 0 <= player < state.game.data.players:
        raise IndexError(f"player {player} is not in this game")
    if method == "tarjan":
        articulation_points(P, ap)
    elif method == "test":
        memset(ap, 0, sizeof(ap))
        for i in range(board_cells(P.occ, cells)):
            if splits_forest(P, cells[i]):
                set64(ap, cells[i])
    else:
        raise ValueError(f"method must be 'tarjan' or 'test', not {method!r}")
    return [cell_pair(cells[i]) for i in range(board_cells(ap, cells))]


def time_cut_vertices(GuardiansKernelState state, int player, long repeat, method="tarjan"):
    """Find the player's cut vertices ``repeat`` times in C (``method`` as for
    :func:`cut_vertices`); returns how many one pass finds (benchmarks)."""
    cdef GPlayer* P = &state.st.players[player]
    cdef uint64_t ap[64]
    cdef int i, found = 0
    cdef int cells[MAX_PILE]
    cdef bint tarjan = method == "tarjan"
    cdef long k
    with nogil:
        for k in range(repeat):
            found = 0
            if tarjan:
                found = articulation_points(P, ap)
                continue
            for i in range(board_cells(P.occ, cells)):
                if splits_forest(P, cells[i]):
                    found += 1
    return found


def time_walks(GuardiansKernelState state, int player, long repeat):
    """Enumerate the walks of every mission tile of the player's forest ``repeat`` times in C;
    returns how many walks one pass finds (benchmarks)."""
    cdef GPlayer* P = &state.st.players[player]
    cdef const GGame* g = state.game.data
    cdef int cell, found = 0, tile, j
    cdef int codes[MAX_WALKS]
    cdef int occupied_cells[MAX_PILE]
    cdef long k
    cells = []
    tiles = []
    for j in range(board_cells(P.occ, occupied_cells)):
        cell = occupied_cells[j]
        if colour_at(P, cell) == 0 and state.st.back[cell_tile(&state.st, player, cell)] != UNSEEN:
            cells.append(cell)
            tiles.append(state.st.back[cell_tile(&state.st, player, cell)])
    cdef int m = len(cells), i
    cdef int cs[4096]
    cdef int ts[4096]
    for i in range(m):
        cs[i] = cells[i]
        ts[i] = tiles[i]
    with nogil:
        for k in range(repeat):
            found = 0
            for i in range(m):
                if ts[i] >= 0:
                    found += walks_from(g, P, cs[i], ts[i], codes)
    return found


def _values(GuardiansKernelState state):
    """Every player's projected final score by the kernel's evaluation (tests)."""
    cdef double avail[7]
    cdef int p
    next_pool(state.game.data, &state.st, avail)
    return [player_value(state.game.data, &state.st, p, avail)
            for p in range(state.game.data.players)]
