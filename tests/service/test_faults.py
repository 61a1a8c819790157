"""Fault injection with real processes: no crash strands a game, an outage is a 503 and workers outlive it.

Real `menagerie worker` (and `menagerie serve`) subprocesses on the real Redis
at REDIS_URL (under this test's own key prefix), and, for the restart, on a
redis-server of the test's own (own port, temp dir, AOF `always`). Nothing
sleeps and hopes: every wait polls for a condition until a deadline. Each test
prints the longest stall it saw (`pytest -s tests/test_faults.py`).
"""

from __future__ import annotations

import re
import shutil
import signal
import time
import uuid
from collections.abc import Iterator
from pathlib import Path

import pytest
import redis
from rq import Queue, Worker
from rq.registry import StartedJobRegistry

from domain.audit import audit
from service.bootstrap import Services, build
from tests.support.processes import (
    OwnRedis,
    Processes,
    Watch,
    children_of,
    free_port,
    has_ended,
    http,
    port_in,
    remove_run,
    url_of,
    wait_for,
)
from tests.support.services import REAL_REDIS

STEP_TIMEOUT_S = 3
BOUND_S = 2 * STEP_TIMEOUT_S  # a step resumes within 2x the job timeout after any crash
OUTAGE_S = 3
# One step a job, as a job ran before steps were taken in slices: a crash then falls between two
# steps of a game, and a few all-bot games are still under way when Redis is killed.
ONE_STEP_A_JOB = {"MENAGERIE_STEP_SLICE_MS": "0"}
# Ports for a redis-server of a test's own that it kills and starts again on the same port.
OWN_PORTS = range(7400, 7500)

pytestmark = [
    pytest.mark.redis,
    pytest.mark.skipif(shutil.which("redis-server") is None, reason="SKIPPED: no redis-server on PATH"),
]


@pytest.fixture
def processes(tmp_path: Path) -> Iterator[Processes]:
    procs = Processes(tmp_path, STEP_TIMEOUT_S)
    yield procs
    procs.stop_all()


@pytest.fixture
def real() -> Iterator[tuple[redis.Redis, str]]:
    """The Redis at REDIS_URL and a key prefix of this test alone (its keys removed afterwards)."""
    if REAL_REDIS is None:
        pytest.skip("SKIPPED: no Redis server at REDIS_URL")
    prefix = f"test-{uuid.uuid4().hex[:12]}"
    yield REAL_REDIS, prefix
    remove_run(REAL_REDIS, prefix)


def all_bot_game(services: Services, seed: str) -> str:
    game, _ = services.games.create("life-is-life", [{"bot": "heuristic"}] * 3, {}, seed=seed)
    return game.id


def finished_and_audited(services: Services, game_id: str) -> None:
    game = services.repository.load(game_id)
    assert game.status == "finished"
    report = audit(services.store.read_raw(game_id))
    assert report.ok, report.to_dict()


def test_a_worker_killed_while_it_holds_a_step_job_does_not_strand_the_game(real, processes):
    client, prefix = real
    services = build(client, prefix, inline_jobs=False, step_timeout_s=STEP_TIMEOUT_S)
    url = url_of(client)
    holder = processes.menagerie("holder", ["worker"], url, prefix, fault="hang@before-step-append")
    game_id = all_bot_game(services, "kill-9")
    started = StartedJobRegistry(queue=Queue(prefix, connection=client))
    wait_for(lambda: started.get_job_ids(), 30, "the worker to take the step job")
    version = services.store.version(game_id)
    processes.menagerie("survivor", ["worker"], url, prefix)
    queue = Queue(prefix, connection=client)
    wait_for(lambda: Worker.count(queue=queue) >= 2, 60, "the second worker to listen")
    # The holder started first, so it holds the queue's scheduler lock and runs RQ's scheduler as its child.
    scheduler = wait_for(lambda: children_of(holder.pid), 30, "the holder's scheduler process")
    holder.send_signal(signal.SIGKILL)
    holder.wait(10)
    killed = time.monotonic()
    # The bound (2x the step timeout) with room for a loaded machine: the deadline is what fails a
    # stranded game; the stall itself is printed, a figure rather than a timing assertion.
    wait_for(lambda: services.store.version(game_id) > version, 3 * BOUND_S, "another worker to take the step")
    stall = time.monotonic() - killed
    print(f"\nkill -9 of a worker holding a step: the game moved again {stall:.2f} s after the kill")
    wait_for(lambda: all(has_ended(pid) for pid in scheduler), 30, "the killed worker's scheduler to stop with it")
    watch = Watch(services.store.version, lambda g: services.repository.load(g).status == "finished")
    wait_for(lambda: watch.poll([game_id]), 120, "the game to finish")
    print(f"longest stall afterwards: {watch.longest:.2f} s")
    finished_and_audited(services, game_id)


def test_a_process_dying_between_append_and_enqueue_does_not_strand_the_game(real, processes):
    client, prefix = real
    services = build(client, prefix, inline_jobs=False, step_timeout_s=STEP_TIMEOUT_S)
    url = url_of(client)
    crasher = processes.menagerie("crasher", ["worker"], url, prefix, fault="exit@after-append", env=ONE_STEP_A_JOB)
    game_id = all_bot_game(services, "append-then-die")
    version = services.store.version(game_id)
    wait_for(lambda: crasher.poll() is not None, 30, "the worker to die after its append")
    died = time.monotonic()
    after_crash = services.store.version(game_id)
    assert after_crash == version + 1  # the step was stored ...
    assert Queue(prefix, connection=client).count == 0  # ... and its follow-up never enqueued
    seconds, micros = client.time()
    now_ms = int(seconds) * 1000 + int(micros) // 1000
    assert services.due.pending()[game_id] <= now_ms + STEP_TIMEOUT_S * 1000  # but it is marked, due within T
    processes.menagerie("survivor", ["worker"], url, prefix)
    wait_for(lambda: services.store.version(game_id) > after_crash, BOUND_S + 30, "the next step")
    stall = time.monotonic() - died
    # The survivor's own start-up is in it (seconds on a loaded machine); the mark itself is due at once.
    print(f"\ncrash between append and enqueue: the game moved again {stall:.2f} s after the crash")
    watch = Watch(services.store.version, lambda g: services.repository.load(g).status == "finished")
    wait_for(lambda: watch.poll([game_id]), 120, "the game to finish")
    finished_and_audited(services, game_id)


def test_a_redis_restart_mid_play_is_503s_workers_survive_and_every_game_finishes(own_redis, processes):
    prefix = "faults"
    api = f"http://127.0.0.1:{free_port()}"
    port = api.rsplit(":", 1)[1]
    processes.menagerie("api", ["serve", "--port", port], own_redis.url, prefix)
    workers = [
        processes.menagerie(f"worker-{i}", ["worker"], own_redis.url, prefix, env=ONE_STEP_A_JOB) for i in range(2)
    ]
    wait_for(lambda: http("GET", f"{api}/health")[0] == 200, 30, "the API to answer")
    worker_pids = [str(worker.pid) for worker in workers]
    kinds = [("life-is-life", 3), ("animals-on-board", 2), ("bloede-kuh", 3)]
    game_ids = []
    for i in range(6):
        game, seats = kinds[i % len(kinds)]
        status, created = http("POST", f"{api}/games", {"game": game, "seats": [{"bot": "heuristic"}] * seats})
        assert status == 201, created
        game_ids.append(created["id"])

    def version(game_id: str) -> int:
        status, view = http("GET", f"{api}/games/{game_id}")
        assert status in (200, 503), (status, view)
        return int(view["version"]) if status == 200 else -1

    acknowledged = {game_id: version(game_id) for game_id in game_ids}
    wait_for(lambda: any(version(g) > acknowledged[g] for g in game_ids), 30, "play to be under way")
    acknowledged = {game_id: version(game_id) for game_id in game_ids}

    own_redis.kill()
    outage_began = time.monotonic()
    status, down = http("GET", f"{api}/health")
    assert status == 503 and int(down["retry_after"]) >= 1
    status, _ = http("POST", f"{api}/games", {"game": "life-is-life", "seats": [{"bot": "random"}] * 3})
    assert status == 503
    assert all(version(g) == -1 for g in game_ids)  # 503, never a 500
    # Whichever of a worker's parts meets the outage first says so, for the process.
    wait_for(
        lambda: all("lost the store" in processes.log(f"worker-{i}") for i in range(2)),
        30,
        "both workers to notice the outage",
    )
    # Keep the store down a while, looking all the time: every answer is a 503, no worker exits.
    while time.monotonic() - outage_began < OUTAGE_S:
        assert http("GET", f"{api}/health")[0] == 503
        assert all(worker.poll() is None for worker in workers), "a worker exited during the outage"
    own_redis.start()
    outage = time.monotonic() - outage_began
    wait_for(lambda: http("GET", f"{api}/health")[0] == 200, 30, "the API to see the store again")

    store = redis.Redis.from_url(own_redis.url)
    services = build(store, prefix, inline_jobs=False, step_timeout_s=STEP_TIMEOUT_S)
    for game_id, seen in acknowledged.items():
        assert services.store.version(game_id) >= seen  # nothing acknowledged was lost
    watch = Watch(services.store.version, lambda g: services.repository.load(g).status == "finished")
    wait_for(lambda: watch.poll(game_ids), 120, "every game to finish after the restart")
    print(f"\nredis restart: outage {outage:.2f} s; longest stall after it: {watch.longest:.2f} s")
    assert all(worker.poll() is None for worker in workers), "a worker exited"
    for game_id in game_ids:
        status, report = http("GET", f"{api}/games/{game_id}/audit")
        assert status == 200 and report["ok"], report
    assert services.due.pending() == {}
    assert "internal_error" not in processes.log("api")
    for i in range(2):
        # An outage is a line when it begins and one when it ends a process (the worker's, shared by
        # its steward; its scheduler's), never a traceback; the scheduler waited it out, in the same process.
        logged = processes.log(f"worker-{i}")
        lost = re.findall(r"\(pid (\d+)\) lost the store", logged)
        assert "Traceback" not in logged and worker_pids[i] in lost and len(lost) == len(set(lost)) <= 2, logged
        assert "Scheduler with PID" not in logged  # it never stopped


@pytest.mark.parametrize("signum", [signal.SIGTERM, signal.SIGINT])
def test_a_worker_asked_to_stop_while_idle_stops(real, processes, signum):
    """An operator's stop (SIGTERM, Ctrl-C) ends `menagerie worker`; only an outage makes it start again."""
    store, prefix = real
    worker = processes.menagerie("worker", ["worker"], url_of(store), prefix)
    # RQ installs its signal handlers after it starts listening, before its loop's first maintenance.
    wait_for(lambda: "cleaning registries" in processes.log("worker"), 30, "the worker's loop to run")
    scheduler = wait_for(lambda: children_of(worker.pid), 30, "the worker's scheduler to start")
    worker.send_signal(signum)
    assert worker.wait(20) == 0
    wait_for(lambda: all(has_ended(pid) for pid in scheduler), 10, "its scheduler to stop")
    assert "starts again" not in processes.log("worker")


@pytest.mark.parametrize("store", ["up", "down"])
def test_a_worker_killed_9_leaves_no_child_behind(own_redis, processes, store):
    """RQ's scheduler is the worker's child: it ends with a `kill -9` of the worker, even when Redis is down then."""
    worker = processes.menagerie("worker", ["worker"], own_redis.url, "orphans")
    children = wait_for(lambda: children_of(worker.pid), 30, "the worker's scheduler to start")
    if store == "down":
        own_redis.kill()
    worker.send_signal(signal.SIGKILL)
    worker.wait(10)
    wait_for(lambda: all(has_ended(pid) for pid in children), 30, "the killed worker's children to end")


@pytest.fixture
def own_redis_in_range(tmp_path: Path) -> Iterator[OwnRedis]:
    """A redis-server of the test's own on a port of `OWN_PORTS`, killed at the end if still running."""
    (tmp_path / "redis").mkdir()
    server = OwnRedis(tmp_path / "redis")
    server.port = port_in(OWN_PORTS)
    server.start()
    yield server
    if server.process is not None and server.process.poll() is None:
        server.kill()


def test_an_outage_is_one_line_when_it_begins_and_one_when_it_ends_a_process(own_redis_in_range, processes):
    """A worker process's components (its loop, its steward) share one report of an outage; its scheduler has its own."""
    own = own_redis_in_range
    prefix = "outage-lines"
    worker = processes.menagerie("worker", ["worker"], own.url, prefix)
    wait_for(lambda: "cleaning registries" in processes.log("worker"), 30, "the worker's loop to run")
    started = wait_for(lambda: re.search(r"started with PID (\d+)\n", processes.log("worker")), 30, "its scheduler")
    scheduler = int(started.group(1))
    own.kill()
    # Down long enough for each component to meet it (the steward polls every 0.5 s, the scheduler every 1 s).
    outage_began = time.monotonic()
    while time.monotonic() - outage_began < OUTAGE_S:
        assert worker.poll() is None, "the worker exited during the outage"
        time.sleep(0.1)
    own.start()

    def reported(pid: int, what: str) -> int:
        return len(re.findall(rf"\(pid {pid}\) {what}", processes.log("worker")))

    wait_for(
        lambda: reported(worker.pid, "has the store back") and reported(scheduler, "has the store back"),
        30,
        "both back",
    )
    # The steward is back too once it has claimed (and, finding no game, released) an overdue mark made now.
    store = redis.Redis.from_url(own.url)
    store.zadd(f"{prefix}:due", {"no-such-game": 0})
    wait_for(lambda: store.zscore(f"{prefix}:due", "no-such-game") is None, 30, "the steward to poll again")
    logged = processes.log("worker")
    lines = [line for line in logged.splitlines() if "lost the store" in line or "has the store back" in line]
    assert len(lines) == 4, logged
    for pid in (worker.pid, scheduler):
        assert reported(pid, "lost the store") == 1 and reported(pid, "has the store back") == 1, logged
    assert "Traceback" not in logged
