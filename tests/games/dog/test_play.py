"""Tests of the dog game driver's turn log: quiet turns say what happened.

The hand-made forests force each kind of quiet turn (see docs/rules/dog.md: a skipped turn after
another dog or a squirrel, a rest at stamina 0, a skip then a rest) whatever the dice roll, so the
expected logs are derived by hand from the rules; both engines must give them.
"""

from __future__ import annotations

import json
import random

import pytest

import solver
from solver.games.dog.format import parse_forest
from solver.games.dog.play import (
    QUIET_TURNS,
    RESTING,
    SKIPPED_DOG,
    SKIPPED_SQUIRREL,
    play_game,
    random_agent,
)

ENGINES = ["reference", "kernel"]

# The dog's only first step is E, onto another dog: the move ends, turn 2 is skipped.
ANOTHER_DOG = "grid:\nT T T H\n@ D . .\n"
# Onto a squirrel whose nearest edges tie (N, S, W): the player picks the run, then a skip.
SQUIRREL_TIE = "grid:\nT T T T T\n@ S . . H\nT T T T T\n"
# Onto a squirrel on the top edge: it runs 0 cells at once (no decision), then a skip.
SQUIRREL_EDGE = "grid:\n@ S . . . H\n. . . . . .\n"
# Every step wades through a puddle (-2 stamina) and the human is 6 steps away.
PUDDLES = "grid:\n@ ~ ~ ~ ~\n~ ~ ~ ~ ~\n~ ~ ~ ~ H\n"


def east_first(state) -> int:
    """Step east when allowed, else take the first legal action."""
    legal = state.legal_actions()
    return 1 if 1 in legal else legal[0]


def game_of(text: str, engine: str, turns: int | None = None):
    forest = parse_forest(text)
    if turns is not None:
        forest = forest.replace(turns=turns)
    return solver.load_game("dog", forest=forest, engine=engine)


def start_with(game, **fields):
    """The initial state with some fields changed (a hand-made position, read back as JSON)."""
    data = json.loads(game.new_initial_state().to_json())
    data.update(fields)
    return game.state_from_json(json.dumps(data))


def log(record) -> list[tuple[int, list[str]]]:
    return [(t.turn, t.actions) for t in record.turns]


def rolled(actions: list[str]) -> bool:
    return actions[0].startswith("roll: ")


@pytest.mark.parametrize("engine", ENGINES)
@pytest.mark.parametrize("seed", range(4))
def test_another_dog_skips_the_next_turn(engine, seed):
    turns = log(play_game(game_of(ANOTHER_DOG, engine), east_first, seed=seed))
    assert rolled(turns[0][1]) and turns[0][1][1:] == ["E"]
    assert turns[1] == (2, [SKIPPED_DOG])
    assert turns[2][0] == 3 and rolled(turns[2][1])


@pytest.mark.parametrize("engine", ENGINES)
@pytest.mark.parametrize("seed", range(4))
def test_squirrel_with_a_chosen_run_skips_the_next_turn(engine, seed):
    turns = log(play_game(game_of(SQUIRREL_TIE, engine), east_first, seed=seed))
    assert turns[0][1][1:] == ["E", "squirrel runs N"]
    assert turns[1] == (2, [SKIPPED_SQUIRREL])
    assert turns[2][0] == 3 and rolled(turns[2][1])


@pytest.mark.parametrize("engine", ENGINES)
def test_squirrel_on_the_edge_skips_the_next_turn(engine):
    turns = log(play_game(game_of(SQUIRREL_EDGE, engine), east_first, seed=5))
    assert turns[0][1][1:] == ["E"]
    assert turns[1] == (2, [SKIPPED_SQUIRREL])


@pytest.mark.parametrize("engine", ENGINES)
@pytest.mark.parametrize("seed", range(4))
def test_stamina_zero_rests_a_turn(engine, seed):
    game = game_of(PUDDLES, engine)
    turns = log(play_game(game, east_first, seed=seed, state=start_with(game, stamina=2)))
    assert rolled(turns[0][1])  # the first puddle empties stamina; the move goes on
    assert turns[1] == (2, [RESTING])
    assert turns[2][0] == 3 and rolled(turns[2][1])


@pytest.mark.parametrize("engine", ENGINES)
def test_a_squirrel_at_stamina_one_skips_then_rests(engine):
    game = game_of(SQUIRREL_TIE, engine)
    record = play_game(game, east_first, seed=1, state=start_with(game, stamina=1))
    turns = log(record)
    assert turns[1:3] == [(2, [SKIPPED_SQUIRREL]), (3, [RESTING])]
    assert turns[3][0] == 4 and rolled(turns[3][1])


@pytest.mark.parametrize("engine", ENGINES)
def test_quiet_turns_at_the_end_of_a_lost_game_are_logged(engine):
    record = play_game(game_of(ANOTHER_DOG, engine, turns=2), east_first, seed=0)
    assert not record.won
    assert log(record)[1:] == [(2, [SKIPPED_DOG])]
    game = game_of(SQUIRREL_TIE, engine, turns=3)
    record = play_game(game, east_first, seed=0, state=start_with(game, stamina=1))
    assert log(record)[1:] == [(2, [SKIPPED_SQUIRREL]), (3, [RESTING])]


@pytest.mark.parametrize("puzzle", ["dog/another-dog", "dog/squirrel-corner", "dog/puddles"])
def test_logs_number_every_turn_and_both_engines_agree(puzzle):
    for seed in range(12):
        records = [
            play_game(
                solver.load_game("dog", forest=puzzle, engine=engine),
                random_agent(seed),
                seed=seed,
            )
            for engine in ENGINES
        ]
        assert log(records[0]) == log(records[1])
        record = records[0]
        numbers = [t.turn for t in record.turns]
        assert numbers == list(range(1, len(numbers) + 1))
        if not record.won:
            assert numbers[-1] == record.final.game.forest.turns
        previous: list[str] = []
        for t in record.turns:
            if t.actions[0] in QUIET_TURNS:
                assert len(t.actions) == 1
                # a skip follows a played turn; a rest never follows a rest
                assert t.actions[0] == RESTING or previous[0] not in QUIET_TURNS
                assert not (t.actions[0] == RESTING and previous == [RESTING])
            else:
                assert rolled(t.actions)
            previous = t.actions


@pytest.mark.parametrize("puzzle", ["dog/another-dog", "dog/squirrel-corner", "dog/puddles"])
def test_the_quiet_turns_hook_names_every_turn_an_action_jumps_over(puzzle):
    """``SPEC.quiet_turns`` (what ``play --human`` prints): over random games, each action that
    moves the turn counter from t to u (a game going on) is said to spend exactly the turns
    t+1..u-1, each a skip or a rest, a skip never twice in a row; an action within its turn
    spends none."""
    spec = solver.game_spec("dog")
    game = solver.load_game("dog", forest=puzzle, engine="reference")
    kinds = set()
    for seed in range(30):
        rng, state = random.Random(seed), game.new_initial_state()
        while not state.is_terminal():
            before = state.clone()
            state.apply_action(rng.choice(state.legal_actions()))
            lines = spec.quiet_turns(game, before, state)
            if state.is_terminal():
                continue
            first, stop = before.to_dict()["turn"] + 1, state.to_dict()["turn"]
            assert [int(line.split()[1]) for line in lines] == list(range(first, stop)), lines
            words = [line.split()[2] for line in lines]
            assert set(words) <= {"skipped:", "resting:"} and words[1:2] != ["skipped:"]
            kinds.update(words)
    expected = {"dog/puddles": {"resting:"}}.get(puzzle, {"skipped:"})  # no D or S there
    assert expected <= kinds, kinds
