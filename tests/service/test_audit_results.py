"""A finished game's or tournament's audit runs once and is kept; the audit routes have a rate limit of their own."""

from __future__ import annotations

from collections import Counter
from typing import Any

import pytest

from service.application import archive as archive_module
from service.application import audits as audits_module
from service.application import tournament_files as tournament_files_module
from service.bootstrap import Services, build
from service.http import create_app
from tests.support.openapi import check_response
from tests.support.services import FAKE, REAL, on_every_store

redis_client = on_every_store(FAKE, REAL)


@pytest.fixture
def audits_run(monkeypatch) -> Counter:
    """Count every game and tournament audit computed, wherever the service computes one."""
    counted: Counter = Counter()

    def counting(name: str, real: Any) -> Any:
        def audit(*args: Any, **kwargs: Any) -> Any:
            counted[name] += 1
            return real(*args, **kwargs)

        return audit

    for module in (archive_module, audits_module):
        for name in ("audit", "audit_log"):
            if hasattr(module, name):
                monkeypatch.setattr(module, name, counting("game", getattr(module, name)))
    for module in (audits_module, tournament_files_module):
        monkeypatch.setattr(module, "audit_bundle", counting("tournament", module.audit_bundle))
    return counted


def finished_game(services: Services, seed: str = "kept") -> str:
    game, _ = services.games.create("toy", [{"bot": "random"}, {"bot": "random"}], {}, seed=seed)
    assert services.repository.load(game.id).status == "finished"
    return game.id


def finished_tournament(services: Services, seed: str = "kept") -> str:
    created, _ = services.tournaments.create("toy", rounds=2, table_sizes=[3], seed=seed)
    for _ in range(6):
        services.tournaments.register(created.id, bot="random")
    services.tournaments.start(created.id)
    assert services.tournaments.load(created.id).status == "finished"
    return created.id


def app_client(redis_client, prefix, **config: Any) -> Any:
    """An API process of its own (its own caches) on the shared store."""
    return create_app(build(redis_client, prefix, inline_jobs=True), config).test_client()


def test_a_finished_games_audit_runs_once_and_every_later_ask_on_any_process_gets_the_kept_result(
    redis_client, prefix, audits_run
):
    first, second = app_client(redis_client, prefix), app_client(redis_client, prefix)
    game_id = finished_game(build(redis_client, prefix, inline_jobs=True))
    answers = [client.get(f"/games/{game_id}/audit") for client in (first, first, second, second)]
    assert all(answer.status_code == 200 for answer in answers)
    assert answers[0].json["ok"] is True and all(answer.json == answers[0].json for answer in answers)
    check_response("/games/{id}/audit", "get", answers[-1])
    assert audits_run["game"] == 1


def test_a_finished_tournaments_audit_runs_once_and_every_later_ask_gets_the_kept_result(
    redis_client, prefix, audits_run
):
    first, second = app_client(redis_client, prefix), app_client(redis_client, prefix)
    tournament_id = finished_tournament(build(redis_client, prefix, inline_jobs=True))
    answers = [client.get(f"/tournaments/{tournament_id}/audit") for client in (first, second, first)]
    assert all(answer.status_code == 200 and answer.json == answers[0].json for answer in answers)
    assert answers[0].json["ok"] is True and answers[0].json["games"] == 4
    assert audits_run["tournament"] == 1


def test_an_unfinished_game_is_refused_and_nothing_is_kept_for_it(redis_client, prefix, audits_run):
    client = app_client(redis_client, prefix)
    created = client.post("/games", json={"game": "toy", "seats": [{"name": "ann"}, {"bot": "random"}]}).json
    for _ in range(2):
        answer = client.get(f"/games/{created['id']}/audit")
        assert answer.status_code == 403 and answer.json["error"]["code"] == "game_in_play"
    assert not any(":result" in str(key) for key in redis_client.keys(f"{prefix}:*"))


def test_the_audit_routes_share_a_rate_limit_of_their_own_and_other_reads_are_not_held(redis_client, prefix):
    services = build(redis_client, prefix, inline_jobs=True)
    game_id, tournament_id = finished_game(services), finished_tournament(services)
    client = app_client(redis_client, prefix, RATE_LIMIT_AUDITS="2 per minute")
    assert client.get(f"/games/{game_id}/audit").status_code == 200
    assert client.get(f"/tournaments/{tournament_id}/audit").status_code == 200
    for path in (f"/games/{game_id}/audit", f"/tournaments/{tournament_id}/audit"):
        answer = client.get(path)
        assert answer.status_code == 429 and answer.json["error"]["code"] == "too_many_requests"
        assert int(answer.headers["Retry-After"]) >= 1
    check_response("/games/{id}/audit", "get", client.get(f"/games/{game_id}/audit"))
    assert client.get(f"/games/{game_id}").status_code == 200
    assert client.get(f"/tournaments/{tournament_id}").status_code == 200
    other = f"/games/{game_id}/audit"
    assert client.get(other, environ_base={"REMOTE_ADDR": "10.0.0.9"}).status_code == 200  # per address
