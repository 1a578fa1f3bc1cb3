"""Opening the position a command names (:mod:`solver.cli_position`): FILE, ``--players``,
``--state``. A saved state sets the player count and refuses another; a bad saved state, named as
FILE or given with ``--state``, is one line of error (exit status 2), never a traceback.
"""

from __future__ import annotations

import contextlib
import io
from pathlib import Path

import pytest

from solver.cli import main
from solver.registry import load_game
from solver.testing import one_line_error
from solver.testing import run_forest as forest


def cli(argv: list[str], stdin: str | None = None) -> tuple[int, str, str]:
    """Run the CLI in-process: (exit status, stdout, stderr)."""
    out, err = io.StringIO(), io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        try:
            code = main(argv)
        except SystemExit as exc:
            code = exc.code if isinstance(exc.code, int) else 1
    return int(code or 0), out.getvalue(), err.getvalue()


def test_a_saved_state_for_another_player_count_is_refused(tmp_path):
    # Defect: `forest trial show STATE.json --players 2` showed a 3-player state, the option
    # silently ignored.
    state = load_game("trial", engine="reference", players=3).new_initial_state()
    path = tmp_path / "three.json"
    path.write_text(state.to_json(), encoding="utf-8")
    code, out, err = cli(["trial", "show", str(path), "--players", "2"])
    assert code == 2 and out == ""
    assert err.startswith("forest: error: ") and err.count("\n") == 1 and "3" in err, err


@pytest.mark.parametrize(
    "content",
    [b"\xff\xfe\x00garbage", b'{"game": "trial", "state": ' + b"[" * 100_000],
    ids=["binary", "deep"],
)
def test_a_bad_saved_state_named_as_file_is_one_line(tmp_path, content):
    # Defect: `forest trial show bad.json` (a binary file, or one nested too deeply) ended in a
    # UnicodeDecodeError or RecursionError traceback (the --state option already refused them).
    path = tmp_path / "bad.json"
    path.write_bytes(content)
    for command in (["show"], ["best-move", "--iterations", "2"]):
        code, out, err = cli(["trial", *command, str(path)])
        assert code == 2 and out == "", err
        assert err.startswith("forest: error: ") and err.count("\n") == 1, err
        assert "bad.json" in err, err


def test_a_deeply_nested_state_file_is_a_format_error(tmp_path):
    (tmp_path / "deep.json").write_text("[" * 100_000, encoding="utf-8")
    run = forest("dog", "best-move", "dog/tiny-2x2", "--state", "deep.json", cwd=tmp_path)
    one_line_error(run, "nested too deeply")


def test_a_saved_state_sets_the_player_count(tmp_path):
    # A 2-player Trial state given with --state opens a 2-player game (the default is 4).
    from solver.registry import game_spec

    opened = game_spec("trial").open(None, players=2)
    (tmp_path / "two.json").write_text(opened.state.to_json(), encoding="utf-8")
    run = forest("trial", "show", "--state", "two.json", cwd=tmp_path)
    assert run.returncode == 0, run.stderr
    run = forest("trial", "show", "--state", "two.json", "--players", "3", cwd=tmp_path)
    one_line_error(run, "3 players")


PUZZLES = Path(__file__).resolve().parents[1] / "puzzles"


def test_a_game_file_and_a_saved_state_given_in_each_others_place_say_which_is_which(tmp_path):
    # Defect: `forest dog show forest.json` (a forest file under a .json name) said "forest.json
    # is a saved state, not a .forest file: a dog state goes with the .forest file..."; a saved
    # state under a .forest name was a forest syntax error ("expected a header key name ...");
    # a forest given as --state, a JSON error ("expected a JSON object (a dog state)").
    forest_text = (PUZZLES / "dog" / "stick.forest").read_text(encoding="utf-8")
    state = load_game("dog", engine="reference", forest="dog/stick").new_initial_state()
    (tmp_path / "forest.json").write_text(forest_text, encoding="utf-8")
    (tmp_path / "state.forest").write_text(state.to_json(), encoding="utf-8")
    (tmp_path / "grove.json").write_text(
        (PUZZLES / "guardians" / "chain.grove").read_text(encoding="utf-8"), encoding="utf-8"
    )
    cases = [
        (["dog", "show", "forest.json"],
         "forest.json is a dog .forest file, not a saved state (what a .json FILE must be): "
         "rename it forest.forest"),
        (["dog", "show", "state.forest"],
         "state.forest is a saved dog state, not a .forest file (FILE): give the .forest file "
         "it was played on as FILE and --state state.forest"),
        (["dog", "show", "dog/stick", "--state", "forest.json"],
         "forest.json is a dog .forest file, not a saved state (what --state takes): give it "
         "as FILE named forest.forest"),
        (["guardians", "show", "grove.json"],
         "grove.json is a guardians .grove file, not a saved state (what a .json FILE must "
         "be): rename it grove.grove"),
    ]  # fmt: skip
    for argv, said in cases:
        one_line_error(forest(*argv, cwd=tmp_path), said)
    (tmp_path / "stick.forest").write_text(forest_text, encoding="utf-8")
    (tmp_path / "state.json").write_text(state.to_json(), encoding="utf-8")
    run = forest("dog", "show", "stick.forest", "--state", "state.json", cwd=tmp_path)
    assert run.returncode == 0, run.stderr


@pytest.mark.parametrize("game", ["dog", "guardians", "trial"])
def test_a_game_record_given_as_a_state_says_it_is_a_record(tmp_path, game):
    """Found by a new user's pass: the web table's saved position (a record: game, options,
    seed, actions, state) given to ``forest guardians best-move --state`` said 'line 1, column 1:
    expected state field backs to be present, found null', and ``forest dog show game.json``
    (a play --record file) 'game.json is a saved dog state'. Now one line naming a record."""
    source = ["dog/another-dog"] if game == "dog" else []
    run = forest(game, "play", *source, "--agent", "random", "--record", "game.json",
                 "--no-progress", cwd=tmp_path)  # fmt: skip
    assert run.returncode == 0, run.stderr
    for argv in ([*source, "--state", "game.json"], ["game.json"]):
        run = forest(game, "show", *argv, cwd=tmp_path)
        one_line_error(run, f"game.json is a {game} game record")
        assert f"forest {game} review" in run.stderr
