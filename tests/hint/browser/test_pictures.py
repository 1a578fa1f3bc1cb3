"""Every game's picture, laid out by a real Chromium: no text runs past the page's edge.

The pictures place their text by estimate (an SVG has no text layout of its own); the browser
measures each text element's box, which is the independent check of those estimates. Found by
hand: forest guardians' subtitle in its longest case (a small forest in the last round, both
players at the mission limit and the bag empty) ran past the right edge (266.7 on a page of
266).
"""

from __future__ import annotations

import json
import random
from typing import Any

import pytest

from solver.registry import game_spec, load_game

_OVERFLOW = """() => {
  const svg = document.querySelector('svg');
  const box = svg.viewBox.baseVal;
  const out = [];
  for (const t of svg.querySelectorAll('text')) {
    const b = t.getBBox();
    if (b.x < box.x - 0.5 || b.x + b.width > box.x + box.width + 0.5)
      out.push([t.textContent, b.x, b.x + b.width, box.width]);
  }
  return out;
}"""


def _overflowing(browser: Any, svg: str) -> list[Any]:
    page = browser.new_page()
    try:
        page.set_content(f"<!doctype html><html><body>{svg}</body></html>")
        return list(page.evaluate(_OVERFLOW))
    finally:
        page.close()


def _guardians_longest_subtitle() -> tuple[Any, Any]:
    """Two players, both at the mission limit, the bag empty, early in the game (the page is
    as narrow as it gets): the subtitle's longest case."""
    game = load_game("guardians", players=2, engine="reference", open_backs=True)
    state, rng = game.new_initial_state(), random.Random(2)
    while state.is_chance_node():
        state.apply_action(rng.choice(state.legal_actions()))
    data = json.loads(state.to_json())
    limit = game.mission_limit
    for player in (0, 1):
        data["players"][player]["pile"] = [[t, player, 1] for t in data["bag"][:limit]]
        data["bag"] = data["bag"][limit:]
    data["discard"], data["bag"] = sorted(data["discard"] + data["bag"]), []
    data["end_triggered"] = True
    return game, game.state_from_json(json.dumps(data))


def test_the_guardians_subtitle_fits_its_page_in_the_longest_case(browser):
    from solver.games.guardians.render_svg import heading_lines

    game, state = _guardians_longest_subtitle()
    sub = heading_lines(state)[1]
    assert "player 0 and player 1 reached the mission limit" in sub and "bag is empty" in sub
    assert _overflowing(browser, game_spec("guardians").render_svg(game, state, [])) == []


@pytest.mark.parametrize("name", ["dog", "guardians", "trial"])
def test_no_text_leaves_the_page_along_random_games(browser, name):
    """A few positions of a random game of every game (players as many as the game allows)."""
    spec = game_spec(name)
    options = {"forest": "dog/big-12x12"} if name == "dog" else {"players": max(spec.players)}
    game = load_game(name, **options)
    rng = random.Random(7)
    for _ in range(1):
        state, plies = game.new_initial_state(), 0
        while not state.is_terminal() and plies < 400:
            state.apply_action(rng.choice(state.legal_actions()))
            plies += 1
            if plies % 100 == 0 or state.is_terminal():
                assert _overflowing(browser, spec.render_svg(game, state, [])) == [], plies
