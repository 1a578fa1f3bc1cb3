"""Every card of the shipped pack resolved at least once: the position is arranged so the card's
conditions and cost are met, the card is played (a deed or encounter from hand, an expedition
card drawn on its area's start space), and its resolution runs to the end with random choices,
every invariant checked after every action."""

from __future__ import annotations

import random
from typing import Any

import pytest

from solver.games.trial.conditions import playable
from solver.games.trial.invariants import Checker, card_places
from solver.games.trial.rules import TrialState
from solver.testing import random_action

from . import positions as helpers

PACK = helpers.PACK
PLACES = {
    "store": "store-1",
    "lookout": "lookout-1",
    "ruins": "ruins-1",
    "grove": "grove-1",
    "campsite": "camp-1",
    "tunnel": "lookout-1",
    "location": "grove-1",
}
PATTERNS = {
    "corners": ["lookout-1", "store-1", "store-2", "ruins-3"],
    "diagonal": ["lookout-1", "ruins-3"],
    "four_types": ["lookout-1", "store-1", "grove-1", "ruins-1"],
}


def _cost_items(card: dict[str, Any]) -> list[str]:
    kinds = {i["id"] for i in PACK.items}
    terms = list(card.get("cost", []))
    for effect in card.get("effect", []):
        for option in effect.get("choose", []):
            terms += option.get("cost", [])
    wanted: list[str] = []
    for term in terms:
        alts = term.get("spend", term.get("have", []))
        if "amphibian" in alts or "item" in alts:
            wanted.append("rope")
        for alt in alts:
            if alt in kinds:
                wanted.append(alt)
                break
    return wanted


def arrange(card: dict[str, Any]) -> TrialState:
    st = helpers.ready(2)
    me, other = st.data["players"]
    helpers.set_food(st, 0, raspberry=3, acorn=3, mushroom=3, tea=3)
    helpers.set_hand(st, 0)
    for kind in dict.fromkeys(_cost_items(card)):
        helpers.give_item(st, 0, kind)
    me["space"] = "start-1"
    for cond in card.get("requires", []):
        ((key, arg),) = cond.items()
        if key == "at":
            me["space"] = PLACES[arg]
        elif key == "company":
            other["space"] = me["space"]
            other["morality"] = 2 if arg == "evil" else 0
        elif key == "morality":
            me["morality"] = -1 if arg == "good" else 1
        elif key in ("paws", "tracker"):
            slots = PATTERNS[arg] if key == "paws" else ["lookout-1", "store-1"]
            me["paws_placed"] = [[f"loc:{s}", i == 0] for i, s in enumerate(slots)]
            me["paws"], me["strong_paw"] = 3 - (len(slots) - 1), False
            if key == "tracker":
                other["paws_placed"] = [[f"loc:{s}", i == 0] for i, s in enumerate(slots)]
                other["paws"], other["strong_paw"] = 2, False
    if any(
        "story_evil" in o.get("requires", [{}])[0]
        for e in card.get("effect", [])
        for o in e.get("choose", [])
        if o.get("requires")
    ):
        helpers.to_story(st, 0, "Pyromaniac")
    if any(c.get("company") for c in card.get("requires", [])):
        other["space"] = me["space"]
    if "area" in card:
        me["space"] = st.game.board.area_start[card["area"]]
        st.data["decks"][f"exp:{card['area']}"]["top"] = {
            "card": helpers.take(st, card["id"]),
            "viewers": [],
        }
        assert playable(st, 0, card["id"]), "the arranged position cannot pay for the card"
        helpers.act(st, "turn: paw: expedition")
        st.apply_action(st.chance_outcomes()[0][0])
    else:
        me["hand"] = [helpers.take(st, card["id"])]
        for extra in ("Market Day", "Haggler", "Caravan"):
            if extra != card["name"]:
                me["hand"].append(helpers.take(st, helpers.cid(extra)))
        helpers.act(st, f"play {card['name']}")
    return st


def _resolving(st: TrialState, card_id: str) -> bool:
    return any(f["step"] == "resolve" and f["card"] == card_id for f in st.data["stack"])


@pytest.mark.parametrize("card_id", sorted(PACK.cards))
def test_every_card_resolves(card_id):
    card = PACK.card(card_id)
    st = arrange(card)
    check = Checker(observations=False)
    check(st)
    rng = random.Random(card_id)
    steps = 0
    while _resolving(st, card_id) and not st.is_terminal():
        st.apply_action(random_action(st, rng))
        check(st)
        steps += 1
        assert steps < 500
    assert card_places(st)[card_id] == 1
    where = [s[0] for me in st.data["players"] for s in me["story"]]
    discards = [c for deck in st.data["decks"].values() for c in deck["discard"]]
    discards += [c for c in st.data["decks"]["encounters"]["layers"][-1]]
    assert card_id in where or card_id in discards


@pytest.mark.parametrize("card_id", sorted(c["id"] for c in PACK.expeditions if "unpaid" in c))
def test_every_unpaid_expedition_card_does_what_it_says(card_id):
    card = PACK.card(card_id)
    st = helpers.ready(2)
    me = st.data["players"][0]
    helpers.set_food(st, 0)
    helpers.set_hand(st, 0)
    me["space"] = st.game.board.area_start[card["area"]]
    deck = st.data["decks"][f"exp:{card['area']}"]
    deck["top"] = {"card": helpers.take(st, card_id), "viewers": []}
    assert not playable(st, 0, card_id)
    helpers.act(st, "turn: paw: expedition")
    st.apply_action(st.chance_outcomes()[0][0])
    check = Checker(observations=False)
    rng = random.Random(card_id)
    while _resolving(st, card_id):
        st.apply_action(rng.choice(st.legal_actions()))
        check(st)
    effects = [next(iter(e)) for e in card["unpaid"]]
    if "leave" in effects:  # back on the exit space; the card shuffled back into the deck
        assert me["space"] == st.game.board.area_exit[card["area"]]
        assert any(card_id in layer for layer in deck["layers"]) and not deck["discard"]
    elif {"then": "facedown"} in card["unpaid"]:
        assert [s[:2] for s in me["story"]] == [[card_id, False]]
    else:
        assert deck["discard"] == [card_id] and me["story"] == []
    if "advance" in effects:
        assert me["space"] != st.game.board.area_start[card["area"]]  # advanced anyway
