"""Regression tests for the defects a hostile user found, driven the way they were met.

Each test names the defect. The CLI is run as a subprocess where the user met the defect there.
"""

from __future__ import annotations

import json

import pytest

import solver
from solver.errors import FormatError, OptionError
from solver.testing import one_line_error
from solver.testing import run_forest as forest

WALLED_IN_STEP = {
    "budget": 2, "curiosity": 0, "last_left": None, "marked": [[2, 1]], "offered": [],
    "outcome": None, "pending": -1, "phase": "step", "pos": [2, 1], "resolved": [],
    "skip_next": False, "stamina": 3, "stick": False, "turn": 1, "valve": False,
}  # fmt: skip


def test_best_move_on_an_isolated_forest_answers_at_once(tmp_path):
    # Defect: the non-exact evaluation recursed over every chance outcome (13+ minutes).
    (tmp_path / "iso.forest").write_text("grid:\n@ T H\nT . .\n", encoding="utf-8")
    run = forest("dog", "best-move", "iso.forest", "--json", cwd=tmp_path, timeout=60)
    assert run.returncode == 0, run.stderr
    assert json.loads(run.stdout)["value"] == 0.0  # the dog can never move: a sure loss


@pytest.mark.parametrize("games", ["0", "-1"])
def test_solve_refuses_a_non_positive_game_count(games):
    # Defects: --games 0 was a ZeroDivisionError, --games -1 printed "-0.0000 over -1 games".
    run = forest("dog", "solve", "dog/tiny-3x3", "--games", games)
    assert run.returncode == 2 and "--games" in run.stderr and "at least 1" in run.stderr


@pytest.mark.parametrize("limit", ["nan", "0", "-3", "inf"])
def test_route_refuses_a_time_limit_that_is_not_a_positive_number(limit):
    run = forest("dog", "route", "dog/tiny-3x3", "--time-limit", limit)
    assert run.returncode == 2 and "--time-limit" in run.stderr and "positive" in run.stderr


def test_a_deeply_nested_state_file_is_a_format_error(tmp_path):
    (tmp_path / "deep.json").write_text("[" * 100_000, encoding="utf-8")
    run = forest("dog", "best-move", "dog/tiny-2x2", "--state", "deep.json", cwd=tmp_path)
    one_line_error(run, "nested too deeply")


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


@pytest.mark.parametrize("forest_option", ["", "grid:\n@ . H\n"])
def test_load_game_with_an_empty_or_sheet_text_forest(forest_option):
    with pytest.raises(OptionError):
        solver.load_game("dog", forest=forest_option)


def test_a_full_disk_is_one_clear_line():
    run = forest("dog", "render", "dog/tiny-2x2", "-o", "/dev/full")
    one_line_error(run, "/dev/full: cannot write: No space left on device")


def test_render_never_overwrites_unasked(tmp_path):
    (tmp_path / "sheet.svg").write_text("keep me", encoding="utf-8")
    run = forest("dog", "render", "dog/tiny-2x2", "-o", "sheet.svg", cwd=tmp_path)
    one_line_error(run, "sheet.svg: already exists (add --overwrite to replace it)")
    assert (tmp_path / "sheet.svg").read_text(encoding="utf-8") == "keep me"
    run = forest("dog", "render", "dog/tiny-2x2", "-o", "sheet.svg", "--overwrite", cwd=tmp_path)
    assert run.returncode == 0 and "<svg" in (tmp_path / "sheet.svg").read_text(encoding="utf-8")
    assert sorted(p.name for p in tmp_path.iterdir()) == ["sheet.svg"]  # no temporary left


def test_the_exact_agent_memory_cap_names_the_flag():
    run = forest("dog", "play", "dog/another-dog", "--agent", "exact", "--memory-mb", "0.001",
                 "--games", "2")  # fmt: skip
    one_line_error(run, "--memory-mb")
    assert "memory_mb=" not in run.stderr


def test_a_path_climbing_out_of_the_puzzles_is_named_for_what_it_is():
    run = forest("dog", "show", "dog/../../etc/passwd")
    one_line_error(run, "is neither a file nor a puzzle name")


def test_a_huge_sheet_is_refused_before_it_is_read(tmp_path):
    big = tmp_path / "big.forest"
    with big.open("wb") as handle:
        handle.truncate(17 * 1024 * 1024)
    run = forest("dog", "show", str(big))
    one_line_error(run, "larger than 16 MB")


def test_a_saved_state_sets_the_player_count(tmp_path):
    # A 2-player Trial state given with --state opens a 2-player game (the default is 4).
    from solver.registry import game_spec

    opened = game_spec("trial").open(None, players=2)
    (tmp_path / "two.json").write_text(opened.state.to_json(), encoding="utf-8")
    run = forest("trial", "show", "--state", "two.json", cwd=tmp_path)
    assert run.returncode == 0, run.stderr
    run = forest("trial", "show", "--state", "two.json", "--players", "3", cwd=tmp_path)
    one_line_error(run, "3 players")
