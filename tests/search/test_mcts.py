"""Tests of the MCTS searcher (``solver.search.mcts``, ``ext/mcts.pyx``).

Convergence is checked against an exact brute-force expectimax over the protocol (max over
decisions, probability-weighted over chance outcomes, memoised on the state JSON) on tiny
forests built in code. The compiled path is tested where ``solver._ext.dog`` is built.
"""

from __future__ import annotations

import functools

import pytest

import solver
from solver import CHANCE, TERMINAL
from solver.errors import IllegalActionError, OptionError
from solver.games.dog.forest import Forest, Shouter
from solver.games.dog.forest import Terrain as T
from solver.games.dog.rules import DogGame
from solver.search.mcts import DEFAULT_C, DEFAULT_C_HEURISTIC, MCTS, MCTSTree, mcts
from solver.search.result import SearchResult
from solver.testing import best_win_probability, outcome_within

O, U, P, TREE, SQ, DOG = T.OPEN, T.UNDERGROWTH, T.PUDDLE, T.TREE, T.SQUIRREL, T.DOG  # noqa: E741
ROLLS = (10, 11, 12)  # roll: 1, 2, 3 steps

FORESTS = {
    # Two routes round a tree; the east route passes under a shout that cannot be shrugged off.
    "shout-3x3": Forest(
        width=3, height=3, cells=[[O, O, O], [U, TREE, O], [O, O, O]],
        start=(2, 0), human=(0, 2), turns=2, shouters=[Shouter(1, 2, "S", 1)],
    ),
    # A squirrel in the middle: stepping next to it costs curiosity or a forced run.
    "squirrel-3x3": Forest(
        width=3, height=3, cells=[[O, O, O], [O, SQ, O], [O, O, O]],
        start=(2, 0), human=(0, 2), turns=2,
    ),
    # Another dog, undergrowth and a shout with a real roll (number 2).
    "dog-4x3": Forest(
        width=4, height=3, cells=[[O, O, O, O], [O, TREE, DOG, O], [O, O, U, O]],
        start=(2, 0), human=(0, 3), turns=2, shouters=[Shouter(0, 1, "S", 2)],
    ),
    # Three turns, a puddle, undergrowth and a long shout up the east column.
    "puddle-4x4": Forest(
        width=4, height=4,
        cells=[[O, O, O, O], [O, TREE, U, O], [O, P, TREE, O], [O, O, O, O]],
        start=(3, 0), human=(0, 3), turns=3, shouters=[Shouter(3, 3, "N", 3)],
    ),
}  # fmt: skip


# -- helpers ------------------------------------------------------------------------------------
@functools.cache
def _exact_table(name: str, roll: int) -> tuple[float, dict[int, float]]:
    """(root value, {action: value}) after ``roll`` on forest ``name``."""
    state = DogGame(FORESTS[name]).new_initial_state()
    state.apply_action(roll)
    memo: dict[str, float] = {}
    values = {}
    for action in state.legal_actions():
        child = state.clone()
        child.apply_action(action)
        values[action] = best_win_probability(child, memo)
    return best_win_probability(state, memo), values


def _dog_state(engine, forest, *actions):
    """The dog's state on ``forest`` after ``actions``, on ``engine``."""
    state = solver.load_game("dog", forest=forest, engine=engine).new_initial_state()
    for action in actions:
        state.apply_action(action)
    return state


def _reference_state(forest, *actions):
    return _dog_state("reference", forest, *actions)


@pytest.fixture(scope="module")
def kernel(require_kernels):
    """The compiled-path states (the extension policy of ``tests/conftest.py`` applies)."""
    return functools.partial(_dog_state, "kernel")


def _assert_converged(result: SearchResult, name: str, roll: int, tolerance: float) -> None:
    value, action_values = _exact_table(name, roll)
    assert abs(result.value - value) <= tolerance, (name, roll, result.value, value)
    assert action_values[result.best_action] == pytest.approx(value, abs=1e-12), (
        f"{name} roll {roll}: chose {result.best_label} worth {action_values[result.best_action]}"
        f", the best is worth {value}"
    )


# -- the result's shape ---------------------------------------------------------------------------
def test_result_shape_on_the_reference_engine():
    state = _reference_state("dog/tiny-example", 11)
    result = mcts(state, iterations=400, seed=3)
    assert isinstance(result, SearchResult)
    assert result.exact is False
    assert result.iterations == 400
    assert result.nodes > 1
    assert result.extra["engine"] == "python"
    assert result.extra["root_visits"] == 400
    assert sorted(m.action for m in result.moves) == state.legal_actions()
    assert sum(m.visits for m in result.moves) == 399  # the first iteration expands the root
    ranked = [(-m.visits, -m.value, m.action) for m in result.moves]
    assert ranked == sorted(ranked)
    assert result.best_action == result.moves[0].action
    assert result.best_label == state.action_to_string(result.best_action)
    for move in result.moves:
        assert move.label == state.action_to_string(move.action)
        assert move.pv[0] == move.label
        assert 0.0 <= move.value <= 1.0
    assert result.value == result.moves[0].value
    assert any(label.startswith("roll: ") for label in result.moves[0].pv)  # chance in the pv
    assert result.to_dict()["moves"][0]["pv"][0] == result.best_label


def test_pv_replays_legally():
    state = _reference_state("dog/tiny-example", 12)
    result = mcts(state, iterations=2000, seed=1)
    replay = state.clone()
    for label in result.moves[0].pv:
        replay.apply_action(replay.string_to_action(label))


def test_mcts_alias():
    assert MCTS is MCTSTree
    assert DEFAULT_C == 1.4


# -- determinism --------------------------------------------------------------------------------
def test_determinism_python_adapter():
    state = _reference_state("dog/tiny-example", 11)
    first = mcts(state, iterations=300, seed=7)
    assert first.same_search(mcts(state, iterations=300, seed=7))
    others = [mcts(state, iterations=300, seed=s) for s in range(1, 5)]
    assert any(not first.same_search(o) for o in others)


def test_determinism_kernel(kernel):
    state = kernel("dog/open-meadow-9x9", 11)
    first = mcts(state, iterations=20000, seed=7)
    assert first.extra["engine"] == "kernel"
    assert first.same_search(mcts(state, iterations=20000, seed=7))
    others = [mcts(state, iterations=20000, seed=s) for s in range(1, 5)]
    assert any(not first.same_search(o) for o in others)


def test_search_does_not_change_the_state(kernel):
    for state in (kernel("dog/tiny-example", 11), _reference_state("dog/tiny-example", 11)):
        before = state.to_json()
        mcts(state, iterations=200, seed=0)
        assert state.to_json() == before


@pytest.mark.parametrize("puzzle", ["dog/tiny-example", "dog/shout-gauntlet", "dog/stick"])
@pytest.mark.parametrize("rollouts", [1, 3])
def test_paths_agree_on_the_dog_game(kernel, puzzle, rollouts):
    # Not a promise of the API (only each path's determinism is), but the adapter mirrors the
    # compiled loop step by step, and the dog engines agree on every observable: so they agree.
    ref = mcts(_reference_state(puzzle, 11), iterations=600, seed=11, rollouts=rollouts)
    ker = mcts(kernel(puzzle, 11), iterations=600, seed=11, rollouts=rollouts)
    assert ref.extra["engine"] == "python" and ker.extra["engine"] == "kernel"
    assert ref.same_search(ker)


# -- convergence to the exact value ---------------------------------------------------------------
@pytest.mark.parametrize("roll", ROLLS)
@pytest.mark.parametrize("name", sorted(FORESTS))
def test_kernel_converges_to_the_exact_value(kernel, name, roll):
    state = kernel(FORESTS[name], roll)
    result = mcts(state, iterations=100_000, seed=1)
    _assert_converged(result, name, roll, tolerance=0.02)


@pytest.mark.parametrize("roll", [11, 12])
def test_python_adapter_converges(roll):
    state = _reference_state(FORESTS["shout-3x3"], roll)
    result = mcts(state, iterations=20_000, seed=2)
    assert result.extra["engine"] == "python"
    _assert_converged(result, "shout-3x3", roll, tolerance=0.02)


@pytest.mark.slow
@pytest.mark.parametrize("roll", ROLLS)
@pytest.mark.parametrize("name", ["squirrel-3x3", "puddle-4x4"])
def test_python_adapter_converges_slow(name, roll):
    state = _reference_state(FORESTS[name], roll)
    result = mcts(state, iterations=60_000, seed=1)
    _assert_converged(result, name, roll, tolerance=0.02)


def test_heuristic_evaluator_kernel(kernel):
    state = kernel(FORESTS["shout-3x3"], 12)  # N wins for sure, E walks under the shout
    result = mcts(state, iterations=3000, seed=0, evaluator="heuristic")
    assert result.extra["evaluator"] == "heuristic"
    assert result.best_label == "N"
    assert result.value == pytest.approx(1.0, abs=0.01)  # heuristic leaves pull a little
    assert result.same_search(mcts(state, iterations=3000, seed=0, evaluator="heuristic"))


@pytest.mark.parametrize("evaluator", ["heuristic", "guided", "mixed"])
def test_heuristic_evaluator_needs_a_heuristic(evaluator):
    state = _TwoPlayerState()  # a protocol game without heuristic()
    with pytest.raises(OptionError, match=evaluator):
        mcts(state, iterations=10, evaluator=evaluator)


def test_default_c_depends_on_the_evaluator(kernel):
    state = kernel(FORESTS["shout-3x3"], 12)
    assert DEFAULT_C_HEURISTIC == 0.1
    assert mcts(state, iterations=50, evaluator="heuristic").extra["c"] == DEFAULT_C_HEURISTIC
    assert mcts(state, iterations=50).extra["c"] == DEFAULT_C
    assert mcts(state, iterations=50, evaluator="guided").extra["c"] == DEFAULT_C
    assert mcts(state, iterations=50, evaluator="heuristic", c=0.7).extra["c"] == 0.7


class _NoCapsule:
    """A kernel state without ``_state_capsule``: the pure-Python adapter searches it."""

    def __init__(self, state) -> None:
        self._s = state

    def clone(self):
        return _NoCapsule(self._s.clone())

    def __getattr__(self, name):
        if name == "_state_capsule":
            raise AttributeError(name)
        return getattr(self._s, name)


def test_guided_evaluator_kernel(kernel):
    state = kernel(FORESTS["shout-3x3"], 12)  # N wins for sure, E walks under the shout
    result = mcts(state, iterations=3000, seed=0, evaluator="guided")
    assert result.extra["evaluator"] == "guided"
    assert result.best_label == "N"
    assert result.value == pytest.approx(1.0, abs=0.02)
    assert result.same_search(mcts(state, iterations=3000, seed=0, evaluator="guided"))


def _both_paths(state, **options) -> SearchResult:
    """``mcts(state, **options)`` on the compiled loop, checked equal to the Python adapter's
    search of the same state (its protocol only); the compiled result."""
    ker = mcts(state, **options)
    ref = mcts(_NoCapsule(state), **options)
    assert ref.extra["engine"] == "python" and ker.extra["engine"] == "kernel"
    assert ref.same_search(ker)
    return ker


@pytest.mark.parametrize("evaluator", ["heuristic", "guided", "mixed"])
@pytest.mark.parametrize("rollouts", [1, 2])
def test_paths_agree_with_a_heuristic(kernel, evaluator, rollouts):
    # The adapter over the kernel state's protocol (heuristic() included) mirrors the compiled
    # loop, guided rollouts' tie-breaking included.
    for puzzle in ("dog/another-dog", "dog/stick"):
        options = {"evaluator": evaluator, "rollouts": rollouts}
        _both_paths(kernel(puzzle, 11), iterations=400, seed=5, **options)


@pytest.mark.parametrize("backup", ["max", 0.5, 0.0])
@pytest.mark.parametrize("evaluator", ["heuristic", "rollout"])
def test_paths_agree_with_a_max_backup(kernel, backup, evaluator):
    # The max backup (and, with the heuristic, the children primed at expansion) is mirrored too.
    for puzzle in ("dog/another-dog", "dog/stick", "dog/shout-gauntlet"):
        state = kernel(puzzle, 11)
        ker = _both_paths(state, iterations=500, seed=3, evaluator=evaluator, backup=backup)
        assert ker.same_search(
            mcts(state, iterations=500, seed=3, evaluator=evaluator, backup=backup)
        )
        assert ker.extra["backup"] == backup


def test_max_backup_primes_children_with_the_heuristic(kernel):
    state = kernel("dog/another-dog", 11)
    one = mcts(state, iterations=1, seed=0, evaluator="heuristic", backup="max")
    # one simulation expands the root: every child got one visit valued by the heuristic
    assert all(m.visits == 1 for m in one.moves)
    for move in one.moves:
        child = state.clone()
        child.apply_action(move.action)
        expected = child.returns()[0] if child.is_terminal() else child.heuristic(0)
        assert move.value == pytest.approx(expected)
    # the rollout evaluator is not primed: one simulation visits no child
    plain = mcts(state, iterations=1, seed=0, backup="max")
    assert all(m.visits == 0 for m in plain.moves)


@pytest.mark.parametrize("roll", ROLLS)
@pytest.mark.parametrize("name", sorted(FORESTS))
def test_kernel_max_backup_converges_to_the_exact_value(kernel, name, roll):
    state = kernel(FORESTS[name], roll)
    result = mcts(state, iterations=30_000, seed=1, evaluator="heuristic", backup="max")
    _assert_converged(result, name, roll, tolerance=0.02)


def test_bad_backup_raises():
    state = _reference_state("dog/tiny-example", 11)
    for bad in ("median", -0.1, 1.5, True, float("nan"), None):
        with pytest.raises(OptionError, match="backup"):
            mcts(state, iterations=10, backup=bad)


def test_mcts_agent_uses_the_heuristic_on_kernels(kernel, monkeypatch):
    from solver.agents import make_agent
    from solver.search import mcts as search_mcts

    seen = []
    backups = []

    def spy(state, **options):
        typed = options.get("options")  # the agent may pass an MCTSOptions or the keywords
        seen.append(typed.evaluator if typed is not None else options.get("evaluator"))
        backups.append(typed.backup if typed is not None else options.get("backup"))
        return search_mcts(state, **options)

    monkeypatch.setattr("solver.search.mcts", spy)
    # both dog engines have the heuristic (the reference's is the kernel's twin)
    for engine, expected in (("kernel", "heuristic"), ("reference", "heuristic")):
        game = solver.load_game("dog", forest="dog/tiny-3x3", engine=engine)
        state = game.new_initial_state()
        state.apply_action(12)
        agent = make_agent("mcts", game, seed=1, iterations=50)
        assert agent(state) in state.legal_actions()
        assert seen[-1] == expected
        assert backups[-1] == ("max" if expected == "heuristic" else "mean")


# -- several players: max^n --------------------------------------------------------------------
# Player 0 picks L/R, a coin lands (1/4, 3/4), player 1 picks l/r. Player 1 maximises its own
# return, so L (which would give player 0 a 1.0 if player 1 cooperated) is worth only 0.225 to
# player 0, and R is worth 0.675: max^n picks R.
_PAY = {  # (a0, coin, a1) -> (return 0, return 1)
    (0, 0, 0): (0.3, 0.9), (0, 0, 1): (1.0, 0.1), (0, 1, 0): (0.2, 0.8), (0, 1, 1): (1.0, 0.2),
    (1, 0, 0): (0.6, 0.5), (1, 0, 1): (0.0, 0.4), (1, 1, 0): (0.1, 0.3), (1, 1, 1): (0.7, 0.6),
}  # fmt: skip


class _TwoPlayerState:
    """A tiny two-player game with a chance node, over the protocol only."""

    def __init__(self, moves=()):
        self.moves = tuple(moves)

    def current_player(self):
        return (0, CHANCE, 1, TERMINAL)[len(self.moves)]

    def is_terminal(self):
        return len(self.moves) == 3

    def is_chance_node(self):
        return len(self.moves) == 1

    def legal_actions(self):
        return [[0, 1], [2, 3], [4, 5], []][len(self.moves)]

    def chance_outcomes(self):
        return [(2, 0.25), (3, 0.75)] if len(self.moves) == 1 else []

    def apply_action(self, action):
        if action not in self.legal_actions():
            raise IllegalActionError(f"action {action} is not legal")
        self.moves += (action,)

    def clone(self):
        return _TwoPlayerState(self.moves)

    def returns(self):
        if len(self.moves) < 3:
            return [0.0, 0.0]
        a0, coin, a1 = self.moves
        return list(_PAY[(a0, coin - 2, a1 - 4)])

    def action_to_string(self, action):
        return ["L", "R", "heads", "tails", "l", "r"][action]

    def to_json(self):
        return repr(self.moves)


def test_max_n_two_players():
    result = mcts(_TwoPlayerState(), iterations=20_000, seed=4)
    assert result.best_label == "R"
    assert result.value == pytest.approx(0.675, abs=0.05)
    assert result.moves[0].pv == ("R", "tails", "r")
    by_label = {m.label: m for m in result.moves}
    assert by_label["L"].value == pytest.approx(0.225, abs=0.1)
    # player 1 to move after (R, tails): it maximises its own return (r: 0.6 > l: 0.3)
    state = _TwoPlayerState((1, 3))
    result = mcts(state, iterations=500, seed=0)
    assert result.best_label == "r"
    assert result.value == pytest.approx(0.6)


# -- budgets and options -----------------------------------------------------------------------
def test_seconds_budget(kernel):
    for state in (kernel("dog/tiny-example", 11), _reference_state("dog/tiny-example", 11)):
        result = mcts(state, iterations=None, seconds=0.05, seed=0)
        assert result.extra["stopped_by"] == "seconds"
        assert result.iterations >= 1
        both = mcts(state, iterations=25, seconds=60.0, seed=0)
        assert both.extra["stopped_by"] == "iterations"
        assert both.iterations == 25


def test_a_leaf_of_many_rollouts_stops_at_the_deadline(kernel):
    # The first simulation ran all its rollouts without looking at the clock: seconds=0.2 with
    # rollouts=10**6 took 2.8 s and rollouts=2**31-1 ran for minutes (found by an attack). A
    # deadline passed at once now ends the leaf after a few rollouts: one simulation, "seconds".
    state = kernel("dog/tiny-example", 11)
    result = outcome_within(lambda: mcts(state, seconds=1e-9, rollouts=2**31 - 1, seed=0), 120)
    assert result.iterations == 1 and result.extra["stopped_by"] == "seconds"


def test_a_deadline_not_reached_changes_no_rollout(kernel):
    # The clock checks inside a leaf's rollouts draw nothing: a far deadline gives the very
    # search an iteration budget alone gives (rollouts=40: the clock is read in every leaf).
    state = kernel("dog/tiny-example", 11)
    plain = mcts(state, iterations=30, rollouts=40, seed=5)
    timed = mcts(state, iterations=30, seconds=600.0, rollouts=40, seed=5)
    assert timed.extra["stopped_by"] == "iterations"
    assert [(m.action, m.visits, m.value) for m in timed.moves] == [
        (m.action, m.visits, m.value) for m in plain.moves
    ]


def test_seconds_alone_is_the_budget_as_best_move_reads_it(kernel):
    # mcts(state, seconds=S) searched the keyword default's 1000 simulations and stopped, S
    # unused, where best_move(state, seconds=S) and mcts(limit=Limit(seconds=S)) searched S
    # (found by the new-user pass). The budget itself (no clock involved), then a search whose
    # 1000 simulations take milliseconds and so must stop by its seconds.
    from solver.search.limit import UNSET, Limit, sampling_budget

    def budget(**given: object) -> Limit:
        named = {"iterations": UNSET, "seconds": UNSET, **given}
        return sampling_budget("mcts", None, named, default_iterations=1000, refused=[], why="")

    assert (budget(seconds=5.0).iterations, budget(seconds=5.0).seconds) == (None, 5.0)
    assert budget().iterations == 1000 and budget(seconds=None).iterations == 1000
    assert budget(iterations=30, seconds=5.0).iterations == 30
    result = mcts(kernel("dog/tiny-example", 11), seconds=0.3, seed=0)
    assert result.extra["stopped_by"] == "seconds", result.iterations


@pytest.mark.parametrize(
    ("options", "match"),
    [
        ({"iterations": 0}, "iterations"),
        ({"iterations": -5}, "iterations"),
        ({"iterations": 2.5}, "iterations"),
        ({"iterations": True}, "iterations"),
        ({"iterations": None}, "budget"),
        ({"iterations": None, "seconds": 0}, "seconds"),
        ({"seconds": -1.0}, "seconds"),
        ({"seconds": float("nan")}, "seconds"),
        ({"seconds": float("inf")}, "seconds"),
        ({"seconds": "1"}, "seconds"),
        ({"seed": -1}, "seed"),
        ({"seed": 2**64}, "seed"),
        ({"seed": "7"}, "seed"),
        ({"c": -0.1}, "c must"),
        ({"c": float("nan")}, "c must"),
        ({"evaluator": "neural"}, "unknown evaluator 'neural'"),
        ({"rollouts": 0}, "rollouts"),
        ({"reuse": object()}, "reuse"),
    ],
)
def test_bad_options_raise(options, match):
    state = _reference_state("dog/tiny-example", 11)
    with pytest.raises(OptionError, match=match):
        mcts(state, **options)


def test_terminal_and_chance_roots_raise(kernel):
    for make in (_reference_state, kernel):
        with pytest.raises(OptionError, match="chance node"):
            mcts(make("dog/tiny-example"), iterations=10)
        over = make("dog/tiny-2x2", 10, 0)  # one turn, one step north: the game is lost
        assert over.is_terminal()
        with pytest.raises(OptionError, match="the game is over"):
            mcts(over, iterations=10)


def test_c_zero_and_large_budgets_work(kernel):
    state = kernel("dog/tiny-example", 11)
    assert mcts(state, iterations=500, c=0).iterations == 500
    assert mcts(state, iterations=1, seed=0).iterations == 1  # root expanded, nothing visited


# -- tree reuse ---------------------------------------------------------------------------------
def _reuse_walk(state):
    """search, advance through a move and a roll, search again: (tree, results, states)."""
    tree = MCTSTree()
    first = tree.search(state, iterations=3000, seed=5)
    best = first.best_action
    kept = next(m.visits for m in first.moves if m.action == best)
    tree.advance(best)
    state.apply_action(best)
    assert tree.root_visits == kept
    while state.is_chance_node():
        outcome = state.chance_outcomes()[0][0]
        tree.advance(outcome)
        state.apply_action(outcome)
    reused = tree.root_visits
    assert 0 < reused <= kept
    second = tree.search(state, iterations=500, seed=6)
    assert second.extra["reused_visits"] == reused
    assert second.extra["root_visits"] == reused + 500
    assert second.iterations == 500
    return tree, first, second


def test_tree_reuse_keeps_statistics_python():
    tree, _, second = _reuse_walk(_reference_state("dog/tiny-example", 11))
    assert tree.engine == "python"
    assert tree.nodes == second.nodes


def test_tree_reuse_keeps_statistics_kernel(kernel):
    tree, _, _ = _reuse_walk(kernel("dog/tiny-example", 11))
    assert tree.engine == "kernel"
    assert tree.bytes_per_node == 32  # 24-byte node + one player's value sum


def test_tree_reuse_paths_agree(kernel):
    _, r1, r2 = _reuse_walk(_reference_state("dog/tiny-example", 11))
    _, k1, k2 = _reuse_walk(kernel("dog/tiny-example", 11))
    assert r1.same_search(k1) and r2.same_search(k2)


def test_tree_reuse_through_mcts_reuse_argument(kernel):
    state = kernel("dog/tiny-example", 11)
    tree = MCTSTree()
    a = mcts(state, iterations=1000, seed=1, reuse=tree)
    b = mcts(state, iterations=1000, seed=2, reuse=tree)
    assert b.extra["reused_visits"] == 1000 and b.extra["root_visits"] == 2000
    assert sum(m.visits for m in b.moves) == sum(m.visits for m in a.moves) + 1000


def test_tree_reuse_rejects_another_state(kernel):
    for make in (_reference_state, kernel):
        tree = MCTSTree()
        tree.search(make("dog/tiny-example", 11), iterations=50)
        with pytest.raises(OptionError, match="root is not this state"):
            tree.search(make("dog/tiny-example", 12), iterations=50)
        with pytest.raises(IllegalActionError):
            tree.advance(13)  # a shout outcome at a step
        with pytest.raises(IllegalActionError):
            tree.advance(2**40)
        with pytest.raises(IllegalActionError):
            tree.advance("N")
        tree.reset()
        assert tree.nodes == 0 and tree.engine is None
        tree.advance(0)  # nothing to advance before a search
        assert tree.search(make("dog/tiny-example", 12), iterations=50).iterations == 50


def test_tree_reuse_rejects_the_other_engine(kernel):
    tree = MCTSTree()
    tree.search(kernel("dog/tiny-example", 11), iterations=50)
    with pytest.raises(OptionError, match="root is not this state"):
        tree.search(_reference_state("dog/tiny-example", 11), iterations=50)


def test_advance_to_an_unvisited_child_starts_fresh(kernel):
    for make in (_reference_state, kernel):
        state = make("dog/tiny-example", 11)
        tree = MCTSTree()
        tree.search(state, iterations=1)  # the root is expanded, no child visited
        action = state.legal_actions()[-1]
        tree.advance(action)
        state.apply_action(action)
        assert tree.root_visits == 0 and tree.nodes == 1
        while state.is_chance_node():
            outcome = state.chance_outcomes()[0][0]
            tree.advance(outcome)
            state.apply_action(outcome)
        assert tree.search(state, iterations=20).extra["reused_visits"] == 0


@pytest.mark.parametrize("engine", ["kernel", "reference"])
def test_max_nodes_stops_the_search_early_and_alike(engine):
    import solver
    from solver.search import mcts

    state = solver.load_game("dog", forest="dog/tiny-example", engine=engine).new_initial_state()
    state.apply_action(11)
    capped = mcts(state, iterations=5000, seed=2, max_nodes=300)
    assert capped.extra["stopped_by"] == "max_nodes"
    assert 1 <= capped.iterations < 5000
    assert capped.nodes <= 300
    again = mcts(state, iterations=5000, seed=2, max_nodes=300)
    assert again.same_search(capped)
    free = mcts(state, iterations=200, seed=2)
    assert free.extra["stopped_by"] == "iterations"


def test_max_nodes_must_be_positive():
    import solver
    from solver.errors import OptionError
    from solver.search import mcts

    state = solver.load_game("dog", forest="dog/tiny-example").new_initial_state()
    state.apply_action(11)
    with pytest.raises(OptionError, match="max_nodes"):
        mcts(state, iterations=10, max_nodes=0)


@pytest.mark.parametrize("engine", ["kernel", "reference"])
@pytest.mark.parametrize("memory_mb", [1e-300, 5e-324, 1e-9])
def test_a_memory_cap_under_one_node_stops_the_tree_not_lifts_the_cap(engine, memory_mb):
    """A ``memory_mb`` too small for one node is the tightest cap, never none: the compiled
    loop read the cap of 0 nodes it made as no cap, so ``memoryMb: 1e-300`` grew the tree to
    800 MB in 3 s (past the 512 MB a hint allows)."""
    state = solver.load_game("dog", forest="dog/another-dog", engine=engine).new_initial_state()
    state.apply_action(10)
    result = mcts(state, iterations=20_000, memory_mb=memory_mb, seed=1)
    assert result.extra["stopped_by"] == "max_nodes"
    assert result.iterations < 100


@pytest.mark.parametrize(("engine", "iterations"), [("kernel", 600), ("reference", 60)])
def test_most_visited_is_the_child_the_rows_rank_first(require_kernels, engine, iterations):
    """A tree's ``most_visited(node, seat)`` (read inside the compiled tree: no list of every
    child) is the row ``_most_visited`` ranks first among ``children(node)``, ties and all, at
    every expanded node and for every seat; None without children."""
    from solver.search.limit import Limit
    from solver.search.mcts import _most_visited
    from solver.search.options import MCTSOptions

    game = solver.load_game("guardians", players=2, engine=engine)
    holder = MCTSTree()
    holder._search(game.new_initial_state(), Limit(iterations=iterations), MCTSOptions(), 5, True)
    tree = holder._tree
    assert tree is not None
    nodes, checked = [tree.root_handle], 0
    while nodes:
        node = nodes.pop()
        rows = tree.children(node)
        nodes.extend(row[0] for row in rows if row[3] > 0)
        for seat in (0, 1):
            best = tree.most_visited(node, seat)
            assert best == (_most_visited(rows, seat) if rows else None), (node, seat)
            checked += bool(rows)
    assert checked > 10
