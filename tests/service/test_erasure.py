"""Erasure: a player erases their handle; every audit still passes, and no byte of the handle stays behind."""

from __future__ import annotations

import uuid
from pathlib import Path
from typing import Any

import pytest
import redis

from domain.players import skeleton
from service.bootstrap import Services, build
from service.cli import main as menagerie
from service.http import create_app
from tests.service.test_streams import sse
from tests.support.openapi import check_response
from tests.support.processes import OwnRedis, wait_for
from tests.support.services import REAL_REDIS

HANDLE = "Quokka_Zanzibar"
# What a stored copy of the handle could look like: as typed, case folded, and its look-alike skeleton.
TRACES = (HANDLE.lower().encode(), skeleton(HANDLE).encode())


def auth(token: str) -> dict[str, str]:
    return {"Authorization": f"Bearer {token}"}


def play_out(client, game_id: str, tokens: dict[int, dict[str, str]]) -> None:
    """Play a game to its end, each seat of `tokens` taking its first legal action in turn."""
    while (game := client.get(f"/games/{game_id}").json)["status"] != "finished":
        seat = tokens[game["to_act"][0]]
        legal = client.get(f"/games/{game_id}", headers=seat).json["legal_actions"]
        client.post(f"/games/{game_id}/actions", json={"action": legal[0]}, headers=seat)


def stored_values(store: Any, key: bytes) -> list[bytes]:
    """Return a key's name and every value it holds, whatever its type, as bytes (lowercased)."""
    kind = store.type(key)
    kind = kind.decode() if isinstance(kind, bytes) else kind
    read = {
        "string": lambda: [store.get(key)],
        "hash": lambda: [part for pair in store.hgetall(key).items() for part in pair],
        "list": lambda: store.lrange(key, 0, -1),
        "set": lambda: list(store.smembers(key)),
        "zset": lambda: [member for member, _ in store.zrange(key, 0, -1, withscores=True)],
        "stream": lambda: [part for _, fields in store.xrange(key) for pair in fields.items() for part in pair],
    }[kind]
    values = [key, *read()]
    return [(v if isinstance(v, bytes) else str(v).encode()).lower() for v in values if v is not None]


def traces_in_store(services: Services) -> list[bytes]:
    """Return every key of the test's prefix whose name or value holds a trace of the handle."""
    found = []
    for key in services.redis.scan_iter(match=f"*{services.prefix}*", count=1000):
        if any(trace in value for value in stored_values(services.redis, key) for trace in TRACES):
            found.append(key)
    return found


@pytest.fixture
def played(services: Services) -> dict[str, Any]:
    """An account that played a game (created under an Idempotency-Key), joined another, and won a tournament place."""
    return play_as_ann(services)


def play_as_ann(services: Services) -> dict[str, Any]:
    """Register the account, play a game, join another and play a tournament; return what the tests need."""
    client = create_app(services).test_client()
    ann = client.post("/players", json={"handle": HANDLE}).json
    retry_key = {"Idempotency-Key": "create-" + "k" * 30}
    body = {"game": "toy", "seats": [{"player_token": ann["token"]}, {"bot": "random"}]}
    created = client.post("/games", json=body, headers=retry_key).json
    play_out(client, created["id"], {0: auth(created["seats"][0]["token"])})
    open_game = client.post("/games", json={"game": "toy", "seats": [{"name": "guest"}, {}]}).json
    joined = client.post(
        f"/games/{open_game['id']}/join",
        json={"player_token": ann["token"]},
        headers={"Idempotency-Key": "join-" + "k" * 30},
    )
    assert joined.status_code == 201 and joined.json["name"] == HANDLE
    tournament = client.post(
        "/tournaments", json={"game": "toy", "rounds": 1, "format": "round-robin", "table_sizes": [3]}
    ).json
    organiser = auth(tournament["organiser_token"])
    entry = client.post(f"/tournaments/{tournament['id']}/register", json={"player_token": ann["token"]}).json
    for _ in range(2):
        client.post(f"/tournaments/{tournament['id']}/register", json={"bot": "random"}, headers=organiser)
    assert client.post(f"/tournaments/{tournament['id']}/start", headers=organiser).status_code == 200
    table = client.get(f"/tournaments/{tournament['id']}", headers=auth(entry["token"])).json["your_games"][0]
    play_out(client, table["game_id"], {table["seat"]: auth(table["token"])})
    assert client.get(f"/tournaments/{tournament['id']}").json["status"] == "finished"
    assert traces_in_store(services), "the scan finds the handle while the account holds it"
    seat = auth(created["seats"][0]["token"])
    return {"client": client, "ann": ann, "game": created["id"], "seat": seat, "tournament": tournament["id"]}


def erase(client, token: str) -> Any:
    response = client.delete("/players/me", headers=auth(token))
    check_response("/players/me", "delete", response)
    return response


def test_an_erased_account_shows_as_erased_everywhere_and_its_token_proves_nothing(played):
    client, ann = played["client"], played["ann"]
    erased = erase(client, ann["token"])
    assert erased.status_code == 200 and erased.json == {"id": ann["id"], "handle": None, "erased": True}
    looked_up = client.get(f"/players/{ann['id']}")
    check_response("/players/{player_id}", "get", looked_up)
    assert looked_up.json == {"id": ann["id"], "handle": None, "erased": True}
    again = client.post("/games", json={"game": "toy", "seats": [{"player_token": ann["token"]}, {"bot": "random"}]})
    assert again.status_code == 401 and again.json["error"]["code"] == "unknown_player_token"
    seat = client.get(f"/games/{played['game']}").json["seats"][0]
    assert seat["name"] == "erased" and seat["player"] == ann["id"]
    stream = client.get(f"/games/{played['game']}/stream?view=true", headers=played["seat"])
    views = [message["data"] for message in sse(stream.response) if message["event"] == "view"]
    stream.close()
    assert views and views[0]["seats"][0]["name"] == "erased"
    entrant = client.get(f"/tournaments/{played['tournament']}").json["players"][0]
    assert entrant["name"] == "erased" and entrant["player"] == ann["id"]
    standings = client.get(f"/tournaments/{played['tournament']}/standings", headers={"Accept": "text/csv"})
    assert "erased" in standings.get_data(as_text=True)
    board = client.get("/leaderboards/toy").json["players"]
    assert ("erased", ann["id"]) in {(row["player"], row["player_id"]) for row in board}  # the rating stays, anonymous


def test_a_game_and_a_tournament_with_an_erased_player_audit_online_offline_and_from_an_archive(
    played, services, tmp_path: Path
):
    client = played["client"]
    erase(client, played["ann"]["token"])
    assert client.get(f"/games/{played['game']}/audit").json["ok"] is True
    assert client.get(f"/tournaments/{played['tournament']}/audit").json["ok"] is True
    files = {
        "audit": (tmp_path / "game.json", client.get(f"/games/{played['game']}/export").get_data()),
        "audit-tournament": (
            tmp_path / "tournament.json",
            client.get(f"/tournaments/{played['tournament']}/export").get_data(),
        ),
    }
    for command, (path, data) in files.items():
        assert not any(trace in data.lower() for trace in TRACES)
        path.write_bytes(data)
        assert menagerie([command, str(path)]) == 0, command
    archive = tmp_path / "archived.ndjson"
    assert services.archive.archive_to(played["game"], str(archive)) > 0
    assert not any(trace in archive.read_bytes().lower() for trace in TRACES)
    assert menagerie(["audit", str(archive)]) == 0


def test_no_byte_of_the_handle_stays_in_the_store_after_erasure(played, services):
    erase(played["client"], played["ann"]["token"])
    assert traces_in_store(services) == []


def aof_bytes(server: OwnRedis) -> bytes:
    """Every byte of a server's append-only files (Redis 7 keeps a folder of them), lowercased."""
    return b"".join(path.read_bytes() for path in sorted(server.directory.rglob("*.aof*"))).lower()


@pytest.mark.redis
def test_no_byte_of_the_handle_stays_in_the_append_only_file_once_it_is_rewritten(own_redis: OwnRedis):
    """What docs/operators.md tells an operator to do after an erasure: rewrite the AOF."""
    store = redis.Redis.from_url(own_redis.url)
    services = build(store, f"test-{uuid.uuid4().hex[:8]}", inline_jobs=True)
    played = play_as_ann(services)
    assert any(trace in aof_bytes(own_redis) for trace in TRACES), "the AOF holds the commands that wrote it"
    erase(played["client"], played["ann"]["token"])
    assert traces_in_store(services) == []
    assert any(trace in aof_bytes(own_redis) for trace in TRACES), "until it is rewritten, the AOF still does"
    store.bgrewriteaof()
    wait_for(lambda: not rewriting(store), 30, "the AOF rewrite to finish")
    assert not any(trace in aof_bytes(own_redis) for trace in TRACES)


def rewriting(store: redis.Redis) -> bool:
    """Whether an AOF rewrite is asked for or running."""
    persistence = store.info("persistence")
    return bool(persistence["aof_rewrite_in_progress"] or persistence["aof_rewrite_scheduled"])


def test_the_handle_is_free_again_after_erasure_and_the_old_id_stays_erased(played):
    client, ann = played["client"], played["ann"]
    erase(client, ann["token"])
    again = client.post("/players", json={"handle": HANDLE.upper()})
    assert again.status_code == 201 and again.json["id"] != ann["id"]
    assert client.get(f"/games/{played['game']}").json["seats"][0]["name"] == "erased"


@pytest.mark.parametrize(
    ("headers", "code"),
    [
        ({}, "missing_token"),
        (auth("p-0123456789abcdef." + "0" * 32), "unknown_player_token"),
        ({"Authorization": "Basic abc"}, "unknown_player_token"),
    ],
)
def test_erasing_without_a_player_token_is_a_401_that_changes_nothing(client, fake_services, headers, code):
    ann = client.post("/players", json={"handle": "ann"}).json
    response = client.delete("/players/me", headers=headers)
    check_response("/players/me", "delete", response)
    assert response.status_code == 401 and response.json["error"]["code"] == code
    assert client.get(f"/players/{ann['id']}").json == {"id": ann["id"], "handle": "ann"}


def test_erasing_twice_is_a_401_the_token_is_gone(client):
    ann = client.post("/players", json={"handle": "ann"}).json
    mine = client.get("/players/me", headers=auth(ann["token"]))
    check_response("/players/me", "get", mine)
    assert mine.json == {"id": ann["id"], "handle": "ann"}
    assert erase(client, ann["token"]).status_code == 200
    twice = erase(client, ann["token"])
    assert twice.status_code == 401 and twice.json["error"]["code"] == "unknown_player_token"
    gone = client.get("/players/me", headers=auth(ann["token"]))
    check_response("/players/me", "get", gone)
    assert gone.status_code == 401 and gone.json["error"]["code"] == "unknown_player_token"


def test_an_erasure_cut_short_is_finished_by_erasing_again(fake_services):
    account, _ = fake_services.players.register("ann")
    accounts = fake_services.players.accounts
    accounts.redis.hset(f"{accounts.prefix}:player:{account.id}", "erased", "1")  # cut after the first step
    assert fake_services.players.handles([account.id]) == {account.id: "erased"}
    fake_services.players.erase_by_id(account.id)
    assert fake_services.redis.hgetall(f"{accounts.prefix}:player:{account.id}") == {
        b"id": account.id.encode(),
        b"erased": b"1",
    }
    assert fake_services.players.register("Ann")[0].id != account.id


def test_the_operator_command_erases_by_id_and_says_when_there_is_no_such_account(cli_prefix, capsys):
    assert REAL_REDIS is not None
    services = build(REAL_REDIS, cli_prefix, inline_jobs=True)
    account, token = services.players.register(HANDLE)
    assert menagerie(["players", "erase", account.id]) == 0
    assert services.players.erased(account.id) and traces_in_store(services) == []
    assert menagerie(["players", "erase", account.id]) == 0  # again: nothing left to do, and no error
    assert menagerie(["players", "erase", "p-0123456789abcdef"]) == 1
    assert "no player" in capsys.readouterr().err
