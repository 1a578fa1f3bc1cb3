"""Regression tests for forest guardians' defects a hostile user met (files, states, options).

Each test names the defect and drives it the way it was met: the CLI as a subprocess, the API
with the arguments a user passes. User-caused problems must be ``solver.errors`` classes in the
API and one line with exit status 2 on the command line.
"""

from __future__ import annotations

import contextlib
import json
import os

import pytest

from solver.errors import FormatError, OptionError, SolverError
from solver.files import MAX_FILE_BYTES
from solver.registry import load_game
from solver.testing import one_line_error
from solver.testing import run_forest as forest


# -- .grove files ----------------------------------------------------------------------------------
@pytest.mark.skipif(not os.path.exists("/dev/zero"), reason="needs /dev/zero")
def test_a_grove_path_to_an_endless_device_is_refused_unread():
    # Defect: load_grove read the whole file, so /dev/zero hung (and ate memory) forever. Only
    # regular files are read now (solver.files.read_bytes): a device is refused by its kind.
    run = forest("guardians", "order", "/dev/zero", timeout=60)
    one_line_error(run, "/dev/zero: is a character device")


def test_a_grove_file_over_the_size_cap_is_refused_unread(tmp_path):
    from solver.games.guardians.grove import load_grove

    path = tmp_path / "huge.grove"
    path.write_bytes(b"grid:\n[*]\n" + b"#" * MAX_FILE_BYTES)
    with pytest.raises(OptionError, match="16 MB"):
        load_grove(path)


def test_deeply_nested_grove_json_is_a_format_error():
    # Defect: grove_from_json let json's RecursionError through.
    from solver.games.guardians.grove import grove_from_json

    with pytest.raises(FormatError):
        grove_from_json("[" * 100_000 + "]" * 100_000)


def test_a_grove_json_name_with_a_lone_surrogate_is_refused_like_the_text_form():
    # Defect: the JSON form accepted a name the text form refuses (and format_grove cannot write).
    from solver.games.guardians.grove import grove_from_dict

    with pytest.raises(FormatError, match="name"):
        grove_from_dict({"name": "\ud800", "grid": ["[*]"]})


# -- tile sets -------------------------------------------------------------------------------------
@pytest.mark.parametrize(
    ("content", "what"),
    [(b"\xff\xfe garbage", "UTF-8"), (b"[" * 100_000, "nested")],
    ids=["binary", "deep"],
)
def test_a_bad_tile_set_file_is_a_format_error(tmp_path, content, what):
    # Defect: a binary file was a UnicodeDecodeError, a deeply nested one a RecursionError.
    from solver.games.guardians.tiles import load_tile_set

    path = tmp_path / "tiles.json"
    path.write_bytes(content)
    with pytest.raises(FormatError, match=what):
        load_tile_set(path)


def test_a_tile_set_file_over_the_size_cap_is_refused(tmp_path):
    from solver.games.guardians.tiles import load_tile_set

    path = tmp_path / "tiles.json"
    path.write_bytes(b" " * (MAX_FILE_BYTES + 1))
    with pytest.raises(OptionError, match="16 MB"):
        load_tile_set(path)


# -- state JSON ------------------------------------------------------------------------------------
def _fresh_state_dict(players: int = 2) -> dict:
    game = load_game("guardians", engine="reference", players=players)
    return json.loads(game.new_initial_state().to_json())


@pytest.mark.parametrize("engine", ["reference", "kernel"])
@pytest.mark.parametrize("phase", [["draw"], {"a": 1}, 3, None])
def test_a_state_whose_phase_is_not_a_string_is_a_format_error(engine, phase):
    # Defect: a list or object phase was "TypeError: unhashable type" (found by mutating states).
    data = _fresh_state_dict()
    data["phase"] = phase
    game = load_game("guardians", engine=engine, players=2)
    with pytest.raises(FormatError, match="phase"):
        game.state_from_json(json.dumps(data))


@pytest.mark.parametrize("engine", ["reference", "kernel"])
def test_a_deeply_nested_state_is_a_format_error(engine):
    game = load_game("guardians", engine=engine, players=2)
    with pytest.raises(FormatError):
        game.state_from_json('{"players": ' + "[" * 100_000)


# -- the order command -----------------------------------------------------------------------------
def test_order_svg_never_replaces_a_file_without_overwrite(tmp_path):
    # Defect: `order --svg FILE` replaced an existing FILE silently (every other output needs
    # --overwrite).
    target = tmp_path / "plan.svg"
    target.write_text("keep me", encoding="utf-8")
    run = forest("guardians", "order", "guardians/chain", "--svg", str(target))
    one_line_error(run, "--overwrite")
    assert target.read_text(encoding="utf-8") == "keep me"
    run = forest("guardians", "order", "guardians/chain", "--svg", str(target), "--overwrite")
    assert run.returncode == 0, run.stderr
    assert "<svg" in target.read_text(encoding="utf-8")


def test_order_checks_the_svg_path_before_solving(tmp_path):
    run = forest("guardians", "order", "guardians/chain", "--svg", str(tmp_path / "no" / "x.svg"))
    one_line_error(run, "does not exist")


# -- play options ----------------------------------------------------------------------------------
@pytest.mark.parametrize("agents", ["", ",", " "])
def test_play_refuses_an_empty_agent_list(agents):
    # Defect: `--agents ''` silently played the default agent (mcts at 1000 simulations) in
    # every seat.
    run = forest("guardians", "play", "--players", "2", "--agents", agents, "--games", "1")
    one_line_error(run, "--agents")


def test_the_api_raises_only_solver_errors_for_a_fuzzed_grove():
    # A quick property over mutated curated positions: parse errors are FormatErrors and every
    # accepted position opens on both engines (the long run is the QA fuzz, not kept here).
    import random
    from pathlib import Path

    from solver.games.guardians.grove import format_grove, parse_grove

    texts = [p.read_text(encoding="utf-8") for p in Path("puzzles/guardians").glob("*.grove")]
    alphabet = list(". []*:BGREPYbgyrpx#\n\r 0123456789=namodegritsp\ufeff\x00")
    rng = random.Random(7)
    for _ in range(300):
        chars = list(rng.choice(texts))
        for _ in range(rng.randint(1, 3)):
            chars.insert(rng.randrange(len(chars) + 1), rng.choice(alphabet))
        text = "".join(chars)
        try:
            grove = parse_grove(text)
        except FormatError:
            continue
        assert parse_grove(format_grove(grove)) == grove
        for engine in ("reference", "kernel"):
            with contextlib.suppress(SolverError):
                load_game("guardians", engine=engine, position=grove).new_initial_state()


# -- play --record and review --plot ---------------------------------------------------------------
def test_play_record_checks_its_file_before_playing(tmp_path):
    # Defect: an existing --record file (or a missing folder) was refused only after the whole
    # game had been played (minutes with mcts).
    target = tmp_path / "game.json"
    target.write_text("keep me", encoding="utf-8")
    run = forest("guardians", "play", "--players", "2", "--agents", "random", "--record",
                 str(target))  # fmt: skip
    one_line_error(run, "--overwrite")
    assert "game over" not in run.stdout
    assert target.read_text(encoding="utf-8") == "keep me"
    run = forest("guardians", "play", "--players", "2", "--agents", "random", "--record",
                 str(tmp_path / "no" / "game.json"))  # fmt: skip
    one_line_error(run, "does not exist")


@pytest.fixture(scope="module")
def recorded_game(tmp_path_factory):
    path = tmp_path_factory.mktemp("record") / "game.json"
    run = forest("guardians", "play", "--players", "2", "--agents", "random", "--seed", "4",
                 "--record", str(path))  # fmt: skip
    assert run.returncode == 0, run.stderr
    return path


@pytest.mark.parametrize(
    ("plot", "needle"),
    [("no/such/folder/plot.png", "does not exist"), ("a-folder.png", "folder"),
     ("plot.gif", ".png or .svg")],
)  # fmt: skip
def test_review_refuses_a_bad_plot_path_before_reviewing(tmp_path, recorded_game, plot, needle):
    # Defect: `review --plot /missing/dir/x.png` ended in a FileNotFoundError traceback from
    # matplotlib after the whole review had run; a folder named x.png too.
    (tmp_path / "a-folder.png").mkdir()
    run = forest("guardians", "review", str(recorded_game), "--iterations", "2", "--plot",
                 str(tmp_path / plot), cwd=tmp_path)  # fmt: skip
    one_line_error(run, needle)


def test_review_plot_is_written_whole_and_never_replaced_without_overwrite(tmp_path, recorded_game):
    pytest.importorskip("matplotlib")
    target = tmp_path / "plot.svg"
    run = forest("guardians", "review", str(recorded_game), "--iterations", "2", "--plot",
                 str(target))  # fmt: skip
    assert run.returncode == 0, run.stderr
    assert target.read_text(encoding="utf-8").rstrip().endswith("</svg>")
    assert sorted(p.name for p in tmp_path.iterdir()) == ["plot.svg"]  # no temporary left
    run = forest("guardians", "review", str(recorded_game), "--iterations", "2", "--plot",
                 str(target))  # fmt: skip
    one_line_error(run, "--overwrite")


# -- the hint engine -------------------------------------------------------------------------------
def test_a_hint_for_a_seat_not_to_move_is_refused_as_on_the_command_line():
    # Defect: {"player": 1} with player 0 to move was silently answered from player 0's view
    # (rootInfo.player 0), where `forest guardians best-move --player 1` refuses.
    from solver.hint.engine import answer

    request = {"id": "q", "game": "guardians", "options": {"players": 3},
               "limit": {"iterations": 4}}  # fmt: skip
    game = load_game("guardians", players=3)
    state = game.new_initial_state()
    actions = []
    while state.is_chance_node():
        action = state.chance_outcomes()[0][0]
        state.apply_action(action)
        actions.append(action)
    mover = state.current_player()
    request["actions"] = actions
    wrong = answer({**request, "player": (mover + 1) % 3})
    assert (wrong.get("field"), wrong.get("code")) == ("player", "invalid_request"), wrong
    assert "not to move" in wrong["error"]
    right = answer({**request, "player": mover})
    assert right["rootInfo"]["player"] == mover


def test_a_count_beyond_64_bits_is_refused_by_the_argument_type():
    # Defect: `best-move --iterations 99999999999999999999` reached the compiled MCTS and ended in
    # "OverflowError: Python int too large to convert to C long" (a traceback).
    run = forest("guardians", "best-move", "guardians/chain", "--iterations", "9" * 20)
    assert run.returncode == 2 and "Traceback" not in run.stderr, run.stderr
    assert "--iterations" in run.stderr and run.stderr.count("\n") == 1, run.stderr


def test_a_review_record_nested_too_deeply_is_one_line(tmp_path):
    # Defect: `forest guardians review deep.json` was a RecursionError traceback.
    path = tmp_path / "deep.json"
    path.write_text("[" * 100_000, encoding="utf-8")
    run = forest("guardians", "review", str(path))
    one_line_error(run, "deep.json")


def test_save_grove_writes_whole_and_never_replaces_without_overwrite(tmp_path):
    # Defect: save_grove opened the target for writing at once (an existing file replaced, a
    # half-written file on error, a raw OSError for a missing folder).
    from solver.games.guardians.grove import load_grove, parse_grove, save_grove

    grove = parse_grove("name: kept\ngrid:\n[*]b B:GR\n")
    target = tmp_path / "a.grove"
    target.write_text("keep me", encoding="utf-8")
    with pytest.raises(OptionError, match="already exists"):
        save_grove(grove, target)
    assert target.read_text(encoding="utf-8") == "keep me"
    save_grove(grove, target, overwrite=True)
    assert load_grove(target) == grove
    with pytest.raises(OptionError, match="folder"):
        save_grove(grove, tmp_path / "missing" / "b.grove")
    bad = parse_grove("grid:\n[*]\n")
    object.__setattr__(bad, "name", "two\nlines")
    with pytest.raises(OptionError):
        save_grove(bad, tmp_path / "c.grove")
    assert sorted(p.name for p in tmp_path.iterdir()) == ["a.grove"]


def _dense_grove(n: int, seed: int) -> str:
    """A legal n x n solo position with thousands of candidate walks (two colours, long
    missions): the shape that made the CP-SAT model's construction run for many minutes."""
    import random

    rng = random.Random(seed)
    pawns = list("bgyr")
    corners = [(0, 0), (n - 1, n - 1), (0, n - 1), (n - 1, 0)]
    rows = []
    for i in range(n):
        row = []
        for j in range(n):
            if (i, j) in corners:
                row.append("[" + "".join(rng.choice("BG") for _ in range(5)) + "]" + pawns.pop())
            elif rng.random() < 0.12:
                row.append("[" + "".join(rng.choice("BG") for _ in range(rng.randint(2, 5))) + "]")
            else:
                row.append(rng.choice("BG") + ":" + "".join(rng.choice("BG") for _ in range(3)))
        rows.append(" ".join(row))
    return "grid:\n" + "\n".join(rows) + "\n"


def test_order_on_a_position_too_large_for_the_exact_searches_answers_quickly(tmp_path):
    # Defect: `forest guardians order dense.grove` (a legal 12x12 position: 292 candidate walks
    # over 72 mission tiles) ran for many minutes building the CP-SAT model, whatever
    # --time-limit said. Now: the first legal order, marked as not proven optimal.
    from solver.games.guardians.grove import parse_grove
    from solver.games.guardians.ordering import first_legal_order
    from solver.games.guardians.rules import GuardiansGame

    text = _dense_grove(12, 5)
    path = tmp_path / "dense.grove"
    path.write_text(text, encoding="utf-8")
    run = forest("guardians", "order", str(path), "--json", timeout=90)
    assert run.returncode == 0, run.stderr
    report = json.loads(run.stdout)
    state = GuardiansGame(position=parse_grove(text)).new_initial_state()
    naive = first_legal_order(state)
    assert (report["count"], report["points"]) >= (naive.count, naive.points)
    assert report["count"] > 0
    assert report["optimal"] is False and report["method"] == "first-legal"
    run = forest("guardians", "order", str(path), "--method", "cp-sat", timeout=90)
    one_line_error(run, "too large")
