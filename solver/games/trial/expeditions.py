"""Expeditions: drawing and resolving expedition cards, advancing, paid paths and line types,
finishing with a flag, leaving, exhausted decks; the flag-moving cards (Explorer, Scout).

On an expedition space the only action is a paw in that area's section (``embark``): the top
card of its deck is drawn (a strong paw, and the compass, each let the player discard it and
draw again) and resolved; a card the player cannot pay for does what its ``unpaid`` effects say
(then it is discarded unless they say otherwise; without ``unpaid``, it is just discarded and the
player stays). Advancing follows the area's directed paths (never backward): Frosty Hill paths
may have a price, Dark Caverns cards name the line type. Reaching a finishing space the player
may finish there (flag placed, piece on the exit space, turn over) or stay to go deeper later.
"""

from __future__ import annotations

from collections import deque
from typing import TYPE_CHECKING, Any, ClassVar

from solver.games.trial import core
from solver.games.trial.belongings import gain_food
from solver.games.trial.conditions import playable
from solver.games.trial.core import REQUIRED, Fields, Frame, Step, find, player, pop, push, step
from solver.games.trial.decks import deck_size, discard_card, draw
from solver.games.trial.payments import can_pay, food_units, pay

if TYPE_CHECKING:
    from solver.games.trial.core import State


@step("embark")
class Embark(Step):
    """Automatic: the expedition action (the paw is already placed): draw and resolve the area's
    top card, or, with its deck empty, an ``exhausted`` choice."""

    auto = True
    fields: ClassVar[Fields] = {
        "player": (REQUIRED, "who is on the expedition"),
        "area": (REQUIRED, "the area"),
        "strong_paw": (False, "the paw placed is the strong paw (one redraw)"),
    }

    @staticmethod
    def run(st: State, f: Frame) -> None:
        pop(st, f)
        p, area = f["player"], f["area"]
        if deck_size(st, f"exp:{area}") == 0:
            push(st, "exhausted", player=p)
            return
        redraws = int(f["strong_paw"]) + int("compass" in player(st, p)["backpack"])
        push(st, "expedition", player=p, area=area, redraws=redraws)


def reshuffle(st: State, area: str) -> None:
    """Every discarded card of ``area`` goes back into its deck, shuffled (one unordered layer)."""
    deck = st.data["decks"][f"exp:{area}"]
    cards = [c for layer in deck["layers"] for c in layer] + deck["discard"]
    if deck["top"] is not None:
        cards.append(deck["top"]["card"])
    deck["layers"] = [cards] if cards else []
    deck["discard"] = []
    deck["top"] = None


def leave_area(st: State, p: int, area: str) -> None:
    """``p`` leaves expedition ``area`` (finished or given up): back on its exit space, and the
    area's discards shuffled back (:func:`reshuffle`)."""
    player(st, p)["space"] = st.game.board.area_exit[area]
    reshuffle(st, area)


@step("leave_expedition")
class LeaveExpedition(Step):
    """Automatic: give up the expedition (at the start of a turn, or thrown out by a card): back
    to the exit space, no flag; the area's discards are shuffled back."""

    auto = True
    fields: ClassVar[Fields] = {"player": (REQUIRED, "who leaves")}

    @staticmethod
    def run(st: State, f: Frame) -> None:
        pop(st, f)
        area = st.game.board.area_of.get(player(st, f["player"])["space"])
        if area is not None:
            leave_area(st, f["player"], area)


def finish(st: State, p: int, space: str, resource: bool = True) -> None:
    """Place ``p``'s flag on ``space``, back to the exit space; the turn ends."""
    board = st.game.board
    area = board.area_of[space]
    player(st, p)["flags"][area] = space
    if resource and space in board.finish_resource:
        gain_food(st, p, board.finish_resource[space])
    leave_area(st, p, area)
    st.data["stack"] = [
        f for f in st.data["stack"] if not (f["step"] == "advance" and f["player"] == p)
    ]
    turn = find(st, "turn")
    if turn is not None and turn["player"] == p:
        turn["ended"] = turn["paw_used"]  # a finish during a move (Cartographer): the paw is due


@step("expedition")
class Expedition(Step):
    """Automatic: draw the area's top card (into ``drawn``), offer the redraws, then resolve it,
    or, when its cost cannot be paid, do what its ``unpaid`` list says (then discard it)."""

    auto = True
    fields: ClassVar[Fields] = {
        "player": (REQUIRED, "who is on the expedition"),
        "area": (REQUIRED, "the area"),
        "redraws": (0, "redraws left (the strong paw, the compass)"),
        "drawn": (None, "the card drawn (held by this step until resolved)"),
        "asked": (False, "the redraw was offered for this card"),
    }

    @staticmethod
    def run(st: State, f: Frame) -> None:
        deck = f"exp:{f['area']}"
        p = f["player"]
        if f["drawn"] is None:
            if deck_size(st, deck) == 0:
                pop(st, f)
                return
            draw(st, p, deck, "parent")
            return
        if f["redraws"] > 0 and not f["asked"] and deck_size(st, deck) > 0:
            f["asked"] = True
            push(st, "redraw", player=p)
            return
        pop(st, f)
        cid = f["drawn"]
        if playable(st, p, cid):
            push(st, "resolve", player=p, card=cid, source="expedition", owner=p, holding=[cid])
        else:
            push(st, "resolve", player=p, card=cid, source="expedition", owner=p, holding=[cid],
                 stage="effects", effects="unpaid", destination="discard")  # fmt: skip


@step("redraw")
class Redraw(core.YesNo):
    """Decision: discard the drawn expedition card and draw another (``yes``) or keep it."""

    fields: ClassVar[Fields] = {"player": (REQUIRED, "who drew")}

    @staticmethod
    def answer(st: State, f: Frame, yes: bool) -> None:
        if yes:
            exp = core.enclosing(st, "expedition")
            discard_card(st, exp["drawn"])
            exp["drawn"] = None
            exp["redraws"] -= 1
            exp["asked"] = False

    @staticmethod
    def describe(st: State, f: Frame, a: int) -> str:
        exp = find(st, "expedition")
        name = st.game.pack.card(exp["drawn"])["name"] if exp else "?"
        return f"discard {name} and draw again" if a == st.layout.YES else f"resolve {name}"


@step("exhausted")
class Exhausted(core.YesNo):
    """Decision (empty expedition deck): pay any 2 food to advance (``yes``), or not."""

    fields: ClassVar[Fields] = {"player": (REQUIRED, "who is on the expedition")}

    @staticmethod
    def describe(st: State, f: Frame, a: int) -> str:
        return "pay 2 food to advance" if a == st.layout.YES else "do not advance"

    @staticmethod
    def yes_open(st: State, f: Frame) -> bool:
        return can_pay(st, f["player"], food_units("food", "food"))

    @staticmethod
    def answer(st: State, f: Frame, yes: bool) -> None:
        if yes:
            push(st, "advance", player=f["player"], line="any")
            pay(st, f["player"], food_units("food", "food"))


def path_price(path: dict[str, Any]) -> list[dict[str, Any]]:
    """The units a paid expedition path costs (``pay``: food kind -> count)."""
    return food_units(*(key for key, n in path.get("pay", {}).items() for _ in range(int(n))))


@step("advance")
class Advance(core.UntilDone):
    """Decision: the next expedition space along the allowed lines (paid paths if affordable);
    ``done`` only for the optional steps of a multi-step advance. Passed over off an
    expedition or where no path leads on."""

    fields: ClassVar[Fields] = {
        "player": (REQUIRED, "who advances"),
        "line": ("any", "any, or the Dark Caverns' dotted or dashed line"),
        "steps": (1, "spaces left to advance"),
        "optional": (False, "the player may stop (after the first step)"),
    }

    @staticmethod
    def legal(st: State, f: Frame) -> list[int]:
        p = f["player"]
        pos = player(st, p)["space"]
        acts = [st.layout.DONE] if f["optional"] else []
        for path in st.game.board.successors(pos, f["line"]):
            if can_pay(st, p, path_price(path)):
                acts.append(st.layout.space(path["to"]))
        return acts if acts != [st.layout.DONE] else []

    @staticmethod
    def take(st: State, f: Frame, a: int) -> None:
        p = f["player"]
        me = player(st, p)
        target = st.layout.spaces[a - st.layout.SPACE]
        path = next(
            x for x in st.game.board.successors(me["space"], f["line"]) if x["to"] == target
        )
        me["space"] = target
        f["steps"] -= 1
        f["optional"] = True
        if f["steps"] <= 0:
            pop(st, f)
        if target in st.game.board.finish:
            push(st, "finish", player=p)
        pay(st, p, path_price(path))

    @staticmethod
    def describe(st: State, f: Frame, a: int) -> str:
        return "stop advancing" if a == st.layout.DONE else f"advance to {st.layout.label(a)}"


@step("finish")
class Finish(Step):
    """Decision on a finishing space: finish the expedition here (``yes``) or stay to go deeper
    (``done``; impossible where no path leads on)."""

    fields: ClassVar[Fields] = {"player": (REQUIRED, "who reached the space")}

    @staticmethod
    def legal(st: State, f: Frame) -> list[int]:
        pos = player(st, f["player"])["space"]
        if pos not in st.game.board.finish:
            return []
        return [st.layout.YES] + ([st.layout.DONE] if st.game.board.paths.get(pos) else [])

    @staticmethod
    def apply(st: State, f: Frame, a: int) -> None:
        pop(st, f)
        if a == st.layout.YES:
            finish(st, f["player"], player(st, f["player"])["space"])

    @staticmethod
    def describe(st: State, f: Frame, a: int) -> str:
        pos = player(st, f["player"])["space"]
        if a == st.layout.YES:
            return f"finish on {pos} ({st.game.board.finish.get(pos)} fame)"
        return "go on"


def next_finishes(st: State, space: str) -> list[str]:
    """The finishing spaces after ``space`` reached without passing another finishing space."""
    found: set[str] = set()
    queue = deque(p["to"] for p in st.game.board.paths.get(space, []))
    seen: set[str] = set()
    while queue:
        s = queue.popleft()
        if s in seen:
            continue
        seen.add(s)
        if s in st.game.board.finish:
            found.add(s)
        else:
            queue.extend(p["to"] for p in st.game.board.paths.get(s, []))
    return sorted(found)


@step("flag")
class Flag(core.ChooseSpace):
    """Decision: Explorer (``move``) moves one placed flag to a next deeper finishing space;
    Scout (``place``) places a flag on the nearest finishing space of an area not yet finished
    (not the one the player is in)."""

    fields: ClassVar[Fields] = {
        "player": (REQUIRED, "whose flag"),
        "mode": (REQUIRED, "move or place"),
    }

    @staticmethod
    def spaces(st: State, f: Frame) -> list[str]:
        me = player(st, f["player"])
        board = st.game.board
        if f["mode"] == "move":
            flags = [space for space in me["flags"].values() if space is not None]
            return [s for space in flags for s in next_finishes(st, space)]
        here = board.area_of.get(me["space"])
        return [
            board.nearest_finish(area)
            for area in board.areas
            if me["flags"][area] is None and area != here
        ]

    @staticmethod
    def place(st: State, f: Frame, space: str) -> None:
        area = st.game.board.area_of[space]
        player(st, f["player"])["flags"][area] = space

    @staticmethod
    def describe(st: State, f: Frame, a: int) -> str:
        """The space by the action's state-free label (of any action id, as it always was)."""
        return f"flag to {st.layout.label(a)}"
