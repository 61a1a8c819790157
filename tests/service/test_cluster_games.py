"""A whole game of each of the four games, and a bot tournament, over the API on a 3-master Redis Cluster.

The store is the cluster (`REDIS_URL=redis+cluster://...` for the workers);
bots and system steps are played by two real `menagerie worker` processes
whose RQ queues live on the plain Redis at REDIS_URL (`RQ_REDIS_URL`), under
this test's own key prefix. The API runs in-process on the same services.
"""

from __future__ import annotations

import uuid
from collections.abc import Iterator
from pathlib import Path

import pytest
from rq import Queue, Worker

from service.bootstrap import Services, build
from service.http import create_app
from tests.support.cluster import OwnCluster
from tests.support.processes import Processes, remove_run, url_of, wait_for
from tests.support.services import REAL_REDIS

pytestmark = [pytest.mark.cluster, pytest.mark.redis]

# Each game with one human seat (played here, by its first legal action) and heuristic bots.
GAMES = [("life-is-life", 3), ("animals-on-board", 2), ("bloede-kuh", 3), ("zop-zoo", 2)]


@pytest.fixture
def deployment(redis_cluster: OwnCluster, cluster_client, tmp_path: Path) -> Iterator[tuple[Services, Processes]]:
    """Services on the cluster with RQ on the plain Redis, and two workers; every key of the run removed after."""
    if REAL_REDIS is None:
        pytest.skip("SKIPPED: no Redis server at REDIS_URL for RQ (set REDIS_URL=redis://127.0.0.1:6379/0)")
    prefix = f"test-cluster-{uuid.uuid4().hex[:10]}"
    services = build(cluster_client, prefix, inline_jobs=False, step_timeout_s=10, queue_redis=REAL_REDIS)
    processes = Processes(tmp_path, step_timeout_s=10)
    for name in ("worker-1", "worker-2"):
        processes.menagerie(name, ["worker"], redis_cluster.url, prefix, rq_url=url_of(REAL_REDIS))
    queue = Queue(prefix, connection=REAL_REDIS)
    wait_for(lambda: Worker.count(queue=queue) >= 2, 60, "both workers to listen")
    try:
        yield services, processes
    finally:
        processes.stop_all()
        for client in (cluster_client, REAL_REDIS):
            remove_run(client, prefix)


def play_seat_0(client, game_id: str, token: str) -> dict:
    """Play seat 0's first legal action whenever it is to act, until the game is over; return the last view."""
    headers = {"Authorization": f"Bearer {token}"}

    def moved_or_over() -> dict | None:
        view = client.get(f"/games/{game_id}", headers=headers).json
        if view["status"] == "finished":
            return view
        if 0 in view["to_act"] and view["legal_actions"]:
            body = {"action": view["legal_actions"][0], "expected_version": view["version"]}
            answer = client.post(f"/games/{game_id}/actions", headers=headers, json=body)
            assert answer.status_code in (200, 409), answer.json  # 409: a bot moved first in a simultaneous choice
        return None

    return wait_for(moved_or_over, 180, f"game {game_id} to finish")


@pytest.mark.parametrize(("game", "seats"), GAMES)
def test_a_whole_game_is_played_on_the_cluster_with_bots_on_real_workers(deployment, game, seats):
    services, processes = deployment
    client = create_app(services).test_client()
    body = {"game": game, "seats": [{"name": "ann"}] + [{"bot": "heuristic"}] * (seats - 1)}
    created = client.post("/games", json=body).json
    view = play_seat_0(client, created["id"], created["seats"][0]["token"])
    assert view["result"] is not None
    assert client.get(f"/games/{created['id']}/audit").json["ok"] is True
    # The workers took the bots' steps: nothing of the game is on RQ's Redis, nothing stayed due.
    assert not list(REAL_REDIS.scan_iter(match=f"{services.prefix}:{{*"))
    assert created["id"] not in services.due.pending()
    assert "Traceback" not in processes.log("worker-1") + processes.log("worker-2")


def test_a_bot_tournament_runs_to_the_end_on_the_cluster(deployment):
    services, processes = deployment
    client = create_app(services).test_client()
    tournament = client.post("/tournaments", json={"game": "bloede-kuh", "rounds": 2, "seed": "cluster"}).json
    organiser = {"Authorization": f"Bearer {tournament['organiser_token']}"}
    for _ in range(6):
        client.post(f"/tournaments/{tournament['id']}/register", json={"bot": "heuristic"}, headers=organiser)
    assert client.post(f"/tournaments/{tournament['id']}/start", headers=organiser).status_code == 200

    def finished() -> bool:
        return client.get(f"/tournaments/{tournament['id']}").json["status"] == "finished"

    wait_for(finished, 240, "the tournament to finish")
    assert client.get(f"/tournaments/{tournament['id']}/audit").json["ok"] is True
    assert "Traceback" not in processes.log("worker-1") + processes.log("worker-2")
