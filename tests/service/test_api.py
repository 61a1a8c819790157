"""The JSON API on the toy game: the whole surface, auth and every kind of bad input."""

from __future__ import annotations

from typing import Any

import pytest

from domain.chance import seed_of
from domain.ratings import RATED_MOVE_S
from tests.support.openapi import check_response


def create(client, seats=None, **extra: Any) -> dict:
    body = {"game": "toy", "seats": seats or [{"name": "ann"}, {"name": "bob"}], "seed": "s1", **extra}
    response = client.post("/games", json=body)
    assert response.status_code == 201, response.json
    return response.json


def auth(token: str) -> dict:
    return {"Authorization": f"Bearer {token}"}


@pytest.fixture
def game(client) -> dict:
    created = create(client)
    created["tokens"] = [seat["token"] for seat in created["seats"]]
    return created


def stream_length(client, game_id: str) -> int:
    return client.get(f"/games/{game_id}/events").json["version"]


def error_code(response) -> str:
    return response.json["error"]["code"]


def test_health_and_game_types(client):
    assert client.get("/health").json["status"] == "ok"
    types = {t["id"]: t for t in client.get("/game-types").json["game_types"]}
    assert types["toy"]["min_seats"] == 2 and types["toy"]["options"][0]["name"] == "goal"


def test_game_types_tell_the_clock_a_game_that_could_be_rated_gets_when_none_is_set(client):
    # The lobby shows it as the default move clock of a game created with an account.
    response = client.get("/game-types")
    check_response("/game-types", "get", response)
    told = {t["id"]: t["rated_clock"] for t in response.json["game_types"]}["toy"]
    assert told == {"move_s": RATED_MOVE_S}


def test_a_seat_sees_its_secret_and_a_spectator_does_not(client, game):
    mine = client.get(f"/games/{game['id']}", headers=auth(game["tokens"][0])).json
    assert mine["you"] == 0 and mine["status"] == "active"
    assert mine["state"]["your_secret"] is not None
    spectator = client.get(f"/games/{game['id']}").json
    assert spectator["you"] is None and spectator["state"]["your_secret"] is None
    assert spectator["legal_actions"] == []


def test_every_legal_action_can_be_posted_back_verbatim_to_the_end(client, game):
    view = client.get(f"/games/{game['id']}").json
    while view["status"] != "finished":
        seat = view["to_act"][0]
        mine = client.get(f"/games/{game['id']}", headers=auth(game["tokens"][seat])).json
        response = client.post(
            f"/games/{game['id']}/actions",
            json={"action": mine["legal_actions"][-1]},
            headers=auth(game["tokens"][seat]),
        )
        assert response.status_code == 200, response.json
        view = client.get(f"/games/{game['id']}").json
    assert view["result"]["winners"] and seed_of(view["seed"]) == "s1"


def test_open_seats_are_joined_and_the_game_starts_when_full(client):
    created = create(client, seats=[{"name": "ann"}, {}])
    assert created["status"] == "waiting"
    joined = client.post(f"/games/{created['id']}/join", json={"name": "cy"})
    assert joined.status_code == 201 and joined.json["seat"] == 1
    assert client.get(f"/games/{created['id']}").json["status"] == "active"
    again = client.post(f"/games/{created['id']}/join", json={"name": "dee"})
    assert again.status_code == 422


def test_bots_play_their_turns_by_themselves(client):
    created = create(client, seats=[{"bot": "random"}, {"bot": "random"}])
    assert client.get(f"/games/{created['id']}").json["status"] == "finished"


@pytest.mark.parametrize(
    "body, content_type",
    [
        ("{not json", "application/json"),
        ("[1, 2]", "application/json"),
        ('{"action": "add"}', "application/json"),
        ('{"action": {"type": "add", "n": 1}, "expected_version": "3"}', "application/json"),
        ('{"action": {"type": "add", "n": 1}, "extra": 1}', "application/json"),
        ('{"action": {"type": "add", "n": 1}}', "text/plain"),
    ],
)
def test_malformed_bodies_are_400_and_append_nothing(client, game, body, content_type):
    before = stream_length(client, game["id"])
    response = client.post(
        f"/games/{game['id']}/actions", data=body, content_type=content_type, headers=auth(game["tokens"][0])
    )
    assert response.status_code == 400
    check_response("/games/{id}/actions", "post", response)
    assert stream_length(client, game["id"]) == before


@pytest.mark.parametrize(
    "body, status",
    [
        # What openapi.yaml's CreateGame forbids is 400 ...
        ({"game": "toy", "seats": [{}]}, 400),
        ({"game": "toy", "seats": [{"name": "a", "bot": "random"}, {}]}, 400),
        ({"game": "toy", "seats": [{"bot": "genius"}, {}]}, 400),
        ({"game": "toy", "seats": "two"}, 400),
        ({"seats": [{}, {}]}, 400),
        # ... what it allows but no game is created with is 422.
        ({"game": "chess", "seats": [{}, {}]}, 422),
        ({"game": "toy", "seats": [{}, {}], "options": {"goal": "ten"}}, 422),
        ({"game": "toy", "seats": [{}, {}], "options": {"colour": "red"}}, 422),
    ],
)
def test_bad_creations_are_refused(client, body, status):
    response = client.post("/games", json=body)
    assert response.status_code == status, response.json
    check_response("/games", "post", response)
    assert client.get("/games").json["games"] == []


def test_missing_or_unknown_tokens_are_401(client, game):
    url = f"/games/{game['id']}/actions"
    action = {"action": {"type": "add", "n": 1}}
    assert client.post(url, json=action).status_code == 401
    check_response("/games/{id}/actions", "post", client.post(url, json=action))
    assert error_code(client.post(url, json=action, headers=auth("nonsense"))) == "unknown_token"
    forged = game["tokens"][0][:-4] + "0000"
    assert client.post(url, json=action, headers=auth(forged)).status_code == 401
    assert client.get(f"/games/{game['id']}", headers=auth("nonsense")).status_code == 401
    assert client.get(f"/games/{game['id']}/events", headers=auth(forged)).status_code == 401
    assert client.get(f"/games/{game['id']}/export", headers=auth(forged)).status_code == 401
    assert stream_length(client, game["id"]) == game["version"]


def test_a_token_of_another_game_is_403_on_every_route(client, game):
    other = create(client)
    token = other["seats"][0]["token"]
    assert client.get(f"/games/{game['id']}", headers=auth(token)).status_code == 403
    assert client.get(f"/games/{game['id']}/events", headers=auth(token)).status_code == 403
    assert client.get(f"/games/{game['id']}/export", headers=auth(token)).status_code == 403
    response = client.post(
        f"/games/{game['id']}/actions", json={"action": {"type": "add", "n": 1}}, headers=auth(token)
    )
    assert response.status_code == 403 and error_code(response) == "wrong_game"
    check_response("/games/{id}/actions", "post", response)
    assert stream_length(client, game["id"]) == game["version"]


def test_unknown_games_are_404_on_every_route(client, game):
    for response in (
        client.get("/games/ffffffffffffffff"),
        client.get("/games/ffffffffffffffff/events"),
        client.post("/games/ffffffffffffffff/join", json={"name": "x"}),
        client.post("/games/ffffffffffffffff/actions", json={"action": {}}, headers=auth(game["tokens"][0])),
    ):
        assert response.status_code == 404 and error_code(response) == "game_not_found"
    assert client.get("/nowhere").status_code == 404
    tournament = client.post("/tournaments", json={"game": "life-is-life", "rounds": 1}).json["id"]
    assert client.get(f"/games/{tournament}").status_code == 404  # another aggregate's stream is no game
    assert client.delete("/games").json["error"]["code"] == "method_not_allowed"


def test_a_stale_expected_version_is_409_and_appends_nothing(client, game):
    seat = client.get(f"/games/{game['id']}").json["to_act"][0]
    response = client.post(
        f"/games/{game['id']}/actions",
        json={"action": {"type": "add", "n": 1}, "expected_version": game["version"] - 1},
        headers=auth(game["tokens"][seat]),
    )
    assert response.status_code == 409 and response.json["error"]["details"]["actual"] == game["version"]
    check_response("/games/{id}/actions", "post", response)
    assert stream_length(client, game["id"]) == game["version"]


def test_out_of_turn_and_illegal_moves_are_422_saying_why(client, game):
    to_act = client.get(f"/games/{game['id']}").json["to_act"][0]
    idle = 1 - to_act
    url = f"/games/{game['id']}/actions"
    response = client.post(url, json={"action": {"type": "add", "n": 1}}, headers=auth(game["tokens"][idle]))
    assert response.status_code == 422 and error_code(response) == "not_your_turn"
    assert "may not act" in response.json["error"]["message"]
    response = client.post(url, json={"action": {"type": "add", "n": 3}}, headers=auth(game["tokens"][to_act]))
    assert response.status_code == 422 and response.json["error"]["message"] == "add 1 or 2"
    check_response("/games/{id}/actions", "post", response)
    assert stream_length(client, game["id"]) == game["version"]


def test_a_retried_request_returns_the_first_result_and_appends_once(client, game):
    seat = client.get(f"/games/{game['id']}").json["to_act"][0]
    headers = {**auth(game["tokens"][seat]), "Idempotency-Key": "move-1"}
    body = {"action": {"type": "add", "n": 2}}
    first = client.post(f"/games/{game['id']}/actions", json=body, headers=headers)
    second = client.post(f"/games/{game['id']}/actions", json=body, headers=headers)
    assert first.status_code == second.status_code == 200
    assert second.json["version"] == first.json["version"]
    assert second.json["events"] == first.json["events"]
    assert stream_length(client, game["id"]) == first.json["version"]
    different = client.post(f"/games/{game['id']}/actions", json={"action": {"type": "add", "n": 1}}, headers=headers)
    assert different.status_code == 422 and error_code(different) == "idempotency_key_reused"


def test_the_event_log_is_redacted_for_each_caller(client, game):
    def secrets(token: str | None) -> list:
        headers = auth(token) if token else {}
        events = client.get(f"/games/{game['id']}/events", headers=headers).json["events"]
        return next(e for e in events if e["type"] == "SecretsDealt")["data"]["secrets"]

    assert secrets(game["tokens"][0])[1] is None and secrets(game["tokens"][0])[0] is not None
    assert secrets(game["tokens"][1])[0] is None
    assert secrets(None) == [None, None]
    events = client.get(f"/games/{game['id']}/events").json["events"]
    assert all("token_sha256" not in e["data"] for e in events)
    assert all(e.get("command") is None or e["command"].get("redacted") for e in events)


def test_events_page_after_a_version(client, game):
    page = client.get(f"/games/{game['id']}/events?after=2&limit=2").json
    assert [e["seq"] for e in page["events"]] == [3, 4] and page["more"] is True
    assert client.get(f"/games/{game['id']}/events?after=-1").status_code == 400
    assert client.get(f"/games/{game['id']}/events?after=x").status_code == 400
