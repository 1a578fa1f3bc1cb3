"""The Trial's own agent: ``heuristic``, a rule-based player (``forest trial play --agents
heuristic,...``).

It sees only what its seat sees in practice: its hand, the board and its own possessions (it never
looks at another player's hand or at a deck's order). At the turn step it follows fixed
priorities: play the deed card worth the most fame; else a paw on an encounter without a fight (a
sure story card) or on a fight it expects to win (its board and story strength, best weapon and
two best face-down cards against the foe's strength plus 1.5 a die; never one it expects to lose:
help comes first); else on the location; else on the expedition, move (once), help, and end the
turn; a strong paw only when no plain paw is left for the same target. It never drops an item or
artifact (that only loses what it is worth). Moving, it prefers a location where it has no paw yet
(its next paw can go there), with every paw used a campsite (its bonus when it camps), then any
location, an expedition's exit or a campsite before a bare path. In a fight it adds a face-down
card while it holds more than two (the one with the most enhancement symbols), and it always takes
an optional free card. Every other step (paying, choosing, picking food, the store...) is decided
one action ahead by :func:`material`: its fame plus small weights on food, cards in hand, backpack
items and story cards. Ties are broken at random (seeded SplitMix64).

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


def _encounter_priority(state: Any, cid: str) -> float:
    """An encounter without a fight is a sure story card: before the location. A fight only when
    the player's expected strength beats the foe's (a lost fight wastes the paw)."""
    from solver.games.trial.fights import base_strength, card_strength

    card = state.g.pack.card(cid)
    fame = float(card.get("fame", 0))
    fights = [e["fight"] for e in card.get("effect", []) if "fight" in e]
    if not fights:
        return 8.5 + 0.1 * fame
    p = state.current_player()
    me = state.d["players"][p]
    pack = state.g.pack
    weapon = max((int(pack.item(k).get("strength", 0)) + 1.5 * int(pack.item(k).get("dice", 0))
                  for k in me["pack"]), default=0.0)  # fmt: skip
    cards = sorted((card_strength(state, c) for c in me["hand"]), reverse=True)[:2]
    mine = base_strength(state, p) + weapon + sum(cards)
    foe = fights[0]
    theirs = float(foe.get("strength", 0)) + 1.5 * float(foe.get("dice", 0))
    return (8.5 if mine > theirs + 0.5 else 2.0) + 0.1 * fame


def _turn_priority(state: Any, action: int) -> float:
    layout = state.L
    name, i = layout.family(action)
    if name == "card":
        card = state.g.pack.card(layout.cards[i])
        return 10.0 + float(card.get("fame", 0))
    if name == "paw":
        target, strong = divmod(i, 2)
        if target in (1, 2, 3):
            base = _encounter_priority(state, state.d["row"][target - 1])
        else:
            base = {0: 8.0, 4: 3.0, 5: 6.0}.get(target, 2.0)
        return base - 0.5 * strong
    if action == layout.MOVE:
        return 5.0
    if action == layout.END_TURN:
        return 0.0
    if name == "sell":
        return -1.0  # dropping an item or artifact only loses what it is worth
    return 1.0


def _space_priority(state: Any, action: int, p: int) -> float:
    """A location where ``p`` has no paw yet (a paw can go there next); with every paw used, a
    campsite (camping there takes its bonus); then the fixed preference."""
    from solver.games.trial.turns import own_token_on

    layout = state.L
    name, i = layout.family(action)
    if name != "space":
        return 0.0
    space = layout.spaces[i]
    me = state.d["players"][p]
    if not me["paws"] and not me["strong"]:
        return 4.0 if space.startswith("camp") else 1.0
    if space in state.g.board.slot and own_token_on(state, p, space):
        return 0.5
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
            scores = [_space_priority(state, a, p) for a in legal]
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
