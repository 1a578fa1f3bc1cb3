"""Resolving a card: its conditions, paying its cost, running its effects, tucking it into a story.

This is the interpreter of the effect language (``docs/rules/trial.md`` §1.1; the vocabulary is
:mod:`solver.games.trial.schema`). A card is resolved by a ``resolve`` step (pay, then effects,
then the story); an effect list runs in an ``effects`` step, one effect at a time, each verb
pushing the steps it needs (a choice, a fight, a draw...) above it.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from solver.games.trial.core import (
    Frame,
    add_to_story,
    column_of,
    discard_card,
    draw,
    drop,
    drops_if_full,
    find,
    fits,
    gain_food,
    give_card,
    morality_side,
    move_morality,
    order_from,
    player,
    pop,
    push,
    return_item,
    spend_food,
    step,
    take_artifact,
)
from solver.games.trial.hidden import PUBLIC, note
from solver.games.trial.schema import FOODS

if TYPE_CHECKING:
    from solver.games.trial.rules import TrialState

RAW_FOODS = FOODS[:3]


def get_path(card: dict[str, Any], path: list[Any]) -> Any:
    """The part of ``card`` at ``path`` (keys and indices)."""
    node: Any = card
    for key in path:
        node = node[key]
    return node


# -- conditions ----------------------------------------------------------------------------------
def location_type(st: TrialState, slot: str) -> str | None:
    """The type a location counts as: its tile's type, a restored ruins its restored type."""
    tile = st.d["tiles"].get(slot)
    if not tile:
        return None
    entry = next(t for t in st.g.pack.locations if t["id"] == tile[0])
    if entry["type"] == "ruins" and tile[1]:
        return str(entry["restored"])
    return str(entry["type"])


def paw_locations(st: TrialState, p: int) -> list[str]:
    """The locations holding one of ``p``'s paw tokens."""
    return [t[4:] for t, _ in player(st, p)["placed"] if t.startswith("loc:")]


def condition_ok(st: TrialState, p: int, cond: dict[str, Any]) -> bool:
    """Whether ``p`` meets one condition of the effect language."""
    from solver.games.trial.turns import open_tunnels

    ((key, arg),) = cond.items()
    me = player(st, p)
    pos = me["pos"]
    board = st.g.board
    if key == "at":
        if arg == "campsite":
            return pos in board.campsite
        if arg == "tunnel":
            return pos in open_tunnels(st)
        if arg == "location":
            return pos in board.slot
        return location_type(st, pos) == arg
    if key == "company":
        others = [q for q in range(st.d["n"]) if q != p and player(st, q)["pos"] == pos]
        if arg == "evil":
            others = [q for q in others if morality_side(st, q) == "evil"]
        return bool(others)
    if key == "morality":
        return morality_side(st, p) == arg
    if key == "paws":
        locs = paw_locations(st, p)
        quarters = {board.quarter[s] for s in locs}
        if arg == "corners":
            return quarters >= {"NW", "NE", "SW", "SE"}
        if arg == "diagonal":
            return {"NW", "SE"} <= quarters or {"NE", "SW"} <= quarters
        return len({location_type(st, s) for s in locs}) >= 4
    if key == "tracker":
        mine = set(paw_locations(st, p))
        return any(len(mine & set(paw_locations(st, q))) >= arg for q in range(st.d["n"]) if q != p)
    if key == "no_tunnel":
        return pos not in board.printed_tunnels and pos not in st.d["tunnels"]
    if key == "story_evil":
        count = sum(
            1 for cid, up, _ in me["story"] if up and "evil" in st.g.pack.card(cid)["symbols"]
        )
        return count >= arg
    return False


# -- costs ---------------------------------------------------------------------------------------
def units_of(st: TrialState, p: int, terms: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """The cost's spend terms as units to pay one at a time (``per: item`` expanded)."""
    units = []
    for term in terms:
        if "spend" not in term:
            continue
        times = len(player(st, p)["pack"]) if term.get("per") == "item" else 1
        units += [{"alts": term["spend"], "to": term.get("to", "tray")}] * times
    return units


def haves_ok(st: TrialState, p: int, terms: list[dict[str, Any]]) -> bool:
    """Whether ``p`` owns one alternative of every ``have`` term."""
    me = player(st, p)
    return all(any(_owns(st, me, alt) for alt in term["have"]) for term in terms if "have" in term)


def _owns(st: TrialState, me: dict[str, Any], alt: str) -> bool:
    if alt in FOODS:
        return me["food"][alt] > 0 or (alt != "tea" and me["food"]["tea"] > 0)
    if alt == "food":
        return any(me["food"].values())
    return any(_item_matches(st, k, alt) for k in me["pack"])


def _item_matches(st: TrialState, kind: str, alt: str) -> bool:
    if alt == "item":
        return True
    if alt == "amphibian":
        return bool(st.g.pack.item(kind).get("amphibian"))
    return kind == alt


def payments(
    st: TrialState, p: int, unit: dict[str, Any], card_units: int
) -> list[tuple[str, str]]:
    """The tokens that can pay one unit: ``("food", f)``, ``("item", k)``, ``("card", c)``."""
    me = player(st, p)
    options: list[tuple[str, str]] = []
    alts = unit["alts"]
    for f in FOODS:
        if me["food"][f] <= 0:
            continue
        if f in alts or "food" in alts or (f == "tea" and any(a in RAW_FOODS for a in alts)):
            options.append(("food", f))
    for k in sorted(set(me["pack"])):
        if any(_item_matches(st, k, a) for a in alts if a not in (*FOODS, "food", "card")):
            options.append(("item", k))
    foodlike = any(a in FOODS or a == "food" for a in alts)
    if "card" in alts or (card_units and foodlike):
        options += [("card", c) for c in me["hand"]]
    return options


def can_pay(st: TrialState, p: int, units: list[dict[str, Any]], card_units: int = 0) -> bool:
    """Whether ``p`` can pay every unit (a small backtracking search over their tokens)."""
    me = player(st, p)
    food = dict(me["food"])
    pack = list(me["pack"])
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
        if hand_left > 0 and ("card" in alts or (card_units and foodlike)):
            skip = 1 + (card_units - 1 if card_units > 1 and foodlike else 0)
            return search(min(len(units), i + skip), hand_left - 1)
        return False

    return search(0, hand)


def pay(st: TrialState, p: int, units: list[dict[str, Any]], card_units: int = 0) -> None:
    """Push the payment of ``units`` (one decision per unit with several ways to pay)."""
    if units:
        push(st, "pay", p=p, units=[dict(u) for u in units], card_units=card_units)


@step("pay")
class Pay:
    """Decision: the token paying the next unit of a cost (only choices that leave the rest
    payable are offered)."""

    @staticmethod
    def legal(st: TrialState, f: Frame) -> list[int]:
        L, p = st.L, f["p"]
        acts = []
        for kind, what in payments(st, p, f["units"][0], f["card_units"]):
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
    def apply(st: TrialState, f: Frame, a: int) -> None:
        p = f["p"]
        family, index = st.L.family(a)
        unit = f["units"].pop(0)
        me = player(st, p)
        if family == "food":
            spend_food(st, p, FOODS[index], unit["to"])
        elif family == "item":
            kind = st.L.item_kinds[index]
            me["pack"].remove(kind)
            return_item(st, kind, p)
        else:
            cid = st.L.cards[index]
            me["hand"].remove(cid)
            discard_card(st, cid)
            if f["card_units"] > 1 and f["units"]:
                f["units"].pop(0)
        if not f["units"]:
            pop(st, f)

    @staticmethod
    def describe(st: TrialState, f: Frame, a: int) -> str:
        family, index = st.L.family(a)
        if family == "card":
            return f"pay with card {st.g.pack.card(st.L.cards[index])['name']}"
        return f"pay with {st.L.label(a)}"


def _still_payable(st: TrialState, f: Frame, kind: str, what: str) -> bool:
    me = player(st, f["p"])
    rest = f["units"][1:]
    if kind == "card" and f["card_units"] > 1:
        rest = rest[1:]
    if kind == "food":
        me["food"][what] -= 1
    elif kind == "item":
        me["pack"].remove(what)
    else:
        me["hand"].remove(what)
    try:
        return can_pay(st, f["p"], rest, f["card_units"])
    finally:
        if kind == "food":
            me["food"][what] += 1
        elif kind == "item":
            me["pack"].append(what)
        else:
            me["hand"].append(what)


# -- resolving a card ----------------------------------------------------------------------------
def playable(st: TrialState, p: int, cid: str) -> bool:
    """Whether ``p`` may resolve ``cid`` now: its conditions hold and its cost can be paid."""
    card = st.g.pack.card(cid)
    if not all(condition_ok(st, p, c) for c in card.get("requires", [])):
        return False
    cost = card.get("cost", [])
    return haves_ok(st, p, cost) and can_pay(st, p, units_of(st, p, cost))


def resolve(st: TrialState, p: int, cid: str, src: str) -> None:
    """Push the resolution of ``cid`` by ``p`` (``src``: deed, encounter or expedition)."""
    push(
        st, "resolve", p=p, card=cid, src=src, stage=0, dest="story", side=None, owner=p, held=[cid]
    )


def resolve_unpaid(st: TrialState, p: int, cid: str) -> None:
    """Push what an expedition card says to do when ``p`` cannot pay its cost (its ``unpaid``
    effects, nothing to pay); the card is then discarded unless those effects say otherwise."""
    push(
        st,
        "resolve",
        p=p,
        card=cid,
        src="expedition",
        stage=1,
        dest="discard",
        side=None,
        owner=p,
        held=[cid],
        effect="unpaid",
    )


@step("resolve")
class Resolve:
    """Automatic, in three stages: pay the cost, run the effects, place the card."""

    auto = True

    @staticmethod
    def run(st: TrialState, f: Frame) -> None:
        card = st.g.pack.card(f["card"])
        p = f["p"]
        if f["stage"] == 0:
            f["stage"] = 1
            pay(st, p, units_of(st, p, card.get("cost", [])))
        elif f["stage"] == 1:
            f["stage"] = 2
            key = f.get("effect", "effect")
            if card.get(key):
                push(st, "effects", p=p, card=f["card"], path=[key], i=0)
        else:
            pop(st, f)
            cid, dest = f["card"], f["dest"]
            if dest == "story":
                add_to_story(st, f["owner"], cid, True, side=f["side"])
            elif dest == "facedown":
                add_to_story(st, f["owner"], cid, False)
            elif dest == "discard":
                discard_card(st, cid)
            if f.get("leave"):
                from solver.games.trial.expeditions import leave

                if st.g.board.on_expedition(player(st, p)["pos"]):
                    leave(st, p)


def current_resolve(st: TrialState, cid: str) -> Frame | None:
    """The ``resolve`` step of card ``cid`` (where its destination is decided)."""
    for frame in reversed(st.d["stack"]):
        if frame["k"] == "resolve" and frame["card"] == cid:
            return frame
    return None


def run_effects(st: TrialState, p: int, cid: str, path: list[Any]) -> None:
    """Push the effect list at ``path`` of card ``cid`` for player ``p``."""
    if get_path(st.g.pack.card(cid), path):
        push(st, "effects", p=p, card=cid, path=list(path), i=0)


@step("effects")
class Effects:
    """Automatic: run the next effect of a list (each verb pushes what it needs)."""

    auto = True

    @staticmethod
    def run(st: TrialState, f: Frame) -> None:
        effects = get_path(st.g.pack.card(f["card"]), f["path"])
        if f["i"] >= len(effects):
            pop(st, f)
            return
        i = f["i"]
        f["i"] += 1
        effect = effects[i]
        verb = next(k for k in effect if k in VERBS)
        VERBS[verb](st, f["p"], f["card"], effect, [*f["path"], i])


# -- verbs ---------------------------------------------------------------------------------------
Verb = Callable[["TrialState", int, str, dict[str, Any], list[Any]], None]


def _gain_for(st: TrialState, p: int, gains: dict[str, int]) -> list[dict[str, Any]]:
    """Frames (to push) and immediate gains of a ``gain`` argument for player ``p``."""
    frames: list[dict[str, Any]] = []
    for key, n in gains.items():
        if key in FOODS:
            gain_food(st, p, key, n)
        elif key == "food":
            frames += [{"k": "pick_food", "p": p, "purpose": "gain"}] * n
        elif key == "card":
            frames += [{"k": "draw", "p": p, "deck": "deeds", "to": "pending"}] * n
    return frames


def _push_all(st: TrialState, frames: list[dict[str, Any]]) -> None:
    for frame in reversed(frames):
        st.d["stack"].append(dict(frame))


def v_gain(st: TrialState, p: int, cid: str, e: dict[str, Any], path: list[Any]) -> None:
    _push_all(st, _gain_for(st, p, e["gain"]))


def v_others_gain(st: TrialState, p: int, cid: str, e: dict[str, Any], path: list[Any]) -> None:
    frames: list[dict[str, Any]] = []
    for q in order_from(st, p, include_self=False):
        frames += _gain_for(st, q, e["others_gain"])
    _push_all(st, frames)


def v_all_draw(st: TrialState, p: int, cid: str, e: dict[str, Any], path: list[Any]) -> None:
    """Every adventurer, from ``p`` on, draws; with ``optional`` each decides in turn whether to
    take the cards (Postal Service), else everyone draws (Dangling Postman)."""
    if e.get("optional"):
        frames = [
            {"k": "draw_offer", "p": q, "n": e["all_draw"]}
            for q in order_from(st, p, include_self=True)
        ]
    else:
        frames = [
            {"k": "draw", "p": q, "deck": "deeds", "to": "pending"}
            for q in order_from(st, p, include_self=True)
            for _ in range(e["all_draw"])
        ]
    _push_all(st, frames)


def v_give(st: TrialState, p: int, cid: str, e: dict[str, Any], path: list[Any]) -> None:
    company = any("company" in c for c in st.g.pack.card(cid).get("requires", []))
    push(st, "give", p=p, what=e["give"], company=company)


def v_morality(st: TrialState, p: int, cid: str, e: dict[str, Any], path: list[Any]) -> None:
    move_morality(st, p, e["morality"])


def v_fight(st: TrialState, p: int, cid: str, e: dict[str, Any], path: list[Any]) -> None:
    from solver.games.trial.fights import start_fight

    start_fight(st, p, cid, [*path, "fight"])


def v_duel(st: TrialState, p: int, cid: str, e: dict[str, Any], path: list[Any]) -> None:
    from solver.games.trial.fights import start_duel

    start_duel(st, p, cid, e["duel"])


def v_choose(st: TrialState, p: int, cid: str, e: dict[str, Any], path: list[Any]) -> None:
    push(st, "choose", p=p, card=cid, path=[*path, "choose"])


def v_tile(st: TrialState, p: int, cid: str, e: dict[str, Any], path: list[Any]) -> None:
    from solver.games.trial.locations import turn_tile

    verb = next(k for k in ("ruin", "restore", "flip") if k in e)
    if verb == "flip":
        push(st, "flip_choice", p=p)
    else:
        turn_tile(st, player(st, p)["pos"], verb, p)


def v_dig(st: TrialState, p: int, cid: str, e: dict[str, Any], path: list[Any]) -> None:
    pos = player(st, p)["pos"]
    if st.g.board.on_expedition(pos):
        return
    tunnels = st.d["tunnels"]
    if tunnels.get(pos) == "collapsed":
        del tunnels[pos]  # rebuilt: the collapse token goes back to the tray
        st.d["tunnel_tokens"] += 1
    elif pos not in st.g.board.printed_tunnels and pos not in tunnels and st.d["tunnel_tokens"]:
        tunnels[pos] = "open"
        st.d["tunnel_tokens"] -= 1


def v_collapse(st: TrialState, p: int, cid: str, e: dict[str, Any], path: list[Any]) -> None:
    push(st, "collapse", p=p)


def v_advance(st: TrialState, p: int, cid: str, e: dict[str, Any], path: list[Any]) -> None:
    from solver.games.trial.expeditions import push_advance

    push_advance(st, p, e["advance"], e.get("steps", 1))


def v_artifact(st: TrialState, p: int, cid: str, e: dict[str, Any], path: list[Any]) -> None:
    take_artifact(st, p, e["artifact"])


def v_item(st: TrialState, p: int, cid: str, e: dict[str, Any], path: list[Any]) -> None:
    push(st, "take_item", p=p, rarity="common")


def v_story_from_hand(st: TrialState, p: int, cid: str, e: dict[str, Any], path: list[Any]) -> None:
    push(st, "pick_card", p=p, purpose=f"story_{e['story_from_hand']}")


def v_take_discard(st: TrialState, p: int, cid: str, e: dict[str, Any], path: list[Any]) -> None:
    arg = e["take_discard"]
    pile = st.d["decks"]["deeds"]["discard"]
    choices = pile[-arg["look"] :]
    push(st, "from_discard", p=p, choices=list(choices), left=arg["take"])


def v_encounter_to_hand(
    st: TrialState, p: int, cid: str, e: dict[str, Any], path: list[Any]
) -> None:
    for _ in range(e["encounter_to_hand"]):
        push(st, "take_encounter", p=p)


def v_first_player(st: TrialState, p: int, cid: str, e: dict[str, Any], path: list[Any]) -> None:
    st.d["first"] = p


def v_tent_from_box(st: TrialState, p: int, cid: str, e: dict[str, Any], path: list[Any]) -> None:
    push(st, "gift_tent", p=p)


def v_move_flag(st: TrialState, p: int, cid: str, e: dict[str, Any], path: list[Any]) -> None:
    push(st, "flag", p=p, mode="move")


def v_place_flag(st: TrialState, p: int, cid: str, e: dict[str, Any], path: list[Any]) -> None:
    push(st, "flag", p=p, mode="place")


def v_reveal_tops(st: TrialState, p: int, cid: str, e: dict[str, Any], path: list[Any]) -> None:
    everyone = list(range(st.d["n"]))
    for area in st.g.board.areas:
        deck = st.d["decks"][f"exp:{area}"]
        if deck["top"] is not None:
            deck["top"]["viewers"] = list(everyone)
            note(st, PUBLIC, f"top:{area}:{deck['top']['card']}")
        elif any(deck["layers"]):
            draw(st, p, f"exp:{area}", "top", viewers=list(everyone))


def v_peek(st: TrialState, p: int, cid: str, e: dict[str, Any], path: list[Any]) -> None:
    area = st.g.pack.card(cid).get("area") or st.g.board.area_of.get(player(st, p)["pos"])
    if area is None:
        return
    deck = st.d["decks"][f"exp:{area}"]
    if deck["top"] is not None:
        if p not in deck["top"]["viewers"]:
            deck["top"]["viewers"] = sorted([*deck["top"]["viewers"], p])
            note(st, str(p), f"top:{area}:{deck['top']['card']}", f"top:{area}:?")
    elif any(deck["layers"]):
        draw(st, p, f"exp:{area}", "top", viewers=[p])


def v_roll(st: TrialState, p: int, cid: str, e: dict[str, Any], path: list[Any]) -> None:
    push(st, "roll", p=p, card=cid, path=[*path, "roll"], rolled=None, rerolled=False)


def v_swindle(st: TrialState, p: int, cid: str, e: dict[str, Any], path: list[Any]) -> None:
    push(st, "swindle", p=p, card=cid, path=[*path, "swindle"], held=[], fame=0, rolling=False)


def v_others_may(st: TrialState, p: int, cid: str, e: dict[str, Any], path: list[Any]) -> None:
    frames = [
        {"k": "offer", "p": q, "owner": p, "card": cid, "path": [*path, "others_may"]}
        for q in order_from(st, p, include_self=False)
    ]
    _push_all(st, frames)


def v_then(st: TrialState, p: int, cid: str, e: dict[str, Any], path: list[Any]) -> None:
    frame = current_resolve(st, cid)
    if frame is not None:
        frame["dest"] = e["then"]


def v_leave(st: TrialState, p: int, cid: str, e: dict[str, Any], path: list[Any]) -> None:
    """Leave the expedition once the card is placed (back to the exit space, no flag; the area's
    discards, this card among them, are shuffled back)."""
    frame = current_resolve(st, cid)
    if frame is not None:
        frame["leave"] = True


def v_draw_to_story(st: TrialState, p: int, cid: str, e: dict[str, Any], path: list[Any]) -> None:
    for _ in range(e["draw_to_story"]):
        draw(st, p, "deeds", "story")


def v_swap_strong_paw(st: TrialState, p: int, cid: str, e: dict[str, Any], path: list[Any]) -> None:
    me = player(st, p)
    if me["strong"] or me["paws"] == 0:
        return
    for entry in me["placed"]:
        if entry[1]:
            entry[1] = False
            me["strong"] = True
            me["paws"] -= 1
            return


VERBS: dict[str, Verb] = {
    "gain": v_gain,
    "others_gain": v_others_gain,
    "all_draw": v_all_draw,
    "give": v_give,
    "morality": v_morality,
    "fight": v_fight,
    "duel": v_duel,
    "choose": v_choose,
    "ruin": v_tile,
    "restore": v_tile,
    "flip": v_tile,
    "dig": v_dig,
    "collapse": v_collapse,
    "advance": v_advance,
    "artifact": v_artifact,
    "item": v_item,
    "story_from_hand": v_story_from_hand,
    "take_discard": v_take_discard,
    "encounter_to_hand": v_encounter_to_hand,
    "first_player": v_first_player,
    "tent_from_box": v_tent_from_box,
    "move_flag": v_move_flag,
    "place_flag": v_place_flag,
    "reveal_tops": v_reveal_tops,
    "peek": v_peek,
    "roll": v_roll,
    "swindle": v_swindle,
    "others_may": v_others_may,
    "then": v_then,
    "draw_to_story": v_draw_to_story,
    "swap_strong_paw": v_swap_strong_paw,
    "leave": v_leave,
}
"""The interpreter of every verb of the effect language."""


# -- decision steps used by the verbs ------------------------------------------------------------
def option_open(st: TrialState, p: int, option: dict[str, Any]) -> bool:
    """Whether ``p`` meets an option's conditions and can pay its cost."""
    if not all(condition_ok(st, p, c) for c in option.get("requires", [])):
        return False
    cost = option.get("cost", [])
    return haves_ok(st, p, cost) and can_pay(st, p, units_of(st, p, cost))


@step("choose")
class Choose:
    """Decision: one option of a card whose requirements and cost the player meets."""

    @staticmethod
    def legal(st: TrialState, f: Frame) -> list[int]:
        options = get_path(st.g.pack.card(f["card"]), f["path"])
        return [st.L.OPTION + i for i, o in enumerate(options) if option_open(st, f["p"], o)]

    @staticmethod
    def apply(st: TrialState, f: Frame, a: int) -> None:
        pop(st, f)
        i = a - st.L.OPTION
        p = f["p"]
        option = get_path(st.g.pack.card(f["card"]), f["path"])[i]
        if "morality" in option:
            frame = current_resolve(st, f["card"])
            if frame is not None:
                frame["side"] = option["morality"]
        run_effects(st, p, f["card"], [*f["path"], i, "effect"])
        pay(st, p, units_of(st, p, option.get("cost", [])))

    @staticmethod
    def describe(st: TrialState, f: Frame, a: int) -> str:
        option = get_path(st.g.pack.card(f["card"]), f["path"])[a - st.L.OPTION]
        side = f" ({option['morality']})" if "morality" in option else ""
        return f"choose: {option['label']}{side}"


@step("pick_food")
class PickFood:
    """Decision: which food to gain (raspberry, acorn or mushroom) or, for ``give``/``stake``,
    which of one's own food tokens to hand over."""

    @staticmethod
    def legal(st: TrialState, f: Frame) -> list[int]:
        if f["purpose"] == "gain":
            return [st.L.food(x) for x in RAW_FOODS if st.d["tray"][x] > 0]
        me = player(st, f["p"])
        return [st.L.food(x) for x in FOODS if me["food"][x] > 0]

    @staticmethod
    def apply(st: TrialState, f: Frame, a: int) -> None:
        pop(st, f)
        food = FOODS[a - st.L.FOOD]
        if f["purpose"] == "gain":
            gain_food(st, f["p"], food)
        else:
            player(st, f["p"])["food"][food] -= 1
            player(st, f["to"])["food"][food] += 1

    @staticmethod
    def describe(st: TrialState, f: Frame, a: int) -> str:
        food = FOODS[a - st.L.FOOD]
        return f"gain {food}" if f["purpose"] == "gain" else f"give {food} to player {f['to']}"


@step("give")
class Give:
    """Decision: who receives a gift (someone on the giver's space if the card needs company)."""

    @staticmethod
    def legal(st: TrialState, f: Frame) -> list[int]:
        p = f["p"]
        me = player(st, p)
        has = {
            "food": any(me["food"].values()),
            "tea": me["food"]["tea"] > 0,
            "card": bool(me["hand"]),
        }[f["what"]]
        if not has:
            return []
        return [
            st.L.PLAYER + q
            for q in range(st.d["n"])
            if q != p and (not f["company"] or player(st, q)["pos"] == me["pos"])
        ]

    @staticmethod
    def apply(st: TrialState, f: Frame, a: int) -> None:
        pop(st, f)
        p, q = f["p"], a - st.L.PLAYER
        if f["what"] == "tea":
            player(st, p)["food"]["tea"] -= 1
            player(st, q)["food"]["tea"] += 1
        elif f["what"] == "food":
            push(st, "pick_food", p=p, purpose="give", to=q)
        else:
            push(st, "pick_card", p=p, purpose="give", to=q)

    @staticmethod
    def describe(st: TrialState, f: Frame, a: int) -> str:
        return f"give {f['what']} to player {a - st.L.PLAYER}"


@step("pick_card")
class PickCard:
    """Decision: a card from hand, for a story (face up or down) or as a gift."""

    @staticmethod
    def legal(st: TrialState, f: Frame) -> list[int]:
        return [st.L.card(c) for c in player(st, f["p"])["hand"]]

    @staticmethod
    def apply(st: TrialState, f: Frame, a: int) -> None:
        pop(st, f)
        p = f["p"]
        cid = st.L.cards[a - st.L.CARD]
        player(st, p)["hand"].remove(cid)
        if f["purpose"] == "story_faceup":
            add_to_story(st, p, cid, True)
        elif f["purpose"] == "story_facedown":
            push(st, "pick_column", p=p, card=cid)
        else:
            give_card(st, f["to"], cid)

    @staticmethod
    def describe(st: TrialState, f: Frame, a: int) -> str:
        name = st.g.pack.card(st.L.cards[a - st.L.CARD])["name"]
        return {
            "story_faceup": f"add {name} to your story face up",
            "story_facedown": f"add {name} to your story face down",
        }.get(f["purpose"], f"give {name} to player {f.get('to')}")


@step("pick_column")
class PickColumn:
    """Decision: the story column a face-down card goes to (any column)."""

    @staticmethod
    def legal(st: TrialState, f: Frame) -> list[int]:
        return [st.L.COLUMN + i for i in range(4)]

    @staticmethod
    def apply(st: TrialState, f: Frame, a: int) -> None:
        from solver.games.trial.actions import COLUMNS

        pop(st, f)
        add_to_story(st, f["p"], f["card"], False, column=COLUMNS[a - st.L.COLUMN])


@step("take_item")
class TakeItem:
    """Decision: a common item from the store (one that fits), or none; when one does not fit,
    dropping something first (``DROP``)."""

    @staticmethod
    def legal(st: TrialState, f: Frame) -> list[int]:
        offered = [
            stack[0]
            for row in st.d["store"]
            for stack in row
            if stack and st.g.pack.item(stack[0])["rarity"] == f["rarity"]
        ]
        acts = [st.L.DONE] + [st.L.item(k) for k in offered if fits(st, f["p"], k)]
        return acts + drops_if_full(st, f["p"], offered)

    @staticmethod
    def apply(st: TrialState, f: Frame, a: int) -> None:
        from solver.games.trial.core import cell_of

        if st.L.family(a)[0] == "drop":
            drop(st, f["p"], st.L.item_kinds[a - st.L.DROP])
            return
        pop(st, f)
        if a == st.L.DONE:
            return
        kind = st.L.item_kinds[a - st.L.ITEM]
        cell = cell_of(st, kind)
        assert cell is not None
        st.d["store"][cell[0]][cell[1]].pop()
        player(st, f["p"])["pack"].append(kind)

    @staticmethod
    def describe(st: TrialState, f: Frame, a: int) -> str:
        if a == st.L.DONE:
            return "take no item"
        family, index = st.L.family(a)
        kind = st.L.item_kinds[index]
        return f"drop {kind} to make room" if family == "drop" else f"take {kind} from the store"


@step("from_discard")
class FromDiscard:
    """Decision: a card taken from the deed discard pile among those allowed, or none."""

    @staticmethod
    def legal(st: TrialState, f: Frame) -> list[int]:
        pile = st.d["decks"]["deeds"]["discard"]
        return [st.L.DONE] + [st.L.card(c) for c in f["choices"] if c in pile]

    @staticmethod
    def apply(st: TrialState, f: Frame, a: int) -> None:
        if a == st.L.DONE:
            pop(st, f)
            return
        cid = st.L.cards[a - st.L.CARD]
        st.d["decks"]["deeds"]["discard"].remove(cid)
        f["choices"].remove(cid)
        give_card(st, f["p"], cid)
        f["left"] -= 1
        if f["left"] <= 0:
            pop(st, f)


@step("take_encounter")
class TakeEncounter:
    """Decision: a face-up encounter card taken into hand (the slot is refilled)."""

    @staticmethod
    def legal(st: TrialState, f: Frame) -> list[int]:
        return [st.L.OPTION + i for i, c in enumerate(st.d["row"]) if c is not None]

    @staticmethod
    def apply(st: TrialState, f: Frame, a: int) -> None:
        pop(st, f)
        slot = a - st.L.OPTION
        cid = st.d["row"][slot]
        st.d["row"][slot] = None
        give_card(st, f["p"], cid)
        draw(st, f["p"], "encounters", f"row:{slot}")

    @staticmethod
    def describe(st: TrialState, f: Frame, a: int) -> str:
        cid = st.d["row"][a - st.L.OPTION]
        return f"take {st.g.pack.card(cid)['name']} into your hand"


@step("offer")
class Offer:
    """Decision of another adventurer: pay for a card's ``others_may`` effect (``yes``) or not."""

    @staticmethod
    def legal(st: TrialState, f: Frame) -> list[int]:
        arg = get_path(st.g.pack.card(f["card"]), f["path"])
        acts = [st.L.DONE]
        if can_pay(st, f["p"], units_of(st, f["p"], arg["cost"])):
            acts.append(st.L.YES)
        return acts

    @staticmethod
    def apply(st: TrialState, f: Frame, a: int) -> None:
        pop(st, f)
        if a != st.L.YES:
            return
        arg = get_path(st.g.pack.card(f["card"]), f["path"])
        run_effects(st, f["owner"], f["card"], [*f["path"], "you"])
        run_effects(st, f["p"], f["card"], [*f["path"], "effect"])
        pay(st, f["p"], units_of(st, f["p"], arg["cost"]))


@step("draw_offer")
class DrawOffer:
    """Decision of each adventurer in turn (an optional ``all_draw``): draw the deed cards
    (``yes``) or decline (``done``)."""

    @staticmethod
    def legal(st: TrialState, f: Frame) -> list[int]:
        return [st.L.DONE, st.L.YES]

    @staticmethod
    def apply(st: TrialState, f: Frame, a: int) -> None:
        pop(st, f)
        if a == st.L.YES:
            for _ in range(f["n"]):
                draw(st, f["p"], "deeds", "pending")

    @staticmethod
    def describe(st: TrialState, f: Frame, a: int) -> str:
        return f"draw {f['n']} deed card(s)" if a == st.L.YES else "decline the deed card(s)"


@step("collapse")
class Collapse:
    """Decision: the tunnel to collapse (a token face down on a printed tunnel, or a dug token
    flipped)."""

    @staticmethod
    def legal(st: TrialState, f: Frame) -> list[int]:
        from solver.games.trial.turns import open_tunnels

        return [
            st.L.space(s)
            for s in sorted(open_tunnels(st))
            if s in st.d["tunnels"] or st.d["tunnel_tokens"] > 0
        ]

    @staticmethod
    def apply(st: TrialState, f: Frame, a: int) -> None:
        pop(st, f)
        space = st.L.spaces[a - st.L.SPACE]
        if space not in st.d["tunnels"]:
            st.d["tunnel_tokens"] -= 1
        st.d["tunnels"][space] = "collapsed"


@step("flip_choice")
class FlipChoice:
    """Decision (Demolition Builder): ruin (``done``) or restore (``yes``) the location here."""

    @staticmethod
    def legal(st: TrialState, f: Frame) -> list[int]:
        return [st.L.DONE, st.L.YES]

    @staticmethod
    def apply(st: TrialState, f: Frame, a: int) -> None:
        from solver.games.trial.locations import turn_tile

        pop(st, f)
        turn_tile(st, player(st, f["p"])["pos"], "restore" if a == st.L.YES else "ruin", f["p"])


__all__ = ["column_of", "find", "playable", "resolve"]
