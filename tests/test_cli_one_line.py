"""Every usage error of ``forest`` is one line on stderr and exit status 2, across commands.

argparse prints a usage line and an error line; ``forest``'s parsers print one line naming the
problem (with the close names: ``did you mean play?``). Found: an unknown word holding a line
break (``$'--x\\ny'``) printed two lines; a mistyped command (``forest dog ply``) got no
suggestion, though a mistyped option did.
"""

from __future__ import annotations

import pytest

from solver.cli import main


def _run(capsys: pytest.CaptureFixture[str], argv: list[str]) -> tuple[int, str, str]:
    try:
        code = main(argv)
    except SystemExit as exc:  # argparse's refusals leave by SystemExit
        code = int(exc.code or 0)
    out, err = capsys.readouterr()
    return code, out, err


SAMPLE = [
    ([], "arguments are required: COMMAND"),
    (["--bogus"], "arguments are required: COMMAND"),  # the missing command first
    (["dgo"], "did you mean dog?"),
    (["dog"], "arguments are required: COMMAND"),
    (["dog", "ply"], "did you mean play?"),
    (["dog", "play", "dog/tiny-example", "--agnet", "mcts"], "did you mean --agent"),
    (["dog", "play", "dog/tiny-example", "--engine", "kernal"], "did you mean kernel?"),
    (["dog", "play", "dog/tiny-example", "--x\ny"], "unrecognized arguments: --x\\ny"),
    (["dog", "generate", "--size"], "expected one argument"),
    (["guardians", "play", "--players", "x"], "expected a whole number, found 'x'"),
    (["guardians", "solo", "--bogus"], "unrecognized arguments: --bogus"),
    (["guardians", "best-move", "--iterations", "0"], "at least 1"),
    (["trial", "play", "--seed", "-1"], "argument --seed"),
    (["trial", "play", "--plyers", "2"], "did you mean --players?"),
    (["analyse", "--jobs", "x"], "argument --jobs"),
    (["analyse", "--count"], "expected one argument"),
    (["analyze", "--gme", "dog"], "did you mean --game?"),
    (["hint", "--bogus"], "unrecognized arguments: --bogus"),
    (["serve", "--port", "x"], "argument --port: expected a whole number from 0 to 65535, found"),
    (["serve", "--port", "70000"], "argument --port: expected a whole number from 0 to 65535"),
    (["analyse", "--count", "x"], "argument --count: expected a whole number, found 'x'"),
    (["analyse", "--turns", "1.5"], "argument --turns: expected a whole number, found '1.5'"),
    (["trial", "best-move", "--player", "x"], "argument --player: expected a whole number"),
    (["guardians", "solo", "--level", "x"], "argument --level: expected a whole number from 1"),
    (["games", "--jsn"], "did you mean --json?"),
]


@pytest.mark.parametrize(("argv", "said"), SAMPLE)
def test_a_usage_error_is_one_line_and_status_2(capsys, argv, said):
    code, out, err = _run(capsys, argv)
    assert code == 2 and out == "", (code, out)
    assert err.count("\n") == 1 and err.endswith("\n"), err
    assert err.startswith("forest") and ": error: " in err and said in err, err


@pytest.mark.parametrize(
    "argv",
    [
        ["dog", "play", "dog/tiny-example", "--games", "1" * 5_000],
        ["guardians", "solo", "--seed", "9" * 5_000],
        ["d" * 5_000],
        ["dog", "play", "dog/tiny-example", "--engine", "k" * 5_000],
    ],
)
def test_a_long_word_is_quoted_by_its_start_and_length(capsys, argv):
    """A 5,000-character value or word is quoted by its first 60 characters and its length,
    not whole (it made a 5,000-character error line)."""
    code, _, err = _run(capsys, argv)
    assert code == 2 and err.count("\n") == 1, err
    assert "(5000 characters)" in err and len(err) < 500, err[:300]


def test_no_flag_takes_argparse_s_own_int() -> None:
    """Every whole-number flag says what it takes in the CLI's words ("expected a whole number
    ..., found 'x'"): argparse's ``type=int`` says "invalid int value: 'x'" (found by attack:
    analyse's counts, ``--player``, ``serve --port``, ``guardians solo --level``)."""
    import argparse

    from solver.cli import build_parser

    def flags(parser: argparse.ArgumentParser, path: str) -> list[str]:
        found = []
        for action in parser._actions:
            if isinstance(action, argparse._SubParsersAction):
                for name, sub in action.choices.items():
                    found += flags(sub, f"{path} {name}")
            elif action.type is int:
                found.append(f"{path} {'/'.join(action.option_strings)}")
        return found

    assert flags(build_parser(), "forest") == []
