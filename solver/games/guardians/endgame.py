"""Forest guardians' solo endgame: the ``broad`` planner, playing its last rounds for the level's
threshold rather than for points (the default agent's solo player).

Why: a solo game is won when the score reaches the level's threshold, not by its size, and the
planner maximises expected points: in the last rounds a player a few points short should take
the turn (or the pool reset) most likely to reach the line, and a player past it the safest.
The planner's values cannot see that: they are one expectation per turn, blind to the spread.
So, at the growth step of the last :data:`ROUNDS` rounds (``rounds() - round < ROUNDS``):

1. The broad planner's turns are listed and valued as usual
   (:func:`~solver.games.guardians.planner.turn_options` with
   :func:`~solver.games.guardians.broad.breadth_for`); its best few (the planner's pick first)
   and, where the rules allow it, the pool reset are the candidates.
2. Each candidate is played out to the end of the game a few times: the turn as the planner
   plays it, every chance node drawn by
   :func:`~solver.games.guardians.keyed_chance.keyed_outcome` (common random numbers: sample ``j``
   of every candidate sees the same draws where the candidates leave the bag alike), the later
   turns by the planner without resets. How many candidates and play-outs is the decision's
   :class:`Budget` (:func:`budget`): fewer before the last round, whose play-outs are longer, so
   every decision keeps within the 0.5 s of CPU a move has.
3. A candidate's value is how many of its play-outs reach the threshold; the planner's pick is
   played unless another turn reaches it strictly more often (ties to the planner's order, so
   where the line is out of reach or safe whatever the turn, the planner's turn is played), and
   the reset is played where it reaches it more often than every turn, or as often as the best
   with a higher total score over the same play-outs. When the first play-outs of every
   candidate (the budget's ``batch``) agree (all reach it, or none), the rest are skipped; a
   candidate that can no longer reach it most often plays no more (that changes no pick).

Everything else (earlier rounds, the placements, the mission step) is the broad planner's play.
Deterministic given its seed: the play-outs of a decision are seeded by the seed, the round and
the bag's size (a reset changes it), so the agent is a function of the state and its seed.
Measured: docs/rules/guardians.md §13.

Two options, measured and left off by default (``bench/results/guardians_solo_playouts.md``):
``rounds`` plays more of the last rounds so (each round more multiplies the slowest decision's
time), and ``worlds`` has the turns before them voted by sampled worlds (determinized planning:
:func:`voted_turn`, :mod:`~solver.games.guardians.worlds`).
"""

from __future__ import annotations

from collections import Counter
from typing import Any, NamedTuple

from solver.errors import OptionError
from solver.games.guardians.actions import RESET, TAKE_ONE
from solver.games.guardians.broad import DEFAULT_BREADTH, breadth_for
from solver.games.guardians.keyed_chance import keyed_outcome
from solver.games.guardians.planner import (
    PLANNER_BREADTH,
    Breadth,
    TurnPlan,
    TurnPlayer,
    first_best,
    turn_options,
    wants_reset,
)
from solver.games.guardians.worlds import open_game_of, sample_world
from solver.rng import SplitMix64, derive_seed
from solver.spec import Agent

__all__ = [
    "EARLIER",
    "LAST",
    "ROUNDS",
    "SCALE",
    "SOLO_UNIT",
    "Budget",
    "budget",
    "endgame_agent",
    "playout_score",
]

ROUNDS = 2
"""The last rounds played for the threshold (2: the last round and the one before)."""


class Budget(NamedTuple):
    """What one decision weighs: the planner's best ``candidates`` turns (the reset besides),
    ``samples`` play-outs of each, and the early stop after ``batch`` where all agree (every
    candidate's play-outs all won, or none)."""

    candidates: int
    samples: int
    batch: int


LAST = Budget(3, 6, 3)
"""The last round's budget (play-outs of one round)."""
EARLIER = Budget(3, 3, 2)
"""Before the last round: play-outs of two rounds or more, each about twice the work (6 for
each of 4 candidates took up to 0.8 s of CPU, over the 0.5 s a move has)."""
SCALE = 4
"""The agent's default ``iterations`` (the ``lookahead``'s play default): the budgets above.
Another ``iterations`` scales every budget's play-outs by ``iterations / SCALE`` (at least 1)."""
SOLO_UNIT = "quarters of the solo endgame's play-outs (4: 6 a candidate in the last round)"
"""What ``iterations`` counts for this player, in the words a budget is shown with."""
ENDGAME_KEY = 7_000
"""Keeps the play-outs' seeds apart from the reset samples' (seeded by the round alone)."""
WORLDS_KEY = 9_000
"""Seeds the sampled worlds of ``worlds`` (apart from the play-outs' and the reset samples')."""


def endgame_agent(
    game: Any,
    *,
    seed: int = 0,
    iterations: int | None = None,
    rounds: int = ROUNDS,
    worlds: int = 0,
) -> Agent:
    """The solo endgame player (see the module docstring); ``iterations``: the budgets' scale
    (:data:`SCALE` by default: :data:`LAST` and :data:`EARLIER`; 8 plays twice as many
    play-outs, 1 a quarter, at least one; see :func:`budget`). ``rounds``:
    the last rounds played for the threshold (:data:`ROUNDS` by default; 0 is the broad
    planner, a whole game's count plays every round so). ``worlds``: before those rounds, the
    turn is voted by that many sampled worlds (:func:`voted_turn`; 0, the default: the broad
    planner's turn). With 2-4 players there is no threshold: it plays the broad planner's
    moves."""
    scale = SCALE if iterations is None else iterations
    for name, value, least in (
        ("rounds", rounds, 0),
        ("worlds", worlds, 0),
        ("iterations", scale, 1),
    ):
        if isinstance(value, bool) or not isinstance(value, int) or value < least:
            raise OptionError(
                f"the endgame's {name} must be a whole number >= {least}, not {value!r}"
            )
    player = TurnPlayer(seed, breadth=breadth_for(DEFAULT_BREADTH))
    if int(game.num_players()) != 1:
        return player.choose
    open_game = open_game_of(game) if worlds else None

    def choose(state: Any) -> int:
        from solver.games.guardians.rules import Phase

        legal = state.legal_actions()
        if len(legal) == 1:
            return int(legal[0])
        if state.phase != Phase.GROW:
            return player.choose(state)
        if state.rounds() - state.round < rounds:
            turn = closing_turn(state, legal, seed, player.breadth, scale)
        elif open_game is not None:
            turn = worlds_turn(state, legal, seed, player.breadth, (open_game, worlds))
        else:
            return player.choose(state)
        player.start(turn)
        return RESET if turn is None else int(turn.growth)

    return choose


def worlds_turn(
    state: Any, legal: list[int], seed: int, breadth: Breadth, sampled: tuple[Any, int]
) -> TurnPlan | None:
    """The broad planner's reset where its rule resets the pool (``None``), else the turn
    :func:`voted_turn` picks in ``sampled`` (the open game, the worlds)."""
    best = first_best(turn_options(state, False, breadth))
    if RESET in legal and wants_reset(state, best, seed, False, breadth):
        return None
    return voted_turn(state, *sampled, seed)


def voted_turn(state: Any, open_game: Any, worlds: int, seed: int) -> TurnPlan:
    """Determinized planning: in each of ``worlds`` sampled worlds
    (:func:`~solver.games.guardians.worlds.sample_world`, open backs) the planner plans its best
    turn; each votes for its tiles and cells (``take 1 tile``: the tile flipped); the most voted
    is played, ties to the world that voted first. The turn is rebuilt with the state's tile
    ids and played as the planner plays it (its walks and a flipped tile's placement planned
    when they come, with the backs hidden)."""
    rng = SplitMix64(derive_seed(derive_seed(seed, WORLDS_KEY + state.round), len(state.bag)))
    votes: Counter[tuple[Any, ...]] = Counter()
    plans: dict[tuple[Any, ...], TurnPlan] = {}
    for _ in range(worlds):
        world, back = sample_world(state, open_game, rng)
        best = first_best(turn_options(world, False, PLANNER_BREADTH))
        if best.growth == TAKE_ONE:
            tile = best.picked if best.picked is not None else best.placements[0][0]
            plan = TurnPlan(TAKE_ONE, (), -1, (), best.value, picked=back[tile])
            key: tuple[Any, ...] = (TAKE_ONE, plan.picked)
        else:
            placed = tuple((back[t], cell) for t, cell in best.placements)
            plan = TurnPlan(best.growth, placed, -1, (), best.value)
            key = (best.growth, frozenset(placed))
        votes[key] += 1
        plans.setdefault(key, plan)
    top = max(votes.values())
    return next(plans[key] for key in plans if votes[key] == top)


def closing_turn(
    state: Any, legal: list[int], seed: int, breadth: Breadth, scale: int = SCALE
) -> TurnPlan | None:
    """The turn (``None``: the pool reset) that reaches the threshold in the most play-outs:
    the planner's pick unless another turn does strictly better; the reset where it does
    strictly better than every turn, or as well as the best with a higher play-out score
    (``scale``: :func:`budget`'s)."""
    options = turn_options(state, False, breadth)
    best = first_best(options)
    ranked = sorted(
        range(len(options)), key=lambda i: (options[i] is not best, -options[i].value, i)
    )
    candidates: list[TurnPlan | None] = [
        options[i] for i in ranked[: budget(state, scale).candidates]
    ]
    turns = len(candidates)
    if RESET in legal:
        candidates.append(None)
    decision = derive_seed(derive_seed(seed, ENDGAME_KEY + state.round), len(state.bag))
    wins, scores = reaching(state, candidates, decision, budget(state, scale))
    top = max(wins[:turns])
    pick = wins.index(top)
    if RESET in legal and (wins[-1], scores[-1]) > (top, scores[pick]):
        return None
    return candidates[pick]


def budget(state: Any, scale: int = SCALE) -> Budget:
    """The decision's budget at ``state``: :data:`LAST` in the last round, :data:`EARLIER`
    before it, their play-outs and early-stop batch scaled by ``scale / SCALE`` (at least 1:
    scale 4 is the constants themselves, 8 twice their play-outs, 1 one play-out each)."""
    base = LAST if state.rounds() - state.round <= 0 else EARLIER
    if scale == SCALE:
        return base
    samples = max(1, base.samples * scale // SCALE)
    batch = min(samples, max(1, -(-base.batch * scale // SCALE)))
    return Budget(base.candidates, samples, batch)


def reaching(
    state: Any, candidates: list[TurnPlan | None], decision: int, weighed: Budget
) -> tuple[list[int], list[int]]:
    """How many of each candidate's play-outs reach the level's threshold, and the sum of their
    final scores (play-out ``j`` of every candidate seeded ``derive_seed(decision, j)``; as many
    as ``weighed`` (:func:`budget`'s) says, stopped after its batch where all agree).

    A candidate that can no longer reach the most (its count with every play-out left won
    still below another's count) plays no more: its count stays below the best, so the pick
    is the one every play-out would give, at the cost of the play-outs that can change it."""
    threshold = int(state.get_game().level.threshold)
    _, samples, batch = weighed
    wins = [0] * len(candidates)
    scores = [0] * len(candidates)
    live = list(range(len(candidates)))
    for j in range(samples):
        sample_seed = derive_seed(decision, j)
        for i in live:
            score = playout_score(state, candidates[i], sample_seed)
            wins[i] += score >= threshold
            scores[i] += score
        if j + 1 == batch and len(set(wins)) == 1 and wins[0] in (0, batch):
            break
        left = samples - j - 1
        live = [i for i in live if wins[i] + left >= max(wins)]
    return wins, scores


def playout_score(state: Any, turn: TurnPlan | None, sample_seed: int) -> int:
    """The final score of one play-out from ``state`` (solo, at the growth step): ``turn`` played
    by the planner (``None``: the pool reset, then the planner's turn), chance drawn by
    :func:`~solver.games.guardians.keyed_chance.keyed_outcome`, the later turns by the planner
    without resets."""
    from solver.games.guardians.rules import Phase

    here = state.clone()
    player = TurnPlayer(sample_seed, resets=False, breadth=PLANNER_BREADTH)
    player.start(turn)
    here.apply_action(RESET if turn is None else turn.growth)
    while not here.is_terminal():
        if here.is_chance_node():
            here.apply_action(keyed_outcome(here, sample_seed))
            continue
        legal = here.legal_actions()
        if len(legal) == 1:
            here.apply_action(legal[0])
        elif here.phase == Phase.GROW:
            here.apply_action(player.grow(here, legal))
        else:
            here.apply_action(player.follow(here, legal))
    return int(here.scores()[0])
