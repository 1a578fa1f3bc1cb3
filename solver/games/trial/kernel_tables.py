"""The content pack compiled for the compiled Trial: every table its C game (``TGame``) reads.

:func:`compile_game` turns a checked pack (:mod:`.content`) and a player count into plain numbers
and lists named after the C fields (``ext/trial_kernel/tk_types.h``), which ``ext/trial.pyx``
copies into the struct once. The cards' effect language becomes *nodes* (an effect list, or the
argument of a ``fight``, ``choose``, ``roll``, ``swindle`` or ``others_may``), *instructions* (one
effect: its verb and arguments), options, conditions and costs; a node remembers its path in its
card, which is how the compiled steps name what the reference's frames call ``path``.

A pack beyond the compiled engine's limits (``docs/kernel-abi.md``) is refused with an
:class:`~solver.errors.OptionError` naming ``engine="reference"``, which plays any pack that
passes ``check_pack``.
"""

from __future__ import annotations

import json
from collections import Counter
from dataclasses import dataclass, field
from typing import Any

from solver.errors import OptionError
from solver.games.trial.actions import COLUMNS, PAW_TARGETS
from solver.games.trial.agents import _SPACE_PREFERENCE
from solver.games.trial.schema import AREAS, COLUMN_OF, FOODS, LOCATION_TYPES, TENT_BONUSES, VERBS

NO_NODE = 0xFFFF

KIND_NAMES: tuple[str, ...] = (
    "",
    "make_room",
    "return_slot",
    "side",
    "draw",
    "pay",
    "draw_offer",
    "facedown_optional",
    "from_discard",
    "give",
    "pick_card",
    "pick_column",
    "pick_food",
    "take_encounter",
    "take_item",
    "deal_tent",
    "place_tile",
    "ruin_item",
    "setup",
    "setup_done",
    "start_space",
    "stock",
    "end_turn",
    "hand_limit",
    "help",
    "move",
    "new_day",
    "turn",
    "choose",
    "collapse",
    "effects",
    "flip_choice",
    "offer",
    "resolve",
    "die",
    "duel",
    "duel_target",
    "fight",
    "fight_cards",
    "fight_discard",
    "fight_weapon",
    "reroll",
    "roll",
    "swindle",
    "swindle_roll",
    "enhance",
    "exchange",
    "harvest",
    "lookout_draw",
    "ruins",
    "turn_tile",
    "use_location",
    "ruined_store_sale",
    "sale_slot",
    "store_visit",
    "trading_bonus",
    "advance",
    "embark",
    "exhausted",
    "expedition",
    "finish",
    "flag",
    "leave_expedition",
    "redraw",
    "box_tent",
    "camp",
    "gift_tent",
    "pick_tent",
    "universal",
    "setup_queue",
)
"""The C step kinds (``enum K_*`` of tk_types.h), in order; ``setup_queue`` is internal."""
KIND = {name: i for i, name in enumerate(KIND_NAMES)}

SYMBOLS = ("good", "evil", "either", "trade", "move", "strength", "wild", "die")
ENHANCE = ("move", "strength", "trade", "card", *FOODS)
CONDITION_KEYS = ("at", "company", "morality", "paws", "tracker", "no_tunnel", "story_evil")
AT_ARGS = (*LOCATION_TYPES, "campsite", "tunnel", "location")
PAW_ARGS = ("corners", "diagonal", "four_types")
QUARTERS = ("NW", "NE", "SW", "SE")
SPACE_KINDS = ("path", "location", "start", "campsite", "exit", "expedition")
CAMPSITE_BONUSES = ("morality", "story_facedown", "tea", "encounter", "common_item", "first_player")
LINES = ("any", "dotted", "dashed", "none")
RUINED_STORE = ("common_item", "two_tea", "two_food_two_cards")
#: The effect verbs compiled to a node of their own, and the builder method of each.
_NODE_VERBS = {
    "fight": "fight_node",
    "choose": "choose_node",
    "roll": "roll_node",
    "swindle": "swindle_node",
    "others_may": "others_node",
}
SPACE_PREFERENCE = _SPACE_PREFERENCE
"""The heuristic agent's preference of a space by its id's prefix (the kernel's ``space_pref``)."""

LIMITS = {
    "players": 4,
    "cards": 128,
    "spaces": 128,
    "kinds": 40,
    "faces": 20,
    "legendary": 8,
    "nodes": 4096,
    "instr": 4096,
    "options": 1024,
    "conds": 1024,
    "costs": 1024,
    "terms": 2048,
    "gains": 1024,
    "paths": 128,
    "edges": 1024,
    "dice": 24,
    "rolls": 48,
    "backpack": 20,
    "food_per_kind": 32,
    "swindle": 8,
    "strength": 2000,
    "setup": 160,
    "strings": 32768,
    "depth": 12,
    "arg": 255,
}
"""The compiled engine's limits (docs/kernel-abi.md)."""


def refuse(what: str) -> OptionError:
    """The error for a pack beyond the compiled engine's limits."""
    return OptionError(
        f"this content pack is beyond the compiled Trial's limits ({what}); "
        'play it with engine="reference" (docs/kernel-abi.md lists the limits)'
    )


@dataclass
class Compiled:
    """The tables (named after TGame's fields) and what the Python face needs to decode states."""

    tables: dict[str, Any] = field(default_factory=dict)
    node_path: list[tuple[int, list[Any]]] = field(default_factory=list)
    """Per node: its card index and its path in the card (the frames' ``path``)."""
    node_of: dict[tuple[int, tuple[Any, ...]], int] = field(default_factory=dict)
    cost_units: list[list[tuple[dict[str, Any], bool]]] = field(default_factory=list)
    """Per cost: its spend terms as (unit dict, one per item carried)."""
    unit_types: dict[tuple[tuple[str, ...], str], int] = field(default_factory=dict)


class _Effects:
    """The effect language compiled: nodes, instructions, options, conditions, costs, gains."""

    def __init__(self, layout: Any, out: Compiled, kind_index: dict[str, int]):
        self.layout = layout
        self.out = out
        self.kind = kind_index
        self.nodes: list[dict[str, Any]] = []
        self.instr: list[dict[str, Any]] = []
        self.options: list[dict[str, Any]] = []
        self.conds: list[tuple[int, int]] = []
        self.costs: list[tuple[int, int]] = []
        self.terms: list[dict[str, Any]] = []
        self.gains: list[tuple[int, int]] = []
        self.depth = 0

    # -- nodes -----------------------------------------------------------------------------------
    def node(self, card: int, path: list[Any], kind: int, **fields: Any) -> int:
        index = len(self.nodes)
        self.nodes.append(
            {
                "kind": kind,
                "card": card,
                "first": 0,
                "count": 0,
                "a": 0,
                "b": 0,
                "n1": NO_NODE,
                "n2": NO_NODE,
                "cost": NO_NODE,
                "c": 0,
                **fields,
            }
        )
        self.out.node_path.append((card, list(path)))
        self.out.node_of[(card, tuple(path))] = index
        return index

    def effect_list(self, card: int, path: list[Any], effects: list[Any], depth: int = 0) -> int:
        """A node for an effect list and its instructions (contiguous)."""
        self.depth = max(self.depth, depth)
        if depth > LIMITS["depth"]:
            raise refuse(f"effects nested deeper than {LIMITS['depth']}")
        index = self.node(card, path, 0)
        first = len(self.instr)
        self.instr.extend({} for _ in effects)
        self.nodes[index].update(first=first, count=len(effects))
        for i, effect in enumerate(effects):
            self.instr[first + i] = self.instruction(card, [*path, i], effect, depth)
        return index

    def maybe_list(self, card: int, path: list[Any], effects: Any, depth: int) -> int:
        return self.effect_list(card, path, effects, depth) if effects else NO_NODE

    # -- conditions and costs --------------------------------------------------------------------
    def conditions(self, conds: list[dict[str, Any]]) -> tuple[int, int]:
        first = len(self.conds)
        for cond in conds:
            ((key, arg),) = cond.items()
            if key == "at":
                value = AT_ARGS.index(arg)
            elif key == "company" or key == "morality":
                value = 1 if arg == "evil" else 0
            elif key == "paws":
                value = PAW_ARGS.index(arg)
            elif key in ("tracker", "story_evil"):
                value = self.arg(int(arg), key)
            else:
                value = 1
            self.conds.append((CONDITION_KEYS.index(key), value))
        return first, len(conds)

    def alts(self, alternatives: list[str]) -> int:
        mask = 0
        for alt in alternatives:
            if alt in FOODS:
                mask |= 1 << FOODS.index(alt)
            elif alt == "food":
                mask |= 1 << 4
            elif alt == "item":
                mask |= 1 << 5
            elif alt == "amphibian":
                mask |= 1 << 6
            elif alt == "card":
                mask |= 1 << 7
            else:
                mask |= 1 << (8 + self.kind[alt])
        return mask

    def cost(self, terms: list[dict[str, Any]] | None) -> int:
        """A cost id for a list of cost terms (``NO_NODE`` when there are none)."""
        if not terms:
            return NO_NODE
        first = len(self.terms)
        units: list[tuple[dict[str, Any], bool]] = []
        for term in terms:
            have = "have" in term
            alternatives = term["have"] if have else term["spend"]
            to = term.get("to", "tray")
            key = (tuple(alternatives), to)
            unit_type = self.out.unit_types.setdefault(key, len(self.out.unit_types))
            self.terms.append(
                {
                    "alts": self.alts(alternatives),
                    "have": int(have),
                    "per_item": int(term.get("per") == "item"),
                    "gallery": int(to == "gallery"),
                    "unit_type": unit_type % 256,
                }
            )
            if not have:
                units.append(({"alts": alternatives, "to": to}, term.get("per") == "item"))
        self.costs.append((first, len(terms)))
        self.out.cost_units.append(units)
        return len(self.costs) - 1

    def food_units(self, *foods: str) -> int:
        return self.cost([{"spend": [f]} for f in foods])

    def gain_entries(self, gains: dict[str, int]) -> tuple[int, int]:
        first = len(self.gains)
        for key, n in gains.items():
            code = FOODS.index(key) if key in FOODS else 4 if key == "food" else 5
            self.gains.append((code, self.arg(int(n), "a gain")))
        return first, len(gains)

    @staticmethod
    def arg(value: int, what: str) -> int:
        if not 0 <= value <= LIMITS["arg"]:
            raise refuse(f"{what} of {value} (at most {LIMITS['arg']})")
        return value

    # -- one effect ------------------------------------------------------------------------------
    def instruction(self, card: int, path: list[Any], effect: dict[str, Any], depth: int) -> dict:
        verb = next(k for k in effect if k in VERBS)
        arg = effect[verb]
        out: dict[str, Any] = {
            "verb": list(VERBS).index(verb),
            "a": 0,
            "b": 0,
            "c": 0,
            "node": NO_NODE,
            "gains": 0,
            "n_gains": 0,
        }
        if verb in _NODE_VERBS:
            build = getattr(self, _NODE_VERBS[verb])
            out["node"] = build(card, [*path, verb], arg, depth)
        elif verb in ("gain", "others_gain"):
            out["gains"], out["n_gains"] = self.gain_entries(arg)
        else:
            out.update(self.operands(verb, arg, effect))
        return out

    def operands(self, verb: str, arg: Any, effect: dict[str, Any]) -> dict[str, int]:
        """The ``a`` and ``b`` operands of an effect with no node and no gains."""
        if verb == "all_draw":
            return {"a": self.arg(int(arg), "all_draw"), "b": int(bool(effect.get("optional")))}
        if verb == "give":
            return {"a": ("food", "tea", "card").index(arg)}
        if verb == "morality":
            return {"a": int(arg == 1)}
        if verb == "duel":
            return {"a": int(arg.get("stake") == "food"), "b": int(arg.get("target") == "evil")}
        if verb == "advance":
            return {
                "a": LINES.index(arg),
                "b": self.arg(int(effect.get("steps", 1)), "advance steps"),
            }
        if verb == "artifact":
            return {"a": self.kind[arg]}
        if verb == "story_from_hand":
            return {"a": int(arg == "facedown")}
        if verb == "take_discard":
            return {"a": self.arg(arg["look"], "look"), "b": self.arg(arg["take"], "take")}
        if verb in ("encounter_to_hand", "draw_to_story"):
            return {"a": self.arg(int(arg), verb)}
        if verb == "then":
            return {"a": ("story", "facedown", "discard").index(arg)}
        return {}

    def fight_node(self, card: int, path: list[Any], arg: dict[str, Any], depth: int) -> int:
        strength, dice = int(arg["strength"]), int(arg["dice"])
        if strength > LIMITS["strength"] or dice > LIMITS["dice"]:
            raise refuse(f"a foe of strength {strength} with {dice} dice")
        index = self.node(
            card,
            path,
            1,
            a=strength,
            b=dice,
            c=("story", "facedown", "discard").index(arg["lose_card"]),
        )
        win = self.maybe_list(card, [*path, "win"], arg.get("win"), depth + 1)
        lose = self.maybe_list(card, [*path, "lose"], arg.get("lose"), depth + 1)
        self.nodes[index].update(n1=win, n2=lose)
        return index

    def choose_node(self, card: int, path: list[Any], options: list[Any], depth: int) -> int:
        index = self.node(card, path, 2)
        first = len(self.options)
        self.options.extend({} for _ in options)
        self.nodes[index].update(first=first, count=len(options))
        for i, option in enumerate(options):
            cond_first, cond_count = self.conditions(option.get("requires", []))
            effect = self.effect_list(
                card, [*path, i, "effect"], option.get("effect", []), depth + 1
            )
            morality = {"good": 1, "evil": 2}.get(option.get("morality", ""), 0)
            self.options[first + i] = {
                "morality": morality,
                "cond_first": cond_first,
                "cond_count": cond_count,
                "cost": self.cost(option.get("cost")),
                "effect": effect,
            }
        return index

    def roll_node(self, card: int, path: list[Any], arg: dict[str, Any], depth: int) -> int:
        need = -1 if arg["need"] == "win" else self.arg(int(arg["need"]), "a roll's need")
        index = self.node(card, path, 3, a=need, cost=self.cost(arg.get("reroll")))
        success = self.maybe_list(card, [*path, "success"], arg.get("success"), depth + 1)
        fail = self.maybe_list(card, [*path, "fail"], arg.get("fail"), depth + 1)
        self.nodes[index].update(n1=success, n2=fail)
        return index

    def swindle_node(self, card: int, path: list[Any], arg: dict[str, Any], depth: int) -> int:
        up_to = int(arg["discard_up_to"])
        if up_to > LIMITS["swindle"]:
            raise refuse(f"a swindle of up to {up_to} cards (at most {LIMITS['swindle']})")
        index = self.node(card, path, 4, a=up_to)
        success = self.maybe_list(card, [*path, "success"], arg.get("success"), depth + 1)
        self.nodes[index].update(n1=success)
        return index

    def others_node(self, card: int, path: list[Any], arg: dict[str, Any], depth: int) -> int:
        index = self.node(card, path, 5, cost=self.cost(arg.get("cost")))
        effect = self.maybe_list(card, [*path, "effect"], arg.get("effect"), depth + 1)
        you = self.maybe_list(card, [*path, "you"], arg.get("you"), depth + 1)
        self.nodes[index].update(n1=effect, n2=you)
        return index


def _check_counts(game: Any) -> None:
    pack, board, comp = game.pack, game.board, game.components
    kinds = len(game.layout.item_kinds)
    checks = [
        (len(pack.cards) <= LIMITS["cards"], f"{len(pack.cards)} cards"),
        (len(board.spaces) <= LIMITS["spaces"], f"{len(board.spaces)} spaces"),
        (kinds <= LIMITS["kinds"], f"{kinds} item and artifact kinds"),
        (len(comp["legendary"]) <= LIMITS["legendary"], "more than 8 legendary tokens"),
        (
            comp["food_per_kind"] <= LIMITS["food_per_kind"],
            f"food_per_kind {comp['food_per_kind']} (at most {LIMITS['food_per_kind']})",
        ),
        (comp["character_board"]["backpack_slots"] <= LIMITS["backpack"], "backpack slots"),
        (sum(len(v) for v in board.neighbours.values()) <= 2 * LIMITS["edges"], "edges"),
        (sum(len(v) for v in board.paths.values()) <= LIMITS["paths"], "expedition paths"),
    ]
    for ok, what in checks:
        if not ok:
            raise refuse(what)
    dice = max([int(i.get("dice", 0)) for i in (*pack.items, *pack.artifacts)] or [0])
    symbols = sum(c["symbols"].count("die") for c in pack.cards.values())
    if 1 + symbols + dice > LIMITS["dice"]:
        raise refuse(f"an adventurer rolling up to {1 + symbols + dice} dice")
    foe = max(
        [
            int(e["fight"]["dice"])
            for e in _all_effects(pack)
            if "fight" in e and isinstance(e["fight"], dict)
        ]
        or [0]
    )
    if 2 + 2 * (1 + symbols + dice) + foe > LIMITS["rolls"]:
        raise refuse("more dice in one fight than the engine keeps")


def _all_effects(pack: Any) -> list[dict[str, Any]]:
    """Every effect of every card, nested ones included."""
    found: list[dict[str, Any]] = []

    def walk(node: Any) -> None:
        if isinstance(node, dict):
            if any(k in VERBS for k in node):
                found.append(node)
            for value in node.values():
                walk(value)
        elif isinstance(node, list):
            for value in node:
                walk(value)

    walk(list(pack.cards.values()))
    return found


class _Builder:
    """Builds :class:`Compiled` for one game (its pack, board, layout and player count)."""

    def __init__(self, game: Any):
        self.game = game
        self.pack = game.pack
        self.board = game.board
        self.layout = game.layout
        self.comp = game.components
        self.out = Compiled()
        self.t = self.out.tables
        self.kinds = list(self.layout.item_kinds)
        self.kind_index = {k: i for i, k in enumerate(self.kinds)}
        self.cards = list(self.layout.cards)
        self.spaces = list(self.layout.spaces)
        self.space_index = {s: i for i, s in enumerate(self.spaces)}
        self.areas = list(self.board.areas)
        self.fx = _Effects(self.layout, self.out, self.kind_index)
        self.strings = bytearray(b"\0")
        self.string_at: dict[str, int] = {"": 0}

    def string(self, text: str) -> int:
        if text not in self.string_at:
            self.string_at[text] = len(self.strings)
            self.strings += text.encode("utf-8") + b"\0"
            if len(self.strings) > LIMITS["strings"]:
                raise refuse("the ids are too long altogether")
        return self.string_at[text]

    def build(self) -> Compiled:
        _check_counts(self.game)
        self.counts_and_layout()
        self.components_tables()
        self.dice_tables()
        self.item_tables()
        self.board_tables()
        self.store_tables()
        self.card_tables()
        self.setup_queue()
        self.effect_tables()
        self.string_tables()
        return self.out

    def counts_and_layout(self) -> None:
        L, t = self.layout, self.t
        t.update(
            n_players=self.game.players,
            n_cards=len(self.cards),
            n_deeds=len(self.pack.deeds),
            n_encounters=len(self.pack.encounters),
            n_spaces=len(self.spaces),
            n_board_spaces=len(self.pack.board["spaces"]),
            n_kinds=len(self.kinds),
            n_items=len(self.pack.items),
            n_tiles=len(L.tiles),
            n_areas=len(self.areas),
            n_legendary=len(self.comp["legendary"]),
            n_faces=len(self.comp["die"]),
            n_tents=len(self.pack.tents),
            n_rows=len(self.pack.store["rows"]),
            n_cols=len(self.pack.store["columns"]),
        )
        for name in (
            "PAW",
            "OPTION",
            "FOOD",
            "COLUMN",
            "PLAYER",
            "TENT",
            "CELL",
            "BONUS",
            "DIE",
            "TILE",
            "ITEM",
            "SELL",
            "SPACE",
            "CARD",
            "DROP",
        ):
            t[f"A_{name}"] = getattr(L, name)
        t["A_SIZE"] = L.size

    def components_tables(self) -> None:
        comp, t = self.comp, self.t
        board = comp["character_board"]
        track = comp["morality"]
        t.update(
            food_per_kind=comp["food_per_kind"],
            board_move=board["move"],
            board_strength=board["strength"],
            board_trade=board["trade"],
            backpack_slots=board["backpack_slots"],
            backpack_move=board["backpack_move_slots"],
            morality_min=track["min"],
            morality_max=track["max"],
            first_player_fame=comp["first_player_fame"],
            hand_limit=comp["hand_limit"],
            start_hand=comp["start_hand"],
            paws=comp["paws"],
            tents_each=comp["tents_each"],
            row_size=comp["encounter_row"],
            tunnel_tokens=self.pack.board["tunnel_tokens"],
        )
        t["start_food"] = [int(comp["start_food"].get(f, 0)) for f in FOODS]
        t["morality_fame"] = [int(v) for v in track["fame"]]
        t["legendary_column"] = [COLUMNS.index(x["column"]) for x in comp["legendary"]]
        t["legendary_cards"] = [int(x["cards"]) for x in comp["legendary"]]
        t["legendary_fame"] = [int(x["fame"]) for x in comp["legendary"]]
        t["tent_bonus"] = [TENT_BONUSES.index(x["bonus"]) for x in self.pack.tents]

    def dice_tables(self) -> None:
        """fights.die_faces and fights.dice_sum, computed as the reference computes them."""
        from solver.games.trial.fights import dice_sum

        faces = [(int(f["strength"]), bool(f.get("win", False))) for f in self.comp["die"]]
        counts = Counter(faces)
        distinct: list[tuple[int, bool]] = []
        for face in faces:
            if face not in distinct:
                distinct.append(face)
        merged = [(s, w, counts[(s, w)] / len(faces)) for s, w in distinct]
        t = self.t
        t["face_strength"] = [s for s, _ in faces]
        t["face_win"] = [int(w) for _, w in faces]
        t.update(n_dfaces=len(merged))
        t["dface_strength"] = [s for s, _, _ in merged]
        t["dface_win"] = [int(w) for _, w, _ in merged]
        t["dface_prob"] = [p for _, _, p in merged]
        t["dface_of_face"] = [distinct.index(f) for f in faces]
        counts_k: list[int] = []
        firsts: list[int] = []
        values: list[int] = []
        probs: list[float] = []
        for k in range(LIMITS["dice"] + 1):
            dist = dice_sum(merged, k)
            firsts.append(len(values))
            counts_k.append(len(dist))
            values += list(dist)
            probs += list(dist.values())
        if len(values) > 2048:
            raise refuse("too many distinct dice sums")
        t.update(dsum_count=counts_k, dsum_first=firsts, dsum_value=values, dsum_prob=probs)

    def item_tables(self) -> None:
        t, pack = self.t, self.pack
        entries = {e["id"]: e for e in (*pack.items, *pack.artifacts)}  # ids are unique
        rows: dict[str, list[int]] = {
            k: []
            for k in (
                "kind_artifact",
                "kind_rare",
                "kind_size",
                "kind_large",
                "kind_fame",
                "kind_strength",
                "kind_trade",
                "kind_move",
                "kind_dice",
                "kind_shield",
                "kind_bow",
                "kind_amphibian",
            )
        }
        for kind in self.kinds:
            e = entries[kind]
            rare, large = e.get("rarity") == "rare", e.get("size") == "large"
            values = {
                "kind_artifact": int(kind in self.game.artifact_ids),
                "kind_rare": int(rare),
                "kind_size": 2 if rare or large else 1,
                "kind_large": int(large),
                "kind_fame": int(e.get("fame", 0)),
                "kind_strength": int(e.get("strength", 0)),
                "kind_trade": int(e.get("trade", 0)),
                "kind_move": int(e.get("move", 0)),
                "kind_dice": int(e.get("dice", 0)),
                "kind_shield": int(bool(e.get("shield"))),
                "kind_bow": int(bool(e.get("bow"))),
                "kind_amphibian": int(bool(e.get("amphibian"))),
            }
            for key, value in values.items():
                rows[key].append(value)
        t.update(rows)
        order = sorted(self.kinds)
        t["kind_rank"] = [order.index(k) for k in self.kinds]
        named = {name: self.kind_index.get(name, -1) for name in ("compass", "elixir", "bow")}
        t.update(
            kind_compass=named["compass"], kind_elixir=named["elixir"], kind_bow_name=named["bow"]
        )
        t["artifact_order"] = [self.kind_index[a["id"]] for a in pack.artifacts]
        t["n_artifacts"] = len(pack.artifacts)
        commons = [
            i["id"] for i in pack.items if i["rarity"] == "common" for _ in range(i["copies"])
        ]
        rares = [i["id"] for i in pack.items if i["rarity"] == "rare" for _ in range(i["copies"])]
        one_each = sorted(set(commons))
        t["commons_init"] = [self.kind_index[k] for k in commons]
        t["rares_init"] = [self.kind_index[k] for k in rares]
        t["one_each_init"] = [self.kind_index[k] for k in one_each]
        t.update(n_commons=len(commons), n_rares=len(rares), n_one_each_kinds=len(one_each))

    def board_tables(self) -> None:
        board, t, n = self.board, self.t, len(self.spaces)
        slots = board.location_slots
        t["space_kind"] = [SPACE_KINDS.index(board.kind[s]) for s in self.spaces]
        t["space_slot"] = [slots.index(s) if s in board.slot else -1 for s in self.spaces]
        t["space_quarter"] = [
            QUARTERS.index(board.quarter[s]) if s in board.quarter else -1 for s in self.spaces
        ]
        t["space_campsite"] = [
            board.campsites.index(s) if s in board.campsite else -1 for s in self.spaces
        ]
        t["space_printed_tunnel"] = [int(s in board.printed_tunnels) for s in self.spaces]
        t["space_area"] = [
            self.areas.index(board.area_of[s]) if s in board.area_of else -1 for s in self.spaces
        ]
        t["space_finish"] = [int(board.finish.get(s, 0)) for s in self.spaces]
        t["space_resource"] = [
            FOODS.index(board.finish_resource[s]) if s in board.finish_resource else -1
            for s in self.spaces
        ]
        t["space_pref"] = [
            next((v for p, v in SPACE_PREFERENCE if s.startswith(p)), 1.0) for s in self.spaces
        ]
        t["space_camp_prefix"] = [int(s.startswith("camp")) for s in self.spaces]
        adj_first, adj = [0], []
        for s in self.spaces:
            adj += [self.space_index[x] for x in board.neighbours.get(s, [])]
            adj_first.append(len(adj))
        t.update(adj_first=adj_first, adj=adj)
        t["area_start"] = [self.space_index[board.area_start[a]] for a in self.areas]
        t["area_exit"] = [self.space_index[board.area_exit[a]] for a in self.areas]
        t["area_nearest_finish"] = [self.space_index[board.nearest_finish(a)] for a in self.areas]
        paths = []
        for s in self.spaces:
            for p in board.paths.get(s, []):
                price = [k for k, m in p.get("pay", {}).items() for _ in range(int(m))]
                paths.append(
                    {
                        "from": self.space_index[p["from"]],
                        "to": self.space_index[p["to"]],
                        "line": {"dotted": 1, "dashed": 2}.get(p.get("line", ""), 0),
                        "cost": self.fx.food_units(*price) if price else NO_NODE,
                    }
                )
        t["paths"] = paths
        t["n_paths"] = len(paths)
        t["slot_space"] = [self.space_index[s] for s in slots]
        t["slot_type"] = [LOCATION_TYPES.index(board.slot[s]) for s in slots]
        ruins = [s for s in slots if board.slot[s] == "ruins"]
        t["slot_ruin"] = [ruins.index(s) if s in ruins else -1 for s in slots]
        t["ruin_slot"] = [slots.index(s) for s in ruins]
        t["campsite_space"] = [self.space_index[s] for s in board.campsites]
        t["campsite_bonus"] = [CAMPSITE_BONUSES.index(board.campsite[s]) for s in board.campsites]
        t["n_campsites"] = len(board.campsites)
        t["start_spaces"] = [self.space_index[s] for s in board.starts]
        t["n_starts"] = len(board.starts)
        tiles = self.pack.locations
        t["tile_type"] = [LOCATION_TYPES.index(x["type"]) for x in tiles]
        t["tile_food"] = [FOODS.index(x["food"]) if "food" in x else -1 for x in tiles]
        t["tile_ruined"] = [self._ruined(x) for x in tiles]
        t["tile_restored"] = [
            LOCATION_TYPES.index(x["restored"]) if "restored" in x else 0 for x in tiles
        ]
        if n > 240:
            raise refuse(f"{n} spaces")

    @staticmethod
    def _ruined(tile: dict[str, Any]) -> int:
        ruined = tile.get("ruined", {})
        if "exchange" in ruined:
            return FOODS.index(ruined["exchange"])
        if "discard_pick" in ruined:
            return int(ruined["discard_pick"])
        if "sell_once" in ruined:
            return RUINED_STORE.index(ruined["sell_once"])
        return 0

    def store_tables(self) -> None:
        store, t, fx = self.pack.store, self.t, self.fx
        t["col_large"] = [int(c["size"] == "large") for c in store["columns"]]
        code = {**{f: i for i, f in enumerate(FOODS)}, "food": 4}
        t["col_price"] = [code[c["price"]] for c in store["columns"]]
        t["row_price"] = [code[r["price"]] for r in store["rows"]]
        cells = []
        for row in store["rows"]:
            for column in store["columns"]:
                cells.append(fx.cost([{"spend": [column["price"]]}, {"spend": [row["price"]]}]))
        t["cell_cost"] = cells
        t["cost_food1"] = fx.food_units("food")
        t["cost_tea1"] = fx.food_units("tea")
        t["cost_food2"] = fx.food_units("food", "food")

    def card_tables(self) -> None:
        t, fx = self.t, self.fx
        rows: dict[str, list[Any]] = {}

        def put(key: str, value: Any) -> None:
            rows.setdefault(key, []).append(value)

        order = sorted(self.cards)
        for i, cid in enumerate(self.cards):
            card = self.pack.card(cid)
            symbols = card["symbols"]
            put("card_deck", self._deck_of(cid))
            put("card_fame", int(card["fame"]))
            put("card_symbols", [min(255, symbols.count(x)) for x in SYMBOLS])
            put("card_column", COLUMNS.index(COLUMN_OF[symbols[0]]))
            moral = [
                {"good": -1, "evil": 1, "either": 2}[x]
                for x in symbols
                if x in ("good", "evil", "either")
            ]
            if len(moral) > 8:
                raise refuse(f"card {cid} has more than 8 morality symbols")
            put("card_moral", moral)
            put("card_n_moral", len(moral))
            put("card_either_or_evil", int("either" in symbols or "evil" in symbols))
            enhance = card.get("enhance", {})
            put("card_enhance", [fx.arg(int(enhance.get(k, 0)), "an enhancement") for k in ENHANCE])
            put("card_strength_discard", int(enhance.get("strength", 0)))
            put(
                "card_strength_facedown",
                fx.arg(sum(int(n) for n in enhance.values()), "an enhancement"),
            )
            bonus = card.get("bonus", {})
            put("card_grove_bonus", FOODS.index(bonus["grove"]) if "grove" in bonus else -1)
            put("card_lookout_bonus", fx.arg(int(bonus.get("lookout", 0)), "a lookout bonus"))
            put("card_cartographer", int(card.get("skill") == "cartographer"))
            put("card_company", int(any("company" in c for c in card.get("requires", []))))
            first, count = fx.conditions(card.get("requires", []))
            put("card_cond_first", first)
            put("card_cond_count", count)
            put("card_cost", fx.cost(card.get("cost")))
            put(
                "card_effect",
                fx.effect_list(i, ["effect"], card["effect"]) if "effect" in card else NO_NODE,
            )
            put(
                "card_unpaid",
                fx.effect_list(i, ["unpaid"], card["unpaid"]) if "unpaid" in card else NO_NODE,
            )
            foe = next((j for j, e in enumerate(card.get("effect", [])) if "fight" in e), None)
            put(
                "card_foe",
                NO_NODE if foe is None else self.out.node_of[(i, ("effect", foe, "fight"))],
            )
            put("card_area", AREAS.index(card["area"]) if "area" in card else 255)
            put("card_rank", order.index(cid))
        t.update(rows)

    def _deck_of(self, cid: str) -> int:
        deck = self.game.deck_of[cid]
        if deck == "deeds":
            return 0
        if deck == "encounters":
            return 1
        return 2 + self.areas.index(deck[4:])

    def setup_queue(self) -> None:
        """setup.Setup.run's queue for this player count, as frames (kind, player, a, b, c)."""
        board, comp, n = self.board, self.comp, self.game.players
        slots = board.location_slots
        ruins = [s for s in slots if board.slot[s] == "ruins"]
        queue: list[tuple[int, int, int, int, int]] = []
        queue += [(KIND["place_tile"], -1, i, 0, 0) for i in range(len(slots))]
        for r, _ in enumerate(ruins):
            queue += [(KIND["ruin_item"], -1, r, 2, 0)] * 2 + [(KIND["ruin_item"], -1, r, 1, 0)]
        rows = len(self.pack.store["rows"])
        for c in range(4):
            for r in range(rows):
                if c < 2:
                    queue.append((KIND["stock"], -1, r, c, 0))
                elif c == 2 and self.pack.store["columns"][c]["size"] == "large":
                    queue.append((KIND["stock"], -1, r, c, 1))
        queue += [(KIND["draw"], 0, 1, 5 + i, 0) for i in range(comp["encounter_row"])]
        queue += [(KIND["start_space"], p, 0, 0, 0) for p in range(n)]
        for _ in range(comp["tents_each"]):
            queue += [(KIND["deal_tent"], p, 0, 0, 0) for p in range(n)]
        for p in range(n):
            queue += [(KIND["draw"], p, 0, 1, 0)] * comp["start_hand"]
        queue.append((KIND["setup_done"], -1, 0, 0, 0))
        if len(queue) > LIMITS["setup"]:
            raise refuse("a set-up of too many steps")
        t = self.t
        t["n_setup"] = len(queue)
        for i, key in enumerate(("setup_kind", "setup_player", "setup_a", "setup_b", "setup_c")):
            t[key] = [q[i] for q in queue]

    def effect_tables(self) -> None:
        fx, t = self.fx, self.t
        sizes: list[tuple[str, list[Any]]] = [
            ("nodes", fx.nodes),
            ("instr", fx.instr),
            ("options", fx.options),
            ("conds", fx.conds),
            ("costs", fx.costs),
            ("terms", fx.terms),
            ("gains", fx.gains),
        ]
        for name, rows in sizes:
            if len(rows) > LIMITS[name]:
                raise refuse(f"{len(rows)} {name} in the compiled effect language")
        t.update(
            n_nodes=len(fx.nodes),
            n_instr=len(fx.instr),
            n_options=len(fx.options),
            n_conds=len(fx.conds),
            n_costs=len(fx.costs),
            n_terms=len(fx.terms),
            n_gains=len(fx.gains),
            nodes=fx.nodes,
            instr=fx.instr,
            options=fx.options,
            conds=fx.conds,
            costs=fx.costs,
            terms=fx.terms,
            gain_key=[k for k, _ in fx.gains],
            gain_n=[n for _, n in fx.gains],
        )

    def string_tables(self) -> None:
        t = self.t
        t["str_card"] = [self.string(c) for c in self.cards]
        t["str_card_json"] = [self.string(json.dumps(c)) for c in self.cards]
        t["str_space"] = [self.string(s) for s in self.spaces]
        t["str_kind"] = [self.string(k) for k in self.kinds]
        t["str_area"] = [self.string(a) for a in self.areas]
        t["str_bonus"] = [self.string(b) for b in TENT_BONUSES]
        t["str_kindname"] = [self.string(k) for k in KIND_NAMES]
        t["chars"] = bytes(self.strings)


def compile_game(game: Any) -> Compiled:
    """The compiled tables of ``game`` (a reference :class:`~solver.games.trial.rules.TrialGame`):
    an :class:`~solver.errors.OptionError` naming ``engine="reference"`` beyond the limits."""
    if len(game.board.areas) != 3 or len(PAW_TARGETS) != 6:
        raise refuse("a board without exactly 3 expedition areas")
    return _Builder(game).build()
