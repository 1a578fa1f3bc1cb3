"""``--save-to DIR`` (:func:`~solver.analysis.curate.save_selected`) places one run's files whole.

Before, each instance file was written straight into DIR as it was made, so a second run saving
into DIR while the first was still making its instances left DIR with files of both (the first
file of one run, the second of the other), and a file that appeared meanwhile stopped a run
half-saved. The second run here is made to happen inside the first, between two of its
instances: no threads, no timing.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

pd = pytest.importorskip("pandas")

from solver.analysis.curate import save_selected  # noqa: E402
from solver.errors import OptionError  # noqa: E402
from solver.games.dog.format import format_forest  # noqa: E402
from solver.games.dog.generator import roll_forest  # noqa: E402

TABLE = {"source": ["seed:1", "seed:3"], "width": [5, 5], "height": [4, 4]}
NAMES = ["rolled-5x4-seed1.forest", "rolled-5x4-seed3.forest"]


def _loader(shift: int, meanwhile: Callable[[], None] | None = None):
    """A run's instances: the row's forest rolled with its seed + ``shift`` (so each run's files
    differ); ``meanwhile`` runs once, before the second instance is made."""
    made: list[int] = []

    def load(row: dict[str, Any]) -> object:
        if made and meanwhile is not None and len(made) == 1:
            meanwhile()
        seed = int(str(row["source"]).removeprefix("seed:"))
        made.append(seed)
        return roll_forest(5, 4, seed=seed + shift)

    return load


def _contents(folder: Path) -> dict[str, str]:
    return {p.name: p.read_text(encoding="utf-8") for p in sorted(folder.iterdir())}


def _expected(shift: int) -> dict[str, str]:
    seeds = (1 + shift, 3 + shift)
    return {
        name: format_forest(roll_forest(5, 4, seed=s)) for name, s in zip(NAMES, seeds, strict=True)
    }


def test_two_overwriting_saves_at_once_leave_one_run_s_files(tmp_path):
    out = tmp_path / "out"
    out.mkdir()
    (out / "mine.txt").write_text("mine\n", encoding="utf-8")
    frame = pd.DataFrame(TABLE)

    def second_run() -> None:
        save_selected(frame, out, overwrite=True, instance_loader=_loader(100))

    save_selected(frame, out, overwrite=True, instance_loader=_loader(0, second_run))
    # the first run placed last: its two files, not its second beside the other run's first
    assert _contents(out) == {**_expected(0), "mine.txt": "mine\n"}
    assert sorted(p.name for p in tmp_path.iterdir()) == ["out"]  # no staging folder left


def test_a_file_appearing_meanwhile_stops_the_save_whole_not_half_done(tmp_path):
    out = tmp_path / "out"
    out.mkdir()
    theirs = out / NAMES[1]

    def another_run() -> None:
        theirs.write_text("another run's\n", encoding="utf-8")

    with pytest.raises(OptionError, match=r"seed3\.forest' exists already; nothing was saved"):
        save_selected(pd.DataFrame(TABLE), out, instance_loader=_loader(0, another_run))
    assert _contents(out) == {NAMES[1]: "another run's\n"}  # not the first file beside it
    assert sorted(p.name for p in tmp_path.iterdir()) == ["out"]
