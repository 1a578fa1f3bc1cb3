"""Forest guardians' hooks for the shared machinery: opening positions, pictures, listings.

Small adapters from the protocol's objects (a game, a state) to the guardians modules, so the
generic CLI, the hint engine and the analysis runner never touch guardians internals.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from solver.errors import OptionError
from solver.spec import Opened

__all__ = [
    "greedy",
    "legend",
    "open_position",
    "open_text",
    "puzzle_players",
    "puzzle_summary",
    "render_svg",
    "render_text",
    "scores",
    "state_options",
]


def open_position(
    source: str | None, *, engine: str | None = None, players: int | None = None, **options: Any
) -> Opened:
    """A fresh game (``source`` ``None``; 2 players unless told, 1 with a ``level``: the
    game's own default, :func:`~solver.games.guardians.rules.default_players`) or the position
    ``source`` (a ``.grove`` path or ``guardians/NAME``) at player 0's mission step.
    ``options``: the game's own (``tiles``, ``level``: ``forest guardians ... --option
    level=3``)."""
    from solver.games.guardians import SPEC, resolve_position

    if source is None:
        game = SPEC.build(engine=engine, players=players, **options)  # 0 is refused, not 2
        return Opened(game=game, state=game.new_initial_state(), source="default")
    position = resolve_position(source)
    assert position is not None
    _check_players(str(source), position.mode, players)
    game = SPEC.build(engine=engine, players=players, position=position, **options)
    return Opened(game=game, state=game.new_initial_state(), source=str(source))


def _check_players(what: str, mode: str, players: int | None) -> None:
    """Refuse a solo position asked for 2-4 players, or a multi one for 1."""
    if players is not None and (players == 1) != (mode == "solo"):
        people = "1 player" if players == 1 else f"{players} players"
        raise OptionError(f"{what} is a {mode} position; it cannot be played by {people}")


def state_players(text: str) -> int | None:
    """The player count of a saved state: the length of its ``players`` list (``None`` when the
    text does not say), so ``--state`` needs no ``--players``."""
    from solver.json_objects import loads

    try:
        people = loads(text)["players"]
    except (ValueError, KeyError, TypeError, RecursionError):
        return None
    return len(people) if isinstance(people, list) else None


def state_options(text: str) -> dict[str, Any]:
    """The options a saved state records: a solo state's ``level`` and every state's backs rule
    (``open_backs``, by the state's shape: :func:`~solver.games.guardians.state_json.
    saved_open_backs`; ``{}`` when the text is no state), so ``--state`` of a level-3 state needs
    no ``--option level=3`` and an open-backs state no ``--option open_backs=true``; an option
    given that differs is refused by the state reader (``state_json``), naming both."""
    from solver.games.guardians.state_json import saved_open_backs
    from solver.json_objects import loads

    try:
        data = loads(text)
    except (ValueError, TypeError, RecursionError):
        return {}
    if not isinstance(data, dict) or not {"bag", "phase", "players"} <= set(data):
        return {}  # not a guardians state: its reader says why
    options: dict[str, Any] = {"open_backs": saved_open_backs(data)}
    level = data.get("level")
    if isinstance(level, int) and not isinstance(level, bool):
        options["level"] = level
    return options


def open_text(
    text: str, *, engine: str | None = None, players: int | None = None, **options: Any
) -> Opened:
    """The position whose ``.grove`` text is ``text``, at player 0's mission step (the hint
    engine's inline file; a parse error is a :class:`~solver.errors.FormatError`); ``options``
    the game's own, as :func:`open_position` takes them."""
    from solver.games.guardians import SPEC
    from solver.games.guardians.grove_format import parse_grove

    if not isinstance(text, str):
        raise OptionError(f"a position's text is a string, not {type(text).__name__}")
    position = parse_grove(text)
    _check_players("the position", position.mode, players)
    game = SPEC.build(engine=engine, players=players, position=position, **options)
    return Opened(game=game, state=game.new_initial_state(), source="inline position")


def render_text(game: Any, state: Any | None) -> str:
    """Every player's forest as text (the set-up when ``state`` is ``None``)."""
    from solver.games.guardians.render_text import render_state_text

    return render_state_text(state if state is not None else game.new_initial_state())


def render_svg(game: Any, state: Any | None, actions: Sequence[int] = ()) -> str:
    """Every player's forest as SVG (the set-up when ``state`` is ``None``)."""
    from solver.games.guardians.render_svg import render_state_svg

    return render_state_svg(state if state is not None else game.new_initial_state())


def legend(game: Any, state: Any | None = None) -> str:
    """The text legend of the tile tokens."""
    from solver.games.guardians.render_text import LEGEND
    from solver.render.ascii import legend_lines

    return "\n".join(legend_lines(LEGEND))


def puzzle_summary(source: str) -> str:
    """``"5x3 11 tiles solo"``: the size, tile count and mode of a position."""
    from solver.games.guardians import resolve_position

    grove = resolve_position(source)
    assert grove is not None
    return f"{grove.width:>2}x{grove.height:<2} {grove.tile_count():>2} tiles {grove.mode}"


def puzzle_players(source: str) -> tuple[int, ...]:
    """The player counts a position is played by: 1 for a solo one, 2-4 for a multi one (the
    rules refuse any other: :func:`open_position`)."""
    from solver.games.guardians import resolve_position

    grove = resolve_position(source)
    assert grove is not None
    return (1,) if grove.mode == "solo" else (2, 3, 4)


def scores(state: Any) -> list[float]:
    """The final (or current) scores per player, for reports."""
    return [float(s) for s in state.scores()]


def greedy(game: Any, *, seed: int = 0, iterations: int = 0) -> Any:
    """The greedy baseline: the richest walk first, placements that open the most walks."""
    from solver.games.guardians.greedy import greedy_agent

    return greedy_agent
