"""Live streams: a game's events as Server-Sent Events, redacted for the caller, resumable, closing at the end."""

from __future__ import annotations

import threading
import uuid
from collections.abc import Iterator
from typing import Any

import fakeredis
import orjson

from service.bootstrap import build
from service.http import create_app
from tests.support.openapi import check_response


def auth(token: str) -> dict[str, str]:
    return {"Authorization": f"Bearer {token}"}


def sse(chunks: Iterator[bytes]) -> Iterator[dict[str, Any]]:
    """Parse a text/event-stream into its messages, views included (comments and `retry` left out)."""
    buffer = b""
    for chunk in chunks:
        buffer += chunk
        while b"\n\n" in buffer:
            block, buffer = buffer.split(b"\n\n", 1)
            fields = dict(line.split(b": ", 1) for line in block.split(b"\n") if b": " in line and line[:1] != b":")
            if b"data" in fields:
                yield {
                    "id": int(fields[b"id"]) if b"id" in fields else None,  # a view has none
                    "event": fields[b"event"].decode(),
                    "data": orjson.loads(fields[b"data"]),
                }


def test_a_finished_game_streams_every_event_with_its_version_and_closes_after_the_end(client):
    game = client.post("/games", json={"game": "toy", "seats": [{"bot": "random"}, {"bot": "random"}]}).json
    response = client.get(f"/games/{game['id']}/stream")
    assert response.status_code == 200 and response.mimetype == "text/event-stream"
    messages = list(sse(response.response))
    version = client.get(f"/games/{game['id']}").json["version"]
    assert [m["id"] for m in messages] == list(range(1, version + 1))
    assert messages[-1]["event"] == "GameEnded"


def test_a_stream_resumes_after_the_last_event_id(client):
    game = client.post("/games", json={"game": "toy", "seats": [{"bot": "random"}, {"bot": "random"}]}).json
    resumed = list(sse(client.get(f"/games/{game['id']}/stream", headers={"Last-Event-ID": "5"}).response))
    assert resumed[0]["id"] == 6
    by_query = list(sse(client.get(f"/games/{game['id']}/stream?after=5").response))
    assert [m["id"] for m in by_query] == [m["id"] for m in resumed]


def test_a_seat_sees_a_move_as_it_is_made_without_asking_again(client):
    game = client.post("/games", json={"game": "toy", "seats": [{"name": "ann"}, {"name": "bob"}]}).json
    ann, bob = (seat["token"] for seat in game["seats"])
    version = client.get(f"/games/{game['id']}").json["version"]
    stream = sse(client.get(f"/games/{game['id']}/stream?after={version}", headers=auth(bob)).response)

    def move() -> None:
        client.post(f"/games/{game['id']}/actions", json={"action": {"type": "add", "n": 2}}, headers=auth(ann))

    mover = threading.Thread(target=move)
    mover.start()
    message = next(stream)  # blocks on the stream until the move is appended
    mover.join()
    assert message["id"] == version + 1
    assert message["event"] == "Added"
    assert message["data"]["command"]["redacted"] is True  # ann's command is hers; bob sees its effects


def test_a_spectator_stream_shows_no_hand(client):
    game = client.post(
        "/games", json={"game": "bloede-kuh", "seats": [{"name": "ann"}, {"bot": "random"}, {"bot": "random"}]}
    ).json
    ann = game["seats"][0]["token"]
    hand = client.get(f"/games/{game['id']}", headers=auth(ann)).json["state"]["hand"]
    version = client.get(f"/games/{game['id']}").json["version"]
    watched = []
    for message in sse(client.get(f"/games/{game['id']}/stream").response):
        watched.append(message)
        if message["id"] == version:
            break
    dealt = next(m for m in watched if m["event"] == "CardsDealt")["data"]["data"]
    assert "hands" not in dealt and "draw" not in dealt
    assert dealt["hand"] is None and sum(dealt["hand_counts"]) >= len(hand) > 0


def test_a_stream_of_an_unknown_game_is_404_and_a_bad_after_is_400(client):
    assert client.get("/games/0000000000000000/stream").status_code == 404
    game = client.post("/games", json={"game": "toy", "seats": [{"bot": "random"}, {"bot": "random"}]}).json
    assert client.get(f"/games/{game['id']}/stream?after=-1").status_code == 400


def test_a_finished_tournament_streams_its_events_without_token_hashes(client):
    tournament = client.post("/tournaments", json={"game": "toy", "rounds": 1, "seed": "sse"}).json
    organiser = auth(tournament["organiser_token"])
    for _ in range(2):
        client.post(f"/tournaments/{tournament['id']}/register", json={"bot": "random"}, headers=organiser)
    client.post(f"/tournaments/{tournament['id']}/start", headers=organiser)
    messages = list(sse(client.get(f"/tournaments/{tournament['id']}/stream").response))
    assert messages[0]["event"] == "TournamentCreated"
    assert messages[-1]["event"] == "TournamentFinished"
    assert "sha256" not in orjson.dumps([m["data"] for m in messages]).decode()


def test_a_process_past_its_stream_slots_refuses_a_stream_with_a_503_and_takes_one_when_one_closes():
    services = build(fakeredis.FakeRedis(), f"test-{uuid.uuid4().hex[:8]}", inline_jobs=True)
    client = create_app(services, {"MAX_STREAMS": 2, "RATE_LIMITS_ENABLED": False}).test_client()
    game = client.post("/games", json={"game": "toy", "seats": [{"name": "ann"}, {"name": "bob"}]}).json
    path = f"/games/{game['id']}/stream"
    held = [client.get(path, buffered=False) for _ in range(2)]
    assert [r.status_code for r in held] == [200, 200]
    refused = client.get(path)
    assert refused.status_code == 503 and refused.json["error"]["code"] == "streams_full"
    assert refused.headers["Retry-After"] == "5"
    check_response("/games/{id}/stream", "get", refused)
    assert client.get(f"/games/{game['id']}").status_code == 200  # the other routes keep their threads
    # The client went away: the server closes the response. (Streams share this test's
    # thread, each with its request context pushed: they are closed last opened first.)
    held[1].close()
    again = client.get(path, buffered=False)
    assert again.status_code == 200
    again.close()
    held[0].close()


def test_a_seat_asking_for_views_gets_its_view_at_the_start_and_after_each_batch(client):
    game = client.post("/games", json={"game": "toy", "seats": [{"name": "ann"}, {"name": "bob"}]}).json
    ann, bob = (seat["token"] for seat in game["seats"])
    version = client.get(f"/games/{game['id']}").json["version"]
    response = client.get(f"/games/{game['id']}/stream?after={version}&view=true", headers=auth(bob))
    messages = sse(response.response)
    first = next(messages)
    assert first["event"] == "view" and first["data"] == client.get(f"/games/{game['id']}", headers=auth(bob)).json

    def move() -> None:
        client.post(f"/games/{game['id']}/actions", json={"action": {"type": "add", "n": 2}}, headers=auth(ann))

    mover = threading.Thread(target=move)
    mover.start()
    moved, view = next(messages), next(messages)
    mover.join()
    assert moved["id"] == version + 1 and moved["event"] == "Added"
    assert view["event"] == "view" and view["data"]["version"] == version + 1
    assert view["data"]["legal_actions"]  # bob's turn now: the view says so, no GET needed
    response.close()
