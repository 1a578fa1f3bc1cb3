"""The Trial's analysis (:mod:`solver.games.trial.analysis`) through ``forest analyse``: small
batches through the real command, each row checked against the rows' own sums, the report
written, curated set-up files read back and analysed to the same rows; set-up files checked."""

from __future__ import annotations

import json

import pytest

pd = pytest.importorskip("pandas")
pytest.importorskip("pyarrow")
pytest.importorskip("matplotlib")

from solver.analysis.batch import read_results  # noqa: E402
from solver.analysis.stand_ins import analyse_rolled  # noqa: E402
from solver.cli import main  # noqa: E402
from solver.errors import FormatError  # noqa: E402
from solver.games.trial.analysis import CLASSES as TRIAL_CLASSES  # noqa: E402
from solver.games.trial.analysis import TrialSetup, analyse_setup, parse_setup  # noqa: E402


def run_cli(*argv: str) -> int:
    return main(["analyse", *argv])


def test_trial_batch_rows_are_consistent(tmp_path, capsys):
    out, report, saved = analyse_rolled(tmp_path, "trial", 2, "2x2", 3, "t.parquet")
    assert "analysed 2 set-ups" in capsys.readouterr().out
    frame = read_results(out, "trial")
    for row in frame.to_dict(orient="records"):
        assert (row["players"], row["games"], row["turns"]) == (2, 2, 5000)
        assert (row["width"], row["height"]) == (2, 2)
        finished = row["games"] - row["stalled_games"]
        wins = [float(w) for w in row["seat_wins"].split(",")]
        assert len(wins) == 2 and sum(wins) == pytest.approx(finished)
        assert row["first_seat_wins"] == pytest.approx(wins[0] / finished)
        assert 100 <= row["mean_length"] <= row["max_length"] <= 5000  # a real game, ended
        klass = "stalled" if row["stalled_games"] else "tied" if row["tied_games"] else "decided"
        assert row["class"] == klass
    text = (report / "report.md").read_text(encoding="utf-8")
    assert "| sizes (players x games) | 2x2 |" in text
    assert "| action cap (most actions a game may last, chance events included) | 5000 |" in text
    for name, definition in TRIAL_CLASSES.items():
        assert f"| {name} |" in text and definition in text
    assert "## Self-play" in text and f"| 2 | 2 | 4 | {frame['mean_length'].mean():.0f} |" in text
    # the curated files are set-ups that analyse to the same rows
    files = sorted(saved.iterdir())
    assert [p.name for p in files] == [f"rolled-2x2-seed{s}-turns5000.trial" for s in (3, 4)]
    assert json.loads(files[0].read_text(encoding="utf-8"))["seed"] == 3
    again = tmp_path / "again.csv"
    assert run_cli("--game", "trial", *map(str, files), "--jobs", "1", "--out", str(again),
                   "--no-progress") == 0  # fmt: skip
    reread = read_results(again, "trial")
    columns = ["class", "mean_length", "winner_fame", "fame_spread", "seat_wins"]
    assert reread[columns].to_dict(orient="records") == frame[columns].to_dict(orient="records")


def test_a_stalled_batch_reads_in_a_players_words(tmp_path, capsys):
    # Defect: the report called --turns' action cap "turn limits" (the Trial has no turn limit:
    # it caps a self-play game's actions, chance events included) and its budgets line named
    # the code's max_actions; a set-up whose every game was cut off showed "nan" for the
    # winner's fame, spread and seat 0's wins; and one set-up was "analysed 1 set-ups".
    out, report = tmp_path / "t.csv", tmp_path / "report"
    assert run_cli("--game", "trial", "--count", "1", "--size", "2x1", "--turns", "10",
                   "--jobs", "1", "-o", str(out), "--report", str(report),
                   "--no-progress") == 0  # fmt: skip
    assert f"analysed 1 set-up -> {out}: 1 stalled" in capsys.readouterr().out
    text = (report / "report.md").read_text(encoding="utf-8")
    assert "| action cap (most actions a game may last, chance events included) | 10 |" in text
    for internal in ("turn limit", "max_actions", "length budget", "nan"):
        assert internal not in text, internal
    assert "cut off at the action cap (--turns)" in text
    assert "| 2 | 1 | 1 | 10 | none | none | none | 0 | 0 | 1 |" in text


def test_trial_rows_are_the_reference_engines_rows(monkeypatch):
    """The analysis plays on the kernel engine; the reference rules give the same rows."""
    import solver.games.trial.kernel as kernel
    from solver.games.trial.analysis import trial_game
    from solver.games.trial.rules import TrialGame

    setups = [TrialSetup(7, 2, 1), TrialSetup(8, 3, 1, agents=("random", "heuristic", "random"))]
    setups += [TrialSetup(9, 4, 3), TrialSetup(10, 2, 3)]
    trial_game.cache_clear()
    fast = [analyse_setup(s) for s in setups]
    assert trial_game(None, 2).engine == "kernel"
    monkeypatch.setattr(kernel, "KernelTrialGame", TrialGame)
    trial_game.cache_clear()  # the games are built once per process: build them anew
    assert trial_game(None, 2).engine == "reference"
    assert [analyse_setup(s) for s in setups] == fast
    trial_game.cache_clear()


def test_trial_set_up_files_may_seat_random_players(tmp_path):
    from solver.games.trial.analysis import format_setup

    text = '{"seed": 2, "players": 2, "games": 3, "agents": ["random", "heuristic"]}'
    setup = parse_setup(text)
    assert setup.agents == ("random", "heuristic")
    assert parse_setup(format_setup(setup)) == setup
    row = analyse_setup(setup)
    assert row["agents"] == "random,heuristic" and row["games"] == 3
    # a random seat plays other moves than the heuristic one: the games differ
    plain = analyse_setup(TrialSetup(2, 2, 3))
    keys = ("mean_length", "max_length", "winner_fame", "fame_spread")
    assert [row[k] for k in keys] != [plain[k] for k in keys]


def test_trial_length_budget_stalls_every_game():
    row = analyse_setup(TrialSetup(seed=1, players=3, games=2, max_actions=40))
    assert row["class"] == "stalled" and row["stalled_games"] == 2
    assert row["max_length"] == 40 and row["winner_fame"] is None


def test_trial_setup_files_are_checked(tmp_path):
    base = str(tmp_path)
    setup = parse_setup('{"seed": 4, "players": 3, "pack": "pack"}', base)
    assert setup == TrialSetup(4, 3, 1, 5000, str(tmp_path / "pack"))
    bad = ['{"seed": 1, "players": 5}', '{"seed": -1, "players": 2}', "[1]", "{"]
    bad += ['{"seed": 1, "players": 2, "extra": 1}', '{"seed": 1, "players": 2, "pack": 3}']
    bad += ['{"seed": 1, "players": 2, "agents": ["random"]}']
    bad += ['{"seed": 1, "players": 2, "agents": ["random", "mcts"]}']
    for text in bad:
        with pytest.raises(FormatError):
            parse_setup(text, base)
