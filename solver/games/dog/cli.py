"""The dog game's own commands: ``forest dog generate``, ``forest dog route``,
``forest dog random-game``.

The commands every game gets (``show``, ``best-move``, ``solve``, ``play``, ``list``, ``render``)
come from :mod:`solver.cli`; these are the ones only the dog game has.
"""

from __future__ import annotations

import argparse
import json
from typing import Any

from solver.cli_common import parse_size, positive_float, write_output


def _generate(args: argparse.Namespace) -> int:
    from solver.games.dog.format import format_forest
    from solver.games.dog.generator import roll_forest

    width, height = args.size
    forest = roll_forest(width, height, seed=args.seed)
    if args.turns is not None:
        forest = forest.replace(turns=args.turns)
    write_output(format_forest(forest), args.output)
    return 0


def _random_game(args: argparse.Namespace) -> int:
    from solver.games.dog import resolve_forest
    from solver.games.dog.play import play_game, random_agent
    from solver.registry import load_game

    game = load_game("dog", forest=resolve_forest(args.forest), engine=args.engine)
    record = play_game(game, random_agent(args.seed), seed=args.seed)
    for turn in record.turns:
        print(f"turn {turn.turn:>2}: {', '.join(turn.actions)}")
    print(record.final)
    return 0


def _route(args: argparse.Namespace) -> int:
    from solver.games.dog import resolve_forest
    from solver.games.dog.routes.query import RouteQuery, solve_route

    forest = resolve_forest(args.forest)
    query = RouteQuery.parse(args.query or "")
    answer = solve_route(forest, query, method=args.method, time_limit=args.time_limit)
    report = {
        "turns": answer.turns,
        "route": [list(t) for t in answer.route or ()],
        "status": answer.status,
        "method": answer.method,
        "states": answer.states,
    }
    if args.json:
        print(json.dumps(report, indent=2))
        return 0
    if answer.turns is None:
        proof = "proven" if answer.proven else "not proven (time limit)"
        print(f"no route wins within {forest.turns} turns under these conditions ({proof})")
        return 0
    counted = "model variables" if args.method == "cp-sat" else "states"
    print(
        f"wins in turn {answer.turns} ({answer.status}, {answer.method}, {answer.states} {counted})"
    )
    for turn, labels in enumerate(answer.route or (), 1):
        print(f"turn {turn:>2}: {', '.join(labels) if labels else '(no move)'}")
    return 0


def add_commands(commands: Any) -> None:
    """Add the dog's own sub-commands to ``forest dog``."""
    p = commands.add_parser(
        "generate", help="roll a forest with the default generator",
        description="Roll a forest: the same seed and size always give the same forest.",
    )  # fmt: skip
    p.add_argument("--seed", type=int, default=0, help="the generator's seed (default 0)")
    p.add_argument(
        "--size", type=parse_size, default=(9, 9),
        help="WIDTHxHEIGHT in cells, each 2 to 16 (default 9x9)",
    )  # fmt: skip
    p.add_argument(
        "--turns", type=int, default=None,
        help="the turn limit (default: the generator's, 20 turns)",
    )  # fmt: skip
    p.add_argument(
        "-o", "--output", default=None, help="write the .forest file here (default: stdout)"
    )
    p.set_defaults(handler=_generate)

    p = commands.add_parser("random-game", help="play one game with a seeded random policy")
    p.add_argument("forest", help="a .forest file or a puzzle name such as dog/tiny-example")
    p.add_argument(
        "--seed", type=int, default=0, help="the seed of the dice and policy (default 0)"
    )
    p.add_argument(
        "--engine", choices=("kernel", "reference"), default=None,
        help="the engine (default: $SOLVER_ENGINE, else kernel)",
    )  # fmt: skip
    p.set_defaults(handler=_random_game)

    p = commands.add_parser(
        "route", help="the soonest winning route, the player choosing the rolls (par)"
    )
    p.add_argument("forest", help="a .forest file or a puzzle name such as dog/tiny-example")
    p.add_argument(
        "--query", default="", metavar="CONDITIONS",
        help="conditions separated by ';': visit R,C ...; avoid R,C ...; stamina >= N; "
        "never under arrow; win by T; rolls 1 2 3 ...; shouts hit shrug ... (a hindsight route)",
    )  # fmt: skip
    p.add_argument(
        "--method", choices=("cp-sat", "graph", "brute-force"), default="cp-sat",
        help="the solver (default cp-sat)",
    )  # fmt: skip
    p.add_argument(
        "--time-limit", type=positive_float, default=10.0,
        help="CP-SAT's deterministic time limit in seconds (default 10)",
    )  # fmt: skip
    p.add_argument("--json", action="store_true", help="print a JSON object")
    p.set_defaults(handler=_route)
