"""Tournaments bound to accounts: who may register, who holds a place, who may correct a table."""

from __future__ import annotations

from typing import Any

import pytest

from tests.support.openapi import check_response


def auth(token: str) -> dict[str, str]:
    return {"Authorization": f"Bearer {token}"}


def account(client, handle: str) -> dict[str, Any]:
    return client.post("/players", json={"handle": handle}).json


def create(client, **settings: Any) -> dict[str, Any]:
    body = {"game": "toy", "rounds": 1, "format": "round-robin", "table_sizes": [3], **settings}
    response = client.post("/tournaments", json=body)
    check_response("/tournaments", "post", response)
    assert response.status_code == 201, response.json
    return response.json


def register(client, tournament: dict[str, Any], body: dict[str, Any], headers: dict[str, str] | None = None) -> Any:
    response = client.post(f"/tournaments/{tournament['id']}/register", json=body, headers=headers or {})
    check_response("/tournaments/{tournament_id}/register", "post", response)
    return response


def test_an_account_registers_once_and_its_tournament_games_are_rated_under_its_id(client):
    ann = account(client, "ann")
    tournament = create(client)
    entered = register(client, tournament, {"player_token": ann["token"]})
    assert entered.status_code == 201 and entered.json["name"] == "ann" and entered.json["player"] == ann["id"]
    again = register(client, tournament, {"player_token": ann["token"]})
    assert again.status_code == 422 and again.json["error"]["code"] == "already_registered"
    organiser = auth(tournament["organiser_token"])
    for _ in range(2):
        register(client, tournament, {"bot": "random"}, organiser)
    assert client.post(f"/tournaments/{tournament['id']}/start", headers=organiser).status_code == 200
    mine = client.get(f"/tournaments/{tournament['id']}", headers=auth(entered.json["token"])).json
    for game in mine["your_games"]:
        seat = auth(game["token"])
        while (view := client.get(f"/games/{game['game_id']}", headers=seat).json)["status"] != "finished":
            client.post(f"/games/{game['game_id']}/actions", json={"action": view["legal_actions"][0]}, headers=seat)
    board = client.get("/leaderboards/toy").json
    assert {(row["player"], row["player_id"]) for row in board["players"]} == {("ann", ann["id"]), ("bot:random", None)}
    view = client.get(f"/tournaments/{tournament['id']}").json
    assert view["players"][0]["name"] == "ann" and view["players"][0]["player"] == ann["id"]


def test_anonymous_registrations_cannot_squat_a_tournament_by_code(client):
    # Finding: six anonymous registrations filled a 6-place tournament; the real player got 422 tournament_full.
    tournament = create(client, format="swiss", table_sizes=[3], max_players=6, registration="code")
    code = tournament["invitation_code"]
    assert code not in client.get(f"/tournaments/{tournament['id']}").get_data(as_text=True)
    for n in range(6):
        squat = register(client, tournament, {"name": f"squatter{n}"})
        assert squat.status_code == 422 and squat.json["error"]["code"] == "invitation_required"
        wrong = register(client, tournament, {"name": f"squatter{n}", "invitation_code": "guess"})
        assert wrong.status_code == 422
    real = account(client, "real")
    entered = register(client, tournament, {"player_token": real["token"], "invitation_code": code})
    assert entered.status_code == 201


def test_by_approval_entrants_wait_hold_no_place_and_the_organiser_admits_them(client):
    tournament = create(client, registration="approval", max_players=3)
    organiser = auth(tournament["organiser_token"])
    waiting = [
        register(client, tournament, {"player_token": account(client, h)["token"]}).json
        for h in ("amy", "ben", "cal", "dot")
    ]
    assert all(entry["status"] == "pending" for entry in waiting)
    for entry in waiting[:3]:
        approved = client.post(
            f"/tournaments/{tournament['id']}/approve", json={"entrant": entry["entrant"]}, headers=organiser
        )
        check_response("/tournaments/{tournament_id}/approve", "post", approved)
        assert approved.status_code == 200
    full = client.post(f"/tournaments/{tournament['id']}/approve", json={"entrant": 3}, headers=organiser)
    assert full.status_code == 422 and full.json["error"]["code"] == "tournament_full"
    stranger = client.post(
        f"/tournaments/{tournament['id']}/approve", json={"entrant": 3}, headers=auth(waiting[0]["token"])
    )
    assert stranger.status_code == 403
    statuses = [p["status"] for p in client.get(f"/tournaments/{tournament['id']}").json["players"]]
    assert statuses == ["active", "active", "active", "pending"]


def test_the_organiser_removes_an_entrant_before_the_start_and_the_place_is_free_again(client):
    # Finding: the organiser could not disqualify before the start.
    tournament = create(client, format="swiss", max_players=3)
    organiser = auth(tournament["organiser_token"])
    for name in ("squat1", "squat2", "squat3"):
        assert register(client, tournament, {"name": name}).status_code == 201
    full = register(client, tournament, {"player_token": account(client, "real")["token"]})
    assert full.status_code == 422 and full.json["error"]["code"] == "tournament_full"
    removed = client.post(
        f"/tournaments/{tournament['id']}/disqualify", json={"entrant": 0, "reason": "squatting"}, headers=organiser
    )
    check_response("/tournaments/{tournament_id}/disqualify", "post", removed)
    assert removed.status_code == 200 and removed.json["corrections"][-1]["by"] == "organiser"
    assert register(client, tournament, {"player_token": account(client, "real2")["token"]}).status_code == 201


def test_a_guest_entrant_may_not_take_a_bots_name(client):
    tournament = create(client)
    refused = register(client, tournament, {"name": "BOT:random"})
    assert refused.status_code == 422 and refused.json["error"]["code"] == "handle_reserved"


def played_round_robin(client, handles: tuple[str, ...], organiser: str | None) -> dict[str, Any]:
    """A two-round round robin of three accounts (the organiser's among them if named), its first table played."""
    people = {h: account(client, h) for h in handles}
    mine = {"player_token": people[organiser]["token"]} if organiser else {}
    tournament = create(client, rounds=2, **mine)
    headers = auth(tournament["organiser_token"])
    entrants = {h: register(client, tournament, {"player_token": p["token"]}).json for h, p in people.items()}
    assert client.post(f"/tournaments/{tournament['id']}/start", headers=headers).status_code == 200
    tokens, game_id = {}, ""
    for entrant in entrants.values():
        game = client.get(f"/tournaments/{tournament['id']}", headers=auth(entrant["token"])).json["your_games"][0]
        tokens[game["seat"]], game_id = auth(game["token"]), game["game_id"]
    while (game := client.get(f"/games/{game_id}").json)["status"] != "finished":
        seat = game["to_act"][0]
        legal = client.get(f"/games/{game_id}", headers=tokens[seat]).json["legal_actions"]
        client.post(f"/games/{game_id}/actions", json={"action": legal[0]}, headers=tokens[seat])
    return {"id": tournament["id"], "organiser": headers, "entrants": entrants}


@pytest.fixture
def organiser_plays(client) -> dict[str, Any]:
    """The organiser's own account and two others at the one table, its game played out."""
    return played_round_robin(client, ("org", "ann", "bob"), organiser="org")


def annul(client, tournament: dict[str, Any], headers: dict[str, str]) -> Any:
    # Round 1 is played; round 2 is in play, so round 1's table can be voided (a replay is for the round in play).
    body = {"round": 1, "table": 0, "reason": "a bad deal"}
    response = client.post(f"/tournaments/{tournament['id']}/annul", json=body, headers=headers)
    check_response("/tournaments/{tournament_id}/annul", "post", response)
    return response


def test_an_organiser_who_plays_cannot_annul_their_own_table_alone(client, organiser_plays):
    # Finding: an organiser who plays annulled and replayed their own table 14 times.
    refused = annul(client, organiser_plays, organiser_plays["organiser"])
    assert refused.status_code == 422 and refused.json["error"]["code"] == "organiser_at_table"
    view = client.get(f"/tournaments/{organiser_plays['id']}").json
    assert view["corrections"] == [] and view["rounds"][0]["tables"][0]["places"] is not None


def test_every_entrant_at_the_table_agreeing_may_annul_it_and_the_correction_says_who_asked(client, organiser_plays):
    entrants = organiser_plays["entrants"]
    for who in ("org", "ann"):
        asked = annul(client, organiser_plays, auth(entrants[who]["token"]))
        assert asked.status_code == 200 and asked.json["corrections"] == []  # not yet: bob has not asked
    done = annul(client, organiser_plays, auth(entrants["bob"]["token"]))
    assert done.status_code == 200
    correction = done.json["corrections"][-1]
    assert correction["type"] == "ResultAnnulled" and correction["asked_by"] == "entrants"
    assert correction["agreed"] == sorted(e["entrant"] for e in entrants.values())
    assert done.json["rounds"][0]["tables"][0]["void"] is True


def test_an_organiser_who_does_not_sit_at_a_table_annuls_it_alone_and_is_named_as_asking(client):
    tournament = played_round_robin(client, ("cyd", "dan", "eve"), organiser=None)
    done = annul(client, tournament, tournament["organiser"])
    assert done.status_code == 200 and done.json["corrections"][-1]["asked_by"] == "organiser"


def test_another_organiser_may_annul_the_table_the_organiser_sits_at_but_not_their_own(client, organiser_plays):
    deputy = account(client, "deputy")
    added = client.post(
        f"/tournaments/{organiser_plays['id']}/organisers",
        json={"player_token": deputy["token"]},
        headers=organiser_plays["organiser"],
    )
    check_response("/tournaments/{tournament_id}/organisers", "post", added)
    assert added.status_code == 201 and added.json["organiser"] == 1 and added.json["player"] == deputy["id"]
    co = auth(added.json["token"])
    withdraw = client.post(f"/tournaments/{organiser_plays['id']}/withdraw", json={"entrant": 1}, headers=co)
    assert withdraw.status_code == 403  # a co-organiser's token annuls, and does nothing else of the organiser's
    done = annul(client, organiser_plays, co)
    assert done.status_code == 200 and done.json["corrections"][-1]["asked_by"] == "organiser:1"


def test_a_co_organiser_who_plays_cannot_annul_their_own_table_alone(client):
    people = {h: account(client, h) for h in ("amy", "ben", "col")}
    tournament = create(client, rounds=2)
    headers = auth(tournament["organiser_token"])
    co = client.post(
        f"/tournaments/{tournament['id']}/organisers", json={"player_token": people["amy"]["token"]}, headers=headers
    ).json
    entrants = [register(client, tournament, {"player_token": p["token"]}).json for p in people.values()]
    assert client.post(f"/tournaments/{tournament['id']}/start", headers=headers).status_code == 200
    tokens, game_id = {}, ""
    for entrant in entrants:
        game = client.get(f"/tournaments/{tournament['id']}", headers=auth(entrant["token"])).json["your_games"][0]
        tokens[game["seat"]], game_id = auth(game["token"]), game["game_id"]
    while (game := client.get(f"/games/{game_id}").json)["status"] != "finished":
        legal = client.get(f"/games/{game_id}", headers=tokens[game["to_act"][0]]).json["legal_actions"]
        client.post(f"/games/{game_id}/actions", json={"action": legal[0]}, headers=tokens[game["to_act"][0]])
    refused = annul(client, {"id": tournament["id"]}, auth(co["token"]))
    assert refused.status_code == 422 and refused.json["error"]["code"] == "organiser_at_table"
    assert annul(client, {"id": tournament["id"]}, headers).status_code == 200  # the organiser does not sit there
