"""The `forest` command: each dog subcommand end to end, and one-line errors."""

from __future__ import annotations

import argparse
import ast
import json
import xml.etree.ElementTree as ET
from collections.abc import Iterator
from pathlib import Path

import pytest

from solver.cli import main
from solver.games.dog.format import load_forest, parse_forest
from solver.games.dog.generator import roll_forest
from solver.testing import run_forest


def run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


def test_generate_writes_the_rolled_forest(tmp_path, capsys):
    target = tmp_path / "seven.forest"
    code, out, err = run(
        capsys, "dog", "generate", "--seed", "7", "--size", "9x9", "-o", str(target)
    )
    assert (code, out, err) == (0, "", "")
    assert load_forest(target) == roll_forest(9, 9, seed=7)


def test_generate_to_stdout_with_turns(capsys):
    code, out, _ = run(capsys, "dog", "generate", "--seed", "3", "--size", "5x4", "--turns", "6")
    assert code == 0
    forest = parse_forest(out)
    assert (forest.width, forest.height, forest.turns) == (5, 4, 6)


def test_show_prints_the_grid(capsys):
    code, out, _ = run(capsys, "dog", "show", "dog/tiny-example")
    assert code == 0
    assert "T . . H . ." in out
    assert "shouter (1,4) W 3" in out


def test_render_svg_with_a_random_game(tmp_path, capsys):
    target = tmp_path / "sheet.svg"
    code, out, _ = run(capsys, "dog", "render", "dog/tiny-example", "-o", str(target),
                       "--random-game", "3")  # fmt: skip
    assert code == 0 and "wrote" in out
    root = ET.fromstring(target.read_text(encoding="utf-8"))
    assert root.tag.endswith("svg")
    assert "trail" in target.read_text(encoding="utf-8")


def test_list_names_every_puzzle(capsys):
    from solver import puzzles

    code, out, _ = run(capsys, "dog", "list")
    assert code == 0
    for name in puzzles.names("dog"):
        assert name in out


@pytest.mark.parametrize(("game", "unit"), [("dog", " turn"), ("guardians", " tiles ")])
def test_list_puts_the_summaries_and_descriptions_in_columns(capsys, game, unit):
    # "dog/tiny-2x2  2x2   1 turn  tiny-2x2: ..." stood one column left of its neighbours
    from solver import puzzles

    code, out, _ = run(capsys, game, "list")
    assert code == 0
    rows = dict(zip(puzzles.names(game), out.splitlines(), strict=True))
    described = {name: puzzles.headline(name) for name in rows}
    assert len({line.index(unit) for line in rows.values()}) == 1, out
    assert len({line.index(described[name]) for name, line in rows.items()}) == 1, out


@pytest.mark.parametrize("game", ["dog", "guardians"])
def test_list_describes_each_puzzle_by_a_whole_sentence(capsys, game):
    # the first line of a puzzle's wrapped comment was listed: "A chain of five missions for the
    # red pawn (19 points); the first legal walk each time" (guardians/chain-trap)
    from solver import puzzles

    code, out, _ = run(capsys, game, "list", "--json")
    text = run(capsys, game, "list")[1]
    assert code == 0
    for row in json.loads(out):
        whole = " ".join(puzzles.describe(row["name"]).split())
        said = row["description"]
        assert said.endswith((".", "!", "?")) and whole.startswith(said), row
        assert f"  {said}\n" in text, row


def test_solve_says_every_seat_only_where_there_are_several(capsys):
    # a solo game's estimate read "mcts agent, every seat: win probability ..." (its one seat)
    code, out, _ = run(capsys, "dog", "solve", "dog/stick", "--agent", "random", "--games", "2")
    assert code == 0 and out.startswith("random agent: win probability "), out
    code, out, _ = run(capsys, "trial", "solve", "--players", "2", "--agent", "random",
                       "--games", "1")  # fmt: skip
    assert code == 0 and out.startswith("random agent, every seat: player 0's win "), out


def test_random_game_is_reproducible(capsys):
    first = run(capsys, "dog", "random-game", "dog/tiny-example", "--seed", "5")
    second = run(capsys, "dog", "random-game", "dog/tiny-example", "--seed", "5",
                 "--engine", "reference")  # fmt: skip
    assert first[0] == 0 and first[1] == second[1]
    assert "turn  1: roll:" in first[1]


@pytest.mark.parametrize(
    ("argv", "needle"),
    [
        (["dog", "show", "/no/such/file.forest"], "/no/such/file.forest: no such forest file"),
        (["dog", "show", "dog/no-such-puzzle"], "no-such-puzzle"),
    ],
)
def test_errors_are_one_line(capsys, argv, needle):
    code, out, err = run(capsys, *argv)
    assert code == 2 and out == ""
    assert err.count("\n") == 1 and err.startswith("forest: error: ")
    assert needle in err


def test_a_size_out_of_range_is_a_one_line_usage_error(capsys):
    """--size is read by argparse (2cf3459), so its refusal is a usage error naming the flag."""
    with pytest.raises(SystemExit) as exit_info:
        main(["dog", "generate", "--size", "40x3"])
    out, err = capsys.readouterr()
    assert exit_info.value.code == 2 and out == "" and err.count("\n") == 1
    assert err.startswith("forest dog generate: error: argument --size: ")
    assert "each from 2 to 16, found '40x3'" in err


def test_bad_forest_file_names_line_and_column(tmp_path, capsys):
    bad = tmp_path / "bad.forest"
    bad.write_text("grid:\n. x\n", encoding="utf-8")
    code, _, err = run(capsys, "dog", "show", str(bad))
    assert code == 2
    assert "line 2, column 3: expected a cell symbol" in err


def test_bad_size_is_an_argparse_error(capsys):
    with pytest.raises(SystemExit) as exc:
        main(["dog", "generate", "--size", "nine"])
    assert exc.value.code == 2
    assert "expected a size like 9x9" in capsys.readouterr().err


# -- searcher-backed commands --------------------------------------------------------------------
def test_solve_exact_json_gives_the_hand_derived_value(capsys):
    import json

    # tiny-2x2: the human is two steps away and there is one turn; the dog wins iff the roll
    # gives at least 2 steps (rolls 3-6), so the exact win probability is 4/6 = 2/3.
    code, out, _ = run(capsys, "dog", "solve", "dog/tiny-2x2", "--exact", "--json")
    assert code == 0
    report = json.loads(out)
    assert report["exact"] is True
    assert report["win_probability"] == pytest.approx(2 / 3, abs=1e-12)
    assert "best_action" in report


def test_solve_estimate_has_a_confidence_interval(capsys):
    import json

    code, out, _ = run(capsys, "dog", "solve", "dog/tiny-2x2", "--json", "--games", "60",
                       "--iterations", "50", "--mcts")  # fmt: skip
    assert code == 0
    report = json.loads(out)
    assert report["exact"] is False
    assert report["ci_low"] <= report["win_probability"] <= report["ci_high"]
    assert report["games"] == 60


def test_best_move_lists_every_roll_at_the_start(capsys):
    import json

    code, out, _ = run(capsys, "dog", "best-move", "dog/tiny-3x3", "--exact", "--json")
    assert code == 0
    report = json.loads(out)
    assert report["chance"] is True
    assert [row["outcome"] for row in report["outcomes"]] == [
        "roll: 1 step", "roll: 2 steps", "roll: 3 steps",
    ]  # fmt: skip
    total = sum(row["probability"] * row["win_probability"] for row in report["outcomes"])
    assert total == pytest.approx(report["win_probability"])


def test_best_move_from_a_state_json(capsys):
    import json

    import solver

    state = solver.load_game("dog", forest="dog/tiny-2x2").new_initial_state()
    state.apply_action(11)  # roll: 2 steps, so the human is reachable this turn
    code, out, _ = run(capsys, "dog", "best-move", "dog/tiny-2x2", "--state", state.to_json(),
                       "--exact", "--json")  # fmt: skip
    assert code == 0
    report = json.loads(out)
    assert report["win_probability"] == 1.0
    assert report["best_action"] in {"N", "E", "S", "W"}


@pytest.mark.parametrize(
    ("puzzle", "exact"),
    [
        # tiny-example: a win whatever the dice do (`forest analyse` classes it "guaranteed"
        # with its AND-OR proof search); too large for today's plain exact expectimax
        ("dog/tiny-example", 1.0),
        ("dog/another-dog", None),  # None: solved exactly here
    ],
)
def test_best_move_estimate_agrees_with_the_exact_value(capsys, puzzle, exact):
    import json

    # best-move searches with the mcts agent's configuration, so its estimate from the start
    # (a chance node: every roll searched) lands near the exact value, which the random-rollout
    # search did not (0.82 against 1.00 on tiny-example).
    if exact is None:
        code, out, _ = run(capsys, "dog", "solve", puzzle, "--exact", "--json")
        exact = json.loads(out)["value"]
    code, out, _ = run(capsys, "dog", "best-move", puzzle, "--json", "--mcts")
    assert code == 0
    report = json.loads(out)
    assert report["value_kind"] == "win probability" and report["exact"] is False
    assert report["method"] == "mcts"
    assert report["value"] == pytest.approx(exact, abs=0.03)


def test_best_move_rejects_a_bad_state(capsys):
    code, _, err = run(capsys, "dog", "best-move", "dog/tiny-2x2", "--state", '{"phase": 3}')
    assert code == 2
    assert "every field" in err


@pytest.mark.parametrize("agent", ["random", "greedy", "mcts", "exact"])
def test_play_reports_a_reproducible_win_rate(capsys, agent):
    import json

    argv = ["dog", "play", "dog/tiny-2x2", "--agent", agent, "--games", "30", "--seed", "4",
            "--iterations", "50", "--json"]  # fmt: skip
    first = run(capsys, *argv)
    second = run(capsys, *argv)
    assert first[0] == 0 and first[1] == second[1]
    report = json.loads(first[1])
    assert set(report) >= {"game", "games", "seed", "players", "ties"}
    assert (report["game"], report["games"], report["seed"], report["ties"]) == ("dog", 30, 4, 0)
    (player,) = report["players"]
    assert set(player) >= {"seat", "agent", "wins", "win_rate", "ci_low", "ci_high", "mean_score"}
    assert (player["seat"], player["agent"]) == (0, agent)
    assert 0 <= player["wins"] <= 30 and player["win_rate"] == player["wins"] / 30
    assert player["ci_low"] <= player["win_rate"] <= player["ci_high"]
    # one player, returns 1 or 0: the mean score is the win rate
    assert player["mean_score"] == pytest.approx(player["win_rate"])


def test_play_prints_one_line_per_agent(capsys):
    code, out, err = run(capsys, "dog", "play", "dog/tiny-2x2", "--agent", "greedy", "--games",
                         "10", "--seed", "2")  # fmt: skip
    assert (code, err) == (0, "")
    assert out.startswith("greedy: won ") and out.count("\n") == 1 and "/10 = " in out


def test_a_solo_game_that_keeps_a_score_prints_the_mean_score(capsys):
    # guardians solo keeps a score (VP) apart from the win: the text said only the win rate,
    # while --json had the mean score (found by the new-user pass); a dog game's score is its
    # return (1 or 0), the win rate again, and stays out of the line
    argv = ["guardians", "play", "--players", "1", "--agent", "greedy", "--games", "3",
            "--seed", "0"]  # fmt: skip
    code, out, _ = run(capsys, *argv)
    (player,) = json.loads(run(capsys, *argv, "--json")[1])["players"]
    assert code == 0 and player["mean_score"] > 1  # VP, not a win rate
    assert out.rstrip("\n").endswith(f"  mean score {player['mean_score']:.3f}"), out
    code, out, _ = run(capsys, "dog", "play", "dog/tiny-2x2", "--agent", "greedy", "--games", "4")
    assert code == 0 and "mean score" not in out


def test_play_exact_agent_wins_at_the_exact_rate(capsys):
    import json

    # tiny-2x2 is won with probability exactly 2/3 (the test above); 600 games of the exact
    # agent must land within a 4-sigma band of it.
    code, out, _ = run(capsys, "dog", "play", "dog/tiny-2x2", "--agent", "exact", "--games",
                       "600", "--seed", "1", "--json")  # fmt: skip
    assert code == 0
    rate = json.loads(out)["players"][0]["win_rate"]
    assert abs(rate - 2 / 3) < 4 * (2 / 9 / 600) ** 0.5


def test_version_and_games(capsys):
    import json
    import tomllib
    from pathlib import Path

    assert main(["--version"]) == 0  # answered before any parser is built
    version = tomllib.loads(
        (Path(__file__).resolve().parent.parent / "pyproject.toml").read_text(encoding="utf-8")
    )["project"]["version"]
    assert capsys.readouterr().out == f"forest {version}\n"
    code, out, _ = run(capsys, "games", "--json")
    assert code == 0
    games = {row["name"]: row for row in json.loads(out)}
    assert games["dog"]["engines"] == ["kernel", "reference"] and games["dog"]["players"] == [1]
    assert all(set(row) >= {"name", "engines", "players"} for row in games.values())


def test_play_flag_errors_are_one_line(capsys):
    for argv, needle in [
        (["--agents", "mcts,random"], "dog is played by 1 player(s), not 2"),
        (["--agents", "mcts,,random"], "comma-separated list of agent names"),
        (["--agent", "mcts", "--agents", "mcts"], "not both"),
        (["--agent", "alphazero"], "unknown agent 'alphazero' for dog"),
        (["--players", "3"], "dog is played by 1 player(s), not 3"),
    ]:
        code, out, err = run(capsys, "dog", "play", "dog/tiny-2x2", "--games", "2", *argv)
        assert (code, out) == (2, ""), argv
        assert err.count("\n") == 1 and needle in err, (argv, err)


def test_route_with_conditions(capsys):
    import json

    # tiny-3x3: the human is 4 steps away, so par is 2 turns (a 3-step roll then 1 more).
    code, out, _ = run(capsys, "dog", "route", "dog/tiny-3x3", "--json")
    assert code == 0
    assert json.loads(out)["turns"] == 2
    code, out, _ = run(capsys, "dog", "route", "dog/tiny-3x3", "--query", "win by 1", "--json")
    assert code == 0
    assert json.loads(out) | {"states": 0} == {
        "turns": None, "route": [], "status": "infeasible", "method": "cp-sat", "states": 0,
    }  # fmt: skip
    code, _, err = run(capsys, "dog", "route", "dog/tiny-3x3", "--query", "fly")
    assert code == 2 and "unknown route condition 'fly'" in err


@pytest.mark.parametrize("limit", ["nan", "0", "-3", "inf"])
def test_route_refuses_a_time_limit_that_is_not_a_positive_number(limit):
    run = run_forest("dog", "route", "dog/tiny-3x3", "--time-limit", limit)
    assert run.returncode == 2 and "--time-limit" in run.stderr and "positive" in run.stderr


def test_best_move_spells_out_the_whole_turn(capsys):
    # guardians' mission step is several actions by one player; the turn must replay legally from
    # the position, start with the best action, stay with the player and end the turn, and it must
    # complete as many missions as the exact ordering says is possible (order-trap: 6)
    import solver
    from solver.games.guardians.mission_order_search import best_order

    code, out, _ = run(capsys, "guardians", "best-move", "guardians/order-trap", "--json")
    assert code == 0
    report = json.loads(out)
    turn = report["turn"]
    assert turn[0] == report["best_action"] and turn[-1] == "end turn"
    game = solver.load_game("guardians", position="guardians/order-trap")
    state = game.new_initial_state()
    player = state.current_player()
    for label in turn:
        assert state.current_player() == player
        by_label = {state.action_to_string(a): a for a in state.legal_actions()}
        state.apply_action(by_label[label])
    assert state.is_chance_node() or state.current_player() != player
    walks = [label for label in turn if label.startswith("walk ")]
    assert len(walks) == best_order(game.new_initial_state()).count


@pytest.mark.parametrize(
    ("argv", "prog"),
    [(["guardians", "order", "guardians/chain", "--players", "2"], "forest guardians order"),
     (["dog", "best-move", "dog/stick", "--bogus"], "forest dog best-move"),
     (["games", "--bogus"], "forest games")],
)  # fmt: skip
def test_an_unknown_argument_points_at_its_commands_help(capsys, argv, prog):
    # Defect (new-user pass): `forest guardians order FILE --players 2` said
    # 'forest: error: unrecognized arguments: --players 2 (see forest --help)', whose help does
    # not list order's options.
    with pytest.raises(SystemExit) as exc:
        main(argv)
    assert exc.value.code == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "unrecognized arguments:" in err
    assert err.startswith(f"{prog}: error: ") and err.endswith(f"(see {prog} --help)\n"), err


@pytest.mark.parametrize(
    ("argv", "said"),
    [(["dog", "play", "dog/stick", "--agnet", "mcts"],
      "--agnet mcts; did you mean --agent or --agents? (see forest dog play --help)"),
     (["guardians", "solo", "--levle", "2"], "--levle 2; did you mean --level? (see "),
     (["trial", "play", "--playres=3"], "--playres=3; did you mean --players? (see "),
     (["dog", "show", "dog/stick", "--zzz"], "--zzz (see forest dog show --help)")],
)  # fmt: skip
def test_a_misspelt_option_names_the_options_close_to_it(capsys, argv, said):
    """Found by a new user's pass: `forest dog play FILE --agnet mcts` said 'unrecognized
    arguments: --agnet mcts' and no more; the command's options close to it are named (none for
    a word like no option)."""
    with pytest.raises(SystemExit) as exc:
        main(argv)
    err = capsys.readouterr().err
    assert exc.value.code == 2 and err.count("\n") == 1, err
    assert f"unrecognized arguments: {said}" in err, err


@pytest.mark.parametrize(
    ("argv", "said"),
    [(["dog", "play", "dog/stick", "--game", "3"], "--game 3; did you mean --games?"),
     (["trial", "play", "--iter=5"], "--iter=5; did you mean --iterations?"),
     (["hint", "--stdio", "--max-it", "5"], "--max-it 5; did you mean --max-iterations?"),
     (["guardians", "best-move", "guardians/chain", "--pla", "1"],
      "--pla 1; did you mean --player or --players?")],
)  # fmt: skip
def test_a_shortened_option_is_refused_and_named(capsys, argv, said):
    """Defect: argparse read a prefix as the option it starts, so `forest dog play --game 3`
    played 3 games (as `--games 3`), and a future option sharing the prefix would silently
    change what an old command line means. A shortened option is an unknown one, refused with
    the options it could stand for."""
    with pytest.raises(SystemExit) as exc:
        main(argv)
    err = capsys.readouterr().err
    assert exc.value.code == 2 and err.count("\n") == 1, err
    assert f"unrecognized arguments: {said}" in err, err


def _parsers(parser: argparse.ArgumentParser) -> Iterator[argparse.ArgumentParser]:
    """``parser`` and every sub-command's parser under it."""
    yield parser
    for action in parser._actions:
        if isinstance(action, argparse._SubParsersAction):
            for sub in action.choices.values():
                yield from _parsers(sub)


def test_no_parser_reads_abbreviations() -> None:
    """Every parser of ``forest`` (each command and sub-command, built in full) and every
    parser the bench scripts and the demo make is built with ``allow_abbrev=False``; the bench
    and demo ones are read from their source (a call without the keyword fails)."""
    from solver.cli import build_parser

    parsers = list(_parsers(build_parser()))
    assert len(parsers) > 20 and not any(p.allow_abbrev for p in parsers)
    root = Path(__file__).resolve().parents[1]
    files = [*sorted((root / "bench").glob("*.py")), *sorted((root / "solver").rglob("*.py"))]
    calls = 0
    for path in files:
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if not isinstance(node, ast.Call) or not isinstance(node.func, ast.Attribute):
                continue
            if node.func.attr not in ("ArgumentParser", "add_parser"):
                continue
            keywords = {k.arg: k.value for k in node.keywords}
            inherits = node.func.attr == "add_parser" and path.parent.name != "bench"
            flag = keywords.get("allow_abbrev")
            assert inherits or (isinstance(flag, ast.Constant) and flag.value is False), (
                f"{path.relative_to(root)}:{node.lineno}"
            )
            calls += 1
    assert calls > 30


@pytest.mark.parametrize(
    ("argv", "said"),
    [(["trial", "solve", "--="], "--= (see forest trial solve --help)"),
     (["hint", "--stdio", "--=5"], "--=5 (see forest hint --help)"),
     (["serve", "--", "--x"], "-- --x (see forest serve --help)"),
     (["trial", "play", "--" + "x" * 5_000],
      f"--{'x' * 198}... (5002 characters) (see forest trial play --help)")],
)  # fmt: skip
def test_a_hostile_option_name_gets_a_short_line_and_no_guess(capsys, argv, said):
    """Found by attack: ``--=`` (no name) was told 'did you mean --help or --engine or
    --players?' (every option starts with ``--``), and an unknown option of 5,000 characters
    was echoed whole; the line now quotes 200 characters of what was given and guesses
    nothing for a word with no name."""
    with pytest.raises(SystemExit) as exc:
        main(argv)
    err = capsys.readouterr().err
    assert exc.value.code == 2 and err.count("\n") == 1, err
    assert err.endswith(f"unrecognized arguments: {said}\n"), err
