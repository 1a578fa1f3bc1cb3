"""Determinisations: a copy of a state with everything one player cannot see dealt again at
random, consistent with what that player knows (their information state is unchanged).

:func:`resample` copies the state and runs :data:`REDEALS`, one function per kind of hidden
thing, in order:

1. :func:`redeal_cards`: the cards the player cannot locate (``card_knowledge``, see
   :mod:`.history`), lying in places hidden from them: other players' hands and cards aside,
   their face-down story cards, the face-down cards of a fight or a Swindler, a card waiting for
   its column, the deed deck (deed cards only) and its unseen top; each place keeps its size.
2. :func:`redeal_deck_tops`: the top card of another deck revealed to others only, swapped with a
   card of its first layer (a layer's order means nothing: draws are uniform over it).
3. :func:`redeal_tents`: the tents the player cannot see (other players' tents, tents on
   campsites the player did not leave, the box).
4. :func:`redeal_ruin_items`: the items on ruins the player has not looked at (commons and rares
   keep their counts per ruins); during the set-up, together with the pools still to be dealt.

Every pool is sorted before it is shuffled (a set, not the true order), so a redeal depends only
on what the player sees and the random numbers. The history entries the player did not see
become redacted for everyone, and the knowledge of cards the player does not know is emptied:
they may not match the redeal.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from solver.games.trial.history import PUBLIC
from solver.rng import SplitMix64

if TYPE_CHECKING:
    from solver.games.trial.core import State

Slot = tuple[Any, Any]
"""A place holding a single card: ``(container, key)``."""


def forget_unseen_history(st: State, p: int) -> None:
    """What ``p`` did not see is forgotten by everyone in the redeal (it may not match it)."""
    mine = str(p)
    st.data["history"] = tuple(
        e if e[0] == PUBLIC or mine in e[0] else ("", e[2], e[2]) for e in st.data["history"]
    )


def hidden_card_places(st: State, p: int) -> tuple[list[list[str]], list[Slot]]:
    """The places hidden from ``p`` outside the deed deck: lists of cards (others' hands and
    cards aside, face-down cards held by a fight or a Swindler) and single cards (others'
    face-down story cards, a card waiting for its column)."""
    d = st.data
    lists: list[list[str]] = []
    singles: list[Slot] = []
    for q, me in enumerate(d["players"]):
        if q != p:
            lists += [me["hand"], me["aside"]]
    for frame in d["stack"]:
        if frame["step"] == "fight":
            for side, who in enumerate((frame["player"], frame["defender"])):
                if who is not None and who != p:
                    lists.append(frame["face_down"][side])
        elif frame["step"] == "swindle" and frame["player"] != p:
            lists.append(frame["face_down"])
    for q, me in enumerate(d["players"]):
        if q != p:
            singles += [(s, 0) for s in me["story"] if not s[1]]
    singles += [(f, "card") for f in d["stack"] if f["step"] == "pick_column" and f["player"] != p]
    return lists, singles


def _take_out(
    lists: list[list[str]], unknown: Callable[[str], bool]
) -> tuple[list[str], list[int]]:
    """Remove the unknown cards of each list: the cards taken and how many left each list."""
    taken: list[str] = []
    free: list[int] = []
    for cards in lists:
        hidden = [c for c in cards if unknown(c)]
        for c in hidden:
            cards.remove(c)
        taken += hidden
        free.append(len(hidden))
    return taken, free


def redeal_cards(st: State, p: int, rng: SplitMix64) -> None:
    """Pool the cards ``p`` cannot locate that lie in places hidden from ``p`` and deal them
    back, each place keeping its size: the deed deck's places first, with deed cards only."""
    d = st.data
    mine = str(p)
    known = dict(d["card_knowledge"])
    deck_of = st.game.deck_of

    def unknown(c: str) -> bool:
        where = known.get(c)
        return deck_of[c] == "deeds" if where is None else mine not in where

    lists, singles = hidden_card_places(st, p)
    deck = d["decks"]["deeds"]
    deck_lists = list(deck["layers"])
    deck_singles: list[Slot] = []
    if deck["top"] is not None and p not in deck["top"]["viewers"]:
        deck_singles.append((deck["top"], "card"))
    pool, list_free = _take_out(lists + deck_lists, unknown)
    single_free = [(box, key) for box, key in singles + deck_singles if unknown(box[key])]
    pool += [box[key] for box, key in single_free]
    pool.sort()  # the pool as a set: the redeal depends on what p sees and rng, not on the truth
    rng.shuffle(pool)
    in_deck = [any(box is b for b, _ in deck_singles) for box, _ in single_free]
    deck_free = sum(list_free[len(lists) :]) + sum(in_deck)
    deeds = [c for c in pool if deck_of[c] == "deeds"][:deck_free]
    taken = set(deeds)
    rest = [c for c in pool if c not in taken]
    for cards, n in zip(deck_lists, list_free[len(lists) :], strict=True):
        cards += deeds[:n]
        del deeds[:n]
    for (box, key), deck_place in zip(single_free, in_deck, strict=True):
        box[key] = deeds.pop() if deck_place else rest.pop()
    for cards, n in zip(lists, list_free[: len(lists)], strict=True):
        cards += rest[:n]
        del rest[:n]
    assert not deeds and not rest, "internal: the redeal lost track of its places"
    # the cards p knows did not move, everyone who knew where they are still does; the others'
    # knowledge is forgotten (as their part of the history)
    d["card_knowledge"] = tuple((c, s if mine in s else "") for c, s in d["card_knowledge"])


def redeal_deck_tops(st: State, p: int, rng: SplitMix64) -> None:
    """A top card of another deck revealed to others only is swapped with one of its first
    layer; every layer is put in sorted order (draws are uniform over a layer)."""
    for name, deck in st.data["decks"].items():
        for layer in deck["layers"]:
            layer.sort()
        top = deck["top"]
        if name != "deeds" and top is not None and p not in top["viewers"] and deck["layers"]:
            layer = deck["layers"][0]
            layer.append(top["card"])
            layer.sort()
            top["card"] = layer.pop(rng.roll(len(layer)) - 1)


def redeal_tents(st: State, p: int, rng: SplitMix64) -> None:
    """The tents ``p`` cannot see: the other players', those on campsites ``p`` did not leave,
    the box's."""
    d = st.data
    hands: list[list[str]] = [me["tents"] for q, me in enumerate(d["players"]) if q != p]
    hands.append(d["box"]["tents"])
    lying = [c for c in d["camp_tents"].values() if c is not None and c["owner"] != p]
    pool = sorted([t for hand in hands for t in hand] + [c["tent"] for c in lying])
    rng.shuffle(pool)
    for hand in hands:
        n = len(hand)
        hand[:] = pool[:n]
        del pool[:n]
    for c in lying:
        c["tent"] = pool.pop()


def redeal_ruin_items(st: State, p: int, rng: SplitMix64) -> None:
    """The items on ruins ``p`` has not looked at (commons and rares keep their counts per
    ruins); during the set-up, first swapped with the pools still to be dealt."""
    unseen = [r for r in st.data["ruins"].values() if p not in r["seen_by"]]
    if "setup_pool" in st.data:
        _redeal_setup_rares(st, unseen, rng)
        _redeal_setup_commons(st, unseen, rng)
    for rarity in ("common", "rare"):
        per = _items_of_rarity(st, unseen, rarity)
        pool = sorted(k for group in per for k in group)
        rng.shuffle(pool)
        _deal_back(unseen, per, pool)


def _items_of_rarity(st: State, ruins: list[dict[str, Any]], rarity: str) -> list[list[str]]:
    """The items of ``rarity`` on each of ``ruins``, in order."""
    return [[k for k in r["items"] if st.game.pack.item(k)["rarity"] == rarity] for r in ruins]


def _deal_back(ruins: list[dict[str, Any]], groups: list[list[str]], pool: list[str]) -> None:
    """Each of ``ruins`` gives up its group of ``groups`` and takes as many items from the front
    of the shuffled ``pool`` (which loses them)."""
    for r, group in zip(ruins, groups, strict=True):
        for k in group:
            r["items"].remove(k)
        r["items"] += pool[: len(group)]
        del pool[: len(group)]


def _redeal_setup_rares(st: State, unseen: list[dict[str, Any]], rng: SplitMix64) -> None:
    """During the set-up: the unseen ruins' rares and the undealt ``rare`` pool are one pool,
    dealt back with the same counts (so a redeal does not know which rares are left)."""
    pools = st.data["setup_pool"]
    if "rare" not in pools:
        return
    places = _items_of_rarity(st, unseen, "rare")
    both = sorted([*pools["rare"], *(k for group in places for k in group)])
    rng.shuffle(both)
    _deal_back(unseen, places, both)
    pools["rare"] = sorted(both)


def _redeal_setup_commons(st: State, unseen: list[dict[str, Any]], rng: SplitMix64) -> None:
    """During the set-up: the ruins take one copy of distinct common kinds (``one_each``); a kind
    still in ``one_each`` and a kind on an unseen ruins can trade places, their copy moving
    between the ruins and the ``common`` pool, unless the kind already lies in the store (its
    stack then shows whether a copy is missing, so the swap would contradict the store)."""
    pools = st.data["setup_pool"]
    left = pools.get("one_each")
    if not left:
        return
    commons = {k for r in unseen for k in r["items"] if st.game.pack.item(k)["rarity"] == "common"}
    stocked = {k for row in st.data["store"] for cell in row for k in cell}
    free_left = sorted(k for k in left if k not in stocked)
    slots = [
        (r, i)
        for r in unseen
        for i, k in enumerate(r["items"])
        if k in commons and k not in stocked and k not in left
    ]
    kinds = sorted([*free_left, *(r["items"][i] for r, i in slots)])
    if not free_left or not slots or len(set(kinds)) != len(kinds):
        return
    rng.shuffle(kinds)
    for k in free_left:
        pools["one_each"].remove(k)
    for r, i in slots:  # the copy on a ruins goes back to the common pool ...
        pools["common"].append(r["items"][i])
    for r, i in slots:  # ... and the dealt kinds take one copy from it
        kind = kinds.pop()
        r["items"][i] = kind
        pools["common"].remove(kind)
    pools["one_each"] = sorted([*pools["one_each"], *kinds])
    pools["common"].sort()


REDEALS: tuple[Callable[[State, int, SplitMix64], None], ...] = (
    redeal_cards,
    redeal_deck_tops,
    redeal_tents,
    redeal_ruin_items,
)
"""The hidden things dealt again, in order (each uses the random numbers in turn)."""


def resample(st: Any, p: int, rng: SplitMix64) -> Any:
    """A copy of ``st`` with what ``p`` cannot see redealt at random (see the module docstring)."""
    twin = st.clone()
    forget_unseen_history(twin, p)
    for redeal in REDEALS:
        redeal(twin, p, rng)
    return twin
