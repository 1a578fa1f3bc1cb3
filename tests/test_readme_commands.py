"""Every command the README shows works exactly as written and prints what the README says.

Each ``$ .venv/bin/forest ...`` line of a ``console`` block runs (as ``python -m solver.cli``, the
same entry point) in a fresh folder, and its output must equal the lines under it; ``...`` in an
expected line stands for any text (timings).
"""

from __future__ import annotations

import re
import shlex
import subprocess
import sys
from pathlib import Path

import pytest

README = Path(__file__).resolve().parent.parent / "README.md"
PREFIX = ".venv/bin/forest"


def _examples() -> list[tuple[str, list[str]]]:
    examples: list[tuple[str, list[str]]] = []
    in_console = False
    for line in README.read_text(encoding="utf-8").splitlines():
        if line.startswith("```"):
            in_console = line.strip() == "```console"
            continue
        if not in_console:
            continue
        if line.startswith("$ "):
            examples.append((line[2:], []))
        elif examples:
            examples[-1][1].append(line)
    return examples


EXAMPLES = _examples()


def _matches(expected: str, actual: str) -> bool:
    pattern = ".*".join(re.escape(part) for part in expected.split("..."))
    return re.fullmatch(pattern, actual) is not None


def test_the_readme_shows_commands():
    assert len(EXAMPLES) >= 8
    assert all(command.startswith(PREFIX + " ") for command, _ in EXAMPLES)


@pytest.mark.parametrize(("command", "expected"), EXAMPLES, ids=[c for c, _ in EXAMPLES])
def test_a_readme_command(command, expected, tmp_path):
    argv = shlex.split(command)
    assert argv[0] == PREFIX
    run = subprocess.run(
        [sys.executable, "-m", "solver.cli", *argv[1:]],
        capture_output=True, text=True, cwd=tmp_path, timeout=600,
    )  # fmt: skip
    assert run.returncode == 0, run.stderr
    lines = run.stdout.splitlines()
    assert len(lines) == len(expected), run.stdout
    for want, got in zip(expected, lines, strict=True):
        assert _matches(want, got), (want, got)
