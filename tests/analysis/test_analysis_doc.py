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
