"""Using a location with a paw token: groves, ruins, lookout towers (stores: :mod:`.store`), each
with its ruined side (restored side for ruins), the strong paw's extra, story symbols and cards
discarded for one-time enhancements; turning tiles over (ruin, restore).

Where a tile's symbol is crossed out (a ruined tile) story symbols and enhancement cards do not
count and the strong paw gives nothing extra; restored ruins carry a new symbol and do count.

A location's gain is a step waiting under an ``enhance`` decision: the enhancement's symbols go
into the waiting step's ``boost`` and ``foods`` (``harvest`` for a grove, ``lookout_draw`` for a
lookout tower, the store's ``trading_bonus``), which then runs.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, ClassVar

from solver.games.trial import core
from solver.games.trial.belongings import (
    drops_if_full,
    fits,
    gain_food,
    made_room,
    player,
    return_item,
    story_bonus,
    tile_entry,
)
from solver.games.trial.core import (
    REQUIRED,
    Fields,
    Frame,
    Step,
    YesNo,
    enclosing,
    pop,
    push,
    step,
    words,
)
from solver.games.trial.decks import card_name, draw_deed
from solver.games.trial.discards import discard_actions, discard_for_symbols
from solver.games.trial.history import PUBLIC, note
from solver.games.trial.payments import food_units, pay
from solver.games.trial.schema import FOODS

if TYPE_CHECKING:
    from solver.games.trial.core import State

NO_FOOD = {f: 0 for f in FOODS}


def _with_enhancement(st: State, p: int, kind: str, into: str, **gain: object) -> None:
    """Push the gain ``into`` (a step kind) and, above it, the ``enhance`` decision feeding it."""
    push(st, into, player=p, **gain)
    push(st, "enhance", player=p, kind=kind, into=into)


@step("use_location")
class UseLocation(Step):
    """Automatic: the action of the location tile on ``slot`` for ``player`` (paw or strong
    paw), by the tile's type and side."""

    auto = True
    fields: ClassVar[Fields] = {
        "player": (REQUIRED, "who placed the paw"),
        "slot": (REQUIRED, "the location"),
        "strong_paw": (False, "the paw placed is the strong paw"),
    }

    @staticmethod
    def run(st: State, f: Frame) -> None:
        pop(st, f)
        p, slot, strong = f["player"], f["slot"], f["strong_paw"]
        entry, flipped = tile_entry(st, slot)
        kind = entry["type"]
        if kind == "grove" and not flipped:
            _with_enhancement(st, p, "food", "harvest", food=entry["food"], tea=int(strong))
        elif kind == "grove":
            push(st, "exchange", player=p, food=entry["ruined"]["exchange"])
        elif kind == "lookout" and not flipped:
            _with_enhancement(st, p, "card", "lookout_draw", base=4 if strong else 2)
        elif kind == "lookout":
            pile = list(st.data["decks"]["deeds"]["discard"])
            push(st, "from_discard", player=p, choices=pile, left=entry["ruined"]["discard_pick"])
        elif kind == "store" and not flipped:
            push(st, "store_visit", player=p, card_worth=1 if strong else 0)
        elif kind == "store":
            push(st, "ruined_store_sale", player=p, mode=entry["ruined"]["sell_once"])
        elif not flipped:  # ruins: the items are looked at, then one may be bought
            seen = st.data["ruins"][slot]["seen_by"]
            if p not in seen:
                seen.append(p)
                seen.sort()
            items = ",".join(sorted(st.data["ruins"][slot]["items"]))
            note(st, str(p), f"look:{slot}:{items}", f"look:{slot}:?")
            push(st, "ruins", player=p, slot=slot, strong_paw=strong)
        else:
            _restored(st, p, entry["restored"], strong)


def _restored(st: State, p: int, restored: str, strong: bool) -> None:
    """The action of restored ruins (as the location they became) for ``p``'s paw."""
    if restored == "store":
        push(st, "store_visit", player=p, card_worth=2 if strong else 0)
    elif restored == "grove":
        _with_enhancement(st, p, "food", "harvest", food=None, tea=2 if strong else 1)
    else:  # restored lookout tower: a card face down, then (strong paw) the draw
        if strong:
            _with_enhancement(st, p, "card", "lookout_draw", base=2)
        push(st, "facedown_optional", player=p)


@step("turn_tile")
class TurnTile(Step):
    """Automatic: ruin or restore the location on the player's space (nothing if it already
    shows that side, or if the space is no location). Items lying on ruins that are restored go
    to the store (slots of the player's choice), in sight of all."""

    auto = True
    fields: ClassVar[Fields] = {
        "player": (REQUIRED, "who turns the tile (their space's)"),
        "verb": (REQUIRED, "ruin or restore"),
    }

    @staticmethod
    def run(st: State, f: Frame) -> None:
        pop(st, f)
        p = f["player"]
        slot = player(st, p)["space"]
        if not st.data["tiles"].get(slot):
            return
        entry, flipped = tile_entry(st, slot)
        target = f["verb"] == ("restore" if entry["type"] == "ruins" else "ruin")
        if flipped == target:
            return
        st.data["tiles"][slot][1] = target
        if entry["type"] == "ruins" and target:
            ruin = st.data["ruins"][slot]
            note(st, PUBLIC, f"restore:{slot}:{','.join(sorted(ruin['items']))}")
            for kind in ruin["items"]:
                return_item(st, kind, p)
            ruin["items"] = []
            ruin["seen_by"] = list(range(st.data["player_count"]))


# -- enhancements --------------------------------------------------------------------------------
TENT_SYMBOL = {"card": "card_draw", "trade": "trade"}
"""The one-time tent symbol that may join a kind of enhancement."""
LABEL = {"harvest": "grove", "lookout_draw": "lookout", "trading_bonus": "store"}
"""The old ``done`` labels' words for the step waiting below (``grove: done``)."""

FINISH = {"harvest": "stop discarding and harvest", "lookout_draw": "stop discarding and draw",
          "trading_bonus": "stop discarding and trade"}  # fmt: skip
"""``done``'s label by the step waiting below: what ending the discards goes on to."""

SYMBOL_WORDS = {"food": "food", "card": "card draw", "trade": "trading"}
"""An enhancement kind's symbols as a player names them (``discard Ambush for its card draw
symbols``; before: ``discard Ambush (card)``)."""


def _enhances(st: State, cid: str, kind: str) -> bool:
    enh = st.game.pack.card(cid)["enhance"]
    return any(k in FOODS for k in enh) if kind == "food" else kind in enh


@step("enhance")
class Enhance(core.UntilDone):
    """Decision: discard a card for its enhancement symbols of ``kind`` (food, card or trade;
    up to 2), use the matching one-time tent symbol, or ``done``: the symbols go to the waiting
    ``into`` step below (its ``boost``, and ``foods`` for food)."""

    fields: ClassVar[Fields] = {
        "player": (REQUIRED, "who discards"),
        "kind": (REQUIRED, "food, card or trade"),
        "into": (REQUIRED, "the step waiting below: harvest, lookout_draw or trading_bonus"),
        "cards": (0, "cards discarded so far"),
        "token": (False, "the tent symbol is used"),
        "boost": (0, "symbols so far (card draws, trading symbols)"),
        "foods": (NO_FOOD, "food symbols so far, by food"),
    }

    @staticmethod
    def legal(st: State, f: Frame) -> list[int]:
        kind = f["kind"]
        return discard_actions(st, f, lambda c: _enhances(st, c, kind), TENT_SYMBOL.get(kind))

    @staticmethod
    def take(st: State, f: Frame, a: int) -> None:
        cid = discard_for_symbols(st, f, a, TENT_SYMBOL.get(f["kind"]))
        if cid is None:
            f["boost"] += 1
        else:
            for key, n in st.game.pack.card(cid)["enhance"].items():
                if key in FOODS:
                    f["foods"][key] += n
                else:
                    f["boost"] += n

    @staticmethod
    def finish(st: State, f: Frame) -> None:
        target = enclosing(st, f["into"])
        target["boost"] += f["boost"]
        if "foods" in target:
            for food, n in f["foods"].items():
                target["foods"][food] += n

    @staticmethod
    def describe(st: State, f: Frame, a: int) -> str | None:
        if a >= st.layout.CARD:
            return f"discard {card_name(st, a)} for its {SYMBOL_WORDS[f['kind']]} symbols"
        if a == st.layout.TOKEN:
            return f"use the one-time {words(TENT_SYMBOL[f['kind']])} tent symbol"
        return FINISH[f["into"]] if a == st.layout.DONE else None

    @staticmethod
    def legacy(st: State, f: Frame, a: int) -> str | None:
        """The label before 0.x read ``grove: done``, ``use the one-time card_draw tent symbol``,
        ``discard Ambush (card)`` (still accepted by ``string_to_action``: records may hold
        them)."""
        if a >= st.layout.CARD:
            return f"discard {card_name(st, a)} ({f['kind']})"
        if a == st.layout.TOKEN:
            return f"use the one-time {TENT_SYMBOL[f['kind']]} tent symbol"
        return f"{LABEL[f['into']]}: done" if a == st.layout.DONE else None


@step("harvest")
class Harvest(Step):
    """Automatic (a grove, restored ruins' grove): the tile's food, the tea leaves, one more food
    per grove symbol in the story, and the enhancement's foods."""

    auto = True
    fields: ClassVar[Fields] = {
        "player": (REQUIRED, "who gathers"),
        "food": (REQUIRED, "the tile's food (None: a restored grove)"),
        "tea": (0, "tea leaves (the strong paw's, a restored grove's)"),
        "boost": (0, "unused (enhancements give foods)"),
        "foods": (NO_FOOD, "the enhancement's foods"),
    }

    @staticmethod
    def run(st: State, f: Frame) -> None:
        pop(st, f)
        p = f["player"]
        if f["food"]:
            gain_food(st, p, f["food"])
        if f["tea"]:
            gain_food(st, p, "tea", f["tea"])
        for food in story_bonus(st, p, "grove"):
            gain_food(st, p, food)
        for food, n in f["foods"].items():
            if n:
                gain_food(st, p, food, n)


@step("lookout_draw")
class LookoutDraw(Step):
    """Automatic (a lookout tower, restored ruins' lookout): draw ``base`` deed cards, one more
    per lookout symbol in the story, and the enhancement's."""

    auto = True
    fields: ClassVar[Fields] = {
        "player": (REQUIRED, "who draws"),
        "base": (REQUIRED, "cards the tile gives (2, the strong paw 4)"),
        "boost": (0, "cards from the enhancement and the tent symbol"),
    }

    @staticmethod
    def run(st: State, f: Frame) -> None:
        pop(st, f)
        p = f["player"]
        for _ in range(f["base"] + sum(story_bonus(st, p, "lookout")) + f["boost"]):
            draw_deed(st, p)


@step("exchange")
class Exchange(YesNo):
    """Decision (ruined grove): swap one of the tile's food for a tea leaf (``yes``) or not."""

    fields: ClassVar[Fields] = {
        "player": (REQUIRED, "who swaps"),
        "food": (REQUIRED, "the tile's food"),
    }

    @staticmethod
    def describe(st: State, f: Frame, a: int) -> str:
        food = f["food"]
        return f"swap a {food} for a tea leaf" if a == st.layout.YES else f"keep the {food}"

    @staticmethod
    def yes_open(st: State, f: Frame) -> bool:
        return bool(player(st, f["player"])["food"][f["food"]] and st.data["tray"]["tea"])

    @staticmethod
    def answer(st: State, f: Frame, yes: bool) -> None:
        if yes:
            player(st, f["player"])["food"][f["food"]] -= 1
            st.data["tray"][f["food"]] += 1
            gain_food(st, f["player"], "tea")


@step("ruins")
class Ruins(core.UntilDone):
    """Decision (ruins): an item lying there, bought with any food (the strong paw: a second
    one with a tea leaf), or ``done``; with an item that does not fit, dropping something
    first (``DROP``)."""

    fields: ClassVar[Fields] = {
        "player": (REQUIRED, "who looks"),
        "slot": (REQUIRED, "the ruins"),
        "strong_paw": (False, "a second item may follow, for a tea leaf"),
        "stage": ("food", "food (the first item) or tea (the strong paw's second)"),
    }

    @staticmethod
    def legal(st: State, f: Frame) -> list[int]:
        me = player(st, f["player"])
        need = any(me["food"].values()) if f["stage"] == "food" else me["food"]["tea"] > 0
        acts = [st.layout.DONE]
        if need:
            items = sorted(set(st.data["ruins"][f["slot"]]["items"]))
            acts += [st.layout.item(k) for k in items if fits(st, f["player"], k)]
            acts += drops_if_full(st, f["player"], items)
        return acts

    @staticmethod
    def take(st: State, f: Frame, a: int) -> None:
        if made_room(st, f["player"], a):
            return
        kind = st.layout.item_kinds[a - st.layout.ITEM]
        st.data["ruins"][f["slot"]]["items"].remove(kind)
        player(st, f["player"])["backpack"].append(kind)
        stage = f["stage"]
        if stage == "food" and f["strong_paw"]:
            f["stage"] = "tea"
        else:
            pop(st, f)
        pay(st, f["player"], food_units("food" if stage == "food" else "tea"))

    @staticmethod
    def describe(st: State, f: Frame, a: int) -> str | None:
        if a == st.layout.DONE:
            return "leave the ruins"
        if st.layout.family(a)[0] == "drop":
            return f"drop {st.layout.item_kinds[a - st.layout.DROP]} to make room"
        price = "a food" if f["stage"] == "food" else "a tea leaf"
        return f"take {st.layout.label(a)} from the ruins for {price}"
