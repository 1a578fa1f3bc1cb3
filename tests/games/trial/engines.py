"""Two Trial engines played side by side, compared on every observable after every action.

The harness knows an engine only through the game protocol (no engine's internals are read), so
it holds any engine to the reference: the compiled kernel of issue 19 as well as today's
``kernel`` engine. A game is driven on the *reference* state (the heuristic agent reads the
reference's data; the random agent only its legal actions) and every action is applied to both.

After every action both states must agree on: the end of the game, the player to move, the legal
actions and the label of each, the chance outcomes with their probabilities, every player's
information state (compared as SHA-256 digests: the strings are long; each ends with the player's
observation), the returns and the scores. Every ``deep_every`` actions, and at the first and the
last: every player's observation (the dict), the saved state (``to_json``) of both and its round
trip through each engine's ``state_from_json``, every player's heuristic, and for every
observer a redeal (``resample_hidden``) on each engine, whose worlds must keep the observer's
observation and information state, conserve every component and leave each card whose place the
observer knows where it was (the reference's own knowledge record, read from the saved state).
The redeals of two engines may draw different worlds, so the worlds are checked for these
invariants, not against each other. The deep checks also hold both engines to the same answer for
what is not legal there (:func:`check_refusals`): the label of every id that is not legal (or the
same error), and the refusal of illegal input (ids not legal there, -1, the action count, huge
ints, bools, floats, a string, ``None``): the same :mod:`solver.errors` class and message, and
neither state changed.

A game may start from a hand-edited reference state (``start``: an empty deck, a tie to come);
the engine adopts it through ``state_from_json``, as a user's saved state.
"""

from __future__ import annotations

import hashlib
import json
import random
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from typing import Any

from solver.game import CHANCE
from solver.rng import SplitMix64

Agent = Callable[[Any], int]

NOT_PLACES = frozenset({"card_knowledge", "history", "last_fight"})
"""Top-level keys of the saved state that name cards without holding them (records, not places)."""


SEATS = (
    ["heuristic", "random"],
    ["random", "heuristic", "random"],
    ["heuristic", "heuristic", "heuristic", "random"],
)
"""Seat mixes of 2, 3 and 4 players (the game of seed ``s`` takes ``SEATS[s % 3]``)."""


def digest(text: str) -> str:
    """A short fingerprint of a long string."""
    return hashlib.sha256(text.encode("utf-8")).hexdigest()[:20]


def observables(state: Any, views: bool = False) -> dict[str, Any]:
    """What any engine must show the same after every action (long strings as digests); with
    ``views``, also every player's observation (its text is part of the information state)."""
    terminal = state.is_terminal()
    legal = [] if terminal else list(state.legal_actions())
    players = state.get_game().num_players()
    seen: dict[str, Any] = {
        "terminal": terminal,
        "player": state.current_player(),
        "legal": legal,
        "labels": [state.action_to_string(a) for a in legal],
        "chance": [(a, round(p, 12)) for a, p in state.chance_outcomes()],
        "returns": list(state.returns()),
        "scores": list(state.scores()),
    }
    for p in range(players):
        seen[f"information state {p}"] = digest(state.information_state_string(p))
        if views:
            seen[f"observation {p}"] = digest(json.dumps(state.observation(p), sort_keys=True))
    return seen


def card_places(saved: dict[str, Any], cards: frozenset[str]) -> dict[str, str]:
    """Where each card lies in a saved state: the paths (dict keys and list indices, a card's own
    index within its list left out) of every mention of it outside the records, joined: a card
    lies in one list or slot, and a pending step may name it besides."""
    places: dict[str, list[str]] = {}

    def walk(node: Any, path: tuple[str, ...]) -> None:
        if isinstance(node, dict):
            for key, value in node.items():
                walk(value, (*path, str(key)))
        elif isinstance(node, list):
            for i, value in enumerate(node):
                if isinstance(value, str) and value in cards:
                    places.setdefault(value, []).append("/".join(path))
                else:
                    walk(value, (*path, str(i)))
        elif isinstance(node, str) and node in cards:
            places.setdefault(node, []).append("/".join(path))

    for key, value in saved.items():
        if key not in NOT_PLACES:
            walk(value, (key,))
    return {c: " + ".join(sorted(paths)) for c, paths in places.items()}


def components(reference: Any) -> tuple[Any, ...]:
    """Every card (how many times each lies somewhere) and the food of a reference state."""
    from solver.games.trial.invariants import card_places as counted

    saved = json.loads(reference.to_json())["state"]
    food = [sorted(me["food"].items()) for me in saved["players"]]
    return counted(reference), food, sorted(saved["tray"].items())


def known_places(reference: Any, observer: int, places: dict[str, str]) -> dict[str, str]:
    """The places of the cards ``observer`` knows the place of (the reference's record)."""
    from solver.games.trial.history import known_to

    known = dict(reference.data["card_knowledge"])
    return {
        c: where for c, where in places.items() if str(observer) in known_to(reference, c, known)
    }


@dataclass
class Mismatch(AssertionError):
    """Two engines disagreed: the game, the action count and the observable."""

    where: str
    what: str
    mine: Any = field(repr=False)
    theirs: Any = field(repr=False)

    def __str__(self) -> str:
        return f"{self.where}: {self.what} differs: {self.mine!r} != {self.theirs!r}"


def compare(where: str, mine: dict[str, Any], theirs: dict[str, Any]) -> None:
    for key in theirs:
        if mine.get(key) != theirs[key]:
            raise Mismatch(where, key, mine.get(key), theirs[key])


def check_redeal(
    where: str, engine_state: Any, reference: Any, observer: int, seed: int, cards: frozenset[str]
) -> None:
    """``engine_state.resample_hidden(observer, ...)``'s world keeps the observer's view, every
    component and every card the observer knows the place of."""
    world = engine_state.resample_hidden(observer, SplitMix64(seed))
    assert type(world) is type(engine_state), where
    assert world.observation(observer) == engine_state.observation(observer), (where, observer)
    assert world.information_state_string(observer) == engine_state.information_state_string(
        observer
    ), (where, observer)
    before = json.loads(engine_state.to_json())["state"]
    after = json.loads(world.to_json())["state"]
    old, new = card_places(before, cards), card_places(after, cards)
    twin = reference.get_game().state_from_json(world.to_json())  # a world is a valid state
    assert components(twin) == components(reference), f"{where}: the redeal lost or made cards"
    fixed = known_places(reference, observer, old)
    moved = sorted(c for c, place in fixed.items() if new.get(c) != place)
    assert not moved, (
        f"{where}: observer {observer} knew where {moved[:5]} lay; the redeal moved them"
    )
    assert twin.information_state_string(observer) == reference.information_state_string(observer)


def deep_check(where: str, mine: Any, theirs: Any, seed: int, cards: frozenset[str]) -> None:
    """The saved states, their round trips, the heuristic and the redeals' invariants."""
    compare(where, observables(mine, views=True), observables(theirs, views=True))
    text = theirs.to_json()
    if mine.to_json() != text:
        raise Mismatch(where, "to_json", digest(mine.to_json()), digest(text))
    for state in (mine, theirs):
        again = state.get_game().state_from_json(text)
        if again.to_json() != text or observables(again) != observables(theirs):
            raise Mismatch(where, f"state_from_json on {state.get_game().engine}", "", "")
    players = theirs.get_game().num_players()
    for p in range(players):
        if mine.heuristic(p) != theirs.heuristic(p):
            raise Mismatch(where, f"heuristic {p}", mine.heuristic(p), theirs.heuristic(p))
        check_redeal(where, mine, theirs, p, seed * 7919 + p, cards)
        check_redeal(where, theirs, theirs, p, seed * 7919 + p, cards)
    check_refusals(where, mine, theirs, random.Random(seed))


BAD_INPUT: tuple[Any, ...] = (
    -1,
    -(2**70),
    2**63,
    10**30,
    True,
    False,
    1.0,
    0.5,
    float("nan"),
    "0",
    None,
)
"""What no engine may take for an action id (with the action count and one past it)."""


def _answer(call: Callable[[Any], Any], arg: Any) -> tuple[type | None, str]:
    """What ``call(arg)`` answered: ``(None, repr(value))``, or the error's class and message."""
    try:
        return None, repr(call(arg))
    except Exception as exc:  # compared between the engines, then held to solver.errors
        return type(exc), str(exc)


def check_refusals(where: str, mine: Any, theirs: Any, rng: random.Random) -> None:
    """Both engines label every id that is not legal alike (or refuse alike), and refuse illegal
    input (a sample of the ids not legal, :data:`BAD_INPUT`, the action count and one past it)
    with the same :mod:`solver.errors` class and message, leaving both states as they were."""
    from solver.errors import SolverError

    n = theirs.get_game().num_distinct_actions()
    legal: set[int] = set()
    if not theirs.is_terminal():
        legal = {a for a, _ in theirs.chance_outcomes()} or set(theirs.legal_actions())
    illegal = [a for a in range(n) if a not in legal]
    for a in illegal:
        label = _answer(theirs.action_to_string, a)
        if _answer(mine.action_to_string, a) != label:
            raise Mismatch(
                where, f"label of illegal id {a}", _answer(mine.action_to_string, a), label
            )
    before = [mine.to_json(), theirs.to_json()]
    for bad in [*rng.sample(illegal, min(12, len(illegal))), *BAD_INPUT, n, n + 1]:
        refused = _answer(theirs.apply_action, bad)
        if _answer(mine.apply_action, bad) != refused:
            raise Mismatch(where, f"refusal of {bad!r}", _answer(mine.apply_action, bad), refused)
        if refused[0] is None or not issubclass(refused[0], SolverError):
            raise AssertionError(
                f"{where}: {bad!r} answered {refused}, not a solver.errors refusal"
            )
    if [mine.to_json(), theirs.to_json()] != before:
        raise Mismatch(where, "state after the refusals", "changed", "unchanged")


def chance_action(state: Any, rng: random.Random) -> int:
    outcomes = state.chance_outcomes()
    return int(rng.choices([a for a, _ in outcomes], [p for _, p in outcomes])[0])


def _random_agent(pick: random.Random) -> Agent:
    def choose(state: Any) -> int:
        return int(pick.choice(state.legal_actions()))

    return choose


def seat_agents(game: Any, kinds: list[str], seed: int) -> list[Agent]:
    """One agent a seat: ``heuristic`` (the Trial's rule-based agent) or ``random``."""
    from solver.games.trial.agents import heuristic_agent

    agents: list[Agent] = []
    for i, kind in enumerate(kinds):
        if kind == "heuristic":
            agents.append(heuristic_agent(game, seed=seed * 31 + i))
        else:
            agents.append(_random_agent(random.Random(seed * 31 + i)))
    return agents


def actions(
    reference_game: Any, kinds: list[str], seed: int, start: Any = None
) -> Iterator[tuple[Any, int]]:
    """The reference states of one seeded game (from a copy of ``start`` if given) and the
    action played at each."""
    rng = random.Random(seed)
    agents = seat_agents(reference_game, kinds, seed)
    state = reference_game.new_initial_state() if start is None else start.clone()
    while not state.is_terminal():
        player = state.current_player()
        action = chance_action(state, rng) if player == CHANCE else agents[player](state)
        yield state, action
        state.apply_action(action)
    yield state, -1


def side_by_side(
    reference_game: Any,
    engine_game: Any,
    kinds: list[str],
    seed: int,
    deep_every: int = 0,
    start: Any = None,
    watch: Callable[[Any], None] | None = None,
) -> int:
    """Play one seeded game on both engines, comparing after every action (see the module
    docstring); ``deep_every=0`` skips the deep checks but at the start and the end. From a
    reference state ``start`` (the engine reads its ``to_json``) if given; ``watch`` sees every
    reference state played. Returns the number of actions played."""
    cards = frozenset(reference_game.pack.cards)
    mine = (
        engine_game.new_initial_state()
        if start is None
        else engine_game.state_from_json(start.to_json())
    )
    for played, (theirs, action) in enumerate(actions(reference_game, kinds, seed, start)):
        if watch is not None:
            watch(theirs)
        where = f"{len(kinds)} players {','.join(kinds)} seed {seed} after {played} actions"
        compare(where, observables(mine), observables(theirs))
        if action < 0 or played == 0 or (deep_every and played % deep_every == 0):
            deep_check(where, mine, theirs, seed * 100_003 + played, cards)
        if action < 0:
            return played
        mine.apply_action(action)
    raise AssertionError("unreachable")
