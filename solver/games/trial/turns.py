"""Turns and days: play a deed, move, place a paw (or camp), the hand limit, the turn order.

A turn is a ``turn`` step of one player: in any order, at most one deed card from hand, at most one
move, and exactly one paw token (or, with none left, the camping action); then ``end turn``.
Cards gained during the turn lie aside and join the hand at its end; then the hand is cut to the
limit. Players take turns from the first player, skipping those who have camped today; when all
have camped a new day begins; when nobody has a paw or a tent left the game is over.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, ClassVar

from solver.games.trial import core
from solver.games.trial.actions import PAW_TARGETS
from solver.games.trial.belongings import (
    drop,
    drop_actions,
    has_skill,
    is_artifact,
    move_budget,
    on_expedition,
    open_tunnels,
    own_token_on,
    remove_from_pack,
)
from solver.games.trial.core import REQUIRED, Fields, Frame, Step, YesNo, player, pop, push, step
from solver.games.trial.decks import (
    CardOrFood,
    card_name,
    discard_from_hand,
    draw,
    hand_actions,
)
from solver.games.trial.discards import discard_actions, discard_for_symbols

if TYPE_CHECKING:
    from solver.games.trial.core import State

ENCOUNTER_TARGETS = (1, 2, 3)
HELP, EXPEDITION = PAW_TARGETS.index("help"), PAW_TARGETS.index("expedition")


def active(st: State, p: int) -> bool:
    """Whether ``p`` still has a turn today: not camped, and a paw or a tent left."""
    me = player(st, p)
    return not me["camped"] and (me["paws"] > 0 or me["strong_paw"] or bool(me["tents"]))


def next_turn(st: State) -> None:
    """Start the next player's turn, a new day, or end the game (the stack is empty)."""
    d = st.data
    n = d["player_count"]
    order = (
        [(d["first_player"] + i) % n for i in range(n)]
        if d["turn_player"] is None
        else [(d["turn_player"] + i) % n for i in range(1, n + 1)]
    )
    for p in order:
        if active(st, p):
            d["turn_player"] = p
            push(st, "turn", player=p)
            return
    if not any(me["paws"] or me["strong_paw"] or me["tents"] for me in d["players"]):
        d["game_over"] = True
        d["turn_player"] = None
        return
    d["day"] += 1
    d["turn_player"] = None
    for me in d["players"]:
        me["camped"] = False
    push(st, "new_day", player=d["first_player"])


def paw_targets(st: State, p: int) -> list[int]:
    """The paw targets open to ``p`` now (indices into ``PAW_TARGETS``)."""
    me = player(st, p)
    if on_expedition(st, p):
        return [EXPEDITION]
    targets = [HELP]
    pos = me["space"]
    if pos in st.game.board.slot and not own_token_on(st, p, pos):
        targets.append(0)
    for t in ENCOUNTER_TARGETS:
        cid = st.data["encounter_row"][t - 1]
        if cid is not None and st.game.playable(st, p, cid):
            targets.append(t)
    return targets


def use_paw(st: State, p: int, target: int, strong: bool) -> None:
    """Take the paw token off the board and start its action."""
    me = player(st, p)
    if strong:
        me["strong_paw"] = False
    else:
        me["paws"] -= 1
    pos = me["space"]
    if target == 0:
        me["paws_placed"].append([f"loc:{pos}", strong])
        push(st, "use_location", player=p, slot=pos, strong_paw=strong)
    elif target in ENCOUNTER_TARGETS:
        me["paws_placed"].append(["enc", strong])
        slot = target - 1
        cid = st.data["encounter_row"][slot]
        st.data["encounter_row"][slot] = None
        draw(st, p, "encounters", f"row:{slot}")
        push(st, "resolve", player=p, card=cid, source="encounter", owner=p, holding=[cid])
    elif target == HELP:
        me["paws_placed"].append(["help", strong])
        push(st, "help", player=p)
    else:
        area = st.game.board.area_of[pos]
        me["paws_placed"].append([f"exp:{area}", strong])
        push(st, "embark", player=p, area=area, strong_paw=strong)


@step("turn")
class Turn(Step):
    """Decision: the main step of a turn: in any order, a deed card from hand, a move, and the
    paw token (or the camping action); objects may be dropped; then ``end turn``. On an
    expedition only the paw (and, first thing, leaving the expedition)."""

    fields: ClassVar[Fields] = {
        "player": (REQUIRED, "whose turn"),
        "deed_played": (False, "a deed card was played this turn"),
        "moved": (False, "the move was made"),
        "paw_used": (False, "the paw token was placed (or the player camped)"),
        "at_start": (True, "nothing done yet (leaving an expedition is still allowed)"),
        "ended": (False, "only ending the turn is left (camped, or finished an expedition)"),
    }

    @staticmethod
    def legal(st: State, f: Frame) -> list[int]:
        L, p = st.layout, f["player"]
        me = player(st, p)
        if f["ended"] and f["paw_used"]:
            return [L.END_TURN]
        acts: list[int] = []
        if f["paw_used"]:
            acts.append(L.END_TURN)
        away = on_expedition(st, p)
        if f["at_start"] and away:
            acts.append(L.LEAVE)
        if not f["deed_played"] and not away:
            acts += [L.card(c) for c in me["hand"] if st.game.playable(st, p, c)]
        if not f["moved"] and not away:
            acts.append(L.MOVE)
        if not f["paw_used"]:
            acts += _paw_or_camp(st, p, me)
        if "elixir" in me["backpack"] and me["hand"]:
            acts.append(L.ELIXIR)
        acts += drop_actions(st, p)  # objects may be dropped at any time
        return acts

    @staticmethod
    def apply(st: State, f: Frame, a: int) -> None:
        L, p = st.layout, f["player"]
        me = player(st, p)
        family, index = L.family(a)
        if a == L.END_TURN:
            pop(st, f)
            push(st, "end_turn", player=p)
            return
        f["at_start"] = False
        if a == L.LEAVE:
            push(st, "leave_expedition", player=p)
        elif a == L.MOVE:
            f["moved"] = True
            push(st, "move", player=p, base=move_budget(st, p))
        elif a == L.CAMP:
            f["paw_used"] = True
            f["ended"] = True
            push(st, "camp", player=p)
        elif a == L.ELIXIR:
            remove_from_pack(st, p, "elixir")
            st.data["box"]["artifacts"].append("elixir")
            push(st, "pick_card", player=p, purpose="story_faceup")
        elif family == "card":
            f["deed_played"] = True
            cid = L.cards[index]
            me["hand"].remove(cid)
            push(st, "resolve", player=p, card=cid, source="deed", owner=p, holding=[cid])
        elif family == "paw":
            f["paw_used"] = True
            use_paw(st, p, index // 2, bool(index % 2))
        elif family == "drop":
            drop(st, p, L.item_kinds[index])

    @staticmethod
    def describe(st: State, f: Frame, a: int) -> str | None:
        family, index = st.layout.family(a)
        if family == "card":
            return f"play {card_name(st, a)}"
        if family == "drop":
            kind = st.layout.item_kinds[index]
            return f"drop {kind}" + (" (to the box)" if is_artifact(st, kind) else "")
        if family == "paw":
            target = PAW_TARGETS[index // 2]
            strong = "strong " if index % 2 else ""
            return f"place a {strong}paw on {PAW_WORDS.get(target, target)}"
        return TURN_WORDS.get(st.layout.label(a))


def _paw_or_camp(st: State, p: int, me: dict[str, Any]) -> list[int]:
    """The paw actions open to ``p`` (``me``): each target with the paw and with the strong
    paw, as far as they are left; with neither left, camping (with a tent to pitch)."""
    L = st.layout
    acts: list[int] = []
    if me["paws"] or me["strong_paw"]:
        for t in paw_targets(st, p):
            if me["paws"]:
                acts.append(L.paw(t, False))
            if me["strong_paw"]:
                acts.append(L.paw(t, True))
    elif me["tents"]:
        acts.append(L.CAMP)
    return acts


TURN_WORDS = {"move": "move", "camp": "camp", "end turn": "end turn",
              "leave expedition": "leave the expedition", "elixir": "use the elixir"}  # fmt: skip
"""A turn's named actions as a player says them (before: ``turn: end turn``)."""

PAW_WORDS = {"location": "the location", "expedition": "the expedition"}
"""Where a paw goes, as a player says it (the rest as named: ``encounter 1``, ``help``)."""


@step("move")
class Move(core.UntilDone):
    """Decision: discard up to 2 cards with movement enhancements (or use a one-time movement
    tent symbol), then the destination; ``done`` ends the move where the piece stands. The
    Cartographer arriving on an expedition's start space advances one space at once."""

    fields: ClassVar[Fields] = {
        "player": (REQUIRED, "who moves"),
        "base": (REQUIRED, "movement symbols (board, uncovered slots, story, wings)"),
        "extra": (0, "movement from discarded cards and the tent symbol"),
        "cards": (0, "cards discarded so far"),
    }

    @staticmethod
    def legal(st: State, f: Frame) -> list[int]:
        L, p = st.layout, f["player"]
        me = player(st, p)
        acts = discard_actions(st, f, lambda c: "move" in st.game.pack.card(c)["enhance"], "move")
        budget = f["base"] + f["extra"]
        for space in st.game.board.reachable(me["space"], budget, open_tunnels(st)):
            area = st.game.board.area_of.get(space)
            if area is None or me["flags"][area] is None:
                acts.append(L.space(space))
        return acts

    @staticmethod
    def take(st: State, f: Frame, a: int) -> None:
        L, p = st.layout, f["player"]
        family, index = L.family(a)
        if a == L.TOKEN or family == "card":
            cid = discard_for_symbols(st, f, a, "move")
            f["extra"] += 1 if cid is None else st.game.pack.card(cid)["enhance"]["move"]
        else:
            pop(st, f)
            space = L.spaces[index]
            player(st, p)["space"] = space
            if space in st.game.board.area_of and has_skill(st, p, "cartographer"):
                push(st, "advance", player=p, line="any")

    @staticmethod
    def describe(st: State, f: Frame, a: int) -> str | None:
        family, index = st.layout.family(a)
        if family == "space":
            return f"move to {st.layout.spaces[index]}"
        if family == "card":
            return f"discard {card_name(st, a)} for movement"
        if a == st.layout.TOKEN:
            return "use the one-time movement tent symbol"
        if a == st.layout.DONE:
            return "stay"
        return None


@step("help")
class Help(CardOrFood):
    """Decision: helping the residents gives a deed card or a raspberry, mushroom or acorn."""

    fields: ClassVar[Fields] = {"player": (REQUIRED, "who helps")}
    labels = ("help: draw a deed card", "help: gain {}")


@step("end_turn")
class EndTurn(Step):
    """Automatic: the cards gained this turn join the hand; then the hand limit."""

    auto = True
    fields: ClassVar[Fields] = {"player": (REQUIRED, "whose turn ends")}

    @staticmethod
    def run(st: State, f: Frame) -> None:
        pop(st, f)
        me = player(st, f["player"])
        me["hand"] += me["aside"]
        me["aside"] = []
        if len(me["hand"]) > st.game.components["hand_limit"]:
            push(st, "hand_limit", player=f["player"])


@step("hand_limit")
class HandLimit(Step):
    """Decision: discard a card, until the hand is down to the limit."""

    fields: ClassVar[Fields] = {"player": (REQUIRED, "whose hand")}

    @staticmethod
    def legal(st: State, f: Frame) -> list[int]:
        me = player(st, f["player"])
        if len(me["hand"]) <= st.game.components["hand_limit"]:
            return []
        return hand_actions(st, f["player"])

    @staticmethod
    def apply(st: State, f: Frame, a: int) -> None:
        discard_from_hand(st, f["player"], a)
        if len(player(st, f["player"])["hand"]) <= st.game.components["hand_limit"]:
            pop(st, f)

    @staticmethod
    def describe(st: State, f: Frame, a: int) -> str:
        return f"discard {card_name(st, a)} (hand limit)"


@step("new_day")
class NewDay(YesNo):
    """Decision of the first player: refresh the encounter row (``yes``) or keep it."""

    fields: ClassVar[Fields] = {"player": (REQUIRED, "the first player")}

    @staticmethod
    def answer(st: State, f: Frame, yes: bool) -> None:
        if not yes:
            return
        row = st.data["encounter_row"]
        old = [c for c in row if c is not None]
        if old:
            st.data["decks"]["encounters"]["layers"].append(old)
        for i in range(len(row)):
            row[i] = None
        for i in reversed(range(len(row))):
            draw(st, f["player"], "encounters", f"row:{i}")

    @staticmethod
    def describe(st: State, f: Frame, a: int) -> str:
        return (
            "new day: refresh the encounter cards" if a == st.layout.YES else "new day: keep them"
        )


__all__ = ["next_turn", "paw_targets", "use_paw"]
