"""Hand-made positions of the reference Trial, shared by its tests: the first decision of a
game, cards found by name and moved (never copied, so every card still lies once), food and
items handed out, and a few positions several tests start from.
"""

from __future__ import annotations

from solver.games.trial.rules import TrialGame, TrialState

GAME = {n: TrialGame(players=n) for n in (2, 3, 4)}
PACK = GAME[2].pack
# the die's distinct faces, in pack order: the winning symbol (0 strength), 1, 2, 3
WIN, ONE, TWO, THREE = 0, 1, 2, 3


def ready(players: int = 2) -> TrialState:
    """The first decision of the game: set-up with the first outcome of every chance node, every
    piece on start-1."""
    st = GAME[players].new_initial_state()
    while st.data["turn_player"] is None:
        st.apply_action(
            st.chance_outcomes()[0][0] if st.is_chance_node() else st.legal_actions()[0]
        )
    return st


def cid(name: str) -> str:
    return next(c["id"] for c in PACK.cards.values() if c["name"] == name)


def take(st: TrialState, card: str) -> str:
    """Remove ``card`` from wherever it lies."""
    d = st.data
    for me in d["players"]:
        for key in ("hand", "aside"):
            if card in me[key]:
                me[key].remove(card)
                return card
    for deck in d["decks"].values():
        for layer in deck["layers"]:
            if card in layer:
                layer.remove(card)
                return card
        if card in deck["discard"]:
            deck["discard"].remove(card)
            return card
    if card in d["encounter_row"]:
        d["encounter_row"][d["encounter_row"].index(card)] = None
        return card
    raise AssertionError(card)


def set_hand(st: TrialState, p: int, *names: str) -> None:
    """``p``'s hand is the cards ``names``: the hand's cards go back into their decks first (a
    named card already in the hand among them), so every card still lies once."""
    me = st.data["players"][p]
    hand, me["hand"] = me["hand"], []
    for card in hand:
        st.data["decks"][st.game.deck_of[card]]["layers"][0].append(card)
    me["hand"] = [take(st, cid(n)) for n in names]


def set_row(st: TrialState, slot: int, name: str) -> None:
    old = st.data["encounter_row"][slot]
    if old is not None:
        st.data["decks"]["encounters"]["layers"][0].append(old)
        st.data["encounter_row"][slot] = None
    st.data["encounter_row"][slot] = take(st, cid(name))


def to_story(st: TrialState, p: int, name: str, faceup: bool = True) -> None:
    from solver.games.trial.belongings import column_of

    card = take(st, cid(name))
    st.data["players"][p]["story"].append([card, faceup, column_of(st, card)])


def give_item(st: TrialState, p: int, kind: str) -> None:
    """Move one ``kind`` from the store (or a ruins) into ``p``'s backpack."""
    for row in st.data["store"]:
        for stack in row:
            if stack and stack[0] == kind:
                stack.pop()
                st.data["players"][p]["backpack"].append(kind)
                return
    for ruin in st.data["ruins"].values():
        if kind in ruin["items"]:
            ruin["items"].remove(kind)
            st.data["players"][p]["backpack"].append(kind)
            return
    if kind in st.data["artifacts_available"]:
        st.data["artifacts_available"].remove(kind)
        st.data["players"][p]["backpack"].append(kind)
        return
    raise AssertionError(kind)


def set_food(st: TrialState, p: int, **food: int) -> None:
    me = st.data["players"][p]
    for f in me["food"]:
        st.data["tray"][f] += me["food"][f]
        me["food"][f] = 0
    for f, n in food.items():
        st.data["tray"][f] -= n
        me["food"][f] = n


def act(st: TrialState, label: str) -> None:
    st.apply_action(st.string_to_action(label))


def labels(st: TrialState) -> list[str]:
    return [st.action_to_string(a) for a in st.legal_actions()]


def die(st: TrialState, face: int) -> None:
    assert st.is_chance_node() and st._top()["step"] == "die"
    st.apply_action(st.layout.DIE + face)


# -- turns -------------------------------------------------------------------------------------


def at_store(strong: bool = False) -> TrialState:
    """Player 0 visiting the store (the store-swap tile on store-1) with a paw."""
    st = ready()
    st.data["players"][0]["space"] = "store-1"
    st.data["tiles"]["store-1"] = ["store-swap", False]
    act(st, f"turn: {'strong ' if strong else ''}paw: location")
    return st


def full_backpack(st: TrialState) -> None:
    """Fill player 0's backpack: a sword, wings and an axe (2 + 2 + 1 = 5 slots)."""
    for kind in ("sword", "wings", "axe"):
        give_item(st, 0, kind)


def kettle_to_sell() -> TrialState:
    """Player 0 at the store with a kettle to sell, no food, and no kettle left in the store
    (its slots and the any-food slot of row 1, column 2 empty)."""
    st = at_store()
    store = st.data["store"]
    for row in store:
        for c, stack in enumerate(row):
            if stack and stack[0] == "kettle":
                row[c] = []
    store[0][1] = []
    give_item(st, 0, "kettle")
    set_food(st, 0)
    return st


def mole_king_on_top() -> TrialState:
    """Player 0 on caverns-0 with a full backpack and two acorns, the Mole King (its artifact: a
    stone tablet, 2 slots) on top of the caverns' expedition deck, the turn not begun."""
    st = ready()
    full_backpack(st)
    st.data["players"][0]["space"] = "caverns-0"
    st.data["decks"]["exp:caverns"]["top"] = {"card": take(st, cid("Mole King")), "viewers": []}
    set_food(st, 0, acorn=2)
    return st
