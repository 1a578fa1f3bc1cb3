"""The skill measure played out by the strength ladder (issue 22 §3): ``forest analyse
--skill-games G`` for guardians positions and Trial set-ups.

The ladder is replaced by cheap rungs here (the real level 10 searches every decision): with the
same agent at both ends the skill is exactly 0 (the same seeds, the same chance, the same games);
with a strong agent on top of the uniform one, the rates are those of the two agents played
directly with the same seeds; the option reaches the rows through the batch, stays out of the
fingerprint when not asked for, and is refused where the skill measure is computed.
"""

from __future__ import annotations

import pytest

pytest.importorskip("pandas")

import solver.ladder
from solver.analysis.sources import Job, Source
from solver.cli import main
from solver.errors import OptionError
from solver.game import play_game
from solver.games.guardians.analysis import ladder_spread as grove_spread
from solver.games.guardians.analysis import position_state, roll_grove
from solver.games.trial.analysis import TrialSetup
from solver.games.trial.analysis import ladder_spread as setup_spread
from solver.rng import derive_seed
from solver.spec import Rung

pytestmark = pytest.mark.usefixtures("require_kernels")


def _ladder(monkeypatch, weakest: str, strongest: str) -> None:
    rungs = (Rung(weakest), *(Rung(weakest) for _ in range(8)), Rung(strongest))
    monkeypatch.setattr(solver.ladder, "ladder", lambda name: rungs)


@pytest.mark.parametrize("agent", ["random", "greedy"])
def test_the_same_agent_at_both_ends_has_no_skill(monkeypatch, agent) -> None:
    _ladder(monkeypatch, agent, agent)
    for seed in range(3 if agent == "random" else 1):
        row = grove_spread(roll_grove(seed, 5, 4), 2, seed)
        assert row["skill"] == 0.0 and row["strongest_win_rate"] == row["weakest_win_rate"]


def test_the_rates_are_the_two_agents_own(monkeypatch) -> None:
    _ladder(monkeypatch, "random", "greedy")
    grove, games, seed = roll_grove(4, 5, 4), 2, 11
    game = position_state(grove).get_game()
    rates = []
    for name in ("random", "greedy"):
        wins = 0
        for i in range(games):
            agent = solver.ladder.rung_agent(game, Rung(name), seed=derive_seed(seed, i))
            final = play_game(game, [agent], seed=derive_seed(seed, i)).final
            wins += final.returns()[0] > 0.5
        rates.append(wins / games)
    row = grove_spread(grove, games, seed)
    assert (row["weakest_win_rate"], row["strongest_win_rate"]) == tuple(rates)
    assert row["skill"] == pytest.approx(rates[1] - rates[0])


def test_a_trial_set_up_spread(monkeypatch) -> None:
    _ladder(monkeypatch, "heuristic", "heuristic")
    same = setup_spread(TrialSetup(3, 2, 1, max_actions=3000), 2)
    assert same["skill"] == 0.0
    _ladder(monkeypatch, "random", "heuristic")
    row = setup_spread(TrialSetup(3, 2, 1, max_actions=3000), 2)
    # the heuristic agent beats random play in every seeded two-player game (docs/analysis.md)
    assert (row["strongest_win_rate"], row["weakest_win_rate"], row["skill"]) == (1.0, 0.0, 1.0)


def test_skill_games_reach_the_rows_and_only_when_asked(monkeypatch, tmp_path) -> None:
    from solver.analysis.results import read_results

    _ladder(monkeypatch, "random", "greedy")
    out = tmp_path / "g.csv"
    argv = ["analyse", "--game", "guardians", "--count", "2", "--size", "5x4", "-j", "1",
            "--no-progress", "-o", str(out)]  # fmt: skip
    assert main([*argv, "--skill-games", "2"]) == 0
    frame = read_results(out, "guardians")
    assert list(frame["skill_games"]) == [2, 2]
    assert all(-1.0 <= s <= 1.0 for s in frame["skill"])
    assert main([*argv, "--overwrite"]) == 0
    assert read_results(out, "guardians")["skill"].isna().all()


def test_without_an_output_the_printed_table_shows_the_skill(monkeypatch, capsys) -> None:
    """Without ``-o`` the rows go to a temporary file and only the printed table is left: it
    showed the value column but not the skill the user asked for."""
    _ladder(monkeypatch, "random", "greedy")
    argv = ["analyse", "--game", "guardians", "--count", "2", "--size", "5x4", "-j", "1",
            "--no-progress"]  # fmt: skip
    assert main([*argv, "--skill-games", "2"]) == 0
    header = capsys.readouterr().out.splitlines()[1].split()
    assert header == ["source", "class", "best_count", "skill"]
    assert main(argv) == 0  # not asked for: no empty column
    assert capsys.readouterr().out.splitlines()[1].split() == ["source", "class", "best_count"]


def test_the_fingerprint_names_skill_games_only_when_asked() -> None:
    plain = Job.generated(3, size=(5, 4), game="guardians")
    assert "skill_games" not in plain.describe()
    asked = Job.generated(3, size=(5, 4), game="guardians", skill_games=2)
    assert asked.describe()["skill_games"] == 2
    assert asked.source_at(1) == Source.generated(1, 5, 4, None, "guardians", 2)


def test_skill_games_are_refused_where_the_skill_is_computed_or_out_of_range() -> None:
    with pytest.raises(OptionError, match="--skill-games is for games"):
        Job.generated(3, size=(5, 5), game="dog", skill_games=2)
    with pytest.raises(OptionError, match="from 0 to"):
        Job.generated(3, size=(5, 4), game="guardians", skill_games=-1)
