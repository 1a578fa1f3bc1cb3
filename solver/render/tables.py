"""Report helpers the analysis report and the games' report sections share: columns, markdown,
figures (here, below the games, so a game's report section needs nothing of ``solver.analysis``).

>>> md_table(["a", "b"], [[1, 0.5]])
['| a | b |', '|---|---|', '| 1 | 0.5000 |']
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:  # pragma: no cover
    import pandas as pd
    from matplotlib.figure import Figure

__all__ = [
    "DPI",
    "figure",
    "is_missing",
    "md",
    "md_table",
    "no_data",
    "numbers",
    "save_figure",
    "texts",
]

DPI = 100


def is_missing(value: Any) -> bool:
    """None, NaN or pandas' NA."""
    if value is None:
        return True
    if isinstance(value, float):
        return math.isnan(value)
    try:
        import pandas as pd

        return bool(pd.isna(value))
    except (TypeError, ValueError):
        return False


def numbers(frame: pd.DataFrame, name: str) -> pd.Series:
    """A column as floats (NaN where missing or not a number); all-NaN when the table lacks it."""
    import pandas as pd

    if name not in frame.columns:
        return pd.Series(math.nan, index=frame.index, dtype="float64")
    return pd.to_numeric(frame[name], errors="coerce").astype("float64")


def texts(frame: pd.DataFrame, name: str) -> pd.Series:
    """A column as text ("" where missing); all "" when the table lacks it."""
    import pandas as pd

    if name not in frame.columns:
        return pd.Series([""] * len(frame), index=frame.index, dtype=object)
    return frame[name].astype(object).map(lambda v: "" if is_missing(v) else str(v))


def md(value: Any) -> str:
    """A table cell: text with ``|`` escaped and line breaks removed."""
    if is_missing(value):
        return ""
    text = f"{value:.4f}" if isinstance(value, float) else str(value)
    return " ".join(text.split()).replace("|", "\\|")


def md_table(header: Sequence[str], rows: Sequence[Sequence[Any]]) -> list[str]:
    """A markdown table, as lines."""
    lines = ["| " + " | ".join(header) + " |", "|" + "|".join("---" for _ in header) + "|"]
    lines += ["| " + " | ".join(md(v) for v in row) + " |" for row in rows]
    return lines


def figure(title: str) -> tuple[Figure, Any]:
    """A new figure with one titled axes (no pyplot state involved)."""
    from matplotlib.figure import Figure

    fig = Figure(figsize=(6.4, 4.2), layout="constrained")
    ax = fig.add_subplot()
    ax.set_title(title)
    return fig, ax


def no_data(ax: Any, why: str) -> None:
    """Say ``why`` in the middle of an empty plot."""
    ax.text(0.5, 0.5, why, ha="center", va="center", transform=ax.transAxes, color="#666666")
    ax.set_xticks([])
    ax.set_yticks([])


def save_figure(fig: Figure, path: Path) -> None:
    fig.savefig(path, dpi=DPI, format="png")
