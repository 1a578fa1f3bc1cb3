"""What each registered game offers, as JSON: one describer for ``forest games --json`` and
``GET /v1/games``, so both carry the same fields.

A capability is advertised only where the surface that uses it accepts it: ``exact`` where a
hint or review may be exact (the game offers exact search and has no hidden information),
``analysis`` where ``forest analyse`` and ``POST /v1/analyse`` take the game (analysis hooks and
a file option), ``roll`` where ``POST /v1/roll`` does, ``review`` where ``POST /v1/review``
and ``forest GAME review`` do (every game the hint engine answers), ``svg`` where positions have
a picture. ``choices`` lists the game's own options that take a few values (the web table
offers them as lists): name, values (the first the default), the player counts it applies to
(``null``: all) and its help. ``puzzlePlayers`` maps a puzzle to the player counts it is played
by, for the games that say (guardians: a solo position ``[1]``); a puzzle not in it takes every
count of ``players``. ``defaultPlayers`` is the count a new game starts with where none is
asked (:func:`solver.registry.default_players`: the count of ``forest NAME play``,
``load_game(NAME)`` and a hint request without ``options.players``; the web table's Players
select starts at it), ``null`` for a game that has no default set-up to read it from.
``sizeRanges`` gives, where ``roll`` is true, the widths and heights ``POST /v1/roll`` accepts
(``{"width": [low, high], "height": [low, high]}``; the table checks its Size field against
them), else ``null``.

>>> row = describe_game(__import__("solver.registry").registry.game_spec("dog"))
>>> row["name"], row["exact"], row["analysis"], row["review"], row["hiddenInformation"]
('dog', True, True, True, False)
"""

from __future__ import annotations

from typing import Any

__all__ = ["describe_game", "describe_games"]


def describe_game(spec: Any) -> dict[str, Any]:
    """One game's row (see the module docstring for what each capability means)."""
    from solver import puzzles
    from solver.spec import HINT_ITERATIONS

    names = puzzles.names(spec.puzzles) if spec.puzzles else []
    analysis = spec.analysis is not None and spec.source_option is not None
    roll = bool(analysis and spec.analysis.roll is not None)
    return {
        "name": spec.name,
        "title": spec.title,
        "summary": spec.summary,
        "players": list(spec.players),
        "defaultPlayers": _default_players(spec),
        "engines": spec.engine_names(),
        "defaultEngine": spec.default_engine,
        "valueKind": spec.value_kind,
        "exact": bool(spec.exact and not spec.hidden_information),
        "hiddenInformation": bool(spec.hidden_information),
        "constantSum": bool(spec.constant_sum),
        "review": True,
        "reviewIterations": spec.review_iterations or HINT_ITERATIONS,
        "puzzles": names,
        "puzzlePlayers": {
            name: list(spec.puzzle_players(name)) for name in names if spec.puzzle_players
        },
        "sourceOption": spec.source_option,
        "defaultSource": bool(spec.default_source),
        "svg": spec.render_svg is not None,
        "analysis": analysis,
        "roll": roll,
        "sizeRanges": (
            dict(zip(("width", "height"), map(list, spec.analysis.sizes()), strict=True))
            if roll
            else None
        ),
        "agents": spec.agent_names(),
        "defaultAgent": spec.strongest_agent,
        "choices": [
            {
                "name": name,
                "values": list(choice.values),
                "players": None if choice.players is None else list(choice.players),
                "help": spec.options[name],
            }
            for name, choice in spec.option_choices.items()
        ],
    }


def _default_players(spec: Any) -> int | None:
    """The game's own count, or ``None`` where it has no default set-up to open (a file is
    then needed, which brings its count)."""
    from solver.errors import SolverError
    from solver.registry import default_players

    try:
        return default_players(spec)
    except SolverError:
        return None


def describe_games() -> list[dict[str, Any]]:
    """Every registered game's row, in the registry's order."""
    from solver.registry import game_specs

    return [describe_game(spec) for spec in game_specs()]
