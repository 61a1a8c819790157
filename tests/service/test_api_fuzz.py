"""No 500 for anything a client can send: mutated actions for every game get 200, 400 or 422."""

from __future__ import annotations

import random
from typing import Any

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from service.bootstrap import build
from service.http import create_app

GAMES = {"life-is-life": 3, "animals-on-board": 2, "bloede-kuh": 3, "zop-zoo": 2}

json_values = st.recursive(
    st.none()
    | st.booleans()
    | st.integers(-3, 70)
    | st.text(max_size=12)
    | st.sampled_from(["cat", "hidden", "w:yak", "draw"]),
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=6), inner, max_size=3),
    max_leaves=8,
)


@st.composite
def mutated(draw: Any, legal: list[dict]) -> dict:
    """A legal action with one field dropped, replaced or added."""
    action = dict(draw(st.sampled_from(legal)))
    key = draw(st.sampled_from(sorted(action) + ["extra"]))
    how = draw(st.sampled_from(["drop", "replace", "replace"]))
    if how == "drop":
        action.pop(key, None)
    else:
        action[key] = draw(json_values)
    return action


def _client():  # type: ignore[no-untyped-def]
    import fakeredis

    return create_app(
        build(fakeredis.FakeRedis(), "fuzz", inline_jobs=True),
        {"RATE_LIMITS_ENABLED": False},  # one client, thousands of requests: fair use is not what this tests
    ).test_client()


CLIENT = _client()


def game_after(game_type: str, seed: int, moves: int) -> tuple[str, list[str]]:
    """A fresh game of human seats, `moves` random legal moves in (the same ones for the same arguments)."""
    seats = [{"name": f"p{i}"} for i in range(GAMES[game_type])]
    created = CLIENT.post("/games", json={"game": game_type, "seats": seats, "seed": str(seed)}).json
    game_id, tokens = created["id"], [s["token"] for s in created["seats"]]
    rng = random.Random(seed)
    for _ in range(moves):
        view = CLIENT.get(f"/games/{game_id}").json
        if view["status"] != "active" or not view["to_act"]:
            break
        headers = {"Authorization": f"Bearer {tokens[rng.choice(view['to_act'])]}"}
        legal = CLIENT.get(f"/games/{game_id}", headers=headers).json["legal_actions"]
        CLIENT.post(f"/games/{game_id}/actions", json={"action": rng.choice(legal)}, headers=headers)
    return game_id, tokens


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(data=st.data(), game_type=st.sampled_from(sorted(GAMES)), seed=st.integers(0, 10**6), moves=st.integers(0, 40))
def test_mutated_actions_never_fail_the_server(data, game_type, seed, moves):
    game_id, tokens = game_after(game_type, seed, moves)
    view = CLIENT.get(f"/games/{game_id}").json
    if view["status"] != "active" or not view["to_act"]:
        return
    seat = data.draw(st.sampled_from(view["to_act"]))
    headers = {"Authorization": f"Bearer {tokens[seat]}"}
    legal = CLIENT.get(f"/games/{game_id}", headers=headers).json["legal_actions"]
    action = data.draw(mutated(legal))
    response = CLIENT.post(f"/games/{game_id}/actions", json={"action": action}, headers=headers)
    assert response.status_code in (200, 400, 422), (action, response.json)
    if response.status_code != 200:
        assert CLIENT.get(f"/games/{game_id}").json["version"] == view["version"]


@settings(max_examples=100, deadline=None)
@given(body=json_values)
def test_any_json_body_gets_a_json_answer(body):
    game_id, tokens = game_after("life-is-life", 0, 0)
    headers = {"Authorization": f"Bearer {tokens[0]}"}
    for url in ("/games", f"/games/{game_id}/actions", f"/games/{game_id}/join", "/tournaments"):
        response = CLIENT.post(url, json=body, headers=headers)
        assert response.status_code < 500, (url, body, response.json)
        assert "error" in response.json or response.status_code in (200, 201)
