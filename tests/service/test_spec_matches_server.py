"""openapi.yaml says what the server enforces: what the server refuses as malformed (400), the spec forbids.

The contract: 400 means the request does not match openapi.yaml; a request that
matches it but cannot be done (an unknown game type, options or a seat count the
game does not take, a move of another game, a position the game has not reached)
is a 422 (or 404). Each case below was once a 400 that the spec allowed.
"""

from __future__ import annotations

from typing import Any

import pytest
from jsonschema import Draft202012Validator

from tests.support.openapi import SPEC, _resolve, _strict


def _request_schema(path: str, method: str) -> Draft202012Validator:
    body = SPEC["paths"][path][method]["requestBody"]["content"]["application/json"]["schema"]
    return Draft202012Validator(_strict(_resolve(body)))


def _header_schema(name: str) -> Draft202012Validator:
    parameter = SPEC["components"]["parameters"][name]
    return Draft202012Validator(_strict(_resolve(parameter["schema"])))


def _organiser(client: Any) -> tuple[str, dict[str, str]]:
    created = client.post("/tournaments", json={"game": "toy", "rounds": 1}).json
    return created["id"], {"Authorization": f"Bearer {created['organiser_token']}"}


@pytest.mark.parametrize(
    "path, body",
    [
        ("/games", {"game": "toy", "seats": [{"name": "ann", "bot": "random"}, {}]}),
        ("/games", {"game": "toy", "seats": [{}]}),
        ("/tournaments", {"game": "toy", "rounds": 1, "table_sizes": [0]}),
        ("/tournaments", {"game": "toy", "rounds": 1, "scoring": {"2": [2_000_000, 0]}}),
        ("/games", {"game": "toy", "seats": [{"name": "a\x1b[2J"}, {}]}),
    ],
)
def test_bodies_the_server_refuses_as_malformed_the_spec_forbids(client, path, body):
    assert not _request_schema(path, "post").is_valid(body)
    response = client.post(path, json=body)
    assert response.status_code == 400, response.json


def test_registering_with_neither_name_nor_bot_is_forbidden_by_the_spec_and_400(client):
    tournament, organiser = _organiser(client)
    assert not _request_schema("/tournaments/{tournament_id}/register", "post").is_valid({})
    response = client.post(f"/tournaments/{tournament}/register", json={}, headers=organiser)
    assert response.status_code == 400, response.json


def test_an_idempotency_key_with_a_space_is_forbidden_by_the_spec_and_400(client):
    assert not _header_schema("IdempotencyKey").is_valid("two words")
    response = client.post("/games", json={"game": "toy", "seats": [{}, {}]}, headers={"Idempotency-Key": "two words"})
    assert response.status_code == 400 and response.json["error"]["code"] == "invalid_idempotency_key"


@pytest.mark.parametrize(
    "path, body, code",
    [
        ("/games", {"game": "chess", "seats": [{}, {}]}, "unknown_game_type"),
        ("/games", {"game": "toy", "seats": [{}] * 8}, "invalid_options"),
        ("/games", {"game": "toy", "seats": [{}, {}], "options": {"target": 5}}, "invalid_options"),
        ("/tournaments", {"game": "toy", "rounds": 1, "table_sizes": [8]}, "invalid_tournament"),
    ],
)
def test_bodies_the_spec_allows_but_no_game_takes_are_422(client, path, body, code):
    assert _request_schema(path, "post").is_valid(body)
    response = client.post(path, json=body)
    assert (response.status_code, response.json["error"]["code"]) == (422, code), response.json


def test_a_move_of_another_game_is_well_formed_so_422(client):
    created = client.post("/games", json={"game": "bloede-kuh", "seats": [{"name": "ann"}, {}, {}]}).json
    game, token = created["id"], created["seats"][0]["token"]
    move = {"action": {"type": "take", "group": 1}}  # Animals on Board's take; Blöde Kuh's takes `from`
    assert _request_schema("/games/{id}/actions", "post").is_valid(move)
    response = client.post(f"/games/{game}/actions", json=move, headers={"Authorization": f"Bearer {token}"})
    assert (response.status_code, response.json["error"]["code"]) == (422, "illegal_action"), response.json


def test_a_round_past_any_tournament_is_404_not_500(client):
    tournament, organiser = _organiser(client)
    response = client.get(f"/tournaments/{tournament}/rounds/{2**70}/pairings", headers=organiser)
    assert response.status_code == 404 and response.json["error"]["code"] == "round_not_found"


@pytest.mark.parametrize(
    "path, body",
    [
        ("/games", {"game": "toy", "seats": [{}, {}], "seed": None}),
        ("/tournaments", {"game": "toy", "rounds": 1, "seed": None}),
        ("/tournaments", {"game": "toy", "rounds": 1, "table_sizes": None}),
        ("/tournaments", {"game": "toy", "rounds": 1, "max_players": None}),
        ("/tournaments", {"game": "toy", "rounds": 1, "scoring": None}),
    ],
)
def test_a_null_the_spec_does_not_allow_is_400_not_taken_as_left_out(client, path, body):
    # marshmallow lets an optional field with a None default be sent as null (found by schemathesis).
    assert not _request_schema(path, "post").is_valid(body)
    response = client.post(path, json=body)
    assert (response.status_code, response.json["error"]["code"]) == (400, "invalid_request"), response.json


def test_a_null_expected_version_or_entrant_is_400(client):
    created = client.post(
        "/games", json={"game": "bloede-kuh", "seats": [{"name": "ann"}, {"bot": "random"}, {"bot": "random"}]}
    ).json
    seat = {"Authorization": f"Bearer {created['seats'][0]['token']}"}
    move = {"action": {"type": "pass"}, "expected_version": None}
    assert not _request_schema("/games/{id}/actions", "post").is_valid(move)
    response = client.post(f"/games/{created['id']}/actions", json=move, headers=seat)
    assert response.status_code == 400, response.json
    tournament, organiser = _organiser(client)
    withdraw = {"entrant": None}
    assert not _request_schema("/tournaments/{tournament_id}/withdraw", "post").is_valid(withdraw)
    response = client.post(f"/tournaments/{tournament}/withdraw", json=withdraw, headers=organiser)
    assert response.status_code == 400, response.json


def test_a_bad_idempotency_key_is_400_even_with_a_move_of_another_game(client):
    # The header was checked after the move's form, so this was 422 illegal_action (found by schemathesis).
    created = client.post(
        "/games", json={"game": "bloede-kuh", "seats": [{"name": "ann"}, {"bot": "random"}, {"bot": "random"}]}
    ).json
    headers = {"Authorization": f"Bearer {created['seats'][0]['token']}", "Idempotency-Key": "two words"}
    move = {"action": {"type": "take", "group": 1}}
    response = client.post(f"/games/{created['id']}/actions", json=move, headers=headers)
    assert (response.status_code, response.json["error"]["code"]) == (400, "invalid_idempotency_key"), response.json


@pytest.mark.parametrize(
    "game, action",
    [
        ("bloede-kuh", {"type": "pass", "from": None}),
        ("animals-on-board", {"type": "split", "group": 0}),
        ("animals-on-board", {"type": "split", "group": 0, "first": None, "tiles": None, "choose": None}),
    ],
)
def test_optional_action_fields_the_server_takes_as_null_the_spec_allows(client, game, action):
    # The server reads an optional action field as missing or null; the spec said non-null (or required).
    assert _request_schema("/games/{id}/actions", "post").is_valid({"action": action})
    seats = [{"name": "ann"}, {"bot": "random"}, {"bot": "random"}]
    created = client.post("/games", json={"game": game, "seats": seats}).json
    seat = {"Authorization": f"Bearer {created['seats'][0]['token']}"}
    response = client.post(f"/games/{created['id']}/actions", json={"action": action}, headers=seat)
    assert response.status_code in (200, 409, 422), response.json
