"""Paths behind a folder the user may not enter or read, as a user meets them.

Found checking every game's position readers: ``forest trial show LOCKED/state.json``,
``trial show LOCKED`` (a pack folder that cannot be read) and ``play --record LOCKED/r.json``
ended in a Python traceback ("this is a bug in forest-solver", exit 1), where the other readers
said "cannot read: Permission denied". Each is one line naming the path, exit 2, and a record
is refused before the game is played.

Permissions bind a user other than root: run as root, the commands run as ``nobody`` through
``setpriv`` (skipped where it is missing).
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
import tempfile
from collections.abc import Iterator
from pathlib import Path

import pytest

from solver.testing import one_line_error

ROOT = Path(__file__).resolve().parents[1]


@pytest.fixture(scope="module")
def locked() -> Iterator[Path]:
    """A folder nobody but root may enter, inside one everybody may."""
    base = Path(tempfile.mkdtemp(prefix="forest-locked-"))
    base.chmod(0o755)
    inner = base / "locked"
    inner.mkdir()
    (inner / "pack").mkdir()
    (inner / "s.json").write_text("{}")
    inner.chmod(0o000)
    yield inner
    inner.chmod(0o700)
    shutil.rmtree(base)


def as_user(*argv: str) -> subprocess.CompletedProcess[str]:
    prefix: list[str] = []
    if os.geteuid() == 0:
        setpriv = shutil.which("setpriv")
        if setpriv is None:
            pytest.skip("run as root without setpriv: permissions cannot bind")
        prefix = [setpriv, "--reuid=65534", "--regid=65534", "--clear-groups"]
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    if prefix:  # nobody must be able to run this checkout (a clone in a private folder: not)
        probe = subprocess.run([*prefix, sys.executable, "-c", "import solver.cli"],
                               capture_output=True, cwd="/", env=env, timeout=300)  # fmt: skip
        if probe.returncode != 0:
            pytest.skip("the user nobody cannot run this checkout")
    return subprocess.run(
        [*prefix, sys.executable, "-m", "solver.cli", *argv],
        capture_output=True, text=True, timeout=300, cwd="/", env=env, stdin=subprocess.DEVNULL,
    )  # fmt: skip


@pytest.mark.parametrize(
    ("argv", "path", "words"),
    [
        (["trial", "show", "{L}/s.json"], "{L}/s.json", "cannot read: Permission denied"),
        (["trial", "best-move", "{L}/s.json"], "{L}/s.json", "cannot read: Permission denied"),
        (["trial", "show", "{L}/pack"], "{L}/pack", "cannot read: Permission denied"),
        (["trial", "show", "{L}"], "{L}", "cannot read: Permission denied"),
        (["guardians", "show", "--state", "{L}/s.json"], "{L}/s.json", "cannot read"),
        (["dog", "show", "{L}/x.forest"], "{L}/x.forest", "cannot read"),
        (["dog", "play", "dog/tiny-2x2", "--agent", "random", "--record", "{L}/r.json"],
         "{L}/r.json", "cannot write: Permission denied"),
        (["guardians", "render", "-o", "{L}/g.svg"], "{L}/g.svg", "cannot write"),
    ],
    ids=lambda v: " ".join(v[:2]) if isinstance(v, list) else None,
)  # fmt: skip
def test_a_locked_path_is_one_line_naming_it(locked, argv, path, words):
    run = as_user(*(a.replace("{L}", str(locked)) for a in argv))
    one_line_error(run, f"{path.replace('{L}', str(locked))}: ")
    assert words in run.stderr, run.stderr
