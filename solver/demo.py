"""``make demo``: a game's demonstration on embedded default data (the dog game by default).

``python -m solver.demo [--game NAME] [options]`` runs the ``demo`` hook of the game's spec with
the remaining options (``python -m solver.demo --help`` for the dog's). A game without a demo
says so.
"""

from __future__ import annotations

import sys
from collections.abc import Sequence

from solver.errors import SolverError


def main(argv: Sequence[str] | None = None) -> int:
    """Run the demo of ``--game`` (default ``dog``) with the other arguments."""
    from solver.registry import game_spec

    args = list(sys.argv[1:] if argv is None else argv)
    name = "dog"
    if "--game" in args:
        at = args.index("--game")
        if at + 1 >= len(args):
            print("demo: error: --game needs a game name", file=sys.stderr)
            return 2
        name = args[at + 1]
        del args[at : at + 2]
    try:
        demo = game_spec(name).require("demo", "a demo")
        return int(demo(args))
    except SolverError as exc:
        print(f"demo: error: {exc}", file=sys.stderr)
        return 2


if __name__ == "__main__":  # pragma: no cover
    raise SystemExit(main())
