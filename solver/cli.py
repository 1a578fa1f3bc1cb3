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

    print(render_ascii(_load_forest(args.forest)))
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


# -- searcher-backed commands --------------------------------------------------------------------
def _game_and_state(args: argparse.Namespace):
    import solver

    game = solver.load_game("dog", forest=_load_forest(args.forest), engine=args.engine)
    if getattr(args, "state", None):
        text = args.state
        if not text.lstrip().startswith("{"):
            text = Path(text).read_text(encoding="utf-8")
        return game, game.state_from_json(text)
    return game, game.new_initial_state()


def _search(state, args: argparse.Namespace):
    from solver.search import best_move

    if args.exact:
        return best_move(state, exact=True, memory_mb=args.memory_mb)
    return best_move(state, iterations=args.iterations, seed=args.seed)


def _move_rows(result) -> list[dict]:
    return [
        {"action": m.action, "label": m.label, "value": m.value, "visits": m.visits,
         "pv": list(m.pv)}
        for m in result.moves
    ]  # fmt: skip


def _best_moves_by_outcome(state, args: argparse.Namespace) -> dict:
    """Best moves for a decision node, or for every outcome of a chance node."""
    if not state.is_chance_node():
        result = _search(state, args)
        return {"win_probability": result.value, "exact": result.exact,
                "best_action": result.best_label, "moves": _move_rows(result)}  # fmt: skip
    outcomes = []
    total = 0.0
    for action, probability in state.chance_outcomes():
        child = state.clone()
        child.apply_action(action)
        label = state.action_to_string(action)
        if child.is_terminal() or child.is_chance_node():
            from solver.search import evaluate

            value = evaluate(child, exact=args.exact, iterations=args.iterations, seed=args.seed)
            row = {"outcome": label, "probability": probability, "win_probability": value,
                   "best_action": None, "moves": []}  # fmt: skip
        else:
            result = _search(child, args)
            row = {"outcome": label, "probability": probability,
                   "win_probability": result.value, "best_action": result.best_label,
                   "moves": _move_rows(result)}  # fmt: skip
        total += probability * row["win_probability"]
        outcomes.append(row)
    return {"win_probability": total, "exact": bool(args.exact), "best_action": None,
            "chance": True, "outcomes": outcomes}  # fmt: skip


def _print_moves(rows: list[dict], indent: str = "") -> None:
    for rank, row in enumerate(rows, 1):
        visits = f"  visits {row['visits']:>6}" if row["visits"] else ""
        pv = " ".join(row["pv"][:8])
        print(f"{indent}{rank}. {row['label']:<28} win {row['value']:.4f}{visits}  pv: {pv}")


def _dog_best_move(args: argparse.Namespace) -> int:
    import json

    _, state = _game_and_state(args)
    report = _best_moves_by_outcome(state, args)
    if args.json:
        print(json.dumps(report, indent=2))
        return 0
    kind = "exact" if report["exact"] else "estimated"
    print(f"win probability ({kind}): {report['win_probability']:.4f}")
    if report.get("chance"):
        for row in report["outcomes"]:
            print(f"if {row['outcome']} (p={row['probability']:.3f}):")
            _print_moves(row["moves"], indent="   ")
    else:
        _print_moves(report["moves"])
    return 0


def _dog_solve(args: argparse.Namespace) -> int:
    import json

    from solver.agents import make_agent
    from solver.games.dog.play import play_game
    from solver.stats import wilson_interval

    game, state = _game_and_state(args)
    if args.exact:
        from solver.search import expectimax

        result = expectimax(state, exact=True, memory_mb=args.memory_mb)
        report = {"win_probability": result.value, "exact": True,
                  "best_action": result.best_label, "states": result.nodes,
                  "seconds": round(result.elapsed, 3)}  # fmt: skip
    else:
        agent = make_agent("mcts", game, seed=args.seed, iterations=args.iterations)
        wins = sum(
            play_game(game, agent, seed=args.seed * 1_000_003 + i, state=state).won
            for i in range(args.games)
        )
        low, high = wilson_interval(wins, args.games)
        report = {"win_probability": wins / args.games, "exact": False, "best_action": None,
                  "ci_low": low, "ci_high": high, "games": args.games,
                  "iterations": args.iterations}  # fmt: skip
        if not state.is_chance_node() and not state.is_terminal():
            report["best_action"] = _search(state, args).best_label
    if args.json:
        print(json.dumps(report, indent=2))
        return 0
    if report["exact"]:
        print(f"exact win probability: {report['win_probability']:.6f}"
              f"  ({report['states']} states, {report['seconds']} s)")  # fmt: skip
    else:
        print(f"MCTS policy win rate: {report['win_probability']:.4f}  95% CI "
              f"[{report['ci_low']:.4f}, {report['ci_high']:.4f}] over {args.games} games "
              f"({args.iterations} iterations per decision)")  # fmt: skip
    if report["best_action"]:
        print(f"best action: {report['best_action']}")
    return 0


def _dog_play(args: argparse.Namespace) -> int:
    import json

    import solver
    from solver.agents import make_agent
    from solver.games.dog.play import play_game
    from solver.stats import wilson_interval

    game = solver.load_game("dog", forest=_load_forest(args.forest), engine=args.engine)
    if args.games < 1:
        raise OptionError(f"--games must be at least 1, not {args.games}")
    agent = make_agent(args.agent, game, seed=args.seed, iterations=args.iterations)
    wins = sum(
        play_game(game, agent, seed=args.seed * 1_000_003 + i).won for i in range(args.games)
    )
    low, high = wilson_interval(wins, args.games)
    report = {"agent": args.agent, "games": args.games, "wins": wins,
              "win_rate": wins / args.games, "ci_low": low, "ci_high": high}  # fmt: skip
    if args.json:
        print(json.dumps(report, indent=2))
    else:
        print(f"{args.agent}: won {wins}/{args.games} = {wins / args.games:.4f}  "
              f"95% CI [{low:.4f}, {high:.4f}]")  # fmt: skip
    return 0


def _dog_route(args: argparse.Namespace) -> int:
    import json

    from solver.games.dog.routes.query import RouteQuery, solve_route

    forest = _load_forest(args.forest)
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
    print(f"wins in turn {answer.turns} ({answer.status}, {answer.method}, "
          f"{answer.states} {counted})")  # fmt: skip
    for turn, labels in enumerate(answer.route or (), 1):
        print(f"turn {turn:>2}: {', '.join(labels) if labels else '(no move)'}")
    return 0


def _add_search_options(p: argparse.ArgumentParser, *, exact: bool = True) -> None:
    p.add_argument("forest", help="a .forest file or a puzzle name such as dog/tiny-example")
    p.add_argument("--iterations", type=int, default=1000, help="MCTS iterations per decision")
    p.add_argument("--seed", type=int, default=0)
    p.add_argument("--engine", choices=("kernel", "reference"), default=None)
    p.add_argument("--json", action="store_true", help="print a JSON object")
    if exact:
        p.add_argument("--exact", action="store_true", help="exact expectimax instead of MCTS")
        p.add_argument("--memory-mb", type=float, default=1024, help="exact search memory cap")


# -- the parser ----------------------------------------------------------------------------------
def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="forest", description="Play, solve and analyse the forest games."
    )
    games = parser.add_subparsers(dest="game", required=True, metavar="GAME")
    from solver.analysis.cli_analyse import add_analyse_command

    add_analyse_command(games)
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

    p = commands.add_parser("best-move", help="the best move (MCTS, or exact with --exact)")
    _add_search_options(p)
    p.add_argument(
        "--state", default=None, help="a state as JSON (text or file) instead of the start"
    )
    p.set_defaults(handler=_dog_best_move)

    p = commands.add_parser("solve", help="the win probability from the start")
    _add_search_options(p)
    p.add_argument(
        "--state", default=None, help="a state as JSON (text or file) instead of the start"
    )
    p.add_argument("--games", type=int, default=200, help="games played for the MCTS estimate")
    p.set_defaults(handler=_dog_solve)

    p = commands.add_parser(
        "route", help="the soonest winning route, the player choosing the rolls (par)"
    )
    p.add_argument("forest", help="a .forest file or a puzzle name")
    p.add_argument(
        "--query", default="", metavar="CONDITIONS",
        help="conditions separated by ';': visit R,C ...; avoid R,C ...; stamina >= N; "
        "never under arrow; win by T; rolls 1 2 3 ...; shouts hit shrug ... (a hindsight route)",
    )  # fmt: skip
    p.add_argument("--method", choices=("cp-sat", "graph", "brute-force"), default="cp-sat")
    p.add_argument("--time-limit", type=float, default=10.0, help="CP-SAT deterministic limit")
    p.add_argument("--json", action="store_true")
    p.set_defaults(handler=_dog_route)

    p = commands.add_parser("play", help="play games with an agent and report the win rate")
    _add_search_options(p, exact=False)
    p.add_argument("--agent", choices=("mcts", "exact", "greedy", "random"), default="mcts")
    p.add_argument("--games", type=int, default=100)
    p.set_defaults(handler=_dog_play)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    """Run the ``forest`` command; returns the exit status."""
    parser = build_parser()
    args = parser.parse_args(argv)
    handler: Handler = args.handler
    try:
        return handler(args)
    except BrokenPipeError:  # pragma: no cover - `forest ... | head`
        return 0
    except (SolverError, ValueError, OSError) as exc:
        message = str(exc) if not isinstance(exc, OSError) else f"{exc.strerror}: {exc.filename}"
        print(f"forest: error: {message}", file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        print("forest: interrupted", file=sys.stderr)
        return 130


__all__ = ["OptionError", "build_parser", "main"]

if __name__ == "__main__":  # pragma: no cover
    raise SystemExit(main())
