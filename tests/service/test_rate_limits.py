"""Fair use: a client over a rate limit gets 429 with Retry-After in the JSON error shape."""

from __future__ import annotations

from service.bootstrap import build
from service.http import create_app
from service.http.limits import hit_socket_move
from tests.support.services import on_every_store

redis_client = on_every_store()

TOY = {"game": "toy", "seats": [{"name": "ann"}, {"bot": "random"}]}


def limited_client(redis_client, prefix, **config):
    services = build(redis_client, prefix, inline_jobs=True)
    return create_app(services, config).test_client()


def test_a_client_creating_too_many_games_gets_429_with_retry_after(redis_client, prefix):
    client = limited_client(redis_client, prefix, RATE_LIMIT_CREATE="2 per minute")
    assert [client.post("/games", json=TOY).status_code for _ in range(2)] == [201, 201]
    answer = client.post("/games", json=TOY)
    assert answer.status_code == 429
    error = answer.get_json()["error"]
    assert error["code"] == "too_many_requests"
    assert 1 <= int(answer.headers["Retry-After"]) <= 61
    assert error["details"]["retry_after"] == int(answer.headers["Retry-After"])


def test_the_limit_is_per_client_address(redis_client, prefix):
    client = limited_client(redis_client, prefix, RATE_LIMIT_CREATE="1 per minute")
    assert client.post("/games", json=TOY, environ_base={"REMOTE_ADDR": "10.0.0.1"}).status_code == 201
    assert client.post("/games", json=TOY, environ_base={"REMOTE_ADDR": "10.0.0.1"}).status_code == 429
    assert client.post("/games", json=TOY, environ_base={"REMOTE_ADDR": "10.0.0.2"}).status_code == 201


def test_actions_have_their_own_limit_and_reads_none(redis_client, prefix):
    client = limited_client(redis_client, prefix, RATE_LIMIT_ACTIONS="1 per minute")
    created = client.post("/games", json=TOY).get_json()
    headers = {"Authorization": f"Bearer {created['seats'][0]['token']}"}
    url = f"/games/{created['id']}/actions"
    client.post(url, headers=headers, json={"action": {"type": "add", "n": 1}})
    assert client.post(url, headers=headers, json={"action": {"type": "add", "n": 1}}).status_code == 429
    assert all(client.get(f"/games/{created['id']}", headers=headers).status_code == 200 for _ in range(5))


def test_limits_can_be_switched_off(redis_client, prefix):
    client = limited_client(redis_client, prefix, RATE_LIMITS_ENABLED=False, RATE_LIMIT_CREATE="1 per minute")
    assert [client.post("/games", json=TOY).status_code for _ in range(3)] == [201] * 3


def test_a_move_on_a_game_socket_counts_on_the_same_counter_as_its_address_s_posts(redis_client, prefix):
    client = limited_client(redis_client, prefix, RATE_LIMIT_ACTIONS="2 per minute")
    app = client.application
    created = client.post("/games", json=TOY).get_json()
    headers = {"Authorization": f"Bearer {created['seats'][0]['token']}"}
    addressed = {"REMOTE_ADDR": "10.0.0.7"}
    client.post(f"/games/{created['id']}/actions", json={"action": {}}, headers=headers, environ_base=addressed)
    assert hit_socket_move(app, "10.0.0.7") is None  # the second move from this address
    over = hit_socket_move(app, "10.0.0.7")
    assert over is not None and over[0] == "2 per 1 minute" and 1 <= over[1] <= 61
    answer = client.post(
        f"/games/{created['id']}/actions", json={"action": {}}, headers=headers, environ_base=addressed
    )
    assert answer.status_code == 429  # and the socket's moves count against the posts
    assert hit_socket_move(app, "10.0.0.8") is None  # another address has its own
