"""The Game / State protocol every game implements, and the loop that plays one game through it.

The protocol follows OpenSpiel's shape so its users feel at home::

    game = solver.load_game("dog", forest=solver.puzzles.load("dog/tiny-example"))
    state = game.new_initial_state()
    state.current_player()      # 0..n-1, or solver.CHANCE, or solver.TERMINAL
    state.legal_actions()       # list[int], sorted
    state.chance_outcomes()     # list[(action, probability)] at chance nodes
    state.apply_action(a)       # raises solver.IllegalActionError

Each game has a readable pure-Python reference engine and, where speed matters, a compiled
kernel. ``engine="kernel"`` (the default where a kernel exists) or ``engine="reference"`` picks one;
the environment variable ``SOLVER_ENGINE`` sets the default. There is no silent fallback. The
registry of games (built-in and from other distributions) is :mod:`solver.registry`; this module
is below it and below every game (a game's own commands play games with :func:`play_game`).

>>> import solver
>>> game = solver.load_game("dog", forest="dog/tiny-example", engine="reference")
>>> state = game.new_initial_state()
>>> state.current_player() == solver.CHANCE
True
"""

from __future__ import annotations

import operator
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, Literal, Protocol, Self, runtime_checkable

from solver.errors import IllegalActionError, OptionError, SearchBudgetError, SolverError
from solver.rng import SplitMix64, check_seed, sample_outcome

CHANCE: int = -1
"""``current_player()`` at a chance node (as in OpenSpiel)."""
TERMINAL: int = -4
"""``current_player()`` once the game is over (as in OpenSpiel)."""


@runtime_checkable
class State(Protocol):
    """One position of a game: what a searcher needs, nothing more."""

    def get_game(self) -> Game: ...
    def current_player(self) -> int: ...
    def legal_actions(self) -> list[int]: ...
    def chance_outcomes(self) -> list[tuple[int, float]]: ...
    def apply_action(self, action: int) -> None: ...
    def clone(self) -> State: ...
    def is_terminal(self) -> bool: ...
    def is_chance_node(self) -> bool: ...
    def returns(self) -> list[float]: ...
    def action_to_string(self, action: int) -> str: ...
    def string_to_action(self, label: str) -> int: ...
    def to_json(self) -> str: ...


class ChildFromClone:
    """A state class's ``child(action)``: a copy with ``action`` applied, made with the class's
    own ``clone`` and ``apply_action`` (the reference engines' states; the kernels' states have
    their own, in C)."""

    if TYPE_CHECKING:

        def clone(self) -> Self: ...
        def apply_action(self, action: int) -> None: ...

    def child(self, action: int) -> Self:
        """A copy with ``action`` applied (this state unchanged)."""
        other = self.clone()
        other.apply_action(action)
        return other


class HeuristicState(State, Protocol):
    """A state whose game declares a heuristic (``GameSpec.has_heuristic``). It may also offer
    ``heuristics()``, every player's value at once (the evaluators then call it, not
    ``heuristic(p)`` a seat: the reference Trial's values are shares of every seat's fame)."""

    def heuristic(self, player: int) -> float: ...


class PlayoutState(State, Protocol):
    """A state with a playout policy (the heavy playouts of ``PlayoutEvaluator``)."""

    def playout_action(self, rng: SplitMix64) -> int: ...


class HiddenInformationState(State, Protocol):
    """A state of a game with hidden information (``GameSpec.hidden_information``): what ISMCTS
    and the tables read beside :class:`State`."""

    def observation(self, player: int) -> Any: ...
    def information_state_string(self, player: int) -> str: ...
    def resample_hidden(self, player: int, rng: SplitMix64) -> HiddenInformationState: ...


class LabelTwinState(State, Protocol):
    """A state whose labels cost more than its actions (the compiled Trial decodes its struct to
    describe one) and that offers a cheaper way to follow a run of them: ``label_twin()`` is a
    copy of the position that labels actions exactly as this state does and, given the same
    actions, goes on doing so (the reference engine's state: one decode, then Python steps).
    A replay of labelled actions reads labels on the twin and applies each action to both."""

    def label_twin(self) -> State: ...


@runtime_checkable
class Game(Protocol):
    """A game with its fixed options (for the dog game: the forest)."""

    name: str
    engine: str

    def new_initial_state(self) -> State: ...
    def num_players(self) -> int: ...
    def num_distinct_actions(self) -> int: ...
    def state_from_json(self, text: str) -> State: ...


STATE_METHODS = ("current_player", "legal_actions", "apply_action", "clone", "is_terminal")
"""What a search calls on a position: an object without them is no game state."""


def require_state(state: object) -> None:
    """Refuse, as an :class:`~solver.errors.OptionError`, a position that is no game state (a
    ``Game`` passed for its ``new_initial_state()``, ``None``, a JSON text): every searcher's
    entry checks it, so the mistake is named, not an ``AttributeError`` from inside a search."""
    if not all(callable(getattr(state, name, None)) for name in STATE_METHODS):
        raise OptionError(
            f"the position must be a game state (game.new_initial_state()), "
            f"not {type(state).__name__}"
        )


def sample_chance(state: State, rng: Any) -> int:
    """A chance outcome of ``state`` drawn by its exact probability with one uniform draw from
    ``rng`` (a :class:`solver.rng.SplitMix64`): the way every driver in the library rolls dice
    (:func:`solver.rng.sample_outcome`)."""
    return sample_outcome(state.chance_outcomes(), rng)


MAX_ACTIONS = 1_000_000
"""No game of the library is this long; a longer one is a bug in the game, stopped with an error."""


@dataclass
class GameRecord:
    """A finished game: the final state and every action taken (chance included), in order."""

    final: State
    actions: list[int] = field(default_factory=list)
    labels: list[str] = field(default_factory=list)


def play_game(
    game: Game,
    agents: Sequence[Callable[[State], int]],
    *,
    seed: int = 0,
    state: State | None = None,
    max_actions: int = MAX_ACTIONS,
    on_action: Callable[[int], None] | None = None,
) -> GameRecord:
    """Play to the end from ``state`` (default: the start); seat ``p`` plays ``agents[p]``.

    ``on_action(n)`` is called after each action with the number of actions played so far (a
    progress line)."""
    rng = SplitMix64(check_seed(seed))
    state = state.clone() if state is not None else game.new_initial_state()
    if len(agents) != game.num_players():
        raise OptionError(
            f"{game.num_players()} player(s) need {game.num_players()} agent(s), not {len(agents)}"
        )
    record = GameRecord(final=state)
    while not state.is_terminal():
        if len(record.actions) >= max_actions:
            raise SearchBudgetError(f"the game did not end within {max_actions} actions")
        if state.is_chance_node():
            action = sample_chance(state, rng)
        else:
            action = agents[state.current_player()](state)
        record.labels.append(state.action_to_string(action))
        record.actions.append(action)
        state.apply_action(action)
        if on_action is not None:
            on_action(len(record.actions))
    return record


def legal_action_id(
    state: State, action: object, label: Callable[[int], str], where: Callable[[], str]
) -> int:
    """``action`` as an id (:func:`as_action_id`) if it is legal in ``state``; else an
    :class:`IllegalActionError` naming it, its label (``label(action)``) and where the game
    stands (``where()``, asked only then), the reference engines' one wording.

    >>> import solver
    >>> game = solver.load_game("dog", forest="dog/tiny-example", engine="reference")
    >>> legal_action_id(game.new_initial_state(), 10, str, lambda: "(a roll)")
    10
    >>> legal_action_id(game.new_initial_state(), 3, str, lambda: "(a roll)")
    Traceback (most recent call last):
    ...
    solver.errors.IllegalActionError: action 3 (3) is not legal in this state (a roll)
    """
    action = as_action_id(action)
    if action not in state.legal_actions():
        raise IllegalActionError(
            f"action {action} ({label(action)}) is not legal in this state {where()}"
        )
    return action


def as_action_id(action: object) -> int:
    """``action`` as a plain int id: ints and integer-like numbers (NumPy) pass, anything else
    (floats, bools, strings) raises :class:`IllegalActionError`.

    >>> as_action_id(3)
    3
    >>> as_action_id(3.0)
    Traceback (most recent call last):
    ...
    solver.errors.IllegalActionError: action 3.0 is not an action id (expected an integer)
    """
    if isinstance(action, bool):
        raise IllegalActionError(f"action {action!r} is not an action id (expected an integer)")
    try:
        return operator.index(action)  # type: ignore[arg-type]
    except TypeError:
        raise IllegalActionError(
            f"action {action!r} is not an action id (expected an integer)"
        ) from None


class LabelReader:
    """Where a replay reads labels: the state itself, or its label twin
    (:class:`LabelTwinState`: the compiled Trial's reference copy), made at the
    first label the replay reads and then kept in step with every action, so a record of 600
    labels costs the Trial's kernel one decode of its state, not 600."""

    def __init__(self, state: State) -> None:
        self.state = state
        self.twin: State | None = None

    def reader(self) -> State:
        """The state to read labels on at this point of the replay."""
        if self.twin is None:
            make = getattr(self.state, "label_twin", None)
            self.twin = make() if callable(make) else self.state
        return self.twin

    def follow(self, action: int) -> None:
        """Keep the twin (if any) at the state's position after ``action``."""
        if self.twin is not None and self.twin is not self.state:
            self.twin.apply_action(action)


Why = Literal["over", "unread", "not_an_action", "illegal", "refused"]
"""Why :func:`play_item` did not play an item: the game was over, a label the game does not
read, neither an id nor a label (``strict`` only), an id not legal there, or a legal id the
state refused to apply."""
Refuse = Callable[[Why, int | None, Exception | None], Exception]
"""``refuse(why, action, exc)``: the error :func:`play_item` raises (``action``: the id, where it
is known: ``illegal`` and ``refused``; ``exc``: the game's own error, for ``unread`` and
``refused``)."""


def play_item(
    state: State,
    item: int | str,
    refuse: Refuse,
    *,
    strict: bool = False,
    labels: LabelReader | None = None,
    before: Callable[[int], None] | None = None,
) -> int:
    """Play one action of a request or a record (an id or a label) in ``state`` and return its
    id, or raise ``refuse(why, ...)``: the one replay of the hint engine's requests, reviews and
    the CLI's game records, each saying the refusal in its own words. ``strict``: an item that
    is neither a label nor an ``int`` (a bool included) is refused (a record read as JSON; a
    request's schema has checked that already). ``labels``: where labels are read, kept in step
    (``None``: on ``state``). ``before(action)``: called with the legal id just before it is
    played (the web table's labelled line)."""
    if state.is_terminal():
        raise refuse("over", None, None)
    action = _action_of(state, item, refuse, strict, labels)
    if action not in state.legal_actions():
        raise refuse("illegal", action, None)
    if before is not None:
        before(action)
    try:
        state.apply_action(action)
        if labels is not None:
            labels.follow(action)
    except (SolverError, ValueError) as exc:
        raise refuse("refused", action, exc) from None
    return action


def _action_of(
    state: State, item: int | str, refuse: Refuse, strict: bool, labels: LabelReader | None
) -> int:
    """The action id ``item`` names: an id as it is, a label read on ``labels``' reader (else on
    ``state``); ``strict``: anything else is refused."""
    if isinstance(item, str):
        reader = state if labels is None else labels.reader()
        try:
            return reader.string_to_action(item)
        except (SolverError, ValueError, KeyError) as exc:
            raise refuse("unread", None, exc) from None
    if strict and (not isinstance(item, int) or isinstance(item, bool)):
        raise refuse("not_an_action", None, None)
    return item
