"""``forest GAME review`` (:mod:`solver.cli_review`) as a user runs it: ``--plot`` checks its path
before reviewing and never replaces a file unasked; a record nested too deeply is one line."""

from __future__ import annotations

import json
import os
import random
import re

import pytest

from solver.testing import one_line_error
from solver.testing import run_forest as forest


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


def test_a_review_record_nested_too_deeply_is_one_line(tmp_path):
    # Defect: `forest guardians review deep.json` was a RecursionError traceback.
    path = tmp_path / "deep.json"
    path.write_text("[" * 100_000, encoding="utf-8")
    run = forest("guardians", "review", str(path))
    one_line_error(run, "deep.json")


def test_a_review_written_to_a_file_keeps_each_decision_on_one_line(recorded_game):
    # Defect: piped or redirected, rich folded the table to 80 columns, every long label
    # ("place tile 31 at (-1,0)") over several lines, each with its own row of cells
    pytest.importorskip("rich")
    env = {k: v for k, v in os.environ.items() if k != "COLUMNS"}
    run = forest("guardians", "review", str(recorded_game), "--iterations", "2", env=env,
                 inherit_env=False)  # fmt: skip
    assert run.returncode == 0, run.stderr
    rows = [line for line in run.stdout.splitlines() if line.startswith("│")]
    assert rows and all(row.split("│")[1].strip().isdigit() for row in rows), run.stdout[:2000]
    assert any(re.search(r"place tile \d+ at \(-?\d+,-?\d+\)", row) for row in rows)


def test_a_record_keeps_the_games_own_options_and_its_review_plays_them(tmp_path):
    # Defect (new-user pass): `play --option level=3 --record` wrote {"players": 1}, and the
    # review, at level 1, ended a lost game on a value of 1.0.
    pytest.importorskip("pydantic")
    record = tmp_path / "level3.json"
    run = forest("guardians", "play", "--players", "1", "--option", "level=3", "--agent",
                 "planner", "--record", str(record))  # fmt: skip
    assert run.returncode == 0, run.stderr
    written = json.loads(record.read_text())
    assert written["options"] == {"players": 1, "level": 3}
    run = forest("guardians", "review", str(record), "--iterations", "10", "--json")
    assert run.returncode == 0, run.stderr
    assert json.loads(run.stdout)["curve"][-1]["value"] == written["returns"][0]


def test_a_review_without_decisions_says_why_its_table_is_empty(tmp_path):
    # Defect (new-user pass): reviewing the record of a game left at the first decision
    # (`play --human`, then `quit`) printed an empty table and '0 inaccuracies...' alone.
    pytest.importorskip("pydantic")
    record = tmp_path / "left.json"
    run = forest("guardians", "play", "--human", "--record", str(record), "--no-progress",
                 stdin="quit\n")  # fmt: skip
    assert run.returncode == 0, run.stderr
    run = forest("guardians", "review", str(record), "--iterations", "10")
    assert run.returncode == 0, run.stderr
    assert "no decision to review: the record's 6 actions are chance outcomes" in run.stdout
    assert "the record is unfinished" in run.stdout


def test_a_game_played_from_a_saved_state_is_reviewed_from_it(tmp_path):
    # Defect (docs pass): a game without a source option (the Trial, a plug-in) played from a
    # FILE recorded only the actions, and the review replayed them from a new game: "actions.0:
    # action 148 is not legal here". The record now starts from the position played.
    pytest.importorskip("pydantic")
    import solver

    state = solver.load_game("trial", players=2).new_initial_state()
    while state.is_chance_node():
        state.apply_action(state.chance_outcomes()[0][0])
    state.apply_action(state.legal_actions()[0])  # the position no new game starts from
    saved = tmp_path / "saved.json"
    saved.write_text(state.to_json(), encoding="utf-8")
    run = forest("trial", "play", str(saved), "--players", "2", "--human", "--record",
                 "r.json", "--no-progress", cwd=tmp_path, stdin="1\nquit\n")  # fmt: skip
    assert run.returncode == 0, run.stderr
    record = json.loads((tmp_path / "r.json").read_text())
    assert record["state"] == state.to_json() and record["actions"]
    run = forest("trial", "review", "r.json", "--iterations", "10", "--json", cwd=tmp_path)
    assert run.returncode == 0, run.stderr
    assert json.loads(run.stdout)["decisions"]


def test_a_review_title_says_exact_once(tmp_path):
    """Found by a new user's pass: an exact review was titled 'exact win probability (exact)';
    an estimate keeps saying how it was found."""

    def title(run):  # the lines above the table's top border (rich wraps a long title)
        assert run.returncode == 0, run.stderr
        lines = run.stdout.splitlines()
        return " ".join(line.strip() for line in lines[: lines.index(next(
            line for line in lines if line.startswith("\u250f")))])  # fmt: skip

    (tmp_path / "game.json").write_text(
        json.dumps(
            {"game": "dog", "options": {"forest": "dog/another-dog"}, "seed": 0, "actions": [10, 1]}
        )
    )
    run = forest("dog", "review", "game.json", "--exact", "--no-progress", cwd=tmp_path)
    assert title(run) == "review of game.json: exact win probability"
    run = forest("dog", "review", "game.json", "--mcts", "--iterations", "50", "--no-progress",
                 cwd=tmp_path)  # fmt: skip
    assert title(run).endswith("win probability (MCTS estimates, 50 simulations a position)")


def test_a_record_without_actions_says_so(tmp_path):
    """Found by a new user's pass: a saved position (no actions) was 'the record's 0 actions
    are chance outcomes (rolls, draws) only'."""
    (tmp_path / "p.json").write_text(
        json.dumps(
            {"game": "dog", "options": {"forest": "dog/another-dog"}, "seed": 0, "actions": []}
        )
    )
    run = forest("dog", "review", "p.json", "--no-progress", cwd=tmp_path)
    assert run.returncode == 0, run.stderr
    assert "the record has no actions" in run.stdout and "0 actions" not in run.stdout


def test_a_printed_loss_at_a_threshold_is_marked():
    """Found by a new user's pass: a Trial review printed loss 0.0500 with no mark beside
    'inaccuracy ≥ 0.05' (0.04996, rounded up). The text's loss is rounded down, so a loss
    printed at or past a threshold is one the review marked, and one below it is not."""
    from solver.cli_review import _loss
    from solver.review import THRESHOLDS, mark_of

    rng = random.Random(0)
    losses = [t + d for t in THRESHOLDS.values() for d in (-1e-4, -5e-5, -1e-9, 0, 1e-9, 5e-5)]
    losses += [rng.random() * 0.3 for _ in range(2000)]
    for loss in losses:
        printed = float(_loss(loss))
        shown = [name for name, t in THRESHOLDS.items() if printed >= t]
        assert (shown[-1] if shown else None) == mark_of(loss), (loss, printed)
        assert 0 <= loss + 1e-9 - printed < 1e-4 + 1e-9  # within the last place, never above


def _fake_hint(base, position, ident, **kw):
    """A hint whose most simulated move (first) is valued below another: a search's choice is
    its most simulated move and its values are means, so the two can disagree."""
    first = ident == "review-0"  # a decision at ply 0, then chance nodes (a made-up game)
    root = {"value": 0.1, "valueKind": "win probability", "player": 0, "method": "mcts",
            "currentPlayer": 0 if first else -1, "visits": 1000}  # fmt: skip
    moves = [] if not first else [
        {"action": 3, "label": "take 1 tile", "value": 0.0489, "visits": 600},
        {"action": 10, "label": "take 2 tiles", "value": 0.1059, "visits": 400},
    ]  # fmt: skip
    return {"rootInfo": root, "moveInfos": moves}


def test_a_best_move_is_never_shown_below_the_move_played(monkeypatch, capsys):
    """Found by a new user's pass: a guardians review named ``take 1 tile`` (0.0489) the best
    move beside ``take 2 tiles`` played (0.1059), loss 0. The move played, valued higher, is now
    the best shown (``bestBy: "played"``), the search's choice kept in ``searchBest*``: in
    ``review_record``, the service's review (``POST /v1/review``'s job) and the CLI text."""
    import solver.review
    from solver.cli_human import Screen
    from solver.cli_review import _show_review
    from solver.hint.jobs import review_job
    from solver.hint.limits import Caps

    monkeypatch.setattr(solver.review, "_ask", _fake_hint)
    record = {"game": "dog", "options": {"forest": "dog/another-dog"}, "seed": 0,
              "actions": [10, 1]}  # fmt: skip
    served = review_job({**record, "limit": {"iterations": 50}}, Caps())
    for review in (solver.review.review_record(record), served):
        [decision] = review["decisions"]
        assert decision["label"] == decision["bestLabel"] == "take 2 tiles"
        assert decision["value"] == decision["best"] == decision["bestValue"] == 0.1059
        assert decision["bestAction"] == decision["action"] == 10
        assert decision["loss"] == 0 and decision["mark"] is None
        assert decision["bestBy"] == "played" and decision["simulations"] == 1000
        assert (decision["searchBestLabel"], decision["searchBestValue"]) == ("take 1 tile", 0.0489)
    _show_review(Screen(), solver.review.review_record(record), record, "game.json")
    out = " ".join(capsys.readouterr().out.split())
    assert "take 1 tile" not in out.split("note:")[0]  # the table names no lower 'best'
    assert "at 1 decision the move played was valued above the search's choice" in out
    # the search's choice is its first listed move, which a hint agent may lead among moves
    # valued alike (solver.agent_first): not always "its most simulated move" (found by attack)
    assert "the search's choice (its first listed move)" in out and "most simulated" not in out


def test_a_tie_keeps_the_search_s_choice(monkeypatch):
    """A move played valued as the search's choice is not put in its place (loss 0)."""
    import solver.review

    def tie(base, position, ident, **kw):
        reply = _fake_hint(base, position, ident, **kw)
        for move in reply["moveInfos"]:
            move["value"] = 0.5
        return reply

    monkeypatch.setattr(solver.review, "_ask", tie)
    record = {"game": "dog", "options": {"forest": "dog/another-dog"}, "actions": [10, 1]}
    [decision] = solver.review.review_record(record)["decisions"]
    shown = (decision["bestLabel"], decision["bestBy"], decision["loss"])
    assert shown == ("take 1 tile", "search", 0.0)


def test_the_trial_s_review_default_is_its_own_and_said(monkeypatch):
    """Found by a new user's pass: a default review of a four-player Trial (about 800 positions,
    a hint's 1000 simulations each) took 230 s. The Trial declares its review's default
    (``review_iterations``, 300); a review says the budget a position had (``limit``), the CLI
    and the service alike, and the positions searched are counted for the progress line."""
    import solver
    from solver.hint.jobs import review_job
    from solver.hint.limits import Caps
    from solver.registry import game_spec
    from solver.review import review_record

    assert game_spec("trial").review_iterations == 300
    assert game_spec("dog").review_iterations is None
    game = solver.load_game("trial", players=2)
    state, actions, rng = game.new_initial_state(), [], random.Random(3)
    while len(actions) < 12:
        action = rng.choice(state.legal_actions())
        state.apply_action(action)
        actions.append(action)
    record = {"game": "trial", "options": {"players": 2}, "seed": 0, "actions": actions}
    counted = []
    review = review_record(record, start=8, stop=12, progress=lambda *n: counted.append(n))
    assert review["limit"] == {"iterations": 300, "seconds": None}
    assert counted == [(k, 5) for k in range(1, 6)]
    assert all(d["simulations"] <= 300 for d in review["decisions"] if d["method"] != "exact")
    served = review_job({**record, "fromPly": 10, "toPly": 12}, Caps())
    assert served["limit"]["iterations"] == 300
    dog = {"game": "dog", "options": {"forest": "dog/another-dog"}, "actions": [10, 1]}
    assert review_record(dog, exact=False)["limit"] == {"iterations": 1000, "seconds": None}
    run = forest("trial", "review", "--help")
    assert "(default 300)" in " ".join(run.stdout.split())


def test_a_review_default_must_be_a_whole_number():
    from solver.errors import OptionError
    from solver.registry import game_spec

    spec = game_spec("dog")
    with pytest.raises(OptionError, match="review_iterations"):
        type(spec)(**{**{f: getattr(spec, f) for f in spec.__dataclass_fields__},
                      "review_iterations": 0})  # fmt: skip


def _review(game: str, exact: bool, label: str, methods: list[str]) -> dict:
    curve = [{"ply": k, "value": 0.5, "player": 0, "values": [0.5, 0.5]} for k in range(30)]
    return {"game": game, "valueKind": "win probability", "valueLabel": label, "exact": exact,
            "methods": methods, "curve": curve, "decisions": []}  # fmt: skip


@pytest.mark.parametrize(
    ("review", "second_line"),
    [(_review("dog", True, "exact win probability", ["exact"]), "exact"),
     (_review("guardians", False, "heuristic estimate of the win probability / exact win "
              "probability", ["mcts", "exact"]), "MCTS estimates: heuristic estimate")],
)  # fmt: skip
def test_the_plots_title_says_each_thing_once_and_stays_on_the_figure(review, second_line):
    """Found by the new-user pass: the dog's plot was titled 'dog: exact win probability over
    the game (exact)', and a guardians review's mixed label ran past both edges of the figure
    (title and y axis). Now the game and the value kind, then how it was found, wrapped; the
    drawn text is measured against the figure by matplotlib itself."""
    pytest.importorskip("matplotlib")
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    from solver.review import plot_figure

    fig = plot_figure(review)
    try:
        fig.canvas.draw()
        renderer = fig.canvas.get_renderer()
        width, height = fig.bbox.width, fig.bbox.height
        ax = fig.axes[0]
        title = ax.title.get_text()
        assert title.splitlines()[0] == f"{review['game']}: win probability over the game"
        assert title.splitlines()[1].startswith(second_line)
        assert title.count("exact") == 1, title  # said once
        for text in (ax.title, ax.yaxis.label, ax.xaxis.label):
            box = text.get_window_extent(renderer)
            assert box.x0 >= 0 and box.x1 <= width and box.y0 >= 0 and box.y1 <= height, text
    finally:
        plt.close(fig)


def test_a_review_whose_exact_searches_ran_out_of_time_says_how_to_insist(monkeypatch, capsys):
    """Found by a new user's pass: positions whose exact search did not finish in its time were
    valued by MCTS without a word; the review now keeps the search's note (counted) and the
    command says how to have them exact. Checked without a clock: the hint says it ran out."""
    import solver.review
    from solver.cli_human import Screen
    from solver.cli_review import _show_review

    def cut(base, position, ident, **kw):
        reply = _fake_hint(base, position, ident, **kw)
        reply["notes"] = ["the exact search did not finish within 1 s: the values are MCTS "
                          "estimates (1000 simulations)"]  # fmt: skip
        return reply

    monkeypatch.setattr(solver.review, "_ask", cut)
    record = {"game": "dog", "options": {"forest": "dog/another-dog"}, "actions": [10, 1]}
    review = solver.review.review_record(record)
    said = "the exact search did not finish within 1 s: the values are MCTS estimates"
    assert review["notes"] == [f"3 positions of 3 searched: {said} (1000 simulations)"]
    _show_review(Screen(), review, record, "game.json")
    out = " ".join(capsys.readouterr().out.split())
    assert "note: 3 positions of 3 searched: the exact search did not finish within 1 s" in out
    assert "note: --exact values every position exactly" in out
