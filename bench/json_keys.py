"""What refusing repeated JSON keys costs: :func:`solver.json_objects.loads` against ``json.loads``.

Every JSON document and hint request is now parsed with one ``object_pairs_hook`` that refuses
an object naming a key twice. The documents timed are the largest the library meets: saved
states late in a four-player Trial and a four-player guardians game (random play, seed 1, to
the last decision), a hint request holding the Trial state and a synthetic request of 0.7 MB
(a state padded with a list of 20 000 small objects; the HTTP default body limit is 1 MB), and
a game record of the Trial game. Each is parsed ``--repeat`` times a round, ``--rounds``
rounds, the loaders alternating (a request also through
``solver.hint.ingress.parse_request`` whole, which checks every value besides); the medians per
parse and their ratio are printed as a markdown table with the machine's load before and
after.

    python bench/json_keys.py --rounds 7 --repeat 20
"""

from __future__ import annotations

import argparse
import json
import os
import random
import statistics
import time
from collections.abc import Callable
from typing import Any

import solver
from solver.hint.ingress import parse_request
from solver.json_objects import loads


def _late_state(game: str, players: int) -> tuple[str, list[int]]:
    """The JSON of a random game's last decision (seed 1) and the actions that reach it."""
    state = solver.load_game(game, players=players).new_initial_state()
    rng, actions, last = random.Random(1), [], state.to_json()
    while not state.is_terminal():
        if state.current_player() >= 0:
            last = state.to_json()
        actions.append(rng.choice(state.legal_actions()))
        state.apply_action(actions[-1])
    return last, actions


def documents() -> dict[str, str]:
    """The texts timed, by name."""
    trial, trial_actions = _late_state("trial", 4)
    guardians, _ = _late_state("guardians", 4)
    padded = {"id": "big", "game": "guardians", "state": json.loads(guardians),
              "pad": [{"k": i, "v": [i, i + 1]} for i in range(20_000)]}  # fmt: skip
    return {
        "trial state": trial,
        "guardians state": guardians,
        "trial request": json.dumps({"id": "q", "game": "trial", "state": json.loads(trial)}),
        "trial record": json.dumps(
            {"game": "trial", "options": {"players": 4}, "seed": 1, "actions": trial_actions},
            indent=1,
        ),
        "0.7 MB request": json.dumps(padded),
    }


def _median_seconds(parse: Callable[[str], Any], text: str, repeat: int) -> float:
    started = time.perf_counter()
    for _ in range(repeat):
        parse(text)
    return (time.perf_counter() - started) / repeat


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(allow_abbrev=False, description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=7)
    parser.add_argument("--repeat", type=int, default=20)
    args = parser.parse_args(argv)
    load_before = os.getloadavg()[0]
    rows = []
    for name, text in documents().items():
        parsers: dict[str, Callable[[str], Any]] = {"plain": json.loads, "checked": loads}
        if name.endswith("request"):
            parsers["request"] = parse_request
        times: dict[str, list[float]] = {label: [] for label in parsers}
        for _ in range(args.rounds):
            for label, parse in parsers.items():
                times[label].append(_median_seconds(parse, text, args.repeat))
        rows.append((name, len(text), {k: statistics.median(v) for k, v in times.items()}))
    print(f"load before {load_before:.2f}, after {os.getloadavg()[0]:.2f}; medians of "
          f"{args.rounds} rounds x {args.repeat} parses")  # fmt: skip
    print("\n| document | bytes | json.loads ms | loads ms (refusing repeats) | ratio | "
          "parse_request ms |\n|---|---:|---:|---:|---:|---:|")  # fmt: skip
    for name, size, ms in rows:
        request = f"{ms['request'] * 1e3:.3f}" if "request" in ms else ""
        print(f"| {name} | {size} | {ms['plain'] * 1e3:.3f} | {ms['checked'] * 1e3:.3f} | "
              f"{ms['checked'] / ms['plain']:.2f} | {request} |")  # fmt: skip
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
