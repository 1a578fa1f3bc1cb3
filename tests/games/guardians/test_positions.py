"""The curated positions and the exhaustive mission ordering.

The expected answers of the small positions are derived by hand in the comments; the larger
traps are checked against properties (the first legal order is a legal order, so it can never
beat the optimum; the optimum's plan replays legally and scores what it claims).
"""

from __future__ import annotations

from pathlib import Path

import pytest

from solver.games.guardians.actions import END_TURN
from solver.games.guardians.grove_format import format_grove, load_grove, parse_grove
from solver.games.guardians.mission_order_search import best_order, first_legal_order, plan_to_dict
from solver.games.guardians.rules import GuardiansGame, GuardiansState

FOLDER = Path(__file__).resolve().parents[3] / "puzzles" / "guardians"
FILES = sorted(FOLDER.glob("*.grove"))


def at_missions(path: Path) -> GuardiansState:
    grove = load_grove(path)
    return GuardiansGame(position=grove, players=None).new_initial_state()


def test_curated_files_are_canonical_apart_from_comments():
    assert len(FILES) >= 6
    for path in FILES:
        text = path.read_text(encoding="utf-8")
        body = "".join(line for line in text.splitlines(keepends=True) if not line.startswith("#"))
        assert format_grove(parse_grove(text)) == body, path.name


def test_order_matters_by_hand():
    # blue first flips (0,2), the red tile green's only walk needs: 1 mission;
    # green first, then blue: 2 missions of 3 points each
    state = at_missions(FOLDER / "order-matters.grove")
    assert first_legal_order(state).count == 1
    plan = best_order(state)
    assert (plan.count, plan.points) == (2, 6)
    assert plan_to_dict(state, plan) == {
        "count": 2,
        "points": 6,
        "sequence": [
            {
                "pawn": "g",
                "mission": [1, 2],
                "walk": [[0, 2], [0, 3]],
                "removed": [1, 2],
                "label": "walk green pawn: (1,2) -> (0,2) (0,3)",
            },
            {
                "pawn": "b",
                "mission": [0, 0],
                "walk": [[0, 1], [0, 2]],
                "removed": [0, 0],
                "label": "walk blue pawn: (0,0) -> (0,1) (0,2)",
            },
        ],
    }


def test_cut_vertex_position_by_hand():
    # the red pawn's tile (2,3) is the only link to (2,4) (2,5) (3,5): refused; blue's is not
    state = at_missions(FOLDER / "cut-vertex.grove")
    names = [state.action_to_string(a) for a in state.legal_actions()]
    assert names == ["end turn", "walk blue pawn: (0,1) -> (0,2) (0,3)"]


def test_nothing_completable_gives_an_empty_plan():
    state = GuardiansGame(position=parse_grove("grid:\n[GR]b B:BB\n")).new_initial_state()
    assert plan_to_dict(state, best_order(state)) == {"count": 0, "points": 0, "sequence": []}


@pytest.mark.parametrize("name", ["order-trap", "chain-trap", "order-matters"])
def test_greedy_first_legal_order_gets_fewer_than_the_optimum(name):
    state = at_missions(FOLDER / f"{name}.grove")
    assert first_legal_order(state).count < best_order(state).count


def replay(state: GuardiansState, actions) -> GuardiansState:
    s = state.clone()
    for action in actions:
        assert action in s.legal_actions()
        s.apply_action(action)
    return s


@pytest.mark.parametrize("path", FILES, ids=[p.stem for p in FILES])
def test_plans_replay_and_score_what_they_claim(path):
    state = at_missions(path)
    plan = best_order(state)
    naive = first_legal_order(state)
    assert (naive.count, naive.points) <= (plan.count, plan.points)
    after = replay(state, [step.action for step in plan.steps])
    assert after.score(0) == plan.points and len(after.people[0].pile) == plan.count
    assert after.legal_actions() == [END_TURN] or plan.count > 0


def all_orders(state: GuardiansState) -> tuple[int, int]:
    """A second, memo-free brute force: every sequence of walks, best (count, points)."""
    best = (0, 0)
    for action in state.legal_actions():
        if action == END_TURN:
            continue
        child = state.clone()
        me = child.people[0]
        mission = me.pawns[child.game.codec.decode_walk(action)[0]]
        points = child.game.tile(me.forest[mission].tile).points
        child.apply_action(action)
        count, more = all_orders(child)
        best = max(best, (count + 1, points + more))
    return best


@pytest.mark.parametrize(
    "name", ["order-matters", "chain", "two-pawns", "start-walk", "cut-vertex"]
)
def test_best_order_agrees_with_a_memo_free_search(name):
    state = at_missions(FOLDER / f"{name}.grove")
    plan = best_order(state)
    assert all_orders(state) == (plan.count, plan.points)


def test_the_exhaustive_search_respects_its_cap():
    from solver.errors import OptionError
    from solver.games.guardians.mission_order_search import bounded_best_order

    state = at_missions(FOLDER / "order-trap.grove")
    assert bounded_best_order(state, 2) is None
    assert bounded_best_order(state, 10_000) == best_order(state)
    with pytest.raises(OptionError, match="more than 2 positions"):
        best_order(state, max_states=2)
