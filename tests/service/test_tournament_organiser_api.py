"""The organiser's and auditor's tournament routes on the toy game: answers, tokens and every bad input."""

from __future__ import annotations

from typing import Any

import pytest

from tests.support.openapi import check_response


def auth(token: str) -> dict[str, str]:
    return {"Authorization": f"Bearer {token}"}


@pytest.fixture
def started(client) -> dict[str, Any]:
    """A Swiss toy tournament of two humans and four bots, round 1 in play (the humans' games wait on them)."""
    created = client.post("/tournaments", json={"game": "toy", "rounds": 2, "table_sizes": [3], "seed": "org"}).json
    organiser = auth(created["organiser_token"])
    humans = [client.post(f"/tournaments/{created['id']}/register", json={"name": n}).json for n in ("ann", "bob")]
    for _ in range(4):
        client.post(f"/tournaments/{created['id']}/register", json={"bot": "random"}, headers=organiser)
    assert client.post(f"/tournaments/{created['id']}/start", headers=organiser).status_code == 200
    return {"id": created["id"], "organiser": organiser, "ann": humans[0], "bob": humans[1]}


def post(client, started: dict[str, Any], route: str, json: Any, headers: dict[str, str] | None = None) -> Any:
    response = client.post(f"/tournaments/{started['id']}/{route}", json=json, headers=headers or {})
    check_response(f"/tournaments/{{tournament_id}}/{route}", "post", response)
    return response


@pytest.mark.parametrize(
    ("body", "who", "status", "code"),
    [
        ({}, None, 401, "missing_token"),
        ({}, "organiser", 422, "missing_entrant"),
        ({"entrant": 1}, "ann", 403, "not_organiser"),
        ({"entrant": "x"}, "organiser", 400, "invalid_request"),
        ({"reason": ""}, "ann", 400, "invalid_request"),
        ({"entrant": 99}, "organiser", 422, "tournament_error"),
        ({"nope": 1}, "ann", 400, "invalid_request"),
    ],
)
def test_bad_withdrawals_are_refused_and_change_nothing(client, started, body, who, status, code):
    headers = {"ann": auth(started["ann"]["token"]), "organiser": started["organiser"]}.get(who or "", {})
    before = client.get(f"/tournaments/{started['id']}").json["version"]
    response = post(client, started, "withdraw", body, headers)
    assert (response.status_code, response.json["error"]["code"]) == (status, code)
    assert client.get(f"/tournaments/{started['id']}").json["version"] == before


def test_an_entrant_withdraws_once_and_the_organiser_disqualifies_with_a_reason(client, started):
    ann = auth(started["ann"]["token"])
    assert post(client, started, "withdraw", {"reason": "tired"}, ann).status_code == 200
    again = post(client, started, "withdraw", {}, ann)
    assert again.status_code == 422 and again.json["error"]["code"] == "not_playing"
    bob = started["bob"]["entrant"]
    assert post(client, started, "disqualify", {"entrant": bob}, started["organiser"]).status_code == 400
    assert post(client, started, "disqualify", {"entrant": bob, "reason": "x"}, ann).status_code == 403
    done = post(client, started, "disqualify", {"entrant": bob, "reason": "abuse"}, started["organiser"])
    assert done.status_code == 200
    line = next(s for s in done.json["standings"] if s["entrant"] == bob)
    assert line["status"] == "disqualified" and line["rank"] == len(done.json["players"])
    assert [c["reason"] for c in done.json["corrections"]] == ["tired", "abuse"]


def test_annulments_need_the_organiser_a_reason_and_a_recorded_result(client, started):
    view = client.get(f"/tournaments/{started['id']}").json
    organiser = started["organiser"]
    unplayed = next(t for t in view["rounds"][0]["tables"] if t["places"] is None)
    cases = [
        ({"round": 1, "table": 0}, organiser, 400),
        ({"round": 9, "table": 0, "reason": "x"}, auth(started["ann"]["token"]), 403),  # not a table of hers
        ({"round": 9, "table": 0, "reason": "x"}, organiser, 422),
        ({"round": 1, "table": unplayed["table"], "reason": "x"}, organiser, 422),
        ({"round": 1, "table": True, "reason": "x"}, organiser, 400),
    ]
    for body, headers, status in cases:
        assert post(client, started, "annul", body, headers).status_code == status, body


def test_a_filtered_listing_pages_through_every_match_once_while_tournaments_are_created(client, started):
    made = [client.post("/tournaments", json={"game": "toy", "rounds": 1}).json["id"] for _ in range(5)]
    seen: list[str] = []
    cursor: int | None = 0
    while cursor is not None:
        page = client.get(f"/tournaments?limit=2&status=registering&cursor={cursor}").json
        seen += [t["id"] for t in page["tournaments"]]
        client.post("/tournaments", json={"game": "toy", "rounds": 1})  # newer than the pages still to come
        cursor = page["next"]
    assert seen[:2] == made[:2:-1] and seen[2:] == made[2::-1]  # the first page, then the rest; the active one left out


def test_lists_standings_and_pairings(client, started):
    for _ in range(2):
        client.post("/tournaments", json={"game": "toy", "rounds": 1})
    page = client.get("/tournaments?limit=2")
    check_response("/tournaments", "get", page)
    assert len(page.json["tournaments"]) == 2 and page.json["next"] is not None
    rest = client.get(f"/tournaments?limit=2&cursor={page.json['next']}").json
    assert [t["id"] for t in rest["tournaments"]] == [started["id"]] and rest["next"] is None
    active = client.get("/tournaments?status=active&game=toy").json["tournaments"]
    assert [t["id"] for t in active] == [started["id"]]
    assert client.get("/tournaments?status=sleeping").status_code == 400
    assert client.get("/tournaments?game=chess").json["tournaments"] == []
    standings = client.get(f"/tournaments/{started['id']}/standings")
    check_response("/tournaments/{tournament_id}/standings", "get", standings)
    pairings = client.get(f"/tournaments/{started['id']}/rounds/1/pairings")
    check_response("/tournaments/{tournament_id}/rounds/{round_number}/pairings", "get", pairings)
    assert {s["name"] for t in pairings.json["tables"] for s in t["seats"]} >= {"ann", "bob"}
    assert all(t["game_url"].endswith(t["game_id"]) for t in pairings.json["tables"])
    missing = client.get(f"/tournaments/{started['id']}/rounds/2/pairings")
    assert missing.status_code == 404 and missing.json["error"]["code"] == "round_not_found"
    assert client.get("/tournaments/t-0000000000000000/standings").status_code == 404


@pytest.mark.parametrize("name", ["=HYPERLINK(1)", " =HYPERLINK(1)", "\uff1dHYPERLINK(1)", "\u3000\uff20SUM(A1)"])
def test_a_formula_in_a_name_is_not_run_by_the_spreadsheet(client, name):
    created = client.post("/tournaments", json={"game": "toy", "rounds": 1}).json
    registered = client.post(f"/tournaments/{created['id']}/register", json={"name": name})
    assert registered.status_code == 201
    sheet = client.get(f"/tournaments/{created['id']}/standings", headers={"Accept": "text/csv"})
    assert "'" + name in sheet.get_data(as_text=True)


def test_the_audit_of_a_finished_tournament_matches_its_schema(client):
    created = client.post("/tournaments", json={"game": "toy", "rounds": 2, "format": "round-robin"}).json
    for _ in range(3):
        client.post(
            f"/tournaments/{created['id']}/register", json={"bot": "random"}, headers=auth(created["organiser_token"])
        )
    client.post(f"/tournaments/{created['id']}/start", headers=auth(created["organiser_token"]))
    report = client.get(f"/tournaments/{created['id']}/audit")
    check_response("/tournaments/{tournament_id}/audit", "get", report)
    assert report.json["ok"] is True and report.json["games"] == 2
