"""Replays at any point, exports, audits over HTTP and offline, imports and archives."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from domain.chance import seed_of
from service.bootstrap import build
from service.cli import main as menagerie
from service.errors import GameArchived
from service.http import create_app
from tests.support.openapi import check_response
from tests.support.services import on_every_store

redis_client = on_every_store()

FIXTURE = Path(__file__).parent.parent / "fixtures" / "life_is_life_v1.ndjson"


def auth(token: str) -> dict:
    return {"Authorization": f"Bearer {token}"}


def new_game(client, bots: int = 3, seed: str = "arch") -> tuple[str, str]:
    seats = [{"name": "ann"}] + [{"bot": "heuristic"}] * bots
    created = client.post("/games", json={"game": "life-is-life", "seats": seats, "seed": seed}).json
    return created["id"], created["seats"][0]["token"]


def finish(client, game_id: str, token: str) -> dict:
    while True:
        view = client.get(f"/games/{game_id}", headers=auth(token)).json
        if view["status"] == "finished":
            return view
        client.post(f"/games/{game_id}/actions", json={"action": view["legal_actions"][-1]}, headers=auth(token))


def export(client, game_id: str, headers: dict | None = None) -> list[dict]:
    response = client.get(f"/games/{game_id}/export", headers={"Accept": "application/x-ndjson", **(headers or {})})
    assert response.status_code == 200 and response.mimetype == "application/x-ndjson"
    return [json.loads(line) for line in response.get_data(as_text=True).splitlines()]


def test_a_seat_sees_its_own_past_and_nothing_more(client):
    game_id, token = new_game(client)
    dealt = next(
        e
        for e in client.get(f"/games/{game_id}/events", headers=auth(token)).json["events"]
        if e["type"] == "PhaseDealt"
    )
    view = client.get(f"/games/{game_id}", headers=auth(token)).json
    client.post(f"/games/{game_id}/actions", json={"action": view["legal_actions"][0]}, headers=auth(token))
    mine = client.get(f"/games/{game_id}?at={dealt['seq']}", headers=auth(token))
    check_response("/games/{id}", "get", mine)
    assert mine.json["version"] == dealt["seq"] and mine.json["legal_actions"] == []
    assert len(mine.json["state"]["hand"]) == 10
    spectator = client.get(f"/games/{game_id}?at={dealt['seq']}").json
    assert "hand" not in spectator["state"] or not spectator["state"]["hand"]
    assert json.dumps(mine.json["state"]["hand"]) not in json.dumps(spectator)


def test_the_open_view_is_forbidden_during_play_and_open_to_all_after(client):
    game_id, token = new_game(client)
    response = client.get(f"/games/{game_id}?open=true", headers=auth(token))
    assert response.status_code == 403 and response.json["error"]["code"] == "game_in_play"
    check_response("/games/{id}", "get", response)
    final = finish(client, game_id, token)
    dealt = next(e for e in client.get(f"/games/{game_id}/events").json["events"] if e["type"] == "PhaseDealt")
    opened = client.get(f"/games/{game_id}?open=true&at={dealt['seq']}").json
    assert opened["version"] == dealt["seq"]
    assert json.dumps(dealt["data"]["hands"][1]) in json.dumps(opened["state"])
    assert seed_of(final["seed"]) == "arch"


def test_the_export_during_play_is_the_callers_redacted_log(client):
    game_id, token = new_game(client)
    lines = export(client, game_id, auth(token))
    head, events = lines[0], lines[1:]
    assert head["format"] == "menagerie-game/1" and head["redacted"] is True and head["status"] == "active"
    assert len(events) == head["version"]
    dealt = next(e for e in events if e["type"] == "PhaseDealt")
    hands = dealt["data"]["hands"]
    assert hands[0] and all(not hand for hand in hands[1:])
    spectator = export(client, game_id)[1:]
    assert all(not hand for hand in next(e for e in spectator if e["type"] == "PhaseDealt")["data"]["hands"])


def test_a_finished_game_exports_whole_and_passes_its_audit(client, tmp_path):
    game_id, token = new_game(client)
    finish(client, game_id, token)
    lines = export(client, game_id)
    assert lines[0]["redacted"] is False and lines[-1]["type"] == "GameEnded"
    response = client.get(f"/games/{game_id}/audit")
    check_response("/games/{id}/audit", "get", response)
    assert response.json["ok"] is True and response.json["events"] == len(lines) - 1
    path = tmp_path / "game.ndjson"
    path.write_text("".join(json.dumps(line) + "\n" for line in lines))
    assert menagerie(["audit", str(path)]) == 0


def test_the_offline_audit_names_the_game_by_its_chain_and_fails_a_header_that_says_otherwise(client, tmp_path, capsys):
    game_id, token = new_game(client)
    finish(client, game_id, token)
    lines = export(client, game_id)
    path = tmp_path / "game.ndjson"
    path.write_text("".join(json.dumps(line) + "\n" for line in lines))
    assert menagerie(["audit", str(path)]) == 0
    assert f"PASS {lines[0]['game']} {game_id} (rules" in capsys.readouterr().out
    lines[0]["id"] = "0123456789abcdef"
    path.write_text("".join(json.dumps(line) + "\n" for line in lines))
    assert menagerie(["audit", str(path)]) == 1
    assert "FAIL" in capsys.readouterr().out


@pytest.mark.parametrize("accept", [None, "*/*", "application/json"])
def test_a_client_not_asking_for_ndjson_gets_the_export_as_one_json_document_that_audits_offline(
    client, tmp_path, accept
):
    game_id, token = new_game(client)
    finish(client, game_id, token)
    response = client.get(f"/games/{game_id}/export", headers={"Accept": accept} if accept else {})
    assert response.status_code == 200 and response.mimetype == "application/json"
    check_response("/games/{id}/export", "get", response)
    assert [response.json["header"], *response.json["events"]] == export(client, game_id)
    path = tmp_path / "game.json"
    path.write_bytes(response.get_data())
    assert menagerie(["audit", str(path)]) == 0


def test_audit_and_export_answer_404_for_unknown_games_and_403_during_play(client):
    for route in ("audit", "export"):
        response = client.get(f"/games/ffffffffffffffff/{route}")
        assert response.status_code == 404
    game_id, _ = new_game(client)
    response = client.get(f"/games/{game_id}/audit")
    assert response.status_code == 403 and response.json["error"]["code"] == "game_in_play"
    check_response("/games/{id}/audit", "get", response)


def test_the_offline_audit_reports_the_first_failure_and_exits_non_zero(tmp_path, capsys):
    lines = FIXTURE.read_text().splitlines()
    event = json.loads(lines[5])
    event["data"] = {**event["data"], "tampered": True}
    lines[5] = json.dumps(event)
    path = tmp_path / "tampered.ndjson"
    path.write_text("\n".join(lines) + "\n")
    assert menagerie(["audit", str(path)]) == 1
    assert "FAIL life-is-life 0000000000000001 at event 5: hash chain broken" in capsys.readouterr().out
    assert menagerie(["audit", str(FIXTURE)]) == 0


@pytest.mark.parametrize("cut", ["truncated", "malformed"])
def test_a_bad_file_is_a_clear_error_naming_the_line(tmp_path, capsys, cut):
    lines = FIXTURE.read_text().splitlines()
    if cut == "truncated":
        lines = lines[:-2]
    else:
        lines[3] = lines[3][:40]
    path = tmp_path / "bad.ndjson"
    path.write_text("\n".join(lines) + "\n")
    assert menagerie(["audit", str(path)]) == 2
    message = capsys.readouterr().err
    assert "line" in message and ("truncated" in message if cut == "truncated" else "line 4" in message)


def test_an_import_replays_and_audits_like_the_original(services, tmp_path):
    client = create_app(services).test_client()
    game_id, token = new_game(client, seed="imp")
    final = finish(client, game_id, token)
    path = tmp_path / "game.ndjson"
    assert services.archive.archive_to(game_id, str(path)) > 0
    assert client.get(f"/games/{game_id}").status_code == 410  # the stream is gone
    assert services.store.exists(game_id) is False
    # Still auditable and replayable from the file.
    assert menagerie(["audit", str(path)]) == 0
    assert menagerie(["replay", str(path), "--at", "20", "--seat", "0"]) == 0
    with path.open() as lines:
        assert services.archive.import_lines(lines) == game_id
    again = client.get(f"/games/{game_id}").json
    assert again["result"] == final["result"] and again["version"] == final["version"]
    assert client.get(f"/games/{game_id}/audit").json["ok"] is True
    with path.open() as lines, pytest.raises(Exception, match="already in the store"):
        services.archive.import_lines(lines)


def test_an_archived_game_is_gone_from_every_server_at_once(services, redis_client, prefix, tmp_path):
    """Two API processes (separate caches, one store) both held the game in memory; both answer 410 after."""
    first = create_app(services).test_client()
    second = create_app(build(redis_client, prefix, inline_jobs=True)).test_client()
    game_id, token = new_game(first, seed="gone")
    final = finish(first, game_id, token)
    for client in (first, second):  # both caches hold the finished game
        assert client.get(f"/games/{game_id}").json["version"] == final["version"]
        assert client.get(f"/games/{game_id}/audit").json["ok"] is True
    stale = services.repository.cached(game_id)
    path = tmp_path / "gone.ndjson"
    services.archive.archive_to(game_id, str(path))
    for client in (second, first):
        for route in ("", "/events?after=0", "/events?after=5", "/export", "/audit", "?at=3", "/stream"):
            answer = client.get(f"/games/{game_id}{route}", headers=auth(token))
            assert answer.status_code == 410, (route, answer.json)
            error = answer.json["error"]
            assert error["code"] == "game_archived" and error["details"]["archive"] == game_id, route
            assert str(tmp_path) not in answer.get_data(as_text=True), route  # the archive by its id, never a path
    # A page read after a load that still saw the stream: an error, never an empty page with more to come.
    with pytest.raises(GameArchived):
        services.games.events_for(stale, None, after=0, upto=stale.version)
    with path.open() as lines:
        assert services.archive.import_lines(lines) == game_id
    for client in (first, second):
        assert client.get(f"/games/{game_id}").json["version"] == final["version"]


def test_an_older_export_imports_and_audits(services):
    with FIXTURE.open() as lines:
        game_id = services.archive.import_lines(lines)
    client = create_app(services).test_client()
    assert client.get(f"/games/{game_id}/audit").json["ok"] is True
    assert client.get(f"/games/{game_id}").json["result"]["winners"] == [0]


@pytest.mark.redis
def test_the_import_and_archive_commands_work_on_a_real_redis(cli_prefix, tmp_path, capsys):
    assert menagerie(["import", str(FIXTURE)]) == 0
    assert "imported 0000000000000001" in capsys.readouterr().out
    assert menagerie(["import", str(FIXTURE)]) == 1  # already there
    out = tmp_path / "0000000000000001.ndjson"
    assert menagerie(["archive", "0000000000000001", str(out)]) == 0
    assert menagerie(["audit", str(out)]) == 0
    assert menagerie(["archive", "0000000000000001", str(out)]) == 1  # gone now
