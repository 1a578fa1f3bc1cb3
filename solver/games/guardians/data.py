"""Where the guardians' shipped data lives: the ``guardians`` folder of the puzzle data.

The puzzle data is the package ``solver._puzzles`` when installed, else the source tree's
``puzzles/`` folder (the same lookup as :mod:`solver.puzzles`).
"""

from __future__ import annotations

from importlib import resources
from pathlib import Path

__all__ = ["data_file"]

_SOURCE_ROOT = Path(__file__).resolve().parents[3] / "puzzles"


def data_file(name: str) -> Path:
    """The path of ``name`` (``"tiles.json"``, ``"levels.json"``...) in the guardians data."""
    try:
        root = resources.files("solver._puzzles")
        item = root.joinpath("guardians").joinpath(name)
        return item if isinstance(item, Path) else Path(str(item))
    except ModuleNotFoundError:
        return _SOURCE_ROOT / "guardians" / name
