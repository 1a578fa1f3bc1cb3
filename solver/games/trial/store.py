"""A visit to a store: buying from and selling to the shared stock, the gallery, the trading
bonus; a ruined store's single sale.

The stock is one grid shared by every store location (``st.data["store"]``: rows x columns of
stacks; its helpers are in :mod:`.belongings`). A cell's *price*, and what selling onto it pays,
are its column's symbol plus its row's. One visit (``store_visit``) allows any number of
purchases and sales, never buying and selling the same kind; an artifact may be left in the
gallery (a small one pays a raspberry, acorn or mushroom, a large one a tea leaf). Then the
trading symbols (board, story, items, up to 2 cards' enhancements, a one-time tent symbol) buy
bonuses (``trading_bonus``): 2 → a deed card, 3 → a raspberry, acorn or mushroom, 4 → a tea leaf,
as often as they last. A ruined store (``ruined_store_sale``) takes one common item for its
tile's reward, without trading bonus.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, ClassVar

from solver.games.trial import core
from solver.games.trial.belongings import (
    action_cell,
    cell_action,
    cell_of,
    drop,
    drops_if_full,
    fits,
    gain_food,
    is_artifact,
    return_slots,
    store_kinds,
    trade_symbols,
)
from solver.games.trial.core import REQUIRED, Fields, Frame, Step, player, pop, push, step
from solver.games.trial.decks import draw_deed
from solver.games.trial.payments import can_pay, pay
from solver.games.trial.schema import FOODS
from solver.render.ascii import count

if TYPE_CHECKING:
    from solver.games.trial.core import State

BONUS_COSTS = {"card": 2, "food": 3, "tea": 4}
"""Trading symbols each bonus costs."""


def cell_symbols(st: State, cell: tuple[int, int]) -> tuple[str, str]:
    """A cell's column symbol and row symbol: its price, and what selling onto it pays."""
    store = st.game.pack.store
    return store["columns"][cell[1]]["price"], store["rows"][cell[0]]["price"]


def price(st: State, cell: tuple[int, int]) -> list[dict[str, Any]]:
    """A cell's price as two units to pay: column, then row."""
    return [{"alts": [symbol], "to": "tray"} for symbol in cell_symbols(st, cell)]


def sellable(st: State, kind: str) -> bool:
    """Whether the stock can take ``kind`` (its stack or an empty slot)."""
    return bool(return_slots(st, kind))


def earn(st: State, p: int, cell: tuple[int, int]) -> None:
    """What selling onto ``cell`` pays: its column and row symbols (``food``: a choice)."""
    for symbol in cell_symbols(st, cell):
        if symbol == "food":
            push(st, "pick_food", player=p, purpose="gain")
        else:
            gain_food(st, p, symbol)


def sell(st: State, p: int, kind: str, paid: bool) -> None:
    """Put ``kind`` from ``p``'s backpack onto its stack or an empty slot (a choice if several),
    earning the cell's symbols when ``paid``."""
    player(st, p)["backpack"].remove(kind)
    free = return_slots(st, kind)
    if len(free) == 1:
        st.data["store"][free[0][0]][free[0][1]].append(kind)
        if paid:
            earn(st, p, free[0])
    else:
        push(st, "sale_slot", player=p, kind=kind, cells=[list(c) for c in free], paid=paid)


@step("store_visit")
class StoreVisit(core.UntilDone):
    """Decision: buy (``ITEM``), sell an item or leave an artifact in the gallery (``SELL``),
    drop something when an affordable item does not fit (``DROP``), or ``done`` (then the
    trading bonus)."""

    fields: ClassVar[Fields] = {
        "player": (REQUIRED, "the visitor"),
        "card_worth": (0, "food units a card from hand pays (strong paw 1, restored store 2)"),
        "bought": ([], "kinds bought this visit (not to be sold)"),
        "sold": ([], "kinds sold this visit (not to be bought)"),
    }

    @staticmethod
    def legal(st: State, f: Frame) -> list[int]:
        L, p = st.layout, f["player"]
        affordable = []
        for r, row in enumerate(st.data["store"]):
            for c, stack in enumerate(row):
                if (
                    stack
                    and stack[0] not in f["sold"]
                    and can_pay(st, p, price(st, (r, c)), f["card_worth"])
                ):
                    affordable.append(stack[0])
        acts = [L.DONE] + [L.item(k) for k in affordable if fits(st, p, k)]
        for kind in sorted(set(player(st, p)["backpack"])):
            if is_artifact(st, kind) or (kind not in f["bought"] and sellable(st, kind)):
                acts.append(L.sell(kind))
        return acts + drops_if_full(st, p, affordable)

    @staticmethod
    def take(st: State, f: Frame, a: int) -> None:
        L, p = st.layout, f["player"]
        family, index = L.family(a)
        kind = L.item_kinds[index]
        if family == "drop":
            drop(st, p, kind)
        elif family == "item":
            cell = cell_of(st, kind)
            assert cell is not None
            st.data["store"][cell[0]][cell[1]].pop()
            player(st, p)["backpack"].append(kind)
            f["bought"].append(kind)
            pay(st, p, price(st, cell), f["card_worth"])
        elif is_artifact(st, kind):  # left in the gallery
            player(st, p)["backpack"].remove(kind)
            player(st, p)["gallery"].append(kind)
            if st.game.pack.item(kind)["size"] == "large":
                gain_food(st, p, "tea")
            else:
                push(st, "pick_food", player=p, purpose="gain")
        else:
            f["sold"].append(kind)
            sell(st, p, kind, paid=True)

    @staticmethod
    def finish(st: State, f: Frame) -> None:
        p = f["player"]
        push(st, "trading_bonus", player=p, points=trade_symbols(st, p))
        push(st, "enhance", player=p, kind="trade", into="trading_bonus")

    @staticmethod
    def describe(st: State, f: Frame, a: int) -> str | None:
        family, index = st.layout.family(a)
        if a == st.layout.DONE:
            return "finish trading (then the trading bonus)"
        kind = st.layout.item_kinds[index]
        if family == "item":
            return f"buy {kind}"
        if family == "drop":
            return f"drop {kind} to make room"
        return f"leave {kind} in the gallery" if is_artifact(st, kind) else f"sell {kind}"


@step("sale_slot")
class SaleSlot(Step):
    """Decision: the empty stock slot an item sold goes to (what it pays depends on the slot)."""

    fields: ClassVar[Fields] = {
        "player": (REQUIRED, "the seller"),
        "kind": (REQUIRED, "the item sold (held by this step meanwhile)"),
        "cells": (REQUIRED, "the empty slots of its size, [row, column]"),
        "paid": (True, "the sale earns the slot's symbols (a ruined store's does not)"),
    }

    @staticmethod
    def legal(st: State, f: Frame) -> list[int]:
        return [cell_action(st, (r, c)) for r, c in f["cells"]]

    @staticmethod
    def apply(st: State, f: Frame, a: int) -> None:
        pop(st, f)
        r, c = action_cell(st, a)
        st.data["store"][r][c].append(f["kind"])
        if f["paid"]:
            earn(st, f["player"], (r, c))

    @staticmethod
    def describe(st: State, f: Frame, a: int) -> str:
        r, c = action_cell(st, a)
        column, row = cell_symbols(st, (r, c))
        earned = f" for {column} + {row}" if f["paid"] else ""
        return f"sell {f['kind']} onto store slot row {r + 1}, column {c + 1}{earned}"


@step("trading_bonus")
class TradingBonus(core.UntilDone):
    """Decision: a trading bonus bought with the symbols left (``points`` + ``boost``), or
    ``done``."""

    fields: ClassVar[Fields] = {
        "player": (REQUIRED, "the visitor"),
        "points": (REQUIRED, "the trading symbols (board, story, items), less those spent"),
        "boost": (0, "the enhancement's symbols (cards discarded, the tent symbol)"),
    }

    @staticmethod
    def legal(st: State, f: Frame) -> list[int]:
        left = f["points"] + f["boost"]
        acts = [st.layout.DONE]
        for i, (name, cost) in enumerate(BONUS_COSTS.items()):
            if left >= cost and (name == "card" or _tray_has(st, name)):
                acts.append(st.layout.BONUS + i)
        return acts

    @staticmethod
    def take(st: State, f: Frame, a: int) -> None:
        name = list(BONUS_COSTS)[a - st.layout.BONUS]
        f["points"] -= BONUS_COSTS[name]
        if name == "card":
            draw_deed(st, f["player"])
        elif name == "food":
            push(st, "pick_food", player=f["player"], purpose="gain")
        else:
            gain_food(st, f["player"], "tea")

    @staticmethod
    def describe(st: State, f: Frame, a: int) -> str:
        if a == st.layout.DONE:
            return f"no more bonuses ({count(f['points'] + f['boost'], 'symbol')} unused)"
        name = list(BONUS_COSTS)[a - st.layout.BONUS]
        return f"trading bonus: {name} for {count(BONUS_COSTS[name], 'symbol')}"

    @staticmethod
    def legacy(st: State, f: Frame, a: int) -> str | None:
        """The label before ``1 symbol`` was said so: ``no more bonuses (1 symbols unused)``
        (still accepted: records may hold it)."""
        return "no more bonuses (1 symbols unused)" if a == st.layout.DONE else None


def _tray_has(st: State, name: str) -> bool:
    if name == "tea":
        return bool(st.data["tray"]["tea"] > 0)
    return any(st.data["tray"][f] for f in FOODS[:3])


@step("ruined_store_sale")
class RuinedStoreSale(Step):
    """Decision (ruined store): sell one common item for the tile's reward (``mode``), or
    ``done``. The ``common_item`` reward is "another common item": a kind is offered for sale
    only while the store holds a common item of another kind (the trade must gain something),
    and the ``take_item`` that follows does not offer the kind placed."""

    fields: ClassVar[Fields] = {
        "player": (REQUIRED, "the visitor"),
        "mode": (REQUIRED, "common_item, two_tea or two_food_two_cards"),
    }

    @staticmethod
    def legal(st: State, f: Frame) -> list[int]:
        acts = [st.layout.DONE]
        for kind in sorted(set(player(st, f["player"])["backpack"])):
            if st.game.pack.item(kind).get("rarity") != "common" or not sellable(st, kind):
                continue
            if f["mode"] != "common_item" or store_kinds(st, "common", other_than=kind):
                acts.append(st.layout.sell(kind))
        return acts

    @staticmethod
    def apply(st: State, f: Frame, a: int) -> None:
        pop(st, f)
        if a == st.layout.DONE:
            return
        p = f["player"]
        if f["mode"] == "common_item":
            kind = st.layout.item_kinds[a - st.layout.SELL]
            push(st, "take_item", player=p, rarity="common", other_than=kind)
        elif f["mode"] == "two_tea":
            gain_food(st, p, "tea", 2)
        else:
            for _ in range(2):
                draw_deed(st, p)
                push(st, "pick_food", player=p, purpose="gain")
        sell(st, p, st.layout.item_kinds[a - st.layout.SELL], paid=False)

    @staticmethod
    def describe(st: State, f: Frame, a: int) -> str:
        if a == st.layout.DONE:
            return "sell nothing (ruined store)"
        kind = st.layout.item_kinds[a - st.layout.SELL]
        reward = {
            "common_item": "a common item",
            "two_tea": "2 tea leaves",
            "two_food_two_cards": "2 food and 2 cards",
        }[f["mode"]]
        return f"sell {kind} for {reward} (ruined store)"
