"""Forest guardians' ``broad`` agent: the planner searching several times as many candidate turns;
the default agent's solo player until the last two rounds (``lookahead`` plays the solo endgame
player, :mod:`~solver.games.guardians.endgame`, which is this agent before them).

Why: the ``planner`` (:mod:`~solver.games.guardians.planner`) lists every placement of a pool tile
on the forest's edge, scores each by the cheap prospect it adds, and searches only the best few
to the end of the turn (20 singles paired, 20 pairs, 16 pairs completing a mission, 8
``take 1 tile`` placements). The cheap score sees a pawn's prospect, not the points, the chain or
what a turn leaves for the next, so good turns fall outside the short lists. With the backs
hidden (the rule) the planner lost about 10 points a solo game against the same planner with
open backs, and a search over the reveals, a lookahead over its best turns and its constants
tuned did not win them back; searching more of its own candidates won about one (+1.0 points
a game over the 1200 games of the level calibration, paired game for game with the planner's:
docs/rules/guardians.md §13). This agent is that:
every candidate list ``iterations`` times as long (:data:`DEFAULT_BREADTH` by default; 1 is the
planner, move for move), the same values, the same reset rule (its sampled pools planned as
broadly), the same mission step.

Deterministic given its seed (which only seeds the pools a reset is valued with), and reading
the state only, so it plays the same games on both engines. Its time grows with the factor:
about three and a half times the planner's at the default (docs/rules/guardians.md §13).

>>> import solver
>>> opened = solver.game_spec("guardians").open("guardians/order-matters")
>>> agent = broad_agent(opened.game)
>>> opened.state.action_to_string(agent(opened.state))   # the chain first: 2 missions, not 1
'walk green pawn: (1,2) -> (0,2) (0,3)'
"""

from __future__ import annotations

from typing import Any

from solver.errors import OptionError
from solver.games.guardians.planner import PLANNER_BREADTH, Breadth, TurnPlayer
from solver.spec import Agent

__all__ = ["DEFAULT_BREADTH", "MAX_BREADTH", "breadth_for", "broad_agent"]

DEFAULT_BREADTH = 4
"""The candidate lists' factor the agent plays with by default (the measured gain, §13)."""
MAX_BREADTH = 16
"""The largest factor accepted: the time a move grows with it (0.5 s a move is the budget)."""


def breadth_for(factor: int) -> Breadth:
    """The planner's candidate counts, each ``factor`` times (the placements searched per
    possible back of a tile to flip stay the planner's: a reveal's placements are few)."""
    if isinstance(factor, bool) or not isinstance(factor, int) or not 1 <= factor <= MAX_BREADTH:
        raise OptionError(
            f"the broad agent's iterations (its breadth factor) must be a whole number from 1 to "
            f"{MAX_BREADTH}, not {factor!r}"
        )
    base = PLANNER_BREADTH
    return Breadth(
        singles=base.singles * factor,
        pairs=base.pairs * factor,
        completing=base.completing * factor,
        take_ones=base.take_ones * factor,
        flip_cells=base.flip_cells,
    )


def broad_agent(game: Any, *, seed: int = 0, iterations: int | None = None) -> Agent:
    """The guardians ``broad`` agent (see the module docstring): ``iterations`` is the breadth
    factor (default :data:`DEFAULT_BREADTH`)."""
    factor = DEFAULT_BREADTH if iterations is None else iterations
    return TurnPlayer(seed, breadth=breadth_for(factor)).choose
