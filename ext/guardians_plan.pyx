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


ctypedef struct Grid:
    unsigned char cell[SIDE * SIDE]   # EMPTY, a colour code 1..6, or MISSION


cdef inline int step_cell(int here, int k) noexcept nogil:
    return here + DR[k] * SIDE + DC[k]  # the window's margin: never off the grid


cdef inline int colour_at(const Grid* b, int n) noexcept nogil:
    return b.cell[n]  # MISSION (7): no colour


cdef inline bint occupied(const Grid* b, int n) noexcept nogil:
    return b.cell[n] != EMPTY


ctypedef Grid ProspectBoard
include "guardians_prospect.pxi"


cdef unsigned char LETTER_CODE[128]  # a colour letter's code 1..6 ("BGREPY"), 0: no colour
memset(LETTER_CODE, 0, sizeof(LETTER_CODE))
for _code, _letter in enumerate("BGREPY", 1):
    LETTER_CODE[ord(_letter)] = _code


cdef inline int colour_code(object letter) except -1:
    cdef str s = letter
    cdef Py_UCS4 c
    cdef int code = 0
    if not s:
        return MISSION  # a forest tile of unknown colour: never matches
    c = s[0]
    if c < 128:
        code = LETTER_CODE[c]
    if code == 0:
        raise ValueError(f"unknown colour {letter!r}")
    return code


cdef inline int cell_index(object cell) except -1:
    cdef int r = cell[0], c = cell[1]
    r += OFFSET
    c += OFFSET
    if r < 8 or c < 8 or r >= SIDE - 8 or c >= SIDE - 8:
        raise ValueError(f"cell {cell!r} is outside the planner's window")
    return r * SIDE + c


def prospect(Weights weights, dict col, object mis, tuple start, str sequence, double points,
             dict avail, int budget):
    """The mission prospect of a pawn on ``start`` (``planner._prospect``'s value): its
    mission is ``sequence`` (colour letters; empty: the start tile's A-B-C-D-E-A walk), worth
    ``points``; ``col`` the forest-side cells' colours, ``mis`` the mission-side cells, ``avail``
    the chance of each colour in the next pool, ``budget`` the most empty cells a template may
    have."""
    cdef Prospect w
    cdef Grid grid
    cdef double colour_odds[8]
    cdef int d, i, L, here, n = weights.n
    memset(grid.cell, EMPTY, sizeof(grid.cell))
    for cell, letter in col.items():
        grid.cell[cell_index(cell)] = colour_code(letter)
    for cell in mis:
        grid.cell[cell_index(cell)] = MISSION
    for i in range(8):
        colour_odds[i] = 0.0
    for letter, share in avail.items():
        colour_odds[colour_code(letter)] = share
    w.board = &grid
    w.avail = colour_odds
    w.points = points
    w.weight = weights.weight
    w.start_pow = weights.start_pow
    w.start_best = weights.start_best
    for d in range(n):
        w.bound[d] = points * weights.plain_best[d]
    w.best = w.bound[n - 1] if budget >= n - 1 else -0.0
    here = cell_index(start)
    w.path[0] = here
    w.depth = 1
    if not sequence:
        w.budget = budget if budget < weights.start_budget else weights.start_budget
        prospect_start_walks(&w, here, 0)
        return w.best
    w.budget = budget
    L = len(sequence)
    w.k = L + 1
    for i in range(L):
        w.want[i] = colour_code(sequence[i])
    prospect_templates(&w, here, 0, 1.0)
    if sequence[::-1] != sequence:
        for i in range(L):
            w.want[i] = colour_code(sequence[L - 1 - i])
        w.depth = 1
        prospect_templates(&w, here, 0, 1.0)
    return w.best
