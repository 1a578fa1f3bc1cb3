"""Pictures of a dog-game forest: a text grid and a printable SVG paper sheet.

Both pictures are pure functions: they read a :class:`~solver.games.dog.forest.Forest` and,
optionally, a pencilled play state (the trail walked so far, the marked cells, the resolved
distractions, the dog's position), and return a string. They hold no game logic: the caller says
what is marked, resolved or where the dog is (:mod:`.render_overlays` checks the cells and holds
the shared conventions).

- :func:`render_ascii` (:mod:`.render_text`): the ``.forest`` symbols in a grid with row and
  column numbers, the arrows, a summary of the overlays and, on request, a legend;
  :func:`render_legend` prints that legend alone.
- :func:`render_svg` (:mod:`.render_svg`): an A4 sheet to print and play with a pencil, drawn
  with the glyphs of :mod:`.glyphs` and the shared helpers of :mod:`solver.render`.

>>> from solver import puzzles
>>> print(render_ascii(puzzles.load("dog/tiny-3x3"), trail=[(2, 1), (2, 0), (1, 0)]))
tiny-3x3: 3x3, 3 turns
   0 1 2
0  . H ~
1  d T .
2  x x ,
dog at (1,0); 3 cells marked
"""

from __future__ import annotations

from solver.games.dog.render_svg import render_svg
from solver.games.dog.render_text import render_ascii, render_legend

__all__ = ["render_ascii", "render_legend", "render_svg"]
