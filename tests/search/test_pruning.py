"""The pruning exact search (solver.search.pruning over solver._ext.pruning.PruningSearch).

Its twin is the plain exact expectimax (``prune=False``), which expands every node: the two
must give the same root value and the same exact value for every root move, on every curated
forest where the twin fits its cap and on rolled forests of at most 5x5. The dog kernel's
packed key is held to ``to_json`` (equal keys exactly for equal states) and to its inverse.
"""

from __future__ import annotations

import pytest

import solver
from solver.errors import OptionError, SearchBudgetError
from solver.games.dog.generator import roll_forest
from solver.games.dog.kernel import KernelDogGame
from solver.rng import SplitMix64
from solver.search import expectimax, solve
from solver.search.expectimax import ExpectimaxOptions
from solver.testing import decision_nodes, uniform_action

pytestmark = pytest.mark.usefixtures("require_kernels")

TWIN_MB = 96  # the plain search's cap here: curated forests that need more are skipped


def _compare(state, twin_mb=TWIN_MB):
    """Both searches from ``state``; False when the twin does not fit its cap."""
    try:
        twin = expectimax(state, prune=False, memory_mb=twin_mb)
    except SearchBudgetError:
        return False
    pruned = expectimax(state)
    assert pruned.extra["algorithm"] == "pruning" and twin.extra["algorithm"] == "plain"
    assert pruned.value == pytest.approx(twin.value, abs=1e-9)
    assert {m.action: m.value for m in pruned.moves} == pytest.approx(
        {m.action: m.value for m in twin.moves}, abs=1e-9
    )
    if twin.best_action is not None:
        # the best move is optimal, and the tie-break's when the fastest pass completed
        best = {m.action: m.value for m in twin.moves}[pruned.best_action]
        assert best == pytest.approx(twin.value, abs=1e-9)
        if pruned.extra["tie_break"] == "fastest":
            assert pruned.best_action == twin.best_action
            assert pruned.extra["win_weighted_plies"] == pytest.approx(
                twin.extra["win_weighted_plies"], abs=1e-9
            )
    return True


def _decision_states(game, seed, count=3):
    """The initial state and a few decision nodes along one seeded random game."""
    rng = SplitMix64(seed)
    state = game.new_initial_state()
    out = [state.clone()]
    while not state.is_terminal() and len(out) <= count:
        if not state.is_chance_node():
            out.append(state.clone())
        state.apply_action(uniform_action(state, rng))
    return out


@pytest.mark.parametrize("name", solver.puzzles.names("dog"))
def test_equals_the_twin_on_curated_forests(name):
    game = solver.load_game("dog", forest=name, engine="kernel")
    compared = 0
    for state in _decision_states(game, 11):
        compared += _compare(state)
    if not compared:
        pytest.skip(f"{name}: the plain search does not fit {TWIN_MB} MB")


def _rolled(seed):
    width, height = 3 + seed % 3, 3 + (seed // 3) % 3
    forest = roll_forest(width, height, seed=seed)
    return KernelDogGame(forest.replace(turns=3 + seed % 4))


@pytest.mark.parametrize("seed", range(30))
def test_equals_the_twin_on_rolled_forests(seed):
    game = _rolled(seed)
    for state in _decision_states(game, seed, count=2):
        assert _compare(state, twin_mb=512)


@pytest.mark.slow
@pytest.mark.parametrize("seed", range(30, 330))
def test_equals_the_twin_on_rolled_forests_slow(seed):
    game = _rolled(seed)
    for state in _decision_states(game, seed, count=2):
        assert _compare(state, twin_mb=512)


def test_pack_round_trips_and_tells_states_apart():
    for seed in range(6):
        game = (
            _rolled(seed)
            if seed % 2
            else solver.load_game("dog", forest="dog/tiny-example", engine="kernel")
        )
        keys: dict[bytes, str] = {}
        rng = SplitMix64(seed)
        for _game in range(40):
            state = game.new_initial_state()
            while True:
                key = state._packed()
                assert len(key) == game._pack_bytes
                text = state.to_json()
                assert keys.setdefault(key, text) == text  # one key, one state
                assert game._state_from_packed(key).to_json() == text
                assert game._state_from_packed(key) == state  # byte for byte
                if state.is_terminal():
                    break
                state.apply_action(uniform_action(state, rng))
        texts = list(keys.values())
        assert len(set(texts)) == len(texts)  # distinct states, distinct keys


def test_entries_fit_forty_bytes_up_to_9x9():
    from solver._ext.pruning import PruningSearch

    for seed in range(20):
        game = KernelDogGame(roll_forest(9, 9, seed=seed))
        assert PruningSearch(game, 1 << 20).entry_size <= 40


@pytest.mark.parametrize("seed", range(3))
def test_a_tiny_cap_gives_the_exact_value_or_the_cap_error(seed):
    from solver._ext.pruning import PruningSearch

    game = KernelDogGame(roll_forest(7, 7, seed=seed).replace(turns=5))
    state = game.new_initial_state()
    exact = expectimax(state, prune=False, memory_mb=256).value  # the twin: thousands of entries
    replaced = answered = 0
    for memo in ("all", "chance"):
        for memory_mb in (0.03, 0.05, 0.1, 0.2):
            search = PruningSearch(game, int(memory_mb * 2**20), memo=memo)
            try:
                value = search.value(state)
            except SearchBudgetError:
                continue
            answered += 1
            assert value == pytest.approx(exact, abs=1e-12)
            assert search.bytes <= memory_mb * 2**20
            replaced += search.replaced
    assert answered >= 4 and replaced > 0  # replacement: a cap below the table still answers
    try:  # through expectimax the cap also bounds the nodes: the value or the cap error
        assert expectimax(state, memory_mb=0.1).value == pytest.approx(exact, abs=1e-12)
    except SearchBudgetError as err:
        assert "budget" in str(err) and "memory_mb" in str(err)
    with pytest.raises(SearchBudgetError, match="memory cap"):
        expectimax(state, memory_mb=1e-5)  # below the minimal tables and stack


@pytest.mark.parametrize("name", ["dog/stick", "dog/trail-crossing", "dog/squirrel-corner"])
def test_threads_give_the_same_values(name):
    game = solver.load_game("dog", forest=name, engine="kernel")
    for state in _decision_states(game, 5, count=2):
        one = expectimax(state)
        for threads in (2, 3):
            many = expectimax(state, threads=threads)
            assert many.value == pytest.approx(one.value, abs=1e-12)
            assert [m.value for m in many.moves] == pytest.approx([m.value for m in one.moves])
            assert many.best_action == one.best_action
            again = expectimax(state, threads=threads)
            # the answer does not depend on timing (the node counts may: workers race)
            assert (again.value, again.best_action) == (many.value, many.best_action)
            assert [m.value for m in again.moves] == [m.value for m in many.moves]


def _tasks(game, seed, count):
    """Non-terminal states one or two plies below a few states of a seeded random game."""
    tasks = []
    for state in _decision_states(game, seed, count=count):
        for action in state.legal_actions():
            child = state.clone()
            child.apply_action(action)
            if not child.is_terminal():
                tasks.append(child)
    return tasks


@pytest.mark.parametrize("threads", [2, 3])
def test_shared_table_workers_equal_the_single_search(threads):
    # every worker on the whole list, one table: each value equals a fresh single-thread
    # search's (held to the plain twin above), whatever worker found it
    from solver._ext.pruning import PruningSearch

    for seed, (size, turns) in enumerate([(7, 8), (8, 6), (6, 10)]):
        game = KernelDogGame(roll_forest(size, size, seed=seed).replace(turns=turns))
        tasks = _tasks(game, seed, 2)
        alone = [PruningSearch(game, 1 << 24).value(task) for task in tasks]
        shared = PruningSearch(game, 1 << 24, threads=threads)
        assert shared.threads == threads
        assert shared.values(tasks) == pytest.approx(alone, abs=1e-12)
        assert shared.values(tasks[::-1]) == pytest.approx(alone[::-1], abs=1e-12)  # table hits
        assert shared.values([]) == []


def test_shared_table_with_colliding_keys_and_many_workers():
    # 8 hash bits: a handful of buckets, every store replacing; 4 and 8 workers contending
    from solver._ext.pruning import PruningSearch

    game = KernelDogGame(roll_forest(7, 7, seed=4).replace(turns=8))  # ~14,000 nodes
    tasks = _tasks(game, 4, 2)
    alone = [PruningSearch(game, 1 << 24).value(task) for task in tasks]
    for threads in (4, 8):
        crowded = PruningSearch(game, 1 << 24, threads=threads, hash_bits=8)
        assert crowded.values(tasks) == pytest.approx(alone, abs=1e-12)
        assert sum(crowded.worker_expanded) == crowded.expanded
        assert crowded.replaced > 0
    with pytest.raises(OptionError, match="threads"):
        PruningSearch(game, 1 << 24, threads=0)


def test_shared_table_under_a_tiny_cap_is_exact_or_refuses():
    from solver._ext.pruning import PruningSearch

    game = KernelDogGame(roll_forest(7, 7, seed=4).replace(turns=8))
    tasks = _tasks(game, 4, 1)
    exact = [PruningSearch(game, 1 << 24).value(task) for task in tasks]
    replacing = 0
    for cap in (40_000, 150_000, 400_000, 1_000_000, 2_000_000):
        try:
            small = PruningSearch(game, cap, threads=2)
            found = small.values(tasks)
        except SearchBudgetError as err:
            assert "memory cap" in str(err)  # the tables and two stacks do not fit: refused
            continue
        assert found == pytest.approx(exact, abs=1e-12)
        assert small.bytes <= cap
        replacing += small.replaced > 0
    assert replacing  # some cap was small enough to replace entries, and the values held
    with pytest.raises(SearchBudgetError, match="memory cap"):
        PruningSearch(game, 5_000, threads=2)
    budgeted = PruningSearch(game, 1 << 24, threads=2).values(tasks, max_nodes=3)
    assert any(v is None for v in budgeted)  # out of nodes: no value, never a wrong one
    pairs = zip(budgeted, exact, strict=True)
    assert all(v is None or v == pytest.approx(e, abs=1e-12) for v, e in pairs)


def test_memo_at_chance_nodes_only_gives_the_same_values():
    from solver._ext.pruning import PruningSearch

    game = solver.load_game("dog", forest="dog/trail-crossing", engine="kernel")
    for state in _decision_states(game, 3, count=3):
        every = PruningSearch(game, 1 << 24, memo="all").value(state)
        chance = PruningSearch(game, 1 << 24, memo="chance").value(state)
        unordered = PruningSearch(game, 1 << 24, order=False).value(state)
        assert every == pytest.approx(chance, abs=1e-12) and every == pytest.approx(unordered)


def test_intervals_hold_the_exact_value():
    from solver._ext.pruning import PruningSearch

    game = solver.load_game("dog", forest="dog/trail-crossing", engine="kernel")
    state = game.new_initial_state()
    exact = expectimax(state, prune=False).value
    for depth in (1, 4, 8, 16, -1):
        lo, hi = PruningSearch(game, 1 << 24).interval(state, depth)
        assert lo - 1e-12 <= exact <= hi + 1e-12
    assert PruningSearch(game, 1 << 24).interval(state, -1) == pytest.approx((exact, exact))


def test_options_are_checked():
    reference = solver.load_game("dog", forest="dog/stick", engine="reference")
    with pytest.raises(OptionError, match="prune=True needs a compiled kernel"):
        expectimax(reference.new_initial_state(), prune=True)
    with pytest.raises(OptionError, match="prune=True is the exact"):
        ExpectimaxOptions(prune=True, adversarial=True)
    for bad in (0, 65, True, 1.5):
        with pytest.raises(OptionError, match="threads"):
            ExpectimaxOptions(threads=bad)
    kernel = solver.load_game("dog", forest="dog/stick", engine="kernel")
    assert expectimax(kernel.new_initial_state(), prune=False).extra["algorithm"] == "plain"


def test_solution_follows_optimal_moves():
    game = solver.load_game("dog", forest="dog/trail-crossing", engine="kernel")
    solution = solve(game.new_initial_state())
    twin = solve(game.new_initial_state(), prune=False, memory_mb=256)
    for state in decision_nodes(game.new_initial_state(), SplitMix64(9), uniform_action):
        action = solution.best_action(state)
        child = state.clone()
        child.apply_action(action)
        assert twin.value(child) == pytest.approx(twin.value(state), abs=1e-9)
        assert solution.value(state) == pytest.approx(twin.value(state), abs=1e-9)
        state.apply_action(action)


@pytest.mark.parametrize("name", ["dog/trail-crossing", "dog/stick", "dog/puddles"])
def test_depth_limited_results_carry_a_proven_interval(name):
    game = solver.load_game("dog", forest=name, engine="kernel")
    state = game.new_initial_state()
    exact = expectimax(state, prune=False, memory_mb=256).value
    closed = False
    for depth in (2, 6, 12, 24, 48):
        result = expectimax(state, exact=False, depth=depth)
        lo, hi = result.extra["value_low"], result.extra["value_high"]
        assert lo is not None and lo - 1e-12 <= exact <= hi + 1e-12
        closed |= hi - lo < 1e-9
    assert closed  # deep enough, the interval is the exact value
    reference = solver.load_game("dog", forest=name, engine="reference").new_initial_state()
    result = expectimax(reference, exact=False, depth=4, heuristic=lambda s, k: 0.5)
    assert result.extra["value_low"] is None  # no pruning search on the reference engine


def test_the_memory_cap_bounds_the_work():
    # the table never fails (it replaces), so memory_mb also bounds the nodes expanded
    game = KernelDogGame(roll_forest(9, 9, seed=3).replace(turns=8))  # ~170,000 nodes
    state = game.new_initial_state()
    with pytest.raises(SearchBudgetError, match="budget of 100000 nodes") as info:
        expectimax(state, memory_mb=0.1)
    assert info.value.cap_bytes == int(0.1 * 2**20)
    assert expectimax(state, memory_mb=64).value == pytest.approx(
        expectimax(state, memory_mb=256, threads=2).value, abs=1e-12
    )


def test_analysis_rows_carry_proven_bounds():
    from solver.games.dog.analysis.classify import analyse_forest
    from solver.games.dog.analysis.options import AnalysisOptions

    tight = AnalysisOptions(exact_memory_mb=1e-4, mcts_games=10, mcts_iterations=20, seed=1)
    seen_mcts = 0
    for seed in range(6):
        forest = roll_forest(5, 5, seed=seed).replace(turns=4)
        exact = expectimax(KernelDogGame(forest).new_initial_state(), prune=False).value
        row = analyse_forest(forest, tight, source="x").to_row()
        assert row["value_low"] - 1e-12 <= exact <= row["value_high"] + 1e-12
        if row["exact"]:
            assert row["value_low"] == row["value_high"] == row["win_probability"]
        else:
            seen_mcts += 1
        full = analyse_forest(forest, AnalysisOptions(mcts_games=10, seed=1), source="x")
        assert full.exact and full.value_low == full.value_high == pytest.approx(exact)
    assert seen_mcts  # the tight cap sent some forest to MCTS, with proven bounds beside it
