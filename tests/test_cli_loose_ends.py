"""User-facing loose ends of the command line (session 36, helper 88): each a refusal that must
be one clear line naming what the user gave, and exit status 2.

- a file error named a 5,000-character path whole: a 5,000-character line (now its first 200
  characters and its length, :func:`solver.errors.path_said`, as a usage error quotes a word);
"""

from __future__ import annotations

import pytest

from solver.cli import main
from solver.errors import MOST_PATH

GAMES = ("dog", "guardians", "trial")
LONG = "/tmp/" + "a" * 5_000


def _run(capsys: pytest.CaptureFixture[str], argv: list[str]) -> tuple[int, str]:
    try:
        code = main(argv)
    except SystemExit as exc:  # argparse's refusals leave by SystemExit
        code = int(exc.code or 0)
    return code, capsys.readouterr().err


def _one_short_line(code: int, err: str, said: str) -> None:
    assert code == 2, (code, err[:300])
    assert err.count("\n") == 1, err[:300]
    assert said in err and len(err) < 3 * MOST_PATH + 200, err[:300]


@pytest.mark.parametrize("game", GAMES)
@pytest.mark.parametrize(
    "argv",
    [
        ["show", LONG + ".forest"],
        ["show", LONG + ".json"],
        ["review", LONG + ".json"],
        ["play", "--games", "1", "--iterations", "1", "--record", LONG + "/g.json"],
    ],
    ids=["show", "show-json", "review", "play-record"],
)
def test_a_long_path_is_named_by_its_start_and_length(capsys, game, argv):
    if game == "dog" and argv[0] == "play":  # the dog plays on a forest it is given
        argv = [*argv, "dog/tiny-example"]
    code, err = _run(capsys, [game, *argv])
    _one_short_line(code, err, "characters)")


@pytest.mark.parametrize("game", GAMES)
def test_a_long_folder_path_in_a_parse_error_is_shortened(capsys, tmp_path, game):
    """A file that is found but not read as the game's (its parse error names the file)."""
    folder = tmp_path / ("d" * 200)
    folder.mkdir()
    target = folder / "x.json"
    target.write_text("{nonsense", encoding="utf-8")
    code, err = _run(capsys, [game, "show", str(target)])
    _one_short_line(code, err, f"({len(str(target))} characters)")
    assert str(target) not in err
