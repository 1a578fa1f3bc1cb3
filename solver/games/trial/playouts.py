"""The Trial's ISMCTS: leaves valued by playing the heuristic agent's rules a few actions on.

At 64 simulations a decision, ISMCTS with the plain heuristic leaf value could not find the
heuristic agent's tactics (keep the items, take an encounter before the location) in the Trial's
wide turns, and lost to that agent. Here a new leaf of a determinisation is played on by the
heuristic agent's rules (chance by its probabilities) for at most :data:`PLAYOUT_DEPTH` actions,
then valued by the state's heuristic (its returns if the game ended): a "heavy playout". The
rules see only the determinised world the search is already in, so no hidden card of the real
state is read. The agent's tie-breaks draw from the search's own random stream, so a search
stays deterministic given its seed.
"""

from __future__ import annotations

import itertools
from dataclasses import dataclass
from typing import Any, ClassVar

from solver.game import CHANCE, TERMINAL, sample_chance
from solver.rng import SplitMix64, derive_seed
from solver.search.evaluators import PlayoutEvaluator as SharedPlayoutEvaluator
from solver.spec import check_iterations

__all__ = [
    "AGENT_SETTINGS",
    "PLAYOUT_C",
    "PLAYOUT_DEPTH",
    "PLAY_SIMULATIONS",
    "PlayoutEvaluator",
    "ismcts_agent",
    "search_options",
]

PLAYOUT_DEPTH = 48
"""Actions played on from a leaf, chance included (about seven turns of the Trial; tuned at
:data:`PLAY_SIMULATIONS`: ``docs/search.md``)."""
PLAYOUT_C = 0.4
"""The agent's UCB constant (returns in [0, 1])."""
PLAY_SIMULATIONS = 1000
"""The agent's play default: simulations a decision (``GameSpec`` declares it)."""
MULTIPLE_OBSERVERS = False
"""Whether the agent searches with multiple-observer ISMCTS (one tree per player)."""
THREADS = 1
"""The agent's root parallelism (trees searched at once, each a share of the simulations)."""
AGENT_SETTINGS = (
    f"leaves valued after up to {PLAYOUT_DEPTH} actions of the heuristic agent's rules, "
    f"c = {PLAYOUT_C}, {'multiple' if MULTIPLE_OBSERVERS else 'single'}-observer, "
    f"{THREADS} thread{'s' if THREADS > 1 else ''}"
)
"""The agent's search settings in words (benches and docs quote it)."""


@dataclass(frozen=True)
class PlayoutEvaluator(SharedPlayoutEvaluator):
    """The heuristic after up to ``depth`` actions of the heuristic agent's rules.

    The shared heavy playout (:class:`solver.search.PlayoutEvaluator`) with the Trial's policy:
    on the Python path the heuristic agent itself, seeded once a leaf from the search's stream
    (:meth:`evaluate`); a compiled Trial kernel would play its ``playout_action`` slot instead,
    as the shared class does on every kernel.
    """

    depth: int = PLAYOUT_DEPTH
    name: ClassVar[str] = "heuristic-playout"
    default_c: ClassVar[float] = PLAYOUT_C
    deterministic: ClassVar[bool] = False

    def policy(self, state: Any, rng: SplitMix64) -> int:
        """The heuristic agent's action at ``state``, its tie-breaks seeded from ``rng``."""
        from solver.games.trial.agents import heuristic_agent

        return heuristic_agent(None, seed=rng.next_u64() >> 1)(state)

    def evaluate(self, state: Any, rng: SplitMix64 | None = None) -> list[float]:
        from solver.games.trial.agents import heuristic_agent

        if callable(getattr(state, "playout_action", None)):
            # a compiled state: its slot's policy action by action, as the compiled loop plays
            return super().evaluate(state, rng)
        rng = rng if rng is not None else SplitMix64(0)
        world = state.clone()
        choose = heuristic_agent(None, seed=rng.next_u64() >> 1)
        for _ in range(self.depth):
            player = world.current_player()
            if player == TERMINAL:
                return [float(r) for r in world.returns()]
            # the outcome drawn and the agent's choice are legal there: not checked again
            if player == CHANCE:
                world.apply_legal(sample_chance(world, rng))
            else:
                world.apply_legal(choose(world))
        if world.is_terminal():
            return [float(r) for r in world.returns()]
        return [float(v) for v in world.heuristics()]


def search_options(state: Any) -> Any:
    """What hints and ``best-move`` search the Trial with (``GameSpec.ismcts_options``): the
    agent's heavy playouts and ``c`` on a state with a compiled playout policy (the kernel
    engine), else ISMCTS's own default (the heuristic leaf on the reference engine, whose Python
    playouts run about 20 simulations a second)."""
    from solver.search.ismcts import has_playout_policy, ismcts_options
    from solver.search.options import MCTSOptions

    if has_playout_policy(state):
        return MCTSOptions(c=PLAYOUT_C, evaluator=PlayoutEvaluator(depth=PLAYOUT_DEPTH))
    return ismcts_options(state)


def ismcts_agent(
    game: Any,
    *,
    seed: int = 0,
    iterations: int = PLAY_SIMULATIONS,
    depth: int = PLAYOUT_DEPTH,
    c: float = PLAYOUT_C,
    multiple_observers: bool = MULTIPLE_OBSERVERS,
    threads: int = THREADS,
) -> Any:
    """The Trial's ``ismcts`` agent: shared ISMCTS from the seat's own view with
    :class:`PlayoutEvaluator` leaves (it replaces the shared agent of that name for the Trial).
    On a compiled engine whose kernel fills the hidden-information slots the search is the
    compiled loop, its playouts the kernel's ``playout_action``; on the reference engine the
    Python ISMCTS with the heuristic agent in Python (``SearchResult.searcher`` says which).
    ``depth``, ``c``, ``multiple_observers`` and ``threads`` (root parallelism) default to the
    play settings above; the strength benches vary them."""
    from solver.errors import SearchBudgetError
    from solver.search.ismcts import ismcts

    check_iterations(iterations)
    counter = itertools.count()
    evaluator = PlayoutEvaluator(depth=depth)

    def choose(state: Any) -> int:
        legal = state.legal_actions()
        if len(legal) == 1:
            return int(legal[0])
        result = ismcts(
            state,
            iterations=iterations,
            top_k=1,  # the move alone: no labels read for the others
            seed=derive_seed(seed, next(counter)),
            evaluator=evaluator,
            c=c,
            multiple_observers=multiple_observers,
            threads=threads,
        )
        if result.best_action is None:
            raise SearchBudgetError(f"ISMCTS found no move in {iterations} iteration(s)")
        return int(result.best_action)

    return choose
