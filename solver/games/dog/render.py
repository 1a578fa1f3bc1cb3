"""Pictures of a dog-game forest: a text grid and a printable SVG paper sheet.

Both pictures are pure functions: they read a :class:`~solver.games.dog.forest.Forest` and,
optionally, a pencilled play state (the trail walked so far, the marked cells, the resolved
distractions, the dog's position), and return a string. They hold no game logic: the caller says
what is marked, resolved or where the dog is (:mod:`.render_overlays` checks the cells and holds
the shared conventions).

- :func:`render_forest_text` (:mod:`.render_text`): the ``.forest`` symbols in a grid with row and
  column numbers, the arrows, a summary of the overlays and, on request, a legend;
  :func:`render_legend_text` prints that legend alone.
- :func:`render_forest_svg` (:mod:`.render_svg`): an A4 sheet to print and play with a pencil,
  drawn with the glyphs of :mod:`.glyphs` and the shared helpers of :mod:`solver.render`.

The names follow the renderers' scheme of docs/architecture.md ("Naming"):
``render_<subject>_<format>``. The earlier ``render_ascii`` and ``render_legend`` (named in the
changelog) still work and are deprecated.

>>> from solver import puzzles
>>> print(render_forest_text(puzzles.load("dog/tiny-3x3"), trail=[(2, 1), (2, 0), (1, 0)]))
tiny-3x3: 3x3, 3 turns
   0 1 2
0  . H ~
1  d T .
2  x x ,
dog at (1,0); 3 cells marked
"""

from __future__ import annotations

import warnings
from typing import Any

from solver.games.dog.render_svg import render_forest_svg
from solver.games.dog.render_text import render_forest_text, render_legend_text

__all__ = ["render_forest_svg", "render_forest_text", "render_legend_text"]


def render_ascii(*args: Any, **kwargs: Any) -> str:
    """Deprecated: :func:`render_forest_text` (the same arguments)."""
    warnings.warn(
        "render_ascii is deprecated; use render_forest_text", DeprecationWarning, stacklevel=2
    )
    return render_forest_text(*args, **kwargs)


def render_legend(*args: Any, **kwargs: Any) -> str:
    """Deprecated: :func:`render_legend_text` (the same arguments)."""
    warnings.warn(
        "render_legend is deprecated; use render_legend_text", DeprecationWarning, stacklevel=2
    )
    return render_legend_text(*args, **kwargs)
