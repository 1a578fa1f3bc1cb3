"""The Trial's batch analysis: seeded self-play games of a set-up, their length, fame and ending.

An instance is a :class:`TrialSetup`: a seed, a player count, how many self-play games to play,
the length budget of each game (in actions, chance events included; the results' ``turns``
column) and the content pack (``None``: the shipped one). Rolled instances come from ``--count``
(``--size PxG``: ``P`` players, ``G`` games; ``--turns T``: the length budget); files are small
JSON documents (extension ``.trial``) whose ``pack`` may name a content-pack folder, relative to
the file.

:func:`analyse_source` plays the games: every seat the Trial's heuristic agent (seeded per game
and seat), every chance event drawn from its exact probabilities by a SplitMix64 stream seeded
from the instance's seed and the game's index, so a row is reproducible. Each game ends at the
rules' end (nobody has a paw or a tent left) or when it reaches the length budget ("stalled").
The games run on the ``kernel`` engine (:mod:`.kernel`), which agrees with the reference rules on
every observable (so a row is the same on either engine).

Classes (docs/analysis.md): ``stalled`` (some game hit the length budget), ``tied`` (some game
ended in a shared win), ``decided`` (every game had one winner, by fame or by the story-card
tie-break).

The skill measure (``forest analyse --skill-games G``, :func:`ladder_spread`): ``G`` games of the
set-up with the strength ladder's strongest level in one seat (seat ``g % players`` in game
``g``) against the set-up's agents, and ``G`` with its weakest level there, the same chance for
both; ``skill`` is the first win rate less the second. Off by default (the strongest level
searches every decision).

>>> hooks = analysis_hooks()
>>> list(hooks.classes)
['decided', 'tied', 'stalled']
>>> setup = hooks.roll(5, (3, 2), None)
>>> (setup.seed, setup.players, setup.games, setup.max_actions)
(5, 3, 2, 5000)
>>> parse_setup(hooks.dump(setup)) == setup
True
"""

from __future__ import annotations

import functools
import json
import os
from dataclasses import dataclass
from typing import Any

from solver.errors import FormatError
from solver.fields import field_error
from solver.files import parse_json
from solver.game import sample_chance
from solver.spec import AnalysisHooks

__all__ = [
    "ADVICE",
    "CLASSES",
    "COLUMNS",
    "DEFAULT_MAX_ACTIONS",
    "TrialSetup",
    "analyse_setup",
    "analyse_source",
    "analysis_hooks",
    "parse_setup",
]

DEFAULT_MAX_ACTIONS = 5000
"""The default length budget of one self-play game, in actions (a heuristic game of 4 players
takes about 800, of 2 players about 400)."""
MAX_GAMES = 64
"""The most self-play games per instance."""
AGENTS = ("heuristic", "random")
"""The agents a set-up may seat."""
ACTIONS_RANGE = (10, 100_000)
"""The length budgets ``--turns`` accepts."""

CLASSES: dict[str, str] = {
    "decided": "every self-play game ended with one winner (most fame, or the story-card "
    "tie-break)",
    "tied": "some self-play game ended in a shared win (same fame and same story-card count)",
    "stalled": "some self-play game was cut off at the action cap (--turns) before the rules "
    "ended it",
}
"""The classes, in report order, with their definitions."""

ADVICE: dict[str, str] = {
    "decided": "to look for ties, play more games per set-up (--size PxG with a larger G)",
    "tied": "every set-up had a shared win: check the content pack's fame values",
    "stalled": "raise the action cap (--turns) or check the content pack for a loop",
}
"""What to change when every set-up of a batch lands in one class."""

COLUMNS: dict[str, str] = {
    "players": "Int64",
    "games": "Int64",
    "turns": "Int64",
    "stalled_games": "Int64",
    "tied_games": "Int64",
    "story_breaks": "Int64",
    "mean_length": "float64",
    "max_length": "Int64",
    "winner_fame": "float64",
    "fame_spread": "float64",
    "first_seat_wins": "float64",
    "seat_wins": "string",
    "agents": "string",
    "skill_games": "Int64",
    "strongest_win_rate": "float64",
    "weakest_win_rate": "float64",
    "skill": "float64",
}
"""The result columns (besides the shared ones) with their types."""


@dataclass(frozen=True)
class TrialSetup:
    """One instance: a seed, players (2-4), self-play games, the length budget, the pack."""

    seed: int
    players: int
    games: int
    max_actions: int = DEFAULT_MAX_ACTIONS
    pack: str | None = None
    agents: tuple[str, ...] | None = None
    """The agent of each seat, ``"heuristic"`` or ``"random"`` (``None``: heuristic in every
    seat); a file may set it to study, say, the heuristic agent against random players."""


def _bad(field: str, expected: str, found: Any) -> FormatError:
    return field_error(f"set-up field {field!r}", expected, found)


def parse_setup(text: str, base: str | None = None) -> TrialSetup:
    """A set-up from its JSON text; a relative ``pack`` is resolved against ``base`` (a folder)."""
    data = parse_json(text, "a JSON object (a Trial set-up)")
    if not isinstance(data, dict):
        raise _bad("set-up", "a JSON object", data)
    unknown = sorted(set(data) - {"seed", "players", "games", "max_actions", "pack", "agents"})
    if unknown:
        raise _bad(
            unknown[0], "only seed, players, games, max_actions, pack and agents", unknown[0]
        )

    def whole(name: str, low: int, high: int, default: int | None = None) -> int:
        value = data.get(name, default)
        if isinstance(value, bool) or not isinstance(value, int) or not low <= value <= high:
            raise _bad(name, f"a whole number from {low} to {high}", value)
        return value

    pack = data.get("pack")
    if pack is not None:
        if not isinstance(pack, str) or not pack:
            raise _bad("pack", "a content-pack folder's path or null", pack)
        if base is not None and not os.path.isabs(pack):
            pack = os.path.normpath(os.path.join(base, pack))
    players = whole("players", 2, 4)
    agents = data.get("agents")
    if agents is not None:
        if (
            not isinstance(agents, list)
            or len(agents) != players
            or any(a not in AGENTS for a in agents)
        ):
            raise _bad(
                "agents", f"a list of {players} agents ({', '.join(AGENTS)}) or null", agents
            )
        agents = tuple(agents)
    return TrialSetup(
        seed=whole("seed", 0, 2**64 - 1),
        players=players,
        games=whole("games", 1, MAX_GAMES, 1),
        max_actions=whole("max_actions", *ACTIONS_RANGE, DEFAULT_MAX_ACTIONS),
        pack=pack,
        agents=agents,
    )


def format_setup(setup: TrialSetup) -> str:
    """The JSON text of a set-up (one line, keys in a fixed order)."""
    data: dict[str, Any] = {
        "seed": setup.seed,
        "players": setup.players,
        "games": setup.games,
        "max_actions": setup.max_actions,
        "pack": setup.pack,
    }
    if setup.agents is not None:
        data["agents"] = list(setup.agents)
    return json.dumps(data) + "\n"


def _random_agent(seed: int) -> Any:
    from solver.rng import SplitMix64

    rng = SplitMix64(seed)

    def choose(state: Any) -> int:
        legal = state.legal_actions()
        return int(legal[rng.below(len(legal))])

    return choose


def play_game(
    game: Any,
    seed: int,
    index: int,
    max_actions: int,
    seats: tuple[str, ...] | None = None,
    guest: tuple[int, Any] | None = None,
) -> tuple[Any, int]:
    """One seeded self-play game (``seats``: each seat's agent, default heuristic everywhere;
    ``guest``: ``(seat, agent)``, an agent that takes that seat instead); the final (or stalled)
    state and its length in actions."""
    from solver.games.trial.agents import heuristic_agent
    from solver.rng import SplitMix64, derive_seed

    chance = SplitMix64(derive_seed(seed, 2 * index))
    seat_seed = derive_seed(seed, 2 * index + 1)
    names = seats or ("heuristic",) * game.players
    agents = [
        heuristic_agent(game, seed=derive_seed(seat_seed, p))
        if name == "heuristic"
        else _random_agent(derive_seed(seat_seed, p))
        for p, name in enumerate(names)
    ]
    if guest is not None:
        agents[guest[0]] = guest[1]
    state = game.new_initial_state()
    length = 0
    while not state.is_terminal() and length < max_actions:
        if state.is_chance_node():
            action = sample_chance(state, chance)
        else:
            action = agents[state.current_player()](state)
        state.apply_action(action)
        length += 1
    return state, length


@functools.lru_cache(maxsize=8)
def trial_game(pack: str | None, players: int) -> Any:
    """The game of a set-up's pack and player count on the kernel engine (the compiled Trial; no
    fallback: without the compiled module this raises), built once per process: building it
    compiles the pack into the kernel's tables, which took half of a 4-game set-up's analysis.
    A game holds no play state (states are its children), so set-ups share it."""
    from solver.games.trial.kernel import KernelTrialGame

    return KernelTrialGame(pack, players)


def analyse_setup(setup: TrialSetup) -> dict[str, Any]:
    """The analysis row of a set-up (see the module docstring for the classes)."""
    from solver.games.trial.scoring import winners

    game = trial_game(setup.pack, setup.players)
    lengths: list[int] = []
    stalled = tied = story = 0
    winner_fame: list[int] = []
    spreads: list[int] = []
    seat_wins = [0.0] * setup.players
    for index in range(setup.games):
        state, length = play_game(game, setup.seed, index, setup.max_actions, setup.agents)
        lengths.append(length)
        if not state.is_terminal():
            stalled += 1
            continue
        fame = state.scores()
        best = winners(state)
        if len(best) > 1:
            tied += 1
        elif fame.count(max(fame)) > 1:
            story += 1
        winner_fame.append(fame[best[0]])
        spreads.append(max(fame) - min(fame))
        for p in best:
            seat_wins[p] += 1 / len(best)
    finished = setup.games - stalled
    klass = "stalled" if stalled else "tied" if tied else "decided"
    return {
        "width": setup.players,
        "height": setup.games,
        "class": klass,
        "players": setup.players,
        "games": setup.games,
        "turns": setup.max_actions,
        "stalled_games": stalled,
        "tied_games": tied,
        "story_breaks": story,
        "mean_length": sum(lengths) / len(lengths),
        "max_length": max(lengths),
        "winner_fame": sum(winner_fame) / finished if finished else None,
        "fame_spread": sum(spreads) / finished if finished else None,
        "first_seat_wins": seat_wins[0] / finished if finished else None,
        "seat_wins": ",".join(f"{w:g}" for w in seat_wins),
        "agents": ",".join(setup.agents or ("heuristic",) * setup.players),
    }


def ladder_spread(setup: TrialSetup, games: int) -> dict[str, Any]:
    """The skill measure's columns (module doc): ``games`` games of the set-up with the ladder's
    strongest level in seat ``g % players`` of game ``g`` and the set-up's agents in the other
    seats, and as many with its weakest level there, game ``g`` of both dealt the same chance;
    a level's win rate counts a shared win as 1/k."""
    from solver.games.trial import SPEC
    from solver.games.trial.scoring import winners
    from solver.render.tables import skill_columns
    from solver.rng import derive_seed

    game = trial_game(setup.pack, setup.players)
    seed = derive_seed(setup.seed, 1 << 20)  # apart from the self-play games' seeds
    rates = {}
    for level in ("level1", "level10"):
        build = SPEC.agent(level).build
        won = 0.0
        for g in range(games):
            seat = g % setup.players
            agent = build(game, seed=derive_seed(seed, g))
            state, _ = play_game(game, seed, g, setup.max_actions, setup.agents, (seat, agent))
            best = winners(state) if state.is_terminal() else []
            won += 1 / len(best) if seat in best else 0.0
        rates[level] = won / games
    return skill_columns(games, rates["level10"], rates["level1"])


def analyse_source(source: Any) -> dict[str, Any]:
    """The function ``forest analyse --game trial`` runs on each instance."""
    setup = source.load()
    row = analyse_setup(setup)
    games = getattr(source, "skill_games", 0)
    if games:
        row.update(ladder_spread(setup, games))
    return row


def load(path: str) -> TrialSetup:
    """A set-up read from a ``.trial`` file (its pack path relative to the file's folder)."""
    from solver.files import read_bytes

    data = read_bytes(path, "Trial set-up")
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError:
        raise FormatError("UTF-8 text (a Trial set-up)", line=1, column=1) from None
    return parse_setup(text, os.path.dirname(os.path.abspath(path)))


def report_sections(frame: Any, directory: Any, load_row: Any) -> list[str]:
    """The report's Trial section: per player count, the games, their length, fame and endings."""
    from solver.render.tables import md_table, numbers, skill_section

    players = numbers(frame, "players")
    rows: list[list[Any]] = []
    for count in sorted({int(p) for p in players.dropna()}):
        part = frame[(players == count).to_numpy()]
        games = numbers(part, "games")
        rows.append(
            [
                count,
                len(part),
                int(games.sum()),
                _mean(part, "mean_length", 0),
                _mean(part, "winner_fame", 1),
                _mean(part, "fame_spread", 1),
                _mean(part, "first_seat_wins", 2),
                int(numbers(part, "story_breaks").sum()),
                int(numbers(part, "tied_games").sum()),
                int(numbers(part, "stalled_games").sum()),
            ]
        )
    header = [
        "players",
        "set-ups",
        "games",
        "mean length (actions)",
        "winner's fame",
        "fame spread",
        "seat 0 wins",
        "story tie-breaks",
        "shared wins",
        "stalled",
    ]
    lines = [
        "## Self-play",
        "",
        "Means over the set-ups (rolled ones seat the heuristic agent "
        "everywhere; a set-up file may seat random players).",
        "",
    ]
    return [*lines, *md_table(header, rows), "", *skill_section(frame, directory, "set-up")]


def _mean(part: Any, column: str, digits: int) -> str:
    """The mean of ``column`` over the rows ``part``, or ``none`` where no row has a value (a
    set-up whose every game was cut off has no winner's fame: was printed ``nan``)."""
    from solver.render.tables import numbers

    mean = numbers(part, column).mean()
    return "none" if mean != mean else f"{mean:.{digits}f}"


def roll(seed: int, size: tuple[int, int], turns: int | None) -> TrialSetup:
    """The set-up of ``size`` (players, games) at ``turns`` actions a game at the most."""
    return TrialSetup(seed, size[0], size[1], DEFAULT_MAX_ACTIONS if turns is None else turns)


def analysis_hooks() -> AnalysisHooks:
    """The Trial's analysis hooks (see :class:`~solver.spec.AnalysisHooks`)."""
    return AnalysisHooks.of_module(
        __name__,
        dump=format_setup,
        value_column="winner_fame",
        budgets="self-play games (heuristic agents unless a set-up names others); each game "
        f"cut off at the action cap (default {DEFAULT_MAX_ACTIONS} actions, moves and chance "
        f"events alike; --turns); at most {MAX_GAMES} games per set-up",
        extension=".trial",
        noun="set-up",
        size_names=("players", "games"),
        size_ranges=((2, 4), (1, MAX_GAMES)),
        default_size=(2, 4),
        turns_range=ACTIONS_RANGE,
        turns_label="action cap (most actions a game may last, chance events included)",
        max_file_bytes=1 << 12,
        skill_games=True,
    )
