"""User-facing loose ends of the command line (session 36, helper 88): each a refusal that must
be one clear line naming what the user gave, and exit status 2.

- a file error named a 5,000-character path whole: a 5,000-character line (now its first 200
  characters and its length, :func:`solver.errors.path_said`, as a usage error quotes a word);
- ``--option level=1e400`` was refused as "not the number Infinity": it now quotes the number as
  typed and says it is out of range; ``--seconds 1e400`` (and ``1e-400``) say so too;
- ``forest dog pl$'\\xe9'y`` (a Latin-1 byte from a non-UTF-8 terminal) and ``forest dog PLAY``
  got no "did you mean play?", while ``ply`` and ``pléy`` did;
- ``forest dog generate --max-tries 0`` was refused naming ``max_tries``, the generator's
  parameter (``--turns``, ``--par-at-least``, ``--size``, ``--seed`` alike): the flag is named;
- (hostile input) a saved state or record holding ``1e400`` or ``NaN`` (no JSON number) was read
  as infinity (``guardians is played by 1, 2, 3, 4 player(s), not inf``); a record given as
  ``--option tiles`` was refused without naming the file.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

import solver
from solver.cli import main
from solver.errors import MOST_PATH, OptionError

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


@pytest.mark.parametrize(
    ("value", "said"),
    [
        (
            "level=1e400",
            "--option level takes one of 1, 2, 3, 4, 5, 6, not the number 1e400, "
            "which is out of range",
        ),
        ("level=-1e400", "not the number -1e400, which is out of range"),
        ("level=[1e400]", "not '[1e400]', whose number 1e400 is out of range"),
        (
            "open_backs=1e999",
            "--option open_backs takes a boolean, true or false, not the number "
            "1e999, which is out of range",
        ),
        (
            "tiles=1e400",
            "--option tiles takes a file's path (a text) or its JSON form (an "
            "object), not the number 1e400, which is out of range",
        ),
        ("level=1e2", "not the number 1e2"),  # as typed, not 100.0
        ("level=NaN", 'not the text "NaN"'),  # no JSON: a text, as any other word
    ],
)
def test_an_option_number_out_of_range_is_quoted_as_typed(capsys, value, said):
    code, err = _run(capsys, ["guardians", "show", "--option", value])
    _one_short_line(code, err, said)
    assert "Infinity" not in err and "100.0" not in err


@pytest.mark.parametrize("second", ["level=4", "level=3", " level=4"])
def test_an_option_given_twice_is_refused(capsys, second):
    """``--option level=3 --option level=4`` took the last silently, where a request naming a
    key twice is refused (found by helper 91); the same value twice is refused too: give it
    once."""
    code, err = _run(capsys, ["guardians", "show", "--option", "level=3", "--option", second])
    _one_short_line(code, err, "--option level is given twice: give it once")


@pytest.mark.parametrize("game", GAMES)
@pytest.mark.parametrize(
    ("flag", "value", "said"),
    [
        (
            "--seconds",
            "1e400",
            "argument --seconds: expected a positive number, found '1e400', which is out of range",
        ),
        ("--seconds", "1e-400", "found '1e-400', which is too small (it reads as 0)"),
        ("--iterations", "1e400", "argument --iterations: expected a whole number, found '1e400'"),
        ("--seed", "1e400", "argument --seed: expected a whole number, found '1e400'"),
    ],
)
def test_a_numeric_flag_out_of_range_is_named_as_typed(capsys, game, flag, value, said):
    argv = [game, "solve", flag, value] + (["dog/tiny-example"] if game == "dog" else [])
    code, err = _run(capsys, argv)
    _one_short_line(code, err, said)


def test_the_memory_cap_out_of_range_is_named_as_typed(capsys):
    """``--memory-mb``: the dog's (the games that have an exact search)."""
    code, err = _run(capsys, ["dog", "best-move", "--memory-mb", "1e400", "dog/tiny-example"])
    _one_short_line(
        code,
        err,
        "argument --memory-mb: expected a positive number, found '1e400', which is out of range",
    )


@pytest.mark.parametrize(
    ("argv", "meant"),
    [
        (["dog", "pl\udce9y"], "did you mean play?"),  # the byte 0xE9, as Python holds it
        (["dog", "pléy"], "did you mean play?"),
        (["dog", "PLAY"], "did you mean play?"),
        (["d\udcf6g"], "did you mean dog?"),
        (["guardians", "play", "--engine", "KERNAL"], "did you mean kernel?"),
    ],
)
def test_a_mistyped_word_that_is_not_ascii_gets_the_close_choice(capsys, argv, meant):
    code, err = _run(capsys, argv)
    _one_short_line(code, err, meant)


def test_a_non_utf8_command_word_from_a_real_process_gets_the_close_choice():
    """The bytes as a terminal in Latin-1 sends them: Python's argv holds a surrogate."""
    root = Path(__file__).resolve().parents[1]
    env = {**os.environ, "PYTHONPATH": str(root), "LC_ALL": "C.UTF-8"}
    done = subprocess.run(
        [os.fsencode(sys.executable), b"-m", b"solver.cli", b"dog", b"pl\xe9y"],
        capture_output=True, env=env, timeout=120, check=False,
    )  # fmt: skip
    err = done.stderr.decode("utf-8", "backslashreplace")
    assert done.returncode == 2 and err.count("\n") == 1, err
    assert "did you mean play?" in err and "Traceback" not in err, err


@pytest.mark.parametrize(
    ("argv", "flag"),
    [
        (["dog", "generate", "--max-tries", "0", "--win-probability", "0.1:0.9"], "--max-tries"),
        (["dog", "generate", "--max-tries", "0"], "--max-tries"),  # was taken silently
        (
            ["dog", "generate", "--par-at-least", "0", "--win-probability", "0.1:0.9"],
            "--par-at-least",
        ),
        (["dog", "generate", "--turns", "0"], "--turns"),
        (["dog", "generate", "--turns", "256"], "--turns"),
        (["dog", "generate", "--size", "1x9"], "--size"),
        (["dog", "generate", "--size", "9x17"], "--size"),
        (["dog", "generate", "--seed", "-1"], "--seed"),
        (["dog", "random-game", "dog/tiny-example", "--seed", "-1"], "--seed"),
        (["guardians", "solo", "--seed", "18446744073709551616"], "--seed"),
    ],
)
def test_a_refused_flag_is_named_as_typed_not_as_a_parameter(capsys, argv, flag):
    code, err = _run(capsys, argv)
    _one_short_line(code, err, f"argument {flag}: ")
    python_name = flag[2:].replace("-", "_")  # the API's words: "max_tries must be ..."
    assert f"{python_name} must" not in err and "width must" not in err, err


@pytest.mark.parametrize(
    ("query", "said"),
    [
        ("win by 0", "in 'win by 0': a turn is 1 or more, not 0"),
        ("stamina >= 99", "in 'stamina >= 99': stamina is 0 to 6, not 99"),
    ],
)
def test_a_route_query_out_of_range_is_named_in_its_own_words(capsys, query, said):
    """``dog route --query``: it said ``win_by must be ...``, ``stamina_floor must be ...``."""
    code, err = _run(capsys, ["dog", "route", "dog/tiny-example", "--query", query])
    _one_short_line(code, err, said)


@pytest.mark.parametrize("number", ["1e400", "-1e999", "NaN", "Infinity"])
@pytest.mark.parametrize("game", GAMES)
def test_a_json_file_holding_no_json_number_is_refused_where_it_stands(
    capsys, tmp_path, game, number
):
    """A saved state (every game) and a record: the file, the line and column of the number and
    the number as written; never read as ``inf``/``nan``."""
    state = tmp_path / "s.json"
    state.write_text(f'{{"game": "{game}",\n "x": {number}}}', encoding="utf-8")
    argv = [game, "show", "--state", str(state)] + (["dog/tiny-example"] if game == "dog" else [])
    code, err = _run(capsys, argv)
    said = f"s.json: line 2, column 7: expected a finite JSON number, found '{number}'"
    _one_short_line(code, err, said)
    text = f'{{"game": "{game}", "options": {{"players": {number}}}, "actions": []}}'
    record = tmp_path / "r.json"
    record.write_text(text, encoding="utf-8")
    code, err = _run(capsys, [game, "show", str(record)])
    column = text.index(number) + 1  # where the number stands, counted by hand from the text
    _one_short_line(code, err, f"r.json: line 1, column {column}: expected a finite JSON number")
    assert "inf" not in err.replace("Infinity", "") and "nan" not in err, err


def test_a_tile_set_file_of_the_wrong_content_is_named(capsys, tmp_path):
    """``--option tiles=FILE`` holding JSON that is no tile set (a game record): the file is
    named with what was found (it said only "line 1, column 1: expected tile set field ...")."""
    wrong = tmp_path / "record.json"
    wrong.write_text('{"game": "guardians", "options": {}, "actions": []}', encoding="utf-8")
    code, err = _run(capsys, ["guardians", "show", "--option", f"tiles={wrong}"])
    _one_short_line(code, err, f"forest: error: {wrong}: line 1, column 1: expected tile set")


def test_a_host_the_system_cannot_say_is_one_line():
    """``forest serve --host $'\\xff'`` (a byte not UTF-8) was a traceback: bind() raised a
    TypeError ("encoding of hostname failed")."""
    pytest.importorskip("uvicorn")
    root = Path(__file__).resolve().parents[1]
    env = {**os.environ, "PYTHONPATH": str(root), "LC_ALL": "C.UTF-8"}
    done = subprocess.run(
        [os.fsencode(sys.executable), b"-m", b"solver.cli", b"serve", b"--host", b"\xff",
         b"--port", b"0"],
        capture_output=True, env=env, timeout=120, check=False,
    )  # fmt: skip
    err = done.stderr.decode("utf-8", "backslashreplace")
    assert done.returncode == 2 and err.count("\n") == 1 and "Traceback" not in err, err
    assert err.startswith("forest: error: --host '\\udcff' is no host name"), err


def test_a_report_folder_that_is_a_device_is_not_called_a_file(capsys, tmp_path):
    pytest.importorskip("pandas")
    argv = ["analyse", "--count", "1", "--size", "5x5", "-o", str(tmp_path / "r.csv"),
            "--report", "/dev/null"]  # fmt: skip
    code, err = _run(capsys, argv)
    _one_short_line(code, err, "--report '/dev/null' is not a directory")


@pytest.mark.parametrize("game", GAMES)
@pytest.mark.parametrize("name", ["board.pdf", "board.PNG", "board.jpg"])
def test_render_refuses_a_name_of_another_format(capsys, tmp_path, game, name):
    """``render -o board.pdf`` wrote SVG text into a .pdf (no viewer opens it), exit 0."""
    target = tmp_path / name
    argv = [game, "render", "-o", str(target)] + (["dog/tiny-example"] if game == "dog" else [])
    code, err = _run(capsys, argv)
    kind = name.rsplit(".", 1)[1].upper()
    _one_short_line(code, err, f"the drawing is SVG, not {kind}; name the file .svg")
    assert not target.exists()


def test_order_svg_refuses_a_name_of_another_format(capsys, tmp_path):
    target = tmp_path / "plan.png"
    code, err = _run(capsys, ["guardians", "order", "guardians/chain", "--svg", str(target)])
    _one_short_line(code, err, "--svg ")
    assert "the drawing is SVG, not PNG" in err and not target.exists()


def test_a_long_engine_variable_is_quoted_by_its_start(capsys, monkeypatch):
    monkeypatch.setenv("SOLVER_ENGINE", "k" * 5_000)
    code, err = _run(capsys, ["dog", "show", "dog/tiny-example"])
    _one_short_line(code, err, "(5000 characters)' is not an engine")


@pytest.mark.parametrize(
    ("command", "record", "said"),
    [
        (
            "review",
            {"game": "dog", "options": [], "actions": []},
            'r.json: a game record\'s "options" is an object',
        ),  # the file was not named
        (
            "show",
            {"game": "dog", "options": {"forest": "dog/tiny-example"}, "actions": [True]},
            "r.json: the record's action 0, id true, is neither",
        ),  # Python's True before
        (
            "show",
            {"game": "g" * 5_000, "options": {}, "actions": []},
            "(5000 characters)', no game of forest's (its games: dog, guardians, trial)",
        ),
        (
            "review",
            {"game": "g" * 5_000, "options": {}, "actions": []},
            "(5000 characters)', not dog",
        ),
    ],
)
def test_a_hostile_record_is_named_in_one_short_line(capsys, tmp_path, command, record, said):
    """A record of no known game was told to run ``forest GAME`` with that name (5,000
    characters of it); a record's faults name the file; a value is named as JSON writes it."""
    path = tmp_path / "r.json"
    path.write_text(json.dumps(record), encoding="utf-8")
    code, err = _run(capsys, ["dog", command, str(path)])
    _one_short_line(code, err, said)


@pytest.mark.parametrize("game", GAMES)
def test_a_ladder_level_of_thousands_of_digits_is_refused_in_one_line(capsys, game):
    """``--agent level99...9`` (5,000 digits) was a traceback: int() refuses more than 4,300
    digits. It is no level: refused as any other, quoted by its start."""
    argv = [game, "play", "--agent", "level" + "9" * 5_000, "--games", "1"]
    code, err = _run(capsys, argv + (["dog/tiny-example"] if game == "dog" else []))
    _one_short_line(code, err, "a strength is a level from 1 to 10, not 'level999")
    assert "(5005 characters)" in err


@pytest.mark.parametrize(
    ("flag", "value", "said"),
    [
        ("--games", "9" * 5_000, "expected a whole number from 1 to 9223372036854775807"),
        ("--seed", "9" * 5_000, "expected a seed from 0 to 18446744073709551615 (64 bits)"),
        ("--seed", "-" + "9" * 5_000, "expected a whole number of at least 0"),
    ],
)
def test_a_whole_number_of_thousands_of_digits_is_named_by_its_bound(capsys, flag, value, said):
    """It was told "expected a whole number": int() refuses more than 4,300 digits."""
    code, err = _run(capsys, ["guardians", "play", flag, value])
    _one_short_line(code, err, f"argument {flag}: {said}, found '")


@pytest.mark.parametrize(
    ("game", "base"),
    [("dog", {"forest": "dog/tiny-example"}), ("guardians", {}), ("trial", {"players": 2})],
)
@pytest.mark.parametrize("engine", ["kernel", "reference"])
def test_a_long_label_that_names_no_action_is_quoted_by_its_start(game, base, engine):
    """A hint request's action label of 5,000 characters was quoted whole in its refusal."""
    from solver.hint.engine import answer

    reply = answer({"id": "a", "game": game, "engine": engine, "options": base,
                    "actions": ["q" * 5_000]})  # fmt: skip
    assert reply["code"] == "illegal_action", reply
    assert "(5000 characters)" in reply["error"] and len(reply["error"]) < 1_000, reply


@pytest.mark.parametrize(("game", "option"), [("dog", "forest"), ("guardians", "position")])
def test_a_puzzle_name_too_long_for_a_file_is_an_unknown_puzzle(game, option):
    """``load_game("dog", forest="dog/qqq...")`` (5,000 characters) raised a bare OSError (File
    name too long) from a check whether such a file exists; the API raises only its own."""
    with pytest.raises(OptionError) as caught:
        solver.load_game(game, **{option: f"{game}/" + "q" * 5_000})
    assert str(caught.value).startswith(f"unknown puzzle '{game}/qqq")
    assert "characters)" in str(caught.value)


def test_an_option_number_of_thousands_of_digits_is_a_number_out_of_range(capsys):
    """``--option level=99...9`` (5,000 digits) was called a text: JSON's reader refused it."""
    code, err = _run(capsys, ["guardians", "show", "--option", "level=" + "9" * 5_000])
    _one_short_line(code, err, "not the number 999")
    assert "(5000 characters), which is out of range" in err


@pytest.mark.parametrize(
    ("typed", "said"),
    [
        # JSON reads -0 as 0, and the game quoted that: "a solo level is ... 1..6, not 0"
        ("-0", "--option level takes one of 1, 2, 3, 4, 5, 6, not the number -0"),
        # no JSON (a leading zero), read as a flag reads it (7): it was "the number 05, which is
        # out of range", then 'the text "05"'
        ("07", "--option level takes one of 1, 2, 3, 4, 5, 6, not the number 07"),
    ],
)
def test_an_option_value_is_quoted_as_typed(capsys, typed, said):
    code, err = _run(capsys, ["guardians", "show", "--players", "1", "--option", f"level={typed}"])
    _one_short_line(code, err, said)
    assert "out of range" not in err and "not 0" not in err, err


def test_a_record_s_refusal_quotes_the_option_as_typed(capsys, tmp_path, monkeypatch):
    """A record opened with an ``--option`` it does not hold quotes the option as typed
    (``tiles=t.json``), not as JSON writes the text (``tiles="t.json"``)."""
    record = tmp_path / "r.json"
    record.write_text(json.dumps({"game": "guardians", "options": {"players": 1}, "actions": []}))
    (tmp_path / "t.json").write_text("{}")
    monkeypatch.chdir(tmp_path)
    code, err = _run(capsys, ["guardians", "show", str(record), "--option", "tiles=t.json"])
    _one_short_line(code, err, "not the tiles=t.json --option asks for")


def test_a_long_selection_is_quoted_by_its_start(capsys, tmp_path):
    pytest.importorskip("pandas")
    expression = "class == 1 and " * 3_000 + "True"
    argv = ["analyse", "--count", "1", "--size", "5x5", "-o", str(tmp_path / "s.csv"),
            "--select", expression, "--no-progress"]  # fmt: skip
    code, err = _run(capsys, argv)
    _one_short_line(code, err, f"({len(expression)} characters)': longer than")


@pytest.mark.parametrize(
    "argv",
    [
        ["dog", "best-move", "dog/tiny-example"],
        ["trial", "play", "--games", "1"],
        ["guardians", "solve"],
        ["trial", "review", "no-such-record.json"],
    ],
)
def test_iterations_past_the_search_s_tree_are_refused_as_read(capsys, argv):
    """``--iterations 4294967296`` was taken (the parser's bound was 2^63 - 1): best-move
    refused it later in the search's words, and ``trial review`` ran as long as it was asked.
    The bound is the searches' own (their trees count visits in 32 bits)."""
    from solver.cmdkit import MAX_SIMULATIONS
    from solver.search.mcts_reference import MAX_VISITS

    assert MAX_SIMULATIONS == MAX_VISITS == 2**32 - 1
    code, err = _run(capsys, [*argv, "--iterations", str(2**32)])
    _one_short_line(
        code, err, "argument --iterations: expected a whole number from 1 to 4294967295"
    )


@pytest.mark.parametrize(
    "origin",
    ["", "http://localhost:3000/", "https://example.org/app", "localhost:3000", "http://a b"],
)
def test_a_cors_origin_no_browser_sends_is_refused(capsys, origin):
    # Found by attack: --cors-origin took any text, and the middleware compares the Origin
    # header exactly: 'http://localhost:3000/' (a trailing slash) never matched, so CORS stayed
    # off without a word. Refused before the server binds; '*' and scheme://host[:port] pass.
    from solver.hint.cli import _origin

    code, err = _run(capsys, ["serve", "--port", "0", "--cors-origin", origin])
    _one_short_line(code, err, "expected an origin as a browser sends it")
    for good in ("*", "http://localhost:3000", "https://example.org", "capacitor://localhost"):
        assert _origin(good) == good


@pytest.mark.parametrize(
    ("argv", "said"),
    [
        (
            ["dog", "analyse"],
            "analyse is a command of its own, not a game's: forest analyse --help",
        ),
        (["guardians", "analyze"], "analyze is a command of its own, not a game's"),
        (["trial", "serve"], "serve is a command of its own, not a game's: forest serve --help"),
    ],
)
def test_a_command_of_forest_given_to_a_game_says_where_it_is(capsys, argv, said):
    """Found by a new user's pass: every command is ``forest GAME ...`` but ``analyse``,
    ``hint`` and ``serve``, and ``forest dog analyse`` listed the dog's commands alone (``serve``
    got "did you mean solve?"). The refusal says the command is ``forest``'s own."""
    code, err = _run(capsys, argv)
    _one_short_line(code, err, said)
    assert "did you mean" not in err
