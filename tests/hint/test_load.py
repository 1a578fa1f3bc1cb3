"""A bounded load test against a real ``forest serve`` on 127.0.0.1: 300 hint requests (100 in
the default suite), 16 at a time, against 2 workers and a queue of 2 (small enough that the
clients overflow it on a quiet machine too: a queue of 6 was refused no request in some runs).
Every admitted request is answered correctly (the in-process engine's answer for the same
request: the same simulations, so its budget was kept) and says when it was admitted; requests
beyond the queue get 503 and are retried after ``Retry-After``; ``/health`` answers throughout.
No assertion reads the wall clock (a loaded machine stretches it): :data:`HANG_GUARD` only ends
a run that would never finish."""

from __future__ import annotations

import threading
import time
from concurrent.futures import ThreadPoolExecutor

import httpx
import pytest

from solver.hint.engine import Caps, answer
from solver.hint.server import ADMITTED_HEADER

from .conftest import Server

CLIENTS = 16
WORKERS, QUEUE = 2, 2
HANG_GUARD = 240.0
"""Seconds after which the clients give up: a hang guard, not a speed test (the default suite's
100 requests take seconds), under the suite's 300 s limit so a hung run says where it hung."""
MAX_TRIES = 200
BASE = {"game": "dog", "options": {"forest": "dog/another-dog"}, "limit": {"iterations": 400,
        "seconds": 2.0}, "top_k": 3}  # fmt: skip
POSITIONS = [[10], [11], [12], [10, 0, 4], [11, 3], [12, 3]]


def test_bounded_load(tmp_path) -> None:
    bounded_load(tmp_path, 100)


@pytest.mark.slow
def test_bounded_load_of_300_requests(tmp_path) -> None:
    bounded_load(tmp_path, 300)


def bounded_load(tmp_path, requests: int) -> None:
    """``requests`` hint requests, :data:`CLIENTS` at a time, all answered as the module says."""
    server = Server(tmp_path, "--workers", str(WORKERS), "--queue", str(QUEUE), "--quiet",
                    "--max-seconds", "3")  # fmt: skip
    caps = Caps(max_seconds=3)
    expected = {}
    for n, actions in enumerate(POSITIONS):
        reply = answer({**BASE, "id": "x", "actions": actions}, caps=caps)
        expected[n] = (reply["moveInfos"], reply["rootInfo"]["value"])
    started = time.monotonic()
    stop = threading.Event()
    health: list[object] = []
    refused = [0]
    lock = threading.Lock()

    def watch_health() -> None:
        with httpx.Client(timeout=30) as client:  # a hang guard: /health answers in ms
            while not stop.is_set() and time.monotonic() - started < HANG_GUARD:
                try:
                    status = client.get(f"{server.url}/health").status_code
                except httpx.HTTPError as exc:
                    status = repr(exc)
                health.append(status)
                time.sleep(0.05)

    def one(index: int) -> float:
        n = index % len(POSITIONS)
        body = {**BASE, "id": f"r{index}", "actions": POSITIONS[n]}
        with httpx.Client(timeout=30) as client:
            for _ in range(MAX_TRIES):
                assert time.monotonic() - started < HANG_GUARD, "the load test hung"
                response = client.post(f"{server.url}/v1/hint", json=body)
                if response.status_code == 503:
                    assert response.json()["code"] == "overloaded"
                    with lock:
                        refused[0] += 1
                    time.sleep(float(response.headers["retry-after"]))
                    continue
                assert response.status_code == 200, response.text
                reply = response.json()
                assert reply["id"] == body["id"]
                assert (reply["moveInfos"], reply["rootInfo"]["value"]) == expected[n]
                since_admission = float(response.headers[ADMITTED_HEADER])
                assert since_admission >= 0 and reply["limitApplied"]["iterations"] == 400
                return since_admission
        raise AssertionError(f"request {index} was refused {MAX_TRIES} times")

    watcher = threading.Thread(target=watch_health)
    watcher.start()
    try:
        with ThreadPoolExecutor(CLIENTS) as pool:
            latencies = list(pool.map(one, range(requests)))
    finally:
        stop.set()
        watcher.join(timeout=10)
        assert server.stop() == 0
    assert len(latencies) == requests
    assert refused[0] > 0  # the queue did fill up, and the refused requests were retried
    assert health and all(status == 200 for status in health), health
