"""The effect language's harder verbs, card by card, as the rulebook's "Cards description" reads."""

from __future__ import annotations

from . import positions as h


def test_avalanche_rerolls_once_for_food_and_keeps_the_new_roll():
    st = h.ready()
    me = st.data["players"][0]
    me["space"] = "frosty-0"
    st.data["decks"]["exp:frosty"]["top"] = {"card": h.take(st, h.cid("Avalanche")), "viewers": []}
    h.set_food(st, 0, acorn=1)
    h.act(st, "turn: paw: expedition")
    st.apply_action(st.chance_outcomes()[0][0])
    h.die(st, h.ONE)  # needs 2
    assert h.labels(st) == ["keep the roll", "pay for a re-roll"]
    h.act(st, "reroll: yes")
    h.act(st, "pay with acorn")
    assert me["food"]["acorn"] == 0
    h.die(st, h.WIN)  # the winning symbol is 0 strength: a failure, and it must be kept
    assert st._top()["step"] == "turn" and me["space"] == "frosty-0"
    assert me["story"][-1][0] == h.cid("Avalanche")


def test_swindler_wins_when_the_roll_is_under_the_discarded_fame():
    for face, tea in ((h.TWO, 2), (h.THREE, 0)):
        st = h.ready()
        me = st.data["players"][0]
        h.set_hand(st, 0, "Swindler", "Caravan")  # Caravan: 3 fame
        h.set_food(st, 0)
        h.act(st, "play Swindler")
        h.act(st, f"swindle: {h.cid('Caravan')}")
        h.act(st, "swindle: done")
        h.die(st, face)  # 2 < 3 wins; 3 is not under 3
        assert me["food"]["tea"] == tea
        assert st.data["decks"]["deeds"]["discard"][-1] == h.cid("Caravan")


def test_pathfinder_reveals_every_expedition_top_to_everyone():
    st = h.ready()
    h.set_hand(st, 0, "Pathfinder")
    h.act(st, "play Pathfinder")
    for _ in range(3):
        st.apply_action(st.chance_outcomes()[0][0])
    tops = {a: st.data["decks"][f"exp:{a}"]["top"]["card"] for a in ("swamps", "frosty", "caverns")}
    for p in (0, 1):
        seen = st.observation(p)["decks"]
        assert {a: seen[f"exp:{a}"]["top"] for a in tops} == tops


def test_crocodiles_nest_shows_the_next_card_to_the_winner_only():
    st = h.ready()
    me = st.data["players"][0]
    me["space"] = "swamps-0"
    st.data["decks"]["exp:swamps"]["top"] = {
        "card": h.take(st, h.cid("Crocodile's Nest")),
        "viewers": [],
    }
    h.act(st, "turn: paw: expedition")
    st.apply_action(st.chance_outcomes()[0][0])
    h.die(st, h.ONE)  # crocodile 3 + 1 = 4 ...
    me["story"].append([h.take(st, h.cid("Bear Hunt")), True, "fighting"])  # ... against 1 + 2 + 2
    me["story"].append([h.take(st, h.cid("Stoat Gang")), True, "fighting"])
    h.die(st, h.WIN)  # ... + 0 (the adventurer's die: the winning symbol is worth no strength)
    h.act(st, "fight_discard: done")
    h.act(st, "fight_cards: done")
    st.apply_action(st.chance_outcomes()[0][0])  # the peeked card
    top = st.data["decks"]["exp:swamps"]["top"]
    assert top["viewers"] == [0]
    assert st.observation(0)["decks"]["exp:swamps"]["top"] == top["card"]
    assert st.observation(1)["decks"]["exp:swamps"]["top"] == "hidden"


def test_kidnapper_takes_a_face_up_encounter_as_a_deed_card():
    st = h.ready()
    me = st.data["players"][0]
    h.set_hand(st, 0, "Kidnapper")
    h.set_row(st, 1, "Old Tortoise")
    h.act(st, "play Kidnapper")
    h.act(st, "take Old Tortoise into your hand")
    assert me["aside"] == [h.cid("Old Tortoise")] and st.data["encounter_row"][1] is None
    st.apply_action(st.chance_outcomes()[0][0])  # the slot is refilled
    assert me["morality"] == 1  # Kidnapper's evil symbol
    h.act(st, "turn: paw: help")
    h.act(st, "help: gain acorn")
    h.act(st, "turn: end turn")
    assert h.cid("Old Tortoise") in me["hand"]


def test_campsite_gift_puts_a_boxed_tent_on_an_empty_campsite_face_down():
    st = h.ready()
    h.set_hand(st, 0, "Campsite Gift")
    boxed = len(st.data["box"]["tents"])
    h.act(st, "play Campsite Gift")
    h.act(st, "gift_tent: camp-4")
    st.apply_action(st.chance_outcomes()[0][0])
    assert (
        st.data["camp_tents"]["camp-4"]["owner"] is None
        and len(st.data["box"]["tents"]) == boxed - 1
    )
    assert st.observation(0)["camp_tents"]["camp-4"] == "face down"


def test_explorer_moves_a_flag_deeper_and_scout_places_one_without_the_resource():
    st = h.ready()
    me = st.data["players"][0]
    me["flags"]["swamps"] = "swamps-f1a"
    h.set_hand(st, 0, "Explorer")
    h.act(st, "play Explorer")
    assert st._top()["step"] == "turn"  # no deeper finishing space: no choice
    assert me["flags"]["swamps"] == "swamps-f1a" and me["story"][-1][0] == h.cid(
        "Explorer"
    )  # a leaf: nothing deeper, no effect
    st2 = h.ready()
    m2 = st2.data["players"][0]
    m2["flags"]["frosty"] = "frosty-2"
    h.set_hand(st2, 0, "Explorer")
    h.act(st2, "play Explorer")
    h.act(st2, "flag to frosty-3")
    assert m2["flags"]["frosty"] == "frosty-3"
    st3 = h.ready()
    m3 = st3.data["players"][0]
    h.set_hand(st3, 0, "Scout")
    h.set_food(st3, 0)
    h.act(st3, "play Scout")
    assert h.labels(st3) == ["flag to swamps-f1a", "flag to frosty-2", "flag to caverns-f1"]
    h.act(st3, "flag to swamps-f1a")
    assert m3["flags"]["swamps"] == "swamps-f1a" and not any(m3["food"].values())


def test_charity_collection_asks_the_others_in_turn_order():
    st = h.ready(3)
    h.set_hand(st, 0, "Charity Collection")
    h.set_food(st, 1, acorn=1)
    h.set_food(st, 2)
    h.act(st, "play Charity Collection")
    assert st.current_player() == 1 and h.labels(st) == [
        "decline the offer of Charity Collection (player 0's card)",
        "accept the offer of Charity Collection (player 0's card)",
    ]
    h.act(st, "offer: yes")
    h.act(st, "pay with acorn")
    assert st.data["players"][1]["morality"] == -1
    st.apply_action(st.chance_outcomes()[0][0])  # the collector's card
    assert len(st.data["players"][0]["aside"]) == 1
    assert st.current_player() == 2 and h.labels(st) == [  # nothing to give
        "decline the offer of Charity Collection (player 0's card)"
    ]


def test_demolition_builder_ruins_or_restores_the_location_here():
    st = h.ready()
    me = st.data["players"][0]
    me["space"] = "grove-1"
    st.data["tiles"]["grove-1"] = ["grove-acorn", False]
    h.set_hand(st, 0, "Demolition Builder")
    h.act(st, "play Demolition Builder")
    h.act(st, "flip_choice: done")  # ruin
    assert st.data["tiles"]["grove-1"] == ["grove-acorn", True]
    h.act(st, "side: yes")  # the either symbol: toward good
    assert me["morality"] == -1


def test_tea_cat_swaps_the_strong_paw_back():
    st = h.ready()
    me = st.data["players"][0]
    h.set_row(st, 0, "Tea Cat")
    h.act(st, "turn: strong paw: help")
    h.act(st, "help: gain acorn")
    h.act(st, "turn: end turn")
    h.act(st, "turn: paw: help")
    h.act(st, "help: gain acorn")
    h.act(st, "turn: end turn")
    h.act(st, "turn: paw: encounter 1")
    h.act(st, "choose: play with the cat (good)")
    assert me["strong_paw"] and me["paws"] == 1
    assert sorted(strong for _, strong in me["paws_placed"]) == [False, False]


def blaster_on_a_collapsed_tunnel(space: str):
    """Player 0 on ``space``, whose tunnel a tunnel token has collapsed, about to play Blaster
    (paid with a torch, which goes onto its stack in the store)."""
    st = h.ready()
    st.data["players"][0]["space"] = space
    st.data["tunnels"][space] = "collapsed"
    st.data["tunnel_tokens"] -= 1
    h.give_item(st, 0, "torch")
    h.set_hand(st, 0)  # first empty (Blaster is in the first hand dealt: kept, it would lie twice)
    h.set_hand(st, 0, "Blaster")
    for layer in st.data["decks"]["deeds"]["layers"]:
        layer.sort()  # a layer is unordered: its canonical order, as the compiled engine keeps it
    return st


def test_blaster_rebuilds_a_collapsed_tunnel_printed_or_dug():
    from solver.games.trial.belongings import open_tunnels

    # a printed tunnel: "instead of putting a new token there, remove the token"
    st = blaster_on_a_collapsed_tunnel("path-05")
    h.act(st, "play Blaster")
    h.act(st, "pay with torch")
    assert st.data["tunnels"] == {} and st.data["tunnel_tokens"] == 2
    assert "path-05" in open_tunnels(st)
    # a dug tunnel (its token flipped face down): the token turns face up again, a tunnel once
    # more (removing it would leave the space without one: nothing rebuilt)
    st = blaster_on_a_collapsed_tunnel("path-01")
    h.act(st, "play Blaster")
    h.act(st, "pay with torch")
    assert st.data["tunnels"] == {"path-01": "open"} and st.data["tunnel_tokens"] == 1
    assert "path-01" in open_tunnels(st)
