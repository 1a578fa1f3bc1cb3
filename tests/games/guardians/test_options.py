"""``load_game("guardians", ...)``'s options and the agents offered: every user mistake is an
``OptionError`` (or a ``FormatError`` for a bad tile-set file) naming it, on both engines."""

from __future__ import annotations

import json

import pytest

import solver
from solver.agents import agent_names, make_agent
from solver.cli import main
from solver.errors import FormatError, OptionError
from solver.games.guardians.tiles import default_tile_set, tile_set_to_dict

ENGINES = ("reference", "kernel")


@pytest.fixture(params=ENGINES)
def engine(request):
    if request.param == "kernel":  # the compiled extension: skipped locally without it, CI fails
        request.getfixturevalue("require_kernels")
    return request.param


def test_an_unknown_option_is_named(engine):
    with pytest.raises(OptionError, match=r"unknown guardians option.*bogus"):
        solver.load_game("guardians", engine=engine, bogus=1)


def test_tiles_as_a_path_or_a_dict_load_the_same_set(engine, tmp_path):
    data = tile_set_to_dict(default_tile_set())
    path = tmp_path / "tiles.json"
    path.write_text(json.dumps(data))
    from_path = solver.load_game("guardians", engine=engine, tiles=str(path))
    from_dict = solver.load_game("guardians", engine=engine, tiles=data)
    assert from_path.tiles == from_dict.tiles == default_tile_set()


def test_tiles_of_another_type_or_a_bad_file_are_refused(engine, tmp_path):
    with pytest.raises(OptionError, match="tiles must be a TileSet"):
        solver.load_game("guardians", engine=engine, tiles=42)
    bad = tmp_path / "bad.json"
    bad.write_text('{"tiles": 3}')
    with pytest.raises(FormatError):
        solver.load_game("guardians", engine=engine, tiles=str(bad))


def test_the_exact_agent_is_not_offered_where_exact_search_is_not(capsys):
    assert "exact" not in agent_names("guardians")
    assert "exact" in agent_names("dog")
    with pytest.raises(OptionError, match="exact agent is not supported for guardians"):
        make_agent("exact", solver.load_game("guardians"))
    code = main(["guardians", "play", "--players", "2", "--agents", "exact,random", "--games", "1"])
    err = capsys.readouterr().err
    assert code == 2 and "exact agent is not supported for guardians" in err
    assert len(err.strip().splitlines()) == 1


def test_a_forest_too_big_for_the_kernel_points_to_the_reference_engine(tmp_path, capsys):
    rows = [" ".join(["B:GR"] * 16) for _ in range(16)]
    rows[0] = "[*]b " + " ".join(["B:GR"] * 15)
    grove = tmp_path / "big.grove"
    grove.write_text("grid:\n" + "\n".join(rows) + "\n")
    code = main(["guardians", "show", str(grove), "--engine", "kernel"])
    err = capsys.readouterr().err
    assert code == 2 and "--engine reference" in err and len(err.strip().splitlines()) == 1
    assert main(["guardians", "show", str(grove), "--engine", "reference"]) == 0
    assert "256 tiles" in capsys.readouterr().out


def test_a_saved_state_says_its_player_count(tmp_path, capsys):
    # --state alone is enough: the state's players list tells the count (3 here, not the default 2)
    game = solver.load_game("guardians", players=3)
    state = game.new_initial_state()
    for _ in range(12):
        state.apply_action(
            state.chance_outcomes()[0][0] if state.is_chance_node() else state.legal_actions()[-1]
        )
    path = tmp_path / "three.json"
    path.write_text(state.to_json())
    assert main(["guardians", "show", "--state", str(path)]) == 0
    assert main(["guardians", "best-move", "--state", str(path), "--iterations", "20"]) == 0
    assert "value" in capsys.readouterr().out


def test_a_levels_file_that_is_binary_deep_or_endless_is_refused(tmp_path):
    from solver.games.guardians.solo import load_levels

    binary = tmp_path / "bin.json"
    binary.write_bytes(bytes(range(128, 256)))
    with pytest.raises(FormatError, match="UTF-8"):
        load_levels(binary)
    deep = tmp_path / "deep.json"
    deep.write_text("[" * 100_000)
    with pytest.raises(FormatError, match="nested"):
        load_levels(deep)
    with pytest.raises(OptionError, match="is a character device"):
        load_levels("/dev/zero")
    endless = tmp_path / "endless.json"
    endless.write_bytes(b"[" + b" " * (16 * 1024 * 1024 + 1))
    with pytest.raises(OptionError, match="larger than"):
        load_levels(endless)
    with pytest.raises(OptionError):
        load_levels(tmp_path / "missing.json")


@pytest.mark.parametrize(("puzzle", "players", "said"), [
    ("guardians/multi-chain", 1, "cannot be played by 1 player"),
    ("guardians/order-trap", 3, "cannot be played by 3 players"),
])  # fmt: skip
def test_a_position_at_the_wrong_player_count_says_the_count_in_words(puzzle, players, said):
    # Defect: 'it cannot be played by 1 players' (found by the attack pass)
    from solver.games.guardians.hooks import open_position

    mode = "solo" if players > 1 else "multi"
    with pytest.raises(OptionError, match=f"{puzzle} is a {mode} position; it {said}$"):
        open_position(puzzle, players=players)
