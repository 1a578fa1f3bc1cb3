"""The dog forest as text: the ``.forest`` symbols in a grid, the arrows, a summary, a legend.

The grid prints the symbols of :data:`~solver.games.dog.format.SYMBOLS` under a column header and
beside row numbers, then one line per shouter listing the cells under its arrow with their printed
numbers (the shouter's own cell first, number 1). Pencil overlays, strongest first: ``d`` the
dog's position, ``H`` the human, ``x`` a marked cell, ``.`` a resolved (crossed-off) distraction.
When any overlay is given, a line sums it up. With ``legend=True`` a legend follows, one line per
symbol that appears in the grid. No line has trailing spaces.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence

from solver.games.dog.forest import Forest, Terrain
from solver.games.dog.format import HUMAN_SYMBOL, SHOUTER_SYMBOL, START_SYMBOL, TERRAIN_SYMBOLS
from solver.games.dog.render_overlays import Overlays, cell_text, overlays
from solver.games.dog.sheet_legend import DOG_SYMBOL, MARK_SYMBOL, text_legend_entries
from solver.render.ascii import count, legend_lines, one_line, text_grid

__all__ = ["render_forest_text", "render_legend_text"]


def _symbols(forest: Forest, ov: Overlays) -> tuple[list[list[str]], bool]:
    """The printed symbol of every cell, and whether a resolved distraction prints as open."""
    shouters = {shouter.cell for shouter in forest.shouters}
    rows = []
    resolved_shown = False
    for r in range(forest.height):
        row = []
        for c in range(forest.width):
            cell = (r, c)
            terrain = forest.terrain(cell)
            if cell == ov.position:
                symbol = DOG_SYMBOL
            elif cell == forest.human:
                symbol = HUMAN_SYMBOL
            elif cell in ov.marked:
                symbol = MARK_SYMBOL
            elif cell in ov.resolved and terrain.is_distraction:
                symbol = TERRAIN_SYMBOLS[Terrain.OPEN]
                resolved_shown = True
            elif cell == forest.start:
                symbol = START_SYMBOL
            elif cell in shouters:
                symbol = SHOUTER_SYMBOL
            else:
                symbol = TERRAIN_SYMBOLS[terrain]
            row.append(symbol)
        rows.append(row)
    return rows, resolved_shown


def _legend(symbols: list[list[str]], resolved_shown: bool) -> list[str]:
    present = {symbol for row in symbols for symbol in row}
    return legend_lines(text_legend_entries(present, resolved_shown=resolved_shown))


def render_forest_text(
    forest: Forest,
    trail: Sequence[tuple[int, int]] = (),
    position: tuple[int, int] | None = None,
    marked: Iterable[tuple[int, int]] = (),
    resolved: Iterable[tuple[int, int]] = (),
    *,
    legend: bool = False,
) -> str:
    """The forest as text: the ``.forest`` symbols with row and column numbers, and the arrows.

    Marked (and trail) cells print ``x``, the dog's position ``d``, a resolved distraction that is
    not marked prints ``.``; the human stays ``H``. ``legend=True`` appends the legend of
    :func:`render_legend_text`. See :mod:`solver.games.dog.render_overlays` for the overlays.

    >>> from solver.games.dog.forest import Forest, Shouter, Terrain
    >>> O, U, T, S = Terrain.OPEN, Terrain.UNDERGROWTH, Terrain.TREE, Terrain.SQUIRREL
    >>> forest = Forest(width=4, height=3, name="little wood", turns=12,
    ...                 cells=[[O, O, T, O], [O, U, O, O], [S, O, O, O]],
    ...                 start=(2, 2), human=(0, 3), shouters=[Shouter(1, 3, "W", 2)])
    >>> print(render_forest_text(forest))
    little wood: 4x3, 12 turns
       0 1 2 3
    0  . . T H
    1  . , . Y
    2  S . @ .
    shouter (1,3) W 2: (1,3)=1 (1,2)=1 (1,1)=2
    >>> print(render_forest_text(forest, trail=[(2, 2), (2, 1), (1, 1)], legend=True))
    little wood: 4x3, 12 turns
       0 1 2 3
    0  . . T H
    1  . d . Y
    2  S x x .
    shouter (1,3) W 2: (1,3)=1 (1,2)=1 (1,1)=2
    dog at (1,1); 3 cells marked
    legend:
      .  open trail: 1 step
      T  tree: blocks the way
      S  squirrel: run 3 to the nearest edge, -1 stamina, skip a turn
      H  your human: step in to win
      Y  shouter: on its arrow roll 1d6: under the number, or -3 stamina
      x  pencil: X every cell you enter; re-entering one -1 curiosity
      d  the dog: where it stands now
    """
    ov = overlays(forest, trail, position, marked, resolved)
    symbols, resolved_shown = _symbols(forest, ov)
    name = one_line(forest.name) or "forest"
    lines = [f"{name}: {forest.width}x{forest.height}, {count(forest.turns, 'turn')}"]
    lines += text_grid(symbols)
    for shouter in forest.shouters:
        covered = " ".join(
            f"{cell_text(cell)}={number}"
            for cell, number in shouter.covered(forest.width, forest.height)
        )
        lines.append(
            f"shouter {cell_text(shouter.cell)} {shouter.direction} {shouter.length}: {covered}"
        )
    summary = []
    if ov.position is not None:
        summary.append(f"dog at {cell_text(ov.position)}")
    if ov.marked:
        summary.append(f"{count(len(ov.marked), 'cell')} marked")
    if ov.resolved:
        summary.append("resolved " + " ".join(cell_text(cell) for cell in sorted(ov.resolved)))
    if summary:
        lines.append("; ".join(summary))
    if legend:
        lines += _legend(symbols, resolved_shown)
    return "\n".join(lines)


def render_legend_text(
    forest: Forest,
    trail: Sequence[tuple[int, int]] = (),
    position: tuple[int, int] | None = None,
    marked: Iterable[tuple[int, int]] = (),
    resolved: Iterable[tuple[int, int]] = (),
) -> str:
    """The legend of :func:`render_forest_text`'s grid alone: one line per symbol it prints.

    >>> from solver import puzzles
    >>> print(render_legend_text(puzzles.load("dog/tiny-example")))
    legend:
      .  open trail: 1 step
      ,  undergrowth: -1 stamina
      ~  puddle: -2 stamina, every time
      T  tree: blocks the way
      S  squirrel: run 3 to the nearest edge, -1 stamina, skip a turn
      >  scent trail: run 2 along the arrow
      @  dog start: the trail begins here
      H  your human: step in to win
      Y  shouter: on its arrow roll 1d6: under the number, or -3 stamina
    """
    symbols, resolved_shown = _symbols(forest, overlays(forest, trail, position, marked, resolved))
    return "\n".join(_legend(symbols, resolved_shown))
