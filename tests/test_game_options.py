"""A game's own factory options reach every generic command: ``--option NAME=VALUE``.

Guardians declares ``level`` and ``tiles`` (``GameSpec.options``); the values go to its opener
and from there to ``load_game``'s factory, as ``load_game("guardians", level=3)`` would.
"""

from __future__ import annotations

import pytest

from solver.registry import game_spec
from solver.testing import run_forest as forest


def test_the_opener_takes_the_declared_options():
    spec = game_spec("guardians")
    assert set(spec.options) == {"level", "tiles"}
    opened = spec.open(None, players=1, level=4)
    assert opened.game.level.number == 4


@pytest.mark.parametrize("level", [1, 6])
def test_option_level_reaches_the_game(level):
    run = forest("guardians", "best-move", "--players", "1", "--option", f"level={level}",
                 "--iterations", "20", "--json")  # fmt: skip
    assert run.returncode == 0, run.stderr
    run = forest("guardians", "show", "--players", "1", "--option", f"level={level + 6}")
    assert run.returncode == 2
    assert run.stderr == f"forest: error: a solo level is a whole number 1..6, not {level + 6}\n"


def test_option_text_values_and_errors(tmp_path):
    missing = tmp_path / "no-such-tiles.json"
    run = forest("guardians", "show", "--option", f"tiles={missing}")
    assert run.returncode == 2 and str(missing) in run.stderr, run.stderr
    run = forest("guardians", "show", "--option", "colour=red")
    assert (
        run.stderr
        == "forest: error: guardians has no option 'colour' (its options: level, tiles)\n"
    )
    run = forest("guardians", "show", "--option", "level")
    assert run.stderr == "forest: error: --option takes NAME=VALUE, not 'level'\n"
    run = forest("dog", "show", "dog/tiny-2x2", "--option", "x=1")  # the dog declares none
    assert run.returncode == 2 and "unrecognized arguments: --option" in run.stderr


@pytest.mark.parametrize("command", [("play", "--games", "1", "--iterations", "1"), ("show",)])
def test_option_level_with_more_than_one_player_is_refused(command):
    """Levels are solo only: a level given to a game of 2-4 players is refused in one line
    (status 2), never ignored (found by attack: ``play --players 3 --option level=5`` played an
    ordinary 3-player game)."""
    run = forest("guardians", command[0], "--players", "3", "--option", "level=5", *command[1:])
    assert run.returncode == 2 and run.stdout == "", run.stdout
    assert run.stderr.count("\n") == 1 and "solo" in run.stderr and "3 players" in run.stderr
    from solver.errors import OptionError
    from solver.games.guardians.rules import GuardiansGame

    with pytest.raises(OptionError, match="solo"):
        GuardiansGame(2, level=1)  # even level 1, the solo default, is not ignored
    assert GuardiansGame(2).level is None and GuardiansGame(1).level.number == 1
