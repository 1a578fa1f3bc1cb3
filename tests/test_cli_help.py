"""``forest --help`` and every command's ``--help`` on every game say what the commands do.

Found by reading them all (session 35): ``guardians solve --help`` and ``trial solve --help``
said naming an agent "plays its games instead of the exact search" (neither game has one); the
exact agent was listed as "(no search)"; ``trial list`` promised puzzles the Trial does not ship;
metavars were argparse's upper-cased dests (``MAX_ITERATIONS``, ``TIME_LIMIT``) beside the
``N``/``S`` of the other commands, and ``dog route``/``random-game`` named their file ``forest``.
"""

from __future__ import annotations

import argparse
import re

import pytest

import solver
from solver.cli import build_parser


def _helps() -> dict[str, str]:
    """Every (sub-)command's help text, by its words (``"dog solve"``)."""
    found: dict[str, str] = {}

    def walk(parser: argparse.ArgumentParser, words: str) -> None:
        found[words] = parser.format_help()
        for action in parser._actions:
            if isinstance(action, argparse._SubParsersAction):
                for name, sub in action.choices.items():
                    if name != "analyze":  # the alias of analyse
                        walk(sub, f"{words} {name}".strip())

    walk(build_parser(), "")
    return found


HELPS = _helps()


def test_every_command_has_its_help():
    for game in solver.registered_games():
        for command in ("show", "render", "list", "best-move", "solve", "play", "review"):
            assert f"{game} {command}" in HELPS
    assert {"analyse", "hint", "serve", "games"} <= set(HELPS)


@pytest.mark.parametrize("words", sorted(HELPS))
def test_metavars_are_words_not_dests(words):
    usage = HELPS[words].split("\n\n")[0]
    dests = re.findall(r"\b[A-Z]+_[A-Z_]+\b", usage)
    assert not dests, (words, dests)
    assert "] forest" not in usage and not usage.rstrip().endswith(" forest"), usage


def test_solve_mentions_an_exact_search_only_where_there_is_one():
    for game in solver.registered_games():
        exact = solver.registry.game_spec(game).exact
        assert ("instead of the exact search" in HELPS[f"{game} solve"]) == exact, game


def test_agents_without_a_budget_are_not_said_to_search_nothing():
    assert "exact (no budget)" in " ".join(HELPS["dog solve"].split())
    assert "no search" not in HELPS["dog play"]


def test_list_says_when_a_game_ships_no_puzzles():
    assert "(none for the Trial of the Forest)" in " ".join(HELPS["trial"].split())
    assert "none for" not in HELPS["dog"]


def test_analyse_help_says_what_jobs_means_with_dask():
    text = " ".join(HELPS["analyse"].split())
    assert "with --dask-local or --scheduler, the instances each Dask task analyses at once" in text
    assert "256 on Dask" in text
