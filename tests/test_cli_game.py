"""The commands every game gets (:mod:`solver.cli_game`): their options refuse a user's mistakes
in one line with exit status 2, driven as a user drives them (a ``forest`` subprocess)."""

from __future__ import annotations

from pathlib import Path

import pytest

from solver.testing import one_line_error
from solver.testing import run_forest as forest


@pytest.mark.parametrize("agents", ["", ",", " "])
def test_play_refuses_an_empty_agent_list(agents):
    # Defect: `--agents ''` silently played the default agent (mcts at 1000 simulations) in
    # every seat.
    run = forest("guardians", "play", "--players", "2", "--agents", agents, "--games", "1")
    one_line_error(run, "--agents")


def test_the_exact_agent_memory_cap_names_the_flag():
    run = forest("dog", "play", "dog/another-dog", "--agent", "exact", "--memory-mb", "0.001",
                 "--games", "2")  # fmt: skip
    one_line_error(run, "--memory-mb")
    assert "memory_mb=" not in run.stderr


@pytest.mark.parametrize(("game", "searcher"), [("trial", "ISMCTS"), ("guardians", "MCTS")])
def test_review_help_names_the_searcher_of_its_estimates(game, searcher):
    # Defect (new-user pass): `forest trial review --help` said 'MCTS simulations a position';
    # a Trial review's values are ISMCTS estimates (its table and plot say so).
    run = forest(game, "review", "--help")
    assert run.returncode == 0, run.stderr
    text = " ".join(run.stdout.split())
    assert f"--iterations N {searcher} simulations a position" in text, text
    assert f"--seconds S {searcher} seconds a position" in text, text


@pytest.mark.parametrize("game", ["dog", "guardians", "trial"])
def test_the_solve_summary_names_the_agent_its_default_plays(game):
    """Found by a new user's pass: `forest trial --help` said solve gives 'what the strongest
    agent wins from there', while its default plays the quick heuristic agent (ismcts only with
    --agent or --iterations, as `solve --help` and docs/command-line.md say)."""
    import re

    from solver.registry import game_spec

    spec = game_spec(game)
    run = forest(game, "--help")
    summary = " ".join(re.search(r"\n    solve\s+(.*?)\n    play", run.stdout, re.S)[1].split())
    if spec.solve_agent is None:
        assert "what the strongest agent wins from there" in summary, summary
    else:
        assert f"what the quick {spec.solve_agent} agent wins from there" in summary, summary
        assert f"(--agent {spec.strongest_agent} for the strongest)" in summary, summary


def test_the_command_line_page_gives_each_games_solve_seconds():
    """Found by a new user's pass: docs/command-line.md gave `solve --seconds` as "default 60, the
    Trial's 5 with its quick agent", a default undone with the Trial's quick solve agent, while
    `forest trial solve --help` says 60. The page's default must be every game's."""
    import re

    from solver.registry import game_spec

    page = (Path(__file__).parent.parent / "docs" / "command-line.md").read_text(encoding="utf-8")
    said = re.search(r"games stop starting after `--seconds` \(default ([^)]*)\)", page, re.S)
    assert said is not None
    words = " ".join(said[1].split())
    default = float(re.match(r"[\d.]+", words)[0])
    for game in ("dog", "guardians", "trial"):
        seconds = game_spec(game).solve_seconds
        title = "the Trial" if game == "trial" else game
        assert seconds == default or f"{title}'s {seconds:g}" in words, (game, seconds, words)
        assert f"{title}'s" not in words or f"{title}'s {seconds:g}" in words, (game, words)


def test_the_command_line_page_s_quick_trial_figure_names_its_players_and_load():
    """Found by a new user's pass: docs/command-line.md said `forest trial solve --agent
    heuristic` plays "about 0.3 s a game" with no player count (the default is 4) or load; 0.94 s
    a game was measured at 4 players under load 8. The figure names the players it holds for and
    the load it was measured under (a game's time depends on both)."""
    import re

    from solver.registry import game_spec, load_game

    page = (Path(__file__).parent.parent / "docs" / "command-line.md").read_text(encoding="utf-8")
    said = re.search(r"`--agent heuristic` is the Trial's quick\s+estimate instead([^`]*)", page)
    assert said is not None
    words = " ".join(said[1].split())
    counts = {int(n) for n in re.findall(r"at (\d) players", words)}
    assert counts and counts <= set(game_spec("trial").players), words
    assert load_game("trial").num_players() in counts  # the default game's (4) given
    assert re.search(r"under load \d+", words), words
