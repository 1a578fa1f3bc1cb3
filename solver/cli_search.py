"""``forest GAME best-move`` and ``forest GAME solve``: a position's value and its best moves.

Both follow one rule for exact answers (:func:`solver.search.plan_exact`, the hint engine's):
with neither ``--exact`` nor ``--mcts`` the exact search is tried where the game offers it and it
fits the budget (the memory cap, and a time share), else the position is estimated; ``--exact``
insists (exact, or an estimate with a note saying why not); ``--mcts`` never solves exactly.
The estimate of ``best-move`` is MCTS (ISMCTS from the player's view where cards are hidden); the
estimate of ``solve`` is what the sampled agent (``--agent``, default the game's strongest)
wins from the position, over ``--games`` games. Every answer says how it was made (``method``)
and, when it is not what was asked, why (``notes``).
"""

from __future__ import annotations

import argparse
import json
import time
from dataclasses import dataclass, field
from typing import Any

from solver.cli_position import DEFAULT_ITERATIONS, DEFAULT_MEMORY_MB, open_position, value_view
from solver.cmdkit import progress_of
from solver.errors import OptionError
from solver.played_budget import played_budget
from solver.render.ascii import count, line_text
from solver.rng import SplitMix64
from solver.spec import GameSpec

__all__ = [
    "MAX_TURN_ACTIONS",
    "SOLVE_SECONDS",
    "best_move_command",
    "hint_report",
    "solve_command",
    "strength_move",
]

MAX_TURN_ACTIONS = 64
"""The longest turn ``best-move`` spells out (a guard; no game's turn comes near it)."""
REDEALS = 32
"""Hidden information: the redeals tried for one where the best move is legal (the observer's
own moves are legal in every redeal; this only bounds the search for odd cases)."""
SOLVE_SECONDS = 20.0
"""``solve``'s budget for the exact attempt when neither ``--exact`` nor ``--mcts`` is given: it
may take the share :func:`plan_exact` gives of this (half: 10 s) before the games are played;
``--exact`` sets no time bound (the memory cap still applies)."""


def exact_mode(args: argparse.Namespace) -> bool | None:
    """``--exact`` -> True, ``--mcts`` -> False, neither -> None (exact where it fits)."""
    if getattr(args, "exact", False):
        return True
    if getattr(args, "mcts", False):
        return False
    return None


# -- one search ----------------------------------------------------------------------------------
@dataclass(frozen=True)
class Searched:
    """One position searched: the ranked moves (a decision node), the value from the viewer's
    side, what made it (``exact``, ``mcts``, ``ismcts``), its simulations and any notes."""

    result: Any
    value: float
    method: str
    simulations: int
    notes: tuple[str, ...] = ()

    @property
    def searcher(self) -> str | None:
        """``"compiled"`` or ``"python"`` (:attr:`SearchResult.searcher`); None: no search."""
        return None if self.result is None else self.result.searcher

    @property
    def leaves(self) -> str | None:
        """How the estimate's simulations valued their leaves (the searcher's ``evaluator``:
        ``heuristic``, ``rollout``, ``heuristic-playout``...); None for an exact value."""
        if self.result is None or self.method == "exact":
            return None
        evaluator = self.result.extra.get("evaluator")
        return None if evaluator is None else str(evaluator)

    @property
    def best_action(self) -> int | None:
        return None if self.result is None else self.result.best_action

    @property
    def best_label(self) -> str | None:
        return None if self.result is None else self.result.best_label


NOT_RETRIED = (
    "once the exact search had run out of memory, the other outcomes and moves of this answer "
    "were estimated without trying it again (ask for one with --state)"
)
"""A ``best-move`` at a chance node or over a turn searches several positions of about one size:
after one exact attempt hits the memory cap (tens of seconds on a 16x16 forest), the others are
estimated at once rather than each filling the cap again."""


def _memory_note(note: str) -> str:
    return note + " (raise it with --memory-mb)" if "memory cap" in note else note


def search(state: Any, args: argparse.Namespace) -> Searched:
    """``state`` valued from ``args.observer``'s side, by the rule of the module docstring.

    ``args`` carries ``spec``, ``mode`` (:func:`exact_mode`), ``iterations``, ``seed``,
    ``memory_mb`` and ``observer``. Hidden information: ISMCTS from the observer's view (never
    exact: an exact search would read every hidden card)."""
    from solver.agent_first import agent_first
    from solver.search import Limit, search_position

    spec: GameSpec = args.spec
    if state.is_terminal():
        return Searched(None, float(state.returns()[args.observer]), "exact", 0)
    if spec.hidden_information:
        from solver.search.ismcts import ismcts

        options = spec.ismcts_options(state) if spec.ismcts_options else None
        found = ismcts(state, observer=args.observer, iterations=args.iterations, seed=args.seed,
                       options=options)  # fmt: skip
        return Searched(found, float(found.value), "ismcts", int(found.iterations))
    skip = getattr(args, "exact_out_of_memory", False) and args.mode is not False
    valued = search_position(
        state,
        exact=False if skip else args.mode,
        offered=spec.exact,
        limit=Limit(iterations=args.iterations, memory_mb=args.memory_mb),
        seed=args.seed,
        view=args.observer,
        why_not=f"exact search is not offered for {spec.name}",
    )
    notes = tuple(_memory_note(n) for n in valued.notes)
    if valued.exact_failure == "memory":
        args.exact_out_of_memory = True  # the next positions of this answer are as large
    if skip:
        notes = (*notes, NOT_RETRIED)
    # the observer's value, not the mover's: at a chance node whose outcomes another seat
    # moves after, each outcome was valued for its mover (guardians 2-player: 0.94 shown as
    # player 0's win probability where player 0's was 0.06)
    value = float(valued.values[args.observer])
    result, tie_note = agent_first(
        spec, state, valued.result, seed=args.seed, iterations=args.iterations
    )
    if tie_note is not None:
        notes = (*notes, tie_note)
    return Searched(result, value, valued.method, valued.simulations, notes)


def _move_rows(state: Any, result: Any) -> list[dict[str, Any]]:
    """The moves in the vocabulary hints and reviews share (``solver.search.result.move_row``:
    ``action``, ``label``, ``order``, ``visits``, ``value``, ``pvActions``, ``pvLabels``), plus
    the pinned ``pv`` (labels)."""
    from solver.search.result import move_row

    if result is None:
        return []
    return [move_row(state, m, order) | {"pv": list(m.pv)} for order, m in enumerate(result.moves)]


LEAVES = {
    "heuristic": "heuristic leaves",
    "rollout": "random-rollout leaves",
    "heuristic-playout": "leaves valued by the heuristic after a playout",
}
"""The words for a searcher's ``evaluator`` (how its simulations value their leaves)."""


def _leaves(state: Any) -> str:
    from solver.search.mcts import has_heuristic

    return "heuristic leaves" if has_heuristic(state) else "random-rollout leaves"


def _leaf_words(leaves: set[str]) -> str:
    return ", ".join(LEAVES.get(name, f"{name} leaves") for name in sorted(leaves))


def describe(spec: GameSpec, args: argparse.Namespace, methods: set[str], state: Any) -> str:
    """What the values are: ``win probability (exact)``, ``... (MCTS estimate, 1000
    simulations a search, heuristic leaves)``... from the methods that made them."""
    kind = spec.value_kind
    per_search = count(args.iterations, "simulation")
    if methods <= {"exact"}:
        return f"{kind} (exact)"
    leaves: set[str] = getattr(args, "leaves", set())
    if methods == {"ismcts"}:
        searchers: set[str] = getattr(args, "searchers", set())
        how = f", {_leaf_words(leaves)}" if leaves else ""
        how += f", {_searcher(searchers)}" if searchers else ""
        head = _estimate_words(kind, leaves, state)
        return f"{head} (ISMCTS estimate from player {args.observer}'s view, {per_search}{how})"
    estimate = f"MCTS estimate, {_per_search(args)}, {_leaves(state)}"
    if "exact" in methods:  # headed as its --json value_label: an estimate's words win
        return f"{_estimate_words(kind, leaves, state)} (exact where it fits, else {estimate})"
    return f"{_estimate_words(kind, leaves, state)} ({estimate})"


def _per_search(args: argparse.Namespace) -> str:
    """``1000 simulations a search``, or what the searches ran where a cap stopped them short:
    ``1 simulation a search of the 1000 asked``, ``3-40 simulations a search of the 1000 asked``."""
    asked = args.iterations
    runs: list[int] = getattr(args, "runs", [])
    if not runs or max(runs) >= asked:
        return f"{count(asked, 'simulation')} a search"
    low, high = min(runs), max(runs)
    ran = count(low, "simulation") if low == high else f"{low}-{high} simulations"
    return f"{ran} a search of the {asked} asked"


def _estimate_words(kind: str, leaves: set[str], state: Any) -> str:
    """An estimate's value in words: a ``heuristic estimate of the win probability`` where a
    search's leaves were valued by the game's heuristic (:mod:`solver.search.value_words`),
    else the kind (the words after it say it is an estimate)."""
    from solver.search.value_words import value_label

    leaf = _heuristic_leaf(leaves, state)
    return kind if leaf is None else value_label(kind, "mcts", leaf)


def _heuristic_leaf(leaves: set[str], state: Any) -> str | None:
    """The first of ``leaves`` (the searches' evaluators; none reported: what the state offers,
    its heuristic or rollouts) that is the game's heuristic, or None."""
    from solver.search.mcts import has_heuristic
    from solver.search.value_words import is_heuristic

    named = leaves or {"heuristic" if has_heuristic(state) else "rollout"}
    heuristic = sorted(name for name in named if is_heuristic("mcts", name))
    return heuristic[0] if heuristic else None


# -- best-move -----------------------------------------------------------------------------------
@dataclass
class _Walk:
    """What one ``best-move`` gathers: the methods used and the notes, in order, once each."""

    methods: set[str]
    notes: list[str]
    searchers: set[str] = field(default_factory=set)
    leaves: set[str] = field(default_factory=set)
    runs: list[int] = field(default_factory=list)
    """The simulations each MCTS search ran (fewer than asked where a cap stopped it)."""

    def add(self, searched: Searched) -> Searched:
        self.methods.add(searched.method)
        if searched.method == "mcts":
            self.runs.append(searched.simulations)
        if searched.searcher is not None:
            self.searchers.add(searched.searcher)
        if searched.leaves is not None:
            self.leaves.add(searched.leaves)
        for note in searched.notes:
            if note not in self.notes:
                self.notes.append(note)
        return searched


def _decision(state: Any, args: argparse.Namespace, walk: _Walk) -> dict[str, Any]:
    found = walk.add(search(state, args))
    return {
        "win_probability": found.value,
        "value": found.value,
        "exact": found.method == "exact",
        "best_action": found.best_label,
        "moves": _move_rows(state, found.result),
    }


def _best_turn(state: Any, args: argparse.Namespace, first: int, walk: _Walk) -> list[str]:
    """The player's whole turn from ``state``: the best action, then the best next one, searched
    again (same budget and seed) after each, while the same player is still to move.

    A turn ends at a chance node, the game's end or another player's move. Games whose turn is one
    action (or one step of a chance-split move, as the dog's) get a one-item list.
    """
    player = state.current_player()
    if args.spec.hidden_information:
        # walk a redeal from the observer's view: the real state's hidden cards (a fight's
        # face-down cards...) must not decide what the rest of the turn shows. Another seat's
        # turn is its own hidden business: only the move the observer's search ranked first.
        # The first redeal in which that move is legal carries the walk on (the move came from
        # the search's redeals; the real state is never asked, not even for a label).
        deal = SplitMix64(args.seed or 0)
        world = None
        for _ in range(REDEALS):
            candidate = state.resample_hidden(args.observer, deal)
            if first in candidate.legal_actions():
                world = candidate
                break
        if world is None or player != args.observer:
            return [args.first_label]
        state = world
    else:
        state = state.clone()
    labels = [state.action_to_string(first)]
    state.apply_action(first)
    while (
        len(labels) < MAX_TURN_ACTIONS
        and not state.is_terminal()
        and not state.is_chance_node()
        and state.current_player() == player
    ):
        args.progress.update(f"action {len(labels) + 1} of the turn")
        action = walk.add(search(state, args)).best_action
        assert action is not None
        labels.append(state.action_to_string(action))
        state.apply_action(action)
    return labels


def _chance(state: Any, args: argparse.Namespace, walk: _Walk) -> dict[str, Any]:
    """Best moves for every outcome of a chance node, each searched within the budget."""
    outcomes = []
    total = 0.0
    movers: set[int] = set()  # who moves after the outcomes (their moves are valued for them)
    chances = state.chance_outcomes()
    for number, (action, probability) in enumerate(chances, 1):
        args.progress.update(f"outcome {number}/{len(chances)}")
        child = state.clone()
        child.apply_action(action)
        row: dict[str, Any] = {"outcome": state.action_to_string(action),
                               "probability": probability}  # fmt: skip
        if child.is_terminal() or child.is_chance_node():
            value = walk.add(search(child, args)).value
            row.update(win_probability=value, best_action=None, moves=[])
        else:
            movers.add(int(child.current_player()))
            decision = _decision(child, args, walk)
            row.update(win_probability=decision["value"], best_action=decision["best_action"],
                       moves=decision["moves"])  # fmt: skip
        total += probability * row["win_probability"]
        outcomes.append(row)
    if outcomes and not any(row["moves"] for row in outcomes):
        walk.notes.append(_no_move_at_chance(args, _chance_again(args, outcomes), walk))
    others = sorted(movers - {args.observer})
    if others:
        walk.notes.append(_others_after_chance(others, args.observer))
    return {"win_probability": total, "value": total, "exact": walk.methods <= {"exact"},
            "best_action": None, "chance": True, "outcomes": outcomes}  # fmt: skip


def _report(state: Any, args: argparse.Namespace, walk: _Walk) -> dict[str, Any]:
    if state.is_chance_node() and args.spec.hidden_information:
        # the outcomes may be hidden from the player: only the value from their view
        value = walk.add(search(state, args)).value
        walk.notes.append(_no_move_at_chance(args, _hidden_chance(args), walk))
        return {"win_probability": value, "value": value, "exact": False, "best_action": None,
                "moves": []}  # fmt: skip
    if state.is_chance_node():
        return _chance(state, args, walk)
    report = _decision(state, args, walk)
    mover = state.current_player()
    if mover != args.observer:
        walk.notes.append(_anothers_move(mover, args.observer))
    if report["moves"]:
        args.first_label = report["best_action"]
        report["turn"] = _best_turn(state, args, report["moves"][0]["action"], walk)
    return report


def _others_after_chance(movers: list[int], observer: int) -> str:
    """Whose the values are at a chance node another seat moves after: the value and each
    outcome's ``win_probability`` are the observer's, the moves listed the mover's own."""
    who = ", ".join(f"player {m}" for m in movers)
    return (f"after chance {who} moves, not player {observer}: the win probabilities are player "
            f"{observer}'s, the moves listed are the mover's, each valued for the mover "
            "(--player P for another seat's view)")  # fmt: skip


def _anothers_move(mover: int, observer: int) -> str:
    """Why the moves listed are not the asking player's: another seat is to move."""
    return (f"player {mover} is to move, not player {observer}: the moves are player {mover}'s "
            f"as player {observer} foresees them (what player {observer} cannot see "
            f"redealt), each valued for player {observer}")  # fmt: skip


def _new_game(args: argparse.Namespace) -> bool:
    """Whether the position searched is a new game (neither FILE nor --state given)."""
    return getattr(args, "file", None) is None and not getattr(args, "state_given", False)


def _hidden_chance(args: argparse.Namespace) -> str:
    """Where the moves are not: a hidden-information game's chance node."""
    if _new_game(args):
        return f"a new {args.spec.name} game starts with chance dealing the set-up"
    return "chance acts next here (a deal or a draw the player may not see)"


def _chance_again(args: argparse.Namespace, outcomes: list[dict[str, Any]]) -> str:
    """Where the moves are not: a chance node whose every outcome is followed by chance again
    (or the game's end), so no outcome's listing has a move."""
    first = f"{len(outcomes)} outcomes, {outcomes[0]['outcome']} the first"
    if _new_game(args):
        return (
            f"a new {args.spec.name} game starts with chance acting more than once ({first}, "
            "each followed by chance again)"
        )
    return f"chance acts more than once here ({first}, each followed by chance again or the end)"


def _no_move_at_chance(args: argparse.Namespace, where: str, walk: _Walk) -> str:
    """Why a chance node has no moves (``where`` says what chance does), what the value shown
    is (exact, or an estimate and what its simulations rest on), and where moves are."""
    spec, player = args.spec, args.observer
    value = f"player {player}'s {spec.value_kind} before it"
    if not walk.methods <= {"exact"}:
        value = f"an estimate of {value}, {_resting_on(args, walk)}"
    return (
        f"{where}: nobody has a move to choose, so the value is {value}. For a best move give "
        "a position where a player is to move (--state with a saved state or a game record "
        "from `play --record` or the web table's Save, or FILE), or play "
        f"`forest {spec.name} play --human` and ask `hint` on your turn"
    )


def _resting_on(args: argparse.Namespace, walk: _Walk) -> str:
    """What an estimate at a chance root rests on: its searches' simulations and their leaves.
    Where the heuristic values the leaves, a search from the set-up ends its simulations far
    from the game's end: the value is the heuristic's guess (it moves with the budget)."""
    searches = f"searches of {count(args.iterations, 'simulation')}"
    if any("heuristic" in leaf for leaf in walk.leaves):
        return (
            f"from {searches} with {_leaf_words(walk.leaves)}: the heuristic's guess, not a "
            "win rate measured by play to the end"
        )
    return f"from {searches} (an estimate: it moves with the budget)"


def _print_moves(rows: list[dict[str, Any]], indent: str = "") -> None:
    # the labels' column fits the longest (at least 28), so the values stay in one column beside
    # a label longer than 28 ("investigate scent trail at (3,1)" pushed its value out of it)
    width = max([28, *(len(row["label"]) for row in rows)])
    for rank, row in enumerate(rows, 1):
        visits = f"  visits {row['visits']:>6}" if row["visits"] else ""
        pv = line_text(row["pv"], 8, row.get("pvChance", ()))
        print(f"{indent}{rank}. {row['label']:<{width}} value {row['value']:.4f}{visits}  pv: {pv}")


def _method(methods: set[str]) -> str:
    return next(iter(methods)) if len(methods) == 1 else "mixed"


def _searcher(searchers: set[str]) -> str | None:
    """``compiled``, ``python``, ``mixed`` (both ran), or None (nothing was searched)."""
    if not searchers:
        return None
    return next(iter(searchers)) if len(searchers) == 1 else "mixed"


def best_move_command(spec: GameSpec, args: argparse.Namespace) -> int:
    """``forest GAME best-move``: the best move, or every outcome's at a chance node."""
    opened = open_position(spec, args)
    state = opened.state
    if state.is_terminal():
        raise OptionError("the game is over: there is no move to choose")
    args.spec, args.mode = spec, exact_mode(args)
    args.observer = value_view(opened, args.player)
    walk = _Walk(set(), [])
    with progress_of(args, "searching the best move") as progress:
        args.progress = progress
        report = _report(state, args, walk)
    args.searchers, args.leaves, args.runs = walk.searchers, walk.leaves, walk.runs
    what = describe(spec, args, walk.methods, state)
    estimated = not walk.methods <= {"exact"}
    report = {"game": spec.name, "player": args.observer, "value_kind": spec.value_kind,
              "value_label": _value_words(spec, walk, state),
              **report, "method": _method(walk.methods), "searcher": _searcher(walk.searchers),
              "simulations": args.iterations if estimated else 0,
              "leaves": sorted(walk.leaves), "notes": walk.notes}  # fmt: skip
    if getattr(args, "strength", None) is not None:
        report["strength_move"] = strength_move(opened.game, state, args)
        if report["strength_move"] is None:  # said, not left out in silence
            walk.notes.append(
                f"--strength {args.strength}: chance acts here, so level{args.strength} has no "
                "move to play; give a position where a player is to move"
            )
    if args.json:
        print(json.dumps(report, indent=2))
        return 0
    _print_best_move(what, report, args, walk.notes)
    return 0


def _print_best_move(
    what: str, report: dict[str, Any], args: argparse.Namespace, notes: list[str]
) -> None:
    """``best-move``'s text: the value, the ladder's move, the moves (each outcome's at a chance
    node), the best turn and the notes."""
    print(f"{what}: {report['value']:.4f}")
    if report.get("strength_move"):
        print(f"level{args.strength} plays: {report['strength_move']['label']}")
    if report.get("chance") and any(row["moves"] for row in report["outcomes"]):
        for row in report["outcomes"]:
            print(f"if {row['outcome']} (p={row['probability']:.3f}):")
            _print_moves(row["moves"], indent="   ")
    elif not report.get("chance"):
        _print_moves(report["moves"])
        if len(report.get("turn", ())) > 1:
            print("best turn: " + "; ".join(report["turn"]))
    for note in notes:
        print(f"note: {note}")


def _value_words(spec: GameSpec, walk: _Walk, state: Any) -> str:
    """``best-move --json``'s ``value_label``, as a hint's ``valueLabel`` says it."""
    from solver.search.value_words import value_label

    if walk.methods <= {"exact"}:
        return value_label(spec.value_kind, "exact", None)
    return value_label(spec.value_kind, "mcts", _heuristic_leaf(walk.leaves, state))


def strength_move(game: Any, state: Any, args: argparse.Namespace) -> dict[str, Any] | None:
    """The move the strength ladder's level ``args.strength`` plays at ``state`` (seeded by
    ``--seed``; the agent ``levelK``), or ``None`` at a chance node."""
    from solver.agents import make_agent

    if state.is_chance_node():
        return None
    name = f"level{args.strength}"
    agent = make_agent(name, game, seed=args.seed, memory_mb=getattr(args, "memory_mb", None))
    action = int(agent(state))
    return {"level": args.strength, "agent": name, "action": action,
            "label": state.action_to_string(action)}  # fmt: skip


def hint_report(
    spec: GameSpec, state: Any, args: argparse.Namespace, *, observer: int, top: int
) -> dict[str, Any]:
    """The best ``top`` moves at ``state`` from seat ``observer``'s view, searched as
    ``best-move`` searches them (``play --human``'s ``hint``): ``{"what", "moves", "notes",
    "exact"}`` (``exact``: the values are exact, so no move has visits)."""
    search_args = argparse.Namespace(
        spec=spec, mode=None, memory_mb=DEFAULT_MEMORY_MB, seed=args.seed, observer=observer,
        iterations=DEFAULT_ITERATIONS,
    )  # fmt: skip
    found = search(state, search_args)
    search_args.leaves = set() if found.leaves is None else {found.leaves}
    return {"what": describe(spec, search_args, {found.method}, state),
            "moves": _move_rows(state, found.result)[:top], "notes": list(found.notes),
            "exact": found.method == "exact"}  # fmt: skip


# -- solve ---------------------------------------------------------------------------------------
def _exact_value(state: Any, args: argparse.Namespace) -> tuple[dict[str, Any] | None, str | None]:
    """The exact report of ``solve``, or why there is none (a note; None when not attempted)."""
    from solver.search import plan_exact
    from solver.search.auto import exact_attempt

    spec: GameSpec = args.spec
    offered = spec.exact and not spec.hidden_information
    if args.mode is None and args.agent is not None:  # an agent named: its games are asked for
        return None, None
    seconds = None if args.mode is True else SOLVE_SECONDS  # --exact: no time bound
    plan = plan_exact(
        args.mode, offered=offered, seconds=seconds, memory_mb=args.memory_mb,
        why_not=f"exact search is not offered for {spec.name}",
    )  # fmt: skip
    if not plan.attempt:  # --mcts, or a game without exact search: the games answer
        return None, None
    budget = "" if plan.seconds is None else f", at most {plan.seconds:g} s"
    with progress_of(args, f"solving exactly (expectimax, at most {args.memory_mb:g} MB{budget})"):
        tried = exact_attempt(state, plan, view=args.observer)
    if isinstance(tried, str):
        return None, _memory_note(tried)
    result = tried.result
    assert result is not None  # an exact answer has its search result
    return {"win_probability": tried.value, "value": tried.value, "exact": True,
            "best_action": result.best_label, "states": result.nodes,
            "seconds": round(result.elapsed, 3), "method": "exact"}, None  # fmt: skip


def _agent_games(state: Any, args: argparse.Namespace, game: Any) -> dict[str, Any]:
    """What the sampled agent wins from ``state``, playing every seat, over ``--games`` games:
    the mean return of the viewer's seat with its 95% interval (Wilson's, on the returns)."""
    from solver.agents import make_agent
    from solver.play import play_game
    from solver.rng import derive_seed
    from solver.search.limit import search_cancel, search_deadline
    from solver.stats import wilson_interval

    spec: GameSpec = args.spec
    name = solve_agent(spec, args)
    iterations = solve_budget(spec, args, name)
    seat = args.observer
    total = score = 0.0
    played = 0
    what = (f"playing up to {count(args.games, 'game')} of {name} from the position for at "
            f"most {args.seconds:g} s")  # fmt: skip
    started = time.monotonic()
    deadline = started + args.seconds
    # the searches of a game still playing at the deadline stop there (each move then gets its
    # search's least work), so the one game always played finishes soon after it
    with progress_of(args, what) as progress, search_deadline(deadline, search_cancel()):
        agents = [make_agent(name, game, seed=derive_seed(args.seed, p), iterations=iterations,
                             memory_mb=args.memory_mb)
                  for p in range(game.num_players())]  # fmt: skip
        for g in range(args.games):
            if played and time.monotonic() >= deadline:
                break

            so_far = f", player {seat} so far {total / played:.2f}" if played else ""

            def step(k: int, g: int = g, so_far: str = so_far) -> None:
                progress.update(f"game {g + 1}/{args.games}, action {k}{so_far}")

            record = play_game(
                game, agents, seed=derive_seed(args.seed, g), state=state, on_action=step
            )
            returns = record.final.returns()
            total += float(returns[seat])
            scores = spec.scores(record.final) if spec.scores is not None else returns
            score += float(scores[seat])
            played += 1
    low, high = wilson_interval(total, played)
    value = total / played
    return {"win_probability": value, "value": value, "exact": False, "best_action": None,
            "ci_low": low, "ci_high": high, "games": played, "games_asked": args.games,
            "iterations": played_budget(spec, name, iterations).iterations,
            "mean_score": score / played, "agent": name,
            "method": "games", "seconds": round(time.monotonic() - started, 3)}  # fmt: skip


def solve_agent(spec: GameSpec, args: argparse.Namespace) -> str:
    """The agent ``solve``'s games play: the one asked for (``--agent``, ``--strength``), else
    the game's quick ``solve_agent`` unless ``--iterations`` asks for a search budget, else the
    strongest agent."""
    if args.agent:
        return str(args.agent)
    if spec.solve_agent is not None and args.iterations is None:
        return spec.solve_agent
    return spec.strongest_agent


def solve_budget(spec: GameSpec, args: argparse.Namespace, name: str) -> int | None:
    """The budget ``solve``'s games give agent ``name`` a decision: ``--iterations`` where
    given; the game's :attr:`~solver.spec.GameSpec.solve_iterations` for the strongest agent
    nobody named (the default estimate: quick enough games for a useful interval); else the
    agent's play default (an agent named, ``--agent`` or ``--strength``, plays as in ``play``)."""
    if args.iterations is not None:
        return int(args.iterations)
    if not args.agent and name == spec.strongest_agent and spec.solve_iterations is not None:
        return spec.solve_iterations
    return spec.play_iterations(name)


def _games_notes(spec: GameSpec, report: dict[str, Any], args: argparse.Namespace) -> list[str]:
    """What an estimate by games is and how to ask for more: where ``--seconds`` stopped it,
    the seconds that would play more games at the pace measured; where the game's quick agent
    played, or the strongest at the game's budget for solve, how to ask for the strongest
    agent at its play default."""
    seconds: float = args.seconds
    lowered = args.iterations is None and _at_solve_budget(spec, report)
    notes = [_quick_budget_note(spec, report)] if lowered else []
    if played_budget(spec, report["agent"], args.iterations).ignored:
        notes.append(_ignored_budget_note(report, args.iterations))
    played, asked = report["games"], report["games_asked"]
    if played < asked:
        more = max(60.0, 10 * seconds)
        pace = played / max(report["seconds"], 1e-9)
        notes.append(
            f"stopped after {count(played, 'game')} of {asked}: --seconds {seconds:g} ran out "
            f"(the interval is over the games played); for a narrower one ask for more: "
            f"--seconds {more:g} plays about {min(asked, max(played, round(pace * more)))}"
        )
    if report["seconds"] > seconds and _searches(spec, report["agent"]):
        notes.append(
            f"the last game was still playing when --seconds {seconds:g} ran out: its moves "
            "from then on were played at the searches' least work, a weaker agent's"
        )
    strongest = spec.strongest_agent
    if report["agent"] == spec.solve_agent != strongest:
        budget = spec.agent(strongest).budget_text()
        notes.append(
            f"{report['agent']} is {spec.name}'s quick default for solve (what {report['agent']} "
            f"self-play wins from here); the strongest agent's estimate: --agent {strongest} "
            f"({budget}; its games take far longer, so give it --seconds too)"
        )
    return notes


def _at_solve_budget(spec: GameSpec, report: dict[str, Any]) -> bool:
    """Whether the strongest agent played at the game's budget for solve, not its own."""
    agent, budget = report["agent"], report["iterations"]
    return (
        agent == spec.strongest_agent
        and budget == spec.solve_iterations
        and budget != spec.play_iterations(agent)
    )


def _ignored_budget_note(report: dict[str, Any], asked: int) -> str:
    """Why ``--iterations`` was not the budget the games played (:func:`played_budget`)."""
    agent = report["agent"]
    why = ("a level of the strength ladder plays at its own budget" if agent.startswith("level")
           else f"{agent} takes no budget")  # fmt: skip
    return f"--iterations {asked} was not played: {why}"


def _quick_budget_note(spec: GameSpec, report: dict[str, Any]) -> str:
    """Why the strongest agent played below its play default, and how to ask for that."""
    agent = spec.agent(report["agent"])
    return (
        f"{report['agent']} played at {agent.budget_text(report['iterations'])}, "
        f"{spec.name}'s budget for solve's games, so that --seconds plays enough of them for a "
        f"useful interval; at its play default ({agent.budget_text()}) a game takes far longer: "
        f"--iterations {agent.iterations} (give it --seconds too)"
    )


def _searches(spec: GameSpec, agent: str) -> bool:
    """Whether ``agent`` searches, so that a deadline weakens its moves: one declared with no
    budget (guardians' ``greedy``, the Trial's ``heuristic``) plays as before once the
    ``--seconds`` are out; the ladder's levels are taken to search."""
    return agent.startswith("level") or spec.agent(agent).iterations is not None


def solve_command(spec: GameSpec, args: argparse.Namespace) -> int:
    """``forest GAME solve``: the exact value where it fits, else the sampled agent's result."""
    opened = open_position(spec, args)
    game, state = opened.game, opened.state
    if state.is_terminal():
        raise OptionError("the game is over: its value is its returns")
    args.spec, args.mode = spec, exact_mode(args)
    to_move = state.current_player()
    args.observer = to_move if to_move >= 0 else 0
    if args.agent is not None:
        spec.agent(args.agent)  # an unknown agent is refused before anything runs
    report, why = _exact_value(state, args)
    notes = [why] if why else []
    if report is None:
        report = _agent_games(state, args, game)
        notes += _games_notes(spec, report, args)
        if not state.is_chance_node():
            search_args = argparse.Namespace(**vars(args))
            search_args.mode = False  # the exact attempt is behind us
            search_args.iterations = DEFAULT_ITERATIONS
            with progress_of(args, "searching the best action"):
                report["best_action"] = search(state, search_args).best_label
    report = {"game": spec.name, "player": args.observer, "value_kind": spec.value_kind,
              **report, "notes": notes}  # fmt: skip
    if args.json:
        print(json.dumps(report, indent=2))
        return 0
    _print_solved(spec, report, game.num_players() > 1, args.observer)
    for note in notes:
        print(f"note: {note}")
    return 0


def _print_solved(spec: GameSpec, report: dict[str, Any], seats: bool, observer: int) -> None:
    """``solve``'s text answer: the exact value with its states and time, or the agent's
    estimate with its interval; the best action, labelled an estimate where it is one."""
    if report["exact"]:
        print(f"exact {spec.value_kind}: {report['value']:.6f}"
              f"  ({report['states']} states, {report['seconds']} s)")  # fmt: skip
    else:
        agent, iterations = report["agent"], report["iterations"]
        per_move = played_budget(spec, agent, iterations).words
        # "every seat" only where there are several: a solo game's one seat is no news
        seat = f", every seat: player {observer}'s " if seats else ": "
        print(f"{agent} agent{seat}{spec.value_kind} {report['value']:.4f}  95% CI "
              f"[{report['ci_low']:.4f}, {report['ci_high']:.4f}] over "
              f"{count(report['games'], 'game')} ({per_move}; an estimate of what {agent} "
              "wins from here)")  # fmt: skip
    if report["best_action"] and report["exact"]:
        print(f"best action: {report['best_action']}")
    elif report["best_action"]:
        print(f"best action: {report['best_action']}  ({spec.sampler} estimate, "
              f"{DEFAULT_ITERATIONS} simulations)")  # fmt: skip
