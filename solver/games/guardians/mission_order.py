"""The best mission order within a budget: the one rule the ``order`` command and the agents use.

``auto`` tries every order while that needs at most :data:`AUTO_STATES` positions (exact), then
the CP-SAT model while it has at most :data:`MODEL_CAP` walk-steps (candidate walks × mission
steps; past it, building the model alone takes minutes), else answers the first legal order,
marked not optimal. A time-limited CP-SAT solve never answers less than the first legal order.

With hidden backs the plan never depends on a back nobody has seen; where a chain could go on
through one, :func:`solve_order` also plays the reveals out
(:func:`~.mission_order_search.expected_order`, up to :data:`EXPECTED_STATES` positions):
``expected`` holds the best policy's expected missions and points (``None`` when there is no
unseen back to play out, or the expectimax needs more positions or more time).

One wall-clock budget bounds the whole answer (``seconds``, default :data:`DEFAULT_SECONDS`):
the plan's phases run first, the expectimax gets what is left, and ``OrderSolution.stopped``
names each phase it cut short (``OrderSolution.exact`` is then false).
"""

from __future__ import annotations

from dataclasses import dataclass, replace

from solver.errors import OptionError
from solver.games.guardians.mission_order_cpsat import (
    DEFAULT_TIME_LIMIT,
    cpsat_order,
    model_size,
)
from solver.games.guardians.mission_order_search import (
    Expected,
    Plan,
    bounded_best_order,
    expected_order,
    first_legal_order,
)
from solver.games.guardians.rules import GuardiansState
from solver.search.limit import deadline_passed, positive, within_seconds

__all__ = [
    "AUTO_STATES",
    "DEFAULT_SECONDS",
    "EXPECTED_STATES",
    "METHODS",
    "MODEL_CAP",
    "PHASES",
    "OrderSolution",
    "solve_order",
]

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


DEFAULT_SECONDS = 30.0
"""The whole answer's wall-clock budget by default (``--seconds``): at CP-SAT's default
deterministic limit of 10 s (about 18 s of wall time on the largest model) the plan fits, and
what used to run past it (a crafted 16x16 forest of unseen backs: its expectimax gave up at
:data:`EXPECTED_STATES` after about 20 s) stops there."""
PHASES = ("brute-force", "cp-sat", "first-legal", "expected")
"""The phases a budget can cut short, as ``OrderSolution.stopped`` names them (``first-legal``:
the first legal order, the least answer, ended after the walks found by the deadline, one at
least where there is one)."""


@dataclass(frozen=True)
class OrderSolution:
    """A plan, whether it is proven the best, and the method that found it (``brute-force``,
    ``cp-sat`` or ``first-legal``); ``stopped``: the phases of :data:`PHASES` that the seconds
    budget (or a deadline in force) cut short, in the order they ran."""

    plan: Plan
    optimal: bool
    method: str
    expected: Expected | None = None
    stopped: tuple[str, ...] = ()

    @property
    def exact(self) -> bool:
        """The plan proven the best and, where a chain could go on through an unseen back, the
        reveals played out (``expected`` computed)."""
        return self.optimal and (self.expected is not None or not self.plan.reaches_unseen)


def solve_order(
    state: GuardiansState,
    method: str = "auto",
    *,
    time_limit: float = DEFAULT_TIME_LIMIT,
    expected: bool = True,
    seconds: float | None = DEFAULT_SECONDS,
) -> OrderSolution:
    """The best mission order of ``state`` (at the mission step) by ``method``, within budget.

    ``seconds`` bounds the whole answer's wall-clock time (``None``: no bound but the phases'
    own caps and a deadline in force; else a finite number > 0, or
    :class:`~solver.errors.OptionError`): every phase reads it, the plan's first (the
    exhaustive search, the CP-SAT model's construction and solve), then the expectimax over the
    reveals with what is left; a phase it cuts short is named in ``stopped`` and the answer is
    then the best found (at least the first legal order, ``optimal`` false; ``expected`` None).
    ``brute-force`` is exact within the budget; ``cp-sat`` refuses a model over
    :data:`MODEL_CAP` with an :class:`~solver.errors.OptionError`. ``expected=False``: no
    expectimax over the reveals (``expected`` stays ``None``; an agent playing the plan needs
    none). Under a :func:`~solver.search.limit.search_deadline` the sooner of the two holds.
    """
    budget = positive("seconds", seconds)
    if method not in METHODS:
        raise OptionError(f"unknown ordering method {method!r}; expected one of {METHODS}")
    with within_seconds(budget):
        solution = _solve(state, method, time_limit)
        if expected and solution.plan.reaches_unseen:
            played_out = expected_order(state, EXPECTED_STATES)
            cut = ("expected",) if played_out is None and deadline_passed() else ()
            return replace(solution, expected=played_out, stopped=solution.stopped + cut)
    return solution


def _solve(state: GuardiansState, method: str, time_limit: float) -> OrderSolution:
    """The plan by ``method``: the exhaustive search first (``auto``: up to :data:`AUTO_STATES`
    positions), then the CP-SAT model (``auto`` within :data:`MODEL_CAP`), within the deadline.
    The model is sized only up to the cap (a large forest's candidate walks are not all listed
    to learn that they are too many)."""
    cut: tuple[str, ...] = ()
    if method != "cp-sat":
        quick = bounded_best_order(state, AUTO_STATES if method == "auto" else None)
        if quick is not None:
            return OrderSolution(quick, True, "brute-force")
        cut = ("brute-force",) if deadline_passed() else ()
        if method == "brute-force":
            return _first_legal(state, cut)
    walks, size = model_size(state, MODEL_CAP)
    if size <= MODEL_CAP:
        answer = cpsat_order(state, time_limit=time_limit)
        cut += ("cp-sat",) if answer.stopped else ()
        found_by = "cp-sat" if answer.solved else "first-legal"  # never a label CP-SAT did not earn
        return OrderSolution(answer.plan, answer.optimal, found_by, stopped=cut)
    if method == "auto":
        return _first_legal(state, cut)
    raise OptionError(
        f"the position is too large for the CP-SAT model (at least {walks} candidate walks "
        f"x mission steps = {size}, over {MODEL_CAP}); --method auto answers with a legal order"
    )


def _first_legal(state: GuardiansState, cut: tuple[str, ...]) -> OrderSolution:
    """The first legal order as the answer (not optimal), ended at the deadline if it passes
    (``first-legal`` then joins the phases cut short)."""
    plan = first_legal_order(state, timed=True)
    return OrderSolution(
        plan, False, "first-legal", stopped=cut + (("first-legal",) if plan.cut else ())
    )
