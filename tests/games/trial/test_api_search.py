"""``solver.best_move`` and ``solver.evaluate`` on the Trial (a game that declares hidden
information) search as ``forest trial best-move`` does: ISMCTS from one player's information
state, in the game's declared configuration, never reading the other players' hidden cards.

The independent checks: the CLI's answer for the same state, budget and seed; and the answer on
a redeal of what the searching player cannot see (``resample_hidden``), which must be the same.
"""

from __future__ import annotations

import contextlib
import io
import json
from typing import Any

import pytest

import solver
from solver.cli import main
from solver.errors import OptionError
from solver.rng import SplitMix64
from solver.testing import uniform_action

pytestmark = pytest.mark.usefixtures("require_kernels")

BUDGET = 200


def _midgame(plies: int = 120, seed: int = 5) -> Any:
    """A 2-player Trial state ``plies`` seeded random actions in, at a decision node."""
    state = solver.load_game("trial", players=2).new_initial_state()
    rng = SplitMix64(seed)
    for _ in range(plies):
        state.apply_action(uniform_action(state, rng))
    while state.is_chance_node():
        state.apply_action(state.chance_outcomes()[0][0])
    assert not state.is_terminal()
    return state


def _redealt(state: Any, observer: int) -> Any:
    """``state`` with what ``observer`` cannot see dealt again (a different real state)."""
    for seed in range(20):
        world = state.resample_hidden(observer, SplitMix64(seed))
        if world.to_json() != state.to_json():
            return world
    raise AssertionError("no redeal differs from the real state")


def test_best_move_is_what_the_cli_answers(tmp_path: Any) -> None:
    state = _midgame()
    path = tmp_path / "state.json"
    path.write_text(state.to_json())
    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        argv = ["trial", "best-move", "--state", str(path), "--iterations", str(BUDGET),
                "--seed", "3", "--json", "--no-progress"]  # fmt: skip
        assert main(argv) == 0
    report = json.loads(out.getvalue())
    found = solver.best_move(state, iterations=BUDGET, seed=3)
    assert found.best_label == report["best_action"]
    assert found.value == pytest.approx(report["value"])


def test_best_move_does_not_read_the_other_players_cards() -> None:
    state = _midgame()
    mover = state.current_player()
    world = _redealt(state, mover)
    here = solver.best_move(state, iterations=BUDGET, seed=1)
    there = solver.best_move(world, iterations=BUDGET, seed=1)
    assert (here.best_label, here.value) == (there.best_label, there.value)
    assert here.extra["observer"] == mover


def test_evaluate_is_player_0s_view() -> None:
    state = _midgame()
    world = _redealt(state, 0)
    assert solver.evaluate(state, iterations=BUDGET) == solver.evaluate(world, iterations=BUDGET)


def test_plain_searches_are_refused_naming_ismcts() -> None:
    state = _midgame()
    for call in (solver.search.best_move, solver.search.evaluate):
        with pytest.raises(OptionError, match="ISMCTS"):
            call(state, iterations=BUDGET)
    with pytest.raises(OptionError, match="no exact search"):
        solver.best_move(state, exact=True)
    with pytest.raises(OptionError, match="memory_mb"):
        solver.evaluate(state, memory_mb=10)
