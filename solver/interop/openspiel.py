"""OpenSpiel interop: the dog game as a pyspiel Python game (extra ``[openspiel]``).

After :func:`register`, OpenSpiel users load it like any other game::

    import pyspiel
    from solver.interop import openspiel
    openspiel.register()
    game = pyspiel.load_game("forest_dog", {"forest": "dog/tiny-example"})

The action ids and chance outcomes are exactly those of ``solver.load_game("dog", ...)`` (see
:mod:`solver.games.dog.rules`); each pyspiel state wraps one of this library's states (the
compiled kernel by default, ``{"engine": "reference"}`` for the pure-Python rules).

Known limitation of OpenSpiel 2.0.2: the C++ ``pyspiel.MCTSBot(...).step(state)`` crashes on
Python-defined games, while ``MCTSBot.mcts_search(state)`` works; use the latter (or OpenSpiel's
pure-Python ``open_spiel.python.algorithms.mcts.MCTSBot``).

>>> import pytest; pyspiel = pytest.importorskip("pyspiel")
>>> register()
>>> game = pyspiel.load_game("forest_dog", {"forest": "dog/tiny-example"})
>>> state = game.new_initial_state()
>>> state.is_chance_node(), state.chance_outcomes()[0][0]
(True, 10)
"""

from __future__ import annotations

from typing import Any

from solver.errors import OptionError

SHORT_NAME = "forest_dog"
DEFAULT_FOREST = "dog/tiny-example"
_REGISTERED = False


def _pyspiel() -> Any:
    try:
        import pyspiel
    except ImportError:
        raise OptionError(
            "OpenSpiel is not installed: pip install 'forest-solver[openspiel]'"
        ) from None
    return pyspiel


def register() -> None:
    """Register ``forest_dog`` with pyspiel (idempotent)."""
    global _REGISTERED
    if _REGISTERED:
        return
    pyspiel = _pyspiel()
    game_type = pyspiel.GameType(
        short_name=SHORT_NAME,
        long_name="forest-solver dog game",
        dynamics=pyspiel.GameType.Dynamics.SEQUENTIAL,
        chance_mode=pyspiel.GameType.ChanceMode.EXPLICIT_STOCHASTIC,
        information=pyspiel.GameType.Information.PERFECT_INFORMATION,
        utility=pyspiel.GameType.Utility.GENERAL_SUM,
        reward_model=pyspiel.GameType.RewardModel.TERMINAL,
        max_num_players=1,
        min_num_players=1,
        provides_information_state_string=False,
        provides_information_state_tensor=False,
        provides_observation_string=True,
        provides_observation_tensor=False,
        parameter_specification={"forest": DEFAULT_FOREST, "engine": "kernel"},
    )
    pyspiel.register_game(game_type, _make_game_class(pyspiel, game_type))
    _REGISTERED = True


def _max_game_length(forest: Any) -> int:
    # Per turn: the roll, up to 3 steps, each with a shout roll per arrow and up to 4 offers,
    # and the squirrel's choice.
    per_step = 1 + len(forest.shouters) + 4
    return forest.turns * (2 + 3 * per_step)


def _make_game_class(pyspiel: Any, game_type: Any) -> type:
    import solver

    class ForestDogState(pyspiel.State):
        def __init__(self, game: Any, inner: Any = None) -> None:
            super().__init__(game)
            self._inner = inner if inner is not None else game._inner.new_initial_state()

        def current_player(self) -> int:
            player = self._inner.current_player()
            if player == solver.CHANCE:
                return int(pyspiel.PlayerId.CHANCE)
            if player == solver.TERMINAL:
                return int(pyspiel.PlayerId.TERMINAL)
            return player

        def _legal_actions(self, player: int) -> list[int]:
            return self._inner.legal_actions()

        def chance_outcomes(self) -> list[tuple[int, float]]:
            return self._inner.chance_outcomes()

        def _apply_action(self, action: int) -> None:
            self._inner.apply_action(action)

        def _action_to_string(self, player: int, action: int) -> str:
            return self._inner.action_to_string(action)

        def is_terminal(self) -> bool:
            return self._inner.is_terminal()

        def returns(self) -> list[float]:
            return self._inner.returns()

        def __str__(self) -> str:
            return self._inner.to_json()

    class ForestDogObserver:
        def __init__(self, iig_obs_type: Any = None, params: Any = None) -> None:
            self.tensor = None
            self.dict: dict = {}

        def set_from(self, state: Any, player: int) -> None:
            pass

        def string_from(self, state: Any, player: int) -> str:
            return state._inner.to_json()

    class ForestDogGame(pyspiel.Game):
        def __init__(self, params: dict | None = None) -> None:
            params = dict(params or {})
            forest_name = params.get("forest", DEFAULT_FOREST)
            engine = params.get("engine", "kernel")
            self._inner = solver.load_game("dog", forest=forest_name, engine=engine)
            forest = self._inner.forest
            info = pyspiel.GameInfo(
                num_distinct_actions=self._inner.num_distinct_actions(),
                max_chance_outcomes=self._inner.num_distinct_actions(),
                num_players=1,
                min_utility=0.0,
                max_utility=1.0,
                utility_sum=None,
                max_game_length=_max_game_length(forest),
            )
            super().__init__(game_type, info, {"forest": forest_name, "engine": engine})

        def new_initial_state(self) -> Any:
            return ForestDogState(self)

        def make_py_observer(self, iig_obs_type: Any = None, params: Any = None) -> Any:
            return ForestDogObserver(iig_obs_type, params)

    return ForestDogGame
