"""One-call answers: the best move in a state and the win probability from a state.

Both search with the strong MCTS configuration (:func:`~solver.search.mcts.strong_mcts_options`,
what the ``mcts`` agent plays) unless told otherwise, or exactly with expectimax
(``exact=True``); both honour a budget, so neither can run without bound.

A hidden-information state (its game declares it: ``GameSpec.hidden_information``) is not
searched by plain MCTS or expectimax, which would read the other players' hidden cards:
:func:`best_move` and :func:`evaluate` refuse it, naming ISMCTS, and :func:`hidden_best_move`
and :func:`hidden_evaluate` search it with ISMCTS from one player's information state, in the
configuration the caller passes (``solver.best_move`` passes the game's declared one,
``GameSpec.ismcts_options``, as ``forest GAME best-move`` does).

>>> import solver
>>> game = solver.load_game("dog", forest="dog/tiny-2x2", engine="reference")
>>> state = game.new_initial_state()
>>> round(solver.evaluate(state, exact=True), 4)
0.6667
>>> state.apply_action(11)                      # roll: 2 steps
>>> solver.best_move(state, exact=True).best_label in ("N", "E", "S", "W")
True
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import replace
from typing import Any

from solver.errors import OptionError
from solver.game import State, require_state
from solver.search.expectimax import expectimax
from solver.search.limit import UNSET, Limit, Unset, merge_limit, parameters_after_name
from solver.search.mcts import (
    DEFAULT_ITERATIONS,
    chance_root_message,
    mcts,
    search_value,
    strong_mcts_options,
)
from solver.search.options import ExpectimaxOptions, MCTSOptions, option_names, options_from
from solver.search.result import SearchResult

__all__ = ["DEFAULT_ITERATIONS", "best_move", "evaluate", "hidden_best_move", "hidden_evaluate"]

_MCTS_OPTIONS = option_names(MCTSOptions)
# exact is a keyword of its own
_EXPECTIMAX_OPTIONS = tuple(n for n in option_names(ExpectimaxOptions) if n != "exact")
_MCTS_BUDGET = ("memory_mb", "top_k")
_ISMCTS_BUDGET = ("top_k",)
_EXPECTIMAX_BUDGET = ("depth", "memory_mb", "top_k")


def _check_keywords(function: str, exact: bool, keywords: Mapping[str, object]) -> None:
    """Every keyword must be an option or budget field of the searcher ``exact`` selects."""
    if not isinstance(exact, bool):
        raise OptionError(f"exact must be True or False, not {exact!r}")
    allowed = _EXPECTIMAX_OPTIONS + _EXPECTIMAX_BUDGET if exact else _MCTS_OPTIONS + _MCTS_BUDGET
    for name in keywords:
        if name in allowed:
            continue
        if name in _MCTS_OPTIONS + _EXPECTIMAX_OPTIONS + _EXPECTIMAX_BUDGET:
            searcher = "exact=True (expectimax)" if exact else "exact=False (MCTS)"
            raise OptionError(f"{function}(): {name} is not an option of {searcher}")
        known = ", ".join(sorted({"exact", "iterations", "seconds", "seed", "limit", "options",
                                  *allowed}))  # fmt: skip
        raise OptionError(f"{function}() got an unknown option {name!r}; expected one of {known}")


def _refuse_hidden(function: str, state: State) -> None:
    """Plain MCTS and expectimax read every hidden card: a redealable state is ISMCTS's (and
    a position that is no game state is refused first, by name)."""
    from solver.search.ismcts import has_hidden_information

    require_state(state)
    if has_hidden_information(state):
        raise OptionError(
            f"{function}(): this game hides information (other players' cards): plain MCTS or "
            f"expectimax would read them; search it with ISMCTS (solver.{function}, which uses "
            "the game's declared ISMCTS options, or solver.search.ismcts)"
        )


def _mcts_call(
    state: State,
    iterations: int | Unset | None,
    seconds: float | Unset | None,
    limit: Limit | None,
    options: object,
    keywords: Mapping[str, object],
) -> tuple[Limit, MCTSOptions]:
    """The budget and options of a non-exact call (strong options unless any are given)."""
    budget, opts = _sampling_call(iterations, seconds, limit, options, keywords, _MCTS_BUDGET)
    return budget, strong_mcts_options(state) if opts is None else opts


def _sampling_call(
    iterations: int | Unset | None,
    seconds: float | Unset | None,
    limit: Limit | None,
    options: object,
    keywords: Mapping[str, object],
    budget_names: tuple[str, ...],
) -> tuple[Limit, MCTSOptions | None]:
    """The budget and options of an MCTS or ISMCTS call: ``DEFAULT_ITERATIONS`` simulations when
    no budget is given (a time alone is one), the ``budget_names`` keywords over ``limit``; the
    options given (keywords over ``options``), or None when none are (the caller's default)."""
    if limit is None and iterations in (UNSET, None) and seconds in (UNSET, None):
        iterations = DEFAULT_ITERATIONS
    given = {name: keywords.get(name, UNSET) for name in budget_names}
    budget = merge_limit(limit, {"iterations": iterations, "seconds": seconds, **given})
    passed = {name: keywords.get(name, UNSET) for name in _MCTS_OPTIONS}
    if options is None and all(value is UNSET for value in passed.values()):
        return budget, None
    return budget, options_from(MCTSOptions, options, passed, {})


def _exact_call(
    limit: Limit | None, options: object, keywords: Mapping[str, object]
) -> tuple[Limit, ExpectimaxOptions]:
    """The budget and options of an exact call (an MCTS budget in ``limit`` is not used)."""
    base = None if limit is None else replace(limit, iterations=None, seconds=None)
    given = {name: keywords.get(name, UNSET) for name in _EXPECTIMAX_BUDGET}
    budget = merge_limit(base, given)
    passed = {name: keywords.get(name, UNSET) for name in _EXPECTIMAX_OPTIONS}
    opts: ExpectimaxOptions = options_from(ExpectimaxOptions, options, passed, {"exact": True})
    return budget, opts


def best_move(
    state: State,
    *,
    exact: bool = False,
    iterations: int | Unset | None = UNSET,
    seconds: float | Unset | None = UNSET,
    seed: int = 0,
    limit: Limit | None = None,
    options: MCTSOptions | ExpectimaxOptions | None = None,
    **keywords: object,
) -> SearchResult:
    """The best move at a decision node: MCTS within the budget, or exact expectimax.

    MCTS (the default) runs ``iterations`` simulations and/or ``seconds`` (neither given:
    ``DEFAULT_ITERATIONS`` simulations), with the strong configuration
    (:func:`~solver.search.mcts.strong_mcts_options`) unless MCTS options are given: as keywords
    (``c``, ``evaluator``, ``rollouts``, ``backup``, ``max_nodes``; the rest keep
    :func:`~solver.search.mcts.mcts`'s defaults) or one ``options=MCTSOptions(...)``. ``exact=True``
    solves with expectimax (options: ``adversarial``, ``min_probability``, ``heuristic`` or
    ``options=ExpectimaxOptions(...)``; budget ``memory_mb``, default 1024 MB; ``iterations`` and
    ``seconds`` are not used). ``memory_mb``, ``top_k`` and ``depth`` may come as keywords or in
    ``limit``. Unknown keywords, and options of the other searcher, are an
    :class:`~solver.errors.OptionError`.
    """
    _check_keywords("best_move", exact, keywords)
    _refuse_hidden("best_move", state)
    if state.is_terminal():
        raise OptionError("the game is over: there is no move to choose")
    if state.is_chance_node():
        raise OptionError(chance_root_message(state))
    if exact:
        budget, xopts = _exact_call(limit, options, keywords)
        return expectimax(state, seed=seed, limit=budget, options=xopts)
    mbudget, mopts = _mcts_call(state, iterations, seconds, limit, options, keywords)
    return mcts(state, seed=seed, limit=mbudget, options=mopts)


def evaluate(
    state: State,
    *,
    exact: bool = False,
    iterations: int | Unset | None = UNSET,
    seconds: float | Unset | None = UNSET,
    seed: int = 0,
    limit: Limit | None = None,
    options: MCTSOptions | ExpectimaxOptions | None = None,
    **keywords: object,
) -> float:
    """The win probability (expected return of player 0) from ``state``.

    Exact mode solves the game with expectimax. Otherwise it is MCTS's estimate, within the
    same budget and options as :func:`best_move`, from a decision node or a chance node alike
    (one search from the chance node: its outcomes share the budget). The estimate is the mean
    return of the moves the search prefers (at a chance node, weighted by the outcomes'
    probabilities): the win probability of that play, an estimate of the optimal one.
    """
    _check_keywords("evaluate", exact, keywords)
    _refuse_hidden("evaluate", state)
    if exact:
        budget, xopts = _exact_call(limit, options, keywords)
        if state.is_terminal():
            return float(state.returns()[0])
        result = expectimax(state, seed=seed, limit=budget, options=xopts)
        return float(result.extra["values"][0])
    mbudget, mopts = _mcts_call(state, iterations, seconds, limit, options, keywords)
    if state.is_terminal():
        return float(state.returns()[0])
    return search_value(state, mbudget, mopts, seed)


def _ismcts_call(
    function: str,
    /,
    state: State,
    *,
    configure: Callable[[State], MCTSOptions] | None = None,
    exact: bool = False,
    iterations: int | Unset | None = UNSET,
    seconds: float | Unset | None = UNSET,
    seed: int = 0,
    limit: Limit | None = None,
    options: MCTSOptions | None = None,
    **keywords: object,
) -> tuple[Limit, MCTSOptions | None, int]:
    """The budget, options and seed of :func:`hidden_best_move` or :func:`hidden_evaluate`
    (``function``: ``best_move`` or ``evaluate``, for the messages): MCTS's keywords (no
    ``memory_mb``, and never ``exact``); no options given: ``configure(state)`` (None:
    ISMCTS's own default)."""
    require_state(state)
    if exact:
        raise OptionError(
            f"{function}(): this game hides information: there is no exact search (it would "
            "read the other players' hidden cards); it is searched with ISMCTS"
        )
    allowed = _MCTS_OPTIONS + _ISMCTS_BUDGET
    for name in keywords:
        if name not in allowed:
            known = ", ".join(sorted({"iterations", "seconds", "seed", "limit", "options",
                                      *allowed}))  # fmt: skip
            raise OptionError(
                f"{function}() got an option ISMCTS does not take, {name!r}; expected one of "
                f"{known}"
            )
    if configure is not None and not callable(configure):  # it was called: a TypeError
        raise OptionError(
            f"{function}(): configure must be a function of the state giving its MCTSOptions, "
            f"or None, not {configure!r}"
        )
    budget, opts = _sampling_call(iterations, seconds, limit, options, keywords, _ISMCTS_BUDGET)
    if opts is None and configure is not None:
        return budget, configure(state), seed
    return budget, opts, seed


@parameters_after_name(_ismcts_call)
def hidden_best_move(state: State, **keywords: Any) -> SearchResult:
    """:func:`best_move` for a hidden-information state: ISMCTS from the information state of
    the player to move (what ``forest GAME best-move`` searches), within the same budget
    (``DEFAULT_ITERATIONS`` simulations unless told), with ``configure(state)``'s options (the
    game's ``GameSpec.ismcts_options``; None: :func:`~solver.search.ismcts.ismcts_options`)
    unless MCTS options are given. ``exact=True`` and ``memory_mb`` are an
    :class:`~solver.errors.OptionError`."""
    from solver.search.ismcts import ismcts

    budget, opts, seed = _ismcts_call("best_move", state, **keywords)
    if state.is_terminal():
        raise OptionError("the game is over: there is no move to choose")
    if state.is_chance_node():
        raise OptionError(chance_root_message(state))
    return ismcts(state, observer=int(state.current_player()), limit=budget, seed=seed,
                  options=opts)  # fmt: skip


@parameters_after_name(_ismcts_call)
def hidden_evaluate(state: State, **keywords: Any) -> float:
    """:func:`evaluate` for a hidden-information state: player 0's expected return, estimated
    by ISMCTS from player 0's information state (the player whose return it is; what the
    other players hold is redealt in every simulation), budget and options as
    :func:`hidden_best_move`'s."""
    from solver.search.ismcts import ismcts

    budget, opts, seed = _ismcts_call("evaluate", state, **keywords)
    if state.is_terminal():
        return float(state.returns()[0])
    return float(ismcts(state, observer=0, limit=budget, seed=seed, options=opts).value)
