"""Playing whole games with agents in seats, and matches of many games with rotating seats.

Chance nodes are sampled from the game's exact probabilities with the library's own SplitMix64
(:mod:`solver.rng`), so a game is a pure function of (game, agents, seed). A match plays ``games``
games; with several players the agents' seats rotate from one game to the next (game ``g`` seats
agent ``i`` at ``(i + g) mod n``), so no agent keeps the first-player advantage.

A match's report has two views of the same games: ``players``, one entry per agent *name*
(agents of the same name merged: ``heuristic,heuristic,random`` gives two entries), and ``seats``,
one entry per agent *position* in the list given (three entries there), with the same fields;
an entry's ``seat`` is the position's first seat (the seat it held in game 0).

>>> import solver
>>> from solver.agents import make_agent
>>> game = solver.load_game("dog", forest="dog/tiny-example", engine="reference")
>>> record = play_game(game, [make_agent("greedy", game)], seed=1)
>>> record.final.is_terminal(), len(record.actions) == len(record.labels)
(True, True)
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import asdict, dataclass
from typing import Any

from solver.errors import OptionError
from solver.game import MAX_ACTIONS, Game, GameRecord, State, play_game, sample_chance
from solver.rng import derive_seed
from solver.spec import Agent
from solver.stats import wilson_interval

__all__ = [
    "MAX_ACTIONS",
    "GameRecord",
    "MatchReport",
    "PlayerReport",
    "play_game",
    "play_match",
    "sample_chance",
]


@dataclass(frozen=True)
class PlayerReport:
    """One agent's results over a match: an agent name's (merged over every position of that
    name, in ``players``) or one position's of the agents given (in ``seats``)."""

    seat: int
    agent: str
    wins: int
    win_rate: float
    ci_low: float
    ci_high: float
    mean_score: float

    def to_dict(self) -> dict[str, Any]:
        """The JSON object of ``--json``: every field, in order."""
        return asdict(self)


@dataclass(frozen=True)
class MatchReport:
    """A match's results: one entry per agent name (``players``), one per agent position
    (``seats``), and the games whose first place was shared."""

    game: str
    games: int
    seed: int
    players: tuple[PlayerReport, ...]
    ties: int
    seats: tuple[PlayerReport, ...] = ()

    def to_dict(self) -> dict[str, Any]:
        return {
            "game": self.game,
            "games": self.games,
            "seed": self.seed,
            "players": [p.to_dict() for p in self.players],
            "seats": [p.to_dict() for p in self.seats],
            "ties": self.ties,
        }


def _winners(returns: Sequence[float]) -> list[int]:
    """The seats in first place (a one-player game is won with a return above one half)."""
    if len(returns) == 1:
        return [0] if returns[0] > 0.5 else []
    best = max(returns)
    return [seat for seat, value in enumerate(returns) if value == best]


def _report(seat: int, agent: str, wins: int, games: int, score: float) -> PlayerReport:
    low, high = wilson_interval(wins, games)
    return PlayerReport(seat=seat, agent=agent, wins=wins, win_rate=wins / games, ci_low=low,
                        ci_high=high, mean_score=score)  # fmt: skip


def play_match(
    game: Game,
    agent_names: Sequence[str],
    agents: Sequence[Agent],
    *,
    games: int,
    seed: int,
    state: State | None = None,
    scores: Callable[[State], list[float]] | None = None,
    progress: Callable[[int], None] | None = None,
    on_action: Callable[[int, int], None] | None = None,
) -> MatchReport:
    """Play ``games`` games; agent ``i`` sits at seat ``(i + g) mod n`` in game ``g``.

    A game won outright counts one win for its winner's agent; a game whose first place is
    shared counts in ``ties`` and as no one's win. ``mean_score`` is the mean of ``scores`` (the
    game's final scores, by default its returns) over every seat the agent held. ``progress(g)``
    is called when ``g`` games are done, ``on_action(g, n)`` after the ``n``-th action of game
    ``g`` (counted from 1).
    """
    if games < 1:
        raise OptionError(f"--games must be at least 1, not {games}")
    n = game.num_players()
    if len(agents) != n or len(agent_names) != n:
        raise OptionError(f"{n} player(s) need {n} agent(s), not {len(agents)}")
    position_wins = [0] * n
    position_scores = [0.0] * n
    ties = 0
    for g in range(games):
        seating = [0] * n  # seating[seat] = index of the agent in that seat
        for i in range(n):
            seating[(i + g) % n] = i
        step = None if on_action is None else (lambda k, g=g: on_action(g + 1, k))
        record = play_game(
            game, [agents[i] for i in seating], seed=derive_seed(seed, g), state=state,
            on_action=step,
        )  # fmt: skip
        returns = record.final.returns()
        values = scores(record.final) if scores is not None else returns
        for seat, i in enumerate(seating):
            position_scores[i] += float(values[seat])
        first = _winners(returns)
        if len(first) == 1:
            position_wins[seating[first[0]]] += 1
        elif len(first) > 1:
            ties += 1
        if progress is not None:
            progress(g + 1)
    seats = tuple(
        _report(i, agent_names[i], position_wins[i], games, position_scores[i] / games)
        for i in range(n)
    )
    players = []
    for name in dict.fromkeys(agent_names):
        held = [i for i in range(n) if agent_names[i] == name]
        wins = sum(position_wins[i] for i in held)
        score = sum(position_scores[i] for i in held) / (games * len(held))
        players.append(_report(held[0], name, wins, games, score))
    return MatchReport(
        game=str(getattr(game, "name", "")),
        games=games,
        seed=seed,
        players=tuple(players),
        ties=ties,
        seats=seats,
    )
