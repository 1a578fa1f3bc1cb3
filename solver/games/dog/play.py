"""Playing whole games: a seeded driver that records the dog's trail turn by turn.

An *agent* is any callable ``agent(state) -> action`` used at decision nodes; chance nodes are
sampled from the game's exact probabilities with a seeded generator, so a game is a pure function
of (forest, agent, seed).

>>> import solver
>>> from solver.games.dog.play import play_game, random_agent
>>> game = solver.load_game("dog", forest="dog/tiny-example", engine="reference")
>>> record = play_game(game, random_agent(seed=1), seed=1)
>>> record.trail[0] == game.forest.start, record.won in (True, False)
(True, True)
"""

from __future__ import annotations

import random
from collections.abc import Callable
from dataclasses import dataclass, field

from solver.game import Game, State

Agent = Callable[[State], int]
QUIET_TURN = "(no move: a skipped turn or a rest)"


@dataclass
class TurnRecord:
    """What happened in one turn: the labels of the actions taken (chance included)."""

    turn: int
    actions: list[str] = field(default_factory=list)


@dataclass
class PlayRecord:
    """A finished game: the final state, the cells the dog stood on in order, the turn log."""

    final: State
    trail: list[tuple[int, int]]
    turns: list[TurnRecord]

    @property
    def won(self) -> bool:
        return self.final.returns()[0] > 0.5


def sample_chance(state: State, rng: random.Random) -> int:
    """A chance outcome drawn by its exact probability."""
    outcomes = state.chance_outcomes()
    x = rng.random()
    total = 0.0
    for action, probability in outcomes:
        total += probability
        if x < total:
            return action
    return outcomes[-1][0]


def random_agent(seed: int = 0) -> Agent:
    """An agent choosing uniformly among the legal actions, seeded."""
    rng = random.Random(seed)

    def choose(state: State) -> int:
        return rng.choice(state.legal_actions())

    return choose


def play_game(game: Game, agent: Agent, seed: int = 0, state: State | None = None) -> PlayRecord:
    """Play to the end from ``state`` (default: the start), sampling chance with ``seed``."""
    rng = random.Random(seed)
    state = state.clone() if state is not None else game.new_initial_state()
    trail = [_position(state)]
    turns: list[TurnRecord] = []
    while not state.is_terminal():
        turn = _turn(state)
        if not turns or turns[-1].turn != turn:
            first_missing = turns[-1].turn + 1 if turns else 1
            for quiet in range(first_missing, turn):  # turns spent with no action at all
                turns.append(TurnRecord(quiet, [QUIET_TURN]))
            turns.append(TurnRecord(turn))
        action = sample_chance(state, rng) if state.is_chance_node() else agent(state)
        turns[-1].actions.append(state.action_to_string(action))
        state.apply_action(action)
        position = _position(state)
        if position != trail[-1]:
            trail.extend(_straight_cells(trail[-1], position))
    return PlayRecord(final=state, trail=trail, turns=turns)


def _position(state: State) -> tuple[int, int]:
    pos = state.to_dict()["pos"]  # type: ignore[attr-defined]
    return (pos[0], pos[1])


def _turn(state: State) -> int:
    return int(state.to_dict()["turn"])  # type: ignore[attr-defined]


def _straight_cells(a: tuple[int, int], b: tuple[int, int]) -> list[tuple[int, int]]:
    """The cells from ``a`` (excluded) to ``b`` along a straight line (forced runs)."""
    if a[0] != b[0] and a[1] != b[1]:
        return [b]
    dr = (b[0] > a[0]) - (b[0] < a[0])
    dc = (b[1] > a[1]) - (b[1] < a[1])
    cells = []
    r, c = a
    while (r, c) != b:
        r, c = r + dr, c + dc
        cells.append((r, c))
    return cells
