"""The pure-Python twin of ``cards_kernel.pyx`` ("high cards"): the same rules, written apart.

Also :func:`cards_spec`, a ``GameSpec`` of the compiled kernel for the OpenSpiel interop.

Hands are sets, the plays a list; the information state is the player's view as a string. The
redeal and the playout policy draw exactly as the kernel's (the redeal from a SplitMix64 seeded
with ``rng.next_u64()``, Fisher-Yates from the last card down; the policy's random lead with
``rng.below``), so a search over the twin and the compiled search over the kernel see the same
worlds. The tests compare the two over every observable.
"""

from __future__ import annotations

from typing import Any

from solver.game import CHANCE, TERMINAL
from solver.rng import SplitMix64
from solver.spec import GameSpec, Opened

DEAL, LEAD, FOLLOW, OVER = range(4)


class CardsTwinGame:
    """The twin's game: named as the kernel's (``"cards"``), so one declaration covers both
    (``tests/conftest.py``'s ``declared_cards``)."""

    name = "cards"


class CardsTwin:
    """A position of high cards with ``cards`` cards and ``hand`` cards a hand."""

    def __init__(self, cards: int = 8, hand: int = 2) -> None:
        self.cards = cards
        self.size = hand
        self.tricks_in_game = hand + (cards - 2 * hand) // 2
        self.hands: list[set[int]] = [set(), set()]
        self.deck = set(range(cards))
        self.plays: list[int] = []
        self.phase = DEAL
        self.receiver = 0
        self.deals_left = 2 * hand
        self.leader = 0
        self.tricks = [0, 0]

    def get_game(self) -> CardsTwinGame:
        return CardsTwinGame()

    def clone(self) -> CardsTwin:
        twin = CardsTwin.__new__(CardsTwin)
        twin.__dict__.update(self.__dict__)
        twin.hands = [set(h) for h in self.hands]
        twin.deck = set(self.deck)
        twin.plays = list(self.plays)
        twin.tricks = list(self.tricks)
        return twin

    def _mover(self) -> int:
        return self.leader if self.phase == LEAD else 1 - self.leader

    def current_player(self) -> int:
        if self.phase == OVER:
            return TERMINAL
        return CHANCE if self.phase == DEAL else self._mover()

    def is_terminal(self) -> bool:
        return self.phase == OVER

    def is_chance_node(self) -> bool:
        return self.phase == DEAL

    def legal_actions(self) -> list[int]:
        if self.phase == OVER:
            return []
        return sorted(self.deck if self.phase == DEAL else self.hands[self._mover()])

    def chance_outcomes(self) -> list[tuple[int, float]]:
        if self.phase != DEAL:
            return []
        return [(c, 1.0 / len(self.deck)) for c in sorted(self.deck)]

    def apply_action(self, action: int) -> None:
        if action not in self.legal_actions():
            raise ValueError(f"card {action} is not legal here")
        if self.phase == DEAL:
            self.hands[self.receiver].add(action)
            self.deck.discard(action)
            self.receiver = 1 - self.receiver
            self.deals_left -= 1
            if self.deals_left == 0:
                self.phase = LEAD
            return
        self.hands[self._mover()].discard(action)
        self.plays.append(action)
        if self.phase == LEAD:
            self.phase = FOLLOW
            return
        follower = 1 - self.leader
        winner = follower if action > self.plays[-2] else self.leader
        self.tricks[winner] += 1
        self.leader = winner
        if len(self.deck) >= 2:
            self.phase, self.deals_left, self.receiver = DEAL, 2, winner
        elif not self.hands[0]:
            self.phase = OVER
        else:
            self.phase = LEAD

    def returns(self) -> list[float]:
        if self.phase != OVER:
            return [0.0, 0.0]
        if self.tricks[0] == self.tricks[1]:
            return [0.5, 0.5]
        return [1.0, 0.0] if self.tricks[0] > self.tricks[1] else [0.0, 1.0]

    def action_to_string(self, action: int) -> str:
        return f"deal {action}" if self.phase == DEAL else f"play {action}"

    def heuristic(self, player: int) -> float:
        lead = self.tricks[player] - self.tricks[1 - player]
        diff = sum(self.hands[player]) - sum(self.hands[1 - player])
        value = 0.5 + (lead + 0.25 * diff / self.cards) / (2.0 * self.tricks_in_game)
        return min(1.0, max(0.0, value))

    def view(self, player: int) -> tuple[Any, ...]:
        return (
            sorted(self.hands[player]),
            len(self.hands[1 - player]),
            list(self.plays),
            self.phase,
            self.receiver,
            self.deals_left,
            self.leader,
            tuple(self.tricks),
        )

    def information_state_string(self, player: int) -> str:
        return repr(self.view(player))

    def observation(self, player: int) -> str:
        return self.information_state_string(player)

    def resample_hidden(self, player: int, rng: SplitMix64) -> CardsTwin:
        draw = SplitMix64(rng.next_u64())
        unseen = sorted(set(range(self.cards)) - self.hands[player] - set(self.plays))
        for i in range(len(unseen) - 1, 0, -1):
            j = draw.below(i + 1)
            unseen[i], unseen[j] = unseen[j], unseen[i]
        size = len(self.hands[1 - player])
        twin = self.clone()
        twin.hands[1 - player] = set(unseen[:size])
        twin.deck = set(unseen[size:])
        return twin

    def playout_action(self, rng: SplitMix64) -> int:
        mine = sorted(self.hands[self._mover()])
        if self.phase == LEAD:
            unseen = set(range(self.cards)) - set(mine) - set(self.plays)
            if not unseen or mine[-1] > max(unseen):
                return mine[-1]
            return mine[rng.below(len(mine))]
        winners = [c for c in mine if c > self.plays[-1]]
        return winners[0] if winners else mine[0]


def cards_spec(cards: Any, n: int = 10, hand: int = 3) -> GameSpec:
    """A declaration of the compiled kernel ``cards`` (the module) with ``n`` cards and ``hand``
    a hand: one engine, one set-up, for :func:`solver.interop.openspiel.register_spec`."""

    name = f"cards{n}x{hand}"

    def make(**_options: Any) -> Any:
        game = cards.CardsGame(n, hand)
        game.name = name
        return game

    def open_game(source: Any = None, *, engine: Any = None, players: Any = None) -> Opened:
        game = make()
        return Opened(game, game.new_initial_state(), "default")

    return GameSpec(
        name=name,
        title=f"high cards ({n} cards, {hand} a hand)",
        summary="the hidden-information test kernel",
        players=(2,),
        engines={"kernel": make},
        open=open_game,
        hidden_information=True,
        constant_sum=True,
        heuristic=True,
        default_source=True,
        max_game_length=lambda game: game.max_game_length(),
    )
