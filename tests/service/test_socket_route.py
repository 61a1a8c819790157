"""`GET /games/{id}/socket` where no async front serves it: a JSON error saying why, never a hang or a 500."""

from __future__ import annotations

import fakeredis

from service.bootstrap import build
from service.http import create_app


def test_an_upgrade_to_the_embedded_server_is_told_it_cannot_serve_sockets_and_plain_http_to_upgrade():
    client = create_app(build(fakeredis.FakeRedis(), "socket-route", inline_jobs=True, embedded=True)).test_client()
    seats = [{"name": "ann"}, {"name": "bob"}, {"name": "cy"}]
    game_id = client.post("/games", json={"game": "bloede-kuh", "seats": seats}).get_json()["id"]
    upgrade = {"Upgrade": "websocket", "Connection": "Upgrade", "Sec-WebSocket-Version": "13"}
    answer = client.get(f"/games/{game_id}/socket", headers=upgrade)
    assert answer.status_code == 501 and answer.get_json()["error"]["code"] == "sockets_unsupported"
    assert "menagerie serve" in answer.get_json()["error"]["message"]
    plain = client.get(f"/games/{game_id}/socket")
    assert plain.status_code == 426 and plain.get_json()["error"]["code"] == "upgrade_required"
