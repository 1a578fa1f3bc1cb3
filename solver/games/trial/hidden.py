"""Hidden information: what one player sees, and determinisations consistent with it.

Hidden from a player: the other players' hands, the cards they gained this turn, the tents on
their boards, their face-down story cards and the face-down cards they play in a fight; the order
(and, for the deed deck, the content) of the decks; tents lying face down on campsites that the
player did not put there and the tents left in the box; the items on ruins the player has not
looked at; a deck's top card revealed to others only. The observation shows counts instead.
"""

from __future__ import annotations

import copy
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


def observation(st: TrialState, p: int) -> dict[str, Any]:
    """Everything player ``p`` sees, as a JSON-able dict (hidden things as counts)."""
    d = st.d
    players = []
    for q, me in enumerate(d["players"]):
        view = {k: copy.deepcopy(v) for k, v in me.items() if k not in ("hand", "pending", "tents")}
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
        "tiles": copy.deepcopy(d["tiles"]),
        "ruins": {
            s: sorted(r["items"]) if p in r["known"] else len(r["items"])
            for s, r in d["ruins"].items()
        },
        "tunnels": dict(d["tunnels"]),
        "tunnel_tokens": d["tunnel_tokens"],
        "store": copy.deepcopy(d["store"]),
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
