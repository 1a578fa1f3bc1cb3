"""Turns and days: play a deed, move, place a paw (or camp), the hand limit, the turn order.

A turn is a ``turn`` step of one player: in any order, at most one deed card from hand, at most one
move, and exactly one paw token (or, with none left, the camping action); then ``end turn``.
Cards gained during the turn lie aside and join the hand at its end; then the hand is cut to the
limit. Players take turns from the first player, skipping those who have camped today; when all
have camped a new day begins; when nobody has a paw or a tent left the game is over.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from solver.games.trial import effects
from solver.games.trial.actions import PAW_TARGETS
from solver.games.trial.core import (
    Frame,
    discard_card,
    draw,
    drop,
    drop_actions,
    is_artifact,
    item_size,
    move_budget,
    player,
    pop,
    push,
    remove_from_pack,
    step,
)

if TYPE_CHECKING:
    from solver.games.trial.rules import TrialState

ENCOUNTER_TARGETS = (1, 2, 3)
HELP, EXPEDITION = PAW_TARGETS.index("help"), PAW_TARGETS.index("expedition")


def active(st: TrialState, p: int) -> bool:
    """Whether ``p`` still has a turn today: not camped, and a paw or a tent left."""
    me = player(st, p)
    return not me["camped"] and (me["paws"] > 0 or me["strong"] or bool(me["tents"]))


def next_turn(st: TrialState) -> None:
    """Start the next player's turn, a new day, or end the game (the stack is empty)."""
    d = st.d
    n = d["n"]
    order = (
        [(d["first"] + i) % n for i in range(n)]
        if d["turn"] is None
        else [(d["turn"] + i) % n for i in range(1, n + 1)]
    )
    for p in order:
        if active(st, p):
            d["turn"] = p
            push(st, "turn", p=p, played=False, moved=False, acted=False, fresh=True, end=False)
            return
    if not any(me["paws"] or me["strong"] or me["tents"] for me in d["players"]):
        d["over"] = True
        d["turn"] = None
        return
    d["day"] += 1
    d["turn"] = None
    for me in d["players"]:
        me["camped"] = False
    push(st, "new_day", p=d["first"])


def on_expedition(st: TrialState, p: int) -> bool:
    """Whether ``p`` stands inside an expedition area."""
    return st.g.board.on_expedition(player(st, p)["pos"])


def own_token_on(st: TrialState, p: int, slot: str) -> bool:
    """Whether ``p`` already has a paw token on location ``slot``."""
    return any(t == f"loc:{slot}" for t, _ in player(st, p)["placed"])


def paw_targets(st: TrialState, p: int) -> list[int]:
    """The paw targets open to ``p`` now (indices into ``PAW_TARGETS``)."""
    me = player(st, p)
    if on_expedition(st, p):
        return [EXPEDITION]
    targets = [HELP]
    pos = me["pos"]
    if pos in st.g.board.slot and not own_token_on(st, p, pos):
        targets.append(0)
    for t in ENCOUNTER_TARGETS:
        cid = st.d["row"][t - 1]
        if cid is not None and st.g.playable(st, p, cid):
            targets.append(t)
    return targets


def use_paw(st: TrialState, p: int, target: int, strong: bool) -> None:
    """Take the paw token off the board and start its action."""
    me = player(st, p)
    if strong:
        me["strong"] = False
    else:
        me["paws"] -= 1
    pos = me["pos"]
    if target == 0:
        me["placed"].append([f"loc:{pos}", strong])
        from solver.games.trial.locations import use_location

        use_location(st, p, pos, strong)
    elif target in ENCOUNTER_TARGETS:
        me["placed"].append(["enc", strong])
        slot = target - 1
        cid = st.d["row"][slot]
        st.d["row"][slot] = None
        draw(st, p, "encounters", f"row:{slot}")
        effects.resolve(st, p, cid, "encounter")
    elif target == HELP:
        me["placed"].append(["help", strong])
        push(st, "help", p=p)
    else:
        area = st.g.board.area_of[pos]
        me["placed"].append([f"exp:{area}", strong])
        from solver.games.trial.expeditions import embark

        embark(st, p, area, strong)


@step("turn")
class Turn:
    """Decision: the main step of a turn."""

    @staticmethod
    def legal(st: TrialState, f: Frame) -> list[int]:
        L, p = st.L, f["p"]
        me = player(st, p)
        if f["end"] and f["acted"]:
            return [L.END_TURN]
        acts: list[int] = []
        if f["acted"]:
            acts.append(L.END_TURN)
        away = on_expedition(st, p)
        if f["fresh"] and away:
            acts.append(L.LEAVE)
        if not f["played"] and not away:
            acts += [L.card(c) for c in me["hand"] if st.g.playable(st, p, c)]
        if not f["moved"] and not away:
            acts.append(L.MOVE)
        if not f["acted"]:
            if me["paws"] or me["strong"]:
                for t in paw_targets(st, p):
                    if me["paws"]:
                        acts.append(L.paw(t, False))
                    if me["strong"]:
                        acts.append(L.paw(t, True))
            elif me["tents"]:
                acts.append(L.CAMP)
        if "elixir" in me["pack"] and me["hand"]:
            acts.append(L.ELIXIR)
        acts += drop_actions(st, p)  # objects may be dropped at any time
        return acts

    @staticmethod
    def apply(st: TrialState, f: Frame, a: int) -> None:
        L, p = st.L, f["p"]
        me = player(st, p)
        family, index = L.family(a)
        if a == L.END_TURN:
            pop(st, f)
            push(st, "end_turn", p=p)
            return
        f["fresh"] = False
        if a == L.LEAVE:
            from solver.games.trial.expeditions import leave

            leave(st, p)
        elif a == L.MOVE:
            f["moved"] = True
            push(st, "move", p=p, base=move_budget(st, p), extra=0, cards=0)
        elif a == L.CAMP:
            f["acted"] = True
            f["end"] = True
            from solver.games.trial.camping import camp

            camp(st, p)
        elif a == L.ELIXIR:
            remove_from_pack(st, p, "elixir")
            st.d["box"]["artifacts"].append("elixir")
            push(st, "pick_card", p=p, purpose="story_faceup")
        elif family == "card":
            f["played"] = True
            cid = L.cards[index]
            me["hand"].remove(cid)
            effects.resolve(st, p, cid, "deed")
        elif family == "paw":
            f["acted"] = True
            use_paw(st, p, index // 2, bool(index % 2))
        elif family == "drop":
            drop(st, p, L.item_kinds[index])

    @staticmethod
    def describe(st: TrialState, f: Frame, a: int) -> str | None:
        family, index = st.L.family(a)
        if family == "card":
            return f"play {st.g.pack.card(st.L.cards[index])['name']}"
        if family == "drop":
            kind = st.L.item_kinds[index]
            return f"drop {kind}" + (" (to the box)" if is_artifact(st, kind) else "")
        return None


@step("move")
class Move:
    """Decision: discard up to 2 cards with movement enhancements (or use a one-time movement
    tent symbol), then the destination; ``done`` ends the move where the piece stands."""

    @staticmethod
    def legal(st: TrialState, f: Frame) -> list[int]:
        L, p = st.L, f["p"]
        me = player(st, p)
        acts = [L.DONE]
        if f["cards"] < 2:
            acts += [L.card(c) for c in me["hand"] if "move" in st.g.pack.card(c)["enhance"]]
        if me["onetime"]["move"]:
            acts.append(L.TOKEN)
        budget = f["base"] + f["extra"]
        for space in st.g.board.reachable(me["pos"], budget, open_tunnels(st)):
            area = st.g.board.area_of.get(space)
            if area is None or me["flags"][area] is None:
                acts.append(L.space(space))
        return acts

    @staticmethod
    def apply(st: TrialState, f: Frame, a: int) -> None:
        L, p = st.L, f["p"]
        me = player(st, p)
        family, index = L.family(a)
        if a == L.DONE:
            pop(st, f)
        elif a == L.TOKEN:
            me["onetime"]["move"] -= 1
            f["extra"] += 1
        elif family == "card":
            cid = L.cards[index]
            me["hand"].remove(cid)
            discard_card(st, cid)
            f["cards"] += 1
            f["extra"] += st.g.pack.card(cid)["enhance"]["move"]
        else:
            pop(st, f)
            space = L.spaces[index]
            me["pos"] = space
            if space in st.g.board.area_of:
                from solver.games.trial.core import has_skill

                if has_skill(st, p, "cartographer"):
                    push(st, "advance", p=p, line="any", steps=1, optional=False)

    @staticmethod
    def describe(st: TrialState, f: Frame, a: int) -> str | None:
        family, index = st.L.family(a)
        if family == "space":
            return f"move to {st.L.spaces[index]}"
        if family == "card":
            return f"discard {st.g.pack.card(st.L.cards[index])['name']} for movement"
        if a == st.L.TOKEN:
            return "use the one-time movement tent symbol"
        if a == st.L.DONE:
            return "stay"
        return None


def open_tunnels(st: TrialState) -> set[str]:
    """Spaces with a usable tunnel: printed ones not collapsed, and dug tokens face up."""
    tunnels = {s for s in st.g.board.printed_tunnels if st.d["tunnels"].get(s) != "collapsed"}
    tunnels |= {s for s, state in st.d["tunnels"].items() if state == "open"}
    return tunnels


@step("help")
class Help:
    """Decision: helping the residents gives a deed card or a raspberry, mushroom or acorn."""

    @staticmethod
    def legal(st: TrialState, f: Frame) -> list[int]:
        return [st.L.CARD] + [st.L.food(x) for x in ("raspberry", "acorn", "mushroom")]

    @staticmethod
    def apply(st: TrialState, f: Frame, a: int) -> None:
        from solver.games.trial.core import gain_food

        pop(st, f)
        if a == st.L.CARD:
            draw(st, f["p"], "deeds", "pending")
        else:
            gain_food(st, f["p"], st.L.label(a))

    @staticmethod
    def describe(st: TrialState, f: Frame, a: int) -> str:
        return "help: draw a deed card" if a == st.L.CARD else f"help: gain {st.L.label(a)}"


@step("end_turn")
class EndTurn:
    """Automatic: the cards gained this turn join the hand; then the hand limit."""

    auto = True

    @staticmethod
    def run(st: TrialState, f: Frame) -> None:
        pop(st, f)
        me = player(st, f["p"])
        me["hand"] += me["pending"]
        me["pending"] = []
        if len(me["hand"]) > st.g.components["hand_limit"]:
            push(st, "hand_limit", p=f["p"])


@step("hand_limit")
class HandLimit:
    """Decision: discard a card, until the hand is down to the limit."""

    @staticmethod
    def legal(st: TrialState, f: Frame) -> list[int]:
        me = player(st, f["p"])
        if len(me["hand"]) <= st.g.components["hand_limit"]:
            return []
        return [st.L.card(c) for c in me["hand"]]

    @staticmethod
    def apply(st: TrialState, f: Frame, a: int) -> None:
        me = player(st, f["p"])
        cid = st.L.cards[a - st.L.CARD]
        me["hand"].remove(cid)
        discard_card(st, cid)
        if len(me["hand"]) <= st.g.components["hand_limit"]:
            pop(st, f)

    @staticmethod
    def describe(st: TrialState, f: Frame, a: int) -> str:
        return f"discard {st.g.pack.card(st.L.cards[a - st.L.CARD])['name']} (hand limit)"


@step("new_day")
class NewDay:
    """Decision of the first player: refresh the encounter row (``yes``) or keep it."""

    @staticmethod
    def legal(st: TrialState, f: Frame) -> list[int]:
        return [st.L.DONE, st.L.YES]

    @staticmethod
    def apply(st: TrialState, f: Frame, a: int) -> None:
        pop(st, f)
        if a != st.L.YES:
            return
        row = st.d["row"]
        old = [c for c in row if c is not None]
        if old:
            st.d["decks"]["encounters"]["layers"].append(old)
        for i in range(len(row)):
            row[i] = None
        for i in reversed(range(len(row))):
            draw(st, f["p"], "encounters", f"row:{i}")

    @staticmethod
    def describe(st: TrialState, f: Frame, a: int) -> str:
        return "new day: refresh the encounter cards" if a == st.L.YES else "new day: keep them"


__all__ = ["item_size", "next_turn", "open_tunnels", "use_paw"]
