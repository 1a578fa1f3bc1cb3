"""Expeditions: drawing and resolving expedition cards, advancing, paid paths and line types,
finishing with a flag, leaving, exhausted decks; the flag-moving cards (Explorer, Scout).

On an expedition space the only action is a paw in that area's section: the top card of its deck
is drawn (a strong paw, and the compass, each let the player discard it and draw again) and
resolved; a card the player cannot pay for does what its ``unpaid`` effects say (then it is
discarded unless they say otherwise; without ``unpaid``, it is just discarded and the player
stays). Advancing follows
the area's directed paths (never backward): Frosty Hill paths may have a price, Dark Caverns cards
name the line type. Reaching a finishing space the player may finish there (flag placed, piece on
the exit space, turn over) or stay to go deeper later.
"""

from __future__ import annotations

from collections import deque
from typing import TYPE_CHECKING

from solver.games.trial.core import (
    Frame,
    deck_size,
    discard_card,
    draw,
    find,
    gain_food,
    player,
    pop,
    push,
    step,
)

if TYPE_CHECKING:
    from solver.games.trial.rules import TrialState


def embark(st: TrialState, p: int, area: str, strong: bool) -> None:
    """The expedition action of ``p`` in ``area`` (the paw is already placed)."""
    if deck_size(st, f"exp:{area}") == 0:
        push(st, "exhausted", p=p)
        return
    redraws = int(strong) + int("compass" in player(st, p)["pack"])
    push(st, "expedition", p=p, area=area, redraws=redraws, drawn=None, asked=False)


def reshuffle(st: TrialState, area: str) -> None:
    """Every discarded card of ``area`` goes back into its deck, shuffled (one unordered layer)."""
    deck = st.d["decks"][f"exp:{area}"]
    cards = [c for layer in deck["layers"] for c in layer] + deck["discard"]
    if deck["top"] is not None:
        cards.append(deck["top"]["card"])
    deck["layers"] = [cards] if cards else []
    deck["discard"] = []
    deck["top"] = None


def leave(st: TrialState, p: int) -> None:
    """Give up the expedition at the start of a turn: back to the exit space, no flag."""
    me = player(st, p)
    area = st.g.board.area_of[me["pos"]]
    me["pos"] = st.g.board.area_exit[area]
    reshuffle(st, area)


def finish(st: TrialState, p: int, space: str, resource: bool = True) -> None:
    """Place ``p``'s flag on ``space``, back to the exit space; the turn ends."""
    board = st.g.board
    area = board.area_of[space]
    me = player(st, p)
    me["flags"][area] = space
    if resource and space in board.finish_resource:
        gain_food(st, p, board.finish_resource[space])
    me["pos"] = board.area_exit[area]
    reshuffle(st, area)
    st.d["stack"] = [f for f in st.d["stack"] if not (f["k"] == "advance" and f["p"] == p)]
    turn = find(st, "turn")
    if turn is not None and turn["p"] == p:
        turn["end"] = turn["acted"]  # a finish during a move (Cartographer) leaves the paw to do


def push_advance(st: TrialState, p: int, line: str, steps: int = 1) -> None:
    """Push an advance of ``steps`` spaces along ``line`` (not off an expedition; not ``none``)."""
    if line == "none" or not st.g.board.on_expedition(player(st, p)["pos"]):
        return
    push(st, "advance", p=p, line=line, steps=steps, optional=False)


@step("expedition")
class Expedition:
    """Automatic: draw the area's top card, offer redraws, then resolve (or discard) it."""

    auto = True

    @staticmethod
    def run(st: TrialState, f: Frame) -> None:
        from solver.games.trial.effects import playable, resolve, resolve_unpaid

        deck = f"exp:{f['area']}"
        if f["drawn"] is None:
            if deck_size(st, deck) == 0:
                pop(st, f)
                return
            draw(st, f["p"], deck, "parent")
            return
        if f["redraws"] > 0 and not f["asked"] and deck_size(st, deck) > 0:
            f["asked"] = True
            push(st, "redraw", p=f["p"])
            return
        pop(st, f)
        cid = f["drawn"]
        if playable(st, f["p"], cid):
            resolve(st, f["p"], cid, "expedition")
        else:
            resolve_unpaid(st, f["p"], cid)


@step("redraw")
class Redraw:
    """Decision: discard the drawn expedition card and draw another (``yes``) or keep it."""

    @staticmethod
    def legal(st: TrialState, f: Frame) -> list[int]:
        return [st.L.DONE, st.L.YES]

    @staticmethod
    def apply(st: TrialState, f: Frame, a: int) -> None:
        pop(st, f)
        exp = find(st, "expedition")
        assert exp is not None
        if a == st.L.YES:
            discard_card(st, exp["drawn"])
            exp["drawn"] = None
            exp["redraws"] -= 1
            exp["asked"] = False

    @staticmethod
    def describe(st: TrialState, f: Frame, a: int) -> str:
        exp = find(st, "expedition")
        name = st.g.pack.card(exp["drawn"])["name"] if exp else "?"
        return f"discard {name} and draw again" if a == st.L.YES else f"resolve {name}"


@step("exhausted")
class Exhausted:
    """Decision (empty expedition deck): pay any 2 food to advance (``yes``), or not."""

    @staticmethod
    def legal(st: TrialState, f: Frame) -> list[int]:
        from solver.games.trial.effects import can_pay

        units = [{"alts": ["food"], "to": "tray"}] * 2
        return [st.L.DONE] + ([st.L.YES] if can_pay(st, f["p"], units) else [])

    @staticmethod
    def apply(st: TrialState, f: Frame, a: int) -> None:
        from solver.games.trial.effects import pay

        pop(st, f)
        if a == st.L.YES:
            push_advance(st, f["p"], "any")
            pay(st, f["p"], [{"alts": ["food"], "to": "tray"}] * 2)


def _path_units(path: dict[str, object]) -> list[dict[str, object]]:
    units: list[dict[str, object]] = []
    for key, n in dict(path.get("pay", {})).items():  # type: ignore[call-overload]
        units += [{"alts": [key], "to": "tray"}] * int(n)
    return units


@step("advance")
class Advance:
    """Decision: the next expedition space along the allowed lines (paid paths if affordable);
    ``done`` only for the optional steps of a multi-step advance."""

    @staticmethod
    def legal(st: TrialState, f: Frame) -> list[int]:
        from solver.games.trial.effects import can_pay

        p = f["p"]
        pos = player(st, p)["pos"]
        acts = [st.L.DONE] if f["optional"] else []
        for path in st.g.board.successors(pos, f["line"]):
            if can_pay(st, p, _path_units(path)):
                acts.append(st.L.space(path["to"]))
        return acts if acts != [st.L.DONE] else []

    @staticmethod
    def apply(st: TrialState, f: Frame, a: int) -> None:
        from solver.games.trial.effects import pay

        if a == st.L.DONE:
            pop(st, f)
            return
        p = f["p"]
        me = player(st, p)
        target = st.L.spaces[a - st.L.SPACE]
        path = next(x for x in st.g.board.successors(me["pos"], f["line"]) if x["to"] == target)
        me["pos"] = target
        f["steps"] -= 1
        f["optional"] = True
        if f["steps"] <= 0:
            pop(st, f)
        if target in st.g.board.finish:
            push(st, "finish", p=p)
        pay(st, p, _path_units(path))

    @staticmethod
    def describe(st: TrialState, f: Frame, a: int) -> str:
        return "stop advancing" if a == st.L.DONE else f"advance to {st.L.label(a)}"


@step("finish")
class Finish:
    """Decision on a finishing space: finish the expedition here (``yes``) or stay to go deeper
    (``done``; impossible where no path leads on)."""

    @staticmethod
    def legal(st: TrialState, f: Frame) -> list[int]:
        pos = player(st, f["p"])["pos"]
        if pos not in st.g.board.finish:
            return []
        return [st.L.YES] + ([st.L.DONE] if st.g.board.paths.get(pos) else [])

    @staticmethod
    def apply(st: TrialState, f: Frame, a: int) -> None:
        pop(st, f)
        if a == st.L.YES:
            finish(st, f["p"], player(st, f["p"])["pos"])

    @staticmethod
    def describe(st: TrialState, f: Frame, a: int) -> str:
        pos = player(st, f["p"])["pos"]
        return f"finish on {pos} ({st.g.board.finish.get(pos)} fame)" if a == st.L.YES else "go on"


def next_finishes(st: TrialState, space: str) -> list[str]:
    """The finishing spaces after ``space`` reached without passing another finishing space."""
    found: set[str] = set()
    queue = deque(p["to"] for p in st.g.board.paths.get(space, []))
    seen: set[str] = set()
    while queue:
        s = queue.popleft()
        if s in seen:
            continue
        seen.add(s)
        if s in st.g.board.finish:
            found.add(s)
        else:
            queue.extend(p["to"] for p in st.g.board.paths.get(s, []))
    return sorted(found)


@step("flag")
class Flag:
    """Decision: Explorer moves one placed flag to a next deeper finishing space; Scout places a
    flag on the nearest finishing space of an area not yet finished (not the one you are in)."""

    @staticmethod
    def legal(st: TrialState, f: Frame) -> list[int]:
        me = player(st, f["p"])
        board = st.g.board
        if f["mode"] == "move":
            return [
                st.L.space(s)
                for space in me["flags"].values()
                if space is not None
                for s in next_finishes(st, space)
            ]
        here = board.area_of.get(me["pos"])
        return [
            st.L.space(board.nearest_finish(area))
            for area in board.areas
            if me["flags"][area] is None and area != here
        ]

    @staticmethod
    def apply(st: TrialState, f: Frame, a: int) -> None:
        pop(st, f)
        space = st.L.spaces[a - st.L.SPACE]
        area = st.g.board.area_of[space]
        player(st, f["p"])["flags"][area] = space

    @staticmethod
    def describe(st: TrialState, f: Frame, a: int) -> str:
        return f"flag to {st.L.label(a)}"
