"""A reference state's data as the compiled Trial's struct fields (loading a saved state).

:func:`encode` is :func:`solver.games.trial.kernel_codec.decode`'s inverse for a state the
reference has checked and settled. The compiled engine keeps a few things in one canonical form
(the order of a ``from_discard`` step's choices is the discard pile's, ``seen_by`` and viewer
lists are sorted, a ``pay`` step's units are a suffix of the cost it pays, one fight, store visit,
swindle and ``from_discard`` at a time) and has fixed limits (``docs/kernel-abi.md``): a state
outside them is refused with a :class:`~solver.errors.FormatError` naming ``engine="reference"``.
"""

from __future__ import annotations

from typing import Any

from solver.games.trial.actions import COLUMNS
from solver.games.trial.fights import STAGES
from solver.games.trial.kernel_codec import (
    CAMP_STAGES,
    NONE,
    ONE_TIME,
    POOLS,
    PT_ENC,
    PT_EXP0,
    PT_HELP,
    PURPOSES,
    TO,
    Z_ASIDE,
    Z_DECK,
    Z_DISCARD,
    Z_FIGHT,
    Z_HAND,
    Z_HELD,
    Z_ROW,
    Z_STORY,
    Z_SWINDLE,
    Z_TOP,
    _mask,
    refuse,
)
from solver.games.trial.kernel_tables import KIND, NO_NODE, compile_game
from solver.games.trial.schema import FOODS, TENT_BONUSES

__all__ = ["compile_game", "encode"]


def _sorted_players(players: Any, what: str) -> int:
    if list(players) != sorted(set(players)):
        raise refuse(f"{what} listed in order without repeats")
    return _mask(players)


class _Encoder:
    """One encode: the game's indices and the fields being built."""

    def __init__(self, game: Any, data: dict[str, Any]):
        self.game = game
        self.d = data
        self.c = game._compiled
        self.t = self.c.tables
        L = game.layout
        self.card = L.card_index
        self.kind = L.item_index
        self.space = L.space_index
        self.tile = L.tile_index
        self.board = game.board
        self.areas = list(self.board.areas)
        self.slots = self.board.location_slots
        self.cards: list[list[int]] = [[0, 0, 0, 0, 0, 0, 0, 0] for _ in L.cards]
        self.seq = 1
        self.raw: dict[str, Any] = {}

    def place(self, cid: str, zone: int, who: int = 0, sub: int = 0, faceup: int = 0) -> None:
        row = self.cards[self.card[cid]]
        row[0:5] = [zone, who, sub, faceup, self.seq]
        self.seq += 1

    def kinds(self, names: list[str]) -> list[int]:
        return [self.kind[k] for k in names]

    def encode(self) -> dict[str, Any]:
        d, r = self.d, self.raw
        r.update(
            player_count=d["player_count"],
            day=d["day"],
            first_player=d["first_player"],
            turn_player=NONE if d["turn_player"] is None else d["turn_player"],
            game_over=int(d["game_over"]),
            tunnel_tokens=d["tunnel_tokens"],
            tray=[d["tray"][f] for f in FOODS],
            gallery_food=[d["gallery_food"][f] for f in FOODS],
        )
        self.setup_pool()
        self.board_fields()
        self.deck_fields()
        r["players"] = [self.player(q, me) for q, me in enumerate(d["players"])]
        self.knowledge()
        r["last_fight"] = self.record(d.get("last_fight"))
        self.stack()
        r["cards"] = [tuple(row) for row in self.cards]
        r["seq"] = self.seq
        return r

    def setup_pool(self) -> None:
        pool = self.d.get("setup_pool")
        r = self.raw
        r["has_setup_pool"] = int(pool is not None)
        r["has_one_each"] = int(pool is not None and "one_each" in pool)
        pool = pool or {}
        for key in POOLS:
            r[key] = self.kinds(pool.get(key, []))

    def board_fields(self) -> None:
        d, r = self.d, self.raw
        r["tiles"] = [
            NONE if d["tiles"][s] is None else self.tile[d["tiles"][s][0]] for s in self.slots
        ]
        r["flipped"] = [0 if d["tiles"][s] is None else int(d["tiles"][s][1]) for s in self.slots]
        ruins = []
        for i in self.t["ruin_slot"]:
            ruin = d["ruins"][self.slots[i]]
            ruins.append((self.kinds(ruin["items"]), _sorted_players(ruin["seen_by"], "seen_by")))
        r["ruins"] = ruins + [([], 0)] * (3 - len(ruins))
        r["tunnel_open"] = sorted(self.space[s] for s, v in d["tunnels"].items() if v == "open")
        r["tunnel_collapsed"] = sorted(
            self.space[s] for s, v in d["tunnels"].items() if v != "open"
        )
        store = []
        for row in d["store"]:
            for stack in row:
                if len(set(stack)) > 1:
                    raise refuse("a store slot holding one kind of item")
                store.append((self.kind[stack[0]] if stack else NONE, len(stack)))
            store += [(NONE, 0)] * (4 - len(row))
        r["store"] = store
        box = d["box"]
        r["box_tents"] = [TENT_BONUSES.index(b) for b in box["tents"]]
        r["used_tents"] = [TENT_BONUSES.index(b) for b in box["used_tents"]]
        r["box_items"] = self.kinds(box["items"])
        r["box_artifacts"] = self.kinds(box["artifacts"])
        r["available"] = self.kinds(d["artifacts_available"])
        row = d["encounter_row"]
        r["row"] = [NONE if c is None else self.card[c] for c in row] + [NONE] * (3 - len(row))
        for i, c in enumerate(row):
            if c is not None:
                self.place(c, Z_ROW, 0, i)
        spots = [*self.board.campsites, "universal"]
        tents = [d["camp_tents"].get(s) for s in spots]
        r["camp_tent"] = [NONE if x is None else TENT_BONUSES.index(x["tent"]) for x in tents]
        r["camp_owner"] = [
            NONE if x is None else 4 if x["owner"] is None else x["owner"] for x in tents
        ]
        r["legendary"] = [
            NONE if d["legendary"][t["id"]] is None else d["legendary"][t["id"]]
            for t in self.game.components["legendary"]
        ]

    def deck_fields(self) -> None:
        names = ["deeds", "encounters", *(f"exp:{a}" for a in self.areas)]
        decks = []
        for i, name in enumerate(names):
            deck = self.d["decks"][name]
            layers = [layer for layer in deck["layers"] if layer]
            for k, layer in enumerate(layers):
                for c in layer:
                    self.place(c, Z_DECK, i, k)
            for c in deck["discard"]:
                self.place(c, Z_DISCARD, i)
            top = deck["top"]
            if top is not None:
                self.place(top["card"], Z_TOP, i)
                viewers = _sorted_players(top["viewers"], "a deck top's viewers")
                decks.append((self.card[top["card"]], viewers, 1, len(layers)))
            else:
                decks.append((NONE, 0, 0, len(layers)))
        self.raw["decks"] = decks

    def player(self, q: int, me: dict[str, Any]) -> dict[str, Any]:
        for c in me["hand"]:
            self.place(c, Z_HAND, q)
        for c in me["aside"]:
            self.place(c, Z_ASIDE, q)
        for c, faceup, column in me["story"]:
            self.place(c, Z_STORY, q, COLUMNS.index(column), int(faceup))
        placed = []
        for target, strong in me["paws_placed"]:
            if target == "enc":
                code = PT_ENC
            elif target == "help":
                code = PT_HELP
            elif target.startswith("exp:"):
                code = PT_EXP0 + self.areas.index(target[4:])
            else:
                code = self.space[target[4:]]
            placed.append((code, int(strong)))
        return {
            "food": [me["food"][f] for f in FOODS],
            "space": NONE if me["space"] is None else self.space[me["space"]],
            "morality": me["morality"],
            "paws": me["paws"],
            "strong_paw": int(me["strong_paw"]),
            "camped": int(me["camped"]),
            "backpack": self.kinds(me["backpack"]),
            "gallery": self.kinds(me["gallery"]),
            "placed": placed,
            "tents": [TENT_BONUSES.index(b) for b in me["tents"]],
            "flags": [
                NONE if me["flags"][a] is None else self.space[me["flags"][a]] for a in self.areas
            ],
            "tent_symbols": [me["tent_symbols"][k] for k in ONE_TIME],
        }

    def knowledge(self) -> None:
        for k, (cid, seen) in enumerate(self.d.get("card_knowledge", ()), start=1):
            row = self.cards[self.card[cid]]
            row[5:8] = [_mask(seen), 1, k]
        self.raw["kseq"] = len(self.d.get("card_knowledge", ())) + 1

    def rolls(self, rolls: list[list[Any]]) -> list[int]:
        return [
            (side << 7) | (PURPOSES.index(purpose) << 5) | face for side, purpose, face in rolls
        ]

    def record(self, rec: dict[str, Any] | None) -> dict[str, Any]:
        if rec is None:
            return {
                "present": 0,
                "card": 0,
                "attacker": 0,
                "defender": 0,
                "winner": 0,
                "strength": [0, 0],
                "rolls": [],
            }
        strength, win = self.t["dface_strength"], self.t["dface_win"]
        rolls = []
        for side, value in rec["bow"]:
            face = next(
                (
                    j
                    for j, (s, w) in enumerate(zip(strength, win, strict=True))
                    if (w if value == "win" else not w and s == value)
                ),
                None,
            )
            if face is None:
                raise refuse("a fight record the die's faces can show")
            rolls.append((side << 7) | (1 << 5) | face)
        for side in (0, 1):
            for value in rec["dice"][side]:
                face = next((j for j, s in enumerate(strength) if s == value), None)
                if face is None:
                    raise refuse("a fight record the die's faces can show")
                rolls.append((side << 7) | face)
        return {
            "present": 1,
            "card": self.card[rec["card"]],
            "attacker": rec["attacker"],
            "defender": NONE if rec["defender"] is None else rec["defender"],
            "winner": 0 if rec["winner"] == "attacker" else 1,
            "strength": list(rec["strength"]),
            "rolls": rolls,
        }

    # -- the stack --------------------------------------------------------------------------------
    def stack(self) -> None:
        r = self.raw
        r["fight"] = {
            "card": 0,
            "stage": 0,
            "defender": NONE,
            "winner": NONE,
            "attacker": 0,
            "stake": 0,
            "weapons": [NONE, NONE],
            "down": [[], []],
            "discard": [0, 0],
            "foe": [0, 0],
            "node": NO_NODE,
            "rolls": [],
        }
        r["bought"], r["sold"], r["swindle"], r["choices"] = [], [], [], []
        frames = self.d["stack"]
        singles = [
            f["step"]
            for f in frames
            if f["step"] in ("fight", "store_visit", "swindle", "from_discard")
        ]
        if len(singles) != len(set(singles)):
            raise refuse("one fight, store visit, swindle and discard pick at a time")
        encoded = self.setup_prefix(frames)
        for f in frames[len(encoded[1]) :]:
            encoded[0].append(self.frame(f))
        stack: list[tuple[Any, ...]] = []
        for item in encoded[0]:
            if stack and self.mergeable(stack[-1], item):
                last = stack[-1]
                stack[-1] = (last[0], last[1], last[2] + 1, *last[3:])
            else:
                stack.append(item)
        r["stack"] = stack

    def setup_prefix(self, frames: list[dict[str, Any]]) -> tuple[list[tuple[Any, ...]], list[Any]]:
        """The set-up queue still waiting at the bottom, as the compiled queue frame."""
        from solver.games.trial.kernel_codec import setup_queue

        queue = setup_queue(self.game)
        n = len(queue)
        for k in range(n):
            rest = list(reversed(queue[k:]))
            if frames[: len(rest)] == rest and len(rest) > 1:
                below = [(KIND["setup_queue"], -1, 1, NONE, [0] * 12, 0, k + 1)]
                return below, rest[:-1]
        return [], []

    @staticmethod
    def mergeable(a: tuple[Any, ...], b: tuple[Any, ...]) -> bool:
        kind = a[0]
        repeatable = (kind == KIND["draw"] and a[4][1] != 2) or kind in (
            KIND["pick_food"],
            KIND["take_encounter"],
            KIND["die"],
        )
        return repeatable and a[0:2] == b[0:2] and a[3:] == b[3:]

    def node(self, f: dict[str, Any]) -> int:
        key = (self.card[f["card"]], tuple(f["path"]))
        if key not in self.c.node_of:
            raise refuse(f"a step at path {f['path']} of card {f['card']}")
        return self.c.node_of[key]

    def frame(self, f: dict[str, Any]) -> tuple[Any, ...]:
        kind = f["step"]
        v = [0] * 12
        p = f.get("player", -1)
        card, node, x = NONE, 0, 0
        out = getattr(self, f"e_{kind}", None)
        if out is not None:
            card, node, x = out(f, v)
        return (KIND[kind], p, 1, card, v, node, x)

    # one method per kind with fields beyond the player: fills v, returns (card, node, x)
    def e_make_room(self, f, v):
        v[0] = self.kind[f["kind"]]
        return NONE, 0, 0

    e_return_slot = e_make_room

    def e_side(self, f, v):
        return (NONE if f["card"] is None else self.card[f["card"]]), 0, 0

    def e_draw(self, f, v):
        names = ["deeds", "encounters", *(f"exp:{a}" for a in self.areas)]
        v[0] = names.index(f["deck"])
        to = f["to"]
        v[1] = 5 + int(to[4:]) if to.startswith("row:") else TO.index(to)
        if f["viewers"] is not None:
            v[2], v[3] = _sorted_players(f["viewers"], "a draw's viewers"), 1
        return NONE, 0, 0

    def e_pay(self, f, v):
        v[2] = f["card_worth"]
        want = f["units"]
        for cost, units in enumerate(self.c.cost_units):
            per = any(flag for _, flag in units)
            for reps in range(21) if per else (0,):
                full = [dict(u) for u, flag in units for _ in range(reps if flag else 1)]
                full = [{"alts": list(u["alts"]), "to": u["to"]} for u in full]
                start = len(full) - len(want)
                if start >= 0 and full[start:] == want:
                    v[0], v[1] = reps, start
                    return NONE, cost, 0
        raise refuse("a payment of a cost the pack prices")

    def e_draw_offer(self, f, v):
        v[0] = f["count"]
        return NONE, 0, 0

    def e_from_discard(self, f, v):
        pile = self.d["decks"]["deeds"]["discard"]
        if [c for c in pile if c in f["choices"]] != f["choices"]:
            raise refuse("a discard pick among cards of the pile, in its order")
        self.raw["choices"] = [self.card[c] for c in f["choices"]]
        v[0] = f["left"]
        return NONE, 0, 0

    def e_give(self, f, v):
        v[0], v[1] = ("food", "tea", "card").index(f["what"]), int(f["company"])
        return NONE, 0, 0

    def e_pick_card(self, f, v):
        v[0] = ("story_faceup", "story_facedown", "give").index(f["purpose"])
        v[1] = NONE if f["to"] is None else f["to"]
        return NONE, 0, 0

    def e_pick_column(self, f, v):
        self.place(f["card"], Z_HELD)
        return self.card[f["card"]], 0, 0

    def e_pick_food(self, f, v):
        v[0], v[1] = ("gain", "give").index(f["purpose"]), NONE if f["to"] is None else f["to"]
        return NONE, 0, 0

    def e_take_item(self, f, v):
        v[0] = int(f["rarity"] == "rare")
        v[1] = NONE if f["other_than"] is None else self.kind[f["other_than"]]
        return NONE, 0, 0

    def e_place_tile(self, f, v):
        v[0] = self.slots.index(f["slot"])
        return NONE, 0, 0

    def e_ruin_item(self, f, v):
        v[0] = self.t["ruin_slot"].index(self.slots.index(f["slot"]))
        v[1] = POOLS.index(f["pool"])
        return NONE, 0, 0

    def e_stock(self, f, v):
        v[0], v[1], v[2] = f["cell"][0], f["cell"][1], POOLS.index(f["pool"])
        return NONE, 0, 0

    def e_move(self, f, v):
        v[0], v[1], v[2] = f["base"], f["extra"], f["cards"]
        return NONE, 0, 0

    def e_turn(self, f, v):
        v[0] = (
            int(f["deed_played"])
            | 2 * int(f["moved"])
            | 4 * int(f["paw_used"])
            | 8 * int(f["at_start"])
            | 16 * int(f["ended"])
        )
        return NONE, 0, 0

    def e_choose(self, f, v):
        return self.card[f["card"]], self.node(f), 0

    def e_effects(self, f, v):
        v[0] = f["next"]
        return self.card[f["card"]], self.node(f), 0

    def e_offer(self, f, v):
        v[0] = f["owner"]
        return self.card[f["card"]], self.node(f), 0

    def e_resolve(self, f, v):
        v[0] = ("deed", "encounter", "expedition").index(f["source"])
        v[1] = ("pay", "effects", "place").index(f["stage"])
        v[2] = ("effect", "unpaid").index(f["effects"])
        v[3] = ("story", "facedown", "discard").index(f["destination"])
        v[4] = (None, "good", "evil").index(f["moral_side"])
        v[5], v[6] = f["owner"], int(f["leave"])
        self.place(f["card"], Z_HELD)
        return self.card[f["card"]], 0, 0

    def e_die(self, f, v):
        v[0], v[1], v[2] = KIND[f["parent"]], f["side"], PURPOSES.index(f["purpose"])
        return NONE, 0, 0

    def e_duel(self, f, v):
        v[0], v[1] = int(f["stake"] == "food"), int(f["target"] == "evil")
        return self.card[f["card"]], 0, 0

    def e_duel_target(self, f, v):
        v[0], v[1] = int(f["stake"] == "food"), _sorted_players(f["targets"], "a duel's targets")
        return self.card[f["card"]], 0, 0

    def e_fight(self, f, v):
        downs = f["face_down"]
        if any(len(side) > 2 for side in downs):
            raise refuse("at most 2 face-down cards a side")
        for side, cards in enumerate(downs):
            for c in cards:
                self.place(c, Z_FIGHT, side)
        self.raw["fight"] = {
            "card": self.card[f["card"]],
            "stage": STAGES.index(f["stage"]),
            "defender": NONE if f["defender"] is None else f["defender"],
            "winner": NONE if f["winner"] is None else f["winner"],
            "attacker": f["player"],
            "stake": int(f["stake"] == "food"),
            "weapons": [NONE if w is None else self.kind[w] for w in f["weapons"]],
            "down": [[self.card[c] for c in side] for side in downs],
            "discard": list(f["discard_strength"]),
            "foe": list(f["foe"]),
            "node": self.node(f) if f["path"] else NO_NODE,
            "rolls": self.rolls(f["rolls"]),
        }
        return self.card[f["card"]], 0, 0

    def e_fight_cards(self, f, v):
        v[0] = f["side"]
        return NONE, 0, 0

    e_fight_weapon = e_fight_cards

    def e_fight_discard(self, f, v):
        v[0], v[1], v[2] = f["side"], f["cards"], int(f["token"])
        return NONE, 0, 0

    def e_roll(self, f, v):
        rolls = self.rolls(f["rolls"])
        if len(rolls) > 4:
            raise refuse("at most 4 rolls of a card's roll")
        v[0], v[1 : 1 + len(rolls)], v[5], v[6] = (
            len(rolls),
            rolls,
            int(f["rerolled"]),
            int(f["asked"]),
        )
        return self.card[f["card"]], self.node(f), 0

    def e_swindle(self, f, v):
        if len(f["face_down"]) > 8:
            raise refuse("at most 8 cards before a Swindler roll")
        for c in f["face_down"]:
            self.place(c, Z_SWINDLE)
        self.raw["swindle"] = [self.card[c] for c in f["face_down"]]
        return self.card[f["card"]], self.node(f), f["fame"]

    def e_swindle_roll(self, f, v):
        rolls = self.rolls(f["rolls"])
        if len(rolls) > 4:
            raise refuse("at most 4 rolls of a Swindler roll")
        v[0], v[1 : 1 + len(rolls)] = len(rolls), rolls
        return self.card[f["card"]], self.node(f), f["fame"]

    def e_enhance(self, f, v):
        v[0] = ("food", "card", "trade").index(f["kind"])
        v[1], v[2], v[3], v[4] = KIND[f["into"]], f["cards"], int(f["token"]), f["boost"]
        v[5:9] = [f["foods"][x] for x in FOODS]
        return NONE, 0, 0

    def e_exchange(self, f, v):
        v[0] = FOODS.index(f["food"])
        return NONE, 0, 0

    def e_harvest(self, f, v):
        v[0] = NONE if f["food"] is None else FOODS.index(f["food"])
        v[1], v[2] = f["tea"], f["boost"]
        v[3:7] = [f["foods"][x] for x in FOODS]
        return NONE, 0, 0

    def e_lookout_draw(self, f, v):
        v[0], v[1] = f["base"], f["boost"]
        return NONE, 0, 0

    def e_ruins(self, f, v):
        v[0] = self.t["ruin_slot"].index(self.slots.index(f["slot"]))
        v[1], v[2] = int(f["strong_paw"]), ("food", "tea").index(f["stage"])
        return NONE, 0, 0

    def e_turn_tile(self, f, v):
        v[0] = ("ruin", "restore").index(f["verb"])
        return NONE, 0, 0

    def e_use_location(self, f, v):
        v[0], v[1] = self.slots.index(f["slot"]), int(f["strong_paw"])
        return NONE, 0, 0

    def e_ruined_store_sale(self, f, v):
        v[0] = ("common_item", "two_tea", "two_food_two_cards").index(f["mode"])
        return NONE, 0, 0

    def e_sale_slot(self, f, v):
        cells = [r * 4 + c for r, c in f["cells"]]
        if cells != sorted(set(cells)):
            raise refuse("a sale's slots in row order")
        v[0], v[1] = self.kind[f["kind"]], int(f["paid"])
        return NONE, sum(1 << i for i in cells), 0

    def e_store_visit(self, f, v):
        v[0] = f["card_worth"]
        self.raw["bought"], self.raw["sold"] = self.kinds(f["bought"]), self.kinds(f["sold"])
        return NONE, 0, 0

    def e_trading_bonus(self, f, v):
        v[0] = f["boost"]
        return NONE, 0, f["points"]

    def e_advance(self, f, v):
        v[0], v[1], v[2] = (
            ("any", "dotted", "dashed").index(f["line"]),
            f["steps"] & 0xFF,
            int(f["optional"]),
        )
        return NONE, 0, 0

    def e_embark(self, f, v):
        v[0], v[1] = self.areas.index(f["area"]), int(f["strong_paw"])
        return NONE, 0, 0

    def e_expedition(self, f, v):
        v[0], v[1], v[2] = self.areas.index(f["area"]), f["redraws"], int(f["asked"])
        if f["drawn"] is not None:
            self.place(f["drawn"], Z_HELD)
        return (NONE if f["drawn"] is None else self.card[f["drawn"]]), 0, 0

    def e_flag(self, f, v):
        v[0] = ("move", "place").index(f["mode"])
        return NONE, 0, 0

    def e_box_tent(self, f, v):
        v[0] = self.board.campsites.index(f["spot"])
        return NONE, 0, 0

    def spot(self, name: str | None) -> int:
        if name is None:
            return NONE
        return (
            len(self.board.campsites) if name == "universal" else self.board.campsites.index(name)
        )

    def e_camp(self, f, v):
        v[0], v[1] = self.spot(f["spot"]), CAMP_STAGES.index(f["stage"])
        return NONE, 0, 0

    def e_pick_tent(self, f, v):
        v[0] = self.spot(f["spot"])
        return NONE, 0, 0


def encode(game: Any, data: dict[str, Any]) -> dict[str, Any]:
    """The compiled struct's fields of a checked, settled reference state's ``data``."""
    try:
        return _Encoder(game, data).encode()
    except (KeyError, ValueError, IndexError, TypeError) as exc:
        if isinstance(exc, ValueError) and "compiled Trial can hold" in str(exc):
            raise
        raise refuse(f"{type(exc).__name__}: {exc}") from None
