"""Action ids: one flat integer space per pack, in families whose meaning the current step names.

A family is a base id plus an index: ``CARD + i`` is card ``i`` of the pack (played, discarded for
an enhancement, paid, given... depending on the step the state waits for), ``SPACE + i`` a space,
``ITEM + i`` an item or artifact kind, and so on. Chance outcomes use the same families (a drawn
card is ``CARD + i``, a die face ``DIE + i``). The layout depends only on the pack's sizes.

>>> from solver.games.trial.content import default_pack
>>> layout = Layout(default_pack())
>>> layout.END_TURN, layout.family(layout.CARD + 3)
(0, ('card', 3))
"""

from __future__ import annotations

from bisect import bisect_right
from collections.abc import Callable

from solver.games.trial.content import Pack
from solver.games.trial.schema import FOODS, TENT_BONUSES

NAMED: tuple[str, ...] = (
    "end turn",
    "done",
    "yes",
    "leave expedition",
    "move",
    "camp",
    "token",
    "elixir",
)
COLUMNS: tuple[str, ...] = ("moral", "trading", "pioneering", "fighting")
PAW_TARGETS: tuple[str, ...] = (
    "location",
    "encounter 1",
    "encounter 2",
    "encounter 3",
    "help",
    "expedition",
)
BONUSES: tuple[str, ...] = ("card", "food", "tea")


class Layout:
    """The families and their base ids for one pack."""

    END_TURN, DONE, YES, LEAVE, MOVE, CAMP, TOKEN, ELIXIR = range(8)

    def __init__(self, pack: Pack):
        from solver.games.trial.board import Board

        board = Board(pack)
        self.item_kinds: list[str] = [i["id"] for i in pack.items] + [
            a["id"] for a in pack.artifacts
        ]
        self.tiles: list[str] = [t["id"] for t in pack.locations]
        self.spaces: list[str] = board.spaces
        self.cards: list[str] = pack.card_ids()
        self.die_faces = len(pack.components["die"])
        sizes: list[tuple[str, int]] = [
            ("named", len(NAMED)),
            ("paw", 2 * len(PAW_TARGETS)),
            ("option", 8),
            ("food", len(FOODS)),
            ("column", len(COLUMNS)),
            ("player", 4),
            ("tent", len(TENT_BONUSES)),
            ("cell", 16),
            ("bonus", len(BONUSES)),
            ("die", self.die_faces),
            ("tile", len(self.tiles)),
            ("item", len(self.item_kinds)),
            ("sell", len(self.item_kinds)),
            ("space", len(self.spaces)),
            ("card", len(self.cards)),
            ("drop", len(self.item_kinds)),
        ]
        self.bases: dict[str, int] = {}
        base = 0
        for name, size in sizes:
            self.bases[name] = base
            base += size
        self.sizes = dict(sizes)
        self.size = base
        self.PAW = self.bases["paw"]
        self.OPTION = self.bases["option"]
        self.FOOD = self.bases["food"]
        self.COLUMN = self.bases["column"]
        self.PLAYER = self.bases["player"]
        self.TENT = self.bases["tent"]
        self.CELL = self.bases["cell"]
        self.BONUS = self.bases["bonus"]
        self.DIE = self.bases["die"]
        self.TILE = self.bases["tile"]
        self.ITEM = self.bases["item"]
        self.SELL = self.bases["sell"]
        self.SPACE = self.bases["space"]
        self.CARD = self.bases["card"]
        self.DROP = self.bases["drop"]
        self._starts = sorted((b, n) for n, b in self.bases.items())
        self._base_list = [b for b, _ in self._starts]
        self.card_index = {c: i for i, c in enumerate(self.cards)}
        self.space_index = {s: i for i, s in enumerate(self.spaces)}
        self.item_index = {k: i for i, k in enumerate(self.item_kinds)}
        self.tile_index = {t: i for i, t in enumerate(self.tiles)}

    def family(self, action: int) -> tuple[str, int]:
        """The family of ``action`` and its index in the family."""
        at = bisect_right(self._base_list, action) - 1
        if at < 0 or action >= self.size:
            raise ValueError(action)
        base, name = self._starts[at]
        return name, action - base

    # shorthands -------------------------------------------------------------------------------
    def card(self, cid: str) -> int:
        return self.CARD + self.card_index[cid]

    def space(self, sid: str) -> int:
        return self.SPACE + self.space_index[sid]

    def item(self, kind: str) -> int:
        return self.ITEM + self.item_index[kind]

    def sell(self, kind: str) -> int:
        return self.SELL + self.item_index[kind]

    def drop(self, kind: str) -> int:
        return self.DROP + self.item_index[kind]

    def food(self, f: str) -> int:
        return self.FOOD + FOODS.index(f)

    def tent(self, bonus: str) -> int:
        return self.TENT + TENT_BONUSES.index(bonus)

    def paw(self, target: int, strong: bool) -> int:
        return self.PAW + 2 * target + int(strong)

    def label(self, action: int) -> str:
        """A label independent of the state (the state adds what the step means)."""
        name, i = self.family(action)
        return _LABELS[name](self, i)


#: Each family's label of its ``i``-th action (see :meth:`Layout.label`).
_LABELS: dict[str, Callable[[Layout, int], str]] = {
    "named": lambda _, i: NAMED[i],
    "paw": lambda _, i: f"{'strong ' if i % 2 else ''}paw: {PAW_TARGETS[i // 2]}",
    "option": lambda _, i: f"option {i + 1}",
    "food": lambda _, i: FOODS[i],
    "column": lambda _, i: f"column {COLUMNS[i]}",
    "player": lambda _, i: f"player {i}",
    "tent": lambda _, i: f"tent {TENT_BONUSES[i]}",
    "cell": lambda _, i: f"cell {i // 4 + 1},{i % 4 + 1}",
    "bonus": lambda _, i: f"bonus {BONUSES[i]}",
    "die": lambda _, i: f"die face {i + 1}",
    "tile": lambda layout, i: f"tile {layout.tiles[i]}",
    "item": lambda layout, i: layout.item_kinds[i],
    "sell": lambda layout, i: f"give up {layout.item_kinds[i]}",
    "space": lambda layout, i: layout.spaces[i],
    "card": lambda layout, i: layout.cards[i],
    "drop": lambda layout, i: f"drop {layout.item_kinds[i]}",
}
