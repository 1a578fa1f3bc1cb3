"""Using a location with a paw token: groves, ruins, lookout towers (stores: :mod:`.store`), each
with its ruined side (restored side for ruins), the strong paw's extra, story symbols and cards
discarded for one-time enhancements; turning tiles over (ruin, restore).

Where a tile's symbol is crossed out (a ruined tile) story symbols and enhancement cards do not
count and the strong paw gives nothing extra; restored ruins carry a new symbol and do count.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from solver.games.trial.core import (
    Frame,
    discard_card,
    draw,
    drop,
    drops_if_full,
    fits,
    gain_food,
    player,
    pop,
    push,
    return_item,
    step,
    story_bonus,
)
from solver.games.trial.schema import FOODS

if TYPE_CHECKING:
    from solver.games.trial.rules import TrialState


def tile_entry(st: TrialState, slot: str) -> tuple[dict[str, Any], bool]:
    """The tile on ``slot`` and whether it shows its other side."""
    tile_id, flipped = st.d["tiles"][slot]
    return next(t for t in st.g.pack.locations if t["id"] == tile_id), bool(flipped)


def use_location(st: TrialState, p: int, slot: str, strong: bool) -> None:
    """Start the action of the location tile on ``slot`` for ``p`` (paw or strong paw)."""
    from solver.games.trial.store import start_ruined_store, start_store

    entry, flipped = tile_entry(st, slot)
    kind = entry["type"]
    if kind == "grove" and not flipped:
        enhance(st, p, "food", "grove", food=entry["food"], tea=1 if strong else 0)
    elif kind == "grove":
        push(st, "exchange", p=p, food=entry["ruined"]["exchange"])
    elif kind == "lookout" and not flipped:
        enhance(st, p, "card", "lookout", base=4 if strong else 2)
    elif kind == "lookout":
        pile = st.d["decks"]["deeds"]["discard"]
        push(st, "from_discard", p=p, choices=list(pile), left=entry["ruined"]["discard_pick"])
    elif kind == "store" and not flipped:
        start_store(st, p, card_units=1 if strong else 0)
    elif kind == "store":
        start_ruined_store(st, p, entry["ruined"]["sell_once"])
    elif not flipped:  # ruins
        from solver.games.trial.hidden import note

        known = st.d["ruins"][slot]["known"]
        if p not in known:
            known.append(p)
            known.sort()
        items = ",".join(sorted(st.d["ruins"][slot]["items"]))
        note(st, str(p), f"look:{slot}:{items}", f"look:{slot}:?")
        push(st, "ruins", p=p, slot=slot, strong=strong, stage="food")
    elif entry["restored"] == "store":
        start_store(st, p, card_units=2 if strong else 0)
    elif entry["restored"] == "grove":
        enhance(st, p, "food", "grove", food=None, tea=2 if strong else 1)
    else:  # restored lookout tower
        if strong:
            enhance(st, p, "card", "lookout", base=2)
        push(st, "facedown_optional", p=p)


def turn_tile(st: TrialState, slot: str, verb: str, p: int | None = None) -> None:
    """Ruin or restore the location on ``slot`` (nothing if it already shows that side).
    Items lying on ruins that are restored go to the store (slots of ``p``'s choice)."""
    if slot not in st.d["tiles"] or not st.d["tiles"][slot]:
        return
    entry, flipped = tile_entry(st, slot)
    target = verb == ("restore" if entry["type"] == "ruins" else "ruin")
    if flipped == target:
        return
    st.d["tiles"][slot][1] = target
    if entry["type"] == "ruins" and target:
        from solver.games.trial.hidden import PUBLIC, note

        ruin = st.d["ruins"][slot]
        note(st, PUBLIC, f"restore:{slot}:{','.join(sorted(ruin['items']))}")
        for kind in ruin["items"]:
            return_item(st, kind, p)
        ruin["items"] = []
        ruin["known"] = list(range(st.d["n"]))


# -- enhancements --------------------------------------------------------------------------------
ONE_TIME = {"card": "card_draw", "trade": "trade"}


def enhance(st: TrialState, p: int, kind: str, after: str, **args: Any) -> None:
    """Offer up to 2 cards with ``kind`` enhancements (and the matching one-time tent symbol),
    then run ``after`` with what they gave."""
    push(
        st,
        "enhance",
        p=p,
        kind=kind,
        cards=0,
        extra=0,
        foods={f: 0 for f in FOODS},
        token=False,
        after=after,
        args=args,
    )


def _enhances(st: TrialState, cid: str, kind: str) -> bool:
    enh = st.g.pack.card(cid)["enhance"]
    return any(k in FOODS for k in enh) if kind == "food" else kind in enh


@step("enhance")
class Enhance:
    """Decision: discard a card for its enhancement symbols (up to 2), use a one-time tent
    symbol, or ``done``."""

    @staticmethod
    def legal(st: TrialState, f: Frame) -> list[int]:
        me = player(st, f["p"])
        acts = [st.L.DONE]
        if f["cards"] < 2:
            acts += [st.L.card(c) for c in me["hand"] if _enhances(st, c, f["kind"])]
        token = ONE_TIME.get(f["kind"])
        if token and me["onetime"][token] and not f["token"]:
            acts.append(st.L.TOKEN)
        return acts

    @staticmethod
    def apply(st: TrialState, f: Frame, a: int) -> None:
        me = player(st, f["p"])
        if a == st.L.DONE:
            pop(st, f)
            AFTER[f["after"]](st, f)
        elif a == st.L.TOKEN:
            me["onetime"][ONE_TIME[f["kind"]]] -= 1
            f["extra"] += 1
            f["token"] = True
        else:
            cid = st.L.cards[a - st.L.CARD]
            me["hand"].remove(cid)
            discard_card(st, cid)
            f["cards"] += 1
            for key, n in st.g.pack.card(cid)["enhance"].items():
                if key in FOODS:
                    f["foods"][key] += n
                else:
                    f["extra"] += n

    @staticmethod
    def describe(st: TrialState, f: Frame, a: int) -> str | None:
        if a >= st.L.CARD:
            return f"discard {st.g.pack.card(st.L.cards[a - st.L.CARD])['name']} ({f['kind']})"
        if a == st.L.TOKEN:
            return f"use the one-time {ONE_TIME[f['kind']]} tent symbol"
        return f"{f['after']}: done" if a == st.L.DONE else None


def _after_grove(st: TrialState, f: Frame) -> None:
    p, args = f["p"], f["args"]
    if args["food"]:
        gain_food(st, p, args["food"])
    if args["tea"]:
        gain_food(st, p, "tea", args["tea"])
    for food in story_bonus(st, p, "grove"):
        gain_food(st, p, food)
    for food, n in f["foods"].items():
        if n:
            gain_food(st, p, food, n)


def _after_lookout(st: TrialState, f: Frame) -> None:
    p = f["p"]
    count = f["args"]["base"] + sum(story_bonus(st, p, "lookout")) + f["extra"]
    for _ in range(count):
        draw(st, p, "deeds", "pending")


def _after_store(st: TrialState, f: Frame) -> None:
    from solver.games.trial.store import trade_points

    push(st, "trade_bonus", p=f["p"], points=trade_points(st, f["p"]) + f["extra"])


AFTER = {"grove": _after_grove, "lookout": _after_lookout, "store": _after_store}


@step("exchange")
class Exchange:
    """Decision (ruined grove): swap one of the tile's food for a tea leaf (``yes``) or not."""

    @staticmethod
    def legal(st: TrialState, f: Frame) -> list[int]:
        acts = [st.L.DONE]
        if player(st, f["p"])["food"][f["food"]] and st.d["tray"]["tea"]:
            acts.append(st.L.YES)
        return acts

    @staticmethod
    def apply(st: TrialState, f: Frame, a: int) -> None:
        pop(st, f)
        if a == st.L.YES:
            player(st, f["p"])["food"][f["food"]] -= 1
            st.d["tray"][f["food"]] += 1
            gain_food(st, f["p"], "tea")


@step("ruins")
class Ruins:
    """Decision (ruins): an item lying there, bought with any food (the strong paw: a second
    one with a tea leaf), or ``done``; with an item that does not fit, dropping something
    first (``DROP``)."""

    @staticmethod
    def legal(st: TrialState, f: Frame) -> list[int]:
        me = player(st, f["p"])
        need = any(me["food"].values()) if f["stage"] == "food" else me["food"]["tea"] > 0
        acts = [st.L.DONE]
        if need:
            items = sorted(set(st.d["ruins"][f["slot"]]["items"]))
            acts += [st.L.item(k) for k in items if fits(st, f["p"], k)]
            acts += drops_if_full(st, f["p"], items)
        return acts

    @staticmethod
    def apply(st: TrialState, f: Frame, a: int) -> None:
        from solver.games.trial.effects import pay

        if a == st.L.DONE:
            pop(st, f)
            return
        if st.L.family(a)[0] == "drop":
            drop(st, f["p"], st.L.item_kinds[a - st.L.DROP])
            return
        kind = st.L.item_kinds[a - st.L.ITEM]
        st.d["ruins"][f["slot"]]["items"].remove(kind)
        player(st, f["p"])["pack"].append(kind)
        stage = f["stage"]
        if stage == "food" and f["strong"]:
            f["stage"] = "tea"
        else:
            pop(st, f)
        pay(st, f["p"], [{"alts": ["food"] if stage == "food" else ["tea"], "to": "tray"}])

    @staticmethod
    def describe(st: TrialState, f: Frame, a: int) -> str | None:
        if a == st.L.DONE:
            return "leave the ruins"
        if st.L.family(a)[0] == "drop":
            return f"drop {st.L.item_kinds[a - st.L.DROP]} to make room"
        price = "a food" if f["stage"] == "food" else "a tea leaf"
        return f"take {st.L.label(a)} from the ruins for {price}"


@step("facedown_optional")
class FacedownOptional:
    """Decision (restored lookout tower): a card from hand into any story column face down, or
    ``done``."""

    @staticmethod
    def legal(st: TrialState, f: Frame) -> list[int]:
        return [st.L.DONE] + [st.L.card(c) for c in player(st, f["p"])["hand"]]

    @staticmethod
    def apply(st: TrialState, f: Frame, a: int) -> None:
        pop(st, f)
        if a == st.L.DONE:
            return
        cid = st.L.cards[a - st.L.CARD]
        player(st, f["p"])["hand"].remove(cid)
        push(st, "pick_column", p=f["p"], card=cid)
