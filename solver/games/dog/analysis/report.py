"""The dog's sections of the analysis report: par, the clairvoyant estimate, the hardest and the
easiest winnable forests drawn as sheets.

:func:`report_sections` writes, into the report's directory:

- ``par_vs_win_probability.png``: par (integer ticks) against win probability; forests that share
  a point are drawn as one bigger marker labelled with their count; exact values are diamonds,
  MCTS estimates circles with their 95% interval;
- ``clairvoyant_vs_win_probability.png``: each forest's clairvoyant estimate (a sampled estimate
  of an upper bound, with its interval) against its win probability, exact and estimated points
  told apart the same way;
- ``skill_vs_win_probability.png``: each forest's skill measure (the win probability less the
  weakest level's, :mod:`.skill`) against its win probability, with its interval; diamonds where
  both values are exact; the diagonal is where the weakest level never wins;
- ``sheets/hardest-N`` and ``sheets/easiest-N``: those forests drawn as paper sheets with their
  par route (the ``route`` column) pencilled in, as PNG when ``rsvg-convert`` or ``cairosvg`` is
  there, otherwise as SVG.

A *winnable* forest is one analysed without error whose win probability (exact or estimated) is
above zero. The hardest have the lowest win probability (ties: the longer par first, then batch
order), the easiest the highest (ties: the shorter par first, then batch order).
"""

from __future__ import annotations

import json
import math
import os
import shutil
import subprocess
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING, Any

from solver.render.tables import (
    figure,
    is_missing,
    md,
    md_table,
    no_data,
    numbers,
    save_figure,
    texts,
)

if TYPE_CHECKING:  # pragma: no cover
    import pandas as pd
    from matplotlib.figure import Figure

__all__ = [
    "PLOTS",
    "clairvoyant_figure",
    "par_figure",
    "report_sections",
    "skill_figure",
    "winnable",
]

PLOTS: tuple[str, ...] = (
    "par_vs_win_probability.png",
    "clairvoyant_vs_win_probability.png",
    "skill_vs_win_probability.png",
)
"""The dog's plot files, in the order the report shows them."""

TOP = 5
EXACT_LABEL = "exact (diamond)"
ESTIMATE_LABEL = "MCTS estimate, 95% interval (circle)"


def winnable(frame: pd.DataFrame) -> pd.DataFrame:
    """The rows analysed without error whose win probability is above zero.

    >>> import pandas as pd
    >>> table = pd.DataFrame({"source": ["a", "b", "c"], "class": ["x", "error", "y"],
    ...                       "win_probability": [0.5, None, 0.0]})
    >>> list(winnable(table)["source"])
    ['a']
    """
    probability = numbers(frame, "win_probability")
    keep = (probability > 0) & (texts(frame, "error") == "") & (texts(frame, "class") != "error")
    return frame[keep.to_numpy()]


def _exact(frame: pd.DataFrame) -> Any:
    return texts(frame, "exact").str.lower().isin(["true", "1"]).to_numpy()


# -- plots ---------------------------------------------------------------------------------------
def par_figure(frame: pd.DataFrame) -> Figure:
    """Par (integer ticks) against win probability; points shared by several forests are one
    bigger marker labelled with the count; diamonds exact, circles estimates with their interval."""
    from matplotlib.ticker import MaxNLocator

    fig, ax = figure("Par against win probability")
    par, probability = numbers(frame, "par"), numbers(frame, "win_probability")
    both = (par.notna() & probability.notna()).to_numpy()
    if not both.any():
        no_data(ax, "no forest with both a par and a win probability")
        return fig
    exact = _exact(frame)[both]
    points: dict[tuple[float, float, bool], int] = {}
    for x, y, e in zip(par.to_numpy()[both], probability.to_numpy()[both], exact, strict=True):
        key = (float(x), round(float(y), 3), bool(e))
        points[key] = points.get(key, 0) + 1
    for is_exact, marker, colour, label in (
        (True, "D", "#dd8452", EXACT_LABEL),
        (False, "o", "#4c72b0", ESTIMATE_LABEL),
    ):
        chosen = [(k, n) for k, n in points.items() if k[2] == is_exact]
        if not chosen:
            continue
        xs = [k[0] for k, _ in chosen]
        ys = [k[1] for k, _ in chosen]
        sizes = [18 + 10 * math.sqrt(n - 1) * 4 for _, n in chosen]
        ax.scatter(xs, ys, s=sizes, marker=marker, color=colour, alpha=0.7, label=label)
        for (x, y, _), n in chosen:
            if n > 1:
                ax.annotate(str(n), (x, y), ha="center", va="center", fontsize=7, color="white")
    if not exact.all():
        import numpy as np

        xs, ys = par.to_numpy()[both][~exact], probability.to_numpy()[both][~exact]
        low = numbers(frame, "ci_low").fillna(probability).to_numpy()[both][~exact]
        high = numbers(frame, "ci_high").fillna(probability).to_numpy()[both][~exact]
        ax.errorbar(
            xs,
            ys,
            yerr=[np.clip(ys - low, 0, None), np.clip(high - ys, 0, None)],
            fmt="none",
            ecolor="#999999",
            elinewidth=0.8,
            zorder=1,
        )
    ax.xaxis.set_major_locator(MaxNLocator(integer=True))
    ax.set_xlabel("par (fewest turns when the player chooses every roll)")
    ax.set_ylabel("win probability (exact or MCTS estimate)")
    ax.set_ylim(-0.03, 1.03)
    ax.legend(
        loc="lower left", fontsize=8, title="marker size: forests at the point", title_fontsize=7
    )
    return fig


_FAINT_BARS = {"fmt": "none", "ecolor": "#999999", "elinewidth": 0.8, "alpha": 0.6, "zorder": 1}
"""The style of the scatter figures' 95% interval bars."""


def _bar(centre: Any, low: Any, high: Any) -> Any:
    """An error bar's lengths below and above ``centre`` (arrays; never negative)."""
    import numpy as np

    return np.vstack([np.clip(centre - low, 0, None), np.clip(high - centre, 0, None)])


def _against_value(
    frame: pd.DataFrame, title: str, column: str, missing: str, draw: Callable[..., None]
) -> Figure:
    """A figure of ``column`` against the win probability: ``draw(ax, value, other, both)``
    with the two columns and the mask of the rows that have both, or the note ``missing``
    when none has."""
    fig, ax = figure(title)
    value, other = numbers(frame, "win_probability"), numbers(frame, column)
    both = (value.notna() & other.notna()).to_numpy()
    if both.any():
        draw(ax, value, other, both)
    else:
        no_data(ax, missing)
    return fig


def _unit_scatter(
    ax: Any, x: Any, y: Any, exact: Any, labels: tuple[str, str, str], axes: tuple[str, str]
) -> None:
    """Points in the unit square: estimates as circles, exact values as diamonds (``labels``:
    theirs and the dashed diagonal's), the axis titles ``axes``, the legend."""
    estimate_label, exact_label, diagonal_label = labels
    if (~exact).any():
        ax.scatter(x[~exact], y[~exact], s=14, color="#4c72b0", label=estimate_label, zorder=2)
    if exact.any():
        ax.scatter(
            x[exact], y[exact], s=18, marker="D", color="#dd8452", label=exact_label, zorder=3
        )
    ax.plot([0, 1], [0, 1], color="#333333", linewidth=0.8, linestyle="--", label=diagonal_label)
    ax.set_xlabel(axes[0])
    ax.set_ylabel(axes[1])
    ax.set_xlim(-0.03, 1.03)
    ax.set_ylim(-0.03, 1.03)
    ax.legend(loc="lower right", fontsize=8)


def clairvoyant_figure(frame: pd.DataFrame) -> Figure:
    """Each forest's clairvoyant estimate (with its interval) against its win probability."""

    def draw(ax: Any, value: pd.Series, estimate: pd.Series, both: Any) -> None:
        x, y = value.to_numpy()[both], estimate.to_numpy()[both]
        low = numbers(frame, "ci_low").fillna(value).to_numpy()[both]
        high = numbers(frame, "ci_high").fillna(value).to_numpy()[both]
        y_low = numbers(frame, "clairvoyant_low").fillna(estimate).to_numpy()[both]
        y_high = numbers(frame, "clairvoyant_high").fillna(estimate).to_numpy()[both]
        ax.errorbar(x, y, xerr=_bar(x, low, high), yerr=_bar(y, y_low, y_high), **_FAINT_BARS)
        _unit_scatter(
            ax, x, y, _exact(frame)[both], (ESTIMATE_LABEL, EXACT_LABEL, "estimate = value"),
            ("win probability (diamond: exact; circle: MCTS estimate)",
             "clairvoyant estimate (sampled, 95% interval)"),
        )  # fmt: skip

    return _against_value(
        frame, "Clairvoyant estimate against win probability", "clairvoyant_estimate",
        "no forest with both a win probability and a clairvoyant estimate", draw,
    )  # fmt: skip


def skill_figure(frame: pd.DataFrame) -> Figure:
    """Each forest's skill measure against its win probability, with the interval the two values'
    intervals give it (the win probability's low end less the weakest level's high end, ...)."""
    import numpy as np

    def draw(ax: Any, value: pd.Series, skill: pd.Series, both: Any) -> None:
        x, y = value.to_numpy()[both], skill.to_numpy()[both]
        weakest = numbers(frame, "weakest_win_probability").fillna(0.0)
        value_low, value_high = (numbers(frame, c).fillna(value) for c in ("ci_low", "ci_high"))
        low = value_low - numbers(frame, "weakest_high").fillna(weakest)
        high = value_high - numbers(frame, "weakest_low").fillna(weakest)
        y_low = np.clip(low.to_numpy()[both], 0, None)
        y_high = high.to_numpy()[both]
        exact = _exact(frame)[both] & (texts(frame, "weakest_method") != "sampled").to_numpy()[both]
        ax.errorbar(x, y, yerr=_bar(y, y_low, y_high), **_FAINT_BARS)
        estimate = "an estimate in it (MCTS or sampled weakest level), 95% interval (circle)"
        _unit_scatter(
            ax, x, y, exact, (estimate, "both exact (diamond)", "the weakest level never wins"),
            ("win probability (the optimum: level 10)",
             "skill (the optimum less level 1's win probability)"),
        )  # fmt: skip

    return _against_value(
        frame, "Skill against win probability", "skill",
        "no forest with both a win probability and a skill measure", draw,
    )  # fmt: skip


def _skill_lines(frame: pd.DataFrame) -> list[str]:
    """The skill section's text: what the measure is, and its quartiles when the table has it."""
    skill = numbers(frame, "skill").dropna()
    lines = [
        "## Skill against win probability",
        "",
        "The skill measure of a forest is how much better the strongest level of the ladder (the "
        "optimal policy, whose win probability is the x axis) does than the weakest (level 1: a "
        "uniformly random legal move at every decision): near 0 the dice decide, near the "
        "diagonal the choices do. Level 1's win probability is exact where its policy's "
        "evaluation fits its budget, else sampled over random games (the interval).",
        "",
    ]
    if len(skill):
        q = skill.quantile([0.25, 0.5, 0.75]).to_numpy()
        lines += [
            f"Skill over {len(skill)} forests: quartiles {q[0]:.3f}, {q[1]:.3f} (median), "
            f"{q[2]:.3f}; highest {skill.max():.3f}.",
            "",
        ]
    return [*lines, f"![Skill against win probability]({PLOTS[2]})", ""]


# -- sheets --------------------------------------------------------------------------------------
def route_cells(value: Any) -> list[tuple[int, int]]:
    """The route cells of a row (a JSON list of ``[row, col]``); empty when unknown.

    >>> route_cells("[[2, 1], [1, 1]]"), route_cells(None)
    ([(2, 1), (1, 1)], [])
    """
    if not isinstance(value, (list, tuple, str)) and is_missing(value):
        return []
    if isinstance(value, str):
        if not value.strip():
            return []
        value = json.loads(value)
    if not isinstance(value, (list, tuple)):
        raise ValueError(f"a route is a list of [row, col] cells, not {type(value).__name__}")
    cells = []
    for cell in value[:10_000]:
        if not isinstance(cell, (list, tuple)) or len(cell) != 2:
            raise ValueError(f"a route cell is a [row, col] pair, not {cell!r}")
        cells.append((int(cell[0]), int(cell[1])))
    return cells


def svg_to_png(svg: Path, png: Path) -> bool:
    """Convert with rsvg-convert or cairosvg; False when neither is there or both fail."""
    tool = shutil.which("rsvg-convert")
    if tool is not None:
        try:
            subprocess.run(
                [
                    tool,
                    "--format",
                    "png",
                    "--width",
                    "620",
                    "--background-color",
                    "white",
                    "--output",
                    os.fspath(png),
                    os.fspath(svg),
                ],
                check=True,
                capture_output=True,
                timeout=120,
            )
            if png.exists() and png.stat().st_size > 0:
                return True
        except (OSError, subprocess.SubprocessError):
            pass
    try:
        import cairosvg  # type: ignore[import-not-found]
    except ImportError:  # optional
        return False
    try:
        cairosvg.svg2png(url=os.fspath(svg), write_to=os.fspath(png), output_width=620)
    except Exception:  # any failure of the optional converter: link the SVG instead
        return False
    return png.exists() and png.stat().st_size > 0


def _sheet(
    row: dict[str, Any], label: str, title: str, directory: Path, load_row: Callable[..., Any]
) -> tuple[str | None, str]:
    """Draw one sheet; return (the image's path relative to the report, a note)."""
    from solver.games.dog.render import render_forest_svg

    try:
        forest = load_row(row)
    except Exception as exc:  # the report goes on without this sheet
        return None, f"cannot load the forest ({type(exc).__name__}: {' '.join(str(exc).split())})"
    note = ""
    try:
        route = route_cells(row.get("route"))
        svg_text = render_forest_svg(forest, trail=route, title=title)
        if not route:
            note = "no route known"
    except (ValueError, TypeError) as exc:  # a route that does not fit: draw the blank sheet
        svg_text = render_forest_svg(forest, title=title)
        note = f"route not drawn ({' '.join(str(exc).split())})"
    sheets = directory / "sheets"
    sheets.mkdir(exist_ok=True)
    svg = sheets / f"{label}.svg"
    svg.write_text(svg_text, encoding="utf-8")
    png = sheets / f"{label}.png"
    if svg_to_png(svg, png):
        return f"sheets/{png.name}", note
    return f"sheets/{svg.name}", note


def _ranked(frame: pd.DataFrame, hardest: bool) -> pd.DataFrame:
    table = winnable(frame).copy()
    table["_p"] = numbers(table, "win_probability")
    table["_par"] = numbers(table, "par").fillna(-1.0 if hardest else math.inf)
    table["_order"] = range(len(table))
    ascending = [True, False, True] if hardest else [False, True, True]
    table = table.sort_values(["_p", "_par", "_order"], ascending=ascending)
    return table.drop(columns=["_p", "_par", "_order"]).head(TOP)


def _size(row: dict[str, Any]) -> str:
    width, height = row.get("width"), row.get("height")
    if width is None or height is None or is_missing(width) or is_missing(height):
        return ""
    return f"{int(width)}x{int(height)}"


def _ranking(
    frame: pd.DataFrame, hardest: bool, directory: Path, load_row: Callable[..., Any]
) -> list[str]:
    which = "hardest" if hardest else "easiest"
    table = _ranked(frame, hardest)
    lines = [f"## The {TOP} {which} winnable forests", ""]
    if table.empty:
        return [*lines, "No winnable forest.", ""]
    rows, images = [], []
    probabilities = numbers(table, "win_probability").to_numpy()
    exact = _exact(table)
    for rank, record in enumerate(table.to_dict(orient="records"), 1):
        row = {str(k): v for k, v in record.items()}
        probability = float(probabilities[rank - 1])
        kind = "exact" if exact[rank - 1] else "estimate"
        title = f"{which.capitalize()} #{rank}: {row.get('source')} (win {probability:.3f})"
        image, note = _sheet(row, f"{which}-{rank}", title, directory, load_row)
        rows.append(
            [
                rank,
                row.get("source"),
                _size(row),
                row.get("class"),
                row.get("par"),
                probability,
                kind,
                note,
            ]
        )
        if image is not None:
            images.append(f"![{which} #{rank}: {md(row.get('source'))}]({image})")
    header = ["#", "source", "size", "class", "par", "win probability", "exact or estimate", "note"]
    lines += md_table(header, rows)
    lines.append("")
    for image in images:
        lines += [image, ""]
    return lines


def _class_counts(frame: pd.DataFrame) -> str:
    """The forests of the classes whose clairvoyant estimate is set, not sampled, in words: the
    sentence said "(1, 0 and 0)", the set values, which read as counts beside "7 guaranteed"."""
    names = ("guaranteed", "hopeless", "unreachable")
    counts = [int((frame["class"] == name).sum()) if "class" in frame.columns else 0
              for name in names]  # fmt: skip
    return f"{counts[0]}, {counts[1]} and {counts[2]}"


def report_sections(
    frame: pd.DataFrame, directory: Path, load_row: Callable[[dict[str, Any]], Any]
) -> list[str]:
    """The dog's report sections (markdown lines); writes :data:`PLOTS` and the sheets."""
    save_figure(par_figure(frame), directory / PLOTS[0])
    save_figure(clairvoyant_figure(frame), directory / PLOTS[1])
    save_figure(skill_figure(frame), directory / PLOTS[2])
    exact = _exact(frame)
    probability = numbers(frame, "win_probability").notna().to_numpy()
    lines = [
        "## Par against win probability",
        "",
        "The par is the fewest turns to the human when the player also chooses every roll. "
        f"{int((exact & probability).sum())} win probabilities are exact (diamonds: "
        f"{100 * (exact & probability).sum() / max(1, probability.sum()):.0f} % of them), "
        f"{int((~exact & probability).sum())} are MCTS estimates with their 95% interval "
        "(circles); a bigger marker holds several forests, labelled with their count.",
        "",
        f"![Par against win probability]({PLOTS[0]})",
        "",
        "## Clairvoyant estimate against win probability",
        "",
        "The clairvoyant estimate is the share of sampled dice sequences (worlds) in which some "
        "route wins when the dice are known in advance. Its true value bounds the win "
        "probability from above, but the estimate is sampled: with few worlds it can fall below "
        "the exact value by chance, so read its interval (the vertical bar), not the point. "
        f"Guaranteed, hopeless and unreachable forests ({_class_counts(frame)} here) are not "
        "sampled: their estimate is 1, 0 and 0 by their class.",
        "",
        f"![Clairvoyant estimate against win probability]({PLOTS[1]})",
        "",
        *_skill_lines(frame),
        "A *winnable* forest was analysed without error and has a win probability above zero "
        "(exact or estimated).",
        "",
    ]
    lines += _ranking(frame, True, directory, load_row)
    lines += _ranking(frame, False, directory, load_row)
    return lines
