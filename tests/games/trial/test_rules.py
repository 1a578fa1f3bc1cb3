"""One test per rule section, with expectations derived by hand from the rulebook.

Positions are set up by playing the set-up with fixed chance outcomes, then arranging the pieces,
cards and tokens a test needs (cards are moved, never copied, so every card still lies once).
"""

from __future__ import annotations

import json

import pytest

from solver.errors import IllegalActionError
from solver.games.trial.core import push
from solver.games.trial.rules import TrialState
from solver.games.trial.scoring import fame, winners

from .positions import (
    GAME,
    PACK,
    act,
    at_store,
    cid,
    full_backpack,
    give_item,
    kettle_to_sell,
    labels,
    mole_king_on_top,
    ready,
    set_food,
    set_hand,
    take,
    to_story,
)


def test_the_positions_move_cards_never_copy_them():
    """``set_hand`` naming a card already in the hand: each card still lies once (it was put
    back into the deck and also kept in the hand)."""
    from solver.games.trial.invariants import Checker

    st = ready()
    kept = PACK.card(st.data["players"][0]["hand"][0])["name"]
    set_hand(st, 0, kept, "Haggler")
    Checker(observations=False)(st)
    assert [PACK.card(c)["name"] for c in st.data["players"][0]["hand"]] == [kept, "Haggler"]


def test_a_turn_needs_its_paw_and_allows_one_deed_and_one_move():
    st = ready()
    assert "end turn" not in labels(st)  # the paw token is obligatory
    act(st, "turn: move")
    act(st, "stay")
    assert "move" not in labels(st)  # one move per turn
    act(st, "turn: paw: help")
    act(st, "help: gain acorn")
    assert st.data["players"][0]["food"]["acorn"] == 2 and st.data["players"][0]["paws"] == 2
    assert not any(lab.startswith("turn: paw") for lab in labels(st))
    act(st, "turn: end turn")
    assert st.current_player() == 1


def test_cards_gained_mid_turn_wait_and_the_hand_is_cut_to_seven():
    st = ready()
    me = st.data["players"][0]
    assert len(me["hand"]) == 5
    act(st, "turn: paw: help")
    act(st, "help: draw a deed card")
    st.apply_action(st.chance_outcomes()[0][0])
    assert len(me["hand"]) == 5 and len(me["aside"]) == 1
    assert st.legal_actions().count(st.layout.card(me["aside"][0])) == 0  # not usable this turn
    me["hand"] += [take(st, cid("Market Day")), take(st, cid("Haggler"))]
    act(st, "turn: end turn")  # 7 + 1 aside = 8: one card must go
    assert st._top()["step"] == "hand_limit" and st.current_player() == 0
    st.apply_action(st.legal_actions()[0])
    assert len(me["hand"]) == 7 and not me["aside"] and st.current_player() == 1


def test_asking_for_a_payments_choices_leaves_the_backpack_and_hand_in_their_order():
    # A cost "an axe or a shovel, then any food" (Blaster-like): both items can pay the first
    # unit and a raspberry the second. Asking for the legal actions tried each token by taking
    # it out and appending it back, so each call moved the axe and the shovel to the end of the
    # backpack (found by the compiled engine's differential test): the order is now kept.
    from solver.games.trial.payments import units_of

    st = ready()
    for kind in ("axe", "shovel", "rope"):
        give_item(st, 0, kind)
    set_food(st, 0, raspberry=1)
    set_hand(st, 0, "Food Delivery", "Gift Basket")
    cost = [{"spend": ["axe", "shovel"]}, {"spend": ["food"]}]
    push(st, "pay", player=0, units=units_of(st, 0, cost))
    before = (list(st.data["players"][0]["backpack"]), list(st.data["players"][0]["hand"]))
    for _ in range(3):
        assert labels(st) == ["pay with shovel", "pay with axe"]
    assert (st.data["players"][0]["backpack"], st.data["players"][0]["hand"]) == before
    push(st, "pay", player=0, units=units_of(st, 0, [{"spend": ["card"]}, {"spend": ["food"]}]))
    assert len(st.legal_actions()) == 2 and st.data["players"][0]["hand"] == before[1]


# -- movement ----------------------------------------------------------------------------------
def test_movement_counts_backpack_slots_tunnels_and_discarded_cards():
    st = ready()
    me = st.data["players"][0]
    me["space"] = "lookout-1"
    act(st, "turn: move")
    # 1 on the board + 2 uncovered backpack slots; lookout-1 has a printed tunnel to lookout-3
    assert st._top()["base"] == 3
    dests = {lab for lab in labels(st) if lab.startswith("move to")}
    assert "move to lookout-3" in dests and "move to camp-5" in dests  # tunnel, then one step
    assert "move to store-3" not in dests  # 5 steps away even through the tunnels
    act(st, "stay")
    st2 = ready()
    m2 = st2.data["players"][0]
    give_item(st2, 0, "sword")
    give_item(st2, 0, "bow")  # 4 slots used: one movement slot covered
    set_hand(st2, 0, "Market Day")  # enhancement: 2 movement
    act(st2, "turn: move")
    assert st2._top()["base"] == 2
    act(st2, "discard Market Day for movement")
    assert st2._top()["base"] + st2._top()["extra"] == 4
    assert m2["hand"] == [] and "move to grove-2" in labels(st2)


def test_an_expedition_start_ends_the_move_and_a_finished_area_is_closed():
    st = ready()
    me = st.data["players"][0]
    me["space"] = "path-06"  # next to exit-frosty
    act(st, "turn: move")
    assert "move to frosty-0" in labels(st) and "move to frosty-1" not in labels(st)
    me["flags"]["frosty"] = "frosty-2"
    assert "move to frosty-0" not in labels(st)


# -- fights: test_fights.py ------------------------------------------------------------------


# -- store ---------------------------------------------------------------------------------------
def test_buying_costs_column_plus_row_and_a_tea_leaf_stands_in():
    st = at_store()
    store = st.data["store"]
    store[0][0], store[0][1] = ["shovel"] * 2, ["kettle"] * 2  # row 0: any food; acorn / mushroom
    set_food(st, 0, tea=1, raspberry=1)
    act(st, "buy shovel")  # 1 acorn + any food: the tea leaf pays the acorn
    assert labels(st) == ["pay with tea"]  # the raspberry cannot stand in for an acorn
    act(st, "pay with tea")
    assert labels(st) == ["pay with raspberry"]
    act(st, "pay with raspberry")
    me = st.data["players"][0]
    assert me["backpack"] == ["shovel"] and not any(me["food"].values())
    assert "sell shovel" not in labels(st)  # not sold on the visit it was bought


def test_selling_to_an_empty_slot_pays_its_symbols_and_the_gallery_takes_artifacts():
    st = kettle_to_sell()
    act(st, "sell kettle")
    assert st._top()["step"] == "sale_slot"
    act(st, "sell kettle onto store slot row 1, column 2 for mushroom + food")  # any-food row
    act(st, "gain acorn")
    me = st.data["players"][0]
    assert me["food"] == {"raspberry": 0, "acorn": 1, "mushroom": 1, "tea": 0}
    assert "buy kettle" not in labels(st)  # not bought back on the visit it was sold
    me["backpack"].append(
        st.data["artifacts_available"].pop(st.data["artifacts_available"].index("yeti-horn"))
    )
    act(st, "leave yeti-horn in the gallery")  # a large artifact: a tea leaf
    assert me["food"]["tea"] == 1 and me["gallery"] == ["yeti-horn"]
    assert fame(st, 0)["gallery"] == 4


def test_trading_bonuses_as_in_the_rulebooks_example():
    st = at_store()
    me = st.data["players"][0]
    to_story(st, 0, "Haggler")  # 2 trading symbols + 1 on the board = 3
    set_hand(st, 0, "Bandits")  # enhancement: 2 trading symbols
    act(st, "finish trading (then the trading bonus)")
    act(st, "discard Bandits (trade)")
    act(st, "store: done")
    assert st._top()["points"] + st._top()["boost"] == 5
    assert labels(st) == [
        "no more bonuses (5 symbols unused)",
        "trading bonus: card for 2 symbols",
        "trading bonus: food for 3 symbols",
        "trading bonus: tea for 4 symbols",
    ]
    act(st, "trading bonus: card for 2 symbols")
    st.apply_action(st.chance_outcomes()[0][0])
    one = st.clone()
    one._top()["points"] = 1 - one._top()["boost"]  # one symbol left: "1 symbols" before
    assert labels(one) == ["no more bonuses (1 symbol unused)"]
    act(one, "no more bonuses (1 symbols unused)")  # the old label, records may hold it
    act(st, "trading bonus: food for 3 symbols")
    act(st, "gain raspberry")
    assert labels(st) == ["no more bonuses (0 symbols unused)"]
    act(st, "no more bonuses (0 symbols unused)")
    assert st._top()["step"] == "turn" and len(me["aside"]) == 1


def test_the_strong_paw_pays_with_cards_and_a_ruined_store_sells_once():
    st = at_store(strong=True)
    set_food(st, 0)
    set_hand(st, 0, "Market Day", "Haggler")
    assert "buy " + st.data["store"][0][0][0] in labels(st)
    st2 = ready()
    st2.data["players"][0]["space"] = "store-1"
    st2.data["tiles"]["store-1"] = ["store-tea", True]
    give_item(st2, 0, "rope")
    set_food(st2, 0)
    act(st2, "turn: paw: location")
    assert labels(st2) == [
        "sell nothing (ruined store)",
        "sell rope for 2 tea leaves (ruined store)",
    ]
    act(st2, "sell rope for 2 tea leaves (ruined store)")
    assert st2.data["players"][0]["food"]["tea"] == 2 and st2._top()["step"] == "turn"


# -- locations ---------------------------------------------------------------------------------
def test_a_grove_with_the_strong_paw_story_symbols_and_an_enhancement():
    st = ready()
    me = st.data["players"][0]
    me["space"] = "grove-1"
    st.data["tiles"]["grove-1"] = ["grove-acorn", False]
    to_story(st, 0, "Forager")  # grove bonus: an acorn
    berry = next(c["name"] for c in PACK.deeds if c["enhance"] == {"raspberry": 1})
    set_hand(st, 0, berry)
    set_food(st, 0)
    act(st, "turn: strong paw: location")
    act(st, f"discard {berry} (food)")
    act(st, "grove: done")
    assert me["food"] == {"raspberry": 1, "acorn": 2, "mushroom": 0, "tea": 1}
    assert "place a paw on the location" not in labels(st)  # one token per player per location


def test_a_ruined_grove_swaps_its_food_for_tea_and_ignores_the_strong_paw():
    st = ready()
    me = st.data["players"][0]
    me["space"] = "grove-1"
    st.data["tiles"]["grove-1"] = ["grove-acorn", True]
    set_food(st, 0, acorn=1)
    act(st, "turn: strong paw: location")
    act(st, "exchange: yes")
    assert me["food"] == {"raspberry": 0, "acorn": 0, "mushroom": 0, "tea": 1}


def test_lookout_towers_and_their_ruined_side():
    st = ready()
    me = st.data["players"][0]
    me["space"] = "lookout-1"
    st.data["tiles"]["lookout-1"] = ["lookout-1", False]
    to_story(st, 0, "Watchman")  # +1 card at lookouts
    act(st, "turn: strong paw: location")
    act(st, "lookout: done")
    draws = 0
    while st.is_chance_node():
        st.apply_action(st.chance_outcomes()[0][0])
        draws += 1
    assert draws == 5 and len(me["aside"]) == 5  # 2 + 2 (strong) + 1 (story)
    st2 = ready()
    m2 = st2.data["players"][0]
    m2["space"] = "lookout-1"
    st2.data["tiles"]["lookout-1"] = ["lookout-1", True]
    pile = st2.data["decks"]["deeds"]["discard"]
    pile += [take(st2, cid("Haggler")), take(st2, cid("Caravan")), take(st2, cid("Tinker"))]
    act(st2, "turn: paw: location")
    act(st2, f"from_discard: {cid('Caravan')}")
    act(st2, f"from_discard: {cid('Tinker')}")
    assert m2["aside"] == [cid("Caravan"), cid("Tinker")] and pile == [cid("Haggler")]


def test_ruins_sell_an_item_for_food_and_a_second_for_tea_with_the_strong_paw():
    st = ready()
    me = st.data["players"][0]
    me["space"] = "ruins-1"
    st.data["tiles"]["ruins-1"] = ["ruins-store", False]
    st.data["ruins"]["ruins-1"]["items"] = ["axe", "rope", "wings"]
    set_food(st, 0, mushroom=1, tea=1)
    assert st.observation(1)["ruins"]["ruins-1"] == 3  # face down for the others
    act(st, "turn: strong paw: location")
    assert st.observation(0)["ruins"]["ruins-1"] == ["axe", "rope", "wings"]
    act(st, "take wings from the ruins for a food")
    act(st, "pay with mushroom")
    act(st, "take axe from the ruins for a tea leaf")
    act(st, "pay with tea")
    assert sorted(me["backpack"]) == ["axe", "wings"] and not any(me["food"].values())
    assert st.data["ruins"]["ruins-1"]["items"] == ["rope"]


def test_restoring_ruins_sends_their_items_to_the_store_and_opens_the_restored_side():
    st = ready()
    me = st.data["players"][0]
    me["space"] = "ruins-1"
    st.data["tiles"]["ruins-1"] = ["ruins-grove", False]
    st.data["ruins"]["ruins-1"]["items"] = ["rope"]
    give_item(st, 0, "axe")
    set_food(st, 0, acorn=1)
    set_hand(st, 0, "Restorer")
    act(st, "play Restorer")
    act(st, "pay with axe")
    act(st, "pay with acorn")
    assert st.data["tiles"]["ruins-1"] == ["ruins-grove", True]
    assert st.data["ruins"]["ruins-1"]["items"] == [] and any(
        "rope" in stack for row in st.data["store"] for stack in row
    )
    act(st, "turn: strong paw: location")  # restored grove: 1 tea + 1 (strong)
    act(st, "grove: done")
    assert me["food"]["tea"] == 2


# -- expeditions -------------------------------------------------------------------------------
def _at_expedition(area: str, top: str):
    """A ready state, player 0 on the area's first space, ``top`` known on its deck: (state,
    player 0, the deck)."""
    st = ready()
    me = st.data["players"][0]
    me["space"] = f"{area}-0"
    deck = st.data["decks"][f"exp:{area}"]
    deck["top"] = {"card": take(st, cid(top)), "viewers": []}
    return st, me, deck


def test_frosty_hill_paid_paths_finishing_and_the_flag():
    st, me, deck = _at_expedition("frosty", "Mountain Goat")
    set_food(st, 0, acorn=1, mushroom=1)
    assert labels(st) == [
        "leave the expedition",
        "place a paw on the expedition",
        "place a strong paw on the expedition",
    ]
    act(st, "turn: paw: expedition")
    assert st.chance_outcomes() == [(st.layout.card(cid("Mountain Goat")), 1.0)]  # the known top
    st.apply_action(st.layout.card(cid("Mountain Goat")))
    assert labels(st) == ["advance to frosty-1", "advance to frosty-2"]
    act(st, "advance to frosty-2")  # the shortcut: 2 food
    act(st, "pay with acorn")
    act(st, "pay with mushroom")
    act(st, "finish on frosty-2 (1 fame)")
    assert me["flags"]["frosty"] == "frosty-2" and me["space"] == "exit-frosty"
    assert labels(st) == ["end turn"]  # finishing ends the turn
    assert me["story"] == [[cid("Mountain Goat"), True, "pioneering"]]
    assert deck["top"] is None and len(deck["layers"][0]) == 11


def test_dark_caverns_lines_and_an_exhausted_deck():
    st, me, _ = _at_expedition("caverns", "Echoes")
    act(st, "turn: paw: expedition")
    st.apply_action(st.chance_outcomes()[0][0])
    act(st, "choose: listen (good)")
    assert labels(st) == ["advance to caverns-1a"]  # the dotted line only
    act(st, "advance to caverns-1a")
    assert me["morality"] == -1
    st2 = ready()
    m2 = st2.data["players"][0]
    m2["space"] = "swamps-0"
    st2.data["decks"]["exp:swamps"]["layers"] = []
    for c in PACK.expeditions:
        if c["area"] == "swamps":
            st2.data["decks"]["exp:swamps"]["discard"] = []
    set_food(st2, 0, raspberry=2)
    act(st2, "turn: paw: expedition")
    act(st2, "exhausted: yes")
    act(st2, "pay with raspberry")
    act(st2, "pay with raspberry")
    act(st2, "advance to swamps-1a")
    assert m2["space"] == "swamps-1a" and not any(m2["food"].values())


def test_leaving_an_expedition_returns_to_the_exit_without_a_flag():
    st = ready()
    me = st.data["players"][0]
    me["space"] = "swamps-2"
    act(st, "turn: leave expedition")
    assert me["space"] == "exit-swamps" and me["flags"]["swamps"] is None
    assert "leave the expedition" not in labels(st)


# -- camping -----------------------------------------------------------------------------------
def test_camping_takes_the_campsite_and_tent_bonuses_and_returns_the_paws():
    st = ready()
    me = st.data["players"][0]
    me["paws"], me["strong_paw"] = 0, False
    me["paws_placed"] = [["help", False]] * 3 + [["help", True]]
    me["space"] = "camp-3"  # bonus: a tea leaf
    st.data["camp_tents"]["camp-3"] = {"tent": "strength", "owner": 1}
    set_food(st, 0)
    me["tents"] = ["none", "acorn"]
    assert "camp" in labels(st) and not any("paw" in lab for lab in labels(st))
    act(st, "turn: camp")
    act(st, "leave your tent acorn at camp-3")
    assert me["food"]["tea"] == 1 and me["tent_symbols"]["strength"] == 1
    assert st.data["camp_tents"]["camp-3"] == {"tent": "acorn", "owner": 0}
    assert me["paws"] == 3 and me["strong_paw"] and me["paws_placed"] == [] and me["camped"]
    assert labels(st) == ["end turn"]
    assert st.observation(1)["camp_tents"]["camp-3"] == "face down"


def test_camping_on_an_expedition_uses_the_universal_campsite():
    st = ready()
    me = st.data["players"][0]
    me["paws"], me["strong_paw"] = 0, False
    me["paws_placed"] = [["help", False]] * 3 + [["help", True]]
    me["space"] = "swamps-1a"
    act(st, "turn: camp")
    assert labels(st) == [
        "camp bonus: raspberry",
        "camp bonus: acorn",
        "camp bonus: mushroom",
        "camp bonus: a deed card",
    ]
    act(st, "camp bonus: mushroom")
    st.apply_action(st.legal_actions()[0])
    assert st.data["camp_tents"]["universal"]["owner"] == 0 and me["space"] == "swamps-1a"


# -- legendary tokens, morality, scoring -------------------------------------------------------
def test_the_first_to_five_cards_in_a_column_takes_the_legendary_token():
    from solver.games.trial.belongings import add_to_story

    st = ready()
    for name in ("Market Day", "Honest Bargain", "Spice Merchant", "Haggler"):
        add_to_story(st, 1, take(st, cid(name)), True)
    assert st.data["legendary"]["trader"] is None
    add_to_story(st, 1, take(st, cid("Tinker")), False, column="trading")  # face down counts
    assert st.data["legendary"]["trader"] == 1
    for name in ("Caravan", "Tea Trader", "Pedlar", "Bookkeeper", "Tool Swap"):
        add_to_story(st, 0, take(st, cid(name)), True)
    assert st.data["legendary"]["trader"] == 1 and fame(st, 1)["legendary"] == 3


def test_morality_stays_on_its_track():
    from solver.games.trial.belongings import move_morality

    st = ready()
    for _ in range(9):
        move_morality(st, 0, -1)
    assert st.data["players"][0]["morality"] == -5 and fame(st, 0)["morality"] == 7


def test_the_rulebooks_scoring_example_gives_36():
    st = ready()
    mary = st.data["players"][0]
    story = [
        "Wolf",
        "Yeti",
        "Cave Troll",
        "Border Ranger",
        "Wanderer",
        "Swordmaster",
        "Bridge Keeper",
        "Duel",
    ]  # 3 + 4 + 4 + 4 + 4 + 3 + 2 + 2 = 26
    for name in story:
        to_story(st, 0, name)
    to_story(st, 0, "Bear Hunt", faceup=False)  # face down: no fame
    give_item(st, 0, "compass")  # 2 fame in the backpack
    mary["flags"]["swamps"] = "swamps-f2"  # 2 fame
    mary["morality"] = 2  # 2 fame
    mary["gallery"] = [
        st.data["artifacts_available"].pop(st.data["artifacts_available"].index("swamp-pearl"))
    ]  # 4
    st.data["first_player"] = 1
    parts = fame(st, 0)
    assert parts == {
        "story": 26,
        "backpack": 2,
        "gallery": 4,
        "flags": 2,
        "morality": 2,
        "legendary": 0,
        "first_player": 0,
        "total": 36,
    }


def test_ties_go_to_the_longer_story_then_are_shared():
    st = ready(3)
    for p in range(3):
        st.data["players"][p]["morality"] = 0
    st.data["first_player"] = 2
    to_story(st, 2, "Bear Hunt", faceup=False)  # 0 fame each... player 2 has the token (1)
    to_story(st, 0, "Training")  # 1 fame
    to_story(st, 1, "Market Day")  # 1 fame
    to_story(st, 1, "Cave-in", faceup=False)
    assert [fame(st, p)["total"] for p in range(3)] == [1, 1, 1]
    assert winners(st) == [1]  # 2 cards in the story against 1
    to_story(st, 0, "Brawl", faceup=False)
    to_story(st, 2, "Haggler", faceup=False)
    assert winners(st) == [0, 1, 2]  # 1 fame and 2 cards each: shared


def test_returns_share_the_victory_equally():
    st = ready()
    st.data["stack"] = []
    st.data["game_over"] = True
    to_story(st, 1, "Training")  # 1 fame, as player 0's first-player token
    assert st.is_terminal() and st.returns() == [0.0, 1.0]  # the longer story
    to_story(st, 0, "Brawl", faceup=False)
    assert st.returns() == [0.5, 0.5]


def test_an_illegal_action_is_named():
    st = ready()
    with pytest.raises(IllegalActionError, match="not legal here"):
        st.apply_action(st.layout.END_TURN)


# -- the rulebook in full: details once simplified ----------------------------------------------
def test_postal_service_may_be_declined_and_dangling_postman_may_not():
    st = ready(3)
    set_hand(st, 0, "Postal Service")
    act(st, "play Postal Service")
    # in the order of the round, from the player who played it
    assert st.current_player() == 0 and labels(st) == [
        "decline the deed card",  # "decline the deed card(s)", "draw 1 deed card(s)" before
        "draw 1 deed card",
    ]
    act(st, "decline the deed card")
    assert st.current_player() == 1
    act(st, "draw 1 deed card(s)")  # the old label, which records may hold, still parses
    hand1 = len(st.data["players"][1]["hand"])
    st.apply_action(st.chance_outcomes()[0][0])
    assert len(st.data["players"][1]["hand"]) == hand1 + 1  # outside their turn: straight to hand
    assert st.current_player() == 2
    act(st, "decline the deed card(s)")
    assert st.data["players"][0]["aside"] == [] and st.current_player() == 0
    st = ready(3)
    set_hand(st, 0, "Dangling Postman")
    act(st, "play Dangling Postman")
    drawers = []
    while st.is_chance_node():
        drawers.append(st._top()["player"])
        st.apply_action(st.chance_outcomes()[0][0])
    assert drawers == [0, 1, 2]
    assert len(st.data["players"][0]["aside"]) == 1


def _store_without(st: TrialState, kind: str) -> None:
    """Arrange the store's small slots: none holds ``kind``, only rows 2 column 1 and row 3
    column 2 are empty (the items moved aside wait in the box)."""
    store, box = st.data["store"], st.data["box"]["items"]
    for row in store:
        for c in range(2):
            box += row[c]
            row[c] = []
    for r in range(3):
        for c in range(2):
            if (r, c) not in ((1, 0), (2, 1)):
                filler = next(k for k in box if k != kind and all(k not in x for x in store[r]))
                box.remove(filler)
                store[r][c] = [filler]
    assert all(kind not in stack for row in store for stack in row)


def _carry(st: TrialState, p: int, kind: str) -> None:
    st.data["box"]["items"].remove(kind)
    st.data["players"][p]["backpack"].append(kind)


def test_an_item_given_up_goes_on_its_stack_or_on_an_empty_slot_of_the_players_choice():
    st = ready()
    me = st.data["players"][0]
    _store_without(st, "shovel")
    _carry(st, 0, "shovel")
    _carry(st, 0, "shovel")
    act(st, "drop shovel")
    # no shovel in the store: any empty small slot, the player's choice
    assert labels(st) == [
        "put shovel on store slot row 2, column 1",
        "put shovel on store slot row 3, column 2",
    ]
    act(st, "put shovel on store slot row 3, column 2")
    assert st.data["store"][2][1] == ["shovel"] and st.data["store"][1][0] == []
    # the second goes onto that stack, without a choice
    act(st, "drop shovel")
    assert st.data["store"][2][1] == ["shovel", "shovel"] and me["backpack"] == []
    assert st._top()["step"] == "turn"


def test_an_item_spent_on_a_cost_goes_where_its_spender_puts_it():
    st = ready()
    give_item(st, 0, "torch")
    _store_without(st, "torch")
    set_hand(st, 0, "Blaster")
    st.data["players"][0]["space"] = "path-01"
    act(st, "play Blaster")
    act(st, "pay with torch")  # the only way to pay: no decision... then the slot
    assert st._top()["step"] == "return_slot"
    act(st, "put torch on store slot row 2, column 1")
    assert st.data["store"][1][0] == ["torch"]


def _on_swamps_start(card: str) -> TrialState:
    st, _, _ = _at_expedition("swamps", card)
    set_food(st, 0)
    act(st, "turn: paw: expedition")
    st.apply_action(st.chance_outcomes()[0][0])  # the revealed top card
    return st


def test_an_unpaid_expedition_card_does_what_its_description_says():
    # Sinking Mud without a rope: back to the exit space; the card is discarded, then shuffled
    # back into the deck as the area is left
    st = _on_swamps_start("Sinking Mud")
    me = st.data["players"][0]
    deck = st.data["decks"]["exp:swamps"]
    assert me["space"] == "exit-swamps" and me["story"] == []
    assert deck["discard"] == [] and any(cid("Sinking Mud") in layer for layer in deck["layers"])
    # Reed Raft without food: discarded, the player stays
    st = _on_swamps_start("Reed Raft")
    me = st.data["players"][0]
    assert me["space"] == "swamps-0" and st.data["decks"]["exp:swamps"]["discard"] == [
        cid("Reed Raft")
    ]
    assert me["story"] == []
    # Hermit (Frosty Hill) without food: face down in the story, the player stays
    st = ready()
    me = st.data["players"][0]
    me["space"] = "frosty-0"
    st.data["decks"]["exp:frosty"]["top"] = {"card": take(st, cid("Hermit")), "viewers": []}
    set_food(st, 0)
    act(st, "turn: paw: expedition")
    st.apply_action(st.chance_outcomes()[0][0])
    assert me["story"] == [[cid("Hermit"), False, "moral"]] and me["space"] == "frosty-0"
    assert me["food"]["tea"] == 0  # the Hermit's tea leaf is not gained
    # paid, the Hermit's own effect runs
    st = ready()
    me = st.data["players"][0]
    me["space"] = "frosty-0"
    st.data["decks"]["exp:frosty"]["top"] = {"card": take(st, cid("Hermit")), "viewers": []}
    set_food(st, 0, acorn=1)
    act(st, "turn: paw: expedition")
    st.apply_action(st.chance_outcomes()[0][0])
    act(st, "pay with acorn")
    assert me["food"]["tea"] == 1 and me["food"]["acorn"] == 0
    assert st._top()["step"] == "advance"


# -- information states ---------------------------------------------------------------------------
def _two_draws(outcome0: int, outcome1: int) -> TrialState:
    st = ready()
    set_hand(st, 0, "Dangling Postman")
    act(st, "play Dangling Postman")
    st.apply_action(st.chance_outcomes()[outcome0][0])  # player 0's card
    st.apply_action(st.chance_outcomes()[outcome1][0])  # player 1's card
    return st


def test_an_information_state_is_what_its_player_has_seen_and_done():
    a, b, c = _two_draws(0, 1), _two_draws(0, 2), _two_draws(1, 2)
    # player 1's draw differs between a and b: player 0 cannot tell them apart, player 1 can
    assert a.information_state_string(0) == b.information_state_string(0)
    assert a.information_state_string(1) != b.information_state_string(1)
    # player 0's own draw differs between b and c
    assert b.information_state_string(0) != c.information_state_string(0)
    # the same card for player 1 in b and c (the third of the cards left): player 1 cannot tell
    assert b.data["players"][1]["hand"] == c.data["players"][1]["hand"]
    assert b.information_state_string(1) == c.information_state_string(1)
    lines = a.information_state_string(0).split("\n")
    assert lines[-1] == json.dumps(a.observation(0), sort_keys=True)  # the current view last
    assert lines[-3].startswith("c:draw:") and lines[-2] == "c:draw:?1"  # theirs: redacted


def test_an_information_state_remembers_the_order_of_what_happened():
    # the same position reached by paying two food in either order: one observation, two
    # histories the player saw
    states = []
    for first, second in (("acorn", "mushroom"), ("mushroom", "acorn")):
        st = ready()
        set_hand(st, 0, "Haggler")
        set_food(st, 0, acorn=1, mushroom=1)
        st.data["players"][0]["space"] = "store-1"
        st.data["tiles"]["store-1"] = ["store-swap", False]
        act(st, "play Haggler")
        act(st, f"pay with {first}")
        act(st, f"pay with {second}")
        states.append(st)
    a, b = states
    for p in (0, 1):
        assert a.observation(p) == b.observation(p)
        assert a.information_state_string(p) != b.information_state_string(p)


# -- set-up order, drops at any moment, the Cartographer on the map ------------------------------
def test_pieces_go_on_start_spaces_before_tents_and_hands_are_dealt():
    # Player preparation: 2. the piece on a start space, 5. tents, 7. a hand of 5 deed cards;
    # the board's set-up (tiles, ruins, store, the 3 encounter cards) comes before all of it
    st = GAME[3].new_initial_state()
    order: list[str] = []
    while st.data["turn_player"] is None:
        top = st._top()
        kind = top["step"] if top["step"] != "draw" else f"draw:{top['to'].split(':')[0]}"
        if not order or order[-1] != kind:
            order.append(kind)
        if kind == "start_space":
            assert all(not me["tents"] and not me["hand"] for me in st.data["players"])
            assert all(c is not None for c in st.data["encounter_row"])
        st.apply_action(
            st.chance_outcomes()[0][0] if st.is_chance_node() else st.legal_actions()[0]
        )
    assert order == ["place_tile", "ruin_item", "stock", "draw:row", "start_space",
                     "deal_tent", "draw:hand"]  # fmt: skip
    assert all(len(me["hand"]) == 5 and len(me["tents"]) == 3 for me in st.data["players"])


def test_ruins_with_a_full_backpack_offer_to_drop_first():
    st = ready()
    me = st.data["players"][0]
    full_backpack(st)
    me["space"] = "ruins-1"
    st.data["tiles"]["ruins-1"] = ["ruins-store", False]
    st.data["ruins"]["ruins-1"]["items"] = ["rope", "bow"]
    set_food(st, 0, mushroom=2)
    act(st, "turn: paw: location")
    assert labels(st) == ["leave the ruins", "drop axe to make room", "drop sword to make room",
                          "drop wings to make room"]  # fmt: skip
    act(st, "drop axe to make room")  # back onto the store's axe stack
    assert "axe" in [s[0] for row in st.data["store"] for s in row if s]
    # the rope (1 slot) fits now; the bow (2) still does not, so drops stay on offer
    assert labels(st) == ["leave the ruins", "take rope from the ruins for a food",
                          "drop sword to make room", "drop wings to make room"]  # fmt: skip
    act(st, "take rope from the ruins for a food")
    act(st, "pay with mushroom")
    assert sorted(me["backpack"]) == ["rope", "sword", "wings"]
    assert st.data["ruins"]["ruins-1"]["items"] == ["bow"]


def test_an_expedition_artifact_that_does_not_fit_waits_for_a_drop_or_is_left():
    for keep in (True, False):
        st = mole_king_on_top()
        me = st.data["players"][0]
        act(st, "turn: paw: expedition")
        st.apply_action(st.layout.card(cid("Mole King")))
        act(st, "pay with acorn")
        act(st, "pay with acorn")
        # the stone tablet (large: 2 slots) does not fit: the player chooses
        assert labels(st) == ["leave stone-tablet (no room)",
                              "drop axe to make room for stone-tablet",
                              "drop sword to make room for stone-tablet",
                              "drop wings to make room for stone-tablet"]  # fmt: skip
        if not keep:
            act(st, "leave stone-tablet (no room)")
            assert (
                "stone-tablet" in st.data["artifacts_available"]
                and "stone-tablet" not in me["backpack"]
            )
            continue
        act(st, "drop axe to make room for stone-tablet")  # 4 slots: not enough yet
        assert st._top()["step"] == "make_room"
        act(st, "drop wings to make room for stone-tablet")  # 2 slots: it fits, it is taken
        assert sorted(me["backpack"]) == ["stone-tablet", "sword"]
        assert "stone-tablet" not in st.data["artifacts_available"]
        while st._top()["step"] == "return_slot":  # the wings go back to a large store slot
            st.apply_action(st.legal_actions()[0])
        assert "wings" in [s[0] for row in st.data["store"] for s in row if s]


def test_a_common_item_from_the_store_and_a_purchase_offer_drops_when_full():
    st = ready()
    full_backpack(st)
    push(st, "take_item", player=0, rarity="common")  # a campsite's common item, Tool Swap...
    assert labels(st) == ["take no item", "drop axe to make room", "drop sword to make room",
                          "drop wings to make room"]  # fmt: skip
    act(st, "drop axe to make room")
    assert "take shovel from the store" in labels(st)  # a common item fits now
    st = at_store()
    full_backpack(st)
    set_food(st, 0, acorn=2, mushroom=2)
    assert "drop axe to make room" in labels(st)
    assert not [x for x in labels(st) if x.startswith("buy ")]


def test_the_cartographer_can_finish_in_the_swamps_at_once():
    # "In the Forgotten Swamps area, you may use the nearest finishing spaces immediately—then
    # you put your flag token on a chosen space right away." (its next space may be one)
    st = ready()
    me = st.data["players"][0]
    to_story(st, 0, "Cartographer")
    me["space"] = "exit-swamps"
    food = dict(me["food"])
    act(st, "turn: move")
    act(st, "move to swamps-0")
    assert labels(st) == ["advance to swamps-1a", "advance to swamps-1b",
                          "advance to swamps-f1a", "advance to swamps-f1b"]  # fmt: skip
    act(st, "advance to swamps-f1a")
    assert labels(st) == ["finish on swamps-f1a (1 fame)"]  # no path goes on from there
    act(st, "finish on swamps-f1a (1 fame)")
    assert me["flags"]["swamps"] == "swamps-f1a" and me["space"] == "exit-swamps"
    assert me["food"]["raspberry"] == food["raspberry"] + 1  # the space's resource
    assert "place a paw on help" in labels(st)  # the paw is still due
    # the Dark Caverns: either line; the Frosty Hill: the short path, paid
    for start, wanted in (("caverns", ["advance to caverns-1a", "advance to caverns-1b"]),
                          ("frosty", ["advance to frosty-1", "advance to frosty-2"])):  # fmt: skip
        st = ready()
        to_story(st, 0, "Cartographer")
        st.data["players"][0]["space"] = st.game.board.area_exit[start]
        set_food(st, 0, acorn=1, mushroom=1)
        act(st, "turn: move")
        act(st, f"move to {start}-0")
        assert labels(st) == wanted
