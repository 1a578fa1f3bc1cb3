"""The committed calibrations of the two-player ladders (``bench/results/ladder-{game}.md`` and
``.json``, made by ``bench/ladder_calibration.py duel``) describe the ladders the games declare,
and their figures are those of the committed games (``ladder-{game}-games.jsonl``), counted again
here: a ladder changed without a new calibration, or a table edited by hand, fails."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from solver.ladder import ladder
from solver.stats import wilson_interval
from solver.testing import load_module

ROOT = Path(__file__).resolve().parents[1]
RESULTS = ROOT / "bench" / "results"
GAMES = ("guardians", "trial")


BENCH = load_module("ladder_calibration_bench", ROOT / "bench" / "ladder_calibration.py")


def _data(game: str) -> dict:
    return json.loads((RESULTS / f"ladder-{game}.json").read_text(encoding="utf-8"))


@pytest.mark.parametrize("game", GAMES)
def test_the_calibration_is_of_the_declared_ladder(game: str) -> None:
    assert _data(game)["rungs"] == [BENCH.describe(rung) for rung in ladder(game)]
    text = (RESULTS / f"ladder-{game}.md").read_text(encoding="utf-8")
    assert f"bench/ladder_calibration.py duel --game {game}" in text


@pytest.mark.parametrize("game", GAMES)
def test_the_table_is_the_committed_games_counted_again(game: str) -> None:
    data = _data(game)
    rows = BENCH._read_rows(RESULTS / f"ladder-{game}-games.jsonl")
    rungs = ladder(game)
    pairs = {tuple(p["pair"]) for p in data["pairs"]}
    assert {(k, k + 1) for k in range(1, 10)} | {(1, 10)} >= pairs
    for pair in data["pairs"]:
        low, high = pair["pair"]
        key = (BENCH.describe(rungs[low - 1]), BENCH.describe(rungs[high - 1]))
        played = [r["result"] for k, r in rows.items() if k[:2] == key and k[2] < data["games"]]
        assert len(played) == pair["games"] > 0
        assert played.count("higher") == pair["higher_wins"]
        assert played.count("lower") == pair["lower_wins"]
        assert played.count("shared") == pair["ties"]
        score = (pair["higher_wins"] + pair["ties"] / 2) / pair["games"]
        assert pair["score"] == pytest.approx(score)
        low_end, _ = wilson_interval(pair["higher_wins"] + pair["ties"] / 2, pair["games"])
        assert pair["low"] == pytest.approx(low_end)


def test_a_duel_game_is_the_same_whenever_it_is_played() -> None:
    """Rows are reused on resume: game ``i`` of a pair is a function of the two rungs and ``i``."""
    import solver
    from solver.spec import Rung

    game = solver.load_game("trial", players=2)
    lower, higher = Rung("random"), Rung("heuristic", noise=0.5)
    first = BENCH.duel_game(game, "trial", lower, higher, 3)
    again = BENCH.duel_game(game, "trial", lower, higher, 3)
    for row in (first, again):
        row.pop("cpu"), row.pop("longest_cpu"), row.pop("longest_wall")
    assert first == again and first["higher_seat"] == 1
