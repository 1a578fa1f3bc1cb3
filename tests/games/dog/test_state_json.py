"""The dog's state JSON (``DogGame.state_from_json``, :mod:`solver.games.dog.rules`) on both
engines: a state that breaks an invariant names the field and points at its key; a state with no
legal move is refused on the command line (a ``forest`` subprocess) in one line.
"""

from __future__ import annotations

import json

import pytest

import solver
from solver.errors import FormatError
from solver.testing import one_line_error
from solver.testing import run_forest as forest

WALLED_IN_STEP = {
    "budget": 2, "curiosity": 0, "last_left": None, "marked": [[2, 1]], "offered": [],
    "outcome": None, "pending": -1, "phase": "step", "pos": [2, 1], "resolved": [],
    "skip_next": False, "stamina": 3, "stick": False, "turn": 1, "valve": False,
}  # fmt: skip


def test_a_state_without_a_legal_move_is_refused():
    # Defect: a RuntimeError from the compiled MCTS on a decision node with no legal move.
    run = forest("dog", "best-move", "dog/walled-in", "--state", json.dumps(WALLED_IN_STEP))
    one_line_error(run, "state field 'phase' to be a node with a legal action")


@pytest.mark.parametrize("engine", ["kernel", "reference"])
@pytest.mark.parametrize(
    ("change", "field"),
    [
        ({"pos": [5, 5]}, "pos"),  # outside the 2x2 forest
        ({"pos": [0, 1]}, "marked"),  # a cell the dog never entered: not marked
        ({"stamina": 7}, "stamina"),
        ({"curiosity": -1}, "curiosity"),
        ({"turn": 2}, "turn"),  # tiny-2x2 has 1 turn
        ({"marked": [[1, 1], [0, 5]]}, "marked"),
        ({"resolved": [[1, 1]]}, "resolved"),
        ({"surprise": 1}, "surprise"),
        ({"outcome": "win"}, "outcome"),
    ],
)
def test_states_breaking_an_invariant_name_the_field(engine, change, field):
    game = solver.load_game("dog", forest="dog/tiny-2x2", engine=engine)
    data = json.loads(game.new_initial_state().to_json()) | change
    text = json.dumps(data, indent=1, sort_keys=True)
    with pytest.raises(FormatError) as caught:
        game.state_from_json(text)
    assert f"'{field}'" in str(caught.value)
    # the error points at the field's key in the text, not at line 1, column 1
    line = text.splitlines()[caught.value.line - 1]
    assert line[caught.value.column - 1 :].startswith(f'"{field}"'), (line, caught.value)


@pytest.mark.parametrize("engine", ["kernel", "reference"])
def test_the_dog_on_the_human_only_in_a_won_game(engine):
    # Defect: a state with the dog on the human but the game going was accepted (0.84).
    game = solver.load_game("dog", forest="dog/tiny-2x2", engine=engine)
    data = json.loads(game.new_initial_state().to_json())
    data["pos"] = list(game.forest.human)
    with pytest.raises(FormatError, match="'pos' to be the human's cell only in a won game"):
        game.state_from_json(json.dumps(data))


@pytest.mark.parametrize("engine", ["reference", "kernel"])
def test_another_games_state_is_refused_by_its_name(engine):
    # a Trial state (it names its game) read as a dog one listed the dog's missing fields
    trial = solver.load_game("trial", engine="reference").new_initial_state().to_json()
    game = solver.load_game("dog", forest="dog/tiny-example", engine=engine)
    with pytest.raises(FormatError, match='expected a dog state, found a state of "trial"'):
        game.state_from_json(trial)
