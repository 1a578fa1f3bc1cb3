"""docs/analysis.md names every result column a game declares (the dog's `value_low` and
`value_high` were in every results file but in no table of the page)."""

from __future__ import annotations

from pathlib import Path

import pytest

from solver.analysis.sources import analysis_hooks

PAGE = Path(__file__).resolve().parents[2] / "docs" / "analysis.md"


@pytest.mark.parametrize("game", ["dog", "guardians", "trial"])
def test_every_column_is_documented(game):
    text = PAGE.read_text(encoding="utf-8")
    missing = [name for name in analysis_hooks(game).columns if f"`{name}`" not in text]
    assert missing == []


def test_the_first_example_shows_more_than_one_class(tmp_path):
    """Found by a new user's pass: the page's first example, at the generator's default 20
    turns, rolled only `guaranteed` 9x9 forests (16 of 16 at seed 0), so its report showed one
    class. The example, run on its first 16 forests, must split them; the page says what the
    whole example costs."""
    import re
    import shlex
    import subprocess
    import sys

    text = PAGE.read_text(encoding="utf-8")
    first = next(line for line in text.splitlines() if line.startswith("$ forest analyse"))
    words = shlex.split(first[2:])[2:]
    count = words.index("--count")
    words[count + 1] = "16"
    for flag in ("--jobs", "-o", "--report"):  # one process, our own output, no report
        if flag in words:
            at = words.index(flag)
            del words[at : at + 2]
    out = tmp_path / "r.csv"
    run = subprocess.run([sys.executable, "-m", "solver.cli", "analyse", *words, "--jobs", "1",
                          "--no-progress", "-o", str(out)], capture_output=True, text=True,
                         timeout=300, cwd=tmp_path)  # fmt: skip
    assert run.returncode == 0, run.stderr
    classes = re.findall(r"(\d+) (uncertain|guaranteed|unreachable|hopeless)", run.stdout)
    assert len(classes) >= 2, run.stdout
    assert "(16 at seed 0: 8 and 8)" in text and "8 uncertain, 8 guaranteed" in run.stdout
    assert re.search(r"took \d+ s of CPU", text)  # the bigger example's cost, said
