"""The archiver on schedule: finished games leave Redis for files, the lobby still lists them, import brings one back."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

import pytest
import redis

from service.adapters.connections import ConfigError
from service.application.archive_duty import duty_from_env
from service.bootstrap import build
from service.cli import main as menagerie
from service.http import create_app
from tests.support.openapi import check_response
from tests.support.services import on_every_store

redis_client = on_every_store()

ROUTES = ("", "/events?after=0", "/export", "/audit", "?at=3", "?open=true", "/stream")
SOON = timedelta(minutes=5)


def auth(token: str) -> dict:
    return {"Authorization": f"Bearer {token}"}


def finished_game(client, game: str = "life-is-life", seed: str = "sched") -> tuple[str, str]:
    seats = [{"name": "ann"}] + [{"bot": "heuristic"}] * 2
    created = client.post("/games", json={"game": game, "seats": seats, "seed": seed}).json
    game_id, token = created["id"], created["seats"][0]["token"]
    while (view := client.get(f"/games/{game_id}", headers=auth(token)).json)["status"] != "finished":
        client.post(f"/games/{game_id}/actions", json={"action": view["legal_actions"][-1]}, headers=auth(token))
    return game_id, token


def live_game(client) -> str:
    seats = [{"name": "bob"}, {"bot": "heuristic"}, {"bot": "heuristic"}]
    return client.post("/games", json={"game": "life-is-life", "seats": seats}).json["id"]


def keys_of(services, game_id: str) -> set[str]:
    pattern = f"{services.prefix}:{{{game_id}}}:"
    names = ("events", "packed", "seed", "snapshot", "archived")
    return {name for name in names if services.redis.exists(pattern + name)}


def export_text(client, game_id: str) -> str:
    return client.get(f"/games/{game_id}/export", headers={"Accept": "application/x-ndjson"}).get_data(as_text=True)


def test_the_archiver_moves_every_finished_game_to_a_file_and_every_server_answers_410_then_import_restores_it(
    services, redis_client, prefix, tmp_path
):
    first = create_app(services).test_client()
    second = create_app(build(redis_client, prefix, inline_jobs=True)).test_client()
    done = [finished_game(first, seed=f"s{n}") for n in range(2)]
    playing = live_game(first)
    before = {}
    for game_id, _ in done:
        for client in (first, second):  # both caches hold the finished game
            assert client.get(f"/games/{game_id}/audit").json["ok"] is True
        before[game_id] = (export_text(first, game_id), first.get(f"/games/{game_id}?open=true&at=7").json)

    run = services.archive.archive_finished(str(tmp_path), datetime.now(UTC) + SOON)

    assert sorted(run.archived) == sorted(game_id for game_id, _ in done) and run.in_play == 1
    assert keys_of(services, playing) == {"events", "seed"}
    for game_id, token in done:
        path = tmp_path / f"{game_id}.ndjson"
        assert path.read_text() == before[game_id][0]  # the file is the game's whole export
        assert keys_of(services, game_id) == {"archived"}  # only its tombstone is left
        assert menagerie(["audit", str(path)]) == 0
        for client in (second, first):
            for route in ROUTES:
                answer = client.get(f"/games/{game_id}{route}", headers=auth(token))
                assert answer.status_code == 410, (route, answer.json)
                assert answer.json["error"]["details"]["archive"] == game_id
                assert str(tmp_path) not in answer.get_data(as_text=True)  # the archive by its id, never a path

    game_id, token = done[0]
    with (tmp_path / f"{game_id}.ndjson").open() as lines:
        assert services.archive.import_lines(lines) == game_id
    assert keys_of(services, game_id) == {"packed"}  # packed, as every finished game is; its tombstone gone
    for client in (first, second):
        assert export_text(client, game_id) == before[game_id][0]
        assert client.get(f"/games/{game_id}?open=true&at=7").json == before[game_id][1]
        assert client.get(f"/games/{game_id}/audit").json["ok"] is True
    assert second.get(f"/games/{done[1][0]}").status_code == 410


def test_a_run_cut_short_between_the_file_and_the_delete_is_finished_by_the_next(
    services, redis_client, monkeypatch, tmp_path
):
    client = create_app(services).test_client()
    game_id, _ = finished_game(client)
    delete = services.store.delete

    def crash(game_id: str) -> None:
        raise redis.exceptions.ConnectionError("the archiver's host lost Redis here")

    monkeypatch.setattr(services.store, "delete", crash)
    with pytest.raises(redis.exceptions.ConnectionError):
        services.archive.archive_finished(str(tmp_path), datetime.now(UTC) + SOON)
    # The file is whole, the tombstone written, and the game still served: nothing is lost.
    assert (tmp_path / f"{game_id}.ndjson").exists()
    assert keys_of(services, game_id) == {"packed", "archived"}
    assert client.get(f"/games/{game_id}").status_code == 200

    monkeypatch.setattr(services.store, "delete", delete)
    run = services.archive.archive_finished(str(tmp_path), datetime.now(UTC) + SOON)
    assert run.archived == [game_id]
    assert keys_of(services, game_id) == {"archived"}
    assert client.get(f"/games/{game_id}").status_code == 410
    assert menagerie(["audit", str(tmp_path / f"{game_id}.ndjson")]) == 0
    assert not list(tmp_path.glob("*.partial"))
    # A third run finds nothing left to do.
    assert services.archive.archive_finished(str(tmp_path), datetime.now(UTC) + SOON).archived == []


def test_games_that_ended_after_the_date_and_games_a_tournament_in_play_needs_stay_packed(
    services, monkeypatch, tmp_path
):
    client = create_app(services).test_client()
    with monkeypatch.context() as held_back:  # as a game that ended before packing existed
        held_back.setattr(services.archive, "pack", lambda game_id: "held back")
        game_id, _ = finished_game(client)
    assert keys_of(services, game_id) == {"events", "seed"}
    run = services.archive.archive_finished(str(tmp_path), datetime.now(UTC) - timedelta(days=1))
    assert run.archived == []
    # Created before the date, ended after it: looked at, and left.
    created = services.redis.zscore(f"{services.prefix}:games", game_id)
    run = services.archive.archive_finished(str(tmp_path), datetime.fromtimestamp(created + 1e-6, UTC))
    assert run.archived == [] and run.recent == 1 and run.packed == 1
    services.archive.held = lambda held_id: held_id == game_id
    run = services.archive.archive_finished(str(tmp_path), datetime.now(UTC) + SOON)
    assert run.archived == [] and run.held == 1
    assert keys_of(services, game_id) == {"packed"} and not list(tmp_path.iterdir())


def test_the_lobby_lists_archived_games_marked_archived(services, tmp_path):
    client = create_app(services).test_client()
    game_id, _ = finished_game(client)
    playing = live_game(client)
    listed = client.get("/games").json["games"]
    services.archive.archive_finished(str(tmp_path), datetime.now(UTC) + SOON)
    answer = client.get("/games")
    check_response("/games", "get", answer)
    after = {line["id"]: line for line in answer.json["games"]}
    assert set(after) == {game_id, playing}
    assert after[game_id] == {**next(line for line in listed if line["id"] == game_id), "archived": True}
    assert "archived" not in after[playing]


def test_a_finished_games_footprint_drops_to_its_pack_then_to_its_tombstone(services, tmp_path):
    client = create_app(services).test_client()
    game_id, _ = finished_game(client, game="bloede-kuh")
    assert keys_of(services, game_id) == {"packed"}
    packed = services.redis.memory_usage(f"{services.prefix}:{{{game_id}}}:packed") if _has_memory(services) else 0
    services.archive.archive_finished(str(tmp_path), datetime.now(UTC) + SOON)
    assert keys_of(services, game_id) == {"archived"}
    if packed:
        assert services.redis.memory_usage(f"{services.prefix}:{{{game_id}}}:archived") < packed


def _has_memory(services) -> bool:
    try:
        services.redis.memory_usage(f"{services.prefix}:none")
    except redis.exceptions.ResponseError:
        return False
    return True


@pytest.mark.redis
def test_the_archive_command_takes_days_and_a_directory_and_import_refuses_a_live_game(cli_prefix, tmp_path, capsys):
    from tests.support.services import REAL_REDIS

    services = build(REAL_REDIS, cli_prefix, inline_jobs=True)
    client = create_app(services).test_client()
    game_id, _ = finished_game(client)
    out = tmp_path / "files"
    assert menagerie(["archive", "--finished-before", "1", "--to", str(out)]) == 0
    assert "archived 0 games" in capsys.readouterr().out
    assert menagerie(["archive", "--finished-before", "0", "--to", str(out)]) == 0
    assert "archived 1 games" in capsys.readouterr().out
    assert menagerie(["import", str(out / f"{game_id}.ndjson")]) == 0
    assert menagerie(["import", str(out / f"{game_id}.ndjson")]) == 1  # in the store again: refused
    assert "already in the store" in capsys.readouterr().err
    assert menagerie(["archive", "--finished-before", "0", "extra"]) == 2
    assert menagerie(["archive"]) == 2


def test_an_import_refuses_a_file_that_fails_its_audit(services, tmp_path):
    client = create_app(services).test_client()
    game_id, _ = finished_game(client)
    services.archive.archive_finished(str(tmp_path), datetime.now(UTC) + SOON)
    path = tmp_path / f"{game_id}.ndjson"
    tampered = path.read_text().replace('"winners": [', '"winners": [9, ', 1)
    assert tampered != path.read_text()
    with pytest.raises(Exception, match="fails its audit"):
        services.archive.import_lines(tampered.splitlines(keepends=True))
    assert client.get(f"/games/{game_id}").status_code == 410


def test_a_finished_tournaments_games_are_archived_and_its_bundle_and_audit_read_their_files(services, tmp_path):
    created, _ = services.tournaments.create("toy", rounds=2, table_sizes=[3], seed="arch-t")
    for _ in range(6):
        services.tournaments.register(created.id, bot="random")
    services.tournaments.start(created.id)
    tournament = services.tournaments.load(created.id)
    assert tournament.status == "finished"
    games = {table.game_id for round_ in tournament.played for table in round_.tables}
    assert all(services.archive.held(game_id) is False for game_id in games)
    bundle = list(services.tournament_files.export(created.id))
    view = create_app(services).test_client().get(f"/tournaments/{created.id}").json

    run = services.archive.archive_finished(str(tmp_path), datetime.now(UTC) + SOON)

    assert set(run.archived) == games
    assert list(services.tournament_files.export(created.id)) == bundle
    assert services.tournament_files.audit(created.id).ok
    assert create_app(services).test_client().get(f"/tournaments/{created.id}").json == view


def test_the_worker_duty_is_off_unless_turned_on_and_one_worker_runs_it_an_interval(services, tmp_path):
    environ = {"MENAGERIE_ARCHIVE_DIR": str(tmp_path)}
    assert duty_from_env(services.archive, services.redis, services.prefix, environ) is None
    for wrong in ("soon", "-1", "nan"):
        with pytest.raises(ConfigError):
            duty_from_env(services.archive, services.redis, services.prefix, {"MENAGERIE_ARCHIVE_AFTER_DAYS": wrong})
    client = create_app(services).test_client()
    game_id, _ = finished_game(client)
    environ["MENAGERIE_ARCHIVE_AFTER_DAYS"] = "0"
    first, second = (duty_from_env(services.archive, services.redis, services.prefix, environ) for _ in range(2))
    assert first is not None and second is not None
    run = first.run_once()
    assert run is not None and run.archived == [game_id]
    assert second.run_once() is None  # the other worker finds this interval's lease taken
    assert keys_of(services, game_id) == {"archived"} and (tmp_path / f"{game_id}.ndjson").exists()
