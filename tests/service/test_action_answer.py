"""An action's answer carries the mover's view after the move when asked (`view=true`): typed, redacted for the
mover, equal to a GET then."""

from __future__ import annotations

from typing import Any
from urllib.parse import parse_qsl

import pytest

from domain.game import replay
from projections.game import game_view
from service.http import create_app
from service.http.schemas import ACTION_QUERY, plain_action_query
from tests.support.openapi import check_response

FOUR_HUMANS = {"game": "bloede-kuh", "seats": [{"name": f"p{i}"} for i in range(4)], "seed": "answer-1"}


def auth(token: str) -> dict[str, str]:
    return {"Authorization": f"Bearer {token}"}


@pytest.fixture
def table(client) -> dict[str, Any]:
    """A Blöde Kuh game of four human seats (hidden hands, no bots): its id and tokens."""
    created = client.post("/games", json=FOUR_HUMANS).json
    return {"id": created["id"], "tokens": [seat["token"] for seat in created["seats"]]}


def mover_and_view(client, table: dict[str, Any]) -> tuple[int, dict[str, Any]]:
    """Return the first seat to act and its view, read as a client reads it."""
    seat = client.get(f"/games/{table['id']}").json["to_act"][0]
    return seat, client.get(f"/games/{table['id']}", headers=auth(table["tokens"][seat])).json


def move(
    client, table: dict[str, Any], seat: int, view: dict[str, Any], query: str = "?view=true", **headers: str
) -> Any:
    body = {"action": view["legal_actions"][0], "expected_version": view["version"]}
    path = f"/games/{table['id']}/actions{query}"
    return client.post(path, json=body, headers={**auth(table["tokens"][seat]), **headers})


def test_the_answer_holds_the_movers_view_equal_to_a_get_at_that_version(client, table):
    compared = 0
    for _ in range(40):
        seat, view = mover_and_view(client, table)
        if view["status"] == "finished":
            break
        answer = move(client, table, seat, view)
        assert answer.status_code == 200, answer.json
        check_response("/games/{id}/actions", "post", answer)
        after = answer.json["view"]
        assert after["version"] == answer.json["version"] and after["you"] == seat
        now = client.get(f"/games/{table['id']}", headers=auth(table["tokens"][seat])).json
        if now["version"] == after["version"]:  # no system step came after the move
            assert after == now
            compared += 1
    assert compared > 10


def test_the_answer_shows_the_movers_hand_and_no_other(client, fake_services, table):
    seat, view = mover_and_view(client, table)
    answer = move(client, table, seat, view).json
    game = replay(fake_services.store.read(table["id"], upto=answer["version"]))
    assert answer["view"] == game_view(game, seat)
    assert answer["view"]["state"]["hand"] and "hands" not in answer["view"]["state"]
    assert "draw" not in answer["view"]["state"]


def test_a_retried_action_gets_the_first_answers_view_after_the_game_moved_on(client, fake_services, table):
    seat, view = mover_and_view(client, table)
    first = move(client, table, seat, view, **{"Idempotency-Key": "retry-answer-1"})
    for _ in range(3):  # the game moves on
        other, next_view = mover_and_view(client, table)
        move(client, table, other, next_view)
    # Another process (no view kept) answers the retry: it reads the game back to the first answer's version.
    elsewhere = create_app(fake_services).test_client()
    again = move(elsewhere, table, seat, view, **{"Idempotency-Key": "retry-answer-1"})
    assert again.status_code == 200 and again.json["replayed"] is True
    assert again.json["view"] == first.json["view"]
    assert again.json["version"] == first.json["version"] < client.get(f"/games/{table['id']}").json["version"]


@pytest.mark.parametrize("query", ["", "?view=false"])
def test_without_view_true_the_answer_is_the_events_alone(client, table, query):
    seat, view = mover_and_view(client, table)
    answer = move(client, table, seat, view, query=query)
    assert answer.status_code == 200 and "view" not in answer.json and answer.json["events"]


@pytest.mark.parametrize("query", ["?view=maybe", "?views=true"])
def test_a_bad_view_query_is_400_and_appends_nothing(client, table, query):
    seat, view = mover_and_view(client, table)
    answer = move(client, table, seat, view, query=query)
    assert answer.status_code == 400 and answer.json["error"]["code"] == "invalid_request"
    assert client.get(f"/games/{table['id']}").json["version"] == view["version"]


@pytest.mark.parametrize("raw", [b"view=true", b"view=false", b"view=1", b"view=yes", b"view=true&view=false"])
def test_the_plain_query_shortcut_loads_what_the_schema_loads_or_leaves_it_to_the_schema(raw):
    quick = plain_action_query(raw)
    assert quick is None or quick == ACTION_QUERY.load(dict(parse_qsl(raw.decode())))
