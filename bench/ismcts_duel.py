"""Two ISMCTS configurations head to head in two-player games: which plays stronger.

Each agent is a spec of comma-separated ``key=value`` settings of
:func:`solver.search.ismcts.ismcts`:

- ``engine``: the engine whose states it searches (``kernel`` or ``reference``; a registered
  game only). Every action is applied to one state per engine in use, so an agent on the
  reference engine runs today's Python ISMCTS while the other searches the compiled kernel;
- ``sims`` (simulations a decision), ``depth`` (the heavy playout's actions: the leaf evaluator
  is the game's playout evaluator, ``PlayoutEvaluator(depth)``; ``depth=-1``: the heuristic
  leaf), ``c``, ``multi`` (1: multiple-observer ISMCTS), ``threads``; ``compiled`` (1: the
  compiled loop, 0: the Python ISMCTS tree, also on a kernel state, -1: by the state's kind).

``--calibrate A|B`` first times the other agent's decisions on ``--calibrate-positions`` decision
nodes and this agent's simulations a second on the same nodes (both in this process, at the same
load), then gives this agent the simulations that take that agent's median seconds a decision:
*equal wall time a move*, turned into an iteration budget so the games themselves do not depend
on the load. The figures it used are printed and kept in the table. ``--calibrate-on SPEC``
times the other agent with other settings than it plays with (e.g. the Python ISMCTS on the
reference engine, where it costs what a user of the old agent waited, while the games run it
over the kernel, which plays the same rules faster); ``--cap`` gives the calibrated agent at most
its own ``sims`` (equal wall time a move, or less when its own budget is cheaper).

Seats alternate (game ``g``: agent A in seat ``g mod 2``); chance and the agents' seeds come from
``derive_seed(seed, g)``, so every game is a pure function of the seed and its index. With
``--rows FILE`` each finished game is appended as a JSON line and games already there are
skipped (a stopped run resumes); ``--first K`` plays games K.. only (two processes may share
one rows file). A win counts 1, a shared win 1/2; the table gives A's score with a Wilson 95%
interval and each agent's median seconds a decision.

    nice -n 10 python bench/ismcts_duel.py --game cards:12:3 --games 400 \\
        --a sims=2000,depth=24 --b sims=1400,depth=24,multi=1
    nice -n 10 python bench/ismcts_duel.py --game trial --games 200 --calibrate A \\
        --a engine=kernel --b engine=reference,sims=64 --rows /work/runs/duel-rows.jsonl
    nice -n 10 python bench/ismcts_duel.py --game trial --games 200 --calibrate A --cap \
        --a sims=1000,depth=48 --b compiled=0,sims=64,depth=24 \
        --calibrate-on engine=reference,compiled=0,sims=64,depth=24 --rows ROWS
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import statistics
import sys
import time
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent


@dataclass(frozen=True)
class AgentSpec:
    """One side's search settings (see the module docstring)."""

    engine: str = "kernel"
    sims: int = 1000
    depth: int = 24
    c: float = 0.4
    multi: bool = False
    threads: int = 1
    compiled: int = -1

    @classmethod
    def parse(cls, text: str) -> AgentSpec:
        values: dict[str, Any] = {}
        for item in filter(None, text.split(",")):
            key, _, value = item.partition("=")
            kind = type(getattr(cls(), key))
            values[key] = bool(int(value)) if kind is bool else kind(value)
        return cls(**values)

    def text(self) -> str:
        return (f"engine={self.engine}, sims={self.sims}, depth={self.depth}, c={self.c}, "
                f"multi={int(self.multi)}, threads={self.threads}"
                + (f", compiled={self.compiled}" if self.compiled >= 0 else ""))  # fmt: skip


@dataclass
class Setting:
    """The game under test: one game object per engine, and the playout evaluator class."""

    games: dict[str, Any]
    evaluator: Any
    label: str
    extra: dict[str, Any] = field(default_factory=dict)


def setting(name: str) -> Setting:
    """``cards:N:H`` (the out-of-tree test kernel, built here) or a registered game's name (two
    players, both engines)."""
    import solver
    from solver.search.evaluators import PlayoutEvaluator

    if name.startswith("cards"):
        sys.path.insert(0, str(HERE))
        from ismcts_speed import build_cards

        _, n, hand = [*name.split(":"), "12", "3"][:3]
        cards, _twin = build_cards()
        game = cards.CardsGame(int(n), int(hand))
        return Setting({"kernel": game}, PlayoutEvaluator, f"high cards, {n} cards, {hand} a hand")
    evaluator = PlayoutEvaluator
    if name == "trial":  # the Trial's playout class plays its heuristic agent on Python states
        from solver.games.trial.playouts import PlayoutEvaluator as evaluator
    games = {e: solver.load_game(name, players=2, engine=e) for e in ("kernel", "reference")}
    return Setting(games, evaluator, f"{name}, two players")


def search(state: Any, spec: AgentSpec, evaluator: Any, seed: int, sims: int) -> Any:
    from solver.search.ismcts import ismcts

    leaf = "heuristic" if spec.depth < 0 else evaluator(depth=spec.depth)
    compiled = None if spec.compiled < 0 else bool(spec.compiled)
    return ismcts(state, iterations=sims, seed=seed, evaluator=leaf, c=spec.c,
                  threads=spec.threads, multiple_observers=spec.multi,
                  compiled=compiled)  # fmt: skip


def play_one(index: int, seed: int, specs: tuple[AgentSpec, AgentSpec], where: Setting) -> dict:
    """Game ``index``: agent A's score, the actions, each agent's seconds a decision."""
    from solver.game import sample_chance
    from solver.rng import SplitMix64, derive_seed

    game_seed = derive_seed(seed, index)
    engines = sorted({s.engine for s in specs})
    states = {e: where.games[e].new_initial_state() for e in engines}
    first = states[engines[0]]
    seat_a = index % 2
    chance = SplitMix64(derive_seed(game_seed, 0))
    seconds: list[list[float]] = [[], []]
    decisions = 0
    actions = 0
    while not first.is_terminal():
        if first.is_chance_node():
            action = sample_chance(first, chance)
        else:
            legal = first.legal_actions()
            if len(legal) == 1:
                action = legal[0]
            else:
                side = 0 if first.current_player() == seat_a else 1
                spec = specs[side]
                start = time.perf_counter()
                result = search(states[spec.engine], spec, where.evaluator,
                                derive_seed(game_seed, 1 + decisions), spec.sims)  # fmt: skip
                seconds[side].append(time.perf_counter() - start)
                action = int(result.best_action)
                decisions += 1
        for state in states.values():
            state.apply_action(action)
        actions += 1
    returns = first.returns()
    return {"index": index, "score_a": float(returns[seat_a]), "seat_a": seat_a,
            "actions": actions, "seconds_a": seconds[0], "seconds_b": seconds[1],
            "sims_a": specs[0].sims, "sims_b": specs[1].sims}  # fmt: skip


def decision_nodes(where: Setting, engine: str, count: int, seed: int) -> list[Any]:
    """``count`` decision nodes with a choice, along seeded random games, spread over a game."""
    from solver.rng import SplitMix64
    from solver.testing import decision_nodes as seeded_decisions

    found: list[Any] = []
    g = 0
    while len(found) < count:
        rng = SplitMix64(seed * 7919 + g)
        g += 1
        target = 5 + 25 * (len(found) % 8)
        made = 0
        for state in seeded_decisions(where.games[engine].new_initial_state(), rng):
            legal = state.legal_actions()
            if len(legal) > 1 and made >= target:
                found.append(state)
                break
            made += len(legal) > 1
            state.apply_action(legal[rng.below(len(legal))])
    return found


def calibrate(where: Setting, mine: AgentSpec, theirs: AgentSpec, count: int) -> dict[str, float]:
    """``theirs``' median seconds a decision and ``mine``'s simulations a second on the same
    nodes; the simulations that fill that time."""
    nodes = decision_nodes(where, "reference" if "reference" in where.games else "kernel",
                           count, 1)  # fmt: skip
    their_seconds, my_rates = [], []
    for i, node in enumerate(nodes):
        text = node.to_json() if hasattr(node, "to_json") else None
        theirs_state = where.games[theirs.engine].state_from_json(text) if text else node
        mine_state = where.games[mine.engine].state_from_json(text) if text else node
        start = time.perf_counter()
        search(theirs_state, theirs, where.evaluator, i, theirs.sims)
        their_seconds.append(time.perf_counter() - start)
        probe = max(200, mine.sims)
        start = time.perf_counter()
        search(mine_state, mine, where.evaluator, i, probe)
        my_rates.append(probe / (time.perf_counter() - start))
    median_seconds = statistics.median(their_seconds)
    rate = statistics.median(my_rates)
    return {"seconds": median_seconds, "rate": rate, "sims": max(1, round(median_seconds * rate))}


def read_rows(path: str | None) -> dict[int, dict]:
    rows: dict[int, dict] = {}
    if path and os.path.exists(path):
        for line in Path(path).read_text(encoding="utf-8").splitlines():
            if line.strip():
                row = json.loads(line)
                rows[int(row["index"])] = row
    return rows


def table(rows: list[dict], specs: tuple[AgentSpec, AgentSpec], where: Setting) -> list[str]:
    from solver.stats import wilson_interval

    games = len(rows)
    score = sum(r["score_a"] for r in rows)
    low, high = wilson_interval(score, games)
    per = [[s for r in rows for s in r[key]] for key in ("seconds_a", "seconds_b")]
    lines = [
        f"{games} games of {where.label}; seats alternate.",
        "",
        "| agent | settings | median seconds a decision |",
        "|---|---|---:|",
        f"| A | {specs[0].text()} | {statistics.median(per[0]) if per[0] else 0:.4f} |",
        f"| B | {specs[1].text()} | {statistics.median(per[1]) if per[1] else 0:.4f} |",
        "",
        f"A scores {score:g} of {games} = **{score / games:.3f}**, Wilson 95% interval "
        f"[{low:.3f}, {high:.3f}]; median game {statistics.median(r['actions'] for r in rows):.0f} "
        "actions.",
    ]
    for key, value in where.extra.items():
        lines.append(f"{key}: {value}")
    return lines


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(allow_abbrev=False, description=__doc__.splitlines()[0])
    parser.add_argument("--game", default="cards:12:3")
    parser.add_argument("--games", type=int, default=200)
    parser.add_argument("--a", default="", help="agent A's settings")
    parser.add_argument("--b", default="", help="agent B's settings")
    parser.add_argument("--calibrate", choices=("A", "B"), default=None)
    parser.add_argument("--calibrate-positions", type=int, default=16)
    parser.add_argument("--calibrate-on", default=None, help="the other agent's timed settings")
    parser.add_argument("--cap", action="store_true", help="at most the agent's own sims")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--rows", default=None)
    parser.add_argument("--first", type=int, default=0)
    parser.add_argument("--table-only", action="store_true")
    parser.add_argument("--out", default=None)
    args = parser.parse_args(argv)
    where = setting(args.game)
    specs = (AgentSpec.parse(args.a), AgentSpec.parse(args.b))
    load_before = ", ".join(f"{x:.2f}" for x in os.getloadavg())
    if args.calibrate:
        side = 0 if args.calibrate == "A" else 1
        timed = AgentSpec.parse(args.calibrate_on) if args.calibrate_on else specs[1 - side]
        found = calibrate(where, specs[side], timed, args.calibrate_positions)
        print(f"calibration: {found}", flush=True)
        sims = min(int(found["sims"]), specs[side].sims) if args.cap else int(found["sims"])
        chosen = replace(specs[side], sims=sims)
        specs = (chosen, specs[1]) if side == 0 else (specs[0], chosen)
        where.extra["calibration"] = (
            f"agent {args.calibrate} given {sims} simulations; equal wall time would be "
            f"{found['sims']:.0f} = the other's median {found['seconds']:.4f} s a decision "
            f"({timed.text()}) x its own {found['rate']:.0f} simulations/s "
            f"({args.calibrate_positions} positions)"
        )
    done = read_rows(args.rows)
    todo = [] if args.table_only else [g for g in range(args.first, args.games) if g not in done]
    for g in todo:
        row = play_one(g, args.seed, specs, where)
        done[g] = row
        print(f"game {g}: A scores {row['score_a']:g} (seat {row['seat_a']})", flush=True)
        if args.rows:
            with open(args.rows, "a", encoding="utf-8") as handle:
                handle.write(json.dumps(row) + "\n")
    rows = [done[g] for g in sorted(done) if g < args.games]
    command = "python bench/ismcts_duel.py " + " ".join(sys.argv[1:] if argv is None else argv)
    lines = [f"`{command}`", ""] + (table(rows, specs, where) if rows else ["No games yet."])
    if len(rows) < args.games:
        lines += ["", f"**Partial: {len(rows)} of {args.games} games.**"]
    lines += ["", f"Load average {load_before} at the start, "
              f"{', '.join(f'{x:.2f}' for x in os.getloadavg())} at the end; "
              f"{os.cpu_count()} cores, Python {platform.python_version()}."]  # fmt: skip
    text = "\n".join(lines)
    print(text)
    if args.out:
        Path(args.out).write_text(text + "\n", encoding="utf-8")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
