"""The command line's contracts of issue 16 §3, each driven the way a user meets it (a ``forest``
subprocess, or the CLI entry point where many runs are needed): progress on a terminal, the two
views of ``play --json``, one seed one game, saved states named as FILE, text views without
``None`` or ``1 turns``.
"""

from __future__ import annotations

import argparse
import json
import os
import pty
import re
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

import solver
from solver.cli import main
from solver.testing import TerminalOutput, run_forest


def forest(*argv: str, cwd: Path | None = None, **env: str) -> subprocess.CompletedProcess[str]:
    return run_forest(*argv, cwd=cwd, timeout=600, env=env)


def run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


def on_a_terminal(*argv: str, **env: str) -> tuple[int, str, str]:
    """``forest ARGV`` with stderr on a pseudo-terminal (stdout a pipe): (status, stdout, what
    the terminal received)."""
    master, slave = pty.openpty()
    process = subprocess.Popen(
        [sys.executable, "-m", "solver.cli", *argv], stdout=subprocess.PIPE, stderr=slave,
        stdin=subprocess.DEVNULL, text=True, env={**os.environ, **env},
    )  # fmt: skip
    os.close(slave)
    output = TerminalOutput(master)
    out, _ = process.communicate(timeout=600)
    return process.returncode, out, output.text()


# -- progress ------------------------------------------------------------------------------------
PROGRESS_COMMANDS = [
    ["dog", "play", "dog/tiny-example", "--agent", "mcts", "--games", "3", "--iterations", "50"],
    ["dog", "solve", "dog/tiny-2x2", "--games", "3", "--iterations", "20"],
    ["dog", "best-move", "dog/tiny-example", "--iterations", "50"],
    ["guardians", "solo", "--level", "1", "--agent", "greedy", "--games", "1"],
    ["trial", "play", "--players", "2", "--agents", "heuristic,random", "--games", "1"],
]


@pytest.mark.parametrize(
    "argv", PROGRESS_COMMANDS, ids=[" ".join(a[:2]) for a in PROGRESS_COMMANDS]
)
def test_long_work_says_what_it_is_doing_on_a_terminal(argv):
    # FOREST_PROGRESS_AFTER=0: the line a terminal gets after 2 s of work, at once
    code, out, terminal = on_a_terminal(*argv, FOREST_PROGRESS_AFTER="0")
    assert code == 0, terminal
    assert re.search(r"forest: (playing|searching|solving)[^\r\n]*\(\d+ s\)", terminal), terminal
    assert terminal.endswith("\r\x1b[K")  # the line is cleared before the answer
    assert "forest:" not in out  # the answer on stdout is untouched
    code, _, quiet = on_a_terminal(*argv, "--no-progress", FOREST_PROGRESS_AFTER="0")
    assert code == 0 and quiet == ""


def test_progress_stays_off_a_pipe():
    run = forest("dog", "play", "dog/tiny-2x2", "--agent", "random", "--games", "5",
                 FOREST_PROGRESS_AFTER="0")  # fmt: skip
    assert run.returncode == 0 and run.stderr == ""


def test_a_quick_answer_prints_no_progress_on_a_terminal():
    code, out, terminal = on_a_terminal("dog", "solve", "dog/tiny-2x2", "--exact")
    assert code == 0 and "exact win probability" in out
    assert terminal == ""  # done within the 2 s delay: nothing drawn


# -- play --json: players and seats ----------------------------------------------------------------
def test_play_json_keeps_players_per_name_and_adds_seats_per_position(capsys):
    # Defect: `--agents heuristic,heuristic,random` gave 2 entries: seat 1 disappeared.
    agents = "heuristic,heuristic,random"
    code, out, err = run(capsys, "trial", "play", "--players", "3", "--agents", agents,
                         "--games", "3", "--seed", "1", "--json")  # fmt: skip
    assert code == 0, err
    report = json.loads(out)
    assert [p["agent"] for p in report["players"]] == ["heuristic", "random"]
    assert [(s["seat"], s["agent"]) for s in report["seats"]] == [
        (0, "heuristic"), (1, "heuristic"), (2, "random"),
    ]  # fmt: skip
    fields = {"seat", "agent", "wins", "win_rate", "ci_low", "ci_high", "mean_score"}
    assert all(set(entry) == fields for entry in report["players"] + report["seats"])
    seats, players = report["seats"], report["players"]
    # the name's entry is the sum of its positions' (wins) and their mean (scores)
    assert players[0]["wins"] == seats[0]["wins"] + seats[1]["wins"]
    assert players[0]["mean_score"] == pytest.approx(
        (seats[0]["mean_score"] + seats[1]["mean_score"]) / 2
    )
    assert players[1] == seats[2]
    assert sum(s["wins"] for s in seats) + report["ties"] <= report["games"] == 3


def test_play_text_lists_each_position_when_a_name_repeats(capsys):
    code, out, _ = run(capsys, "trial", "play", "--players", "3", "--agents",
                       "heuristic,heuristic,random", "--games", "2", "--seed", "1")  # fmt: skip
    assert code == 0
    assert "  0. heuristic: won" in out and "  1. heuristic: won" in out
    assert "  2. random: won" in out


# -- one seed, one game --------------------------------------------------------------------------
def test_random_game_and_render_random_game_play_the_same_game(tmp_path):
    from solver.agents import make_agent
    from solver.play import play_game
    from solver.rng import derive_seed

    for seed in (3, 11):
        game = solver.load_game("dog", forest="dog/tiny-example")
        record = play_game(game, [make_agent("random", game, seed=derive_seed(seed, 0))],
                           seed=seed)  # fmt: skip
        printed = forest("dog", "random-game", "dog/tiny-example", "--seed", str(seed))
        assert printed.returncode == 0, printed.stderr
        turns = [line.split(": ", 1)[1] for line in printed.stdout.splitlines()
                 if line.startswith("turn ") and ": " in line]  # fmt: skip
        played = [label for turn in turns for label in turn.split(", ")]
        quiet = ("skipped: another dog", "skipped: squirrel", "resting")
        assert [label for label in played if label not in quiet] == record.labels
        sheet = tmp_path / f"s{seed}.svg"
        drawn = forest("dog", "render", "dog/tiny-example", "--random-game", str(seed),
                       "-o", str(sheet))  # fmt: skip
        assert drawn.returncode == 0, drawn.stderr
        spec = solver.registry.game_spec("dog")
        expected = spec.render_svg(game, record.final, record.actions)
        assert sheet.read_text(encoding="utf-8") == expected + (
            "" if expected.endswith("\n") else "\n"
        )


# -- a saved state named as FILE -----------------------------------------------------------------
def _saved_state(game_name: str, actions: int, **options: object) -> str:
    from solver.agents import make_agent
    from solver.play import play_game

    game = solver.load_game(game_name, **options)
    agents = [make_agent("random", game, seed=s) for s in range(game.num_players())]
    record = play_game(game, agents, seed=5)
    state = game.new_initial_state()
    for action in record.actions[:actions]:
        state.apply_action(action)
    return state.to_json()


@pytest.mark.parametrize(("game", "options"), [("guardians", {"players": 2}),
                                               ("trial", {"players": 2})])  # fmt: skip
def test_show_and_render_a_saved_state_named_as_file(tmp_path, game, options):
    # Defect: `forest trial show FILE.json` drew a new game without a word.
    path = tmp_path / "state.json"
    path.write_text(_saved_state(game, 40, **options), encoding="utf-8")
    named = forest(game, "show", str(path))
    given = forest(game, "show", "--state", str(path))
    fresh = forest(game, "show", "--players", "2")
    assert named.returncode == given.returncode == 0, named.stderr
    assert named.stdout == given.stdout != fresh.stdout
    named = forest(game, "render", str(path))
    given = forest(game, "render", "--state", str(path))
    assert named.returncode == 0 and named.stdout == given.stdout
    refused = forest(game, "render", str(path), "--random-game", "1")
    assert refused.returncode == 2 and "not both" in refused.stderr


def test_a_dog_state_named_as_file_is_refused_saying_how(tmp_path):
    path = tmp_path / "state.json"
    path.write_text(_saved_state("dog", 3, forest="dog/tiny-example"), encoding="utf-8")
    for command in ("show", "render", "best-move"):
        run = forest("dog", command, str(path))
        assert run.returncode == 2 and run.stdout == "" and run.stderr.count("\n") == 1
        assert "is a saved dog state, not a .forest file" in run.stderr
        assert f"--state {path}" in run.stderr
    given = forest("dog", "show", "dog/tiny-example", "--state", str(path))
    assert given.returncode == 0 and "dog at" in given.stdout


def test_a_bad_state_file_error_names_the_file(tmp_path):
    path = tmp_path / "broken.json"
    path.write_text('{"players": 3}', encoding="utf-8")
    for argv in (["guardians", "show", str(path)], ["guardians", "show", "--state", str(path)]):
        run = forest(*argv)
        assert run.returncode == 2 and run.stderr.startswith(f"forest: error: {path}: "), run.stderr


# -- text views ----------------------------------------------------------------------------------
BAD_TEXT = re.compile(
    r"\bNone\b|\bnan\b|\(s\)|(?<![\d.])\b1 (?:turns|tiles|missions|pawns|cells|games|steps|actions"
    r"|points|states|positions|forests|cards|items|days|rounds|players|moves|seconds|decisions"
    r"|inaccuracies|mistakes|blunders|iterations|simulations)\b"
)


def _states_along_a_game(game_name: str, **options: object) -> list[str]:
    """Saved states at every few actions of a seeded random game, its end included."""
    from solver.agents import make_agent
    from solver.play import play_game

    game = solver.load_game(game_name, **options)
    agents = [make_agent("random", game, seed=s) for s in range(game.num_players())]
    record = play_game(game, agents, seed=2)
    step = max(1, len(record.actions) // 12)
    states = []
    state = game.new_initial_state()
    for n, action in enumerate(record.actions):
        if n % step == 0:
            states.append(state.to_json())
        state.apply_action(action)
    return [*states, state.to_json()]


@pytest.mark.parametrize(
    ("game", "options", "file"),
    [("dog", {"forest": "dog/tiny-2x2"}, ["dog/tiny-2x2"]),
     ("dog", {"forest": "dog/big-12x12"}, ["dog/big-12x12"]),
     ("guardians", {"players": 1}, ["--players", "1"]),
     ("guardians", {"players": 3}, ["--players", "3"]),
     ("trial", {"players": 2}, ["--players", "2"])],
    ids=["dog-tiny", "dog-big", "guardians-solo", "guardians-3", "trial-2"],
)  # fmt: skip
def test_text_views_never_print_none_or_bad_plurals(tmp_path, capsys, game, options, file):
    # Defect: `turn None`, `at None`, `1 turns`, `inaccuracy(s)` in the text views.
    shown = []
    code, out, err = run(capsys, game, "show", *file)
    assert code == 0, err
    shown.append(out)
    for n, text in enumerate(_states_along_a_game(game, **options)):
        path = tmp_path / f"s{n}.json"
        path.write_text(text, encoding="utf-8")
        code, out, err = run(capsys, game, "show", *file, "--state", str(path))
        assert code == 0, err
        shown.append(out)
    for out in shown:
        assert not BAD_TEXT.search(out), BAD_TEXT.search(out)


def test_reports_never_print_bad_plurals(tmp_path, capsys):
    outputs = [
        run(capsys, "dog", "solve", "dog/tiny-2x2", "--games", "1", "--iterations", "5")[1],
        run(capsys, "dog", "play", "dog/tiny-2x2", "--agent", "random", "--games", "1")[1],
        run(capsys, "dog", "list")[1],
        run(capsys, "guardians", "list")[1],
        run(capsys, "guardians", "order", "guardians/chain")[1],
        run(capsys, "guardians", "solo", "--agent", "greedy", "--games", "1")[1],
    ]
    record = tmp_path / "game.json"
    code, _, err = run(capsys, "dog", "play", "dog/tiny-2x2", "--agent", "random", "--record",
                       str(record))  # fmt: skip
    assert code == 0, err
    outputs.append(run(capsys, "dog", "review", str(record), "--iterations", "20")[1])
    assert "0 inaccuracies" in outputs[-1] or "1 inaccuracy" in outputs[-1]
    for out in outputs:
        assert out and not BAD_TEXT.search(out), (out, BAD_TEXT.search(out))


# -- help texts ------------------------------------------------------------------------------------
def _commands(game: str) -> list[str]:
    help_text = forest(game, "--help").stdout
    listed = re.findall(r"^    ([a-z][a-z-]*)", help_text, flags=re.MULTILINE)
    assert {"show", "best-move", "solve", "play", "review"} <= set(listed), help_text
    return listed


@pytest.mark.parametrize("game", ["dog", "guardians", "trial"])
def test_help_never_advertises_what_is_not_offered(game):
    # Defect: guardians' and the Trial's `review --exact`, `--memory-mb` and "exact with
    # --exact" in best-move's help, where no exact search is offered; `95%%` in solo's help.
    spec = solver.registry.game_spec(game)
    overview = forest(game, "--help").stdout
    for command in _commands(game):
        text = forest(game, command, "--help").stdout
        assert text.startswith("usage: "), (command, text)
        assert "%%" not in text, command
        if not spec.exact:
            for needle in ("--exact", "--memory-mb", "exact with", "not exact", "exact expectimax"):
                assert needle not in text, (command, needle)
    if not spec.exact:
        assert "--exact" not in overview and "exact with" not in overview


def test_list_of_a_game_without_puzzles_is_an_empty_list(capsys):
    # Defect: `forest trial list [--json]` exited 2 ("ships no puzzles")
    code, out, err = run(capsys, "trial", "list", "--json")
    assert (code, json.loads(out)) == (0, [])
    code, out, err = run(capsys, "trial", "list")
    assert (code, out) == (0, "") and "no curated puzzles" in err


# -- defaults: agents at their own play default, solve's agent, exact where it fits --------------
def _recorded_ismcts(monkeypatch: pytest.MonkeyPatch) -> list[int]:
    """Patch the ISMCTS search the Trial's agent calls: record its budget, play the first move."""
    import solver.search.ismcts as module
    from solver.search.result import SearchResult

    budgets: list[int] = []

    def fake(state, *, iterations, **_: object):
        budgets.append(iterations)
        first = state.legal_actions()[0]
        return SearchResult(best_action=first, best_label=state.action_to_string(first),
                            value=0.5, moves=(), iterations=iterations, nodes=1, elapsed=0.0,
                            exact=False)  # fmt: skip

    monkeypatch.setattr(module, "ismcts", fake)
    return budgets


def test_an_agent_plays_at_its_own_default_unless_iterations_is_given(capsys, monkeypatch):
    # Defect: the README's `forest trial play --players 4 --agents ismcts,heuristic,heuristic,
    # random --games 2 --seed 0` printed nothing for > 400 s: the CLI's --iterations default of
    # 1000 overrode the agent's own play default (64). The agent's default is set apart from the
    # CLI's here (the Trial's own is 1000 too, so it alone could not tell them apart).
    import dataclasses

    from solver.cli_game import DEFAULT_ITERATIONS

    budgets = _recorded_ismcts(monkeypatch)
    spec = solver.registry.game_spec("trial")
    own = DEFAULT_ITERATIONS // 3 + 1
    monkeypatch.setitem(
        spec.agents, "ismcts", dataclasses.replace(spec.agents["ismcts"], iterations=own)
    )
    argv = ["trial", "play", "--players", "2", "--agents", "ismcts,random", "--games", "1"]
    code, _, err = run(capsys, *argv)
    assert code == 0, err
    assert spec.play_iterations("ismcts") == own and budgets and set(budgets) == {own}
    budgets.clear()
    code, _, err = run(capsys, *argv, "--iterations", "7")
    assert code == 0 and budgets and set(budgets) == {7}


@pytest.mark.parametrize("game", ["dog", "guardians", "trial"])
def test_help_documents_each_agents_default(game):
    spec = solver.registry.game_spec(game)
    text = " ".join(forest(game, "play", "--help").stdout.split())
    for name, agent in spec.offered_agents().items():
        assert f"{name} ({agent.budget_text()})" in text
    assert f"default: the game's strongest, {spec.strongest_agent}" in text
    solve = " ".join(forest(game, "solve", "--help").stdout.split())
    assert "--agent" in solve and f"strongest, {spec.strongest_agent}" in solve


def test_a_budget_is_shown_in_what_the_agent_counts(capsys):
    # Defect: guardians' lookahead counts continuations (its docs, its code), but `play --help`
    # said "lookahead (4 simulations a decision)" and `solve` "(4 simulations a decision; ...)"
    text = " ".join(forest("guardians", "play", "--help").stdout.split())
    assert "mcts (10000 simulations a decision)" in text
    assert "lookahead (4 continuations a decision)" in text and "4 simulations" not in text
    solo = " ".join(forest("guardians", "solo", "--help").stdout.split())
    assert "lookahead 4 quarters of the solo endgame's play-outs" in solo  # its solo player
    code, out, err = run(capsys, "guardians", "solve", "guardians/chain-trap", "--agent",
                         "lookahead", "--games", "1", "--iterations", "1")  # fmt: skip
    assert code == 0, err
    assert "over 1 game (1 continuation a decision; an estimate" in out
    code, out, err = run(capsys, "dog", "solve", "dog/tiny-2x2", "--agent", "mcts", "--games",
                         "1", "--iterations", "1")  # fmt: skip
    assert code == 0, err
    assert "(1 simulation a decision; an estimate" in out


def test_best_move_help_names_its_budget_plainly():
    # Defect: the Trial's said "ISMCTS from the player's view simulations a search"
    for game, searcher in (("dog", "MCTS"), ("trial", "ISMCTS")):
        text = " ".join(forest(game, "best-move", "--help").stdout.split())
        assert f"--iterations N {searcher} simulations a search (default 1000)" in text


def test_guardians_solo_defaults_to_the_strongest_agent(capsys):
    # Defect: `guardians solo` defaulted to mcts, which never wins a level
    code, out, err = run(capsys, "guardians", "solo", "--games", "1", "--json")
    assert code == 0, err
    report = json.loads(out)
    assert report["agent"] == solver.registry.game_spec("guardians").strongest_agent == "lookahead"
    text = " ".join(forest("guardians", "solo", "--help").stdout.split())
    assert "default: the game's strongest, lookahead" in text


def test_guardians_solo_json_names_the_unit_of_its_iterations(capsys):
    # Defect: `guardians solo --json` gave `iterations: 4` without its unit: the lookahead's
    # budget counts continuations (candidate turns played out), not MCTS simulations
    code, out, err = run(capsys, "guardians", "solo", "--games", "1", "--json")
    assert code == 0, err
    report = json.loads(out)
    keys = list(report)
    assert keys[keys.index("iterations") + 1] == "iterations_unit"  # added beside, not renamed
    assert report["iterations"] == 4  # in solo the lookahead scales its endgame's play-outs
    assert report["iterations_unit"].startswith("quarters of the solo endgame's play-outs")
    code, out, err = run(capsys, "guardians", "solo", "--games", "1", "--agent", "greedy",
                         "--json")  # fmt: skip
    assert code == 0, err
    assert json.loads(out)["iterations_unit"] is None  # no search: nothing counted


def test_every_games_solve_takes_an_agent_and_defaults_to_the_strongest(capsys):
    # Defect: `forest trial solve` could never work (it refused mcts and had no --agent)
    code, out, err = run(capsys, "trial", "solve", "--players", "2", "--games", "2",
                         "--iterations", "2", "--json")  # fmt: skip
    assert code == 0, err
    report = json.loads(out)
    assert (report["agent"], report["method"], report["games"]) == ("ismcts", "games", 2)
    assert report["ci_low"] <= report["value"] <= report["ci_high"]
    code, out, err = run(capsys, "guardians", "solve", "--agent", "greedy", "--games", "2",
                         "--json")  # fmt: skip
    assert code == 0, err
    assert json.loads(out)["agent"] == "greedy"
    code, out, err = run(capsys, "trial", "solve", "--agent", "mcts")
    assert code == 2 and "the mcts agent would read the hidden cards of trial" in err
    code, out, err = run(capsys, "guardians", "solve", "--agent", "ismcts")
    assert code == 2 and "ismcts agent is not supported for guardians: it searches hidden" in err


def test_solve_stops_starting_games_when_its_seconds_run_out(capsys):
    # Defect: `forest trial solve` and `forest guardians solve` at their defaults (200 games of
    # the strongest agent) ran for hours. --seconds (default 60) stops starting new games; the
    # estimate is over the games played, which are the first games of a longer run.
    code, out, err = run(capsys, "guardians", "solve", "--agent", "greedy", "--games", "500",
                         "--seconds", "1e-9", "--json")  # fmt: skip
    assert code == 0, err
    cut = json.loads(out)
    assert (cut["games"], cut["games_asked"]) == (1, 500)
    assert any("stopped after 1 game of 500" in note for note in cut["notes"])
    code, out, err = run(capsys, "guardians", "solve", "--agent", "greedy", "--games", "1",
                         "--json")  # fmt: skip
    whole = json.loads(out)
    assert (whole["games"], whole["notes"]) == (1, [])
    assert (cut["value"], cut["mean_score"]) == (whole["value"], whole["mean_score"])
    with pytest.raises(SystemExit) as refused:
        main(["guardians", "solve", "--agent", "greedy", "--seconds", "nan"])
    err = capsys.readouterr().err
    assert refused.value.code == 2 and "--seconds" in err and len(err.strip().splitlines()) == 1
    with pytest.raises(SystemExit):
        main(["guardians", "solve", "--help"])
    assert "default 60" in " ".join(capsys.readouterr().out.split())


def test_every_games_solve_defaults_to_its_strongest_agent_without_iterations_too(capsys):
    # Defect: `forest trial solve` without --iterations played heuristic self-play (a quick
    # default declared as GameSpec.solve_agent), not the strongest agent solve promises.
    from solver.cli_search import solve_agent

    for name in solver.registry.registered_games():
        spec = solver.registry.game_spec(name)
        parsed = argparse.Namespace(agent=None, iterations=None)
        assert solve_agent(spec, parsed) == spec.strongest_agent, name
        help_text = " ".join(forest(name, "solve", "--help").stdout.split())
        assert f"default: the game's strongest, {spec.strongest_agent}" in help_text, name
        assert "default 60;" in help_text, name


def test_solve_and_best_move_go_exact_where_it_fits(capsys):
    # Defect: `forest dog solve dog/big-12x12` ran MCTS for 12.7 s where the exact answer takes
    # 0.015 s. The exact value is checked against the exact search called directly.
    from solver.search import expectimax

    game = solver.load_game("dog", forest="dog/big-12x12")
    exact = expectimax(game.new_initial_state(), exact=True).value
    code, out, err = run(capsys, "dog", "solve", "dog/big-12x12", "--json")
    assert code == 0, err
    report = json.loads(out)
    assert (report["exact"], report["method"]) == (True, "exact")
    assert report["value"] == pytest.approx(exact, abs=1e-12)
    code, out, err = run(capsys, "dog", "best-move", "dog/big-12x12", "--json")
    report = json.loads(out)
    assert (report["exact"], report["method"], report["notes"]) == (True, "exact", [])
    assert report["value"] == pytest.approx(exact, abs=1e-12)
    # --mcts keeps the sampled meaning: the agent's games, an MCTS estimate
    code, out, _ = run(capsys, "dog", "solve", "dog/tiny-2x2", "--mcts", "--games", "5",
                       "--iterations", "20", "--json")  # fmt: skip
    assert json.loads(out)["method"] == "games"
    code, out, _ = run(capsys, "dog", "best-move", "dog/tiny-2x2", "--mcts", "--json")
    assert json.loads(out)["method"] == "mcts"


def test_exact_that_cannot_fit_falls_back_with_a_note(capsys):
    code, out, err = run(capsys, "dog", "solve", "dog/big-12x12", "--exact", "--memory-mb",
                         "0.01", "--games", "3", "--iterations", "20", "--json")  # fmt: skip
    assert code == 0, err
    report = json.loads(out)
    assert report["exact"] is False and report["method"] == "games"
    assert len(report["notes"]) == 1 and "memory cap" in report["notes"][0]
    assert "--memory-mb" in report["notes"][0]
    code, out, err = run(capsys, "dog", "best-move", "dog/big-12x12", "--exact", "--memory-mb",
                         "0.01", "--iterations", "30")  # fmt: skip
    assert code == 0, err
    assert "MCTS estimate" in out and "note: " in out and "memory cap" in out


def test_the_reference_engine_searches_as_the_kernel_does(capsys):
    # Defect: `--engine reference` silently weakened best-move (0.14 against 0.96 on
    # dog/big-12x12, both labelled the mcts agent's configuration): the same configuration now
    reports = []
    for engine in ("kernel", "reference"):
        code, out, err = run(capsys, "dog", "best-move", "dog/big-12x12", "--mcts", "--engine",
                             engine, "--iterations", "300", "--json")  # fmt: skip
        assert code == 0, err
        reports.append(json.loads(out))
    kernel, reference = reports
    assert abs(kernel["value"] - reference["value"]) < 0.05
    code, out, _ = run(capsys, "dog", "best-move", "dog/big-12x12", "--mcts", "--engine",
                       "reference", "--iterations", "300")  # fmt: skip
    assert "heuristic leaves" in out.splitlines()[0]


def _options_without_their_default(parser: Any, path: str) -> list[str]:
    """``COMMAND --option`` of every option whose help does not say its default (one that is
    something: not None, False, empty, or suppressed), through every sub-command."""
    missing = []
    for action in parser._actions:
        if isinstance(action, argparse._SubParsersAction):
            for name, sub in action.choices.items():
                missing += _options_without_their_default(sub, f"{path} {name}".strip())
        elif (
            action.option_strings
            and action.default not in (None, False, "", [], argparse.SUPPRESS)
            and action.help not in (None, argparse.SUPPRESS)
            and "default" not in action.help
        ):
            missing.append(f"{path} {action.option_strings[-1]}")
    return missing


def test_help_shows_every_default():
    # Defect: `forest guardians solo --help` showed no default for --level (it is 1); the README
    # says --help gives each option with its default.
    from solver.cli import build_parser

    assert _options_without_their_default(build_parser(), "") == []


@pytest.mark.parametrize(
    "argv, needle",
    [
        # a seed past 64 bits wrapped silently to another seed's search (found by attack)
        (
            ["dog", "best-move", "dog/another-dog", "--seed", str(2**64), "--mcts"],
            "expected a seed from 0 to 18446744073709551615",
        ),
        (["dog", "render", "--random-game", str(2**64)], "expected a seed from 0"),
        # --workers 100000 started that many processes (found by attack)
        (["serve", "--workers", "100000"], "expected a whole number from 1 to"),
        (["hint", "--stdio", "--workers", "100000"], "expected a whole number from 1 to"),
    ],
)
def test_out_of_range_seeds_and_worker_counts_are_refused_in_one_line(argv, needle):
    run = run_forest(*argv)
    assert run.returncode == 2 and run.stdout == "", (run.returncode, run.stderr)
    assert run.stderr.count("\n") == 1 and needle in run.stderr, run.stderr


@pytest.mark.parametrize("command", [["serve", "--port", "0"], ["hint", "--stdio"]])
@pytest.mark.parametrize(
    "option, needle",
    [
        # found by attack: accepted, then every request answered 'memory_mb must be at most
        # 1099511627776 (2^40 MB), not 1e+308' (invalid_request, the client blamed)
        (["--max-memory-mb", "1e308"], "at most 1099511627776"),
        # found by attack: accepted; serve's shutdown then failed (OverflowError traceback)
        (["--max-seconds", "1e308"], "at most 86400"),
        (["--max-review-seconds", "1e308"], "at most 86400"),
    ],
)
def test_budget_caps_past_what_a_search_takes_are_refused_at_start(command, option, needle):
    run = run_forest(*command, *option, timeout=60)
    assert run.returncode == 2 and run.stdout == "", (run.returncode, run.stderr)
    assert run.stderr.count("\n") == 1 and needle in run.stderr, run.stderr
    assert option[0] in run.stderr, run.stderr


def test_a_memory_cap_past_what_a_search_takes_is_refused_by_its_flag():
    # found by attack: `best-move --memory-mb 1e308` said 'forest: error: memory_mb must be at
    # most 1099511627776 (2^40 MB), not 1e+308', the API's word for the option
    for command in ("best-move", "solve"):
        run = run_forest("dog", command, "dog/another-dog", "--memory-mb", "1e308")
        assert run.returncode == 2 and run.stdout == "", (run.returncode, run.stderr)
        assert run.stderr.count("\n") == 1, run.stderr
        assert "argument --memory-mb" in run.stderr and "at most 1099511627776" in run.stderr
        assert "memory_mb" not in run.stderr
    run = run_forest("dog", "best-move", "dog/another-dog", "--memory-mb", str(2**40))
    assert run.returncode == 0, run.stderr


def test_the_largest_budget_caps_are_taken():
    run = run_forest("hint", "--stdio", "--max-seconds", "86400", "--max-review-seconds",
                     "86400", "--max-memory-mb", str(2**40), timeout=120)  # fmt: skip
    assert run.returncode == 0 and run.stdout == "", run.stderr


def test_an_empty_host_is_refused_not_bound_to_every_interface():
    # found by attack: `forest serve --host ''` listened on every interface (http://:PORT/),
    # where the default is 127.0.0.1 (local only)
    run = run_forest("serve", "--host", "", "--port", "0", timeout=60)
    assert run.returncode == 2 and run.stdout == "", (run.returncode, run.stderr)
    assert run.stderr.count("\n") == 1 and "--host" in run.stderr and "0.0.0.0" in run.stderr


def test_the_largest_seed_is_taken():
    run = run_forest("dog", "best-move", "dog/tiny-example", "--seed", str(2**64 - 1), "--mcts",
                     "--iterations", "20")  # fmt: skip
    assert run.returncode == 0, run.stderr


@pytest.mark.parametrize("game", ["guardians", "trial"])
@pytest.mark.parametrize("command", ["best-move", "solve"])
def test_exact_of_a_game_without_exact_search_says_so(game, command, capsys):
    # Defect: `forest trial best-move --exact` answered 'unrecognized arguments: --exact'.
    spec = solver.registry.game_spec(game)
    assert not spec.exact  # the independent fact: the spec offers no exact search
    with pytest.raises(SystemExit) as stop:
        main([game, command, "--exact"])
    out, err = capsys.readouterr()
    assert stop.value.code == 2 and out == ""
    assert err.count("\n") == 1 and f"{game} has no exact search" in err, err
    assert "unrecognized" not in err
    assert ("hides information" in err) == spec.hidden_information
    with pytest.raises(SystemExit):
        main([game, command, "--help"])
    assert "--exact" not in capsys.readouterr().out  # help never advertises it


def test_play_plays_the_games_its_game_declares_unless_told():
    """``play`` without ``--games`` plays ``spec.play_games`` (the Trial's 2, four ISMCTS seats
    at about 22 s a game; guardians' 10; 100 for the dog), and its help says so; a bad
    declaration is refused."""
    from solver.errors import OptionError
    from solver.registry import game_spec
    from solver.spec import GameSpec

    assert game_spec("trial").play_games == 2 and game_spec("dog").play_games == 100
    assert game_spec("guardians").play_games == 10
    command = [sys.executable, "-m", "solver.cli", "trial", "play", "--agent", "random", "--json"]
    played = subprocess.run(command, capture_output=True, text=True, timeout=120, check=True)
    assert json.loads(played.stdout)["games"] == 2
    for name in ("trial", "guardians", "dog"):
        command = [sys.executable, "-m", "solver.cli", name, "play", "--help"]
        out = subprocess.run(command, capture_output=True, text=True, timeout=60, check=True)
        assert f"(default {game_spec(name).play_games})" in " ".join(out.stdout.split())
    with pytest.raises(OptionError, match="play_games"):
        GameSpec(
            name="x",
            title="x",
            summary="x",
            players=(1,),
            engines={"reference": "m:f"},
            open="m:o",
            play_games=0,
        )


@pytest.mark.parametrize(("field", "value"), [("solve_agent", "nobody"), ("solve_seconds", 0),
                                              ("solve_seconds", float("inf")),
                                              ("solve_seconds", True), ("solve_iterations", 0),
                                              ("solve_iterations", True)])  # fmt: skip
def test_a_spec_s_solve_defaults_are_checked(field: str, value: object) -> None:
    from solver.errors import OptionError
    from solver.spec import GameSpec

    with pytest.raises(OptionError, match=field):
        GameSpec(name="x", title="x", summary="x", players=(1,), engines={"reference": "m:f"},
                 open="m:o", **{field: value})  # fmt: skip


def test_a_spec_s_solve_iterations_is_a_budget_of_a_strongest_agent_that_takes_one() -> None:
    # solve_iterations is the strongest agent's budget in solve's default estimate: a game whose
    # strongest agent searches nothing (random) has no budget to lower
    from solver.errors import OptionError
    from solver.spec import GameSpec

    base = dict(name="x", title="x", summary="x", players=(1,), engines={"reference": "m:f"},
                open="m:o", solve_iterations=10)  # fmt: skip
    assert GameSpec(**base).solve_iterations == 10  # mcts, the default strongest, takes one
    with pytest.raises(OptionError, match="solve_iterations is a budget for random"):
        GameSpec(**base, default_agent="random")
