"""MCTS root parallelism: ``mcts(state, iterations=N, seed=S, threads=T)``.

Held to an independent merge: T single-thread searches with seeds ``derive_seed(S, i)`` and the
iteration shares, their root moves' visits and value sums added by hand.
"""

from __future__ import annotations

import pytest

import solver
from solver.errors import OptionError
from solver.rng import derive_seed
from solver.search import MCTSOptions, MCTSTree, best_move, mcts

ENGINES = ("kernel", "reference")


def decision_state(engine, name="dog/tiny-example", roll=11):
    game = solver.load_game("dog", forest=name, engine=engine)
    state = game.new_initial_state()
    state.apply_action(roll)
    return state


@pytest.mark.parametrize("engine", ENGINES)
@pytest.mark.parametrize("threads", [2, 3])
def test_threads_merge_independent_trees(engine, threads):
    if engine == "kernel":
        pytest.importorskip("solver._ext.mcts")
    state = decision_state(engine)
    n, seed = 301, 7
    merged = mcts(state, iterations=n, seed=seed, threads=threads, evaluator="heuristic"
                  if engine == "kernel" else "rollout")  # fmt: skip
    visits: dict[int, int] = {}
    sums: dict[int, float] = {}
    for i in range(threads):
        share = n // threads + (1 if i < n % threads else 0)
        part = mcts(state, iterations=share, seed=derive_seed(seed, i),
                    evaluator="heuristic" if engine == "kernel" else "rollout")  # fmt: skip
        for m in part.moves:
            visits[m.action] = visits.get(m.action, 0) + m.visits
            sums[m.action] = sums.get(m.action, 0.0) + m.value * m.visits
    assert merged.iterations == n
    assert {m.action: m.visits for m in merged.moves} == visits
    for m in merged.moves:
        assert m.value == pytest.approx(
            sums[m.action] / visits[m.action] if visits[m.action] else 0
        )
    top = max(visits.values())
    assert visits[merged.best_action] == top
    assert merged.extra["threads"] == threads
    assert merged.extra["tree_seeds"] == [derive_seed(seed, i) for i in range(threads)]


def test_deterministic_for_a_seed_and_thread_count():
    state = decision_state("kernel", "dog/rolled-9x9-seed7")
    runs = [mcts(state, iterations=4000, seed=s, threads=2) for s in (5, 5)]
    assert runs[0].same_search(runs[1])
    typed = mcts(state, iterations=4000, seed=5, options=MCTSOptions(threads=2))
    assert typed.same_search(runs[0])
    one = mcts(state, iterations=4000, seed=5)
    assert one.same_search(mcts(state, iterations=4000, seed=5, threads=1))


def test_best_move_and_options_take_threads():
    state = decision_state("kernel")
    result = best_move(state, iterations=400, seed=1, threads=2)
    assert result.extra["threads"] == 2 and result.iterations == 400
    with pytest.raises(OptionError, match="threads"):
        MCTSOptions(threads=0)
    with pytest.raises(OptionError, match="at least threads"):
        mcts(state, iterations=1, threads=2)
    tree = MCTSTree()
    tree.search(state, iterations=50)
    with pytest.raises(OptionError, match="reused tree"):
        tree.search(state, iterations=50, threads=2)
