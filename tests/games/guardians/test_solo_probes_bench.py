"""The growth-step probes (``bench/guardians_solo_probes.py``): each overrides the one choice it
names and leaves the default's play alone elsewhere."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from solver.game import sample_chance
from solver.games.guardians import SPEC
from solver.games.guardians.actions import RESET, TAKE_ONE, TAKE_TWO
from solver.games.guardians.endgame import endgame_agent
from solver.rng import SplitMix64
from solver.testing import load_module

ROOT = Path(__file__).resolve().parents[3]
BENCH = load_module("guardians_solo_probes_bench", ROOT / "bench" / "guardians_solo_probes.py")


def _growth_choices(probe: str, seed: int) -> list[tuple[int, int | None, int]]:
    """(round, the default's choice or None where the probe did not ask it, the probe's choice)
    at every growth step of one game the probe plays (chance from ``seed``)."""
    game = SPEC.build(players=1, level=1)
    default = endgame_agent(game, seed=seed)
    asked: list[int] = []

    def spy(state: Any) -> int:
        asked.append(default(state))
        return asked[-1]

    agent = BENCH.probe_agent(game, seed, probe, base=spy)
    rng = SplitMix64(seed)
    state = game.new_initial_state()
    seen = []
    while not state.is_terminal():
        if state.is_chance_node():
            state.apply_action(sample_chance(state, rng))
            continue
        asked.clear()
        action = agent(state)
        if TAKE_TWO in state.legal_actions():
            seen.append((state.round, asked[0] if asked else None, action))
        state.apply_action(action)
    return seen


def test_never_reset_takes_two_tiles_where_the_default_resets():
    seen = _growth_choices("never-reset", 1)
    assert all(mine == (TAKE_TWO if default == RESET else default) for _, default, mine in seen)
    assert any(default == RESET for _, default, _ in seen)  # the probe had something to change


def test_early_pawns_take_one_tile_in_the_first_rounds_only():
    seen = _growth_choices("pawns-2-until-5", 4)
    assert [(default, mine) for _, default, mine in seen[:2]] == [(None, TAKE_ONE)] * 2
    assert all(mine == default for _, default, mine in seen[2:])


def test_reset_until_resets_whenever_allowed_up_to_its_round():
    seen = _growth_choices("reset-until-6", 5)
    assert RESET in [mine for rnd, _, mine in seen if rnd <= 6]
    assert all(mine == default for rnd, default, mine in seen if rnd > 6)


def test_an_unknown_probe_is_refused():
    with pytest.raises(ValueError, match="unknown probe"):
        BENCH.probe_agent(SPEC.build(players=1, level=1), 0, "magic")


def test_the_committed_table_is_its_record_read_again():
    results = ROOT / "bench" / "results"
    lines = (results / "guardians_solo_probes_games.jsonl").read_text(encoding="utf-8").splitlines()
    record = [json.loads(line) for line in lines]
    playouts = load_module("playouts_for_probes", ROOT / "bench" / "guardians_solo_playouts.py")
    lines = playouts.table(record)
    text = (results / "guardians_solo_probes.md").read_text(encoding="utf-8")
    assert "\n".join(lines) in text
    assert len(lines) == 2 + 5 and {r["game"] for r in record} == set(range(100))
