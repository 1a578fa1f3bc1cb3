"""What one player sees: the observation, the information state, a text summary.

Hidden from a player: the other players' hands, the cards they gained this turn, the tents on
their boards, their face-down story cards and the face-down cards they play in a fight or before a
Swindler roll; the order (and, for the deed deck, the content) of the decks; tents lying face down
on campsites that the player did not put there and the tents left in the box; the items on ruins
the player has not looked at; a deck's top card revealed to others only. The observation shows
counts instead. What the player has seen happen is the history (:mod:`.history`).
"""

from __future__ import annotations

import copy
import json
from typing import TYPE_CHECKING, Any

from solver.games.trial.fights import live_fight
from solver.games.trial.history import history

if TYPE_CHECKING:
    from solver.games.trial.core import State


def _frame_view(frame: dict[str, Any], p: int) -> dict[str, Any]:
    """A step as player ``p`` sees it: the face-down cards of others counted, not named."""
    view = dict(frame)
    if frame["step"] == "fight":
        owners = [frame["player"], frame["defender"]]
        view["face_down"] = [
            list(h) if owners[i] == p else len(h) for i, h in enumerate(frame["face_down"])
        ]
    elif frame["step"] == "swindle" and frame["player"] != p:
        view["face_down"] = len(frame["face_down"])
    elif frame["step"] == "pick_column" and frame["player"] != p:
        view["card"] = "face down"
    return view


def _same(value: Any) -> Any:
    return value


def observation(st: State, p: int, fresh: bool = True) -> dict[str, Any]:
    """Everything player ``p`` sees, as a JSON-able dict (hidden things as counts). With
    ``fresh=False`` parts of the state are shared, not copied (to be serialised at once).

    ``last_fight`` is the account of the latest decided fight (both strengths, the dice, the
    winner: :func:`solver.games.trial.fights.fight_record`), ``fight`` the fight being fought as
    everyone sees it (:func:`solver.games.trial.fights.live_fight`)."""
    d = st.data
    dup = copy.deepcopy if fresh else _same
    players = []
    for q, me in enumerate(d["players"]):
        view = {k: dup(v) for k, v in me.items() if k not in ("hand", "aside", "tents")}
        if q == p:
            view["hand"] = sorted(me["hand"])
            view["aside"] = sorted(me["aside"])
            view["tents"] = sorted(me["tents"])
        else:
            view["hand"] = len(me["hand"])
            view["aside"] = len(me["aside"])
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
        "first_player": d["first_player"],
        "turn_player": d["turn_player"],
        "game_over": d["game_over"],
        "players": players,
        "tray": dict(d["tray"]),
        "gallery_food": dict(d["gallery_food"]),
        "tiles": dup(d["tiles"]),
        "ruins": {
            s: sorted(r["items"]) if p in r["seen_by"] else len(r["items"])
            for s, r in d["ruins"].items()
        },
        "tunnels": dict(d["tunnels"]),
        "tunnel_tokens": d["tunnel_tokens"],
        "store": dup(d["store"]),
        "artifacts_available": sorted(d["artifacts_available"]),
        "encounter_row": list(d["encounter_row"]),
        "legendary": dict(d["legendary"]),
        "decks": decks,
        "camp_tents": {
            s: (c["tent"] if c["owner"] == p else "face down") if c else None
            for s, c in d["camp_tents"].items()
        },
        "box": {
            "tents": len(d["box"]["tents"]),
            "used_tents": sorted(d["box"]["used_tents"]),
            "items": sorted(d["box"]["items"]),
            "artifacts": sorted(d["box"]["artifacts"]),
        },
        "setup_pool": {k: len(v) for k, v in d.get("setup_pool", {}).items()},
        "last_fight": dup(d["last_fight"]),
        "fight": live_fight(st),
        "stack": [_frame_view(f, p) for f in d["stack"]],
    }


def information_state(st: State, p: int) -> str:
    """Player ``p``'s information state: the history as ``p`` saw it, then the current
    observation (canonical JSON)."""
    lines = history(st, p)
    lines.append(json.dumps(observation(st, p, fresh=False), sort_keys=True))
    return "\n".join(lines)


def describe(st: State) -> str:
    """A short text summary of the state (for ``str(state)``)."""
    d = st.data
    lines = [f"day {d['day']}, first player {d['first_player']}, turn {d['turn_player']}"]
    for q, me in enumerate(d["players"]):
        food = " ".join(f"{k[0]}{v}" for k, v in me["food"].items())
        lines.append(
            f"player {q}: at {me['space']}, food {food}, hand {len(me['hand'])}, "
            f"pack {','.join(me['backpack']) or '-'}, story {len(me['story'])}, "
            f"morality {me['morality']:+d}, paws {me['paws']}+{int(me['strong_paw'])}, "
            f"tents {len(me['tents'])}"
        )
    top = st.data["stack"][-1]["step"] if st.data["stack"] else "over"
    lines.append(f"waiting for: {top}")
    return "\n".join(lines)
