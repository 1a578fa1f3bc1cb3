"""The declaration itself: hooks as references, capabilities, agents and their play defaults.

A spec's hooks may be ``"module:attribute"`` strings, imported on first use: a declaration
imports nothing heavy. These tests run the imports in fresh interpreters (``sys.modules`` is the
witness) and check the errors a plug-in author meets.
"""

from __future__ import annotations

import json
import subprocess
import sys

import pytest

import solver
from solver.errors import OptionError
from solver.registry import game_spec, load_game, register, registered_games
from solver.spec import (
    AgentSpec,
    AnalysisHooks,
    GameSpec,
    OptionChoices,
    Rung,
    check_iterations,
    resolve_reference,
)


@pytest.fixture(autouse=True)
def _private_registry(monkeypatch):
    """Games registered by a test stay in that test."""
    from solver import registry

    registry.registered_games()
    monkeypatch.setattr(registry, "_SPECS", dict(registry._SPECS))


def _fresh(code: str) -> str:
    run = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120)
    assert run.returncode == 0, run.stderr
    return run.stdout


def test_declaring_the_games_imports_none_of_their_parts():
    code = (
        "import sys, json\n"
        "from solver.registry import game_specs\n"
        "specs = game_specs()\n"
        "print(json.dumps(sorted(m for m in sys.modules if m.startswith('solver.'))))\n"
    )
    loaded = set(json.loads(_fresh(code)))
    assert {"solver.games.dog", "solver.games.guardians", "solver.games.trial"} <= loaded
    for part in ("hooks", "cli", "rules", "kernel", "render", "analysis", "agents", "planner"):
        assert not {m for m in loaded if m.startswith("solver.games.") and part in m}, part
    assert not any(m.startswith(("solver.search", "solver._ext", "solver.hint")) for m in loaded)


def test_a_reference_is_imported_when_first_read_and_kept():
    code = (
        "import sys\n"
        "from solver.registry import game_spec\n"
        "spec = game_spec('dog')\n"
        "print(spec.supports('render_text'), 'solver.games.dog.hooks' in sys.modules)\n"
        "hook = spec.render_text\n"
        "print(hook.__name__, 'solver.games.dog.hooks' in sys.modules, spec.render_text is hook)\n"
    )
    assert _fresh(code).split() == ["True", "False", "render_text", "True", "True"]


def _spec(**fields) -> GameSpec:
    base = {
        "name": "toyspec",
        "title": "t",
        "summary": "s",
        "players": (2,),
        "engines": {"reference": lambda **o: None},
        "open": lambda *a, **k: None,
    }
    return GameSpec(**(base | fields))


COUNT_CHECKS = {
    "an agent's budget": (check_iterations, "iterations must be a whole number of at least 1"),
    "a play default": (
        lambda v: AgentSpec("solver.agents:mcts_agent", iterations=v),
        "an agent's play default is a whole number, 1 or more",
    ),
    "a rung's budget": (lambda v: Rung("mcts", iterations=v), "a rung's budget is a whole number"),
    "a player count": (lambda v: _spec(players=(2, v)), "must declare its player counts"),
    "play_games": (lambda v: _spec(play_games=v), "play_games must be a whole number of games"),
    "review_iterations": (
        lambda v: _spec(review_iterations=v),
        "review_iterations must be a whole number, 1 or more",
    ),
}


@pytest.mark.parametrize("check", sorted(COUNT_CHECKS))
def test_every_count_is_a_whole_number_of_at_least_one(check: str) -> None:
    """The spec's counts share one rule (a bool, a float, a string, zero or less: refused),
    each in its own words; 1 and a large whole number pass."""
    build, message = COUNT_CHECKS[check]
    for bad in (0, -3, True, False, 1.0, 2.5, "3"):
        with pytest.raises(OptionError, match=message):
            build(bad)
    for good in (1, 7, 10**12):
        build(good)


def test_bad_references_name_the_game_the_hook_and_the_reference():
    with pytest.raises(OptionError, match=r"game 'toyspec': legend: a reference is 'module:attr"):
        _spec(legend="solver.errors")
    spec = _spec(legend="solver.no_such_module:legend", render_text="solver.errors:nothing")
    with pytest.raises(OptionError, match=r"game 'toyspec': legend: no module 'solver.no_such_mo"):
        spec.legend  # noqa: B018 - reading the field imports it
    with pytest.raises(OptionError, match=r"render_text: solver.errors has no attribute 'nothing'"):
        spec.render_text  # noqa: B018
    with pytest.raises(OptionError, match=r"scores \(solver.errors:__doc__\) is not callable"):
        _spec(scores="solver.errors:__doc__").scores  # noqa: B018
    with pytest.raises(OptionError, match=r"render_svg must be a callable or a 'module:attribute'"):
        _spec(render_svg=3)


def test_a_missing_dependency_is_named(tmp_path, monkeypatch):
    (tmp_path / "spec_test_needs_dep.py").write_text("import no_such_dependency\n")
    monkeypatch.syspath_prepend(str(tmp_path))
    with pytest.raises(OptionError, match=r"needs the module 'no_such_dependency', which is not"):
        resolve_reference("spec_test_needs_dep:x", "a test")
    sys.modules.pop("spec_test_needs_dep", None)


def test_engines_and_agents_accept_references_and_check_the_game_name():
    class Named:
        name = "toyspec"

    class Misnamed:
        name = "toy"

    spec = _spec(
        engines={"reference": lambda **o: Named(), "odd": lambda **o: Misnamed()},
        agents={"first": "solver.agents:random_factory"},
        open=lambda *a, **k: solver.spec.Opened(game=Misnamed(), state=None, source="x"),
    )
    assert isinstance(spec.engines["reference"](), Named)
    message = r"game 'toyspec': engine 'odd' gave a game whose name is 'toy'; .*name = 'toyspec'"
    with pytest.raises(OptionError, match=message):
        spec.engines["odd"]()
    with pytest.raises(OptionError, match=r"open gave a game whose name is 'toy'"):
        spec.open(None)
    assert isinstance(spec.agents["first"], AgentSpec)
    agent = spec.agents["first"].build(Named(), seed=1)
    assert callable(agent)


def test_registered_misnamed_game_is_refused_by_load_game():
    class Misnamed:
        name = "pebble"

    register(_spec(name="misnamedgame", engines={"reference": lambda **o: Misnamed()}))
    with pytest.raises(OptionError, match="name is 'pebble'; a game's `name` must be its"):
        load_game("misnamedgame")


def test_capabilities_are_validated():
    with pytest.raises(OptionError, match="utility_range must be two finite numbers"):
        _spec(utility_range=(1.0, 1.0))
    with pytest.raises(OptionError, match=r"heuristic names unknown engine\(s\) \['kernel'\]"):
        _spec(heuristic=("kernel",))
    with pytest.raises(OptionError, match="default_agent 'ismcts' is not one of its agents"):
        _spec(default_agent="ismcts")
    with pytest.raises(OptionError, match="play default is a whole number"):
        AgentSpec("solver.agents:mcts_agent", iterations=0)
    with pytest.raises(OptionError, match="option_choices names 'level'"):
        _spec(option_choices={"level": OptionChoices((1, 2))})  # no such option
    with pytest.raises(OptionError, match="choices are whole numbers"):
        OptionChoices(("easy", "hard"))  # type: ignore[arg-type]
    with pytest.raises(OptionError, match="choices are whole numbers"):
        OptionChoices(())
    hidden = _spec(hidden_information=True, exact=False)
    assert hidden.agent_names() == ["ismcts", "random"] and hidden.strongest_agent == "ismcts"
    assert _spec().agent_names() == ["mcts", "exact", "random"]


def test_agents_play_at_their_declared_default_unless_told():
    seen = []

    def factory(game, *, seed=0, iterations=7):
        seen.append(iterations)
        return lambda state: 0

    def plain(game, *, seed=0):
        seen.append("plain")
        return lambda state: 0

    spec = _spec(agents={"deep": AgentSpec(factory, iterations=64), "plain": plain})
    game = object()
    spec.agent("deep").build(game)
    spec.agent("deep").build(game, iterations=3)
    spec.agent("plain").build(game)
    assert seen == [64, 3, "plain"]
    assert spec.play_iterations("deep") == 64 and spec.play_iterations("plain") is None
    assert spec.play_iterations("mcts") == 1000 and spec.play_iterations("random") is None
    with pytest.raises(OptionError, match="unknown agent 'nope' for toyspec; expected one of mc"):
        spec.agent("nope")


def test_the_built_in_games_declare_their_capabilities():
    from solver.games.trial.playouts import PLAY_SIMULATIONS

    dog, guardians, trial = (game_spec(n) for n in ("dog", "guardians", "trial"))
    assert (dog.hidden_information, dog.exact, dog.strongest_agent) == (False, True, "mcts")
    assert dog.has_heuristic("kernel") and dog.has_heuristic("reference")  # twins
    assert (trial.hidden_information, trial.constant_sum, trial.exact) == (True, True, False)
    assert trial.play_iterations("ismcts") == PLAY_SIMULATIONS and trial.strongest_agent == "ismcts"
    assert "mcts" not in trial.agent_names()
    assert guardians.agent_names() == ["mcts", "random", "broad", "greedy", "lookahead", "planner"]
    assert (
        guardians.play_iterations("mcts") == 10_000 and guardians.play_iterations("planner") is None
    )
    assert guardians.strongest_agent == "lookahead"  # declared: the strongest measured


@pytest.mark.parametrize(("game", "agent"), [("trial", "mcts"), ("trial", "exact"),
                                           ("guardians", "ismcts"), ("guardians", "exact"),
                                           ("dog", "ismcts")])  # fmt: skip
def test_an_agent_ruled_out_is_refused_in_the_same_words_by_play_and_solve(game, agent):
    """``make_agent`` (play) and ``GameSpec.agent`` (solve, best-move) word a shared agent the
    game's capabilities rule out alike: they said "the ismcts agent (hidden information) is not
    supported for dog" and "the ismcts agent searches hidden information, and dog hides none"."""
    from solver.agents import make_agent

    spec = game_spec(game)
    with pytest.raises(OptionError) as played:
        make_agent(agent, load_game(game, **({"forest": "dog/tiny-2x2"} if game == "dog" else {})))
    with pytest.raises(OptionError) as solved:
        spec.agent(agent)
    assert str(played.value) == str(solved.value).split("; expected one of ")[0]
    assert str(solved.value).startswith(f"{spec.refusal(agent)}; expected one of ")
    assert f" {game}" in str(played.value) and agent not in spec.agent_names()
    assert spec.refusal("random") is None and spec.refusal(spec.agent_names()[0]) is None


def test_make_agent_uses_the_play_default():
    from solver.agents import make_agent

    class Toy:
        name = "playdefaults"

    seen = []

    def factory(game, *, seed=0, iterations=7):
        seen.append((seed, iterations))
        return lambda state: 0

    register(_spec(name="playdefaults", agents={"deep": AgentSpec(factory, iterations=64)}))
    make_agent("deep", Toy(), seed=2)
    make_agent("deep", Toy(), seed=3, iterations=5)
    assert seen == [(2, 64), (3, 5)]


def test_analysis_hooks_of_module_reads_the_conventional_names_under_what_is_declared():
    from solver.games.guardians import analysis as module

    hooks = AnalysisHooks.of_module(module.__name__, noun="position")
    assert (hooks.load, hooks.dump, hooks.roll) == (module.load, module.dump, module.roll)
    assert (hooks.columns, hooks.classes, hooks.advice, hooks.report) == (
        module.COLUMNS,
        module.CLASSES,
        module.ADVICE,
        module.report_sections,
    )
    assert hooks.analyse == f"{module.__name__}:analyse_source" and hooks.noun == "position"
    assert AnalysisHooks.of_module(module.__name__, analyse="pkg.mod:fn").analyse == "pkg.mod:fn"


def test_the_catalog_lists_the_choices_a_game_declares():
    # the web table builds its lists from these (guardians' solo level, for one player)
    from solver.catalog import describe_game

    rows = {name: describe_game(game_spec(name)) for name in solver.registered_games()}
    assert rows["guardians"]["choices"] == [
        {"name": "level", "values": [1, 2, 3, 4, 5, 6], "players": [1],
         "help": game_spec("guardians").options["level"]}
    ]  # fmt: skip
    assert all(row["choices"] == [] for name, row in rows.items() if name != "guardians")
    for value in rows["guardians"]["choices"][0]["values"]:  # every value opens a solo game
        assert load_game("guardians", players=1, level=value).level.number == value


@pytest.mark.parametrize("name", registered_games())
@pytest.mark.parametrize("players", [0, False, True, 1.0, -1, 99])
def test_a_player_count_the_game_does_not_allow_is_refused_by_its_opener(name, players):
    """Every game's opener (``GameSpec.open``, which the OpenSpiel bridge, the command line and
    the hint engine call) refuses a count it does not allow, as ``load_game`` does. Found:
    guardians read ``players=0`` (and ``False``) as no count, a 2-player game, so
    ``pyspiel.load_game("forest_guardians(players=0)")`` played 2 players and said so; the
    dog took ``True`` and ``1.0`` for its one player."""
    spec = game_spec(name)
    with pytest.raises(OptionError):
        load_game(name, players=players)  # the independent answer: the game's factory
    with pytest.raises(OptionError, match=r"played by|players"):
        spec.open(spec.example, players=players)
