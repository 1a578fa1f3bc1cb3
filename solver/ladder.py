"""The strength ladder: ten agents from ``level1`` (a beginner) to ``level10`` (the strongest).

A level is one of the game's agents (:meth:`solver.spec.GameSpec.offered_agents`) at a fixed
budget, playing a uniformly random legal move instead of its own with probability ``noise``: a
:class:`solver.spec.Rung`. A game declares its ten rungs in its spec (``GameSpec.ladder``,
calibrated in ``bench/results/``); a game that declares none gets :func:`default_ladder`, built
from its strongest agent alone. Shared code knows no game here: it reads the declaration.

A level is deterministic given its seed: the agent's own searches are seeded from
``derive_seed(seed, 0)``, the noise from a SplitMix64 stream of ``derive_seed(seed, 1)``, which
the game's chance never reads (so the same dice or deals meet every level).

>>> import solver
>>> from solver.agents import make_agent
>>> game = solver.load_game("dog", forest="dog/tiny-2x2", engine="reference")
>>> [rung.agent for rung in ladder(game.name)][:2], level_names()[-1]
(['random', 'greedy'], 'level10')
>>> state = game.new_initial_state(); state.apply_action(11)
>>> agent = make_agent("level3", game, seed=4)
>>> state.action_to_string(agent(state)) in ("N", "E", "S", "W")
True
"""

from __future__ import annotations

import re

from solver.errors import OptionError, shortened
from solver.game import Game, State
from solver.rng import SplitMix64, check_seed, derive_seed
from solver.spec import Agent, AgentFactory, GameSpec, Rung

__all__ = [
    "LEVELS",
    "default_ladder",
    "is_level",
    "ladder",
    "level_agent",
    "level_factory",
    "level_names",
    "level_number",
    "rung_agent",
]

LEVELS = 10
"""How many levels every game's ladder has."""

_NAME = re.compile(r"level([1-9][0-9]*|0)")  # no leading zero: "level05" is no level name


def level_names() -> list[str]:
    """``["level1", ..., "level10"]``."""
    return [f"level{k}" for k in range(1, LEVELS + 1)]


def is_level(name: str) -> bool:
    """Whether ``name`` reads as a level's name (``level`` and a number, in range or not)."""
    return _NAME.fullmatch(name) is not None


def level_number(name_or_number: str | int) -> int:
    """The level ``K`` of ``"levelK"`` or of ``K`` itself (an :class:`OptionError` outside 1-10)."""
    value: object = name_or_number
    if isinstance(name_or_number, str):
        found = _NAME.fullmatch(name_or_number)
        digits = found.group(1) if found else ""
        # a number of thousands of digits is no level (and more than int() converts)
        value = int(digits) if 0 < len(digits) <= 3 else name_or_number
    if isinstance(value, bool) or not isinstance(value, int) or not 1 <= value <= LEVELS:
        said = shortened(str(name_or_number)) if isinstance(name_or_number, str) else name_or_number
        raise OptionError(f"a strength is a level from 1 to {LEVELS}, not {said!r}")
    return value


def default_ladder(spec: GameSpec) -> tuple[Rung, ...]:
    """The ladder of a game that declares none, from its strongest agent alone.

    ``level10`` is the strongest agent at its play default. With a search budget ``B`` there,
    level ``k`` from 2 to 9 searches ``B / 2**(10 - k)`` simulations (at least one), levels 2 and 3
    also playing a random move half and a quarter of the time; ``level1`` plays at random. An
    agent that takes no budget is diluted instead: level ``k`` plays a random move with
    probability ``(10 - k) / 9``.
    """
    strongest = spec.strongest_agent
    budget = spec.play_iterations(strongest)
    rungs = [Rung("random", summary="uniform among the legal moves")]
    for k in range(2, LEVELS):
        if budget is None:
            noise = round((LEVELS - k) / (LEVELS - 1), 4)
            rungs.append(Rung(strongest, noise=noise))
        else:
            noise = {2: 0.5, 3: 0.25}.get(k, 0.0)
            rungs.append(Rung(strongest, max(1, budget >> (LEVELS - k)), noise))
    rungs.append(Rung(strongest, budget))
    return tuple(rungs)


def ladder(game_name: str) -> tuple[Rung, ...]:
    """The ten rungs of game ``game_name``: its declared ladder, else :func:`default_ladder`."""
    from solver.registry import game_spec

    spec = game_spec(game_name)
    return spec.ladder if spec.ladder is not None else default_ladder(spec)


def level_agent(
    game: Game,
    level: int | str,
    *,
    seed: int = 0,
    iterations: int | None = None,
    memory_mb: float | None = None,
) -> Agent:
    """The agent of ``level`` (1-10 or ``"levelK"``) for ``game``, seeded.

    A level fixes its own budget, so that it is the same agent wherever it is named:
    ``iterations`` (a command's ``--iterations``) does not change it. ``memory_mb`` reaches an
    exact agent's table cap.
    """
    k = level_number(level)
    return rung_agent(game, ladder(game.name)[k - 1], seed=seed, memory_mb=memory_mb)


def rung_agent(game: Game, rung: Rung, *, seed: int = 0, memory_mb: float | None = None) -> Agent:
    """The agent of one rung for ``game``, seeded (module doc): a level's agent, or a candidate
    rung's while a ladder is being calibrated (``bench/ladder_calibration.py``)."""
    from solver.agents import make_agent

    check_seed(seed)
    inner = make_agent(
        rung.agent, game, seed=derive_seed(seed, 0), iterations=rung.iterations,
        memory_mb=memory_mb,
    )  # fmt: skip
    if rung.noise <= 0.0:
        return inner
    return _noisy(inner, rung.noise, SplitMix64(derive_seed(seed, 1)))


def level_factory(name: str) -> AgentFactory:
    """An agent factory (``factory(game, *, seed, iterations=None, memory_mb=None)``) for the
    level ``name`` (checked at once: an :class:`OptionError` outside level1-level10)."""
    k = level_number(name)

    def factory(
        game: Game, *, seed: int = 0, iterations: int | None = None, memory_mb: float | None = None
    ) -> Agent:
        return level_agent(game, k, seed=seed, iterations=iterations, memory_mb=memory_mb)

    return factory


def _noisy(inner: Agent, noise: float, rng: SplitMix64) -> Agent:
    """``inner``, but a uniformly random legal move with probability ``noise`` (one draw per
    decision, and the random move's draw only when it is taken; ``inner`` is asked only when
    its move is played, so its own seeded searches stay in step)."""

    def choose(state: State) -> int:
        if rng.uniform() < noise:
            return int(rng.pick(state.legal_actions()))
        return int(inner(state))

    return choose
