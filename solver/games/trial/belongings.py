"""The players' belongings and the board as it stands: food, the backpack and the store's slots,
symbols and skills, morality, the story and legendary tokens, tiles and tunnels.

Everything here is bookkeeping the rule sections share (part of the core, :mod:`.core`): it reads
and changes the state, and registers the three small decisions bookkeeping can need (where an
item given up goes, making room for an artifact, the side of an ``either`` symbol).
"""

from __future__ import annotations

from collections import Counter
from typing import TYPE_CHECKING, Any, ClassVar

from solver.errors import IllegalActionError
from solver.games.trial import core
from solver.games.trial.core import REQUIRED, Fields, Frame, Step, YesNo, player, pop, push, step
from solver.games.trial.schema import COLUMN_OF, TENT_BONUSES

if TYPE_CHECKING:
    from solver.games.trial.core import State


# -- tents ---------------------------------------------------------------------------------------
class TentFromBox(Step):
    """The base of the chance steps drawing a face-down tent from the box: each kind by its
    share of the tents left; the step's ``apply`` takes it out with :func:`take_tent`."""

    chance = True

    @staticmethod
    def outcomes(st: State, f: Frame) -> list[tuple[int, float]]:
        tents = st.data["box"]["tents"]
        counts = Counter(tents)
        return [
            (st.layout.tent(b), counts[b] / len(tents)) for b in sorted(counts, key=st.layout.tent)
        ]

    @staticmethod
    def describe(st: State, f: Frame, a: int) -> str:
        """The outcome's label: where the tent goes (each kind says)."""
        raise NotImplementedError

    @classmethod
    def legacy(cls, st: State, f: Frame, a: int) -> str:
        """The label before the tents' bonuses were worded (``player 0 is dealt a tent
        (none)``, ``a tent (food) from the box ...``): records may hold it."""
        old = f"a tent ({core.words(tent_of(st, a))})"
        return cls.describe(st, f, a).replace(tent_words(st, a), old)


TENT_WORDS: dict[str, str] = {
    "cards": "2 deed cards",
    "morality": "a morality choice",
    "none": "empty",
    "food": "any food",
    "move": "one-time move",
    "trade": "one-time trading",
    "strength": "one-time strength",
    "card_draw": "one-time card draw",
}
"""A tent bonus as a player reads it (a food's is its name); the data's names (``none``,
``cards`` beside ``card_draw``) read as jargon in labels: ``a tent (none)``."""


def tent_bonus_words(bonus: str) -> str:
    """A tent bonus in a player's words: ``card_draw`` -> ``one-time card draw``."""
    return TENT_WORDS.get(bonus, core.words(bonus))


def tent_words(st: State, a: int) -> str:
    """The tent a ``TENT`` action names as a player reads it: ``a tent (one-time card draw)``."""
    return f"a tent ({tent_bonus_words(tent_of(st, a))})"


def tent_of(st: State, a: int) -> str:
    """The tent bonus a ``TENT`` action names."""
    return TENT_BONUSES[a - st.layout.TENT]


def take_tent(st: State, f: Frame, a: int) -> str:
    """Pop the drawing step ``f`` and take the tent of outcome ``a`` out of the box: its bonus."""
    pop(st, f)
    bonus = tent_of(st, a)
    st.data["box"]["tents"].remove(bonus)
    return bonus


# -- food ----------------------------------------------------------------------------------------
def gain_food(st: State, p: int, food: str, n: int = 1) -> int:
    """Move up to ``n`` tokens of ``food`` from the tray to player ``p``; how many moved."""
    n = min(n, st.data["tray"][food])
    st.data["tray"][food] -= n
    player(st, p)["food"][food] += n
    return n


def spend_food(st: State, p: int, food: str, to: str = "tray") -> None:
    """Player ``p`` puts one ``food`` back on the tray (or into the gallery)."""
    me = player(st, p)
    if me["food"][food] <= 0:
        raise IllegalActionError(f"player {p} has no {food} to spend")
    me["food"][food] -= 1
    if to == "gallery":
        st.data["gallery_food"][food] += 1
    else:
        st.data["tray"][food] += 1


def transfer_food(st: State, giver: int, taker: int, food: str) -> None:
    """One ``food`` token passes from ``giver`` to ``taker``."""
    player(st, giver)["food"][food] -= 1
    player(st, taker)["food"][food] += 1


# -- the backpack --------------------------------------------------------------------------------
def item_size(st: State, kind: str) -> int:
    """Backpack slots a kind takes: rare items and large artifacts 2, others 1."""
    entry = st.game.pack.item(kind)
    return 2 if entry.get("rarity") == "rare" or entry.get("size") == "large" else 1


def is_artifact(st: State, kind: str) -> bool:
    """Whether ``kind`` is an artifact (not an item)."""
    return kind in st.game.artifact_ids


def slots_used(st: State, p: int) -> int:
    """Backpack slots ``p``'s items and artifacts fill."""
    return sum(item_size(st, k) for k in player(st, p)["backpack"])


def fits(st: State, p: int, kind: str) -> bool:
    """Whether ``kind`` fits in ``p``'s backpack now."""
    slots = st.game.components["character_board"]["backpack_slots"]
    return slots_used(st, p) + item_size(st, kind) <= slots


def remove_from_pack(st: State, p: int, kind: str) -> None:
    """Take ``kind`` out of ``p``'s backpack (an error if absent)."""
    pack = player(st, p)["backpack"]
    if kind not in pack:
        raise IllegalActionError(f"player {p} does not carry {kind}")
    pack.remove(kind)


def drop(st: State, p: int, kind: str) -> None:
    """``p`` gets rid of ``kind`` to make room ("at any moment"): an item goes back to the store
    (:func:`return_item`), an artifact to the box; nothing is gained for it."""
    remove_from_pack(st, p, kind)
    return_item(st, kind, p)


def drop_actions(st: State, p: int) -> list[int]:
    """The actions dropping one of the kinds ``p`` carries (``DROP`` family)."""
    return [st.layout.drop(k) for k in sorted(set(player(st, p)["backpack"]))]


def drops_if_full(st: State, p: int, gains: list[str]) -> list[int]:
    """Drop actions when one of ``gains`` (kinds offered now) does not fit ``p``'s backpack:
    wherever a gain would not fit, the player may make room first."""
    return drop_actions(st, p) if any(not fits(st, p, k) for k in gains) else []


def made_room(st: State, p: int, a: int) -> bool:
    """Whether ``a`` is a ``DROP`` action (offered by :func:`drops_if_full`); if so, ``p`` has
    dropped that object to make room and the decision waits for the next answer."""
    if st.layout.family(a)[0] != "drop":
        return False
    drop(st, p, st.layout.item_kinds[a - st.layout.DROP])
    return True


def take_artifact(st: State, p: int, kind: str) -> None:
    """``p`` wins artifact ``kind`` (if it is still available): into the backpack if it fits,
    else a ``make_room`` decision (drop something or leave it)."""
    if kind not in st.data["artifacts_available"]:
        return
    if fits(st, p, kind):
        st.data["artifacts_available"].remove(kind)
        player(st, p)["backpack"].append(kind)
    else:
        push(st, "make_room", player=p, kind=kind)


@step("make_room")
class MakeRoom(core.UntilDone):
    """Decision: an artifact won that does not fit the backpack: drop something (``DROP``; once
    it fits the artifact is taken) or leave the artifact where it is (``done``)."""

    fields: ClassVar[Fields] = {
        "player": (REQUIRED, "who won the artifact"),
        "kind": (REQUIRED, "the artifact waiting for room"),
    }

    @staticmethod
    def legal(st: State, f: Frame) -> list[int]:
        if f["kind"] not in st.data["artifacts_available"]:
            return []
        return [st.layout.DONE, *drop_actions(st, f["player"])]

    @staticmethod
    def take(st: State, f: Frame, a: int) -> None:
        kind = st.layout.item_kinds[a - st.layout.DROP]
        remove_from_pack(st, f["player"], kind)
        if fits(st, f["player"], f["kind"]):
            pop(st, f)
            take_artifact(st, f["player"], f["kind"])
        return_item(st, kind, f["player"])

    @staticmethod
    def describe(st: State, f: Frame, a: int) -> str:
        if a == st.layout.DONE:
            return f"leave {f['kind']} (no room)"
        return f"drop {st.layout.item_kinds[a - st.layout.DROP]} to make room for {f['kind']}"


# -- the store's slots, where items given up go --------------------------------------------------
def store_cells(st: State) -> list[tuple[int, int]]:
    """Every store cell as ``(row, column)``."""
    store = st.game.pack.store
    return [(r, c) for r in range(len(store["rows"])) for c in range(len(store["columns"]))]


def cell_size(st: State, cell: tuple[int, int]) -> str:
    """``small`` or ``large``: the size of a store cell's column."""
    return str(st.game.pack.store["columns"][cell[1]]["size"])


def cell_of(st: State, kind: str) -> tuple[int, int] | None:
    """The store cell holding a stack of ``kind``, if any."""
    for r, row in enumerate(st.data["store"]):
        for c, stack in enumerate(row):
            if stack and stack[0] == kind:
                return (r, c)
    return None


def store_kinds(st: State, rarity: str, other_than: str | None = None) -> list[str]:
    """The kinds of ``rarity`` lying in the store, in cell order, but ``other_than``."""
    return [
        stack[0]
        for row in st.data["store"]
        for stack in row
        if stack and stack[0] != other_than and st.game.pack.item(stack[0])["rarity"] == rarity
    ]


def empty_cells(st: State, kind: str) -> list[tuple[int, int]]:
    """The empty store cells of ``kind``'s size."""
    size = "large" if item_size(st, kind) == 2 else "small"
    return [
        (r, c)
        for (r, c) in store_cells(st)
        if not st.data["store"][r][c] and cell_size(st, (r, c)) == size
    ]


def cell_action(st: State, cell: tuple[int, int]) -> int:
    """The ``CELL`` action naming a store cell."""
    return st.layout.CELL + cell[0] * len(st.game.pack.store["columns"]) + cell[1]


def action_cell(st: State, a: int) -> tuple[int, int]:
    """The store cell a ``CELL`` action names."""
    r, c = divmod(a - st.layout.CELL, len(st.game.pack.store["columns"]))
    return (r, c)


def return_item(st: State, kind: str, p: int | None = None) -> None:
    """Put an item given up by player ``p`` back in the store: onto its stack; else on an empty
    slot of its size, ``p``'s choice when there are several (a ``return_slot`` step; the first
    one when nobody chooses); else, with no slot free, into the box. Artifacts go to the box."""
    if is_artifact(st, kind):
        st.data["box"]["artifacts"].append(kind)
        return
    cell = cell_of(st, kind)
    if cell is None:
        free = empty_cells(st, kind)
        if len(free) > 1 and p is not None:
            push(st, "return_slot", player=p, kind=kind)
            return
        cell = free[0] if free else None
    if cell is None:
        st.data["box"]["items"].append(kind)
        return
    st.data["store"][cell[0]][cell[1]].append(kind)


def return_slots(st: State, kind: str) -> list[tuple[int, int]]:
    """Where ``kind`` may go back now: its stack if the store has one, else the empty slots of
    its size (none: the box)."""
    cell = cell_of(st, kind)
    return [cell] if cell is not None else empty_cells(st, kind)


@step("return_slot")
class ReturnSlot(Step):
    """Decision: the store slot an item given up goes to (its stack if there is one, else any
    empty slot of its size; ``done`` puts it in the box when no slot is free any more)."""

    fields: ClassVar[Fields] = {
        "player": (REQUIRED, "who gave the item up"),
        "kind": (REQUIRED, "the item"),
    }

    @staticmethod
    def legal(st: State, f: Frame) -> list[int]:
        cells = return_slots(st, f["kind"])
        return [cell_action(st, c) for c in cells] or [st.layout.DONE]

    @staticmethod
    def apply(st: State, f: Frame, a: int) -> None:
        pop(st, f)
        if a == st.layout.DONE:
            st.data["box"]["items"].append(f["kind"])
            return
        r, c = action_cell(st, a)
        st.data["store"][r][c].append(f["kind"])

    @staticmethod
    def describe(st: State, f: Frame, a: int) -> str:
        if a == st.layout.DONE:
            return f"put {f['kind']} in the box"
        r, c = action_cell(st, a)
        return f"put {f['kind']} on store slot row {r + 1}, column {c + 1}"


# -- symbols and skills --------------------------------------------------------------------------
def story_symbols(st: State, p: int, symbol: str) -> int:
    """How many ``symbol`` the face-up cards of ``p``'s story show (wildcards count for the
    symbol of their column)."""
    total = 0
    for cid, faceup, column in player(st, p)["story"]:
        if not faceup:
            continue
        for s in st.game.pack.card(cid)["symbols"]:
            if s == symbol or (s == "wild" and COLUMN_OF.get(symbol) == column):
                total += 1
    return total


def story_bonus(st: State, p: int, key: str) -> list[Any]:
    """The top-middle bonuses ``key`` (``grove``/``lookout``) of ``p``'s face-up story cards."""
    found = []
    for cid, faceup, _ in player(st, p)["story"]:
        bonus = st.game.pack.card(cid).get("bonus", {})
        if faceup and key in bonus:
            found.append(bonus[key])
    return found


def has_skill(st: State, p: int, skill: str) -> bool:
    """Whether a face-up story card gives ``p`` the unique skill ``skill``."""
    return any(
        faceup and st.game.pack.card(cid).get("skill") == skill
        for cid, faceup, _ in player(st, p)["story"]
    )


def item_value(st: State, p: int, key: str) -> int:
    """The sum of ``key`` (``move``, ``trade``...) over the items ``p`` carries."""
    return sum(int(st.game.pack.item(k).get(key, 0)) for k in player(st, p)["backpack"])


def move_budget(st: State, p: int) -> int:
    """Movement symbols: the board's, the uncovered backpack slots', the story's and the wings'."""
    board = st.game.components["character_board"]
    free = board["backpack_slots"] - slots_used(st, p)
    uncovered = min(board["backpack_move_slots"], max(0, free))
    return board["move"] + uncovered + story_symbols(st, p, "move") + item_value(st, p, "move")


def trade_symbols(st: State, p: int) -> int:
    """Trading symbols: the board's, the story's and the items'."""
    board = st.game.components["character_board"]
    return board["trade"] + story_symbols(st, p, "trade") + item_value(st, p, "trade")


# -- morality, the story, legendary tokens -------------------------------------------------------
def morality_side(st: State, p: int) -> str:
    """``good`` (left of the middle), ``evil`` (right) or ``neutral``."""
    m = player(st, p)["morality"]
    return "good" if m < 0 else "evil" if m > 0 else "neutral"


def move_morality(st: State, p: int, delta: int) -> None:
    """Move ``p``'s morality token, staying on the track."""
    track = st.game.components["morality"]
    me = player(st, p)
    me["morality"] = max(track["min"], min(track["max"], me["morality"] + delta))


def column_of(st: State, cid: str) -> str:
    """The story column of ``cid`` (from its first symbol)."""
    return COLUMN_OF[st.game.pack.card(cid)["symbols"][0]]


def add_to_story(
    st: State,
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
        for s in st.game.pack.card(cid)["symbols"]:
            if s == "good":
                move_morality(st, p, -1)
            elif s == "evil":
                move_morality(st, p, 1)
            elif s == "either":
                if side is None:
                    push(st, "side", player=p, card=cid)
                else:
                    move_morality(st, p, -1 if side == "good" else 1)
    check_legendary(st, p)


def check_legendary(st: State, p: int) -> None:
    """Give ``p`` every unclaimed legendary token whose column now holds enough cards."""
    for token in st.game.components["legendary"]:
        if st.data["legendary"][token["id"]] is not None:
            continue
        count = sum(1 for _, _, col in player(st, p)["story"] if col == token["column"])
        if count >= token["cards"]:
            st.data["legendary"][token["id"]] = p


@step("side")
class Side(YesNo):
    """Decision: the side a morality choice moves the token (``yes``: good, ``done``: evil)."""

    fields: ClassVar[Fields] = {
        "player": (REQUIRED, "whose token moves"),
        "card": (None, "the card with the either symbol (None: a tent or campsite bonus)"),
    }

    @staticmethod
    def describe(st: State, f: Frame, a: int) -> str:
        return "choose good" if a == st.layout.YES else "choose evil"

    @staticmethod
    def answer(st: State, f: Frame, yes: bool) -> None:
        move_morality(st, f["player"], -1 if yes else 1)


# -- the board as it stands: tiles, paws, tunnels ------------------------------------------------
def tile_entry(st: State, slot: str) -> tuple[dict[str, Any], bool]:
    """The tile on ``slot`` and whether it shows its other side."""
    tile_id, flipped = st.data["tiles"][slot]
    return next(t for t in st.game.pack.locations if t["id"] == tile_id), bool(flipped)


def location_type(st: State, slot: str) -> str | None:
    """The type a location counts as: its tile's type, a restored ruins its restored type."""
    tile = st.data["tiles"].get(slot)
    if not tile:
        return None
    entry, flipped = tile_entry(st, slot)
    if entry["type"] == "ruins" and flipped:
        return str(entry["restored"])
    return str(entry["type"])


def paw_locations(st: State, p: int) -> list[str]:
    """The locations holding one of ``p``'s paw tokens."""
    return [t[4:] for t, _ in player(st, p)["paws_placed"] if t.startswith("loc:")]


def own_token_on(st: State, p: int, slot: str) -> bool:
    """Whether ``p`` already has a paw token on location ``slot``."""
    return any(t == f"loc:{slot}" for t, _ in player(st, p)["paws_placed"])


def open_tunnels(st: State) -> set[str]:
    """Spaces with a usable tunnel: printed ones not collapsed, and dug tokens face up."""
    tunnels = {s for s in st.game.board.printed_tunnels if st.data["tunnels"].get(s) != "collapsed"}
    tunnels |= {s for s, state in st.data["tunnels"].items() if state == "open"}
    return tunnels


def on_expedition(st: State, p: int) -> bool:
    """Whether ``p`` stands inside an expedition area."""
    return st.game.board.on_expedition(player(st, p)["space"])
