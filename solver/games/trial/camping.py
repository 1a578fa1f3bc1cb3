"""Camping and tents: the campsite bonuses, the universal campsite, tent bonuses, placing a tent,
taking the paw tokens back; Campsite Gift's tent from the box.

A player with no paw token left camps instead of placing one: the bonus of the campsite space they
stand on (or the universal campsite's: a deed card or a raspberry, acorn or mushroom, when not on a
campsite space), then the bonus of a tent token lying there (revealed, then boxed), then one of
their own tents goes face down on that spot, and all their paw tokens come back. The turn ends.
"""

from __future__ import annotations

from collections import Counter
from typing import TYPE_CHECKING

from solver.games.trial.core import Frame, draw, gain_food, player, pop, push, step
from solver.games.trial.schema import FOODS

if TYPE_CHECKING:
    from solver.games.trial.rules import TrialState

ONE_TIME_TENTS = {
    "move": "move",
    "trade": "trade",
    "strength": "strength",
    "card_draw": "card_draw",
}


def camp_spot(st: TrialState, p: int) -> str:
    """Where ``p`` camps: the campsite space they stand on, else the universal campsite."""
    pos = player(st, p)["pos"]
    return pos if pos in st.g.board.campsite else "universal"


def camp(st: TrialState, p: int) -> None:
    """Start ``p``'s camping action where they stand."""
    push(st, "camp", p=p, spot=camp_spot(st, p), stage=0)


def tent_bonus(st: TrialState, p: int, bonus: str) -> None:
    """Apply a revealed tent token's bonus to ``p``."""
    me = player(st, p)
    if bonus == "cards":
        for _ in range(2):
            draw(st, p, "deeds", "pending")
    elif bonus == "morality":
        push(st, "side", p=p, card=None)
    elif bonus in FOODS:
        gain_food(st, p, bonus)
    elif bonus == "food":
        push(st, "pick_food", p=p, purpose="gain")
    elif bonus in ONE_TIME_TENTS:
        me["onetime"][ONE_TIME_TENTS[bonus]] += 1


def campsite_bonus(st: TrialState, p: int, spot: str) -> None:
    """The bonus of the campsite ``spot`` (or the universal campsite's)."""
    if spot == "universal":
        push(st, "universal", p=p)
        return
    bonus = st.g.board.campsite[spot]
    if bonus == "morality":
        push(st, "side", p=p, card=None)
    elif bonus == "story_facedown":
        push(st, "facedown_optional", p=p)
    elif bonus == "tea":
        gain_food(st, p, "tea")
    elif bonus == "encounter":
        push(st, "take_encounter", p=p)
    elif bonus == "common_item":
        push(st, "take_item", p=p, rarity="common")
    elif bonus == "first_player":
        st.d["first"] = p


@step("camp")
class Camp:
    """Automatic, in four stages: campsite bonus, tent bonus, own tent, paws back."""

    auto = True

    @staticmethod
    def run(st: TrialState, f: Frame) -> None:
        p, spot = f["p"], f["spot"]
        stage = f["stage"]
        f["stage"] += 1
        if stage == 0:
            campsite_bonus(st, p, spot)
        elif stage == 1:
            lying = st.d["camps"][spot]
            if lying is not None:
                from solver.games.trial.hidden import PUBLIC, note

                note(st, PUBLIC, f"tent:{spot}:{lying['tent']}")
                st.d["camps"][spot] = None
                st.d["box"]["used_tents"].append(lying["tent"])
                tent_bonus(st, p, lying["tent"])
        elif stage == 2:
            if player(st, p)["tents"]:
                push(st, "pick_tent", p=p, spot=spot)
        else:
            pop(st, f)
            me = player(st, p)
            me["paws"] = st.g.components["paws"] - 1
            me["strong"] = True
            me["placed"] = []
            me["camped"] = True


@step("universal")
class Universal:
    """Decision (universal campsite): a deed card, or a raspberry, acorn or mushroom."""

    @staticmethod
    def legal(st: TrialState, f: Frame) -> list[int]:
        return [st.L.CARD] + [st.L.food(x) for x in FOODS[:3]]

    @staticmethod
    def apply(st: TrialState, f: Frame, a: int) -> None:
        pop(st, f)
        if a == st.L.CARD:
            draw(st, f["p"], "deeds", "pending")
        else:
            gain_food(st, f["p"], FOODS[a - st.L.FOOD])

    @staticmethod
    def describe(st: TrialState, f: Frame, a: int) -> str:
        return "camp bonus: a deed card" if a == st.L.CARD else f"camp bonus: {st.L.label(a)}"


@step("pick_tent")
class PickTent:
    """Decision: which of one's own tents goes face down on the spot."""

    @staticmethod
    def legal(st: TrialState, f: Frame) -> list[int]:
        return [st.L.tent(b) for b in sorted(set(player(st, f["p"])["tents"]))]

    @staticmethod
    def apply(st: TrialState, f: Frame, a: int) -> None:
        pop(st, f)
        bonus = st.L.label(a)[len("tent ") :]
        player(st, f["p"])["tents"].remove(bonus)
        st.d["camps"][f["spot"]] = {"tent": bonus, "owner": f["p"]}

    @staticmethod
    def describe(st: TrialState, f: Frame, a: int) -> str:
        return f"leave your {st.L.label(a)} at {f['spot']}"


@step("gift_tent")
class GiftTent:
    """Decision (Campsite Gift): the empty campsite that gets a tent token from the box."""

    @staticmethod
    def legal(st: TrialState, f: Frame) -> list[int]:
        if not st.d["box"]["tents"]:
            return []
        return [st.L.space(s) for s in st.g.board.campsites if st.d["camps"][s] is None]

    @staticmethod
    def apply(st: TrialState, f: Frame, a: int) -> None:
        pop(st, f)
        push(st, "box_tent", p=f["p"], spot=st.L.spaces[a - st.L.SPACE])


@step("box_tent")
class BoxTent:
    """Chance: which face-down tent comes out of the box."""

    chance = True

    @staticmethod
    def outcomes(st: TrialState, f: Frame) -> list[tuple[int, float]]:
        tents = st.d["box"]["tents"]
        counts = Counter(tents)
        return [(st.L.tent(b), counts[b] / len(tents)) for b in sorted(counts, key=st.L.tent)]

    @staticmethod
    def apply(st: TrialState, f: Frame, a: int) -> None:
        pop(st, f)
        bonus = st.L.label(a)[len("tent ") :]
        st.d["box"]["tents"].remove(bonus)
        st.d["camps"][f["spot"]] = {"tent": bonus, "owner": None}
