"""Shared bookkeeping of the Trial's reference rules: steps, players' belongings, decks, the story.

The state is one JSON-able dict ``st.d``. What the game waits for is a stack of *steps*
(``st.d["stack"]``, dicts with a kind ``"k"``): the top step is a decision of one player, a chance
node, or an automatic step that runs at once. Each kind's behaviour is a class registered with
:func:`step` in the module of its rule section (turns, cards and effects, fights, locations,
expeditions, camping, setup); this module holds what they all use.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from solver.errors import IllegalActionError
from solver.games.trial.schema import COLUMN_OF

if TYPE_CHECKING:
    from solver.games.trial.rules import TrialState

Frame = dict[str, Any]

STEPS: dict[str, Any] = {}
"""Every step kind and the class that knows its player, legal actions, outcomes and effect."""


def step(kind: str) -> Callable[[type], type]:
    """Register the class handling steps of kind ``kind``.

    The class has static methods ``legal(st, f)`` and ``apply(st, f, action)`` (a decision), or
    ``outcomes(st, f)`` and ``apply`` (``chance = True``), or ``run(st, f)`` (``auto = True``); and
    ``who(st, f)`` when the deciding player is not ``f["p"]``.
    """

    def register(cls: type) -> type:
        STEPS[kind] = cls
        return cls

    return register


def push(st: TrialState, kind: str, /, **fields: Any) -> Frame:
    """Push a step (it runs before the steps under it)."""
    frame: Frame = {"k": kind, **fields}
    st.d["stack"].append(frame)
    return frame


def pop(st: TrialState, frame: Frame) -> None:
    """Remove ``frame`` (normally the top step)."""
    stack = st.d["stack"]
    for i in range(len(stack) - 1, -1, -1):
        if stack[i] is frame:
            del stack[i]
            return
    raise IllegalActionError("internal: a step was removed twice")


def find(st: TrialState, kind: str) -> Frame | None:
    """The nearest step of kind ``kind`` in the stack (top first)."""
    for frame in reversed(st.d["stack"]):
        if frame["k"] == kind:
            return frame
    return None


# -- players' belongings -------------------------------------------------------------------------
def player(st: TrialState, p: int) -> dict[str, Any]:
    """Player ``p``'s part of the state."""
    return st.d["players"][p]


def order_from(st: TrialState, p: int, include_self: bool) -> list[int]:
    """Players in turn order starting at ``p`` (or at the player on ``p``'s left)."""
    n = st.d["n"]
    start = 0 if include_self else 1
    return [(p + i) % n for i in range(start, n)]


def gain_food(st: TrialState, p: int, food: str, n: int = 1) -> int:
    """Move up to ``n`` tokens of ``food`` from the tray to player ``p``; how many moved."""
    n = min(n, st.d["tray"][food])
    st.d["tray"][food] -= n
    player(st, p)["food"][food] += n
    return n


def spend_food(st: TrialState, p: int, food: str, to: str = "tray") -> None:
    """Player ``p`` puts one ``food`` back on the tray (or into the gallery)."""
    me = player(st, p)
    if me["food"][food] <= 0:
        raise IllegalActionError(f"player {p} has no {food} to spend")
    me["food"][food] -= 1
    if to == "gallery":
        st.d["gallery_food"][food] += 1
    else:
        st.d["tray"][food] += 1


def transfer_food(st: TrialState, giver: int, taker: int, food: str) -> None:
    """One ``food`` token passes from ``giver`` to ``taker``."""
    player(st, giver)["food"][food] -= 1
    player(st, taker)["food"][food] += 1


def item_size(st: TrialState, kind: str) -> int:
    """Backpack slots a kind takes: rare items and large artifacts 2, others 1."""
    entry = st.g.pack.item(kind)
    return 2 if entry.get("rarity") == "rare" or entry.get("size") == "large" else 1


def is_artifact(st: TrialState, kind: str) -> bool:
    """Whether ``kind`` is an artifact (not an item)."""
    return kind in st.g.artifact_ids


def slots_used(st: TrialState, p: int) -> int:
    """Backpack slots ``p``'s items and artifacts fill."""
    return sum(item_size(st, k) for k in player(st, p)["pack"])


def fits(st: TrialState, p: int, kind: str) -> bool:
    """Whether ``kind`` fits in ``p``'s backpack now."""
    return (
        slots_used(st, p) + item_size(st, kind)
        <= st.g.components["character_board"]["backpack_slots"]
    )


def store_cells(st: TrialState) -> list[tuple[int, int]]:
    """Every store cell as ``(row, column)``."""
    store = st.g.pack.store
    return [(r, c) for r in range(len(store["rows"])) for c in range(len(store["columns"]))]


def cell_size(st: TrialState, cell: tuple[int, int]) -> str:
    """``small`` or ``large``: the size of a store cell's column."""
    return str(st.g.pack.store["columns"][cell[1]]["size"])


def cell_of(st: TrialState, kind: str) -> tuple[int, int] | None:
    """The store cell holding a stack of ``kind``, if any."""
    for r, row in enumerate(st.d["store"]):
        for c, stack in enumerate(row):
            if stack and stack[0] == kind:
                return (r, c)
    return None


def empty_cells(st: TrialState, kind: str) -> list[tuple[int, int]]:
    """The empty store cells of ``kind``'s size."""
    size = "large" if item_size(st, kind) == 2 else "small"
    return [
        (r, c)
        for (r, c) in store_cells(st)
        if not st.d["store"][r][c] and cell_size(st, (r, c)) == size
    ]


def return_item(st: TrialState, kind: str, p: int | None = None) -> None:
    """Put an item given up by player ``p`` back in the store: onto its stack; else on an empty
    slot of its size, ``p``'s choice when there are several (a ``return_slot`` step; the first
    one when nobody chooses); else, with no slot free, into the box. Artifacts go to the box."""
    if is_artifact(st, kind):
        st.d["box"]["artifacts"].append(kind)
        return
    cell = cell_of(st, kind)
    if cell is None:
        free = empty_cells(st, kind)
        if len(free) > 1 and p is not None:
            push(st, "return_slot", p=p, kind=kind)
            return
        cell = free[0] if free else None
    if cell is None:
        st.d["box"]["items"].append(kind)
        return
    st.d["store"][cell[0]][cell[1]].append(kind)


def return_slots(st: TrialState, kind: str) -> list[tuple[int, int]]:
    """Where ``kind`` may go back now: its stack if the store has one, else the empty slots of
    its size (none: the box)."""
    cell = cell_of(st, kind)
    return [cell] if cell is not None else empty_cells(st, kind)


@step("return_slot")
class ReturnSlot:
    """Decision: the store slot an item given up goes to (its stack if there is one, else any
    empty slot of its size; ``done`` puts it in the box when no slot is free any more)."""

    @staticmethod
    def legal(st: TrialState, f: Frame) -> list[int]:
        ncol = len(st.g.pack.store["columns"])
        cells = return_slots(st, f["kind"])
        return [st.L.CELL + r * ncol + c for r, c in cells] or [st.L.DONE]

    @staticmethod
    def apply(st: TrialState, f: Frame, a: int) -> None:
        pop(st, f)
        if a == st.L.DONE:
            st.d["box"]["items"].append(f["kind"])
            return
        r, c = divmod(a - st.L.CELL, len(st.g.pack.store["columns"]))
        st.d["store"][r][c].append(f["kind"])

    @staticmethod
    def describe(st: TrialState, f: Frame, a: int) -> str:
        if a == st.L.DONE:
            return f"put {f['kind']} in the box"
        r, c = divmod(a - st.L.CELL, len(st.g.pack.store["columns"]))
        return f"put {f['kind']} on store slot row {r + 1}, column {c + 1}"


def remove_from_pack(st: TrialState, p: int, kind: str) -> None:
    """Take ``kind`` out of ``p``'s backpack (an error if absent)."""
    pack = player(st, p)["pack"]
    if kind not in pack:
        raise IllegalActionError(f"player {p} does not carry {kind}")
    pack.remove(kind)


def drop(st: TrialState, p: int, kind: str) -> None:
    """``p`` gets rid of ``kind`` to make room ("at any moment"): an item goes back to the store
    (:func:`return_item`), an artifact to the box; nothing is gained for it."""
    remove_from_pack(st, p, kind)
    return_item(st, kind, p)


def drop_actions(st: TrialState, p: int) -> list[int]:
    """The actions dropping one of the kinds ``p`` carries (``DROP`` family)."""
    return [st.L.drop(k) for k in sorted(set(player(st, p)["pack"]))]


def drops_if_full(st: TrialState, p: int, gains: list[str]) -> list[int]:
    """Drop actions when one of ``gains`` (kinds offered now) does not fit ``p``'s backpack:
    wherever a gain would not fit, the player may make room first."""
    return drop_actions(st, p) if any(not fits(st, p, k) for k in gains) else []


@step("make_room")
class MakeRoom:
    """Decision: an artifact won that does not fit the backpack: drop something (``DROP``; once
    it fits the artifact is taken) or leave the artifact where it is (``done``)."""

    @staticmethod
    def legal(st: TrialState, f: Frame) -> list[int]:
        if f["kind"] not in st.d["artifacts"]:
            return []
        return [st.L.DONE, *drop_actions(st, f["p"])]

    @staticmethod
    def apply(st: TrialState, f: Frame, a: int) -> None:
        if a == st.L.DONE:
            pop(st, f)
            return
        kind = st.L.item_kinds[a - st.L.DROP]
        remove_from_pack(st, f["p"], kind)
        if fits(st, f["p"], f["kind"]):
            pop(st, f)
            take_artifact(st, f["p"], f["kind"])
        return_item(st, kind, f["p"])

    @staticmethod
    def describe(st: TrialState, f: Frame, a: int) -> str:
        if a == st.L.DONE:
            return f"leave {f['kind']} (no room)"
        return f"drop {st.L.item_kinds[a - st.L.DROP]} to make room for {f['kind']}"


def take_artifact(st: TrialState, p: int, kind: str) -> None:
    """``p`` wins artifact ``kind`` (if it is still available): into the backpack if it fits,
    else a ``make_room`` decision (drop something or leave it)."""
    if kind not in st.d["artifacts"]:
        return
    if fits(st, p, kind):
        st.d["artifacts"].remove(kind)
        player(st, p)["pack"].append(kind)
    else:
        push(st, "make_room", p=p, kind=kind)


# -- symbols and skills --------------------------------------------------------------------------
def story_symbols(st: TrialState, p: int, symbol: str) -> int:
    """How many ``symbol`` the face-up cards of ``p``'s story show (wildcards count for the
    symbol of their column)."""
    total = 0
    for cid, faceup, column in player(st, p)["story"]:
        if not faceup:
            continue
        for s in st.g.pack.card(cid)["symbols"]:
            if s == symbol or (s == "wild" and COLUMN_OF.get(symbol) == column):
                total += 1
    return total


def story_bonus(st: TrialState, p: int, key: str) -> list[Any]:
    """The top-middle bonuses ``key`` (``grove``/``lookout``) of ``p``'s face-up story cards."""
    found = []
    for cid, faceup, _ in player(st, p)["story"]:
        bonus = st.g.pack.card(cid).get("bonus", {})
        if faceup and key in bonus:
            found.append(bonus[key])
    return found


def has_skill(st: TrialState, p: int, skill: str) -> bool:
    """Whether a face-up story card gives ``p`` the unique skill ``skill``."""
    return any(
        faceup and st.g.pack.card(cid).get("skill") == skill
        for cid, faceup, _ in player(st, p)["story"]
    )


def item_value(st: TrialState, p: int, key: str) -> int:
    """The sum of ``key`` (``move``, ``trade``...) over the items ``p`` carries."""
    return sum(int(st.g.pack.item(k).get(key, 0)) for k in player(st, p)["pack"])


def move_budget(st: TrialState, p: int) -> int:
    """Movement symbols: the board's, the uncovered backpack slots', the story's and the wings'."""
    board = st.g.components["character_board"]
    free = board["backpack_slots"] - slots_used(st, p)
    uncovered = min(board["backpack_move_slots"], max(0, free))
    return board["move"] + uncovered + story_symbols(st, p, "move") + item_value(st, p, "move")


def trade_symbols(st: TrialState, p: int) -> int:
    """Trading symbols: the board's, the story's and the items'."""
    board = st.g.components["character_board"]
    return board["trade"] + story_symbols(st, p, "trade") + item_value(st, p, "trade")


def morality_side(st: TrialState, p: int) -> str:
    """``good`` (left of the middle), ``evil`` (right) or ``neutral``."""
    m = player(st, p)["morality"]
    return "good" if m < 0 else "evil" if m > 0 else "neutral"


def move_morality(st: TrialState, p: int, delta: int) -> None:
    """Move ``p``'s morality token, staying on the track."""
    track = st.g.components["morality"]
    me = player(st, p)
    me["morality"] = max(track["min"], min(track["max"], me["morality"] + delta))


# -- cards ---------------------------------------------------------------------------------------
def column_of(st: TrialState, cid: str) -> str:
    """The story column of ``cid`` (from its first symbol)."""
    return COLUMN_OF[st.g.pack.card(cid)["symbols"][0]]


def deck_of(st: TrialState, cid: str) -> str:
    """The deck a card comes from: ``deeds``, ``encounters`` or ``exp:AREA``."""
    return st.g.deck_of[cid]


def discard_card(st: TrialState, cid: str) -> None:
    """A card leaves play to its discard: deeds to the deed discard pile (on top), encounter cards
    randomly under the encounter deck, expedition cards to their area's discard pile."""
    deck = deck_of(st, cid)
    if deck == "encounters":
        st.d["decks"]["encounters"]["layers"].append([cid])
    else:
        st.d["decks"][deck]["discard"].append(cid)


def add_to_story(
    st: TrialState,
    p: int,
    cid: str,
    faceup: bool,
    column: str | None = None,
    side: str | None = None,
) -> None:
    """Tuck ``cid`` into ``p``'s story. Face up: its morality symbols move the token (``either``
    to ``side``, or to the player's choice if no side is given). Then legendary tokens."""
    me = player(st, p)
    me["story"].append([cid, faceup, column or column_of(st, cid)])
    if faceup:
        for s in st.g.pack.card(cid)["symbols"]:
            if s == "good":
                move_morality(st, p, -1)
            elif s == "evil":
                move_morality(st, p, 1)
            elif s == "either":
                if side is None:
                    push(st, "side", p=p, card=cid)
                else:
                    move_morality(st, p, -1 if side == "good" else 1)
    check_legendary(st, p)


def check_legendary(st: TrialState, p: int) -> None:
    """Give ``p`` every unclaimed legendary token whose column now holds enough cards."""
    for token in st.g.components["legendary"]:
        if st.d["legendary"][token["id"]] is not None:
            continue
        count = sum(1 for _, _, col in player(st, p)["story"] if col == token["column"])
        if count >= token["cards"]:
            st.d["legendary"][token["id"]] = p


@step("side")
class Side:
    """Decision: the side an ``either`` symbol moves the morality token (YES: good, DONE: evil)."""

    @staticmethod
    def legal(st: TrialState, f: Frame) -> list[int]:
        return [st.L.DONE, st.L.YES]

    @staticmethod
    def apply(st: TrialState, f: Frame, a: int) -> None:
        pop(st, f)
        move_morality(st, f["p"], -1 if a == st.L.YES else 1)


# -- drawing -------------------------------------------------------------------------------------
def deck_top_layer(st: TrialState, deck: str) -> list[str]:
    """The cards the next draw from ``deck`` is uniform over (its first non-empty layer). An
    empty deed deck is refilled from its discard pile first."""
    d = st.d["decks"][deck]
    if deck == "deeds" and not any(d["layers"]) and d["top"] is None and d["discard"]:
        from solver.games.trial.hidden import PUBLIC, know

        d["layers"] = [list(d["discard"])]
        d["discard"] = []
        know(st, d["layers"][0], PUBLIC)  # the public discard pile becomes the deck
    for layer in d["layers"]:
        if layer:
            return layer
    return []


def deck_size(st: TrialState, deck: str) -> int:
    """Cards left in ``deck`` (its revealed top included)."""
    d = st.d["decks"][deck]
    return sum(len(layer) for layer in d["layers"]) + (d["top"] is not None)


def take_card(st: TrialState, deck: str, cid: str) -> None:
    """Remove ``cid`` from ``deck`` (its top or a layer)."""
    d = st.d["decks"][deck]
    if d["top"] is not None and d["top"]["card"] == cid:
        d["top"] = None
        return
    for layer in d["layers"]:
        if cid in layer:
            layer.remove(cid)
            d["layers"] = [x for x in d["layers"] if x]
            return
    raise IllegalActionError(f"{cid} is not in the {deck} deck")


def draw(st: TrialState, p: int, deck: str, to: str, **extra: Any) -> None:
    """Push a draw of one card from ``deck`` for player ``p`` going ``to`` (``pending``, ``hand``,
    ``row:I``, ``parent``, ``story``, ``top``)."""
    push(st, "draw", p=p, deck=deck, to=to, **extra)


def give_card(st: TrialState, p: int, cid: str) -> None:
    """A gained card: aside until the end of the turn for the player on turn, else to hand."""
    me = player(st, p)
    (me["pending"] if st.d["turn"] == p else me["hand"]).append(cid)


@step("draw")
class Draw:
    """Chance: which card comes off the deck (uniform over its first layer); a revealed top card
    is taken without chance. An empty deck draws nothing."""

    chance = True

    @staticmethod
    def outcomes(st: TrialState, f: Frame) -> list[tuple[int, float]]:
        top = st.d["decks"][f["deck"]]["top"]
        if top is not None:
            return [(st.L.card(top["card"]), 1.0)]
        layer = deck_top_layer(st, f["deck"])
        return [(st.L.card(c), 1.0 / len(layer)) for c in sorted(layer, key=st.L.card)]

    @staticmethod
    def apply(st: TrialState, f: Frame, a: int) -> None:
        pop(st, f)
        cid = st.L.cards[a - st.L.CARD]
        take_card(st, f["deck"], cid)
        to = f["to"]
        if to == "pending":
            give_card(st, f["p"], cid)
        elif to == "hand":
            player(st, f["p"])["hand"].append(cid)
        elif to.startswith("row:"):
            st.d["row"][int(to[4:])] = cid
        elif to == "parent":
            st.d["stack"][-1]["drawn"] = cid
        elif to == "story":
            card = st.g.pack.card(cid)
            if "either" in card["symbols"] or "evil" in card["symbols"]:
                st.d["players"][f["p"]]["story"].append([cid, True, column_of(st, cid)])
                check_legendary(st, f["p"])
                push(st, "side", p=f["p"], card=cid)
            else:
                add_to_story(st, f["p"], cid, True)
        elif to == "top":
            st.d["decks"][f["deck"]]["top"] = {"card": cid, "viewers": f["viewers"]}
        else:  # pragma: no cover - a programming error
            raise IllegalActionError(f"internal: unknown draw destination {to}")
