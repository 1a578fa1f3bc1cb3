"""Guardians analysis at speed (issue 22 §1): the mission-order search on the kernel engine.

The exhaustive search reads a kernel state through its own accessors (``_mission_key``: the
memo key; ``_pawn_tiles``: the mission under each pawn) instead of building the reference's
players. It must give the plans and the analysis rows the reference rules give: checked on
rolled positions of every size, the curated puzzles and positions with unseen backs, and the
key itself against the reference's key on states reached by walks.
"""

from __future__ import annotations

import pytest

from solver import puzzles
from solver.games.guardians.analysis import analyse_grove, position_state, roll_grove
from solver.games.guardians.grove_format import parse_grove
from solver.games.guardians.kernel import KernelGuardiansGame
from solver.games.guardians.mission_order_search import _key, bounded_best_order, first_legal_order
from solver.games.guardians.rules import GuardiansGame

pytestmark = pytest.mark.usefixtures("require_kernels")

ROLLED = [(seed, w, h) for seed in range(6) for (w, h) in ((6, 5), (8, 7), (9, 9), (11, 10))]
UNSEEN = ["grid:\n[GR]b G:BB R:?5\n", "grid:\n[GR]b G:BB R:?5 R:?5\n",
          "grid:\n[GB]b B:?5 G:GG\n. [RG]g R:?5\n"]  # fmt: skip


def _plans(grove, engine_game) -> tuple:
    state = engine_game(position=grove).new_initial_state()
    best = bounded_best_order(state, 20_000)
    first = first_legal_order(state)
    shown = None if best is None else ([s.label for s in best.steps], best.reaches_unseen)
    return shown, [s.label for s in first.steps], first.reaches_unseen


@pytest.mark.parametrize("case", ROLLED, ids=lambda c: "s{}-{}x{}".format(*c))
def test_plans_on_the_kernel_are_the_references(case) -> None:
    grove = roll_grove(*case)
    assert _plans(grove, KernelGuardiansGame) == _plans(grove, GuardiansGame)


@pytest.mark.parametrize("text", UNSEEN)
def test_plans_through_unseen_backs_are_the_references(text) -> None:
    grove = parse_grove(text)
    assert _plans(grove, KernelGuardiansGame) == _plans(grove, GuardiansGame)


def test_the_curated_positions_analyse_alike_on_both_engines(monkeypatch) -> None:
    import solver.games.guardians.analysis as analysis

    groves = [puzzles.load(name) for name in puzzles.names("guardians")]
    groves += [roll_grove(seed, 7, 7) for seed in range(10)]
    fast = [analyse_grove(g) for g in groves]
    monkeypatch.setattr(
        analysis, "position_state", lambda g: GuardiansGame(position=g).new_initial_state()
    )
    assert [analyse_grove(g) for g in groves] == fast


def test_a_position_past_the_kernels_limits_is_searched_on_the_reference_rules() -> None:
    big = roll_grove(0, 16, 16)
    assert len(big.tiles()) + 72 > 254  # more tiles than the kernel holds
    assert type(position_state(big)).__module__ == "solver.games.guardians.rules"
    assert type(position_state(roll_grove(5, 6, 5))).__name__ == "GuardiansKernelState"


def test_the_kernels_memo_key_is_the_references() -> None:
    """Two states reached by walks have equal kernel keys exactly when the reference's forest
    and pawns are equal (the points piles, which record the order, are left out)."""
    pairs = 0
    for seed in range(12):
        grove = roll_grove(seed, 7, 6)
        kernel = KernelGuardiansGame(position=grove).new_initial_state()
        reference = GuardiansGame(position=grove).new_initial_state()
        states = [(kernel, reference)]
        frontier = [(kernel, reference)]
        while frontier and len(states) < 60:
            k, r = frontier.pop()
            for action in k.legal_actions()[1:]:
                child = (k.child(action), r.child(action))
                if child[0].is_chance_node():
                    continue
                states.append(child)
                frontier.append(child)
        for i, (k1, r1) in enumerate(states):
            for k2, r2 in states[i + 1 :]:
                assert (k1._mission_key() == k2._mission_key()) == (_key(r1) == _key(r2))
                pairs += k1._mission_key() == k2._mission_key()
        for k, r in states:
            me = r.people[r.current]
            tiles = tuple(me.forest[c].tile if c is not None else -1 for c in me.pawns)
            assert k._pawn_tiles() == tiles
    assert pairs > 0  # some positions are reached by two orders


def test_rolled_positions_are_those_rolled_before_the_speed_up() -> None:
    """``roll_grove`` keeps its cells sorted as it grows them instead of sorting them for every
    draw: the same draws, so the same positions (the digest was taken of the earlier code)."""
    import hashlib

    from solver.games.guardians.grove_format import format_grove

    sizes = ((6, 5), (9, 9), (2, 2), (16, 16), (3, 7))
    text = "".join(format_grove(roll_grove(s, w, h)) for s in range(40) for (w, h) in sizes)
    digest = "32c4557bf43bfb8bcfbafc8b37bee07e7fa44930b068acf5d60d92602554d684"
    assert hashlib.sha256(text.encode()).hexdigest() == digest
