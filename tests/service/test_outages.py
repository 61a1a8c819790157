"""A store outage is a 503 `store_unavailable` with Retry-After on every route, never a 500."""

from __future__ import annotations

import threading
import uuid

import fakeredis
import pytest
from redis.exceptions import (
    ClusterDownError,
    ClusterError,
    MasterDownError,
    OutOfMemoryError,
    ReadOnlyError,
    RedisClusterException,
    SlotNotCoveredError,
    TryAgainError,
)

from service.bootstrap import build
from service.http import create_app


@pytest.fixture
def server_and_client():
    server = fakeredis.FakeServer()
    services = build(fakeredis.FakeRedis(server=server), f"test-{uuid.uuid4().hex[:8]}", inline_jobs=True)
    return server, create_app(services).test_client()


def test_health_reports_the_store_and_is_503_while_it_is_down(server_and_client):
    server, client = server_and_client
    up = client.get("/health")
    assert up.status_code == 200
    assert up.json["store_state"] == "up"
    assert up.json["overdue_steps"] == 0
    server.connected = False
    down = client.get("/health")
    assert down.status_code == 503
    assert down.json["error"]["code"] == "store_unavailable"
    assert int(down.headers["Retry-After"]) >= 1
    server.connected = True
    assert client.get("/health").status_code == 200


def test_every_kind_of_request_is_503_during_an_outage_and_works_after(server_and_client):
    server, client = server_and_client
    created = client.post("/games", json={"game": "toy", "seats": [{"name": "ann"}, {"name": "bob"}]})
    game_id, token = created.json["id"], created.json["seats"][0]["token"]
    auth = {"Authorization": f"Bearer {token}"}
    server.connected = False
    answers = [
        client.post("/games", json={"game": "toy", "seats": [{"name": "ann"}, {"bot": "random"}]}),
        client.get(f"/games/{game_id}", headers=auth),
        client.get(f"/games/{game_id}/events", headers=auth),
        client.post(f"/games/{game_id}/actions", headers=auth, json={"action": {"type": "add", "n": 1}}),
        client.get("/games"),
    ]
    for answer in answers:
        assert answer.status_code == 503, answer.json
        assert answer.json["error"]["code"] == "store_unavailable"
        assert "Retry-After" in answer.headers
    server.connected = True
    assert client.get(f"/games/{game_id}", headers=auth).status_code == 200


# What a Redis Cluster says while a master fails over (or a Redis out of memory): each is an outage too.
FAILOVER_ERRORS = [
    ClusterDownError("CLUSTERDOWN The cluster is down"),
    MasterDownError("MASTERDOWN Link with MASTER is down"),
    TryAgainError("TRYAGAIN Multiple keys request during rehashing of slot"),
    ReadOnlyError("READONLY You can't write against a read only replica."),
    SlotNotCoveredError("Slot 42 is not covered by the cluster"),
    ClusterError("TTL exhausted."),
    OutOfMemoryError("OOM command not allowed when used memory > 'maxmemory'."),
    RedisClusterException("Redis Cluster cannot be connected. Please provide at least one reachable node"),
]


@pytest.mark.parametrize("error", FAILOVER_ERRORS, ids=lambda e: type(e).__name__)
def test_a_cluster_failing_over_is_a_503_not_a_500(server_and_client, monkeypatch, error):
    _, client = server_and_client
    created = client.post("/games", json={"game": "toy", "seats": [{"name": "ann"}, {"name": "bob"}]})
    game_id, token = created.json["id"], created.json["seats"][0]["token"]

    def refuse(*args, **kwargs):
        raise error

    monkeypatch.setattr(fakeredis.FakeRedis, "execute_command", refuse)
    for answer in (
        client.get(f"/games/{game_id}", headers={"Authorization": f"Bearer {token}"}),
        client.post("/games", json={"game": "toy", "seats": [{"name": "ann"}, {"bot": "random"}]}),
        client.get("/health"),
    ):
        assert answer.status_code == 503, answer.json
        assert answer.json["error"]["code"] == "store_unavailable"


@pytest.mark.parametrize(
    "error", [*FAILOVER_ERRORS[:2], FAILOVER_ERRORS[-1], KeyError("a bug")], ids=lambda e: type(e).__name__
)
def test_the_steward_waits_out_a_failover_or_a_fault_instead_of_dying(monkeypatch, error):
    services = build(fakeredis.FakeRedis(), f"test-{uuid.uuid4().hex[:8]}", inline_jobs=True)
    steward = services.steward()
    calls = []

    def failing_once() -> int:
        calls.append(1)
        if len(calls) == 1:
            raise error
        stop.set()
        return 0

    monkeypatch.setattr(steward, "run_once", failing_once)
    stop = threading.Event()
    steward.run(stop, interval=0.01, max_backoff=0.01)  # returns only if it went on after the error
    assert len(calls) == 2
