"""A tournament's all-bot tables count toward the registering address's all-bot cap, as all-bot games do."""

from __future__ import annotations

import uuid

import fakeredis
import pytest

from service.bootstrap import build
from service.http import create_app
from tests.support.openapi import check_response

BOTS = [{"bot": "random"}] * 6
ELSEWHERE = {"REMOTE_ADDR": "10.0.0.2"}


def auth(token: str) -> dict:
    return {"Authorization": f"Bearer {token}"}


@pytest.fixture
def idle_workers_client():
    """A client whose services enqueue work no worker takes: games and tournaments stay in play; a cap of 2."""
    services = build(fakeredis.FakeRedis(), f"test-{uuid.uuid4().hex[:8]}", inline_jobs=False)
    return create_app(services, {"BOT_GAMES_PER_ADDRESS": 2}).test_client()


def new_tournament(client, table_sizes: list[int] | None = None, **environ: str) -> dict:
    body = {"game": "zop-zoo", "rounds": 1, "table_sizes": table_sizes or [6], "seed": "cap"}
    created = client.post("/tournaments", json=body, environ_base=environ)
    assert created.status_code == 201, created.json
    return created.json


def register_bots(client, tournament: dict, count: int, **environ: str) -> list[int]:
    path = f"/tournaments/{tournament['id']}/register"
    headers = auth(tournament["organiser_token"])
    return [
        client.post(path, json={"bot": "random"}, headers=headers, environ_base=environ).status_code
        for _ in range(count)
    ]


def test_a_bot_only_tournament_may_hold_no_more_all_bot_tables_than_the_cap(idle_workers_client):
    client = idle_workers_client
    tournament = new_tournament(client)
    # Tables of 6: bots 6 and 12 each make one more all-bot table possible; the 18th would be a third.
    assert register_bots(client, tournament, 17) == [201] * 17
    refused = client.post(
        f"/tournaments/{tournament['id']}/register", json={"bot": "random"}, headers=auth(tournament["organiser_token"])
    )
    check_response("/tournaments/{tournament_id}/register", "post", refused)
    assert refused.status_code == 429 and refused.json["error"]["code"] == "too_many_bot_games"
    assert "a tournament's bots hold one place for each all-bot table" in refused.json["error"]["message"]
    assert len(client.get(f"/tournaments/{tournament['id']}").json["players"]) == 17  # nothing registered


def test_a_tournaments_bot_tables_and_all_bot_games_share_the_addresss_places(idle_workers_client):
    client = idle_workers_client
    tournament = new_tournament(client)
    assert register_bots(client, tournament, 6) == [201] * 6  # one all-bot table: one place
    assert client.post("/games", json={"game": "zop-zoo", "seats": BOTS}).status_code == 201  # the second place
    refused = client.post("/games", json={"game": "zop-zoo", "seats": BOTS})
    assert refused.status_code == 429 and refused.json["error"]["code"] == "too_many_bot_games"
    assert register_bots(client, tournament, 6) == [201] * 5 + [429]
    # Humans register freely, and another address has places of its own.
    human = client.post(f"/tournaments/{tournament['id']}/register", json={"name": "ann"})
    assert human.status_code == 201
    assert client.post("/games", json={"game": "zop-zoo", "seats": BOTS}, environ_base=ELSEWHERE).status_code == 201


def test_a_tournament_that_ended_frees_its_tables_places(client):
    """In-process jobs play a tournament of random bots to its end when it starts."""
    client.application.config["BOT_GAMES_PER_ADDRESS"] = 1
    for _ in range(2):
        tournament = client.post("/tournaments", json={"game": "toy", "rounds": 1, "table_sizes": [2]}).json
        assert register_bots(client, tournament, 2) == [201, 201]
        started = client.post(f"/tournaments/{tournament['id']}/start", headers=auth(tournament["organiser_token"]))
        assert started.status_code == 200
        assert client.get(f"/tournaments/{tournament['id']}").json["status"] == "finished"
    assert client.post("/games", json={"game": "toy", "seats": [{"bot": "random"}] * 2}).status_code == 201
