"""`GET /games/{id}/socket` where no async front serves it (a JSON error saying why), and its messages' contract."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import fakeredis
import yaml

from service.bootstrap import build
from service.http import create_app
from service.http.schemas import ActionSchema
from service.http.sockets import ENVELOPE


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


ROOT = Path(__file__).resolve().parents[2]


def _refs(node: Any) -> list[str]:
    if isinstance(node, dict):
        return [ref for value in node.values() for ref in _refs(value)] + (
            [node["$ref"]] if isinstance(node.get("$ref"), str) else []
        )
    return [ref for item in node for ref in _refs(item)] if isinstance(node, list) else []


def test_asyncapi_names_the_http_body_s_fields_and_openapi_s_schemas_that_exist():
    spec = yaml.safe_load((ROOT / "asyncapi.yaml").read_text())
    openapi = yaml.safe_load((ROOT / "openapi.yaml").read_text())
    act = spec["components"]["messages"]["act"]["payload"]["properties"]
    # The act message is the HTTP body's fields, and the envelope the socket reads beside them.
    assert set(act) == set(ActionSchema().fields) | ENVELOPE
    for ref in _refs(spec):
        document, _, pointer = ref.partition("#/")
        node = openapi if document == "openapi.yaml" else spec
        for part in pointer.split("/"):
            node = node[part]  # a KeyError names the schema that is not there
    assert "/games/{id}/socket" in openapi["paths"]
