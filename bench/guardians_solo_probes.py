"""Forest guardians solo: probes of the default agent's growth-step choices (issue 20's
level-1 aim), paired game for game with the default.

Each probe plays the default agent's solo game but overrides one kind of choice at the growth
step, the decision between taking 2 tiles, taking 1 tile (a new mission with a pawn from the
reserve) and resetting the pool:

- ``never-reset``: where the default resets the pool, it takes 2 tiles instead;
- ``reset-until-R``: it resets the pool whenever the rules allow it, up to round R;
- ``pawns-N-until-R``: it takes 1 tile (a pawn leaves the reserve) at each growth step up to
  round R until it has done so N times.

Everything else is the default's play. A probe that wins more games than the default would show
a choice the default's planner gets wrong; the table says whether any does. Games, records and
the table are ``bench/guardians_solo_playouts.py``'s: game ``g`` is ``forest guardians solo
--level L --seed S``'s game ``g``, the default's row is ``rounds=2``, and every probe is paired
with it game for game (exact sign test).
"""

from __future__ import annotations

import argparse
import re
import sys
from collections.abc import Callable
from typing import Any

from guardians_solo_playouts import parse_run, play, record_games

from solver.games.guardians.actions import RESET, TAKE_ONE, TAKE_TWO

Agent = Callable[[Any], int]
PROBES = r"never-reset|reset-until-\d+|pawns-\d+-until-\d+"


def probe_agent(game: Any, seed: int, probe: str, base: Agent | None = None) -> Agent:
    """The default agent's solo play (or ``base``'s) with the growth-step override ``probe``
    names."""
    from solver.games.guardians.endgame import endgame_agent

    base = base or endgame_agent(game, seed=seed)
    if probe == "never-reset":
        return lambda state: _never_reset(state, base)
    if match := re.fullmatch(r"reset-until-(\d+)", probe):
        until = int(match[1])
        return lambda state: _reset_early(state, base, until)
    if match := re.fullmatch(r"pawns-(\d+)-until-(\d+)", probe):
        return _early_pawns(base, int(match[1]), int(match[2]))
    raise ValueError(f"unknown probe {probe!r}")


def _never_reset(state: Any, base: Agent) -> int:
    action = base(state)
    return TAKE_TWO if action == RESET else action


def _reset_early(state: Any, base: Agent, until: int) -> int:
    if state.round <= until and RESET in state.legal_actions():
        return RESET
    return base(state)


def _early_pawns(base: Agent, pawns: int, until: int) -> Agent:
    taken = [0]

    def act(state: Any) -> int:
        legal = state.legal_actions()
        if taken[0] < pawns and state.round <= until and TAKE_ONE in legal and TAKE_TWO in legal:
            taken[0] += 1
            return TAKE_ONE
        return base(state)

    return act


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(allow_abbrev=False, description=__doc__.split("\n\n")[0])
    p.add_argument("--probe", help="never-reset, reset-until-R, pawns-N-until-R (default: none)")
    args = parse_run(p, argv)
    if args.table:
        return 0
    variant = f"probe {args.probe}" if args.probe else "rounds=2"
    make = None
    if args.probe:
        if not re.fullmatch(PROBES, args.probe):
            p.error(f"unknown probe {args.probe!r}")
        make = lambda game, seed: probe_agent(game, seed, args.probe)  # noqa: E731
    record_games(
        args.record,
        variant,
        range(args.games),
        lambda g: play(args.level, args.seed, g, 2, make=make),
    )
    return 0


if __name__ == "__main__":
    sys.exit(main())
