"""A SIGTERM while a file is being written whole (``solver.files.write_whole``) or a report staged
leaves nothing behind: the temporary file (or folder) is removed, then the process ends by the
signal as before. Found by attack: ``forest dog review ... --plot q.png`` stopped by SIGTERM as
it saved the plot left ``.q.png.rb00cuhb.png`` beside the output (Ctrl-C already cleaned up)."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

pytestmark = pytest.mark.skipif(os.name != "posix", reason="POSIX signals")

WRITE = """
import os, signal, sys, time
from solver.files import write_whole

def content(temporary):
    with open(temporary, "w") as half:
        half.write("half a plot")
    os.kill(os.getpid(), signal.SIGTERM)
    time.sleep(30)  # the signal ends the write before this does

write_whole(sys.argv[1], content)
"""

REPORT = """
import os, signal, sys, time
import pandas as pd
from solver.analysis import report_files

def stalled(frame, staging, **keywords):
    (staging / "report.md").write_text("half a report")
    os.kill(os.getpid(), signal.SIGTERM)
    time.sleep(30)

import solver.analysis.report
solver.analysis.report.write_report = stalled
report_files.write_report_whole(pd.DataFrame(), sys.argv[1], game="dog", command=None)
"""


def _run(script: str, target: Path) -> int:
    env = {**os.environ, "PYTHONPATH": os.pathsep.join(sys.path)}
    done = subprocess.run([sys.executable, "-c", textwrap.dedent(script), str(target)],
                          env=env, timeout=60, capture_output=True)  # fmt: skip
    return done.returncode


def test_a_sigterm_during_a_whole_write_leaves_no_temporary_file(tmp_path):
    assert _run(WRITE, tmp_path / "q.png") == -signal.SIGTERM  # still ended by the signal
    assert sorted(os.listdir(tmp_path)) == []


def test_a_sigterm_while_a_report_is_staged_leaves_no_staging_folder(tmp_path):
    pytest.importorskip("pandas")
    assert _run(REPORT, tmp_path / "report") == -signal.SIGTERM
    assert sorted(os.listdir(tmp_path)) == []


PLACE = """
import os, signal, sys
from pathlib import Path
from solver import folder_swap

target = Path(sys.argv[1])
target.mkdir()
os.chdir(target)  # the shell's folder: the run's files are placed in it one by one
real_link = os.link

def link(*args, **kwargs):
    real_link(*args, **kwargs)
    os.kill(os.getpid(), signal.SIGTERM)  # as the first file is placed

os.link = link

def fill(staging):
    for name in ("a.txt", "b.txt", "c.txt"):
        (staging / name).write_text(name)

folder_swap.write_folder_whole(target, fill, overwrite=False)
"""


def test_a_sigterm_while_the_files_are_placed_lets_them_all_be_placed(tmp_path):
    """Found by attack: a SIGTERM while a run's files were placed one by one (``--report .``, a
    mount point, a shared folder) stopped it after the first: the folder held some of the new
    files beside the old. The placing is done whole now, then the process ends by the signal."""
    assert _run(PLACE, tmp_path / "out") == -signal.SIGTERM
    assert sorted(os.listdir(tmp_path / "out")) == ["a.txt", "b.txt", "c.txt"]
    assert sorted(os.listdir(tmp_path)) == ["out"]  # no staging folder left
