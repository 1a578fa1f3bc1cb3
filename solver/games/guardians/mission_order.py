"""The best mission order within a budget: the one rule the ``order`` command and the agents use.

``auto`` tries every order while that needs at most :data:`AUTO_STATES` positions (exact), then
the CP-SAT model while it has at most :data:`MODEL_CAP` walk-steps (candidate walks × mission
steps; past it, building the model alone takes minutes), else answers the first legal order,
marked not optimal. A time-limited CP-SAT solve never answers less than the first legal order.

With hidden backs the plan never depends on a back nobody has seen; where a chain could go on
through one, :func:`solve_order` also plays the reveals out
(:func:`~.mission_order_search.expected_order`, up to :data:`EXPECTED_STATES` positions):
``expected`` holds the best policy's expected missions and points (``None`` when there is no
unseen back to play out, or the expectimax needs more positions).
"""

from __future__ import annotations

from dataclasses import dataclass

from solver.errors import OptionError
from solver.games.guardians.mission_order_cpsat import (
    DEFAULT_TIME_LIMIT,
    candidate_walks,
    cpsat_order,
)
from solver.games.guardians.mission_order_search import (
    Expected,
    Plan,
    best_order,
    bounded_best_order,
    expected_order,
    first_legal_order,
)
from solver.games.guardians.rules import GuardiansState
from solver.search.limit import LEAST_SECONDS, seconds_left

__all__ = ["AUTO_STATES", "EXPECTED_STATES", "METHODS", "MODEL_CAP", "OrderSolution", "solve_order"]

AUTO_STATES = 3_000
"""``auto``: the exhaustive search's cap (positions) before CP-SAT takes over (the exhaustive
search answers most positions of up to 80 tiles within it, in milliseconds; at about 2 ms a
position on 80 tiles, the cap bounds it to a few seconds)."""
MODEL_CAP = 2_000
"""The largest CP-SAT model built, in candidate walks times mission steps (about 700 build and
solve in 1-3 s; the construction grows with the square of this size and is not bounded by the
time limit). Past it ``auto`` answers the first legal order and ``cp-sat`` is refused."""
METHODS = ("auto", "brute-force", "cp-sat")
EXPECTED_STATES = 20_000
"""The expectimax over the reveals' cap (positions: forests, pawns and backs)."""


@dataclass(frozen=True)
class OrderSolution:
    """A plan, whether it is proven the best, and the method that found it (``brute-force``,
    ``cp-sat`` or ``first-legal``)."""

    plan: Plan
    optimal: bool
    method: str
    expected: Expected | None = None


def solve_order(
    state: GuardiansState,
    method: str = "auto",
    *,
    time_limit: float = DEFAULT_TIME_LIMIT,
    expected: bool = True,
) -> OrderSolution:
    """The best mission order of ``state`` (at the mission step) by ``method``, within budget.

    ``brute-force`` is exact without a budget (small positions); ``cp-sat`` refuses a model over
    :data:`MODEL_CAP` with an :class:`~solver.errors.OptionError`. ``expected=False``: no
    expectimax over the reveals (``expected`` stays ``None``; an agent playing the plan needs
    none). Under a :func:`~solver.search.limit.search_deadline` ``auto`` keeps to it: CP-SAT
    gets at most the seconds left, none once it has passed (the first legal order then), and
    the expectimax stops there (``None``).
    """
    solution = _solve(state, method, time_limit)
    if expected and solution.plan.reaches_unseen:
        played_out = expected_order(state, EXPECTED_STATES)
        return OrderSolution(solution.plan, solution.optimal, solution.method, played_out)
    return solution


def _solve(state: GuardiansState, method: str, time_limit: float) -> OrderSolution:
    if method not in METHODS:
        raise OptionError(f"unknown ordering method {method!r}; expected one of {METHODS}")
    if method == "auto":
        quick = bounded_best_order(state, AUTO_STATES)
        if quick is not None:
            return OrderSolution(quick, True, "brute-force")
    elif method == "brute-force":
        return OrderSolution(best_order(state), True, "brute-force")
    walks = candidate_walks(state)
    size = len(walks) * len({w.start for w in walks})
    left = seconds_left()
    if left is not None and method == "auto":
        if left <= LEAST_SECONDS:
            return OrderSolution(first_legal_order(state), False, "first-legal")
        time_limit = min(time_limit, left)
    if size <= MODEL_CAP:
        answer = cpsat_order(state, time_limit=time_limit)
        return OrderSolution(answer.plan, answer.optimal, "cp-sat")
    if method == "auto":
        return OrderSolution(first_legal_order(state), False, "first-legal")
    raise OptionError(
        f"the position is too large for the CP-SAT model ({len(walks)} candidate walks "
        f"x mission steps = {size}, over {MODEL_CAP}); --method auto answers with a legal order"
    )
