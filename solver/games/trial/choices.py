"""Small decisions several rule sections ask for: a food to gain or hand over, a gift's taker, a
card from hand, a story column, a common item from the store, cards from the deed discard pile,
a face-up encounter card, an optional draw, a face-down story card.

Each is a step kind the sections push (never call); what the decision is for is in its frame.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, ClassVar

from solver.games.trial import core
from solver.games.trial.actions import COLUMNS
from solver.games.trial.belongings import (
    add_to_story,
    cell_of,
    drops_if_full,
    fits,
    gain_food,
    made_room,
    store_kinds,
    transfer_food,
)
from solver.games.trial.core import REQUIRED, Fields, Frame, Step, YesNo, player, pop, push, step
from solver.games.trial.decks import card_name, draw, draw_deed, from_hand, give_card, hand_actions
from solver.games.trial.payments import RAW_FOODS
from solver.games.trial.schema import FOODS
from solver.render.ascii import count

if TYPE_CHECKING:
    from solver.games.trial.core import State


@step("pick_food")
class PickFood(Step):
    """Decision: which food to gain from the tray (``purpose`` gain: a raspberry, acorn or
    mushroom) or which of one's own food tokens to hand over (``give``, to player ``to``)."""

    fields: ClassVar[Fields] = {
        "player": (REQUIRED, "who chooses"),
        "purpose": (REQUIRED, "gain or give"),
        "to": (None, "for give: the player receiving it"),
    }

    @staticmethod
    def legal(st: State, f: Frame) -> list[int]:
        if f["purpose"] == "gain":
            return [st.layout.food(x) for x in RAW_FOODS if st.data["tray"][x] > 0]
        me = player(st, f["player"])
        return [st.layout.food(x) for x in FOODS if me["food"][x] > 0]

    @staticmethod
    def apply(st: State, f: Frame, a: int) -> None:
        pop(st, f)
        food = FOODS[a - st.layout.FOOD]
        if f["purpose"] == "gain":
            gain_food(st, f["player"], food)
        else:
            transfer_food(st, f["player"], f["to"], food)

    @staticmethod
    def describe(st: State, f: Frame, a: int) -> str:
        food = FOODS[a - st.layout.FOOD]
        return f"gain {food}" if f["purpose"] == "gain" else f"give {food} to player {f['to']}"


@step("give")
class Give(Step):
    """Decision: who receives a gift (someone on the giver's space if the card needs company);
    passed over when the giver has nothing of that kind."""

    fields: ClassVar[Fields] = {
        "player": (REQUIRED, "the giver"),
        "what": (REQUIRED, "food, tea or card"),
        "company": (False, "the taker must share the giver's space"),
    }

    @staticmethod
    def legal(st: State, f: Frame) -> list[int]:
        p = f["player"]
        me = player(st, p)
        has = {
            "food": any(me["food"].values()),
            "tea": me["food"]["tea"] > 0,
            "card": bool(me["hand"]),
        }[f["what"]]
        if not has:
            return []
        return [
            st.layout.PLAYER + q
            for q in range(st.data["player_count"])
            if q != p and (not f["company"] or player(st, q)["space"] == me["space"])
        ]

    @staticmethod
    def apply(st: State, f: Frame, a: int) -> None:
        pop(st, f)
        p, q = f["player"], a - st.layout.PLAYER
        if f["what"] == "tea":
            transfer_food(st, p, q, "tea")
        elif f["what"] == "food":
            push(st, "pick_food", player=p, purpose="give", to=q)
        else:
            push(st, "pick_card", player=p, purpose="give", to=q)

    @staticmethod
    def describe(st: State, f: Frame, a: int) -> str:
        return f"give {f['what']} to player {a - st.layout.PLAYER}"


@step("pick_card")
class PickCard(Step):
    """Decision: a card from hand, for the story (``story_faceup``: unresolved, face up;
    ``story_facedown``: then its column) or as a gift (``give``, to player ``to``)."""

    fields: ClassVar[Fields] = {
        "player": (REQUIRED, "who chooses"),
        "purpose": (REQUIRED, "story_faceup, story_facedown or give"),
        "to": (None, "for give: the player receiving it"),
    }

    @staticmethod
    def legal(st: State, f: Frame) -> list[int]:
        return hand_actions(st, f["player"])

    @staticmethod
    def apply(st: State, f: Frame, a: int) -> None:
        pop(st, f)
        p = f["player"]
        cid = from_hand(st, p, a)
        if f["purpose"] == "story_faceup":
            add_to_story(st, p, cid, True)
        elif f["purpose"] == "story_facedown":
            push(st, "pick_column", player=p, card=cid)
        else:
            give_card(st, f["to"], cid)

    @staticmethod
    def describe(st: State, f: Frame, a: int) -> str:
        name = card_name(st, a)
        return {
            "story_faceup": f"add {name} to your story face up",
            "story_facedown": f"add {name} to your story face down",
        }.get(f["purpose"], f"give {name} to player {f['to']}")


@step("pick_column")
class PickColumn(Step):
    """Decision: the story column a face-down card goes to (any column)."""

    fields: ClassVar[Fields] = {
        "player": (REQUIRED, "whose story"),
        "card": (REQUIRED, "the card going face down (held by this step meanwhile)"),
    }

    @staticmethod
    def describe(st: State, f: Frame, a: int) -> str:
        return f"put it in the {COLUMNS[a - st.layout.COLUMN]} column"

    @staticmethod
    def legal(st: State, f: Frame) -> list[int]:
        return [st.layout.COLUMN + i for i in range(len(COLUMNS))]

    @staticmethod
    def apply(st: State, f: Frame, a: int) -> None:
        pop(st, f)
        add_to_story(st, f["player"], f["card"], False, column=COLUMNS[a - st.layout.COLUMN])


@step("facedown_optional")
class FacedownOptional(Step):
    """Decision (restored lookout tower, a campsite): a card from hand into any story column
    face down, or ``done``."""

    fields: ClassVar[Fields] = {"player": (REQUIRED, "whose story")}

    @staticmethod
    def describe(st: State, f: Frame, a: int) -> str:
        if a == st.layout.DONE:
            return "add no card to your story"
        return f"add {card_name(st, a)} to your story face down"

    @staticmethod
    def legal(st: State, f: Frame) -> list[int]:
        return [st.layout.DONE, *hand_actions(st, f["player"])]

    @staticmethod
    def apply(st: State, f: Frame, a: int) -> None:
        pop(st, f)
        if a == st.layout.DONE:
            return
        cid = from_hand(st, f["player"], a)
        push(st, "pick_column", player=f["player"], card=cid)


@step("take_item")
class TakeItem(Step):
    """Decision: an item of ``rarity`` from the store (one that fits), or none; when one does
    not fit, dropping something first (``DROP``). A ruined store's sale offers "another common
    item": every kind but the one it placed (``other_than``)."""

    fields: ClassVar[Fields] = {
        "player": (REQUIRED, "who takes it"),
        "rarity": ("common", "common or rare"),
        "other_than": (None, "a kind not offered: the one a ruined store's sale placed, or null"),
    }

    @staticmethod
    def legal(st: State, f: Frame) -> list[int]:
        offered = store_kinds(st, f["rarity"], f["other_than"])
        acts = [st.layout.DONE] + [st.layout.item(k) for k in offered if fits(st, f["player"], k)]
        return acts + drops_if_full(st, f["player"], offered)

    @staticmethod
    def apply(st: State, f: Frame, a: int) -> None:
        if made_room(st, f["player"], a):
            return
        pop(st, f)
        if a == st.layout.DONE:
            return
        kind = st.layout.item_kinds[a - st.layout.ITEM]
        cell = cell_of(st, kind)
        assert cell is not None
        st.data["store"][cell[0]][cell[1]].pop()
        player(st, f["player"])["backpack"].append(kind)

    @staticmethod
    def describe(st: State, f: Frame, a: int) -> str:
        if a == st.layout.DONE:
            return "take no item"
        family, index = st.layout.family(a)
        kind = st.layout.item_kinds[index]
        return f"drop {kind} to make room" if family == "drop" else f"take {kind} from the store"


@step("from_discard")
class FromDiscard(core.UntilDone):
    """Decision: a card taken from the deed discard pile among ``choices``, or none; ``left``
    more may be taken."""

    fields: ClassVar[Fields] = {
        "player": (REQUIRED, "who takes"),
        "choices": (REQUIRED, "the cards that may be taken"),
        "left": (REQUIRED, "how many more may be taken"),
    }

    @staticmethod
    def describe(st: State, f: Frame, a: int) -> str:
        if a == st.layout.DONE:
            return "take no more from the deed discard pile"
        return f"take {card_name(st, a)} from the deed discard pile"

    @staticmethod
    def legal(st: State, f: Frame) -> list[int]:
        pile = st.data["decks"]["deeds"]["discard"]
        return [st.layout.DONE] + [st.layout.card(c) for c in f["choices"] if c in pile]

    @staticmethod
    def take(st: State, f: Frame, a: int) -> None:
        cid = st.layout.cards[a - st.layout.CARD]
        st.data["decks"]["deeds"]["discard"].remove(cid)
        f["choices"].remove(cid)
        give_card(st, f["player"], cid)
        f["left"] -= 1
        if f["left"] <= 0:
            pop(st, f)


@step("take_encounter")
class TakeEncounter(Step):
    """Decision: a face-up encounter card taken into hand (the slot is refilled)."""

    fields: ClassVar[Fields] = {"player": (REQUIRED, "who takes it")}

    @staticmethod
    def legal(st: State, f: Frame) -> list[int]:
        row = st.data["encounter_row"]
        return [st.layout.OPTION + i for i, c in enumerate(row) if c is not None]

    @staticmethod
    def apply(st: State, f: Frame, a: int) -> None:
        pop(st, f)
        slot = a - st.layout.OPTION
        cid = st.data["encounter_row"][slot]
        st.data["encounter_row"][slot] = None
        give_card(st, f["player"], cid)
        draw(st, f["player"], "encounters", f"row:{slot}")

    @staticmethod
    def describe(st: State, f: Frame, a: int) -> str:
        cid = st.data["encounter_row"][a - st.layout.OPTION]
        return f"take {st.game.pack.card(cid)['name']} into your hand"


@step("draw_offer")
class DrawOffer(YesNo):
    """Decision of each adventurer in turn (an optional ``all_draw``): draw the deed cards
    (``yes``) or decline (``done``)."""

    fields: ClassVar[Fields] = {
        "player": (REQUIRED, "who decides"),
        "count": (1, "deed cards offered"),
    }

    @staticmethod
    def answer(st: State, f: Frame, yes: bool) -> None:
        if yes:
            for _ in range(f["count"]):
                draw_deed(st, f["player"])

    @staticmethod
    def describe(st: State, f: Frame, a: int) -> str:
        if a == st.layout.YES:
            return f"draw {count(f['count'], 'deed card')}"
        return f"decline the deed card{'' if f['count'] == 1 else 's'}"

    @staticmethod
    def legacy(st: State, f: Frame, a: int) -> str:
        """The labels before the count was said in words: ``draw 1 deed card(s)``, ``decline
        the deed card(s)`` (still accepted: records may hold them)."""
        if a == st.layout.YES:
            return f"draw {f['count']} deed card(s)"
        return "decline the deed card(s)"
