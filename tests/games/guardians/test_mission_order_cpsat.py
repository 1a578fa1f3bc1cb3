"""The CP-SAT mission-ordering model against the exhaustive search, and the ``order`` command.

Positions come from random play over random dense forests (short missions in few colours, so
walks, chains and cut vertices abound): every mission step met on the way with at least one
walk is a test position.
"""

from __future__ import annotations

import json

import pytest

from solver.cli import main
from solver.games.guardians.grove_format import parse_grove
from solver.games.guardians.grove_position import DEFAULT_TABLE, Grove, GroveCell
from solver.games.guardians.mission_order_cpsat import candidate_walks, cpsat_order
from solver.games.guardians.mission_order_search import best_order, first_legal_order
from solver.games.guardians.rules import GuardiansGame, GuardiansState, Phase
from solver.rng import SplitMix64

from .test_random_play import grow_cells


def dense(seed: int) -> Grove:
    rng = SplitMix64(seed)
    palette = "BGR"
    cells = grow_cells(rng, (2, 3), (8, 14), (5, 7))
    letters = list("bgyr")
    grid: list[list[GroveCell | None]] = [[None] * 7 for _ in range(5)]
    for r, c in sorted(cells):
        sequence = "".join(rng.pick(palette) for _ in range(2 if rng.roll(3) > 1 else 3))
        if letters and rng.roll(3) == 1:
            grid[r][c] = GroveCell(
                None, sequence, True, False, letters.pop(rng.roll(len(letters)) - 1)
            )
        else:
            grid[r][c] = GroveCell(rng.pick(palette), sequence)
    return Grove(f"dense-{seed}", "solo", DEFAULT_TABLE, tuple(tuple(row) for row in grid))


def positions(count: int, seed0: int = 0):
    """Mission steps with at least one walk, met by random play from dense forests."""
    found = 0
    seed = seed0
    while found < count:
        rng = SplitMix64(seed)
        state = GuardiansGame(position=dense(seed)).new_initial_state()
        seed += 1
        while not state.is_terminal() and found < count:
            legal = state.legal_actions()
            if state.phase == Phase.MISSIONS and len(legal) > 1:
                found += 1
                yield state.clone()
                action = rng.pick(legal[1:]) if rng.roll(3) > 1 else legal[0]
            else:
                action = rng.pick(legal)
            state.apply_action(action)


def agree(state: GuardiansState, **options) -> None:
    exact = best_order(state)
    answer = cpsat_order(state, **options)
    assert answer.optimal
    assert (answer.plan.count, answer.plan.points) == (exact.count, exact.points), state.to_json()
    naive = first_legal_order(state)
    assert (naive.count, naive.points) <= (exact.count, exact.points)


@pytest.mark.parametrize("chunk", range(4))
def test_cpsat_agrees_with_brute_force(chunk):
    for state in positions(15, seed0=100 * chunk):
        agree(state)


def test_cpsat_with_a_free_root_agrees_too():
    for state in positions(10, seed0=7000):
        agree(state, fixed_root=False)


@pytest.mark.slow
def test_cpsat_agrees_with_brute_force_on_500_positions():
    gaps = 0
    for state in positions(500, seed0=50_000):
        agree(state)
        gaps += first_legal_order(state).count < best_order(state).count
    assert gaps > 0  # some of them are order traps


def test_candidate_walks_include_chains():
    state = GuardiansGame(
        position=parse_grove("grid:\n[GR]b G:BB R:GY G:BB Y:BB\nY:BB Y:BB Y:BB Y:BB [YY]g\n")
    ).new_initial_state()
    walks = candidate_walks(state)
    # the pawns' cells and the chain's landing cell (0,2) (G-Y: three walks); green lands on
    # (1,2), Y:BB turned to B-B, which no walk completes (no blue tile)
    assert sorted({w.start for w in walks}) == [(0, 0), (0, 2), (1, 4)]
    assert sorted(w.end for w in walks if w.start == (0, 2)) == [(0, 4), (1, 1), (1, 3)]
    assert (1, 2) in {w.end for w in walks}


def run(capsys, *argv: str) -> tuple[int, str, str]:
    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


def test_order_command_json_shape(capsys):
    code, out, _ = run(capsys, "guardians", "order", "guardians/order-matters", "--json")
    assert code == 0
    report = json.loads(out)
    assert (report["count"], report["points"]) == (2, 6)
    assert [step["pawn"] for step in report["sequence"]] == ["g", "b"]
    assert set(report["sequence"][0]) == {"pawn", "mission", "walk", "removed", "label"}
    assert report["optimal"] is True and report["method"] == "brute-force"  # auto: small enough
    code, out, _ = run(
        capsys, "guardians", "order", "guardians/order-matters", "--json", "--method", "cp-sat"
    )
    assert code == 0 and json.loads(out)["method"] == "cp-sat" and json.loads(out)["count"] == 2
    assert report["sequence"][1] == {
        "pawn": "b",
        "mission": [0, 0],
        "walk": [[0, 1], [0, 2]],
        "removed": [0, 0],
        "label": "walk blue pawn: (0,0) -> (0,1) (0,2)",
    }


def test_order_command_nothing_and_text(capsys, tmp_path):
    path = tmp_path / "none.grove"
    path.write_text("grid:\n[GR]b B:BB\n", encoding="utf-8")
    code, out, _ = run(capsys, "guardians", "order", str(path), "--json")
    assert code == 0 and json.loads(out)["sequence"] == [] and json.loads(out)["count"] == 0
    code, out, _ = run(capsys, "guardians", "order", "guardians/chain", "--method", "brute-force")
    assert code == 0 and out.startswith("3 missions for 9 points (the most possible)")
    assert "1[GR]b" in out  # the forest drawn with the order numbered
    path.write_text("grid:\n[GR]q\n", encoding="utf-8")
    code, _, err = run(capsys, "guardians", "order", str(path))
    assert code != 0 and "line 2, column 5" in err


def test_a_time_limited_cpsat_never_reports_less_than_the_first_legal_order():
    # order-trap: the first legal order completes 2 missions, the optimum 6; a solve stopped
    # before its first solution must still answer with the first legal order, not an empty plan
    from solver.games.guardians import resolve_position

    state = GuardiansGame(position=resolve_position("guardians/order-trap")).new_initial_state()
    naive = first_legal_order(state)
    assert (naive.count, best_order(state).count) == (2, 6)
    for limit in (1e-6, 1e-3, 0.05):
        answer = cpsat_order(state, time_limit=limit)
        assert (answer.plan.count, answer.plan.points) >= (naive.count, naive.points)
