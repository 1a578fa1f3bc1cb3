"""The game registry: names, engines, the engine switch and errors that name the problem."""

from __future__ import annotations

import pytest

import solver
from solver.errors import OptionError
from solver.registry import default_engine, game_spec, load_game, registered_games
from solver.spec import GameSpec


def test_built_in_games_are_listed_with_their_specs():
    assert "dog" in registered_games()
    spec = game_spec("dog")
    assert isinstance(spec, GameSpec) and spec.players == (1,)
    assert solver.game_spec("dog") is spec


def test_unknown_game_and_engine_are_option_errors():
    with pytest.raises(OptionError, match=r"unknown game 'chess'; expected one of .*dog"):
        load_game("chess")
    message = "game 'dog' has no 'gpu' engine; available: kernel, reference"
    with pytest.raises(OptionError, match=message):
        load_game("dog", engine="gpu", forest="dog/tiny-2x2")
    with pytest.raises(OptionError, match="a game name is a string"):
        game_spec(3)  # type: ignore[arg-type]


def test_the_engine_switch(monkeypatch):
    monkeypatch.setenv("SOLVER_ENGINE", "reference")
    assert load_game("dog", forest="dog/tiny-2x2").engine == "reference"
    monkeypatch.setenv("SOLVER_ENGINE", "kernel")
    assert load_game("dog", forest="dog/tiny-2x2").engine == "kernel"
    assert load_game("dog", forest="dog/tiny-2x2", engine="reference").engine == "reference"
    monkeypatch.setenv("SOLVER_ENGINE", "turbo")
    with pytest.raises(OptionError, match="SOLVER_ENGINE='turbo' is not an engine"):
        default_engine()


def test_a_spec_must_be_well_formed():
    with pytest.raises(OptionError, match="lower-case identifier"):
        GameSpec(name="Dog Game", title="t", summary="s", players=(1,),
                 engines={"reference": object}, open=lambda *a, **k: None)  # fmt: skip
    with pytest.raises(OptionError, match="declares no engine"):
        GameSpec(name="x", title="t", summary="s", players=(1,), engines={},
                 open=lambda *a, **k: None)  # fmt: skip
    with pytest.raises(OptionError, match="player counts"):
        GameSpec(name="x", title="t", summary="s", players=(), engines={"reference": object},
                 open=lambda *a, **k: None)  # fmt: skip


def test_generic_hooks_a_game_lacks_say_not_supported():
    spec = game_spec("dog")
    with pytest.raises(OptionError, match=r"^reading tea leaves is not supported for dog$"):
        spec.require("scores", "reading tea leaves")


def test_no_shared_module_imports_a_game_package():
    """Shared machinery knows games only through the protocol and the spec (the built-in list
    names them as strings, imported lazily by the registry)."""
    import ast
    from pathlib import Path

    root = Path(solver.__file__).resolve().parent
    offenders = []
    for path in root.rglob("*.py"):
        relative = path.relative_to(root)
        if relative.parts[0] == "games" or relative.parts[0] == "interop":
            continue
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            names = []
            if isinstance(node, ast.ImportFrom) and node.module:
                names = [node.module] + [
                    f"{node.module}.{a.name}" for a in node.names if a.name != "BUILTIN_GAMES"
                ]
            elif isinstance(node, ast.Import):
                names = [a.name for a in node.names]
            if any(n.startswith("solver.games.") for n in names):
                offenders.append(f"{relative}:{node.lineno}")
    assert offenders == []


@pytest.mark.parametrize("engine", [[], {}, 1])
def test_an_engine_that_is_no_name_is_an_option_error(engine):
    # Found by attack: a list or a dict escaped as "TypeError: unhashable type" (the API raises
    # only solver.errors classes); an int said "has no 1 engine".
    with pytest.raises(OptionError, match=rf"an engine is a name \(kernel, reference\), not "
                                          rf"{type(engine).__name__}"):  # fmt: skip
        load_game("dog", forest="dog/puddles", engine=engine)


def test_a_game_declared_again_under_its_name_gets_its_own_default_count() -> None:
    """default_players read each game's count once, kept by the game's name: a spec declared
    again under the same name (``declare``: a plug-in's newer version) was given the first
    one's count. The second spec's opener here starts 3 players; the first's, 2."""
    import dataclasses
    from types import SimpleNamespace

    from solver.registry import default_players

    first = game_spec("guardians")
    assert default_players(first) == 2  # docs/hint-engine.md: guardians starts 2 players
    game = SimpleNamespace(name=first.name, num_players=lambda: 3)
    second = dataclasses.replace(first, open=lambda *_, **__: SimpleNamespace(game=game))
    assert second.name == first.name
    assert default_players(second) == 3
    assert default_players(first) == 2
