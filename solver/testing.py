"""The protocol conformance checks every game passes, for this project's tests and for yours.

:func:`check_random_play` plays seeded random games and checks, after every action, the
invariants every searcher relies on (in the manner of OpenSpiel's ``random_sim_test``). A game
shipped by another distribution runs the same checks in its own tests::

    from solver.testing import check_random_play
    check_random_play(my_game, seeds=range(50))

>>> import solver
>>> game = solver.load_game("dog", forest="dog/tiny-example", engine="reference")
>>> report = check_random_play(game, seeds=range(3))
>>> report.games, report.actions > 0
(3, True)
"""

from __future__ import annotations

import importlib.util
import math
import os
import random
import subprocess
import sys
import threading
from collections.abc import Callable, Iterable, Iterator, Mapping
from dataclasses import dataclass
from pathlib import Path
from types import ModuleType
from typing import TypeVar

from solver.errors import IllegalActionError, SolverError
from solver.game import CHANCE, TERMINAL, Game, State, sample_chance
from solver.rng import SplitMix64

__all__ = [
    "INVARIANTS",
    "ConformanceError",
    "ConformanceReport",
    "TerminalOutput",
    "always_winnable",
    "assert_engines_agree",
    "best_win_probability",
    "check_random_play",
    "check_state",
    "decision_nodes",
    "game_cases",
    "load_module",
    "one_line_error",
    "outcome_within",
    "random_action",
    "random_playouts",
    "run_forest",
    "uniform_action",
]

MAX_ACTIONS_PER_GAME = 100_000
_T = TypeVar("_T")


INVARIANTS: dict[str, str] = {
    "get-game": "state.get_game() is the game played",
    "terminal-player": "is_terminal() exactly when current_player() is TERMINAL",
    "chance-player": "is_chance_node() exactly when current_player() is CHANCE",
    "seat": "at a decision node current_player() is a seat 0..num_players()-1",
    "returns-shape": "returns() is one finite float per player",
    "returns-at-end": "returns() are all 0 before the end of the game",
    "returns-range": "returns() lie in [0, 1]",
    "legal-sorted": "legal_actions() are sorted, distinct ints",
    "terminal-no-actions": "a finished game has no legal action",
    "decision-has-actions": "a game still going has a legal action",
    "action-ids": "a decision's actions lie in 0..num_distinct_actions()-1",
    "chance-actions": "a chance node's outcomes are its legal_actions()",
    "chance-probabilities": "chance probabilities are positive and sum to 1",
    "decision-no-outcomes": "a decision node lists no chance outcomes",
    "labels": "action_to_string() and string_to_action() are each other's inverse",
    "json-round-trip": "game.state_from_json(state.to_json()) is the same state",
    "clone-independent": "applying an action to a clone leaves the original alone",
    "illegal-refused": "an illegal action raises IllegalActionError and changes nothing",
    "same-seed-same-game": "the same seed plays the same game",
    "game-ends": f"a random game ends within {MAX_ACTIONS_PER_GAME} actions",
}
"""Every invariant :func:`check_random_play` checks, by name (a :class:`ConformanceError` names
the one that broke)."""


class ConformanceError(AssertionError):
    """A protocol invariant that does not hold: ``invariant`` (a key of :data:`INVARIANTS`),
    ``where`` (the game, seed and action count) and what was seen.

    >>> str(ConformanceError("pebbles seed 3, after 2 actions", "labels", "action 1 has no label"))
    "pebbles seed 3, after 2 actions: invariant 'labels' broken (action_to_string() and \
string_to_action() are each other's inverse): action 1 has no label"
    """

    def __init__(self, where: str, invariant: str, message: str) -> None:
        self.where = where
        self.invariant = invariant
        self.detail = message
        super().__init__(
            f"{where}: invariant {invariant!r} broken ({INVARIANTS[invariant]}): {message}"
        )


@dataclass(frozen=True)
class ConformanceReport:
    """What :func:`check_random_play` checked."""

    games: int
    actions: int
    chance_nodes: int
    decision_nodes: int


def _fail(where: str, invariant: str, message: str) -> ConformanceError:
    return ConformanceError(where, invariant, message)


def _raised(exc: Exception) -> str:
    return f"{type(exc).__name__}: {exc}"


def check_state(game: Game, state: State, where: str = "state") -> None:
    """Check one state's invariants (raises :class:`ConformanceError` naming the broken one).

    The checks run in the order of :data:`INVARIANTS`, so the first one broken is named."""
    terminal, chance = _check_player(game, state, where)
    _check_returns(state, game.num_players(), terminal, where)
    legal = state.legal_actions()
    if legal != sorted(set(legal)) or not all(isinstance(a, int) for a in legal):
        raise _fail(where, "legal-sorted", f"legal_actions() {legal} are not sorted distinct ints")
    if terminal:
        if legal:
            raise _fail(where, "terminal-no-actions", f"a finished game lists {legal}")
        return
    if not legal:
        raise _fail(where, "decision-has-actions", "a game still going has no legal action")
    if not all(0 <= a < game.num_distinct_actions() for a in legal) and not chance:
        message = f"legal_actions() {legal} leave 0..{game.num_distinct_actions() - 1}"
        raise _fail(where, "action-ids", message)
    _check_outcomes(state, legal, chance, where)
    _check_labels(state, legal, where)
    _check_json(game, state, legal, where)


def _check_player(game: Game, state: State, where: str) -> tuple[bool, bool]:
    """The state's game, and who is to move agreeing with the end and chance tests; returns
    whether the state is terminal and whether it is a chance node."""
    n = game.num_players()
    owner = state.get_game()
    if owner.name != game.name or owner.num_players() != n:
        raise _fail(where, "get-game", f"get_game() gives {owner!r}, not the game played")
    player = state.current_player()
    terminal = state.is_terminal()
    chance = state.is_chance_node()
    if terminal != (player == TERMINAL):
        message = f"is_terminal() is {terminal} but current_player() is {player}"
        raise _fail(where, "terminal-player", message)
    if chance != (player == CHANCE):
        message = f"is_chance_node() is {chance} but current_player() is {player}"
        raise _fail(where, "chance-player", message)
    if not (terminal or chance) and not 0 <= player < n:
        raise _fail(where, "seat", f"current_player() {player} is not a seat of {n} players")
    return terminal, chance


def _check_returns(state: State, n: int, terminal: bool, where: str) -> None:
    """One finite float per player, in [0, 1], all 0 before the end."""
    returns = state.returns()
    if len(returns) != n:
        raise _fail(where, "returns-shape", f"returns() has {len(returns)} values for {n} players")
    if not all(isinstance(r, float) and math.isfinite(r) for r in returns):
        raise _fail(where, "returns-shape", f"returns() {returns} are not finite floats")
    if not terminal and any(r != 0.0 for r in returns):
        raise _fail(where, "returns-at-end", f"returns() {returns} before the end of the game")
    if any(not 0.0 <= r <= 1.0 for r in returns):
        raise _fail(where, "returns-range", f"returns() {returns} leave [0, 1]")


def _check_outcomes(state: State, legal: list[int], chance: bool, where: str) -> None:
    """A chance node's outcomes are its legal actions with positive probabilities summing to 1;
    a decision node lists none."""
    outcomes = state.chance_outcomes()
    if not chance:
        if outcomes:
            message = f"a decision node lists chance outcomes {outcomes}"
            raise _fail(where, "decision-no-outcomes", message)
        return
    actions = [a for a, _ in outcomes]
    if actions != legal:
        message = f"chance outcomes {actions} differ from legal_actions() {legal}"
        raise _fail(where, "chance-actions", message)
    if any(not (p > 0) for _, p in outcomes):
        message = f"a chance outcome without a positive probability: {outcomes}"
        raise _fail(where, "chance-probabilities", message)
    total = sum(p for _, p in outcomes)
    if not math.isclose(total, 1.0, abs_tol=1e-9):
        raise _fail(where, "chance-probabilities", f"chance probabilities sum to {total}")


def _check_labels(state: State, legal: list[int], where: str) -> None:
    """Every legal action has a label that reads back as the action."""
    for action in legal:
        try:
            label = state.action_to_string(action)
            back = state.string_to_action(label) if isinstance(label, str) and label else None
        except Exception as exc:  # a conformance check reports, never crashes
            raise _fail(where, "labels", f"action {action}: {_raised(exc)}") from exc
        if back is None:
            raise _fail(where, "labels", f"action {action} has no label")
        if back != action:
            raise _fail(where, "labels", f"string_to_action({label!r}) is {back}, not {action}")


def _check_json(game: Game, state: State, legal: list[int], where: str) -> None:
    """The state read back from its JSON is the same state."""
    text = state.to_json()
    try:
        again = game.state_from_json(text)
    except Exception as exc:
        raise _fail(where, "json-round-trip", f"state_from_json raised {_raised(exc)}") from exc
    if again.to_json() != text or again.legal_actions() != legal:
        raise _fail(where, "json-round-trip", "state_from_json(to_json()) is another state")


def _illegal(state: State, game: Game) -> int | None:
    """An action id that is not legal here: among the first ``len(legal) + 1`` ids one is not
    (pigeonhole), so the search stays short even for games with many action ids."""
    legal = set(state.legal_actions())
    for candidate in range(min(game.num_distinct_actions(), len(legal) + 1)):
        if candidate not in legal:
            return candidate
    return None


def check_random_play(
    game: Game,
    seeds: Iterable[int] = range(20),
    *,
    start: State | None = None,
    check_every: int = 1,
) -> ConformanceReport:
    """Play one seeded random game per seed and check every state on the way.

    Also checks that ``clone()`` is independent of the original, that an illegal action raises
    :class:`~solver.errors.IllegalActionError` and leaves the state unchanged, and that the same
    seed plays the same game. ``check_every`` > 1 checks every k-th state only (long games).
    """
    games = actions = chance_nodes = decisions = 0
    for seed in seeds:
        transcript = _play(game, seed, start, check_every, name=f"{game.name} seed {seed}")
        again = _play(game, seed, start, 0, name=f"{game.name} seed {seed} (replay)")
        if transcript.actions != again.actions:
            where = f"{game.name} seed {seed}"
            raise _fail(where, "same-seed-same-game", "the replay took other actions")
        games += 1
        actions += len(transcript.actions)
        chance_nodes += transcript.chance_nodes
        decisions += len(transcript.actions) - transcript.chance_nodes
    return ConformanceReport(games, actions, chance_nodes, decisions)


@dataclass
class _Transcript:
    actions: list[int]
    chance_nodes: int


def _play(game: Game, seed: int, start: State | None, check_every: int, name: str) -> _Transcript:
    rng = SplitMix64(seed)
    state = start.clone() if start is not None else game.new_initial_state()
    transcript = _Transcript([], 0)
    while True:
        where = f"{name}, after {len(transcript.actions)} actions"
        if check_every and len(transcript.actions) % check_every == 0:
            check_state(game, state, where)
        if state.is_terminal():
            return transcript
        if len(transcript.actions) >= MAX_ACTIONS_PER_GAME:
            raise _fail(where, "game-ends", f"no end within {MAX_ACTIONS_PER_GAME} actions")
        if check_every and len(transcript.actions) % check_every == 0:
            _check_clone_and_illegal(game, state, where)
        if state.is_chance_node():
            transcript.chance_nodes += 1
            action = sample_chance(state, rng)
        else:
            action = rng.pick(state.legal_actions())
        state.apply_action(action)
        transcript.actions.append(action)


def _check_clone_and_illegal(game: Game, state: State, where: str) -> None:
    before = state.to_json()
    copy = state.clone()
    copy.apply_action(copy.legal_actions()[0])
    if state.to_json() != before:
        raise _fail(where, "clone-independent", "the original's to_json() changed")
    bad = _illegal(state, game)
    if bad is not None:
        try:
            state.apply_action(bad)
        except IllegalActionError:
            pass
        except SolverError as exc:
            message = f"illegal action {bad} raised {type(exc).__name__}"
            raise _fail(where, "illegal-refused", message) from None
        else:
            raise _fail(where, "illegal-refused", f"illegal action {bad} was accepted")
        if state.to_json() != before:
            raise _fail(where, "illegal-refused", f"the refused action {bad} changed the state")


def game_cases(puzzles_per_game: int = 3) -> list[tuple[str, str, str | None]]:
    """(game, engine, source) for every registered game and engine: the game's default set-up
    (when it has one) and up to ``puzzles_per_game`` of its curated puzzles."""
    from solver import puzzles
    from solver.registry import game_specs

    cases: list[tuple[str, str, str | None]] = []
    for spec in game_specs():
        sources: list[str | None] = [None] if spec.default_source else []
        if spec.puzzles is not None:
            sources += puzzles.names(spec.name)[:puzzles_per_game]
        for engine in spec.engine_names():
            cases.extend((spec.name, engine, source) for source in sources)
    return cases


# -- test helpers (this project's tests, and a plug-in's) ------------------------------------------
def run_forest(
    *argv: str,
    cwd: str | os.PathLike[str] | None = None,
    timeout: float = 300,
    env: Mapping[str, str] | None = None,
    inherit_env: bool = True,
    stdin: str | None = None,
    umask: int | None = None,
) -> subprocess.CompletedProcess[str]:
    """``forest ARGV...`` in a new process (``python -m solver.cli``), to completion: its status,
    stdout and stderr as text. ``env`` adds to this process's environment (``inherit_env=False``:
    is the whole environment); ``stdin`` is the input (none: an empty stdin, so a command never
    waits on the terminal); ``umask`` is set in the child."""

    def set_umask() -> None:
        if umask is not None:
            os.umask(umask)

    return subprocess.run(
        [sys.executable, "-m", "solver.cli", *argv],
        capture_output=True,
        text=True,
        cwd=None if cwd is None else Path(cwd),
        timeout=timeout,
        env=(None if env is None else {**os.environ, **env}) if inherit_env else dict(env or {}),
        input=stdin,
        stdin=subprocess.DEVNULL if stdin is None else None,
        preexec_fn=set_umask if umask is not None else None,
    )


def one_line_error(run: subprocess.CompletedProcess[str], needle: str) -> None:
    """Assert ``run`` failed the way a user's mistake must: status 2, nothing on stdout, one
    line ``forest: error: ...`` on stderr containing ``needle``."""
    assert run.returncode == 2, (run.returncode, run.stderr)
    assert run.stdout == ""
    assert run.stderr.startswith("forest: error: ") and run.stderr.count("\n") == 1, run.stderr
    assert "Traceback" not in run.stderr
    assert needle in run.stderr, run.stderr


def random_playouts(
    game: Game, n_games: int, seed: int, tally: Callable[[State], float]
) -> tuple[int, int, float]:
    """A kernel's compiled ``random_playouts(game, n_games, seed)`` replayed in Python, draw for
    draw on any engine: one SplitMix64 stream seeded ``seed`` for every game, chance by
    :func:`solver.rng.sample_outcome`, decisions by ``below(len(legal))``. Returns (games, actions
    applied, the sum of ``tally(final state)``: the dog's wins, guardians' seat-0 score)."""
    rng = SplitMix64(seed)
    applied = 0
    total: float = 0
    for _ in range(n_games):
        state = game.new_initial_state()
        while not state.is_terminal():
            if state.is_chance_node():
                chosen = sample_chance(state, rng)
            else:
                legal = state.legal_actions()
                chosen = legal[rng.below(len(legal))]
            state.apply_action(chosen)
            applied += 1
        total += tally(state)
    return n_games, applied, total


def random_action(state: State, rng: random.Random, by_probability: bool = True) -> int:
    """A random action of ``state`` drawn with Python's ``random`` (the tests' seeded games): a
    chance outcome by its probability (one ``rng.choices``; ``by_probability=False``: uniformly,
    one ``rng.choice``), a legal action uniformly (one ``rng.choice``)."""
    if not state.is_chance_node():
        return int(rng.choice(state.legal_actions()))
    outcomes = state.chance_outcomes()
    if by_probability:
        return int(rng.choices([a for a, _ in outcomes], [p for _, p in outcomes])[0])
    return int(rng.choice([a for a, _ in outcomes]))


def assert_engines_agree(
    mine: State, theirs: State, where: str, theirs_json: str | None = None
) -> list[int]:
    """Two engines' states of one position agree on the protocol's observables (JSON, player,
    terminal and chance flags, legal actions, chance outcomes, returns): the differential tests'
    common part (``theirs_json``: ``theirs.to_json()`` when the caller has it). The legal
    actions."""
    assert mine.to_json() == (theirs.to_json() if theirs_json is None else theirs_json), where
    assert mine.current_player() == theirs.current_player(), where
    assert mine.is_terminal() == theirs.is_terminal(), where
    assert mine.is_chance_node() == theirs.is_chance_node(), where
    legal = theirs.legal_actions()
    assert mine.legal_actions() == legal, where
    assert mine.chance_outcomes() == theirs.chance_outcomes(), where
    assert mine.returns() == theirs.returns(), where
    return legal


def always_winnable(state: State) -> bool:
    """Does seat 0 win (return 1.0) whatever chance does, by its best decisions? The exhaustive
    AND-OR recursion of a one-player game (every chance outcome, some decision), each position
    once (by its JSON): the tests' oracle for the adversarial searches."""
    memo: dict[str, bool] = {}

    def win(node: State) -> bool:
        key = node.to_json()
        if key not in memo:
            if node.is_terminal():
                memo[key] = node.returns()[0] == 1.0
            else:
                results = []
                for action in node.legal_actions():
                    child = node.clone()
                    child.apply_action(action)
                    results.append(win(child))
                memo[key] = all(results) if node.is_chance_node() else any(results)
        return memo[key]

    return win(state)


def best_win_probability(state: State, memo: dict[str, float] | None = None) -> float:
    """Seat 0's expected return under its best decisions in a one-player game: the exhaustive
    expectimax recursion (chance outcomes weighed by their probabilities, the best decision),
    each position once (by its JSON; pass one ``memo`` to share it between calls): the tests'
    oracle for the exact searches.

    >>> import solver
    >>> game = solver.load_game("dog", forest="dog/tiny-2x2", engine="reference")
    >>> round(best_win_probability(game.new_initial_state()), 12)  # 2 or 3 steps win: 2/3
    0.666666666667
    """
    memo = {} if memo is None else memo

    def value(node: State) -> float:
        key = node.to_json()
        if key not in memo:
            if node.is_terminal():
                memo[key] = float(node.returns()[0])
            elif node.is_chance_node():
                memo[key] = sum(p * value(_child(node, a)) for a, p in node.chance_outcomes())
            else:
                memo[key] = max(value(_child(node, a)) for a in node.legal_actions())
        return memo[key]

    return value(state)


def _child(state: State, action: int) -> State:
    """A copy of ``state`` with ``action`` applied (``state`` unchanged)."""
    child = state.clone()
    child.apply_action(action)
    return child


def decision_nodes(
    state: State, rng: SplitMix64, draw: Callable[[State, SplitMix64], int] = sample_chance
) -> Iterator[State]:
    """The decision nodes of one game played on from ``state``, chance drawn by ``draw`` with
    ``rng`` (by its probabilities: :func:`solver.game.sample_chance`; or
    :func:`uniform_action`): each is ``state`` itself, and the caller applies its decision to it
    before asking for the next (the tests' and benches' seeded walks to positions); the walk
    ends with the game or when the caller stops."""
    while not state.is_terminal():
        if state.is_chance_node():
            state.apply_action(draw(state, rng))
            continue
        yield state


def uniform_action(state: State, rng: SplitMix64) -> int:
    """An action of ``state`` drawn uniformly by one ``rng.below``: a chance outcome by its
    index (whatever its probability), else a legal action (the tests' seeded walks)."""
    if state.is_chance_node():
        outcomes = state.chance_outcomes()
        return int(outcomes[rng.below(len(outcomes))][0])
    legal = state.legal_actions()
    return int(legal[rng.below(len(legal))])


class TerminalOutput:
    """What a child process writes to a pseudo-terminal (``pty.openpty()``'s master side), read
    in a thread until the child closes its side; :meth:`text` waits for that, closes the master
    and decodes (the CLI tests of progress lines and of the table on a terminal)."""

    def __init__(self, master: int) -> None:
        self.master = master
        self.chunks: list[bytes] = []
        self.reader = threading.Thread(target=self._drain, daemon=True)
        self.reader.start()

    def _drain(self) -> None:
        while True:
            try:
                chunk = os.read(self.master, 4096)
            except OSError:  # the other side closed
                return
            if not chunk:
                return
            self.chunks.append(chunk)

    def text(self) -> str:
        self.reader.join(timeout=10)
        os.close(self.master)
        return b"".join(self.chunks).decode("utf-8", "replace")


def load_module(name: str, path: Path) -> ModuleType:
    """The file ``path`` imported as a module named ``name`` (a bench script, a kernel built out
    of tree), whether or not its folder is a package on the path; its folder is on the path
    while it runs, as for a script (a bench script imports ``benchkit`` beside it)."""
    spec = importlib.util.spec_from_file_location(name, path)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    folder = str(Path(path).parent)
    sys.path.insert(0, folder)
    try:
        spec.loader.exec_module(module)
    finally:
        sys.path.remove(folder)
    return module


def outcome_within(call: Callable[[], _T], hang_seconds: float) -> _T:
    """What ``call()`` returns (or raises), run in a daemon thread; ``AssertionError`` if it has
    not returned after ``hang_seconds``. A hang detector, not a timing check: give it a generous
    bound. A search in compiled code holds no GIL-checked point, so pytest-timeout's alarm could
    not stop it; the daemon thread is left to the process's exit instead."""
    box: list[_T] = []
    raised: list[BaseException] = []

    def run() -> None:
        try:
            box.append(call())
        except BaseException as exc:  # handed to the caller's thread below
            raised.append(exc)

    worker = threading.Thread(target=run, daemon=True)
    worker.start()
    worker.join(hang_seconds)
    if raised:
        raise raised[0]
    assert box, f"still running after {hang_seconds} s"
    return box[0]
