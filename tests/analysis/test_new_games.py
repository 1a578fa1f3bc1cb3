"""``forest analyse`` on forest guardians and the Trial: small batches through the real command,
each row checked against computations made here (the exhaustive order search, a brute-force cut
vertex count, the rows' own sums), the report written, curated files read back."""

from __future__ import annotations

import argparse
import json

import pytest

pd = pytest.importorskip("pandas")
pytest.importorskip("pyarrow")
pytest.importorskip("matplotlib")

from solver.analysis.batch import read_results  # noqa: E402
from solver.analysis.cli_analyse import add_analyse_command  # noqa: E402
from solver.analysis.sources import Job  # noqa: E402
from solver.errors import FormatError, OptionError  # noqa: E402
from solver.games.guardians.analysis import CLASSES as GUARDIANS_CLASSES  # noqa: E402
from solver.games.guardians.analysis import roll_grove  # noqa: E402
from solver.games.guardians.grove import load_grove, parse_grove  # noqa: E402
from solver.games.guardians.ordering import best_order, first_legal_order  # noqa: E402
from solver.games.guardians.rules import GuardiansGame  # noqa: E402
from solver.games.trial.analysis import CLASSES as TRIAL_CLASSES  # noqa: E402
from solver.games.trial.analysis import TrialSetup, analyse_setup, parse_setup  # noqa: E402


def run_cli(*argv: str) -> int:
    parser = argparse.ArgumentParser(prog="forest")
    add_analyse_command(parser.add_subparsers(dest="command"))
    args = parser.parse_args(["analyse", *argv])
    return args.handler(args)


def brute_cut_vertices(cells: set[tuple[int, int]]) -> int:
    """Tiles whose removal leaves more than one piece (flood fill, written here)."""

    def pieces(rest: set[tuple[int, int]]) -> int:
        seen: set[tuple[int, int]] = set()
        count = 0
        for start in rest:
            if start in seen:
                continue
            count += 1
            stack = [start]
            seen.add(start)
            while stack:
                r, c = stack.pop()
                for n in ((r - 1, c), (r + 1, c), (r, c - 1), (r, c + 1)):
                    if n in rest and n not in seen:
                        seen.add(n)
                        stack.append(n)
        return count

    return sum(1 for cell in cells if pieces(cells - {cell}) > 1)


def test_guardians_batch_rows_match_the_exhaustive_search(tmp_path, capsys):
    out, report, saved = tmp_path / "g.csv", tmp_path / "rep", tmp_path / "saved"
    code = run_cli(
        "--game", "guardians", "--count", "8", "--size", "6x5", "--seed", "0", "--jobs", "1",
        "--out", str(out), "--report", str(report), "--save-to", str(saved), "--no-progress",
    )  # fmt: skip
    assert code == 0
    assert "analysed 8 positions" in capsys.readouterr().out
    frame = read_results(out, "guardians")
    assert list(frame["source"]) == [f"seed:{s}" for s in range(8)]
    seen_classes = set()
    for row in frame.to_dict(orient="records"):
        seed = int(row["source"].split(":")[1])
        grove = load_grove(saved / f"rolled-6x5-seed{seed}.grove")  # curated, re-serialised
        assert grove == roll_grove(seed, 6, 5)
        state = GuardiansGame(position=grove).new_initial_state()
        best, first = best_order(state), first_legal_order(state)
        assert (row["best_count"], row["best_points"]) == (best.count, best.points)
        assert (row["first_count"], row["first_points"]) == (first.count, first.points)
        assert row["lost_missions"] == best.count - first.count
        if best.count == 0:
            expected = "none"
        elif (first.count, first.points) < (best.count, best.points):
            expected = "trap"
        else:
            expected = "easy"
        assert row["class"] == expected
        seen_classes.add(expected)
        cells = {place for place, _ in grove.tiles()}
        assert row["tiles"] == len(cells) and (row["width"], row["height"]) == (6, 5)
        assert row["cut_vertices"] == brute_cut_vertices(cells)
        assert row["pawns"] == sum(1 for _, cell in grove.tiles() if cell.pawn)
    assert {"easy", "trap"} <= seen_classes  # seeds 0-7 at 6x5 hold both
    text = (report / "report.md").read_text(encoding="utf-8")
    assert "| game | guardians |" in text and "| positions | 8 |" in text
    for name, definition in GUARDIANS_CLASSES.items():
        assert f"| {name} |" in text and definition in text
    assert (report / "best_count.png").exists()
    assert "## Mission orders" in text  # the game's own section, from its hooks
    worst = frame.sort_values("lost_missions", ascending=False, kind="stable").iloc[0]
    if worst["lost_missions"] > 0:
        assert f"| {worst['source']} | {worst['best_count']} | {worst['first_count']} |" in text


def test_guardians_rolls_are_one_piece_with_a_pawn_and_reproducible():
    for seed in range(30):
        width, height = 2 + seed % 9, 2 + seed % 7
        grove = roll_grove(seed, width, height)
        assert (grove.width, grove.height) == (width, height)
        assert grove == roll_grove(seed, width, height)
        cells = {place for place, _ in grove.tiles()}
        assert (width * height) // 2 <= len(cells) <= max(2, width * height * 4 // 5)
        assert any(cell.pawn for _, cell in grove.tiles())
        from solver.games.guardians.grove import format_grove

        assert parse_grove(format_grove(grove)) == grove  # the format's own checks pass


def test_guardians_unsolved_past_the_state_budget():
    from solver.games.guardians.analysis import analyse_grove

    for seed in range(20):
        grove = roll_grove(seed, 6, 5)
        full = analyse_grove(grove)
        if full["class"] == "trap" and full["best_count"] >= 3:
            tight = analyse_grove(grove, max_states=1)
            assert tight["class"] == "unsolved" and tight["exact"] is False
            assert tight["first_count"] == full["first_count"] and "best_count" not in tight
            return
    pytest.fail("no trap with 3 missions among the seeds")


def test_trial_batch_rows_are_consistent(tmp_path, capsys):
    out, report, saved = tmp_path / "t.parquet", tmp_path / "rep", tmp_path / "saved"
    code = run_cli(
        "--game", "trial", "--count", "2", "--size", "2x2", "--seed", "3", "--jobs", "1",
        "--out", str(out), "--report", str(report), "--save-to", str(saved), "--no-progress",
    )  # fmt: skip
    assert code == 0
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
    assert "| sizes (players x games) | 2x2 |" in text and "| turn limits | 5000 |" in text
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


def test_trial_rows_are_the_reference_engines_rows(monkeypatch):
    """The analysis plays on the kernel engine; the reference rules give the same rows."""
    import solver.games.trial.kernel as kernel
    from solver.games.trial.rules import TrialGame

    setups = [TrialSetup(7, 2, 1), TrialSetup(8, 3, 1, agents=("random", "heuristic", "random"))]
    fast = [analyse_setup(s) for s in setups]
    monkeypatch.setattr(kernel, "KernelTrialGame", TrialGame)
    assert [analyse_setup(s) for s in setups] == fast


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


def test_each_game_refuses_sizes_and_turns_it_does_not_have():
    with pytest.raises(OptionError, match=r"--size players must be from 2 to 4, not 5"):
        Job.generated(1, size=(5, 2), game="trial")
    with pytest.raises(OptionError, match=r"--size height must be from 2 to 16, not 17"):
        Job.generated(1, size=(4, 17), game="guardians")
    with pytest.raises(OptionError, match="no turn limit"):
        Job.generated(1, size=(4, 4), turns=3, game="guardians")
    # without --size each game rolls its own default size; the dog's stays 9x9
    assert (Job.generated(1, game="dog").width, Job.generated(1, game="dog").height) == (9, 9)
    assert Job.generated(1, game="trial").describe()["size"] == "2x4"


@pytest.mark.slow
def test_larger_batches_agree_across_worker_counts(tmp_path):
    for game, size in (("guardians", "9x8"), ("trial", "4x2")):
        frames = []
        for jobs in ("1", "2"):
            out = tmp_path / f"{game}-{jobs}.csv"
            assert run_cli("--game", game, "--count", "12", "--size", size, "--seed", "100",
                           "--jobs", jobs, "--out", str(out), "--no-progress") == 0  # fmt: skip
            frames.append(read_results(out, game).drop(columns=["seconds"]))
        pd.testing.assert_frame_equal(frames[0], frames[1])
        assert frames[0]["error"].isna().all()


@pytest.mark.slow
def test_the_dask_backend_gives_the_same_rows(tmp_path):
    pytest.importorskip("distributed")
    for game, size in (("guardians", "7x6"), ("trial", "3x1")):
        frames = []
        for backend in (["--jobs", "1"], ["--dask-local", "1"]):
            out = tmp_path / f"{game}-{backend[0]}.csv"
            assert run_cli("--game", game, "--count", "3", "--size", size, *backend,
                           "--out", str(out), "--no-progress") == 0  # fmt: skip
            frames.append(read_results(out, game).drop(columns=["seconds"]))
        pd.testing.assert_frame_equal(frames[0], frames[1])
