"""The store: buying and selling on the shared grid, the gallery, trading bonuses, ruined stores.

A price (or a sale's reward) is the cell's column symbol plus its row symbol. One visit allows any
number of transactions, but never buying and selling the same kind of item; then the trading
symbols (character board, story, items, discarded enhancement cards, a one-time tent symbol) buy
bonuses: 2 → a deed card, 3 → a raspberry, acorn or mushroom, 4 → a tea leaf, as often as they last.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from solver.games.trial.core import (
    Frame,
    cell_of,
    draw,
    drop,
    drops_if_full,
    empty_cells,
    fits,
    gain_food,
    is_artifact,
    player,
    pop,
    push,
    step,
    trade_symbols,
)

if TYPE_CHECKING:
    from solver.games.trial.rules import TrialState

BONUS_COSTS = {"card": 2, "food": 3, "tea": 4}


def trade_points(st: TrialState, p: int) -> int:
    """Trading symbols counted for the store bonus."""
    return trade_symbols(st, p)


def price_units(st: TrialState, cell: tuple[int, int]) -> list[dict[str, object]]:
    """A cell's price as two units to pay: column, then row."""
    store = st.g.pack.store
    return [
        {"alts": [store["columns"][cell[1]]["price"]], "to": "tray"},
        {"alts": [store["rows"][cell[0]]["price"]], "to": "tray"},
    ]


def start_store(st: TrialState, p: int, card_units: int) -> None:
    """A store visit (a regular store, or restored ruins); ``card_units``: what a card from hand
    pays (strong paw: 1 tea leaf, 2 in a restored store; 0: cards cannot pay)."""
    push(st, "store", p=p, card_units=card_units, bought=[], sold=[])


def start_ruined_store(st: TrialState, p: int, mode: str) -> None:
    """A ruined store visit: one sale for the tile's reward."""
    push(st, "ruined_store", p=p, mode=mode)


def sellable(st: TrialState, kind: str) -> bool:
    """Whether the store can take ``kind`` (its stack or an empty slot)."""
    return cell_of(st, kind) is not None or bool(empty_cells(st, kind))


def gain_reward(st: TrialState, p: int, cell: tuple[int, int]) -> None:
    """The reward of selling onto ``cell``: its column and row symbols (``food``: a choice)."""
    store = st.g.pack.store
    for symbol in (store["columns"][cell[1]]["price"], store["rows"][cell[0]]["price"]):
        if symbol == "food":
            push(st, "pick_food", p=p, purpose="gain")
        else:
            gain_food(st, p, symbol)


def sell(st: TrialState, p: int, kind: str, reward: bool) -> None:
    """Put ``kind`` from ``p``'s backpack onto its stack or an empty slot (a choice if several)."""
    player(st, p)["pack"].remove(kind)
    cell = cell_of(st, kind)
    if cell is not None:
        st.d["store"][cell[0]][cell[1]].append(kind)
        if reward:
            gain_reward(st, p, cell)
        return
    free = empty_cells(st, kind)
    if len(free) == 1:
        st.d["store"][free[0][0]][free[0][1]].append(kind)
        if reward:
            gain_reward(st, p, free[0])
    else:
        push(st, "sell_cell", p=p, kind=kind, cells=[list(c) for c in free], reward=reward)


@step("store")
class Store:
    """Decision: buy (``ITEM``), sell an item or leave an artifact in the gallery (``SELL``),
    drop something when an affordable item does not fit (``DROP``), or ``done`` (then trading
    bonuses)."""

    @staticmethod
    def legal(st: TrialState, f: Frame) -> list[int]:
        from solver.games.trial.effects import can_pay

        L, p = st.L, f["p"]
        me = player(st, p)
        acts = [L.DONE]
        affordable = []
        for r, row in enumerate(st.d["store"]):
            for c, stack in enumerate(row):
                if not stack or stack[0] in f["sold"]:
                    continue
                if can_pay(st, p, price_units(st, (r, c)), f["card_units"]):
                    affordable.append(stack[0])
        acts += [L.item(k) for k in affordable if fits(st, p, k)]
        for kind in sorted(set(me["pack"])):
            if is_artifact(st, kind) or (kind not in f["bought"] and sellable(st, kind)):
                acts.append(L.sell(kind))
        return acts + drops_if_full(st, p, affordable)

    @staticmethod
    def apply(st: TrialState, f: Frame, a: int) -> None:
        from solver.games.trial.effects import pay
        from solver.games.trial.locations import enhance

        L, p = st.L, f["p"]
        family, index = L.family(a)
        if a == L.DONE:
            pop(st, f)
            enhance(st, p, "trade", "store")
        elif family == "drop":
            drop(st, p, L.item_kinds[index])
        elif family == "item":
            kind = L.item_kinds[index]
            cell = cell_of(st, kind)
            assert cell is not None
            st.d["store"][cell[0]][cell[1]].pop()
            player(st, p)["pack"].append(kind)
            f["bought"].append(kind)
            pay(st, p, price_units(st, cell), f["card_units"])
        else:
            kind = L.item_kinds[index]
            if is_artifact(st, kind):
                player(st, p)["pack"].remove(kind)
                player(st, p)["gallery"].append(kind)
                if st.g.pack.item(kind)["size"] == "large":
                    gain_food(st, p, "tea")
                else:
                    push(st, "pick_food", p=p, purpose="gain")
            else:
                f["sold"].append(kind)
                sell(st, p, kind, reward=True)

    @staticmethod
    def describe(st: TrialState, f: Frame, a: int) -> str | None:
        family, index = st.L.family(a)
        if a == st.L.DONE:
            return "finish trading (then the trading bonus)"
        kind = st.L.item_kinds[index]
        if family == "item":
            return f"buy {kind}"
        if family == "drop":
            return f"drop {kind} to make room"
        return f"leave {kind} in the gallery" if is_artifact(st, kind) else f"sell {kind}"


@step("sell_cell")
class SellCell:
    """Decision: the empty store slot a sold item goes to (its reward depends on the slot)."""

    @staticmethod
    def legal(st: TrialState, f: Frame) -> list[int]:
        ncol = len(st.g.pack.store["columns"])
        return [st.L.CELL + r * ncol + c for r, c in f["cells"]]

    @staticmethod
    def apply(st: TrialState, f: Frame, a: int) -> None:
        pop(st, f)
        ncol = len(st.g.pack.store["columns"])
        r, c = divmod(a - st.L.CELL, ncol)
        st.d["store"][r][c].append(f["kind"])
        if f["reward"]:
            gain_reward(st, f["p"], (r, c))


@step("trade_bonus")
class TradeBonus:
    """Decision: a trading bonus bought with the symbols left, or ``done``."""

    @staticmethod
    def legal(st: TrialState, f: Frame) -> list[int]:
        acts = [st.L.DONE]
        for i, (name, cost) in enumerate(BONUS_COSTS.items()):
            if f["points"] >= cost and (name == "card" or _tray_has(st, name)):
                acts.append(st.L.BONUS + i)
        return acts

    @staticmethod
    def apply(st: TrialState, f: Frame, a: int) -> None:
        if a == st.L.DONE:
            pop(st, f)
            return
        name = list(BONUS_COSTS)[a - st.L.BONUS]
        f["points"] -= BONUS_COSTS[name]
        if name == "card":
            draw(st, f["p"], "deeds", "pending")
        elif name == "food":
            push(st, "pick_food", p=f["p"], purpose="gain")
        else:
            gain_food(st, f["p"], "tea")

    @staticmethod
    def describe(st: TrialState, f: Frame, a: int) -> str:
        if a == st.L.DONE:
            return f"no more bonuses ({f['points']} symbols unused)"
        name = list(BONUS_COSTS)[a - st.L.BONUS]
        return f"trading bonus: {name} for {BONUS_COSTS[name]} symbols"


def _tray_has(st: TrialState, name: str) -> bool:
    if name == "tea":
        return st.d["tray"]["tea"] > 0
    return any(st.d["tray"][f] for f in ("raspberry", "acorn", "mushroom"))


@step("ruined_store")
class RuinedStore:
    """Decision (ruined store): sell one common item for the tile's reward, or ``done``."""

    @staticmethod
    def legal(st: TrialState, f: Frame) -> list[int]:
        me = player(st, f["p"])
        acts = [st.L.DONE]
        for kind in sorted(set(me["pack"])):
            if st.g.pack.item(kind).get("rarity") == "common" and sellable(st, kind):
                acts.append(st.L.sell(kind))
        return acts

    @staticmethod
    def apply(st: TrialState, f: Frame, a: int) -> None:
        pop(st, f)
        if a == st.L.DONE:
            return
        p = f["p"]
        mode = f["mode"]
        if mode == "common_item":
            push(st, "take_item", p=p, rarity="common")
        elif mode == "two_tea":
            gain_food(st, p, "tea", 2)
        else:
            for _ in range(2):
                draw(st, p, "deeds", "pending")
                push(st, "pick_food", p=p, purpose="gain")
        sell(st, p, st.L.item_kinds[a - st.L.SELL], reward=False)
