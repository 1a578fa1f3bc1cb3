"""ISMCTS (solver.search.ismcts): hidden cards stay hidden, determinism, perfect information,
budgets and errors."""

from __future__ import annotations

import json
import random
from typing import Any

import pytest

import solver
from solver.errors import OptionError
from solver.game import CHANCE, TERMINAL
from solver.rng import SplitMix64
from solver.search import Limit, MCTSOptions, expectimax
from solver.search.ismcts import ismcts


class GuessGame:
    """The toy's game: its name is its declaration's (:func:`declared_guess`)."""

    name = "guess"


@pytest.fixture(autouse=True)
def declared_guess(monkeypatch: pytest.MonkeyPatch) -> None:
    """The toy declares hidden information, as a game does (the searchers read the declaration,
    not the state's methods): registered for the test."""
    from solver import registry
    from solver.spec import GameSpec

    spec = GameSpec(name="guess", title="guess", summary="a toy", players=(2,),
                    engines={"reference": lambda **o: GuessGame()}, open=lambda *a, **k: None,
                    hidden_information=True)  # fmt: skip
    registry.registered_games()  # the built-in games first, so the toy is only added
    monkeypatch.setitem(registry._SPECS, spec.name, spec)


class Guess:
    """A two-player toy: chance deals card 0 (p = 0.7) or 1 (p = 0.3) to player 1, face down;
    player 0 guesses it (actions 10 and 11) and wins on a right guess (player 1 wins otherwise).
    Player 0's best guess is card 0 whatever was dealt: its value is 0.7."""

    def __init__(self, card: int | None = None) -> None:
        self.card = card
        self.guess: int | None = None

    def get_game(self) -> GuessGame:
        return GuessGame()

    def clone(self) -> Guess:
        twin = Guess(self.card)
        twin.guess = self.guess
        return twin

    def current_player(self) -> int:
        if self.card is None:
            return CHANCE
        return 0 if self.guess is None else TERMINAL

    def is_terminal(self) -> bool:
        return self.current_player() == TERMINAL

    def is_chance_node(self) -> bool:
        return self.current_player() == CHANCE

    def chance_outcomes(self) -> list[tuple[int, float]]:
        return [(0, 0.7), (1, 0.3)] if self.card is None else []

    def legal_actions(self) -> list[int]:
        if self.card is None:
            return [0, 1]
        return [10, 11] if self.guess is None else []

    def apply_action(self, action: int) -> None:
        if self.card is None:
            self.card = action
        else:
            self.guess = action - 10

    def action_to_string(self, action: int) -> str:
        return f"deal {action}" if self.card is None else f"guess {action - 10}"

    def returns(self) -> list[float]:
        if not self.is_terminal():
            return [0.0, 0.0]
        right = float(self.guess == self.card)
        return [right, 1.0 - right]

    def information_state_string(self, player: int) -> str:
        card = self.card if player == 1 else ("dealt" if self.card is not None else None)
        return json.dumps([card, self.guess])

    def resample_hidden(self, player: int, rng: SplitMix64) -> Guess:
        twin = self.clone()
        if player == 0 and self.card is not None:
            twin.card = 0 if rng.uniform() < 0.7 else 1
        return twin


@pytest.mark.parametrize("card", [0, 1])
def test_the_guess_ignores_the_real_card(card: int) -> None:
    """A search that peeked would guess the real card; ISMCTS guesses the likelier one, with the
    same answer whatever was dealt, and values it near 0.7."""
    result = ismcts(Guess(card), iterations=2000, seed=5, c=0.5, evaluator="rollout")
    assert result.best_label == "guess 0"
    assert result.moves[0].value == pytest.approx(0.7, abs=0.05)
    other = ismcts(Guess(1 - card), iterations=2000, seed=5, c=0.5, evaluator="rollout")
    assert other.same_search(result)


def test_a_chance_root_is_valued_from_the_observer_view() -> None:
    result = ismcts(Guess(), observer=0, iterations=3000, seed=2, c=0.3, evaluator="rollout")
    assert result.best_action is None and result.moves == ()
    assert 0.6 < result.value <= 0.7 + 0.03
    with pytest.raises(OptionError, match="name the observer"):
        ismcts(Guess(), iterations=10)


def test_determinism_and_seeds_on_the_trial() -> None:
    game = solver.load_game("trial", players=3)
    state = game.new_initial_state()
    rng = random.Random(4)
    while state.is_chance_node() or len(state.legal_actions()) < 3:
        if state.is_chance_node():
            state.apply_action(rng.choice(state.chance_outcomes())[0])
        else:
            state.apply_action(state.legal_actions()[0])
    one = ismcts(state, iterations=120, seed=9)
    two = ismcts(state, iterations=120, seed=9)
    assert one.same_search(two)
    assert one.iterations == 120 and one.extra["observer"] == state.current_player()
    assert sum(m.visits for m in one.moves) == 120
    assert {m.action for m in one.moves} <= set(state.legal_actions())
    top = ismcts(state, limit=Limit(iterations=120, top_k=2), seed=9)
    assert [m.action for m in top.moves] == [m.action for m in one.moves][:2]


def test_perfect_information_finds_an_exact_best_move() -> None:
    """Without resample_hidden the search is plain UCT: on a small dog position (exact values
    W 0.889, N 0.889, E 0.333) it picks an optimal move and visits the bad one least."""
    game = solver.load_game("dog", forest="dog/another-dog", engine="reference")
    state = game.new_initial_state()
    state.apply_action(10)
    exact = expectimax(state, exact=True)
    optimal = {m.action for m in exact.moves if m.value >= exact.value - 1e-9}
    worst = min(exact.moves, key=lambda m: m.value).action
    result = ismcts(state, iterations=2000, seed=1, evaluator="rollout", c=1.4)
    assert result.extra["hidden_information"] is False
    assert result.best_action in optimal and worst not in optimal
    assert result.moves[-1].action == worst


def test_errors_name_the_problem() -> None:
    finished = Guess(0)
    finished.apply_action(10)
    with pytest.raises(OptionError, match="game is over"):
        ismcts(finished, iterations=5)
    with pytest.raises(OptionError, match="mean"):
        ismcts(Guess(0), iterations=5, backup="max")
    with pytest.raises(OptionError, match="depth"):
        ismcts(Guess(0), limit=Limit(depth=3))
    with pytest.raises(OptionError, match="observer"):
        ismcts(Guess(0), iterations=5, observer=7)
    with pytest.raises(OptionError, match="unknown option"):
        ismcts(Guess(0), iterations=5, colour="red")
    with pytest.raises(OptionError, match="twice"):
        ismcts(Guess(0), iterations=5, options=MCTSOptions(), c=0.2)


def test_seconds_bound_stops_the_search() -> None:
    result: Any = ismcts(Guess(0), limit=Limit(seconds=0.05), seed=1, evaluator="rollout")
    assert result.iterations >= 1 and result.extra["stopped_by"] == "seconds"


def test_a_principal_variation_is_labelled_only_as_far_as_it_is_legal() -> None:
    """The compiled path labels a move's line on one determinisation of the root: a later move
    that is not legal there ends the line unlabelled (a game's labeller may fail on it, as the
    Trial's does on an action of another step), and the world it was handed is left alone."""
    from solver.search.ismcts import _labels

    class World:
        def __init__(self, legal: list[int]) -> None:
            self.legal = legal
            self.played: list[int] = []

        def legal_actions(self) -> list[int]:
            return self.legal

        def action_to_string(self, action: int) -> str:
            if action not in self.legal:
                raise IndexError(f"no label for {action}")
            return f"move {action}"

        def clone(self) -> World:
            return World(list(self.legal))

        def apply_action(self, action: int) -> None:
            self.played.append(action)
            self.legal = [action + 1]

    world = World([1, 2])
    assert _labels(world, [1, 2, 3]) == ("move 1", "move 2", "move 3")
    assert _labels(world, [2, 7]) == ("move 2",)
    assert _labels(world, [9]) == ("9",)
    assert world.played == [] and world.legal == [1, 2]
