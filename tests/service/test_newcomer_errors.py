"""The errors a newcomer meets first each say what to send instead."""

from __future__ import annotations

from tests.support.openapi import check_response


def auth(token: str) -> dict:
    return {"Authorization": f"Bearer {token}"}


def new_game(client) -> dict:
    created = client.post("/games", json={"game": "toy", "seats": [{"name": "ann"}, {"bot": "random"}]})
    assert created.status_code == 201, created.json
    return created.json


def new_tournament(client) -> dict:
    created = client.post("/tournaments", json={"game": "toy", "rounds": 1, "seed": "newcomer"})
    assert created.status_code == 201, created.json
    return created.json


def test_a_token_without_the_bearer_scheme_is_told_to_send_bearer(client):
    game = new_game(client)
    token = game["seats"][0]["token"]
    answer = client.get(f"/games/{game['id']}", headers={"Authorization": token})
    assert answer.status_code == 401 and answer.json["error"]["code"] == "unknown_token"
    assert "'Bearer <seat token>'" in answer.json["error"]["message"]
    assert token not in answer.get_data(as_text=True)
    check_response("/games/{id}", "get", answer)


def test_a_tournament_token_on_a_game_route_is_told_a_game_route_takes_a_seat_token(client):
    game, tournament = new_game(client), new_tournament(client)
    answer = client.get(f"/games/{game['id']}", headers=auth(tournament["organiser_token"]))
    assert answer.status_code == 401
    message = answer.json["error"]["message"]
    assert "this is a tournament's token; a game route takes a seat token" in message
    assert "GET /tournaments/{id}" in message


def test_a_seat_token_on_a_tournament_route_is_told_which_tokens_a_tournament_route_takes(client):
    game, tournament = new_game(client), new_tournament(client)
    start = f"/tournaments/{tournament['id']}/start"
    answer = client.post(start, headers=auth(game["seats"][0]["token"]))
    assert answer.status_code == 401
    assert (
        "this is a game's seat token; a tournament route takes the organiser's token" in answer.json["error"]["message"]
    )


def test_seats_given_as_strings_are_told_what_a_seat_is_once_in_the_message(client):
    answer = client.post("/games", json={"game": "toy", "seats": ["ann", "bob", "cy"]})
    assert answer.status_code == 400
    error = answer.json["error"]
    assert error["message"] == (
        'the request does not match its schema: seats.0: a seat is an object: {"name": "ann"} for a person,'
        ' {"bot": "heuristic"} for a bot, {} for an open seat'
    )
    assert "Invalid input type." not in answer.get_data(as_text=True)
    check_response("/games", "post", answer)


def test_a_schema_error_names_its_field_in_the_message(client):
    answer = client.post("/games", json={"game": "toy", "seats": [{"name": "ann"}, {"bot": "random"}], "seed": 7})
    assert answer.status_code == 400
    assert answer.json["error"]["message"].startswith("the request does not match its schema: seed: ")


def test_a_singular_path_is_a_json_404_pointing_at_the_plural_one(client):
    game = new_game(client)
    answer = client.get(f"/game/{game['id']}")
    assert answer.status_code == 404 and answer.is_json
    assert answer.json["error"]["message"] == f"no such path; did you mean /games/{game['id']}?"
    assert answer.json["error"]["details"] == {"did_you_mean": f"/games/{game['id']}"}
    assert client.get("/tournament/t-0123456789abcdef/standings").json["error"]["details"] == {
        "did_you_mean": "/tournaments/t-0123456789abcdef/standings"
    }


def test_a_path_that_is_nothing_like_the_apis_stays_a_plain_404(client):
    answer = client.get("/nothing/here")
    assert answer.status_code == 404 and answer.json["error"]["code"] == "not_found"
    assert "did_you_mean" not in answer.json["error"]["details"]
