"""`menagerie audit FILE --log URL|STATE`: a game's export audits, and its result is proved in the signed log."""

from __future__ import annotations

import argparse
import json

import fakeredis
import pytest

from domain.transparency import merkle
from service.adapters.note_keys import new_signer
from service.adapters.tlog import log_key
from service.bootstrap import build
from service.cli import log_reader, monitor
from service.cli import main as menagerie
from service.http import create_app

URL = "http://log.test"
SIGNER = new_signer("log.test/results")


@pytest.fixture
def log_services(monkeypatch):
    """Services whose log answers at URL, for the commands' HTTP reads."""
    services = build(fakeredis.FakeRedis(), "audit-log", inline_jobs=True, embedded=True, log_signer=SIGNER)
    client = create_app(services).test_client()

    def fetch(path):
        response = client.get(path)
        return response.status_code, response.data

    monkeypatch.setattr(log_reader, "http_fetch", lambda url: fetch)
    return services, client, fetch


def _exported(client, tmp_path, seed):
    created = client.post("/games", json={"game": "toy", "seats": [{"bot": "random"}] * 2, "seed": seed}).json
    export = client.get(f"/games/{created['id']}/export", headers={"Accept": "application/x-ndjson"})
    path = tmp_path / f"{seed}.ndjson"
    path.write_bytes(export.data)
    return created["id"], path


def test_a_finished_games_file_audits_and_is_proved_in_the_log(log_services, tmp_path, capsys):
    services, client, _ = log_services
    _exported(client, tmp_path, "first")
    game_id, path = _exported(client, tmp_path, "second")
    assert menagerie(["audit", str(path), "--log", URL, "--log-key", SIGNER.verifier_key().text()]) == 0
    said = capsys.readouterr().out
    assert f"PASS toy {game_id}" in said and "in the log log.test/results at entry 1 of 2" in said
    assert "the key given" in said


def test_the_log_may_be_named_by_the_checkpoint_a_monitor_accepted(log_services, tmp_path, capsys):
    services, client, fetch = log_services
    game_id, path = _exported(client, tmp_path, "watched")
    state = tmp_path / "monitor.json"
    args = argparse.Namespace(url=URL, state=str(state), once=True, every=0, key=SIGNER.verifier_key().text())
    assert monitor.run(args, log_reader.LogReader(fetch)) == 0
    _exported(client, tmp_path, "later")  # the log grows past the monitor's checkpoint
    assert menagerie(["audit", str(path), "--log", str(state)]) == 0
    assert "at entry 0 of 1" in capsys.readouterr().out


def test_a_game_the_log_does_not_hold_fails(log_services, tmp_path, capsys):
    services, client, _ = log_services
    _exported(client, tmp_path, "logged")
    other = create_app(build(fakeredis.FakeRedis(), "elsewhere", inline_jobs=True, embedded=True)).test_client()
    _, path = _exported(other, tmp_path, "unlogged")
    assert menagerie(["audit", str(path), "--log", URL]) == 1
    assert "the file audits, but NOT IN LOG" in capsys.readouterr().out


def test_a_game_whose_logged_result_was_rewritten_fails(log_services, tmp_path, capsys):
    services, client, _ = log_services
    game_id, path = _exported(client, tmp_path, "rewritten")
    forged = json.dumps({"id": game_id, "type": "game", "final_version": 1, "final_hash": "00" * 32}).encode()
    services.redis.lset(log_key(services.prefix, "entries"), 0, forged)
    services.redis.lset(log_key(services.prefix, "leaves"), 0, merkle.leaf_hash(forged))
    assert menagerie(["audit", str(path), "--log", URL]) == 1
    assert "ANOTHER RESULT" in capsys.readouterr().out


def test_a_checkpoint_that_does_not_verify_with_the_key_given_fails(log_services, tmp_path, capsys):
    services, client, _ = log_services
    _, path = _exported(client, tmp_path, "signed")
    other = new_signer(SIGNER.name).verifier_key().text()
    assert menagerie(["audit", str(path), "--log", URL, "--log-key", other]) == 1
    assert "BAD SIGNATURE" in capsys.readouterr().out


def test_a_log_that_cannot_be_read_is_exit_2(log_services, tmp_path, monkeypatch, capsys):
    services, client, _ = log_services
    _, path = _exported(client, tmp_path, "down")
    monkeypatch.setattr(log_reader, "http_fetch", lambda url: lambda path: (503, b"{}"))
    assert menagerie(["audit", str(path), "--log", URL]) == 2
    assert "cannot read the log" in capsys.readouterr().err


def test_a_finished_tournaments_bundle_audits_and_is_proved_in_the_log(log_services, tmp_path, capsys):
    services, client, _ = log_services
    created, _ = services.tournaments.create("toy", rounds=1, table_sizes=[2], seed="logged")
    for _ in range(4):
        services.tournaments.register(created.id, bot="random")
    services.tournaments.start(created.id)
    path = tmp_path / "bundle.ndjson"
    path.write_text("".join(services.tournament_files.export(created.id)))
    assert menagerie(["audit-tournament", str(path), "--log", URL]) == 0
    said = capsys.readouterr().out
    assert f"PASS toy tournament {created.id}: " in said and "in the log log.test/results at entry" in said
    other = build(fakeredis.FakeRedis(), "elsewhere", inline_jobs=True, embedded=True)
    elsewhere, _ = other.tournaments.create("toy", rounds=1, table_sizes=[2], seed="unlogged")
    for _ in range(4):
        other.tournaments.register(elsewhere.id, bot="random")
    other.tournaments.start(elsewhere.id)
    path.write_text("".join(other.tournament_files.export(elsewhere.id)))
    assert menagerie(["audit-tournament", str(path), "--log", URL]) == 1
    assert "the bundle audits, but NOT IN LOG" in capsys.readouterr().out
