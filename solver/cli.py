"""The ``forest`` command.

Errors caused by the input (a bad file, a bad option, an illegal move) are printed as one line
``forest: error: ...`` on stderr with exit status 2; nothing else is printed.

Examples::

    forest dog generate --seed 7 --size 9x9 -o seven.forest
    forest dog show seven.forest
    forest dog render seven.forest -o sheet.svg --random-game 3
    forest dog list
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Callable, Sequence
from pathlib import Path

from solver.errors import OptionError, SolverError

Handler = Callable[[argparse.Namespace], int]


def _size(text: str) -> tuple[int, int]:
    """``"9x9"`` → (width, height)."""
    try:
        width, height = (int(part) for part in text.lower().split("x"))
    except ValueError:
        raise argparse.ArgumentTypeError(f"expected a size like 9x9, found {text!r}") from None
    return width, height


def _load_forest(source: str):
    from solver.games.dog import resolve_forest

    return resolve_forest(source)


def _write_text(text: str, out: str | None) -> None:
    if out is None or out == "-":
        sys.stdout.write(text if text.endswith("\n") else text + "\n")
    else:
        Path(out).write_text(text, encoding="utf-8")


# -- dog commands --------------------------------------------------------------------------------
def _dog_generate(args: argparse.Namespace) -> int:
    from solver.games.dog.format import format_forest
    from solver.games.dog.generator import roll_forest

    width, height = args.size
    forest = roll_forest(width, height, seed=args.seed)
    if args.turns is not None:
        forest = forest.replace(turns=args.turns)
    _write_text(format_forest(forest), args.output)
    return 0


def _dog_show(args: argparse.Namespace) -> int:
    from solver.games.dog.render import render_ascii

    forest = _load_forest(args.forest)
    title = f"{forest.name or args.forest}  ({forest.width}x{forest.height}, {forest.turns} turns)"
    print(title)
    print(render_ascii(forest))
    return 0


def _dog_render(args: argparse.Namespace) -> int:
    from solver.games.dog.render import render_svg

    forest = _load_forest(args.forest)
    extra: dict = {}
    if args.random_game is not None:
        import solver
        from solver.games.dog.play import play_game, random_agent

        game = solver.load_game("dog", forest=forest)
        record = play_game(game, random_agent(args.random_game), seed=args.random_game)
        data = record.final.to_dict()
        extra = {
            "trail": record.trail,
            "marked": [tuple(c) for c in data["marked"]],
            "resolved": [tuple(c) for c in data["resolved"]],
            "position": tuple(data["pos"]),
            "turn": data["turn"],
            "stamina": data["stamina"],
            "curiosity": data["curiosity"],
        }
    svg = render_svg(forest, **extra)
    _write_text(svg, args.output)
    if args.output not in (None, "-"):
        print(f"wrote {args.output}")
    return 0


def _dog_list(args: argparse.Namespace) -> int:
    from solver import puzzles

    for name in puzzles.names("dog"):
        forest = puzzles.load(name)
        summary = puzzles.describe(name).splitlines()[0] if puzzles.describe(name) else ""
        print(f"{name:<28} {forest.width:>2}x{forest.height:<2} {forest.turns:>2} turns  {summary}")
    return 0


def _dog_play_random(args: argparse.Namespace) -> int:
    import solver
    from solver.games.dog.play import play_game, random_agent

    game = solver.load_game("dog", forest=_load_forest(args.forest), engine=args.engine)
    record = play_game(game, random_agent(args.seed), seed=args.seed)
    for turn in record.turns:
        print(f"turn {turn.turn:>2}: {', '.join(turn.actions)}")
    print(record.final)
    return 0


# -- the parser ----------------------------------------------------------------------------------
def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="forest", description="Play, solve and analyse the forest games."
    )
    games = parser.add_subparsers(dest="game", required=True, metavar="GAME")
    dog = games.add_parser("dog", help="the dog game (RULES.md §1)")
    commands = dog.add_subparsers(dest="command", required=True, metavar="COMMAND")

    p = commands.add_parser("generate", help="roll a forest (RULES.md §1.8)")
    p.add_argument("--seed", type=int, default=0)
    p.add_argument("--size", type=_size, default=(9, 9), help="WIDTHxHEIGHT (default 9x9)")
    p.add_argument("--turns", type=int, default=None, help="override the turn limit")
    p.add_argument("-o", "--output", default=None, help="write the .forest here (default stdout)")
    p.set_defaults(handler=_dog_generate)

    p = commands.add_parser("show", help="draw a forest as text")
    p.add_argument("forest", help="a .forest file or a puzzle name such as dog/tiny-example")
    p.set_defaults(handler=_dog_show)

    p = commands.add_parser("render", help="draw a printable SVG paper sheet")
    p.add_argument("forest", help="a .forest file or a puzzle name")
    p.add_argument("-o", "--output", default=None, help="the .svg file (default stdout)")
    p.add_argument(
        "--random-game", type=int, metavar="SEED", default=None,
        help="pencil in the trail of a random game played with this seed",
    )  # fmt: skip
    p.set_defaults(handler=_dog_render)

    p = commands.add_parser("list", help="list the curated forests")
    p.set_defaults(handler=_dog_list)

    p = commands.add_parser("random-game", help="play one game with a seeded random policy")
    p.add_argument("forest", help="a .forest file or a puzzle name")
    p.add_argument("--seed", type=int, default=0)
    p.add_argument("--engine", choices=("kernel", "reference"), default=None)
    p.set_defaults(handler=_dog_play_random)

    return parser


def main(argv: Sequence[str] | None = None) -> int:
    """Run the ``forest`` command; returns the exit status."""
    parser = build_parser()
    args = parser.parse_args(argv)
    handler: Handler = args.handler
    try:
        return handler(args)
    except (SolverError, ValueError, OSError) as exc:
        message = str(exc) if not isinstance(exc, OSError) else f"{exc.strerror}: {exc.filename}"
        print(f"forest: error: {message}", file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        print("forest: interrupted", file=sys.stderr)
        return 130
    except BrokenPipeError:  # pragma: no cover - `forest ... | head`
        return 0


__all__ = ["OptionError", "build_parser", "main"]

if __name__ == "__main__":  # pragma: no cover
    raise SystemExit(main())
