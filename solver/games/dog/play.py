"""Playing whole games: a seeded driver that records the dog's trail turn by turn.

An *agent* is any callable ``agent(state) -> action`` used at decision nodes; chance nodes are
sampled from the game's exact probabilities with a seeded generator, so a game is a pure function
of (forest, agent, seed).

The turn log has one record per turn played, quiet turns included. A quiet turn has no action:
the engine spends it inside the action that ended the turn before. It is one of

- ``skipped: another dog`` or ``skipped: squirrel``: the turn after investigating that
  distraction (both set "skip the next turn");
- ``resting``: the turn at stamina 0, which brings stamina back to 3.

A skipped turn comes first and a rest can follow it (a squirrel's -1 stamina can empty it), so a
quiet stretch is one skip, one rest, or a skip then a rest. The log tells them apart from the
state before and after the action that ended the turn: the distraction investigated by that
action (or the squirrel whose run it chose) is the skip's cause; the other quiet turns are rests.
Quiet turns at the very end of a lost game are logged too.

>>> import solver
>>> from solver.games.dog.play import play_game, random_agent
>>> game = solver.load_game("dog", forest="dog/tiny-example", engine="reference")
>>> record = play_game(game, random_agent(seed=1), seed=1)
>>> record.trail[0] == game.forest.start, record.won in (True, False)
(True, True)
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from solver.game import Game, State, sample_chance
from solver.games.dog.forest import Forest, Terrain
from solver.rng import SplitMix64, check_seed

Agent = Callable[[State], int]
SKIPPED_DOG = "skipped: another dog"
SKIPPED_SQUIRREL = "skipped: squirrel"
RESTING = "resting"
#: Every label a quiet turn (a turn with no action) may carry in the log.
QUIET_TURNS = (SKIPPED_DOG, SKIPPED_SQUIRREL, RESTING)


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


def random_agent(seed: int = 0) -> Agent:
    """An agent choosing uniformly among the legal actions, seeded."""
    rng = SplitMix64(check_seed(seed))

    def choose(state: State) -> int:
        return rng.pick(state.legal_actions())

    return choose


def play_game(game: Game, agent: Agent, seed: int = 0, state: State | None = None) -> PlayRecord:
    """Play to the end from ``state`` (default: the start), sampling chance with ``seed``."""
    rng = SplitMix64(check_seed(seed))
    state = state.clone() if state is not None else game.new_initial_state()
    forest = game.forest  # type: ignore[attr-defined]
    before = _view(state)
    trail = [_position(before)]
    turns: list[TurnRecord] = [] if state.is_terminal() else [TurnRecord(before["turn"])]
    while not state.is_terminal():
        action = sample_chance(state, rng) if state.is_chance_node() else agent(state)
        turns[-1].actions.append(state.action_to_string(action))
        state.apply_action(action)
        after = _view(state)
        turn = turns[-1].turn
        turns += quiet_turns(forest, before, after, terminal=state.is_terminal())
        if not state.is_terminal() and after["turn"] != turn:  # the action ended the turn
            turns.append(TurnRecord(after["turn"]))
        position = _position(after)
        if position != trail[-1]:
            trail.extend(_straight_cells(trail[-1], position))
        before = after
    return PlayRecord(final=state, trail=trail, turns=turns)


def quiet_turns(
    forest: Forest, before: dict[str, Any], after: dict[str, Any], *, terminal: bool
) -> list[TurnRecord]:
    """The quiet turns spent inside the one action between the views ``before`` and ``after``
    (``state.to_dict()``; ``terminal``: whether the state after it is final), in order: none
    unless the action ended its turn; after a loss, every turn up to the last one."""
    turn = before["turn"]
    if terminal:
        if after["outcome"] != "loss":
            return []
        return _quiet_turns(forest, before, after, turn + 1, after["turn"] + 1)
    return _quiet_turns(forest, before, after, turn + 1, after["turn"])


def _quiet_turns(
    forest: Forest, before: dict[str, Any], after: dict[str, Any], first: int, stop: int
) -> list[TurnRecord]:
    """Records for the quiet turns ``first..stop-1`` spent inside one action (see the module)."""
    skip = _skip_cause(forest, before, after)
    return [
        TurnRecord(turn, [skip if k == 0 and skip is not None else RESTING])
        for k, turn in enumerate(range(first, stop))
    ]


def _skip_cause(forest: Forest, before: dict[str, Any], after: dict[str, Any]) -> str | None:
    """Why the action between ``before`` and ``after`` skips the next turn, or None."""
    if before["phase"] == "squirrel":  # the action chose the squirrel's run
        return SKIPPED_SQUIRREL
    resolved = {tuple(c) for c in after["resolved"]} - {tuple(c) for c in before["resolved"]}
    for row, col in resolved:  # investigating ends the move: one distraction at most
        terrain = forest.terrain((row, col))
        if terrain == Terrain.DOG:
            return SKIPPED_DOG
        if terrain == Terrain.SQUIRREL:
            return SKIPPED_SQUIRREL
    return None


def _view(state: State) -> dict[str, Any]:
    return state.to_dict()  # type: ignore[attr-defined]


def _position(view: dict[str, Any]) -> tuple[int, int]:
    return (view["pos"][0], view["pos"][1])


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
