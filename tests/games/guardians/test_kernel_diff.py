"""Differential tests: the compiled guardians kernel against the reference rules.

Both engines play the same random games (1-4 players, every solo level, the curated ``.grove``
positions, random dense positions, a small custom tile set) and after every action they must
agree on every observable: current player, terminal and chance flags, the legal actions (same
ids, same order), every legal action's label, chance outcomes with probabilities, returns,
scores, the legal walks and the canonical JSON. Regularly, also: ``str``, the heuristic (the
kernel's C twin of ``heuristic.py``), reading a label back, the JSON read back into a kernel
state with identical bytes, clone independence and the refusal of an illegal action.

The default suite plays at least 100 000 actions (issue 9's minimum) and samples the two costly
checks, every legal action's label and the planner's evaluation (a Python search on the
reference: half the time of a game checked in full), at fewer of their states (:data:`SAMPLED`);
the slow test plays at least 1 000 000 actions with every check at its full rate
(:data:`FULL`). The C playout loop (``random_playouts``) is replayed draw for draw on the
reference engine.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from pathlib import Path

import pytest

from solver.errors import IllegalActionError, OptionError
from solver.games.guardians.board import neighbours
from solver.games.guardians.connectivity import splits_forest
from solver.games.guardians.evaluation import heuristic as reference_evaluation
from solver.games.guardians.evaluation import value as reference_value
from solver.games.guardians.grove_format import load_grove
from solver.games.guardians.grove_position import DEFAULT_TABLE, Grove, GroveCell
from solver.games.guardians.heuristic import heuristic as reference_heuristic
from solver.games.guardians.kernel import KernelGuardiansGame
from solver.games.guardians.rules import GuardiansGame, Phase
from solver.games.guardians.tiles import TileSet, tile_set_from_dict
from solver.rng import SplitMix64
from solver.testing import assert_engines_agree, random_playouts

try:  # absent: require_kernels (tests/conftest.py) skips these tests, or fails them under CI
    from solver._ext import guardians as guardians_ext
except ImportError:
    guardians_ext = None

pytestmark = pytest.mark.usefixtures("require_kernels")


def cut_vertices(state, player: int, method: str = "tarjan") -> list:
    return guardians_ext.cut_vertices(state, player, method)


PUZZLES = sorted((Path(__file__).resolve().parents[3] / "puzzles" / "guardians").glob("*.grove"))


def custom_tiles(seed: int = 0) -> TileSet:
    """A small set in three colours with short missions: walks and chains come often."""
    rng = SplitMix64(seed)
    tiles = []
    for i in range(24):
        length = 2 if rng.roll(3) > 1 else 3 + rng.roll(2) - 1
        tiles.append(
            {
                "id": i + 1,
                "colour": rng.pick("BGR"),
                "sequence": "".join(rng.pick("BGR") for _ in range(length)),
                "points": rng.roll(9),
            }
        )
    return tile_set_from_dict({"name": f"custom-{seed}", "start_points": 7, "tiles": tiles})


def dense_position(seed: int, mode: str) -> Grove:
    """A random forest in one piece, short missions in two or three colours, some pawns, and
    (every other seed) some tiles whose back is not known (``B:?5``: chance reveals)."""
    rng = SplitMix64(seed)
    palette = "BG" if seed % 2 else "BGR"
    height, width = 5, 6
    cells = {(2, 2)}
    while len(cells) < 8 + rng.roll(14):
        r, c = rng.pick(sorted(cells))
        n = rng.pick(neighbours((r, c)))
        if 0 <= n[0] < height and 0 <= n[1] < width:
            cells.add(n)
    letters = list("bgyr") if mode == "solo" else ["p"] * 4
    grid: list[list[GroveCell | None]] = [[None] * width for _ in range(height)]
    unknown: dict[str, int] = {}
    for r, c in sorted(cells):
        sequence = "".join(rng.pick(palette) for _ in range(2 if rng.roll(3) > 1 else 3))
        if letters and rng.roll(3) == 1:
            grid[r][c] = GroveCell(None, sequence, True, False, letters.pop(0))
            continue
        colour, preview = rng.pick(palette), rng.pick((3, 5))
        face = f"{colour}{preview}"
        if seed % 2 == 0 and rng.roll(3) == 1 and unknown.get(face, 0) < 3:
            unknown[face] = unknown.get(face, 0) + 1  # the default set has 3 tiles a face
            grid[r][c] = GroveCell(colour, "", preview=preview)
        else:
            grid[r][c] = GroveCell(colour, sequence)
    return Grove(f"dense-{seed}", mode, DEFAULT_TABLE, tuple(tuple(row) for row in grid))


@dataclass(frozen=True)
class Rates:
    """How often :func:`compare` runs its two costly checks: every legal action's label (else
    three of them) every ``labels``-th step, the planner's evaluation every ``evaluation``-th."""

    labels: int
    evaluation: int


FULL = Rates(labels=1, evaluation=7)
SAMPLED = Rates(labels=3, evaluation=43)


def compare(k, r, rng: SplitMix64, step: int, kgame, rates: Rates = FULL) -> None:
    """Every observable of the kernel state ``k`` equals the reference state ``r``'s."""
    text = r.to_json()
    where = f"step {step}: {text[:300]}"
    legal = assert_engines_agree(k, r, where, text)
    assert k.scores() == r.scores(), where
    assert k.phase == r.phase and k.round == r.round, where
    shown = legal  # the labels: all, or three of them (a chance node's all every 4th step)
    if legal and (step % 4 if r.is_chance_node() else step % rates.labels):
        shown = [legal[0], legal[-1], legal[step % len(legal)]]
    assert [k.action_to_string(a) for a in shown] == [r.action_to_string(a) for a in shown], where
    if r.phase == Phase.MISSIONS:
        assert k.walks() == r.walks(), where
    if step % rates.evaluation == 0:  # the planner's evaluation, the twin's, the heuristic
        values = guardians_ext._values(k)
        twin = kgame.search_twin().transfer(k)  # the mcts agent's search: the evaluation
        for p in range(r.game.players):
            assert values[p] == reference_value(r, p), where
            assert math.isclose(twin.heuristic(p), reference_evaluation(r, p), abs_tol=1e-15)
            assert math.isclose(k.heuristic(p), reference_heuristic(r, p), abs_tol=1e-12), where
    if step % 11 == 0 and legal:
        a = rng.pick(legal)
        label = r.action_to_string(a)
        assert k.string_to_action(label) == r.string_to_action(label) == a, where
    if step % 41 == 0:
        assert str(k) == str(r), where
        for p, who in enumerate(r.people):  # the cut vertices: Tarjan, the rules' test, reference
            cells = set(who.forest)
            cuts = sorted(c for c in cells if splits_forest(cells, c))
            assert cut_vertices(k, p) == cut_vertices(k, p, "test") == cuts, where
        if r.game.level is not None:
            assert [k.task_met(t) for t in r.game.level.tasks] == [
                r.task_met(t) for t in r.game.level.tasks
            ], where
            assert k.rounds() == r.rounds() and k.colour_points() == r.colour_points(), where
        back = kgame.state_from_json(text)
        assert back == k and back._to_bytes() == k._to_bytes() and back._hash() == k._hash()
    if step % 37 == 0 and not r.is_terminal():
        copy = k.clone()
        copy.apply_action(legal[-1])
        assert k.to_json() == text, "clone() must be independent"
        wrong = next(x for x in (0, 1, 2, 3, 30_407, 30_408) if x not in legal)
        with pytest.raises(IllegalActionError):
            k.apply_action(wrong)
        with pytest.raises(IllegalActionError):
            r.clone().apply_action(wrong)


REVEALS = [0]
"""Reveal nodes the differential games met (the chance flips of hidden backs)."""


def play(kgame, rgame, seed: int, rates: Rates = FULL, limit: int = 20_000) -> int:
    """One random game on both engines, compared after every action; returns the actions."""
    rng = SplitMix64(seed)
    k, r = kgame.new_initial_state(), rgame.new_initial_state()
    step = 0
    while True:
        compare(k, r, rng, step, kgame, rates)
        REVEALS[0] += r.phase == Phase.REVEAL
        if r.is_terminal():
            return step
        legal = r.legal_actions()
        if r.phase == Phase.MISSIONS and len(legal) > 1 and rng.roll(10) > 1:
            action = rng.pick(legal[1:])  # walk more often than random play would
        else:
            action = rng.pick(legal)
        k.apply_action(action)
        r.apply_action(action)
        step += 1
        assert step < limit, "a game must end"


def _fresh(players: int, seed: int, tiles: TileSet | None = None) -> tuple:
    """The two engines' games; every fifth seed plays the open variant (open backs)."""
    options: dict = {"tiles": tiles} if tiles is not None else {}
    if seed % 5 == 0:
        options["open_backs"] = True
    if players == 1:
        options["level"] = 1 + seed % 6
    return KernelGuardiansGame(players, **options), GuardiansGame(players, **options)


def fresh_games(seeds: range, rates: Rates) -> int:
    total = 0
    for seed in seeds:
        players = 1 + seed % 4
        total += play(*_fresh(players, seed), seed, rates)
    return total


def position_games(seeds: range, rates: Rates) -> int:
    total = 0
    for seed in seeds:
        path = PUZZLES[seed % len(PUZZLES)]
        grove = load_grove(path)
        players = 1 if grove.mode == "solo" else 2 + seed % 3
        options: dict = {"position": grove}
        if players == 1:
            options["level"] = 1 + seed % 6
        kgame = KernelGuardiansGame(players, **options)
        total += play(kgame, GuardiansGame(players, **options), seed, rates)
        mode = "solo" if seed % 3 else "multi"
        dense = dense_position(seed, mode)
        players = 1 if mode == "solo" else 2 + seed % 3
        total += play(
            KernelGuardiansGame(players, position=dense),
            GuardiansGame(players, position=dense),
            seed,
            rates,
        )
    return total


def custom_games(seeds: range, rates: Rates) -> int:
    total = 0
    for seed in seeds:
        tiles = custom_tiles(seed % 5)
        total += play(*_fresh(1 + seed % 4, seed, tiles), seed, rates)
    return total


@pytest.mark.timeout(900)  # 60,000 actions: past the default 300 s on a loaded 2-core machine
def test_fresh_games_agree_on_every_observable():
    before = REVEALS[0]
    assert fresh_games(range(340), SAMPLED) >= 60_000
    assert REVEALS[0] - before >= 1_500  # the chance reveals of hidden backs, outcome by outcome


def test_games_from_positions_agree_on_every_observable():
    before = REVEALS[0]
    assert position_games(range(120), SAMPLED) >= 27_000
    assert REVEALS[0] - before >= 300


def test_games_with_a_custom_tile_set_agree_on_every_observable():
    before = REVEALS[0]
    assert custom_games(range(220), SAMPLED) >= 13_000
    assert REVEALS[0] - before >= 300


@pytest.mark.slow
@pytest.mark.timeout(7200)  # 10 times the default's actions, each checked in full: past 1800 s
def test_a_million_actions_agree():
    total = fresh_games(range(1000, 4000), FULL) + position_games(range(1000, 2500), FULL)
    total += custom_games(range(1000, 3000), FULL)
    assert total >= 1_000_000


@pytest.mark.parametrize("players", [1, 2, 3, 4])
def test_the_c_playout_loop_replays_on_the_reference(players):
    kgame, rgame = _fresh(players, 3)
    assert guardians_ext.random_playouts(kgame, 6, 99) == random_playouts(
        rgame, 6, 99, lambda final: final.score(0)
    )


def test_the_kernel_game_reads_its_options_like_the_reference():
    game = KernelGuardiansGame(1, level=4)
    assert game.level.threshold == 81 and game.engine == "kernel" and game.solo
    assert repr(game) == "GuardiansGame(players=1, level=4, engine='kernel')"
    assert game.num_distinct_actions() == GuardiansGame(1).num_distinct_actions()
    with pytest.raises(OptionError):
        KernelGuardiansGame(5)
    big = tile_set_from_dict(
        {
            "name": "big",
            "tiles": [
                {"id": i + 1, "colour": "B", "sequence": "GR", "points": 3} for i in range(300)
            ],
        }
    )
    with pytest.raises(OptionError, match="at most"):
        KernelGuardiansGame(2, tiles=big)


def test_kernel_states_pickle_and_compare_like_the_reference():
    import pickle

    kgame, _ = _fresh(3, 5)
    k = kgame.new_initial_state()
    for _ in range(8):
        k.apply_action(k.legal_actions()[0])
    back = pickle.loads(pickle.dumps(k))
    assert back.to_json() == k.to_json()
    assert back.game.players == 3
    assert k == kgame.state_from_json(k.to_json()) and hash(k) == hash(k.clone())
