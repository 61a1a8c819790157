"""Live streams as `menagerie serve` serves them (granian, the async front): views, moves, an outage and a resume.

A real server process on a redis-server of the test's own (own port, temp dir,
AOF `always`), so the test may kill the store under an open stream. Nothing
sleeps and hopes: every read has a deadline.
"""

from __future__ import annotations

import shutil
import urllib.request
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import orjson
import pytest
import redis

from service.bootstrap import build
from service.http import create_app
from service.http.subscriptions import STORE_LOST
from tests.support.processes import OwnRedis, Processes, free_port, http, wait_for

pytestmark = [
    pytest.mark.redis,
    pytest.mark.skipif(shutil.which("redis-server") is None, reason="SKIPPED: no redis-server on PATH"),
]

PREFIX = "streams"


@pytest.fixture
def api(own_redis: OwnRedis, tmp_path: Path) -> Iterator[tuple[str, Processes]]:
    """`menagerie serve` (one worker process) on the test's own Redis; its base URL and processes."""
    processes = Processes(tmp_path, step_timeout_s=3)
    port = free_port()
    processes.menagerie("api", ["serve", "--port", str(port), "--workers", "1"], own_redis.url, PREFIX)
    url = f"http://127.0.0.1:{port}"
    wait_for(lambda: http("GET", f"{url}/health")[0] == 200, 30, "the API to answer")
    yield url, processes
    processes.stop_all()


class Stream:
    """An open SSE response, read message by message."""

    def __init__(self, url: str, headers: dict[str, str]) -> None:
        self.response = urllib.request.urlopen(urllib.request.Request(url, headers=headers), timeout=10)
        self.comments: list[str] = []

    def next(self) -> dict[str, Any] | None:
        """Return the next message with data (None once the server ended the stream); remember comments."""
        fields: dict[str, str] = {}
        while True:
            line = self.response.readline()
            if not line:
                return None
            line = line.rstrip(b"\n").decode()
            if line == "" and "data" in fields:
                return {
                    "id": int(fields["id"]) if "id" in fields else None,
                    "event": fields["event"],
                    "data": orjson.loads(fields["data"]),
                }
            if line.startswith(":"):
                self.comments.append(line)
            elif ": " in line:
                name, value = line.split(": ", 1)
                fields[name] = value


def move(url: str, game_id: str, token: str) -> None:
    """Make the first legal action of the seat holding `token`."""
    status, view = http("GET", f"{url}/games/{game_id}", headers={"Authorization": f"Bearer {token}"})
    assert status == 200 and view["legal_actions"], view
    body = {"action": view["legal_actions"][0], "expected_version": view["version"]}
    status, done = http("POST", f"{url}/games/{game_id}/actions", body, headers={"Authorization": f"Bearer {token}"})
    assert status == 200, done


def test_a_seat_waits_on_its_stream_with_views_and_an_outage_ends_it_cleanly_and_it_resumes(api, own_redis):
    url, processes = api
    seats = [{"name": name} for name in ("ann", "bob", "cy")]
    status, game = http("POST", f"{url}/games", {"game": "bloede-kuh", "seats": seats})
    assert status == 201, game
    tokens = [seat["token"] for seat in game["seats"]]
    path = f"{url}/games/{game['id']}/stream?view=true"
    status, start = http("GET", f"{url}/games/{game['id']}")
    to_act = start["to_act"][0]
    stream = Stream(path + f"&after={start['version']}", {"Authorization": f"Bearer {tokens[to_act]}"})

    first = stream.next()  # the view it starts at: whose turn it is, without a GET
    assert first is not None and first["event"] == "view" and first["data"]["version"] == start["version"]
    assert first["data"]["you"] == to_act and first["data"]["legal_actions"]
    move(url, game["id"], tokens[to_act])
    moved = stream.next()
    assert moved is not None and moved["id"] == start["version"] + 1
    while moved is not None and moved["event"] != "view":
        last_id = moved["id"]
        moved = stream.next()
    assert moved is not None and moved["data"]["version"] == last_id

    own_redis.kill()
    assert stream.next() is None  # the server ended the stream, saying why in a comment
    assert any("unavailable" in comment for comment in stream.comments)
    log = processes.log("api")
    assert "Traceback" not in log and "unavailable" in log

    own_redis.start()
    wait_for(lambda: http("GET", f"{url}/health")[0] == 200, 30, "the API to see the store again")
    status, now = http("GET", f"{url}/games/{game['id']}")
    next_seat = now["to_act"][0]
    move(url, game["id"], tokens[next_seat])
    resumed = Stream(path, {"Authorization": f"Bearer {tokens[to_act]}", "Last-Event-ID": str(last_id)})
    again = resumed.next()
    assert again is not None and again["id"] == last_id + 1  # nothing lost, nothing twice
    assert "Traceback" not in processes.log("api")


def test_a_stream_holding_a_thread_ends_cleanly_when_the_store_dies_under_it(own_redis):
    # The path of the embedded server and of gunicorn: the stream's own blocking read fails.
    services = build(redis.Redis.from_url(own_redis.url), PREFIX, inline_jobs=True)
    client = create_app(services, {"RATE_LIMITS_ENABLED": False}).test_client()
    seats = [{"name": name} for name in ("ann", "bob", "cy")]
    game = client.post("/games", json={"game": "bloede-kuh", "seats": seats}).json
    version = client.get(f"/games/{game['id']}").json["version"]
    response = client.get(f"/games/{game['id']}/stream?after={version}", buffered=False)
    chunks = iter(response.response)
    assert next(chunks).startswith(b"retry:")
    own_redis.kill()
    assert list(chunks) == [STORE_LOST]  # no exception: the stream ends, the client resumes later
    response.close()
