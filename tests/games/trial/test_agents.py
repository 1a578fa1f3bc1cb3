"""The Trial's agents: ismcts and heuristic decide from their own view only, deterministically;
the generic play command reports fame through the spec's scores."""

from __future__ import annotations

import json
import random

import pytest

import solver
from solver.agents import agent_names, make_agent
from solver.cli import main
from solver.errors import OptionError
from solver.game import CHANCE
from solver.games.trial.rules import TrialGame, TrialState
from solver.rng import SplitMix64
from solver.testing import decision_nodes


def positions(players: int, seed: int, count: int) -> list[TrialState]:
    """Decision nodes with at least two legal actions along one random game."""
    rng = random.Random(seed)
    state = TrialGame(players=players).new_initial_state()
    found: list[TrialState] = []
    while not state.is_terminal() and len(found) < count:
        if state.current_player() == CHANCE:
            outcomes = state.chance_outcomes()
            state.apply_action(rng.choices([a for a, _ in outcomes], [p for _, p in outcomes])[0])
            continue
        legal = state.legal_actions()
        if len(legal) > 1 and rng.random() < 0.15:
            found.append(state.clone())
        state.apply_action(rng.choice(legal))
    return found


@pytest.mark.parametrize("name", ["heuristic", "ismcts"])
def test_an_agent_decides_from_its_own_view(name: str) -> None:
    """The same seed picks the same action in the real state and in any redeal of what the seat
    cannot see: the agent's decision does not depend on other players' hidden cards."""
    game = TrialGame(players=3)
    for state in positions(3, seed=11, count=6):
        p = state.current_player()
        world = state.resample_hidden(p, SplitMix64(5))
        assert world.observation(p) == state.observation(p)
        real = make_agent(name, game, seed=3, iterations=30)(state)
        redealt = make_agent(name, game, seed=3, iterations=30)(world)
        assert real == redealt
        assert real in state.legal_actions()


def test_ismcts_is_offered_only_with_hidden_information() -> None:
    assert "ismcts" in agent_names("trial") and "heuristic" in agent_names("trial")
    dog = solver.load_game("dog", forest="dog/tiny-2x2", engine="reference")
    with pytest.raises(OptionError, match="not supported for dog"):
        make_agent("ismcts", dog)
    with pytest.raises(OptionError, match="iterations"):
        make_agent("ismcts", TrialGame(players=2), iterations=0)


def test_the_heuristic_prefers_fame_at_the_turn_step() -> None:
    """At a turn step offering deed cards, the heuristic plays the one worth the most fame."""
    game = TrialGame(players=2)
    agent = make_agent("heuristic", game, seed=1)
    checked = 0
    for state in positions(2, seed=21, count=40):
        if state.data["stack"][-1]["step"] != "turn":
            continue
        cards = [a for a in state.legal_actions() if state.layout.family(a)[0] == "card"]
        if not cards:
            continue
        fame = {
            a: game.pack.card(state.layout.cards[state.layout.family(a)[1]])["fame"] for a in cards
        }
        choice = agent(state)
        assert choice in cards and fame[choice] == max(fame.values())
        checked += 1
    assert checked >= 2


def test_play_reports_fame_as_the_mean_score(capsys: pytest.CaptureFixture[str]) -> None:
    from solver.cli import main

    code = main(
        ["trial", "play", "--players", "4", "--agents", "ismcts,heuristic,heuristic,random",
         "--iterations", "4", "--games", "2", "--seed", "3", "--json"]
    )  # fmt: skip
    assert code == 0
    report = json.loads(capsys.readouterr().out)
    assert report["game"] == "trial" and report["games"] == 2
    rows = {row["agent"]: row for row in report["players"]}
    assert set(rows) == {"ismcts", "heuristic", "random"}
    # fame, not returns: a 4-player game's winner has far more than 1 point
    assert max(row["mean_score"] for row in rows.values()) > 1.0
    assert sum(row["wins"] for row in rows.values()) + report["ties"] == 2
    for row in rows.values():
        assert row["ci_low"] <= row["win_rate"] <= row["ci_high"]


def test_the_clairvoyant_mcts_agent_is_refused_for_the_trial(capsys):
    # the shared MCTS searches the true state: in the Trial it would read every hidden hand
    from solver.cli import main

    with pytest.raises(OptionError, match="use ismcts"):
        make_agent("mcts", solver.load_game("trial", players=2))
    code = main(["trial", "play", "--players", "2", "--agents", "mcts,random", "--games", "1"])
    err = capsys.readouterr().err
    assert code == 2 and "would read the hidden cards" in err


def test_the_heuristic_beats_random_play_in_two_player_games() -> None:
    """12 seeded two-player games, the heuristic seat alternating: it wins at least 10 (over
    64 games of `forest trial play --players 2 --agents heuristic,random --seed 0` it won all 64;
    before it weighed encounters and kept its items it won 19 of 64, below random play). It
    never drops an item or artifact it holds: dropping only loses what the object is worth."""
    from solver.agents import random_agent
    from solver.games.trial.agents import heuristic_agent
    from solver.rng import SplitMix64

    game = TrialGame(players=2)
    wins = 0.0
    for g in range(12):
        seat = g % 2
        agents = [random_agent(seed=40 + g), random_agent(seed=80 + g)]
        agents[seat] = heuristic_agent(game, seed=g)
        state = game.new_initial_state()
        for _ in decision_nodes(state, SplitMix64(g)):
            p = state.current_player()
            action = agents[p](state)
            if p == seat:
                assert not state.action_to_string(action).startswith("drop ")
            state.apply_action(action)
        wins += state.returns()[seat]
    assert wins >= 10


def test_the_playout_evaluator_leaves_the_state_alone_and_repeats_with_its_seed() -> None:
    # ISMCTS's Trial leaves: the heuristic agent's rules played on a copy, then the heuristic
    from solver.games.trial.playouts import PlayoutEvaluator
    from solver.rng import SplitMix64

    evaluator = PlayoutEvaluator(depth=30)
    for state in positions(3, seed=4, count=5):
        before = state.to_json()
        first = evaluator.evaluate(state, SplitMix64(9))
        assert state.to_json() == before
        assert first == evaluator.evaluate(state, SplitMix64(9))
        assert len(first) == 3 and all(0.0 <= v <= 1.0 for v in first)
    # no actions played: the heuristic itself
    state = positions(2, seed=1, count=1)[0]
    assert PlayoutEvaluator(depth=0).evaluate(state) == [state.heuristic(p) for p in range(2)]


def test_the_trial_ismcts_agent_is_the_playout_one_and_deterministic() -> None:
    game = TrialGame(players=2)
    state = positions(2, seed=8, count=1)[0]
    first = make_agent("ismcts", game, seed=5, iterations=16)(state)
    assert first == make_agent("ismcts", game, seed=5, iterations=16)(state)
    assert first in state.legal_actions()
    assert make_agent("ismcts", game, seed=5).__qualname__.startswith("ismcts_agent")


def test_the_playout_evaluator_is_the_shared_heavy_playout_with_the_heuristic_rules() -> None:
    # a subclass of solver.search.PlayoutEvaluator (so a compiled Trial kernel's playout_action
    # slot plays on the compiled ISMCTS), whose policy is the heuristic agent's move
    from solver.games.trial.agents import heuristic_agent
    from solver.games.trial.playouts import PLAYOUT_DEPTH, PlayoutEvaluator
    from solver.rng import SplitMix64
    from solver.search import PlayoutEvaluator as Shared

    evaluator = PlayoutEvaluator()
    assert isinstance(evaluator, Shared) and evaluator.depth == PLAYOUT_DEPTH
    for state in positions(3, seed=6, count=4):
        if state.is_chance_node():
            continue
        seed = SplitMix64(11).next_u64() >> 1
        expected = heuristic_agent(None, seed=seed)(state)
        assert evaluator.policy(state, SplitMix64(11)) == expected
        assert expected in state.legal_actions()


def test_the_declared_play_default_is_the_agents_own() -> None:
    """``GameSpec`` declares the ismcts agent's budget as a literal (the spec module imports no
    searcher); it is :data:`~solver.games.trial.playouts.PLAY_SIMULATIONS`."""
    from solver.games.trial import SPEC
    from solver.games.trial.playouts import PLAY_SIMULATIONS, PLAYOUT_DEPTH, PlayoutEvaluator

    assert SPEC.play_iterations("ismcts") == PLAY_SIMULATIONS
    assert PlayoutEvaluator().depth == PLAYOUT_DEPTH


def test_play_defaults_to_an_agent_that_does_not_read_hidden_cards(capsys):
    # Defect: `forest trial play` (and `play --human`) defaulted to the shared mcts agent, which
    # searches the real state: opponents that read every hand, the human's included.
    code = main(["trial", "play", "--players", "2", "--games", "1", "--iterations", "2", "--json"])
    out, err = capsys.readouterr()
    assert code == 0, err
    assert [p["agent"] for p in json.loads(out)["players"]] == ["ismcts"]


def test_the_exact_agent_refusal_names_an_agent_the_trial_accepts(capsys):
    """Found by a new user's pass: ``forest trial play --agent exact`` said "(use mcts)", and
    ``--agent mcts`` was then refused as reading the hidden cards; it names ismcts now."""
    from solver.cli import main

    with pytest.raises(OptionError, match=r"\(use ismcts\)"):
        make_agent("exact", solver.load_game("trial", players=2))
    code = main(["trial", "play", "--players", "2", "--agent", "exact", "--games", "1"])
    err = capsys.readouterr().err
    assert code == 2 and "(use ismcts)" in err and "use mcts" not in err
