"""The version, single-sourced from ``pyproject.toml``.

Installed, it is the distribution's metadata (written from ``pyproject.toml`` at install time);
in a source tree that is not installed, it is read from ``pyproject.toml`` itself.
"""

from __future__ import annotations

import tomllib
from importlib.metadata import PackageNotFoundError, version
from pathlib import Path

DISTRIBUTION = "forest-solver"


def _version() -> str:
    try:
        return version(DISTRIBUTION)
    except PackageNotFoundError:
        pyproject = Path(__file__).resolve().parent.parent / "pyproject.toml"
        with pyproject.open("rb") as handle:
            return str(tomllib.load(handle)["project"]["version"])


__version__ = _version()
