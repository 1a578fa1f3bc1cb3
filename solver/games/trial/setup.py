"""Setting up the Trial in the rulebook's order: the board (tiles, ruin items, the store, the
encounter row), then the players' preparation (pieces on start spaces, tents, hands).

Every random part of the set-up is a chance node with exact probabilities (a tile for each slot
of its type, the items hidden in each ruins, the stacks in the store, each card drawn, each dealt
tent). The players choose their start spaces in turn order from the first player (set-up step 2)
before they see their tents (step 5) and hands (step 7).
"""

from __future__ import annotations

from collections import Counter
from typing import TYPE_CHECKING, Any, ClassVar

from solver.games.trial import core
from solver.games.trial.belongings import TentFromBox, take_tent, tent_words
from solver.games.trial.core import REQUIRED, Fields, Frame, Step, player, pop, push, step
from solver.games.trial.schema import FOODS

if TYPE_CHECKING:
    from solver.games.trial.core import Game, State


def initial_data(game: Game) -> dict[str, Any]:
    """The state before any set-up step: everything in its box, the set-up steps queued."""
    pack, comp, board = game.pack, game.components, game.board
    n = game.players
    tray = {f: comp["food_per_kind"] for f in FOODS}
    players = []
    for _ in range(n):
        food = {f: 0 for f in FOODS}
        for f, k in comp["start_food"].items():
            food[f] += k
            tray[f] -= k
        players.append(
            {
                "space": None,
                "hand": [],
                "aside": [],
                "food": food,
                "backpack": [],
                "gallery": [],
                "story": [],
                "morality": 0,
                "paws": comp["paws"] - 1,
                "strong_paw": True,
                "paws_placed": [],
                "tents": [],
                "flags": {a: None for a in board.areas},
                "tent_symbols": {"move": 0, "trade": 0, "strength": 0, "card_draw": 0},
                "camped": False,
            }
        )
    commons = [i["id"] for i in pack.items if i["rarity"] == "common" for _ in range(i["copies"])]
    rares = [i["id"] for i in pack.items if i["rarity"] == "rare" for _ in range(i["copies"])]
    store = pack.store
    data: dict[str, Any] = {
        "player_count": n,
        "day": 1,
        "first_player": 0,
        "turn_player": None,
        "game_over": False,
        "players": players,
        "tray": tray,
        "gallery_food": {f: 0 for f in FOODS},
        "tiles": {s: None for s in board.location_slots},
        "ruins": {
            s: {"items": [], "seen_by": []}
            for s in board.location_slots
            if board.slot[s] == "ruins"
        },
        "tunnels": {},
        "tunnel_tokens": pack.board["tunnel_tokens"],
        "store": [[[] for _ in store["columns"]] for _ in store["rows"]],
        "box": {
            "tents": [t["bonus"] for t in pack.tents],
            "used_tents": [],
            "items": [],
            "artifacts": [],
        },
        "setup_pool": {"common": commons, "rare": rares},
        "artifacts_available": [a["id"] for a in pack.artifacts],
        "decks": {
            "deeds": {"layers": [[c["id"] for c in pack.deeds]], "discard": [], "top": None},
            "encounters": {
                "layers": [[c["id"] for c in pack.encounters]],
                "discard": [],
                "top": None,
            },
        },
        "encounter_row": [None] * comp["encounter_row"],
        "camp_tents": {s: None for s in [*board.campsites, "universal"]},
        "legendary": {t["id"]: None for t in comp["legendary"]},
        "last_fight": None,
        "stack": [],
    }
    for area in board.areas:
        cards = [c["id"] for c in pack.expeditions if c["area"] == area]
        data["decks"][f"exp:{area}"] = {"layers": [cards], "discard": [], "top": None}
    data["stack"].append({"step": "setup"})
    return data


@step("setup")
class Setup(Step):
    """Automatic: queue every set-up step, in the rulebook's order."""

    auto = True
    fields: ClassVar[Fields] = {}

    @staticmethod
    def run(st: State, f: Frame) -> None:
        pop(st, f)
        board, comp = st.game.board, st.game.components
        queue: list[tuple[str, dict[str, Any]]] = []
        for slot in board.location_slots:
            queue.append(("place_tile", {"slot": slot}))
        kinds = sorted(set(st.data["setup_pool"]["common"]))
        ruins = [s for s in board.location_slots if board.slot[s] == "ruins"]
        st.data["setup_pool"]["one_each"] = kinds
        for slot in ruins:
            queue += [("ruin_item", {"slot": slot, "pool": "one_each"})] * 2
            queue.append(("ruin_item", {"slot": slot, "pool": "rare"}))
        for r, c in [(r, c) for c in range(4) for r in range(len(st.data["store"]))]:
            column = st.game.pack.store["columns"][c]
            if c < 2:
                queue.append(("stock", {"cell": [r, c], "pool": "common"}))
            elif c == 2 and column["size"] == "large":
                queue.append(("stock", {"cell": [r, c], "pool": "rare"}))
        for i in range(comp["encounter_row"]):
            queue.append(("draw", {"player": 0, "deck": "encounters", "to": f"row:{i}"}))
        n = st.data["player_count"]
        # the players' preparation: pieces on start spaces (step 2), tents (5), hands (7)
        queue += [("start_space", {"player": p}) for p in range(n)]
        for _ in range(comp["tents_each"]):
            queue += [("deal_tent", {"player": p}) for p in range(n)]
        for p in range(n):
            draws = [("draw", {"player": p, "deck": "deeds", "to": "hand"})] * comp["start_hand"]
            queue += draws
        queue.append(("setup_done", {}))
        for kind, fields in reversed(queue):
            push(st, kind, **fields)


@step("place_tile")
class PlaceTile(Step):
    """Chance: which tile of the slot's type lies on the slot (uniform over those left)."""

    chance = True
    fields: ClassVar[Fields] = {"slot": (REQUIRED, "the location slot")}

    @staticmethod
    def outcomes(st: State, f: Frame) -> list[tuple[int, float]]:
        kind = st.game.board.slot[f["slot"]]
        placed = {t[0] for t in st.data["tiles"].values() if t}
        left = [
            t["id"] for t in st.game.pack.locations if t["type"] == kind and t["id"] not in placed
        ]
        return [(st.layout.TILE + st.layout.tile_index[t], 1.0 / len(left)) for t in left]

    @staticmethod
    def apply(st: State, f: Frame, a: int) -> None:
        pop(st, f)
        st.data["tiles"][f["slot"]] = [st.layout.tiles[a - st.layout.TILE], False]

    @staticmethod
    def describe(st: State, f: Frame, a: int) -> str:
        return f"{f['slot']} gets the {st.layout.tiles[a - st.layout.TILE]} tile"

    @staticmethod
    def legacy(st: State, f: Frame, a: int) -> str:
        """The label before read ``lookout-1 gets lookout-3`` (still accepted)."""
        return f"{f['slot']} gets {st.layout.tiles[a - st.layout.TILE]}"


def _pool_outcomes(st: State, pool: list[str]) -> list[tuple[int, float]]:
    counts = Counter(pool)
    return [(st.layout.item(k), counts[k] / len(pool)) for k in sorted(counts, key=st.layout.item)]


@step("ruin_item")
class RuinItem(Step):
    """Chance: an item laid face down on a ruins tile (from the ``pool`` named)."""

    chance = True
    fields: ClassVar[Fields] = {
        "slot": (REQUIRED, "the ruins"),
        "pool": (REQUIRED, "one_each (a common of a kind not yet laid) or rare"),
    }

    @staticmethod
    def outcomes(st: State, f: Frame) -> list[tuple[int, float]]:
        return _pool_outcomes(st, st.data["setup_pool"][f["pool"]])

    @staticmethod
    def apply(st: State, f: Frame, a: int) -> None:
        pop(st, f)
        kind = st.layout.item_kinds[a - st.layout.ITEM]
        st.data["setup_pool"][f["pool"]].remove(kind)
        if f["pool"] == "one_each":
            st.data["setup_pool"]["common"].remove(kind)
        st.data["ruins"][f["slot"]]["items"].append(kind)

    @staticmethod
    def describe(st: State, f: Frame, a: int) -> str:
        return f"{f['slot']} gets {st.layout.item_kinds[a - st.layout.ITEM]} face down"


@step("stock")
class Stock(Step):
    """Chance: the stack of common items (every copy of a kind) or the rare item on a store cell."""

    chance = True
    fields: ClassVar[Fields] = {
        "cell": (REQUIRED, "[row, column] of the store"),
        "pool": (REQUIRED, "common or rare"),
    }

    @staticmethod
    def outcomes(st: State, f: Frame) -> list[tuple[int, float]]:
        pool = st.data["setup_pool"][f["pool"]]
        if f["pool"] == "common":
            kinds = sorted(set(pool), key=st.layout.item)
            return [(st.layout.item(k), 1.0 / len(kinds)) for k in kinds]
        return _pool_outcomes(st, pool)

    @staticmethod
    def apply(st: State, f: Frame, a: int) -> None:
        pop(st, f)
        kind = st.layout.item_kinds[a - st.layout.ITEM]
        pool = st.data["setup_pool"][f["pool"]]
        copies = pool.count(kind) if f["pool"] == "common" else 1
        for _ in range(copies):
            pool.remove(kind)
        r, c = f["cell"]
        st.data["store"][r][c] = [kind] * copies

    @staticmethod
    def describe(st: State, f: Frame, a: int) -> str:
        r, c = f["cell"]
        kind = st.layout.item_kinds[a - st.layout.ITEM]
        return f"store slot row {r + 1}, column {c + 1} gets {kind}"


@step("deal_tent")
class DealTent(TentFromBox):
    """Chance: a face-down tent token dealt to a player."""

    fields: ClassVar[Fields] = {"player": (REQUIRED, "who gets it")}

    @staticmethod
    def apply(st: State, f: Frame, a: int) -> None:
        bonus = take_tent(st, f, a)
        player(st, f["player"])["tents"].append(bonus)

    @staticmethod
    def describe(st: State, f: Frame, a: int) -> str:
        return f"player {f['player']} is dealt {tent_words(st, a)}"


@step("start_space")
class StartSpace(core.ChooseSpace):
    """Decision: where a player puts their piece (any start space; several may share one)."""

    fields: ClassVar[Fields] = {"player": (REQUIRED, "whose piece")}
    words = "start on {}"

    @staticmethod
    def spaces(st: State, f: Frame) -> list[str]:
        return list(st.game.board.starts)

    @staticmethod
    def place(st: State, f: Frame, space: str) -> None:
        player(st, f["player"])["space"] = space


@step("setup_done")
class SetupDone(Step):
    """Automatic: the set-up pools are empty; the first day begins with the first player."""

    auto = True
    fields: ClassVar[Fields] = {}

    @staticmethod
    def run(st: State, f: Frame) -> None:
        pop(st, f)
        st.data.pop("setup_pool", None)
