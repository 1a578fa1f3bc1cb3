"""The skill measure of one forest: how much better the strongest level does than the weakest.

The strongest level of the dog's ladder (``level10``) is the optimal policy, whose win
probability is the analysis' ``win_probability``; the weakest (``level1``) picks uniformly among
the legal actions at every decision. The forest's *skill* is the difference: near 0 the dice
decide (a beginner does as well as the best player, or nobody can win), near 1 the choices do.

The weakest level's win probability is computed exactly where that is cheap: the uniform policy
is a fixed stochastic policy, so its value is an expectimax in which a decision averages over its
actions as a chance node does over its outcomes (:func:`uniform_value`), within
``weakest_max_nodes`` stored positions. Random play wanders far more than the optimal policy (it
revisits the forest with every stamina, curiosity and marked-cell combination), so on rolled 9x9
forests at 8 turns the exact search fits in a quarter of them; elsewhere the value is sampled:
``weakest_games`` random games, the same policy, with the dice by their probabilities
(:func:`uniform_playouts`), and reported with its 95% Wilson interval.

Both searches run in C on the compiled kernel (``ext/dog.pyx``: ``uniform_value``,
``random_playouts``) with pure-Python twins over either engine (:func:`uniform_value_reference`,
:func:`uniform_playouts_reference`): the same positions in the same order and the same sums, or
the same draws from the same SplitMix64 stream, so a row is the same on both engines.

>>> from solver.games.dog.forest import Forest, Terrain
>>> grid = [[Terrain.OPEN] * 3 for _ in range(2)]
>>> forest = Forest(width=3, height=2, cells=grid, start=(1, 0), human=(0, 2), turns=2)
>>> weakest = weakest_win_probability(forest, AnalysisOptions(), source="x")
>>> round(weakest.value, 6), weakest.method, uniform_value_reference(forest, 1000)[1]
(0.597222, 'exact', 47)
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from solver.games.dog import SPEC
from solver.games.dog.analysis.options import AnalysisOptions, derived_seed
from solver.games.dog.analysis.soonest import distances_to_human, turn_reach
from solver.games.dog.forest import Forest
from solver.rng import SplitMix64, sample_outcome
from solver.stats import wilson_interval

__all__ = [
    "WeakestLevel",
    "skill_of",
    "uniform_playouts",
    "uniform_playouts_reference",
    "uniform_value",
    "uniform_value_reference",
    "weakest_win_probability",
]


@dataclass(frozen=True)
class WeakestLevel:
    """The weakest level's win probability on one forest, its 95% interval (the value itself when
    exact) and how it was made: ``exact`` (:func:`uniform_value`), ``sampled`` (random games) or
    ``class`` (0 without a search: no policy wins an unreachable or hopeless forest)."""

    value: float
    low: float
    high: float
    method: str


def skill_of(win_probability: float, weakest: float) -> float:
    """The skill measure: the optimum less the weakest level's value, at least 0 (a sampled
    weakest value may exceed an optimum it cannot truly pass by its own sampling error).

    >>> skill_of(0.75, 0.25), skill_of(0.01, 0.0125)
    (0.5, 0.0)
    """
    return max(0.0, round(win_probability - weakest, 12))


def _prune(forest: Forest) -> Any:
    """``hopeless(state)``: the dog is farther from the human than the turns left can cover."""
    distance = distances_to_human(forest)
    reach = turn_reach(forest)

    def hopeless(state: Any) -> bool:
        d = distance.get(tuple(state.pos))
        return d is None or d > reach * (forest.turns - state.turn + 1)

    return hopeless


def _key(state: Any) -> Any:
    return state._to_bytes() if hasattr(state, "_to_bytes") else state.to_json()


def _moves(state: Any) -> list[tuple[int, float]]:
    """A chance node's outcomes, or a decision's legal actions each with probability 1/n."""
    if state.is_chance_node():
        return [(int(a), float(p)) for a, p in state.chance_outcomes()]
    actions = state.legal_actions()
    return [(int(a), 1.0 / len(actions)) for a in actions]


def uniform_value_reference(
    forest: Forest, max_nodes: int, engine: str | None = None
) -> tuple[float | None, int]:
    """The uniform policy's exact win probability on ``forest`` in pure Python (the twin of the
    compiled search, module doc): ``(value, positions stored)``, ``(None, max_nodes)`` when more
    would be stored."""
    root = SPEC.build(engine=engine, forest=forest).new_initial_state()
    hopeless = _prune(forest)
    if root.is_terminal():
        return (1.0 if root.won else 0.0), 0
    if hopeless(root):
        return 0.0, 0
    values: dict[Any, float] = {}
    stack: list[list[Any]] = [[root, _key(root), _moves(root), 0, 0.0]]
    while stack:
        frame = stack[-1]
        state, key, moves, i, acc = frame
        if i == len(moves):
            if len(values) >= max_nodes:
                return None, len(values)
            values[key] = acc
            stack.pop()
            if not stack:
                return acc, len(values)
            parent = stack[-1]
            parent[4] += parent[2][parent[3]][1] * acc
            parent[3] += 1
            continue
        action, p = moves[i]
        child = state.child(action)
        if child.is_terminal():
            v = 1.0 if child.won else 0.0
        elif hopeless(child):
            v = 0.0
        else:
            child_key = _key(child)
            if child_key not in values:
                stack.append([child, child_key, _moves(child), 0, 0.0])
                continue
            v = values[child_key]
        frame[4] = acc + p * v
        frame[3] = i + 1
    raise AssertionError("unreachable")  # pragma: no cover


def uniform_value(
    forest: Forest, max_nodes: int, engine: str | None = None
) -> tuple[float | None, int]:
    """The uniform policy's exact win probability: compiled on the kernel engine, else
    :func:`uniform_value_reference` (the same answer)."""
    game = SPEC.build(engine=engine, forest=forest)
    if game.engine != "kernel":
        return uniform_value_reference(forest, max_nodes, engine)
    from solver.games.dog.kernel import extension_module

    value, nodes = extension_module().uniform_value(
        game.new_initial_state(), max_nodes, turn_reach(forest)
    )
    return (None if value is None else float(value)), int(nodes)


def uniform_playouts_reference(game: Any, games: int, seed: int) -> int:
    """Wins of ``games`` uniformly random games in pure Python, drawn as the compiled
    ``random_playouts`` draws them (one SplitMix64 stream: a chance outcome by one uniform draw,
    a decision by one ``below``), so the same count."""
    rng = SplitMix64(seed)
    wins = 0
    for _ in range(games):
        state = game.new_initial_state()
        while not state.is_terminal():
            if state.is_chance_node():
                action = sample_outcome(state.chance_outcomes(), rng)
            else:
                legal = state.legal_actions()
                if not legal:
                    break
                action = legal[rng.below(len(legal))]
            state.apply_action(action)
        wins += bool(state.is_terminal() and state.won)
    return wins


def uniform_playouts(forest: Forest, games: int, seed: int, engine: str | None = None) -> int:
    """Wins of ``games`` uniformly random games from ``seed``: compiled on the kernel engine,
    else :func:`uniform_playouts_reference` (the same count)."""
    game = SPEC.build(engine=engine, forest=forest)
    if game.engine != "kernel":
        return uniform_playouts_reference(game, games, seed)
    from solver.games.dog.kernel import extension_module

    played, _, wins = extension_module().random_playouts(game, games, seed)
    assert played == games
    return int(wins)


def weakest_win_probability(
    forest: Forest, options: AnalysisOptions, *, source: str
) -> WeakestLevel:
    """The weakest level's win probability on ``forest``: exact within ``weakest_max_nodes``
    stored positions, else sampled over ``weakest_games`` games seeded from the source (module
    doc)."""
    value, _ = uniform_value(forest, options.weakest_max_nodes, options.engine)
    if value is not None:
        value = min(1.0, max(0.0, value))
        return WeakestLevel(value, value, value, "exact")
    games = options.weakest_games
    seed = derived_seed(options.seed, source, "weakest")
    wins = uniform_playouts(forest, games, seed, options.engine)
    low, high = wilson_interval(wins, games)
    return WeakestLevel(wins / games, low, high, "sampled")
