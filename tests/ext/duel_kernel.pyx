# cython: language_level=3
"""A two-player constant-sum dice game as a kernel, for the pruning search's two-player case.

Written only against the shipped interface (``solver.get_include()``); the tests compile it out
of tree (``tests/ext/conftest.py``) and hold the compiled searches to a Python recursion over
these rules.

The game ("duel"): players 0 and 1 take turns. On a turn the mover may *roll* a three-sided die
(actions 1; outcomes 2, 3, 4 for faces 1, 2, 3, each 1/3): a 1 loses the turn's total and ends
the turn, a 2 or 3 adds to the turn's total. Or the mover *holds* (action 0): the turn's total is
banked and the turn passes. Banking ``target`` or more wins at once (returns 1 and 0). Every
decision uses up one of ``plies`` moves; when none is left the higher bank wins and equal banks
share (0.5 each). The returns always add up to 1 = utility_min + utility_max: constant-sum.
``DuelGame(target, plies, tie_other=0.5)``: ``tie_other`` other than 0.5 gives player 1 that much
on a shared result, which breaks the constant sum (a test of the search's check).

Its Python classes stand on the shared face (``kernel_face.pxi``, shipped beside the ``.pxd``
files), as a plug-in's kernel may: this kernel is the test that the face compiles and works out
of tree.
"""

from libc.stdlib cimport malloc

from rng cimport splitmix64_mix
from state cimport KERNEL_CHANCE, KERNEL_TERMINAL, KernelVTable

ctypedef struct duel_data_t:
    int target
    int plies
    double tie_other

ctypedef struct duel_state_t:
    int bank[2]
    int total
    int mover
    int left
    int phase  # 0: the mover decides, 1: the die, 2: over


cdef int duel_player(const void* game, const void* state) noexcept nogil:
    cdef const duel_state_t* s = <const duel_state_t*>state
    return KERNEL_TERMINAL if s.phase == 2 else KERNEL_CHANCE if s.phase == 1 else s.mover

cdef bint duel_terminal(const void* game, const void* state) noexcept nogil:
    return (<const duel_state_t*>state).phase == 2

cdef int duel_legal(const void* game, const void* state, int* actions) noexcept nogil:
    cdef const duel_state_t* s = <const duel_state_t*>state
    if s.phase == 2:
        return 0
    if s.phase == 1:
        actions[0] = 2
        actions[1] = 3
        actions[2] = 4
        return 3
    actions[0] = 0
    actions[1] = 1
    return 2

cdef int duel_chance(const void* game, const void* state, int* actions,
                     double* probs) noexcept nogil:
    if (<const duel_state_t*>state).phase != 1:
        return 0
    cdef int k
    for k in range(3):
        actions[k] = 2 + k
        probs[k] = 1.0 / 3.0
    return 3

cdef void duel_pass(const duel_data_t* g, duel_state_t* s) noexcept nogil:
    s.total = 0
    s.mover = 1 - s.mover
    s.phase = 2 if s.left <= 0 else 0

cdef void duel_apply(const void* game, void* state, int action) noexcept nogil:
    cdef const duel_data_t* g = <const duel_data_t*>game
    cdef duel_state_t* s = <duel_state_t*>state
    if s.phase == 0:
        s.left -= 1
        if action == 0:
            s.bank[s.mover] += s.total
            if s.bank[s.mover] >= g.target:
                s.total = 0
                s.phase = 2
            else:
                duel_pass(g, s)
        else:
            s.phase = 1
    else:
        if action == 2:
            duel_pass(g, s)
        else:
            s.total += action - 1
            s.phase = 2 if s.left <= 0 else 0

cdef void duel_returns(const void* game, const void* state, double* out) noexcept nogil:
    cdef const duel_data_t* g = <const duel_data_t*>game
    cdef const duel_state_t* s = <const duel_state_t*>state
    out[0] = 0.0
    out[1] = 0.0
    if s.phase != 2:
        return
    if s.bank[0] > s.bank[1]:
        out[0] = 1.0
    elif s.bank[1] > s.bank[0]:
        out[1] = 1.0
    else:
        out[0] = 0.5
        out[1] = g.tie_other

cdef unsigned long long duel_hash(const void* game, const void* state) noexcept nogil:
    cdef const duel_state_t* s = <const duel_state_t*>state
    return splitmix64_mix((<unsigned long long>s.bank[0] << 48) ^ (<unsigned long long>s.bank[1] << 36)
                          ^ (<unsigned long long>s.total << 24) ^ (<unsigned long long>s.left << 8)
                          ^ (<unsigned long long>s.mover << 4) ^ <unsigned long long>s.phase)

cdef double duel_heuristic(const void* game, const void* state, int player) noexcept nogil:
    # the bank lead (the mover's turn total at half weight), scaled into [0, 1]
    cdef const duel_data_t* g = <const duel_data_t*>game
    cdef const duel_state_t* s = <const duel_state_t*>state
    cdef double lead = s.bank[player] - s.bank[1 - player]
    lead += (0.5 if s.mover == player else -0.5) * s.total
    cdef double v = 0.5 + lead / (2.0 * g.target)
    return 0.0 if v < 0.0 else 1.0 if v > 1.0 else v


cdef KernelVTable DUEL_VTABLE
DUEL_VTABLE.name = "duel"
DUEL_VTABLE.state_size = sizeof(duel_state_t)
DUEL_VTABLE.num_players = 2
DUEL_VTABLE.num_distinct_actions = 5
DUEL_VTABLE.max_actions = 3
DUEL_VTABLE.current_player = duel_player
DUEL_VTABLE.is_terminal = duel_terminal
DUEL_VTABLE.legal_actions = duel_legal
DUEL_VTABLE.chance_outcomes = duel_chance
DUEL_VTABLE.apply_action = duel_apply
DUEL_VTABLE.returns = duel_returns
DUEL_VTABLE.hash = duel_hash
DUEL_VTABLE.heuristic = duel_heuristic
DUEL_VTABLE.utility_min = 0.0
DUEL_VTABLE.utility_max = 1.0
DUEL_VTABLE.pack = NULL  # the state struct is the key


# -- the Python face (``kernel_face.pxi``) --------------------------------------------------------
ctypedef duel_state_t KernelStruct
ctypedef duel_data_t KernelData
ctypedef DuelGame KernelGame
ctypedef DuelPosition KernelState
include "kernel_face.pxi"


cdef inline DuelPosition kernel_new_state():
    return DuelPosition.__new__(DuelPosition)


cdef void kernel_initial(const duel_data_t* g, duel_state_t* s) noexcept nogil:
    s.left = g.plies


cdef bint kernel_is_legal(const duel_data_t* g, const duel_state_t* s, int a) noexcept nogil:
    cdef int actions[3]
    cdef int n = duel_legal(g, s, actions)
    cdef int k
    for k in range(n):
        if actions[k] == a:
            return True
    return False


cdef double kernel_tally(const void* game, const void* state) noexcept nogil:
    return (<const duel_state_t*>state).bank[0]  # random_playouts sums player 0's banks


cdef _apply_slow(DuelPosition state, action):
    from solver.errors import IllegalActionError

    raise IllegalActionError(f"action {action!r} is not legal here; legal: "
                             f"{state.legal_actions()}")


cdef class DuelGame(KernelGameFace):
    cdef public bint constant_sum

    def __init__(self, int target, int plies, double tie_other=0.5):
        if self.data == NULL:
            self.data = <duel_data_t*>malloc(sizeof(duel_data_t))
            if self.data == NULL:
                raise MemoryError()
        self.data.target = target
        self.data.plies = plies
        self.data.tie_other = tie_other
        self.handle.vtable = &DUEL_VTABLE
        self.handle.game = self.data
        self.constant_sum = True  # the declaration the pruning search asks for

    def num_players(self):
        return 2


cdef class DuelPosition(KernelStateFace):
    # clone, apply_action, current_player, legal_actions, ==, capsules: the face
    def is_terminal(self):
        return self.st.phase == 2

    def is_chance_node(self):
        return self.st.phase == 1

    def chance_outcomes(self):
        cdef int actions[3]
        cdef double probs[3]
        cdef int n = duel_chance(self.game.data, &self.st, actions, probs)
        return [(actions[k], probs[k]) for k in range(n)]

    def returns(self):
        cdef double out[2]
        duel_returns(self.game.data, &self.st, out)
        return [out[0], out[1]]

    def action_to_string(self, int action):
        return ("hold", "roll", "die 1", "die 2", "die 3")[action]

    def heuristic(self, int player):
        return duel_heuristic(self.game.data, &self.st, player)

    def fields(self):
        """``(bank0, bank1, total, mover, left, phase)``: for the tests' own recursion."""
        return (self.st.bank[0], self.st.bank[1], self.st.total, self.st.mover, self.st.left,
                self.st.phase)

    def to_json(self):
        return "[%d,%d,%d,%d,%d,%d]" % self.fields()


def _declare_max_actions(int n):
    """Test knob: make the vtable claim ``n`` as its ``max_actions`` (the searchers check it)."""
    DUEL_VTABLE.max_actions = n
