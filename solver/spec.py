"""A game's declaration: everything the shared machinery needs to know about one game.

Every game, built in or shipped by another distribution, declares itself once with a
:class:`GameSpec`: its name, its engines, its player counts, its capabilities (hidden
information, constant sum, a heuristic, the utility range, exact search, its agents and their
play defaults), its files and puzzles, its pictures, its own command-line commands and its
analysis hooks. The registry (:mod:`solver.registry`) collects the specs; the CLI, the agents, the
analysis runner and the hint engine read only the spec and the game protocol (:mod:`solver.game`),
never probing a state for optional methods. A hook a game lacks is ``None``, and the generic
command that needs it says "not supported for GAME".

A hook is a callable or a ``"module:attribute"`` string naming one; a string is imported on first
use, so a declaration imports nothing heavy (the kernel, CP-SAT models, plotting) and no
forwarding function is needed. Every field is described in ``docs/game-spec.md`` (generated from
this module by :mod:`solver.spec_reference`).

>>> from solver.registry import game_spec
>>> spec = game_spec("dog")
>>> spec.name, spec.players, sorted(spec.engines)
('dog', (1,), ['kernel', 'reference'])
>>> spec.supports("render_svg"), spec.extensions
(True, ('.forest',))
>>> spec.hidden_information, spec.has_heuristic("kernel"), spec.has_heuristic("reference")
(False, True, True)
>>> spec.agent_names(), spec.strongest_agent, spec.play_iterations("mcts")
(['mcts', 'exact', 'random', 'greedy'], 'mcts', 1000)
"""

from __future__ import annotations

import functools
import importlib
import math
import os
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field, fields
from typing import TYPE_CHECKING, Any, Generic, TypeVar

from solver.errors import OptionError, shortened

if TYPE_CHECKING:
    from solver.game import Game, State

__all__ = [
    "ENGINES",
    "HINT_ITERATIONS",
    "SHARED_AGENTS",
    "Agent",
    "AgentFactory",
    "AgentSpec",
    "AnalysisHooks",
    "GameSpec",
    "Hook",
    "Opened",
    "OptionChoices",
    "Rung",
    "check_iterations",
    "resolve_reference",
    "unsupported",
]

Agent = Callable[["State"], int]
"""An agent: a callable choosing an action at a decision node."""

AgentFactory = Callable[..., Agent]
"""``factory(game, *, seed, iterations) -> Agent``: builds a game-specific agent."""


def _is_count(value: object) -> bool:
    """Whether ``value`` is a whole number of at least 1 (``True`` is not one): a budget, a
    player count, a number of games. Each caller refuses it in its own words."""
    return isinstance(value, int) and not isinstance(value, bool) and value >= 1


def check_iterations(value: object, name: str = "iterations") -> None:
    """Refuse an agent's budget (``iterations``, or another count ``name``) that is not a whole
    number of at least 1: the one check every agent factory makes, in the same words."""
    if not _is_count(value):
        raise OptionError(f"{name} must be a whole number of at least 1, not {value}")


ENGINES = ("kernel", "reference")
"""The engine names the built-in games use (a third-party game may declare others)."""

HINT_ITERATIONS = 1000
"""A hint's simulations a search unless its request says (``Caps.default_iterations``), and so a
review's a position where the game declares no :attr:`GameSpec.review_iterations`. Here, not in
the hint engine, so ``forest GAME --help`` states it without importing the engine."""

GameFactory = Callable[..., "Game"]
"""``factory(**options) -> Game``: builds a game with one engine."""

T = TypeVar("T")


def _check_shape(reference: str, what: str) -> None:
    """Refuse a reference that is not ``"module:attribute"`` (nothing is imported)."""
    module, colon, attribute = reference.partition(":")
    if not colon or not module or not attribute:
        raise OptionError(f"{what}: a reference is 'module:attribute', not {reference!r}")


def resolve_reference(reference: str, what: str) -> Any:
    """The object ``reference`` (``"package.module:attribute"``, the attribute possibly dotted)
    names, imported now. ``what`` names the reference in errors (``"game 'dog': render_text"``).

    A malformed reference, a missing module (the one named, or one it needs) or a missing
    attribute is an :class:`~solver.errors.OptionError` naming ``what`` and the reference; any
    other error raised while the module runs (a bug in it) propagates unchanged.

    >>> resolve_reference("solver.errors:OptionError", "a test").__name__
    'OptionError'
    >>> resolve_reference("solver.errors", "a test")
    Traceback (most recent call last):
    ...
    solver.errors.OptionError: a test: a reference is 'module:attribute', not 'solver.errors'
    """
    _check_shape(reference, what)
    module, _, attribute = reference.partition(":")
    try:
        value: Any = importlib.import_module(module)
    except ModuleNotFoundError as exc:
        missing = exc.name or "?"
        if module == missing or module.startswith(missing + "."):
            raise OptionError(f"{what}: no module {missing!r} ({reference})") from exc
        raise OptionError(
            f"{what} ({reference}) needs the module {missing!r}, which is not installed"
        ) from exc
    for part in attribute.split("."):
        try:
            value = getattr(value, part)
        except AttributeError:
            raise OptionError(f"{what}: {module} has no attribute {attribute!r}") from None
    return value


class LazyCallable:
    """A callable named by a ``"module:attribute"`` reference, imported on its first call."""

    __slots__ = ("_target", "reference", "what")

    def __init__(self, reference: str, what: str) -> None:
        _check_shape(reference, what)
        self.reference = reference
        self.what = what
        self._target: Callable[..., Any] | None = None

    def resolve(self) -> Callable[..., Any]:
        """The callable itself (imported now if it is not yet)."""
        if self._target is None:
            target = resolve_reference(self.reference, self.what)
            if not callable(target):
                raise OptionError(f"{self.what} ({self.reference}) is not callable")
            self._target = target
        return self._target

    def __call__(self, *args: Any, **keywords: Any) -> Any:
        return self.resolve()(*args, **keywords)

    def __repr__(self) -> str:
        return f"<{self.what}: {self.reference}>"


def as_callable(value: Any, what: str) -> Callable[..., Any]:
    """``value`` as a callable: a reference string becomes a :class:`LazyCallable` (imported on
    first call); anything else must be callable."""
    if isinstance(value, str):
        return LazyCallable(value, what)
    if not callable(value):
        raise OptionError(
            f"{what} must be a callable or a 'module:attribute' string, not {type(value).__name__}"
        )
    return value


_REQUIRED: Any = object()


class _Field:
    """A :class:`GameSpec` field that converts what is declared (a dataclass descriptor field:
    its ``__set__`` type is the constructor's, its ``__get__`` type the attribute's)."""

    def __init__(self, default: Any = None) -> None:
        self.default = default
        self.name = ""

    def __set_name__(self, owner: type, name: str) -> None:
        self.name = name

    def _default(self) -> Any:
        if self.default is _REQUIRED:  # the dataclass reads the default this way: none
            raise AttributeError(self.name)
        return self.default


def check_game_name(spec_name: str, game: Any, where: str) -> None:
    """Refuse a game object whose ``name`` is not its spec's: the registry finds a game's spec
    by ``game.name``, so a mismatch would make ``solve`` and ``play`` say "unknown game"."""
    name = getattr(game, "name", None)
    if name != spec_name:
        raise OptionError(
            f"game {spec_name!r}: {where} gave a game whose name is {name!r}; a game's "
            f"`name` must be its GameSpec's name (set name = {spec_name!r} on the game class)"
        )


def _named_opener(spec_name: str, hook: str, opener: Callable[..., Any]) -> Callable[..., Any]:
    """``opener`` checking that the game it opens carries ``spec_name``."""

    @functools.wraps(opener)
    def open_checked(*args: Any, **keywords: Any) -> Any:
        opened = opener(*args, **keywords)
        check_game_name(spec_name, opened.game, hook)
        return opened

    return open_checked


def _named_factory(spec_name: str, engine: str, factory: Callable[..., Any]) -> Callable[..., Any]:
    """``factory`` checking that the game it builds carries ``spec_name``."""

    @functools.wraps(factory)
    def build_checked(**options: Any) -> Any:
        game = factory(**options)
        check_game_name(spec_name, game, f"engine {engine!r}")
        return game

    return build_checked


class Hook(_Field, Generic[T]):
    """A hook: ``None``, a value, or a ``"module:attribute"`` string imported the first time the
    field is read (then kept). ``callable_hook=False`` (``analysis``): the reference may name the
    value or a zero-argument function building it. ``opener=True`` (``open``, ``open_text``):
    the game it opens must carry the spec's name."""

    def __init__(
        self, default: Any = None, *, callable_hook: bool = True, opener: bool = False
    ) -> None:
        super().__init__(default)
        self.callable_hook = callable_hook
        self.opener = opener

    def __get__(self, spec: Any, owner: Any = None) -> T:
        if spec is None:
            return self._default()
        value = spec.__dict__[self.name]
        if isinstance(value, str):
            value = self._finish(spec, self._resolve(spec, value))
            spec.__dict__[self.name] = value
        return value

    def __set__(self, spec: Any, value: T | str) -> None:
        what = f"game {spec.name!r}: {self.name}"
        if isinstance(value, str):
            _check_shape(value, what)
        elif value is not None and self.callable_hook and not callable(value):
            raise OptionError(
                f"{what} must be a callable or a 'module:attribute' string, not "
                f"{type(value).__name__}"
            )
        elif value is not None:
            value = self._finish(spec, value)
        spec.__dict__[self.name] = value

    def _finish(self, spec: Any, value: Any) -> Any:
        return _named_opener(spec.name, self.name, value) if self.opener else value

    def _resolve(self, spec: Any, reference: str) -> Any:
        what = f"game {spec.name!r}: {self.name}"
        value = resolve_reference(reference, what)
        if self.callable_hook:
            if not callable(value):
                raise OptionError(f"{what} ({reference}) is not callable")
        elif callable(value):
            value = value()
        return value


class _Engines(_Field):
    """``engines``: factories or references to them (each imported on its first call)."""

    def __get__(self, spec: Any, owner: Any = None) -> Mapping[str, GameFactory]:
        if spec is None:
            return self._default()
        return spec.__dict__[self.name]

    def __set__(self, spec: Any, value: Mapping[str, GameFactory | str]) -> None:
        if not isinstance(value, Mapping):
            raise OptionError(f"game {spec.name!r}: engines is a mapping, not {value!r}")
        spec.__dict__[self.name] = {
            engine: _named_factory(
                spec.name, engine, as_callable(factory, f"game {spec.name!r}: engine {engine!r}")
            )
            for engine, factory in value.items()
        }


class _Agents(_Field):
    """``agents``: each an :class:`AgentSpec`, a factory or a reference to one (default: none)."""

    def __get__(self, spec: Any, owner: Any = None) -> Mapping[str, AgentSpec]:
        if spec is None:
            return self._default()
        return spec.__dict__[self.name]

    def __set__(
        self, spec: Any, value: Mapping[str, AgentSpec | AgentFactory | str] | None
    ) -> None:
        if value is None:  # the default: no agents of its own
            value = {}
        if not isinstance(value, Mapping):
            raise OptionError(f"game {spec.name!r}: agents is a mapping, not {value!r}")
        agents = {}
        for name, declared in value.items():
            if not isinstance(name, str) or not name.isidentifier():
                raise OptionError(
                    f"game {spec.name!r}: an agent name is an identifier, not {name!r}"
                )
            if not isinstance(declared, AgentSpec):
                declared = AgentSpec(as_callable(declared, f"game {spec.name!r}: agent {name!r}"))
            agents[name] = declared
        spec.__dict__[self.name] = agents


@dataclass(frozen=True)
class Opened:
    """A game and a position, as opened from a file, a puzzle name or the game's default.

    What a game's :data:`Opener` returns, and what the generic commands (``forest GAME show``,
    ``solve``, ``play``...), the hint engine and the OpenSpiel wrapper work on.

    - ``game``: the game object (it speaks the protocol of :mod:`solver.game`; its ``name`` is
      the spec's ``name``).
    - ``state``: the position opened: the game's start (``game.new_initial_state()``), or for a
      saved state or a position file the state it holds.
    - ``source``: what to call it in messages and reports: the puzzle name, the path as given, or
      ``"default"`` for the game's default set-up.
    """

    game: Game
    state: State
    source: str


Opener = Callable[..., Opened]
"""``opener(source, *, engine=None, players=None) -> Opened``.

``source`` is a path, a puzzle name such as ``"dog/tiny-example"``, or ``None`` for the game's
default set-up (a game without one raises :class:`~solver.errors.OptionError`)."""


@dataclass(frozen=True)
class AgentSpec:
    """One agent a game offers: how to build it and how it plays by default.

    - ``factory``: ``factory(game, *, seed, iterations) -> agent`` (or a ``"module:attribute"``
      string naming it); ``iterations`` is the search budget per decision.
    - ``iterations``: its play default, the simulations per decision it uses when the caller
      (``forest GAME play`` without ``--iterations``) names none; ``None``: it searches nothing
      (greedy, scripted and exact agents), so no budget is passed unless one is asked for.
    - ``summary``: one line saying what it is (``forest GAME play --help``).
    - ``budget``: what ``iterations`` counts, in the words that follow the number wherever a
      budget is shown (``--help``, ``solve``): ``"simulations a decision"`` unless the agent's
      budget counts something else (guardians' ``lookahead``: ``"continuations a decision"``).
    """

    factory: AgentFactory | str
    iterations: int | None = None
    summary: str = ""
    budget: str = "simulations a decision"

    def budget_text(self, iterations: int | None = None) -> str:
        """``iterations`` (default: the play default) in the agent's words: ``"4 continuations
        a decision"``; ``"no budget"`` when there is none (it searches nothing, or searches
        to the end: the exact agent)."""
        budget = self.iterations if iterations is None else iterations
        if not budget:
            return "no budget"
        unit, _, rest = self.budget.partition(" ")
        if budget == 1 and unit.endswith("s") and unit != "times":
            unit = unit[:-1]  # "1 simulation a decision"
        return " ".join(filter(None, (str(budget), unit, rest)))

    def __post_init__(self) -> None:
        object.__setattr__(self, "factory", as_callable(self.factory, "an agent factory"))
        it = self.iterations
        if it is not None and not _is_count(it):
            raise OptionError(f"an agent's play default is a whole number, 1 or more, not {it!r}")

    def build(self, game: Game, *, seed: int = 0, iterations: int | None = None) -> Agent:
        """The agent for ``game``: ``iterations`` simulations per decision when given, else its
        play default (a factory is called without ``iterations`` when neither says any)."""
        factory: Any = self.factory  # a callable since __post_init__
        budget = self.iterations if iterations is None else iterations
        if budget is None:
            return factory(game, seed=seed)
        return factory(game, seed=seed, iterations=budget)

    def __call__(self, game: Game, *, seed: int = 0, iterations: int | None = None) -> Agent:
        return self.build(game, seed=seed, iterations=iterations)


@dataclass(frozen=True)
class OptionChoices:
    """The few values one of a game's own :attr:`GameSpec.options` takes, for a surface that
    offers them as a list (the web table): ``values``, the first the default; ``players``: the
    player counts the option applies to (``None``: every count)."""

    values: tuple[int, ...]
    players: tuple[int, ...] | None = None

    def __post_init__(self) -> None:
        if not self.values or any(
            isinstance(v, bool) or not isinstance(v, int) for v in self.values
        ):
            raise OptionError(f"an option's choices are whole numbers, not {self.values!r}")


@dataclass(frozen=True)
class Rung:
    """One level of a game's strength ladder (:mod:`solver.ladder`): the agent ``agent`` (one of
    the game's agents) at ``iterations`` simulations per decision (``None``: its play default, or
    no budget for an agent that searches nothing), playing a uniformly random legal move instead
    of its own with probability ``noise``; ``summary`` says in a few words what it is."""

    agent: str
    iterations: int | None = None
    noise: float = 0.0
    summary: str = ""

    def __post_init__(self) -> None:
        it = self.iterations
        if it is not None and not _is_count(it):
            raise OptionError(f"a rung's budget is a whole number, 1 or more, not {it!r}")
        if not (isinstance(self.noise, (int, float)) and 0.0 <= self.noise <= 1.0):
            raise OptionError(f"a rung's noise is a probability from 0 to 1, not {self.noise!r}")


SHARED_AGENTS: Mapping[str, AgentSpec] = {
    "mcts": AgentSpec(
        "solver.search.agents:mcts_agent",
        iterations=1000,
        summary="MCTS in the strong configuration (leaves valued by the game's heuristic where "
        "it has one); perfect-information games",
    ),
    "ismcts": AgentSpec(
        "solver.search.agents:ismcts_agent",
        iterations=1000,
        summary="information-set MCTS from the seat's own view; hidden-information games",
    ),
    "exact": AgentSpec(
        "solver.search.agents:exact_agent",
        summary="the optimal policy of exact expectimax; games offering exact search",
    ),
    "random": AgentSpec(
        "solver.search.agents:random_factory", summary="uniform among the legal moves"
    ),
}
"""The agents every game gets where its capabilities allow: ``mcts`` without hidden information,
``ismcts`` with it, ``exact`` where exact search is offered, ``random`` always. A game's own agent
of the same name replaces the shared one (guardians' ``mcts``)."""


@dataclass(frozen=True)
class AnalysisHooks:
    """How ``forest analyse --game NAME`` handles one game's instances.

    The runner (:mod:`solver.analysis`) is game-agnostic: it rolls or reads instances, runs the
    analysis function in worker processes, journals and writes the rows, reports and curates, all
    through these hooks.

    - ``load(path)``: an instance read from a file (a parse error is a
      :class:`~solver.errors.FormatError`); ``dump(instance)``: its file text, so curated
      instances are re-serialised, never copied byte for byte.
    - ``analyse``: ``"module:function"``, a picklable function ``fn(source) -> row`` run in worker
      processes; ``source`` is a :class:`solver.analysis.sources.Source` (``source.load()`` gives
      the instance), the row a flat dict holding at least ``class``.
    - ``roll(seed, size, turns)``: the instance the game's generator rolls (``size`` a
      ``(width, height)`` pair, ``turns`` an optional turn limit); ``None``: no generator, so
      ``--count`` is refused.
    - ``columns``: the game's own result columns in order, each with its type (``"Int64"``,
      ``"float64"``, ``"boolean"`` or ``"string"``); the shared ones (``source``, ``width``,
      ``height``, ``class``, ``seconds``, ``error``) need no declaration.
    - ``classes``: the solvability classes, each with a one-line definition, in report order.
    - ``advice``: per class, what to change when every instance of a batch lands in it.
    - ``value_column``: the column holding each instance's value (for the report's histogram).
    - ``budgets``: one line naming the analysis budgets, recorded in the report.
    - ``report(frame, directory, load_row)``: the game's own report sections (markdown lines,
      plots written into ``directory``); ``load_row(row)`` gives a row's instance.
    - ``extension``: the file extension of saved instances; ``noun``: what an instance is called.
    - ``size_range``: the smallest and largest width/height the generator accepts;
      ``turns_range``: the turn limits ``--turns`` accepts (``None``: no turn limit);
      ``turns_label``: what the report calls them (``"turn limits"``; a game whose ``--turns``
      bounds something else names that, as a player would: the Trial's action cap).
    - ``max_file_bytes``: the largest instance file read (a longer one is refused unread).
    - ``size_names``: what the two numbers of ``--size AxB`` are (the dog's ``width`` and
      ``height``; a game without a grid may give them another meaning, such as players and
      games); the results keep them in the ``width`` and ``height`` columns.
      ``size_ranges``: per number, the values accepted (``None``: ``size_range`` for both);
      ``default_size``: the size rolled when ``--size`` is not given.
    - ``skill_games``: whether the analysis plays games for its skill measure (the strength
      ladder's strongest level against its weakest), so that ``--skill-games N`` asks for N of
      them per instance (``source.skill_games``; 0, the default, skips the measure); a game whose
      skill measure needs no games (the dog's is computed) leaves it False and the option is
      refused for it.

    A game's analysis module usually builds them with :meth:`of_module`, naming only what its
    conventional names do not give.
    """

    load: Callable[[str], Any]
    dump: Callable[[Any], str]
    analyse: str
    roll: Callable[[int, tuple[int, int], int | None], Any] | None = None
    columns: Mapping[str, str] = field(default_factory=dict)
    classes: Mapping[str, str] = field(default_factory=dict)
    advice: Mapping[str, str] = field(default_factory=dict)
    value_column: str | None = None
    budgets: str = ""
    report: Callable[..., list[str]] | None = None
    extension: str = ""
    noun: str = "instance"
    size_range: tuple[int, int] = (1, 1)
    turns_range: tuple[int, int] | None = None
    turns_label: str = "turn limits"
    max_file_bytes: int = 1 << 20
    size_names: tuple[str, str] = ("width", "height")
    size_ranges: tuple[tuple[int, int], tuple[int, int]] | None = None
    default_size: tuple[int, int] = (9, 9)
    skill_games: bool = False

    def sizes(self) -> tuple[tuple[int, int], tuple[int, int]]:
        """The values each number of a size accepts, in :attr:`size_names` order:
        :attr:`size_ranges`, else :attr:`size_range` for both (``--size``, ``POST /v1/roll`` and
        the web table's Size field check the same)."""
        return self.size_ranges or (self.size_range, self.size_range)

    @classmethod
    def of_module(cls, module: str, **declared: Any) -> AnalysisHooks:
        """The hooks of a game's analysis module ``module`` (its ``__name__``), read by name: the
        functions ``load``, ``dump``, ``roll`` and ``report_sections`` (``report``), the tables
        ``COLUMNS``, ``CLASSES`` and ``ADVICE``, and ``analyse`` naming its ``analyse_source``,
        each where the module defines it; ``declared`` on top (the settings, and any hook the
        module names otherwise). So a game's ``analysis_hooks()`` states only what differs."""
        found = vars(importlib.import_module(module))
        hooks: dict[str, Any] = {
            name: found[attr] for name, attr in _MODULE_HOOKS.items() if attr in found
        }
        if "analyse_source" in found:
            hooks["analyse"] = f"{module}:analyse_source"
        return cls(**(hooks | declared))


_MODULE_HOOKS = {
    "load": "load",
    "dump": "dump",
    "roll": "roll",
    "report": "report_sections",
    "columns": "COLUMNS",
    "classes": "CLASSES",
    "advice": "ADVICE",
}
"""The :class:`AnalysisHooks` fields :meth:`AnalysisHooks.of_module` reads from a game's analysis
module, and the module attribute each is read from."""


@dataclass(frozen=True, eq=False, repr=False)
class GameSpec:
    """One game's declaration (see the module docstring and ``docs/game-spec.md``).

    Required: ``name``, ``title``, ``summary``, ``players``, ``engines`` and ``open``. Everything
    else is optional. Hooks (the callable fields, ``engines``' and ``agents``' values,
    ``analysis``) may be given as ``"module:attribute"`` strings, imported on first use.
    """

    name: str
    """The game's name: a lower-case identifier, used on the command line (``forest NAME``), in
    puzzle names (``NAME/PUZZLE``) and as ``load_game(NAME)``; every game object its engines
    build must carry it as ``game.name`` (checked when a game is built)."""
    title: str
    """The game's title for listings (``forest games``): ``"the dog game"``."""
    summary: str
    """One line saying what the game is, for listings."""
    players: tuple[int, ...]
    """The player counts the game supports: ``(1,)``, ``(2, 3, 4)``..."""
    engines: _Engines = _Engines(_REQUIRED)
    """Engine name to factory, ``factory(**options) -> Game``: ``"kernel"`` for a compiled
    engine, ``"reference"`` for the pure-Python rules. The options are the game's own
    (``load_game("dog", forest=...)``)."""
    open: Hook[Opener] = Hook(_REQUIRED, opener=True)
    """An :data:`Opener`: ``open(source, *, engine=None, players=None) -> Opened``, the game and
    position from a path, a puzzle name or ``None`` (the default set-up). A game declaring
    :attr:`options` gets them too, as keywords (only those given)."""
    options: Mapping[str, str] = field(default_factory=dict)
    """The game's own options besides ``engine`` and ``players`` (name → one line of help),
    which its opener takes as keywords and hands to its engines' factories: the generic
    commands take them as ``--option NAME=VALUE`` (repeatable; a VALUE that reads as JSON is
    that number, boolean or list, else the text), ``load_game(NAME, **options)`` takes them
    directly, a hint request's ``options`` too (a text value only where paths are read: it may
    name a file), and ``play --record`` keeps them in the record. Guardians: ``level`` and
    ``tiles``. No types are declared: a text given to an option with :attr:`option_choices`, or
    whose default on the game built without options (its attribute of that name) is a boolean,
    a number or a list, is refused naming what it takes (:mod:`solver.option_values`), and so is
    any other JSON value of a type the option does not take (``level=[3]``): the type of the
    choices or of the default; an option whose default is an object of the game's own (a file's
    content: guardians' ``TileSet``) takes a text (the file's path) or an object (its JSON
    form). The check is the same in ``load_game``, ``--option`` and a hint request."""
    option_choices: Mapping[str, OptionChoices] = field(default_factory=dict)
    """For an option of :attr:`options` that takes a few values, those values
    (:class:`OptionChoices`), which the web table offers as a list; the catalog lists them.
    Guardians: ``level`` 1 to 6, for one player."""

    # -- capabilities -------------------------------------------------------------------------
    hidden_information: bool = False
    """Whether players hide information from each other (hands, decks): its states then give
    ``observation(player)``, ``information_state_string(player)`` and
    ``resample_hidden(player, rng)``, the searchers play ``ismcts`` from a seat's view, and the
    shared ``mcts`` agent (which would read every hidden card) is not offered."""
    constant_sum: bool = False
    """Whether, with two or more players, every game's final returns add up to the top of
    :attr:`utility_range` (one win, shared among the winners): a zero-sum contest, OpenSpiel's
    ``CONSTANT_SUM``. ``False``: general sum, or one player."""
    heuristic: bool | tuple[str, ...] = False
    """Whether states give ``heuristic(player)``, an estimate in the utility range of the
    player's return (the MCTS leaf evaluator and depth-limited expectimax use it): ``True`` for
    every engine, or the engines that have one (``("kernel",)``: only the compiled engine)."""
    utility_range: tuple[float, float] = (0.0, 1.0)
    """The smallest and largest return any player can get (the protocol's returns lie in
    ``[0, 1]``: a win probability, or a score scaled into it)."""
    exact: bool = True
    """Whether exact expectimax is offered (``--exact``, the ``exact`` agent): small enough
    positions exist for the whole game tree to be searched."""
    agents: _Agents = _Agents()
    """The game's own agents by name, each an :class:`AgentSpec` (its factory, play default and
    summary), a factory or a ``"module:attribute"`` string naming one (a factory alone declares
    no play default). The shared agents (:data:`SHARED_AGENTS`) need no declaration; a game's
    agent named like a shared one replaces it."""
    default_agent: str | None = None
    """The game's strongest agent, the one ``solve``, ``best-move`` and ``play`` use unless told:
    one of :meth:`agent_names`. ``None``: ``ismcts`` with hidden information, else ``mcts``."""
    hint_agent: str | None = None
    """An agent (one of :meth:`agent_names`) whose move ``best-move`` and hints list first among
    the moves their search values alike (:mod:`solver.agent_first`): where the search's
    heuristic is blind to what an agent plans (guardians' tile placements before a pawn stands
    by them are all valued the same), the hint still leads with a strong move, and says so.
    ``None``: the search's order alone."""
    play_games: int = 100
    """The games ``play`` plays unless ``--games`` says: fewer where the strongest agent takes
    seconds a game, so a default ``play`` answers in about a minute (guardians' two lookahead
    seats: about 4 s a game, so 10 games; the Trial's four ISMCTS seats: about 22 s, so 2)."""
    solve_agent: str | None = None
    """The agent ``solve``'s estimate plays when none is asked for (no ``--agent``,
    ``--strength`` or ``--iterations``): a quick one where the strongest agent takes many seconds
    a game. No shipped game declares one: ``solve`` defaults to the strongest agent (issue 16),
    and :attr:`solve_iterations` makes its games quick instead. ``None``:
    :attr:`strongest_agent`."""
    solve_iterations: int | None = None
    """The budget, in the strongest agent's own unit, its games play at in ``solve``'s default
    estimate (no ``--agent``, ``--strength`` or ``--iterations``), where at its play default a
    game takes so long that :attr:`solve_seconds` plays too few for an interval that says
    anything (one or two games: an interval as wide as [0.2, 1.0]; the measured game costs are
    in docs/command-line.md). The answer names the budget and a note says how to ask for the
    play default. ``None``: the play default."""
    solve_seconds: float = 60.0
    """``solve``'s ``--seconds`` unless told: it stops starting games of its estimate after
    this many seconds (at least one game is played; a strong agent's whole games are slow, so
    the default bounds the 200 games ``--games`` allows)."""
    review_iterations: int | None = None
    """The simulations a position ``review`` (``forest GAME review``, ``POST /v1/review``) gives
    a non-exact position unless told (no ``--iterations``/``--seconds``, no ``limit``): fewer
    where a long game's every position searched at a hint's default would take minutes (the
    Trial: about 750 positions a four-player game, 1000 simulations took 75 s of CPU, so 300).
    ``None``: a hint's default (:data:`HINT_ITERATIONS`, 1000)."""
    ladder: tuple[Rung, ...] | None = None
    """The strength ladder, ten :class:`Rung` from ``level1`` (weakest) to ``level10`` (the
    strongest agent), each beating the one below; the agents ``level1`` ... ``level10`` and
    ``--strength K`` play them. ``None``: the ladder built from :attr:`strongest_agent` alone
    (:func:`solver.ladder.default_ladder`). A built-in game's ladder is calibrated in
    ``bench/results/ladder-NAME.md`` (two-player games of each adjacent pair and level1 against
    level10 where it has two players or more; how: ``docs/search.md``)."""
    value_kind: str = "win probability"
    """What a state's value is: ``"win probability"`` or ``"expected score"``."""
    ismcts_options: Hook[Callable[[State], Any] | None] = Hook()
    """``ismcts_options(state) -> MCTSOptions``: the ISMCTS configuration hints and ``best-move``
    search this game's positions with (the leaf evaluator and ``c`` its own ``ismcts`` agent was
    tuned to, say). ``None``: :func:`solver.search.ismcts.ismcts_options` (heavy playouts where
    the state has a playout policy, else its heuristic, else random rollouts)."""

    # -- files and puzzles --------------------------------------------------------------------
    extensions: tuple[str, ...] = ()
    """File extensions of the game's files (``.forest``); the first is the canonical one."""
    load_file: Hook[Callable[[str], Any] | None] = Hook()
    """Reads one of the game's files (a path) into the game's own object (a ``Forest``...)."""
    puzzles: str | None = None
    """Where the game's curated puzzles are: ``"module:folder"`` (a folder of the package
    ``module``, as a plug-in ships them: ``"pebbles_game:puzzles"``), or a plain folder name of
    this library's own puzzle data (the built-in games: ``"dog"``). A puzzle is then named
    ``NAME/STEM`` for the file ``STEM + extensions[0]`` there, read by ``load_file``.
    ``None``: no puzzles."""
    example: str | None = None
    """A puzzle to use wherever an example is needed (OpenSpiel's default parameter, docs)."""
    file_parameter: str = "source"
    """The name of the file option where one is named (OpenSpiel's parameter: ``forest``...)."""
    max_game_length: Hook[Callable[[Game], int] | None] = Hook()
    """The most actions (chance included) a game can last, for OpenSpiel; ``None``: unknown."""
    state_players: Hook[Callable[[str], int | None] | None] = Hook()
    """The player count a saved state's JSON is for (``--state`` without ``--players``)."""
    state_options: Hook[Callable[[str], dict[str, Any]] | None] = Hook()
    """The game options a saved state's JSON records (guardians: a solo state's ``level``, and
    every state's ``open_backs`` by its shape),
    taken where the command (``--option``) or the hint request (``options``) gives none, so a
    state opens in the game it was saved in; an option given that differs is the state
    reader's to refuse. ``None``: a state records none."""
    default_source: bool = False
    """Whether ``open(None)`` works (a default set-up), so a FILE argument is optional."""
    source_option: str | None = None
    """The game option that names the game's file (the dog's ``forest``): the hint engine reads
    a request's ``options[source_option]`` as a puzzle name, the file's text or (``forest hint
    --stdio`` only) a path. ``None``: requests open the game's default set-up."""
    open_text: Hook[Callable[..., Opened] | None] = Hook(opener=True)
    """``open_text(text, *, engine=None, players=None) -> Opened``: the game from its file's text
    (a request's inline file; a parse error is a :class:`~solver.errors.FormatError`). A game
    with :attr:`options` takes them as keywords too (``**options``, as ``open`` does): a
    request's ``options`` may set them."""

    # -- pictures and listings ----------------------------------------------------------------
    render_text: Hook[Callable[[Game, State | None], str] | None] = Hook()
    """The position as text (``forest GAME show``); ``None`` state: the set-up itself."""
    legend: Hook[Callable[[Game, State | None], str] | None] = Hook()
    """A legend of the text picture's symbols, printed under it (same arguments)."""
    quiet_turns: Hook[Callable[[Game, State, State], Sequence[str]] | None] = Hook()
    """``quiet_turns(game, before, after) -> lines``: the turns one action spent with no
    decision of theirs (the dog's skipped and resting turns, docs/rules/dog.md §3), one line
    each saying which turn and why. ``play --human`` prints them after the action, so the turn
    count never jumps unexplained (turn 1, then turn 3). ``None``: the game has none."""
    render_svg: Hook[Callable[[Game, State | None, Sequence[int]], str] | None] = Hook()
    """The position as SVG, given the actions played from the start (``forest GAME render``)."""
    table_view: Hook[Callable[[Game, State, int], dict[str, Any]] | None] = Hook()
    """What the web table shows beside the picture for seat ``seat`` (``(game, state, seat)``):
    ``{"panels": [{"title", "items": [{"text", "detail"?, "actions"?}]}]}``. An item's
    ``actions`` (legal action ids) make it clickable: one action plays it, several narrow the
    move buttons to them (pick a tile, then a cell). Optional keys: ``"svg"``, the seat's
    picture (a hidden-information game's session shows it instead of none), and ``"targets"``,
    ``[{"attr", "value", "actions"}]``: the picture's elements whose attribute ``attr`` is
    ``value`` become clickable for those actions. Only what ``seat`` may see: a
    hidden-information game's session shows it to that seat. ``None``: the picture and the move
    buttons alone."""
    svg_point: Hook[Callable[[Game, State], tuple[float, float] | None] | None] = Hook()
    """Where a state stands on :attr:`render_svg`'s picture (the dog's cell), in the picture's
    units: the web table moves by clicking there and draws a hinted path through such points."""
    svg_line: Hook[Callable[[Game, State, Sequence[int]], str] | None] = Hook()
    """The hinted line drawn on :attr:`render_svg`'s picture of ``state``: ``(game, state,
    pv)`` → SVG elements (a fragment, in the picture's units) showing ``pv``, the actions from
    ``state`` (guardians' placements and walks, the Trial's route). The web table lays it over
    the picture. Only what the player to move may see. ``None``: the line is drawn through
    :attr:`svg_point` where that is declared."""
    puzzle_summary: Hook[Callable[[str], str] | None] = Hook()
    """One line describing a puzzle file (size, turns...) for ``forest GAME list``."""
    puzzle_players: Hook[Callable[[str], Sequence[int]] | None] = Hook()
    """The player counts a shipped puzzle (``GAME/NAME``) can be played by, for the web table:
    it opens a puzzle at one of them (guardians' solo positions at 1, never at the count its
    Players select showed for the game before). ``None``: every count in :attr:`players`."""
    scores: Hook[Callable[[State], list[float]] | None] = Hook()
    """Final scores per player (for reports); ``None``: the returns are the scores."""

    # -- commands and analysis ----------------------------------------------------------------
    add_commands: Hook[Callable[[Any], None] | None] = Hook()
    """Adds the game's own sub-commands to ``forest GAME`` (an argparse subparsers object)."""
    demo: Hook[Callable[[Sequence[str]], int] | None] = Hook()
    """``python -m solver.demo --game NAME``: a demonstration on embedded data (argv → status)."""
    analysis: Hook[AnalysisHooks | None] = Hook(callable_hook=False)
    """How ``forest analyse --game NAME`` handles the game (an :class:`AnalysisHooks`, or a
    reference to one or to a function building it); ``None``: not supported."""
    default_engine: str = "kernel"
    """The engine used when none is named and ``$SOLVER_ENGINE`` is unset (if it exists)."""

    def __post_init__(self) -> None:
        if not self.name or not self.name.isidentifier() or self.name != self.name.lower():
            raise OptionError(f"a game name is a lower-case identifier, not {self.name!r}")
        if not self.engines:
            raise OptionError(f"game {self.name!r} declares no engine")
        if not self.players or not all(_is_count(p) for p in self.players):
            raise OptionError(f"game {self.name!r} must declare its player counts (1 or more)")
        self._check_capabilities()

    def _check_capabilities(self) -> None:
        where = f"game {self.name!r}"
        low, high = self.utility_range
        if not (math.isfinite(low) and math.isfinite(high) and low < high):
            raise OptionError(f"{where}: utility_range must be two finite numbers, low < high")
        heuristic = self.heuristic
        if not isinstance(heuristic, bool):
            unknown = sorted(set(heuristic) - set(self.engines))
            if unknown:
                raise OptionError(f"{where}: heuristic names unknown engine(s) {unknown}")
        if not _is_count(self.play_games):
            raise OptionError(f"{where}: play_games must be a whole number of games, 1 or more")
        for name in ("review_iterations", "solve_iterations"):
            budget = getattr(self, name)
            if budget is not None and not _is_count(budget):
                raise OptionError(f"{where}: {name} must be a whole number, 1 or more")
        self._check_choices(where)
        for name in ("default_agent", "solve_agent", "hint_agent"):
            agent = getattr(self, name)
            if agent is not None and agent not in self.offered_agents():
                raise OptionError(
                    f"{where}: {name} {agent!r} is not one of its agents "
                    f"({', '.join(self.agent_names())})"
                )
        strongest = self.strongest_agent
        if self.solve_iterations is not None and self.agent(strongest).iterations is None:
            raise OptionError(
                f"{where}: solve_iterations is a budget for {strongest}, which takes none"
            )
        seconds = self.solve_seconds
        if (
            isinstance(seconds, bool)
            or not isinstance(seconds, (int, float))
            or not (math.isfinite(seconds) and seconds > 0)
        ):
            raise OptionError(f"{where}: solve_seconds must be a positive number of seconds")
        if self.ladder is not None:
            self._check_ladder(where, self.ladder)

    def _check_ladder(self, where: str, ladder: Sequence[Rung]) -> None:
        """A ladder is ten rungs, each naming one of the game's agents."""
        if len(ladder) != 10 or not all(isinstance(r, Rung) for r in ladder):
            raise OptionError(f"{where}: a ladder is ten rungs (solver.spec.Rung)")
        offered = self.offered_agents()
        for k, rung in enumerate(ladder, 1):
            if rung.agent not in offered:
                raise OptionError(
                    f"{where}: level{k}'s agent {rung.agent!r} is not one of its agents "
                    f"({', '.join(self.agent_names())})"
                )

    def _check_choices(self, where: str) -> None:
        for option, choices in self.option_choices.items():
            if option not in self.options or not isinstance(choices, OptionChoices):
                raise OptionError(
                    f"{where}: option_choices names {option!r}, which is not one of its options "
                    "with an OptionChoices"
                )

    # -- reading the declaration --------------------------------------------------------------
    def supports(self, hook: str) -> bool:
        """Whether the optional hook ``hook`` (a field name) is declared (nothing is imported)."""
        if hook in self.__dict__:
            return self.__dict__[hook] is not None
        return getattr(self, hook, None) is not None

    def require(self, hook: str, what: str) -> Any:
        """The hook ``hook``, or an :class:`OptionError` saying ``what`` is not supported."""
        if not self.supports(hook):
            raise unsupported(what, self.name)
        return getattr(self, hook)

    def engine_names(self) -> list[str]:
        """The engines, sorted."""
        return sorted(self.engines)

    def chosen_engine(self, engine: str | None = None, known: Sequence[str] = ()) -> str:
        """The engine ``engine`` names, else the default: ``$SOLVER_ENGINE`` where this game
        has it, else :attr:`default_engine` (if declared), else the first engine. A
        ``$SOLVER_ENGINE`` that names no engine of this game, of :data:`ENGINES` or of
        ``known`` (the registry passes every game's) is an error."""
        if engine is not None:
            return engine
        wanted = os.environ.get("SOLVER_ENGINE")
        if wanted is not None:
            if wanted in self.engines:
                return wanted
            if wanted not in (*ENGINES, *known):
                raise OptionError(
                    f"SOLVER_ENGINE={shortened(wanted)!r} is not an engine; expected one of "
                    f"{', '.join(ENGINES)}"
                )
        if self.default_engine in self.engines:
            return self.default_engine
        return self.engine_names()[0]

    def build(self, *, engine: str | None = None, **options: Any) -> Any:
        """The game built by ``engine`` (default: :meth:`chosen_engine`) with ``options``; a
        game's own hooks build it this way (``SPEC.build(engine=engine, forest=...)``), the
        registry's ``load_game`` too. No silent fallback: an engine the game lacks is an error."""
        chosen = self.chosen_engine(engine)
        if not isinstance(chosen, str):  # a list or dict is unhashable: a TypeError below
            raise OptionError(
                f"an engine is a name ({', '.join(self.engine_names())}), not "
                f"{type(chosen).__name__}"
            )
        if chosen not in self.engines:
            raise OptionError(
                f"game {self.name!r} has no {chosen!r} engine; available: "
                f"{', '.join(self.engine_names())}"
            )
        return self.engines[chosen](**options)

    def has_heuristic(self, engine: str) -> bool:
        """Whether the states of ``engine`` give ``heuristic(player)``."""
        if isinstance(self.heuristic, bool):
            return self.heuristic
        return engine in self.heuristic

    def offered_agents(self) -> dict[str, AgentSpec]:
        """Every agent the game offers, by name: the shared ones its capabilities allow (see
        :data:`SHARED_AGENTS`), then its own (which replace shared ones of the same name)."""
        shared = {
            "mcts": not self.hidden_information,
            "ismcts": self.hidden_information,
            "exact": self.exact,
            "random": True,
        }
        offered = {name: SHARED_AGENTS[name] for name, on in shared.items() if on}
        offered.update(self.agents)
        return offered

    def agent_names(self) -> list[str]:
        """The agents' names: the shared ones first (in :data:`SHARED_AGENTS`' order), then the
        game's own, sorted."""
        offered = self.offered_agents()
        shared = [name for name in SHARED_AGENTS if name in offered]
        return shared + sorted(name for name in offered if name not in SHARED_AGENTS)

    def agent(self, name: str) -> AgentSpec:
        """The agent ``name`` (an :class:`OptionError` listing the agents if the game has none
        of that name)."""
        offered = self.offered_agents()
        if name not in offered and name.startswith("level"):
            # the ladder is above the declaration (it builds agents by name): by reference, as
            # SHARED_AGENTS are, so this module imports nothing above it (tests/test_layers.py)
            is_level = resolve_reference("solver.ladder:is_level", "the strength ladder")
            if is_level(name):
                level_factory = resolve_reference("solver.ladder:level_factory", "the ladder")
                return AgentSpec(level_factory(name), summary=f"the strength ladder's {name}")
        if name not in offered:
            why = self.refusal(name) or f"unknown agent {name!r} for {self.name}"
            raise OptionError(
                f"{why}; expected one of {', '.join(self.agent_names())} (or level1 to level10)"
            )
        return offered[name]

    def refusal(self, name: str) -> str | None:
        """Why the game's declared capabilities rule out the shared agent ``name``, in the one
        wording every refusal uses (``make_agent``, :meth:`agent`: ``play``, ``solve``...);
        ``None`` where they do not (the agent is offered, or ``name`` is no shared agent's)."""
        if name in self.agents:
            return None
        if name == "mcts" and self.hidden_information:
            return (
                f"the mcts agent would read the hidden cards of {self.name} (it searches the "
                "true state); use ismcts, which searches from the player's view"
            )
        if name == "ismcts" and not self.hidden_information:
            return (
                f"the ismcts agent is not supported for {self.name}: it searches hidden "
                f"information, and {self.name} hides none"
            )
        if name == "exact" and not self.exact:
            return (
                f"the exact agent is not supported for {self.name}: its positions are too large "
                f"for an exact search (use {self.sampler.lower()})"
            )
        return None

    def final_scores(self, state: State) -> list[float] | None:
        """The finished ``state``'s :attr:`scores`; ``None`` before the end or where the game
        declares none (its returns are then its scores)."""
        return self.scores(state) if self.scores is not None and state.is_terminal() else None

    @property
    def strongest_agent(self) -> str:
        """:attr:`default_agent` where declared, else ``ismcts`` with hidden information, else
        ``mcts``."""
        if self.default_agent is not None:
            return self.default_agent
        return "ismcts" if self.hidden_information else "mcts"

    @property
    def sampler(self) -> str:
        """The sampling searcher its estimates come from, as text says it: ``ISMCTS`` with hidden
        information, else ``MCTS``."""
        return "ISMCTS" if self.hidden_information else "MCTS"

    def play_iterations(self, agent: str) -> int | None:
        """The simulations per decision agent ``agent`` plays with by default (``None``: it
        takes no budget)."""
        return self.agent(agent).iterations

    def __repr__(self) -> str:
        shown = ", ".join(
            f"{f.name}={self.__dict__.get(f.name, None)!r}"
            for f in fields(self)
            if f.name in ("name", "players", "engines")
        )
        return f"GameSpec({shown}, ...)"


def declared(game: Any) -> GameSpec | None:
    """The declaration of ``game`` (the registered :class:`GameSpec` of its name), read by what
    knows only a game or a state (the searchers: :mod:`solver.search.clairvoyance`); ``None``
    for a game no spec declares (a test's toy, never registered), which declares nothing. The
    registry is above the declaration: reached by reference, as the ladder is
    (tests/test_layers.py)."""
    spec_of_game = resolve_reference("solver.registry:spec_of_game", "the game registry")
    found: GameSpec | None = spec_of_game(game)
    return found


def unsupported(what: str, game: str) -> OptionError:
    """The error of a generic command whose hook a game lacks."""
    return OptionError(f"{what} is not supported for {game}")
