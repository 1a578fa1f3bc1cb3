"""The dog game's batch analysis: its classes, its columns, and the hooks ``forest analyse`` uses.

- :mod:`.classify`: the per-forest analysis (classes, par, win probability, the clairvoyant
  estimate), :func:`.classify.analyse_source` being the function the runner calls;
- :mod:`.proof`: the AND-OR search that proves a forest guaranteed;
- :mod:`.options`: the budgets; :mod:`.report`: the dog's sections of the analysis report.

:func:`analysis_hooks` builds the :class:`~solver.spec.AnalysisHooks` of the dog's ``GameSpec``
without importing any of the heavy parts (they load on first use).

>>> hooks = analysis_hooks()
>>> list(hooks.classes)
['unreachable', 'hopeless', 'guaranteed', 'uncertain']
>>> hooks.dump(hooks.roll(3, (4, 3), 5)).splitlines()[0]
'name: rolled-4x3-seed3'
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from solver.spec import AnalysisHooks

__all__ = ["ADVICE", "CLASSES", "COLUMNS", "analysis_hooks"]

CLASSES: dict[str, str] = {
    "unreachable": "no tree-free path joins the dog's start to the human, so the win probability "
    "is exactly 0",
    "hopeless": "a path exists, but no win within the turn limit even when the player chooses "
    "every roll (no par), so the win probability is exactly 0",
    "guaranteed": "the dog wins whatever the dice do (proven by the AND-OR proof search or "
    "adversarial expectimax), so the win probability is exactly 1",
    "uncertain": "neither: the win probability lies strictly between 0 and 1; exact when the "
    "expectimax table fits its memory cap, otherwise the win rate of the MCTS agent with its 95% "
    "interval (an estimate of a lower bound)",
}
"""The dog's solvability classes, in report order, each with its definition."""

ADVICE: dict[str, str] = {
    "guaranteed": "the forests are too easy to tell apart: try a shorter turn limit "
    "(--turns, e.g. 8 instead of the generator's 20) or a larger --size",
    "hopeless": "the turn limit is too short to reach the human: raise --turns or use a smaller "
    "--size",
    "unreachable": "trees wall the human off in every forest: try another --size or other seeds",
    "uncertain": "to see guaranteed forests too, raise --turns; to see hopeless ones, lower it",
}
"""What to change when every forest of a batch lands in one class."""

COLUMNS: dict[str, str] = {
    "width": "Int64",
    "height": "Int64",
    "par": "Int64",
    "win_probability": "float64",
    "exact": "boolean",
    "ci_low": "float64",
    "ci_high": "float64",
    "clairvoyant_estimate": "float64",
    "clairvoyant_low": "float64",
    "clairvoyant_high": "float64",
    "route": "string",
    "turns": "Int64",
    "par_status": "string",
    "method": "string",
    "games": "Int64",
    "clairvoyant_samples": "Int64",
    "clairvoyant_undecided": "Int64",
    "difficulty": "float64",
    "value_low": "float64",
    "value_high": "float64",
    "clairvoyant_method": "string",
    "weakest_win_probability": "float64",
    "weakest_low": "float64",
    "weakest_high": "float64",
    "weakest_method": "string",
    "skill": "float64",
    "upper_bound": "float64",
}
"""The dog's result columns with their types (the meaning of each: :mod:`.classify`)."""


def load(path: str) -> Any:
    """A forest read from a ``.forest`` file."""
    from solver.games.dog.format import load_forest

    return load_forest(path)


def dump(forest: Any) -> str:
    """A forest's ``.forest`` text."""
    from solver.games.dog.format import format_forest

    return format_forest(forest)


def roll(seed: int, size: tuple[int, int], turns: int | None) -> Any:
    """The generator's forest of ``size``, given ``turns`` turns where that is not ``None``."""
    from solver.games.dog.generator import roll_forest

    forest = roll_forest(size[0], size[1], seed=seed)
    return forest if turns is None else forest.replace(turns=turns)


def report_sections(frame: Any, directory: Path, load_row: Any) -> list[str]:
    """The dog's report sections (:func:`.report.report_sections`, imported on first use)."""
    from solver.games.dog.analysis.report import report_sections

    return report_sections(frame, directory, load_row)


def analysis_hooks() -> AnalysisHooks:
    """The dog's analysis hooks (see :class:`~solver.spec.AnalysisHooks`)."""
    from solver.games.dog.analysis.options import describe_budgets
    from solver.games.dog.forest import MAX_SIZE, MIN_SIZE

    return AnalysisHooks.of_module(
        __name__,
        analyse="solver.games.dog.analysis.classify:analyse_source",
        value_column="win_probability",
        budgets=describe_budgets(),
        extension=".forest",
        noun="forest",
        size_range=(MIN_SIZE, MAX_SIZE),
        turns_range=(1, 255),
    )
