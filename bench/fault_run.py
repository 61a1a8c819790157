"""The fault run: all-bot games under `menagerie serve` while an RQ worker, an API worker and Redis are killed.

Starts a redis-server of its own (own port and temp dir, AOF `appendfsync
always`), `menagerie serve --workers 4` (granian; `--server gunicorn` for
gunicorn) and two `menagerie worker` processes on it, creates the games over
HTTP (all four games, heuristic and random bots) and watches them through the
API from a few client threads.
While they play it, in turn:

1. `kill -9` the RQ worker that holds a step job (it is not restarted: the
   survivor must pick up the abandoned job);
2. `kill -9` one API worker process (gunicorn's or granian's master starts another);
3. `kill -9` redis-server and start it again on the same files after
   --outage seconds.

Then it waits for every game to finish and prints: stuck games (unfinished at
the deadline), lost acknowledged events (a version some client was answered
that the stream no longer reaches), audit failures (GET /audit of every game),
5xx answers outside the outage window (the window runs from the kill of Redis
until /health answers 200 again; an answer counts as inside when the request
overlapped it), and the longest stall: the longest time an unfinished game
went without a new event, overall and outside the outage. Exit status 1 when
any of the first four is not 0.

Run: .venv/bin/python -m bench.fault_run [--games 40] [--step-timeout 10] [--outage 3]
"""

from __future__ import annotations

import argparse
import os
import shutil
import signal
import sys
import tempfile
import threading
import time
import uuid
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import redis
from rq import Queue, Worker

from bench.audit_answers import audit_report
from tests.support.processes import OwnRedis, Processes, children_of, free_port, http, wait_for

KINDS = [
    ("life-is-life", 3),
    ("animals-on-board", 2),
    ("bloede-kuh", 4),
    ("zop-zoo", 2),
    ("life-is-life", 4),
    ("animals-on-board", 4),
    ("bloede-kuh", 3),
    ("zop-zoo", 4),
]
OBSERVERS = 4
PREFIX = "faultrun"


@dataclass
class Game:
    """What the clients were told of one game."""

    id: str
    acknowledged: int = 0  # the highest version any client was answered
    changed: float = field(default_factory=time.monotonic)  # when that version was first seen
    finished: bool = False
    longest: float = 0.0
    longest_outside: float = 0.0


@dataclass
class Tally:
    """Every answer the clients got, by class; shared by the client threads."""

    lock: threading.Lock = field(default_factory=threading.Lock)
    statuses: Counter[int] = field(default_factory=Counter)
    five_xx_outside: list[tuple[float, int, str]] = field(default_factory=list)
    outages: list[tuple[float, float]] = field(default_factory=list)  # (began, ended) in monotonic seconds
    outage_began: float | None = None  # the outage going on now, if one is

    def begin_outage(self) -> None:
        with self.lock:
            self.outage_began = time.monotonic()

    def end_outage(self) -> float:
        """Close the outage going on; return how long it lasted."""
        with self.lock:
            assert self.outage_began is not None
            self.outages.append((self.outage_began, time.monotonic()))
            self.outage_began = None
            return self.outages[-1][1] - self.outages[-1][0]

    def overlaps_outage(self, began: float, ended: float) -> bool:
        with self.lock:
            windows = [*self.outages, *([(self.outage_began, float("inf"))] if self.outage_began is not None else [])]
            return any(began <= end and ended >= start for start, end in windows)

    def record(self, status: int, began: float, ended: float, what: str) -> None:
        with self.lock:
            self.statuses[status] += 1
        if status >= 500 and not self.overlaps_outage(began, ended):
            with self.lock:
                self.five_xx_outside.append((ended, status, what))


def observe(api: str, games: list[Game], tally: Tally, stop: threading.Event, share: int) -> None:
    """Read the views of every OBSERVERS-th game until told to stop, as a client watching its games would."""
    mine = games[share::OBSERVERS]
    while not stop.is_set():
        for game in mine:
            if game.finished:
                continue
            began = time.monotonic()
            status, view = http("GET", f"{api}/games/{game.id}")
            ended = time.monotonic()
            tally.record(status, began, ended, f"GET /games/{game.id}")
            if status != 200:
                continue
            if view["version"] > game.acknowledged:
                game.acknowledged, game.changed = view["version"], ended
            else:
                stalled = ended - game.changed
                game.longest = max(game.longest, stalled)
                if not tally.overlaps_outage(game.changed, ended):
                    game.longest_outside = max(game.longest_outside, stalled)
            game.finished = view["status"] == "finished"
        time.sleep(0.05)


def create_games(api: str, count: int, tally: Tally) -> list[Game]:
    """Create the all-bot games, retrying each with its Idempotency-Key until it is answered."""
    games = []
    for number in range(count):
        name, seats = KINDS[number % len(KINDS)]
        bots = [{"bot": "heuristic" if seat % 2 == 0 else "random"} for seat in range(seats)]
        body = {"game": name, "seats": bots, "seed": f"fault-run-{number}"}
        key = uuid.uuid4().hex

        def created(body: dict[str, Any] = body, key: str = key) -> Any:
            began = time.monotonic()
            status, answer = http("POST", f"{api}/games", body, {"Idempotency-Key": key})
            tally.record(status, began, time.monotonic(), "POST /games")
            return answer if status == 201 else None

        games.append(Game(wait_for(created, 60, f"game {number} to be created")["id"]))
    return games


def worker_holding_a_job(store: redis.Redis, workers: list[Any]) -> Any:
    """Return a `menagerie worker` process that runs a step job now, and the job's game, if one does."""
    by_pid = {process.pid: process for process in workers if process.poll() is None}
    for queue in Queue.all(connection=store):
        for worker in Worker.all(queue=queue):
            job_id = worker.get_current_job_id()
            if job_id and worker.pid in by_pid and "-step-" in job_id:
                # A step job's id is `<prefix>-step-<game id>-<version>` (service.adapters.jobs.step_job_id).
                return by_pid[worker.pid], job_id.split("-step-")[1].rsplit("-", 1)[0]
    return None


def main() -> int:
    """Run the load with its three faults and print the figures; 1 if anything was stuck, lost or broken."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--games", type=int, default=40)
    parser.add_argument("--step-timeout", type=int, default=10, help="MENAGERIE_STEP_TIMEOUT_S of the workers")
    parser.add_argument("--outage", type=float, default=3.0, help="seconds Redis stays down")
    parser.add_argument("--deadline", type=float, default=900.0, help="seconds for every game to finish")
    parser.add_argument("--server", choices=("granian", "gunicorn"), default="granian", help="menagerie serve --server")
    parser.add_argument("--keep-logs", action="store_true", help="keep the processes' logs after a good run too")
    args = parser.parse_args()

    return on_own_redis("menagerie-fault-run-", args.step_timeout, args.keep_logs, lambda own, ps: run(args, own, ps))


def on_own_redis(name: str, step_timeout: int, keep_logs: bool, body: Callable[[OwnRedis, Processes], int]) -> int:
    """Run `body` on a redis-server and processes of its own; their directory is kept when it fails (or if asked)."""
    directory = Path(tempfile.mkdtemp(prefix=name))
    own = OwnRedis(directory)
    own.start()
    processes = Processes(directory, step_timeout)
    failed = 1
    try:
        failed = body(own, processes)
    finally:
        processes.stop_all()
        own.kill()
        if not failed and not keep_logs:
            shutil.rmtree(directory)
    return failed


def run(args: argparse.Namespace, own: OwnRedis, processes: Processes) -> int:
    """Play the games through the three faults; print the report."""
    api = f"http://127.0.0.1:{free_port()}"
    serve = ["serve", "--server", args.server, "--port", api.rsplit(":", 1)[1], "--workers", "4"]
    server = processes.menagerie("api", serve, own.url, PREFIX)
    workers = [processes.menagerie(f"worker-{i}", ["worker"], own.url, PREFIX) for i in range(2)]
    wait_for(lambda: http("GET", f"{api}/health")[0] == 200, 60, "the API to answer")
    wait_for(lambda: len(children_of(server.pid)) == 4, 60, "the server's four workers")
    store = redis.Redis.from_url(own.url)
    tally = Tally()
    started = time.monotonic()
    games = create_games(api, args.games, tally)
    print(f"{len(games)} games created in {time.monotonic() - started:.1f} s", flush=True)
    stop = threading.Event()
    observers = [threading.Thread(target=observe, args=(api, games, tally, stop, i)) for i in range(OBSERVERS)]
    for thread in observers:
        thread.start()
    try:
        holder, held = wait_for(lambda: worker_holding_a_job(store, workers), 60, "a worker to hold a step job")
        holder.send_signal(signal.SIGKILL)
        print(f"{time.monotonic() - started:6.1f} s: kill -9 of the RQ worker {holder.pid} holding a step of {held}")
        time.sleep(5)  # a pause between faults, so each one's effect is seen on its own

        victim = children_of(server.pid)[0]
        os.kill(victim, signal.SIGKILL)
        print(f"{time.monotonic() - started:6.1f} s: kill -9 of the {args.server} worker {victim}")
        wait_for(lambda: len(children_of(server.pid)) == 4 and victim not in children_of(server.pid), 60,
                 "the server to replace its worker")  # fmt: skip
        time.sleep(5)

        tally.begin_outage()
        own.kill()
        print(f"{time.monotonic() - started:6.1f} s: kill -9 of redis-server; restart in {args.outage} s")
        time.sleep(args.outage)
        own.start()
        wait_for(lambda: http("GET", f"{api}/health")[0] == 200, 60, "the API to see the store again")
        print(f"{time.monotonic() - started:6.1f} s: the store is back after {tally.end_outage():.2f} s")

        end = time.monotonic() + args.deadline
        while not all(game.finished for game in games) and time.monotonic() < end:
            time.sleep(0.5)
    finally:
        stop.set()
        for thread in observers:
            thread.join()
    print(f"{time.monotonic() - started:6.1f} s: {sum(g.finished for g in games)} of {len(games)} games finished")
    return report(api, games, tally, processes, held)


def report(api: str, games: list[Game], tally: Tally, processes: Processes, held: str) -> int:
    """Check every game against what clients were told; print the figures."""
    stuck = [game.id for game in games if not game.finished]
    lost, broken = [], []
    for game in games:
        status, view = http("GET", f"{api}/games/{game.id}")
        if status != 200 or view["version"] < game.acknowledged:
            lost.append((game.id, game.acknowledged, view and view.get("version")))
        status, audit = audit_report(lambda url: http("GET", url), api, f"/games/{game.id}/audit")
        if status != 200 or not audit["ok"]:
            broken.append((game.id, status, audit))
    tracebacks = {name: processes.log(name).count("Traceback") for name in ("api", "worker-0", "worker-1")}
    longest = max(games, key=lambda game: game.longest)
    longest_outside = max(game.longest_outside for game in games)
    print()
    print(f"answers by status: {dict(sorted(tally.statuses.items()))} (0 = connection dropped, no answer)")
    print(f"stuck games:                  {len(stuck)} {stuck or ''}")
    print(f"lost acknowledged events:     {len(lost)} {lost or ''}")
    print(f"audit failures:               {len(broken)} {broken or ''}")
    print(f"5xx outside the outage:       {len(tally.five_xx_outside)} {tally.five_xx_outside[:5] or ''}")
    print(f"longest stall:                {longest.longest:.2f} s (game {longest.id})")
    print(f"longest stall outside outage: {longest_outside:.2f} s")
    print(
        f"longest stall of the game whose step the killed worker held: {next(g for g in games if g.id == held).longest:.2f} s"
    )
    print(f"tracebacks in the logs:       {tracebacks} (logs in {processes.logs})")
    failed = stuck or lost or broken or tally.five_xx_outside
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
