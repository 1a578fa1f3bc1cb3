"""Every game's picture (``GameSpec.render_svg``) and hinted line (``GameSpec.svg_line``), along
seeded random games of every player count: a well-formed document with a title, a heading, a
legend and the scores the game itself gives; a hinted move drawn where its label says; nothing
hidden from the mover in the line (redealing what the mover cannot see draws the same line)."""

from __future__ import annotations

import random
import re
import xml.etree.ElementTree as ET
from collections.abc import Iterator
from typing import Any

import pytest

import solver
from solver.registry import game_spec
from solver.rng import SplitMix64
from solver.testing import random_action

NS = "{http://www.w3.org/2000/svg}"
SETS: dict[str, list[dict[str, Any]]] = {
    "dog": [{"forest": "dog/another-dog"}],
    "guardians": [{"players": n} for n in (1, 2, 3, 4)],
    "trial": [{"players": n} for n in (2, 3, 4)],
}
"""Each game's set-ups: the default ones, every player count."""


def _states(name: str, options: dict[str, Any], count: int, seed: int) -> Iterator[Any]:
    """``count`` states spread along a seeded random game (decisions and chance alike)."""
    game = solver.load_game(name, **options)
    state = game.new_initial_state()
    rng = random.Random(seed)
    plies = 0
    while not state.is_terminal() and count > 0:
        if plies % 9 == 0:
            count -= 1
            yield state.clone()
        state.apply_action(random_action(state, rng))
        plies += 1
    yield state


def _texts(root: ET.Element, cls: str) -> list[str]:
    return [t.text or "" for t in root.iter(f"{NS}text") if t.get("class") == cls]


@pytest.mark.parametrize(("name", "options"), [(n, o) for n, sets in SETS.items() for o in sets])
def test_a_picture_is_well_formed_with_a_title_a_heading_and_a_legend(
    name: str, options: dict[str, Any]
) -> None:
    spec = game_spec(name)
    for state in _states(name, options, 6, seed=len(options) + 3):
        root = ET.fromstring(spec.render_svg(state.get_game(), state, []))
        title = root.find(f"{NS}title")
        assert title is not None and (title.text or "").strip()
        assert _texts(root, "title") or _texts(root, "name")  # the heading
        (legend,) = [g for g in root.iter(f"{NS}g") if g.get("class") == "legend"]
        assert len(list(legend.iter(f"{NS}text"))) >= 6


@pytest.mark.parametrize("players", [1, 2, 3, 4])
def test_guardians_picture_shows_each_score_and_coordinates(players: int) -> None:
    spec = game_spec("guardians")
    for state in _states("guardians", {"players": players}, 5, seed=players):
        root = ET.fromstring(spec.render_svg(state.game, state, []))
        scores = [int(re.search(r"(\d+) VP", t).group(1)) for t in _texts(root, "score")]  # type: ignore[union-attr]
        assert scores == [state.score(p) for p in range(players)]
        cells = {g.get("data-cell") for g in root.iter(f"{NS}g") if g.get("class") == "cell"}
        expected = {f"{p}:{r},{c}" for p, who in enumerate(state.people) for r, c in who.forest}
        assert cells == expected
        pool = [int(g.get("data-tile", "-1")) for g in root.iter(f"{NS}g")
                if g.get("class") == "pool-tile"]  # fmt: skip
        assert pool == list(state.pool)
        assert _texts(root, "col-label") and _texts(root, "row-label")


def _point(text: str) -> tuple[float, float]:
    x, y = text.split(",")
    return float(x), float(y)


def _named_cells(label: str) -> list[tuple[int, int]]:
    return [(int(r), int(c)) for r, c in re.findall(r"\((-?\d+),(-?\d+)\)", label)]


def test_guardians_hinted_placements_and_walks_land_on_the_cells_they_name() -> None:
    """A placement's ghost lies on the cell its label names; a walk's arrow passes through the
    centres of the mission tile and every tile of its label, in order."""
    from solver.games.guardians.render_layout import layout_of

    spec = game_spec("guardians")
    seen = {"place": 0, "walk": 0}
    states = [s for n in (1, 2) for s in _states("guardians", {"players": n}, 40, seed=11 + n)]
    states += [spec.open(f"guardians/{name}").state  # positions at the mission step: walks
               for name in ("order-matters", "order-trap", "chain-trap")]  # fmt: skip
    for state in states:
        if state.is_terminal() or state.is_chance_node():
            continue
        forest = layout_of(state).forests[state.current_player()]
        for action in state.legal_actions():
            label = state.action_to_string(action)
            kind = label.split()[0]
            if kind not in seen:
                continue
            drawing = spec.svg_line(state.game, state, [action])
            root = ET.fromstring(f'<svg xmlns="http://www.w3.org/2000/svg">{drawing}</svg>')
            cells = _named_cells(label)
            if kind == "place":
                (ghost,) = [r for r in root.iter(f"{NS}rect") if r.get("class") == "hint-place"]
                x, y = forest.cell_xy(cells[0])
                assert (float(ghost.get("x", "0")), float(ghost.get("y", "0"))) == (
                    x + 1,
                    y + 1,
                )
            else:
                (shaft,) = root.iter(f"{NS}polyline")
                (tip, *_) = root.iter(f"{NS}polygon")
                drawn = [_point(p) for p in shaft.get("points", "").split()]
                drawn[-1] = _point(tip.get("points", "").split()[0])  # the head's tip
                assert len(drawn) == len(cells)
                for (dx, dy), cell in zip(drawn, cells, strict=True):
                    cx, cy = forest.centre(cell)
                    assert abs(dx - cx) <= 1.3 and abs(dy - cy) <= 1.3
            seen[kind] += 1
    assert seen["place"] > 20 and seen["walk"] > 0


def test_the_trial_line_shows_nothing_the_mover_cannot_see() -> None:
    """Redealing what the mover cannot see draws the same hinted line for every legal move."""
    spec = game_spec("trial")
    compared = 0
    for state in _states("trial", {"players": 3}, 12, seed=5):
        if state.is_terminal() or state.is_chance_node():
            continue
        mover = state.current_player()
        world = state.resample_hidden(mover, SplitMix64(compared))
        for action in state.legal_actions()[:12]:
            line = spec.svg_line(state.game, state, [action])
            assert spec.svg_line(world.game, world, [action]) == line
            ET.fromstring(f'<svg xmlns="http://www.w3.org/2000/svg">{line}</svg>')
            compared += 1
    assert compared > 20
