"""The commands every game gets (:mod:`solver.cli_game`): their options refuse a user's mistakes
in one line with exit status 2, driven as a user drives them (a ``forest`` subprocess)."""

from __future__ import annotations

import pytest

from solver.testing import one_line_error
from solver.testing import run_forest as forest


@pytest.mark.parametrize("agents", ["", ",", " "])
def test_play_refuses_an_empty_agent_list(agents):
    # Defect: `--agents ''` silently played the default agent (mcts at 1000 simulations) in
    # every seat.
    run = forest("guardians", "play", "--players", "2", "--agents", agents, "--games", "1")
    one_line_error(run, "--agents")


def test_the_exact_agent_memory_cap_names_the_flag():
    run = forest("dog", "play", "dog/another-dog", "--agent", "exact", "--memory-mb", "0.001",
                 "--games", "2")  # fmt: skip
    one_line_error(run, "--memory-mb")
    assert "memory_mb=" not in run.stderr
