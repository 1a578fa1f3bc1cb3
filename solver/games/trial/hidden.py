"""Hidden information: what one player sees, what they have seen (their information state), and
determinisations consistent with it.

Hidden from a player: the other players' hands, the cards they gained this turn, the tents on
their boards, their face-down story cards and the face-down cards they play in a fight; the order
(and, for the deed deck, the content) of the decks; tents lying face down on campsites that the
player did not put there and the tents left in the box; the items on ruins the player has not
looked at; a deck's top card revealed to others only. The observation shows counts instead.
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
    ``fresh=False`` parts of the state are shared, not copied (to be serialised at once)."""
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
    """A copy of ``st`` with what ``p`` cannot see redealt at random (see the module docstring)."""
    twin = st.clone()
    d = twin.d
    # the history: what p did not see is forgotten by everyone in the redeal (it may not match it)
    mine = str(p)
    d["log"] = tuple(e if e[0] == PUBLIC or mine in e[0] else ("", e[2], e[2]) for e in d["log"])
    deeds = set(c["id"] for c in st.g.pack.deeds)
    # deed cards: others' hands, cards aside, face-down cards; the deed deck
    slots: list[list[str]] = []
    owners: list[tuple[list[Any], list[str]]] = []
    for q, me in enumerate(d["players"]):
        if q == p:
            continue
        for key in ("hand", "pending"):
            hidden = [c for c in me[key] if c in deeds]
            owners.append((me[key], hidden))
    for frame in d["stack"]:
        if frame["k"] == "fight":
            for side, who in enumerate((frame["p"], frame["opp"])):
                if who is not None and who != p:
                    owners.append((frame["held"][side], list(frame["held"][side])))
        if frame["k"] == "swindle" and frame["p"] != p:
            owners.append((frame["held"], list(frame["held"])))
    columns = [f for f in d["stack"] if f["k"] == "pick_column" and f["p"] != p]
    columns = [f for f in columns if f["card"] in deeds]
    for container, hidden in owners:
        for c in hidden:
            container.remove(c)
        slots.append(hidden)
    facedown: list[list[Any]] = []
    for q, me in enumerate(d["players"]):
        if q != p:
            facedown += [s for s in me["story"] if not s[1] and s[0] in deeds]
    pool = [c for slot in slots for c in slot] + [s[0] for s in facedown]
    pool += [f["card"] for f in columns]
    deck = d["decks"]["deeds"]
    pool += [c for layer in deck["layers"] for c in layer]
    deed_top = deck["top"] if deck["top"] is not None and p not in deck["top"]["viewers"] else None
    if deed_top is not None:
        pool.append(deed_top["card"])
    pool.sort()  # the pool as a set: the redeal depends on what p sees and rng, not on the truth
    rng.shuffle(pool)
    for slot in slots:
        n = len(slot)
        slot[:] = pool[:n]
        del pool[:n]
    for (container, _), slot in zip(owners, slots, strict=True):
        container.extend(slot)
    for entry in facedown:
        entry[0] = pool.pop()
    for frame in columns:
        frame["card"] = pool.pop()
    if deed_top is not None:
        deed_top["card"] = pool.pop()
    sizes = [len(layer) for layer in deck["layers"]]
    deck["layers"] = []
    for n in sizes:
        deck["layers"].append(pool[:n])
        del pool[:n]
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
