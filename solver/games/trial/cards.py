"""Resolving a card: paying its cost, running its effects (the effect language), placing it.

A card is resolved by a ``resolve`` step (pay, then the effects, then the card goes to the story,
face down or to its discard); an effect list runs in an ``effects`` step, one effect at a time,
each verb of the effect language (``docs/rules/trial.md`` §1.1, checked by
:mod:`solver.games.trial.schema`) pushing the steps it needs above it: a choice, a fight, a draw,
an advance... :data:`VERBS` is the whole interpreter. The decisions only card effects ask for
(an option of a ``choose``, an ``others_may`` offer, the tunnel to collapse, Demolition
Builder's side) are here too.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Any, ClassVar

from solver.games.trial import core
from solver.games.trial.belongings import (
    add_to_story,
    gain_food,
    move_morality,
    on_expedition,
    open_tunnels,
    take_artifact,
)
from solver.games.trial.conditions import open_to
from solver.games.trial.core import (
    REQUIRED,
    Fields,
    Frame,
    Step,
    YesNo,
    card_text,
    card_text_fields,
    find,
    get_path,
    order_from,
    player,
    pop,
    push,
    step,
)
from solver.games.trial.decks import discard_card, draw
from solver.games.trial.history import PUBLIC, note
from solver.games.trial.payments import can_pay_cost, pay_cost
from solver.games.trial.schema import FOODS

if TYPE_CHECKING:
    from solver.games.trial.core import State


def resolve(st: State, p: int, cid: str, source: str) -> None:
    """Push the resolution of ``cid`` by ``p`` (``source``: deed, encounter or expedition)."""
    push(st, "resolve", player=p, card=cid, source=source, owner=p, holding=[cid])


def run_effects(st: State, p: int, cid: str, path: list[Any]) -> None:
    """Push the effect list at ``path`` of card ``cid`` for player ``p`` (if it is not empty)."""
    if get_path(st.game.pack.card(cid), path):
        push(st, "effects", player=p, card=cid, path=list(path))


@step("resolve")
class Resolve(Step):
    """Automatic, in three stages: ``pay`` the cost, run the ``effects``, ``place`` the card
    (where ``destination`` says: the story of ``owner``, face up with ``moral_side`` for an
    either symbol, or face down; or its discard); then, if an effect said so, leave the
    expedition. An expedition card whose cost cannot be paid starts at ``effects`` with its
    ``unpaid`` list and the discard as destination."""

    auto = True
    fields: ClassVar[Fields] = {
        "player": (REQUIRED, "who resolves the card"),
        "card": (REQUIRED, "the card"),
        "source": (REQUIRED, "deed, encounter or expedition"),
        "stage": ("pay", "pay, effects or place"),
        "effects": ("effect", "the card's effect list to run: effect (unpaid: its unpaid list)"),
        "destination": ("story", "story, facedown or discard"),
        "moral_side": (None, "good or evil: the option chosen, for an either symbol"),
        "owner": (REQUIRED, "whose story the card goes to (a duel's winner)"),
        "holding": (REQUIRED, "[the card]: held by this step until it is placed"),
        "leave": (False, "leave the expedition once the card is placed"),
    }

    @staticmethod
    def run(st: State, f: Frame) -> None:
        card = st.game.pack.card(f["card"])
        p = f["player"]
        if f["stage"] == "pay":
            f["stage"] = "effects"
            pay_cost(st, p, card.get("cost", []))
        elif f["stage"] == "effects":
            f["stage"] = "place"
            if card.get(f["effects"]):
                push(st, "effects", player=p, card=f["card"], path=[f["effects"]])
        else:
            pop(st, f)
            cid, where = f["card"], f["destination"]
            if where == "story":
                add_to_story(st, f["owner"], cid, True, side=f["moral_side"])
            elif where == "facedown":
                add_to_story(st, f["owner"], cid, False)
            else:
                discard_card(st, cid)
            if f["leave"] and on_expedition(st, p):
                push(st, "leave_expedition", player=p)


@step("effects")
class Effects(Step):
    """Automatic: run the next effect of a card's effect list (each verb pushes what it needs)."""

    auto = True
    fields: ClassVar[Fields] = {
        "player": (REQUIRED, "for whom the effects run"),
        **card_text_fields("the effect list"),
        "next": (0, "the index of the next effect to run"),
    }

    @staticmethod
    def run(st: State, f: Frame) -> None:
        effects = card_text(st, f)
        if f["next"] >= len(effects):
            pop(st, f)
            return
        i = f["next"]
        f["next"] += 1
        effect = effects[i]
        verb = next(k for k in effect if k in VERBS)
        VERBS[verb](st, f["player"], f["card"], effect, [*f["path"], i])


def _resolving(st: State, cid: str) -> Frame | None:
    """The ``resolve`` step of card ``cid`` (where its destination is decided)."""
    return find(st, "resolve", card=cid)


# -- the verbs -----------------------------------------------------------------------------------
Verb = Callable[["State", int, str, dict[str, Any], list[Any]], None]


def _gains(st: State, p: int, gains: dict[str, int]) -> list[tuple[str, dict[str, Any]]]:
    """A ``gain`` argument for player ``p``: the foods named are taken at once; the steps the
    rest needs (a food of their choice, deed cards drawn), in order."""
    steps: list[tuple[str, dict[str, Any]]] = []
    for key, n in gains.items():
        if key in FOODS:
            gain_food(st, p, key, n)
        elif key == "food":
            steps += [("pick_food", {"player": p, "purpose": "gain"})] * n
        elif key == "card":
            steps += [("draw", {"player": p, "deck": "deeds", "to": "aside"})] * n
    return steps


def _push_in_order(st: State, steps: list[tuple[str, dict[str, Any]]]) -> None:
    """Push ``steps`` so that they run in the order given."""
    for kind, fields in reversed(steps):
        push(st, kind, **fields)


def v_gain(st: State, p: int, cid: str, e: dict[str, Any], path: list[Any]) -> None:
    """Gain from the tray: the foods named at once, ``food`` a raspberry, acorn or mushroom of
    the player's choice, ``card`` deed cards (aside until the end of the turn)."""
    _push_in_order(st, _gains(st, p, e["gain"]))


def v_others_gain(st: State, p: int, cid: str, e: dict[str, Any], path: list[Any]) -> None:
    """Every other adventurer, from the player's left, gains as ``gain`` does."""
    steps: list[tuple[str, dict[str, Any]]] = []
    for q in order_from(st, p, include_self=False):
        steps += _gains(st, q, e["others_gain"])
    _push_in_order(st, steps)


def v_all_draw(st: State, p: int, cid: str, e: dict[str, Any], path: list[Any]) -> None:
    """Every adventurer, from ``p`` on, draws; with ``optional`` each decides in turn whether to
    take the cards (Postal Service), else everyone draws (Dangling Postman)."""
    order = order_from(st, p, include_self=True)
    if e.get("optional"):
        steps = [("draw_offer", {"player": q, "count": e["all_draw"]}) for q in order]
    else:
        draws = [("draw", {"player": q, "deck": "deeds", "to": "aside"}) for q in order]
        steps = [d for d in draws for _ in range(e["all_draw"])]
    _push_in_order(st, steps)


def v_give(st: State, p: int, cid: str, e: dict[str, Any], path: list[Any]) -> None:
    """Hand one of the player's food, tea or cards to another adventurer (one on the same space
    if the card needs company)."""
    company = any("company" in c for c in st.game.pack.card(cid).get("requires", []))
    push(st, "give", player=p, what=e["give"], company=company)


def v_morality(st: State, p: int, cid: str, e: dict[str, Any], path: list[Any]) -> None:
    """Move the player's morality token (-1 toward good, +1 toward evil)."""
    move_morality(st, p, e["morality"])


def v_fight(st: State, p: int, cid: str, e: dict[str, Any], path: list[Any]) -> None:
    """Fight the card's foe (strength + dice); ``win`` / ``lose`` effects and ``lose_card``
    follow."""
    foe = e["fight"]
    push(st, "fight", player=p, card=cid, path=[*path, "fight"], foe=[foe["strength"], foe["dice"]])


def v_duel(st: State, p: int, cid: str, e: dict[str, Any], path: list[Any]) -> None:
    """Fight an adventurer on the player's space (``target: evil``: an evil one); the winner
    takes the card; a ``stake`` of food."""
    arg = e["duel"]
    push(st, "duel", player=p, card=cid, stake=arg.get("stake"), target=arg.get("target"))


def v_choose(st: State, p: int, cid: str, e: dict[str, Any], path: list[Any]) -> None:
    """Choose one option the player can afford (its conditions, cost, morality side and
    effects)."""
    push(st, "choose", player=p, card=cid, path=[*path, "choose"])


def v_tile(st: State, p: int, cid: str, e: dict[str, Any], path: list[Any]) -> None:
    """Ruin, restore, or (``flip``) the player's choice of either, the location tile the player
    stands on."""
    verb = next(k for k in ("ruin", "restore", "flip") if k in e)
    if verb == "flip":
        push(st, "flip_choice", player=p)
    else:
        push(st, "turn_tile", player=p, verb=verb)


def v_dig(st: State, p: int, cid: str, e: dict[str, Any], path: list[Any]) -> None:
    """Dig a tunnel on the player's space (not on an expedition), or rebuild a collapsed one:
    a printed tunnel's face-down token goes back to the tray (Blaster: "remove the token"), a
    dug tunnel's token turns face up again (removing it would leave no tunnel to rebuild)."""
    pos = player(st, p)["space"]
    if st.game.board.on_expedition(pos):
        return
    tunnels = st.data["tunnels"]
    if tunnels.get(pos) == "collapsed" and pos not in st.game.board.printed_tunnels:
        tunnels[pos] = "open"
    elif tunnels.get(pos) == "collapsed":
        del tunnels[pos]
        st.data["tunnel_tokens"] += 1
    elif (
        pos not in st.game.board.printed_tunnels and pos not in tunnels and st.data["tunnel_tokens"]
    ):
        tunnels[pos] = "open"
        st.data["tunnel_tokens"] -= 1


def v_collapse(st: State, p: int, cid: str, e: dict[str, Any], path: list[Any]) -> None:
    """Collapse a tunnel of the player's choice."""
    push(st, "collapse", player=p)


def v_advance(st: State, p: int, cid: str, e: dict[str, Any], path: list[Any]) -> None:
    """Move deeper on the expedition (passed over off an expedition; ``none``: stay)."""
    if e["advance"] != "none":
        push(st, "advance", player=p, line=e["advance"], steps=e.get("steps", 1))


def v_artifact(st: State, p: int, cid: str, e: dict[str, Any], path: list[Any]) -> None:
    """Take the artifact if it is still available (a ``make_room`` choice when it does not fit)."""
    take_artifact(st, p, e["artifact"])


def v_item(st: State, p: int, cid: str, e: dict[str, Any], path: list[Any]) -> None:
    """Take a common item of the player's choice from the store."""
    push(st, "take_item", player=p, rarity=e["item"])


def v_story_from_hand(st: State, p: int, cid: str, e: dict[str, Any], path: list[Any]) -> None:
    """Add a card from hand to the story unresolved (face up or face down)."""
    push(st, "pick_card", player=p, purpose=f"story_{e['story_from_hand']}")


def v_take_discard(st: State, p: int, cid: str, e: dict[str, Any], path: list[Any]) -> None:
    """Look at the top ``look`` cards of the deed discard pile and take ``take`` of them."""
    arg = e["take_discard"]
    choices = st.data["decks"]["deeds"]["discard"][-arg["look"] :]
    push(st, "from_discard", player=p, choices=list(choices), left=arg["take"])


def v_encounter_to_hand(st: State, p: int, cid: str, e: dict[str, Any], path: list[Any]) -> None:
    """Take a face-up encounter card into hand (its slot is refilled)."""
    for _ in range(e["encounter_to_hand"]):
        push(st, "take_encounter", player=p)


def v_first_player(st: State, p: int, cid: str, e: dict[str, Any], path: list[Any]) -> None:
    """Take the first-player token."""
    st.data["first_player"] = p


def v_tent_from_box(st: State, p: int, cid: str, e: dict[str, Any], path: list[Any]) -> None:
    """A tent token from the box goes face down on an empty campsite of the player's choice."""
    push(st, "gift_tent", player=p)


def v_move_flag(st: State, p: int, cid: str, e: dict[str, Any], path: list[Any]) -> None:
    """Move one of the player's placed flags to a next deeper finishing space (Explorer)."""
    push(st, "flag", player=p, mode="move")


def v_place_flag(st: State, p: int, cid: str, e: dict[str, Any], path: list[Any]) -> None:
    """Place a flag on the nearest finishing space of an area not yet finished (Scout)."""
    push(st, "flag", player=p, mode="place")


def v_reveal_tops(st: State, p: int, cid: str, e: dict[str, Any], path: list[Any]) -> None:
    """Reveal the top card of each expedition deck to everyone (Pathfinder)."""
    everyone = list(range(st.data["player_count"]))
    for area in st.game.board.areas:
        deck = st.data["decks"][f"exp:{area}"]
        if deck["top"] is not None:
            deck["top"]["viewers"] = list(everyone)
            note(st, PUBLIC, f"top:{area}:{deck['top']['card']}")
        elif any(deck["layers"]):
            draw(st, p, f"exp:{area}", "top", viewers=list(everyone))


def v_peek(st: State, p: int, cid: str, e: dict[str, Any], path: list[Any]) -> None:
    """Look at the top card of this expedition deck (Crocodile's Nest)."""
    area = st.game.pack.card(cid).get("area") or st.game.board.area_of.get(player(st, p)["space"])
    if area is None:
        return
    deck = st.data["decks"][f"exp:{area}"]
    if deck["top"] is not None:
        if p not in deck["top"]["viewers"]:
            deck["top"]["viewers"] = sorted([*deck["top"]["viewers"], p])
            note(st, str(p), f"top:{area}:{deck['top']['card']}", f"top:{area}:?")
    elif any(deck["layers"]):
        draw(st, p, f"exp:{area}", "top", viewers=[p])


def v_roll(st: State, p: int, cid: str, e: dict[str, Any], path: list[Any]) -> None:
    """Roll the die: strength at least ``need`` (or the winning face) runs ``success``, else
    ``fail``; one paid re-roll."""
    push(st, "roll", player=p, card=cid, path=[*path, "roll"])


def v_swindle(st: State, p: int, cid: str, e: dict[str, Any], path: list[Any]) -> None:
    """Discard up to ``discard_up_to`` cards face down; a roll under their total fame runs
    ``success``."""
    push(st, "swindle", player=p, card=cid, path=[*path, "swindle"])


def v_others_may(st: State, p: int, cid: str, e: dict[str, Any], path: list[Any]) -> None:
    """Each other adventurer, from the player's left, may pay ``cost`` for ``effect``; the
    player gets ``you`` per taker."""
    offers = [
        ("offer", {"player": q, "owner": p, "card": cid, "path": [*path, "others_may"]})
        for q in order_from(st, p, include_self=False)
    ]
    _push_in_order(st, offers)


def v_then(st: State, p: int, cid: str, e: dict[str, Any], path: list[Any]) -> None:
    """Where the card goes once resolved: the story, face down, or its discard."""
    frame = _resolving(st, cid)
    if frame is not None:
        frame["destination"] = e["then"]


def v_leave(st: State, p: int, cid: str, e: dict[str, Any], path: list[Any]) -> None:
    """Leave the expedition once the card is placed (back to the exit space, no flag; the area's
    discards, this card among them, are shuffled back)."""
    frame = _resolving(st, cid)
    if frame is not None:
        frame["leave"] = True


def v_draw_to_story(st: State, p: int, cid: str, e: dict[str, Any], path: list[Any]) -> None:
    """The top deed card goes to the story face up, unresolved (Lookout)."""
    for _ in range(e["draw_to_story"]):
        draw(st, p, "deeds", "story")


def v_swap_strong_paw(st: State, p: int, cid: str, e: dict[str, Any], path: list[Any]) -> None:
    """The strong paw on the board comes back; a plain paw from the character board takes its
    place (nothing if the strong paw is not on the board or no plain paw is left)."""
    me = player(st, p)
    if me["strong_paw"] or me["paws"] == 0:
        return
    for entry in me["paws_placed"]:
        if entry[1]:
            entry[1] = False
            me["strong_paw"] = True
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
"""The interpreter of every verb of the effect language: ``verb(st, player, card, effect,
path)``, where ``path`` locates ``effect`` in the card."""


# -- decisions only card effects ask for ---------------------------------------------------------
@step("choose")
class Choose(Step):
    """Decision: one option of a card's ``choose`` whose conditions and cost the player meets
    (its cost is paid, then its effects run; its ``morality`` is the card's side)."""

    fields: ClassVar[Fields] = {
        "player": (REQUIRED, "who chooses"),
        **card_text_fields("the option list"),
    }

    @staticmethod
    def legal(st: State, f: Frame) -> list[int]:
        options = card_text(st, f)
        return [st.layout.OPTION + i for i, o in enumerate(options) if open_to(st, f["player"], o)]

    @staticmethod
    def apply(st: State, f: Frame, a: int) -> None:
        pop(st, f)
        i = a - st.layout.OPTION
        p = f["player"]
        option = card_text(st, f)[i]
        if "morality" in option:
            frame = _resolving(st, f["card"])
            if frame is not None:
                frame["moral_side"] = option["morality"]
        run_effects(st, p, f["card"], [*f["path"], i, "effect"])
        pay_cost(st, p, option.get("cost", []))

    @staticmethod
    def describe(st: State, f: Frame, a: int) -> str:
        option = card_text(st, f)[a - st.layout.OPTION]
        side = f" ({option['morality']})" if "morality" in option else ""
        return f"choose: {option['label']}{side}"


@step("offer")
class Offer(YesNo):
    """Decision of another adventurer: pay for a card's ``others_may`` effect (``yes``: its
    ``effect`` for them, its ``you`` for the card's owner) or not."""

    fields: ClassVar[Fields] = {
        "player": (REQUIRED, "the adventurer offered the effect"),
        "owner": (REQUIRED, "who played the card"),
        **card_text_fields("the others_may argument"),
    }

    @staticmethod
    def describe(st: State, f: Frame, a: int) -> str:
        name = st.game.pack.card(f["card"])["name"]
        verb = "accept" if a == st.layout.YES else "decline"
        return f"{verb} the offer of {name} (player {f['owner']}'s card)"

    @staticmethod
    def yes_open(st: State, f: Frame) -> bool:
        return can_pay_cost(st, f["player"], card_text(st, f)["cost"])

    @staticmethod
    def answer(st: State, f: Frame, yes: bool) -> None:
        if not yes:
            return
        arg = card_text(st, f)
        run_effects(st, f["owner"], f["card"], [*f["path"], "you"])
        run_effects(st, f["player"], f["card"], [*f["path"], "effect"])
        pay_cost(st, f["player"], arg["cost"])


@step("collapse")
class Collapse(core.ChooseSpace):
    """Decision: the tunnel to collapse (a token face down on a printed tunnel, or a dug token
    flipped)."""

    fields: ClassVar[Fields] = {"player": (REQUIRED, "who collapses it")}
    words = "collapse the tunnel at {}"

    @staticmethod
    def spaces(st: State, f: Frame) -> list[str]:
        return [
            s
            for s in sorted(open_tunnels(st))
            if s in st.data["tunnels"] or st.data["tunnel_tokens"] > 0
        ]

    @staticmethod
    def place(st: State, f: Frame, space: str) -> None:
        if space not in st.data["tunnels"]:
            st.data["tunnel_tokens"] -= 1
        st.data["tunnels"][space] = "collapsed"


@step("flip_choice")
class FlipChoice(YesNo):
    """Decision (Demolition Builder): ruin (``done``) or restore (``yes``) the location here."""

    fields: ClassVar[Fields] = {"player": (REQUIRED, "who turns the tile")}

    @staticmethod
    def describe(st: State, f: Frame, a: int) -> str:
        verb = "restore" if a == st.layout.YES else "ruin"
        return f"{verb} the location here"

    @staticmethod
    def answer(st: State, f: Frame, yes: bool) -> None:
        push(st, "turn_tile", player=f["player"], verb="restore" if yes else "ruin")
