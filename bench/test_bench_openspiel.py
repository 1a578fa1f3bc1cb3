"""MCTS simulations per second: this library's compiled UCT against OpenSpiel's MCTS bots.

Contenders, all searching from the same decision node (a curated 9x9 forest after a roll of 2
steps), with UCT constant 2 and one uniformly random rollout per simulation:

- ``ours``: :func:`solver.search.mcts` on a kernel state (the compiled loop of ``ext/mcts.pyx``);
- ``openspiel-cpp``: OpenSpiel's C++ ``pyspiel.MCTSBot(...).mcts_search`` on ``forest_dog``, our
  game registered as a pyspiel *Python* game (every state call is a C++ -> Python callback into
  :mod:`solver.interop.openspiel`, which wraps the same compiled kernel);
- ``openspiel-python``: OpenSpiel's pure-Python ``open_spiel.python.algorithms.mcts.MCTSBot``
  with ``RandomRolloutEvaluator(n_rollouts=1)`` on ``forest_dog``;
- ``openspiel-cpp-pig``: for scale, OpenSpiel's C++ MCTS on its own C++ game ``pig`` (no Python
  in the loop; a different game, so only an order of magnitude).

Each contender gets its own budget so that a round takes roughly 0.1-1 s (the tree of a bigger
budget is deeper, so simulations/s drift with the budget; the ``*_same_budget`` ratios in
``extra_info`` compare ours at the OpenSpiel budgets as well). Both OpenSpiel bots run with
``solve=False`` (ours has no solver either) and are built afresh each round with the same seeds,
so every round does the same work. The ``ours`` benchmark reports the ratios ours/C++ and
ours/Python against the OpenSpiel rates measured earlier in the same run (measured on the spot if
those tests were deselected). A summary table is written to the terminal at the end of the module.

Run with ``make bench`` or::

    pytest bench/test_bench_openspiel.py --benchmark-enable -o addopts="" -p no:cacheprovider -q
"""

from __future__ import annotations

import statistics
import time
from collections.abc import Callable

import pytest

pyspiel = pytest.importorskip("pyspiel")
np = pytest.importorskip("numpy")

import solver  # noqa: E402
from solver.interop import openspiel  # noqa: E402
from solver.search.mcts import mcts  # noqa: E402

FORESTS = ("dog/rolled-9x9-seed7", "dog/open-meadow-9x9")
ROLL_2 = 11  # the roll outcome "2 steps": the root is the first step's decision
UCT_C = 2.0
SEED = 0
MEMORY_MB = 1_000  # the C++ bot's tree cap (never reached at these budgets)

N_OURS = 200_000  # ~0.3 s a round
N_CPP = 1_000  # OpenSpiel C++ MCTS on forest_dog (Python callbacks): ~0.2 s a round
N_PY = 300  # OpenSpiel Python MCTS on forest_dog: ~0.25 s a round
N_PIG = 20_000  # OpenSpiel C++ MCTS on its C++ game pig: ~0.3 s a round

ROUNDS = {"ours": 7, "openspiel-cpp": 5, "openspiel-python": 3, "openspiel-cpp-pig": 5}

# (contender, game) -> row of the summary; filled by the tests of this module, in file order.
_RESULTS: dict[tuple[str, str], dict] = {}


@pytest.fixture(scope="module", autouse=True)
def summary(request):
    """Print the simulations/s table after the module's benchmarks (outside output capture)."""
    yield
    if not _RESULTS:
        return
    lines = _summary_lines()
    capture = request.config.pluginmanager.getplugin("capturemanager")
    reporter = request.config.pluginmanager.getplugin("terminalreporter")
    if capture is not None and reporter is not None:
        with capture.global_and_fixture_disabled():
            reporter.write_line("")
            for line in lines:
                reporter.write_line(line)
    else:  # pragma: no cover - pytest without its capture manager or terminal reporter
        print("\n".join(lines))


def _summary_lines() -> list[str]:
    lines = [
        "MCTS simulations per second (median round; UCT c=2, one random rollout a simulation)",
        f"{'contender':<18} {'game / forest':<28} {'sims':>8} {'median s':>9} {'sims/s':>10}",
    ]
    for (contender, game), row in _RESULTS.items():
        lines.append(
            f"{contender:<18} {game:<28} {row['simulations']:>8} {row['median_s']:>9.4f} "
            f"{row['rate']:>10,.0f}"
        )
    for forest in FORESTS:
        ours = _RESULTS.get(("ours", forest))
        if ours is None or "ratio_ours_over_cpp" not in ours:
            continue
        lines.append(
            f"{forest}: ours/C++ = {ours['ratio_ours_over_cpp']:.0f}x "
            f"(same budget {ours['ratio_ours_over_cpp_same_budget']:.0f}x), "
            f"ours/Python = {ours['ratio_ours_over_python']:.0f}x "
            f"(same budget {ours['ratio_ours_over_python_same_budget']:.0f}x)"
        )
    return lines


# -- the positions and the searches -----------------------------------------------------------
def _our_root(forest: str):
    state = solver.load_game("dog", forest=forest, engine="kernel").new_initial_state()
    state.apply_action(ROLL_2)
    return state


def _spiel_root(forest: str):
    openspiel.register()
    game = pyspiel.load_game("forest_dog", {"forest": forest, "engine": "kernel"})
    state = game.new_initial_state()
    state.apply_action(ROLL_2)
    return game, state


def _ours(state, simulations: int) -> Callable[[], object]:
    return lambda: mcts(state, iterations=simulations, seed=SEED, c=UCT_C, rollouts=1)


def _openspiel_cpp(game, state, simulations: int) -> Callable[[], object]:
    def search():
        # pyspiel.MCTSBot(game, evaluator, uct_c, max_simulations, max_memory_mb, solve, seed,
        # verbose). Only mcts_search: MCTSBot.step() crashes on Python games in OpenSpiel 2.0.2.
        bot = pyspiel.MCTSBot(
            game,
            pyspiel.RandomRolloutEvaluator(1, SEED),
            UCT_C,
            simulations,
            MEMORY_MB,
            False,
            SEED,
            False,
        )
        return bot.mcts_search(state)

    return search


def _openspiel_python(game, state, simulations: int) -> Callable[[], object]:
    from open_spiel.python.algorithms import mcts as os_mcts

    def search():
        evaluator = os_mcts.RandomRolloutEvaluator(
            n_rollouts=1, random_state=np.random.RandomState(SEED)
        )
        bot = os_mcts.MCTSBot(
            game,
            UCT_C,
            simulations,
            evaluator,
            solve=False,
            random_state=np.random.RandomState(SEED),
        )
        return bot.mcts_search(state)

    return search


def _timed(search: Callable[[], object], times: list[float]) -> Callable[[], object]:
    def run():
        start = time.perf_counter()
        result = search()
        times.append(time.perf_counter() - start)
        return result

    return run


def _median_rate(search: Callable[[], object], simulations: int, repeat: int) -> float:
    times: list[float] = []
    run = _timed(search, times)
    for _ in range(repeat):
        run()
    return simulations / statistics.median(times)


def _bench(benchmark, contender: str, game_name: str, search, simulations: int) -> dict:
    """Benchmark ``search`` and record (and return) its row of the summary."""
    times: list[float] = []
    result = benchmark.pedantic(_timed(search, times), rounds=ROUNDS[contender], iterations=1)
    median = statistics.median(times)
    row = {
        "simulations": simulations,
        "median_s": median,
        "rate": simulations / median,
        "result": result,
    }
    _RESULTS[(contender, game_name)] = row
    benchmark.extra_info.update(
        {
            "contender": contender,
            "game": game_name,
            "simulations": simulations,
            "uct_c": UCT_C,
            "simulations_per_s": round(row["rate"]),
        }
    )
    return row


# -- the benchmarks ---------------------------------------------------------------------------
@pytest.mark.benchmark(group="mcts-openspiel-pig")
def test_bench_openspiel_cpp_on_pig(benchmark):
    game = pyspiel.load_game("pig")
    state = game.new_initial_state()
    row = _bench(benchmark, "openspiel-cpp-pig", "pig", _openspiel_cpp(game, state, N_PIG), N_PIG)
    assert row["result"].explore_count == N_PIG


#: OpenSpiel's two MCTS implementations: (name, the searcher, simulations), each in the benchmark
#: group ``mcts-<name>``.
OPENSPIEL = [
    pytest.param(name, searcher, n, marks=pytest.mark.benchmark(group=f"mcts-{name}"), id=name[10:])
    for name, searcher, n in (
        ("openspiel-cpp", _openspiel_cpp, N_CPP),
        ("openspiel-python", _openspiel_python, N_PY),
    )
]


@pytest.mark.parametrize(("name", "searcher", "n"), OPENSPIEL)
@pytest.mark.parametrize("forest", FORESTS)
def test_bench_openspiel(benchmark, forest, name, searcher, n):
    game, state = _spiel_root(forest)
    row = _bench(benchmark, name, forest, searcher(game, state, n), n)
    root = row["result"]
    assert root.explore_count == n
    assert root.best_child().action in state.legal_actions()
    pig = _RESULTS.get(("openspiel-cpp-pig", "pig"))
    if name == "openspiel-cpp" and pig is not None:
        benchmark.extra_info["ratio_pig_over_this"] = round(pig["rate"] / row["rate"], 1)


@pytest.mark.benchmark(group="mcts-ours")
@pytest.mark.parametrize("forest", FORESTS)
def test_bench_ours(benchmark, forest, require_kernels):
    state = _our_root(forest)
    row = _bench(benchmark, "ours", forest, _ours(state, N_OURS), N_OURS)
    result = row["result"]
    assert result.iterations == N_OURS and result.extra["engine"] == "kernel"

    # The baselines: the OpenSpiel rates of this run (measured here if their tests did not run).
    game, spiel_state = _spiel_root(forest)
    cpp = _RESULTS.get(("openspiel-cpp", forest))
    cpp_rate = (
        cpp["rate"]
        if cpp
        else _median_rate(_openspiel_cpp(game, spiel_state, N_CPP), N_CPP, repeat=3)
    )
    py = _RESULTS.get(("openspiel-python", forest))
    py_rate = (
        py["rate"] if py else _median_rate(_openspiel_python(game, spiel_state, N_PY), N_PY, 3)
    )
    # Ours at the OpenSpiel budgets (the same tree sizes): a smaller budget is a shallower tree.
    ours_at_cpp = _median_rate(_ours(state, N_CPP), N_CPP, repeat=21)
    ours_at_py = _median_rate(_ours(state, N_PY), N_PY, repeat=21)
    ratios = {
        "ratio_ours_over_cpp": row["rate"] / cpp_rate,
        "ratio_ours_over_python": row["rate"] / py_rate,
        "ratio_ours_over_cpp_same_budget": ours_at_cpp / cpp_rate,
        "ratio_ours_over_python_same_budget": ours_at_py / py_rate,
    }
    row.update(ratios)
    benchmark.extra_info.update(
        {
            "openspiel_cpp_simulations": N_CPP,
            "openspiel_cpp_simulations_per_s": round(cpp_rate),
            "openspiel_python_simulations": N_PY,
            "openspiel_python_simulations_per_s": round(py_rate),
            "ours_simulations_per_s_at_cpp_budget": round(ours_at_cpp),
            "ours_simulations_per_s_at_python_budget": round(ours_at_py),
            **{key: round(value, 1) for key, value in ratios.items()},
            "nodes": result.nodes,
        }
    )
