"""Random play from many seeds: properties that must hold after every action.

The policy plays uniformly at random, except that at the mission step it prefers a walk to
``end turn`` (random play would rarely complete a mission otherwise). Games start fresh (1-4
players) or from random dense positions, where walks, chains and cut vertices are common.
"""

from __future__ import annotations

import math

import pytest

from solver import CHANCE, TERMINAL
from solver.games.guardians.actions import END_TURN
from solver.games.guardians.board import Cell, neighbours
from solver.games.guardians.connectivity import is_connected
from solver.games.guardians.grove_position import DEFAULT_TABLE, Grove, GroveCell
from solver.games.guardians.rules import GuardiansGame, GuardiansState, Phase
from solver.rng import SplitMix64


def check(state: GuardiansState, rng: SplitMix64) -> None:
    game = state.game
    legal = state.legal_actions()
    assert legal == sorted(set(legal))
    if state.is_terminal():
        assert state.current_player() == TERMINAL and legal == []
        returns = state.returns()
        if game.solo:
            assert returns in ([0.0], [1.0])
        else:
            assert math.isclose(sum(returns), 1.0)
        return
    assert legal, "a live state has legal actions"
    if state.is_chance_node():
        assert state.current_player() == CHANCE
        outcomes = state.chance_outcomes()
        assert [a for a, _ in outcomes] == legal
        assert math.isclose(sum(p for _, p in outcomes), 1.0)
    else:
        assert 0 <= state.current_player() < game.players
        assert state.chance_outcomes() == []
    # labels: unique, and read back to the same action (a sample of them)
    names = [state.action_to_string(a) for a in legal]
    assert len(set(names)) == len(names)
    for a in rng.pick([legal[:3], legal[-3:]]):
        assert state.string_to_action(state.action_to_string(a)) == a
    # every tile of the set is in exactly one place
    places = state.bag + state.pool + state.discard + state.track
    for who in state.people:
        places += [f.tile for f in who.forest.values() if 1 <= f.tile <= len(game.tiles)]
        places += [t for t, _, _ in who.pile if 1 <= t <= len(game.tiles)]
    assert sorted(places) == list(range(1, len(game.tiles) + 1))
    assert len(state.pool) <= 6
    for who in state.people:
        assert who.forest and is_connected(who.forest)
        standing = [c for c in who.pawns if c is not None]
        assert len(set(standing)) == len(standing)
        assert all(who.forest[c].mission for c in standing)
        assert who.resets <= len(who.pile)
    # the JSON form reads back to an equal state
    text = state.to_json()
    back = game.state_from_json(text)
    assert back.to_json() == text and back == state


def policy(state: GuardiansState, rng: SplitMix64) -> int:
    legal = state.legal_actions()
    if state.phase == Phase.MISSIONS and len(legal) > 1 and rng.roll(10) > 1:
        return rng.pick(legal[1:])
    return rng.pick(legal)


def run(game: GuardiansGame, seed: int, limit: int = 5000) -> tuple[GuardiansState, int, int]:
    rng = SplitMix64(seed)
    state = game.new_initial_state()
    steps = walks = 0
    while not state.is_terminal():
        check(state, rng)
        action = policy(state, rng)
        if state.phase == Phase.MISSIONS and action != END_TURN:
            walks += 1
        before = state.clone()
        state.apply_action(action)
        assert before != state or state.is_terminal()
        steps += 1
        assert steps < limit, "a game must end"
    check(state, rng)
    return state, steps, walks


@pytest.mark.parametrize("seed", range(16))
def test_fresh_games(seed):
    players = 1 + seed % 4
    state, _, _ = run(GuardiansGame(players=players), seed)
    if players == 1:
        assert state.round >= 12 or state.end_triggered
    else:
        assert state.end_triggered


def grow_cells(
    rng: SplitMix64, start: Cell, size: tuple[int, int], shape: tuple[int, int]
) -> set[Cell]:
    """A connected set of cells grown from ``start`` one random neighbour at a time inside
    ``shape`` (rows, columns), until it has ``size[0] + rng.roll(size[1])`` cells (rolled anew
    each step)."""
    cells = {start}
    while len(cells) < size[0] + rng.roll(size[1]):
        r, c = rng.pick(sorted(cells))
        n = rng.pick(neighbours((r, c)))
        if 0 <= n[0] < shape[0] and 0 <= n[1] < shape[1]:
            cells.add(n)
    return cells


def dense_position(seed: int, mode: str) -> Grove:
    """A random forest of short missions in a few colours: walks, chains and cuts abound."""
    rng = SplitMix64(seed)
    palette = "BG" if seed % 2 else "BGR"
    cells = grow_cells(rng, (2, 2), (10, 12), (5, 6))
    letters = list("bgyr") if mode == "solo" else ["p"] * 4
    grid: list[list[GroveCell | None]] = [[None] * 6 for _ in range(5)]
    for r, c in sorted(cells):
        sequence = "".join(rng.pick(palette) for _ in range(2 if rng.roll(3) > 1 else 3))
        if letters and rng.roll(3) == 1:
            grid[r][c] = GroveCell(None, sequence, True, False, letters.pop(0))
        else:
            grid[r][c] = GroveCell(rng.pick(palette), sequence)
    return Grove(f"dense-{seed}", mode, DEFAULT_TABLE, tuple(tuple(row) for row in grid))


@pytest.mark.parametrize("seed", range(12))
def test_games_from_dense_positions(seed):
    mode = "solo" if seed % 3 else "multi"
    game = GuardiansGame(position=dense_position(seed, mode), players=None if mode == "solo" else 2)
    state, _, _ = run(game, seed)
    assert state.is_terminal()


def test_dense_positions_do_complete_missions():
    total = 0
    for seed in range(12):
        mode = "solo" if seed % 3 else "multi"
        game = GuardiansGame(
            position=dense_position(seed, mode), players=None if mode == "solo" else 2
        )
        _, _, walks = run(game, seed)
        total += walks
    assert total >= 12  # the walk-heavy positions really exercise missions and chains


@pytest.mark.slow
@pytest.mark.parametrize("seed", range(200))
def test_many_more_games(seed):
    run(GuardiansGame(players=1 + seed % 4), 10_000 + seed)
    mode = "solo" if seed % 2 else "multi"
    run(
        GuardiansGame(
            position=dense_position(seed + 500, mode), players=None if mode == "solo" else 3
        ),
        seed,
    )
