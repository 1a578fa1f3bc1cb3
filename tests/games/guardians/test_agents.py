"""Guardians' agents: the game's own ``mcts`` replaces the shared one; its mission steps follow
the best mission order (checked against the exhaustive search and a hand-derived answer)."""

from __future__ import annotations

import json
import subprocess
import sys

import solver
from solver.agents import agent_names, make_agent
from solver.games.guardians.actions import END_TURN
from solver.games.guardians.grove_format import parse_grove
from solver.games.guardians.mission_order_search import best_order, first_legal_order
from solver.games.guardians.rules import Phase

CHAIN = "grid:\n[GR]b G:BB R:BB Y:BB\n. . [YR]g .\n"


def _play_missions(agent, state):
    steps = []
    while state.phase == Phase.MISSIONS:
        action = agent(state)
        if action == END_TURN:
            break
        steps.append(state.action_to_string(action))
        state.apply_action(action)
    return steps


def test_game_agent_named_mcts_wins_over_the_shared_one():
    game = solver.load_game("guardians", position=parse_grove(CHAIN))
    agent = make_agent("mcts", game, seed=3, iterations=5)
    assert agent.__module__ == "solver.games.guardians.agent"
    assert agent_names("guardians").count("mcts") == 1
    # the dog keeps the shared mcts
    dog = solver.load_game("dog", forest="dog/tiny-2x2", engine="reference")
    assert make_agent("mcts", dog, iterations=5).__module__ == "solver.search.agents"


def test_mcts_mission_steps_play_the_best_order():
    # hand-derived: the green chain then blue gives 2 missions (6 points); blue first only 1
    game = solver.load_game("guardians", position=parse_grove(CHAIN))
    state = game.new_initial_state()
    assert first_legal_order(state).count == 1
    steps = _play_missions(make_agent("mcts", game, iterations=5), state)
    assert steps == [
        "walk green pawn: (1,2) -> (0,2) (0,3)",
        "walk blue pawn: (0,0) -> (0,1) (0,2)",
    ]
    assert state.legal_actions() == [END_TURN]


def test_mcts_matches_the_exhaustive_count_on_curated_positions():
    for name in ("order-trap", "chain-trap", "two-pawns", "multi-chain"):
        game = solver.load_game("guardians", position=f"guardians/{name}")
        state = game.new_initial_state()
        best = best_order(state)
        steps = _play_missions(make_agent("mcts", game, iterations=5), state)
        assert len(steps) == best.count, name
        assert state.score(0) == best.points, name


def test_play_command_with_three_agents():
    out = subprocess.run(
        [sys.executable, "-m", "solver.cli", "guardians", "play", "--players", "3",
         "--agents", "mcts,greedy,random", "--games", "1", "--seed", "2",
         "--iterations", "5", "--json"],
        capture_output=True, text=True, check=True,
    )  # fmt: skip
    report = json.loads(out.stdout)
    assert [p["agent"] for p in report["players"]] == ["mcts", "greedy", "random"]
    assert report["games"] == 1
    assert sum(p["wins"] for p in report["players"]) + report["ties"] == 1


def test_the_greedy_baseline_scores_in_multiplayer_games():
    # a baseline that never scores makes every win rate against it meaningless: greedy used to
    # grow a straight line of tiles (ties fell to the lowest action id) and scored 0 in every game
    from solver.games.guardians.hooks import scores
    from solver.play import play_match

    game = solver.load_game("guardians", players=2)
    agents = [make_agent("greedy", game, seed=0), make_agent("random", game, seed=1)]
    report = play_match(
        game, ["greedy", "random"], agents, games=4, seed=3, scores=scores
    ).to_dict()
    greedy = report["players"][0]
    assert greedy["mean_score"] > 5 and greedy["wins"] >= 3
