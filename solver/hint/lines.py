"""The hinted line on a game's picture, for the web table: where each move lands
(``GameSpec.svg_point``: the dog's cells) and the game's own drawing of a line
(``GameSpec.svg_line``: guardians' placements and walks, the Trial's route).

Shared by the stateless table (``POST /v1/position`` with ``pv``) and the server-kept sessions
(``POST /v1/table/line``). Nothing here knows any game.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

from solver.hint.errors import HintError

if TYPE_CHECKING:
    from solver.game import Game, State
    from solver.spec import GameSpec

__all__ = ["checked_line", "hinted_svg", "illegal_line", "move_points", "pv_points"]


def checked_line(state: State, pv: Sequence[int]) -> list[Any]:
    """The states along ``pv`` from ``state`` (``state`` itself first); an action not legal
    where it falls is refused, naming ``pv.N``, with the code ``illegal_line`` (most often a
    stale line: a hint's line asked for after the position moved on)."""
    walker = state.clone()
    seen = [walker.clone()]
    for index, action in enumerate(pv):
        if walker.is_terminal() or action not in walker.legal_actions():
            raise illegal_line(index, action)
        walker.apply_action(action)
        seen.append(walker.clone())
    return seen


def illegal_line(index: int, action: int) -> HintError:
    """The refusal of a line whose action ``index`` is not legal where it falls (``illegal_line``,
    naming ``pv.N``): the stateless table's and a session's alike."""
    return HintError(
        f"pv.{index}: action {action} is not legal there: the line is not of this position (a "
        "line from before the last move? ask for a new hint)",
        f"pv.{index}",
        "illegal_line",
    )


def move_points(spec: GameSpec, game: Game, state: State) -> dict[str, Any]:
    """Where each legal move lands on the picture (``svg_point``), by action id; ``{}`` where
    the game declares no points, at a chance node and at the end."""
    if spec.svg_point is None or state.is_terminal() or state.is_chance_node():
        return {}
    found: dict[str, Any] = {}
    for action in state.legal_actions():
        child = state.clone()
        child.apply_action(action)
        found[str(action)] = spec.svg_point(game, child)
    return found


def pv_points(spec: GameSpec, game: Game, state: State, pv: Sequence[int]) -> list[Any]:
    """The picture's points along ``pv`` (the state's own first); ``[]`` without ``svg_point``."""
    if spec.svg_point is None:
        return []
    return [spec.svg_point(game, s) for s in checked_line(state, pv)]


def hinted_svg(spec: GameSpec, game: Game, state: State, pv: Sequence[int]) -> str | None:
    """The game's drawing of ``pv`` from ``state`` (``svg_line``: SVG elements laid over the
    picture), or ``None`` where the game draws none or ``pv`` is empty."""
    if spec.svg_line is None or not pv:
        return None
    checked_line(state, pv)
    return str(spec.svg_line(game, state, list(pv)))
