"""A game's hint agent leads the moves its search values alike (``GameSpec.hint_agent``).

A search's heuristic can be blind where an agent plans: in forest guardians every tile placement
no pawn stands by gets the same heuristic value, so a hint listed them in the order of their
action ids and "suggested" the first (docs/rules/guardians.md §13). Where the game declares a
hint agent, the move it plays is listed first among the moves tied for the best value, and a note
says so: the values are the search's, unchanged; only the order among equals is the agent's.
Moves the search tells apart keep the search's order.
"""

from __future__ import annotations

import contextlib
import dataclasses
import time
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    import threading

    from solver.game import State
    from solver.search.result import SearchResult
    from solver.spec import GameSpec

ALIKE = 5e-5
"""Values closer than this are alike: half the last digit of the four decimals moves are shown
with, so moves that read the same are the ones reordered."""


def agent_first(
    spec: GameSpec,
    state: State,
    result: SearchResult | None,
    *,
    seed: int = 0,
    iterations: int | None = None,
    deadline: float | None = None,
    cancel: threading.Event | None = None,
) -> tuple[SearchResult | None, str | None]:
    """``result`` with the hint agent's move first among the moves valued alike with the best,
    and the note that says so; ``result`` unchanged and no note where the game declares no
    hint agent, the answer is exact, fewer than two moves share the best value, or the agent
    plays a move the search values lower (the search's order stands).

    ``deadline`` (``time.monotonic()``) and ``cancel``: a hint's budget. The agent plays under
    a :func:`~solver.search.limit.search_deadline` of them (its look-ahead stops there), and a
    choice made past it is not the agent's own (a look-ahead cut short): the search's order
    stands. Without them the agent plays on its own budget (``best-move``).

    ``iterations``: the search's budget, which the agent's never exceeds (its play default
    otherwise, :attr:`AgentSpec.iterations`): a search of a few simulations must not pay an
    agent its whole play budget to order its moves (``best-move --iterations 1``; the figures
    are in docs/hint-engine.md). A budget so cut is named in the note (the move is that
    budget's choice)."""
    from solver.agents import make_agent
    from solver.search.limit import search_deadline

    name = spec.hint_agent
    if name is None or result is None or result.exact or len(result.moves) < 2:
        return result, None
    if state.is_chance_node() or state.is_terminal():
        return result, None
    best = max(move.value for move in result.moves)
    alike = [move for move in result.moves if best - move.value < ALIKE]
    if len(alike) < 2:
        return result, None
    default = spec.agent(name).iterations
    budget = default if iterations is None or default is None else min(iterations, default)
    agent = make_agent(name, state.get_game(), seed=seed, iterations=budget)
    bounded = deadline is not None or cancel is not None
    with search_deadline(deadline, cancel) if bounded else contextlib.nullcontext():
        chosen = agent(state.clone())
    if (deadline is not None and time.monotonic() >= deadline) or (
        cancel is not None and cancel.is_set()
    ):
        return result, None
    first = next((move for move in alike if move.action == chosen), None)
    if first is None:
        return result, None
    moves = (first, *(move for move in result.moves if move is not first))
    # one wording for every position, so a turn's or a review's positions share one note
    note = (
        f"moves valued alike with the best: the first listed is what the {name} engine player "
        "would play"
    )
    if budget != default:
        note += f" given {spec.agent(name).budget_text(budget)}, the search's budget"
    ordered = dataclasses.replace(
        result, moves=moves, best_action=first.action, best_label=first.label
    )
    return ordered, note
