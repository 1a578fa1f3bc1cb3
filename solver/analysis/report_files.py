"""``forest analyse --report DIR``: the report put in place whole, never replacing a file unasked.

:func:`solver.analysis.report.write_report` writes ``report.md`` and its plots into a folder. The
command writes them into a new temporary folder beside ``DIR`` first; then
:func:`solver.folder_swap.swap_in` makes that folder be ``DIR`` in one atomic step, keeping
``DIR``'s other files, after checking that none of the report's would replace a file (unless
``--overwrite``). So an interrupted or failed report leaves ``DIR`` as it was, a user's
``report.md`` is never lost, and two runs at once leave one run's report whole, never
``report.md`` of one with the plots of the other.
"""

from __future__ import annotations

import os
from pathlib import Path
from typing import TYPE_CHECKING

from solver.errors import OptionError, path_said
from solver.folder_swap import write_folder_whole

if TYPE_CHECKING:  # pragma: no cover
    import pandas as pd

__all__ = ["REPORT_NAME", "check_report_folder", "write_report_whole"]

REPORT_NAME = "report.md"


def check_report_folder(directory: str | os.PathLike[str]) -> None:
    """Refuse at once a ``--report`` folder that already holds a report (without
    ``--overwrite``), before a batch of minutes is run for it."""
    existing = Path(directory) / REPORT_NAME
    if existing.exists():
        raise OptionError(
            f"{path_said(existing)}: already exists (add --overwrite to replace the report, or "
            "choose another --report folder)"
        )


def write_report_whole(
    frame: pd.DataFrame,
    directory: str | os.PathLike[str],
    *,
    game: str,
    command: str | None,
    overwrite: bool = False,
) -> Path:
    """The report of ``frame`` written into ``directory`` whole (module docstring); returns the
    path of its ``report.md``. A SIGTERM meanwhile leaves no staging folder behind."""
    from solver.analysis.report import write_report

    said = Path(directory)
    if os.path.lexists(said) and not said.is_dir():  # a file, or a link to nothing
        raise OptionError(f"--report {path_said(said)!r} is not a directory")
    target = Path(os.path.realpath(said))  # a link to a folder: that folder is swapped
    taken = write_folder_whole(
        target,
        lambda staging: write_report(frame, staging, game=game, command=command),
        overwrite=overwrite,
    )
    if taken:
        more = f" and {len(taken) - 1} more" if len(taken) > 1 else ""
        raise OptionError(
            f"{path_said(said / taken[0].relative_to(target))}{more}: already exists; the "
            "report was not written (add --overwrite to replace it)"
        )
    return said / REPORT_NAME
