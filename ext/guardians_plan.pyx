# cython: language_level=3
"""The guardians planner's mission prospect in C: the exact twin of ``planner._prospect``.

Why: the planner (``solver/games/guardians/planner.py``) spends about nine tenths of its time in
the branch and bound search of a pawn's mission *templates* (paths of forest tiles of the right
colours and empty cells still to fill); in C the same search is tens of times faster, which is
what lets the ``lookahead`` agent plan several turns a decision. The planner calls it on kernel
states and keeps its Python search on reference states (the twin; the differential tests hold
the two to the same values on every board they try).

The board comes as the planner holds it: ``col`` maps forest-side cells ``(row, column)`` to a
colour letter, ``mis`` the mission-side cells. The search copies it onto a small grid (the action
window, -32..31, with a margin of 8 cells a side: a template never leaves it) and walks it as the
Python search does; the arithmetic is the same, in the same order, so the values are equal to the
last bit.
"""

from libc.string cimport memset

cdef enum:
    OFFSET = 40
    SIDE = 80
    EMPTY = 0
    MISSION = 7
    START_WALK = 6
    MAX_WEIGHTS = 7

cdef int DR[4]
cdef int DC[4]
DR[:] = [-1, 0, 1, 0]
DC[:] = [0, 1, 0, -1]


cdef class Weights:
    """A prospect's parameters, prepared once: the weight of a template by its empty cells
    (``weights[d]``), the start walk's fill chance and its budget of empty cells, with the
    branch and bound's bounds derived from them (as ``planner._bounds``)."""

    cdef double weight[MAX_WEIGHTS]
    cdef double start_pow[MAX_WEIGHTS]
    cdef double plain_best[MAX_WEIGHTS]
    cdef double start_best[MAX_WEIGHTS]
    cdef int n
    cdef int start_budget

    def __init__(self, weights, double start_fill, int start_budget):
        cdef int d, e
        cdef double v
        self.n = len(weights)
        if self.n < 1 or self.n > MAX_WEIGHTS:
            raise ValueError(f"between 1 and {MAX_WEIGHTS} weights, not {self.n}")
        for d in range(self.n):
            self.weight[d] = weights[d]
            self.start_pow[d] = start_fill ** d
        for d in range(self.n):
            self.plain_best[d] = max(weights[d:])
            v = self.weight[d] * self.start_pow[d]
            for e in range(d, self.n):
                if self.weight[e] * self.start_pow[e] > v:
                    v = self.weight[e] * self.start_pow[e]
            self.start_best[d] = v
        self.start_budget = start_budget


ctypedef struct Search:
    unsigned char grid[SIDE * SIDE]
    double avail[8]
    double points
    double best
    const double* weight
    const double* start_pow
    double bound[MAX_WEIGHTS]
    double start_bound[MAX_WEIGHTS]
    int budget
    int k
    int depth
    int path[8]
    unsigned char want[5]
    unsigned char fixed[START_WALK]


cdef inline int colour_code(object letter) except -1:
    cdef str s = letter
    if not s:
        return MISSION  # a forest tile of unknown colour: never matches
    c = s[0]
    if c == "B":
        return 1
    if c == "G":
        return 2
    if c == "R":
        return 3
    if c == "E":
        return 4
    if c == "P":
        return 5
    if c == "Y":
        return 6
    raise ValueError(f"unknown colour {letter!r}")


cdef inline int cell_index(object cell) except -1:
    cdef int r = cell[0], c = cell[1]
    r += OFFSET
    c += OFFSET
    if r < 8 or c < 8 or r >= SIDE - 8 or c >= SIDE - 8:
        raise ValueError(f"cell {cell!r} is outside the planner's window")
    return r * SIDE + c


cdef inline bint on_path(const Search* w, int n) noexcept nogil:
    cdef int i
    for i in range(w.depth):
        if w.path[i] == n:
            return True
    return False


cdef void templates(Search* w, int here, int d, double q) noexcept nogil:
    cdef int k, n, want
    cdef double fill
    if w.bound[d] * q <= w.best:
        return
    if w.depth == w.k:
        w.best = w.points * w.weight[d] * q
        return
    want = w.want[w.depth - 1]
    for k in range(4):
        n = here + DR[k] * SIDE + DC[k]
        if w.grid[n] != want or on_path(w, n):
            continue
        w.path[w.depth] = n
        w.depth += 1
        templates(w, n, d, q)
        w.depth -= 1
    if d >= w.budget:
        return
    fill = q * w.avail[want]
    for k in range(4):
        n = here + DR[k] * SIDE + DC[k]
        if w.grid[n] != EMPTY or on_path(w, n):
            continue
        w.path[w.depth] = n
        w.depth += 1
        templates(w, n, d + 1, fill)
        w.depth -= 1


cdef inline bint start_fits(const Search* w, int colour, int depth) noexcept nogil:
    cdef int i
    if depth == 0:
        return True
    if depth < START_WALK - 1:
        if colour == w.fixed[0]:
            return False
    elif w.fixed[0] and colour != w.fixed[0]:
        return False
    for i in range(1, depth):
        if w.fixed[i] == colour:
            return False
    return True


cdef void start_templates(Search* w, int here, int d) noexcept nogil:
    cdef int k, n, colour, depth = w.depth - 1
    if w.start_bound[d] <= w.best:
        return
    if depth == START_WALK:
        w.best = w.points * w.weight[d] * w.start_pow[d]
        return
    for k in range(4):
        n = here + DR[k] * SIDE + DC[k]
        colour = w.grid[n]
        if colour == EMPTY or colour == MISSION or on_path(w, n):
            continue
        if not start_fits(w, colour, depth):
            continue
        w.path[w.depth] = n
        w.fixed[depth] = colour
        w.depth += 1
        start_templates(w, n, d)
        w.depth -= 1
    if d >= w.budget:
        return
    for k in range(4):
        n = here + DR[k] * SIDE + DC[k]
        if w.grid[n] != EMPTY or on_path(w, n):
            continue
        w.path[w.depth] = n
        w.fixed[depth] = 0
        w.depth += 1
        start_templates(w, n, d + 1)
        w.depth -= 1


def prospect(Weights weights, dict col, object mis, tuple start, str sequence, double points,
             dict avail, int budget):
    """The mission prospect of a pawn on ``start`` (``planner._prospect``'s value): its
    mission is ``sequence`` (colour letters; empty: the start tile's A-B-C-D-E-A walk), worth
    ``points``; ``col`` the forest-side cells' colours, ``mis`` the mission-side cells, ``avail``
    the chance of each colour in the next pool, ``budget`` the most empty cells a template may
    have."""
    cdef Search w
    cdef int d, i, L, here, n = weights.n
    memset(w.grid, EMPTY, sizeof(w.grid))
    for cell, letter in col.items():
        w.grid[cell_index(cell)] = colour_code(letter)
    for cell in mis:
        w.grid[cell_index(cell)] = MISSION
    for i in range(8):
        w.avail[i] = 0.0
    for letter, share in avail.items():
        w.avail[colour_code(letter)] = share
    w.points = points
    w.weight = weights.weight
    w.start_pow = weights.start_pow
    for d in range(n):
        w.bound[d] = points * weights.plain_best[d]
        w.start_bound[d] = points * weights.start_best[d]
    w.best = w.bound[n - 1] if budget >= n - 1 else -0.0
    here = cell_index(start)
    w.path[0] = here
    w.depth = 1
    if not sequence:
        w.budget = budget if budget < weights.start_budget else weights.start_budget
        start_templates(&w, here, 0)
        return w.best
    w.budget = budget
    L = len(sequence)
    w.k = L + 1
    for i in range(L):
        w.want[i] = colour_code(sequence[i])
    templates(&w, here, 0, 1.0)
    if sequence[::-1] != sequence:
        for i in range(L):
            w.want[i] = colour_code(sequence[L - 1 - i])
        w.depth = 1
        templates(&w, here, 0, 1.0)
    return w.best
