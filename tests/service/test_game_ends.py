"""Every game ends, over HTTP: a looping game meets its cap; the options that lengthen a game and the all-bot games
one address may run are bounded."""

from __future__ import annotations

import uuid

import fakeredis
import pytest

from domain.games import rules_for
from service.bootstrap import build
from service.http import create_app
from tests.support.openapi import check_response

HUMANS = [{"name": "ann"}, {"name": "bob"}, {"name": "cy"}]
BOTS = [{"bot": "heuristic"}, {"bot": "heuristic"}]


def auth(token: str) -> dict[str, str]:
    return {"Authorization": f"Bearer {token}"}


def test_two_humans_who_trade_one_card_for_ever_are_stopped_at_the_cap_and_the_game_audits(client, monkeypatch):
    monkeypatch.setattr(rules_for("life-is-life"), "event_caps", {3: 60, 4: 60, 5: 60})
    created = client.post("/games", json={"game": "life-is-life", "seats": HUMANS, "seed": "loop"}).json
    tokens = {seat["seat"]: seat["token"] for seat in created["seats"]}
    view = client.get(f"/games/{created['id']}").json
    moves = 0
    while view["status"] != "finished":
        seat = view["to_act"][0]
        mine = client.get(f"/games/{created['id']}", headers=auth(tokens[seat])).json
        action = {"action": mine["legal_actions"][0], "expected_version": mine["version"]}
        posted = client.post(f"/games/{created['id']}/actions", json=action, headers=auth(tokens[seat]))
        assert posted.status_code == 200, posted.json
        view, moves = client.get(f"/games/{created['id']}").json, moves + 1
        assert moves <= 60
    check_response("/games/{id}", "get", client.get(f"/games/{created['id']}"))
    assert view["result"]["ended_by"] == "event_cap" and view["version"] >= 60
    # Nobody has lost a life in the phase that never ended: all share first place.
    assert view["result"]["places"] == [1, 1, 1]
    report = client.get(f"/games/{created['id']}/audit")
    assert report.status_code == 200 and report.json["ok"] is True
    types = client.get("/game-types")
    check_response("/game-types", "get", types)
    assert {t["id"]: t["event_caps"] for t in types.json["game_types"]}["life-is-life"] == {"3": 60, "4": 60, "5": 60}


@pytest.mark.parametrize(
    ("options", "option"),
    [
        ({"target": 1001}, "target"),
        ({"target": 1_000_000}, "target"),
        ({"target": 900}, "target"),  # 1000 is the rulebook's target for 2 players only; 6 play to 800 at most
        ({"mcts_iterations": 201}, "mcts_iterations"),
    ],
)
def test_options_that_would_make_a_game_longer_than_the_rulebook_or_the_ladder_need_are_refused(
    client, options, option
):
    body = {"game": "zop-zoo", "seats": [{"bot": "mcts"}] * 6, "options": options}
    refused = client.post("/games", json=body)
    assert refused.status_code == 422, refused.json
    assert refused.json["error"]["code"] == "invalid_options" and refused.json["error"]["details"]["option"] == option
    assert client.get("/games").json["games"] == []


@pytest.fixture
def idle_workers_client():
    """A client whose services enqueue bot moves that no worker takes: all-bot games stay in play."""
    services = build(fakeredis.FakeRedis(), f"test-{uuid.uuid4().hex[:8]}", inline_jobs=False)
    return create_app(services, {"BOT_GAMES_PER_ADDRESS": 2}).test_client()


def test_an_address_may_have_only_so_many_all_bot_games_in_play(idle_workers_client):
    client = idle_workers_client
    for _ in range(2):
        assert client.post("/games", json={"game": "zop-zoo", "seats": BOTS}).status_code == 201
    refused = client.post("/games", json={"game": "zop-zoo", "seats": BOTS})
    check_response("/games", "post", refused)
    assert refused.status_code == 429 and refused.json["error"]["code"] == "too_many_bot_games"
    assert refused.headers["Retry-After"] == str(refused.json["error"]["details"]["retry_after"])
    assert len(client.get("/games").json["games"]) == 2
    # A game with a human seat is not an all-bot game; another address has places of its own.
    assert client.post("/games", json={"game": "zop-zoo", "seats": [{"name": "ann"}, *BOTS[1:]]}).status_code == 201
    other = client.post("/games", json={"game": "zop-zoo", "seats": BOTS}, environ_base={"REMOTE_ADDR": "10.0.0.2"})
    assert other.status_code == 201


def test_a_retried_create_at_the_cap_gets_its_game_back(idle_workers_client):
    client = idle_workers_client
    keys = [{"Idempotency-Key": str(uuid.uuid4())} for _ in range(3)]
    first = [client.post("/games", json={"game": "zop-zoo", "seats": BOTS}, headers=key) for key in keys[:2]]
    assert [r.status_code for r in first] == [201, 201]
    retried = client.post("/games", json={"game": "zop-zoo", "seats": BOTS}, headers=keys[1])
    assert retried.status_code == 201 and retried.json["id"] == first[1].json["id"]
    # A new key at the cap is still refused, and the retry took no place of its own.
    refused = client.post("/games", json={"game": "zop-zoo", "seats": BOTS}, headers=keys[2])
    assert refused.status_code == 429 and refused.json["error"]["code"] == "too_many_bot_games"
    assert len(client.get("/games").json["games"]) == 2


def test_an_all_bot_game_that_ended_frees_its_place(client):
    # In-process jobs play an all-bot game to its end before the create is answered.
    client.application.config["BOT_GAMES_PER_ADDRESS"] = 1
    for _ in range(3):
        created = client.post("/games", json={"game": "life-is-life", "seats": [{"bot": "heuristic"}] * 3})
        assert created.status_code == 201
        assert client.get(f"/games/{created.json['id']}").json["status"] == "finished"
