"""Hidden information: what one player sees, what they have seen (their information state), and
determinisations consistent with it.

Hidden from a player: the other players' hands, the cards they gained this turn, the tents on
their boards, their face-down story cards and the face-down cards they play in a fight; the order
(and, for the deed deck, the content) of the decks; tents lying face down on campsites that the
player did not put there and the tents left in the box; the items on ruins the player has not
looked at; a deck's top card revealed to others only. The observation shows counts instead.

Determinisations (``resample``) keep what the player knows: the state records, per card, the
players who know which place it lies in (see ``known_to``), and only the cards a player cannot
locate are redealt, so a redeal never contradicts that player's information state.
"""

from __future__ import annotations

import copy
import json
import random
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from solver.games.trial.rules import TrialState


def _frame_view(frame: dict[str, Any], p: int) -> dict[str, Any]:
    view = dict(frame)
    if frame["k"] == "fight":
        owners = [frame["p"], frame["opp"]]
        view["held"] = [list(h) if owners[i] == p else len(h) for i, h in enumerate(frame["held"])]
    elif frame["k"] == "swindle":
        view["held"] = list(frame["held"]) if frame["p"] == p else len(frame["held"])
    elif frame["k"] == "pick_column" and frame["p"] != p:
        view["card"] = "face down"
    return view


def _same(value: Any) -> Any:
    return value


def observation(st: TrialState, p: int, fresh: bool = True) -> dict[str, Any]:
    """Everything player ``p`` sees, as a JSON-able dict (hidden things as counts). With
    ``fresh=False`` parts of the state are shared, not copied (to be serialised at once).

    ``last_fight`` is the account of the latest decided fight (both strengths, the dice, the
    winner: :func:`solver.games.trial.fights.fight_record`), ``fight`` the fight being fought as
    everyone sees it (:func:`solver.games.trial.fights.live_fight`)."""
    from solver.games.trial.fights import live_fight

    d = st.d
    dup = copy.deepcopy if fresh else _same
    players = []
    for q, me in enumerate(d["players"]):
        view = {k: dup(v) for k, v in me.items() if k not in ("hand", "pending", "tents")}
        if q == p:
            view["hand"] = sorted(me["hand"])
            view["pending"] = sorted(me["pending"])
            view["tents"] = sorted(me["tents"])
        else:
            view["hand"] = len(me["hand"])
            view["pending"] = len(me["pending"])
            view["tents"] = len(me["tents"])
            view["story"] = [s if s[1] else [None, False, s[2]] for s in me["story"]]
        players.append(view)
    decks = {}
    for name, deck in d["decks"].items():
        top = deck["top"]
        decks[name] = {
            "size": sum(len(layer) for layer in deck["layers"]),
            "layers": [len(layer) for layer in deck["layers"]],
            "discard": list(deck["discard"]),
            "top": (top["card"] if p in top["viewers"] else "hidden") if top else None,
        }
    return {
        "observer": p,
        "day": d["day"],
        "first": d["first"],
        "turn": d["turn"],
        "over": d["over"],
        "players": players,
        "tray": dict(d["tray"]),
        "gallery_food": dict(d["gallery_food"]),
        "tiles": dup(d["tiles"]),
        "ruins": {
            s: sorted(r["items"]) if p in r["known"] else len(r["items"])
            for s, r in d["ruins"].items()
        },
        "tunnels": dict(d["tunnels"]),
        "tunnel_tokens": d["tunnel_tokens"],
        "store": dup(d["store"]),
        "artifacts": sorted(d["artifacts"]),
        "row": list(d["row"]),
        "legendary": dict(d["legendary"]),
        "decks": decks,
        "camps": {
            s: (c["tent"] if c["owner"] == p else "face down") if c else None
            for s, c in d["camps"].items()
        },
        "box": {
            "tents": len(d["box"]["tents"]),
            "used_tents": sorted(d["box"]["used_tents"]),
            "items": sorted(d["box"]["items"]),
            "artifacts": sorted(d["box"]["artifacts"]),
        },
        "setup_pool": {k: len(v) for k, v in d.get("pool", {}).items()},
        "last_fight": dup(d["last_fight"]),
        "fight": live_fight(st),
        "stack": [_frame_view(f, p) for f in d["stack"]],
    }


# -- the history: what each player has seen and done ----------------------------------------------
# ``st.d["log"]`` is a tuple of entries ``(seen_by, text, redacted)``, one per action and one per
# automatic revelation, in order: ``seen_by`` is ``"*"`` (everyone) or the digits of the players
# who see ``text``; the others see ``redacted``. The tuple is never changed in place (a new tuple
# is made for each entry), so copies of a state share it.
PUBLIC = "*"
Entry = tuple[str, str, str]


def note(st: TrialState, seen_by: str, text: str, redacted: str = "") -> None:
    """Append one entry to the history (``seen_by``: ``"*"`` or the digits of the players who see
    ``text``; the others see ``redacted``)."""
    st.d["log"] = (*st.d["log"], (seen_by, text, redacted))


def _players(players: Any) -> str:
    return "".join(str(q) for q in sorted(set(players)))


def action_entry(st: TrialState, frame: dict[str, Any], actor: int, action: int) -> Entry:
    """The history entry of ``action`` taken at ``frame`` by ``actor`` (-1: chance): public, or
    seen by the actor (and whoever else the rules show it to) with a redacted text for the
    others. Hidden: which card goes face down into a story, to a fight or to a Swindler, which
    card is given (the giver and the taker see it), which tent is left on a campsite; a card
    drawn (its drawer sees it; a deck top revealed: its viewers), a tent dealt (its owner) or
    taken from the box, the items laid on ruins (nobody)."""
    k = frame["k"]
    who = "c" if actor < 0 else str(actor)
    text = f"{who}:{k}:{action}"
    hidden = f"{who}:{k}:?"
    L = st.L
    if actor < 0:
        if k == "draw":
            to = frame["to"]
            if to in ("pending", "hand"):
                return (str(frame["p"]), text, f"{hidden}{frame['p']}")
            if to == "top":
                viewers = frame["viewers"]
                if len(viewers) < st.d["n"]:
                    return (_players(viewers), text, hidden)
        elif k == "deal_tent":
            return (str(frame["p"]), text, f"{hidden}{frame['p']}")
        elif k in ("ruin_item", "box_tent"):
            return ("", hidden, hidden)
        return (PUBLIC, text, "")
    if k in ("fight_cards", "swindle", "facedown_optional"):
        if L.family(action)[0] == "card":
            return (who, text, hidden)
    elif k == "pick_card":
        purpose = frame["purpose"]
        if purpose == "story_facedown":
            return (who, text, hidden)
        if purpose == "give":
            return (_players([actor, frame["to"]]), text, hidden)
    elif k == "pick_tent":
        return (who, text, hidden)
    return (PUBLIC, text, "")


# -- who knows where a card is --------------------------------------------------------------------
# ``st.d["known"]`` is a tuple of pairs ``(card, seen_by)``: the digits of the players who know
# which container the card lies in (a player's hand, cards aside, face-down story, a fight or a
# Swindler's held cards, a card waiting for its column, the deed deck). Without a pair a deed card
# is known to nobody (beyond what its own container shows), any other card to everyone (encounter
# and expedition cards only ever move in sight of all, until one of them leaves a hand unseen).
# The tuple is replaced, never changed in place, so copies of a state share it.
def _everyone(st: TrialState) -> str:
    return "0123456789"[: st.d["n"]]


def known_to(st: TrialState, cid: str, known: dict[str, str] | None = None) -> str:
    """The digits of the players who know where ``cid`` lies (see the comment above)."""
    if known is None:
        known = dict(st.d["known"])
    if cid in known:
        return known[cid]
    return "" if st.g.deck_of[cid] == "deeds" else _everyone(st)


def _default(st: TrialState, cid: str) -> str:
    return "" if st.g.deck_of[cid] == "deeds" else _everyone(st)


def know(st: TrialState, cards: list[str], seen_by: str) -> None:
    """The players ``seen_by`` (digits, or ``"*"``: everyone) see ``cards`` arrive where they lie
    now: they, and nobody else, know where these cards are."""
    if seen_by == PUBLIC:
        seen_by = _everyone(st)
    known = dict(st.d["known"])
    changed = False
    for cid in cards:
        if seen_by == _default(st, cid):  # the default needs no record (the record stays short)
            changed = known.pop(cid, None) is not None or changed
        elif known.get(cid) != seen_by:
            known[cid] = seen_by
            changed = True
    if changed:
        st.d["known"] = tuple(known.items())


def forget(st: TrialState, cards: list[str], seen_by: str) -> None:
    """A card left the container holding ``cards`` and only the players ``seen_by`` saw which:
    the others no longer know that any of ``cards`` is still there (it may be the one that
    left), so they forget where these cards are."""
    if seen_by == PUBLIC:
        return
    known = dict(st.d["known"])
    changed = False
    for cid in cards:
        old = known.get(cid)
        if old is None:
            if st.g.deck_of[cid] == "deeds":
                continue  # known to nobody already
            old = _everyone(st)
        new = "".join(q for q in old if q in seen_by)
        if new != old:
            known[cid] = new
            changed = True
    if changed:
        st.d["known"] = tuple(known.items())


_CARD_OPTION = ("help", "universal")
"""Steps whose first card action is the option "a deed card" (a draw follows), not a card."""


def track(
    st: TrialState,
    frame: dict[str, Any],
    actor: int,
    action: int,
    entry: Entry,
    top_viewers: list[int] | None = None,
) -> None:
    """Update who knows where cards are after ``action`` (its history ``entry``) at ``frame``:
    the card the action names is known to those who see the entry (and, for a draw of a deck
    top revealed before, to its viewers); a card drawn or played out of a hand unseen makes the
    others forget where the rest of that deck or hand is."""
    L = st.L
    index = action - L.CARD
    if not 0 <= index < len(L.cards) or frame["k"] in _CARD_OPTION:
        return
    cid = L.cards[index]
    seen_by = entry[0]
    if top_viewers and seen_by != PUBLIC:
        seen_by = _players([*(int(q) for q in seen_by), *top_viewers])
    know(st, [cid], seen_by)
    if seen_by == PUBLIC:
        return
    if frame["k"] == "draw":
        deck = st.d["decks"][frame["deck"]]
        rest = [c for layer in deck["layers"] for c in layer]
        if deck["top"] is not None:
            rest.append(deck["top"]["card"])
        forget(st, rest, seen_by)
    elif actor >= 0:
        forget(st, list(st.d["players"][actor]["hand"]), seen_by)


def history(st: TrialState, p: int) -> list[str]:
    """Player ``p``'s view of the history, one line per entry."""
    mine = str(p)
    return [
        text if seen == PUBLIC or mine in seen else redacted for seen, text, redacted in st.d["log"]
    ]


def information_state(st: TrialState, p: int) -> str:
    """Player ``p``'s information state: the history as ``p`` saw it, then the current
    observation (canonical JSON)."""
    lines = history(st, p)
    lines.append(json.dumps(observation(st, p, fresh=False), sort_keys=True))
    return "\n".join(lines)


def _redeal(slots: list[list[Any]], pool: list[Any], rng: random.Random) -> None:
    """Refill each slot (a list, emptied) with as many items as it had, from a shuffled pool."""
    rng.shuffle(pool)
    for slot in slots:
        n = len(slot)
        slot[:] = pool[:n]
        del pool[:n]


def resample(st: TrialState, p: int, rng: random.Random) -> TrialState:
    """A copy of ``st`` with what ``p`` cannot see redealt at random (see the module docstring).

    Cards whose place ``p`` knows (``known_to``) stay where they are; the others lying in places
    hidden from ``p`` are pooled and dealt back into those places, each keeping its size (the
    deed deck takes deed cards only)."""
    twin = st.clone()
    d = twin.d
    # the history: what p did not see is forgotten by everyone in the redeal (it may not match it)
    mine = str(p)
    d["log"] = tuple(e if e[0] == PUBLIC or mine in e[0] else ("", e[2], e[2]) for e in d["log"])
    known = dict(d["known"])
    deck_of = st.g.deck_of

    def unknown(c: str) -> bool:
        where = known.get(c)
        return deck_of[c] == "deeds" if where is None else mine not in where

    # places hidden from p: lists of cards (others' hands, cards aside and held cards) and single
    # cards (face-down story cards, a card waiting for its column, an unseen deed deck top)
    lists: list[list[str]] = []
    for q, me in enumerate(d["players"]):
        if q != p:
            lists += [me["hand"], me["pending"]]
    for frame in d["stack"]:
        if frame["k"] == "fight":
            for side, who in enumerate((frame["p"], frame["opp"])):
                if who is not None and who != p:
                    lists.append(frame["held"][side])
        if frame["k"] == "swindle" and frame["p"] != p:
            lists.append(frame["held"])
    singles: list[tuple[Any, Any]] = []  # (container, key)
    for q, me in enumerate(d["players"]):
        if q != p:
            singles += [(s, 0) for s in me["story"] if not s[1]]
    singles += [(f, "card") for f in d["stack"] if f["k"] == "pick_column" and f["p"] != p]
    deck = d["decks"]["deeds"]
    deck_lists = list(deck["layers"])
    deck_singles: list[tuple[Any, Any]] = []
    if deck["top"] is not None and p not in deck["top"]["viewers"]:
        deck_singles.append((deck["top"], "card"))
    # take out what p does not know, remembering the free places
    pool: list[str] = []
    list_free: list[int] = []
    for cards in lists + deck_lists:
        hidden = [c for c in cards if unknown(c)]
        for c in hidden:
            cards.remove(c)
        pool += hidden
        list_free.append(len(hidden))
    single_free = [(box, key) for box, key in singles + deck_singles if unknown(box[key])]
    pool += [box[key] for box, key in single_free]
    pool.sort()  # the pool as a set: the redeal depends on what p sees and rng, not on the truth
    rng.shuffle(pool)
    # the deed deck's free places first, with deed cards (in shuffled order), then the rest
    deck_free = sum(list_free[len(lists) :]) + sum(
        1 for box, _ in single_free if any(box is b for b, _ in deck_singles)
    )
    deeds = [c for c in pool if deck_of[c] == "deeds"][:deck_free]
    taken = set(deeds)
    rest = [c for c in pool if c not in taken]
    for cards, n in zip(deck_lists, list_free[len(lists) :], strict=True):
        cards += deeds[:n]
        del deeds[:n]
    for box, key in single_free:
        if any(box is b for b, _ in deck_singles):
            box[key] = deeds.pop()
        else:
            box[key] = rest.pop()
    for cards, n in zip(lists, list_free[: len(lists)], strict=True):
        cards += rest[:n]
        del rest[:n]
    assert not deeds and not rest, "internal: the redeal lost track of its places"
    # who knows what, in the redeal: the cards p knows did not move, everyone who knew where
    # they are still does; the others' knowledge is forgotten (as their part of the history)
    d["known"] = tuple((c, s if mine in s else "") for c, s in d["known"])
    # deck tops known to others only; a layer's order means nothing (draws are uniform over it)
    for name, deck in d["decks"].items():
        for layer in deck["layers"]:
            layer.sort()
        top = deck["top"]
        if name != "deeds" and top is not None and p not in top["viewers"] and deck["layers"]:
            layer = deck["layers"][0]
            layer.append(top["card"])
            layer.sort()
            top["card"] = layer.pop(rng.randrange(len(layer)))
    # tents
    tent_slots: list[list[str]] = [me["tents"] for q, me in enumerate(d["players"]) if q != p]
    tent_slots.append(d["box"]["tents"])
    camp_tents = [c for c in d["camps"].values() if c is not None and c["owner"] != p]
    tent_pool = [t for slot in tent_slots for t in slot] + [c["tent"] for c in camp_tents]
    tent_pool.sort()
    rng.shuffle(tent_pool)
    for slot in tent_slots:
        n = len(slot)
        slot[:] = tent_pool[:n]
        del tent_pool[:n]
    for c in camp_tents:
        c["tent"] = tent_pool.pop()
    # items on ruins the player has not seen (commons and rares keep their counts per ruins)
    unseen = [r for r in d["ruins"].values() if p not in r["known"]]
    if "pool" in d:
        _redeal_setup_pools(twin, unseen, rng)
    for rarity in ("common", "rare"):
        per = [[k for k in r["items"] if st.g.pack.item(k)["rarity"] == rarity] for r in unseen]
        item_pool = sorted(k for group in per for k in group)
        rng.shuffle(item_pool)
        for r, group in zip(unseen, per, strict=True):
            for k in group:
                r["items"].remove(k)
            r["items"] += item_pool[: len(group)]
            del item_pool[: len(group)]
    return twin


def _redeal_setup_pools(st: TrialState, unseen: list[dict[str, Any]], rng: random.Random) -> None:
    """During the set-up, swap the items on ruins nobody showed ``p`` with the pools still to be
    dealt, so a redeal does not know which kinds are left (sizes kept).

    Rares: the unseen ruins' rares and the undealt ``rare`` pool are one pool, dealt back with
    the same counts. Commons: the ruins take one copy of distinct kinds (``one_each``); a kind
    still in ``one_each`` and a kind on an unseen ruins can trade places, their copy moving
    between the ruins and the ``common`` pool, unless the kind already lies in the store (its
    stack then shows whether a copy is missing, so the swap would contradict the store)."""
    pools = st.d["pool"]
    rarity = {k: st.g.pack.item(k)["rarity"] for r in unseen for k in r["items"]}
    if "rare" in pools:
        places = [[k for k in r["items"] if rarity[k] == "rare"] for r in unseen]
        both = sorted([*pools["rare"], *(k for group in places for k in group)])
        rng.shuffle(both)
        for r, group in zip(unseen, places, strict=True):
            for k in group:
                r["items"].remove(k)
            r["items"] += both[: len(group)]
            del both[: len(group)]
        pools["rare"] = sorted(both)
    left = pools.get("one_each")
    if not left:
        return
    stocked = {k for row in st.d["store"] for cell in row for k in cell}
    free_left = sorted(k for k in left if k not in stocked)
    slots = [
        (r, i)
        for r in unseen
        for i, k in enumerate(r["items"])
        if rarity.get(k) == "common" and k not in stocked and k not in left
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


def describe(st: TrialState) -> str:
    """A short text summary of the state (for ``str(state)``)."""
    d = st.d
    lines = [f"day {d['day']}, first player {d['first']}, turn {d['turn']}"]
    for q, me in enumerate(d["players"]):
        food = " ".join(f"{k[0]}{v}" for k, v in me["food"].items())
        lines.append(
            f"player {q}: at {me['pos']}, food {food}, hand {len(me['hand'])}, "
            f"pack {','.join(me['pack']) or '-'}, story {len(me['story'])}, "
            f"morality {me['morality']:+d}, paws {me['paws']}+{int(me['strong'])}, "
            f"tents {len(me['tents'])}"
        )
    top = st.d["stack"][-1]["k"] if st.d["stack"] else "over"
    lines.append(f"waiting for: {top}")
    return "\n".join(lines)
