"""A game's declaration: everything the shared machinery needs to know about one game.

Every game, built in or shipped by another distribution, declares itself once with a
:class:`GameSpec`: its name, its engines, its player counts, its files and puzzles, its agents, its
pictures, its own command-line commands and its analysis hooks. The registry
(:mod:`solver.registry`) collects the specs; the CLI, the agents, the analysis runner and the hint
engine read only the spec and the game protocol (:mod:`solver.game`). A hook a game lacks is
``None``, and the generic command that needs it says "not supported for GAME".

A spec holds callables, not imports: a game package can declare itself without importing its
heavy parts (the kernel, CP-SAT models), which load on first use.

>>> from solver.registry import game_spec
>>> spec = game_spec("dog")
>>> spec.name, spec.players, sorted(spec.engines)
('dog', (1,), ['kernel', 'reference'])
>>> spec.supports("render_svg"), spec.extensions
(True, ('.forest',))
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from solver.errors import OptionError

if TYPE_CHECKING:
    from solver.game import Game, State

__all__ = [
    "Agent",
    "AgentFactory",
    "AnalysisHooks",
    "GameSpec",
    "Opened",
    "unsupported",
]

Agent = Callable[["State"], int]
"""An agent: a callable choosing an action at a decision node."""

AgentFactory = Callable[..., Agent]
"""``factory(game, *, seed, iterations) -> Agent``: builds a game-specific agent."""

GameFactory = Callable[..., "Game"]
"""``factory(**options) -> Game``: builds a game with one engine."""


@dataclass(frozen=True)
class Opened:
    """A game and a position, as opened from a file, a puzzle name or the game's default.

    ``source`` is what to call it in messages and reports (a puzzle name, a path, ``"default"``).
    """

    game: Game
    state: State
    source: str


Opener = Callable[..., Opened]
"""``opener(source, *, engine=None, players=None) -> Opened``.

``source`` is a path, a puzzle name such as ``"dog/tiny-example"``, or ``None`` for the game's
default set-up (a game without one raises :class:`~solver.errors.OptionError`)."""


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
      ``turns_range``: the turn limits ``--turns`` accepts (``None``: no turn limit).
    - ``max_file_bytes``: the largest instance file read (a longer one is refused unread).
    - ``size_names``: what the two numbers of ``--size AxB`` are (the dog's ``width`` and
      ``height``; a game without a grid may give them another meaning, such as players and
      games); the results keep them in the ``width`` and ``height`` columns.
      ``size_ranges``: per number, the values accepted (``None``: ``size_range`` for both);
      ``default_size``: the size rolled when ``--size`` is not given.
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
    max_file_bytes: int = 1 << 20
    size_names: tuple[str, str] = ("width", "height")
    size_ranges: tuple[tuple[int, int], tuple[int, int]] | None = None
    default_size: tuple[int, int] = (9, 9)


@dataclass(frozen=True)
class GameSpec:
    """One game's declaration (see the module docstring).

    Required: ``name`` (lower-case, used on the command line and in puzzle names), ``title`` and
    ``summary`` (for listings), ``players`` (the player counts the game supports), ``engines``
    (engine name to factory; ``"kernel"`` for compiled, ``"reference"`` for pure Python) and
    ``open`` (an :data:`Opener`). Everything else is optional.
    """

    name: str
    title: str
    summary: str
    players: tuple[int, ...]
    engines: Mapping[str, GameFactory]
    open: Opener
    extensions: tuple[str, ...] = ()
    """File extensions of the game's files (``.forest``); the first is the canonical one."""
    load_file: Callable[[str], Any] | None = None
    """Reads one of the game's files (a path) into the game's own object (a ``Forest``...)."""
    puzzles: str | None = None
    """The folder of the shipped puzzle data holding this game's curated files, or ``None``."""
    example: str | None = None
    """A puzzle to use wherever an example is needed (OpenSpiel's default parameter, docs)."""
    file_parameter: str = "source"
    """The name of the file option where one is named (OpenSpiel's parameter: ``forest``...)."""
    max_game_length: Callable[[Game], int] | None = None
    """The most actions (chance included) a game can last, for OpenSpiel; ``None``: unknown."""
    state_players: Callable[[str], int | None] | None = None
    """The player count a saved state's JSON is for (``--state`` without ``--players``)."""
    default_source: bool = False
    """Whether ``open(None)`` works (a default set-up), so a FILE argument is optional."""
    value_kind: str = "win probability"
    """What a state's value is: ``"win probability"`` or ``"expected score"``."""
    exact: bool = True
    """Whether exact expectimax is offered (``--exact``): small enough positions exist."""
    agents: Mapping[str, AgentFactory] = field(default_factory=dict)
    """The game's own agents (``greedy`` for the dog); ``mcts``, ``exact`` and ``random`` are
    shared and need no declaration."""
    render_text: Callable[[Game, State | None], str] | None = None
    """The position as text (``forest GAME show``); ``None`` state: the set-up itself."""
    legend: Callable[[Game, State | None], str] | None = None
    """A legend of the text picture's symbols, printed under it (same arguments)."""
    render_svg: Callable[[Game, State | None, Sequence[int]], str] | None = None
    """The position as SVG, given the actions played from the start (``forest GAME render``)."""
    puzzle_summary: Callable[[str], str] | None = None
    """One line describing a puzzle file (size, turns...) for ``forest GAME list``."""
    scores: Callable[[State], list[float]] | None = None
    """Final scores per player (for reports); ``None``: the returns are the scores."""
    add_commands: Callable[[Any], None] | None = None
    """Adds the game's own sub-commands to ``forest GAME`` (an argparse subparsers object)."""
    demo: Callable[[Sequence[str]], int] | None = None
    """``python -m solver.demo --game NAME``: a demonstration on embedded data (argv → status)."""
    analysis: AnalysisHooks | None = None
    """How ``forest analyse --game NAME`` handles the game; ``None``: not supported."""
    default_engine: str = "kernel"
    """The engine used when none is named and ``$SOLVER_ENGINE`` is unset (if it exists)."""
    source_option: str | None = None
    """The game option that names the game's file (the dog's ``forest``): the hint engine reads
    a request's ``options[source_option]`` as a puzzle name, the file's text or (``forest hint
    --stdio`` only) a path. ``None``: requests open the game's default set-up."""
    svg_point: Callable[[Game, State], tuple[float, float] | None] | None = None
    """Where a state stands on :attr:`render_svg`'s picture (the dog's cell), in the picture's
    units: the web table moves by clicking there and draws a hinted path through such points."""
    open_text: Callable[..., Opened] | None = None
    """``open_text(text, *, engine=None, players=None) -> Opened``: the game from its file's text
    (a request's inline file; a parse error is a :class:`~solver.errors.FormatError`)."""

    def __post_init__(self) -> None:
        if not self.name or not self.name.isidentifier() or self.name != self.name.lower():
            raise OptionError(f"a game name is a lower-case identifier, not {self.name!r}")
        if not self.engines:
            raise OptionError(f"game {self.name!r} declares no engine")
        if not self.players or any(p < 1 for p in self.players):
            raise OptionError(f"game {self.name!r} must declare its player counts (1 or more)")

    def supports(self, hook: str) -> bool:
        """Whether the optional hook ``hook`` (a field name) is declared."""
        return getattr(self, hook, None) is not None

    def require(self, hook: str, what: str) -> Any:
        """The hook ``hook``, or an :class:`OptionError` saying ``what`` is not supported."""
        value = getattr(self, hook, None)
        if value is None:
            raise unsupported(what, self.name)
        return value

    def engine_names(self) -> list[str]:
        """The engines, sorted."""
        return sorted(self.engines)


def unsupported(what: str, game: str) -> OptionError:
    """The error of a generic command whose hook a game lacks."""
    return OptionError(f"{what} is not supported for {game}")
