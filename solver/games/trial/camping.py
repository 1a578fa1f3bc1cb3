"""Camping and tents: the campsite bonuses, the universal campsite, tent bonuses, placing a tent,
taking the paw tokens back; Campsite Gift's tent from the box.

A player with no paw token left camps instead of placing one: the bonus of the campsite space they
stand on (or the universal campsite's: a deed card or a raspberry, acorn or mushroom, when not on a
campsite space), then the bonus of a tent token lying there (revealed, then boxed), then one of
their own tents goes face down on that spot, and all their paw tokens come back. The turn ends.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, ClassVar

from solver.games.trial import core
from solver.games.trial.belongings import (
    TentFromBox,
    gain_food,
    take_tent,
    tent_bonus_words,
    tent_of,
    tent_words,
)
from solver.games.trial.core import (
    REQUIRED,
    Fields,
    Frame,
    Step,
    player,
    pop,
    push,
    spot_words,
    step,
    words,
)
from solver.games.trial.decks import CardOrFood, draw_deed
from solver.games.trial.history import PUBLIC, note
from solver.games.trial.schema import FOODS

if TYPE_CHECKING:
    from solver.games.trial.core import State

ONE_TIME_TENTS = {
    "move": "move",
    "trade": "trade",
    "strength": "strength",
    "card_draw": "card_draw",
}


def camp_spot(st: State, p: int) -> str:
    """Where ``p`` camps: the campsite space they stand on, else the universal campsite."""
    pos = player(st, p)["space"]
    return pos if pos in st.game.board.campsite else "universal"


def tent_bonus(st: State, p: int, bonus: str) -> None:
    """Apply a revealed tent token's bonus to ``p``."""
    me = player(st, p)
    if bonus == "cards":
        for _ in range(2):
            draw_deed(st, p)
    elif bonus == "morality":
        push(st, "side", player=p, card=None)
    elif bonus in FOODS:
        gain_food(st, p, bonus)
    elif bonus == "food":
        push(st, "pick_food", player=p, purpose="gain")
    elif bonus in ONE_TIME_TENTS:
        me["tent_symbols"][ONE_TIME_TENTS[bonus]] += 1


def campsite_bonus(st: State, p: int, spot: str) -> None:
    """The bonus of the campsite ``spot`` (or the universal campsite's)."""
    if spot == "universal":
        push(st, "universal", player=p)
        return
    bonus = st.game.board.campsite[spot]
    if bonus == "morality":
        push(st, "side", player=p, card=None)
    elif bonus == "story_facedown":
        push(st, "facedown_optional", player=p)
    elif bonus == "tea":
        gain_food(st, p, "tea")
    elif bonus == "encounter":
        push(st, "take_encounter", player=p)
    elif bonus == "common_item":
        push(st, "take_item", player=p, rarity="common")
    elif bonus == "first_player":
        st.data["first_player"] = p


TENT_FIELDS: Fields = {
    "player": (REQUIRED, "who lays the tent (camping, or playing Campsite Gift)"),
    "spot": (REQUIRED, "the campsite it goes to (universal: the universal campsite)"),
}
"""The fields of the steps laying a tent token face down on a campsite (see :func:`lay_tent`)."""


def lay_tent(st: State, spot: str, bonus: str, owner: int | None) -> None:
    """A tent token lies face down on ``spot``: a player's own (``owner``), or one from the box
    (``None``)."""
    st.data["camp_tents"][spot] = {"tent": bonus, "owner": owner}


CAMP_STAGES = ("campsite", "tent", "own_tent", "paws")
"""The camping action's stages, in order."""


@step("camp")
class Camp(Step):
    """Automatic, in four stages: the campsite's bonus, the bonus of the tent lying there
    (revealed, then boxed), one of the player's own tents left face down, the paws back."""

    auto = True
    fields: ClassVar[Fields] = {
        "player": (REQUIRED, "who camps"),
        "spot": (None, "the campsite space, or universal (None: where the player stands)"),
        "stage": ("campsite", "the next stage (CAMP_STAGES)"),
    }

    @staticmethod
    def run(st: State, f: Frame) -> None:
        p = f["player"]
        if f["spot"] is None:
            f["spot"] = camp_spot(st, p)
        spot, stage = f["spot"], f["stage"]
        if stage != "paws":
            f["stage"] = CAMP_STAGES[CAMP_STAGES.index(stage) + 1]
        if stage == "campsite":
            campsite_bonus(st, p, spot)
        elif stage == "tent":
            lying = st.data["camp_tents"][spot]
            if lying is not None:
                note(st, PUBLIC, f"tent:{spot}:{lying['tent']}")
                st.data["camp_tents"][spot] = None
                st.data["box"]["used_tents"].append(lying["tent"])
                tent_bonus(st, p, lying["tent"])
        elif stage == "own_tent":
            if player(st, p)["tents"]:
                push(st, "pick_tent", player=p, spot=spot)
        else:
            pop(st, f)
            me = player(st, p)
            me["paws"] = st.game.components["paws"] - 1
            me["strong_paw"] = True
            me["paws_placed"] = []
            me["camped"] = True


@step("universal")
class Universal(CardOrFood):
    """Decision (universal campsite): a deed card, or a raspberry, acorn or mushroom."""

    fields: ClassVar[Fields] = {"player": (REQUIRED, "who camps")}
    labels = ("camp bonus: a deed card", "camp bonus: {}")


@step("pick_tent")
class PickTent(Step):
    """Decision: which of one's own tents goes face down on the spot."""

    fields: ClassVar[Fields] = TENT_FIELDS

    @staticmethod
    def legal(st: State, f: Frame) -> list[int]:
        return [st.layout.tent(b) for b in sorted(set(player(st, f["player"])["tents"]))]

    @staticmethod
    def apply(st: State, f: Frame, a: int) -> None:
        pop(st, f)
        bonus = tent_of(st, a)
        player(st, f["player"])["tents"].remove(bonus)
        lay_tent(st, f["spot"], bonus, f["player"])

    @staticmethod
    def describe(st: State, f: Frame, a: int) -> str:
        return f"leave your tent ({tent_bonus_words(tent_of(st, a))}) at {spot_words(f['spot'])}"

    @staticmethod
    def legacy(st: State, f: Frame, a: int) -> tuple[str, str, str]:
        """The labels before read ``leave your tent card_draw at camp-1``, ``leave your tent
        (acorn) at universal`` and ``leave your tent (none) at camp-1`` (still accepted)."""
        return (
            f"leave your {st.layout.label(a)} at {f['spot']}",
            f"leave your tent ({words(tent_of(st, a))}) at {f['spot']}",
            f"leave your tent ({words(tent_of(st, a))}) at {spot_words(f['spot'])}",
        )


@step("gift_tent")
class GiftTent(core.ChooseSpace):
    """Decision (Campsite Gift): the empty campsite that gets a tent token from the box."""

    fields: ClassVar[Fields] = {"player": (REQUIRED, "who played Campsite Gift")}
    words = "put a tent from the box on {}"

    @staticmethod
    def spaces(st: State, f: Frame) -> list[str]:
        if not st.data["box"]["tents"]:
            return []
        return [s for s in st.game.board.campsites if st.data["camp_tents"][s] is None]

    @staticmethod
    def place(st: State, f: Frame, space: str) -> None:
        push(st, "box_tent", player=f["player"], spot=space)


@step("box_tent")
class BoxTent(TentFromBox):
    """Chance: which face-down tent comes out of the box."""

    fields: ClassVar[Fields] = TENT_FIELDS

    @staticmethod
    def apply(st: State, f: Frame, a: int) -> None:
        lay_tent(st, f["spot"], take_tent(st, f, a), None)

    @staticmethod
    def describe(st: State, f: Frame, a: int) -> str:
        return f"{tent_words(st, a)} from the box goes face down on {spot_words(f['spot'])}"
