"""OpenSpiel interop: every registered game as a pyspiel Python game (extra ``[openspiel]``).

After :func:`register`, OpenSpiel users load a game like any other, as ``forest_<name>``::

    import pyspiel
    from solver.interop import openspiel
    openspiel.register()                       # every registered game; or register("dog")
    game = pyspiel.load_game("forest_dog", {"forest": "dog/tiny-example"})

The parameters are the game's file (named by ``GameSpec.file_parameter``: ``forest`` for the dog,
``source`` otherwise; the default is ``GameSpec.example``, or the game's default set-up), the
``engine`` and, for games of several player counts, ``players``: by default the game's own
count, as ``solver.load_game(NAME)``, ``forest NAME play`` and a hint request have it (the
count its opener gives when none is asked: guardians 2, the Trial 4), not the smallest it
allows; a file or saved state that fixes its count (a solo guardians position) keeps it unless
another count than the default is asked, and ``get_parameters()["players"]`` says the count
played. The action ids and chance outcomes are exactly those of ``solver.load_game``; each
pyspiel state wraps one of this library's states. Games with hidden information (states with
``information_state_string``) are registered as imperfect-information games, and their
observers give each player's information state and observation strings.

Hidden information: :func:`ismcts_bot` is a ``pyspiel.Bot`` playing this library's ISMCTS on a
registered game's states (the compiled loop wherever the game's engine is a kernel that fills the
hidden-information slots, ``docs/search.md``), and :func:`resampler` is what OpenSpiel's own
``ISMCTSBot.set_resampler`` needs to redeal a state from a player's view. :func:`register_spec`
registers a game declared by a :class:`~solver.spec.GameSpec` that is not in the registry (a
plug-in under development, a test game).

Known limitation of OpenSpiel 2.0.2: the C++ ``pyspiel.MCTSBot(...).step(state)`` crashes on
Python-defined games, while ``MCTSBot.mcts_search(state)`` works; use the latter (or OpenSpiel's
pure-Python ``open_spiel.python.algorithms.mcts.MCTSBot``).

>>> import pytest; pyspiel = pytest.importorskip("pyspiel")
>>> register("dog")
['forest_dog']
>>> game = pyspiel.load_game("forest_dog", {"forest": "dog/tiny-example"})
>>> state = game.new_initial_state()
>>> state.is_chance_node(), state.chance_outcomes()[0][0]
(True, 10)
"""

from __future__ import annotations

from typing import Any

from solver.errors import OptionError
from solver.spec import GameSpec

__all__ = [
    "DEFAULT_MAX_GAME_LENGTH",
    "ismcts_bot",
    "register",
    "register_spec",
    "resampler",
    "short_name",
]

DEFAULT_MAX_GAME_LENGTH = 100_000
"""OpenSpiel's ``max_game_length`` for a game that does not declare one."""
_REGISTERED: set[str] = set()


def _pyspiel() -> Any:
    try:
        import pyspiel
    except ImportError:
        raise OptionError(
            "OpenSpiel is not installed: pip install 'forest-solver[openspiel]'"
        ) from None
    return pyspiel


def short_name(game: str) -> str:
    """The pyspiel name of game ``game``: ``forest_<name>``."""
    return f"forest_{game}"


def register(*games: str) -> list[str]:
    """Register ``games`` (default: every registered game) with pyspiel; idempotent.

    Returns the pyspiel short names.
    """
    from solver.registry import game_spec, registered_games

    _pyspiel()
    return [register_spec(game_spec(name)) for name in games or tuple(registered_games())]


def register_spec(spec: GameSpec) -> str:
    """Register the game ``spec`` declares with pyspiel as ``forest_<name>``; idempotent.

    The same as :func:`register` for a game that is not in the registry. Returns the short name.
    The spec is also this library's declaration of the game (:func:`solver.registry.declare`), so
    its searchers (``ismcts_bot``) read it: hidden information is redealt, never read.
    """
    from solver.registry import declare

    pyspiel = _pyspiel()
    declare(spec)
    short = short_name(spec.name)
    if short not in _REGISTERED:
        game_type = _game_type(pyspiel, spec)
        pyspiel.register_game(game_type, _make_game_class(pyspiel, game_type, spec))
        _REGISTERED.add(short)
    return short


def resampler(seed: int = 0) -> Any:
    """``fn(state, player)``: a copy of a ``forest_*`` pyspiel state with what ``player`` cannot
    see redealt (its inner state's ``resample_hidden``), for OpenSpiel's
    ``ISMCTSBot.set_resampler``. The redeals draw from one ``SplitMix64`` seeded ``seed``."""
    from solver.rng import SplitMix64

    deal = SplitMix64(seed)

    def resample(state: Any, player: int) -> Any:
        inner = _inner_state("resampler", state).resample_hidden(player, deal)
        return type(state)(state.get_game(), inner)

    return resample


def ismcts_bot(player: int, *, seed: int = 0, **options: Any) -> Any:
    """A ``pyspiel.Bot`` for seat ``player`` that plays this library's ISMCTS
    (:func:`solver.search.ismcts.ismcts` from that seat's view, with ``options``: ``iterations``,
    ``seconds``, ``evaluator``, ``threads``...) on a ``forest_*`` game's states; decision ``k``
    is seeded ``derive_seed(seed, k)``. Its ``last_result`` is the last search's ``SearchResult``.
    """
    from solver.rng import derive_seed
    from solver.search.ismcts import ismcts

    seed = _checked_bot(player, seed, options)
    pyspiel = _pyspiel()

    class ForestISMCTSBot(pyspiel.Bot):  # type: ignore[name-defined]
        def __init__(self) -> None:
            super().__init__()
            self.decisions = 0
            self.last_result: Any = None

        def restart_at(self, state: Any) -> None:
            self.decisions = 0

        def step(self, state: Any) -> int:
            inner = _inner_state("ismcts_bot", state)
            if state.is_chance_node():
                raise OptionError("ismcts_bot moves for a seat, never at a chance node (OpenSpiel "
                                  "samples chance: state.chance_outcomes())")  # fmt: skip
            legal = state.legal_actions()
            if len(legal) == 1:
                return int(legal[0])
            self.last_result = ismcts(
                inner,
                observer=player,
                seed=derive_seed(seed, self.decisions),
                **options,
            )
            self.decisions += 1
            return int(self.last_result.best_action)

    return ForestISMCTSBot()


def _checked_bot(player: object, seed: object, options: dict[str, Any]) -> int:
    """The seed of :func:`ismcts_bot`, after its seat, seed and options are checked as the
    searcher would check them at its first move: a seat -1, a seed -1, ``iterations=0`` or an
    unknown option were taken, and refused (or, ``player=None``, searched from the mover's
    view) only once a game called the bot."""
    from solver.rng import check_seed
    from solver.search import Limit, MCTSOptions
    from solver.search.limit import reject_unknown, whole

    whole("player", player, minimum=0, optional=False)
    budget = ("iterations", "seconds", "memory_mb", "top_k", "limit", "options")
    tree = ("c", "evaluator", "rollouts", "max_nodes", "backup", "threads")
    allowed = (*budget, *tree, "compiled", "multiple_observers", "cancel", "progress")
    reject_unknown("ismcts_bot", {k: v for k, v in options.items() if k not in allowed}, allowed)
    Limit(**{k: options[k] for k in ("iterations", "seconds", "top_k") if k in options})
    MCTSOptions(**{k: options[k] for k in tree if k in options})
    return check_seed(seed)


def _inner_state(function: str, state: Any) -> Any:
    """The library's state inside a ``forest_*`` pyspiel state; another game's is refused by
    name (it raised ``AttributeError: ... has no attribute '_inner'``)."""
    inner = getattr(state, "_inner", None)
    if inner is None:
        raise OptionError(f"{function} plays the states of a forest_* game (register()), not "
                          f"{type(state).__name__}")  # fmt: skip
    return inner


def _defaults(spec: GameSpec) -> dict[str, Any]:
    """The parameters a ``pyspiel.load_game`` call leaves out: the example file, the default
    engine and, for a game of several counts, its own default count
    (:func:`solver.registry.default_players`)."""
    from solver.registry import default_engine, default_players

    params: dict[str, Any] = {
        spec.file_parameter: spec.example or "",
        "engine": default_engine(spec),
    }
    if len(spec.players) > 1:
        params["players"] = default_players(spec)
    return params


def _utility(pyspiel: Any, spec: GameSpec) -> Any:
    """Constant-sum where the spec declares it for every player count it allows, else general."""
    if _constant(spec):
        return pyspiel.GameType.Utility.CONSTANT_SUM
    return pyspiel.GameType.Utility.GENERAL_SUM


def _constant(spec: GameSpec) -> bool:
    return spec.constant_sum and min(spec.players) >= 2


def _game_type(pyspiel: Any, spec: GameSpec) -> Any:
    hidden = spec.hidden_information
    info = pyspiel.GameType.Information
    return pyspiel.GameType(
        short_name=short_name(spec.name),
        long_name=f"forest-solver {spec.title}",
        dynamics=pyspiel.GameType.Dynamics.SEQUENTIAL,
        chance_mode=pyspiel.GameType.ChanceMode.EXPLICIT_STOCHASTIC,
        information=info.IMPERFECT_INFORMATION if hidden else info.PERFECT_INFORMATION,
        utility=_utility(pyspiel, spec),
        reward_model=pyspiel.GameType.RewardModel.TERMINAL,
        max_num_players=max(spec.players),
        min_num_players=min(spec.players),
        provides_information_state_string=hidden,
        provides_information_state_tensor=False,
        provides_observation_string=True,
        provides_observation_tensor=False,
        parameter_specification=_defaults(spec),
    )


def _make_game_class(pyspiel: Any, game_type: Any, spec: GameSpec) -> type:
    """The ``pyspiel.Game`` subclass of ``spec``'s game, with its state and observer classes."""
    state_class = _state_class(pyspiel)
    observer_class = _observer_class(spec)

    class ForestGame(pyspiel.Game):
        def __init__(self, params: dict[str, Any] | None = None) -> None:
            defaults = _defaults(spec)
            values = defaults | dict(params or {})
            source = values[spec.file_parameter] or None
            # pyspiel hands the defaults in too: the default count is the opener's own (a fresh
            # game's), so a file that fixes another keeps it (a solo position is not refused
            # as one "played by 2 players")
            players = values.get("players")
            if players is not None and players == defaults.get("players"):
                players = None
            opened = spec.open(source, engine=values["engine"], players=players)
            if "players" in values:  # the count played, which a file may have fixed
                values["players"] = opened.game.num_players()
            self._inner = opened.game
            self._start = opened.state
            length = spec.max_game_length(opened.game) if spec.max_game_length else None
            info = pyspiel.GameInfo(
                num_distinct_actions=self._inner.num_distinct_actions(),
                max_chance_outcomes=self._inner.num_distinct_actions(),
                num_players=self._inner.num_players(),
                min_utility=spec.utility_range[0],
                max_utility=spec.utility_range[1],
                utility_sum=spec.utility_range[1] if _constant(spec) else None,
                max_game_length=length or DEFAULT_MAX_GAME_LENGTH,
            )
            super().__init__(game_type, info, values)

        def new_initial_state(self) -> Any:
            return state_class(self)

        def make_py_observer(self, iig_obs_type: Any = None, params: Any = None) -> Any:
            return observer_class(iig_obs_type, params)

    ForestGame.__name__ = f"Forest{spec.name.title()}Game"
    return ForestGame


def _state_class(pyspiel: Any) -> type:
    """The ``pyspiel.State`` subclass over a forest-solver state (the game's ``_start`` clone)."""
    import solver

    class ForestState(pyspiel.State):
        def __init__(self, game: Any, inner: Any = None) -> None:
            super().__init__(game)
            self._inner = inner if inner is not None else game._start.clone()

        def current_player(self) -> int:
            player = self._inner.current_player()
            if player == solver.CHANCE:
                return int(pyspiel.PlayerId.CHANCE)
            if player == solver.TERMINAL:
                return int(pyspiel.PlayerId.TERMINAL)
            return int(player)

        def _legal_actions(self, player: int) -> list[int]:
            return list(self._inner.legal_actions())

        def chance_outcomes(self) -> list[tuple[int, float]]:
            return list(self._inner.chance_outcomes())

        def _apply_action(self, action: int) -> None:
            self._inner.apply_action(action)

        def _action_to_string(self, player: int, action: int) -> str:
            return str(self._inner.action_to_string(action))

        def is_terminal(self) -> bool:
            return bool(self._inner.is_terminal())

        def returns(self) -> list[float]:
            return list(self._inner.returns())

        def __str__(self) -> str:
            return str(self._inner.to_json())

    return ForestState


def _observer_class(spec: GameSpec) -> type:
    """The Python observer class of ``spec``'s game (strings only, no tensors)."""

    class ForestObserver:
        """Strings only: the information state (perfect recall) or the observation."""

        def __init__(self, iig_obs_type: Any = None, params: Any = None) -> None:
            self.tensor = None
            self.dict: dict[str, Any] = {}
            self._recall = iig_obs_type is None or bool(getattr(iig_obs_type, "perfect_recall", 0))

        def set_from(self, state: Any, player: int) -> None:
            pass

        def string_from(self, state: Any, player: int) -> str:
            inner = state._inner
            if spec.hidden_information and self._recall:
                return str(inner.information_state_string(player))
            if spec.hidden_information:
                observed = inner.observation(player)
                return observed if isinstance(observed, str) else repr(observed)
            return str(inner.to_json())

    return ForestObserver
