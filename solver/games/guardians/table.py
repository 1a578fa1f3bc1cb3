"""Forest guardians on the web table (:attr:`solver.spec.GameSpec.table_view`): the panels beside
the picture and the picture's clickable elements.

Panels: the pool (each tile clickable: it narrows the moves to that tile's cells), every
player's score, missions, combo cards and pawns, the bag, the round (solo: of the round track,
and the level's tasks) and the phase. Targets on the picture (:mod:`.render_svg`): a pool tile
(``data-tile``) picks that tile's placements (or flips it, after ``take 1 tile``); a cell of the
mover's forest (``data-cell``) picks the placements there, the walks from or to it and a pawn
put on it; picking a pool tile and then a cell plays the one placement both name.
"""

from __future__ import annotations

from typing import Any

__all__ = ["table_view"]


def _tile_actions(state: Any) -> dict[int, list[int]]:
    """The legal moves of each pool tile, by tile id: its placements, or its flip."""
    found: dict[int, list[int]] = {}
    if state.is_terminal() or state.is_chance_node():
        return found
    codec = state.game.codec
    for action in state.legal_actions():
        kind = codec.kind(action)
        if kind == "place":
            found.setdefault(state.pool[codec.decode_place(action)[0]], []).append(action)
        elif kind == "pick":
            found.setdefault(state.pool[codec.decode_pick(action)], []).append(action)
    return found


def _cell_actions(state: Any) -> dict[tuple[int, int], list[int]]:
    """The legal moves touching each cell of the mover's forest: placements there, walks from
    or to it, a pawn put on it."""
    from solver.games.guardians.walks import path_from_code

    found: dict[tuple[int, int], list[int]] = {}
    if state.is_terminal() or state.is_chance_node():
        return found
    codec = state.game.codec
    pawns = state.people[state.current].pawns
    for action in state.legal_actions():
        kind = codec.kind(action)
        cells: list[tuple[int, int]] = []
        if kind == "place":
            cells = [codec.decode_place(action)[1]]
        elif kind == "walk":
            pawn, code = codec.decode_walk(action)
            cells = [pawns[pawn], path_from_code(pawns[pawn], code)[-1]]
        elif kind == "pawn":
            cells = [state.placed if state.placed is not None else (0, 0)]
        for cell in cells:
            found.setdefault(cell, []).append(action)
    return found


def _targets(state: Any) -> list[dict[str, Any]]:
    targets = [
        {"attr": "data-tile", "value": str(tile), "actions": actions}
        for tile, actions in _tile_actions(state).items()
    ]
    player = state.current
    targets += [
        {"attr": "data-cell", "value": f"{player}:{r},{c}", "actions": actions}
        for (r, c), actions in _cell_actions(state).items()
    ]
    return targets


def _tile_words(tile: Any) -> str:
    """A pool tile as a player reads it: ``blue, 5 VP mission face down`` (its forest side's
    colour and points preview), ``blue, mission green-red-grey (5 VP)`` where its back is known
    (open backs). The text view's token ``B:?5`` needs its legend, which the table has not."""
    from solver.games.guardians.tiles import COLOUR_NAMES

    colour = COLOUR_NAMES[tile.colour]
    if tile.hidden:
        return f"{colour}, {tile.points} VP mission face down"
    walk = "-".join(COLOUR_NAMES[c] for c in tile.sequence)
    return f"{colour}, mission {walk} ({tile.points} VP)"


def _pool(state: Any) -> list[dict[str, Any]]:
    from solver.render.ascii import count

    moves = _tile_actions(state)
    pool = []
    for tile in state.pool:
        item: dict[str, Any] = {"text": f"tile {tile}: {_tile_words(state.tile(tile))}"}
        if moves.get(tile):
            item["actions"] = moves[tile]
            n = len(moves[tile])
            item["detail"] = "flip it" if n == 1 else f"pick it, then a cell ({count(n, 'cell')})"
        pool.append(item)
    return pool or [{"text": "(empty)"}]


def _players(state: Any) -> list[dict[str, Any]]:
    from solver.render.ascii import count

    out = []
    for index, who in enumerate(state.people):
        cards = f", combo {' '.join(f'+{c}' for c in who.cards)}" if who.cards else ""
        resets = f", {count(who.resets, 'reset')}" if who.resets else ""
        name = "forest" if state.game.solo else f"player {index}"
        detail = (
            f"{count(len(who.pile), 'mission')}, {count(len(who.forest), 'tile')}, "
            f"{count(len(who.reserve()), 'pawn')} in reserve{cards}{resets}"
        )
        out.append({"text": f"{name}: {state.score(index)} VP", "detail": detail})
    return out


def _status(game: Any, state: Any) -> list[dict[str, Any]]:
    from solver.games.guardians.state_parts import PHASE_WORDS, last_round, level_tasks
    from solver.render.ascii import count

    rounds = f" of {state.rounds()}" if game.solo else ""
    status = [
        {"text": f"bag: {count(len(state.bag), 'tile')}"},
        {"text": f"round {state.round}{rounds}"},
        {"text": f"phase: {PHASE_WORDS[state.phase]}"},
    ]
    if game.solo and game.level is not None:
        status.append({"text": f"level {game.level.number}: {game.level.threshold} VP to win"})
        for words, done, brings in level_tasks(state):
            status.append({"text": f"{'done' if done else 'task'}: {words}", "detail": brings})
    else:
        left = ", ".join(f"+{k + 2} ×{n}" for k, n in enumerate(state.supply))
        status.append({"text": f"combo cards left: {left}"})
    if not game.solo and not state.is_terminal():
        status.append({"text": f"player {state.current} to play"})
    last = last_round(state)
    if last is not None:  # first, where a player looks
        status.insert(0, {"text": last, "detail": "the round is played to its end, then the "
                          "game is over"})  # fmt: skip
    return status


def table_view(game: Any, state: Any, seat: int) -> dict[str, Any]:
    """The panels and the picture's targets (nothing in guardians is hidden from one seat only:
    unseen backs are chance, shown to nobody)."""
    return {
        "panels": [
            {"title": "Pool", "items": _pool(state)},
            {"title": "Players" if not game.solo else "Forest", "items": _players(state)},
            {"title": "Bag and round", "items": _status(game, state)},
        ],
        "targets": _targets(state),
    }
