"""Parse errors name the file, and their line and column mean what docs/adding-a-game.md says.

``line`` and ``column`` are 1-based characters of the text; a state's JSON syntax error is where
the JSON decoder stopped; a content error names the field (the dog's also points at it).
"""

from __future__ import annotations

import json
import subprocess
import sys

import pytest

import solver
from solver.errors import FormatError
from solver.games.dog.format import load_forest
from solver.games.guardians.grove_format import load_grove

BROKEN = '{\n  "a": [1,\n  2,\n'


def _game(name: str):
    return (
        solver.load_game("dog", forest="dog/tiny-2x2") if name == "dog" else solver.load_game(name)
    )


@pytest.mark.parametrize("name", ["dog", "guardians", "trial"])
def test_a_json_syntax_error_is_where_the_decoder_stopped(name):
    try:
        json.loads(BROKEN)
    except json.JSONDecodeError as exc:
        expected = (exc.lineno, exc.colno)
    with pytest.raises(FormatError) as caught:
        _game(name).state_from_json(BROKEN)
    assert (caught.value.line, caught.value.column) == expected


def test_the_dogs_content_error_points_at_the_field():
    game = _game("dog")
    data = json.loads(game.new_initial_state().to_json())
    data["stamina"] = 9
    text = json.dumps(data)
    with pytest.raises(FormatError, match="state field 'stamina'") as caught:
        game.state_from_json(text)
    line = text.splitlines()[caught.value.line - 1]
    assert line[caught.value.column - 1 :].startswith('"stamina": 9')


@pytest.mark.parametrize("name", ["guardians", "trial"])
def test_other_content_errors_name_the_field_at_line_1_column_1(name):
    game = _game(name)
    data = json.loads(game.new_initial_state().to_json())
    data["bogus_field"] = 1
    if name == "trial":
        data["state"]["bogus_field"] = 1
    with pytest.raises(FormatError) as caught:
        game.state_from_json(json.dumps(data))
    assert (caught.value.line, caught.value.column) == (1, 1)
    assert "bogus_field" in str(caught.value) or "field" in str(caught.value)


def test_file_readers_name_the_file(tmp_path):
    forest = tmp_path / "bad.forest"
    forest.write_text("name: x\nturns: 3\ngrid:\nT . Q\n")
    with pytest.raises(FormatError) as caught:
        load_forest(forest)
    assert caught.value.path == str(forest) and (caught.value.line, caught.value.column) == (4, 5)
    assert str(caught.value).startswith(f"{forest}: line 4, column 5: expected a cell symbol")
    grove = tmp_path / "bad.grove"
    grove.write_text("width: 3\n")
    with pytest.raises(FormatError, match=r"bad\.grove: line 1, column 1: expected a header"):
        load_grove(grove)


@pytest.mark.parametrize(
    ("argv", "name", "text"),
    [
        (["dog", "show"], "bad.forest", "name: x\nturns: 3\ngrid:\nT . Q\n"),
        (["dog", "render"], "bad.forest", "name: x\nturns: 3\ngrid:\nT . Q\n"),
        (["guardians", "show"], "bad.grove", "width: 3\n"),
        (["guardians", "order"], "bad.grove", "width: 3\n"),
        (["trial", "show"], "bad.json", '{"game": "trial", '),
    ],
)
def test_the_command_line_names_the_file(argv, name, text, tmp_path):
    (tmp_path / name).write_text(text)
    run = subprocess.run(
        [sys.executable, "-m", "solver.cli", *argv, name],
        capture_output=True, text=True, cwd=tmp_path, timeout=300,
    )  # fmt: skip
    assert run.returncode == 2
    assert run.stderr.startswith(f"forest: error: {name}: line "), run.stderr
    assert run.stderr.count("\n") == 1
