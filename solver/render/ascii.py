"""Plain-text pictures: one-line labels, a character grid with row and column headers, a legend.

The text pictures print in a terminal and in logs, so every helper returns lines without trailing
spaces and without control characters, and aligns columns with spaces only.

>>> print("\\n".join(text_grid([["T", "."], [".", "H"]])))
   0 1
0  T .
1  . H
>>> print("\\n".join(legend_lines([("T", "tree"), ("~", "puddle")])))
legend:
  T  tree
  ~  puddle
"""

from __future__ import annotations

from collections.abc import Sequence

from solver.errors import OptionError

__all__ = [
    "CHANCE_STEP",
    "chance_step",
    "count",
    "legend_lines",
    "line_text",
    "one_line",
    "text_grid",
]


def count(n: int, noun: str, plural: str | None = None) -> str:
    """``n`` and ``noun``, plural unless ``n`` is one: never ``1 turns`` nor ``inaccuracy(s)``.

    ``plural`` is given where adding an ``s`` is wrong.

    >>> count(1, "turn"), count(20, "turn"), count(0, "inaccuracy", "inaccuracies")
    ('1 turn', '20 turns', '0 inaccuracies')
    """
    return f"{n} {noun if n == 1 else (plural if plural is not None else noun + 's')}"


CHANCE_STEP = "(if {label})"
"""How a line shows a chance step (a roll, a draw, a reveal): the outcome the search followed,
one of those possible, not the one that will come (a new user read a line's plain
``(reveal tile 46: E-G-R-P-E)`` as the tile's real hidden side). The web table's script
(``static/app.js``, ``chanceStep``) says the same words."""


def chance_step(label: str) -> str:
    """``label``, a chance step of a line, as the line shows it: one possible outcome, not a
    known one.

    >>> chance_step("reveal tile 46: E-G-R-P-E")
    '(if reveal tile 46: E-G-R-P-E)'
    """
    return CHANCE_STEP.format(label=label)


def line_text(labels: Sequence[str], limit: int | None = None, chance: Sequence[bool] = ()) -> str:
    """A line of play (a principal variation's labels) as text: the moves separated by ``; ``,
    since a label may hold spaces (``roll: 1 step``, ``walk yellow pawn: (2,3) -> (2,2)``), and
    ``; ...`` where more than ``limit`` are left out. A step ``chance`` marks (a draw, a roll, a
    reveal: the outcome the search followed, not a prediction) says so (:func:`chance_step`).

    >>> line_text(["roll: 1 step", "N", "ignore another dog at (1,2)"], chance=[True])
    '(if roll: 1 step); N; ignore another dog at (1,2)'
    >>> line_text(["N", "W", "N", "E"], limit=2)
    'N; W; ...'
    """
    marked = [
        chance_step(label) if i < len(chance) and chance[i] else label
        for i, label in enumerate(labels)
    ]
    shown = marked if limit is None else marked[:limit]
    more = limit is not None and len(labels) > limit
    return "; ".join(shown + (["..."] if more else []))


def one_line(value: str) -> str:
    """``value`` on one line: control characters (line breaks, tabs...) become spaces; stripped.

    >>> one_line("  a\\nb\\tc ")
    'a b c'
    """
    return "".join(ch if ch.isprintable() else " " for ch in value).strip()


def text_grid(
    cells: Sequence[Sequence[str]],
    *,
    col_labels: Sequence[str] | None = None,
    row_labels: Sequence[str] | None = None,
    gap: str = "  ",
) -> list[str]:
    """A grid of short strings under a column header and beside row labels, as lines.

    Every column is as wide as its widest entry or label (all columns alike), entries are
    right-aligned and separated by one space; ``gap`` separates the row labels from the grid.
    Labels default to the indices 0, 1, 2... . Rows of unequal length, or a label list of the
    wrong length, raise :class:`~solver.errors.OptionError`.

    >>> print("\\n".join(text_grid([["a", "bb", "c"]], row_labels=["row"])))
          0  1  2
    row   a bb  c
    """
    width = len(cells[0]) if cells else len(col_labels or ())
    if any(len(row) != width for row in cells):
        raise OptionError("text_grid needs rows of equal length")
    cols = [str(c) for c in range(width)] if col_labels is None else list(col_labels)
    rows = [str(r) for r in range(len(cells))] if row_labels is None else list(row_labels)
    if len(cols) != width or len(rows) != len(cells):
        raise OptionError("text_grid needs one label per column and per row")
    cw = max([len(label) for label in cols] + [len(cell) for row in cells for cell in row] + [1])
    rw = max([len(label) for label in rows] + [1])
    lines = [(" " * (rw + len(gap)) + " ".join(label.rjust(cw) for label in cols)).rstrip()]
    for label, row in zip(rows, cells, strict=True):
        lines.append((label.rjust(rw) + gap + " ".join(cell.rjust(cw) for cell in row)).rstrip())
    return lines


def legend_lines(
    entries: Sequence[tuple[str, str]], *, title: str | None = "legend:", indent: str = "  "
) -> list[str]:
    """A legend: ``title``, then one line per (symbol, meaning), the meanings aligned.

    >>> legend_lines([("x", "a marked cell"), ("^ >", "scent trail")], title=None)
    ['  x    a marked cell', '  ^ >  scent trail']
    """
    lines = [] if title is None else [title]
    width = max((len(symbol) for symbol, _ in entries), default=0)
    for symbol, meaning in entries:
        lines.append(f"{indent}{symbol.ljust(width)}  {one_line(meaning)}".rstrip())
    return lines
