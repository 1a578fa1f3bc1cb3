"""The repository is self-contained: no tracked file points at documents outside it.

The rules and the design live in ``docs/`` (``docs/rules/<game>.md``, ``docs/architecture.md``);
the old out-of-tree names (a sibling folder of specification pages) must not come back, in code,
comments, docstrings, puzzles or pages. The patterns are assembled from parts, so that this file
does not contain them either and every tracked file is scanned.
"""

from __future__ import annotations

import shutil
import subprocess
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
SHARED = ".." + "/" + "shared"
RULES_PAGE = "RULES" + ".md"
DESIGN_PAGE = "DESIGN" + ".md"
FORBIDDEN = tuple(name.encode() for name in (SHARED, RULES_PAGE, DESIGN_PAGE))


def _tracked_files() -> list[str]:
    git = shutil.which("git")
    if git is None or not (ROOT / ".git").exists():
        pytest.skip("not a git checkout: the tracked files are unknown")
    out = subprocess.run([git, "ls-files", "-z"], cwd=ROOT, capture_output=True, check=True).stdout
    return [name for name in out.decode("utf-8").split("\0") if name]


def _mentions(root: Path, names: list[str]) -> list[str]:
    """``path:line: pattern`` for every forbidden pattern in the given files under ``root``."""
    found = []
    for name in names:
        path = root / name
        if not path.is_file():  # deleted in the working tree, or a submodule
            continue
        for number, line in enumerate(path.read_bytes().splitlines(), start=1):
            for pattern in FORBIDDEN:
                if pattern in line:
                    found.append(f"{name}:{number}: {pattern.decode()}")
    return found


def test_the_scanner_finds_each_pattern(tmp_path: Path) -> None:
    (tmp_path / "a.py").write_text(f'"""See {SHARED}/x."""\n', encoding="utf-8")
    (tmp_path / "b.md").write_text(f"ok\nthe {RULES_PAGE} page\n", encoding="utf-8")
    (tmp_path / "c.txt").write_bytes(b"\xff\x00 " + DESIGN_PAGE.encode() + b"\n")
    (tmp_path / "d.md").write_text("docs/rules/dog.md §1; docs/architecture.md\n", encoding="utf-8")
    assert _mentions(tmp_path, ["a.py", "b.md", "c.txt", "d.md", "missing.md"]) == [
        f"a.py:1: {SHARED}",
        f"b.md:2: {RULES_PAGE}",
        f"c.txt:1: {DESIGN_PAGE}",
    ]


def test_no_tracked_file_refers_outside_the_repository() -> None:
    assert _mentions(ROOT, _tracked_files()) == []
