"""``forest GAME solve`` names the budget its games were played at, not the one asked for.

Defect: the answer named ``--iterations`` (or the agent's declared default) as the budget a
decision, whatever the agent played: the Trial's ``--strength 4`` (ismcts at 4 simulations, its
ladder's rung) said ``no budget``, ``--strength 4 --iterations 3`` said ``3 simulations a
decision`` (a level ignores ``--iterations``), and ``--agent heuristic --iterations 5`` said
``5 simulations a decision`` of an agent that searches nothing. The truth here is the budget the
searching agent is built with (``make_agent`` watched), and the declaration of an agent that
takes none.
"""

from __future__ import annotations

import json

import pytest

ARGS = ["trial", "solve", "--players", "2", "--games", "1", "--seconds", "1e-9", "--no-progress"]


def _solved(monkeypatch, capsys, extra: list[str]) -> tuple[dict, list[tuple[str, object]]]:
    """The JSON answer of a one-game solve with ``extra``, and each agent built (name,
    iterations)."""
    import solver.agents
    from solver.cli import main

    real = solver.agents.make_agent
    built: list[tuple[str, object]] = []

    def watched(name, *args, **kwargs):
        built.append((name, kwargs.get("iterations")))
        return real(name, *args, **kwargs)

    monkeypatch.setattr(solver.agents, "make_agent", watched)
    assert main([*ARGS, "--json", *extra]) == 0
    return json.loads(capsys.readouterr().out), built


@pytest.mark.parametrize("extra", [[], ["--iterations", "3"]])
def test_a_level_s_solve_names_its_rung_s_budget(monkeypatch, capsys, extra) -> None:
    report, built = _solved(monkeypatch, capsys, ["--strength", "4", *extra])
    searched = {iterations for name, iterations in built if name == "ismcts"}
    assert searched == {4}  # the Trial's level4: ismcts at 4 simulations a decision
    assert report["agent"] == "level4" and report["iterations"] == 4
    ignored = [n for n in report["notes"] if n.startswith("--iterations")]
    assert ignored == (["--iterations 3 was not played: a level of the strength ladder plays "
                        "at its own budget"] if extra else [])  # fmt: skip
    from solver.cli import main

    assert main([*ARGS, "--strength", "4", *extra]) == 0
    assert "(4 simulations a decision; an estimate of what level4" in capsys.readouterr().out


def test_an_agent_that_searches_nothing_has_no_budget(monkeypatch, capsys) -> None:
    from solver.registry import game_spec

    assert game_spec("trial").agent("heuristic").iterations is None  # it takes none
    report, _ = _solved(monkeypatch, capsys, ["--agent", "heuristic", "--iterations", "5"])
    assert report["iterations"] is None
    assert "--iterations 5 was not played: heuristic takes no budget" in report["notes"]
    from solver.cli import main

    assert main([*ARGS, "--agent", "heuristic", "--iterations", "5"]) == 0
    assert "(no budget; an estimate of what heuristic" in capsys.readouterr().out


def test_the_exact_agent_is_not_said_to_search_nothing(capsys) -> None:
    """The exact agent takes no budget, but it searches (to the end): the note said of an
    agent given --iterations it does not take '... searches nothing'."""
    from solver.cli import main

    argv = ["dog", "solve", "dog/another-dog", "--agent", "exact", "--iterations", "3",
            "--games", "1", "--json", "--no-progress"]  # fmt: skip
    assert main(argv) == 0
    report = json.loads(capsys.readouterr().out)
    assert report["iterations"] is None
    assert "--iterations 3 was not played: exact takes no budget" in report["notes"]
