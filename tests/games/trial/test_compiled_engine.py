"""The Trial's ``kernel`` engine (reference rules + compiled helpers) against the reference engine:
the same seeded random games played side by side agree on every observable at every step (legal
actions, chance outcomes, the player to move, clones, scores, the heuristic, returns, the
observers' views and the determinisations), and ISMCTS searches the same tree on both. Without
the compiled module the engine refuses to build (no fallback)."""

from __future__ import annotations

import json
import os
import pickle
import random
import subprocess
import sys

import pytest

import solver
from solver.errors import ExtensionMissingError, OptionError
from solver.game import CHANCE
from solver.games.trial.rules import TrialGame, TrialState

KERNEL = "kernel"


@pytest.fixture(scope="module")
def games(require_kernels: None) -> dict[int, tuple[TrialGame, TrialGame]]:
    return {
        n: (
            solver.load_game("trial", engine="reference", players=n),
            solver.load_game("trial", engine=KERNEL, players=n),
        )
        for n in (2, 3, 4)
    }


def _agree(ref: TrialState, ker: TrialState, deep: bool, rng_seed: int) -> None:
    assert ker.data == ref.data
    assert ker.current_player() == ref.current_player()
    assert ker.legal_actions() == ref.legal_actions()
    assert ker.chance_outcomes() == ref.chance_outcomes()
    assert ker.scores() == ref.scores()
    assert ker.returns() == ref.returns()
    if not deep:
        return
    twin = ker.clone()
    assert type(twin) is type(ker) and twin.data == ref.clone().data and twin.data is not ker.data
    assert ker.to_json() == ref.to_json()
    for p in range(ref.data["player_count"]):
        assert ker.heuristic(p) == ref.heuristic(p)
        assert ker.information_state_string(p) == ref.information_state_string(p)
        mine = ker.resample_hidden(p, random.Random(rng_seed))
        theirs = ref.resample_hidden(p, random.Random(rng_seed))
        assert type(mine) is type(ker) and mine.data == theirs.data


def _side_by_side(pair: tuple[TrialGame, TrialGame], seed: int, deep_every: int) -> int:
    """Play one random game on both engines; returns the number of actions."""
    ref_game, ker_game = pair
    rng = random.Random(seed)
    ref, ker = ref_game.new_initial_state(), ker_game.new_initial_state()
    actions = 0
    while True:
        _agree(ref, ker, deep=actions % deep_every == 0, rng_seed=seed * 1000 + actions)
        if ref.is_terminal():
            return actions
        if ref.current_player() == CHANCE:
            outcomes = ref.chance_outcomes()
            action = rng.choices([a for a, _ in outcomes], [p for _, p in outcomes])[0]
        else:
            action = rng.choice(ref.legal_actions())
        ref.apply_action(action)
        ker.apply_action(action)
        actions += 1


@pytest.mark.parametrize("seed", range(9))
def test_random_games_agree_on_every_observable(games, seed):
    actions = _side_by_side(games[2 + seed % 3], seed, deep_every=37)
    assert actions > 100


@pytest.mark.slow
@pytest.mark.parametrize("seed", range(9, 309))
def test_many_random_games_agree_on_every_observable(games, seed):
    _side_by_side(games[2 + seed % 3], seed, deep_every=11)


def test_ismcts_searches_the_same_tree_on_both_engines(games):
    from solver.search.ismcts import ismcts

    ref_game, ker_game = games[4]
    rng = random.Random(3)
    ref = ref_game.new_initial_state()
    while ref.current_player() == CHANCE or len(ref.legal_actions()) < 3:
        if ref.current_player() == CHANCE:
            outcomes = ref.chance_outcomes()
            action = rng.choices([a for a, _ in outcomes], [p for _, p in outcomes])[0]
        else:
            action = rng.choice(ref.legal_actions())
        ref.apply_action(action)
    ker = ker_game.state_from_json(ref.to_json())
    assert type(ker).__name__ == "KernelTrialState"
    mine = ismcts(ker, iterations=60, seed=2)
    theirs = ismcts(ref, iterations=60, seed=2)
    assert mine.same_search(theirs)


def test_the_engine_is_chosen_by_name_and_opens_saved_states(games, tmp_path):
    from solver.registry import game_spec

    spec = game_spec("trial")
    assert spec.engine_names() == ["kernel", "reference"]
    opened = spec.open(None, engine=KERNEL, players=3)
    assert opened.game.engine == KERNEL and opened.game.num_players() == 3
    path = tmp_path / "state.json"
    path.write_text(opened.state.to_json(), encoding="utf-8")
    again = spec.open(str(path), engine=KERNEL)
    assert again.game.engine == KERNEL and again.state.to_json() == opened.state.to_json()
    assert spec.open(None, engine="reference").game.engine == "reference"
    with pytest.raises(OptionError, match="no 'compiled' engine"):
        spec.open(None, engine="compiled")


def test_a_kernel_game_pickles(games):
    game = games[2][1]
    copy = pickle.loads(pickle.dumps(game))
    state = copy.new_initial_state()
    assert copy.engine == KERNEL and state.data == game.new_initial_state().data
    assert json.loads(state.to_json())["game"] == "trial"


def test_without_the_compiled_module_the_kernel_engine_fails(tmp_path):
    """No fallback: a missing ``solver._ext.trial`` is an error naming the module and the fix,
    while the reference engine keeps working."""
    script = (
        "import sys\n"
        "sys.modules['solver._ext.trial'] = None  # the module 'is absent'\n"
        "import solver\n"
        "from solver.errors import ExtensionMissingError\n"
        "assert solver.load_game('trial', engine='reference', players=2).engine == 'reference'\n"
        "try:\n"
        "    solver.load_game('trial', engine='kernel', players=2)\n"
        "except ExtensionMissingError as exc:\n"
        "    print('refused:', exc)\n"
    )
    run = subprocess.run(
        [sys.executable, "-c", script],
        capture_output=True,
        text=True,
        timeout=120,
        env={**os.environ, "SOLVER_ENGINE": "reference"},
    )
    assert run.returncode == 0, run.stderr
    assert "refused: the Trial's compiled helpers (solver._ext.trial" in run.stdout
    assert "engine='reference'" in run.stdout
    assert issubclass(ExtensionMissingError, ImportError)
