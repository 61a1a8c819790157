"""Idle connections survive whatever socket timeout the installed redis-py defaults to.

redis-py 8 gives every client a 5 s socket timeout unless told otherwise, so a
live stream's `XREAD BLOCK 15000` or RQ's dequeue (blocking for most of a
minute) used to be cut after 5 s. Real `menagerie serve` and `menagerie worker`
processes on the real Redis at REDIS_URL, under a key prefix of their own, are
left idle for longer than that and must still work. The idle spells are the
tests' input, not a wait for something to happen: everything they expect is
asserted afterwards.
"""

from __future__ import annotations

import os
import signal
import time
import uuid
from collections.abc import Iterator
from http.client import HTTPConnection
from pathlib import Path
from typing import Any

import pytest
from rq import Queue, SimpleWorker, Worker

from service.adapters.connections import COMMAND_TIMEOUT_S
from service.adapters.store import MAX_BLOCK_MS
from service.bootstrap import build_from_urls
from service.cli.supervise import WORKER_TTL_S
from service.http.streams import HEARTBEAT_MS
from tests.support.processes import Processes, free_port, http, remove_run, wait_for
from tests.support.services import REAL_REDIS

pytestmark = pytest.mark.redis

STREAM_IDLE_S = 20  # past redis-py 8's 5 s default and past the 15 s heartbeat
WORKER_IDLE_S = 30


@pytest.fixture
def served(tmp_path: Path) -> Iterator[tuple[str, Processes, str]]:
    """`menagerie serve` and one `menagerie worker` on the real Redis, under a prefix of their own."""
    if REAL_REDIS is None:
        pytest.skip("SKIPPED: no Redis server at REDIS_URL")
    url, prefix = os.environ["REDIS_URL"], f"test-{uuid.uuid4().hex[:12]}"
    processes = Processes(tmp_path, step_timeout_s=3)
    port = free_port()
    server = processes.menagerie("api", ["serve", "--workers", "1", "--port", str(port)], url, prefix)
    processes.menagerie("worker", ["worker"], url, prefix)
    api = f"http://127.0.0.1:{port}"
    try:
        wait_for(lambda: http("GET", f"{api}/health")[0] == 200, 30, "the server to answer")
        yield api, processes, prefix
    finally:
        server.send_signal(signal.SIGTERM)
        try:
            server.wait(15)
        finally:
            processes.stop_all()
            remove_run(REAL_REDIS, prefix)


def _create(api: str, seats: list[dict[str, Any]]) -> dict[str, Any]:
    status, created = http("POST", f"{api}/games", {"game": "life-is-life", "seats": seats})
    assert status == 201, created
    return created


def _view(api: str, game_id: str, token: str) -> dict[str, Any]:
    status, view = http("GET", f"{api}/games/{game_id}", headers={"Authorization": f"Bearer {token}"})
    assert status == 200, view
    return view


def _play_first_legal(api: str, game_id: str, token: str) -> None:
    view = _view(api, game_id, token)
    body = {"action": view["legal_actions"][0], "expected_version": view["version"]}
    status, answer = http("POST", f"{api}/games/{game_id}/actions", body, {"Authorization": f"Bearer {token}"})
    assert status == 200, answer


def test_an_idle_stream_gets_its_heartbeat_and_stays_open(served):
    api, processes, _ = served
    created = _create(api, [{"name": "ann"}, {"name": "bob"}, {"name": "cy"}])
    game_id = created["id"]
    host, port = api.removeprefix("http://").split(":")
    stream = HTTPConnection(host, int(port), timeout=STREAM_IDLE_S + 10)
    try:
        stream.request("GET", f"/games/{game_id}/stream")
        response = stream.getresponse()
        assert response.status == 200
        started = time.monotonic()
        lines = []
        while not any(line.startswith(b": heartbeat") for line in lines):
            lines.append(response.fp.readline())
            assert lines[-1], f"the stream closed after {time.monotonic() - started:.1f} s: {lines}"
        idle = time.monotonic() - started
        assert idle > 5, "the heartbeat came before the stream had been idle for long"
        # Still open after the heartbeat: a move made now arrives on it.
        view = _view(api, game_id, created["seats"][0]["token"])
        to_act = view["to_act"][0]
        _play_first_legal(api, game_id, created["seats"][to_act]["token"])
        while not lines[-1].startswith(b"id: "):
            lines.append(response.fp.readline())
            assert lines[-1], "the stream closed instead of sending the move"
        assert int(lines[-1].split()[1]) > view["version"] - 1
    finally:
        stream.close()
    assert "Traceback" not in processes.log("api")


def test_an_idle_worker_stays_up_and_then_plays_a_bot_turn_at_once(served):
    api, processes, prefix = served
    queue = Queue(prefix, connection=REAL_REDIS)
    wait_for(lambda: Worker.count(queue=queue) == 1, 30, "the worker to listen")
    names = {worker.name for worker in Worker.all(queue=queue)}
    time.sleep(WORKER_IDLE_S)  # the idle spell under test
    assert {worker.name for worker in Worker.all(queue=queue)} == names, "the worker quit and started again"

    created = _create(api, [{"name": "ann"}, {"bot": "random"}, {"bot": "random"}])
    game_id, token = created["id"], created["seats"][0]["token"]
    view = _view(api, game_id, token)
    if 0 in view["to_act"]:  # else the bots have the first turns
        _play_first_legal(api, game_id, token)
        view = _view(api, game_id, token)
    asked = time.monotonic()
    wait_for(lambda: _view(api, game_id, token)["version"] > view["version"], 10, "a bot to play its turn")
    print(f"\nafter {WORKER_IDLE_S} s idle, a bot played {time.monotonic() - asked:.2f} s after its turn came")
    log = processes.log("worker")
    assert "quitting" not in log and "lost the store" not in log and "Traceback" not in log, log


def test_every_client_states_timeouts_that_outlast_its_blocks():
    if REAL_REDIS is None:
        pytest.skip("SKIPPED: no Redis server at REDIS_URL")
    url = os.environ["REDIS_URL"]
    services = build_from_urls(url, url, f"test-{uuid.uuid4().hex[:12]}", queue_blocks_for_s=WORKER_TTL_S)
    commands = services.store.redis.connection_pool.connection_kwargs
    blocking = services.store.blocking.connection_pool.connection_kwargs
    queue = services.rq().connection_pool.connection_kwargs
    assert commands["socket_timeout"] == COMMAND_TIMEOUT_S
    assert blocking["socket_timeout"] > MAX_BLOCK_MS / 1000 >= HEARTBEAT_MS / 1000
    # RQ raises a shorter timeout only for connections made after its worker starts; ours is long enough from the first.
    worker = SimpleWorker([Queue("probe", connection=services.rq())], connection=services.rq(), worker_ttl=WORKER_TTL_S)
    assert queue["socket_timeout"] >= worker.connection_timeout > worker.dequeue_timeout
    assert services.rq() is not services.store.redis, "RQ's blocking dequeue would share the store's connections"
