"""Each game played to the end over HTTP: one human seat (a generic client) against bots."""

from __future__ import annotations

import random

import pytest

from domain.chance import seed_of
from domain.game import replay
from tests.support.openapi import check_response

SEATS = {"life-is-life": 4, "animals-on-board": 3, "bloede-kuh": 4, "zop-zoo": 3}


def play_as_generic_client(client, game_type: str, seats: int, seed: str) -> tuple[dict, list[dict]]:
    """Create a game, then post random items of the human's legal_actions, verbatim, until it ends."""
    bots = [{"bot": "heuristic"} if i % 2 else {"bot": "random"} for i in range(seats - 1)]
    response = client.post("/games", json={"game": game_type, "seats": [{"name": "ann"}, *bots], "seed": seed})
    check_response("/games", "post", response)
    game_id, token = response.json["id"], response.json["seats"][0]["token"]
    headers = {"Authorization": f"Bearer {token}"}
    rng = random.Random(seed)
    views = []
    for _ in range(5000):
        view = client.get(f"/games/{game_id}", headers=headers)
        check_response("/games/{id}", "get", view)
        views.append(view.json)
        if view.json["status"] == "finished":
            return view.json, views
        assert view.json["to_act"] == [0] or 0 in view.json["to_act"], "bots must have moved before answering"
        action = rng.choice(view.json["legal_actions"])
        posted = client.post(
            f"/games/{game_id}/actions",
            json={"action": action, "expected_version": view.json["version"]},
            headers=headers,
        )
        check_response("/games/{id}/actions", "post", posted)
        assert posted.status_code == 200, posted.json
    raise AssertionError("the game did not end")


@pytest.mark.parametrize("game_type", sorted(SEATS))
def test_a_human_plays_a_whole_game_against_bots_over_http(client, fake_services, game_type):
    final, _ = play_as_generic_client(client, game_type, SEATS[game_type], seed=f"http-{game_type}")
    stored = fake_services.store.read(final["id"])
    assert replay(stored) == fake_services.repository.load(final["id"])  # the cache equals a fresh replay
    assert final["result"]["winners"]
    assert sorted(final["result"]["places"])[0] == 1
    assert seed_of(final["seed"]) == f"http-{game_type}"
    log = client.get(f"/games/{final['id']}/events?limit=10000")
    check_response("/games/{id}/events", "get", log)
    events = log.json["events"]
    assert [e["seq"] for e in events] == list(range(1, final["version"] + 1))
    assert events[-1]["type"] == "GameEnded"


def test_a_life_is_life_game_is_on_the_record_event_by_event(client):
    final, views = play_as_generic_client(client, "life-is-life", 4, seed="record")
    versions = [v["version"] for v in views]
    assert versions == sorted(versions)
    events = client.get(f"/games/{final['id']}/events?limit=10000").json["events"]
    trades = [e for e in events if e["type"] == "RowTraded"]
    human_commands = [e for e in events if e.get("command", {}) and e["command"].get("seat") == 0]
    assert trades and human_commands
    assert {e["type"] for e in events} >= {"GameCreated", "SeatTaken", "GameStarted", "PhaseDealt", "GameEnded"}


def test_bloede_kuh_human_answers_out_of_turn_choices(client):
    """The human must answer pig choices and horse passes when it is not their turn."""
    answered = set()
    for attempt in range(20):
        _, views = play_as_generic_client(client, "bloede-kuh", 4, seed=f"kuh-{attempt}")
        for view in views:
            for action in view["legal_actions"]:
                if action["type"] in ("take", "pass_card"):
                    answered.add(action["type"])
        if answered == {"take", "pass_card"}:
            return
    raise AssertionError(f"only saw {answered}")
