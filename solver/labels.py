"""An action's label as one seat may see it: what ``play --human`` prints and what the web
table's session lists (:func:`shown_label`).

Shared by the CLI (:mod:`solver.cli_human`) and the hint engine (:mod:`solver.hint.session`),
so the hint engine need not import a command's module. Nothing here knows any game: whether a
game hides information is its declaration's ``hidden_information``.
"""

from __future__ import annotations

from typing import Any

from solver.rng import SplitMix64

__all__ = ["HIDDEN_LABEL", "REDEALS", "shown_label"]

REDEALS = 2
"""Redeals of what the viewer cannot see, besides the real state, searched for an event the
viewer could not tell from the real one (enough for a single-outcome draw whose content depends
on earlier hidden ones)."""
HIDDEN_LABEL = "(hidden from you)"
"""What ``play --human`` prints for a chance outcome or another seat's move that the human's seat
cannot see (a card dealt to another player, a face-down card, a ruin's item)."""


def shown_label(
    state: Any, action: int, viewer: int, game_name: str | None = None, labels: Any = None
) -> str:
    """``action``'s label as the human in seat ``viewer`` may see it (``game_name``: the
    game's registered name, where the caller knows it; else ``state.get_game()``'s;
    ``labels``: a state that labels ``state``'s actions as it does, read in its place: its label
    twin, kept in step by a caller that follows a run of actions, :class:`solver.game.LabelReader`,
    so the compiled Trial is not decoded once per label).

    In a game that declares hidden information (``GameSpec.hidden_information``) a chance outcome
    or another seat's move is shown only when the viewer could tell it from every other one: no
    other outcome or legal move — in this state or in a redeal of what the viewer cannot see —
    leaves the viewer with the same information state under a different label. Otherwise the
    label would print what the viewer cannot see (another player's dealt cards, a ruin's item, a
    face-down card), and :data:`HIDDEN_LABEL` is shown.
    """
    from solver.registry import game_spec

    reader = state if labels is None else labels
    label = str(reader.action_to_string(action))
    hidden = game_spec(game_name or state.get_game().name).hidden_information
    if not hidden or (not state.is_chance_node() and state.current_player() == viewer):
        return label
    mine = _seen_after(state, action, viewer)
    deal = SplitMix64(0)
    worlds = [state, *(state.resample_hidden(viewer, deal) for _ in range(REDEALS))]
    for world in worlds:
        names = reader if world is state else world
        for choice in _choices(world):
            if world is state and choice == action:
                continue
            # the information first: a compiled state's key costs less than its label (a decode)
            if (
                _seen_after(world, choice, viewer) == mine
                and names.action_to_string(choice) != label
            ):
                return HIDDEN_LABEL
    return label


def _seen_after(world: Any, choice: int, viewer: int) -> str | int:
    """What ``viewer`` knows once ``choice`` is played in ``world``: its information state,
    compared as the state's ``information_state_key`` where it has one (a compiled kernel's
    key, equal exactly for equal information-state strings, as the compiled ISMCTS reads it),
    else as its information-state string. The compiled Trial decodes its whole state to write
    the string: a step of the web table labelled its 36 draws and moves in 9.6 s that way (the
    key: under 0.1 s). A 64-bit collision could only show a label hidden, never reveal one."""
    child = world.clone()
    child.apply_action(choice)
    key = getattr(child, "information_state_key", None)
    if callable(key):
        return int(key(viewer))
    return str(child.information_state_string(viewer))


def _choices(world: Any) -> list[int]:
    """Every action that could come next in ``world``: its chance outcomes or its legal moves."""
    if world.is_chance_node():
        return [a for a, _ in world.chance_outcomes()]
    return list(world.legal_actions())
