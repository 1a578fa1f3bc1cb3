"""Independent checks of the dog game's reference rules against docs/rules/dog.md §3–8.

Every test builds a tiny forest by hand, drives ``DogGame(forest).new_initial_state()`` with
explicit action ids and asserts exact field values. The expected values are derived from the
rules page's text in each test's comments (not from the engine).

Action ids (solver/games/dog/rules.py): steps 0..3 = N E S W; 4 ignore; 5 investigate; 6..9 the
squirrel runs N E S W; 10..12 the roll (the move's budget); 13 shout shrugged off; 14 shout hit.

Forest pictures use a test-local symbol table (the same symbols as a ``.forest`` sheet):
``.`` open, ``,`` undergrowth, ``~`` puddle, ``T`` tree, ``S`` squirrel, ``^ > v <`` scent trails,
``D`` another dog, ``I`` interesting stick, ``@`` the dog's start, ``H`` the human, ``Y`` a shouter
(open trail; its arrow is given separately as a ``Shouter``).
"""

from __future__ import annotations

import json
from fractions import Fraction

import pytest

from solver import CHANCE, TERMINAL
from solver.errors import IllegalActionError
from solver.games.dog.forest import Forest, Shouter
from solver.games.dog.format import SYMBOLS
from solver.games.dog.rules import DogGame, Phase

N, E, S, W = 0, 1, 2, 3
IGNORE, INVESTIGATE = 4, 5
RUN_N, RUN_E, RUN_S, RUN_W = 6, 7, 8, 9
ROLL1, ROLL2, ROLL3 = 10, 11, 12
SHRUG, HIT = 13, 14

_SYMBOLS = SYMBOLS  # the sheet symbols of docs/rules/dog.md §9 ('@', 'H', 'Y' are open trail)


def make_forest(picture: str, *, turns: int = 20, shouters: tuple[Shouter, ...] = ()) -> Forest:
    rows = [line.split() for line in picture.strip().splitlines()]
    start = human = None
    for r, row in enumerate(rows):
        for c, sym in enumerate(row):
            if sym == "@":
                start = (r, c)
            elif sym == "H":
                human = (r, c)
    assert start is not None and human is not None
    return Forest(
        width=len(rows[0]),
        height=len(rows),
        cells=[[_SYMBOLS[s] for s in row] for row in rows],
        start=start,
        human=human,
        shouters=list(shouters),
        turns=turns,
    )


def new_state(picture: str, **kwargs):
    return DogGame(make_forest(picture, **kwargs)).new_initial_state()


def play(state, *actions):
    """Apply ``actions`` in order; each must be legal where it is applied."""
    for action in actions:
        assert action in state.legal_actions(), (action, state.legal_actions(), state.to_json())
        state.apply_action(action)
    return state


def fr(p: float) -> Fraction:
    return Fraction(p).limit_denominator(36)


def outcomes(state) -> list[tuple[int, Fraction]]:
    return [(a, fr(p)) for a, p in state.chance_outcomes()]


THIRD = Fraction(1, 3)


# ---------------------------------------------------------------------------------------------
# §2 the state, §3 step 3 the roll, §8 no offers at the start
# ---------------------------------------------------------------------------------------------
def test_initial_state():
    # §2: stamina 6, curiosity 2, turn 1, last_left none, the start cell marked; §3 step 3: the
    # first node is the step roll with three outcomes of 1/3.
    s = new_state(
        """
        @ . .
        . . H
        """
    )
    assert s.phase == Phase.ROLL and s.current_player() == CHANCE and s.is_chance_node()
    assert s.pos == (0, 0) and s.last_left is None
    assert (s.stamina, s.curiosity, s.turn) == (6, 2, 1)
    assert s.skip_next is False and s.stick is False
    assert s.marked == {(0, 0)} and s.resolved == set()
    assert outcomes(s) == [(ROLL1, THIRD), (ROLL2, THIRD), (ROLL3, THIRD)]
    assert s.legal_actions() == [ROLL1, ROLL2, ROLL3]
    assert s.returns() == [0.0] and not s.is_terminal()


def test_no_offers_at_start_of_game():
    # §8 "Offers happen only after a *step* enters a cell: never at the start of the game or of a
    # move". The start touches a squirrel (E) and another dog (S): after the roll the dog is asked
    # for a step, nothing is offered, curiosity stays 2. Both distraction cells may be entered (a
    # step onto an unresolved distraction is a complete move).
    s = play(
        new_state(
            """
            @ S .
            D . H
            """
        ),
        ROLL1,
    )
    assert s.phase == Phase.STEP and s.current_player() == 0
    assert s.curiosity == 2 and s.offered == set()
    assert s.legal_actions() == [E, S]


def test_illegal_actions_raise():
    s = new_state(
        """
        @ . .
        . . H
        """
    )
    with pytest.raises(IllegalActionError):
        s.apply_action(E)  # a step at a chance node
    play(s, ROLL2, E)
    with pytest.raises(IllegalActionError):
        s.apply_action(W)  # reversal into last_left (0,0)
    with pytest.raises(IllegalActionError):
        s.apply_action(N)  # off the grid


# ---------------------------------------------------------------------------------------------
# §3 step 4 movement: no reversal, the U-turn valve, complete moves
# ---------------------------------------------------------------------------------------------
OPEN3 = """
. . .
. @ .
. . H
"""


def test_first_step_anywhere_then_no_reversal():
    # last_left is none at the start: all four steps are legal. After N to (0,1), last_left is
    # (1,1) and the second step may not go S back into it: E or W only. The move then ends
    # (budget 2 spent); the next turn, from (0,2) with last_left (0,1), only S is left.
    s = play(new_state(OPEN3), ROLL2)
    assert s.legal_actions() == [N, E, S, W]
    play(s, N)
    assert s.pos == (0, 1) and s.last_left == (1, 1) and s.budget == 1
    assert s.legal_actions() == [E, W]
    play(s, E)
    assert s.phase == Phase.ROLL and s.turn == 2 and s.pos == (0, 2) and s.last_left == (0, 1)
    play(s, ROLL1)
    assert s.valve is False
    assert s.legal_actions() == [S]


POCKET = """
. . @ .
T T . H
"""


def test_step_into_dead_end_that_cannot_spend_budget_is_illegal():
    # From the start (0,2) (last_left none), budget 3: W to (0,1) leaves 2 steps, but from (0,1)
    # the only non-reversing step is W to (0,0), a dead end ((1,0) tree, no reversal) -> no
    # complete move -> W illegal. E (0,3) then S = human, and S (1,2) then E = human, are complete
    # (shorter moves ending on the human). The valve stays closed (complete moves exist).
    s = play(new_state(POCKET), ROLL3)
    assert s.valve is False
    assert s.legal_actions() == [E, S]
    # With budget 2, W, W is a complete move: W is legal.
    assert play(new_state(POCKET), ROLL2).legal_actions() == [E, S, W]
    # Mid-move: after S to (1,2) with 2 steps left, N is a reversal and W a tree: only E.
    s = play(new_state(POCKET), ROLL3, S)
    assert s.legal_actions() == [E]


def test_uturn_valve_opens_only_when_no_move_without_reversal():
    # Turn 1: W to (0,1), last_left (0,2). Turn 2 at (0,1): the only non-reversing step is W to
    # the dead end (0,0).
    # - budget 1: W alone is a complete move -> valve closed, legal [W].
    # - budget 2 or 3: no complete move without reversal -> valve open for the whole move:
    #   E (a reversal) becomes legal as well as W.
    s = play(new_state(POCKET), ROLL1, W)
    assert s.turn == 2 and s.pos == (0, 1) and s.last_left == (0, 2)
    one = play(s.clone(), ROLL1)
    assert one.valve is False and one.legal_actions() == [W]
    for roll in (ROLL2, ROLL3):
        t = play(s.clone(), roll)
        assert t.valve is True
        assert t.legal_actions() == [E, W]
    # Once open, every step of the move may reverse: W to (0,0), then E back into last_left (0,1)
    # (marked -> crossing costs 1 curiosity: 2 -> 1).
    t = play(s.clone(), ROLL2, W)
    assert t.last_left == (0, 1) and t.legal_actions() == [E]
    play(t, E)
    assert t.pos == (0, 1) and t.last_left == (0, 0) and t.curiosity == 1
    assert t.turn == 3 and t.phase == Phase.ROLL and t.valve is False


def test_uturn_valve_every_step_of_the_move():
    # A pocket (0,1)-(1,1) whose exit is (2,1). Turn 1: N to (0,1), last_left (1,1).
    # Turn 2, budget 3: no complete move without reversal from (0,1) -> valve open. S (reversal)
    # to (1,1), then N (reversal again) to (0,1), then S to (1,1): three reversals in one move.
    # Each re-entry crosses the trail: curiosity 2 -> 1 -> 0 -> 0 (floor at 0).
    s = play(
        new_state(
            """
            T . T
            T @ T
            . . H
            """
        ),
        ROLL1,
        N,
    )
    play(s, ROLL3)
    assert s.valve is True and s.legal_actions() == [S]
    play(s, S)
    assert s.curiosity == 1 and s.legal_actions() == [N, S]
    play(s, N)
    assert s.curiosity == 0 and s.last_left == (1, 1) and s.legal_actions() == [S]
    play(s, S)
    assert s.curiosity == 0 and s.pos == (1, 1) and s.turn == 3
    # Turn 3 at (1,1), last_left (0,1): S to (2,1) is a move without reversal -> valve closed.
    play(s, ROLL1)
    assert s.valve is False and s.legal_actions() == [S]


def test_short_move_onto_distraction_keeps_valve_closed():
    # As the pocket above, but (0,0) holds a stick. Turn 1: W to (0,1); the stick (W of (0,1)) is
    # offered; ignore (curiosity 2 -> 1). Turn 2, budget 3: W onto the unresolved stick is a
    # complete move ("a shorter one whose last step enters ... an unresolved distraction cell"),
    # so the valve stays closed and E (reversal) is not legal.
    s = play(
        new_state(
            """
            I . @ .
            T T . H
            """
        ),
        ROLL1,
        W,
    )
    assert s.phase == Phase.OFFER and s.legal_actions() == [IGNORE, INVESTIGATE]
    play(s, IGNORE, ROLL3)
    assert s.curiosity == 1 and s.valve is False
    assert s.legal_actions() == [W]


def test_walled_in_start_stays_every_turn_and_loses():
    # §3 step 4 / §8: no complete move even with the valve -> the dog stays, the turn is spent.
    # The roll still happens (step 3 comes before the move). turns=3: three rolls, then a loss.
    s = new_state(
        """
        @ T
        T H
        """,
        turns=3,
    )
    play(s, ROLL3)
    assert s.phase == Phase.ROLL and s.turn == 2 and s.pos == (0, 0) and s.last_left is None
    assert s.stamina == 6 and s.marked == {(0, 0)}
    play(s, ROLL1)
    assert s.phase == Phase.ROLL and s.turn == 3
    play(s, ROLL2)
    assert s.is_terminal() and s.current_player() == TERMINAL
    assert s.returns() == [0.0] and s.pos == (0, 0) and s.turn == 3


# ---------------------------------------------------------------------------------------------
# 4a the human, 4b crossing, 4c terrain, stamina floor, rest
# ---------------------------------------------------------------------------------------------
def test_overshoot_wins_on_step_one_of_three():
    # 4a: entering the human's cell wins at once, overshoot is fine; the human's cell is never
    # marked (§8).
    s = play(
        new_state(
            """
            @ H
            . .
            """
        ),
        ROLL3,
    )
    assert s.legal_actions() == [E, S]
    play(s, E)
    assert s.is_terminal() and s.phase == Phase.OVER and s.current_player() == TERMINAL
    assert s.returns() == [1.0]
    assert s.marked == {(0, 0)} and s.turn == 1
    assert s.legal_actions() == [] and s.chance_outcomes() == []


def test_win_is_checked_before_arrow_and_offers():
    # The human (0,2) is under shouter (2,2) N 2 with number 2, and another dog (1,2) is beside
    # it. 4a comes first and the game ends at once: no shout roll, no offer, stamina 6, the
    # human's cell is not marked.
    s = play(
        new_state(
            """
            @ . H
            . . D
            . . Y
            """,
            shouters=(Shouter(2, 2, "N", 2),),
        ),
        ROLL2,
        E,
        E,
    )
    assert s.is_terminal() and s.returns() == [1.0]
    assert s.stamina == 6 and s.curiosity == 2 and (0, 2) not in s.marked


def test_trail_crossing_costs_one_curiosity():
    # Turn 1 (budget 3): N (0,1), W (0,0), S (1,0). Turn 2 (budget 1) from (1,0), last_left
    # (0,0): E enters the start (1,1), marked at setup -> 4b: curiosity 2 -> 1.
    s = play(new_state(OPEN3), ROLL3, N, W, S, ROLL1)
    assert s.curiosity == 2 and s.legal_actions() == [E, S]
    play(s, E)
    assert s.curiosity == 1
    assert s.marked == {(1, 1), (0, 1), (0, 0), (1, 0)}


def test_trail_crossing_with_stick_is_net_zero():
    # Turn 1: N onto the stick (0,1): +1 curiosity (3), the dog carries it. Turn 2: the roll
    # outcomes are budgets max(1, steps-1): 1 step (die 1-4) 2/3, 2 steps (5-6) 1/3.
    # Budget 1: W to (0,0). Turn 3, budget 2: S (1,0), E into the marked start (1,1): the stick
    # cancels the crossing loss -> curiosity stays 3. Exactly two steps are taken.
    s = play(
        new_state(
            """
            . I .
            . @ .
            . . H
            """
        ),
        ROLL1,
        N,
    )
    assert s.stick is True and s.curiosity == 3 and s.resolved == {(0, 1)} and s.turn == 2
    assert outcomes(s) == [(ROLL1, Fraction(2, 3)), (ROLL2, THIRD)]
    assert s.legal_actions() == [ROLL1, ROLL2]
    play(s, ROLL1)
    assert s.budget == 1 and s.legal_actions() == [E, W]
    play(s, W, ROLL2)
    assert s.budget == 2
    play(s, S)
    assert s.phase == Phase.STEP and s.budget == 1
    play(s, E)
    assert s.pos == (1, 1) and s.curiosity == 3 and s.turn == 4 and s.phase == Phase.ROLL


def test_undergrowth_costs_one_stamina():
    s = play(
        new_state(
            """
            @ , .
            . . H
            """
        ),
        ROLL2,
        E,
    )
    assert s.stamina == 5


def test_puddle_costs_two_per_cell_even_in_a_long_region():
    # Three puddle cells in a row (allowed, §8): -2 each, 6 -> 4 -> 2 -> 0.
    s = play(
        new_state(
            """
            @ ~ ~ ~
            . . . H
            """,
            turns=1,
        ),
        ROLL3,
        E,
    )
    assert s.stamina == 4
    play(s, E)
    assert s.stamina == 2
    play(s, E)
    assert s.stamina == 0 and s.is_terminal() and s.returns() == [0.0]


def _shouted_puddles(**options):
    """Shouter (0,1) S 1 over the start row, two puddles east of it: the walks below."""
    return new_state(
        """
        @ Y ~ ~
        . . . .
        . . . H
        """,
        shouters=(Shouter(0, 1, "S", 1),),
        **options,
    )


def test_number_one_arrow_and_puddles_floor_at_zero():
    # Shouter (0,1) S 1: (0,1) carries number 1 -> 4d can never be shrugged off: -3 at once, no
    # chance node (documented choice). Then two puddles, -2 each: 6 -> 3 -> 1 -> 0 (a cost larger
    # than what is left takes what is left). turns=1: the game ends, stamina observable at 0.
    s = _shouted_puddles(turns=1)
    play(s, ROLL3, E)
    assert s.phase == Phase.STEP and s.stamina == 3 and s.budget == 2
    play(s, E)
    assert s.stamina == 1
    play(s, E)
    assert s.is_terminal() and s.returns() == [0.0] and s.stamina == 0


def test_rest_at_stamina_zero_takes_a_whole_turn():
    # The same walk with 20 turns: the move ends at stamina 0 on turn 1; turn 2 is the rest
    # (stamina becomes 3); the next roll is on turn 3. last_left (0,2) is kept through the rest:
    # on turn 3, from (0,3), W is a reversal and N/E are off the grid -> only S.
    s = _shouted_puddles()
    play(s, ROLL3, E, E, E)
    assert s.phase == Phase.ROLL and s.turn == 3 and s.stamina == 3
    assert s.pos == (0, 3) and s.last_left == (0, 2)
    play(s, ROLL1)
    assert s.legal_actions() == [S]


def test_rest_on_the_last_turn_loses():
    s = _shouted_puddles(turns=2)
    play(s, ROLL3, E, E, E)
    assert s.is_terminal() and s.returns() == [0.0] and s.turn == 2 and s.stamina == 3


def test_move_goes_on_at_stamina_zero():
    # Shouter (0,1) E 1: (0,1) and (0,2) both number 1. 6 -> 3 -> 0 after two steps; the third
    # step is still legal ("A move goes on at stamina 0"); undergrowth at 0 stays 0.
    s = new_state(
        """
        @ Y . ,
        . . . .
        . . . H
        """,
        shouters=(Shouter(0, 1, "E", 1),),
        turns=1,
    )
    play(s, ROLL3, E, E)
    assert s.stamina == 0 and s.phase == Phase.STEP and s.budget == 1
    assert s.legal_actions() == [E, S]
    play(s, E)
    assert s.pos == (0, 3) and s.stamina == 0 and s.is_terminal()


SKIP_AT_ZERO = """
@ Y ~ S .
. . . . .
. . . . H
"""


def _skip_at_zero(turns):
    # Turn 1, budget 3: E (0,1) number-1 arrow: 6 -> 3. E (0,2) puddle: 3 -> 1; the squirrel (0,3)
    # is E of (0,2) -> offered; ignore (2 -> 1). E onto the squirrel: 4e, +1 curiosity (2); it
    # sits on the N edge (N=0, E=1, S=2, W=3): a run of 0 cells; -1 stamina: 1 -> 0; skip next.
    s = new_state(SKIP_AT_ZERO, shouters=(Shouter(0, 1, "S", 1),), turns=turns)
    play(s, ROLL3, E, E)
    assert s.stamina == 1 and s.phase == Phase.OFFER
    assert s.action_to_string(IGNORE) == "ignore squirrel at (0,3)"
    play(s, IGNORE)
    assert s.curiosity == 1 and s.phase == Phase.STEP
    play(s, E)
    return s


def test_skipped_turn_is_spent_even_at_stamina_zero():
    # §8: "A skipped turn is spent even at stamina 0; the rest then comes on the following
    # turn." Turn 2 is the skip, turn 3 the rest (stamina 3), the next roll is on turn 4.
    s = _skip_at_zero(20)
    assert s.phase == Phase.ROLL and s.turn == 4 and s.stamina == 3 and s.skip_next is False
    assert s.pos == (0, 3) and s.last_left == (0, 2) and s.curiosity == 2
    assert s.resolved == {(0, 3)}


def test_skipped_last_turn_at_stamina_zero_does_not_rest():
    # turns=2: turn 2 is spent by the skip (not by a rest), so the game ends with stamina 0.
    s = _skip_at_zero(2)
    assert s.is_terminal() and s.returns() == [0.0]
    assert s.turn == 2 and s.stamina == 0 and s.skip_next is False


def test_lose_at_end_of_turn_n_and_win_on_it():
    picture = """
    @ . .
    . . H
    """
    s = play(new_state(picture, turns=1), ROLL1, E)
    assert s.is_terminal() and s.returns() == [0.0] and s.turn == 1
    s = play(new_state(picture, turns=2), ROLL1, E)
    assert not s.is_terminal() and s.turn == 2 and s.phase == Phase.ROLL
    s = play(new_state(picture, turns=1), ROLL3, E, E, S)
    assert s.is_terminal() and s.returns() == [1.0]


# ---------------------------------------------------------------------------------------------
# 4d shouts
# ---------------------------------------------------------------------------------------------
@pytest.mark.parametrize("k", [2, 3, 4, 5, 6])
def test_shout_roll_probability(k):
    # Shouter (0,0) E 6: cell (0,k) carries number k. A roll under k shrugs it off: (k-1)/6;
    # otherwise -3 stamina.
    grid = [["."] * 7, ["H"] + ["."] * 6]
    grid[0][0] = "Y"
    grid[1][k] = "@"
    s = new_state("\n".join(" ".join(r) for r in grid), shouters=(Shouter(0, 0, "E", 6),))
    play(s, ROLL1, N)
    assert s.phase == Phase.SHOUT and s.current_player() == CHANCE
    assert outcomes(s) == [(SHRUG, Fraction(k - 1, 6)), (HIT, Fraction(7 - k, 6))]
    assert s.legal_actions() == [SHRUG, HIT]
    assert sum(p for _, p in s.chance_outcomes()) == pytest.approx(1.0)
    hit = play(s.clone(), HIT)
    assert hit.stamina == 3 and hit.turn == 2
    shrug = play(s.clone(), SHRUG)
    assert shrug.stamina == 6 and shrug.turn == 2


TWO_ARROWS = """
. @ . . . Y
. . . . . .
H . Y . . .
"""
ARROW_A = Shouter(0, 5, "W", 3)  # (0,4)=1 (0,3)=2 (0,2)=3
ARROW_B = Shouter(2, 2, "N", 2)  # (1,2)=1 (0,2)=2


@pytest.mark.parametrize(
    ("shouters", "numbers"),
    [((ARROW_A, ARROW_B), (3, 2)), ((ARROW_B, ARROW_A), (2, 3))],
)
def test_two_arrows_roll_in_header_order(shouters, numbers):
    # (0,2) lies under A with number 3 and under B with number 2: one roll per arrow, in the order
    # of the shouter headers; each miss costs 3 (6 -> 3 -> 0; the move ends, turn 2 is a rest).
    s = play(new_state(TWO_ARROWS, shouters=shouters), ROLL1, E)
    first, second = numbers
    assert outcomes(s) == [(SHRUG, Fraction(first - 1, 6)), (HIT, Fraction(7 - first, 6))]
    play(s, HIT)
    assert s.phase == Phase.SHOUT and s.stamina == 3
    assert outcomes(s) == [(SHRUG, Fraction(second - 1, 6)), (HIT, Fraction(7 - second, 6))]
    both = play(s.clone(), HIT)
    assert both.turn == 3 and both.stamina == 3 and both.phase == Phase.ROLL
    once = play(s.clone(), SHRUG)
    assert once.turn == 2 and once.stamina == 3


def test_arrow_passes_over_a_tree():
    # Shouter (0,0) E 3 over the tree (0,1): (0,2) still carries number 2.
    s = play(
        new_state(
            """
            Y T . .
            H . @ .
            """,
            shouters=(Shouter(0, 0, "E", 3),),
        ),
        ROLL1,
        N,
    )
    assert s.phase == Phase.SHOUT
    assert outcomes(s) == [(SHRUG, Fraction(1, 6)), (HIT, Fraction(5, 6))]


ARROW_ON_SQUIRREL = """
. . @ S .
. . . . .
H . . Y .
"""


def test_arrow_rolls_before_the_distraction():
    # 4d before 4e: the squirrel (0,3) is under shouter (2,3) N 2 with number 2. The shout roll
    # comes first (nothing investigated yet); then the squirrel: +1 curiosity, on the N edge a run
    # of 0 cells, -1 stamina, skip next (turn 2 spent, next roll on turn 3).
    s = play(new_state(ARROW_ON_SQUIRREL, shouters=(Shouter(2, 3, "N", 2),)), ROLL1, E)
    assert s.phase == Phase.SHOUT and s.curiosity == 2 and s.resolved == set()
    assert outcomes(s) == [(SHRUG, Fraction(1, 6)), (HIT, Fraction(5, 6))]
    shrug = play(s.clone(), SHRUG)
    assert shrug.curiosity == 3 and shrug.resolved == {(0, 3)} and shrug.pos == (0, 3)
    assert shrug.stamina == 5 and shrug.turn == 3 and shrug.phase == Phase.ROLL
    hit = play(s.clone(), HIT)
    assert hit.stamina == 2 and hit.turn == 3 and hit.curiosity == 3


def test_arrow_keeps_its_number_after_the_distraction_is_resolved():
    # As above, shrugged off: the dog is on (0,3) (now open trail), last_left (0,2), stamina 5,
    # curiosity 3, turn 3. Budget 3: S (1,3) has number 1: -3 at once (2); W (1,2); N (0,2), the
    # marked start: crossing (2). Turn 4, budget 1: E back onto (0,3): marked (1), and the arrow
    # still gives it number 2 -> a shout roll; nothing is investigated any more.
    s = play(new_state(ARROW_ON_SQUIRREL, shouters=(Shouter(2, 3, "N", 2),)), ROLL1, E, SHRUG)
    play(s, ROLL3, S)
    assert s.stamina == 2 and s.phase == Phase.STEP
    play(s, W, N)
    assert s.curiosity == 2 and s.turn == 4
    play(s, ROLL1, E)
    assert s.phase == Phase.SHOUT and s.curiosity == 1
    assert outcomes(s) == [(SHRUG, Fraction(1, 6)), (HIT, Fraction(5, 6))]
    play(s, SHRUG)
    assert s.phase == Phase.ROLL and s.turn == 5 and s.curiosity == 1 and s.stamina == 2


# ---------------------------------------------------------------------------------------------
# 4e distractions entered by a step (§5)
# ---------------------------------------------------------------------------------------------
def _big_squirrel(tree_at=None):
    # 10 rows x 11 columns, squirrel (4,5): N=4, E=5, S=5, W=5 -> N is the single nearest edge.
    rows = [["."] * 11 for _ in range(10)]
    rows[4][5] = "S"
    rows[5][5] = "@"
    rows[9][0] = "H"
    if tree_at:
        rows[tree_at[0]][tree_at[1]] = "T"
    return new_state("\n".join(" ".join(r) for r in rows))


def test_squirrel_entered_runs_at_most_three_cells():
    # Run of up to 3 cells toward the nearest edge (N): (3,5), (2,5), (1,5) -- it stops short of
    # the edge row 0. last_left follows the run. +1 curiosity, -1 stamina, the next turn skipped.
    s = play(_big_squirrel(), ROLL2, N)
    assert s.pos == (1, 5) and s.last_left == (2, 5)
    assert s.marked == {(5, 5), (4, 5), (3, 5), (2, 5), (1, 5)}
    assert s.resolved == {(4, 5)} and s.curiosity == 3 and s.stamina == 5
    assert s.turn == 3 and s.phase == Phase.ROLL and s.skip_next is False


def test_squirrel_run_stops_before_a_tree():
    s = play(_big_squirrel(tree_at=(2, 5)), ROLL1, N)
    assert s.pos == (3, 5) and s.last_left == (4, 5)
    assert s.marked == {(5, 5), (4, 5), (3, 5)}
    assert s.stamina == 5 and s.turn == 3


def test_squirrel_on_an_edge_runs_zero_cells():
    # Squirrel (0,1) in a 2x3 grid: N=0 is the single nearest edge -> 0 cells; still -1 stamina
    # and the skip (§5, §8).
    s = play(
        new_state(
            """
            . S .
            . @ H
            """
        ),
        ROLL1,
        N,
    )
    assert s.pos == (0, 1) and s.last_left == (1, 1) and s.marked == {(1, 1), (0, 1)}
    assert s.stamina == 5 and s.curiosity == 3 and s.turn == 3


def test_squirrel_in_a_corner_is_a_decision_between_two_edges():
    # Squirrel (0,0): N=0 and W=0 tie -> the player chooses N or W although both runs are 0 cells.
    s = play(
        new_state(
            """
            S @ .
            . . H
            """
        ),
        ROLL1,
        W,
    )
    assert s.phase == Phase.SQUIRREL and s.current_player() == 0
    assert s.legal_actions() == [RUN_N, RUN_W]
    assert s.curiosity == 3 and s.resolved == {(0, 0)} and s.stamina == 6
    with pytest.raises(IllegalActionError):
        s.clone().apply_action(RUN_E)
    for run in (RUN_N, RUN_W):
        t = play(s.clone(), run)
        assert t.pos == (0, 0) and t.last_left == (0, 1)
        assert t.stamina == 5 and t.turn == 3 and t.phase == Phase.ROLL


def test_squirrel_tie_run_back_over_last_left():
    # Squirrel (1,1) in the middle of 3x3: four edges at distance 1 -> four choices. Running S
    # goes back into (2,1) = last_left (a forced run is not a step, no-reversal does not apply),
    # and re-entering the marked start costs no curiosity. Running N stops at (0,1) (edge).
    s = play(
        new_state(
            """
            H . .
            . S .
            . @ .
            """
        ),
        ROLL1,
        N,
    )
    assert s.legal_actions() == [RUN_N, RUN_E, RUN_S, RUN_W]
    back = play(s.clone(), RUN_S)
    assert back.pos == (2, 1) and back.last_left == (1, 1) and back.curiosity == 3
    assert back.marked == {(2, 1), (1, 1)} and back.stamina == 5 and back.turn == 3
    north = play(s.clone(), RUN_N)
    assert north.pos == (0, 1) and north.last_left == (1, 1)


@pytest.mark.parametrize(
    ("symbol", "end", "last_left"),
    [("^", (0, 2), (1, 2)), (">", (2, 4), (2, 3)), ("v", (4, 2), (3, 2)), ("<", (2, 0), (2, 1))],
)
def test_scent_trail_runs_two_cells_in_its_direction(symbol, end, last_left):
    # 5x5 open, scent at (2,2), the dog enters from S (3,2). The run goes 2 cells in the marked
    # direction (the S trail runs back over the start without curiosity cost); no skip, no
    # stamina cost: the next roll is on turn 2.
    rows = [["."] * 5 for _ in range(5)]
    rows[2][2] = symbol
    rows[3][2] = "@"
    rows[4][4] = "H"
    s = play(new_state("\n".join(" ".join(r) for r in rows)), ROLL3, N)
    assert s.pos == end and s.last_left == last_left
    assert s.curiosity == 3 and s.stamina == 6 and s.turn == 2 and s.resolved == {(2, 2)}
    assert s.skip_next is False and s.phase == Phase.ROLL


@pytest.mark.parametrize(
    ("picture", "end", "last_left"),
    [
        ("@ > . T .\n. . . . H", (0, 2), (0, 1)),  # stops before the tree (0,3)
        ("@ > .\n. . H", (0, 2), (0, 1)),  # stops at the grid edge after 1 cell
        ("@ > T\n. . H", (0, 1), (0, 0)),  # a tree right away: 0 cells
    ],
)
def test_scent_run_stops_before_tree_or_edge(picture, end, last_left):
    s = play(new_state(picture), ROLL1, E)
    assert s.pos == end and s.last_left == last_left and s.turn == 2 and s.curiosity == 3


def test_another_dog_entered():
    # +2 curiosity, skip next. turns=20: next roll on turn 3; last_left (0,0) is kept through the
    # skipped turn, so W is still a reversal. turns=2: the skipped last turn loses.
    picture = """
    @ D .
    . . H
    """
    s = play(new_state(picture), ROLL2, E)
    assert s.pos == (0, 1) and s.curiosity == 4 and s.resolved == {(0, 1)} and s.stamina == 6
    assert s.turn == 3 and s.phase == Phase.ROLL and s.last_left == (0, 0)
    play(s, ROLL1)
    assert s.legal_actions() == [E, S]
    lost = play(new_state(picture, turns=2), ROLL1, E)
    assert lost.is_terminal() and lost.returns() == [0.0]


def test_stick_entered_and_second_stick():
    # Stepping onto the stick (0,1): +1 curiosity, carried; the move ends (no offer of the second
    # stick beside it: 4f is not reached after 4e). Turn 2, budget 1: E onto the second stick:
    # +1 curiosity again (documented choice: a second stick changes nothing else).
    s = play(
        new_state(
            """
            @ I I .
            . . . H
            """
        ),
        ROLL3,
        E,
    )
    assert s.phase == Phase.ROLL and s.turn == 2 and s.stick is True and s.curiosity == 3
    play(s, ROLL1, E)
    assert s.curiosity == 4 and s.resolved == {(0, 1), (0, 2)} and s.turn == 3
    assert outcomes(s) == [(ROLL1, Fraction(2, 3)), (ROLL2, THIRD)]


def test_stick_makes_ignoring_free():
    # Turn 1: N onto the stick (curiosity 3). Turn 2: W (0,0). Turn 3: S (1,0): the dog (2,0) is
    # offered; ignoring costs nothing with the stick (3 stays 3) and ignore stays legal.
    s = play(
        new_state(
            """
            . I .
            . @ .
            D . H
            """
        ),
        ROLL1,
        N,
        ROLL1,
        W,
        ROLL1,
        S,
    )
    assert s.phase == Phase.OFFER and s.legal_actions() == [IGNORE, INVESTIGATE]
    play(s, IGNORE)
    assert s.curiosity == 3 and s.turn == 4


# ---------------------------------------------------------------------------------------------
# 4f offers and the hop (§4 f, §5)
# ---------------------------------------------------------------------------------------------
OFFER_FOREST = """
@ . . .
. D . .
. . . H
"""


def test_offer_ignore_costs_one_and_is_not_repeated_in_the_move():
    # Budget 3: S to (1,0): the dog (1,1) is E of it -> offered. Ignore: 2 -> 1. S to (2,0), then
    # E to (2,1), again beside the dog, but it was already offered this move -> no offer; the move
    # ends. Next turn, after the roll, nothing is offered at the start of the move.
    s = play(new_state(OFFER_FOREST), ROLL3, S)
    assert s.phase == Phase.OFFER and s.current_player() == 0
    assert s.legal_actions() == [IGNORE, INVESTIGATE]
    assert s.action_to_string(IGNORE) == "ignore another dog at (1,1)"
    assert s.action_to_string(INVESTIGATE) == "investigate another dog at (1,1)"
    play(s, IGNORE)
    assert s.curiosity == 1 and s.phase == Phase.STEP and s.budget == 2
    assert s.legal_actions() == [E, S]
    play(s, S, E)
    assert s.pos == (2, 1) and s.phase == Phase.ROLL and s.turn == 2 and s.curiosity == 1
    play(s, ROLL1)
    assert s.phase == Phase.STEP and s.legal_actions() == [N, E]


def test_offer_repeated_next_turn():
    # Budget 2: S (offer, ignore: 1), S to (2,0). Turn 2, budget 1: E to (2,1), beside the dog:
    # "offered this turn" was cleared, so it is offered again; ignore: 1 -> 0.
    s = play(new_state(OFFER_FOREST), ROLL2, S, IGNORE, S, ROLL1, E)
    assert s.phase == Phase.OFFER and s.legal_actions() == [IGNORE, INVESTIGATE]
    play(s, IGNORE)
    assert s.curiosity == 0 and s.turn == 3


def test_investigate_hops_and_ends_the_move():
    # Budget 3: S to (1,0), the stick (1,1) is offered; investigate: the dog hops onto (1,1).
    # The hop is not a step: (1,1) is under shouter (1,3) W 2 with number 2 but no shout roll
    # follows (stamina 6); last_left = (1,0), the cell hopped from; +1 curiosity; the stick is
    # carried; the remaining 2 steps are lost (next roll, turn 2).
    s = play(
        new_state(
            """
            @ . . .
            . I . Y
            . . . H
            """,
            shouters=(Shouter(1, 3, "W", 2),),
        ),
        ROLL3,
        S,
    )
    assert s.phase == Phase.OFFER
    play(s, INVESTIGATE)
    assert s.pos == (1, 1) and s.last_left == (1, 0)
    assert s.stamina == 6 and s.curiosity == 3 and s.stick is True
    assert s.resolved == {(1, 1)} and s.marked == {(0, 0), (1, 0), (1, 1)}
    assert s.phase == Phase.ROLL and s.turn == 2 and s.budget == 0


def test_offer_order_west_before_east():
    # "Row-major order" of the neighbours is N, W, E, S: stepping S into (1,1), the dog at W (1,0)
    # is offered before the stick at E (1,2). Ignore the dog (2 -> 1), investigate the stick.
    s = play(
        new_state(
            """
            . @ .
            D . I
            . . H
            """
        ),
        ROLL1,
        S,
    )
    assert s.action_to_string(INVESTIGATE) == "investigate another dog at (1,0)"
    play(s, IGNORE)
    assert s.curiosity == 1 and s.phase == Phase.OFFER
    assert s.action_to_string(INVESTIGATE) == "investigate interesting stick at (1,2)"
    play(s, INVESTIGATE)
    assert s.pos == (1, 2) and s.last_left == (1, 1) and s.stick is True and s.curiosity == 2
    assert s.resolved == {(1, 2)} and s.turn == 2


def test_offer_order_north_west_east_and_forced_investigation_at_zero():
    # Stepping N into (1,1): N (0,1) dog, W (1,0) stick, E (1,2) squirrel, in that order. Two
    # ignores take curiosity 2 -> 0; with curiosity 0 and no stick investigating is the only
    # choice. The squirrel (1,2) in a 4x3 grid: E=0 is nearest -> 0-cell run, -1 stamina, skip.
    s = play(
        new_state(
            """
            . D .
            I . S
            . @ .
            H . .
            """
        ),
        ROLL2,
        N,
    )
    assert s.action_to_string(IGNORE) == "ignore another dog at (0,1)"
    play(s, IGNORE)
    assert s.action_to_string(IGNORE) == "ignore interesting stick at (1,0)"
    play(s, IGNORE)
    assert s.curiosity == 0 and s.phase == Phase.OFFER
    assert s.legal_actions() == [INVESTIGATE]
    assert s.action_to_string(INVESTIGATE) == "investigate squirrel at (1,2)"
    play(s, INVESTIGATE)
    assert s.pos == (1, 2) and s.last_left == (1, 1) and s.curiosity == 1
    assert s.stamina == 5 and s.turn == 3 and s.resolved == {(1, 2)}


def test_offer_order_north_east_south():
    # Entering (1,1) from W: N (0,1) dog, E (1,2) stick, S (2,1) squirrel, in that order.
    s = play(
        new_state(
            """
            . D .
            @ . I
            H S .
            """
        ),
        ROLL1,
        E,
    )
    labels = []
    while s.phase == Phase.OFFER and IGNORE in s.legal_actions():
        labels.append(s.action_to_string(IGNORE))
        play(s, IGNORE)
    assert labels == ["ignore another dog at (0,1)", "ignore interesting stick at (1,2)"]
    assert s.legal_actions() == [INVESTIGATE]
    assert s.action_to_string(INVESTIGATE) == "investigate squirrel at (2,1)"


def test_stick_keeps_ignore_legal_at_curiosity_zero():
    # §4 f: "With curiosity 0 (and no stick) investigating is the only choice." In play a dog
    # carrying the stick always has curiosity >= 1 (the pick-up gives +1, nothing takes it
    # away), so the state is built through the serialisation: same offer, curiosity 0.
    game = DogGame(make_forest(OFFER_FOREST))
    s = play(game.new_initial_state(), ROLL3, S)
    data = json.loads(s.to_json())
    data["curiosity"] = 0
    no_stick = game.state_from_json(json.dumps(data))
    assert no_stick.legal_actions() == [INVESTIGATE]
    data["stick"] = True
    with_stick = game.state_from_json(json.dumps(data))
    assert with_stick.legal_actions() == [IGNORE, INVESTIGATE]
    play(with_stick, IGNORE)
    assert with_stick.curiosity == 0


# ---------------------------------------------------------------------------------------------
# forced runs over distractions, ending on them, winning (§5, §8)
# ---------------------------------------------------------------------------------------------
def test_forced_run_passes_over_a_distraction():
    # The scent (0,1) runs E over the dog (0,2) to (0,3): the dog is passed over without
    # triggering (still unresolved, but marked), and no offer follows the run although (0,2) is
    # beside (0,3). Turn 2, budget 2: W would be a reversal; S (1,3), W (1,2): the dog (0,2) is
    # N of it -> offered; ignore (3 -> 2). Turn 3, budget 1: N enters (0,2) by a step: it is
    # marked -> -1 (1), then investigated +2 (3), skip -> next roll on turn 5.
    s = play(
        new_state(
            """
            @ > D . .
            . . . . H
            """
        ),
        ROLL1,
        E,
    )
    assert s.pos == (0, 3) and s.last_left == (0, 2) and s.curiosity == 3
    assert s.resolved == {(0, 1)} and (0, 2) in s.marked
    assert s.phase == Phase.ROLL and s.turn == 2 and s.skip_next is False
    play(s, ROLL2)
    assert s.phase == Phase.STEP and s.legal_actions() == [E, S]
    play(s, S, W)
    assert s.phase == Phase.OFFER and s.action_to_string(IGNORE) == "ignore another dog at (0,2)"
    play(s, IGNORE, ROLL1, N)
    assert s.pos == (0, 2) and s.last_left == (1, 2) and s.curiosity == 3
    assert s.resolved == {(0, 1), (0, 2)} and s.turn == 5


def test_forced_run_ends_on_a_distraction_and_hop_crossing_comes_before_the_gain():
    # Turn 1: the scent (0,1) runs E to (0,2), (0,3) and ends on the unresolved dog (0,3): nothing
    # triggers (curiosity 3, no skip).
    # Turn 2, budget 3: standing on the dog triggers nothing. S (1,3): the dog is offered, ignore
    # (2); W (1,2); N (0,2) marked: crossing (1); the dog is E of it but already offered.
    # Turn 3, budget 3: W (0,1) marked (0); S (1,1); E (1,2) marked (floor 0).
    # Turn 4, budget 1: E (1,3) marked (0); the dog is offered; with curiosity 0 only investigate.
    # The hop onto (0,3), a marked cell: crossing first (0 stays 0), then +2 -> 2 (had the gain
    # come first it would be 2 - 1 = 1). last_left (1,3); skip -> next roll on turn 6.
    s = play(
        new_state(
            """
            @ > . D .
            . . . . .
            . . . . H
            """
        ),
        ROLL1,
        E,
    )
    assert s.pos == (0, 3) and s.last_left == (0, 2) and s.curiosity == 3
    assert s.resolved == {(0, 1)} and s.marked == {(0, 0), (0, 1), (0, 2), (0, 3)}
    assert s.turn == 2 and s.phase == Phase.ROLL
    play(s, ROLL3)
    assert s.phase == Phase.STEP and s.legal_actions() == [E, S]
    play(s, S)
    assert s.phase == Phase.OFFER
    play(s, IGNORE, W, N)
    assert s.curiosity == 1 and s.turn == 3 and s.phase == Phase.ROLL
    play(s, ROLL3, W, S, E)
    assert s.curiosity == 0 and s.turn == 4 and s.pos == (1, 2)
    play(s, ROLL1, E)
    assert s.phase == Phase.OFFER and s.legal_actions() == [INVESTIGATE]
    play(s, INVESTIGATE)
    assert s.pos == (0, 3) and s.last_left == (1, 3) and s.curiosity == 2
    assert s.resolved == {(0, 1), (0, 3)} and s.turn == 6


def test_scent_run_into_the_human_wins():
    s = play(
        new_state(
            """
            @ > . H
            . . . .
            """
        ),
        ROLL1,
        E,
    )
    assert s.is_terminal() and s.returns() == [1.0]
    assert s.marked == {(0, 0), (0, 1), (0, 2)}


def test_squirrel_run_into_the_human_wins_at_once():
    # Squirrel (1,2) in 4x5: N=1, E=2, S=2, W=2 -> runs N into the human (0,2): the win ends the
    # game at once, the -1 stamina and the skip are not applied.
    s = play(
        new_state(
            """
            . . H . .
            . @ S . .
            . . . . .
            . . . . .
            """
        ),
        ROLL1,
        E,
    )
    assert s.is_terminal() and s.returns() == [1.0]
    assert s.stamina == 6 and s.skip_next is False and (0, 2) not in s.marked
