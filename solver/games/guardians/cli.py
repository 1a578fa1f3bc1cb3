"""Forest guardians' own commands: ``forest guardians order FILE.grove [--json]`` and
``forest guardians solo --level L [--agent A] --games N [--seed S] [--iterations I] [--json]``.

The commands every game gets (``show``, ``best-move``, ``solve``, ``play``, ``list``,
``render``) come from the generic CLI; ``order`` answers the guardians' headline question:
which missions can I complete this turn, in what order, without splitting my forest?

``--json`` prints exactly ``{"count", "points", "sequence": [{"pawn", "mission", "walk",
"removed", "label"}]}`` (cells as 0-based ``[row, col]`` of the ``.grove`` grid) plus the keys
``optimal``, ``method``, ``seconds``, ``exact`` and ``stopped`` (the phases ``--seconds``, the
whole answer's wall-clock budget, cut short); where a chain could go on through a tile whose back is
not known (``B:?5``), also ``expected_count`` and ``expected_points`` (the best policy over the
reveals; ``count``, ``points`` and ``sequence`` stay the best plan that depends on no unseen
back). ``--svg FILE`` also draws the plan as SVG (an existing FILE is replaced only with
``--overwrite``).

``solo`` plays a level ``--games`` times with an agent and prints the win rate with its Wilson
95% interval and the score distribution (min/median/max and a histogram; ``--json``: the
report with every score, game 0 first; :mod:`solver.games.guardians.solo_runs`).
"""

from __future__ import annotations

import argparse
import json
import time
from typing import Any

from solver.cmdkit import (
    output_option,
    positive_float,
    positive_int,
    progress_option,
    seed_int,
    time_limit_option,
    whole_from,
)
from solver.games.guardians.mission_order import AUTO_STATES, DEFAULT_SECONDS, MODEL_CAP

__all__ = ["AUTO_STATES", "add_commands", "order_lines"]


def order_lines(state: Any, plan: Any) -> list[str]:
    """The forest drawn with the order numbered: ``1[GR]b`` is the first mission's tile."""
    from solver.games.guardians.render_text import tile_token
    from solver.games.guardians.solo import PAWN_COLOURS
    from solver.render.ascii import text_grid

    me = state.people[state.current]
    order = {step.mission: n for n, step in enumerate(plan.steps, 1)}
    letters = {
        cell: (PAWN_COLOURS[p] if state.game.solo else "p")
        for p, cell in enumerate(me.pawns)
        if cell is not None
    }
    rows = [r for r, _ in me.forest]
    cols = [c for _, c in me.forest]
    grid = []
    for r in range(min(rows), max(rows) + 1):
        line = []
        for c in range(min(cols), max(cols) + 1):
            face = me.forest.get((r, c))
            if face is None:
                line.append(".")
                continue
            token = tile_token(state.tile(face.tile), face.mission, letters.get((r, c)))
            line.append(f"{order[(r, c)]}{token}" if (r, c) in order else token)
        grid.append(line)
    return text_grid(
        grid,
        col_labels=[str(c) for c in range(min(cols), max(cols) + 1)],
        row_labels=[str(r) for r in range(min(rows), max(rows) + 1)],
    )


def _order(args: argparse.Namespace) -> int:
    from solver import command_clock
    from solver.games.guardians import resolve_position
    from solver.games.guardians.mission_order import solve_order
    from solver.games.guardians.rules import GuardiansGame
    from solver.search.limit import search_cancel, search_deadline

    if args.svg is not None:
        from solver.cmdkit import check_output, check_svg_name

        check_svg_name(args.svg, "--svg")
        check_output(args.svg, overwrite=args.overwrite)
    position = resolve_position(args.position)
    state = GuardiansGame(position=position).new_initial_state()
    started = time.perf_counter()
    # --seconds runs from the command's start (Python's start-up and the imports included)
    with search_deadline(command_clock.started() + args.seconds, search_cancel()):
        solution = solve_order(state, args.method, time_limit=args.time_limit,
                               seconds=args.seconds)  # fmt: skip
    seconds = time.perf_counter() - started
    if args.svg is not None:
        from solver.cmdkit import write_output
        from solver.games.guardians.render_svg import render_state_svg

        order = {step.mission: n for n, step in enumerate(solution.plan.steps, 1)}
        write_output(render_state_svg(state, order=order), args.svg, overwrite=args.overwrite)
    if args.json:
        print(json.dumps(_order_report(state, solution, seconds), indent=2))
    else:
        _print_order(state, solution, args.seconds)
    return 0


def _order_report(state: Any, solution: Any, seconds: float) -> dict[str, Any]:
    """``order --json``: the pinned plan fields, then how it was found and whether it is exact."""
    from solver.games.guardians.mission_order_search import plan_to_dict

    report = plan_to_dict(state, solution.plan)
    report.update(optimal=solution.optimal, method=solution.method, seconds=round(seconds, 3))
    report.update(exact=solution.exact, stopped=list(solution.stopped))
    expected = solution.expected
    if expected is not None:
        report.update(
            expected_count=round(expected.count, 6), expected_points=round(expected.points, 6)
        )
    return report


_PHASE_WORDS = {
    "brute-force": "the exhaustive search",
    "cp-sat": "the CP-SAT model",
    "first-legal": "the first legal order",
    "expected": "the expectimax over the reveals",
}


def _proof(solution: Any) -> str:
    """How far the plan is proven, in words."""
    stopped = solution.stopped
    if solution.optimal and solution.plan.reaches_unseen:
        # a walk ending on a back nobody has seen counts as done: playing on may complete more
        return "the most possible before a back not yet seen"
    if solution.optimal:
        return "the most possible"
    if solution.method == "first-legal":
        why = "the time budget ran out" if stopped else "the position is too large to search"
        return f"a legal order, not proven the most: {why}"
    if "cp-sat" in stopped:
        return "the best found before the time budget ran out, not proven the most"
    return "the best found within the time limit"


def _print_order(state: Any, solution: Any, budget: float) -> None:
    plan, expected = solution.plan, solution.expected
    if plan.count == 0:
        print("no mission can be completed this turn")
    else:
        missions = "mission" if plan.count == 1 else "missions"
        print(
            f"{plan.count} {missions} for {plan.points} points ({_proof(solution)}), in this order:"
        )
        for n, step in enumerate(plan.steps, 1):
            print(f"{n:>2}. {step.label}  (+{step.points})")
    if expected is not None:
        print(
            f"playing on through the backs not yet seen: {expected.count:.3f} missions and "
            f"{expected.points:.3f} points expected (the best policy over the reveals)"
        )
    elif plan.reaches_unseen:
        why = "out of time" if "expected" in solution.stopped else "too many reveals"
        print(f"a chain could go on through a back not yet seen ({why} to play out)")
    if solution.stopped:
        phases = ", ".join(_PHASE_WORDS[phase] for phase in solution.stopped)
        print(f"stopped at the budget of {budget:g} s (--seconds): {phases} cut short")
    print()
    print("\n".join(order_lines(state, plan)))


def _solo(args: argparse.Namespace) -> int:
    import statistics

    from solver.cmdkit import progress_of
    from solver.errors import OptionError
    from solver.games.guardians import SPEC
    from solver.games.guardians.solo_runs import histogram_lines, solo_run
    from solver.render.ascii import count

    if args.agent is None:
        args.agent = SPEC.strongest_agent
    if args.iterations is None and args.agent in SPEC.offered_agents():
        args.iterations = SPEC.play_iterations(args.agent)  # the agent's own (None: no search)
    if args.agent not in SPEC.agent_names():
        raise OptionError(
            f"unknown agent {args.agent!r} for guardians; expected one of "
            f"{', '.join(SPEC.agent_names())}"
        )
    games = count(args.games, "game")
    with progress_of(args, f"playing level {args.level}, {games} of {args.agent}") as progress:
        report = solo_run(
            args.level,
            args.agent,
            games=args.games,
            seed=args.seed,
            iterations=args.iterations,
            progress=progress.counter("games played", args.games),
        )
    if args.json:
        print(json.dumps(report.to_dict(), indent=2))
        return 0
    print(
        f"level {report.level} (threshold {report.threshold}), agent {report.agent}: won "
        f"{report.wins}/{report.games} = {report.win_rate:.4f}  95% CI "
        f"[{report.ci_low:.4f}, {report.ci_high:.4f}]"
    )
    print(
        f"score: min {min(report.scores)}, median {statistics.median(report.scores):g}, "
        f"max {max(report.scores)}"
    )
    print("\n".join(histogram_lines(report.scores, report.threshold)))
    return 0


def add_commands(commands: Any) -> None:
    """Add the guardians' own sub-commands to ``forest guardians``."""
    from solver.games.guardians import SPEC
    from solver.games.guardians.endgame import SOLO_UNIT

    p = commands.add_parser(
        "order",
        help="the most missions completable this turn, and an order keeping the forest whole",
        description="Which missions can be completed this turn, in what order, without "
        "splitting the forest: the most missions, then the most points (combo cards aside).",
    )
    p.add_argument(
        "position", metavar="FILE", help="a .grove file or a puzzle name such as guardians/chain"
    )
    p.add_argument("--json", action="store_true", help="print a JSON object")
    p.add_argument(
        "--method",
        choices=("auto", "cp-sat", "brute-force"),
        default="auto",
        help="the solver: brute-force tries every order, cp-sat is the CP-SAT model; auto "
        f"(default) tries every order up to {AUTO_STATES} positions, then CP-SAT (a model of "
        f"at most {MODEL_CAP} walk-steps; past it the first legal order, not proven optimal)",
    )
    time_limit_option(p)
    p.add_argument(
        "--seconds", type=positive_float, default=DEFAULT_SECONDS, metavar="S",
        help="the whole answer's wall-clock budget; a search it cuts short is named and the "
        f"plan is then not proven the most (default {DEFAULT_SECONDS:g})",
    )  # fmt: skip
    output_option(
        p, "--svg", metavar="FILE",
        help="also draw the forest with the order numbered as SVG into FILE",
    )  # fmt: skip
    p.set_defaults(handler=_order)

    p = commands.add_parser(
        "solo",
        help="play a solo level many times: the win rate and the score distribution",
        description="Play solo level L --games times with an agent; print the win rate with "
        "its Wilson 95% interval and the scores (min/median/max and a histogram of 10-point "
        "bins, * on the threshold's bin).",
    )
    p.add_argument(
        "--level", type=whole_from(1, 6), default=1, metavar="L", help="the level, 1..6 (default 1)"
    )
    agents = SPEC.offered_agents()
    p.add_argument(
        "--agent",
        default=None,
        metavar="A",
        help=f"the agent (default: the game's strongest, {SPEC.strongest_agent}); one of "
        + ", ".join(agents),
    )
    p.add_argument(
        "--games", type=positive_int, default=10, metavar="N", help="games to play (default 10)"
    )
    p.add_argument("--seed", type=seed_int, default=0, help="the run's seed (default 0)")
    searching = ", ".join(
        f"{n} {a.iterations} {SOLO_UNIT}" if n == "lookahead" else f"{n} {a.budget_text()}"
        for n, a in agents.items()
        if a.iterations
    )  # in solo the lookahead plays its endgame player, whose play-outs it scales
    p.add_argument(
        "--iterations",
        type=positive_int,
        default=None,
        metavar="N",
        help=f"a searching agent's budget, in its own unit (default: its own: {searching})",
    )
    p.add_argument("--json", action="store_true", help="print a JSON object")
    progress_option(p)
    p.set_defaults(handler=_solo)
