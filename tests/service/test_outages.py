"""A store outage is a 503 `store_unavailable` with Retry-After on every route, never a 500."""

from __future__ import annotations

import uuid

import fakeredis
import pytest

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
