"""The compiled Trial's struct as the reference's state data, and back.

:func:`decode` turns a compiled state's fields (``TrialKernelState._raw()``) into the dict the
reference rules keep in ``st.data`` (``docs/rules/trial-steps.md``), so the reference's
presentation (observations, information-state strings, ``to_json``, ``str``) reads a compiled
state as it reads its own; the differential tests hold ``decode`` to the reference's data after
every action. :func:`encode` is the inverse for a checked reference state (loading a saved
state): a state the compiled engine cannot hold (beyond its limits, or a step it keeps in a
canonical form, see :func:`encode`) is refused with a :class:`~solver.errors.FormatError` naming
``engine="reference"``.

The history is kept apart, as a chain of raw entry records written by the C engine
(:func:`entries_of`, :func:`raw_entries`).
"""

from __future__ import annotations

import functools
import struct
import threading
from collections import OrderedDict
from typing import Any

from solver.errors import FormatError
from solver.games.trial.actions import COLUMNS
from solver.games.trial.fights import STAGES
from solver.games.trial.kernel_tables import KIND, KIND_NAMES, NO_NODE, Compiled
from solver.games.trial.schema import FOODS, TENT_BONUSES

NONE = 255
Z_NONE, Z_DECK, Z_TOP, Z_DISCARD, Z_HAND, Z_ASIDE, Z_STORY, Z_ROW, Z_HELD, Z_FIGHT, Z_SWINDLE = (
    range(11)
)
PT_ENC, PT_HELP, PT_EXP0 = 250, 251, 252
PURPOSES = ("strength", "bow", "roll", "swindle")
POOLS = ("common", "rare", "one_each")
TO = ("aside", "hand", "parent", "story", "top")
CAMP_STAGES = ("campsite", "tent", "own_tent", "paws")
ONE_TIME = ("move", "trade", "strength", "card_draw")


def refuse(what: str) -> FormatError:
    """A saved state the compiled engine cannot hold."""
    return FormatError(
        f'a state the compiled Trial can hold ({what}); load it with engine="reference"',
        line=1,
        column=1,
    )


def _players_of(mask: int) -> list[int]:
    return [q for q in range(8) if (mask >> q) & 1]


def _mask(players: Any) -> int:
    m = 0
    for q in players:
        m |= 1 << int(q)
    return m


# -- the history chain ---------------------------------------------------------------------------
def read_entries(raw: bytes) -> tuple[tuple[str, str, str], ...]:
    """The history entries ``(seen_by, text, redacted)`` of one raw record, read afresh."""
    out: list[tuple[str, str, str]] = []
    i = 0
    while i < len(raw):
        code = raw[i]
        (n,) = struct.unpack_from("<H", raw, i + 1)
        text = raw[i + 3 : i + 3 + n].decode("utf-8")
        i += 3 + n
        (m,) = struct.unpack_from("<H", raw, i)
        red = raw[i + 2 : i + 2 + m].decode("utf-8")
        i += 2 + m
        seen = "*" if code == 0xFF else "".join(str(q) for q in _players_of(code))
        out.append((seen, text, red))
    return tuple(out)


CACHED_RECORD_BYTES = 4096
"""The longest record :func:`entries_of` keeps: an action's record is a few hundred bytes at most;
a longer one is a whole history given with a state (its JSON), which the cache would hold by the
thousand (megabytes each) in a long-running engine."""

_cached_entries = functools.lru_cache(maxsize=8192)(read_entries)


def entries_of(raw: bytes) -> tuple[tuple[str, str, str], ...]:
    """The history entries ``(seen_by, text, redacted)`` of one raw record.

    Cached by the record's bytes (equal records hold equal entries) when it is at most
    :data:`CACHED_RECORD_BYTES` long: every decode of a state reads its whole history chain, and
    a game replayed from labels decodes once an action, so without the cache replaying ``n``
    labels parsed ``n²/2`` records."""
    return _cached_entries(raw) if len(raw) <= CACHED_RECORD_BYTES else read_entries(raw)


def raw_entries(entries: Any) -> bytes:
    """The raw record of history entries (the inverse of :func:`entries_of`)."""
    out = bytearray()
    for seen, text, red in entries:
        t, r = text.encode("utf-8"), red.encode("utf-8")
        out.append(0xFF if seen == "*" else _mask(seen))
        out += struct.pack("<H", len(t)) + t + struct.pack("<H", len(r)) + r
    return bytes(out)


Entries = tuple[tuple[str, str, str], ...]

_HISTORIES: OrderedDict[int, tuple[Any, Entries, int]] = OrderedDict()
"""The last :data:`_HISTORIES_KEPT` chains decoded, by ``id``: ``id -> (chain, entries, bytes)``
(the chain is kept alive with its entries, so its ``id`` is not reused while it is here; bytes:
its records' length)."""
_HISTORIES_KEPT = 64
_HISTORIES_BYTES = 16 << 20
"""The most record bytes the kept chains hold together (a shared start counted in each): a whole
game's chain is tens of kilobytes, but a state given with its history holds it in one record."""
_HISTORIES_LOCK = threading.Lock()


def _known_history(link: Any) -> tuple[Entries, int] | None:
    with _HISTORIES_LOCK:
        hit = _HISTORIES.get(id(link))
        if hit is None or hit[0] is not link:
            return None
        _HISTORIES.move_to_end(id(link))
        return hit[1], hit[2]


def _keep_history(chain: Any, entries: Entries, size: int) -> None:
    if size > _HISTORIES_BYTES:
        return
    with _HISTORIES_LOCK:
        _HISTORIES[id(chain)] = (chain, entries, size)
        _HISTORIES.move_to_end(id(chain))
        kept = sum(held for _, _, held in _HISTORIES.values())
        while len(_HISTORIES) > _HISTORIES_KEPT or kept > _HISTORIES_BYTES:
            kept -= _HISTORIES.popitem(last=False)[1][2]


def history(chain: Any) -> Entries:
    """Every entry of a history chain (``None`` or ``(previous, raw)``), oldest first.

    Walked back only to the newest chain decoded before (kept by identity): a game replayed
    action by action decodes its growing history once an action, which read whole would take
    time quadratic in the game's length."""
    records = []
    known: Entries = ()
    size = 0
    link = chain
    while link is not None:
        hit = _known_history(link)
        if hit is not None:
            known, size = hit
            break
        link, raw = link
        records.append(raw)
    entries = list(known)
    for raw in reversed(records):
        entries += entries_of(raw)
        size += len(raw)
    result = tuple(entries)
    if chain is not None:
        _keep_history(chain, result, size)
    return result


# -- the set-up queue ------------------------------------------------------------------------------
def setup_queue(game: Any) -> list[dict[str, Any]]:
    """The reference's frames of the set-up queue, first to run first (setup.Setup.run)."""
    cached = getattr(game, "_setup_frames", None)
    if cached is not None:
        return list(cached)
    t = game._compiled.tables
    slots = game.board.location_slots
    frames: list[dict[str, Any]] = []
    for i in range(t["n_setup"]):
        kind, p = KIND_NAMES[t["setup_kind"][i]], t["setup_player"][i]
        a, b, c = t["setup_a"][i], t["setup_b"][i], t["setup_c"][i]
        fields: dict[str, Any] = {}
        if kind == "place_tile":
            fields = {"slot": slots[a]}
        elif kind == "ruin_item":
            fields = {"slot": slots[t["ruin_slot"][a]], "pool": POOLS[b]}
        elif kind == "stock":
            fields = {"cell": [a, b], "pool": POOLS[c]}
        elif kind == "draw":
            to = f"row:{b - 5}" if b >= 5 else TO[b]
            fields = {"player": p, "deck": ("deeds", "encounters")[a], "to": to, "viewers": None}
        elif kind in ("start_space", "deal_tent"):
            fields = {"player": p}
        frames.append({"step": kind, **fields})
    game._setup_frames = tuple(frames)
    return frames


# -- decoding --------------------------------------------------------------------------------------
class _Decoder:
    """One decode: the game's names and the state's fields."""

    def __init__(self, game: Any, raw: dict[str, Any]):
        self.game = game
        self.c: Compiled = game._compiled
        self.t = self.c.tables
        self.raw = raw
        self.layout = game.layout
        self.cards = self.layout.cards
        self.kinds = self.layout.item_kinds
        self.spaces = self.layout.spaces
        self.board = game.board
        self.slots = self.board.location_slots
        self.areas = list(self.board.areas)
        self.zone = self._zones()

    def _zones(self) -> dict[tuple[int, int], list[int]]:
        """Cards by (zone, who), each list in its order (layers: by layer, then order)."""
        zones: dict[tuple[int, int], list[tuple[int, int, int]]] = {}
        for i, (zone, who, sub, _, seq, *_rest) in enumerate(self.raw["cards"]):
            zones.setdefault((zone, who), []).append((sub if zone == Z_DECK else 0, seq, i))
        return {key: [i for _, _, i in sorted(v)] for key, v in zones.items()}

    def ids(self, key: tuple[int, int]) -> list[str]:
        return [self.cards[i] for i in self.zone.get(key, [])]

    def card(self, c: int) -> str | None:
        return None if c == NONE else self.cards[c]

    def kind(self, k: int) -> str | None:
        return None if k == NONE else self.kinds[k]

    def space(self, s: int) -> str | None:
        return None if s == NONE else self.spaces[s]

    def spot(self, i: int) -> str | None:
        if i == NONE:
            return None
        return "universal" if i == len(self.board.campsites) else self.board.campsites[i]

    def data(self) -> dict[str, Any]:
        r = self.raw
        d: dict[str, Any] = {
            "player_count": r["player_count"],
            "day": r["day"],
            "first_player": r["first_player"],
            "turn_player": None if r["turn_player"] == NONE else r["turn_player"],
            "game_over": bool(r["game_over"]),
            "players": [self.player(q, pl) for q, pl in enumerate(r["players"])],
            "tray": dict(zip(FOODS, r["tray"], strict=True)),
            "gallery_food": dict(zip(FOODS, r["gallery_food"], strict=True)),
            "tiles": {
                s: None
                if r["tiles"][i] == NONE
                else [self.layout.tiles[r["tiles"][i]], bool(r["flipped"][i])]
                for i, s in enumerate(self.slots)
            },
            "ruins": {
                self.slots[self.t["ruin_slot"][i]]: {
                    "items": [self.kinds[k] for k in items],
                    "seen_by": _players_of(seen),
                }
                for i, (items, seen) in enumerate(r["ruins"][: len(self.t["ruin_slot"])])
            },
            "tunnels": {
                **{self.spaces[s]: "open" for s in r["tunnel_open"]},
                **{self.spaces[s]: "collapsed" for s in r["tunnel_collapsed"]},
            },
            "tunnel_tokens": r["tunnel_tokens"],
            "store": self.store(),
            "box": {
                "tents": [TENT_BONUSES[b] for b in r["box_tents"]],
                "used_tents": [TENT_BONUSES[b] for b in r["used_tents"]],
                "items": [self.kinds[k] for k in r["box_items"]],
                "artifacts": [self.kinds[k] for k in r["box_artifacts"]],
            },
            "artifacts_available": [self.kinds[k] for k in r["available"]],
            "decks": self.decks(),
            "encounter_row": [self.card(c) for c in r["row"][: self.t["row_size"]]],
            "camp_tents": {
                self.spot(i): None
                if r["camp_tent"][i] == NONE
                else {
                    "tent": TENT_BONUSES[r["camp_tent"][i]],
                    "owner": None if r["camp_owner"][i] == 4 else r["camp_owner"][i],
                }
                for i in range(len(self.board.campsites) + 1)
            },
            "legendary": {
                tok["id"]: None if h == NONE else h
                for tok, h in zip(self.game.components["legendary"], r["legendary"], strict=True)
            },
            "last_fight": self.record(),
            "stack": self.stack(),
        }
        if r["has_setup_pool"]:
            pool = {
                "common": [self.kinds[k] for k in r["common"]],
                "rare": [self.kinds[k] for k in r["rare"]],
            }
            if r["has_one_each"]:
                pool["one_each"] = [self.kinds[k] for k in r["one_each"]]
            d["setup_pool"] = pool
        known = sorted(
            (kseq, i, know) for i, (*_, know, recorded, kseq) in enumerate(r["cards"]) if recorded
        )
        d["card_knowledge"] = tuple(
            (self.cards[i], "".join(str(q) for q in _players_of(know))) for _, i, know in known
        )
        return d

    def player(self, q: int, pl: dict[str, Any]) -> dict[str, Any]:
        story = []
        for i in self.zone.get((Z_STORY, q), []):
            _, _, sub, faceup, *_ = self.raw["cards"][i]
            story.append([self.cards[i], bool(faceup), COLUMNS[sub]])
        placed = []
        for target, strong in pl["placed"]:
            if target == PT_ENC:
                name = "enc"
            elif target == PT_HELP:
                name = "help"
            elif target >= PT_EXP0:
                name = f"exp:{self.areas[target - PT_EXP0]}"
            else:
                name = f"loc:{self.spaces[target]}"
            placed.append([name, bool(strong)])
        return {
            "space": self.space(pl["space"]),
            "hand": self.ids((Z_HAND, q)),
            "aside": self.ids((Z_ASIDE, q)),
            "food": dict(zip(FOODS, pl["food"], strict=True)),
            "backpack": [self.kinds[k] for k in pl["backpack"]],
            "gallery": [self.kinds[k] for k in pl["gallery"]],
            "story": story,
            "morality": pl["morality"],
            "paws": pl["paws"],
            "strong_paw": bool(pl["strong_paw"]),
            "paws_placed": placed,
            "tents": [TENT_BONUSES[b] for b in pl["tents"]],
            "flags": {a: self.space(pl["flags"][i]) for i, a in enumerate(self.areas)},
            "tent_symbols": dict(zip(ONE_TIME, pl["tent_symbols"], strict=True)),
            "camped": bool(pl["camped"]),
        }

    def store(self) -> list[list[list[str]]]:
        rows, cols = self.t["n_rows"], self.t["n_cols"]
        cells = self.raw["store"]
        return [
            [
                [self.kinds[cells[r * 4 + c][0]]] * cells[r * 4 + c][1]
                if cells[r * 4 + c][1]
                else []
                for c in range(cols)
            ]
            for r in range(rows)
        ]

    def decks(self) -> dict[str, Any]:
        names = ["deeds", "encounters", *(f"exp:{a}" for a in self.areas)]
        out = {}
        for d, name in enumerate(names):
            top, viewers, _, _ = self.raw["decks"][d]
            layers: dict[int, list[str]] = {}
            for i in self.zone.get((Z_DECK, d), []):
                layers.setdefault(self.raw["cards"][i][2], []).append(self.cards[i])
            out[name] = {
                "layers": [layers[k] for k in sorted(layers)],
                "discard": self.ids((Z_DISCARD, d)),
                "top": None
                if top == NONE
                else {"card": self.cards[top], "viewers": _players_of(viewers)},
            }
        return out

    def faces(self, rolls: list[int]) -> list[list[Any]]:
        return [[b >> 7, PURPOSES[(b >> 5) & 3], b & 31] for b in rolls]

    def record(self) -> dict[str, Any] | None:
        rec = self.raw["last_fight"]
        if not rec["present"]:
            return None
        rolls = self.faces(rec["rolls"])
        strength, win = self.t["dface_strength"], self.t["dface_win"]
        bow = [[s, "win" if win[j] else strength[j]] for s, p, j in rolls if p == "bow"]
        return {
            "card": self.cards[rec["card"]],
            "attacker": rec["attacker"],
            "defender": None if rec["defender"] == NONE else rec["defender"],
            "strength": list(rec["strength"]),
            "dice": [
                [strength[j] for s, p, j in rolls if s == side and p == "strength"]
                for side in (0, 1)
            ],
            "bow": bow,
            "by": "bow" if any(r == "win" for _, r in bow) else "strength",
            "winner": "attacker" if rec["winner"] == 0 else "defender",
        }

    # -- the stack ---------------------------------------------------------------------------
    def stack(self) -> list[dict[str, Any]]:
        frames: list[dict[str, Any]] = []
        for kind, player, rep, card, v, node, x in self.raw["stack"]:
            if kind == KIND["setup_queue"]:
                frames += [dict(f) for f in reversed(setup_queue(self.game)[x:])]
                continue
            frame = self.frame(KIND_NAMES[kind], player, card, v, node, x)
            frames += [dict(frame) for _ in range(rep)]
        return frames

    def path(self, node: int) -> list[Any]:
        return [] if node == NO_NODE else list(self.c.node_path[node][1])

    def units(self, cost: int, reps: int, start: int) -> list[dict[str, Any]]:
        units: list[dict[str, Any]] = []
        for unit, per_item in self.c.cost_units[cost]:
            units += [dict(unit) for _ in range(reps if per_item else 1)]
        return [{"alts": list(u["alts"]), "to": u["to"]} for u in units[start:]]

    def frame(
        self, name: str, p: int, card: int, v: list[int], node: int, x: int
    ) -> dict[str, Any]:
        f: dict[str, Any] = {"step": name}
        f.update(getattr(self, f"f_{name}", self.f_player_only)(p, card, v, node, x))
        return f

    # one method per kind: the frame's fields (step kinds with only a player use f_player_only)
    def f_player_only(self, p, card, v, node, x):
        return {"player": p}

    def f_make_room(self, p, card, v, node, x):
        return {"player": p, "kind": self.kinds[v[0]]}

    f_return_slot = f_make_room

    def f_side(self, p, card, v, node, x):
        return {"player": p, "card": self.card(card)}

    def f_draw(self, p, card, v, node, x):
        names = ["deeds", "encounters", *(f"exp:{a}" for a in self.areas)]
        to = TO[v[1]] if v[1] < 5 else f"row:{v[1] - 5}"
        return {
            "player": p,
            "deck": names[v[0]],
            "to": to,
            "viewers": _players_of(v[2]) if v[3] else None,
        }

    def f_pay(self, p, card, v, node, x):
        return {"player": p, "units": self.units(node, v[0], v[1]), "card_worth": v[2]}

    def f_draw_offer(self, p, card, v, node, x):
        return {"player": p, "count": v[0]}

    def f_from_discard(self, p, card, v, node, x):
        chosen = set(self.raw["choices"])
        pile = self.zone.get((Z_DISCARD, 0), [])
        return {"player": p, "choices": [self.cards[c] for c in pile if c in chosen], "left": v[0]}

    def f_give(self, p, card, v, node, x):
        return {"player": p, "what": ("food", "tea", "card")[v[0]], "company": bool(v[1])}

    def f_pick_card(self, p, card, v, node, x):
        purpose = ("story_faceup", "story_facedown", "give")[v[0]]
        return {"player": p, "purpose": purpose, "to": None if v[1] == NONE else v[1]}

    def f_pick_column(self, p, card, v, node, x):
        return {"player": p, "card": self.cards[card]}

    def f_pick_food(self, p, card, v, node, x):
        return {
            "player": p,
            "purpose": ("gain", "give")[v[0]],
            "to": None if v[1] == NONE else v[1],
        }

    def f_take_item(self, p, card, v, node, x):
        return {"player": p, "rarity": "rare" if v[0] else "common", "other_than": self.kind(v[1])}

    def f_place_tile(self, p, card, v, node, x):
        return {"slot": self.slots[v[0]]}

    def f_ruin_item(self, p, card, v, node, x):
        return {"slot": self.slots[self.t["ruin_slot"][v[0]]], "pool": POOLS[v[1]]}

    def f_setup(self, p, card, v, node, x):
        return {}

    f_setup_done = f_setup

    def f_stock(self, p, card, v, node, x):
        return {"cell": [v[0], v[1]], "pool": POOLS[v[2]]}

    def f_move(self, p, card, v, node, x):
        return {"player": p, "base": v[0], "extra": v[1], "cards": v[2]}

    def f_turn(self, p, card, v, node, x):
        bits = v[0]
        return {
            "player": p,
            "deed_played": bool(bits & 1),
            "moved": bool(bits & 2),
            "paw_used": bool(bits & 4),
            "at_start": bool(bits & 8),
            "ended": bool(bits & 16),
        }

    def f_choose(self, p, card, v, node, x):
        return {"player": p, "card": self.cards[card], "path": self.path(node)}

    def f_effects(self, p, card, v, node, x):
        return {"player": p, "card": self.cards[card], "path": self.path(node), "next": v[0]}

    def f_offer(self, p, card, v, node, x):
        return {"player": p, "owner": v[0], "card": self.cards[card], "path": self.path(node)}

    def f_resolve(self, p, card, v, node, x):
        return {
            "player": p,
            "card": self.cards[card],
            "source": ("deed", "encounter", "expedition")[v[0]],
            "stage": ("pay", "effects", "place")[v[1]],
            "effects": ("effect", "unpaid")[v[2]],
            "destination": ("story", "facedown", "discard")[v[3]],
            "moral_side": (None, "good", "evil")[v[4]],
            "owner": v[5],
            "holding": [self.cards[card]],
            "leave": bool(v[6]),
        }

    def f_die(self, p, card, v, node, x):
        return {"player": p, "parent": KIND_NAMES[v[0]], "side": v[1], "purpose": PURPOSES[v[2]]}

    def f_duel(self, p, card, v, node, x):
        return {
            "player": p,
            "card": self.cards[card],
            "stake": "food" if v[0] else None,
            "target": "evil" if v[1] else None,
        }

    def f_duel_target(self, p, card, v, node, x):
        return {
            "player": p,
            "card": self.cards[card],
            "stake": "food" if v[0] else None,
            "targets": _players_of(v[1]),
        }

    def f_fight(self, p, card, v, node, x):
        f = self.raw["fight"]
        return {
            "player": p,
            "defender": None if f["defender"] == NONE else f["defender"],
            "card": self.cards[f["card"]],
            "path": self.path(f["node"]),
            "foe": list(f["foe"]),
            "stage": STAGES[f["stage"]],
            "weapons": [self.kind(k) for k in f["weapons"]],
            "rolls": self.faces(f["rolls"]),
            "discard_strength": list(f["discard"]),
            "face_down": [[self.cards[c] for c in side] for side in f["down"]],
            "winner": None if f["winner"] == NONE else f["winner"],
            "stake": "food" if f["stake"] else None,
        }

    def f_fight_cards(self, p, card, v, node, x):
        return {"player": p, "side": v[0]}

    f_fight_weapon = f_fight_cards

    def f_fight_discard(self, p, card, v, node, x):
        return {"player": p, "side": v[0], "cards": v[1], "token": bool(v[2])}

    def f_roll(self, p, card, v, node, x):
        return {
            "player": p,
            "card": self.cards[card],
            "path": self.path(node),
            "rolls": self.faces(v[1 : 1 + v[0]]),
            "rerolled": bool(v[5]),
            "asked": bool(v[6]),
        }

    def f_swindle(self, p, card, v, node, x):
        return {
            "player": p,
            "card": self.cards[card],
            "path": self.path(node),
            "face_down": [self.cards[c] for c in self.raw["swindle"]],
            "fame": x,
        }

    def f_swindle_roll(self, p, card, v, node, x):
        return {
            "player": p,
            "card": self.cards[card],
            "path": self.path(node),
            "fame": x,
            "rolls": self.faces(v[1 : 1 + v[0]]),
        }

    def f_enhance(self, p, card, v, node, x):
        return {
            "player": p,
            "kind": ("food", "card", "trade")[v[0]],
            "into": KIND_NAMES[v[1]],
            "cards": v[2],
            "token": bool(v[3]),
            "boost": v[4],
            "foods": dict(zip(FOODS, v[5:9], strict=True)),
        }

    def f_exchange(self, p, card, v, node, x):
        return {"player": p, "food": FOODS[v[0]]}

    def f_harvest(self, p, card, v, node, x):
        return {
            "player": p,
            "food": None if v[0] == NONE else FOODS[v[0]],
            "tea": v[1],
            "boost": v[2],
            "foods": dict(zip(FOODS, v[3:7], strict=True)),
        }

    def f_lookout_draw(self, p, card, v, node, x):
        return {"player": p, "base": v[0], "boost": v[1]}

    def f_ruins(self, p, card, v, node, x):
        return {
            "player": p,
            "slot": self.slots[self.t["ruin_slot"][v[0]]],
            "strong_paw": bool(v[1]),
            "stage": ("food", "tea")[v[2]],
        }

    def f_turn_tile(self, p, card, v, node, x):
        return {"player": p, "verb": ("ruin", "restore")[v[0]]}

    def f_use_location(self, p, card, v, node, x):
        return {"player": p, "slot": self.slots[v[0]], "strong_paw": bool(v[1])}

    def f_ruined_store_sale(self, p, card, v, node, x):
        return {"player": p, "mode": ("common_item", "two_tea", "two_food_two_cards")[v[0]]}

    def f_sale_slot(self, p, card, v, node, x):
        cells = [[i // 4, i % 4] for i in range(12) if (node >> i) & 1]
        return {"player": p, "kind": self.kinds[v[0]], "cells": cells, "paid": bool(v[1])}

    def f_store_visit(self, p, card, v, node, x):
        return {
            "player": p,
            "card_worth": v[0],
            "bought": [self.kinds[k] for k in self.raw["bought"]],
            "sold": [self.kinds[k] for k in self.raw["sold"]],
        }

    def f_trading_bonus(self, p, card, v, node, x):
        return {"player": p, "points": x, "boost": v[0]}

    def f_advance(self, p, card, v, node, x):
        steps = v[1] - 256 if v[1] > 127 else v[1]
        return {
            "player": p,
            "line": ("any", "dotted", "dashed")[v[0]],
            "steps": steps,
            "optional": bool(v[2]),
        }

    def f_embark(self, p, card, v, node, x):
        return {"player": p, "area": self.areas[v[0]], "strong_paw": bool(v[1])}

    def f_expedition(self, p, card, v, node, x):
        return {
            "player": p,
            "area": self.areas[v[0]],
            "redraws": v[1],
            "drawn": self.card(card),
            "asked": bool(v[2]),
        }

    def f_flag(self, p, card, v, node, x):
        return {"player": p, "mode": ("move", "place")[v[0]]}

    def f_box_tent(self, p, card, v, node, x):
        return {"player": p, "spot": self.board.campsites[v[0]]}

    def f_camp(self, p, card, v, node, x):
        return {"player": p, "spot": self.spot(v[0]), "stage": CAMP_STAGES[v[1]]}

    def f_pick_tent(self, p, card, v, node, x):
        return {"player": p, "spot": self.spot(v[0])}


def decode(state: Any) -> dict[str, Any]:
    """The reference's state data of a compiled state (its history included)."""
    data = _Decoder(state.game, state._raw()).data()
    data["history"] = history(state.history)
    return data
