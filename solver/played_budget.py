"""The budget an agent really plays at, for the words a command shows beside its result.

``forest GAME solve`` names the budget of the agent whose games it played. The budget asked
for (``--iterations``) is not always the one played: a level of the strength ladder fixes its
own (:func:`solver.ladder.level_agent` ignores ``--iterations``), and an agent declared with
no budget (the Trial's ``heuristic``, the dog's ``greedy``) searches nothing, whatever it is
given. Solve said 'level8 ... (no budget ...)' of the Trial's level8, which plays ismcts at 120
simulations, and '(5 simulations a decision)' of a heuristic given --iterations 5.
"""

from __future__ import annotations

from dataclasses import dataclass

from solver.spec import GameSpec

__all__ = ["PlayedBudget", "played_budget"]


@dataclass(frozen=True)
class PlayedBudget:
    """The budget ``iterations`` an agent plays at (``None``: none), in its own ``words``, and
    whether an ``--iterations`` asked for was set aside (``ignored``)."""

    iterations: int | None
    words: str
    ignored: bool


def played_budget(spec: GameSpec, name: str, asked: int | None) -> PlayedBudget:
    """What agent ``name`` of ``spec`` plays at when built with ``iterations=asked`` (``None``:
    its own default): a ladder level its rung's budget, in its rung agent's unit; an agent that
    takes no budget none; any other ``asked``, else its play default."""
    from solver.ladder import is_level, ladder, level_number

    agent, own = name, spec.agent(name)
    if name not in spec.offered_agents() and is_level(name):
        rung = ladder(spec.name)[level_number(name) - 1]
        agent = rung.agent
        own = spec.agent(agent)
        budget = rung.iterations if rung.iterations is not None else own.iterations
        return PlayedBudget(budget, own.budget_text(budget) if budget else "no budget",
                            ignored=asked is not None)  # fmt: skip
    if (
        own.iterations is None
    ):  # it takes none (it searches nothing, or to the end): one given it is not played
        return PlayedBudget(None, "no budget", ignored=asked is not None)
    budget = own.iterations if asked is None else asked
    return PlayedBudget(budget, own.budget_text(budget), ignored=False)
