"""The hot path's shortcuts answer exactly as the schemas and the projection do: a query, a view; a legal action loads."""

from __future__ import annotations

import random
from typing import Any

import pytest

from domain.game import ACTIVE, Game
from domain.games import RULES
from service.http.actions import load_action

GAMES = ["life-is-life", "animals-on-board", "bloede-kuh", "zop-zoo"]


def _legal_actions_of_played_games(fake_services: Any, game_type: str, seats: int) -> list[dict[str, Any]]:
    """Every legal action offered along one game played by random choices (bots take the system's steps)."""
    services = fake_services
    game, _ = services.games.create(game_type, [{"name": f"p{i}"} for i in range(seats)], {}, seed="hot-path")
    pick = random.Random(game_type)
    offered: list[dict[str, Any]] = []
    for _ in range(80):
        game = services.repository.load(game.id)
        if game.status != ACTIVE or not game.to_act:
            break
        seat = min(game.to_act)
        actions = game.legal_actions(seat)
        offered.extend(actions)
        services.games.act(game.id, seat, pick.choice(actions))
    return offered


@pytest.mark.parametrize("game_type", GAMES)
def test_every_legal_action_offered_loads_as_it_came_field_for_field_and_in_order(fake_services, game_type):
    seats = RULES[game_type].min_seats
    offered = _legal_actions_of_played_games(fake_services, game_type, seats)
    assert offered
    for action in offered:
        loaded = load_action(game_type, action)
        assert loaded == action
        assert list(loaded) == ["type", *(name for name in RULES[game_type].actions[action["type"]] if name in action)]


def test_a_view_is_projected_once_per_version_and_seat_and_only_for_that_seat(fake_services, monkeypatch):
    from flask import Flask

    import service.http.views as views
    from service.http import create_app

    client = create_app(fake_services, {"RATE_LIMITS_ENABLED": False}).test_client()
    assert isinstance(client.application, Flask)
    created = client.post("/games", json={"game": "toy", "seats": [{"name": "ann"}, {"name": "bob"}]}).json
    game_id, tokens = created["id"], [seat["token"] for seat in created["seats"]]
    projected: list[tuple[int, int | None]] = []
    real = views.game_view

    def counting(game: Game, seat: int | None, *, open_view: bool = False, handles: Any = None) -> dict[str, Any]:
        projected.append((game.version, seat))
        return real(game, seat, open_view=open_view, handles=handles)

    monkeypatch.setattr(views, "game_view", counting)
    ann, bob = ({"Authorization": f"Bearer {token}"} for token in tokens)
    first = client.get(f"/games/{game_id}", headers=ann)
    again = client.get(f"/games/{game_id}", headers=ann)
    theirs = client.get(f"/games/{game_id}", headers=bob)
    spectator = client.get(f"/games/{game_id}")
    assert first.data == again.data
    assert first.json["state"]["your_secret"] is not None and first.json["you"] == 0
    assert theirs.json["you"] == 1 and theirs.json["state"]["your_secret"] != first.json["state"]["your_secret"]
    assert spectator.json["you"] is None and spectator.json["state"]["your_secret"] is None
    version = first.json["version"]
    assert projected == [(version, 0), (version, 1), (version, None)]
    seat = first.json["to_act"][0]
    mover = (ann, bob)[seat]
    view = client.get(f"/games/{game_id}", headers=mover).json
    client.post(
        f"/games/{game_id}/actions",
        json={"action": view["legal_actions"][0], "expected_version": view["version"]},
        headers=mover,
    )
    after = client.get(f"/games/{game_id}", headers=ann).json
    assert after["version"] > version
    assert projected[-1] == (after["version"], 0)
