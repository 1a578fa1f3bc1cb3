"""How winnable the Trial's fights are: exact odds per foe, and who wins fights in self-play.

Two parts, printed as markdown (and written to ``--out`` with the command line that made them):

1. **Exact odds.** For every foe of the shipped pack (a card's ``fight``: strength S + k dice) and
   an adventurer of fixed strength s (board, story, weapon, cards: everything but the dice)
   rolling m dice, the probability that s + m dice > S + k dice, from the exact distribution of
   the pack's die (the rules' own ``fights.win_chance``: sums of independent faces, convolved).
   An adventurer rolls one die plus one per die symbol (m = 1 without die symbols); the table
   also gives the fixed strength needed for an even chance. Then the same for a prepared
   adventurer (the board, 0-2 story strength symbols, an axe, the best 4 cards of random 5-card
   hands).
2. **Self-play.** ``--games`` four-player games of each agent line-up (``random`` x4 and
   ``heuristic`` x4, chance and agents seeded from ``--seed``): every fight fought, against a foe
   or another adventurer, with the attacker's and defender's strengths and the winner (the
   ``fight:`` entries of each game's history); the share won by each side, per kind and per foe
   card.

::

    python bench/trial_fights.py --games 100 --seed 0 --out bench/results/trial-fights.md
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
import time
from collections import defaultdict
from typing import Any

from benchkit import publish

FIXED = range(2, 13)
"""Adventurer fixed strengths shown in the odds table."""


def foes(pack: Any) -> list[tuple[str, str, int, int]]:
    """Every ``fight`` argument in the pack: (card name, where, strength, dice)."""
    found: list[tuple[str, str, int, int]] = []

    def walk(node: Any, name: str, where: str) -> None:
        if isinstance(node, dict):
            if "fight" in node and isinstance(node["fight"], dict):
                f = node["fight"]
                found.append((name, where, int(f["strength"]), int(f["dice"])))
            for v in node.values():
                walk(v, name, where)
        elif isinstance(node, list):
            for v in node:
                walk(v, name, where)

    for deck, cards in (("deed", pack.deeds), ("encounter", pack.encounters),
                        ("expedition", pack.expeditions)):  # fmt: skip
        for card in cards:
            walk(card.get("effect", []), card["name"], card.get("area", deck))
    return found


def odds_table(game: Any, mine: int) -> list[str]:
    """Win % per foe and adventurer fixed strength, rolling ``mine`` dice (the rules' exact
    :func:`~solver.games.trial.fights.win_chance`)."""
    from solver.games.trial.fights import die_faces, win_chance

    faces = die_faces(game.new_initial_state())
    head = " | ".join(str(s) for s in FIXED)
    lines = [
        f"Adventurer rolling {mine} di{'e' if mine == 1 else 'ce'} (win %, by fixed strength s):",
        "",
        f"| foe | where | strength | {head} | even chance at |",
        "|---|---|---|" + "---:|" * len(FIXED) + "---:|",
    ]
    for name, where, strength, dice in foes(game.pack):
        chances = [win_chance(faces, s - strength, mine, dice) for s in FIXED]
        even = next(s for s in range(40) if win_chance(faces, s - strength, mine, dice) >= 0.5)
        cells = " | ".join(f"{100 * c:.0f}" for c in chances)
        lines.append(f"| {name} | {where} | {strength}+{dice}d | {cells} | s = {even} |")
    return lines


def reference_table(game: Any, hands: int = 5000, seed: int = 0) -> list[str]:
    """Win % per foe of a prepared adventurer: the board's strength, ``story`` strength symbols
    and an axe (2), adding the best 4 cards (2 discarded for strength, 2 face down) of a random
    5-card hand of deed cards (``hands`` seeded samples), one die."""
    import random

    from solver.games.trial.agents import best_card_strength
    from solver.games.trial.fights import die_faces, win_chance

    state = game.new_initial_state()
    faces = die_faces(state)
    rng = random.Random(seed)
    deeds = [c["id"] for c in game.pack.deeds]
    adds = [best_card_strength(state, rng.sample(deeds, 5)) for _ in range(hands)]
    board = int(game.components["character_board"]["strength"])
    lines = [
        f"A prepared adventurer: the board's {board}, an axe (2), the best 4 cards of a random "
        f"5-card hand (mean {statistics.mean(adds):.2f} strength over {hands} hands), one die; "
        "win % by strength symbols in the story:",
        "",
        "| foe | where | strength | no story symbol | 1 | 2 |",
        "|---|---|---|---:|---:|---:|",
    ]
    for name, where, strength, dice in foes(game.pack):
        cells = []
        for story in (0, 1, 2):
            fixed = board + story + 2
            chance = statistics.mean(win_chance(faces, fixed + a - strength, 1, dice) for a in adds)
            cells.append(f"{100 * chance:.0f}")
        lines.append(f"| {name} | {where} | {strength}+{dice}d | {' | '.join(cells)} |")
    return lines


def fights_of(state: Any) -> list[dict[str, Any]]:
    """Every fight of a game, read from its history (the rules write one entry per fight)."""
    found = []
    for _, text, _ in state.data["history"]:
        if text.startswith("fight:"):
            record = json.loads(text[len("fight:") :])
            record["name"] = state.game.pack.card(record["card"])["name"]
            found.append(record)
    return found


def play(lineup: str, games: int, seed: int) -> list[dict[str, Any]]:
    """The fights of ``games`` four-player games of ``lineup`` in every seat."""
    import solver
    from solver.agents import make_agent
    from solver.play import play_game
    from solver.rng import derive_seed

    game = solver.load_game("trial", players=4, engine="kernel")
    events: list[dict[str, Any]] = []
    for g in range(games):
        agents = [
            make_agent(lineup, game, seed=derive_seed(derive_seed(seed, g), s + 1))
            for s in range(4)
        ]
        record = play_game(game, agents, seed=derive_seed(derive_seed(seed, g), 0))
        events += fights_of(record.final)
    return events


def selfplay_table(lineup: str, events: list[dict[str, Any]], games: int) -> list[str]:
    from solver.stats import wilson_interval

    lines = [f"**{lineup} x4**, {games} games: {len(events)} fights.", ""]
    lines += [
        "| fights | count | attacker wins | share (Wilson 95%) | mean strengths (att. - def.) |",
        "|---|---:|---:|---|---|",
    ]
    groups: dict[str, list[dict[str, Any]]] = defaultdict(list)
    for e in events:
        groups["all"].append(e)
        groups["duels" if e["defender"] is not None else "against foes"].append(e)
    for e in events:
        if e["defender"] is None:
            groups[f"- {e['name']}"].append(e)
    order = ["all", "against foes", "duels", *sorted(k for k in groups if k.startswith("- "))]
    for key in order:
        rows = groups.get(key, [])
        if not rows:
            continue
        wins = sum(1 for e in rows if e["winner"] == "attacker")
        low, high = wilson_interval(wins, len(rows))
        att = statistics.mean(e["strength"][0] for e in rows)
        dfd = statistics.mean(e["strength"][1] for e in rows)
        lines.append(f"| {key} | {len(rows)} | {wins} | {wins / len(rows):.2f} "
                     f"[{low:.2f}, {high:.2f}] | {att:.1f} - {dfd:.1f} |")  # fmt: skip
    return lines


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(allow_abbrev=False, description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=100)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--lineups", default="random,heuristic")
    parser.add_argument("--out", default=None)
    args = parser.parse_args(argv)
    import solver

    game = solver.load_game("trial", players=4)
    command = "python bench/trial_fights.py " + " ".join(sys.argv[1:] if argv is None else argv)
    lines = ["# The Trial: how winnable fights are", "", f"`{command}`", "", "## Exact odds", ""]
    for mine in (1, 2):
        lines += [*odds_table(game, mine), ""]
    lines += [*reference_table(game), ""]
    lines += ["## Self-play", ""]
    for lineup in args.lineups.split(","):
        start = time.perf_counter()
        events = play(lineup, args.games, args.seed)
        lines += selfplay_table(lineup, events, args.games)
        lines += ["", f"({time.perf_counter() - start:.0f} s)", ""]
    text = "\n".join(lines)
    publish(text, args.out)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
