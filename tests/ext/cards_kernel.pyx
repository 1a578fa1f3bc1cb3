# cython: language_level=3
"""A two-player card game with hidden hands and chance deals, as a kernel of ABI 2.

Written only against the shipped interface (``solver.get_include()``) and compiled out of tree by
the tests (``tests/ext/conftest.py``), it fills the hidden-information slots of ``KernelVTable``
(``information_state_key``, ``resample_hidden``, ``playout_action``) so that the compiled ISMCTS
(``ext/ismcts.pyx``) can be held to the Python ISMCTS on its pure-Python twin
(``tests/ext/cards_twin.py``, the same rules written independently).

The game ("high cards", ``CardsGame(cards, hand)``): cards ``0..cards-1``, a higher id beats a
lower one. Chance deals ``hand`` cards to each player, alternately, player 0 first; each player
sees only its own. Then tricks: the leader (player 0 first) plays a card face up, the other
player answers with one; the higher card takes the trick and its player leads next. After every
trick, while two or more cards are left undealt, each player draws one (the trick's winner
first), seen only by the drawer. When the hands are empty the game ends: more tricks wins (1 and
0), equal tricks share (0.5 each). Action ids are the card ids, for deals and plays alike.

What a player knows: its own hand, every card played and by whom (the order of the plays and
who led is public), the hand sizes and whose card is dealt next. Its information key hashes
exactly that; ``resample_hidden`` collects the cards it has not seen in ascending order (so the
redeal never depends on where the real hidden cards lie), shuffles them and deals the other
player's hand from them, the rest staying undealt.

The playout policy: the leader leads its highest card when no card it has not seen beats it,
else a card of its hand uniformly at random; the other player takes the trick with its cheapest
winning card, else throws its lowest.
"""

from libc.stdint cimport uint8_t, uint16_t, uint64_t
from rng cimport splitmix64_below, splitmix64_mix
from state cimport (
    KERNEL_CHANCE, KERNEL_TERMINAL, KernelHandle, KernelVTable, handle_capsule, state_capsule,
)

cdef enum:
    MAX_CARDS = 16
    PH_DEAL = 0
    PH_LEAD = 1
    PH_FOLLOW = 2
    PH_OVER = 3

ctypedef struct cards_data_t:
    int cards
    int hand
    int tricks          # tricks in a game: hand + (cards - 2 * hand) // 2
    uint16_t full       # the mask of every card

ctypedef struct cards_state_t:
    uint16_t hand[2]    # each player's hand, one bit per card
    uint16_t deck       # the cards not dealt yet
    uint8_t plays[16]   # the cards played, in order (public)
    uint8_t n_plays
    uint8_t phase
    uint8_t receiver    # who is dealt the next card
    uint8_t deals_left  # cards still to deal before play resumes
    uint8_t leader
    uint8_t tricks[2]
    uint8_t _pad

assert sizeof(cards_state_t) == 30


cdef inline int popcount(uint16_t mask) noexcept nogil:
    cdef int n = 0
    while mask:
        mask &= mask - 1
        n += 1
    return n

cdef inline uint16_t played_mask(const cards_state_t* s) noexcept nogil:
    cdef uint16_t mask = 0
    cdef int k
    for k in range(s.n_plays):
        mask |= <uint16_t>(1 << s.plays[k])
    return mask

cdef inline int mover(const cards_state_t* s) noexcept nogil:
    return s.leader if s.phase == PH_LEAD else 1 - s.leader

cdef int cards_player(const void* game, const void* state) noexcept nogil:
    cdef const cards_state_t* s = <const cards_state_t*>state
    if s.phase == PH_OVER:
        return KERNEL_TERMINAL
    if s.phase == PH_DEAL:
        return KERNEL_CHANCE
    return mover(s)

cdef bint cards_terminal(const void* game, const void* state) noexcept nogil:
    return (<const cards_state_t*>state).phase == PH_OVER

cdef int list_cards(uint16_t mask, int* out) noexcept nogil:
    cdef int n = 0
    cdef int c
    for c in range(MAX_CARDS):
        if mask & (1 << c):
            out[n] = c
            n += 1
    return n

cdef int cards_legal(const void* game, const void* state, int* actions) noexcept nogil:
    cdef const cards_state_t* s = <const cards_state_t*>state
    if s.phase == PH_OVER:
        return 0
    if s.phase == PH_DEAL:
        return list_cards(s.deck, actions)
    return list_cards(s.hand[mover(s)], actions)

cdef int cards_chance(const void* game, const void* state, int* actions,
                      double* probs) noexcept nogil:
    cdef const cards_state_t* s = <const cards_state_t*>state
    if s.phase != PH_DEAL:
        return 0
    cdef int n = list_cards(s.deck, actions)
    cdef int k
    for k in range(n):
        probs[k] = 1.0 / n
    return n

cdef void cards_apply(const void* game, void* state, int action) noexcept nogil:
    cdef cards_state_t* s = <cards_state_t*>state
    cdef uint16_t bit = <uint16_t>(1 << action)
    cdef int p, winner
    if s.phase == PH_DEAL:
        s.hand[s.receiver] |= bit
        s.deck &= ~bit
        s.receiver = 1 - s.receiver
        s.deals_left -= 1
        if s.deals_left == 0:
            s.phase = PH_LEAD
        return
    p = mover(s)
    s.hand[p] &= ~bit
    s.plays[s.n_plays] = <uint8_t>action
    s.n_plays += 1
    if s.phase == PH_LEAD:
        s.phase = PH_FOLLOW
        return
    winner = p if action > s.plays[s.n_plays - 2] else s.leader
    s.tricks[winner] += 1
    s.leader = winner
    if popcount(s.deck) >= 2:
        s.phase = PH_DEAL
        s.deals_left = 2
        s.receiver = winner
    elif s.hand[0] == 0:
        s.phase = PH_OVER
    else:
        s.phase = PH_LEAD

cdef void cards_returns(const void* game, const void* state, double* out) noexcept nogil:
    cdef const cards_state_t* s = <const cards_state_t*>state
    out[0] = 0.0
    out[1] = 0.0
    if s.phase != PH_OVER:
        return
    if s.tricks[0] > s.tricks[1]:
        out[0] = 1.0
    elif s.tricks[1] > s.tricks[0]:
        out[1] = 1.0
    else:
        out[0] = 0.5
        out[1] = 0.5

cdef inline uint64_t mix_in(uint64_t h, uint64_t value) noexcept nogil:
    return splitmix64_mix(h ^ value) + 0x9E3779B97F4A7C15ULL

cdef uint64_t cards_hash(const void* game, const void* state) noexcept nogil:
    cdef const uint8_t* b = <const uint8_t*>state
    cdef uint64_t h = 0
    cdef size_t k
    for k in range(sizeof(cards_state_t)):
        h = mix_in(h, b[k])
    return h

cdef int rank_sum(uint16_t mask) noexcept nogil:
    cdef int total = 0
    cdef int c
    for c in range(MAX_CARDS):
        if mask & (1 << c):
            total += c
    return total

cdef double cards_heuristic(const void* game, const void* state, int player) noexcept nogil:
    # the trick lead, plus a quarter trick per card's worth of rank difference in hand
    cdef const cards_data_t* g = <const cards_data_t*>game
    cdef const cards_state_t* s = <const cards_state_t*>state
    cdef int lead = s.tricks[player] - s.tricks[1 - player]
    cdef int diff = rank_sum(s.hand[player]) - rank_sum(s.hand[1 - player])
    cdef double v = 0.5 + (lead + 0.25 * diff / g.cards) / (2.0 * g.tricks)
    return 0.0 if v < 0.0 else 1.0 if v > 1.0 else v

cdef uint64_t cards_info_key(const void* game, const void* state, int observer) noexcept nogil:
    cdef const cards_state_t* s = <const cards_state_t*>state
    cdef uint64_t h = mix_in(0, s.hand[observer])
    cdef int k
    h = mix_in(h, popcount(s.hand[1 - observer]))
    h = mix_in(h, s.n_plays)
    for k in range(s.n_plays):
        h = mix_in(h, s.plays[k])
    h = mix_in(h, s.phase)
    h = mix_in(h, s.receiver)
    h = mix_in(h, s.deals_left)
    h = mix_in(h, s.leader)
    h = mix_in(h, s.tricks[0])
    return mix_in(h, s.tricks[1])

cdef int cards_resample(const void* game, void* state, int observer, uint64_t* rng) noexcept nogil:
    cdef const cards_data_t* g = <const cards_data_t*>game
    cdef cards_state_t* s = <cards_state_t*>state
    cdef int pool[16]
    cdef uint16_t unseen = g.full & ~s.hand[observer] & ~played_mask(s)
    cdef int n = list_cards(unseen, pool)
    cdef int other = 1 - observer
    cdef int size = popcount(s.hand[other])
    cdef int i, j, t
    if size > n:
        return 1
    for i in range(n - 1, 0, -1):
        j = splitmix64_below(rng, i + 1)
        t = pool[i]
        pool[i] = pool[j]
        pool[j] = t
    s.hand[other] = 0
    s.deck = 0
    for i in range(n):
        if i < size:
            s.hand[other] |= <uint16_t>(1 << pool[i])
        else:
            s.deck |= <uint16_t>(1 << pool[i])
    return 0

cdef int highest(uint16_t mask) noexcept nogil:
    cdef int c
    for c in range(MAX_CARDS - 1, -1, -1):
        if mask & (1 << c):
            return c
    return -1

cdef int cards_policy(const void* game, const void* state, uint64_t* rng) noexcept nogil:
    cdef const cards_data_t* g = <const cards_data_t*>game
    cdef const cards_state_t* s = <const cards_state_t*>state
    cdef int p = mover(s)
    cdef uint16_t mine = s.hand[p]
    cdef int cards[16]
    cdef int n, c, lead
    if s.phase == PH_LEAD:
        if highest(mine) > highest(g.full & ~mine & ~played_mask(s)):
            return highest(mine)
        n = list_cards(mine, cards)
        return cards[splitmix64_below(rng, n)]
    lead = s.plays[s.n_plays - 1]
    for c in range(lead + 1, MAX_CARDS):
        if mine & (1 << c):
            return c
    n = list_cards(mine, cards)
    return cards[0]


cdef KernelVTable CARDS_VTABLE
CARDS_VTABLE.name = "cards"
CARDS_VTABLE.state_size = sizeof(cards_state_t)
CARDS_VTABLE.num_players = 2
CARDS_VTABLE.num_distinct_actions = MAX_CARDS
CARDS_VTABLE.max_actions = MAX_CARDS
CARDS_VTABLE.current_player = cards_player
CARDS_VTABLE.is_terminal = cards_terminal
CARDS_VTABLE.legal_actions = cards_legal
CARDS_VTABLE.chance_outcomes = cards_chance
CARDS_VTABLE.apply_action = cards_apply
CARDS_VTABLE.returns = cards_returns
CARDS_VTABLE.hash = cards_hash
CARDS_VTABLE.heuristic = cards_heuristic
CARDS_VTABLE.utility_min = 0.0
CARDS_VTABLE.utility_max = 1.0
CARDS_VTABLE.information_state_key = cards_info_key
CARDS_VTABLE.resample_hidden = cards_resample
CARDS_VTABLE.playout_action = cards_policy


cdef class CardsGame:
    cdef cards_data_t data
    cdef KernelHandle handle
    cdef public str name

    def __init__(self, int cards=8, int hand=2):
        if not (1 <= hand and 2 * hand <= cards <= MAX_CARDS):
            raise ValueError(f"need 1 <= hand and 2 * hand <= cards <= 16, not {cards}, {hand}")
        self.data.cards = cards
        self.data.hand = hand
        self.data.tricks = hand + (cards - 2 * hand) // 2
        self.data.full = <uint16_t>((1 << cards) - 1)
        self.handle.vtable = &CARDS_VTABLE
        self.handle.game = &self.data
        self.name = "cards"

    @property
    def cards(self):
        return self.data.cards

    @property
    def hand(self):
        return self.data.hand

    def num_players(self):
        return 2

    def num_distinct_actions(self):
        return MAX_CARDS

    def max_game_length(self):
        return 2 * self.data.cards

    def new_initial_state(self):
        cdef CardsPosition position = CardsPosition.__new__(CardsPosition)
        position.game = self
        position.st.deck = self.data.full
        position.st.deals_left = 2 * self.data.hand
        return position

    def _kernel_handle(self):
        return handle_capsule(&self.handle, self)


cdef class CardsPosition:
    cdef cards_state_t st
    cdef readonly CardsGame game

    def clone(self):
        cdef CardsPosition other = CardsPosition.__new__(CardsPosition)
        other.game = self.game
        other.st = self.st
        return other

    def __copy__(self):
        return self.clone()

    def __deepcopy__(self, memo):
        return self.clone()

    def apply_action(self, int action):
        if action not in self.legal_actions():
            raise ValueError(f"card {action} is not legal here")
        cards_apply(&self.game.data, &self.st, action)

    def current_player(self):
        return cards_player(&self.game.data, &self.st)

    def is_terminal(self):
        return self.st.phase == PH_OVER

    def is_chance_node(self):
        return self.st.phase == PH_DEAL

    def legal_actions(self):
        cdef int actions[16]
        cdef int n = cards_legal(&self.game.data, &self.st, actions)
        return [actions[k] for k in range(n)]

    def chance_outcomes(self):
        cdef int actions[16]
        cdef double probs[16]
        cdef int n = cards_chance(&self.game.data, &self.st, actions, probs)
        return [(actions[k], probs[k]) for k in range(n)]

    def returns(self):
        cdef double out[2]
        cards_returns(&self.game.data, &self.st, out)
        return [out[0], out[1]]

    def action_to_string(self, int action):
        return f"deal {action}" if self.st.phase == PH_DEAL else f"play {action}"

    def string_to_action(self, str label):
        """The legal action labelled ``label`` here (``ValueError`` for any other label)."""
        for action in self.legal_actions():
            if self.action_to_string(action) == label:
                return action
        raise ValueError(f"no legal action is labelled {label!r}")

    def heuristic(self, int player):
        return cards_heuristic(&self.game.data, &self.st, player)

    def information_key(self, int player):
        """The kernel's information key for ``player`` (tests)."""
        return cards_info_key(&self.game.data, &self.st, player)

    def information_state_string(self, int player):
        return repr(self.view(player))

    def observation(self, int player):
        """What ``player`` sees now (its whole view: the game has perfect recall of the plays)."""
        return self.information_state_string(player)

    def view(self, int player):
        """What ``player`` knows: its hand, the other hand's size, the plays and the counters."""
        return (self.hand_of(player), popcount(self.st.hand[1 - player]),
                [self.st.plays[k] for k in range(self.st.n_plays)], self.st.phase,
                self.st.receiver, self.st.deals_left, self.st.leader,
                (self.st.tricks[0], self.st.tricks[1]))

    def hand_of(self, int player):
        cdef int cards[16]
        cdef int n = list_cards(self.st.hand[player], cards)
        return [cards[k] for k in range(n)]

    def deck(self):
        cdef int cards[16]
        cdef int n = list_cards(self.st.deck, cards)
        return [cards[k] for k in range(n)]

    def with_cards(self, hand0, hand1, deck):
        """A copy with these hands and undealt cards (tests: another deal of the hidden cards)."""
        cdef CardsPosition other = self.clone()
        other.st.hand[0] = sum(1 << c for c in hand0)
        other.st.hand[1] = sum(1 << c for c in hand1)
        other.st.deck = sum(1 << c for c in deck)
        return other

    def resample_hidden(self, int player, rng):
        """A copy with what ``player`` cannot see redealt: the kernel's ``resample_hidden`` drawing
        from a SplitMix64 seeded with ``rng.next_u64()`` (``rng``: a ``solver.rng.SplitMix64``)."""
        cdef CardsPosition other = self.clone()
        cdef uint64_t s = rng.next_u64()
        if cards_resample(&self.game.data, &other.st, player, &s) != 0:
            raise RuntimeError("inconsistent hands")
        return other

    def playout_action(self, rng):
        """The playout policy's action, drawing from ``rng`` (a ``solver.rng.SplitMix64``)."""
        cdef uint64_t s = rng.state
        cdef int action = cards_policy(&self.game.data, &self.st, &s)
        rng.state = s
        return action

    def to_bytes(self):
        return bytes((<unsigned char*>&self.st)[:sizeof(cards_state_t)])

    def _state_capsule(self):
        return state_capsule(&self.st, self)


def _declare_hidden_slots(bint on):
    """Test knob: fill or empty the vtable's hidden-information slots (the searchers check)."""
    CARDS_VTABLE.information_state_key = NULL
    CARDS_VTABLE.resample_hidden = NULL
    CARDS_VTABLE.playout_action = NULL
    if on:
        CARDS_VTABLE.information_state_key = cards_info_key
        CARDS_VTABLE.resample_hidden = cards_resample
        CARDS_VTABLE.playout_action = cards_policy
