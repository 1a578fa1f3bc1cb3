"""The committed level calibration (``bench/results/guardians_levels.md``): its shape, its tasks
equal to ``levels.json``'s, its intervals recomputed; and a 5-game smoke run per level through
the bench's own code."""

from __future__ import annotations

import importlib.util
import statistics
from pathlib import Path

import pytest

from solver.games.guardians.solo import default_levels
from solver.games.guardians.solo_runs import solo_run
from solver.stats import wilson_interval

ROOT = Path(__file__).resolve().parents[3]


def _bench():
    spec = importlib.util.spec_from_file_location(
        "guardians_levels_bench", ROOT / "bench" / "guardians_levels.py"
    )
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


BENCH = _bench()


def test_committed_table_shape_and_tasks():
    text = (ROOT / "bench" / "results" / "guardians_levels.md").read_text(encoding="utf-8")
    assert "python bench/guardians_levels.py" in text  # the command that made it
    rows = BENCH.parse_table(text)
    levels = default_levels()
    assert [r["level"] for r in rows] == [1, 2, 3, 4, 5, 6]
    for row, level in zip(rows, levels, strict=True):
        assert row["threshold"] == level.threshold
        assert row["tasks"] == BENCH.tasks_text(level.number)
        assert 0 <= row["wins"] <= row["games"] and row["games"] >= 1
        assert row["win_rate"] == pytest.approx(row["wins"] / row["games"], abs=5e-4)
        low, high = wilson_interval(row["wins"], row["games"])
        assert row["ci_low"] == pytest.approx(low, abs=5e-4)
        assert row["ci_high"] == pytest.approx(high, abs=5e-4)
        assert row["score_min"] <= row["score_median"] <= row["score_max"]
    assert len({r["games"] for r in rows}) == 1  # the same budget for every level


def test_committed_table_meets_the_calibration_targets():
    text = (ROOT / "bench" / "results" / "guardians_levels.md").read_text(encoding="utf-8")
    checks = BENCH.targets(BENCH.parse_table(text))
    assert len(checks) == 4 and all(ok for _, ok in checks), checks
    for name, _ in checks:  # the file states each target as met
        assert f"- {name}: met" in text


def _rows(wins: list[int], games: int = 200) -> list[dict]:
    rows = []
    for w in wins:
        low, high = wilson_interval(w, games)
        rows.append({"win_rate": w / games, "wins": w, "ci_low": low, "ci_high": high})
    return rows


def _met(wins: list[int], games: int = 200) -> list[bool]:
    return [ok for _, ok in BENCH.targets(_rows(wins, games))]


def test_targets_by_hand():
    assert _met([150, 120, 70, 30, 10, 2]) == [True] * 4
    # a rise from level 3 to 4; level 1 at half; level 6 never won; overlapping intervals
    assert _met([150, 120, 70, 80, 10, 2]) == [False, True, True, True]
    assert _met([100, 90, 70, 30, 10, 2]) == [True, False, True, True]
    assert _met([150, 120, 70, 30, 10, 0]) == [True, True, False, True]
    assert _met([9, 8, 7, 6, 5, 4], games=12) == [True, True, True, False]


def test_pilot_task_rounds_by_hand():
    # (tile, pawn, round, points, walk length): the start tile (tile 0) and another in round 4
    pile = [(5, 0, 2, 5, 3), (0, 0, 4, 12, 6), (7, 1, 4, 3, 2), (9, 2, 6, 8, 4), (10, 3, 7, 3, 2)]
    assert BENCH.task_round(pile, "long_mission", 4, -1) == 4
    assert BENCH.task_round(pile, "long_mission", 3, -1) == 2
    assert BENCH.task_round(pile, "start_tile", 0, -1) == 4
    assert BENCH.task_round(pile, "missions_in_turn", 2, -1) == 4
    assert BENCH.task_round(pile, "missions_in_turn", 3, -1) is None
    assert BENCH.task_round(pile, "all_colours", 0, -1) == 7
    assert BENCH.task_round(pile, "colour_points", 10, 0) == 4  # blue: 5, then 17
    assert BENCH.task_round(pile, "colour_points", 10, 3) is None  # red: 3


def test_parse_table_refuses_a_broken_table():
    good = "\n".join([BENCH.HEADER, BENCH._rule()] + [
        f"| {n} | {t} | {BENCH.tasks_text(n)} | 5 | 0 | 0.000 | [0.000, 0.434] | 0 | 0 | 0 |"
        for n, t in zip(range(1, 7), (60, 67, 74, 81, 88, 95), strict=True)
    ])  # fmt: skip
    assert len(BENCH.parse_table(good)) == 6
    with pytest.raises(ValueError):
        BENCH.parse_table("\n".join(good.splitlines()[:-1]))
    with pytest.raises(ValueError):
        BENCH.parse_table(good.replace("| 3 | 74 |", "| 3 | seventy-four |"))


def test_smoke_run_five_games_per_level():
    reports = BENCH.measure(games=5, iterations=1, agent="random", seed=3, jobs=1)
    assert [r.level for r in reports] == [1, 2, 3, 4, 5, 6]
    for report in reports:
        assert report.games == 5 and len(report.scores) == 5
        assert report.scores == solo_run(report.level, "random", games=5, seed=3).scores
        assert report.wins == sum(s >= report.threshold for s in report.scores)
        lines = BENCH.table_lines([report])
        assert f"| {statistics.median(report.scores):g} |" in lines[2]


@pytest.mark.slow
def test_smoke_run_with_the_calibration_agent():
    reports = BENCH.measure(games=5, iterations=1, agent="planner", seed=0, jobs=2)
    assert [len(r.scores) for r in reports] == [5] * 6
    assert all(r.wins == sum(s >= r.threshold for s in r.scores) for r in reports)
