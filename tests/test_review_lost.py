"""The closing note on decisions a player came to with the game already lost
(``solver.review_accuracy.lost_note``). A new user's pass: a player choosing the first option
at every decision finished with no fame against 61, 47 and 45 and read accuracy 98.9 against
the engines' 99.7, 99.7 and 99.2, and a solo game lost with score 0 read 99.3 with no mark, and
the review said nothing: once a player's win probability is near 0, no move can give much
away, so every later move reads accurate."""

from __future__ import annotations

from solver.review import closing_notes
from solver.review_accuracy import LOST_BELOW, LOST_SHARE, lost_note

_KIND = "win probability"


def _decision(ply: int, player: int) -> dict:
    return {"ply": ply, "player": player, "loss": 0.0, "accuracy": 100.0, "method": "mcts"}


def _game(lost_from: int) -> tuple[list[dict], list[dict]]:
    """Two players alternating over 12 plies (player 0 moves into the odd plies, 6 decisions
    each); player 1's win probability is 0.5 before ply ``lost_from`` and 0.01 from it on
    (player 0's the rest). A hidden-card game's point carries only its mover's value: plies
    from 10 on give ``value`` and ``player`` alone."""
    decisions = [_decision(ply, (ply - 1) % 2) for ply in range(1, 13)]
    curve = []
    for ply in range(12):
        mine = 0.01 if ply >= lost_from else 0.5
        point = {"ply": ply, "method": "mcts", "player": ply % 2, "value": 0.0}
        if ply < 10:
            point["values"] = [1 - mine, mine]
            point["value"] = point["values"][ply % 2]
        else:
            point["value"] = mine if ply % 2 == 1 else 1 - mine
        curve.append(point)
    return decisions, curve


def test_a_player_who_came_to_a_quarter_of_their_decisions_lost_is_told_so() -> None:
    """Lost from ply 7: player 1 decides at the positions of plies 1, 3, 5, 7, 9 and 11, the
    last three lost (7 and 9 from ``values``, 11 from the mover's ``value``): 3 of 6, at least
    a quarter. Player 0 is never lost (0.99 or 0.5 before each move)."""
    decisions, curve = _game(lost_from=7)
    note = lost_note(decisions, curve, _KIND)
    assert note == (
        "player 1 came to 3 of their 6 decisions with the game already lost for them (their "
        "win probability before the move below 0.02): no move there could give much away, so "
        "their accuracy says little about those moves"
    )
    assert note in closing_notes(decisions, curve, _KIND, None)  # the CLI's and service's words


def test_no_note_under_a_quarter_or_with_the_value_at_the_line() -> None:
    """Lost from ply 11: only player 1's last decision (1 of 6) is lost, under
    ``LOST_SHARE``; a value of exactly ``LOST_BELOW`` is not below it; a game never lost
    says nothing either."""
    assert LOST_SHARE * 6 > 1
    decisions, curve = _game(lost_from=11)
    assert lost_note(decisions, curve, _KIND) is None
    decisions, curve = _game(lost_from=7)
    for point in curve:
        if "values" in point:
            point["values"] = [max(v, LOST_BELOW) for v in point["values"]]
        point["value"] = max(point["value"], LOST_BELOW)
    assert lost_note(decisions, curve, _KIND) is None
    decisions, curve = _game(lost_from=99)
    assert lost_note(decisions, curve, _KIND) is None
    assert closing_notes(decisions, curve, _KIND, None) == []


def test_two_players_lost_and_only_judged_decisions_counted() -> None:
    """Both seats lost at every decision (0.01 each, a game of more than two players), but
    player 0's decisions at plies 1 and 3 have no accuracy (their losses unknown): those are not
    counted, so player 0 came to 4 of 4 and player 1 to 6 of 6."""
    decisions, curve = _game(lost_from=0)
    for point in curve:
        point["values"] = [0.01, 0.01]
        point["value"] = 0.01
    for decision in decisions[:3:2]:
        decision.update(loss=None, accuracy=None)
    note = lost_note(decisions, curve, _KIND)
    assert note is not None
    assert note.startswith(
        "player 0 came to 4 of their 4 decisions, player 1 to 6 of their 6, with the game "
        "already lost for them (their win probability before the move below 0.02)"
    )


def test_a_player_judged_once_came_to_their_only_decision() -> None:
    """A range of a few plies (``POST /v1/review``'s ``fromPly`` 9 of a dog game lost at ply 8,
    a four-player range of six plies) judges a player once: the note said ``1 of their 1
    decisions``. Hand-built: player 0 decides into plies 1 and 2 (the first lost: 1 of 2),
    player 1 once, into ply 3, lost."""
    decisions = [_decision(1, 0), _decision(2, 0), _decision(3, 1)]
    curve = [{"ply": ply, "method": "exact", "values": [value, 0.01]}
             for ply, value in ((0, 0.01), (1, 0.5), (2, 0.5))]  # fmt: skip
    assert lost_note(decisions, curve, _KIND) == (
        "player 0 came to 1 of their 2 decisions, player 1 to their only one, with the game "
        "already lost for them (their win probability before the move below 0.02): no move "
        "there could give much away, so their accuracy says little about those moves"
    )
    alone = lost_note(decisions[2:], curve, _KIND)
    assert alone is not None and alone.startswith("player 1 came to their only decision with")
