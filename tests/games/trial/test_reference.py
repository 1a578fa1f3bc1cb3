"""``docs/rules/trial-steps.md`` is generated from the rules' declarations and is current."""

from __future__ import annotations

from pathlib import Path

from solver.games.trial.core import STEPS
from solver.games.trial.reference import page

PAGE = Path(__file__).resolve().parents[3] / "docs" / "rules" / "trial-steps.md"


def test_the_reference_page_is_current():
    assert PAGE.read_text(encoding="utf-8") == page(), (
        "docs/rules/trial-steps.md is stale: run "
        "python -m solver.games.trial.reference docs/rules/trial-steps.md"
    )


def test_the_page_names_every_step_kind_and_field():
    text = page()
    for kind, cls in STEPS.items():
        assert f"**`{kind}`**" in text
        for name in cls.fields:
            assert f"| `{name}` |" in text
