"""Move clocks: a human seat whose time runs out is stood in for, once, by a recorded timeout."""

from __future__ import annotations

import json
import time

import pytest

from domain.audit import audit
from domain.canonical import canonical_json
from service.bootstrap import build
from service.errors import VersionConflict
from service.http import create_app
from tests.support.services import on_every_store

redis_client = on_every_store()

CLOCK = {"clock": {"move_s": 1}}


def clocked_game(services, seed: str):
    """A toy game of ann against a bot, with a one-second move clock; it waits on ann."""
    game, tokens = services.games.create("toy", [{"name": "ann"}, {"bot": "random"}], CLOCK, seed=seed)
    game = services.repository.load(game.id)
    assert game.to_act == {0}
    return game


def run_out(services, game_id: str) -> None:
    """Fake the clock: the game's deadline is now in the past."""
    services.redis.zadd(services.due.keys.of(game_id), {game_id: 0})


def timeouts(services, game_id: str) -> list[int]:
    return [e.data["seat"] for e in services.store.read(game_id) if e.type == "TimedOut"]


def test_a_human_waited_on_is_marked_with_the_clocks_deadline(redis_client, prefix):
    services = build(redis_client, prefix, inline_jobs=True)
    now_ms = int(float(redis_client.time()[0]) * 1000)
    game = clocked_game(services, "c1")
    assert now_ms + 1000 <= services.due.pending()[game.id] <= now_ms + 1000 + 2000


def test_a_human_whose_clock_ran_out_is_stood_in_for_and_gets_the_next_turn_back(redis_client, prefix):
    services = build(redis_client, prefix, inline_jobs=True)
    game = clocked_game(services, "c2")
    run_out(services, game.id)
    assert services.steward().run_once() == 1
    after = services.repository.load(game.id)
    assert timeouts(services, game.id) == [0]
    # the bot answered at once; ann has her seat, her turn and her clock again
    assert after.to_act == {0} and after.seats[0].name == "ann"
    assert game.id in services.due.pending()
    with pytest.raises(VersionConflict):  # a late move with the old expected version
        services.games.act(game.id, 0, {"type": "add", "n": 1}, expected_version=game.version)
    services.games.act(game.id, 0, {"type": "add", "n": 1}, expected_version=after.version)
    assert timeouts(services, game.id) == [0]


def test_a_game_played_by_its_stand_in_to_the_end_audits(redis_client, prefix):
    services = build(redis_client, prefix, inline_jobs=True)
    game = clocked_game(services, "c3")
    steward = services.steward()
    for _ in range(50):
        if services.repository.load(game.id).status == "finished":
            break
        run_out(services, game.id)
        steward.run_once()
    assert services.repository.load(game.id).status == "finished"
    assert len(timeouts(services, game.id)) >= 2
    assert services.due.pending() == {}
    assert audit(services.store.read_raw(game.id)).ok


def test_a_move_after_the_claim_makes_the_timeout_stale(redis_client, prefix):
    services = build(redis_client, prefix, inline_jobs=True)
    game = clocked_game(services, "c4")
    run_out(services, game.id)
    [(claimed, lease)] = services.due.claim(lease_ms=60_000)
    services.games.act(game.id, 0, {"type": "add", "n": 1})  # ann moves just in time
    outcome = services.games.resume(game.id, clock_out=lambda: services.due.holds(game.id, lease))
    assert outcome == "idle"
    assert timeouts(services, game.id) == []
    assert game.id in services.due.pending()  # her new deadline stands


def test_a_job_never_times_a_human_out(redis_client, prefix):
    services = build(redis_client, prefix, inline_jobs=True)
    game = clocked_game(services, "c5")
    assert services.games.step(game.id, game.version) == "idle"
    assert timeouts(services, game.id) == []


# The toy game is outside openapi.yaml; a real game's log is checked against it (the
# spec-checking client), which is where a live fuzz run found `TimedOut` missing.
@pytest.mark.parametrize(
    "game, seats",
    [
        ("toy", [{"name": "ann"}, {"bot": "random"}]),
        ("animals-on-board", [{"name": "ann"}, {"bot": "random"}]),
    ],
)
def test_a_seat_that_does_not_move_is_stood_in_for_after_move_s_over_http(fake_services, game, seats):
    """Real time, embedded mode: the steward thread is the timer (polled with a deadline, never slept on)."""
    client = create_app(fake_services).test_client()
    created = client.post("/games", json={"game": game, "seats": seats, "options": CLOCK}).get_json()
    game_id, token = created["id"], created["seats"][0]["token"]
    headers = {"Authorization": f"Bearer {token}"}
    first = client.get(f"/games/{game_id}", headers=headers).get_json()
    assert first["clock"] == {"move_s": 1} and 0 in first["to_act"]
    stop = fake_services.steward().start(interval=0.05)
    try:
        deadline = time.monotonic() + 30
        while not timeouts(fake_services, game_id) and time.monotonic() < deadline:
            time.sleep(0.05)
    finally:
        stop.set()
    assert timeouts(fake_services, game_id)
    late = client.post(
        f"/games/{game_id}/actions",
        headers=headers,
        json={"action": first["legal_actions"][0], "expected_version": first["version"]},
    )
    assert late.status_code == 409
    log = client.get(f"/games/{game_id}/events", headers=headers).get_json()
    stood_in = [e for e in log["events"] if e.get("command", {}).get("kind") == "timeout"]
    assert stood_in and stood_in[0]["type"] == "TimedOut" and stood_in[0]["data"] == {"seat": 0}
    assert stood_in[0]["command"].get("redacted")
    spectated = client.get(f"/games/{game_id}/events").get_json()
    assert any(e["type"] == "TimedOut" for e in spectated["events"])
    assert client.get(f"/games/{game_id}?at={stood_in[0]['seq']}", headers=headers).status_code == 200


def test_a_clock_out_of_range_is_a_422(client):
    answer = client.post(
        "/games",
        json={"game": "toy", "seats": [{"name": "ann"}, {"bot": "random"}], "options": {"clock": {"move_s": 0}}},
    )
    assert answer.status_code == 422


def test_a_stand_ins_move_reaches_no_other_seat_nor_a_spectator_over_http(redis_client, prefix):
    """Animals on Board: a stand-in keeps a tile for a seat; its choice stays that seat's alone during play."""
    services = build(redis_client, prefix, inline_jobs=True)
    client = create_app(services).test_client()
    created = client.post(
        "/games",
        json={"game": "animals-on-board", "seats": [{"name": "ann"}, {"name": "bob"}], "options": CLOCK},
    ).get_json()
    game_id, tokens = created["id"], [seat["token"] for seat in created["seats"]]
    steward = services.steward()
    for _ in range(12):
        run_out(services, game_id)
        steward.run_once()
    stood_in = [
        (e["command"]["seat"], canonical_json(e["command"]["action"]))
        for e in services.store.read_raw(game_id)
        if (e.get("command") or {}).get("kind") == "timeout"
    ]
    assert services.repository.load(game_id).status != "finished" and stood_in
    for viewer, token in ((0, tokens[0]), (1, tokens[1]), (None, None)):
        headers = {"Authorization": f"Bearer {token}"} if token else {}
        shown = [
            client.get(f"/games/{game_id}/events?limit=1000", headers=headers).get_data(as_text=True),
            client.get(f"/games/{game_id}/export", headers=headers).get_data(as_text=True),
            client.get(f"/games/{game_id}", headers=headers).get_data(as_text=True),
        ]
        own = {action for seat, action in stood_in if seat == viewer}
        for seat, action in stood_in:
            if seat != viewer and action not in own:
                assert not any(json.dumps(json.loads(action)) in text or action in text for text in shown)
