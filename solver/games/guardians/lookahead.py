"""Forest guardians' ``lookahead`` agent: the planner, with a search over its best turns of what
they leave the other players.

Why: the ``planner`` values a turn by the position it leaves its own forest (points won, the
pawns' mission prospects), blind to the other players: their turns take tiles from the same
pool, race to the mission limit and end the game. MCTS over single actions (the ``mcts`` agent)
sees them but spends its budget on the placements' wide branching and lost to the planner. This
agent searches where the planner is blind and trusts it where it is good:

1. At the growth step the planner lists its candidate turns with their values
   (:func:`~solver.games.guardians.planner.turn_options`), its candidate lists ``breadth``
   times as long (:data:`BREADTH` unless told: the ``broad`` agent's lists, the stronger solo
   player's), in the *2-4 player reading*
   (``aware``: the turns left estimated from the bag and the mission race, the combo cards
   counted); its reset rule applies as in the planner.
2. The best ``min(candidates, iterations)`` (``candidates``: :data:`CANDIDATES` unless told; by
   the planner's value, the prior) are each played out on a copy of the state, ``iterations``
   continuations shared out evenly (at least one each): the turn as the planner plays it, then
   every chance node sampled, every other player's turn played by the planner, up to this
   player's next growth step (or the end).
3. A continuation is valued by the best other player's projected final score
   (:func:`~solver.games.guardians.planner.projected_score`), and a candidate by the planner's
   value of the turn less the mean of that projection.
4. The candidate with the best value is played (ties to the planner's order), and the rest of
   the turn is the planner's.

Chance in a continuation is drawn by :func:`~solver.games.guardians.keyed_chance.keyed_outcome`
(common random numbers: candidates that leave the bag alike see the same refills). In solo there
is nobody to search, so the agent plays the solo endgame player's moves
(:mod:`~solver.games.guardians.endgame`: the ``broad`` agent, the planner searching more of its
candidate turns, playing its last two rounds for the level's threshold: the strongest solo
player; docs/rules/guardians.md §13 says why, and why a continuation is not valued at the
player's own next turn instead); there ``iterations`` scales its play-outs
(:data:`~solver.games.guardians.endgame.SOLO_UNIT`). Deterministic for a seed and a budget:
decision ``k`` of a game samples from ``derive_seed(seed, k)``.

>>> import solver
>>> opened = solver.game_spec("guardians").open("guardians/order-matters")
>>> agent = lookahead_agent(opened.game, seed=1, iterations=4)
>>> opened.state.action_to_string(agent(opened.state))   # the chain first: 2 missions, not 1
'walk green pawn: (1,2) -> (0,2) (0,3)'
"""

from __future__ import annotations

import itertools
from typing import Any

from solver.games.guardians.keyed_chance import keyed_outcome
from solver.rng import derive_seed
from solver.spec import Agent, check_iterations

__all__ = [
    "BREADTH",
    "CANDIDATES",
    "DEFAULT_ITERATIONS",
    "WIN_BONUS",
    "continuation_value",
    "keyed_outcome",
    "leaf_margin",
    "lookahead_agent",
    "rivals_projection",
]

BREADTH = 4
"""The factor of the planner's candidate lists at the growth step: the ``broad`` agent's (1: the
planner's lists, the default before; measured in docs/rules/guardians.md §13)."""
CANDIDATES = 4
"""How many of the planner's best turns are played out (at most; fewer with a smaller budget)."""
DEFAULT_ITERATIONS = 4
"""Continuations per growth decision (one per candidate). Larger budgets (more continuations
each, or more candidates) were measured and gained nothing: docs/rules/guardians.md §13."""
AWARE = True
"""The planner's 2-4 player reading (:func:`~solver.games.guardians.planner._base_context`)."""
WIN_BONUS = 5.0
"""Points added to (taken from) :func:`leaf_margin` for a game won (lost)."""


def lookahead_agent(
    game: Any,
    *,
    seed: int = 0,
    iterations: int | None = None,
    candidates: int = CANDIDATES,
    breadth: int = BREADTH,
) -> Agent:
    """The guardians ``lookahead`` agent (see the module docstring); ``candidates``: how many of
    the planner's best turns are played out at most (:data:`CANDIDATES`; the budget sweep of
    ``bench/guardians_match.py --candidates`` sets it); ``breadth``: the factor of the planner's
    candidate lists (:data:`BREADTH`; ``--breadth`` there)."""
    from solver.games.guardians.broad import breadth_for
    from solver.games.guardians.planner import TurnPlayer

    if iterations is None:
        iterations = DEFAULT_ITERATIONS
    check_iterations(iterations)
    check_iterations(candidates, "candidates")
    if int(game.num_players()) == 1:  # nobody to search: the solo endgame player
        from solver.games.guardians.endgame import endgame_agent

        return endgame_agent(game, seed=seed, iterations=iterations)  # 4: its own budgets
    budget = iterations
    lists = breadth_for(breadth)
    player = TurnPlayer(seed, aware=AWARE)
    counter = itertools.count()

    def choose(state: Any) -> int:
        from solver.games.guardians.rules import Phase

        legal = state.legal_actions()
        if len(legal) == 1:
            return int(legal[0])
        if state.phase != Phase.GROW:
            return player.follow(state, legal)
        return grow(state, legal)

    def grow(state: Any, legal: list[int]) -> int:
        from solver.games.guardians.actions import RESET
        from solver.games.guardians.planner import first_best, turn_options, wants_reset

        options = turn_options(state, AWARE, lists)
        best = first_best(options)
        decision = derive_seed(seed, next(counter))
        if RESET in legal and wants_reset(state, best, seed, AWARE):
            player.start(None)
            return RESET
        ranked = sorted(
            range(len(options)), key=lambda i: (options[i] is not best, -options[i].value, i)
        )
        top = [options[i] for i in ranked[: min(candidates, budget)]]
        if len(top) > 1 and state.get_game().num_players() > 1:
            values = weigh(state, top, max(1, budget // len(top)), decision)
            if values:  # none: a search_deadline passed first; the planner's best (top[0])
                best = top[max(range(len(values)), key=lambda i: (values[i], -i))]
        player.start(best)
        return int(best.growth)

    return choose


def weigh(state: Any, top: list[Any], samples: int, decision: int) -> list[float]:
    """Each candidate turn's value plus the mean of its continuations: ``samples`` rounds, each
    one continuation of every candidate (continuation ``j`` seeded ``derive_seed(decision,
    j)``). Under a :func:`~solver.search.limit.search_deadline` the search stops once it has
    passed, checked between continuations and at each decision inside one (a continuation cut
    short counts for nothing): the values of the rounds completed, every candidate weighed over
    the same rounds, or if the first round was cut, those of the candidates it valued (a prefix
    of ``top``, maybe none). A table session's step keeps to its seconds whatever
    ``iterations`` asked; without a deadline the search is as it was, move for move."""
    from solver.search.limit import deadline_passed

    sums = [0.0] * len(top)
    done = 0
    while done < samples:
        row: list[float] = []
        for turn in top:
            value = (
                None
                if deadline_passed()
                else _continuation(state, turn, derive_seed(decision, done))
            )
            if value is None:
                break
            row.append(value)
        if len(row) < len(top):  # the deadline cut this round
            if done == 0:
                return [turn.value + value for turn, value in zip(top, row, strict=False)]
            break
        for i, value in enumerate(row):
            sums[i] += value
        done += 1
        if deadline_passed():
            break
    return [turn.value + total / done for turn, total in zip(top, sums, strict=True)]


def continuation_value(state: Any, turn: Any, sample_seed: int) -> float:
    """One continuation of ``turn`` from ``state`` (at the growth step): the turn played by the
    planner, chance drawn by :func:`keyed_outcome`, the other players' turns by the planner (no
    resets), up to the mover's next growth step or the end; minus the best other player's
    projected final score there (:func:`rivals_projection`)."""
    value = _continuation(state, turn, sample_seed, timed=False)
    assert value is not None
    return value


def _continuation(state: Any, turn: Any, sample_seed: int, timed: bool = True) -> float | None:
    """:func:`continuation_value`; ``timed``: ``None`` once a
    :func:`~solver.search.limit.search_deadline` in force has passed (checked at each decision)."""
    from solver.games.guardians.planner import TurnPlayer
    from solver.games.guardians.rules import Phase
    from solver.search.limit import deadline_passed

    here = state.clone()
    me = int(here.current_player())
    mine = TurnPlayer(sample_seed, aware=AWARE)
    mine.start(turn)
    others = TurnPlayer(sample_seed, resets=False)
    here.apply_action(turn.growth)
    while not here.is_terminal():
        if here.is_chance_node():
            here.apply_action(keyed_outcome(here, sample_seed))
            continue
        who = int(here.current_player())
        if who == me and here.phase == Phase.GROW:
            break
        if timed and deadline_passed():
            return None
        legal = here.legal_actions()
        if len(legal) == 1:
            here.apply_action(legal[0])
        elif who == me:
            here.apply_action(mine.follow(here, legal))
        else:
            here.apply_action(others.choose(here))
    return -rivals_projection(here, me)


def rivals_projection(state: Any, me: int) -> float:
    """The best projected final score among the other players (0 in solo)."""
    from solver.games.guardians.planner import projected_score

    players = int(state.get_game().num_players())
    return max((projected_score(state, p, AWARE) for p in range(players) if p != me), default=0.0)


def leaf_margin(state: Any, me: int) -> float:
    """The planner's projected final score of ``me`` less the best other player's (solo: less
    the level's threshold); :data:`WIN_BONUS` more (less) for a game already won (lost). A
    position's value for analysis and tests (the agent itself weighs the turn by
    :func:`continuation_value`)."""
    from solver.games.guardians.planner import projected_score

    game = state.get_game()
    mine = projected_score(state, me, AWARE)
    if int(game.num_players()) == 1:
        level = game.reference.level if hasattr(game, "reference") else game.level
        margin = mine - float(level.threshold)
    else:
        margin = mine - rivals_projection(state, me)
    if state.is_terminal():
        margin += WIN_BONUS * (2.0 * float(state.returns()[me]) - 1.0)
    return margin
