"""Tests of the one-call answers (``solver.best_move``, ``solver.evaluate``) and the strong options.

``best_move`` must search with what the ``mcts`` agent plays; ``evaluate`` must honour its budget
at chance nodes (one search, however many chance nodes follow) and agree with the exact value.
"""

from __future__ import annotations

import pytest

import solver
from solver.search import MCTSOptions, MCTSTree, best_move, evaluate, mcts, strong_mcts_options
from solver.search.mcts import DEFAULT_ITERATIONS

ISOLATED = "grid:\n@ T H\nT . .\n"  # the dog is walled in: every turn is a roll and nothing else


def _game(engine: str, forest):
    return solver.load_game("dog", forest=forest, engine=engine)


@pytest.fixture
def isolated(tmp_path):
    path = tmp_path / "iso.forest"
    path.write_text(ISOLATED, encoding="utf-8")
    return str(path)


def test_strong_options_follow_the_heuristic(require_kernels):
    assert strong_mcts_options(_game("kernel", "dog/stick").new_initial_state()) == MCTSOptions(
        c=0.1, evaluator="heuristic", backup="max"
    )
    # the reference has the kernel's heuristic (its twin): the same strong options
    assert strong_mcts_options(_game("reference", "dog/stick").new_initial_state()) == MCTSOptions(
        c=0.1, evaluator="heuristic", backup="max"
    )
    # a state without heuristic(): one random rollout a leaf, the mean backup
    from tests.search.test_mcts import _TwoPlayerState

    assert strong_mcts_options(_TwoPlayerState()) == MCTSOptions(
        c=1.4, evaluator="rollout", backup="mean"
    )


@pytest.mark.parametrize("engine", ["kernel", "reference"])
def test_best_move_plays_the_strong_options(engine):
    state = _game(engine, "dog/stick").new_initial_state()
    state.apply_action(11)
    result = best_move(state, iterations=400, seed=3)
    strong = mcts(state, iterations=400, seed=3, options=strong_mcts_options(state))
    assert result.same_search(strong)
    assert result.iterations == 400
    assert best_move(state, seed=3).iterations == DEFAULT_ITERATIONS
    # any MCTS option replaces the strong configuration whole: the keyword means what mcts() says
    plain = best_move(state, iterations=400, seed=3, evaluator="rollout")
    assert plain.same_search(mcts(state, iterations=400, seed=3))


def test_best_move_matches_the_mcts_agent(monkeypatch, require_kernels):
    # the agent builds its options from strong_mcts_options (or the same values as keywords)
    from solver.agents import make_agent

    game = _game("kernel", "dog/another-dog")
    state = game.new_initial_state()
    state.apply_action(11)
    calls = []
    real = solver.search.mcts

    def spy(state, **options):
        result = real(state, **options)
        calls.append((options, result))
        return result

    monkeypatch.setattr("solver.search.mcts", spy)
    make_agent("mcts", game, seed=0, iterations=300)(state)
    options, agent_result = calls[-1]
    ours = best_move(state, iterations=300, seed=options["seed"])
    assert ours.same_search(agent_result)


@pytest.mark.parametrize("engine", ["kernel", "reference"])
def test_evaluate_honours_its_budget_where_only_dice_follow(engine, isolated, monkeypatch):
    # 20 turns of rolls and nothing else: 3**20 chance paths. One search of 50 simulations.
    state = _game(engine, isolated).new_initial_state()
    assert state.is_chance_node()
    runs = []
    real = MCTSTree._search

    def spy(self, *args, **kwargs):
        result = real(self, *args, **kwargs)
        runs.append(result)
        return result

    monkeypatch.setattr(MCTSTree, "_search", spy)
    assert evaluate(state, iterations=50) == 0.0  # the human is out of reach: lost for sure
    assert [r.iterations for r in runs] == [50]
    assert evaluate(state) == 0.0  # the default budget
    assert runs[-1].iterations == DEFAULT_ITERATIONS
    assert solver.evaluate(state, exact=True) == 0.0


@pytest.mark.parametrize("engine", ["kernel", "reference"])
@pytest.mark.parametrize("forest", ["dog/stick", "dog/tiny-3x3"])
def test_evaluate_at_a_chance_node_estimates_the_exact_value(engine, forest):
    state = _game(engine, forest).new_initial_state()
    exact = evaluate(state, exact=True)
    assert evaluate(state, iterations=20_000, seed=1) == pytest.approx(exact, abs=0.03)
    # a later chance node too: after a roll and a move, before the next roll
    state.apply_action(12)
    state.apply_action(state.legal_actions()[0])
    while not state.is_chance_node() and not state.is_terminal():
        state.apply_action(state.legal_actions()[0])
    if not state.is_terminal():
        exact = evaluate(state, exact=True)
        assert evaluate(state, iterations=20_000, seed=2) == pytest.approx(exact, abs=0.03)


def test_evaluate_at_a_decision_node_is_the_best_moves_value(require_kernels):
    state = _game("kernel", "dog/stick").new_initial_state()
    state.apply_action(11)
    value = evaluate(state, iterations=3000, seed=4)
    assert value == best_move(state, iterations=3000, seed=4).value
    assert value == pytest.approx(evaluate(state, exact=True), abs=0.02)


def test_evaluate_is_deterministic():
    state = _game("reference", "dog/tiny-3x3").new_initial_state()
    assert evaluate(state, iterations=500, seed=7) == evaluate(state, iterations=500, seed=7)


def test_best_move_default_budget_only_without_one(require_kernels):
    state = _game("kernel", "dog/stick").new_initial_state()
    state.apply_action(11)
    assert best_move(state, iterations=None).iterations == DEFAULT_ITERATIONS
    timed = best_move(state, seconds=0.2)  # a time alone is a budget: no iteration cap added
    assert timed.extra["stopped_by"] == "seconds"
    assert timed.iterations > DEFAULT_ITERATIONS
    assert best_move(state, iterations=200, seconds=60.0).iterations == 200


@pytest.mark.parametrize("game", ["dog", "guardians", "trial"])
def test_a_chance_root_is_refused_in_words_true_of_every_game(game):
    # the shared searchers named the dog's chance for every game: `best_move` at a new guardians
    # game said "the dice roll next" (its chance draws tiles); one message now, in every searcher
    from solver.search.answers import hidden_best_move
    from solver.search.mcts import chance_root_message

    options = {"forest": "dog/stick"} if game == "dog" else {}
    state = solver.load_game(game, engine="reference", **options).new_initial_state()
    assert state.is_chance_node()
    count = len(state.chance_outcomes())
    calls = [lambda: mcts(state, iterations=10, seed=0)]
    if game == "trial":  # hidden cards: plain MCTS refuses it first, ISMCTS is the answer
        calls = [lambda: hidden_best_move(state, iterations=10, seed=0)]
    else:
        calls.append(lambda: best_move(state, iterations=10, seed=0))
    for call in calls:
        with pytest.raises(solver.errors.OptionError) as refused:
            call()
        message = str(refused.value)
        assert message == chance_root_message(state)
        assert f"one of {count} outcomes" in message and "dice" not in message
