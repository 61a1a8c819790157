"""`menagerie serve` runs granian, or gunicorn with threaded workers and its parsing limits at their most generous."""

from __future__ import annotations

import json
import os
import signal
import urllib.error
import urllib.request
import uuid
from collections.abc import Iterator
from http.client import HTTPConnection
from pathlib import Path
from typing import Any

import pytest

from service.cli.server import ApiServer, gunicorn_options
from tests.support.processes import Processes, children_of, free_port, has_ended, http, remove_run, wait_for
from tests.support.services import REAL_REDIS


def test_gunicorn_runs_gthread_workers_with_timeouts():
    options = gunicorn_options("127.0.0.1", 8000, 4)
    assert options["worker_class"] == "gthread" and options["workers"] == 4 and options["threads"] >= 2
    assert options["timeout"] > 0 and options["graceful_timeout"] > 0


def test_gunicorn_accepts_every_setting_we_give_it():
    server = ApiServer(gunicorn_options("127.0.0.1", 8000, 2))
    assert server.cfg.worker_class_str == "gthread"
    assert server.cfg.limit_request_line == 8190
    assert server.cfg.limit_request_fields == 200


@pytest.fixture(params=["granian", "gunicorn"])
def served(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[tuple[str, Any, Processes]]:
    """`menagerie serve --server <each> --workers 2` and one worker on the real Redis, under a prefix of their own."""
    if REAL_REDIS is None:
        pytest.skip("SKIPPED: no Redis server at REDIS_URL")
    url, prefix = os.environ["REDIS_URL"], f"test-{uuid.uuid4().hex[:12]}"
    processes = Processes(tmp_path, step_timeout_s=3)
    port = free_port()
    server = processes.menagerie(
        "api", ["serve", "--server", request.param, "--workers", "2", "--port", str(port)], url, prefix
    )
    processes.menagerie("worker", ["worker"], url, prefix)
    try:
        yield f"http://127.0.0.1:{port}", server, processes
    finally:
        server.send_signal(signal.SIGTERM)  # the server stops its worker processes itself
        try:
            server.wait(15)
        finally:
            processes.stop_all()  # what did not stop is killed, with its children
            remove_run(REAL_REDIS, prefix)


@pytest.mark.redis
def test_the_server_serves_games_answers_json_errors_and_replaces_a_killed_worker(served):
    api, server, processes = served
    wait_for(lambda: http("GET", f"{api}/health")[0] == 200, 30, "the server to answer")
    first_line = processes.log("api").splitlines()[0]
    assert f"Menagerie is serving on {api}/ (open it in a browser)" in first_line
    status, created = http("POST", f"{api}/games", {"game": "bloede-kuh", "seats": [{"bot": "random"}] * 3})
    assert status == 201, created
    request = urllib.request.Request(f"{api}/games", b"{not json", {"Content-Type": "application/json"}, method="POST")
    with pytest.raises(urllib.error.HTTPError) as refused:
        urllib.request.urlopen(request, timeout=10)
    assert refused.value.code == 400 and refused.value.headers["Content-Type"] == "application/json"
    assert json.loads(refused.value.read())["error"]["code"] == "malformed_json"

    workers = wait_for(lambda: children_of(server.pid) if len(children_of(server.pid)) == 2 else None, 30, "2 workers")
    os.kill(workers[0], signal.SIGKILL)
    wait_for(lambda: has_ended(workers[0]), 10, "the killed worker to be gone")
    wait_for(lambda: len(set(children_of(server.pid)) - {workers[0]}) == 2, 30, "the server to start another worker")
    wait_for(lambda: http("GET", f"{api}/health")[0] == 200, 30, "the API to answer after the kill")

    game = created["id"]
    wait_for(lambda: http("GET", f"{api}/games/{game}")[1]["status"] == "finished", 120, "the game to finish")
    status, report = http("GET", f"{api}/games/{game}/audit")
    assert status == 200 and report["ok"], report
    assert "internal_error" not in processes.log("api")


@pytest.mark.redis
def test_a_keep_alive_connection_outlives_a_body_the_answer_did_not_need(served):
    # Its stop also exercises granian's kill timeout: after such a connection a worker now and then misses the signal.
    api, _, _ = served
    wait_for(lambda: http("GET", f"{api}/health")[0] == 200, 30, "the server to answer")
    connection = HTTPConnection("127.0.0.1", int(api.rsplit(":", 1)[1]), timeout=10)
    body = json.dumps({"pad": "a" * 200_000}).encode()  # more than granian buffers, and over the 64 KiB limit
    cases = [("/nowhere", 404), ("/games/nope/actions", 404), ("/games", 413)]
    try:
        for (path, status), chunked in [(case, chunked) for case in cases for chunked in (False, True)]:
            # Chunked: the body in pieces, with no Content-Length.
            sent = (body[i : i + 50_000] for i in range(0, len(body), 50_000)) if chunked else body
            connection.request(
                "POST", path, body=sent, headers={"Content-Type": "application/json"}, encode_chunked=chunked
            )
            answer = connection.getresponse()
            assert answer.status == status and answer.getheader("Connection") != "close", answer.read()
            answer.read()
            connection.request("GET", "/health")  # on the same connection
            health = connection.getresponse()
            assert health.status == 200 and json.loads(health.read())["status"] == "ok"
    finally:
        connection.close()
