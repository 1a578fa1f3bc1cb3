"""A face-down story card as each seat sees it, on the web table's Players panel and in the text
view (``play --human``, the hint engine's text): its owner knows it and reads its name, marked
face down; another seat reads only that a card lies there. The panel showed ``?`` to the owner
too, and the text showed the owner's card as if it lay face up (found by the new-user pass)."""

from __future__ import annotations

from solver.games.trial.render_text import render_player_text
from solver.registry import game_spec

from .positions import GAME, ready, to_story


def _story_of_player_0(seat: int, state) -> str:
    panels = {p["title"]: p for p in game_spec("trial").table_view(GAME[2], state, seat)["panels"]}
    detail = panels["Players"]["items"][0]["detail"]
    return detail.split("story ", 1)[1]


def test_the_owner_reads_a_face_down_card_by_name_and_another_seat_does_not() -> None:
    state = ready()
    to_story(state, 0, "Wolf")
    to_story(state, 0, "Bear Hunt", faceup=False)
    own, other = _story_of_player_0(0, state), _story_of_player_0(1, state)
    assert "Wolf" in own and "Bear Hunt (face down)" in own, own
    assert "Wolf" in other and "Bear Hunt" not in other and "?" in other, other
    own_text = render_player_text(state, 0).split("story: ", 1)[1].splitlines()[0]
    other_text = render_player_text(state, 1).split("story: ", 1)[1].splitlines()[0]
    assert own_text == "Wolf; Bear Hunt (face down)", own_text
    assert other_text.startswith("Wolf; (face down, ") and "Bear Hunt" not in other_text
