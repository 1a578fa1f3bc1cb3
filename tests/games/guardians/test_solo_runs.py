"""``forest guardians solo``: the games it plays, its win rate and interval, its distribution."""

from __future__ import annotations

import json
import re
import statistics
import subprocess
import sys

import pytest

import solver
from solver.agents import make_agent
from solver.games.guardians.solo_runs import histogram_lines, solo_report, solo_run
from solver.play import play_game
from solver.rng import derive_seed
from solver.stats import wilson_interval


def _by_hand(level, agent, seed, games):
    """The run's games replayed through play_game with the documented seeds."""
    game = solver.load_game("guardians", players=1, level=level)
    out = []
    for g in range(games):
        s = derive_seed(seed, g)
        record = play_game(game, [make_agent(agent, game, seed=derive_seed(s, 1))], seed=s)
        out.append(record.final.scores()[0])
    return out


def test_solo_run_plays_the_documented_games():
    report = solo_run(3, "random", games=4, seed=11)
    assert list(report.scores) == _by_hand(3, "random", 11, 4)
    assert report.threshold == 74 and report.games == 4


def test_report_counts_wins_at_the_threshold():
    report = solo_report(1, "x", 0, 1, [59, 60, 61, 0])  # level 1: 60 wins
    assert report.wins == 2 and report.win_rate == 0.5
    assert (report.ci_low, report.ci_high) == pytest.approx(wilson_interval(2, 4))
    assert solo_report(1, "x", 0, 1, [0, 0]).ci_low == 0.0


def test_histogram_bins_and_marks_the_threshold():
    lines = histogram_lines([0, 5, 12, 31, 60, 61], threshold=60)
    rows = [re.match(r"^\s*(\d+)-(\d+)\s*(\*?)\s+(\d+)(?:  (#+))?$", line) for line in lines]
    assert all(rows), lines
    assert [int(m.group(1)) for m in rows] == [0, 10, 20, 30, 40, 50, 60]
    assert [int(m.group(4)) for m in rows] == [2, 1, 0, 1, 0, 0, 2]
    assert [m.group(3) for m in rows] == ["", "", "", "", "", "", "*"]
    assert [len(m.group(5) or "") for m in rows] == [40, 20, 0, 20, 0, 0, 40]
    assert all(line == line.rstrip() for line in lines)


def test_solo_command_json_and_text():
    cmd = [sys.executable, "-m", "solver.cli", "guardians", "solo", "--level", "2", "--agent",
           "random", "--games", "3", "--seed", "4"]  # fmt: skip
    data = json.loads(subprocess.run([*cmd, "--json"], capture_output=True, text=True,
                                     check=True).stdout)  # fmt: skip
    assert data["scores"] == _by_hand(2, "random", 4, 3)
    assert data["wins"] == sum(s >= 67 for s in data["scores"])
    assert data["score_median"] == statistics.median(data["scores"])
    text = subprocess.run(cmd, capture_output=True, text=True, check=True).stdout
    assert text.startswith(f"level 2 (threshold 67), agent random: won {data['wins']}/3")
    assert f"max {max(data['scores'])}" in text


def test_solo_command_refuses_unknown_agent_and_level():
    base = [sys.executable, "-m", "solver.cli", "guardians", "solo", "--games", "1"]
    bad = subprocess.run([*base, "--agent", "nope"], capture_output=True, text=True)
    assert bad.returncode != 0 and "unknown agent 'nope'" in bad.stderr
    bad = subprocess.run([*base, "--level", "7"], capture_output=True, text=True)
    assert bad.returncode != 0 and "--level" in bad.stderr


def test_histogram_shows_the_threshold_bin_when_no_score_reaches_it():
    # Defect (new-user pass): `forest guardians solo --level 3` (threshold 74) with every score
    # under 70 drew no `*`, though the help promises one on the threshold's bin.
    for scores, threshold in (([51, 52], 74), ([81, 95], 60)):
        lines = histogram_lines(scores, threshold=threshold)
        marked = [line for line in lines if "*" in line]
        low = threshold // 10 * 10
        assert len(marked) == 1 and marked[0].split()[0] == f"{low}-{low + 9}", lines
        assert re.match(r"^\s*\d+-\d+\s*\*\s+0$", marked[0]), lines
