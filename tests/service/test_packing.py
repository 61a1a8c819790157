"""A finished game's stream packed into one value: fewer keys, the same events, exports and audits."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from flask.testing import FlaskClient

from domain.export import read_export
from service.adapters.packing import pack, unpack
from service.bootstrap import build
from service.http import create_app
from tests.support.services import on_every_store

redis_client = on_every_store()

FIXTURES = sorted((Path(__file__).parent.parent / "fixtures").glob("*.ndjson"))
GAMES = ["life-is-life", "animals-on-board", "bloede-kuh", "zop-zoo"]


def keys_of(services, game_id: str) -> set[str]:
    names = ("events", "packed", "seed", "snapshot", "archived")
    return {name for name in names if services.redis.exists(f"{services.prefix}:{{{game_id}}}:{name}")}


def plain_client(services):
    """A test client that does not check answers against openapi.yaml: the v1 fixtures predate its event schemas."""
    app = create_app(services)
    app.test_client_class = FlaskClient
    return app.test_client()


def export_text(client, game_id: str) -> str:
    response = client.get(f"/games/{game_id}/export", headers={"Accept": "application/x-ndjson"})
    assert response.status_code == 200, response.json
    return response.get_data(as_text=True)


@pytest.mark.parametrize("fixture", FIXTURES, ids=lambda path: path.stem)
def test_a_packed_fixture_exports_audits_and_replays_exactly_as_its_stream_did(services, monkeypatch, fixture):
    with monkeypatch.context() as held_back:
        held_back.setattr(services.archive, "pack", lambda game_id: "held back")
        with fixture.open() as lines:
            game_id = services.archive.import_lines(lines)
    client = plain_client(services)
    before = export_text(client, game_id)
    views = [client.get(f"/games/{game_id}?open=true&at={at}").json for at in (1, 5)]
    events = client.get(f"/games/{game_id}/events?after=3").json
    assert keys_of(services, game_id) == {"events", "seed"}
    assert services.archive.pack(game_id) == "packed"
    assert services.archive.pack(game_id) == "already packed"  # twice over, nothing changes
    assert keys_of(services, game_id) == {"packed"}
    fresh = plain_client(build(services.redis, services.prefix, inline_jobs=True))
    for reader in (client, fresh):  # a process that held the game, and one that never saw it
        assert export_text(reader, game_id) == before
        assert reader.get(f"/games/{game_id}/audit").json["ok"] is True
        assert [reader.get(f"/games/{game_id}?open=true&at={at}").json for at in (1, 5)] == views
        assert reader.get(f"/games/{game_id}/events?after=3").json == events
    # A live stream's read finds every event after its version in the pack, with nothing to block on.
    version = services.store.version(game_id)
    assert [event.seq for event in services.store.wait(game_id, 3, 1)] == list(range(4, min(version, 1003) + 1))


def test_a_pack_gives_back_every_stored_byte_and_keeps_whole_what_is_not_canonical():
    lines = FIXTURES[0].read_text().splitlines()[1:]  # written by hand, not canonically
    stored = tuple(line.encode() for line in lines)
    assert unpack(pack("any seed", stored)) == stored


@pytest.mark.parametrize("game", GAMES)
def test_a_finished_bot_game_keeps_only_its_pack_and_its_export_is_its_streams(services, redis_client, game):
    client = create_app(services).test_client()
    created = client.post("/games", json={"game": game, "seats": [{"bot": "heuristic"}] * 3}).json
    game_id = created["id"]
    assert client.get(f"/games/{game_id}").json["status"] == "finished"
    # Its end set off its follow-up job, which packed it: the seed key is gone, revealed in the pack.
    assert keys_of(services, game_id) == {"packed"}
    exported = export_text(client, game_id)
    # The same export imported elsewhere is a plain stream again: it exports the same bytes, packed or not.
    other = build(redis_client, services.prefix + "-copy", inline_jobs=True)
    try:
        assert other.archive.import_lines(exported.splitlines(keepends=True)) == game_id
        copy = create_app(other).test_client()
        assert export_text(copy, game_id) == exported
        assert other.archive.pack(game_id) == "already packed"  # an import is packed as every finished game
        assert export_text(copy, game_id) == exported
    finally:
        other.store.delete(game_id)
    head, events = read_export(exported.splitlines())
    assert head["version"] == len(events) and events[-1]["type"] == "GameEnded"
    assert client.get(f"/games/{game_id}/audit").json["ok"] is True


def test_a_packed_game_refuses_a_move_as_a_finished_game_does_and_a_second_import(services):
    client = create_app(services).test_client()
    created = client.post(
        "/games", json={"game": "life-is-life", "seats": [{"name": "ann"}] + [{"bot": "heuristic"}] * 2, "seed": "p"}
    ).json
    game_id, token = created["id"], created["seats"][0]["token"]
    headers = {"Authorization": f"Bearer {token}"}
    while (view := client.get(f"/games/{game_id}", headers=headers).json)["status"] != "finished":
        client.post(f"/games/{game_id}/actions", json={"action": view["legal_actions"][-1]}, headers=headers)
    assert keys_of(services, game_id) == {"packed"}
    answer = client.post(f"/games/{game_id}/actions", json={"action": {"type": "pass"}}, headers=headers)
    assert answer.status_code == 422, answer.json
    exported = export_text(client, game_id)
    with pytest.raises(Exception, match="already in the store"):
        services.archive.import_lines(exported.splitlines(keepends=True))
    assert json.loads(exported.splitlines()[0])["version"] == view["version"]
