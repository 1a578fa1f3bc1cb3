"""The guardians' action ids: one fixed encoding shared by every engine.

====================================  ============================================  ===========
ids                                   label                                         when
====================================  ============================================  ===========
0                                     ``end turn``                                  missions
1                                     ``take 2 tiles``                              growth
2                                     ``take 1 tile``                               growth
3                                     ``reset the pool``                            growth
4 + p (p = 0..3)                      ``put blue pawn on (1,-2)``                   solo pawns
WALK_BASE + p * WALK_CODES + code     ``walk blue pawn: (0,1) -> (0,2) (1,2)``      missions
DRAW_BASE + t - 1 (t = 1..N)          ``draw tile 17`` / ``round track: tile 17``   chance
PLACE_BASE + (t - 1) * CELLS + cell   ``place tile 17 at (1,-2)``                   growth
====================================  ============================================  ===========

``p`` is a pawn: in solo its colour (0 blue, 1 green, 2 yellow, 3 red); with 2-4 players the
pawns are alike and numbered by the order they entered the forest. ``code`` is the walk's
direction code (:mod:`solver.games.guardians.walks`), ``t`` a tile id of the tile set (N tiles),
and ``cell`` a cell of the board window, ``(row + 128) * 256 + (column + 128)``: forests live in
rows and columns -128..127, which no game can leave (a player places at most N tiles).
The side a tile is placed on follows from the growth option taken, so it is not in the id.

>>> codec = ActionCodec(72)
>>> codec.place(17, (1, -2)) - codec.place_base, codec.decode_place(codec.place(17, (1, -2)))
(1081726, (17, (1, -2)))
>>> codec.num_distinct_actions()
4740512
"""

from __future__ import annotations

from dataclasses import dataclass

from solver.games.guardians.board import Cell
from solver.games.guardians.walks import WALK_CODES

__all__ = [
    "BOARD_MIN",
    "BOARD_SIZE",
    "CELLS",
    "END_TURN",
    "PAWNS",
    "PAWN_BASE",
    "RESET",
    "TAKE_ONE",
    "TAKE_TWO",
    "WALK_BASE",
    "ActionCodec",
    "in_window",
]

END_TURN, TAKE_TWO, TAKE_ONE, RESET = 0, 1, 2, 3
PAWNS = 4
PAWN_BASE = 4
WALK_BASE = PAWN_BASE + PAWNS
BOARD_MIN, BOARD_SIZE = -128, 256
CELLS = BOARD_SIZE * BOARD_SIZE


def in_window(cell: Cell) -> bool:
    """Whether ``cell`` lies in the board window (rows and columns -128..127)."""
    return (
        BOARD_MIN <= cell[0] < BOARD_MIN + BOARD_SIZE
        and BOARD_MIN <= cell[1] < BOARD_MIN + BOARD_SIZE
    )


@dataclass(frozen=True)
class ActionCodec:
    """Action ids for a tile set of ``n_tiles`` tiles (ids 1..n_tiles)."""

    n_tiles: int

    @property
    def draw_base(self) -> int:
        return WALK_BASE + PAWNS * WALK_CODES

    @property
    def place_base(self) -> int:
        return self.draw_base + self.n_tiles

    def num_distinct_actions(self) -> int:
        return self.place_base + self.n_tiles * CELLS

    def walk(self, pawn: int, code: int) -> int:
        return WALK_BASE + pawn * WALK_CODES + code

    def draw(self, tile: int) -> int:
        return self.draw_base + tile - 1

    def place(self, tile: int, cell: Cell) -> int:
        index = (cell[0] - BOARD_MIN) * BOARD_SIZE + (cell[1] - BOARD_MIN)
        return self.place_base + (tile - 1) * CELLS + index

    def kind(self, action: int) -> str:
        """``"end"``, ``"take2"``, ``"take1"``, ``"reset"``, ``"pawn"``, ``"walk"``, ``"draw"``,
        ``"place"``, or ``"none"`` for an id outside the range."""
        if action < 0 or action >= self.num_distinct_actions():
            return "none"
        if action < PAWN_BASE:
            return ("end", "take2", "take1", "reset")[action]
        if action < WALK_BASE:
            return "pawn"
        if action < self.draw_base:
            return "walk"
        if action < self.place_base:
            return "draw"
        return "place"

    def decode_walk(self, action: int) -> tuple[int, int]:
        """``(pawn, direction code)`` of a walk id."""
        return divmod(action - WALK_BASE, WALK_CODES)

    def decode_draw(self, action: int) -> int:
        return action - self.draw_base + 1

    def decode_place(self, action: int) -> tuple[int, Cell]:
        """``(tile, cell)`` of a placement id."""
        tile0, index = divmod(action - self.place_base, CELLS)
        row, col = divmod(index, BOARD_SIZE)
        return tile0 + 1, (row + BOARD_MIN, col + BOARD_MIN)
