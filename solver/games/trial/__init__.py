"""The Trial of the Forest (``docs/rules/trial.md``): 2–4 adventurers, 4 days, hidden hands
and decks.

``solver.load_game("trial", players=N, pack=PATH)`` builds the game; ``pack`` is a content-pack
folder (default: the shipped pack in ``puzzles/trial/``). The content is read by
:mod:`.content` and checked by :mod:`.schema`; the reference rules are :mod:`.rules`, and
``engine="kernel"`` runs the same rules with compiled helpers for the state copy, movement and
scoring (:mod:`.kernel`).

>>> import solver
>>> game = solver.load_game("trial", players=2)
>>> game.num_players(), game.engine
(2, 'reference')
"""

from __future__ import annotations

from typing import Any

from solver.spec import GameSpec

__all__ = ["SPEC"]


def _reference(pack: Any = None, players: int = 4, **options: Any) -> Any:
    from solver.games.trial.rules import TrialGame

    return TrialGame(pack, players, **options)


def _kernel(pack: Any = None, players: int = 4, **options: Any) -> Any:
    from solver.games.trial.kernel import KernelTrialGame

    return KernelTrialGame(pack, players, **options)


def _heuristic(game: Any, *, seed: int = 0, iterations: int = 0) -> Any:
    from solver.games.trial.agents import heuristic_agent

    return heuristic_agent(game, seed=seed, iterations=iterations)


def _ismcts(game: Any, *, seed: int = 0, iterations: int = 64) -> Any:
    from solver.games.trial.playouts import ismcts_agent

    return ismcts_agent(game, seed=seed, iterations=iterations)


def _render_svg(game: Any, state: Any, actions: Any) -> str:
    from solver.games.trial.svg import render_svg

    return render_svg(game, state, actions)


def _spec() -> GameSpec:
    from solver.games.trial import analysis, hooks

    return GameSpec(
        name="trial",
        title="the Trial of the Forest",
        summary="2-4 adventurers, 4 days of deeds, fights, stores and expeditions; hidden hands",
        players=(2, 3, 4),
        engines={"reference": _reference, "kernel": _kernel},
        open=hooks.open_trial,
        state_players=hooks.state_players,
        default_source=True,
        value_kind="win probability",
        exact=False,
        render_text=hooks.render_text,
        legend=hooks.legend,
        scores=hooks.scores,
        agents={"heuristic": _heuristic, "ismcts": _ismcts},
        render_svg=_render_svg,
        default_engine="reference",
        analysis=analysis.analysis_hooks(),
    )


SPEC = _spec()
"""The Trial's declaration (see :class:`solver.spec.GameSpec`)."""
