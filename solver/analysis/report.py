"""The analysis report: a markdown page with plots of a results table (matplotlib, PNG).

:func:`write_report` writes into one directory:

- ``report.md``: counts, the class table, win-probability figures, the plots below, the five
  hardest and the five easiest solvable forests and the forests whose analysis failed;
- ``class_shares.png``: the share of each class;
- ``win_probability.png``: the distribution of win probabilities;
- ``par_vs_win_probability.png``: par against win probability;
- ``bounds_vs_estimates.png``: each forest's upper bound against its estimate, with the
  confidence interval as a bar;
- ``sheets/hardest-N.png`` and ``sheets/easiest-N.png``: those forests drawn as paper sheets
  (:func:`~solver.games.dog.render.render_svg`) with their optimal route (the ``route`` column, a
  JSON list of ``[row, col]`` cells) pencilled in. The SVG is converted with ``rsvg-convert`` or
  ``cairosvg`` when either is there; otherwise the report links the ``.svg`` sheets.

A *solvable* forest is one analysed without error whose win probability is above zero. The
hardest have the lowest win probability (ties: the longer par first, then source order), the
easiest the highest (ties: the shorter par first, then source order).

The report copes with what the table lacks: a missing column or one with no values gives a plot
that says "no data", and a forest that cannot be loaded or a route that does not fit its forest is
noted instead of drawn.
"""

from __future__ import annotations

import json
import math
import os
import shutil
import subprocess
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:  # pragma: no cover
    import pandas as pd
    from matplotlib.figure import Figure

    from solver.games.dog.forest import Forest

__all__ = ["PLOTS", "load_row_forest", "solvable", "write_report"]

#: The plot files, in the order the report shows them.
PLOTS: tuple[str, ...] = (
    "class_shares.png",
    "win_probability.png",
    "par_vs_win_probability.png",
    "bounds_vs_estimates.png",
)

_TOP = 5
_DPI = 100


def load_row_forest(row: dict[str, Any]) -> Forest:
    """The forest of a results row: rolled again from ``seed:N`` and its size, or read from file."""
    from solver.analysis.batch import Source

    return Source.from_row(row).load()


# -- the table -----------------------------------------------------------------------------------
def _column(frame: pd.DataFrame, name: str) -> pd.Series:
    """A column as floats (NaN where missing); all-NaN when the table lacks it."""
    import pandas as pd

    if name not in frame.columns:
        return pd.Series(math.nan, index=frame.index, dtype="float64")
    return pd.to_numeric(frame[name], errors="coerce").astype("float64")


def _text_column(frame: pd.DataFrame, name: str) -> pd.Series:
    import pandas as pd

    if name not in frame.columns:
        return pd.Series([""] * len(frame), index=frame.index, dtype=object)
    return frame[name].astype(object).map(lambda v: "" if _missing(v) else str(v))


def _missing(value: Any) -> bool:
    if value is None:
        return True
    if isinstance(value, float):
        return math.isnan(value)
    try:
        import pandas as pd

        return bool(pd.isna(value))
    except (TypeError, ValueError):
        return False


def solvable(frame: pd.DataFrame) -> pd.DataFrame:
    """The rows analysed without error whose win probability is above zero.

    >>> import pandas as pd
    >>> table = pd.DataFrame({"source": ["a", "b", "c"], "class": ["x", "error", "y"],
    ...                       "win_probability": [0.5, None, 0.0]})
    >>> list(solvable(table)["source"])
    ['a']
    """
    probability = _column(frame, "win_probability")
    errors = _text_column(frame, "error")
    classes = _text_column(frame, "class")
    keep = (probability > 0) & (errors == "") & (classes != "error")
    return frame[keep.to_numpy()]


def _ranked(frame: pd.DataFrame, hardest: bool) -> pd.DataFrame:
    table = solvable(frame).copy()
    table["_p"] = _column(table, "win_probability")
    table["_par"] = _column(table, "par").fillna(-1.0 if hardest else math.inf)
    table["_order"] = range(len(table))
    if hardest:
        table = table.sort_values(["_p", "_par", "_order"], ascending=[True, False, True])
    else:
        table = table.sort_values(["_p", "_par", "_order"], ascending=[False, True, True])
    return table.drop(columns=["_p", "_par", "_order"]).head(_TOP)


# -- plots ---------------------------------------------------------------------------------------
def _figure(title: str) -> tuple[Figure, Any]:
    from matplotlib.figure import Figure

    fig = Figure(figsize=(6.4, 4.2), layout="constrained")
    ax = fig.add_subplot()
    ax.set_title(title)
    return fig, ax


def _no_data(ax: Any, why: str) -> None:
    ax.text(0.5, 0.5, why, ha="center", va="center", transform=ax.transAxes, color="#666666")
    ax.set_xticks([])
    ax.set_yticks([])


def _save(fig: Figure, path: Path) -> None:
    fig.savefig(path, dpi=_DPI, format="png")


def _plot_classes(frame: pd.DataFrame, path: Path) -> None:
    fig, ax = _figure("Class shares")
    classes = _text_column(frame, "class").replace("", "(none)")
    counts = classes.value_counts(sort=False)
    if len(frame) == 0 or "class" not in frame.columns:
        _no_data(ax, "no class column" if "class" not in frame.columns else "no forests")
    else:
        counts = counts.sort_values(ascending=False, kind="stable")
        shares = counts / counts.sum()
        bars = ax.bar([str(k) for k in counts.index], shares.to_numpy(), color="#4c72b0")
        for bar, count, share in zip(bars, counts.to_numpy(), shares.to_numpy(), strict=True):
            ax.annotate(
                f"{share:.0%} ({count})",
                (bar.get_x() + bar.get_width() / 2, bar.get_height()),
                ha="center",
                va="bottom",
                fontsize=8,
            )
        ax.set_ylabel("share of forests")
        ax.set_ylim(0, min(1.0, float(shares.max()) * 1.18 + 0.02))
    _save(fig, path)


def _plot_win_probability(frame: pd.DataFrame, path: Path) -> None:
    fig, ax = _figure("Win probabilities")
    values = _column(frame, "win_probability").dropna()
    if values.empty:
        _no_data(ax, "no win probabilities")
    else:
        ax.hist(values.to_numpy(), bins=20, range=(0.0, 1.0), color="#55a868", edgecolor="white")
        ax.set_xlabel("win probability")
        ax.set_ylabel("forests")
    _save(fig, path)


def _plot_par(frame: pd.DataFrame, path: Path) -> None:
    fig, ax = _figure("Par against win probability")
    par = _column(frame, "par")
    probability = _column(frame, "win_probability")
    both = par.notna() & probability.notna()
    if not both.any():
        _no_data(ax, "no forest with both a par and a win probability")
    else:
        ax.scatter(par[both], probability[both], s=14, alpha=0.6, color="#c44e52")
        ax.set_xlabel("par (optimal number of turns)")
        ax.set_ylabel("win probability")
        ax.set_ylim(-0.03, 1.03)
    _save(fig, path)


def _plot_bounds(frame: pd.DataFrame, path: Path) -> None:
    import numpy as np

    fig, ax = _figure("Upper bounds against estimates")
    estimate = _column(frame, "win_probability")
    bound = _column(frame, "upper_bound")
    both = estimate.notna() & bound.notna()
    if not both.any():
        _no_data(ax, "no forest with both an estimate and an upper bound")
    else:
        low = _column(frame, "ci_low").fillna(estimate)[both].to_numpy()
        high = _column(frame, "ci_high").fillna(estimate)[both].to_numpy()
        x, y = estimate[both].to_numpy(), bound[both].to_numpy()
        exact = _text_column(frame, "exact")[both].str.lower().isin(["true", "1"]).to_numpy()
        xerr = np.vstack([np.clip(x - low, 0, None), np.clip(high - x, 0, None)])
        ax.errorbar(
            x, y, xerr=xerr, fmt="none", ecolor="#999999", elinewidth=0.8, alpha=0.6, zorder=1
        )
        ax.scatter(x[~exact], y[~exact], s=14, color="#4c72b0", label="estimate (95% CI)", zorder=2)
        if exact.any():
            ax.scatter(
                x[exact], y[exact], s=18, marker="D", color="#dd8452", label="exact", zorder=3
            )
        ax.plot(
            [0, 1], [0, 1], color="#333333", linewidth=0.8, linestyle="--", label="bound = value"
        )
        ax.set_xlabel("win probability (estimate)")
        ax.set_ylabel("upper bound")
        ax.set_xlim(-0.03, 1.03)
        ax.set_ylim(-0.03, 1.03)
        ax.legend(loc="lower right", fontsize=8)
    _save(fig, path)


# -- sheets --------------------------------------------------------------------------------------
def _route(value: Any) -> list[tuple[int, int]]:
    """The route cells of a row (a JSON list of ``[row, col]``); empty when unknown."""
    if not isinstance(value, (list, tuple, str)) and _missing(value):
        return []
    if isinstance(value, str):
        if not value.strip():
            return []
        value = json.loads(value)
    if hasattr(value, "tolist"):
        value = value.tolist()
    if not isinstance(value, (list, tuple)):
        raise ValueError(f"a route is a list of [row, col] cells, not {type(value).__name__}")
    cells = []
    for cell in value:
        if hasattr(cell, "tolist"):
            cell = cell.tolist()
        if not isinstance(cell, (list, tuple)) or len(cell) != 2:
            raise ValueError(f"a route cell is a [row, col] pair, not {cell!r}")
        cells.append((int(cell[0]), int(cell[1])))
    return cells


def _svg_to_png(svg: Path, png: Path) -> bool:
    """Convert with rsvg-convert or cairosvg; False when neither is there or both fail."""
    tool = shutil.which("rsvg-convert")
    if tool is not None:
        try:
            subprocess.run(
                [tool, "--format", "png", "--width", "620", "--background-color", "white",
                 "--output", os.fspath(png), os.fspath(svg)],
                check=True, capture_output=True, timeout=120,
            )  # fmt: skip
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
    row: dict[str, Any],
    label: str,
    title: str,
    directory: Path,
    loader: Callable[[dict[str, Any]], Forest],
) -> tuple[str | None, str]:
    """Draw one sheet; return (the image's path relative to the report, a note)."""
    from solver.games.dog.render import render_svg

    try:
        forest = loader(row)
    except Exception as exc:  # the report goes on without this sheet
        return None, f"cannot load the forest ({type(exc).__name__}: {' '.join(str(exc).split())})"
    note = ""
    try:
        route = _route(row.get("route"))
        svg_text = render_svg(forest, trail=route, title=title)
        if not route:
            note = "no route known"
    except (ValueError, TypeError) as exc:  # a route that does not fit: draw the blank sheet
        svg_text = render_svg(forest, title=title)
        note = f"route not drawn ({' '.join(str(exc).split())})"
    sheets = directory / "sheets"
    sheets.mkdir(exist_ok=True)
    svg = sheets / f"{label}.svg"
    svg.write_text(svg_text, encoding="utf-8")
    png = sheets / f"{label}.png"
    if _svg_to_png(svg, png):
        return f"sheets/{png.name}", note
    return f"sheets/{svg.name}", note


# -- markdown ------------------------------------------------------------------------------------
def _md(value: Any) -> str:
    """A table cell: text with ``|`` escaped and line breaks removed."""
    if _missing(value):
        return ""
    text = f"{value:.4f}" if isinstance(value, float) else str(value)
    return " ".join(text.split()).replace("|", "\\|")


def _table(header: Sequence[str], rows: Sequence[Sequence[Any]]) -> list[str]:
    lines = ["| " + " | ".join(header) + " |", "|" + "|".join("---" for _ in header) + "|"]
    lines += ["| " + " | ".join(_md(v) for v in row) + " |" for row in rows]
    return lines


def _size(row: dict[str, Any]) -> str:
    width, height = row.get("width"), row.get("height")
    if _missing(width) or _missing(height):
        return ""
    return f"{int(width)}x{int(height)}"


def _ranking_section(
    frame: pd.DataFrame,
    hardest: bool,
    directory: Path,
    loader: Callable[[dict[str, Any]], Forest],
) -> list[str]:
    which = "hardest" if hardest else "easiest"
    table = _ranked(frame, hardest)
    lines = [f"## The {_TOP} {which} solvable forests", ""]
    if table.empty:
        return [*lines, "No solvable forest.", ""]
    rows, images = [], []
    for rank, row in enumerate(table.to_dict(orient="records"), 1):
        row = {str(k): v for k, v in row.items()}
        probability = _column(table, "win_probability").iloc[rank - 1]
        title = f"{which.capitalize()} #{rank}: {row.get('source')} (win {probability:.3f})"
        image, note = _sheet(row, f"{which}-{rank}", title, directory, loader)
        rows.append(
            [rank, row.get("source"), _size(row), row.get("class"), row.get("par"),
             probability, note]
        )  # fmt: skip
        if image is not None:
            images.append(f"![{which} #{rank}: {_md(row.get('source'))}]({image})")
    lines += _table(["#", "source", "size", "class", "par", "win probability", "note"], rows)
    lines.append("")
    for image in images:
        lines += [image, ""]
    return lines


def write_report(
    results: str | os.PathLike[str] | pd.DataFrame,
    directory: str | os.PathLike[str],
    *,
    forests_loader: Callable[[dict[str, Any]], Forest] | None = None,
    title: str = "Forest analysis report",
) -> Path:
    """Write ``report.md`` and its plots for ``results`` (a results file or table) into
    ``directory``; return the path of ``report.md``.

    ``forests_loader`` turns a results row (a dict) into its forest for the sheets; by default
    :func:`load_row_forest` rolls ``seed:N`` forests again and reads files.

    >>> import tempfile, pandas as pd
    >>> table = pd.DataFrame({"source": ["seed:1", "seed:2"], "width": [5, 5], "height": [4, 4],
    ...                       "class": ["uncertain", "never"], "win_probability": [0.4, 0.0]})
    >>> with tempfile.TemporaryDirectory() as tmp:
    ...     report = write_report(table, tmp)
    ...     sorted(p.name for p in Path(tmp).glob("*.png")) == sorted(PLOTS)
    True
    """
    import pandas as pd

    from solver.analysis.batch import _check_writer, read_results

    _check_writer("csv")
    _require_matplotlib()
    frame = results if isinstance(results, pd.DataFrame) else read_results(results)
    frame = frame.reset_index(drop=True)
    directory = Path(directory)
    directory.mkdir(parents=True, exist_ok=True)
    loader = forests_loader if forests_loader is not None else load_row_forest

    for name, plot in zip(
        PLOTS, (_plot_classes, _plot_win_probability, _plot_par, _plot_bounds), strict=True
    ):
        plot(frame, directory / name)

    total = len(frame)
    classes = _text_column(frame, "class")
    errors = _text_column(frame, "error")
    failed = frame[((errors != "") | (classes == "error")).to_numpy()]
    probability = _column(frame, "win_probability").dropna()
    exact = _text_column(frame, "exact").str.lower().isin(["true", "1"])
    sizes = sorted({_size(r) for r in frame.to_dict(orient="records")} - {""})

    lines = [f"# {title}", ""]
    lines.append(
        f"{total} forests"
        + (f" ({', '.join(sizes)})" if sizes else "")
        + f"; {len(solvable(frame))} solvable; {int(exact.sum())} solved exactly; "
        f"{len(failed)} failed."
    )
    lines += ["", "## Classes", ""]
    counts = classes.replace("", "(none)").value_counts(sort=False)
    counts = counts.sort_values(ascending=False, kind="stable")
    lines += _table(
        ["class", "forests", "share"],
        [[k, int(v), f"{v / max(total, 1):.1%}"] for k, v in counts.items()],
    )
    lines += ["", "![Class shares](class_shares.png)", "", "## Win probabilities", ""]
    if probability.empty:
        lines.append("No win probabilities.")
    else:
        lines.append(
            f"Mean {probability.mean():.4f}, median {probability.median():.4f}, "
            f"min {probability.min():.4f}, max {probability.max():.4f} "
            f"over {len(probability)} forests."
        )
    lines += ["", "![Win probabilities](win_probability.png)", ""]
    lines += ["## Par against win probability", "", "![Par](par_vs_win_probability.png)", ""]
    lines += [
        "## Bounds against estimates",
        "",
        "Each point is a forest: its estimated (or exact) win probability across, its upper "
        "bound up; the bar is the 95% confidence interval. The true win probability never "
        "exceeds the true bound, but both are estimated from samples here (the bound from "
        "sampled dice), so a point may fall slightly below the dashed line by chance.",
        "",
        "![Bounds against estimates](bounds_vs_estimates.png)",
        "",
    ]
    lines += _ranking_section(frame, True, directory, loader)
    lines += _ranking_section(frame, False, directory, loader)
    if len(failed):
        lines += ["## Failed forests", ""]
        shown = failed.head(50).to_dict(orient="records")
        lines += _table(["source", "error"], [[r.get("source"), r.get("error")] for r in shown])
        if len(failed) > len(shown):
            lines += ["", f"... and {len(failed) - len(shown)} more."]
        lines.append("")
    report = directory / "report.md"
    report.write_text("\n".join(lines).rstrip("\n") + "\n", encoding="utf-8")
    return report


def _require_matplotlib() -> None:
    from solver.analysis.batch import _require

    _require("matplotlib", "analysis", "the report's plots")
