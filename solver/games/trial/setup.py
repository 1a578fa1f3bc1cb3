"""Setting up the Trial in the rulebook's order: the board (tiles, ruin items, the store, the
encounter row), then the players' preparation (pieces on start spaces, tents, hands).

Every random part of the set-up is a chance node with exact probabilities (a tile for each slot
of its type, the items hidden in each ruins, the stacks in the store, each card drawn, each dealt
tent). The players choose their start spaces in turn order from the first player (set-up step 2)
before they see their tents (step 5) and hands (step 7).
"""

from __future__ import annotations

from collections import Counter
from typing import TYPE_CHECKING, Any

from solver.games.trial.core import Frame, player, pop, step
from solver.games.trial.schema import FOODS

if TYPE_CHECKING:
    from solver.games.trial.rules import TrialGame, TrialState


def initial_data(game: TrialGame) -> dict[str, Any]:
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
                "pos": None,
                "hand": [],
                "pending": [],
                "food": food,
                "pack": [],
                "gallery": [],
                "story": [],
                "morality": 0,
                "paws": comp["paws"] - 1,
                "strong": True,
                "placed": [],
                "tents": [],
                "flags": {a: None for a in board.areas},
                "onetime": {"move": 0, "trade": 0, "strength": 0, "card_draw": 0},
                "camped": False,
            }
        )
    commons = [i["id"] for i in pack.items if i["rarity"] == "common" for _ in range(i["copies"])]
    rares = [i["id"] for i in pack.items if i["rarity"] == "rare" for _ in range(i["copies"])]
    store = pack.store
    data: dict[str, Any] = {
        "n": n,
        "day": 1,
        "first": 0,
        "turn": None,
        "over": False,
        "players": players,
        "tray": tray,
        "gallery_food": {f: 0 for f in FOODS},
        "tiles": {s: None for s in board.location_slots},
        "ruins": {
            s: {"items": [], "known": []} for s in board.location_slots if board.slot[s] == "ruins"
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
        "pool": {"common": commons, "rare": rares},
        "artifacts": [a["id"] for a in pack.artifacts],
        "decks": {
            "deeds": {"layers": [[c["id"] for c in pack.deeds]], "discard": [], "top": None},
            "encounters": {
                "layers": [[c["id"] for c in pack.encounters]],
                "discard": [],
                "top": None,
            },
        },
        "row": [None] * comp["encounter_row"],
        "camps": {s: None for s in [*board.campsites, "universal"]},
        "legendary": {t["id"]: None for t in comp["legendary"]},
        "last_fight": None,
        "stack": [],
    }
    for area in board.areas:
        cards = [c["id"] for c in pack.expeditions if c["area"] == area]
        data["decks"][f"exp:{area}"] = {"layers": [cards], "discard": [], "top": None}
    data["stack"].append({"k": "setup"})
    return data


@step("setup")
class Setup:
    """Automatic: queue every set-up step, in the rulebook's order."""

    auto = True

    @staticmethod
    def run(st: TrialState, f: Frame) -> None:
        pop(st, f)
        board, comp = st.g.board, st.g.components
        queue: list[dict[str, Any]] = []
        for slot in board.location_slots:
            queue.append({"k": "place_tile", "slot": slot})
        kinds = sorted(set(st.d["pool"]["common"]))
        ruins = [s for s in board.location_slots if board.slot[s] == "ruins"]
        st.d["pool"]["one_each"] = kinds
        for slot in ruins:
            queue += [{"k": "ruin_item", "slot": slot, "pool": "one_each"}] * 2
            queue.append({"k": "ruin_item", "slot": slot, "pool": "rare"})
        for r, c in [(r, c) for c in range(4) for r in range(len(st.d["store"]))]:
            column = st.g.pack.store["columns"][c]
            if c < 2:
                queue.append({"k": "stock", "cell": [r, c], "pool": "common"})
            elif c == 2 and column["size"] == "large":
                queue.append({"k": "stock", "cell": [r, c], "pool": "rare"})
        for i in range(comp["encounter_row"]):
            queue.append({"k": "draw", "p": 0, "deck": "encounters", "to": f"row:{i}"})
        n = st.d["n"]
        # the players' preparation: pieces on start spaces (step 2), tents (5), hands (7)
        queue += [{"k": "start_space", "p": p} for p in range(n)]
        for _ in range(comp["tents_each"]):
            queue += [{"k": "deal_tent", "p": p} for p in range(n)]
        for p in range(n):
            queue += [{"k": "draw", "p": p, "deck": "deeds", "to": "hand"}] * comp["start_hand"]
        queue.append({"k": "setup_done"})
        for frame in reversed(queue):
            st.d["stack"].append(dict(frame))


@step("place_tile")
class PlaceTile:
    """Chance: which tile of the slot's type lies on the slot (uniform over those left)."""

    chance = True

    @staticmethod
    def outcomes(st: TrialState, f: Frame) -> list[tuple[int, float]]:
        kind = st.g.board.slot[f["slot"]]
        placed = {t[0] for t in st.d["tiles"].values() if t}
        left = [t["id"] for t in st.g.pack.locations if t["type"] == kind and t["id"] not in placed]
        return [(st.L.TILE + st.L.tile_index[t], 1.0 / len(left)) for t in left]

    @staticmethod
    def apply(st: TrialState, f: Frame, a: int) -> None:
        pop(st, f)
        st.d["tiles"][f["slot"]] = [st.L.tiles[a - st.L.TILE], False]

    @staticmethod
    def describe(st: TrialState, f: Frame, a: int) -> str:
        return f"{f['slot']} gets {st.L.tiles[a - st.L.TILE]}"


def _pool_outcomes(st: TrialState, pool: list[str]) -> list[tuple[int, float]]:
    counts = Counter(pool)
    return [(st.L.item(k), counts[k] / len(pool)) for k in sorted(counts, key=st.L.item)]


@step("ruin_item")
class RuinItem:
    """Chance: an item laid face down on a ruins tile."""

    chance = True

    @staticmethod
    def outcomes(st: TrialState, f: Frame) -> list[tuple[int, float]]:
        return _pool_outcomes(st, st.d["pool"][f["pool"]])

    @staticmethod
    def apply(st: TrialState, f: Frame, a: int) -> None:
        pop(st, f)
        kind = st.L.item_kinds[a - st.L.ITEM]
        st.d["pool"][f["pool"]].remove(kind)
        if f["pool"] == "one_each":
            st.d["pool"]["common"].remove(kind)
        st.d["ruins"][f["slot"]]["items"].append(kind)


@step("stock")
class Stock:
    """Chance: the stack of common items (every copy of a kind) or the rare item on a store cell."""

    chance = True

    @staticmethod
    def outcomes(st: TrialState, f: Frame) -> list[tuple[int, float]]:
        pool = st.d["pool"][f["pool"]]
        if f["pool"] == "common":
            kinds = sorted(set(pool), key=st.L.item)
            return [(st.L.item(k), 1.0 / len(kinds)) for k in kinds]
        return _pool_outcomes(st, pool)

    @staticmethod
    def apply(st: TrialState, f: Frame, a: int) -> None:
        pop(st, f)
        kind = st.L.item_kinds[a - st.L.ITEM]
        pool = st.d["pool"][f["pool"]]
        copies = pool.count(kind) if f["pool"] == "common" else 1
        for _ in range(copies):
            pool.remove(kind)
        r, c = f["cell"]
        st.d["store"][r][c] = [kind] * copies


@step("deal_tent")
class DealTent:
    """Chance: a face-down tent token dealt to a player."""

    chance = True

    @staticmethod
    def outcomes(st: TrialState, f: Frame) -> list[tuple[int, float]]:
        tents = st.d["box"]["tents"]
        counts = Counter(tents)
        return [(st.L.tent(b), counts[b] / len(tents)) for b in sorted(counts, key=st.L.tent)]

    @staticmethod
    def apply(st: TrialState, f: Frame, a: int) -> None:
        pop(st, f)
        bonus = st.L.label(a)[len("tent ") :]
        st.d["box"]["tents"].remove(bonus)
        player(st, f["p"])["tents"].append(bonus)


@step("start_space")
class StartSpace:
    """Decision: where a player puts their piece (any start space; several may share one)."""

    @staticmethod
    def legal(st: TrialState, f: Frame) -> list[int]:
        return [st.L.space(s) for s in st.g.board.starts]

    @staticmethod
    def apply(st: TrialState, f: Frame, a: int) -> None:
        pop(st, f)
        player(st, f["p"])["pos"] = st.L.spaces[a - st.L.SPACE]

    @staticmethod
    def describe(st: TrialState, f: Frame, a: int) -> str:
        return f"start on {st.L.spaces[a - st.L.SPACE]}"


@step("setup_done")
class SetupDone:
    """Automatic: the set-up pools are empty; the first day begins with the first player."""

    auto = True

    @staticmethod
    def run(st: TrialState, f: Frame) -> None:
        pop(st, f)
        st.d.pop("pool", None)
