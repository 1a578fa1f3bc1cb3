"""The core of the Trial's rules: the state's data, the stack of steps, and ``push``.

A state is one JSON-able dict, ``st.data`` (its fields: ``docs/rules/trial-steps.md``). What
the game waits for is a stack of *steps*, ``st.data["stack"]``: each a dict (a *frame*) whose
``"step"`` names its kind. The top step is a decision of one player, a chance node, or an
automatic step that runs at once and pushes the steps it needs above itself (or pops itself).
Every kind is a class registered with :func:`step` in the module of its rule section; the class
declares the frame's fields with their defaults and meanings (``fields``) and its behaviour:

* a **decision**: ``legal(st, f)`` (the action ids open to the deciding player; none: the step is
  passed over) and ``apply(st, f, action)``;
* a **chance** node (``chance = True``): ``outcomes(st, f)`` (action ids with exact
  probabilities; none: passed over) and ``apply``;
* an **automatic** step (``auto = True``): ``run(st, f)``;

and optionally ``who(st, f)`` when the deciding player is not the frame's ``player`` field, and
``describe(st, f, action)`` for a readable label. Three common shapes of decision have a base
class: :class:`YesNo` (``yes`` or ``done``) and :class:`UntilDone` (answers taken one by one
until ``done``) give their ``apply``, :class:`ChooseSpace` (one space of the board) its
``legal``, ``apply`` and ``describe``. Rule sections talk to one another only by pushing step
kinds (never by calling into each other's modules): the layers are static data (``schema``,
``content``, ``board``, ``actions``), this core (with ``history``, ``belongings`` and
``decks``), payments and conditions (``payments``, ``conditions``, ``choices``, ``discards``),
then the rule sections (``setup``, ``turns``, ``cards``, ``fights``, ``locations``, ``store``,
``expeditions``, ``camping``), then the game itself (``rules``) and what reads it (views,
redeals, agents...).
``tests/games/trial/test_layers.py`` checks the import graph.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import TYPE_CHECKING, Any, ClassVar, Protocol

if TYPE_CHECKING:
    from solver.games.trial.actions import Layout
    from solver.games.trial.board import Board
    from solver.games.trial.content import Pack

Frame = dict[str, Any]
"""One step on the stack: ``{"step": KIND, FIELD: VALUE, ...}`` (JSON-able)."""


class Game(Protocol):
    """What the rules read of the game: its content, board, action layout and card check."""

    @property
    def players(self) -> int: ...
    @property
    def pack(self) -> Pack: ...
    @property
    def board(self) -> Board: ...
    @property
    def layout(self) -> Layout: ...
    @property
    def components(self) -> dict[str, Any]: ...
    @property
    def artifact_ids(self) -> set[str]: ...
    @property
    def deck_of(self) -> dict[str, str]: ...
    @property
    def playable(self) -> Callable[[State, int, str], bool]: ...


class State(Protocol):
    """What the rules read and change of a state: its data, its game, the action layout."""

    @property
    def data(self) -> dict[str, Any]: ...
    @property
    def game(self) -> Game: ...
    @property
    def layout(self) -> Layout: ...


class _Required:
    """The default of a frame field that every push must give."""

    def __repr__(self) -> str:
        return "REQUIRED"


REQUIRED: Any = _Required()
"""A field without a default (see :func:`push`)."""

Fields = dict[str, tuple[Any, str]]
"""A step kind's frame fields: name -> (default or :data:`REQUIRED`, meaning)."""

STEPS: dict[str, Any] = {}
"""Every step kind and the class that knows its fields, player, actions, outcomes and effect."""


class Step:
    """The base of the step classes: their frame's fields, and the kind of step they are."""

    fields: ClassVar[Fields] = {}
    auto: ClassVar[bool] = False
    chance: ClassVar[bool] = False


class YesNo(Step):
    """A decision between two answers: ``yes`` (do it; offered where ``yes_open`` says so) or
    ``done`` (decline). The step leaves the stack, then ``answer`` does what the answer says."""

    @classmethod
    def legal(cls, st: State, f: Frame) -> list[int]:
        return [st.layout.DONE, st.layout.YES] if cls.yes_open(st, f) else [st.layout.DONE]

    @classmethod
    def apply(cls, st: State, f: Frame, a: int) -> None:
        pop(st, f)
        cls.answer(st, f, a == st.layout.YES)

    @staticmethod
    def yes_open(st: State, f: Frame) -> bool:
        """Whether ``yes`` is offered (always, unless the kind says when)."""
        return True

    @staticmethod
    def answer(st: State, f: Frame, yes: bool) -> None:
        """The effect of the answer (``yes``, or ``done`` when false)."""
        raise NotImplementedError


class UntilDone(Step):
    """A decision answered again and again until ``done``: each other answer is ``take``n and
    the step waits for the next (``take`` removes it when nothing more may be taken); ``done``
    removes it, then ``finish`` does what ending the decision does."""

    @classmethod
    def apply(cls, st: State, f: Frame, a: int) -> None:
        if a == st.layout.DONE:
            pop(st, f)
            cls.finish(st, f)
        else:
            cls.take(st, f, a)

    @staticmethod
    def take(st: State, f: Frame, a: int) -> None:
        """The effect of an answer other than ``done``."""
        raise NotImplementedError

    @staticmethod
    def finish(st: State, f: Frame) -> None:
        """What ``done`` does once the step has left the stack (nothing, unless the kind says)."""


class ChooseSpace(Step):
    """A decision of one space of the board: ``spaces`` lists the spaces open (by name), the
    step leaves the stack, then ``place`` does what choosing ``space`` does; the label is
    ``words`` with the space's name for ``{}``. (Four steps choose a space this way: a start
    space, a campsite for a gift tent, a tunnel to collapse, a flag's finishing space.)"""

    words: ClassVar[str] = "{}"

    @classmethod
    def legal(cls, st: State, f: Frame) -> list[int]:
        return [st.layout.space(s) for s in cls.spaces(st, f)]

    @classmethod
    def apply(cls, st: State, f: Frame, a: int) -> None:
        pop(st, f)
        cls.place(st, f, st.layout.spaces[a - st.layout.SPACE])

    @classmethod
    def describe(cls, st: State, f: Frame, a: int) -> str:
        return cls.words.format(st.layout.spaces[a - st.layout.SPACE])

    @staticmethod
    def spaces(st: State, f: Frame) -> list[str]:
        """The spaces open to the decision, by name."""
        raise NotImplementedError

    @staticmethod
    def place(st: State, f: Frame, space: str) -> None:
        """The effect of choosing ``space`` (the step has left the stack)."""
        raise NotImplementedError


def step(kind: str) -> Callable[[type], type]:
    """Register the class handling steps of kind ``kind`` (see the module docstring)."""

    def register(cls: type) -> type:
        if kind in STEPS:
            raise ValueError(f"step kind {kind!r} registered twice")
        STEPS[kind] = cls
        return cls

    return register


def _fresh(value: Any) -> Any:
    """A copy of a mutable default (lists and dicts), the value itself otherwise."""
    if type(value) is list:
        return [_fresh(v) for v in value]
    if type(value) is dict:
        return {k: _fresh(v) for k, v in value.items()}
    return value


def push(st: State, kind: str, /, **given: Any) -> Frame:
    """Push a step of ``kind`` (it runs before the steps under it): the fields given, the
    declared defaults for the others. A field the kind does not declare, or a required one
    missing, is a programming error (``TypeError``)."""
    fields = STEPS[kind].fields
    frame: Frame = {"step": kind}
    for name, (default, _) in fields.items():
        if name in given:
            frame[name] = given[name]
        elif default is REQUIRED:
            raise TypeError(f"a {kind} step needs its field {name!r}")
        else:
            frame[name] = _fresh(default)
    for name in given:
        if name not in fields:
            raise TypeError(f"a {kind} step has no field {name!r}")
    st.data["stack"].append(frame)
    return frame


def pop(st: State, frame: Frame) -> None:
    """Remove ``frame`` (normally the top step)."""
    stack = st.data["stack"]
    for i in range(len(stack) - 1, -1, -1):
        if stack[i] is frame:
            del stack[i]
            return
    raise RuntimeError("internal: a step was removed twice")


def find(st: State, kind: str, **match: Any) -> Frame | None:
    """The nearest step of ``kind`` in the stack (top first) whose fields equal ``match``."""
    for frame in reversed(st.data["stack"]):
        if frame["step"] == kind and all(frame.get(k) == v for k, v in match.items()):
            return frame
    return None


def get_path(card: dict[str, Any], path: list[Any]) -> Any:
    """The part of ``card`` at ``path`` (keys and indices): where a step's card text is."""
    node: Any = card
    for key in path:
        node = node[key]
    return node


def card_text(st: State, f: Frame) -> Any:
    """What a card-text step reads: the part of its frame's ``card`` at its ``path``."""
    return get_path(st.game.pack.card(f["card"]), f["path"])


def words(name: str) -> str:
    """A data name as a player reads it in a label: ``card_draw`` -> ``card draw``."""
    return name.replace("_", " ")


def spot_words(spot: str) -> str:
    """A campsite as a player names it: ``camp-2``, or ``the universal campsite`` (the data's
    ``universal``)."""
    return "the universal campsite" if spot == "universal" else spot


def turn_words(view: Mapping[str, Any]) -> str:
    """Whose turn it is, from a state's data or a player's observation (``day``,
    ``turn_player``, ``players``): ``player 2's turn``; between two turns ``between turns`` (the
    day's camping and deals), before anyone stands on the board ``setting up``."""
    if view["turn_player"] is not None:
        return f"player {view['turn_player']}'s turn"
    started = view["day"] > 1 or view["players"][0]["space"] is not None
    return "between turns" if started else "setting up"


def card_text_fields(what: str) -> Fields:
    """The frame fields of a card-text step (one running part of a card's text, read with
    :func:`card_text`): the card, and the path to ``what`` in it."""
    return {
        "card": (REQUIRED, "the card"),
        "path": (REQUIRED, f"where {what} is in the card (keys and indices)"),
    }


def enclosing(st: State, kind: str) -> Frame:
    """The nearest step of ``kind``, which a step pushed on its behalf works for (a fight's
    weapon choice, a roll's re-roll): it must be on the stack."""
    frame = find(st, kind)
    if frame is None:
        raise RuntimeError(f"internal: no {kind} step on the stack")
    return frame


def player(st: State, p: int) -> dict[str, Any]:
    """Player ``p``'s part of the state."""
    return st.data["players"][p]


def order_from(st: State, p: int, include_self: bool) -> list[int]:
    """Players in turn order starting at ``p`` (or at the player on ``p``'s left)."""
    n = st.data["player_count"]
    start = 0 if include_self else 1
    return [(p + i) % n for i in range(start, n)]
