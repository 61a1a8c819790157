"""Everything a client may retry is idempotent: create, join and act, also when retries race."""

from __future__ import annotations

import hashlib
from concurrent.futures import ThreadPoolExecutor

import pytest

from service.adapters.store import IDEMPOTENCY_TTL_MS
from service.application.tokens import token_sha256
from service.errors import GameArchived
from service.http import create_app
from tests.support.services import on_every_store

redis_client = on_every_store()

TWO_HUMANS = {"game": "toy", "seats": [{"name": "ann"}, {"name": "bob"}]}


def key(name: str) -> str:
    """A key long enough to be a secret (22 characters or more), named for readability."""
    return f"{name}-5f0c1d2e3a4b5c6d7e8f9a0b"


def test_a_retried_create_gets_the_same_game_and_tokens(services):
    client = create_app(services).test_client()
    first = client.post("/games", json=TWO_HUMANS, headers={"Idempotency-Key": key("create-1")})
    again = client.post("/games", json=TWO_HUMANS, headers={"Idempotency-Key": key("create-1")})
    assert first.status_code == again.status_code == 201
    assert again.json["id"] == first.json["id"]
    assert again.json["seats"] == first.json["seats"]
    assert services.directory.recent_games(10)[0] == [first.json["id"]]
    other = client.post("/games", json=TWO_HUMANS, headers={"Idempotency-Key": key("create-2")})
    assert other.json["id"] != first.json["id"]


def test_a_create_key_with_another_body_is_refused(services):
    client = create_app(services).test_client()
    client.post("/games", json=TWO_HUMANS, headers={"Idempotency-Key": key("create-3")})
    changed = {"game": "toy", "seats": [{"name": "ann"}, {"bot": "random"}]}
    answer = client.post("/games", json=changed, headers={"Idempotency-Key": key("create-3")})
    assert answer.status_code == 422
    assert answer.json["error"]["code"] == "idempotency_key_reused"


def test_a_create_that_died_after_its_append_is_completed_by_the_retry(services, monkeypatch):
    listed = services.directory.add_game

    def died(game_id: str, created: float) -> None:
        raise ConnectionError("the process died here")

    monkeypatch.setattr(services.games.directory, "add_game", died)
    with pytest.raises(ConnectionError):
        services.games.create("toy", TWO_HUMANS["seats"], {}, idempotency_key=key("create-4"))
    monkeypatch.setattr(services.games.directory, "add_game", listed)
    game, tokens = services.games.create("toy", TWO_HUMANS["seats"], {}, idempotency_key=key("create-4"))
    assert [token_sha256(t["token"]) for t in tokens] == [seat.token_sha256 for seat in game.seats]
    assert services.directory.recent_games(10)[0] == [game.id]
    assert services.store.version(game.id) == game.version  # one GameCreated batch, not two


def test_a_create_that_died_before_asking_for_its_first_bot_step_asks_for_it_on_the_retry(services, monkeypatch):
    # Before, the retry found the game made and answered it, and nothing took the bots' first step
    # until the steward's step timeout.
    listed, asked = services.directory.add_game, []
    monkeypatch.setattr(services.games.jobs, "step", lambda game_id, version, humans=False: asked.append(game_id))

    def died(game_id: str, created: float) -> None:
        raise ConnectionError("the process died here")

    bots = [{"bot": "random"}, {"bot": "random"}]
    monkeypatch.setattr(services.games.directory, "add_game", died)
    with pytest.raises(ConnectionError):
        services.games.create("toy", bots, {}, idempotency_key=key("create-6"))
    assert asked == []
    monkeypatch.setattr(services.games.directory, "add_game", listed)
    game, _ = services.games.create("toy", bots, {}, idempotency_key=key("create-6"))
    assert asked == [game.id]


def test_concurrent_creates_with_one_key_make_one_game(services):
    def create(_: int) -> tuple[str, list]:
        game, tokens = services.games.create("toy", TWO_HUMANS["seats"], {}, idempotency_key=key("create-5"))
        return game.id, tokens

    with ThreadPoolExecutor(8) as pool:
        results = list(pool.map(create, range(16)))
    assert len({game_id for game_id, _ in results}) == 1
    assert all(tokens == results[0][1] for _, tokens in results)
    assert services.directory.recent_games(10)[0] == [results[0][0]]


def test_a_retried_join_gets_the_same_seat_and_token_even_after_the_game_started(services):
    client = create_app(services).test_client()
    game_id = client.post("/games", json={"game": "toy", "seats": [{"name": "ann"}, {}]}).json["id"]
    first = client.post(f"/games/{game_id}/join", json={"name": "bob"}, headers={"Idempotency-Key": key("join-1")})
    again = client.post(f"/games/{game_id}/join", json={"name": "bob"}, headers={"Idempotency-Key": key("join-1")})
    assert first.status_code == again.status_code == 201
    assert again.json == first.json
    view = client.get(f"/games/{game_id}", headers={"Authorization": f"Bearer {again.json['token']}"})
    assert view.json["you"] == first.json["seat"]
    other = client.post(f"/games/{game_id}/join", json={"name": "eve"}, headers={"Idempotency-Key": key("join-2")})
    assert other.status_code == 422  # no seat is open: a new key is a new request
    renamed = client.post(f"/games/{game_id}/join", json={"name": "eve"}, headers={"Idempotency-Key": key("join-1")})
    assert renamed.json["error"]["code"] == "idempotency_key_reused"


def test_concurrent_joins_with_one_key_take_one_seat(services):
    game, _ = services.games.create("toy", [{"name": "ann"}, {}, {}], {})
    with ThreadPoolExecutor(8) as pool:
        results = list(pool.map(lambda _: services.games.join(game.id, "bob", idempotency_key=key("j")), range(16)))
    assert all(result == results[0] for result in results)
    seats = services.repository.load(game.id).seats
    assert [seat.name for seat in seats] == ["ann", "bob", None]


def test_concurrent_retries_of_one_action_all_get_the_first_result(services):
    game, tokens = services.games.create("toy", TWO_HUMANS["seats"], {}, seed="i1")
    seat = next(iter(services.repository.load(game.id).to_act))
    action = services.repository.load(game.id).legal_actions(seat)[0]

    def act(_: int) -> dict:
        return services.games.act(game.id, seat, action, expected_version=game.version, idempotency_key=key("move-1"))

    with ThreadPoolExecutor(8) as pool:
        results = list(pool.map(act, range(24)))
    versions = {result["version"] for result in results}
    assert versions == {results[0]["version"]}  # no 409: every retry got the one result
    assert services.store.version(game.id) == results[0]["version"]
    assert sum(1 for result in results if not result.get("replayed")) <= 1


@pytest.mark.parametrize("route", ["create", "join"])
def test_a_key_too_short_to_be_secret_is_refused_where_a_retry_hands_out_tokens(services, route):
    client = create_app(services).test_client()
    game_id = client.post("/games", json={"game": "toy", "seats": [{"name": "ann"}, {}]}).json["id"]
    url, body = ("/games", TWO_HUMANS) if route == "create" else (f"/games/{game_id}/join", {"name": "bob"})
    short = client.post(url, json=body, headers={"Idempotency-Key": "x" * 21})
    assert short.status_code == 400 and short.json["error"]["code"] == "idempotency_key_too_short"
    assert services.directory.recent_games(10)[0] == [game_id]  # nothing was created or joined
    assert services.repository.load(game_id).seats[1].name is None
    assert client.post(url, json=body, headers={"Idempotency-Key": "x" * 22}).status_code == 201


def test_a_games_id_is_drawn_at_random_not_derived_from_its_key(services):
    client = create_app(services).test_client()
    created = client.post("/games", json=TWO_HUMANS, headers={"Idempotency-Key": key("create-7")}).json
    assert created["id"] != hashlib.sha256(f"create\0{key('create-7')}".encode()).hexdigest()[:16]
    services.redis.delete(
        *services.redis.scan_iter(match=f"{services.prefix}:create:*")
    )  # the record gone, as after 24 h
    again = client.post("/games", json=TWO_HUMANS, headers={"Idempotency-Key": key("create-7")}).json
    assert again["id"] != created["id"]


def test_idempotency_records_are_kept_by_the_keys_hash_for_a_day(services):
    client = create_app(services).test_client()
    created = client.post(
        "/games", json={"game": "toy", "seats": [{"name": "ann"}, {}]}, headers={"Idempotency-Key": key("create-8")}
    )
    joined = client.post(
        f"/games/{created.json['id']}/join", json={"name": "bob"}, headers={"Idempotency-Key": key("join-8")}
    )
    assert joined.status_code == 201
    names = [name.decode() for name in services.redis.scan_iter(match=f"*{services.prefix}*")]
    records = [name for name in names if ":create:" in name or ":idem:" in name]
    assert len(records) == 2
    assert not any("create-8" in name or "join-8" in name for name in names)
    for name in records:
        assert 0 < services.redis.pttl(name) <= IDEMPOTENCY_TTL_MS


def test_a_create_retried_after_its_game_was_archived_does_not_start_it_again(services, tmp_path):
    game, _ = services.games.create("toy", TWO_HUMANS["seats"], {}, idempotency_key=key("create-9"))
    while (current := services.repository.load(game.id)).status != "finished":
        services.games.act(game.id, sorted(current.to_act)[0], {"type": "add", "n": 2})
    services.archive.archive_to(game.id, str(tmp_path / "game.ndjson"))
    with pytest.raises(GameArchived):
        services.games.create("toy", TWO_HUMANS["seats"], {}, idempotency_key=key("create-9"))
    assert services.store.version(game.id) == 0  # nothing appended to the archived id
