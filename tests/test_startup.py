"""Start-up imports only what the command needs.

``forest --version`` and ``forest dog show`` run in a fresh interpreter, as the console script
runs them (``from solver.cli import main; sys.exit(main())``); at exit the interpreter lists
``sys.modules``, which must hold none of the heavy optional libraries. ``bench/startup.py``
times the same commands against ``python -c "import solver"``.
"""

from __future__ import annotations

import json
import subprocess
import sys
import textwrap

import pytest

HEAVY = ("pydantic", "fastapi", "uvicorn", "ortools", "pandas", "matplotlib", "dask", "joblib")

_RUNNER = textwrap.dedent(
    """
    import atexit, json, sys

    def dump():
        with open(sys.argv[1], "w") as out:
            json.dump(sorted(sys.modules), out)

    atexit.register(dump)
    from solver.cli import main
    sys.exit(main(sys.argv[2:]))
    """
)


def _modules_after(tmp_path, *argv: str) -> set[str]:
    dump = tmp_path / "modules.json"
    run = subprocess.run(
        [sys.executable, "-c", _RUNNER, str(dump), *argv],
        capture_output=True, text=True, cwd=tmp_path, timeout=300,
    )  # fmt: skip
    assert run.returncode == 0, run.stderr
    return set(json.loads(dump.read_text()))


@pytest.mark.parametrize(
    "argv",
    [["--version"], ["dog", "show", "dog/tiny-example"], ["games"], ["dog", "--help"]],
    ids=lambda argv: " ".join(argv),
)
def test_a_light_command_imports_nothing_heavy(argv, tmp_path):
    loaded = _modules_after(tmp_path, *argv)
    assert sorted(m for m in loaded if m.partition(".")[0] in HEAVY) == []
    assert not any(
        m.startswith(("solver.search", "solver.hint", "solver.analysis")) for m in loaded
    )


def test_version_builds_no_game_command(tmp_path):
    loaded = _modules_after(tmp_path, "--version")
    assert not any(
        m.startswith(("solver.games", "solver.cli_game", "solver.cmdkit")) for m in loaded
    )


def test_only_the_named_game_is_built(tmp_path):
    loaded = _modules_after(tmp_path, "dog", "show", "dog/tiny-example")
    assert "solver.games.dog.cli" in loaded  # the dog's own commands, for its parser
    others = [m for m in loaded if m.startswith(("solver.games.guardians.", "solver.games.trial."))]
    assert [m for m in others if m.rpartition(".")[2] in ("cli", "hooks", "rules", "kernel")] == []
