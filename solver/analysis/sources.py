"""The instances of a batch: rolled ones (a seed and a size) and files, streamed, never listed.

A :class:`Source` is the small, picklable descriptor a worker receives; :meth:`Source.load` turns
it into the game's instance through the game's :class:`~solver.spec.AnalysisHooks` (rolled again
from its seed, or read from its file). A :class:`Job` describes a whole batch (``count`` rolled
instances from consecutive seeds, or a list of files) and yields its sources one at a time, so a
batch of a billion instances costs no memory up front.

>>> job = Job.generated(3, size=(4, 3), seed=5)
>>> [s.source for s in job.sources()]
['seed:5', 'seed:6', 'seed:7']
>>> job.source_at(0).load().name
'rolled-4x3-seed5'
"""

from __future__ import annotations

import math
import os
import stat
from collections.abc import Iterable, Iterator, Mapping
from dataclasses import dataclass
from typing import Any, SupportsInt

from solver.errors import OptionError, path_said
from solver.spec import AnalysisHooks

__all__ = [
    "DEFAULT_GAME",
    "Job",
    "Source",
    "analysis_hooks",
    "instance_path",
    "load_checked",
    "seed_of",
]

DEFAULT_GAME = "dog"
"""The game ``forest analyse`` analyses when ``--game`` is not given."""

SEED_PREFIX = "seed:"
MAX_SEED = 2**64 - 1


def seed_of(source: str) -> int | None:
    """The seed of a rolled instance's source ``seed:N`` (ASCII digits, as ``forest analyse``
    writes it); None for any other source (a file's path). A results file is not trusted:
    ``str.isdigit`` takes ``seed:²``, which ``int`` refuses, and ``int`` refuses more than
    4,300 digits (both were a traceback), so a number longer than any seed is refused here.

    >>> seed_of("seed:42"), seed_of("seed:\u00b2"), seed_of("forests/a.forest")
    (42, None, None)
    """
    digits = source[len(SEED_PREFIX) :] if source.startswith(SEED_PREFIX) else ""
    if not (digits.isascii() and digits.isdigit()):
        return None
    significant = digits.lstrip("0")
    if len(significant) > len(str(MAX_SEED)):
        shown = source if len(source) <= 40 else f"{source[:40]}..."
        raise OptionError(f"the source {shown!r} names no seed from 0 to 2**64 - 1")
    return int(significant or "0")


def instance_path(name: str, game: str = DEFAULT_GAME) -> str:
    """The file an instance named on the command line is read from: ``name`` itself, or, where
    ``name`` is no file but one of ``game``'s shipped puzzles (``dog/stick``), the puzzle's file,
    so ``forest analyse dog/stick`` reads what ``forest dog show dog/stick`` shows (an installed
    package has no ``puzzles/`` folder to name). The rule is the games' own openers': a name
    ``GAME/NAME`` that is no path is a puzzle.

    >>> os.path.basename(instance_path("dog/stick")), instance_path("mine/stick.forest")
    ('stick.forest', 'mine/stick.forest')
    """
    if not name.startswith(f"{game}/") or os.path.lexists(name):
        return name
    from solver import puzzles

    try:
        return os.fspath(puzzles.path(name))
    except OptionError:  # no such puzzle: the path's own error names it
        return name


def analysis_hooks(game: str) -> AnalysisHooks:
    """The analysis hooks of ``game``; an :class:`OptionError` when it has none.

    >>> analysis_hooks("dog").extension
    '.forest'
    """
    from solver.registry import game_spec

    hooks = game_spec(game).require("analysis", "analysis")
    if not isinstance(hooks, AnalysisHooks):
        raise OptionError(f"game {game!r} declares analysis hooks that are not AnalysisHooks")
    return hooks


@dataclass(frozen=True, slots=True)
class Source:
    """One instance of a batch: a rolled one (``seed`` and size) or a file (``path``).

    ``source`` is what the results call it: ``seed:17`` for a rolled instance, the path as the
    user gave it for a file (``path`` holds it made absolute, so workers find it whatever their
    directory). ``width`` and ``height`` are known up front for rolled instances only; ``turns``
    replaces the generator's turn limit when given.

    >>> s = Source.generated(17, 9, 9)
    >>> s.source, s.kind, (s.width, s.height), s.game
    ('seed:17', 'generated', (9, 9), 'dog')
    >>> Source.from_row({"source": "seed:17", "width": 9, "height": 9}) == s
    True
    """

    source: str
    width: int | None = None
    height: int | None = None
    seed: int | None = None
    path: str | None = None
    turns: int | None = None
    game: str = DEFAULT_GAME
    skill_games: int = 0
    """Games each of the ladder's weakest and strongest levels plays on this instance for the
    skill measure (``--skill-games``; 0: not measured), for games whose hooks say
    ``skill_games``."""

    @property
    def kind(self) -> str:
        """``"generated"`` or ``"file"``."""
        return "generated" if self.seed is not None else "file"

    @classmethod
    def generated(
        cls,
        seed: int,
        width: int,
        height: int,
        turns: int | None = None,
        game: str = DEFAULT_GAME,
        skill_games: int = 0,
    ) -> Source:
        """The instance the game's generator rolls from ``seed`` at ``width`` x ``height``."""
        return cls(f"{SEED_PREFIX}{seed}", width, height, seed, None, turns, game, skill_games)

    @classmethod
    def file(
        cls, path: str | os.PathLike[str], game: str = DEFAULT_GAME, skill_games: int = 0
    ) -> Source:
        """An instance file, or a puzzle's name (:func:`instance_path`); ``source`` keeps the
        name as given."""
        text = os.fspath(path)
        found = instance_path(text, game)
        return cls(text, path=os.path.abspath(found), game=game, skill_games=skill_games)

    @classmethod
    def from_row(cls, row: Mapping[str, Any], game: str = DEFAULT_GAME) -> Source:
        """The source of a results row (``seed:N`` with its width and height, or a path).

        A path read from a results file is not trusted: load it with :func:`load_checked`.
        """
        text = str(row.get("source", ""))
        width, height = _int_or_none(row.get("width")), _int_or_none(row.get("height"))
        seed = seed_of(text)
        if seed is not None:
            if width is None or height is None:
                raise OptionError(f"the row for {text!r} has no width and height to roll it")
            return cls.generated(seed, width, height, _int_or_none(row.get("turns")), game)
        return cls.file(text, game)

    def hooks(self) -> AnalysisHooks:
        """The analysis hooks of this source's game."""
        return analysis_hooks(self.game)

    def load(self) -> Any:
        """The instance itself: rolled again from its seed, or read from its file."""
        hooks = self.hooks()
        if self.seed is not None:
            if hooks.roll is None:
                raise OptionError(f"the {self.game} game has no generator to roll {self.source}")
            if self.width is None or self.height is None:
                raise OptionError(
                    f"{path_said(self.source)}: a rolled {hooks.noun} needs a width and a height"
                )
            return hooks.roll(self.seed, (self.width, self.height), self.turns)
        return hooks.load(self.path if self.path is not None else self.source)


def load_checked(source: Source) -> Any:
    """``source``'s instance, where a file must be a regular file of the game's extension and size.

    This is how an instance named by a results file is read (a results file may come from anyone):
    the path must end with the game's extension, name a regular file no larger than the hooks'
    ``max_file_bytes``, and parse as an instance; anything else raises an
    :class:`~solver.errors.OptionError` naming the path, before a byte of it is read.

    >>> load_checked(Source.file("/etc/passwd"))
    Traceback (most recent call last):
    ...
    solver.errors.OptionError: refusing '/etc/passwd': a dog instance file ends with .forest
    """
    if source.kind == "generated":
        return source.load()
    hooks = source.hooks()
    path = source.path if source.path is not None else source.source
    shown = path_said(source.source)
    if hooks.extension and not path.lower().endswith(hooks.extension.lower()):
        raise OptionError(
            f"refusing {shown!r}: a {source.game} instance file ends with {hooks.extension}"
        )
    try:
        info = os.stat(path)
    except FileNotFoundError:
        raise OptionError(f"the {hooks.noun} file {shown!r} does not exist") from None
    except OSError as exc:
        raise OptionError(f"cannot read {shown!r}: {exc.strerror}") from None
    if not stat.S_ISREG(info.st_mode):
        raise OptionError(f"refusing {shown!r}: not a regular file")
    if info.st_size > hooks.max_file_bytes:
        raise OptionError(
            f"refusing {shown!r}: {info.st_size} bytes, more than a {hooks.noun} file holds "
            f"({hooks.max_file_bytes})"
        )
    return hooks.load(path)


def _int_or_none(value: object) -> int | None:
    """A results cell (or a row's field) as a whole number, or None when missing or not one."""
    if isinstance(value, bool) or not isinstance(value, (str, SupportsInt)):
        return None  # None, pandas.NA and other values with no whole number
    try:
        if isinstance(value, float) and math.isnan(value):
            return None
        return int(value)
    except (TypeError, ValueError, OverflowError):  # pandas.NA and friends
        return None


MAX_SKILL_GAMES = 10_000
"""The most games ``--skill-games`` asks of each level per instance."""


def _skill_games(hooks: AnalysisHooks, game: str, value: int) -> int:
    """``--skill-games`` checked: a whole number from 0, and only for a game that plays them."""
    value = _whole("--skill-games", value)
    if not 0 <= value <= MAX_SKILL_GAMES:
        raise OptionError(f"--skill-games must be from 0 to {MAX_SKILL_GAMES}, not {value}")
    if value and not hooks.skill_games:
        raise OptionError(
            f"the {game} game's skill measure plays no games (it is in every row): "
            "--skill-games is for games that measure it by play"
        )
    return value


def _whole(name: str, value: int) -> int:
    """``value``, refused unless a whole number (not a bool): callers may be untyped code."""
    if isinstance(value, bool) or not isinstance(value, int):
        raise OptionError(f"{name} must be a whole number, not {value!r}")
    return value


@dataclass(frozen=True)
class Job:
    """A batch: ``count`` rolled instances of one size from consecutive seeds, or files.

    :meth:`sources` yields the sources in batch order, one at a time.

    >>> job = Job.generated(2, size=(9, 9), seed=40)
    >>> len(job), [s.source for s in job.sources()]
    (2, ['seed:40', 'seed:41'])
    >>> Job.generated(0)
    Traceback (most recent call last):
    ...
    solver.errors.OptionError: --count must be at least 1, not 0
    """

    kind: str
    width: int | None = None
    height: int | None = None
    first_seed: int = 0
    count: int = 0
    paths: tuple[str, ...] = ()
    turns: int | None = None
    game: str = DEFAULT_GAME
    skill_games: int = 0

    @classmethod
    def generated(
        cls,
        count: int,
        size: tuple[int, int] | None = None,
        seed: int = 0,
        turns: int | None = None,
        game: str = DEFAULT_GAME,
        skill_games: int = 0,
    ) -> Job:
        """``count`` instances rolled from seeds ``seed``, ``seed + 1``, ... at ``size`` (``None``:
        the hooks' ``default_size``); ``turns`` replaces the generator's turn limit when given;
        ``skill_games``: see :attr:`Source.skill_games`."""
        hooks = analysis_hooks(game)
        skill_games = _skill_games(hooks, game, skill_games)
        if size is None:
            size = hooks.default_size
        if hooks.roll is None:
            raise OptionError(f"the {game} game has no generator: analyse files instead of --count")
        count, seed = _whole("--count", count), _whole("--seed", seed)
        if count < 1:
            raise OptionError(f"--count must be at least 1, not {count}")
        width, height = _checked_size(hooks, size)
        if seed < 0 or seed + count - 1 > MAX_SEED:
            raise OptionError(
                f"--seed {seed} with --count {count} leaves the seed range 0 to 2**64 - 1"
            )
        if turns is not None:
            turns = _checked_turns(hooks, game, turns)
        return cls("generated", width, height, seed, count, (), turns, game, skill_games)

    @classmethod
    def files(
        cls,
        paths: Iterable[str | os.PathLike[str]],
        game: str = DEFAULT_GAME,
        skill_games: int = 0,
    ) -> Job:
        """The given instance files, in order (they are read only when analysed)."""
        hooks = analysis_hooks(game)
        skill_games = _skill_games(hooks, game, skill_games)
        names = tuple(os.fspath(p) for p in paths)
        if not names:
            raise OptionError(f"no {hooks.noun} files given")
        return cls("files", count=len(names), paths=names, game=game, skill_games=skill_games)

    def sources(self) -> Iterator[Source]:
        """The sources in batch order, made one at a time."""
        for index in range(self.count):
            yield self.source_at(index)

    def source_at(self, index: int) -> Source:
        """The source at position ``index`` of the batch."""
        if not 0 <= index < self.count:
            raise IndexError(f"source {index} of a batch of {self.count}")
        if self.kind == "generated":
            assert self.width is not None and self.height is not None
            return Source.generated(
                self.first_seed + index, self.width, self.height, self.turns, self.game,
                self.skill_games,
            )  # fmt: skip
        return Source.file(self.paths[index], self.game, self.skill_games)

    def describe(self) -> dict[str, Any]:
        """What defines the batch (its fingerprint and the report's header use this); the skill
        games only when asked for, so that earlier batches keep their fingerprints."""
        skill = {"skill_games": self.skill_games} if self.skill_games else {}
        if self.kind == "generated":
            return {
                "game": self.game,
                "size": f"{self.width}x{self.height}",
                "seeds": [self.first_seed, self.first_seed + self.count - 1],
                "turns": self.turns,
                **skill,
            }
        return {"game": self.game, "files": self.count, **skill}

    def __len__(self) -> int:
        return self.count


def _checked_size(hooks: AnalysisHooks, size: tuple[int, int]) -> tuple[int, int]:
    """``--size`` as whole numbers within the game's ranges (a one-line error otherwise)."""
    try:
        width, height = (_whole("--size", v) for v in size)
    except (TypeError, ValueError):
        raise OptionError(f"--size must be a (width, height) pair, not {size!r}") from None
    for name, value, (low, high) in zip(hooks.size_names, (width, height), hooks.sizes(),
                                        strict=True):  # fmt: skip
        if not low <= value <= high:
            raise OptionError(f"--size {name} must be from {low} to {high}, not {value}")
    return width, height


def _checked_turns(hooks: AnalysisHooks, game: str, turns: int) -> int:
    """``--turns`` as a whole number within the game's turn limits (a one-line error for a game
    without one, or a number out of range)."""
    turns = _whole("--turns", turns)
    if hooks.turns_range is None:
        raise OptionError(f"the {game} game has no turn limit to change (--turns)")
    first, last = hooks.turns_range
    if not first <= turns <= last:
        raise OptionError(f"--turns must be from {first} to {last}, not {turns}")
    return turns
