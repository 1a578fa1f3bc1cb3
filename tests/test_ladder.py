"""The strength ladder (solver.ladder): ten levels for every game, declared or built from the
strongest agent, deterministic given a seed, reachable by name, --strength and the hint field."""

from __future__ import annotations

import json

import pytest

import solver
from solver.agents import make_agent
from solver.errors import OptionError
from solver.ladder import LEVELS, default_ladder, ladder, level_agent, level_names, level_number
from solver.play import play_game
from solver.registry import game_spec, registered_games
from solver.spec import GameSpec, Rung


@pytest.mark.parametrize("name", registered_games())
def test_every_game_has_ten_levels_of_its_own_agents(name):
    spec = game_spec(name)
    rungs = ladder(name)
    assert len(rungs) == LEVELS
    assert all(rung.agent in spec.offered_agents() for rung in rungs)
    assert rungs[-1].agent == spec.strongest_agent or spec.ladder is not None
    assert rungs[0].agent == "random"


@pytest.mark.parametrize("name", ["guardians", "trial"])
def test_a_declared_two_player_ladder_tops_out_at_the_strongest_agents_play_default(name):
    """Level 10 is the strongest agent the library offers for the game, as it plays by default
    (issue 22: not a bigger budget than the agent plays with, not a weaker agent)."""
    spec = game_spec(name)
    top = ladder(name)[-1]
    strongest = spec.strongest_agent
    assert (top.agent, top.iterations, top.noise) == (
        strongest,
        spec.play_iterations(strongest),
        0.0,
    )


def test_level_names_and_numbers():
    assert level_names() == [f"level{k}" for k in range(1, 11)]
    assert level_number("level7") == 7 and level_number(3) == 3
    for bad in ("level0", "level05", "level007", "level11", "levels", 0, 11, True, "7"):
        with pytest.raises(OptionError, match="from 1 to 10"):
            level_number(bad)


def test_the_default_ladder_halves_the_strongest_agents_budget():
    spec = GameSpec(
        name="toyladder", title="t", summary="s", players=(2,), engines={"reference": dict},
        open=lambda *a, **k: None,
    )  # fmt: skip
    assert spec.strongest_agent == "mcts" and spec.play_iterations("mcts") == 1000
    rungs = default_ladder(spec)
    top = spec.play_iterations(spec.strongest_agent)
    assert rungs[-1] == Rung(spec.strongest_agent, top)
    assert [r.iterations for r in rungs[1:-1]] == [max(1, top >> (10 - k)) for k in range(2, 10)]
    assert [r.noise for r in rungs[1:4]] == [0.5, 0.25, 0.0]


def test_a_strongest_agent_without_budget_is_diluted_by_noise():
    spec = GameSpec(
        name="toyladder", title="t", summary="s", players=(1,), engines={"reference": dict},
        open=lambda *a, **k: None, agents={"solid": lambda game, seed=0: None},
        default_agent="solid",
    )  # fmt: skip
    rungs = default_ladder(spec)
    assert [r.agent for r in rungs] == ["random"] + ["solid"] * 9
    assert [r.noise for r in rungs[1:]] == [round((10 - k) / 9, 4) for k in range(2, 11)]
    assert rungs[-1].noise == 0.0


def test_a_declared_ladder_is_checked():
    base = dict(name="toyladder", title="t", summary="s", players=(1,),
                engines={"reference": dict}, open=lambda *a, **k: None)  # fmt: skip
    with pytest.raises(OptionError, match="ten rungs"):
        GameSpec(**base, ladder=(Rung("random"),) * 9)
    with pytest.raises(OptionError, match="level2's agent 'planner'"):
        GameSpec(**base, ladder=(Rung("random"), Rung("planner")) + (Rung("mcts"),) * 8)
    with pytest.raises(OptionError, match="noise"):
        Rung("random", noise=1.5)
    with pytest.raises(OptionError, match="budget"):
        Rung("mcts", 0)


def _dog_game():
    return solver.load_game("dog", forest="dog/tiny-example", engine="kernel")


def _record(name, seed, dice=5):
    game = _dog_game()
    return play_game(game, [make_agent(name, game, seed=seed)], seed=dice).actions


@pytest.mark.parametrize("level", [2, 5, 8])
def test_a_level_is_deterministic_given_its_seed(level):
    assert _record(f"level{level}", 3) == _record(f"level{level}", 3)


def test_noise_draws_its_own_stream_not_the_dice():
    """The same dice meet every level: the chance outcomes of a noisy level's game are those of
    play_game's seed, whatever the level's own seed (the walk may differ, the rolls in order do
    not, while the game lasts)."""
    game = _dog_game()
    rolls = []
    for seed in (1, 2):
        record = play_game(game, [make_agent("level2", game, seed=seed)], seed=9)
        state, seen = game.new_initial_state(), []
        for action in record.actions:
            if state.is_chance_node():
                seen.append(state.action_to_string(action))
            state.apply_action(action)
        rolls.append(seen)
    shortest = min(len(r) for r in rolls)
    assert rolls[0][:shortest] == rolls[1][:shortest]


def test_full_noise_plays_uniformly_among_the_legal_moves():
    """A rung of noise 1 is the random agent: every legal move comes up, nothing else."""
    from solver.ladder import _noisy
    from solver.rng import SplitMix64

    state = _dog_game().new_initial_state()
    state.apply_action(state.legal_actions()[0])
    legal = set(state.legal_actions())
    agent = _noisy(lambda s: pytest.fail("the inner agent was asked"), 1.0, SplitMix64(4))
    seen = {agent(state) for _ in range(200)}
    assert seen == legal


def test_the_dogs_top_level_is_the_exact_policy():
    game = solver.load_game("dog", forest="dog/tiny-2x2", engine="reference")
    top, exact = level_agent(game, 10, seed=0), make_agent("exact", game)
    state = game.new_initial_state()
    while not state.is_terminal():
        if state.is_chance_node():
            state.apply_action(state.chance_outcomes()[0][0])
            continue
        assert top(state) == exact(state)
        state.apply_action(exact(state))


def test_levels_by_name_through_the_spec_and_make_agent():
    spec = game_spec("dog")
    assert spec.agent("level4").summary == "the strength ladder's level4"
    with pytest.raises(OptionError, match="from 1 to 10"):
        spec.agent("level12")
    with pytest.raises(OptionError, match="or level1 to level10"):
        spec.agent("nope")
    game = _dog_game()
    state = game.new_initial_state()
    state.apply_action(state.legal_actions()[0])
    a = make_agent("level6", game, seed=2)(state)
    assert a == level_agent(game, 6, seed=2, iterations=5)(state)  # a level keeps its budget


def test_strength_on_the_command_line(capsys):
    from solver.cli import main

    assert main(["dog", "play", "dog/tiny-example", "--strength", "3", "--games", "3",
                 "--json", "--no-progress"]) == 0  # fmt: skip
    report = json.loads(capsys.readouterr().out)
    assert [p["agent"] for p in report["players"]] == ["level3"]
    assert main(["dog", "solve", "dog/tiny-example", "--strength", "1", "--games", "4",
                 "--iterations", "20", "--json", "--no-progress"]) == 0  # fmt: skip
    report = json.loads(capsys.readouterr().out)
    assert report["agent"] == "level1" and report["games"] == 4
    with pytest.raises(SystemExit):
        main(["dog", "play", "dog/tiny-example", "--strength", "11"])
    assert "a level from 1 to 10" in capsys.readouterr().err


def test_best_move_names_the_levels_move(capsys):
    from solver.cli import main

    game = _dog_game()
    state = game.new_initial_state()
    state.apply_action(state.legal_actions()[0])
    code = main(["dog", "best-move", "dog/tiny-example", "--state", state.to_json(),
                 "--strength", "7", "--iterations", "50", "--json", "--no-progress"])  # fmt: skip
    assert code == 0
    report = json.loads(capsys.readouterr().out)
    expected = make_agent("level7", game, seed=0)(state)
    assert report["strength_move"]["action"] == expected
    assert report["strength_move"]["label"] == state.action_to_string(expected)


def test_best_move_at_a_chance_node_says_why_no_level_plays(capsys):
    # a user's pass: `forest dog best-move dog/another-dog --strength 3` (a roll to come) printed
    # no word of the level, and --json a bare "strength_move": null
    from solver.cli import main

    assert main(["dog", "best-move", "dog/tiny-2x2", "--strength", "3", "--json",
                 "--no-progress"]) == 0  # fmt: skip
    report = json.loads(capsys.readouterr().out)
    assert report["strength_move"] is None
    assert any("level3 has no move to play" in note for note in report["notes"])


def test_the_hint_answer_names_the_levels_move():
    pytest.importorskip("pydantic")
    from solver.hint.engine import answer

    game = _dog_game()
    first = game.new_initial_state().legal_actions()[0]
    state = game.new_initial_state()
    state.apply_action(first)
    request = {"id": "s", "game": "dog", "options": {"forest": "dog/tiny-example"},
               "actions": [first], "limit": {"iterations": 50}, "seed": 4}  # fmt: skip
    plain = answer(request)
    assert plain["strengthMove"] is None
    reply = answer({**request, "strength": 5})
    expected = make_agent("level5", game, seed=4)(state)
    assert reply["strengthMove"] == {"level": 5, "agent": "level5", "action": expected,
                                     "label": state.action_to_string(expected)}  # fmt: skip
    assert reply["moveInfos"] == plain["moveInfos"]  # the full analysis either way
    bad = answer({**request, "strength": 0})
    assert bad["field"] == "strength" and bad["code"] == "invalid_request"
