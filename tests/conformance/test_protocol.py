"""The protocol conformance suite: every registered game, with every engine, passes it.

Random play from many seeds with the invariants of :mod:`solver.testing` checked after every
action (decision nodes have legal actions; chance probabilities are positive and sum to 1;
``clone`` is independent; ``to_json`` round-trips; returns only at the end; the same seed plays
the same game; illegal actions are refused), plus the searchers finishing within a tiny budget.

The default suite plays 12 games a case, or fewer where a few already make :data:`ACTIONS`
actions: a Trial game runs to hundreds of actions, each state checked in full. For a game with
two engines the engines' comparison is that random play, checked in full on both engines: the
default suite plays it there only, not a second time case by case (:data:`RANDOM_PLAY`). The
slow suite plays every case's full count (12 games a case, 5 for the engines' comparison).
"""

from __future__ import annotations

import pytest

from solver.errors import IllegalActionError
from solver.testing import (
    ConformanceError,
    ConformanceReport,
    check_random_play,
    check_state,
    game_cases,
)

CASES = [pytest.param(*case, id="-".join(map(str, case))) for case in game_cases()]


def _open(name: str, engine: str, source: str | None):
    from solver.registry import game_spec

    return game_spec(name).open(source, engine=engine)


ACTIONS = 1_000
"""Actions after which the default suite's random play stops adding games (past its minimum)."""
MIN_GAMES = 2

#: How much random play a test sees: the default suite's (past :data:`MIN_GAMES`, until
#: :data:`ACTIONS` actions), or every game (``None``: slow).
PLAY_LENGTHS = [
    pytest.param(ACTIONS, id="some-games"),
    pytest.param(None, id="every-game", marks=pytest.mark.slow),
]


def _random_play(opened, games: int, actions: int | None) -> list[ConformanceReport]:
    """One report a seeded game, seeds 0, 1, ...: ``games`` of them, or as soon as there are
    :data:`MIN_GAMES` and they made ``actions`` actions (``None``: all ``games``)."""
    reports: list[ConformanceReport] = []
    for seed in range(games):
        enough = len(reports) >= MIN_GAMES and sum(r.actions for r in reports) >= (actions or 0)
        if actions is not None and enough:
            break
        reports.append(check_random_play(opened.game, seeds=[seed], start=opened.state))
    return reports


GAMES = 12
"""Seeded games a case plays at most (the default suite stops earlier: :data:`ACTIONS`)."""
COMPARED_GAMES = 5
"""Seeded games the slow engines' comparison plays on each engine."""


def _compared(name: str) -> bool:
    """Does the engines' comparison play ``name``'s random games (it has two engines)?"""
    from solver.registry import game_spec

    return len(game_spec(name).engine_names()) > 1


def _random_play_cases() -> list:
    """Every case with every play length, except a default-suite case whose game the engines'
    comparison plays: that test runs the same :func:`check_random_play` calls (same seeds, same
    stop, every invariant) on both engines, so the default suite does not play them twice."""
    cases = []
    for length in PLAY_LENGTHS:
        slow = length.values[0] is None
        cases += [
            pytest.param(
                *case.values, *length.values, id=f"{case.id}-{length.id}", marks=length.marks
            )
            for case in CASES
            if slow or not _compared(case.values[0])
        ]
    return cases


RANDOM_PLAY = _random_play_cases()


def _assert_played(reports: list[ConformanceReport]) -> None:
    """Each report is one seeded game of at least one action, every action counted."""
    assert len(reports) >= MIN_GAMES and all(r.games == 1 and r.actions >= 1 for r in reports)
    assert all(r.decision_nodes + r.chance_nodes == r.actions for r in reports)


@pytest.mark.parametrize(("name", "engine", "source", "actions"), RANDOM_PLAY)
def test_random_play_keeps_every_invariant(name, engine, source, actions):
    """:data:`GAMES` seeded games at most (the default suite stops earlier: ``actions``)."""
    _assert_played(_random_play(_open(name, engine, source), GAMES, actions))


def test_the_default_suite_plays_every_case():
    """Each case's random play is in the default suite: its own test or the comparison's."""
    own = {tuple(p.values[:3]) for p in RANDOM_PLAY if p.values[3] is not None}
    compared = {tuple(c.values) for c in CASES if _compared(c.values[0])}
    assert own | compared == {tuple(c.values) for c in CASES} and not own & compared


@pytest.mark.parametrize("label", [5, None, "", "no such move", "x" * 1_000])
@pytest.mark.parametrize(("name", "engine", "source"), CASES)
def test_a_label_naming_no_legal_action_is_refused_by_name(name, engine, source, label):
    """``string_to_action`` of anything that labels no legal action raises the library's
    IllegalActionError (the dog's engines raised AttributeError for the number 5)."""
    state = _open(name, engine, source).state
    with pytest.raises(IllegalActionError):
        state.string_to_action(label)


@pytest.mark.parametrize("action", [None, 1.5, 3.0, "3", b"3", [], True, -1, 10**30])
@pytest.mark.parametrize(("name", "engine", "source"), CASES)
def test_an_action_that_is_no_id_gets_no_label(name, engine, source, action):
    """``action_to_string`` of anything that is no action id of the game (no integer, or out
    of range) raises the library's IllegalActionError (the dog's engines raised TypeError for
    None, 1.5 or "3", as their range check compared them with ints)."""
    state = _open(name, engine, source).state
    with pytest.raises(IllegalActionError):
        state.action_to_string(action)


@pytest.mark.parametrize(("name", "engine", "source"), CASES)
def test_a_numpy_integer_is_the_action_id_it_holds(name, engine, source):
    """Found by attack: the Trial refused ``np.random.choice(state.legal_actions())`` (a NumPy
    int64) as 'not an action id', where the dog and guardians take it; every game and engine
    labels and applies it as the int."""
    np = pytest.importorskip("numpy")
    state = _open(name, engine, source).state
    action = state.legal_actions()[0]
    assert state.action_to_string(np.int64(action)) == state.action_to_string(action)
    twin = state.clone()
    state.apply_action(np.int64(action))
    twin.apply_action(action)
    assert state.to_json() == twin.to_json()


@pytest.mark.parametrize(("name", "engine", "source"), CASES)
def test_searchers_answer_within_a_tiny_budget(name, engine, source):
    from solver.search import mcts

    opened = _open(name, engine, source)
    state = opened.state.clone()
    while state.is_chance_node():
        state.apply_action(state.chance_outcomes()[0][0])
    if state.is_terminal():
        pytest.skip("the position is over before any decision")
    # the protocol's check, on the whole state: a game that hides cards is searched clairvoyant
    # here on purpose (its players' search is ISMCTS; plain MCTS refuses it unless told)
    result = mcts(state, iterations=20, seed=1, clairvoyant=True)
    assert result.best_action in state.legal_actions()
    assert result.iterations == 20
    assert result.same_search(mcts(state, iterations=20, seed=1, clairvoyant=True))


@pytest.mark.parametrize("actions", PLAY_LENGTHS)
@pytest.mark.parametrize(("name", "engine", "source"), CASES)
def test_engines_of_a_game_agree_on_random_play(name, engine, source, actions):
    """The same seeded games on both engines, every invariant checked on each, give the same
    reports: :data:`GAMES` at most, as a case's own random play (the default suite stops
    earlier: ``actions``), or :data:`COMPARED_GAMES` (slow)."""
    from solver.registry import game_spec

    spec = game_spec(name)
    others = [e for e in spec.engine_names() if e != engine]
    if not others:
        pytest.skip(f"{name} has one engine")
    if engine != spec.engine_names()[0]:
        pytest.skip(f"the comparison is symmetric: run once, from {spec.engine_names()[0]}")
    mine = _random_play(_open(name, engine, source), COMPARED_GAMES if actions is None else GAMES,
                        actions)  # fmt: skip
    _assert_played(mine)
    assert mine == _random_play(_open(name, others[0], source), len(mine), None)


def test_the_checks_catch_a_broken_game():
    """The suite can fail: a game whose chance probabilities do not sum to 1 is caught."""
    import solver

    game = solver.load_game("dog", forest="dog/tiny-2x2", engine="reference")
    state = game.new_initial_state()

    class Skewed:
        def __getattr__(self, attribute):
            return getattr(state, attribute)

        def chance_outcomes(self):
            return [(a, p * 0.9) for a, p in state.chance_outcomes()]

    with pytest.raises(ConformanceError, match="sum to"):
        check_state(game, Skewed())  # type: ignore[arg-type]
    with pytest.raises(IllegalActionError):
        state.apply_action(999)
