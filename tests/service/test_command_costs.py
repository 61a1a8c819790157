"""What a command costs the store: one action is at most one stream read and one EVALSHA."""

from __future__ import annotations

from collections import Counter
from typing import Any

import fakeredis
import pytest

from service.bootstrap import build
from service.http import create_app


class CountingRedis(fakeredis.FakeRedis):
    """A fakeredis that counts the commands sent to it, by name and first key."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.sent: Counter[tuple[str, str]] = Counter()

    def execute_command(self, *args: Any, **options: Any) -> Any:
        key = args[1] if len(args) > 1 and isinstance(args[1], str) else ""
        self.sent[(str(args[0]).upper(), key)] += 1
        return super().execute_command(*args, **options)

    def count(self, command: str, containing: str = "") -> int:
        """Return how many `command`s were sent on keys containing `containing`."""
        return sum(n for (name, key), n in self.sent.items() if name == command and containing in key)


NO_LIMITS = {"RATE_LIMITS_ENABLED": False}


@pytest.fixture
def redis() -> CountingRedis:
    return CountingRedis()


@pytest.fixture
def client(redis: CountingRedis) -> Any:
    # The store's own costs: the fair-use limiter adds one script call of its own to a limited request.
    return create_app(build(redis, "costs", inline_jobs=True, embedded=True), NO_LIMITS).test_client()


def test_an_action_costs_at_most_one_stream_read_and_one_evalsha(client, redis):
    created = client.post("/games", json={"game": "toy", "seats": [{"name": "ann"}, {"name": "bob"}]}).json
    game_id, tokens = created["id"], [seat["token"] for seat in created["seats"]]
    for turn in range(3):
        view = client.get(f"/games/{game_id}", headers={"Authorization": f"Bearer {tokens[turn % 2]}"}).json
        redis.sent.clear()
        response = client.post(
            f"/games/{game_id}/actions",
            json={"action": view["legal_actions"][0], "expected_version": view["version"]},
            headers={"Authorization": f"Bearer {tokens[turn % 2]}"},
        )
        assert response.status_code == 200, response.json
        assert redis.count("XRANGE") + redis.count("XREVRANGE") <= 1
        assert redis.count("EVALSHA") == 1


def test_an_action_on_a_current_cache_reads_no_stream(client, redis):
    created = client.post("/games", json={"game": "toy", "seats": [{"name": "ann"}, {"name": "bob"}]}).json
    game_id, token = created["id"], created["seats"][0]["token"]
    view = client.get(f"/games/{game_id}", headers={"Authorization": f"Bearer {token}"}).json
    redis.sent.clear()
    client.post(
        f"/games/{game_id}/actions",
        json={"action": view["legal_actions"][0], "expected_version": view["version"]},
        headers={"Authorization": f"Bearer {token}"},
    )
    assert redis.count("XRANGE") == 0
    assert redis.count("EVALSHA") == 1


def test_starting_a_tournament_reads_its_stream_at_most_twice(redis):
    # Jobs go to RQ here: in-process, the whole tournament would be played inside `start`.
    client = create_app(build(redis, "costs", inline_jobs=False), NO_LIMITS).test_client()
    tournament = client.post("/tournaments", json={"game": "toy", "rounds": 2, "seed": "costs"}).json
    organiser = {"Authorization": f"Bearer {tournament['organiser_token']}"}
    for _ in range(4):
        client.post(f"/tournaments/{tournament['id']}/register", json={"bot": "random"}, headers=organiser)
    redis.sent.clear()
    response = client.post(f"/tournaments/{tournament['id']}/start", headers=organiser)
    assert response.status_code == 200, response.json
    assert redis.count("XRANGE", tournament["id"]) <= 2
