"""A game defined outside ``solver/``, installed the way a third party ships one.

``tests/plugin_game`` is its own distribution (``pebbles-game``) declaring the entry point
``forest_solver.games: pebbles = "pebbles_game:SPEC"``, as ``docs/adding-a-game.md`` says. It is
installed with pip into a temporary folder (never into the test environment) and driven through
the generic CLI commands and the searchers in subprocesses that see that folder.

Pebbles: a die rolls a pile of 4, 5 or 6; players take 1 or 2 in turn; the last pebble wins. The
first player wins exactly when the pile is not a multiple of 3: from the start, with probability
2/3; after a roll of 4 the winning move is "take 1" (leave 3), after 5 "take 2".
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

HERE = Path(__file__).resolve().parent


@pytest.fixture(scope="module")
def plugin_env(tmp_path_factory: pytest.TempPathFactory) -> dict[str, str]:
    work = tmp_path_factory.mktemp("plugin")
    source = work / "src"
    shutil.copytree(HERE / "plugin_game", source)
    target = work / "site"
    pip_install(source, target)
    env = dict(os.environ)
    env["PYTHONPATH"] = os.pathsep.join([str(target), env.get("PYTHONPATH", "")]).rstrip(os.pathsep)
    return env


def pip_install(source: Path, target: Path) -> None:
    """Install the project in ``source`` into the folder ``target`` (no dependencies)."""
    subprocess.run(
        [sys.executable, "-m", "pip", "install", "--quiet", "--no-deps", "--no-build-isolation",
         "--target", str(target), str(source)],
        check=True, capture_output=True, text=True, timeout=300,
    )  # fmt: skip


def python(env: dict[str, str], *argv: str) -> subprocess.CompletedProcess[str]:
    """``python ARGV`` in ``env``, its output captured."""
    return subprocess.run(
        [sys.executable, *argv], capture_output=True, text=True, env=env, timeout=300
    )


def forest(env: dict[str, str], *argv: str) -> subprocess.CompletedProcess[str]:
    return python(env, "-m", "solver.cli", *argv)


def python_code(env: dict[str, str], code: str) -> subprocess.CompletedProcess[str]:
    return python(env, "-c", code)


def test_the_game_is_registered(plugin_env):
    run = forest(plugin_env, "games", "--json")
    assert run.returncode == 0, run.stderr
    games = {row["name"]: row for row in json.loads(run.stdout)}
    assert games["pebbles"]["engines"] == ["reference"] and games["pebbles"]["players"] == [2]
    assert "dog" in games


def test_solve_exact_gives_the_hand_derived_value(plugin_env):
    run = forest(plugin_env, "pebbles", "solve", "--exact", "--json")
    assert run.returncode == 0, run.stderr
    assert json.loads(run.stdout)["value"] == pytest.approx(2 / 3, abs=1e-12)


def test_best_move_finds_the_winning_takes(plugin_env):
    run = forest(plugin_env, "pebbles", "best-move", "--exact", "--json")
    assert run.returncode == 0, run.stderr
    report = json.loads(run.stdout)
    best = {row["outcome"]: row["best_action"] for row in report["outcomes"]}
    assert best["roll: 4 pebbles"] == "take 1" and best["roll: 5 pebbles"] == "take 2"
    values = {row["outcome"]: row["win_probability"] for row in report["outcomes"]}
    assert values == {"roll: 4 pebbles": 1.0, "roll: 5 pebbles": 1.0, "roll: 6 pebbles": 0.0}


def test_play_rotates_seats_and_reports_the_pinned_json(plugin_env):
    argv = ["pebbles", "play", "--players", "2", "--agents", "exact,random", "--games", "60",
            "--seed", "3", "--json"]  # fmt: skip
    run = forest(plugin_env, *argv)
    assert run.returncode == 0, run.stderr
    assert forest(plugin_env, *argv).stdout == run.stdout  # same seed, same report
    report = json.loads(run.stdout)
    summary = (report["game"], report["games"], report["seed"], report["ties"])
    assert summary == ("pebbles", 60, 3, 0)
    exact, rand = report["players"]
    seats = (exact["agent"], exact["seat"], rand["agent"], rand["seat"])
    assert seats == ("exact", 0, "random", 1)
    assert exact["wins"] + rand["wins"] == 60
    # The exact agent never loses a won position: as first player it wins every pile of 4 or 5,
    # as second player every pile of 6 and then some, so it wins well over half.
    assert exact["wins"] > 40 and exact["mean_score"] == exact["win_rate"]


def test_searchers_and_hooks_it_lacks(plugin_env):
    code = (
        "import solver\n"
        "from solver.search import mcts, expectimax\n"
        "game = solver.load_game('pebbles')\n"
        "state = game.new_initial_state(); state.apply_action(10)\n"
        "print(mcts(state, iterations=300, seed=1).best_label)\n"
        "print(expectimax(state, exact=True).best_label)\n"
        "from solver.testing import check_random_play\n"
        "print(check_random_play(game, seeds=range(30)).games)\n"
    )
    run = python_code(plugin_env, code)
    assert run.returncode == 0, run.stderr
    assert run.stdout.split() == ["take", "1", "take", "1", "30"]
    run = forest(plugin_env, "pebbles", "render")
    assert run.returncode == 2
    assert run.stderr == "forest: error: drawing a position as SVG is not supported for pebbles\n"
    # a game without puzzles lists none: an empty list, not an error (issue 16 §3)
    code = (
        "import dataclasses, sys\n"
        "from pebbles_game import SPEC\n"
        "from solver.registry import register\n"
        "register(dataclasses.replace(SPEC, puzzles=None, extensions=()))\n"
        "from solver.cli import main\n"
        "sys.exit(main(['pebbles', 'list']))\n"
    )
    run = python_code(plugin_env, code)
    assert (run.returncode, run.stdout) == (0, "")
    assert run.stderr == "forest: pebbles ships no curated puzzles\n"
    assert run.stderr == "forest: pebbles ships no curated puzzles\n"


def test_a_human_game_is_recorded_and_reviewed(plugin_env, tmp_path):
    """``forest pebbles play --human --record`` then ``review``: the record read the game's
    ``engine`` attribute, which the protocol (docs/adding-a-game.md) never asks a game for, and
    ended in a traceback after the game."""
    play = subprocess.run(
        [sys.executable, "-m", "solver.cli", "pebbles", "play", "pebbles/four", "--human",
         "--record", "game.json", "--seed", "0", "--no-progress"],
        input="hint\ntake 1\ntake 1\ntake 1\ntake 1\nquit\n", capture_output=True, text=True,
        env=plugin_env, cwd=tmp_path, timeout=300,
    )  # fmt: skip
    assert play.returncode == 0, play.stderr
    assert "Traceback" not in play.stderr and "wrote game.json" in play.stdout
    record = json.loads((tmp_path / "game.json").read_text(encoding="utf-8"))
    assert record["game"] == "pebbles" and record["engine"] == "reference"
    review = subprocess.run(
        [sys.executable, "-m", "solver.cli", "pebbles", "review", "game.json"],
        capture_output=True, text=True, env=plugin_env, cwd=tmp_path, timeout=300,
    )  # fmt: skip
    assert review.returncode == 0, review.stderr
    assert "take 1" in review.stdout


def test_a_file_the_plugin_cannot_read_is_a_one_line_error(plugin_env, tmp_path):
    """A plug-in's opener reads its FILE as it likes: a missing file or a folder raised
    FileNotFoundError/IsADirectoryError inside it, a traceback ending "this is a bug in
    forest-solver". The command names the file instead, as for the built-in games."""
    naive = (  # an opener that reads FILE with open(), as a first plug-in might
        "import dataclasses, sys\n"
        "from pebbles_game import SPEC, PebblesGame\n"
        "from solver.registry import register\n"
        "from solver.spec import Opened\n"
        "def naive(source, *, engine=None, players=None):\n"
        "    open(source).read()\n"
        "    game = PebblesGame()\n"
        "    return Opened(game=game, state=game.new_initial_state(), source=source)\n"
        "register(dataclasses.replace(SPEC, open=naive))\n"
        "from solver.cli import main\n"
        "sys.exit(main(['pebbles', 'show', sys.argv[1]]))\n"
    )
    cases = (("missing.pebbles", "No such file or directory"), (str(tmp_path), "Is a directory"))
    for path, why in cases:
        run = python(plugin_env, "-c", naive, path)
        assert run.returncode == 2 and "Traceback" not in run.stderr, run.stderr
        assert run.stderr == f"forest: error: {path}: {why}\n", run.stderr


def test_the_plugin_ships_and_loads_its_own_puzzles(plugin_env, tmp_path):
    """``puzzles="pebbles_game:puzzles"``: the files live in the plug-in's package (installed by
    pip as package data), are named ``pebbles/NAME`` and go through every generic command."""
    run = forest(plugin_env, "pebbles", "list", "--json")
    assert run.returncode == 0, run.stderr
    listed = {row["name"]: row["description"] for row in json.loads(run.stdout)}
    assert sorted(listed) == ["pebbles/four", "pebbles/six"]
    assert listed["pebbles/four"].startswith("Four pebbles, player 0 to move")
    # hand-derived: 4 is not a multiple of 3 (take 1 and win), 6 is (lost against best play)
    for name, value, best in (("pebbles/four", 1.0, "take 1"), ("pebbles/six", 0.0, None)):
        run = forest(plugin_env, "pebbles", "best-move", name, "--exact", "--json")
        assert run.returncode == 0, run.stderr
        report = json.loads(run.stdout)
        assert report["value"] == value
        if best is not None:
            assert report["best_action"] == best
    run = forest(plugin_env, "pebbles", "show", "pebbles/four")
    assert (run.returncode, run.stdout) == (0, "pile 4, player 0 to move\n")
    code = (
        "import solver\n"
        "print(solver.puzzles.load('pebbles/six'), solver.puzzles.path('pebbles/six').name)\n"
    )
    run = python_code(plugin_env, code)
    assert run.stdout.split() == ["(6,", "0)", "six.pebbles"], run.stderr
    # the plug-in's own file format, with a parse error that names the file
    (tmp_path / "mine.pebbles").write_text("pile: 5\nto_move: 1\n")
    run = forest(plugin_env, "pebbles", "show", str(tmp_path / "mine.pebbles"))
    assert (run.returncode, run.stdout) == (0, "pile 5, player 1 to move\n")
    (tmp_path / "bad.pebbles").write_text("pile: 5\npebbles: 2\n")
    run = forest(plugin_env, "pebbles", "show", str(tmp_path / "bad.pebbles"))
    assert run.returncode == 2
    assert run.stderr == (
        f"forest: error: {tmp_path / 'bad.pebbles'}: line 2, column 1: expected 'pile: N' or "
        "'to_move: P', found 'pebbles: 2'\n"
    )


def test_a_misnamed_game_is_refused_when_built(plugin_env):
    code = (
        "import dataclasses, sys\n"
        "import pebbles_game\n"
        "pebbles_game.PebblesGame.name = 'pebble'\n"
        "from solver.cli import main\n"
        "sys.exit(main(['pebbles', 'solve', '--exact']))\n"
    )
    run = python_code(plugin_env, code)
    assert run.returncode == 2
    assert run.stderr == (
        "forest: error: game 'pebbles': open gave a game whose name is 'pebble'; a game's `name` "
        "must be its GameSpec's name (set name = 'pebbles' on the game class)\n"
    )


def test_a_broken_entry_point_does_not_break_the_others(plugin_env, tmp_path):
    broken = tmp_path / "broken"
    (broken / "broken_game").mkdir(parents=True)
    (broken / "broken_game" / "__init__.py").write_text("raise ImportError('no such thing')\n")
    (broken / "pyproject.toml").write_text(
        '[build-system]\nrequires = ["setuptools>=77"]\nbuild-backend = "setuptools.build_meta"\n'
        '[project]\nname = "broken-game"\nversion = "1.0"\n'
        '[project.entry-points."forest_solver.games"]\nbroken = "broken_game:SPEC"\n'
        '[tool.setuptools]\npackages = ["broken_game"]\n'
    )
    target = tmp_path / "site"
    pip_install(broken, target)
    env = dict(plugin_env, PYTHONPATH=os.pathsep.join([str(target), plugin_env["PYTHONPATH"]]))
    run = forest(env, "games", "--json")
    assert run.returncode == 0, run.stderr
    assert {row["name"] for row in json.loads(run.stdout)} >= {"dog", "pebbles"}
    code = (
        "import solver\ntry:\n    solver.load_game('broken')\n"
        "except solver.OptionError as e:\n    print(e)\n"
    )
    run = python_code(env, code)
    assert "failed to load: ImportError: no such thing" in run.stdout


def test_a_bug_in_the_plugin_is_reported_as_the_plugins(plugin_env, tmp_path):
    """A plug-in's own exception (its reader's ``int("²")``: ``"²".isdigit()`` holds) ended in
    "this is a bug in forest-solver: please report it"; the line names the plug-in instead. A
    bug of forest-solver's own code is still forest-solver's."""
    path = tmp_path / "odd.pebbles"
    path.write_text("pile: \N{SUPERSCRIPT TWO}\n", encoding="utf-8")
    run = forest(plugin_env, "pebbles", "show", str(path))
    assert run.returncode == 1 and "ValueError" in run.stderr, run.stderr
    last = run.stderr.splitlines()[-1]
    assert last == (
        "forest: this is a bug in the plug-in pebbles_game (the game pebbles), not in "
        "forest-solver: please report it to the plug-in's authors with the command and the "
        "traceback"
    ), last
    code = "import solver.registry as r\nr.registered_games()\nprint(r.plugin_packages())\n"
    run = python_code(plugin_env, code)  # the built-in games' text fields name no package
    assert run.stdout == "{'pebbles_game': 'pebbles'}\n", run.stderr
    ours = (  # forest-solver's code raising on the plug-in's game: forest-solver's bug
        "import sys\n"
        "import solver.cli_show\n"
        "def broken(*args, **keywords):\n"
        "    raise RuntimeError('ours')\n"
        "import solver.cli_position\n"
        "solver.cli_position.open_position = broken\n"
        "solver.cli_show.open_position = broken\n"
        "from solver.cli import main\n"
        "sys.exit(main(['pebbles', 'show']))\n"
    )
    run = python_code(plugin_env, ours)
    assert run.returncode == 1 and "RuntimeError: ours" in run.stderr, run.stderr
    assert run.stderr.splitlines()[-1] == (
        "forest: this is a bug in forest-solver: please report it with the command and the "
        "traceback"
    )
