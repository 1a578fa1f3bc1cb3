"""Stand-ins for testing the batch runner: cheap, deterministic analyses and a toy game.

The batch machinery (sources, journal, backends, results, report, curation) is tested here
without a real search. The stand-ins are top-level functions of an importable module, so worker
processes (loky, Dask) can unpickle them:

- :func:`fake_analyse` stands in for the dog's analysis (``Source.generated`` rolls dog
  instances by default): it derives every column from the instance's cells alone (no search, no
  randomness), so the same instance always gives the same row; :func:`failing_analyse` and
  :func:`not_a_dict_analyse` are broken variants;
- :func:`toy_spec` declares a tiny game that is not the dog (its instances are words) with
  analysis hooks, so the runner's game-agnosticism is tested against something other than the
  dog;
- :func:`run_analyse` and :func:`analyse_rolled` run ``forest analyse`` in this process.

Two environment variables help the tests that run a batch in another process:
``FOREST_FAKE_DELAY`` (seconds to sleep per instance) and ``FOREST_FAKE_LOG`` (a file to which
each call appends its source and its process id, one line per instance, to count the instances
analysed and see which processes did the work).

>>> from solver.analysis.sources import Source
>>> row = fake_analyse(Source.generated(3, 5, 4))
>>> row["width"], row["height"], row["class"] in CLASSES
(5, 4, True)
>>> fake_analyse(Source.generated(3, 5, 4)) == row
True
"""

from __future__ import annotations

import argparse
import os
import time
from pathlib import Path
from typing import TYPE_CHECKING, Any, NoReturn

if TYPE_CHECKING:  # pragma: no cover
    from solver.analysis.sources import Source
    from solver.spec import GameSpec

from solver.analysis.cli_analyse import add_analyse_command

__all__ = [
    "CLASSES",
    "TOY_CLASSES",
    "analyse_rolled",
    "failing_analyse",
    "fake_analyse",
    "not_a_dict_analyse",
    "run_analyse",
    "toy_analyse",
    "toy_spec",
]

#: The classes :func:`fake_analyse` hands out.
CLASSES = ("always", "uncertain", "never")


def _log_call(source: Source) -> None:
    log = os.environ.get("FOREST_FAKE_LOG")
    if log:
        fd = os.open(log, os.O_WRONLY | os.O_APPEND | os.O_CREAT, 0o644)
        try:
            os.write(fd, f"{source.source} {os.getpid()}\n".encode())
        finally:
            os.close(fd)
    delay = float(os.environ.get("FOREST_FAKE_DELAY") or 0)
    if delay > 0:
        time.sleep(delay)


def fake_analyse(source: Source) -> dict[str, Any]:
    """A fake analysis row of ``source``: counts trees and undergrowth and makes up the rest.

    The class is ``never`` when trees cover a fifth of the instance's cells or more, ``always``
    when they cover an eighth or less, ``uncertain`` otherwise; the route walks from the start up
    the dog's column and across the top row to the human.
    """
    _log_call(source)
    grid = source.load()
    kinds = [grid.terrain((r, c)).name for r in range(grid.height) for c in range(grid.width)]
    area = grid.width * grid.height
    trees = kinds.count("TREE")
    brush = kinds.count("UNDERGROWTH")
    start_row, start_col = grid.start
    human_col = grid.human[1]
    route = [[r, start_col] for r in range(start_row, -1, -1)]
    step = 1 if human_col >= start_col else -1
    route += [[0, c] for c in range(start_col + step, human_col + step, step)]
    if trees * 5 >= area:
        klass, probability, par, exact = "never", 0.0, None, True
        route = []
    elif trees * 8 <= area:
        klass, probability, par, exact = "always", 1.0, len(route) - 1, True
    else:
        klass = "uncertain"
        probability = round(1.0 - trees / area * 4.0 + brush / (10.0 * area), 6)
        probability = min(0.99, max(0.01, probability))
        par, exact = len(route) - 1 + brush % 3, trees % 2 == 0
    half = 0.0 if exact else round(0.5 / (1 + trees), 6)
    return {
        "width": grid.width,
        "height": grid.height,
        "class": klass,
        "par": par,
        "win_probability": probability,
        "exact": exact,
        "ci_low": max(0.0, probability - half),
        "ci_high": min(1.0, probability + half),
        "clairvoyant_estimate": min(1.0, probability + half + brush / (4.0 * area)),
        "route": route,
        "trees": trees,
    }


def failing_analyse(source: Source) -> dict[str, Any]:
    """:func:`fake_analyse`, except that it raises for every seed divisible by 7."""
    if source.seed is not None and source.seed % 7 == 0:
        raise RuntimeError(f"fake failure for {source.source}")
    return fake_analyse(source)


def not_a_dict_analyse(source: Source) -> list[str]:
    """A broken analysis that returns a list instead of a row."""
    return [source.source]


# -- a toy game that is not the dog ----------------------------------------------------------------
TOY_CLASSES = {"short": "a word of at most 4 letters", "long": "a word of 5 letters or more"}


def _toy_roll(seed: int, size: tuple[int, int], turns: int | None) -> str:
    letters = "abcdefghij"
    length = 1 + (seed * 7 + size[0]) % (size[0] + size[1])
    return "".join(letters[(seed + i) % len(letters)] for i in range(length))


def _toy_load(path: str) -> str:
    from solver.errors import FormatError

    with open(path, encoding="utf-8") as handle:
        text = handle.read().strip()
    if not text.isalpha():
        raise FormatError("a word of letters", line=1, column=1, found=repr(text[:20]))
    return text


def toy_analyse(source: Source) -> dict[str, Any]:
    """The toy game's analysis: a word's length and its class."""
    word = source.load()
    return {"class": "short" if len(word) <= 4 else "long", "length": len(word), "word": word}


def toy_spec(name: str = "toy", analysis: bool = True) -> GameSpec:
    """A :class:`~solver.spec.GameSpec` of a toy game whose instances are words (with analysis
    hooks unless ``analysis=False``); register it with :func:`solver.registry.register`."""
    from solver.spec import AnalysisHooks, GameSpec

    def no_engine(**options: object) -> NoReturn:
        raise NotImplementedError("the toy game is for the analysis runner only")

    hooks = AnalysisHooks(
        load=_toy_load,
        dump=lambda word: word + "\n",
        analyse="solver.analysis.stand_ins:toy_analyse",
        roll=_toy_roll,
        columns={"length": "Int64", "word": "string"},
        classes=TOY_CLASSES,
        advice={"short": "roll bigger sizes (--size)"},
        value_column="length",
        budgets="none",
        extension=".word",
        noun="word",
        size_range=(1, 9),
    )
    return GameSpec(
        name=name,
        title="a toy game",
        summary="words, for testing the analysis runner",
        players=(1,),
        engines={"reference": no_engine},
        open=no_engine,
        analysis=hooks if analysis else None,
    )


def run_analyse(*argv: str) -> int:
    """``forest analyse ARGV`` on a parser made here (only the ``analyse`` command): the
    handler's exit code; errors propagate, as the tests want them, where ``forest`` would print
    one line."""
    parser = argparse.ArgumentParser(allow_abbrev=False, prog="forest")
    add_analyse_command(parser.add_subparsers(dest="command"))
    args = parser.parse_args(["analyse", *argv])
    return int(args.handler(args))


def analyse_rolled(
    folder: Path, game: str, count: int, size: str, seed: int, out: str
) -> tuple[Path, Path, Path]:
    """``forest analyse`` of ``count`` rolled ``game`` positions of ``size`` from ``seed``, one
    job, into ``folder``: the results file named ``out``, a report and the curated files
    (``--save-to``), the exit code checked; their three paths."""
    results, report, saved = folder / out, folder / "report", folder / "saved"
    code = run_analyse(
        "--game", game, "--count", str(count), "--size", size, "--seed", str(seed),
        "--jobs", "1", "--out", str(results), "--report", str(report), "--save-to", str(saved),
        "--no-progress",
    )  # fmt: skip
    assert code == 0
    return results, report, saved
