"""``forest hint --stdio`` against what a careless or hostile client sends, as a real subprocess.

H3: a path naming a FIFO or ``/dev/stdin`` blocked its request for ever and ``terminate`` said
``found: true`` without freeing it; now only regular files are opened (without blocking) and a
terminated search really ends. H5: a 300 MB line was read whole (636 MB peak) and the 4 MiB
limit counted characters; now lines are read bounded, in bytes. L1: a parse error quoted the
start of any file named (``/etc/passwd``, ``/proc/self/environ``); now it names the path and
the problem only.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import time
from pathlib import Path

import pytest

import solver
from solver.hint.stdio import MAX_LINE_BYTES

from .conftest import TIMEOUT, Engine

SOURCES = {"dog": "forest", "guardians": "position"}


def _error(engine: Engine, request: dict) -> dict:
    engine.send(request)
    reply = engine.read()
    assert "error" in reply, reply
    return reply


@pytest.fixture
def engine():
    running = Engine("--max-seconds", "8")
    yield running
    if running.proc.poll() is None:
        running.proc.kill()
        running.proc.wait(timeout=TIMEOUT)


def test_h3_only_regular_files_are_opened(engine: Engine, tmp_path: Path) -> None:
    fifo = tmp_path / "requests.fifo"
    os.mkfifo(fifo)
    cases = {str(fifo): "a pipe (FIFO)", "/dev/stdin": "", "/dev/zero": "a character device",
             str(tmp_path): "a folder"}  # fmt: skip
    for game, option in SOURCES.items():
        for path, kind in cases.items():
            reply = _error(
                engine, {"id": f"{game}:{path}", "game": game, "options": {option: path}}
            )
            assert reply["code"] == "bad_game" and reply["field"] == f"options.{option}"
            assert path in reply["error"] and kind in reply["error"]
    # nothing is left blocked: a real request is answered, and the input's end ends the engine
    engine.send({"id": "ok", "game": "dog", "options": {"forest": "dog/another-dog"}})
    assert engine.read()["id"] == "ok"
    assert engine.close()[0] == 0


def _kmsg_opens() -> bool:
    try:
        os.close(os.open("/proc/kmsg", os.O_RDONLY | os.O_NONBLOCK))
    except OSError:
        return False
    return True


@pytest.mark.skipif(not _kmsg_opens(), reason="/proc/kmsg cannot be opened here (not root)")
def test_h3_a_regular_pseudo_file_that_waits_for_data_is_refused(engine: Engine) -> None:
    """``/proc/kmsg`` is a regular file to ``stat`` but a read waits for the next kernel
    message: it blocked the request for ever (the check passed, then the read blocked). Now the
    read itself never blocks. (With messages pending the read returns them and the parse fails:
    an answer too, naming the path, not the content.) Since then a path under ``/proc`` or
    ``/sys`` is refused before it is opened, as the command line refuses it; the read that
    never blocks stays for any other such file."""
    for game, option in SOURCES.items():
        reply = _error(engine, {"id": game, "game": game, "options": {option: "/proc/kmsg"}})
        assert reply["code"] == "bad_game" and "/proc/kmsg" in reply["error"], reply
        assert "kernel pseudo-file" in reply["error"], reply
    engine.send({"id": "ok", "game": "dog", "options": {"forest": "dog/another-dog"}})
    assert engine.read()["id"] == "ok"
    assert engine.close()[0] == 0


def test_l1_an_error_about_a_file_names_the_path_never_its_content(engine: Engine) -> None:
    passwd = Path("/etc/passwd").read_text().splitlines()[0]
    environ = Path("/proc/self/environ").read_bytes().split(b"\0")[0].decode(errors="replace")
    for game, option in SOURCES.items():
        for path in ("/etc/passwd", "/proc/self/environ", "/etc/hostname"):
            reply = _error(engine, {"id": "l1", "game": game, "options": {option: path}})
            assert reply["code"] == "bad_game" and path in reply["error"], reply
            assert f"not a {game}" in reply["error"]
            for secret in (passwd[:8], environ[:8], "root:", "SHELL=", "PATH="):
                assert secret not in reply["error"], reply["error"]
    assert engine.close()[0] == 0


def test_h3_terminate_really_ends_an_exact_search(engine: Engine) -> None:
    from solver.registry import game_spec

    hooks = game_spec("dog").analysis
    assert hooks is not None and hooks.roll is not None
    text = hooks.dump(hooks.roll(1, (16, 16), None))
    engine.send({"id": "long", "game": "dog", "options": {"forest": text}, "actions": [10],
                 "exact": True, "limit": {"seconds": 8}})  # fmt: skip
    time.sleep(1.0)  # the exact search is running (it needs far more than 8 s)
    engine.send({"id": "t", "action": "terminate", "terminateId": "long"})
    messages = engine.read_until("long")
    final = messages[-1]
    assert final["terminated"] is True and final["moveInfos"]
    ack = {"id": "t", "action": "terminate", "terminateId": "long", "found": True, "notes": []}
    assert ack in messages  # its notes: the fields it ignored (f05edbd), none here
    # the search was stopped where it stood: a note says so, not a deadline
    assert any("stopped" in note for note in final["notes"]), final["notes"]
    assert engine.close()[0] == 0


def _engine_bytes() -> subprocess.Popen:
    return subprocess.Popen(
        [sys.executable, "-m", "solver.cli", "hint", "--stdio", "--workers", "1"],
        stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
    )  # fmt: skip


def _peak_kb(pid: int) -> int:
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmHWM:"):
            return int(line.split()[1])
    raise AssertionError("no VmHWM")


def test_h5_an_over_long_line_is_refused_unread_and_memory_stays_bounded() -> None:
    proc = _engine_bytes()
    assert proc.stdin is not None and proc.stdout is not None
    warm = json.dumps({"id": "w", "game": "dog", "options": {"forest": "dog/another-dog"}})
    proc.stdin.write(warm.encode() + b"\n")
    proc.stdin.flush()
    assert json.loads(proc.stdout.readline())["id"] == "w"
    before = _peak_kb(proc.pid)
    chunk = b"x" * (1 << 20)
    proc.stdin.write(b'{"id": "big", "padding": "')
    for _ in range(64):  # a 64 MiB line
        proc.stdin.write(chunk)
    proc.stdin.write(b'"}\n')
    proc.stdin.flush()
    reply = json.loads(proc.stdout.readline())
    assert reply["code"] == "too_large" and str(MAX_LINE_BYTES) in reply["error"]
    grown_mb = (_peak_kb(proc.pid) - before) / 1024
    assert grown_mb < 32, f"the peak grew by {grown_mb:.0f} MB for a 64 MiB line"
    # the limit counts bytes: 3 Mi two-byte characters are 6 MiB, over the 4 MiB limit
    wide = json.dumps({"id": "wide", "padding": "é" * (3 << 20)}, ensure_ascii=False)
    assert len(wide) < MAX_LINE_BYTES < len(wide.encode())
    proc.stdin.write(wide.encode() + b"\n")
    proc.stdin.flush()
    assert json.loads(proc.stdout.readline())["code"] == "too_large"
    # and the engine serves on
    proc.stdin.write(warm.encode() + b"\n")
    proc.stdin.close()
    assert json.loads(proc.stdout.readline())["id"] == "w"
    assert proc.wait(timeout=TIMEOUT) == 0


def test_h5_a_line_of_exactly_the_limit_is_read() -> None:
    base = {"id": "edge", "game": "dog", "options": {"forest": "dog/another-dog"}, "pad": ""}
    room = MAX_LINE_BYTES - len(json.dumps(base).encode())
    line = json.dumps({**base, "pad": "y" * room}).encode()
    assert len(line) == MAX_LINE_BYTES
    proc = _engine_bytes()
    out, _ = proc.communicate(line + b"\n" + line + b"y\n", timeout=TIMEOUT)
    replies = {r.get("id"): r for r in map(json.loads, out.splitlines())}  # answered as done
    assert set(replies) == {"edge", None}
    assert "rootInfo" in replies["edge"] and replies[None]["code"] == "too_large"


def test_a_registered_source_option_exists_for_each_case() -> None:
    for game, option in SOURCES.items():
        assert solver.registry.game_spec(game).source_option == option
