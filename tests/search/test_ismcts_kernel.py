"""The compiled ISMCTS (``ext/ismcts.pyx``) on the hidden-information test kernel ``cards``.

Held to the Python ISMCTS draw for draw (on the kernel's pure-Python twin and on the kernel's own
protocol), to exact values where the game's remaining choices are the observer's alone, and to
its information-set semantics: the answer is the same whichever hidden cards, consistent with the
observer's view, the real state holds. Also determinism, budgets, threads and the choice of path.
"""

from __future__ import annotations

import itertools
from collections import Counter
from functools import cache
from typing import Any

import pytest

from solver.errors import OptionError
from solver.rng import SplitMix64
from solver.search import Limit, mcts
from solver.search.evaluators import Evaluator, PlayoutEvaluator
from solver.search.ismcts import deal_seed, ismcts
from solver.testing import outcome_within

pytestmark = pytest.mark.usefixtures("declared_cards")  # the cards games hide information

EVALUATORS = ["rollout", "heuristic", "guided", "mixed", PlayoutEvaluator(6)]
FOLLOW = 2  # the cards kernel's phase of the trick's second card


def _play(state: Any, actions: list[int]) -> Any:
    for a in actions:
        state.apply_action(a)
    return state


def _pair(cards: Any, twin: Any, n: int, hand: int, actions: list[int]) -> tuple[Any, Any]:
    """The kernel state and the twin after the same actions."""
    return (
        _play(cards.CardsGame(n, hand).new_initial_state(), actions),
        _play(twin.CardsTwin(n, hand), actions),
    )


def _random_line(game_state: Any, seed: int, decisions: int) -> list[int]:
    """Actions of a seeded random game from ``game_state`` until ``decisions`` decisions were made
    (or the game nearly ends), stopping at a decision node with a choice."""
    rng = SplitMix64(seed)
    state = game_state.clone()
    line: list[int] = []
    made = 0
    while not state.is_terminal():
        legal = state.legal_actions()
        if not state.is_chance_node() and len(legal) > 1 and made >= decisions:
            return line
        if not state.is_chance_node():
            made += 1
        line.append(legal[rng.below(len(legal))])
        state.apply_action(line[-1])
    raise AssertionError("the line ran to the end of the game")


# -- the compiled loop is the Python tree's twin ------------------------------------------------
@pytest.mark.parametrize("evaluator", EVALUATORS, ids=str)
@pytest.mark.parametrize("threads", [1, 2])
def test_compiled_equals_the_python_ismcts(cards, cards_twin, evaluator, threads):
    """Same tree, same draws: the compiled search on the kernel, the Python search on the twin and
    the Python search on the kernel's protocol give the same result, field for field."""
    for seed, (n, hand, decisions) in enumerate([(8, 2, 0), (10, 3, 1), (12, 3, 3)]):
        start = cards.CardsGame(n, hand).new_initial_state()
        line = _random_line(start, seed, decisions)
        kernel, twin = _pair(cards, cards_twin, n, hand, line)
        options = {"iterations": 600, "seed": 11 + seed, "evaluator": evaluator, "c": 0.7}
        compiled = ismcts(kernel, threads=threads, **options)
        python = ismcts(twin, threads=threads, **options)
        protocol = ismcts(kernel, threads=threads, compiled=False, **options)
        assert compiled.extra["compiled"] and not python.extra["compiled"]
        assert not protocol.extra["compiled"] and compiled.extra["hidden_information"]
        assert compiled.same_search(python), (compiled.moves, python.moves)
        assert python.same_search(protocol)
        assert compiled.iterations == 600 and sum(m.visits for m in compiled.moves) == 600
        assert {m.action for m in compiled.moves} == set(kernel.legal_actions())


def test_a_chance_root_is_searched_the_same_way(cards, cards_twin):
    kernel, twin = _pair(cards, cards_twin, 8, 2, [0, 5])  # two of the four deals made
    for observer in (0, 1):
        compiled = ismcts(kernel, observer=observer, iterations=500, seed=4, evaluator="rollout")
        python = ismcts(twin, observer=observer, iterations=500, seed=4, evaluator="rollout")
        assert compiled.same_search(python)
        assert compiled.moves == () and compiled.best_action is None
        assert 0.0 < compiled.value < 1.0


# -- exact values -------------------------------------------------------------------------------
def _outcome(twin: Any, player: int) -> float:
    """The return of ``player`` once every remaining choice is forced."""
    state = twin.clone()
    while not state.is_terminal():
        (only,) = state.legal_actions()
        state.apply_action(only)
    return state.returns()[player]


def _outcomes(twin: Any) -> dict[int, list[float]]:
    """Each move's outcome in every equally likely deal of the cards the player to move has not
    seen, when the move is the game's last choice."""
    me = twin.current_player()
    other = 1 - me
    unseen = sorted(set(range(twin.cards)) - twin.hands[me] - set(twin.plays))
    size = len(twin.hands[other])
    values = {}
    for move in twin.legal_actions():
        outcomes = []
        for held in itertools.combinations(unseen, size):
            world = twin.clone()
            world.hands[other] = set(held)
            world.deck = set(unseen) - set(held)
            world.apply_action(move)
            outcomes.append(_outcome(world, me))
        values[move] = outcomes
    return values


def _exact_values(twin: Any) -> dict[int, float]:
    """The value of each move at the game's last choice: its mean outcome over the deals."""
    return {move: sum(out) / len(out) for move, out in _outcomes(twin).items()}


@cache
def _last_choices(cards: Any, twin: Any) -> list[list[int]]:
    """Lines to the last free choice of a game of 7 cards and 2 a hand (one card never dealt):
    the follower of the next-to-last trick, holding two cards, whose moves differ in value and
    one of them has different outcomes in the two deals it cannot tell apart."""
    found = []
    for seed in range(400):
        rng = SplitMix64(seed)
        state = twin.CardsTwin(7, 2)
        line: list[int] = []
        while not state.is_terminal():
            if (
                state.phase == FOLLOW
                and len(state.hands[state.current_player()]) == 2
                and len(state.deck) < 2
            ):
                outcomes = _outcomes(state).values()
                values = sorted(sum(out) / len(out) for out in outcomes)
                if values[0] < values[1] and any(len(set(out)) > 1 for out in outcomes):
                    found.append(line)
                break
            legal = state.legal_actions()
            line.append(legal[rng.below(len(legal))])
            state.apply_action(line[-1])
        if len(found) == 6:
            return found
    raise AssertionError("too few positions")


def test_the_last_choice_converges_to_its_exact_value(cards, cards_twin):
    """When the observer's move is the game's last choice, ISMCTS's value of each move converges
    to its mean over the deals the observer cannot tell apart, and it picks the best."""
    for line in _last_choices(cards, cards_twin):
        kernel, twin = _pair(cards, cards_twin, 7, 2, line)
        exact = _exact_values(twin)
        result = ismcts(kernel, iterations=4000, seed=2, evaluator="rollout", c=0.5)
        best = max(exact.values())
        assert exact[result.best_action] == pytest.approx(best)
        assert result.value == pytest.approx(best, abs=0.04)
        for move in result.moves:
            if move.visits >= 500:
                assert move.value == pytest.approx(exact[move.action], abs=0.08)


def test_redeals_are_uniform_over_the_deals_the_observer_cannot_tell_apart(cards):
    """The kernel's resample_hidden: every card the observer has not seen lands in the other
    hand with probability (its size) / (cards unseen), the observer's view unchanged."""
    state = _play(cards.CardsGame(10, 3).new_initial_state(), [0, 5, 9, 2, 3, 7])
    view = state.view(0)
    unseen = [c for c in range(10) if c not in state.hand_of(0)]
    counts = dict.fromkeys(unseen, 0)
    rng = SplitMix64(1)
    trials = 7000
    for _ in range(trials):
        world = state.resample_hidden(0, rng)
        assert world.view(0) == view and world.information_key(0) == state.information_key(0)
        assert sorted(world.hand_of(1) + world.deck()) == unseen
        for c in world.hand_of(1):
            counts[c] += 1
    expected = trials * 3 / len(unseen)
    assert all(
        abs(k - expected) < 5 * (expected * (1 - 3 / len(unseen))) ** 0.5 for k in counts.values()
    )


# -- information sets: the hidden cards are never read -------------------------------------------
def _consistent_deals(state: Any, observer: int) -> list[Any]:
    """Every state that differs from ``state`` only in the cards ``observer`` cannot see."""
    other = 1 - observer
    pool = sorted(state.hand_of(other) + state.deck())
    size = len(state.hand_of(other))
    out = []
    for held in itertools.combinations(pool, size):
        rest = [c for c in pool if c not in held]
        hands = [None, None]
        hands[observer], hands[other] = state.hand_of(observer), list(held)
        out.append(state.with_cards(hands[0], hands[1], rest))
    return out


@pytest.mark.parametrize("compiled", [True, False])
def test_the_answer_does_not_depend_on_the_hidden_cards(cards, compiled):
    """Every deal of the hidden cards consistent with the observer's view gives the same search,
    where a search that reads them (plain MCTS on the true state) gives different answers."""
    start = cards.CardsGame(8, 2).new_initial_state()
    state = _play(start, [1, 6, 4, 2])  # player 0 holds 1 and 4 and leads
    worlds = _consistent_deals(state, 0)
    assert len(worlds) == 15 and all(w.view(0) == state.view(0) for w in worlds)
    budget = 2000 if compiled else 300
    results = [
        ismcts(w, iterations=budget, seed=3, evaluator="rollout", compiled=compiled) for w in worlds
    ]
    assert all(r.same_search(results[0]) for r in results)
    peeking = {tuple(mcts(w, iterations=budget, seed=3, clairvoyant=True).moves) for w in worlds}
    assert len(peeking) > 1


def test_the_answer_does_not_depend_on_the_hidden_cards_later_in_the_game(cards):
    start = cards.CardsGame(12, 3).new_initial_state()
    for seed in range(3):
        line = _random_line(start, seed, 3)
        state = _play(start.clone(), line)
        observer = state.current_player()
        worlds = _consistent_deals(state, observer)[:12]
        results = [
            ismcts(w, iterations=800, seed=seed, evaluator=PlayoutEvaluator(8), threads=2)
            for w in worlds
        ]
        assert all(r.same_search(results[0]) for r in results)


# -- determinism, budgets, threads ----------------------------------------------------------------
def _position(cards: Any) -> Any:
    start = cards.CardsGame(12, 3).new_initial_state()
    return _play(start, _random_line(start, 5, 2))


def test_determinism_and_seeds(cards):
    state = _position(cards)
    one = ismcts(state, iterations=3000, seed=9, threads=2)
    assert one.same_search(ismcts(state, iterations=3000, seed=9, threads=2))
    assert not one.same_search(ismcts(state, iterations=3000, seed=10, threads=2))
    assert one.extra["threads"] == 2 and one.iterations == 3000
    assert one.extra["evaluator"] == "playout" and one.extra["c"] == 0.4


def test_the_default_leaf_is_the_heavy_playout_where_the_state_has_a_policy(cards, cards_twin):
    """``ismcts_options``: heavy playouts on a kernel filling ``playout_action`` (and on a Python
    state with ``playout_action``), else the heuristic, else random rollouts."""
    import solver
    from solver.search.ismcts import has_playout_policy, ismcts_options

    kernel, twin = _pair(cards, cards_twin, 8, 2, [0, 1, 2, 3])
    dog = solver.load_game("dog", forest="dog/tiny-example", engine="kernel").new_initial_state()
    trial = solver.load_game("trial", players=2, engine="reference").new_initial_state()
    assert has_playout_policy(kernel) and has_playout_policy(twin)
    assert not has_playout_policy(dog) and not has_playout_policy(trial)
    assert isinstance(ismcts_options(kernel).evaluator, PlayoutEvaluator)
    assert ismcts_options(dog).evaluator == ismcts_options(trial).evaluator == "heuristic"
    assert ismcts(kernel, iterations=50, seed=1).same_search(ismcts(twin, iterations=50, seed=1))


def test_threads_merge_the_trees_of_derived_seeds(cards):
    """Root parallelism: the merge of the trees ``derive_seed(seed, i)`` would grow alone."""
    from solver.rng import derive_seed

    state = _position(cards)
    both = ismcts(state, iterations=1001, seed=4, threads=2, evaluator="rollout")
    parts = [
        ismcts(state, iterations=share, seed=derive_seed(4, i), evaluator="rollout")
        for i, share in enumerate((501, 500))
    ]
    assert both.extra["tree_seeds"] == [derive_seed(4, 0), derive_seed(4, 1)]
    assert both.nodes == sum(p.nodes for p in parts)
    visits = {m.action: m.visits for m in both.moves}
    for action in visits:
        assert visits[action] == sum(m.visits for p in parts for m in p.moves if m.action == action)
    with pytest.raises(OptionError, match="at least threads"):
        ismcts(state, iterations=1, threads=2)


def test_budgets_are_honoured(cards):
    state = _position(cards)
    timed = ismcts(state, limit=Limit(seconds=0.2), seed=1, evaluator=PlayoutEvaluator())
    assert timed.extra["stopped_by"] == "seconds" and timed.iterations >= 1
    both = ismcts(state, iterations=10**9, seconds=0.1, seed=1, threads=2)
    assert both.extra["stopped_by"] == "seconds" and both.iterations < 10**9
    python = ismcts(state, limit=Limit(seconds=0.1), threads=2, compiled=False, evaluator="rollout")
    assert python.extra["stopped_by"] == "seconds" and python.extra["threads"] == 2
    capped = ismcts(state, iterations=10**6, max_nodes=500, seed=1)
    assert capped.extra["stopped_by"] == "max_nodes"
    assert 500 <= capped.nodes < 500 + 4 * 12  # one simulation's new nodes past the cap at most


def test_a_leaf_of_many_rollouts_stops_at_the_deadline(cards):
    # As MCTS's (tests/search/test_mcts.py): the rollouts of one leaf ignored the deadline, so
    # rollouts=2**31-1 ran for minutes; a passed deadline now cuts them after a few. A far
    # deadline draws nothing more: the search of the iteration budget alone.
    state = _position(cards)
    cut = outcome_within(
        lambda: ismcts(state, seconds=1e-9, evaluator="rollout", rollouts=2**31 - 1, seed=1), 120
    )
    assert cut.iterations == 1 and cut.extra["stopped_by"] == "seconds"
    plain = ismcts(state, iterations=40, evaluator="rollout", rollouts=40, seed=1)
    timed = ismcts(state, iterations=40, seconds=600.0, evaluator="rollout", rollouts=40, seed=1)
    assert timed.extra["stopped_by"] == "iterations"
    assert [(m.action, m.visits, m.value) for m in timed.moves] == [
        (m.action, m.visits, m.value) for m in plain.moves
    ]
    top = ismcts(state, iterations=400, seed=1, top_k=2)
    assert [m.action for m in top.moves] == [
        m.action for m in ismcts(state, iterations=400, seed=1).moves
    ][:2]


def test_deal_streams():
    """The deals' generator is seeded apart from the tree's; its shuffle is a permutation, the
    same for the same seed, each order about equally likely."""
    first, second = list(range(20)), list(range(20))
    SplitMix64(3).shuffle(first)
    SplitMix64(3).shuffle(second)
    assert first == second != list(range(20)) and sorted(first) == list(range(20))
    assert deal_seed(0) != 0 and deal_seed(deal_seed(5)) == 5
    orders = Counter()
    rng = SplitMix64(9)
    for _ in range(6000):
        cards = [0, 1, 2]
        rng.shuffle(cards)
        orders[tuple(cards)] += 1
    assert len(orders) == 6 and all(
        abs(n - 1000) < 5 * (1000 * 5 / 6) ** 0.5 for n in orders.values()
    )


# -- which path searches --------------------------------------------------------------------------
class _Custom(Evaluator):
    def evaluate(self, state: Any, rng: SplitMix64 | None = None) -> list[float]:
        return [0.5, 0.5]


def test_a_custom_evaluator_on_a_kernel_state_needs_the_python_path(cards):
    state = _position(cards)
    with pytest.raises(OptionError, match="compiled=False"):
        ismcts(state, iterations=50, evaluator=_Custom())
    result = ismcts(state, iterations=50, evaluator=_Custom(), compiled=False)
    assert result.value == 0.5 and not result.extra["compiled"]


def test_compiled_true_refuses_a_python_state(cards_twin):
    with pytest.raises(OptionError, match="compiled-kernel state"):
        ismcts(_play(cards_twin.CardsTwin(8, 2), [0, 1, 2, 3]), iterations=10, compiled=True)
    with pytest.raises(OptionError, match="compiled must be"):
        ismcts(_play(cards_twin.CardsTwin(8, 2), [0, 1, 2, 3]), iterations=10, compiled="yes")


def test_a_kernel_without_the_hidden_slots_is_searched_by_the_python_tree(cards):
    """A kernel state that redeals only in Python (its table leaves the slots empty): the
    Python ISMCTS searches it, and compiled=True names the missing slots."""
    state = _position(cards)
    expected = ismcts(state, iterations=300, seed=2, compiled=False, evaluator="heuristic")
    cards._declare_hidden_slots(False)
    try:
        result = ismcts(state, iterations=300, seed=2, evaluator="heuristic")
        assert not result.extra["compiled"] and result.same_search(expected)
        with pytest.raises(OptionError, match="information_state_key, resample_hidden"):
            ismcts(state, iterations=300, compiled=True)
    finally:
        cards._declare_hidden_slots(True)
    assert ismcts(state, iterations=300, seed=2).extra["compiled"]


def test_the_playout_evaluator_needs_a_policy(cards_twin):
    class NoPolicy(cards_twin.CardsTwin):
        playout_action = None

    state = _play(NoPolicy(8, 2), [0, 1, 2, 3])
    with pytest.raises(OptionError, match="playout_action"):
        ismcts(state, iterations=10, evaluator=PlayoutEvaluator())

    class OwnPolicy(PlayoutEvaluator):
        def policy(self, state: Any, rng: SplitMix64) -> int:
            return int(state.legal_actions()[0])

    assert ismcts(state, iterations=10, evaluator=OwnPolicy(4)).iterations == 10

    class OwnPlayout(PlayoutEvaluator):
        def evaluate(self, state: Any, rng: SplitMix64 | None = None) -> list[float]:
            return [0.25, 0.75]

    assert ismcts(state, iterations=10, evaluator=OwnPlayout()).value == 0.25
    with pytest.raises(OptionError, match="depth"):
        PlayoutEvaluator(-1)


def test_labels_and_principal_variations_show_only_the_observer_moves(cards):
    state = _position(cards)
    result = ismcts(state, iterations=500, seed=1)
    assert result.best_label == f"play {result.best_action}"
    for move in result.moves:
        assert move.pv[0] == move.label and all(p.startswith("play ") for p in move.pv)


def test_seeds_give_different_deal_streams_to_each_tree(cards):
    """The trees of a root-parallel search redeal from their own streams."""
    state = _position(cards)
    worlds = [state.resample_hidden(0, SplitMix64(deal_seed(s))).hand_of(1) for s in range(6)]
    assert len({tuple(w) for w in worlds}) > 1


# -- availability counts ---------------------------------------------------------------------
def test_availability_counts_the_visits_where_an_action_was_legal(cards, cards_twin):
    """Below the observer's lead the follower's legal actions are its hand in each redeal: an
    edge's availability counts the node's visits in which its card was dealt to the follower
    (about 2 in 6 here, the redeal being uniform), never fewer than the edge's own visits; the
    compiled tree holds the Python tree's counts edge for edge."""
    from solver.search.evaluators import RolloutEvaluator
    from solver.search.ismcts import ISMCTSTree
    from solver.search.ismcts_kernel import KernelTree, plan

    kernel, twin = _pair(cards, cards_twin, 8, 2, [0, 5, 1, 6])  # player 0 holds 0 and 1, leads
    chosen = plan(kernel, RolloutEvaluator(), None)
    compiled = KernelTree(kernel, chosen, 0)
    compiled.search(seed=7, deal_seed=deal_seed(7), iterations=6000, seconds=None, c=0.7,
                    max_nodes=10**7)  # fmt: skip
    python = ISMCTSTree(twin, 0, 2)
    python.search(SplitMix64(7), SplitMix64(deal_seed(7)), iterations=6000, seconds=None,
                  evaluator=RolloutEvaluator(), c=0.7, max_nodes=10**7)  # fmt: skip
    tree = compiled.tree
    for lead in (0, 1):
        node = tree.child_by_action(0, lead)
        edges = tree.edges_of(node)
        theirs = python.root.children[lead].edges
        assert [(a, v, avail) for a, v, avail, _ in edges] == [
            (a, theirs[a][0], theirs[a][1]) for a in sorted(theirs)
        ]
        assert {a for a, *_ in edges} == {2, 3, 4, 5, 6, 7}  # every card it has not seen
        visits = tree.visits(node)
        for _action, edge_visits, availability, _sums in edges:
            assert edge_visits <= availability <= visits
            assert availability / visits == pytest.approx(2 / 6, abs=0.04)


@pytest.mark.parametrize("compiled", [True, False])
def test_a_simulation_grows_one_node_at_most(cards, compiled):
    """The walk stops at the first node it creates, chance outcomes included: from a chance root
    (every deal a new outcome at first) as from a decision, at most one node a simulation."""
    start = cards.CardsGame(12, 3).new_initial_state()
    positions = [(start, 0), (_play(start.clone(), [0, 5]), 1), (_position(cards), None)]
    for state, observer in positions:
        for multi in (False, True):
            result = ismcts(state, observer=observer, iterations=300, seed=1, compiled=compiled,
                            multiple_observers=multi)  # fmt: skip
            trees = 2 if multi else 1
            assert result.nodes <= 300 * trees + trees
