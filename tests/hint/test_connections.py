"""H4: idle, stalled and partial connections are closed by ``forest serve`` (1,000 slowloris
connections all stayed open for 75 s before), against a real server with short deadlines.

Sockets of every kind a slowloris client opens: silent ones; ones trickling a request head a
byte at a time; ones with a whole head and a stalled body; kept-alive ones gone idle after an
answer. Each must be closed by the server (the read sees the end of the stream), and the server
keeps answering while they are open and after.
"""

from __future__ import annotations

import contextlib
import json
import os
import signal
import socket
import subprocess
import sys
import time

import httpx
import pytest

from .conftest import Server

HEAD = 1.0
BODY = 1.0
IDLE = 1.0
WAIT = 20.0
"""How long a socket is watched for the server to close it (the deadlines are 1 s)."""


@pytest.fixture(scope="module")
def strict(tmp_path_factory: pytest.TempPathFactory):
    running = Server(
        tmp_path_factory.mktemp("strict"), "--workers", "1", "--quiet",
        "--head-timeout", str(HEAD), "--body-timeout", str(BODY), "--keep-alive", str(IDLE),
        "--max-keepalive-requests", "3",
    )  # fmt: skip
    yield running
    running.stop()


def _connect(server: Server) -> socket.socket:
    host, port = server.url.removeprefix("http://").split(":")
    sock = socket.create_connection((host, int(port)), timeout=WAIT)
    return sock


def _closed_by_server(sock: socket.socket) -> bool:
    """Read until the server closes the stream (True), or WAIT passes (False)."""
    sock.settimeout(WAIT)
    try:
        while True:
            data = sock.recv(65536)
            if not data:
                return True
    except (ConnectionResetError, BrokenPipeError):
        return True
    except TimeoutError:
        return False


def _still_answers(server: Server) -> None:
    assert httpx.get(f"{server.url}/health", timeout=30).status_code == 200


def test_silent_connections_are_closed(strict: Server) -> None:
    sockets = [_connect(strict) for _ in range(100)]
    _still_answers(strict)
    assert all(_closed_by_server(s) for s in sockets)
    _still_answers(strict)


def test_a_head_trickled_a_byte_at_a_time_is_closed(strict: Server) -> None:
    socks = [_connect(strict) for _ in range(50)]
    head = b"POST /v1/hint HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\n"
    closed = [False] * len(socks)
    started = time.monotonic()
    for byte_index in range(len(head)):  # one byte per socket every 0.1 s: never a whole head
        for i, sock in enumerate(socks):
            if closed[i]:
                continue
            try:
                sock.sendall(head[byte_index : byte_index + 1])
            except OSError:
                closed[i] = True
        if all(closed) or time.monotonic() - started > WAIT:
            break
        time.sleep(0.1)
    assert all(closed[i] or _closed_by_server(s) for i, s in enumerate(socks))
    _still_answers(strict)


def test_a_stalled_body_is_closed(strict: Server) -> None:
    socks = []
    for _ in range(50):
        sock = _connect(strict)
        sock.sendall(b"POST /v1/hint HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\n"
                     b"Content-Length: 1000\r\n\r\n{\"id\": ")  # fmt: skip
        socks.append(sock)
    _still_answers(strict)
    assert all(_closed_by_server(s) for s in socks)


def test_a_kept_alive_connection_goes_idle_and_is_closed(strict: Server) -> None:
    sock = _connect(strict)
    sock.sendall(b"GET /health HTTP/1.1\r\nHost: x\r\n\r\n")
    sock.settimeout(WAIT)
    first = sock.recv(65536)
    assert first.startswith(b"HTTP/1.1 200")
    assert _closed_by_server(sock)


def _health_answers(sock: socket.socket, count: int) -> list[bytes]:
    """Up to ``count`` answers to ``GET /health`` asked one after the other on ``sock``, until
    the server closes it."""
    answers = []
    with contextlib.suppress(OSError):
        for _ in range(count):
            sock.sendall(b"GET /health HTTP/1.1\r\nHost: x\r\n\r\n")
            data = b""
            while b"\r\n\r\n" not in data or not data.rstrip().endswith(b"}"):
                chunk = sock.recv(65536)
                if not chunk:
                    break
                data += chunk
            if not data:
                break
            answers.append(data)
    return answers


def test_keep_alive_is_bounded_in_requests(strict: Server) -> None:
    sock = _connect(strict)
    sock.settimeout(WAIT)
    answers = 0
    for data in _health_answers(sock, 10):
        answers += 1
        json.loads(data.split(b"\r\n\r\n", 1)[1])
    assert answers == 3  # --max-keepalive-requests 3: the third answer closes the connection


def test_the_default_deadlines_are_documented() -> None:
    from pathlib import Path

    from solver.hint.limits import CONNECTION_DEFAULTS

    docs = (Path(__file__).parents[2] / "docs" / "hint-engine.md").read_text()
    assert f"{CONNECTION_DEFAULTS['head_seconds']:g} s" in docs
    assert "--head-timeout" in docs and "--body-timeout" in docs and "--keep-alive" in docs


NOT_HTTP = {
    b"POST /v1/hint HTTP/1.1\r\nHost: x\r\nContent-Length: abc\r\n\r\n{}": "bad Content-Length",
    b"POST /v1/hint HTTP/1.1\r\nHost: x\r\nContent-Length: -5\r\n\r\n{}": "bad Content-Length",
    b"POST /v1/hint HTTP/1.1\r\nHost: x\r\nContent-Length: 2\r\nContent-Length: 3\r\n\r\n{}": (
        "conflicting Content-Length"
    ),
    b"POST /v1/hint HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\n\r\nzz\r\n": "chunk",
    b"\x00\x01\x02\xff\r\n\r\n": "request line",
}


def _answer(server: Server, data: bytes) -> tuple[int, dict]:
    """Send ``data`` on a new connection; the status and JSON body of the answer, which must
    close the connection."""
    for _ in range(5):  # a reset before the answer was read (bytes the server left unread)
        sock = _connect(server)
        sock.sendall(data)
        received = b""
        with contextlib.suppress(ConnectionResetError):
            while chunk := sock.recv(65536):
                received += chunk
        sock.close()
        if received:
            break
    head, _, body = received.partition(b"\r\n\r\n")
    status = int(head.split(b" ", 2)[1])
    assert b"application/json" in head.lower(), received
    return status, json.loads(body)


def test_bytes_that_are_not_http_get_the_error_object_with_a_code(strict: Server) -> None:
    """Found by attack: uvicorn answered them 'Invalid HTTP request received.' as text/plain,
    with no code, and logged a plain WARNING line among the JSON access log's."""
    for data, problem in NOT_HTTP.items():
        status, reply = _answer(strict, data)
        assert status == 400, (data, reply)
        assert reply["code"] == "malformed" and problem in reply["error"], reply
        assert set(reply) == {"id", "error", "field", "code", "version"}
    unfinished = b"GET /health HTTP/1.1\r\nHost: x\r\nX: " + b"a" * 17_000  # no end of head
    status, reply = _answer(strict, unfinished)
    assert (status, reply["code"]) == (431, "too_large"), reply
    _still_answers(strict)


def _head_of(server: Server, data: bytes) -> bytes:
    """The head of the answer to ``data`` sent on a new connection (read to its end)."""
    sock = _connect(server)
    sock.sendall(data)
    received = b""
    with contextlib.suppress(ConnectionResetError):
        while b"\r\n\r\n" not in received and (chunk := sock.recv(65536)):
            received += chunk
    sock.close()
    return received.partition(b"\r\n\r\n")[0].lower()


def test_a_body_declared_too_large_is_413_at_once(strict: Server) -> None:
    """Found by attack: a chunk size past the 1 MiB limit (0x200000), sent without its data, got
    no answer, only the close of the body deadline; a Content-Length of 21+ digits was a 400
    'bad Content-Length' where a 20-digit one was a 413. Both are the limit's 413 now (a
    Content-Length that is no number stays a 400: NOT_HTTP)."""
    post = b"POST /v1/hint HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\n"
    declared = {
        "chunk": post + b"Transfer-Encoding: chunked\r\n\r\n200000\r\n",
        "chunk after bytes": post + b"Transfer-Encoding: chunked\r\n\r\n2\r\n{}\r\n100000\r\n",
        "length": post + b"Content-Length: " + b"9" * 25 + b"\r\n\r\n",
        "twenty digits": post + b"Content-Length: " + b"9" * 20 + b"\r\n\r\n",
    }
    for what, data in declared.items():
        status, reply = _answer(strict, data)
        assert (status, reply["code"]) == (413, "too_large"), (what, reply)
        assert reply["error"] == f"the body is larger than {1 << 20} bytes", reply
        assert set(reply) == {"id", "error", "field", "code", "version"}
        assert b"x-max-body-bytes: 1048576" in _head_of(strict, data), what
        assert b"x-max-body-said: 1 mib" in _head_of(strict, data), what
    _still_answers(strict)


def test_bytes_that_are_not_http_are_logged_as_json(tmp_path) -> None:
    logged = Server(tmp_path, "--workers", "1")
    try:
        assert _answer(logged, b"\x00\r\n\r\n")[0] == 400
        _still_answers(logged)
        time.sleep(0.5)
        logs = logged.logs()
    finally:
        logged.stop()
    lines = [line for line in logs.splitlines() if not line.startswith("forest serve:")]
    assert "Invalid HTTP request received." not in logs
    assert all(line.startswith("{") for line in lines), lines
    assert any(json.loads(line)["status"] == 400 for line in lines), lines


def test_the_last_answer_of_a_connection_says_it_closes(strict: Server) -> None:
    """The answer that ends a kept-alive connection carries ``Connection: close``, so a client
    opens a new one for its next request: closed unannounced, a keep-alive client (httpx)
    sent its next request into the closed socket and failed with a connection reset (every
    1,000 requests at the default ``--max-keepalive-requests``)."""
    sock = _connect(strict)
    sock.settimeout(WAIT)
    heads = [data.split(b"\r\n\r\n", 1)[0].lower() for data in _health_answers(sock, 3)]
    assert len(heads) == 3
    assert [b"\r\nconnection: close" in head for head in heads] == [False, False, True]
    with httpx.Client(timeout=WAIT) as client:  # one connection, reused until it is closed
        statuses = [client.get(f"{strict.url}/health").status_code for _ in range(10)]
    assert statuses == [200] * 10


@pytest.mark.skipif(not os.path.exists("/dev/full"), reason="no /dev/full here")
def test_a_log_that_cannot_be_written_does_not_stop_the_service(tmp_path):
    """stderr on a full disk (``forest serve 2>/dev/full``): the log lines are dropped and the
    service serves. Found by helper 91: the banner's failed write ended the server before it
    listened (exit 1, a traceback nobody could read)."""
    port_file = tmp_path / "port"
    with open("/dev/full", "w") as full:
        proc = subprocess.Popen(
            [sys.executable, "-m", "solver.cli", "serve", "--port", "0", "--port-file",
             str(port_file), "--workers", "1"],
            stdout=subprocess.DEVNULL, stderr=full,
        )  # fmt: skip
    try:
        deadline = time.monotonic() + 120  # a hang guard, not a measurement
        while not (port_file.exists() and port_file.read_text().strip()):
            assert proc.poll() is None, f"forest serve ended with status {proc.returncode}"
            assert time.monotonic() < deadline, "forest serve did not start"
            time.sleep(0.05)
        url = f"http://127.0.0.1:{int(port_file.read_text())}"
        hint = {"id": "q", "game": "dog", "options": {"forest": "dog/another-dog"}, "exact": True}
        answer = httpx.post(f"{url}/v1/hint", json=hint, timeout=60)
        assert answer.status_code == 200 and answer.json()["rootInfo"]["exact"] is True
        sock = socket.create_connection(("127.0.0.1", int(port_file.read_text())), timeout=WAIT)
        sock.sendall(b"GARBAGE\r\n\r\n")  # refused in the protocol, which logs it too
        assert sock.recv(65536).startswith(b"HTTP/1.1 400")
        sock.close()
        assert httpx.get(f"{url}/health", timeout=30).status_code == 200
    finally:
        proc.send_signal(signal.SIGTERM)
        assert proc.wait(timeout=60) == 0
