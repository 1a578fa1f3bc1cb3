"""Fights as the rulebook plays them, each expectation derived by hand from its text.

The adventurer rolls one die plus one per die symbol (the rulebook's examples all roll: "Mary rolls
1 die"; the die symbol "roll an extra die"); cards whose enhancement shows strength symbols may be
discarded in the open (the Knight example), then up to 2 cards each are played face down, attacker
first (the Duel example); every fight's strengths, dice and winner are told to everyone.
The die's faces (``components.json``): the winning symbol (0 strength), 1, 1, 2, 2, 3.
"""

from __future__ import annotations

import json
from fractions import Fraction

import pytest

from . import positions as h

WIN, ONE, TWO, THREE = h.WIN, h.ONE, h.TWO, h.THREE


def _dice_waiting(st, side: int) -> int:
    return sum(1 for f in st.data["stack"] if f["step"] == "die" and f["side"] == side)


def _fights_in_log(st) -> list[dict]:
    return [json.loads(text[len("fight:") :]) for _, text, _ in st.data["history"]
            if text.startswith("fight:")]  # fmt: skip


def test_an_adventurer_without_die_symbols_rolls_one_die_and_may_win_on_it():
    st = h.ready()
    h.set_row(st, 0, "Knight")
    h.set_hand(st, 0)
    h.act(st, "turn: paw: encounter 1")
    assert _dice_waiting(st, 1) == 1 and _dice_waiting(st, 0) == 0  # the Knight rolls first
    h.die(st, WIN)  # the Knight: 3 + 0
    assert _dice_waiting(st, 0) == 1  # then the adventurer: one die, no die symbol
    h.die(st, THREE)  # 1 (board) + 3 = 4 > 3; an empty hand has no card stage to wait for
    me = st.data["players"][0]
    assert me["story"] == [[h.cid("Knight"), True, "fighting"]]
    assert st.data["last_fight"]["strength"] == [4, 3] and st.data["last_fight"]["dice"] == [
        [3],
        [0],
    ]


def test_each_die_symbol_and_a_weapons_die_add_a_die():
    counts = {}
    for symbols, weapon in ((False, False), (True, False), (True, True)):
        st = h.ready()
        h.set_row(st, 0, "Knight")
        h.set_hand(st, 0)
        if symbols:
            h.to_story(st, 0, "Weasel Duelist")  # a die symbol
        if weapon:
            h.give_item(st, 0, "peak-sword")  # 2 strength and 1 die
        h.act(st, "turn: paw: encounter 1")
        if weapon:
            h.act(st, "fight with peak-sword")
        h.die(st, ONE)
        counts[symbols, weapon] = _dice_waiting(st, 0)
    assert counts == {(False, False): 1, (True, False): 2, (True, True): 3}


def test_the_rulebooks_knight_example():
    # "The Knight has 3 strength points ... Mary rolls a die and the result is 3, so the Knight
    # has 6 ... The number of strength symbols on Mary's character board and story cards is 2.
    # Mary rolls 1 die and adds the result, which is 2. Then she uses 1 of her items to gain 2
    # more strength symbols. The total of her strength points is 6 ... Mary discards the
    # Pathfinder card from her hand which provides her with another strength symbol. Now she has
    # 7 strength points, which is enough to defeat the Knight ... she moves her morality token
    # 1 slot to the right."
    st = h.ready()
    h.set_row(st, 0, "Knight")
    h.to_story(st, 0, "Brawl")  # 1 strength symbol in the story, 1 on the board
    h.give_item(st, 0, "axe")  # 2 strength symbols
    h.set_hand(st, 0, "Pathfinder", "Market Day")  # enhancements: 1 strength; 2 movement
    h.act(st, "turn: paw: encounter 1")
    h.act(st, "fight with axe")
    h.die(st, THREE)  # the Knight: 3 + 3 = 6
    h.die(st, TWO)  # Mary: 2 + 2 + 2 = 6, a tie: the defender would win
    assert st.observation(1)["fight"]["strength_shown"] == [6, 6]
    assert h.labels(st) == ["stop discarding for strength", "discard Pathfinder for 1 strength"]
    h.act(st, "discard Pathfinder for 1 strength")
    h.act(st, "fight_discard: done")
    h.act(st, "fight_cards: done")
    me = st.data["players"][0]
    assert me["story"][-1] == [h.cid("Knight"), True, "fighting"] and me["morality"] == 1
    assert me["hand"] == [h.cid("Market Day")]
    assert st.data["decks"]["deeds"]["discard"][-1] == h.cid("Pathfinder")
    record = {"card": h.cid("Knight"), "attacker": 0, "defender": None, "strength": [7, 6],
              "dice": [[2], [3]], "bow": [], "by": "strength", "winner": "attacker"}  # fmt: skip
    assert st.data["last_fight"] == record
    assert _fights_in_log(st) == [record]
    for p in (0, 1):
        assert st.observation(p)["last_fight"] == record
        assert st.observation(p)["fight"] is None
        assert "fight:" in st.information_state_string(p)


@pytest.mark.parametrize(("face", "won"), [(THREE, False), (ONE, True)])
def test_two_cards_discarded_then_two_face_down_four_in_all(face, won):
    st = h.ready()
    h.set_row(st, 0, "Swordmaster")
    h.set_hand(st, 0, "Delver", "Pathfinder", "Blaster", "Market Day", "Tool Swap")
    h.act(st, "turn: paw: encounter 1")
    h.die(st, face)  # the Swordmaster: 6 + 3 = 9, or 6 + 1 = 7
    h.die(st, ONE)  # the adventurer: 1 + 1 = 2
    # the discard stage offers only cards whose enhancement shows strength symbols
    assert h.labels(st) == [
        "stop discarding for strength",
        "discard Pathfinder for 1 strength",
        "discard Blaster for 1 strength",
        "discard Delver for 2 strength",
    ]
    h.act(st, "discard Delver for 2 strength")
    h.act(st, "discard Pathfinder for 1 strength")  # 2 + 3 = 5
    assert h.labels(st) == ["stop discarding for strength"]  # two cards at most
    h.act(st, "fight_discard: done")
    # face down: any card, each worth every symbol of its enhancement
    assert h.labels(st) == [
        "stop playing cards face down",
        "play Blaster face down",
        "play Market Day face down",
        "play Tool Swap face down",
    ]
    h.act(st, "play Market Day face down")  # 2 movement symbols: 2 strength
    h.act(st, "play Blaster face down")  # 1: 5 + 3 = 8
    assert h.labels(st) == ["stop playing cards face down"]  # two more at most
    h.act(st, "fight_cards: done")
    me = st.data["players"][0]
    discard = st.data["decks"]["deeds"]["discard"]
    assert {h.cid("Delver"), h.cid("Pathfinder")} <= set(discard)  # discarded either way
    assert st.data["last_fight"]["strength"] == [8, 9 if face == THREE else 7]
    if won:  # 8 > 7: the winner discards the face-down cards too
        assert me["story"] == [[h.cid("Swordmaster"), True, "fighting"]]
        assert me["hand"] == [h.cid("Tool Swap")]
        assert {h.cid("Market Day"), h.cid("Blaster")} <= set(discard)
    else:  # 8 < 9: the loser takes the face-down cards back; the Swordmaster goes face down
        assert me["story"] == [[h.cid("Swordmaster"), False, "fighting"]]
        assert sorted(me["hand"]) == sorted(h.cid(n) for n in ("Blaster", "Market Day",
                                                               "Tool Swap"))  # fmt: skip


def test_the_one_time_strength_tent_symbol_is_used_with_the_discards():
    st = h.ready()
    h.set_row(st, 0, "Knight")
    h.set_hand(st, 0, "Market Day")
    st.data["players"][0]["tent_symbols"]["strength"] = 1
    h.act(st, "turn: paw: encounter 1")
    h.die(st, ONE)  # the Knight: 4
    h.die(st, TWO)  # 1 + 2 = 3
    assert h.labels(st) == ["stop discarding for strength", "use the one-time strength tent symbol"]
    h.act(st, "use the one-time strength tent symbol")  # 4: a tie
    assert h.labels(st) == ["stop discarding for strength"]
    h.act(st, "fight_discard: done")
    h.act(st, "play Market Day face down")  # + 2 = 6 > 4
    h.act(st, "fight_cards: done")
    assert st.data["players"][0]["tent_symbols"]["strength"] == 0
    assert (
        st.data["last_fight"]["strength"] == [6, 4]
        and st.data["last_fight"]["winner"] == "attacker"
    )


def test_the_rulebooks_duel_example():
    # "Mary rolls a die and adds her strength symbols—she has 6 strength points. Mark rolls 2
    # dice and gets 8 strength points. Now Mary can play up to 2 face-down cards ... she decides
    # to play 2 cards. Mark plays 1 card. After the cards are revealed, Mary has 9 strength
    # points in total, and Mark—10. Mary does not defeat Mark. Mary puts her 2 cards back into
    # her hand, and Mark discards the card he has played ... Mark adds the Duel card to his story."
    st = h.ready()
    mary, mark = st.data["players"]
    h.set_hand(st, 0, "Duel", "Pathfinder", "Delver")
    h.set_hand(st, 1, "Postal Service")
    h.to_story(st, 0, "Brawl")
    h.to_story(st, 0, "Training")  # Mary: 1 (board) + 2 strength symbols
    h.to_story(st, 1, "Sparring")  # Mark: 1 + 1 strength symbol, and a die symbol: 2 dice
    h.set_food(st, 0, acorn=2)
    h.act(st, "play Duel")
    h.act(st, "pay with acorn")
    assert _dice_waiting(st, 1) == 2  # the defender's dice first
    h.die(st, THREE)
    h.die(st, THREE)  # Mark: 2 + 6 = 8
    assert _dice_waiting(st, 0) == 1
    h.die(st, THREE)  # Mary: 3 + 3 = 6
    h.act(st, "fight_discard: done")  # Mary keeps her strength cards for the face-down stage
    assert st.current_player() == 1
    h.act(st, "fight_discard: done")
    assert st.current_player() == 0
    h.act(st, "play Pathfinder face down")
    h.act(st, "play Delver face down")  # 1 + 2: Mary 9
    h.act(st, "fight_cards: done")
    # Mark sees how many cards Mary played, not which
    seen = st.observation(1)
    assert seen["fight"]["face_down"] == [2, 0] and seen["fight"]["strength_shown"] == [6, 8]
    assert h.cid("Delver") not in st.information_state_string(1)
    assert st.current_player() == 1
    h.act(st, "play Postal Service face down")  # 2: Mark 10
    h.act(st, "fight_cards: done")
    assert st.data["last_fight"]["strength"] == [9, 10]
    assert st.data["last_fight"]["winner"] == "defender" and st.data["last_fight"]["defender"] == 1
    assert sorted(mary["hand"]) == sorted([h.cid("Pathfinder"), h.cid("Delver")])
    assert st.data["decks"]["deeds"]["discard"][-1] == h.cid("Postal Service")
    h.act(st, "give acorn to player 1")  # the Duel's stake: a food of the loser's choice
    assert mark["story"][-1] == [h.cid("Duel"), True, "fighting"]
    assert [s[0] for s in mary["story"]] == [h.cid("Brawl"), h.cid("Training")]


def test_a_duel_tie_goes_to_the_defender():
    st = h.ready()
    h.set_hand(st, 0, "Duel")
    h.set_hand(st, 1)
    h.set_food(st, 0, acorn=1)
    h.act(st, "play Duel")
    h.act(st, "pay with acorn")
    h.die(st, TWO)  # Mark: 1 + 2
    h.die(st, TWO)  # Mary: 1 + 2, and no cards left: a tie
    assert st.data["last_fight"]["strength"] == [3, 3]
    assert st.data["players"][1]["story"] == [[h.cid("Duel"), True, "fighting"]]


def test_the_bow_wins_at_once_on_the_winning_symbol():
    st = h.ready()
    h.set_row(st, 0, "Swordmaster")
    h.give_item(st, 0, "bow")
    h.act(st, "turn: paw: encounter 1")
    h.act(st, "fight with bow")
    h.die(st, WIN)
    assert not st.is_chance_node() or st._top()["step"] == "draw"  # no more dice: it is over
    assert st.data["players"][0]["story"] == [[h.cid("Swordmaster"), True, "fighting"]]
    assert st.data["last_fight"]["by"] == "bow" and st.data["last_fight"]["bow"] == [[0, "win"]]


def test_a_missed_bow_roll_fights_on_with_one_die_and_no_bow_strength():
    st = h.ready()
    h.set_row(st, 0, "Swordmaster")
    h.give_item(st, 0, "bow")
    h.set_hand(st, 0)
    h.act(st, "turn: paw: encounter 1")
    h.act(st, "fight with bow")
    h.die(st, THREE)  # not the winning symbol: the fight goes on
    h.die(st, ONE)  # the Swordmaster: 6 + 1 = 7
    assert _dice_waiting(st, 0) == 1  # the bow adds no die
    h.die(st, THREE)  # 1 + 3 = 4 < 7
    assert st.data["players"][0]["story"] == [[h.cid("Swordmaster"), False, "fighting"]]
    record = st.data["last_fight"]
    assert record["bow"] == [[0, 3]] and record["strength"] == [4, 7] and record["by"] == "strength"


def test_the_shield_takes_one_die_from_a_foe():
    rolled = {}
    for shield in (False, True):
        st = h.ready()
        h.set_row(st, 0, "Bandits")
        h.set_hand(st, 0)
        if shield:
            h.give_item(st, 0, "shield")
        h.act(st, "turn: paw: encounter 1")
        rolled[shield] = _dice_waiting(st, 1)
        while st.is_chance_node() and st._top()["step"] == "die":
            h.die(st, ONE)
        # Bandits: 1 per die (3 or 2) against the adventurer's 1 + 1: a loss, then a tie
        assert st.data["players"][0]["story"] == []
    assert rolled == {False: 3, True: 2}


def test_the_heuristic_players_odds_come_from_the_exact_dice():
    from solver.games.trial.agents import fight_chance

    st = h.ready()
    h.set_hand(st, 0)
    h.give_item(st, 0, "axe")
    # 1 + 2 (axe) + a die against the Knight's 3 + a die: the adventurer wins when their die
    # shows more. Faces 0, 1, 1, 2, 2, 3: P(equal) = (1 + 4 + 4 + 1) / 36, so P(more) = 13/36
    assert fight_chance(st, 0, 3, 1, "axe") == pytest.approx(float(Fraction(13, 36)))
    # without the axe the die must show 3 more than the Knight's: 3 against 0, 1 in 36
    assert fight_chance(st, 0, 3, 1, None) == pytest.approx(float(Fraction(1, 36)))
    h.set_hand(st, 0, "Delver")  # +2 from the hand: wins unless the Knight's die is 2+ higher
    assert fight_chance(st, 0, 3, 1, "axe") == pytest.approx(float(Fraction(31, 36)))
