"""The dog's analysis rows are those commit e3a8ca9 wrote, column for column (``seconds`` aside,
new columns allowed): the compiled clairvoyant estimate and every faster step change no answer.

``golden/analysis-rows-e3a8ca9.json`` was written by that commit's code
(``bench/analysis_speed.py golden``): 9x9 forests at 8 turns (uncertain, guaranteed,
unreachable), 6x6 forests at 2 to 6 turns (hopeless ones), 12x12 at 10 turns, MCTS rows (a
memory cap that no table fits), clairvoyant budgets that bind (undecided worlds, the total cap
stopping the sampling) and a par budget that binds.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from solver.games.dog.analysis.classify import analyse_source

pytestmark = pytest.mark.usefixtures("require_kernels")

GOLDEN = Path(__file__).parent / "golden" / "analysis-rows-e3a8ca9.json"
CASES = json.loads(GOLDEN.read_text(encoding="utf-8"))["cases"]
NEW_COLUMNS = {"seconds", "clairvoyant_method", "weakest_win_probability", "weakest_low",
               "weakest_high", "weakest_method", "skill", "upper_bound"}  # fmt: skip


def test_the_golden_cases_cover_every_class_and_the_budgets() -> None:
    rows = [case["row"] for case in CASES]
    assert {r["class"] for r in rows} == {"unreachable", "hopeless", "guaranteed", "uncertain"}
    assert {r["method"] for r in rows} >= {"graph", "par", "proof", "expectimax", "mcts"}
    assert any(r["clairvoyant_undecided"] > 0 for r in rows)
    assert any(0 < r["clairvoyant_samples"] < 100 for r in rows)
    assert any(r["par_status"] == "budget" for r in rows)


@pytest.mark.parametrize("case", CASES, ids=lambda c: json.dumps(c["descriptor"], sort_keys=True))
def test_rows_are_those_of_e3a8ca9(case: dict) -> None:
    # e3a8ca9 had no rules-model par past the search's cap (par_cpsat_seconds): its budget row
    # is read with it off
    options = {"par_cpsat_seconds": 0, **case["descriptor"].get("options", {})}
    row = analyse_source({**case["descriptor"], "options": options})
    expected = case["row"]
    assert set(expected) <= set(row)
    assert set(row) - set(expected) <= NEW_COLUMNS
    assert {k: _ends_exact(k, row[k]) for k in expected} == {
        k: _ends_exact(k, v) for k, v in expected.items()
    }


def _ends_exact(column: str, value: object) -> object:
    """A Wilson interval's end as it is today: e3a8ca9 wrote a rounding residue at the ends
    (0.9999999999999999 for 1); a1451ff makes them exactly 0 and 1. Nothing else is rounded."""
    if column.endswith(("_high", "_low")) and isinstance(value, float):
        if value > 1 - 1e-12:
            return 1.0
        if value < 1e-12:
            return 0.0
    return value
