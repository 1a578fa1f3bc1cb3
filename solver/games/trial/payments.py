"""Paying costs: a cost is a list of *units*, each paid by one token.

A unit is ``{"alts": [ALT, ...], "to": "tray" | "gallery"}``: one of the alternatives (a food
kind, ``food`` for any food token, an item kind, ``item`` for any item or artifact, ``amphibian``
for one with the amphibian symbol, ``card`` for a card from hand), spent to the tray (an item to
the store, a card to its discard) or to the gallery. A tea leaf stands in for a raspberry, acorn
or mushroom; with ``card_worth`` N > 0 (the strong paw in a store) a card from hand pays N
food-like units. A cost's ``have`` terms are only owned, not spent (:func:`haves_ok`).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, ClassVar

from solver.games.trial.belongings import return_item, spend_food
from solver.games.trial.core import REQUIRED, Fields, Frame, Step, player, pop, push, step
from solver.games.trial.decks import card_name, discard_card
from solver.games.trial.schema import FOODS

if TYPE_CHECKING:
    from solver.games.trial.core import State

RAW_FOODS = FOODS[:3]
"""Raspberry, acorn, mushroom: the foods a tea leaf stands in for."""


def units_of(st: State, p: int, terms: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """The cost's spend terms as units to pay one at a time (``per: item`` expanded)."""
    units = []
    for term in terms:
        if "spend" not in term:
            continue
        times = len(player(st, p)["backpack"]) if term.get("per") == "item" else 1
        units += [{"alts": term["spend"], "to": term.get("to", "tray")}] * times
    return units


def haves_ok(st: State, p: int, terms: list[dict[str, Any]]) -> bool:
    """Whether ``p`` owns one alternative of every ``have`` term."""
    me = player(st, p)
    return all(any(_owns(st, me, alt) for alt in term["have"]) for term in terms if "have" in term)


def _owns(st: State, me: dict[str, Any], alt: str) -> bool:
    if alt in FOODS:
        return me["food"][alt] > 0 or (alt != "tea" and me["food"]["tea"] > 0)
    if alt == "food":
        return any(me["food"].values())
    return any(_item_matches(st, k, alt) for k in me["backpack"])


def _item_matches(st: State, kind: str, alt: str) -> bool:
    if alt == "item":
        return True
    if alt == "amphibian":
        return bool(st.game.pack.item(kind).get("amphibian"))
    return kind == alt


def payments(st: State, p: int, unit: dict[str, Any], card_worth: int) -> list[tuple[str, str]]:
    """The tokens that can pay one unit: ``("food", f)``, ``("item", k)``, ``("card", c)``."""
    me = player(st, p)
    options: list[tuple[str, str]] = []
    alts = unit["alts"]
    for f in FOODS:
        if me["food"][f] <= 0:
            continue
        if f in alts or "food" in alts or (f == "tea" and any(a in RAW_FOODS for a in alts)):
            options.append(("food", f))
    for k in sorted(set(me["backpack"])):
        if any(_item_matches(st, k, a) for a in alts if a not in (*FOODS, "food", "card")):
            options.append(("item", k))
    foodlike = any(a in FOODS or a == "food" for a in alts)
    if "card" in alts or (card_worth and foodlike):
        options += [("card", c) for c in me["hand"]]
    return options


def can_pay(st: State, p: int, units: list[dict[str, Any]], card_worth: int = 0) -> bool:
    """Whether ``p`` can pay every unit (a small backtracking search over their tokens)."""
    me = player(st, p)
    food = dict(me["food"])
    pack = list(me["backpack"])
    hand = len(me["hand"])

    def search(i: int, hand_left: int) -> bool:
        if i >= len(units):
            return True
        alts = units[i]["alts"]
        for f in FOODS:
            if food[f] > 0 and (
                f in alts or "food" in alts or (f == "tea" and any(a in RAW_FOODS for a in alts))
            ):
                food[f] -= 1
                ok = search(i + 1, hand_left)
                food[f] += 1
                if ok:
                    return True
        for k in sorted(set(pack)):
            if any(_item_matches(st, k, a) for a in alts if a not in (*FOODS, "food", "card")):
                pack.remove(k)
                ok = search(i + 1, hand_left)
                pack.append(k)
                if ok:
                    return True
        foodlike = any(a in FOODS or a == "food" for a in alts)
        if hand_left > 0 and ("card" in alts or (card_worth and foodlike)):
            skip = 1 + (card_worth - 1 if card_worth > 1 and foodlike else 0)
            return search(min(len(units), i + skip), hand_left - 1)
        return False

    return search(0, hand)


def pay(st: State, p: int, units: list[dict[str, Any]], card_worth: int = 0) -> None:
    """Push the payment of ``units`` (a decision per unit)."""
    if units:
        push(st, "pay", player=p, units=[dict(u) for u in units], card_worth=card_worth)


def can_pay_cost(st: State, p: int, terms: list[dict[str, Any]]) -> bool:
    """Whether ``p`` can pay a cost's spend terms (a card's, an option's, a re-roll's)."""
    return can_pay(st, p, units_of(st, p, terms))


def pay_cost(st: State, p: int, terms: list[dict[str, Any]]) -> None:
    """Push the payment of a cost's spend terms by ``p`` (see :func:`pay`)."""
    pay(st, p, units_of(st, p, terms))


def food_units(*foods: str) -> list[dict[str, Any]]:
    """Units paying one of each ``foods`` term (``food``: any food token) to the tray."""
    return [{"alts": [food], "to": "tray"} for food in foods]


@step("pay")
class Pay(Step):
    """Decision: the token paying the next unit of a cost (only choices that leave the rest
    payable are offered)."""

    fields: ClassVar[Fields] = {
        "player": (REQUIRED, "who pays"),
        "units": (REQUIRED, "the units still to pay, in order: {alts: [...], to: tray|gallery}"),
        "card_worth": (0, "units a card from hand pays for food (0: cards pay only 'card')"),
    }

    @staticmethod
    def legal(st: State, f: Frame) -> list[int]:
        L, p = st.layout, f["player"]
        acts = []
        for kind, what in payments(st, p, f["units"][0], f["card_worth"]):
            if _still_payable(st, f, kind, what):
                acts.append(
                    L.food(what)
                    if kind == "food"
                    else L.item(what)
                    if kind == "item"
                    else L.card(what)
                )
        return acts

    @staticmethod
    def apply(st: State, f: Frame, a: int) -> None:
        p = f["player"]
        family, index = st.layout.family(a)
        unit = f["units"].pop(0)
        me = player(st, p)
        if family == "food":
            spend_food(st, p, FOODS[index], unit["to"])
        elif family == "item":
            kind = st.layout.item_kinds[index]
            me["backpack"].remove(kind)
            return_item(st, kind, p)
        else:
            cid = st.layout.cards[index]
            me["hand"].remove(cid)
            discard_card(st, cid)
            if f["card_worth"] > 1 and f["units"]:
                f["units"].pop(0)
        if not f["units"]:
            pop(st, f)

    @staticmethod
    def describe(st: State, f: Frame, a: int) -> str:
        if st.layout.family(a)[0] == "card":
            return f"pay with card {card_name(st, a)}"
        return f"pay with {st.layout.label(a)}"


def _still_payable(st: State, f: Frame, kind: str, what: str) -> bool:
    """Whether the rest of the units can be paid once ``what`` has paid the first one (the
    state is left exactly as it was: the token goes back to its own place in the backpack or
    hand, so asking for the legal actions never reorders them)."""
    me = player(st, f["player"])
    rest = f["units"][1:]
    if kind == "card" and f["card_worth"] > 1:
        rest = rest[1:]
    if kind == "food":
        me["food"][what] -= 1
        try:
            return can_pay(st, f["player"], rest, f["card_worth"])
        finally:
            me["food"][what] += 1
    tokens = me["backpack"] if kind == "item" else me["hand"]
    at = tokens.index(what)
    del tokens[at]
    try:
        return can_pay(st, f["player"], rest, f["card_worth"])
    finally:
        tokens.insert(at, what)
