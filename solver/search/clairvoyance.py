"""The refusal of a clairvoyant search nobody asked for.

Plain MCTS and expectimax search the whole state: on a game that hides information (its
declaration says so: ``GameSpec.hidden_information``, the one thing read) they read every hidden
card, so their values are what a player who sees everything could get, not what the player to
move can. :func:`solver.best_move` and :func:`solver.evaluate` search such a game with ISMCTS;
:func:`~solver.search.mcts.mcts` and :func:`~solver.search.expectimax.expectimax` refuse it
unless told ``clairvoyant=True`` (an analysis or a test that means the perfect-information
value).
"""

from __future__ import annotations

from solver.errors import OptionError
from solver.game import State
from solver.kernels import game_of
from solver.spec import declared

__all__ = ["has_hidden_information", "refuse_clairvoyant"]


def has_hidden_information(state: State) -> bool:
    """Whether ``state``'s game declares hidden information (``GameSpec.hidden_information``;
    its states then give ``resample_hidden``). A game no spec declares hides nothing."""
    spec = declared(game_of(state))
    return spec is not None and spec.hidden_information


def refuse_clairvoyant(function: str, state: State, clairvoyant: object) -> None:
    """Raise an :class:`~solver.errors.OptionError` when ``state`` hides information and the
    caller did not pass ``clairvoyant=True``; ``clairvoyant`` must be a bool."""
    if not isinstance(clairvoyant, bool):
        raise OptionError(f"clairvoyant must be True or False, not {clairvoyant!r}")
    if clairvoyant or not has_hidden_information(state):
        return
    raise OptionError(
        f"{function}(): this game hides information (other players' cards) and {function} "
        "would read them: its values would be clairvoyant, not the player's; search it with "
        "ISMCTS (solver.search.ismcts.ismcts, or solver.best_move / solver.evaluate), or pass "
        "clairvoyant=True for the perfect-information value on purpose"
    )
