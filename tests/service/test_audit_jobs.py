"""Long audits run as jobs: 202 with a Location to poll, progress, the result kept; in-process and on RQ workers.

The inline limits are lowered (3 games, 5 events) so that a toy tournament of
9 games and a toy game of some 15 events are "long".
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import pytest
from flask.testing import FlaskClient
from rq import Queue, SimpleWorker

from service.adapters.jobs import worker_queues
from service.adapters.slots import aggregate_key
from service.application import audits as audits_module
from service.bootstrap import Services, build, serve_jobs
from service.http import create_app
from tests.support.services import on_every_store, queue_redis_beside

# The audits' records live in the store: fakeredis, the real Redis and a Redis Cluster (RQ beside it).
redis_client = on_every_store()


@dataclass
class Server:
    """A server of one mode, and the in-process services that play its games and tournaments."""

    mode: str
    services: Services
    players: Services
    client: FlaskClient

    def run_jobs(self) -> None:
        """Let the jobs run: RQ's through a burst worker; in-process ones already have."""
        if self.mode == "rq":
            rq = self.services.rq()
            SimpleWorker(worker_queues(self.services.prefix, rq), connection=rq, name=f"{self.services.prefix}-w").work(
                burst=True
            )

    def poll(self, location: str) -> dict[str, Any]:
        """Run what is queued, then read the audit."""
        self.run_jobs()
        response = self.client.get(location)
        assert response.status_code == 200, response.json
        return dict(response.json)


def serve(mode: str, redis_client: Any, prefix: str, monkeypatch: pytest.MonkeyPatch) -> Server:
    """Build a server of `mode` on the store, with the lowered inline limits."""
    monkeypatch.setenv("MENAGERIE_AUDIT_INLINE_GAMES", "3")
    monkeypatch.setenv("MENAGERIE_AUDIT_INLINE_EVENTS", "5")
    players = build(redis_client, prefix, inline_jobs=True)
    if mode == "embedded":
        return Server(mode, players, players, create_app(players).test_client())
    # A worker's jobs run on these services (their store may be a cluster, RQ's Redis beside it).
    services = serve_jobs(build(redis_client, prefix, inline_jobs=False, queue_redis=queue_redis_beside(redis_client)))
    return Server(mode, services, players, create_app(services).test_client())


@pytest.fixture(params=["embedded", "rq"])
def server(request, redis_client, prefix, monkeypatch) -> Server:
    """A server with in-process jobs, then one with RQ workers."""
    return serve(request.param, redis_client, prefix, monkeypatch)


@pytest.fixture
def rq_server(redis_client, prefix, monkeypatch) -> Server:
    """A server with RQ workers: its jobs wait until `run_jobs`, so what happens before they run can be seen."""
    return serve("rq", redis_client, prefix, monkeypatch)


def finished_tournament(services: Services, seed: str = "audit-jobs") -> str:
    """Play an all-bot Swiss toy tournament of 9 players, 3 rounds of tables of 3 (9 games); return its id."""
    created, _ = services.tournaments.create("toy", rounds=3, table_sizes=[3], seed=seed)
    for _ in range(9):
        services.tournaments.register(created.id, bot="random")
    services.tournaments.start(created.id)
    assert services.tournaments.load(created.id).status == "finished"
    return created.id


def finished_game(services: Services, seed: str = "audit-jobs") -> str:
    """Play an all-bot toy game to its end; return its id."""
    game, _ = services.games.create("toy", [{"bot": "random"}, {"bot": "random"}], {}, seed=seed)
    assert services.repository.load(game.id).status == "finished"
    return game.id


def tamper(services: Services, game_id: str, seq: int) -> None:
    """Rewrite a game's stored stream with one event's data changed, as someone with the store's keys could."""
    raw = services.store.read_raw(game_id)
    raw[seq - 1]["data"] = {**raw[seq - 1]["data"], "tampered": True}
    services.redis.delete(aggregate_key(services.prefix, game_id, "events"))
    services.store.append_raw(game_id, raw, expected_version=0)


def recorded_at(services: Services, tournament_id: str, game_id: str) -> int:
    """Return the tournament event that records a game's result."""
    raw = services.store.read_raw(tournament_id)
    return next(e["seq"] for e in raw if e["type"] == "ResultRecorded" and e["data"]["game_id"] == game_id)


def accepted(response: Any) -> str:
    """Check a 202 for a job and return its Location."""
    assert response.status_code == 202, response.json
    assert int(response.headers["Retry-After"]) >= 1
    location = response.headers["Location"]
    assert location == f"/audits/{response.json['id']}"
    return str(location)


def test_a_large_tournament_audit_is_a_job_whose_result_is_the_synchronous_audit(server):
    tournament_id = finished_tournament(server.players)
    location = accepted(server.client.get(f"/tournaments/{tournament_id}/audit"))
    job = server.poll(location)
    assert job["status"] == "done" and job["kind"] == "tournament" and job["target"] == tournament_id
    assert job["progress"] == {"phase": "auditing", "done": 9, "total": 9, "unit": "games"}
    assert job["result"] == server.players.tournament_files.audit(tournament_id).to_dict()
    assert job["result"]["ok"] is True and job["failure"] is None


def test_a_tampered_game_fails_the_tournament_job_at_that_game(server):
    tournament_id = finished_tournament(server.players)
    game_id = server.players.tournaments.load(tournament_id).played[1].tables[2].game_id
    tamper(server.players, game_id, seq=4)
    job = server.poll(accepted(server.client.get(f"/tournaments/{tournament_id}/audit")))
    result = job["result"]
    assert job["status"] == "done" and result["ok"] is False and result["game_id"] == game_id
    assert result["failed_at"] == recorded_at(server.players, tournament_id, game_id)
    assert "fails its audit at event 4: hash chain broken" in result["reason"]
    assert result == server.players.tournament_files.audit(tournament_id).to_dict()


def test_a_second_ask_gets_the_kept_result_without_auditing_again(server, monkeypatch):
    tournament_id = finished_tournament(server.players)
    audited: list[str] = []
    real = audits_module.audit_bundle

    def counted(bundle, progress=None, verifier=None):  # type: ignore[no-untyped-def]
        audited.append(bundle.head["id"])
        return real(bundle, progress, verifier)

    monkeypatch.setattr(audits_module, "audit_bundle", counted)
    location = accepted(server.client.get(f"/tournaments/{tournament_id}/audit"))
    job = server.poll(location)
    again = server.client.get(f"/tournaments/{tournament_id}/audit")
    server.run_jobs()
    assert again.status_code == 200 and again.headers["Content-Location"] == location
    assert again.json == job["result"] and audited == [tournament_id]


def test_an_ask_while_the_job_waits_is_the_same_audit(rq_server):
    tournament_id = finished_tournament(rq_server.players)
    first = rq_server.client.get(f"/tournaments/{tournament_id}/audit")
    second = rq_server.client.get(f"/tournaments/{tournament_id}/audit")
    assert accepted(first) == accepted(second)
    waiting = rq_server.client.get(first.headers["Location"])
    assert waiting.json["status"] == "queued" and int(waiting.headers["Retry-After"]) >= 1
    assert waiting.json["progress"] == {"phase": "reading", "done": 0, "total": 9, "unit": "games"}
    assert Queue(rq_server.services.prefix, connection=rq_server.services.rq()).count == 1
    assert rq_server.poll(first.headers["Location"])["status"] == "done"


@pytest.mark.parametrize("audit_id", ["audit-" + "0" * 32, "nothing-like-an-id"])
def test_an_unknown_audit_is_a_404(server, audit_id):
    response = server.client.get(f"/audits/{audit_id}")
    assert response.status_code == 404 and response.json["error"]["code"] == "audit_not_found"


def test_a_long_game_audit_is_a_job_whose_result_is_the_synchronous_audit(server):
    game_id = finished_game(server.players)
    location = accepted(server.client.get(f"/games/{game_id}/audit"))
    job = server.poll(location)
    version = server.players.repository.load(game_id).version
    assert job["status"] == "done" and job["kind"] == "game" and job["version"] == version
    assert job["progress"] == {"phase": "auditing", "done": version, "total": version, "unit": "events"}
    assert job["result"] == server.players.archive.audit(game_id).to_dict() and job["result"]["ok"] is True
    again = server.client.get(f"/games/{game_id}/audit")
    assert again.status_code == 200 and again.json == job["result"] and again.headers["Content-Location"] == location


def test_a_tampered_long_game_fails_its_job_at_the_event(server):
    game_id = finished_game(server.players)
    tamper(server.players, game_id, seq=6)
    job = server.poll(accepted(server.client.get(f"/games/{game_id}/audit")))
    assert job["status"] == "done" and job["result"]["ok"] is False and job["result"]["failed_at"] == 6
    assert "hash chain broken" in job["result"]["reason"]


def test_a_job_that_breaks_says_failed_with_its_reason_and_the_next_ask_starts_it_again(server, monkeypatch):
    tournament_id = finished_tournament(server.players)

    def broken(bundle, progress=None, verifier=None):  # type: ignore[no-untyped-def]
        raise RuntimeError("a bug")

    monkeypatch.setattr(audits_module, "audit_bundle", broken)
    location = accepted(server.client.get(f"/tournaments/{tournament_id}/audit"))
    job = server.poll(location)
    assert job["status"] == "failed" and job["result"] is None
    assert job["failure"]["code"] == "audit_error" and "RuntimeError" in job["failure"]["message"]
    monkeypatch.undo()
    assert accepted(server.client.get(f"/tournaments/{tournament_id}/audit")) == location
    assert server.poll(location)["status"] == "done"


def test_a_game_archived_before_its_job_runs_fails_the_job_with_game_archived(rq_server, tmp_path):
    game_id = finished_game(rq_server.players)
    location = accepted(rq_server.client.get(f"/games/{game_id}/audit"))
    rq_server.players.archive.archive_to(game_id, str(tmp_path / "game.ndjson"))
    job = rq_server.poll(location)
    assert job["status"] == "failed" and job["failure"]["code"] == "game_archived"


def test_a_job_without_progress_for_too_long_reads_as_stalled_and_an_ask_restarts_it(rq_server, monkeypatch):
    tournament_id = finished_tournament(rq_server.players)
    location = accepted(rq_server.client.get(f"/tournaments/{tournament_id}/audit"))
    later = rq_server.services.audits.now() + audits_module.STALL_S + 1
    monkeypatch.setattr(rq_server.services.audits, "now", lambda: later)
    stalled = rq_server.client.get(location).json
    assert stalled["status"] == "failed" and stalled["failure"]["code"] == "audit_stalled"
    assert accepted(rq_server.client.get(f"/tournaments/{tournament_id}/audit")) == location
    assert rq_server.poll(location)["status"] == "done"


def test_the_job_writes_its_progress_as_it_goes(server, monkeypatch):
    monkeypatch.setattr(audits_module, "PROGRESS_EVERY_S", 0)
    tournament_id = finished_tournament(server.players)
    written: list[tuple[str, int]] = []
    records = type(server.services.audits.records)
    real = records.update

    def spied(self, record):  # type: ignore[no-untyped-def]
        if record["status"] == "running":
            written.append((record["progress"]["phase"], record["progress"]["done"]))
        return real(self, record)

    monkeypatch.setattr(records, "update", spied)
    server.poll(accepted(server.client.get(f"/tournaments/{tournament_id}/audit")))
    read = [done for phase, done in written if phase == "reading"]
    audited = [done for phase, done in written if phase == "auditing"]
    assert read == list(range(10)) and audited == list(range(1, 10))
    assert written.index(("auditing", 1)) > written.index(("reading", 9))


def test_small_audits_still_answer_at_once(fake_services):
    client = create_app(fake_services).test_client()
    tournament_id = finished_tournament(fake_services)
    response = client.get(f"/tournaments/{tournament_id}/audit")
    assert response.status_code == 200 and response.json["ok"] is True and "Location" not in response.headers
    game = client.get(f"/games/{finished_game(fake_services)}/audit")
    assert game.status_code == 200 and game.json["ok"] is True


def test_the_embedded_server_audits_on_its_own_thread(monkeypatch):
    import fakeredis

    monkeypatch.setenv("MENAGERIE_AUDIT_INLINE_GAMES", "3")
    served = build(fakeredis.FakeRedis(), "audit-thread", inline_jobs=True, embedded=True, background_jobs=True)
    players = build(served.redis, "audit-thread", inline_jobs=True, embedded=True)
    tournament_id = finished_tournament(players)
    client = create_app(served).test_client()
    location = accepted(client.get(f"/tournaments/{tournament_id}/audit"))
    job = wait_until_finished(client, location)
    assert job["status"] == "done" and job["result"] == players.tournament_files.audit(tournament_id).to_dict()


def wait_until_finished(client: FlaskClient, location: str, polls: int = 600) -> dict[str, Any]:
    """Poll as a client would, after each Retry-After (scaled down), until the audit is done or failed."""
    import time

    for _ in range(polls):
        response = client.get(location)
        if response.json["status"] in ("done", "failed"):
            return dict(response.json)
        time.sleep(int(response.headers["Retry-After"]) / 20)
    raise AssertionError(f"the audit at {location} did not finish")
