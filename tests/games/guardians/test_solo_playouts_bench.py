"""The paired play-out bench (``bench/guardians_solo_playouts.py``): its games are the solo
runs' games, its sign test exact, its table paired game for game with the default."""

from __future__ import annotations

from pathlib import Path

import pytest

from solver.games.guardians.solo_runs import solo_game_record
from solver.testing import load_module

ROOT = Path(__file__).resolve().parents[3]
BENCH = load_module("guardians_solo_playouts_bench", ROOT / "bench" / "guardians_solo_playouts.py")


def test_its_default_game_is_the_default_agents_solo_game():
    row = BENCH.play(1, 50_000, 3, 2)
    score, _ = solo_game_record(1, "lookahead", 50_000, 3)
    assert row["score"] == score and row["won"] == (score >= 60)
    assert row["decisions"] > 14 and 0 < row["cpu_mean"] <= row["cpu_max"]


def test_sign_test_is_the_exact_binomial():
    assert BENCH.sign_test(0, 0) == 1.0
    assert BENCH.sign_test(5, 5) == 1.0
    assert BENCH.sign_test(6, 0) == pytest.approx(2 / 64)
    assert BENCH.sign_test(0, 6) == BENCH.sign_test(6, 0)
    # §13 gives the endgame player's 28 against 9 as p 0.003, 27 against 9 as p 0.004
    assert BENCH.sign_test(28, 9) == pytest.approx(0.002563, abs=1e-6)
    assert BENCH.sign_test(27, 9) == pytest.approx(0.003933, abs=1e-6)


def test_the_table_pairs_each_variant_with_the_default_on_shared_games():
    def row(variant: str, game: int, won: bool) -> dict[str, object]:
        return {"variant": variant, "game": game, "score": 60 if won else 50, "won": won,
                "decisions": 10, "cpu_mean": 0.01, "cpu_max": 0.2 + 0.4 * game}  # fmt: skip

    rows = [row("rounds=2", g, g % 2 == 0) for g in range(4)]
    rows += [row("rounds=3", g, True) for g in range(3)]  # game 3 not played: left out
    lines = BENCH.table(rows)
    assert lines[0] == BENCH.HEADER and len(lines) == 4
    assert lines[2].startswith("| rounds=2 | 4 | 2 | 0.500 |")
    assert lines[3].startswith("| rounds=3 | 3 | 3 | 1.000 |")
    assert lines[2].endswith("| 0.0100 | 1.40 | 3 |")  # games 1, 2 and 3 over 0.5 s
    assert lines[3].endswith("| 2 | 1 | 0 | 1.000 | 60.00 (56.67) | 0.0100 | 1.00 | 2 |")


def test_variant_names_say_the_rounds_and_the_worlds():
    assert BENCH.variant_name(2) == BENCH.BASE == "rounds=2"
    assert BENCH.variant_name(4, 8) == "rounds=4 worlds=8"


def test_the_committed_table_is_the_committed_records_table():
    results = ROOT / "bench" / "results"
    text = (results / "guardians_solo_playouts.md").read_text(encoding="utf-8")
    rows = BENCH.read_records(results / "guardians_solo_playouts_games.jsonl")
    lines = BENCH.table(rows)
    assert len(lines) >= 7 and "\n".join(lines) in text
    assert "python bench/guardians_solo_playouts.py" in text  # the command that made it
    default = [r for r in rows if r["variant"] == BENCH.BASE]
    assert len(default) == 300 and {r["seed"] for r in rows} == {50_000}


def test_the_committed_budget_table_is_its_records_table():
    # the endgame's budget within 0.5 s a move: the default's 300 games, paired with the ones
    # it played before on the same deals; every decision of the default within the 0.5 s
    results = ROOT / "bench" / "results"
    text = (results / "guardians_solo_budget.md").read_text(encoding="utf-8")
    rows = BENCH.read_records(results / "guardians_solo_budget_games.jsonl")
    assert "\n".join(BENCH.table(rows)) in text
    default = [r for r in rows if r["variant"] == BENCH.BASE]
    assert len(default) == 300 and max(r["cpu_max"] for r in default) < BENCH.MOVE_SECONDS
    before = {r["game"]: r for r in rows if r["variant"].startswith("before: ")}
    assert sorted(before) == sorted(r["game"] for r in default)
