"""The engines-agree harness (:mod:`engines`) on what random play does not reach: hand-edited
day-4 states with an exhausted deed deck (refilled from its discard pile), with the deed deck and
its discard pile both empty (a draw draws nothing), with every expedition deck exhausted, and the
last turn of games ending in a tie on fame (shared by equal story counts, or decided by them),
each played to the end on the reference and the compiled engine, compared after every action.
The harness's deep checks (at the start and the end here) also compare the labels of every id
not legal and the refusal of illegal input (:func:`engines.check_refusals`), which the last test
shows can fail.
"""

from __future__ import annotations

import random
from typing import Any

import pytest

import solver
from solver.games.trial.core import STEPS
from solver.testing import random_action

from .engines import Mismatch, check_refusals, side_by_side


@pytest.fixture(scope="module")
def games(require_kernels: None) -> dict[tuple[str, int], Any]:
    return {
        (engine, n): solver.load_game("trial", engine=engine, players=n)
        for engine in ("reference", "kernel")
        for n in (2, 3)
    }


def day_four(game: Any, seed: int) -> Any:
    """The first turn of day 4 of a seeded random game of the reference."""
    rng = random.Random(seed)
    st = game.new_initial_state()
    while not (st.data["day"] == 4 and not st.is_chance_node() and st._top()["step"] == "turn"):
        st.apply_action(random_action(st, rng))
    return st


def _help_draws(st: Any) -> None:
    """The player on turn asks the help spot for a deed card (the draw comes next)."""
    st.apply_action(st.string_to_action("place a paw on help"))
    st.apply_action(st.string_to_action("help: draw a deed card"))


def _play(games: dict, start: Any, seed: int, watch: Any = None) -> list[float]:
    """``start`` (read back through ``state_from_json``: the edit must be a valid state) played
    to the end on both engines by random agents; the returns."""
    n = start.data["player_count"]
    ref = games["reference", n]
    start = ref.state_from_json(start.to_json())
    ends: list[Any] = []

    def seen(state: Any) -> None:
        if watch is not None:
            watch(state)
        ends[:] = [state]

    side_by_side(ref, games["kernel", n], ["random"] * n, seed, start=start, watch=seen)
    assert ends[0].is_terminal()
    return list(ends[0].returns())


@pytest.fixture
def draws(monkeypatch: pytest.MonkeyPatch) -> list[tuple[str, bool, bool, bool]]:
    """Every draw the reference offers: (deck, deck empty, discard pile non-empty, a card drawn)."""
    seen: list[tuple[str, bool, bool, bool]] = []
    outcomes = STEPS["draw"].outcomes

    def watched(st: Any, f: dict[str, Any]) -> list[tuple[int, float]]:
        d = st.data["decks"][f["deck"]]
        empty, pile = not any(d["layers"]) and d["top"] is None, bool(d["discard"])
        result = outcomes(st, f)
        seen.append((f["deck"], empty, pile, bool(result)))
        return result

    monkeypatch.setattr(STEPS["draw"], "outcomes", staticmethod(watched))
    return seen


@pytest.mark.parametrize("n", [2, 3])
def test_an_exhausted_deed_deck_is_refilled_alike(games, draws, n):
    st = day_four(games["reference", n], seed=n)
    deck = st.data["decks"]["deeds"]
    deck["discard"] = [c for layer in deck["layers"] for c in layer] + deck["discard"]
    deck["layers"] = []
    _help_draws(st)
    _play(games, st, seed=n)
    assert ("deeds", True, True, True) in draws  # a draw refilled the deck from the discard pile


@pytest.mark.parametrize("n", [2, 3])
def test_an_empty_deed_deck_and_discard_pile_draw_nothing_alike(games, draws, n):
    """The deed cards left are moved into the stories face down (no fame), evenly."""
    from solver.games.trial.belongings import column_of

    st = day_four(games["reference", n], seed=10 + n)
    deck = st.data["decks"]["deeds"]
    left = [c for layer in deck["layers"] for c in layer] + deck["discard"]
    deck["layers"], deck["discard"] = [], []
    for i, card in enumerate(left):
        st.data["players"][i % n]["story"].append([card, False, column_of(st, card)])
    _help_draws(st)
    _play(games, st, seed=n)
    assert ("deeds", True, False, False) in draws  # a draw found nothing


def test_exhausted_expedition_decks_play_alike(games):
    """Every expedition deck's cards in its discard pile; the player on turn starts an
    expedition with food to pay (the ``exhausted`` step), then random play to the end."""
    st = day_four(games["reference", 2], seed=7)
    for area in st.game.board.areas:
        deck = st.data["decks"][f"exp:{area}"]
        deck["discard"] = [c for layer in deck["layers"] for c in layer] + deck["discard"]
        deck["layers"] = []
    p = st.current_player()
    me = st.data["players"][p]
    area = next(a for a in st.game.board.areas if me["flags"][a] is None)
    me["space"] = st.game.board.area_start[area]
    for food in ("raspberry", "acorn"):
        st.data["tray"][food] -= 2
        me["food"][food] += 2
    st.apply_action(st.string_to_action("place a paw on the expedition"))
    steps: list[str] = []
    _play(games, st, seed=7, watch=lambda s: steps.append(str((s._top() or {}).get("step"))))
    assert steps[0] == "exhausted"


def _last_turn(game: Any, seed: int) -> Any:
    """The player on turn's last turn of the game with its paw used and its deed card played,
    and no fame anywhere: no paws or tents left (into the box), no objects (into the box), every
    story face down, no flags, no legendary tokens, morality 0. The first player keeps the
    first-player token's fame."""
    st = day_four(game, seed)
    d = st.data
    st._top().update(deed_played=True, paw_used=True, at_start=False)
    for me in d["players"]:  # the paws left go onto the help spot (they are conserved)
        me["paws_placed"] += [["help", False]] * me["paws"] + [["help", True]] * me["strong_paw"]
        me["paws"], me["strong_paw"] = 0, False
        d["box"]["tents"] += me["tents"]
        me["tents"] = []
        for kind in me["backpack"] + me["gallery"]:
            d["box"]["artifacts" if kind in st.game.artifact_ids else "items"].append(kind)
        me["backpack"], me["gallery"] = [], []
        me["story"] = [[c, False, col] for c, _, col in me["story"]]
        me["flags"] = dict.fromkeys(me["flags"])
        me["morality"] = 0
    d["legendary"] = dict.fromkeys(d["legendary"])
    return st


def _story_count(st: Any, p: int, count: int) -> None:
    """Cut ``p``'s story to ``count`` cards (the others to their discard)."""
    from solver.games.trial.decks import discard_card

    me = st.data["players"][p]
    for card, _, _ in me["story"][count:]:
        discard_card(st, card)
    me["story"] = me["story"][:count]


@pytest.mark.parametrize("n", [2, 3])
def test_a_tie_on_fame_and_story_is_a_shared_win_alike(games, n):
    """Fame 1 each (the first player's token; the others one step from the middle of the
    morality track) and equal stories: the victory is shared; in 3 players the third has one
    card less and loses the tie-break."""
    st = _last_turn(games["reference", n], seed=20 + n)
    first = st.data["first_player"]
    counts = [len(me["story"]) for me in st.data["players"]]
    assert min(counts) >= 2
    for p in range(n):
        if p != first:
            st.data["players"][p]["morality"] = 1 if p % 2 else -1
        _story_count(st, p, min(counts) - (p == (first + 2) % n and n == 3))
    assert st.scores() == [1] * n
    want = [0.5 if p in (first, (first + 1) % n) else 0.0 for p in range(n)]
    assert _play(games, st, seed=n) == want


def test_a_tie_on_fame_goes_to_the_longer_story_alike(games):
    st = _last_turn(games["reference", 2], seed=30)
    first = st.data["first_player"]
    st.data["players"][1 - first]["morality"] = 1
    _story_count(st, first, 3)
    _story_count(st, 1 - first, 4)
    assert st.scores() == [1, 1]
    assert _play(games, st, seed=2) == [1.0 if p != first else 0.0 for p in range(2)]


class _Loose:
    """A state whose labels of ids that are not legal, or whose refusals, differ."""

    def __init__(self, inner: Any, label: bool):
        self.inner, self.label = inner, label

    def __getattr__(self, name: str) -> Any:
        return getattr(self.inner, name)

    def action_to_string(self, action: Any) -> str:
        if self.label and action not in self.inner.legal_actions():
            return "?"
        return str(self.inner.action_to_string(action))

    def apply_action(self, action: Any) -> None:
        if action is True:
            raise TypeError("not an int")
        self.inner.apply_action(action)


def test_the_refusal_checks_can_fail(games):
    st = day_four(games["reference", 2], seed=1)
    mine = games["kernel", 2].state_from_json(st.to_json())
    check_refusals("here", mine, st, random.Random(1))
    with pytest.raises(Mismatch, match="label of illegal id"):
        check_refusals("here", _Loose(mine, label=True), st, random.Random(1))
    with pytest.raises(Mismatch, match="refusal of True"):
        check_refusals("here", _Loose(mine, label=False), st, random.Random(1))
