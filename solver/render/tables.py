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
    "skill_columns",
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


SKILL_PLOT = "skill_vs_strongest_win_rate.png"
"""The file of :func:`skill_section`'s plot."""


def skill_columns(games: int, strongest: float, weakest: float) -> dict[str, Any]:
    """A row's skill measure, the columns :func:`skill_section` reads: the strength ladder's
    level 10 won ``strongest`` of its ``games`` games and level 1 ``weakest`` of as many (win
    rates); the skill is the difference.

    >>> skill_columns(8, 0.75, 0.25)["skill"]
    0.5
    """
    return {
        "skill_games": games,
        "strongest_win_rate": strongest,
        "weakest_win_rate": weakest,
        "skill": round(strongest - weakest, 12),
    }


def skill_section(frame: pd.DataFrame, directory: Path, noun: str) -> list[str]:
    """The report section of a skill measure played out by the strength ladder (the columns
    ``skill``, ``strongest_win_rate``, ``weakest_win_rate`` and ``skill_games``): its plot, the
    skill against the strongest level's win rate, and its quartiles; nothing when no row has
    it (the run did not ask for skill games)."""
    skill, strongest = numbers(frame, "skill"), numbers(frame, "strongest_win_rate")
    both = (skill.notna() & strongest.notna()).to_numpy()
    if not both.any():
        return []
    fig, ax = figure("Skill against the strongest level's win rate")
    x, y = strongest.to_numpy()[both], skill.to_numpy()[both]
    ax.scatter(x, y, s=16, color="#4c72b0", alpha=0.7, label=f"one {noun}")
    ax.plot([0, 1], [0, 1], color="#333333", linewidth=0.8, linestyle="--",
            label="the weakest level never wins")  # fmt: skip
    ax.set_xlabel("the strongest level's win rate (level 10)")
    ax.set_ylabel("skill (level 10's win rate less level 1's)")
    ax.set_xlim(-0.03, 1.03)
    ax.set_ylim(-1.03, 1.03)
    ax.legend(loc="lower right", fontsize=8)
    save_figure(fig, directory / SKILL_PLOT)
    games = numbers(frame, "skill_games").dropna()
    q = skill.dropna().quantile([0.25, 0.5, 0.75]).to_numpy()
    return [
        "## Skill against the strongest level's win rate",
        "",
        f"The skill measure of a {noun} is how much better the strongest level of the strength "
        f"ladder does than the weakest: level 10's win rate over {int(games.max())} games less "
        "level 1's over as many, the same chance for both (near 0: luck decides, or nobody "
        "can win; near the diagonal: skill does).",
        "",
        f"Skill over {int(both.sum())} {noun}s: quartiles {q[0]:.3f}, {q[1]:.3f} (median), "
        f"{q[2]:.3f}.",
        "",
        f"![Skill against the strongest level's win rate]({SKILL_PLOT})",
        "",
    ]
