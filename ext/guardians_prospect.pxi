# The mission prospect's branch and bound search, written once for both guardians kernels:
# include it, never copy it.
#
# A pawn's prospect is the best weighted template of its mission: a path from the mission tile
# through forest tiles of the mission's colours (``prospect_templates``; the start tile: its
# A-B-C-D-E-A walk of six different colours, ``prospect_start_walks``), where a template may
# use up to ``budget`` empty cells, each filled with the next pool's chance of the colour. The
# kernel's evaluation (``ext/guardians.pyx``: the player's bitboards) and the planner's
# compiled prospect (``ext/guardians_plan.pyx``: a grid copied from the planner's board) run
# the same search over their own boards. The including module defines, before the include:
#
#     ctypedef MyBoard ProspectBoard    # the board the walks read
#     START_WALK                        # the start walk's length (6), an enum constant
#     cdef inline int step_cell(int here, int k) noexcept nogil
#         # the neighbour of ``here`` in direction k (0..3, the module's own order), -1 off board
#     cdef inline int colour_at(const ProspectBoard* b, int n) noexcept nogil
#         # the colour code 1..6 of a forest-side tile on ``n``; 0 or over 6 for anything else
#     cdef inline bint occupied(const ProspectBoard* b, int n) noexcept nogil
#         # is there a tile on ``n`` (an empty cell is one a template may fill)
#
# and fills a ``Prospect`` (board, avail, points, the weights, bound, budget, the path's first
# cell, depth 1; for a sequence ``k`` and ``want``) before calling a search; the best value found
# is left in ``best``. The search calls the module's board functions by these names, not through
# wrappers of its own (wrapped, they were not inlined into the recursion: a slower evaluation).
# The arithmetic is the planner's (``planner._prospect``), in its order, so every twin gives the
# same value to the last bit.

ctypedef struct Prospect:
    const ProspectBoard* board
    const double* avail       # by colour code 1..6
    const double* weight      # a template's weight by its empty cells
    const double* start_pow   # the start walk's fill chance to the power of its empty cells
    const double* start_best  # the best start walk weight (fill chance in) from d empty cells on
    double points
    double best
    double bound[7]           # points times the best weight from d empty cells on
    int budget
    int k                     # the path's length with the mission tile
    int depth                 # cells on the path so far (the mission tile first)
    int path[8]
    unsigned char want[5]     # the reading of the sequence being matched
    int fixed[6]              # the start walk's colours so far (0: an empty cell)


cdef inline bint prospect_on_path(const Prospect* w, int n) noexcept nogil:
    cdef int i
    for i in range(w.depth):
        if w.path[i] == n:
            return True
    return False


cdef void prospect_templates(Prospect* w, int here, int d, double q) noexcept nogil:
    """Extend the path from ``here`` along ``want`` (``d`` empty cells so far, ``q`` their
    chance), keeping the best weighted template in ``w.best``."""
    cdef int k, n, want
    cdef double fill
    if w.bound[d] * q <= w.best:
        return
    if w.depth == w.k:
        w.best = w.points * w.weight[d] * q
        return
    want = w.want[w.depth - 1]
    for k in range(4):
        n = step_cell(here, k)
        if n < 0 or colour_at(w.board, n) != want or prospect_on_path(w, n):
            continue
        w.path[w.depth] = n
        w.depth += 1
        prospect_templates(w, n, d, q)
        w.depth -= 1
    if d >= w.budget:
        return
    fill = q * w.avail[want]
    for k in range(4):
        n = step_cell(here, k)
        if n < 0 or occupied(w.board, n) or prospect_on_path(w, n):
            continue
        w.path[w.depth] = n
        w.depth += 1
        prospect_templates(w, n, d + 1, fill)
        w.depth -= 1


cdef inline bint prospect_start_fits(const Prospect* w, int colour, int depth) noexcept nogil:
    """May the start walk's cell number ``depth`` have ``colour`` (A-B-C-D-E-A: five different
    colours, the sixth the first's)?"""
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


cdef void prospect_start_walks(Prospect* w, int here, int d) noexcept nogil:
    """The start tile's templates: walks of six cells from ``here`` (``d`` empty so far)."""
    cdef int k, n, colour, depth = w.depth - 1
    if w.points * w.start_best[d] <= w.best:
        return
    if depth == START_WALK:
        w.best = w.points * w.weight[d] * w.start_pow[d]
        return
    for k in range(4):
        n = step_cell(here, k)
        if n < 0:
            continue
        colour = colour_at(w.board, n)
        if colour == 0 or colour > 6 or prospect_on_path(w, n):
            continue
        if not prospect_start_fits(w, colour, depth):
            continue
        w.path[w.depth] = n
        w.fixed[depth] = colour
        w.depth += 1
        prospect_start_walks(w, n, d)
        w.depth -= 1
    if d >= w.budget:
        return
    for k in range(4):
        n = step_cell(here, k)
        if n < 0 or occupied(w.board, n) or prospect_on_path(w, n):
            continue
        w.path[w.depth] = n
        w.fixed[depth] = 0
        w.depth += 1
        prospect_start_walks(w, n, d + 1)
        w.depth -= 1
