"""The analysis report: a markdown page with plots of a results table (matplotlib, PNG).

:func:`write_report` writes into one directory ``report.md`` with:

- how the results were made: the command (when known), the game, the number of instances, their
  sizes, turn limits (what the game's ``--turns`` bounds, by ``turns_label``) and seed range,
  and the analysis budgets the game's hooks name;
- the classes, each with its definition from the game's hooks, its count and share, and
  ``class_shares.png``; when every instance landed in one class, the report says so and what to
  change (the hooks' advice);
- the distribution of the game's value column (``<value_column>.png``, e.g. the dog's
  ``win_probability.png``);
- the game's own sections (its hooks' ``report``), e.g. the dog's par and clairvoyant plots and
  its hardest and easiest forests;
- the instances whose analysis failed.

The report copes with what the table lacks: a missing column or one with no values gives a plot
that says "no data".
"""

from __future__ import annotations

import os
from collections.abc import Callable, Mapping
from pathlib import Path
from typing import TYPE_CHECKING, Any

from solver.analysis.results import read_results, require
from solver.analysis.sources import DEFAULT_GAME, Source, analysis_hooks, load_checked, seed_of
from solver.errors import OptionError
from solver.render.tables import figure, md_table, no_data, numbers, save_figure, texts
from solver.spec import AnalysisHooks

if TYPE_CHECKING:  # pragma: no cover
    import pandas as pd

__all__ = ["ERROR_CLASS", "one_class", "plots", "write_report"]

ERROR_CLASS = "error"
ERROR_DEFINITION = "the analysis failed; the error column says why"
_FAILED_SHOWN = 50


def plots(game: str = DEFAULT_GAME) -> tuple[str, ...]:
    """The shared plot files of a report of ``game`` (the game's own sections add theirs).

    >>> plots("dog")
    ('class_shares.png', 'win_probability.png')
    """
    hooks = analysis_hooks(game)
    return ("class_shares.png",) + ((f"{hooks.value_column}.png",) if hooks.value_column else ())


def one_class(frame: pd.DataFrame, hooks: AnalysisHooks) -> str | None:
    """When every instance analysed without error is in one class: a sentence saying so and what
    to change; otherwise None.

    >>> import pandas as pd
    >>> hooks = analysis_hooks("dog")
    >>> print(one_class(pd.DataFrame({"class": ["guaranteed"] * 3}), hooks))  # doctest: +ELLIPSIS
    Every forest (3 of 3) landed in one class, guaranteed: ... (--turns, ...
    >>> one_class(pd.DataFrame({"class": ["guaranteed", "hopeless"]}), hooks) is None
    True
    >>> print(one_class(pd.DataFrame({"class": ["guaranteed"] * 2 + ["error"]}), hooks))
    ... # doctest: +ELLIPSIS
    Every forest analysed without error (2 of 3) landed in one class, guaranteed: ...
    >>> one_class(pd.DataFrame({"class": ["guaranteed", "error"]}), hooks) is None  # one alone
    True
    """
    classes = texts(frame, "class")
    good = classes[(classes != ERROR_CLASS) & (classes != "")]
    if len(good) < 2 or good.nunique() != 1:
        return None
    klass = str(good.iloc[0])
    advice = hooks.advice.get(klass, "")
    which = hooks.noun if len(good) == len(frame) else f"{hooks.noun} analysed without error"
    return (
        f"Every {which} ({len(good)} of {len(frame)}) landed in one class, {klass}: "
        + (advice if advice else "the batch cannot tell them apart")
        + "."
    )


def _batch_facts(frame: pd.DataFrame, hooks: AnalysisHooks) -> list[tuple[str, str]]:
    """What the table says about how it was made: sizes, turns, seeds, files."""
    facts: list[tuple[str, str]] = []
    widths, heights = numbers(frame, "width"), numbers(frame, "height")
    sizes = sorted(
        {(int(w), int(h)) for w, h in zip(widths, heights, strict=True) if w == w and h == h}
    )
    label = (
        "sizes"
        if hooks.size_names == ("width", "height")
        else "sizes ({} x {})".format(*hooks.size_names)
    )
    facts.append((label, ", ".join(f"{w}x{h}" for w, h in sizes) if sizes else "not recorded"))
    turns = sorted({int(t) for t in numbers(frame, "turns").dropna()})
    if hooks.turns_range is not None:
        facts.append((hooks.turns_label, ", ".join(map(str, turns)) if turns else "not recorded"))
    sources = texts(frame, "source")
    seeds = [seed for seed in map(_seed_or_none, sources) if seed is not None]
    if seeds:
        first, last = min(seeds), max(seeds)
        gaps = "" if last - first + 1 == len(seeds) else f" ({len(seeds)} seeds, with gaps)"
        facts.append(("seeds", f"{first} to {last}{gaps}"))
    files = len(sources) - len(seeds)
    if files:
        facts.append((f"{hooks.noun} files", str(files)))
    return facts


def _seed_or_none(source: str) -> int | None:
    """The seed of a rolled source, None for a file's (or a number past any seed: the report
    counts that row with the files rather than fail on it)."""
    try:
        return seed_of(source)
    except OptionError:
        return None


def _plot_classes(frame: pd.DataFrame, path: Path, order: list[str]) -> None:
    fig, ax = figure("Class shares")
    if len(frame) == 0 or "class" not in frame.columns:
        no_data(ax, "no class column" if "class" not in frame.columns else "no instances")
    else:
        counts = texts(frame, "class").replace("", "(none)").value_counts()
        names = [c for c in order if c in counts.index] + [
            c for c in counts.index if c not in order
        ]
        values = [int(counts[c]) for c in names]
        total = sum(values)
        bars = ax.bar(names, [v / total for v in values], color="#4c72b0")
        for bar, count in zip(bars, values, strict=True):
            ax.annotate(
                f"{count / total:.0%} ({count})",
                (bar.get_x() + bar.get_width() / 2, bar.get_height()),
                ha="center", va="bottom", fontsize=8,
            )  # fmt: skip
        ax.set_ylabel("share of instances")
        ax.set_ylim(0, min(1.0, max(values) / total * 1.18 + 0.02))
    save_figure(fig, path)


def _plot_values(frame: pd.DataFrame, column: str, path: Path) -> None:
    fig, ax = figure(f"Distribution of {column.replace('_', ' ')}")
    values = numbers(frame, column).dropna()
    values = values[values.abs() != float("inf")]  # a results file's 'inf' has no bin to go in
    if values.empty:
        no_data(ax, f"no finite {column.replace('_', ' ')} values")
    else:
        low, high = float(values.min()), float(values.max())
        span = (0.0, 1.0) if low >= 0.0 and high <= 1.0 else (low, high if high > low else low + 1)
        ax.hist(values.to_numpy(), bins=20, range=span, color="#55a868", edgecolor="white")
        ax.set_xlabel(column.replace("_", " "))
        ax.set_ylabel("instances")
    save_figure(fig, path)


def write_report(
    results: str | os.PathLike[str] | pd.DataFrame,
    directory: str | os.PathLike[str],
    *,
    game: str = DEFAULT_GAME,
    command: str | None = None,
    instance_loader: Callable[[dict[str, Any]], Any] | None = None,
    title: str | None = None,
) -> Path:
    """Write ``report.md`` and its plots for ``results`` (a results file or table) of ``game``
    into ``directory``; return the path of ``report.md``.

    ``command`` is the command line that made the results (recorded when given);
    ``instance_loader`` turns a results row (a dict) into its instance for the game's sections (by
    default: rolled again, or read from a file that must pass :func:`load_checked`).

    >>> import tempfile, pandas as pd
    >>> table = pd.DataFrame({"source": ["seed:1", "seed:2"], "width": [5, 5], "height": [4, 4],
    ...                       "class": ["uncertain", "hopeless"], "win_probability": [0.4, 0.0]})
    >>> with tempfile.TemporaryDirectory() as tmp:
    ...     text = write_report(table, tmp).read_text()
    ...     all((Path(tmp) / name).exists() for name in plots("dog"))
    True
    """
    import pandas as pd

    require("pandas", "analysis", "the report")
    require("matplotlib", "analysis", "the report's plots")
    hooks = analysis_hooks(game)
    frame = results if isinstance(results, pd.DataFrame) else read_results(results, game)
    frame = frame.reset_index(drop=True)
    directory = _report_folder(directory)

    def default_loader(row: dict[str, Any]) -> Any:
        return load_checked(Source.from_row(row, game))

    loader = instance_loader if instance_loader is not None else default_loader
    definitions: dict[str, str] = {**hooks.classes, ERROR_CLASS: ERROR_DEFINITION}
    shared = plots(game)
    _plot_classes(frame, directory / shared[0], list(definitions))
    if hooks.value_column:
        _plot_values(frame, hooks.value_column, directory / shared[1])

    lines = [f"# {title or f'Analysis report: {game}'}", ""]
    lines += _made_section(frame, hooks, game, command)
    lines += _class_section(frame, hooks, definitions, shared[0])
    if hooks.value_column:
        lines += _value_section(frame, hooks.value_column, shared[1], hooks.noun)
    if hooks.report is not None:
        lines += hooks.report(frame, directory, loader)
    lines += _failed_section(frame, hooks.noun)
    report = directory / "report.md"
    report.write_text("\n".join(lines).rstrip("\n") + "\n", encoding="utf-8")
    return report


def _report_folder(directory: str | os.PathLike[str]) -> Path:
    """The report's folder, made if missing; refused when it names a file."""
    folder = Path(directory)
    if folder.exists() and not folder.is_dir():
        raise OptionError(f"the report directory {os.fspath(folder)!r} is a file")
    folder.mkdir(parents=True, exist_ok=True)
    return folder


def _made_section(
    frame: pd.DataFrame, hooks: AnalysisHooks, game: str, command: str | None
) -> list[str]:
    """How these results were made: the command, the game, the batch's facts and budgets."""
    shown = f"`{command}`" if command else "not recorded (a report of an existing results file)"
    made = [("command", shown), ("game", game), (f"{hooks.noun}s", str(len(frame)))]
    made += _batch_facts(frame, hooks)
    if hooks.budgets:
        made.append(("analysis budgets", hooks.budgets))
    return ["## How these results were made", "", *md_table(["", ""], made)]


def _class_section(
    frame: pd.DataFrame, hooks: AnalysisHooks, definitions: dict[str, str], image: str
) -> list[str]:
    """The classes: the hooks' ones first (the error class only when it occurs), each with its
    count, share and definition, the one-class notice, and the shares plot."""
    total = len(frame)
    counts = texts(frame, "class").replace("", "(none)").value_counts()
    rows: list[list[Any]] = []
    for name in list(definitions) + [c for c in counts.index if c not in definitions]:
        count = int(counts.get(name, 0))
        if name == ERROR_CLASS and count == 0:
            continue
        rows.append([name, count, f"{count / max(total, 1):.1%}", definitions.get(name, "")])
    lines = ["", "## Classes", ""]
    lines += md_table(["class", f"{hooks.noun}s", "share", "definition"], rows)
    notice = one_class(frame, hooks)
    if notice:
        lines += ["", f"**{notice}**"]
    return [*lines, "", f"![Class shares]({image})", ""]


def _failed_section(frame: pd.DataFrame, noun: str) -> list[str]:
    """The instances whose analysis failed (the first :data:`_FAILED_SHOWN`), or nothing."""
    classes, errors = texts(frame, "class"), texts(frame, "error")
    failed = frame[((errors != "") | (classes == ERROR_CLASS)).to_numpy()]
    if not len(failed):
        return []
    lines = [f"## Failed {noun}s", ""]
    shown = failed.head(_FAILED_SHOWN).to_dict(orient="records")
    lines += md_table(["source", "error"], [[r.get("source"), r.get("error")] for r in shown])
    if len(failed) > len(shown):
        lines += ["", f"... and {len(failed) - len(shown)} more."]
    return [*lines, ""]


def _value_section(frame: pd.DataFrame, column: str, image: str, noun: str) -> list[str]:
    name = column.replace("_", " ")
    values = numbers(frame, column).dropna()
    lines = [f"## {name.capitalize()}", ""]
    if values.empty:
        lines.append(f"No {name} values.")
    else:
        exact = texts(frame, "exact").str.lower().isin(["true", "1"])
        estimated = int((numbers(frame, column).notna() & ~exact).sum())
        lines.append(
            f"Mean {values.mean():.4f}, median {values.median():.4f}, min {values.min():.4f}, "
            f"max {values.max():.4f} over {len(values)} {noun}s"
            + (f" ({estimated} of them estimates, not exact values)." if "exact" in frame else ".")
        )
    return [*lines, "", f"![{name.capitalize()}]({image})", ""]


def describe_classes(hooks: AnalysisHooks) -> Mapping[str, str]:
    """The class definitions of a game, the shared ``error`` class included."""
    return {**hooks.classes, ERROR_CLASS: ERROR_DEFINITION}
