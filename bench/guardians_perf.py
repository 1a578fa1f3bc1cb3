"""Forest guardians benches (the Python reference path): medians into
``bench/results/guardians.md``.

1. Reference engine actions/s in random play (solo and 3 players; chance outcomes included).
2. The cut-vertex test (:func:`splits_forest` on every tile) against networkx's articulation
   points, and walk enumeration (:func:`walks_from`) against a networkx twin (simple paths of the
   mission's length through forest-side tiles, filtered by colour); both twins are checked to
   agree before they are timed.
3. Mission ordering, CP-SAT against the exhaustive search, on the named positions kept in
   ``bench/guardians_positions/`` (``n{tiles}-p{pawns}-{k}.grove``: 10, 20, 40 and 80 tiles,
   1-4 pawns; written by ``--write-positions``, a seeded generator below), and the ``order``
   command's median and p99 on the 80-tile positions (in-process: ``forest guardians order FILE
   --json`` through ``solver.cli.main``, interpreter start-up excluded).
4. MCTS simulations per second on guardians (Python path, the shared searcher with the
   guardians heuristic leaves) at a solo game's first growth decision and mid-game.

The committed table was made by::

    python bench/guardians_perf.py --out bench/results/guardians.md

``--kernel`` measures the compiled kernel (``ext/guardians.pyx``) against the reference in the
same process instead, and ``--append FILE`` adds that section to a results file:

5. random play actions/s: the reference, the kernel through the same Python loop, and the
   kernel's C playout loop (``random_playouts``);
6. the cut-vertex test on every tile and walk enumeration from every mission tile, kernel
   against the reference and networkx, on the named positions (the answers are checked equal
   before they are timed);
7. MCTS simulations per second, the compiled loop on kernel states against the Python path on
   reference states (heuristic leaves and random rollouts; both build the same tree).

    python bench/guardians_perf.py --kernel --append bench/results/guardians.md
"""

from __future__ import annotations

import argparse
import contextlib
import io
import os
import platform
import statistics
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import networkx as nx

import solver
from solver.games.guardians.board import Face, neighbours
from solver.games.guardians.connectivity import splits_forest
from solver.games.guardians.grove_format import format_grove, load_grove
from solver.games.guardians.grove_position import DEFAULT_TABLE, Grove, GroveCell
from solver.games.guardians.rules import GuardiansGame, Phase
from solver.games.guardians.tiles import Tile
from solver.games.guardians.walks import path_code, start_walk_ok, walks_from
from solver.rng import SplitMix64

POSITIONS = Path(__file__).resolve().parent / "guardians_positions"
SIZES = (10, 20, 40, 80)
PAWNS = (1, 2, 3, 4)
PER_CELL = 3
BRUTE_CAP = 200_000
CPSAT_LIMIT = 5.0


def _median_seconds(run: Callable[[], Any], repeat: int = 5) -> float:
    times = []
    for _ in range(repeat):
        started = time.perf_counter()
        run()
        times.append(time.perf_counter() - started)
    return statistics.median(times)


# -- 1. actions/s --------------------------------------------------------------------------------
def actions_per_second(players: int, games: int, engine: str = "reference") -> float:
    game = solver.load_game("guardians", players=players, engine=engine)
    actions = 0
    started = time.perf_counter()
    for seed in range(games):
        rng = SplitMix64(seed)
        state = game.new_initial_state()
        while not state.is_terminal():
            if state.is_chance_node():
                action = rng.pick([a for a, _ in state.chance_outcomes()])
            else:
                action = rng.pick(state.legal_actions())
            state.apply_action(action)
            actions += 1
    return actions / (time.perf_counter() - started)


# -- 2. cut vertices and walks -------------------------------------------------------------------
def random_cells(rng: SplitMix64, size: int) -> set[tuple[int, int]]:
    cells = {(0, 0)}
    while len(cells) < size:
        cells.add(rng.pick(neighbours(rng.pick(sorted(cells)))))
    return cells


def graph(cells: Any) -> nx.Graph:
    g = nx.Graph()
    g.add_nodes_from(cells)
    g.add_edges_from((c, n) for c in cells for n in neighbours(c) if n in cells)
    return g


def cut_vertices(size: int, seed: int) -> tuple[float, float]:
    cells = random_cells(SplitMix64(seed), size)
    ours = {c for c in cells if splits_forest(cells, c)}
    assert ours == set(nx.articulation_points(graph(cells)))
    mine = _median_seconds(lambda: [splits_forest(cells, c) for c in cells])
    twin = _median_seconds(lambda: set(nx.articulation_points(graph(cells))))
    return mine, twin


def walk_forest(size: int, seed: int) -> tuple[dict[Any, Face], dict[int, Tile], list[Any]]:
    rng = SplitMix64(seed)
    cells = sorted(random_cells(rng, size))
    palette = "BGR"
    tiles = {0: Tile(0, None, "", 12, True)}
    forest = {}
    for i, cell in enumerate(cells, start=1):
        sequence = "".join(rng.pick(palette) for _ in range(1 + rng.roll(4)))
        tiles[i] = Tile(i, rng.pick(palette), sequence, 3)
        forest[cell] = Face(i, rng.roll(4) == 1)
    forest[cells[0]] = Face(0, True)
    return forest, tiles, [c for c in cells if forest[c].mission]


def nx_walks(forest: dict[Any, Face], tiles: dict[int, Tile], start: Any) -> list[tuple[Any, ...]]:
    """The networkx twin: simple paths of the mission's length from a neighbour of ``start``."""
    tile = tiles[forest[start].tile]
    k = 6 if tile.start else len(tile.sequence)
    g = graph({c for c, f in forest.items() if not f.mission})
    found = set()
    for first in neighbours(start):
        if first not in g:
            continue
        if k == 1:
            paths = [[first]]
        else:
            paths = [
                p
                for target in g
                if target != first
                for p in nx.all_simple_paths(g, first, target, cutoff=k - 1)
                if len(p) == k
            ]
        for p in paths:
            colours = "".join(tiles[forest[c].tile].colour or "" for c in p)
            ok = (
                start_walk_ok(colours)
                if tile.start
                else colours in (tile.sequence, tile.sequence[::-1])
            )
            if ok:
                found.add(tuple(p))
    return sorted(found)


def walk_enumeration(size: int, seed: int) -> tuple[float, float, int]:
    forest, tiles, starts = walk_forest(size, seed)
    count = 0
    for s in starts:
        mine = walks_from(forest, tiles, s)
        assert sorted(mine) == nx_walks(forest, tiles, s), s
        count += len(mine)
    ours = _median_seconds(lambda: [walks_from(forest, tiles, s) for s in starts])
    twin = _median_seconds(lambda: [nx_walks(forest, tiles, s) for s in starts], repeat=3)
    return ours, twin, count


# -- 3. mission ordering -------------------------------------------------------------------------
def make_position(size: int, pawns: int, seed: int) -> Grove:
    """A connected forest of ``size`` tiles in a 16x16 window, ``pawns`` pawns on mission tiles,
    missions of 2-4 colours in four colours (denser in walks than the game's six colours)."""
    rng = SplitMix64(seed)
    cells = {(8, 8)}
    while len(cells) < size:
        n = rng.pick(neighbours(rng.pick(sorted(cells))))
        if 0 <= n[0] < 16 and 0 <= n[1] < 16:
            cells.add(n)
    order = sorted(cells)
    top = min(r for r, _ in order)
    left = min(c for _, c in order)
    bottom = max(r for r, _ in order)
    right = max(c for _, c in order)
    grid: list[list[GroveCell | None]] = [
        [None] * (right - left + 1) for _ in range(bottom - top + 1)
    ]
    palette = "BGRE"
    with_pawn = set()
    while len(with_pawn) < pawns:
        with_pawn.add(rng.pick(order))
    letters = iter("bgyr")
    for r, c in order:
        sequence = "".join(rng.pick(palette) for _ in range(1 + rng.roll(3)))
        if (r, c) in with_pawn:
            cell = GroveCell(None, sequence, True, False, next(letters))
        elif rng.roll(8) == 1:
            cell = GroveCell(None, sequence, True)
        else:
            cell = GroveCell(rng.pick(palette), sequence)
        grid[r - top][c - left] = cell
    return Grove(f"n{size}-p{pawns}-{seed}", "solo", DEFAULT_TABLE, tuple(map(tuple, grid)))


def write_positions() -> None:
    POSITIONS.mkdir(exist_ok=True)
    for size in SIZES:
        for pawns in PAWNS:
            kept, seed = 0, 0
            while kept < PER_CELL:
                seed += 1
                grove = make_position(size, pawns, 1000 * size + 100 * pawns + seed)
                state = GuardiansGame(position=grove).new_initial_state()
                if len(state.legal_actions()) < 2:  # keep positions with a walk
                    continue
                kept += 1
                name = f"n{size}-p{pawns}-{kept}"
                grove = Grove(name, grove.mode, grove.points, grove.grid)
                (POSITIONS / f"{name}.grove").write_text(format_grove(grove), encoding="utf-8")


def ordering_rows() -> list[dict[str, Any]]:
    from solver.games.guardians.mission_order_cpsat import cpsat_order
    from solver.games.guardians.mission_order_search import bounded_best_order

    rows = []
    for path in sorted(POSITIONS.glob("*.grove")):
        grove = load_grove(path)
        state = GuardiansGame(position=grove).new_initial_state()
        assert state.phase == Phase.MISSIONS
        started = time.perf_counter()
        brute = bounded_best_order(state, BRUTE_CAP)
        brute_s = time.perf_counter() - started
        started = time.perf_counter()
        answer = cpsat_order(state, time_limit=CPSAT_LIMIT)
        cpsat_s = time.perf_counter() - started
        if brute is not None and answer.optimal:
            assert (brute.count, brute.points) == (answer.plan.count, answer.plan.points), path
        rows.append(
            {
                "name": path.stem,
                "tiles": grove.tile_count(),
                "pawns": sum(cell.pawn is not None for _, cell in grove.tiles()),
                "brute": brute_s if brute is not None else None,
                "cpsat": cpsat_s,
                "count": answer.plan.count,
            }
        )
    return rows


def order_command_times(repeat: int) -> list[float]:
    from solver.cli import main

    times = []
    for path in sorted(POSITIONS.glob("n80-*.grove")):
        for _ in range(repeat):
            started = time.perf_counter()
            with contextlib.redirect_stdout(io.StringIO()):
                assert main(["guardians", "order", str(path), "--json"]) == 0
            times.append(time.perf_counter() - started)
    return times


# -- 4. MCTS -------------------------------------------------------------------------------------
def mcts_rate(state: Any, iterations: int) -> float:
    from solver.search import mcts, strong_mcts_options

    seconds = _median_seconds(
        lambda: mcts(state, iterations=iterations, seed=1, options=strong_mcts_options(state)),
        repeat=3,
    )
    return iterations / seconds


def mcts_states(engine: str = "reference") -> list[tuple[str, Any]]:
    game = solver.load_game("guardians", players=1, level=1, engine=engine)
    rng = SplitMix64(7)
    state = game.new_initial_state()
    found = []
    decisions = 0
    while not state.is_terminal() and len(found) < 2:
        if state.is_chance_node():
            state.apply_action(rng.pick([a for a, _ in state.chance_outcomes()]))
            continue
        legal = state.legal_actions()
        if state.phase == Phase.GROW and decisions == 1:
            found.append(("solo round 1, growth", state.clone()))
        if state.phase == Phase.PLACE and state.round == 6:
            found.append(("solo round 6, placement", state.clone()))
        decisions += 1
        state.apply_action(rng.pick(legal))
    return found


# -- 5-7. the compiled kernel against the reference ---------------------------------------------
def kernel_playout_rate(players: int, games: int) -> float:
    """Actions/s of the kernel's C playout loop (random play, chance by its probabilities)."""
    from solver._ext.guardians import random_playouts

    game = solver.load_game("guardians", players=players, engine="kernel")
    applied = 0

    def run() -> None:
        nonlocal applied
        applied = random_playouts(game, games, 1)[1]

    seconds = _median_seconds(run)
    return applied / seconds


def _kernel_position(path: Path) -> tuple[Any, Any]:
    grove = load_grove(path)
    kernel = solver.load_game("guardians", position=grove, engine="kernel").new_initial_state()
    reference = GuardiansGame(position=grove).new_initial_state()
    return kernel, reference


def kernel_cut_and_walks(size: int) -> dict[str, float]:
    """Per pass over the positions ``n{size}-*``: the cut-vertex test on every tile and walk
    enumeration from every mission tile, kernel vs reference (and networkx for cut vertices)."""
    from solver._ext.guardians import cut_vertices as k_cut
    from solver._ext.guardians import time_cut_vertices, time_walks

    paths = sorted(POSITIONS.glob(f"n{size}-*.grove"))
    pairs = [_kernel_position(p) for p in paths]
    out = {"positions": len(pairs), "kernel_cut": 0.0, "kernel_test": 0.0, "ref_cut": 0.0,
           "nx_cut": 0.0, "kernel_walks": 0.0, "ref_walks": 0.0, "walks": 0}  # fmt: skip
    repeat = 2000
    for kernel, reference in pairs:
        forest = reference.people[0].forest
        catalogue = reference.catalogue
        cells = set(forest)
        missions = [c for c, f in forest.items() if f.mission]
        ours = {c for c in cells if splits_forest(cells, c)}
        assert set(k_cut(kernel, 0)) == ours == set(nx.articulation_points(graph(cells)))
        assert set(k_cut(kernel, 0, "test")) == ours
        ref_walks = [walks_from(forest, catalogue, c) for c in missions]
        count = sum(len(w) for w in ref_walks)
        assert time_walks(kernel, 0, 1) == count
        for c, walks in zip(missions, ref_walks, strict=True):
            assert kernel._walk_codes(0, c) == sorted(path_code(c, w) for w in walks)
        out["walks"] += count
        out["kernel_cut"] += _median_seconds(lambda k=kernel: time_cut_vertices(k, 0, repeat))
        out["kernel_test"] += _median_seconds(
            lambda k=kernel: time_cut_vertices(k, 0, repeat, "test")
        )
        out["ref_cut"] += _median_seconds(lambda x=cells: [splits_forest(x, c) for c in x])
        out["nx_cut"] += _median_seconds(lambda x=cells: set(nx.articulation_points(graph(x))))
        out["kernel_walks"] += _median_seconds(lambda k=kernel: time_walks(k, 0, repeat))
        out["ref_walks"] += _median_seconds(
            lambda f=forest, t=catalogue, m=missions: [walks_from(f, t, c) for c in m]
        )
    out["kernel_cut"] /= repeat
    out["kernel_test"] /= repeat
    out["kernel_walks"] /= repeat
    return out


def mcts_rates(state: Any, iterations: int, evaluator: str) -> float:
    from solver.search import MCTSOptions, mcts, strong_mcts_options

    options = strong_mcts_options(state) if evaluator == "heuristic" else MCTSOptions()
    seconds = _median_seconds(
        lambda: mcts(state, iterations=iterations, seed=1, options=options), repeat=3
    )
    return iterations / seconds


def kernel_section(games: int) -> list[str]:
    out = [
        "",
        "## The compiled kernel against the reference (same process)",
        "",
        f"Made by `python bench/guardians_perf.py --kernel --games {games} --append "
        f"bench/results/guardians.md` (Python {platform.python_version()}, "
        f"{platform.machine()}, 2 shared cores, load average {os.getloadavg()[0]:.1f} at the "
        "start: other work ran alongside; ratios are taken within one run). Random play: median "
        f"of 3 runs of {games} games (C loop: of 5 runs of {20 * games} games); the rest: "
        "medians of 5 runs (MCTS: 3).",
        "",
        "### Random play, actions/s",
        "",
        "Fresh games, decisions uniformly at random, chance by its probabilities. 'kernel, Python "
        "loop': the same Python loop as the reference over kernel states (`legal_actions()`, "
        "`apply_action()`); 'kernel, C loop': `solver._ext.guardians.random_playouts`.",
        "",
        "| players | reference | kernel, Python loop | kernel, C loop | C loop / reference |",
        "|---|---|---|---|---|",
    ]
    for players in (1, 2, 3, 4):
        ref = statistics.median(actions_per_second(players, games) for _ in range(3))
        py = statistics.median(actions_per_second(players, games, "kernel") for _ in range(3))
        c = kernel_playout_rate(players, 20 * games)
        out.append(
            f"| {players} | {ref:,.0f} | {py:,.0f} ({py / ref:.1f}x) | {c:,.0f} | {c / ref:,.0f}x |"
        )
    out += [
        "",
        "### Cut-vertex test and walk enumeration",
        "",
        "Per pass over the named positions `bench/guardians_positions/n{tiles}-*` (12 per size, "
        "times summed): 'cut' finds every cut vertex of the forest (kernel, all at once: Tarjan's "
        "search of `ext/guardians.pyx`; kernel, per tile: the rules' breadth-first test that "
        "legal move generation runs for each pawn; reference: `connectivity.splits_forest` on "
        "every tile; networkx: `articulation_points`, all at once); 'walks' enumerates the walks "
        "from every mission tile (kernel: the depth-first search over the colour bitboards; "
        "reference: `walks.walks_from`). The kernel's answers equal both twins' on every "
        "position.",
        "",
        "| tiles | cut: kernel, all at once | kernel, per tile | reference | networkx | "
        "kernel vs networkx | walks: kernel | walks: reference | kernel vs reference | "
        "walks found |",
        "|---|---|---|---|---|---|---|---|---|---|",
    ]
    for size in SIZES:
        r = kernel_cut_and_walks(size)
        out.append(
            f"| {size} | {r['kernel_cut'] * 1e6:.2f} µs | {r['kernel_test'] * 1e6:.2f} µs | "
            f"{r['ref_cut'] * 1e3:.2f} ms | "
            f"{r['nx_cut'] * 1e3:.2f} ms | {r['nx_cut'] / r['kernel_cut']:,.0f}x | "
            f"{r['kernel_walks'] * 1e6:.2f} µs | {r['ref_walks'] * 1e3:.2f} ms | "
            f"{r['ref_walks'] / r['kernel_walks']:,.0f}x | {r['walks']} |"
        )
    out += [
        "",
        "### MCTS simulations per second, compiled vs Python path",
        "",
        "The same solo game (level 1, seed 7) on both engines; 'heuristic': the strong "
        "configuration the `mcts` agent plays (heuristic leaves, max backup); 'rollout': one "
        "random playout per leaf. Python path: 200 simulations; compiled: 20 000. Both paths "
        "build the same tree (`tests/games/guardians/test_kernel_search.py`).",
        "",
        "| state | legal actions | evaluator | Python path | compiled | speed-up |",
        "|---|---|---|---|---|---|",
    ]
    for (label, ref), (_, ker) in zip(mcts_states(), mcts_states("kernel"), strict=True):
        assert ref.to_json() == ker.to_json()
        for evaluator in ("heuristic", "rollout"):
            py = mcts_rates(ref, 200, evaluator)
            c = mcts_rates(ker, 20_000, evaluator)
            out.append(
                f"| {label} | {len(ref.legal_actions())} | {evaluator} | {py:,.0f} | "
                f"{c:,.0f} | {c / py:,.0f}x |"
            )
    return out


def _pct(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))]


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(
        allow_abbrev=False, description="forest guardians benches (Python path)"
    )
    p.add_argument("--out", default=None)
    p.add_argument("--write-positions", action="store_true")
    p.add_argument("--games", type=int, default=20, help="random games for actions/s")
    p.add_argument("--order-repeat", type=int, default=5)
    p.add_argument("--kernel", action="store_true", help="the kernel against the reference")
    p.add_argument("--append", default=None, help="append the --kernel section to this file")
    args = p.parse_args(argv)
    if args.write_positions:
        write_positions()
    if args.kernel:
        section = "\n".join(kernel_section(args.games)) + "\n"
        print(section)
        if args.append:
            with open(args.append, "a", encoding="utf-8") as handle:
                handle.write(section)
        return 0
    out = [
        "# Forest guardians benches (Python reference path)",
        "",
        f"Made by `python bench/guardians_perf.py {' '.join(argv or sys.argv[1:])}` "
        f"(Python {platform.python_version()}, {platform.machine()}, 2 shared cores, load "
        f"average {os.getloadavg()[0]:.1f} at the start: other work ran alongside, so times are "
        "pessimistic). Medians of repeated runs.",
        "",
        "## Reference engine, random play",
        "",
        "| players | games | actions/s |",
        "|---|---|---|",
    ]
    for players in (1, 3):
        rate = actions_per_second(players, args.games)
        out.append(f"| {players} | {args.games} | {rate:,.0f} |")
    out += [
        "",
        "## Cut-vertex test and walk enumeration against networkx",
        "",
        "| forest tiles | cut vertices: ours (all tiles) | networkx articulation points | "
        "walks: ours | networkx twin | walks found |",
        "|---|---|---|---|---|---|",
    ]
    for size in (20, 40, 80):
        mine, twin = cut_vertices(size, size)
        wm, wt, count = walk_enumeration(size, size + 1)
        out.append(
            f"| {size} | {mine * 1e3:.3f} ms | {twin * 1e3:.3f} ms | {wm * 1e3:.3f} ms | "
            f"{wt * 1e3:.1f} ms | {count} |"
        )
    rows = ordering_rows()
    out += [
        "",
        "## Mission ordering: exhaustive search against CP-SAT",
        "",
        f"Positions: `bench/guardians_positions/` (3 per size and pawn count). Exhaustive search "
        f"capped at {BRUTE_CAP:,} positions ('cap' = gave up); CP-SAT with a "
        f"{CPSAT_LIMIT:g} s limit. Medians per size and pawn count.",
        "",
        "| tiles | pawns | exhaustive | CP-SAT | faster | missions (median) |",
        "|---|---|---|---|---|---|",
    ]
    for size in SIZES:
        for pawns in PAWNS:
            group = [r for r in rows if r["name"].startswith(f"n{size}-p{pawns}-")]
            if not group:
                continue
            brutes = [r["brute"] for r in group]
            cp = statistics.median(r["cpsat"] for r in group)
            if any(b is None for b in brutes):
                brute_text, faster = f"cap ({sum(b is None for b in brutes)}/3)", "CP-SAT"
            else:
                b = statistics.median(brutes)
                brute_text = f"{b * 1e3:.1f} ms"
                faster = "exhaustive" if b < cp else "CP-SAT"
            out.append(
                f"| {size} | {pawns} | {brute_text} | {cp * 1e3:.1f} ms | {faster} | "
                f"{statistics.median(r['count'] for r in group):g} |"
            )
    times = order_command_times(args.order_repeat)
    out += [
        "",
        "## `forest guardians order FILE --json` on the 80-tile positions",
        "",
        f"{len(times)} runs (12 positions x {args.order_repeat}), in-process: median "
        f"{statistics.median(times) * 1e3:.1f} ms, p99 {_pct(times, 0.99) * 1e3:.1f} ms, "
        f"max {max(times) * 1e3:.1f} ms.",
        "",
        "## MCTS simulations per second (Python path, heuristic leaves)",
        "",
        "| state | legal actions | simulations/s |",
        "|---|---|---|",
    ]
    for label, state in mcts_states():
        out.append(f"| {label} | {len(state.legal_actions())} | {mcts_rate(state, 200):,.0f} |")
    text = "\n".join(out) + "\n"
    print(text)
    if args.out:
        Path(args.out).write_text(text, encoding="utf-8")
    return 0


if __name__ == "__main__":
    sys.exit(main())
