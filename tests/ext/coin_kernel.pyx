# cython: language_level=3
"""A second kernel written only against the shipped interface (``solver.get_include()``).

The smallest complete kernel: a state struct, its transitions, a filled ``KernelVTable``, the
two one-line capsule methods and the Python protocol over the same C functions.
``tests/ext/test_include.py`` compiles it out of tree and solves it through the public API
(``solver.search.expectimax``, ``mcts``, ``solver.testing.check_random_play``) as well as the
compiled searchers directly, which is what ``docs/kernel-abi.md`` promises a new game.

The game (one player): each turn the player adds 1 or 2 (actions 0, 1) to a total, then a fair
coin adds 0 or 1 (actions 2, 3). The game ends once the total reaches ``target`` or after
``turns`` turns; the player wins when the total is exactly ``target``.
"""

from rng cimport splitmix64_mix
from state cimport (
    KERNEL_CHANCE, KERNEL_TERMINAL, KernelHandle, KernelVTable, handle_capsule, state_capsule,
)

ctypedef struct coin_data_t:
    int target
    int turns

ctypedef struct coin_state_t:
    int total
    int turn
    int phase  # 0: the player adds, 1: the coin, 2: over


cdef int coin_player(const void* game, const void* state) noexcept nogil:
    cdef int phase = (<const coin_state_t*>state).phase
    return KERNEL_TERMINAL if phase == 2 else KERNEL_CHANCE if phase == 1 else 0

cdef bint coin_terminal(const void* game, const void* state) noexcept nogil:
    return (<const coin_state_t*>state).phase == 2

cdef int coin_legal(const void* game, const void* state, int* actions) noexcept nogil:
    cdef int phase = (<const coin_state_t*>state).phase
    if phase == 2:
        return 0
    actions[0] = 2 * phase
    actions[1] = 2 * phase + 1
    return 2

cdef int coin_chance(const void* game, const void* state, int* actions,
                     double* probs) noexcept nogil:
    if (<const coin_state_t*>state).phase != 1:
        return 0
    actions[0] = 2
    actions[1] = 3
    probs[0] = 0.5
    probs[1] = 0.5
    return 2

cdef void coin_apply(const void* game, void* state, int action) noexcept nogil:
    cdef const coin_data_t* g = <const coin_data_t*>game
    cdef coin_state_t* s = <coin_state_t*>state
    if s.phase == 0:
        s.total += action + 1
        s.phase = 1
    else:
        s.total += action - 2
        s.turn += 1
        s.phase = 2 if s.total >= g.target or s.turn >= g.turns else 0

cdef void coin_returns(const void* game, const void* state, double* out) noexcept nogil:
    out[0] = 1.0 if (<const coin_state_t*>state).total == (<const coin_data_t*>game).target else 0.0

cdef unsigned long long coin_hash(const void* game, const void* state) noexcept nogil:
    cdef const coin_state_t* s = <const coin_state_t*>state
    return splitmix64_mix((<unsigned long long>s.total << 40) ^ (<unsigned long long>s.turn << 8)
                          ^ <unsigned long long>s.phase)


cdef KernelVTable COIN_VTABLE
COIN_VTABLE.name = "coin"
COIN_VTABLE.state_size = sizeof(coin_state_t)
COIN_VTABLE.num_players = 1
COIN_VTABLE.num_distinct_actions = 4
COIN_VTABLE.max_actions = 2
COIN_VTABLE.current_player = coin_player
COIN_VTABLE.is_terminal = coin_terminal
COIN_VTABLE.legal_actions = coin_legal
COIN_VTABLE.chance_outcomes = coin_chance
COIN_VTABLE.apply_action = coin_apply
COIN_VTABLE.returns = coin_returns
COIN_VTABLE.hash = coin_hash
COIN_VTABLE.heuristic = NULL  # optional: exact search and rollouts do without


LABELS = ("add 1", "add 2", "coin: 0", "coin: 1")


cdef class CoinGame:
    """The game: the protocol's game object (``solver.game.Game``) over the kernel's data."""

    cdef coin_data_t data
    cdef KernelHandle handle
    cdef readonly str name
    cdef readonly str engine

    def __init__(self, int target, int turns):
        self.data.target = target
        self.data.turns = turns
        self.handle.vtable = &COIN_VTABLE
        self.handle.game = &self.data
        self.name = "coin"
        self.engine = "kernel"

    def num_players(self):
        return 1

    def num_distinct_actions(self):
        return 4

    def new_initial_state(self):
        cdef CoinPosition position = CoinPosition.__new__(CoinPosition)
        position.game = self
        return position

    def state_from_json(self, str text):
        import json

        from solver.errors import FormatError

        cdef CoinPosition position = self.new_initial_state()
        try:
            data = json.loads(text)
            total, turn, phase = (int(data[k]) for k in ("total", "turn", "phase"))
        except (ValueError, TypeError, KeyError):
            raise FormatError("a coin state {total, turn, phase}", line=1, column=1) from None
        position.st.total, position.st.turn, position.st.phase = total, turn, phase
        return position

    def _kernel_handle(self):
        return handle_capsule(&self.handle, self)


cdef class CoinPosition:
    """A state: the struct inline, and the Python protocol (``solver.game.State``), every method
    a call of the vtable function the searchers use."""

    cdef coin_state_t st
    cdef readonly CoinGame game

    def get_game(self):
        return self.game

    def current_player(self):
        return coin_player(&self.game.data, &self.st)

    def is_terminal(self):
        return bool(coin_terminal(&self.game.data, &self.st))

    def is_chance_node(self):
        return coin_player(&self.game.data, &self.st) == KERNEL_CHANCE

    def legal_actions(self):
        cdef int actions[2]
        cdef int n = coin_legal(&self.game.data, &self.st, actions)
        return [actions[i] for i in range(n)]

    def chance_outcomes(self):
        cdef int actions[2]
        cdef double probs[2]
        cdef int n = coin_chance(&self.game.data, &self.st, actions, probs)
        return [(actions[i], probs[i]) for i in range(n)]

    def apply_action(self, action):
        from solver.errors import IllegalActionError

        if action not in self.legal_actions():
            raise IllegalActionError(f"{action!r} is not legal here")
        coin_apply(&self.game.data, &self.st, action)

    def clone(self):
        cdef CoinPosition copy = CoinPosition.__new__(CoinPosition)
        copy.game = self.game
        copy.st = self.st
        return copy

    def returns(self):
        cdef double out[1]
        if not coin_terminal(&self.game.data, &self.st):
            return [0.0]
        coin_returns(&self.game.data, &self.st, out)
        return [out[0]]

    def action_to_string(self, int action):
        return LABELS[action]

    def string_to_action(self, str label):
        from solver.errors import IllegalActionError

        if label not in LABELS:
            raise IllegalActionError(f"no action is labelled {label!r}")
        return LABELS.index(label)

    def to_json(self):
        return f'{{"phase": {self.st.phase}, "total": {self.st.total}, "turn": {self.st.turn}}}'

    def _state_capsule(self):
        return state_capsule(&self.st, self)


def _declare_max_actions(int n):
    """Test knob: make the vtable claim ``n`` as its ``max_actions`` (the searchers check it)."""
    COIN_VTABLE.max_actions = n
