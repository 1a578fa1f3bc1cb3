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
def test_a_game_record_given_as_a_state_is_its_end(tmp_path, game):
    """Found by a new user's pass: the web table's saved position (a record: game, options,
    seed, actions, state) given to ``forest guardians best-move --state`` said 'line 1, column 1:
    expected state field backs to be present, found null'; then a one-line refusal naming a
    record. Now the record is replayed: play --record's file as FILE and as --state is shown
    as the game's end (the dog's FILE is the record itself: beside another FILE it is refused)."""
    source = ["dog/another-dog"] if game == "dog" else []
    run = forest(game, "play", *source, "--agent", "random", "--record", "game.json",
                 "--no-progress", cwd=tmp_path)  # fmt: skip
    assert run.returncode == 0, run.stderr
    shown = forest(game, "show", "game.json", cwd=tmp_path)
    assert shown.returncode == 0 and shown.stdout, shown.stderr
    run = forest(game, "show", *source, "--state", "game.json", cwd=tmp_path)
    if source:
        one_line_error(run, f"game.json is a {game} game record, which holds its own game")
    else:
        assert run.returncode == 0 and run.stdout == shown.stdout, run.stderr


# -- a game record where a saved state goes --------------------------------------------------------
RECORD_SOURCES = {"dog": ["dog/another-dog"], "guardians": [], "trial": []}
"""Each game's FILE of the records below (a puzzle, or the default set-up)."""


def _opened_by_cli(game: str, argv: list[str]):
    """The position ``forest GAME show ARGV`` opens (in-process, through the command's parser)."""
    from solver.cli import build_parser
    from solver.cli_position import open_position
    from solver.registry import game_spec

    args = build_parser(game).parse_args([game, "show", *argv])
    return open_position(game_spec(game), args)


def _random_line(game: str, engine: str, plies: int, seed: int = 7):
    """A game opened as its record says and a random line of ``plies`` actions on it: the
    game, the record's options and the actions with their labels."""
    import random

    from solver.registry import game_spec

    spec = game_spec(game)
    options = {spec.source_option: RECORD_SOURCES[game][0]} if RECORD_SOURCES[game] else {}
    if len(spec.players) > 1:
        options["players"] = 3 if game == "guardians" else 2
    source = options.get(spec.source_option) if spec.source_option else None
    opened = spec.open(source, engine=engine, players=options.get("players"))
    state, rng = opened.state, random.Random(seed)
    actions, labels = [], []
    while len(actions) < plies and not state.is_terminal():
        action = rng.choice(state.legal_actions())
        actions.append(action)
        labels.append(state.action_to_string(action))
        state.apply_action(action)
    return opened.game, options, actions, labels


def _replayed(game_obj, start, actions):
    state = game_obj.new_initial_state() if start is None else game_obj.state_from_json(start)
    for action in actions:
        state.apply_action(action)
    return state


@pytest.mark.parametrize("game", ["dog", "guardians", "trial"])
def test_a_game_record_is_read_where_a_saved_state_goes(tmp_path, game):
    """The web table's Save buttons and play --record write game records; given to a command's
    ``--state`` (or as a .json FILE) they were refused ('X is a GAME game record ..., not a saved
    state'). Now the record's game is rebuilt from its game/options (and the state it started
    from) and its actions replayed: the position is the one a direct replay reaches (to_json
    equal), on each engine, for a played-out game (a hidden-information game's too: its state
    is the whole state, as a saved one), a record from a saved state, and a saved position."""
    import json

    from solver.registry import game_spec

    spec = game_spec(game)
    for engine in spec.engine_names():
        game_obj, options, actions, labels = _random_line(game, engine, 400)
        half = len(actions) // 2
        middle = _replayed(game_obj, None, actions[:half])
        records = {  # (the record, the position it ends at)
            "played": ({"game": game, "options": options, "seed": 0, "actions": actions,
                        "labels": labels, "engine": engine}, _replayed(game_obj, None, actions)),
            # the Save record button after a start from a saved position: state is an object
            "from-state": ({"game": game, "options": options, "seed": 3,
                            "actions": actions[half:], "labels": labels[half:],
                            "state": json.loads(middle.to_json())},
                           _replayed(game_obj, None, actions)),
            # Save position: no actions, the position's state (or the line, labels by name)
            "position": ({"game": game, "options": options, "seed": 0, "actions": [],
                          "state": json.loads(middle.to_json())}, middle),
            "by-label": ({"game": game, "options": options, "seed": 0,
                          "actions": labels[:half]}, middle),
        }  # fmt: skip
        for name, (record, expected) in records.items():
            path = tmp_path / f"{game}-{engine}-{name}.json"
            path.write_text(json.dumps(record), encoding="utf-8")
            for argv in (["--engine", engine, str(path)],
                         ["--engine", engine, "--state", str(path)]):  # fmt: skip
                if not spec.default_source and "--state" in argv:
                    continue  # the dog's FILE is required: its record goes as FILE
                opened = _opened_by_cli(game, argv)
                assert opened.state.to_json() == expected.to_json(), (engine, name, argv)
                assert opened.game.num_players() == game_obj.num_players()


def test_a_record_s_position_is_what_show_and_best_move_read(tmp_path):
    """From the command line: play --record's file given to show (FILE and --state) and to
    best-move; play RECORD --record writes a record that starts from that position."""
    import json

    run = forest("guardians", "play", "--players", "2", "--agent", "random", "--record",
                 "game.json", "--no-progress", cwd=tmp_path)  # fmt: skip
    assert run.returncode == 0, run.stderr
    shown = forest("guardians", "show", "game.json", cwd=tmp_path)
    assert shown.returncode == 0, shown.stderr
    assert forest("guardians", "show", "--state", "game.json", cwd=tmp_path).stdout == shown.stdout
    record = json.loads((tmp_path / "game.json").read_text())
    record["actions"] = record["actions"][:5]
    record["labels"] = record["labels"][:5]
    (tmp_path / "five.json").write_text(json.dumps(record))
    run = forest("guardians", "best-move", "--state", "five.json", "--iterations", "20",
                 "--no-progress", "--json", cwd=tmp_path)  # fmt: skip
    assert run.returncode == 0, run.stderr
    run = forest("guardians", "play", "five.json", "--agent", "random", "--record",
                 "rest.json", "--no-progress", cwd=tmp_path)  # fmt: skip
    assert run.returncode == 0, run.stderr
    rest = json.loads((tmp_path / "rest.json").read_text())
    game_obj = load_game("guardians", players=2)
    # was: the record's options.position held five.json's text (read as the game's file), no
    # state; a record no command could replay
    assert rest["options"] == {"players": 2}
    assert forest("guardians", "show", "rest.json", cwd=tmp_path).returncode == 0
    saved = rest["state"]  # play --record writes the start's to_json() text
    start = game_obj.state_from_json(saved if isinstance(saved, str) else json.dumps(saved))
    assert (
        start.to_json()
        == _opened_by_cli("guardians", [str(tmp_path / "five.json")]).state.to_json()
    )


@pytest.mark.parametrize(
    ("game", "change", "said"),
    [
        ("guardians", {"game": "dog"},
         "game.json is a dog game record, not a guardians one: forest dog reads it"),
        ("guardians", {"actions": [0, 0, 999999]},
         "game.json: the record's action 2, 'third' (id 999999), is not legal where the record "
         "plays it"),
        ("guardians", {"actions": ["no such move"], "labels": None},
         "game.json: the record's action 0, 'no such move', is not legal where the record plays "
         "it"),
        ("trial", {"options": {"players": 9}}, "game.json: trial is played by"),
    ],
)  # fmt: skip
def test_a_record_that_cannot_be_replayed_is_one_line(tmp_path, game, change, said):
    """A record of another game names both; an illegal action its index and label."""
    import json

    _, options, actions, labels = _random_line(game, "reference", 2)
    record = {"game": game, "options": options, "seed": 0, "actions": actions,
              "labels": [*labels, "third"], **change}  # fmt: skip
    if record.get("labels") is None:
        del record["labels"]
    if len(record["actions"]) == 3:
        record["actions"][:2] = actions
    (tmp_path / "game.json").write_text(json.dumps(record))
    for argv in (["game.json"], ["--state", "game.json"]):
        one_line_error(forest(game, "show", *argv, cwd=tmp_path), said)


def test_a_record_beside_its_file_or_another_option_is_refused(tmp_path):
    import json

    _, options, actions, _ = _random_line("dog", "reference", 2)
    record = {"game": "dog", "options": options, "seed": 0, "actions": actions}
    (tmp_path / "game.json").write_text(json.dumps(record))
    one_line_error(
        forest("dog", "show", "dog/another-dog", "--state", "game.json", cwd=tmp_path),
        "game.json is a dog game record, which holds its own game: give it alone (as FILE), not "
        "beside FILE dog/another-dog",
    )
    record = {"game": "guardians", "options": {"players": 2}, "seed": 0, "actions": []}
    (tmp_path / "g.json").write_text(json.dumps(record))
    one_line_error(
        forest("guardians", "show", "g.json", "--option", "open_backs=true", cwd=tmp_path),
        "g.json is a record of a game with the default open_backs, not the open_backs=true "
        "--option asks for",
    )
    one_line_error(forest("guardians", "show", "g.json", "--players", "3", cwd=tmp_path),
                   "g.json is a game of 2 player(s), not the 3 --players asks for")  # fmt: skip


@pytest.mark.parametrize(
    ("players", "option", "same"),
    [
        (2, "open_backs=false", True),
        (2, "open_backs=true", False),
        (1, "level=1", True),
        (1, "level=2", False),
        (1, "open_backs=false", True),
    ],
)
def test_a_record_takes_an_option_given_at_its_default(tmp_path, players, option, same):
    """Found by an attack pass: `show g.rec.json --option open_backs=false` was refused as
    "a record of a game with the default open_backs" for a record that omits the option; an
    explicit default is the same game (compared as the games hold it), another value is not."""
    import json

    record = {"game": "guardians", "options": {"players": players}, "seed": 0, "actions": []}
    (tmp_path / "g.json").write_text(json.dumps(record))
    argv = ("g.json", "--players", str(players), "--option", option)
    run = forest("guardians", "show", *argv, cwd=tmp_path)
    if same:
        assert run.returncode == 0, run.stderr
        assert run.stdout == forest("guardians", "show", "g.json", cwd=tmp_path).stdout
    else:
        name = option.partition("=")[0]
        one_line_error(run, f"g.json is a record of a game with the default {name}, not the "
                            f"{option} --option asks for")  # fmt: skip


def test_a_record_of_another_game_takes_its_own_player_count(tmp_path):
    """Trial declares no game options (no ``--option``): its record opens the same with its
    own player count given explicitly, and another count is still refused."""
    import json

    _, options, actions, _ = _random_line("trial", "reference", 3)
    record = {"game": "trial", "options": options, "seed": 0, "actions": actions}
    (tmp_path / "t.json").write_text(json.dumps(record))
    plain = forest("trial", "show", "t.json", cwd=tmp_path)
    counted = forest("trial", "show", "t.json", "--players", str(options["players"]),
                     cwd=tmp_path)  # fmt: skip
    assert plain.returncode == counted.returncode == 0 and plain.stdout == counted.stdout
    one_line_error(forest("trial", "show", "t.json", "--players", "4", cwd=tmp_path),
                   "t.json is a game of 2 player(s), not the 4 --players asks for")  # fmt: skip


@pytest.mark.parametrize(
    ("argv", "said"),
    [
        (["dog", "show", "stick"],
         "stick: no such forest file; did you mean the puzzle dog/stick?"),
        (["dog", "play", "stik.forest", "--games", "1"],
         "stik.forest: no such forest file; did you mean the puzzle dog/stick?"),
        (["guardians", "best-move", "two-pawns"],
         "two-pawns: no such position; did you mean the puzzle guardians/two-pawns?"),
        (["dog", "show", "nothing-like-it"], "nothing-like-it: no such forest file\n"),
        (["dog", "show", "dog/stik"], "close matches: 'dog/stick'\n"),  # its own error, once
    ],
)  # fmt: skip
def test_a_missing_file_named_like_a_puzzle_names_the_puzzle(tmp_path, monkeypatch, argv, said):
    """Found by a new user's pass: `forest dog show stick` said only 'stick: no such forest
    file', where the puzzle is `dog/stick` (the list prints them with the game's name first);
    a missing FILE named with no folder now names the puzzle it matches, or close ones."""
    monkeypatch.chdir(tmp_path)  # no file of those names here
    code, out, err = cli(argv)
    assert (code, out) == (2, "") and err.count("\n") == 1, (code, err)
    assert err.startswith("forest: error: ") and said in err, err


@pytest.mark.parametrize(
    ("argv", "fix", "own"),
    [
        (["analyse", "--game", "trial", "guardians/order-trap"], "use --game guardians",
         "give a trial file (trial ships no puzzles)"),
        (["analyse", "guardians/order-trap"], "use --game guardians",  # --game's default: dog
         "pick a dog puzzle (forest dog list)"),
        (["trial", "show", "guardians/order-trap"], "use forest guardians show",
         "give a trial file (trial ships no puzzles)"),
        (["guardians", "best-move", "dog/stick"], "use forest dog best-move",
         "pick a guardians puzzle (forest guardians list)"),
    ],
)  # fmt: skip
def test_another_game_s_puzzle_is_refused_naming_the_mismatch(tmp_path, monkeypatch, argv, fix,
                                                              own):  # fmt: skip
    """Found by a user: `forest analyse --game trial guardians/order-trap` said 'no such set-up
    file' of a puzzle that ships; the refusal now names the two games and how to run it, in
    one line, on `analyse --game` and on a game's own commands alike."""
    monkeypatch.chdir(tmp_path)  # no file of that name here
    name = argv[-1]
    game = "dog" if argv == ["analyse", name] else argv[2] if argv[0] == "analyse" else argv[0]
    code, out, err = cli(argv)
    assert (code, out) == (2, "") and err.count("\n") == 1, (code, err)
    other = name.split("/")[0]
    said = f"{name} is a {other} puzzle, not a {game} one: {fix}, or {own}\n"
    assert err == f"forest: error: {said}", err


def test_a_path_named_like_another_game_s_puzzle_is_read_as_the_path(tmp_path, monkeypatch):
    """The mismatch is said only of a name that is no path: a folder holding a file named like
    another game's puzzle is that file (here a dog forest, shown as one)."""
    monkeypatch.chdir(tmp_path)
    shipped = Path(__file__).resolve().parents[1] / "puzzles" / "dog" / "stick.forest"
    (tmp_path / "guardians").mkdir()
    (tmp_path / "guardians" / "order-trap").write_text(shipped.read_text())
    code, out, err = cli(["dog", "show", "guardians/order-trap"])
    assert (code, err) == (0, ""), err
    assert out == cli(["dog", "show", "dog/stick"])[1]
