"""Several API processes on one store, each with its own cache: what one hands out, the others honour at once."""

from __future__ import annotations

from service.bootstrap import build
from service.http import create_app
from tests.support.services import on_every_store

redis_client = on_every_store()


def auth(token: str) -> dict:
    return {"Authorization": f"Bearer {token}"}


def test_a_seat_joined_through_one_server_is_known_to_another_that_cached_the_game_before(
    services, redis_client, prefix
):
    first = create_app(services).test_client()
    second = create_app(build(redis_client, prefix, inline_jobs=True)).test_client()
    seats = [{"name": "ann"}, {}, {"bot": "heuristic"}]
    game_id = first.post("/games", json={"game": "life-is-life", "seats": seats, "seed": "late"}).json["id"]
    assert second.get(f"/games/{game_id}").json["status"] == "waiting"  # cached there with seat 1 open
    token = first.post(f"/games/{game_id}/join", json={"name": "bob"}).json["token"]
    # bob's next requests reach the server that has not seen his join.
    export = second.get(f"/games/{game_id}/export", headers=auth(token))
    assert export.status_code == 200, export.json
    view = first.get(f"/games/{game_id}", headers=auth(token)).json
    assert view["status"] == "active"
    action = view["legal_actions"][0] if view["legal_actions"] else {"type": "knock"}
    acted = second.post(f"/games/{game_id}/actions", json={"action": action}, headers=auth(token))
    assert acted.status_code != 401, acted.json
    assert acted.status_code == 200 or acted.json["error"]["code"] == "not_your_turn", acted.json
