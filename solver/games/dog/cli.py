"""The dog game's own commands: ``forest dog generate``, ``forest dog route``,
``forest dog random-game``.

The commands every game gets (``show``, ``best-move``, ``solve``, ``play``, ``list``, ``render``)
come from :mod:`solver.cli`; these are the ones only the dog game has.
"""

from __future__ import annotations

import argparse
import json
import math
from typing import Any

from solver.cmdkit import (
    check_output,
    output_option,
    parse_size,
    positive_float,
    positive_int,
    seed_int,
    time_limit_option,
    whole_from_1_to,
    write_output,
)


def _forest_size(text: str) -> tuple[int, int]:
    """``--size WxH``: each side from ``MIN_SIZE`` to ``MAX_SIZE`` cells, refused by the flag's
    name (the generator's own error named its ``width`` parameter). The game's modules are
    imported here, not when the parser is built: ``forest dog --help`` stays light
    (``tests/test_startup.py``)."""
    from solver.games.dog.forest import MAX_SIZE, MIN_SIZE

    width, height = parse_size(text)
    if not (MIN_SIZE <= width <= MAX_SIZE and MIN_SIZE <= height <= MAX_SIZE):
        raise argparse.ArgumentTypeError(
            f"expected a width and a height each from {MIN_SIZE} to {MAX_SIZE}, found {text!r}"
        )
    return width, height


def _turns(text: str) -> int:
    """``--turns T``: a whole number from 1 to the most a forest file holds (its format's
    ``MAX_TURNS``, read here so the parser's building imports no game module)."""
    from solver.games.dog.format import MAX_TURNS

    return whole_from_1_to(MAX_TURNS)(text)


def _band(text: str) -> tuple[float, float]:  # the win-probability and skill bands
    """``"LO:HI"`` → ``(lo, hi)`` with 0 <= lo < hi <= 1 (an argparse error otherwise)."""
    parts = text.split(":")
    try:
        lo, hi = (float(p) for p in parts) if len(parts) == 2 else (math.nan, math.nan)
    except ValueError:
        lo = hi = math.nan
    if not (0.0 <= lo < hi <= 1.0):  # also refuses nan
        raise argparse.ArgumentTypeError(
            f"expected LO:HI with 0 <= LO < HI <= 1 (e.g. 0.3:0.6), not {text!r}"
        )
    return lo, hi


def _generate(args: argparse.Namespace) -> int:
    import sys

    from solver.errors import OptionError
    from solver.games.dog.format import format_forest
    from solver.games.dog.generator import roll_forest, roll_forest_with_value

    check_output(args.output, overwrite=args.overwrite)  # before a search of many forests
    width, height = args.size
    if args.win_probability is None:
        for flag in ("par_at_least", "max_tries", "allow_interval"):
            given = getattr(args, flag)
            if given is not None and given is not False and args.skill is None:  # 0 is given
                name = "--" + flag.replace("_", "-")
                raise OptionError(f"{name} needs --win-probability LO:HI (or --skill LO:HI)")
    if args.win_probability is None and args.skill is None:
        forest = roll_forest(width, height, seed=args.seed)
        if args.turns is not None:
            forest = forest.replace(turns=args.turns)
        write_output(format_forest(forest), args.output, overwrite=args.overwrite)
        return 0
    lo, hi = args.win_probability or (0.0, 1.0)
    found = roll_forest_with_value(
        width,
        height,
        lo,
        hi,
        seed=args.seed,
        turns=args.turns,
        par_at_least=args.par_at_least,
        skill=args.skill,
        max_tries=10_000 if args.max_tries is None else args.max_tries,
        allow_interval=args.allow_interval,
    )
    write_output(format_forest(found.forest), args.output, overwrite=args.overwrite)
    proven = (
        f"win probability {found.value:.6f} (exact)"
        if found.value is not None
        else f"win probability in [{found.value_low:.6f}, {found.value_high:.6f}] (proven)"
    )
    par = f", par {found.par}" if found.par is not None else ""
    if found.skill is not None:
        weakest = f"level 1 wins {found.weakest:.6f}, {found.weakest_method}"
        par += f", skill {found.skill:.6f} ({weakest})"
    plural = "forest" if found.tries == 1 else "forests"
    print(
        f"tried {found.tries} {plural}: seed {found.seed}, {proven}{par}",
        file=sys.stderr,
    )
    return 0


def _random_game(args: argparse.Namespace) -> int:
    from solver.games.dog import SPEC, resolve_forest
    from solver.games.dog.play import play_game, random_agent
    from solver.rng import derive_seed

    game = SPEC.build(engine=args.engine, forest=resolve_forest(args.forest))
    # the policy seeded as every seeded random player is (seat 0 of `forest GAME render
    # --random-game SEED` and `play --agent random --seed SEED`), the dice with the seed itself:
    # one seed, one game, whichever command plays it
    record = play_game(game, random_agent(derive_seed(args.seed, 0)), seed=args.seed)
    for turn in record.turns:
        print(f"turn {turn.turn:>2}: {', '.join(turn.actions)}")
    print(record.final)
    return 0


def _route(args: argparse.Namespace) -> int:
    from solver import command_clock
    from solver.games.dog import resolve_forest
    from solver.games.dog.routes.query import RouteQuery, solve_route

    forest = resolve_forest(args.forest)
    query = RouteQuery.parse(args.query or "")
    # --seconds counts from the command's start, as every command's budget does: the imports
    # (CP-SAT's) come out of it, not on top of it (docs/command-line.md)
    deadline = command_clock.started() + args.seconds
    answer = solve_route(
        forest, query, method=args.method, time_limit=args.time_limit, deadline=deadline
    )
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
        proof = "proven" if answer.proven else "not proven (time limit or --seconds)"
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
    _add_generate(commands)
    _add_random_game(commands)
    _add_route(commands)


def _add_generate(commands: Any) -> None:
    """``forest dog generate``: roll a forest (of a chosen difficulty)."""
    p = commands.add_parser(
        "generate",
        help="roll a forest with the default generator",
        description="Roll a forest: the same seed and size always give the same forest.",
    )
    p.add_argument("--seed", type=seed_int, default=0, help="the generator's seed (default 0)")
    p.add_argument(
        "--size",
        type=_forest_size,
        default=(9, 9),
        metavar="WxH",
        help="WIDTHxHEIGHT in cells, each 2 to 16 (default 9x9)",
    )
    p.add_argument(
        "--turns",
        type=_turns,
        default=None,
        metavar="T",
        help="the turn limit (default: the generator's, 20 turns)",
    )
    p.add_argument(
        "--win-probability",
        type=_band,
        default=None,
        metavar="LO:HI",
        help="roll seeds S, S+1, ... until a forest whose exact optimal win probability lies in "
        "the closed band [LO, HI] (stderr says how many were tried)",
    )
    p.add_argument(
        "--skill",
        type=_band,
        default=None,
        metavar="LO:HI",
        help="roll until a forest whose skill measure (its exact win probability less the win "
        "probability of the strength ladder's level 1, as forest analyse's skill column) lies in "
        "[LO, HI]; with --win-probability, both must hold",
    )
    p.add_argument(
        "--par-at-least",
        type=positive_int,
        default=None,
        metavar="N",
        help="with --win-probability: also a par (soonest possible win) of at least N turns",
    )
    p.add_argument(
        "--max-tries",
        type=positive_int,
        default=None,
        metavar="K",
        help="with --win-probability: give up after K forests (default 10000)",
    )
    p.add_argument(
        "--allow-interval",
        action="store_true",
        help="with --win-probability: accept a forest whose proven interval lies inside the band "
        "when its exact search does not fit",
    )
    output_option(p, "-o", "--output", help="write the .forest file here (default: stdout)")
    p.set_defaults(handler=_generate)


def _add_random_game(commands: Any) -> None:
    """``forest dog random-game``: one game of a seeded random policy."""
    p = commands.add_parser("random-game", help="play one game with a seeded random policy")
    p.add_argument(
        "forest", metavar="FILE", help="a .forest file or a puzzle name such as dog/tiny-example"
    )
    p.add_argument(
        "--seed", type=seed_int, default=0, help="the seed of the dice and policy (default 0)"
    )
    p.add_argument(
        "--engine",
        choices=("kernel", "reference"),
        default=None,
        help="the engine (default: $SOLVER_ENGINE, else the compiled kernel)",
    )
    p.set_defaults(handler=_random_game)


ROUTE_SECONDS = 60.0
"""``dog route``'s default wall-clock budget: ``solve``'s. Without one the graph and the brute
force ran unbounded (a 16x16 forest of 255 turns: 8 GB after two minutes)."""


def _add_route(commands: Any) -> None:
    """``forest dog route``: the soonest winning route (par), or one meeting a query."""
    p = commands.add_parser(
        "route", help="the soonest winning route, the player choosing the rolls (par)"
    )
    p.add_argument(
        "forest", metavar="FILE", help="a .forest file or a puzzle name such as dog/tiny-example"
    )
    p.add_argument(
        "--query",
        default="",
        metavar="CONDITIONS",
        help="conditions separated by ';': visit R,C ...; avoid R,C ...; stamina >= N; "
        "never under arrow; win by T; rolls 1 2 3 ...; shouts hit shrug ... (a hindsight route)",
    )
    p.add_argument(
        "--method",
        choices=("cp-sat", "graph", "brute-force"),
        default="cp-sat",
        help="the solver (default cp-sat)",
    )
    time_limit_option(p)
    p.add_argument(
        "--seconds",
        type=positive_float,
        default=ROUTE_SECONDS,
        metavar="SECONDS",
        help=f"wall-clock budget of the whole command, start-up included, every method (default "
        f"{ROUTE_SECONDS:g}); past it the answer is not proven",
    )
    p.add_argument("--json", action="store_true", help="print a JSON object")
    p.set_defaults(handler=_route)
