"""The kernel interface ships: ``solver.get_include()``, the wheel's ``solver/include/*.pxd``.

The fast tests check the folder and the packaging declaration and compile a second kernel
(``coin_kernel.pyx``, the example of ``docs/kernel-abi.md``) out of tree against
``get_include()`` alone, then run it through the public API (conformance checks, expectimax,
MCTS) against a Python twin; the slow ones build the wheel and list it, and drive the compiled
searchers' own interfaces on the coin kernel.
"""

from __future__ import annotations

import subprocess
import sys
import tomllib
import zipfile
from functools import cache
from pathlib import Path

import pytest

import solver
from solver.kernels import kernel_of

ROOT = Path(__file__).resolve().parents[2]
SOURCE_PXDS = sorted(p.name for p in (ROOT / "ext").glob("*.pxd"))


def test_get_include_holds_every_interface_file():
    folder = Path(solver.get_include())
    assert folder.is_dir()
    assert {"state.pxd", "rng.pxd"} <= set(SOURCE_PXDS)
    for name in SOURCE_PXDS:
        assert (folder / name).read_bytes() == (ROOT / "ext" / name).read_bytes(), name


def test_the_pxd_files_are_declared_as_package_data():
    config = tomllib.loads((ROOT / "pyproject.toml").read_text())["tool"]["setuptools"]
    assert config["package-dir"]["solver.include"] == "ext"
    assert "*.pxd" in config["package-data"]["solver.include"]
    assert {"*.pyx", "*.c"} <= set(config["exclude-package-data"]["solver.include"])


@pytest.mark.slow
@pytest.mark.timeout(3600)  # the wheel built: every kernel compiled
def test_the_wheel_ships_the_pxd_files_and_no_sources(tmp_path, in_tree_build):
    build = [sys.executable, "-m", "pip", "wheel", str(ROOT), "--no-deps", "--no-build-isolation"]
    with in_tree_build():  # conftest: one build in the checkout's build/ at a time
        subprocess.run([*build, "-q", "-w", str(tmp_path)], check=True, capture_output=True)
    (wheel,) = tmp_path.glob("forest_solver-*.whl")
    names = zipfile.ZipFile(wheel).namelist()
    shipped = sorted(n.removeprefix("solver/include/") for n in names if "/include/" in n)
    headers = [f"trial_kernel/{p.name}" for p in (ROOT / "ext" / "trial_kernel").glob("*.h")]
    faces = [p.name for p in (ROOT / "ext").glob("*.pxi")]
    assert shipped == sorted(SOURCE_PXDS + faces + headers)
    assert any(n.startswith("solver/_ext/mcts.") for n in names)


# -- a second kernel, built out of tree (the ``coin`` fixture: ``tests/ext/conftest.py``) ---------
@cache
def _twin(total: int, turn: int, phase: int, target: int, turns: int) -> float:
    """The coin game's exact win probability, by recursion over its rules."""
    if phase == 2:
        return 1.0 if total == target else 0.0
    if phase == 0:
        return max(_twin(total + step, turn, 1, target, turns) for step in (1, 2))
    values = []
    for coin in (0, 1):
        t, n = total + coin, turn + 1
        values.append(_twin(t, n, 2 if t >= target or n >= turns else 0, target, turns))
    return 0.5 * values[0] + 0.5 * values[1]


@pytest.mark.slow
@pytest.mark.parametrize(("target", "turns"), [(5, 3), (4, 3), (8, 4), (9, 5)])
def test_expectimax_solves_a_kernel_built_against_get_include(coin, target, turns, require_kernels):
    from solver._ext import expectimax

    game = coin.CoinGame(target, turns)
    state = game.new_initial_state()
    table = expectimax.ExpectimaxTable(game, 1 << 20)
    entry, children, expanded, _leaves = table.search(state, 10**6)
    assert entry[2][0] == pytest.approx(_twin(0, 0, 0, target, turns), abs=1e-12)
    best = max((_twin(a + 1, 0, 1, target, turns), -a) for a in (0, 1))
    assert [action for action, *_ in children] == [0, 1]
    assert children[-best[1]][1][0] == pytest.approx(best[0], abs=1e-12)
    assert expanded > 0


def test_the_example_kernel_runs_through_the_public_api(coin, require_kernels):
    """docs/kernel-abi.md's example: the coin kernel, built out of tree, is a game like any
    other: the conformance checks pass, ``solver.search.expectimax`` solves it (through the
    compiled loop, its states being kernel states) and ``mcts`` finds the best first move."""
    from solver.search import expectimax, mcts
    from solver.testing import check_random_play

    for target, turns in [(5, 3), (4, 3), (8, 4), (9, 5)]:
        game = coin.CoinGame(target, turns)
        report = check_random_play(game, seeds=range(20))
        assert report.games == 20 and report.chance_nodes > 0
        state = game.new_initial_state()
        assert kernel_of(state) is not None
        result = expectimax(state)
        assert result.exact and result.value == pytest.approx(_twin(0, 0, 0, target, turns))
        values = {a: _twin(a + 1, 0, 1, target, turns) for a in (0, 1)}
        assert {m.action: m.value for m in result.moves} == pytest.approx(values)
        best = max(values, key=lambda a: (values[a], -a))
        assert result.best_action == best and result.best_label == ("add 1", "add 2")[best]
    game = coin.CoinGame(5, 3)
    state = game.new_initial_state()
    result = mcts(state, iterations=20_000, seed=7)
    assert result.best_action == 1  # add 2: exact value 0.75, against add 1's 0.625
    assert result.value == pytest.approx(_twin(2, 0, 1, 5, 3), abs=0.03)


@pytest.mark.slow
def test_mcts_searches_a_kernel_built_against_get_include(coin, require_kernels):
    from solver._ext import mcts

    game = coin.CoinGame(5, 3)
    state = game.new_initial_state()
    handle, state_capsule = kernel_of(state)
    assert not mcts.kernel_has_heuristic(handle)  # the coin kernel leaves it NULL
    tree = mcts.Tree(game, handle, state_capsule)
    done, reason = tree.search(20_000, 0.0, 7, 1.4, mcts.EVALUATOR_ROLLOUT, 1)
    assert (done, reason) == (20_000, "iterations")
    children = {
        action: (visits, sums[0] / visits) for _, action, _, visits, sums in tree.children(0)
    }
    exact = {a: _twin(a + 1, 0, 1, 5, 3) for a in (0, 1)}
    best = max(exact, key=exact.__getitem__)
    assert max(children, key=lambda a: children[a][0]) == best
    assert children[best][1] == pytest.approx(exact[best], abs=0.02)
    with pytest.raises(ValueError, match="no heuristic"):
        tree.search(10, 0.0, 7, 0.1, mcts.EVALUATOR_HEURISTIC, 1)


@pytest.mark.slow
def test_searchers_refuse_a_vtable_declaring_too_many_actions(coin, require_kernels):
    """Expectimax's buffers hold KERNEL_MAX_ACTIONS; MCTS sizes its own by max_actions (children
    counts are 16 bits) and takes any kernel up to 65535."""
    from solver._ext import expectimax, mcts

    game = coin.CoinGame(5, 3)
    state = game.new_initial_state()
    coin._declare_max_actions(mcts.KERNEL_CONSTANTS["KERNEL_MAX_ACTIONS"] + 1)
    try:
        with pytest.raises(solver.OptionError, match="exceeds KERNEL_MAX_ACTIONS"):
            expectimax.ExpectimaxTable(game, 1 << 20)
        tree = mcts.Tree(game, *kernel_of(state))
        assert tree.search(50, 0.0, 7, 1.4, mcts.EVALUATOR_ROLLOUT, 1)[0] == 50
        coin._declare_max_actions(65536)
        with pytest.raises(ValueError, match="exceeds 65535"):
            mcts.Tree(game, *kernel_of(state))
    finally:
        coin._declare_max_actions(2)
    assert mcts.Tree(game, *kernel_of(state)).node_count == 1
