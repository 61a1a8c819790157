"""Player accounts over HTTP: a handle registered once, its token shown once, seats bound to accounts."""

from __future__ import annotations

import json

import pytest

from domain.audit import audit_export
from service.cli import main
from service.errors import HandleTaken
from tests.support.openapi import check_response


def register(client, handle: str) -> dict:
    response = client.post("/players", json={"handle": handle})
    check_response("/players", "post", response)
    assert response.status_code == 201, response.json
    return response.json


def test_registering_a_handle_answers_its_id_and_a_token_stored_only_as_a_hash(client, fake_services):
    ann = register(client, "Ann")
    assert ann["handle"] == "Ann" and ann["token"].startswith(ann["id"] + ".")
    stored = fake_services.redis.hgetall(f"{fake_services.prefix}:player:{ann['id']}")
    assert ann["token"].encode() not in stored.values()
    assert fake_services.players.authenticate(ann["token"]).id == ann["id"]
    looked_up = client.get(f"/players/{ann['id']}")
    check_response("/players/{player_id}", "get", looked_up)
    assert looked_up.json == {"id": ann["id"], "handle": "Ann"}


@pytest.mark.parametrize("again", ["Ann", "ANN", "ａｎｎ"])
def test_a_handle_taken_in_any_casing_is_a_409_that_never_hands_out_the_token_again(client, again):
    first = register(client, "ann")
    response = client.post("/players", json={"handle": again})
    check_response("/players", "post", response)
    assert response.status_code == 409 and response.json["error"]["code"] == "handle_taken"
    assert first["token"] not in response.get_data(as_text=True)


@pytest.mark.parametrize(("handle", "code"), [("асе", "handle_confusable"), ("bot:heuristic", "handle_reserved")])
def test_a_look_alike_or_reserved_handle_is_a_422(client, handle, code):
    register(client, "ace")
    response = client.post("/players", json={"handle": handle})
    check_response("/players", "post", response)
    assert response.status_code == 422 and response.json["error"]["code"] == code


def test_an_unknown_player_is_a_404(client):
    response = client.get("/players/p-0123456789abcdef")
    check_response("/players/{player_id}", "get", response)
    assert response.status_code == 404 and response.json["error"]["code"] == "player_not_found"


def test_a_player_token_binds_the_created_seat_to_the_account_and_the_chain_holds_its_id_not_its_handle(
    client, fake_services
):
    ann = register(client, "Ann")
    created = client.post("/games", json={"game": "toy", "seats": [{"player_token": ann["token"]}, {"bot": "random"}]})
    check_response("/games", "post", created)
    seat = created.json["seats"][0]
    assert seat["name"] == "Ann" and seat["player"] == ann["id"] and seat["token"] != ann["token"]
    taken = [e for e in fake_services.store.read(created.json["id"]) if e.type == "SeatTaken"][0]
    assert taken.data["player"] == ann["id"] and taken.data["name"] is None
    view = client.get(f"/games/{created.json['id']}", headers={"Authorization": f"Bearer {seat['token']}"})
    check_response("/games/{id}", "get", view)
    assert view.json["seats"][0] == {"seat": 0, "name": "Ann", "bot": None, "filled": True, "player": ann["id"]}


def test_a_player_token_on_join_binds_the_joined_seat(client, fake_services):
    bob = register(client, "bob")
    created = client.post("/games", json={"game": "toy", "seats": [{"name": "guest"}, {}]}).json
    joined = client.post(f"/games/{created['id']}/join", json={"player_token": bob["token"]})
    check_response("/games/{id}/join", "post", joined)
    assert joined.status_code == 201 and joined.json["player"] == bob["id"] and joined.json["name"] == "bob"
    assert fake_services.repository.load(created["id"]).seats[1].player == bob["id"]


@pytest.mark.parametrize("token", ["p-0123456789abcdef." + "0" * 32, "nonsense"])
def test_an_unknown_player_token_is_a_401_and_creates_nothing(client, fake_services, token):
    response = client.post("/games", json={"game": "toy", "seats": [{"player_token": token}, {"bot": "random"}]})
    check_response("/games", "post", response)
    assert response.status_code == 401 and response.json["error"]["code"] == "unknown_player_token"
    assert client.get("/games").json["games"] == []


@pytest.mark.parametrize("name", ["bot:heuristic", "BOT:random", "bоt:heuristic"])
def test_a_guest_may_not_take_a_bots_name_on_create_or_join(client, name):
    created = client.post("/games", json={"game": "toy", "seats": [{"name": name}, {"bot": "random"}]})
    check_response("/games", "post", created)
    assert created.status_code == 422 and created.json["error"]["code"] == "handle_reserved"
    game = client.post("/games", json={"game": "toy", "seats": [{"name": "ann"}, {}]}).json
    joined = client.post(f"/games/{game['id']}/join", json={"name": name})
    check_response("/games/{id}/join", "post", joined)
    assert joined.status_code == 422 and joined.json["error"]["code"] == "handle_reserved"


def test_a_guest_still_plays_by_name(client):
    created = client.post("/games", json={"game": "toy", "seats": [{"name": "ann"}, {"bot": "random"}]})
    assert created.status_code == 201 and created.json["seats"][0]["name"] == "ann"
    assert "player" not in created.json["seats"][0]


def test_an_account_games_export_names_the_account_by_id_and_audits_with_its_header(
    client, fake_services, tmp_path, capsys
):
    ann = register(client, "Ann")
    created = client.post("/games", json={"game": "toy", "seats": [{"player_token": ann["token"]}, {"bot": "random"}]})
    token = {"Authorization": f"Bearer {created.json['seats'][0]['token']}"}
    game_id = created.json["id"]
    while (view := client.get(f"/games/{game_id}", headers=token).json)["status"] != "finished":
        client.post(f"/games/{game_id}/actions", json={"action": view["legal_actions"][0]}, headers=token)
    exported = client.get(f"/games/{game_id}/export")
    check_response("/games/{id}/export", "get", exported)
    header, events = exported.json["header"], exported.json["events"]
    assert header["seats"][0] == {"seat": 0, "name": None, "bot": None, "player": ann["id"]}
    assert "Ann" not in exported.get_data(as_text=True)  # the handle is not in the chain, nor in its file
    assert audit_export(header, events).ok
    assert not audit_export({**header, "seats": [{**header["seats"][0], "player": "p-0000000000000000"}]}, events).ok
    path = tmp_path / f"{game_id}.ndjson"
    path.write_text("".join(json.dumps(line) + "\n" for line in (header, *events)))
    capsys.readouterr()
    assert main(["audit", str(path)]) == 0
    assert f"seats player {ann['id']}, bot:random" in capsys.readouterr().out


def test_a_lost_race_for_a_handle_leaves_no_second_account(fake_services):
    first, _ = fake_services.players.register("ann")
    with pytest.raises(HandleTaken):
        fake_services.players.register("Ann")
    keys = {key.decode() for key in fake_services.redis.keys(f"{fake_services.prefix}:player:*")}
    assert keys == {f"{fake_services.prefix}:player:{first.id}"}


def test_a_retried_create_and_join_of_an_account_seat_answer_with_its_handle(client):
    # The kept first answers hold the account's id only (tests/service/test_erasure.py looks for the handle).
    ann = register(client, "Quokka")
    create = {"game": "toy", "seats": [{"player_token": ann["token"]}, {"bot": "random"}]}
    created = [client.post("/games", json=create, headers={"Idempotency-Key": "c" * 30}).json for _ in range(2)]
    assert created[0]["seats"] == created[1]["seats"] and created[1]["seats"][0]["name"] == "Quokka"
    game = client.post("/games", json={"game": "toy", "seats": [{"name": "guest"}, {}]}).json
    join = {"player_token": ann["token"]}
    joined = [
        client.post(f"/games/{game['id']}/join", json=join, headers={"Idempotency-Key": "j" * 30}).json
        for _ in range(2)
    ]
    assert joined[0] == joined[1] and joined[1]["name"] == "Quokka" and joined[1]["player"] == ann["id"]


def test_the_lobby_names_an_accounts_seat_by_its_handle(client):
    ann = register(client, "Ann")
    created = client.post("/games", json={"game": "toy", "seats": [{"player_token": ann["token"]}, {"bot": "random"}]})
    listed = client.get("/games").json["games"]
    line = next(game for game in listed if game["id"] == created.json["id"])
    assert line["seats"][0]["name"] == "Ann" and line["seats"][0]["player"] == ann["id"]
