"""The decks: drawing a card (a chance step), a card's discard, cards gained during a turn.

A deck is ``{"layers": [[card, ...], ...], "discard": [...], "top": None | {"card", "viewers"}}``:
a draw is uniform over its first non-empty layer (a card put under the deck starts a new layer at
the end, so it waits below the others), a top card revealed to some players is drawn first. The
deed deck, once empty, is refilled by its discard pile. ``CardOrFood`` is the base of the
decisions between a deed card and a food token.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, ClassVar

from solver.errors import IllegalActionError
from solver.games.trial.belongings import add_to_story, check_legendary, column_of, gain_food
from solver.games.trial.core import REQUIRED, Fields, Frame, Step, player, pop, push, step
from solver.games.trial.history import PUBLIC, know
from solver.games.trial.schema import FOODS

if TYPE_CHECKING:
    from solver.games.trial.core import State

DESTINATIONS = ("aside", "hand", "parent", "story", "top")
"""Where a drawn card goes (and ``row:I``, the encounter row's slot I); see :class:`Draw`."""


def discard_card(st: State, cid: str) -> None:
    """A card leaves play to its discard: deeds to the deed discard pile (on top), encounter cards
    randomly under the encounter deck, expedition cards to their area's discard pile."""
    deck = st.game.deck_of[cid]
    if deck == "encounters":
        st.data["decks"]["encounters"]["layers"].append([cid])
    else:
        st.data["decks"][deck]["discard"].append(cid)


def hand_actions(st: State, p: int) -> list[int]:
    """The actions naming the cards of ``p``'s hand (a decision "a card from hand")."""
    return [st.layout.card(c) for c in player(st, p)["hand"]]


def from_hand(st: State, p: int, a: int) -> str:
    """The card of ``p``'s hand that action ``a`` names, taken out of the hand."""
    cid = st.layout.cards[a - st.layout.CARD]
    player(st, p)["hand"].remove(cid)
    return cid


def discard_from_hand(st: State, p: int, a: int) -> str:
    """Discard the card of ``p``'s hand that action ``a`` names; the card."""
    cid = from_hand(st, p, a)
    discard_card(st, cid)
    return cid


def card_name(st: State, a: int) -> str:
    """The name of the card that action ``a`` names (for describing a decision)."""
    return str(st.game.pack.card(st.layout.cards[a - st.layout.CARD])["name"])


def deck_top_layer(st: State, deck: str) -> list[str]:
    """The cards the next draw from ``deck`` is uniform over (its first non-empty layer). An
    empty deed deck is refilled from its discard pile first (in sight of all)."""
    d = st.data["decks"][deck]
    if deck == "deeds" and not any(d["layers"]) and d["top"] is None and d["discard"]:
        d["layers"] = [list(d["discard"])]
        d["discard"] = []
        know(st, d["layers"][0], PUBLIC)  # the public discard pile becomes the deck
    for layer in d["layers"]:
        if layer:
            return layer
    return []


def deck_size(st: State, deck: str) -> int:
    """Cards left in ``deck`` (its revealed top included)."""
    d = st.data["decks"][deck]
    return sum(len(layer) for layer in d["layers"]) + (d["top"] is not None)


def take_card(st: State, deck: str, cid: str) -> None:
    """Remove ``cid`` from ``deck`` (its top or a layer)."""
    d = st.data["decks"][deck]
    if d["top"] is not None and d["top"]["card"] == cid:
        d["top"] = None
        return
    for layer in d["layers"]:
        if cid in layer:
            layer.remove(cid)
            d["layers"] = [x for x in d["layers"] if x]
            return
    raise IllegalActionError(f"{cid} is not in the {deck} deck")


def draw(st: State, p: int, deck: str, to: str, viewers: list[int] | None = None) -> None:
    """Push a draw of one card from ``deck`` for player ``p`` going ``to`` (:class:`Draw`)."""
    push(st, "draw", player=p, deck=deck, to=to, viewers=viewers)


def draw_deed(st: State, p: int) -> None:
    """Push the draw of a deed card gained by ``p`` (``aside``: see :class:`Draw`)."""
    draw(st, p, "deeds", "aside")


def give_card(st: State, p: int, cid: str) -> None:
    """A gained card: aside until the end of the turn for the player on turn, else to hand."""
    me = player(st, p)
    (me["aside"] if st.data["turn_player"] == p else me["hand"]).append(cid)


@step("draw")
class Draw(Step):
    """Chance: which card comes off the deck (uniform over its first layer; a revealed top card
    is taken with probability 1; an empty deck draws nothing), and where it goes: ``aside`` (a
    card gained: aside until the end of the turn for the player on turn, else to hand),
    ``hand``, ``row:I`` (the encounter row's slot I), ``parent`` (the ``drawn`` field of the step
    below, which waits for it), ``story`` (face up, unresolved), ``top`` (revealed on the deck's
    top to ``viewers``)."""

    chance = True
    fields: ClassVar[Fields] = {
        "player": (REQUIRED, "who draws"),
        "deck": (REQUIRED, "deeds, encounters or exp:AREA"),
        "to": (REQUIRED, "where the card goes (see above)"),
        "viewers": (None, "for to=top: the players who see the revealed card"),
    }

    @staticmethod
    def outcomes(st: State, f: Frame) -> list[tuple[int, float]]:
        top = st.data["decks"][f["deck"]]["top"]
        if top is not None:
            return [(st.layout.card(top["card"]), 1.0)]
        layer = deck_top_layer(st, f["deck"])
        return [(st.layout.card(c), 1.0 / len(layer)) for c in sorted(layer, key=st.layout.card)]

    @staticmethod
    def apply(st: State, f: Frame, a: int) -> None:
        pop(st, f)
        cid = st.layout.cards[a - st.layout.CARD]
        take_card(st, f["deck"], cid)
        to, p = f["to"], f["player"]
        if to == "aside":
            give_card(st, p, cid)
        elif to == "hand":
            player(st, p)["hand"].append(cid)
        elif to.startswith("row:"):
            st.data["encounter_row"][int(to[4:])] = cid
        elif to == "parent":
            st.data["stack"][-1]["drawn"] = cid
        elif to == "story":
            symbols = st.game.pack.card(cid)["symbols"]
            if "either" in symbols or "evil" in symbols:  # Lookout: the side of the player's choice
                player(st, p)["story"].append([cid, True, column_of(st, cid)])
                check_legendary(st, p)
                push(st, "side", player=p, card=cid)
            else:
                add_to_story(st, p, cid, True)
        elif to == "top":
            st.data["decks"][f["deck"]]["top"] = {"card": cid, "viewers": f["viewers"]}
        else:  # pragma: no cover - a programming error
            raise IllegalActionError(f"internal: unknown draw destination {to}")

    @staticmethod
    def describe(st: State, f: Frame, a: int) -> str:
        name, to = card_name(st, a), f["to"]
        if to.startswith("row:"):
            return f"encounter {int(to[4:]) + 1} is {name}"
        if to == "top":
            return f"{name} is revealed on top of the {deck_words(f['deck'])}"
        if to == "story":
            return f"player {f['player']} draws {name} into their story"
        return f"player {f['player']} draws {name}"


def deck_words(deck: str) -> str:
    """A deck as a player names it: ``deeds`` -> ``deed deck``, ``exp:frosty`` -> ``frosty
    expedition deck``."""
    if deck.startswith("exp:"):
        return f"{deck[4:]} expedition deck"
    return f"{deck.removesuffix('s')} deck"


class CardOrFood(Step):
    """The base of the decisions between a deed card (set aside) and a raspberry, acorn or
    mushroom (the universal campsite, helping the residents); ``labels`` name the two answers
    (the food's, a template for its name)."""

    labels: ClassVar[tuple[str, str]] = ("a deed card", "{}")

    @staticmethod
    def legal(st: State, f: Frame) -> list[int]:
        return [st.layout.CARD] + [st.layout.food(x) for x in FOODS[:3]]

    @staticmethod
    def apply(st: State, f: Frame, a: int) -> None:
        pop(st, f)
        if a == st.layout.CARD:
            draw_deed(st, f["player"])
        else:
            gain_food(st, f["player"], FOODS[a - st.layout.FOOD])

    @classmethod
    def describe(cls, st: State, f: Frame, a: int) -> str:
        card, food = cls.labels
        return card if a == st.layout.CARD else food.format(st.layout.label(a))
