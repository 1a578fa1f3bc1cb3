"""The Trial's own agent: ``heuristic``, a rule-based player (``forest trial play --agents
heuristic,...``).

It sees only what its seat sees in practice: its hand, the board and its own possessions (it never
looks at another player's hand or at a deck's order). At the turn step it follows fixed
priorities: play the deed card worth the most fame (a fight card only if it expects to win the
fight); else a paw on an encounter without a fight (a sure story card) or on a fight it expects to
win; else on the location; else on the expedition, move (once), help, and end the turn; a strong
paw only when no plain paw is left for the same target. It expects to win a fight when its chance
is at least :data:`FIGHT_THRESHOLD`, computed exactly from the dice (:func:`fight_chance`: its
board and story strength, its best weapon, its best 2 strength cards to discard and 2 more cards
to play face down, its one die plus die symbols, against the foe's strength and dice). It never
drops an item or artifact (that only loses what it is worth). Moving, it prefers a location where
it has no paw yet (its next paw can go there), with every paw used a campsite (its bonus when it
camps), then any location, an expedition's exit or a campsite before a bare path. In a fight it
takes the weapon with the best chance, and at the card stages the cheapest plan that wins the
fight as it stands (:func:`card_plan`: fewest cards, then least fame; nothing when no plan wins:
cards discarded for a lost fight are lost); it always takes an optional free card. Every other
step (paying, choosing, picking food, the store...) is decided one action ahead by
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

_SPACE_PREFERENCE = (
    ("grove", 3.0),
    ("ruins", 3.0),
    ("lookout", 3.0),
    ("store", 3.0),
    ("exit", 2.5),
    ("camp", 2.0),
    ("start", 1.0),
    ("path", 1.0),
)
"""The heuristic player's liking for a space by its id's prefix (any other: 1.0); the compiled
engine reads it through ``kernel_tables.SPACE_PREFERENCE``."""


def material(state: Any, p: int) -> float:
    """Player ``p``'s fame plus the weighted food, hand, backpack and story cards."""
    from solver.games.trial.scoring import fame

    me = state.data["players"][p]
    return (
        fame(state, p)["total"]
        + FOOD_WEIGHT * sum(me["food"].values())
        + CARD_WEIGHT * len(me["hand"])
        + ITEM_WEIGHT * len(me["backpack"])
        + STORY_WEIGHT * len(me["story"])
    )


FIGHT_THRESHOLD = 0.5
"""The least chance of winning for which the heuristic player starts a fight."""
BOW_VALUE = 1.0
"""Strength the heuristic player credits the bow with when it compares weapons."""


def _fight_of(card: dict[str, Any]) -> dict[str, Any] | None:
    """The card's top-level foe (its ``fight`` effect), if any."""
    return next((e["fight"] for e in card.get("effect", []) if "fight" in e), None)


def best_card_strength(state: Any, hand: list[str]) -> int:
    """The most strength a fighter can add from ``hand``: 2 cards discarded for their strength
    symbols, then 2 more played face down (each worth all its enhancement symbols). A strength
    card is worth the same either way, so the two best strength cards are discarded and the two
    best of the rest go face down."""
    from solver.games.trial.fights import CARDS_PER_STAGE, card_strength, strength_card

    strong = sorted(
        (strength_card(state, c) for c in hand if strength_card(state, c)), reverse=True
    )
    discarded = strong[:CARDS_PER_STAGE]
    rest = strong[CARDS_PER_STAGE:] + [
        card_strength(state, c) for c in hand if not strength_card(state, c)
    ]
    return sum(discarded) + sum(sorted(rest, reverse=True)[:CARDS_PER_STAGE])


def weapon_options(state: Any, p: int) -> list[str | None]:
    """The weapons ``p`` may choose (``None``: none)."""
    from solver.games.trial.fights import weapons

    return [None, *weapons(state, p)]


def fight_chance(state: Any, p: int, strength: int, dice: int, weapon: str | None) -> float:
    """``p``'s chance to beat a foe of ``strength`` + ``dice`` dice (already counted against
    the shield) fighting with ``weapon``, adding the best cards of their hand: the exact dice
    distribution of :func:`solver.games.trial.fights.win_chance`; the bow's instant win first."""
    from solver.games.trial.fights import adventurer_dice, base_strength, die_faces, win_chance

    me = state.data["players"][p]
    entry = state.game.pack.item(weapon) if weapon else {}
    fixed = base_strength(state, p) + int(entry.get("strength", 0))
    fixed += best_card_strength(state, me["hand"])
    faces = die_faces(state)
    chance = win_chance(faces, fixed - strength, adventurer_dice(state, p, weapon), dice)
    if entry.get("bow"):
        instant = sum(prob for _, win, prob in faces if win)
        chance = instant + (1 - instant) * chance
    return chance


def foe_chance(state: Any, p: int, foe: dict[str, Any]) -> float:
    """``p``'s best chance against ``foe`` (a card's ``fight`` argument), over its weapons."""
    from solver.games.trial.fights import foe_dice

    dice = foe_dice(state, p, int(foe.get("dice", 0)))
    strength = int(foe.get("strength", 0))
    return max(fight_chance(state, p, strength, dice, w) for w in weapon_options(state, p))


def _encounter_priority(state: Any, cid: str) -> float:
    """An encounter without a fight is a sure story card: before the location. A fight only when
    the chance of winning it is at least :data:`FIGHT_THRESHOLD` (a lost fight wastes the paw)."""
    card = state.game.pack.card(cid)
    fame = float(card.get("fame", 0))
    foe = _fight_of(card)
    if foe is None:
        return 8.5 + 0.1 * fame
    chance = foe_chance(state, state.current_player(), foe)
    return (8.5 if chance >= FIGHT_THRESHOLD else 2.0) + 0.1 * fame


def _turn_priority(state: Any, action: int) -> float:
    layout = state.layout
    name, i = layout.family(action)
    if name == "card":
        card = state.game.pack.card(layout.cards[i])
        foe = _fight_of(card)
        if foe is not None and foe_chance(state, state.current_player(), foe) < FIGHT_THRESHOLD:
            return 1.5  # a fight it expects to lose: only before ending the turn
        return 10.0 + float(card.get("fame", 0))
    if name == "paw":
        target, strong = divmod(i, 2)
        if target in (1, 2, 3):
            base = _encounter_priority(state, state.data["encounter_row"][target - 1])
        else:
            base = {0: 8.0, 4: 3.0, 5: 6.0}.get(target, 2.0)
        return base - 0.5 * strong
    if action == layout.MOVE:
        return 5.0
    if action == layout.END_TURN:
        return 0.0
    if name == "drop":
        return -1.0  # dropping an item or artifact only loses what it is worth
    return 1.0


def _space_priority(state: Any, action: int, p: int) -> float:
    """A location where ``p`` has no paw yet (a paw can go there next); with every paw used, a
    campsite (camping there takes its bonus); then the fixed preference."""
    from solver.games.trial.belongings import own_token_on

    layout = state.layout
    name, i = layout.family(action)
    if name != "space":
        return 0.0
    space = layout.spaces[i]
    me = state.data["players"][p]
    if not me["paws"] and not me["strong_paw"]:
        return 4.0 if space.startswith("camp") else 1.0
    if space in state.game.board.slot and own_token_on(state, p, space):
        return 0.5
    for prefix, value in _SPACE_PREFERENCE:
        if space.startswith(prefix):
            return value
    return 1.0


def _fight_margin(state: Any, fight: dict[str, Any], side: int) -> int:
    """How much strength ``side`` lacks to win the fight as it stands (the other side's cards
    face down counted at 1.5 each): the attacker needs strictly more, the defender a tie."""
    from solver.games.trial.fights import card_strength, totals

    attack, defend = totals(state, fight, face_down=False)
    mine, theirs = (attack, defend) if side == 0 else (defend, attack)
    mine += sum(card_strength(state, c) for c in fight["face_down"][side])
    theirs += int(1.5 * len(fight["face_down"][1 - side]) + 0.5)
    return theirs - mine + (1 if side == 0 else 0)


def card_plan(state: Any, hand: list[str], need: int, discards: int, face_down: int) -> Any:
    """The cheapest way to add ``need`` strength: ``(discarded, face_down)`` card lists with at
    most ``discards`` strength cards discarded and ``face_down`` cards played face down, the
    fewest cards first, then the least fame given up; ``None`` when the hand cannot reach it."""
    from itertools import combinations

    from solver.games.trial.fights import card_strength, strength_card

    fame = {c: float(state.game.pack.card(c).get("fame", 0)) for c in hand}
    strong = [c for c in hand if strength_card(state, c)]
    best: Any = None
    for k in range(discards + 1):
        for dis in combinations(strong, k):
            rest = [c for c in hand if c not in dis]
            got = sum(strength_card(state, c) for c in dis)
            for j in range(face_down + 1):
                for down in combinations(rest, j):
                    total = got + sum(card_strength(state, c) for c in down)
                    if total < need:
                        continue
                    cost = (k + j, sum(fame[c] for c in (*dis, *down)))
                    if best is None or cost < best[0]:
                        best = (cost, list(dis), list(down))
    return None if best is None else (best[1], best[2])


def _fight_step_choice(state: Any, step: str, legal: list[int]) -> list[float]:
    """Scores at a fight's card stages: the cheapest plan that wins the fight as it stands
    (discard its strength cards, then play its face-down cards); nothing when no plan wins."""
    from solver.games.trial.fights import CARDS_PER_STAGE

    layout = state.layout
    frame = state.data["stack"][-1]
    fight = next(f for f in reversed(state.data["stack"]) if f["step"] == "fight")
    side = frame["side"]
    me = state.data["players"][state.current_player()]
    need = _fight_margin(state, fight, side)
    if step == "fight_discard":
        if need > 0 and layout.TOKEN in legal:
            return [1.0 if a == layout.TOKEN else 0.0 for a in legal]
        plan = (
            card_plan(state, me["hand"], need, CARDS_PER_STAGE - frame["cards"], CARDS_PER_STAGE)
            if need > 0
            else None
        )
        wanted = plan[0] if plan else []
    else:
        room = CARDS_PER_STAGE - len(fight["face_down"][side])
        plan = card_plan(state, me["hand"], need, 0, room) if need > 0 else None
        wanted = plan[1] if plan else []
    return [1.0 if layout.family(a)[0] == "card" and layout.cards[layout.family(a)[1]] in wanted
            else 0.5 if a == layout.DONE else 0.0 for a in legal]  # fmt: skip


def _weapon_choice(state: Any, legal: list[int]) -> list[float]:
    """The weapon with the best chance against the foe (a duel's opponent: their board and
    story strength and their dice)."""
    from solver.games.trial.fights import adventurer_dice, base_strength, foe_dice

    p = state.current_player()
    fight = next(f for f in reversed(state.data["stack"]) if f["step"] == "fight")
    if fight["defender"] is None:
        strength, dice = int(fight["foe"][0]), foe_dice(state, p, int(fight["foe"][1]))
    else:
        other = fight["defender"] if fight["player"] == p else fight["player"]
        strength, dice = base_strength(state, other), adventurer_dice(state, other, None)
    layout = state.layout
    scores = []
    for a in legal:
        weapon = None if a == layout.DONE else layout.item_kinds[a - layout.ITEM]
        scores.append(fight_chance(state, p, strength, dice, weapon))
    return scores


def heuristic_agent(game: Any, *, seed: int = 0, iterations: int = 0) -> Agent:
    """The rule-based player (``iterations`` is ignored: it does not search).

    On a compiled engine whose states play these rules in C (``heuristic_action(rng)``: this
    agent's choice, its tie-breaks drawn from ``rng`` as here; ``playout_action`` is the playout
    policy, which seeds a fresh agent per action) the state decides, from the same generator;
    the Python rules below decide on the reference engine."""
    rng = SplitMix64(check_seed(seed))

    def choose(state: Any) -> int:
        legal = state.legal_actions()
        if len(legal) == 1:
            return int(legal[0])
        compiled = getattr(state, "heuristic_action", None)
        if callable(compiled):
            return int(compiled(rng))
        p = state.current_player()
        step = state.data["stack"][-1]["step"]
        if step == "turn":
            scores = [_turn_priority(state, a) for a in legal]
        elif step == "move":
            scores = [_space_priority(state, a, p) for a in legal]
        elif step in ("fight_discard", "fight_cards"):
            scores = _fight_step_choice(state, step, legal)
        elif step == "fight_weapon":
            scores = _weapon_choice(state, legal)
        elif step == "draw_offer":
            scores = [1.0 if a == state.layout.YES else 0.0 for a in legal]
        else:
            scores = []
            for a in legal:
                probe = state.clone()
                probe.apply_legal(a)  # a legal action of the state (checked when played)
                scores.append(material(probe, p))
        best = max(scores)
        top = [a for a, s in zip(legal, scores, strict=True) if s >= best - 1e-9]
        return int(top[rng.below(len(top))])

    return choose
