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
PLACE_BASE + s * CELLS + cell         ``place tile 17 at (1,-2)``                   growth
DRAW_BASE + t - 1 (t = 1..N)          ``draw tile 17`` / ``round track: tile 17``   chance
DRAW_BASE + u - 1 (u = 1..N)          ``reveal tile 17: G-R-E``                     chance
PICK_BASE + s (PICK_BASE = DRAW_BASE + N)  ``flip tile 17``                         growth
====================================  ============================================  ===========

``p`` is a pawn: in solo its colour (0 blue, 1 green, 2 yellow, 3 red); with 2-4 players the
pawns are alike and numbered by the order they entered the forest. ``code`` is the walk's
direction code (:mod:`solver.games.guardians.walks`), ``t`` a tile id of the tile set (N tiles),
``s`` the pool slot of the placed tile (its rank in the pool, which is kept sorted by tile id: the
label names the tile itself), and ``cell`` a cell of the board window,
``(row + 32) * 64 + (column + 32)``: forests live in rows and columns -32..31 and a placement
outside that window is not legal (a fresh game reaches its edge only by laying a line of 32 tiles
straight out from the start tile). The side a tile is placed on follows from the growth option
taken, so it is not in the id either. With hidden backs (the default rule) a flip is a chance
node whose outcomes are the backs still unseen for the tile's face, each named by ``u``, the
first tile of the set with that face and that back (the id codes the back only: the flipped
tile keeps its own id); ``take 1 tile`` is followed by ``flip tile 17`` (the pool tile chosen,
slot ``s``), its reveal, then its placement. Every id fits in 16 bits (30 486 for the default
set).

>>> codec = ActionCodec(72)
>>> codec.place(2, (1, -2)) - PLACE_BASE, codec.decode_place(codec.place(2, (1, -2)))
(10334, (2, (1, -2)))
>>> codec.num_distinct_actions(), codec.pick(0)
(30486, 30480)
"""

from __future__ import annotations

from dataclasses import dataclass

from solver.games.guardians.board import Cell
from solver.games.guardians.walks import WALK_CODES

__all__ = [
    "BOARD_MIN",
    "BOARD_SIZE",
    "CELLS",
    "DRAW_BASE",
    "END_TURN",
    "PAWNS",
    "PAWN_BASE",
    "PLACE_BASE",
    "POOL_SLOTS",
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
BOARD_MIN, BOARD_SIZE = -32, 64
POOL_SLOTS = 6
CELLS = BOARD_SIZE * BOARD_SIZE


def in_window(cell: Cell) -> bool:
    """Whether ``cell`` lies in the board window (rows and columns -32..31)."""
    return (
        BOARD_MIN <= cell[0] < BOARD_MIN + BOARD_SIZE
        and BOARD_MIN <= cell[1] < BOARD_MIN + BOARD_SIZE
    )


PLACE_BASE = WALK_BASE + PAWNS * WALK_CODES
DRAW_BASE = PLACE_BASE + POOL_SLOTS * CELLS


@dataclass(frozen=True)
class ActionCodec:
    """Action ids for a tile set of ``n_tiles`` tiles (ids 1..n_tiles)."""

    n_tiles: int
    place_base: int = PLACE_BASE
    draw_base: int = DRAW_BASE

    def num_distinct_actions(self) -> int:
        return DRAW_BASE + self.n_tiles + POOL_SLOTS

    @property
    def pick_base(self) -> int:
        """The first ``flip tile`` id (after the draws)."""
        return DRAW_BASE + self.n_tiles

    def pick(self, slot: int) -> int:
        """The id flipping the pool's tile of rank ``slot`` (``take 1 tile``, hidden backs)."""
        return self.pick_base + slot

    def decode_pick(self, action: int) -> int:
        return action - self.pick_base

    def walk(self, pawn: int, code: int) -> int:
        return WALK_BASE + pawn * WALK_CODES + code

    def draw(self, tile: int) -> int:
        return DRAW_BASE + tile - 1

    def place(self, slot: int, cell: Cell) -> int:
        """The id placing the pool's tile of rank ``slot`` (0..5) on ``cell``."""
        return PLACE_BASE + slot * CELLS + (cell[0] - BOARD_MIN) * BOARD_SIZE + cell[1] - BOARD_MIN

    def kind(self, action: int) -> str:
        """``"end"``, ``"take2"``, ``"take1"``, ``"reset"``, ``"pawn"``, ``"walk"``, ``"draw"``
        (a draw or a reveal), ``"place"``, ``"pick"``, or ``"none"`` for an id outside."""
        if action < 0 or action >= self.num_distinct_actions():
            return "none"
        if action < PAWN_BASE:
            return ("end", "take2", "take1", "reset")[action]
        if action < WALK_BASE:
            return "pawn"
        if action < PLACE_BASE:
            return "walk"
        if action < DRAW_BASE:
            return "place"
        if action >= self.pick_base:
            return "pick"
        return "draw"

    def decode_walk(self, action: int) -> tuple[int, int]:
        """``(pawn, direction code)`` of a walk id."""
        return divmod(action - WALK_BASE, WALK_CODES)

    def decode_draw(self, action: int) -> int:
        return action - DRAW_BASE + 1

    def decode_place(self, action: int) -> tuple[int, Cell]:
        """``(pool slot, cell)`` of a placement id."""
        slot, index = divmod(action - PLACE_BASE, CELLS)
        row, col = divmod(index, BOARD_SIZE)
        return slot, (row + BOARD_MIN, col + BOARD_MIN)
