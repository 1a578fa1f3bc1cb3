"""The Trial's own agent: ``heuristic``, a rule-based player (``forest trial play --agents
heuristic,...``).

It sees only what its seat sees in practice: its hand, the board and its own possessions (it
never looks at another player's hand or at a deck's order). At the turn step it follows fixed
priorities: play the deed card worth the most fame, else use a paw on the location, else on an
encounter, else move (once), else help, else end the turn; a strong paw only when no plain paw is
left for the same target. Moving, it prefers a location, a campsite or an expedition's exit to a
bare path. In a fight it adds a face-down card while it holds more than two (the one with the
most enhancement symbols), and it always takes an optional free card. Every other step
(paying, choosing, picking food, the store...) is decided one action ahead by
:func:`material`: its fame plus small weights on food, cards in hand, backpack items and story
cards. Ties are broken at random (seeded SplitMix64).

>>> import solver
>>> from solver.play import play_game
>>> game = solver.load_game("trial", players=2)
>>> record = play_game(game, [heuristic_agent(game, seed=1), heuristic_agent(game, seed=2)], seed=3)
>>> record.final.is_terminal()
True
"""

from __future__ import annotations

from typing import Any

from solver.rng import SplitMix64, check_seed
from solver.spec import Agent

__all__ = ["heuristic_agent", "material"]

FOOD_WEIGHT = 0.3
"""Fame a food is worth to the heuristic player (tea counts the same)."""
CARD_WEIGHT = 0.4
"""Fame a deed card in hand is worth."""
ITEM_WEIGHT = 0.5
"""Fame an item in the backpack is worth, on top of its own fame."""
STORY_WEIGHT = 0.1
"""Fame a story card is worth on top of its fame (the tie-break counts story cards)."""

_SPACE_PREFERENCE = (("grove", 3.0), ("ruins", 3.0), ("lookout", 3.0), ("store", 3.0),
                     ("exit", 2.5), ("camp", 2.0), ("start", 1.0), ("path", 1.0))  # fmt: skip


def material(state: Any, p: int) -> float:
    """Player ``p``'s fame plus the weighted food, hand, backpack and story cards."""
    from solver.games.trial.scoring import fame

    me = state.d["players"][p]
    return (
        fame(state, p)["total"]
        + FOOD_WEIGHT * sum(me["food"].values())
        + CARD_WEIGHT * len(me["hand"])
        + ITEM_WEIGHT * len(me["pack"])
        + STORY_WEIGHT * len(me["story"])
    )


def _turn_priority(state: Any, action: int) -> float:
    layout = state.L
    name, i = layout.family(action)
    if name == "card":
        card = state.g.pack.card(layout.cards[i])
        return 10.0 + float(card.get("fame", 0))
    if name == "paw":
        target, strong = divmod(i, 2)
        base = {0: 8.0, 1: 7.0, 2: 7.0, 3: 7.0, 4: 3.0, 5: 6.0}.get(target, 2.0)
        return base - 0.5 * strong
    if action == layout.MOVE:
        return 5.0
    if action == layout.END_TURN:
        return 0.0
    return 1.0


def _space_priority(state: Any, action: int) -> float:
    layout = state.L
    name, i = layout.family(action)
    if name != "space":
        return 0.0
    space = layout.spaces[i]
    for prefix, value in _SPACE_PREFERENCE:
        if space.startswith(prefix):
            return value
    return 1.0


def _fight_card_priority(state: Any, action: int, keep: bool) -> float:
    """A face-down fight card while the hand holds more than two: the one with the most
    enhancement symbols (each is a strength point), the least fame on a tie."""
    from solver.games.trial.fights import card_strength

    layout = state.L
    if action == layout.TOKEN:
        return 0.5  # the one-time strength tent symbol: better than stopping
    name, i = layout.family(action)
    if name != "card":
        return 0.0 if keep else 1.0
    if not keep:
        return 0.0
    cid = layout.cards[i]
    return 1.0 + card_strength(state, cid) - 0.01 * float(state.g.pack.card(cid).get("fame", 0))


def heuristic_agent(game: Any, *, seed: int = 0, iterations: int = 0) -> Agent:
    """The rule-based player (``iterations`` is ignored: it does not search)."""
    rng = SplitMix64(check_seed(seed))

    def choose(state: Any) -> int:
        legal = state.legal_actions()
        if len(legal) == 1:
            return int(legal[0])
        p = state.current_player()
        step = state.d["stack"][-1]["k"]
        if step == "turn":
            scores = [_turn_priority(state, a) for a in legal]
        elif step == "move":
            scores = [_space_priority(state, a) for a in legal]
        elif step == "fight_cards":
            keep = len(state.d["players"][p]["hand"]) > 2
            scores = [_fight_card_priority(state, a, keep) for a in legal]
        elif step == "draw_offer":
            scores = [1.0 if a == state.L.YES else 0.0 for a in legal]
        else:
            scores = []
            for a in legal:
                probe = state.clone()
                probe.apply_action(a)
                scores.append(material(probe, p))
        best = max(scores)
        top = [a for a, s in zip(legal, scores, strict=True) if s >= best - 1e-9]
        return int(top[rng.below(len(top))])

    return choose
