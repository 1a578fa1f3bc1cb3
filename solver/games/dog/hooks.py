"""The dog game's hooks for the shared machinery: opening files, pictures of a state, listings.

These small adapters turn the protocol's objects (a game, a state, the actions played) into the
dog modules' own arguments (a :class:`Forest`, the trail, the marked cells), so the generic CLI,
the hint engine and the analysis runner never touch dog internals.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from solver.errors import OptionError
from solver.spec import Opened


def open_forest(
    source: str | None, *, engine: str | None = None, players: int | None = None
) -> Opened:
    """The dog game on the forest ``source`` (a path or ``dog/NAME``), at its start."""
    from solver.games.dog import SPEC, resolve_forest

    if source is None:
        raise OptionError("the dog game needs a forest: a .forest file or a puzzle name dog/NAME")
    _check_players(players)
    forest = resolve_forest(source)
    game = SPEC.build(engine=engine, forest=forest)
    return Opened(game=game, state=game.new_initial_state(), source=str(source))


def _check_players(players: object) -> None:
    """Refuse a count other than the dog's one player (``True`` and ``1.0`` are no count,
    though they equal 1)."""
    if players is not None and (type(players) is not int or players != 1):
        raise OptionError(f"the dog game is played by 1 player, not {players!r}")


def open_forest_text(text: str, *, engine: str | None = None, players: int | None = None) -> Opened:
    """The dog game on the forest whose ``.forest`` text is ``text``, at its start."""
    from solver.games.dog import SPEC
    from solver.games.dog.format import parse_forest

    _check_players(players)
    if not isinstance(text, str):
        raise OptionError(f"a forest's text is a string, not {type(text).__name__}")
    forest = parse_forest(text)
    game = SPEC.build(engine=engine, forest=forest)
    return Opened(game=game, state=game.new_initial_state(), source="inline forest")


def _pencil(game: Any, state: Any | None, actions: Sequence[int] = ()) -> dict[str, Any]:
    """The render arguments of a played state: trail, marks, resolved cells, counters."""
    if state is None:
        return {}
    data = state.to_dict()
    pencil: dict[str, Any] = {
        "marked": [tuple(c) for c in data["marked"]],
        "resolved": [tuple(c) for c in data["resolved"]],
        "position": tuple(data["pos"]),
    }
    if actions:
        pencil["trail"] = trail_of(game, actions)
    return pencil


def trail_of(game: Any, actions: Sequence[int]) -> list[tuple[int, int]]:
    """The cells the dog stood on, in order, when ``actions`` are played from the start."""
    from solver.games.dog.play import _straight_cells as straight_cells

    state = game.new_initial_state()
    trail = [tuple(state.to_dict()["pos"])]
    for action in actions:
        state.apply_action(action)
        position = tuple(state.to_dict()["pos"])
        if position != trail[-1]:
            trail.extend(straight_cells(trail[-1], position))
    return trail


QUIET_WHY = {
    "skipped: another dog": "skipped: the dog investigated another dog, which costs its next "
    "turn (docs/rules/dog.md §5)",
    "skipped: squirrel": "skipped: the dog chased the squirrel, which costs its next turn "
    "(docs/rules/dog.md §5)",
    "resting": "resting: stamina 0, so the turn is spent resting and stamina is back to 3 "
    "(docs/rules/dog.md §3)",
}
"""What each quiet turn of the turn log (:data:`solver.games.dog.play.QUIET_TURNS`) says."""


def quiet_turns(game: Any, before: Any, after: Any) -> list[str]:
    """The turns the action from ``before`` to ``after`` spent with no decision of the dog's
    (a skipped turn, a rest), one line each: ``turn 2 skipped: the dog investigated another
    dog, ...``. ``play --human`` prints them, so turn 1 is not followed by turn 3 unsaid."""
    from solver.games.dog.play import quiet_turns as records

    spent = records(game.forest, before.to_dict(), after.to_dict(), terminal=after.is_terminal())
    return [f"turn {record.turn} {QUIET_WHY[record.actions[0]]}" for record in spent]


def render_text(game: Any, state: Any | None) -> str:
    """The forest as text, with the state pencilled in when given and its counters under it."""
    from solver.games.dog.render import render_forest_text

    sheet = render_forest_text(game.forest, **_pencil(game, state))
    return sheet if state is None else f"{sheet}\n{status_line(game, state)}"


def status_line(game: Any, state: Any) -> str:
    """``turn 3/20  stamina 5  curiosity 2  2 steps left``: what a player of the sheet tracks
    (the steps left during a move; a skipped turn, the stick, the game's outcome)."""
    from solver.render.ascii import count

    data = state.to_dict()
    parts = [
        f"turn {min(data['turn'], game.forest.turns)}/{game.forest.turns}",
        f"stamina {data['stamina']}",
        f"curiosity {data['curiosity']}",
    ]
    if data["budget"] > 0:
        parts.append(f"{count(data['budget'], 'step')} left")
    if data["stick"]:
        parts.append("stick")
    if data["skip_next"]:
        parts.append("skips the next turn")
    if data["outcome"] is not None:
        parts.append({"win": "won", "loss": "lost"}.get(data["outcome"], str(data["outcome"])))
    return "  ".join(parts)


def legend(game: Any, state: Any | None) -> str:
    """The meaning of every symbol :func:`render_text` prints for this forest and state."""
    from solver.games.dog.render import render_legend_text

    return render_legend_text(game.forest, **_pencil(game, state))


def render_svg(game: Any, state: Any | None, actions: Sequence[int] = ()) -> str:
    """The printable sheet, with the state (and the trail of ``actions``) pencilled in."""
    from solver.games.dog.render import render_forest_svg

    extra = _pencil(game, state, actions)
    if state is not None:
        data = state.to_dict()
        extra.update(turn=data["turn"], stamina=data["stamina"], curiosity=data["curiosity"])
    return render_forest_svg(game.forest, **extra)


def max_game_length(game: Any) -> int:
    """The most actions a game on this forest can take: per turn the roll, then up to 3 steps,
    each with a shout roll per arrow, up to 4 offers, and the squirrel's choice."""
    per_step = 1 + len(game.forest.shouters) + 4
    return int(game.forest.turns * (2 + 3 * per_step))


def svg_point(game: Any, state: Any) -> tuple[float, float] | None:
    """The centre of the dog's cell on :func:`render_svg`'s sheet (millimetres)."""
    import re

    row, col = state.to_dict()["pos"]
    sheet = render_svg(game, None)
    pattern = (
        rf'<rect class="cell" data-row="{row}" data-col="{col}" x="([0-9.]+)" y="([0-9.]+)" '
        r'width="([0-9.]+)" height="([0-9.]+)"'
    )
    found = re.search(pattern, sheet)
    if found is None:
        return None
    x, y, w, h = (float(v) for v in found.groups())
    return (x + w / 2, y + h / 2)


def puzzle_summary(source: str) -> str:
    """``"6x5 20 turns"``: the size and turn limit of a forest file or puzzle."""
    from solver.games.dog import resolve_forest

    forest = resolve_forest(source)
    unit = "turn " if forest.turns == 1 else "turns"
    return f"{forest.width:>2}x{forest.height:<2} {forest.turns:>2} {unit}"


def greedy(game: Any, *, seed: int = 0, iterations: int = 0) -> Any:
    """The greedy agent: the stamina-weighted shortest path, no look-ahead."""
    from solver.games.dog.greedy import greedy_agent

    return greedy_agent(game.forest)
