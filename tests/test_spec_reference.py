"""``docs/game-spec.md`` is generated from ``solver/spec.py`` and documents every field."""

from __future__ import annotations

import dataclasses
import re
from pathlib import Path

from solver import spec
from solver.spec_reference import field_docs, reference

PAGE = Path(__file__).resolve().parents[1] / "docs" / "game-spec.md"


def test_the_page_is_what_spec_py_generates():
    assert PAGE.read_text(encoding="utf-8") == reference(), (
        "docs/game-spec.md is stale: run python -m solver.spec_reference docs/game-spec.md"
    )


def test_every_game_spec_field_has_a_docstring_and_a_section():
    names = [f.name for f in dataclasses.fields(spec.GameSpec)]
    docs = field_docs()
    assert [n for n in names if not docs.get(n, "").strip()] == []
    sections = re.findall(r"^### `(\w+)`$", PAGE.read_text(encoding="utf-8"), flags=re.M)
    assert sections == names


def test_every_field_of_the_helper_classes_is_described():
    for cls in (spec.Opened, spec.AgentSpec, spec.AnalysisHooks):
        doc = cls.__doc__ or ""
        missing = [f.name for f in dataclasses.fields(cls) if f"``{f.name}" not in doc]
        assert missing == [], cls.__name__
