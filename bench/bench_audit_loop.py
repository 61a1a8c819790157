"""A seat's `GET /games/{id}` while anonymous clients loop on a finished tournament's audit: idle against under load.

Starts `menagerie serve` (`--server-workers` processes) and one `menagerie worker` on the Redis at
REDIS_URL, under a key prefix of its own (removed at the end), with the rate limits off unless
`--limits on`: off, nothing but the kept audit result stands between the loops and the server.
It plays a Life is Life tournament of 15 heuristic bots, 2 rounds of tables of 3 (10 games, the
largest audited in the request), creates a game whose seat waits on a human, and then times
`--samples` of that seat's GETs, one every 30 ms: idle, then while `--loops` clients (spread
over 4 processes) ask `GET /tournaments/{id}/audit` on keep-alive connections, each up to
`--pace` asks a second (2 by default: the pace of a loop when each ask cost the 0.3-1 s of an
audit computed afresh; 0 asks back to back, as fast as the server answers).

Prints the seat's GET latency (p50, p90, max) idle and under the loops, their ratio at p50 and
p90, the audit asks answered a second and their statuses, and `uptime` before and after (the
machine is shared: read the figures beside its load).

Run: REDIS_URL=redis://127.0.0.1:6379/15 .venv/bin/python -m bench.bench_audit_loop
[--loops 48] [--pace 2] [--samples 300] [--server-workers 2] [--limits off]
With PYTHONPATH pointing at another checkout, the server runs that checkout's code.

Measured on 2026-11-28 on the 2-core machine shared with seven other engineers (load average 8
to 16), 48 loops, rate limits off, each loop up to 2 asks a second:
    audits recomputed on every ask (the code before results were kept; 100 samples):
        seat GET idle p50 1.73 ms, p90 9.73 ms; under the loops p50 98.66 ms, p90 279.83 ms
        (57x at p50); 18 asks a second answered
    results kept: idle p50 1.70 ms, p90 8.50 ms; under the loops p50 1.72 ms, p90 5.82 ms
        (1.01x at p50); 83 asks a second answered, all 200
Loops back to back (`--pace 0`) are a flood like any other: with results kept and rate limits
off they ask 1,262 a second and the seat's p50 goes from 0.56 to 11.39 ms; with the default
limits on, 30 asks are answered and 7,746 refused with 429 in 17 s, and the seat's p50 goes from
1.89 to 25.81 ms. What holds a flood of any route to its share is a proxy's per-address
connection limit in front of the service (docs/operators.md).
"""

from __future__ import annotations

import argparse
import http.client
import multiprocessing
import os
import statistics
import subprocess
import sys
import tempfile
import threading
import time
import uuid
from collections import Counter
from pathlib import Path
from typing import Any

import orjson
from redis import Redis

from tests.support.processes import free_port, remove_run

PROCESSES = 4
TOURNAMENT = {"game": "life-is-life", "rounds": 2, "table_sizes": [3], "format": "swiss", "seed": "bench-audit"}
BOTS = 15
SAMPLE_EVERY_S = 0.03


class Client:
    """One keep-alive connection to the server."""

    def __init__(self, port: int) -> None:
        self.connection = http.client.HTTPConnection("127.0.0.1", port, timeout=30)

    def request(self, method: str, path: str, body: Any = None, token: str | None = None) -> tuple[int, Any]:
        headers = {"Content-Type": "application/json"} if body is not None else {}
        if token:
            headers["Authorization"] = f"Bearer {token}"
        self.connection.request(method, path, orjson.dumps(body) if body is not None else None, headers)
        answer = self.connection.getresponse()
        raw = answer.read()
        return answer.status, orjson.loads(raw) if raw else None


def setup(port: int) -> tuple[str, str, str]:
    """Play the tournament to its end and create the seat's game; return the tournament, game and seat token."""
    client = Client(port)
    status, created = client.request("POST", "/tournaments", TOURNAMENT)
    assert status == 201, created
    organiser = created["organiser_token"]
    tournament_id = created["id"]
    for _ in range(BOTS):
        status, answer = client.request(
            "POST", f"/tournaments/{tournament_id}/register", {"bot": "heuristic"}, organiser
        )
        assert status == 201, answer
    status, answer = client.request("POST", f"/tournaments/{tournament_id}/start", None, organiser)
    assert status == 200, answer
    deadline = time.monotonic() + 600
    while client.request("GET", f"/tournaments/{tournament_id}")[1]["status"] != "finished":
        if time.monotonic() > deadline:
            raise SystemExit("the tournament did not finish within 10 minutes")
        time.sleep(0.5)
    seats = [{"name": "ann"}, {"bot": "heuristic"}, {"bot": "heuristic"}]
    status, game = client.request("POST", "/games", {"game": "life-is-life", "seats": seats})
    assert status == 201, game
    return tournament_id, game["id"], game["seats"][0]["token"]


def seat_gets(port: int, game_id: str, token: str, samples: int) -> list[float]:
    """Time `samples` of the seat's GETs, one every SAMPLE_EVERY_S (as a player's client polls), in milliseconds."""
    client = Client(port)
    timings = []
    for _ in range(samples):
        start = time.perf_counter()
        status, _ = client.request("GET", f"/games/{game_id}", token=token)
        took = time.perf_counter() - start
        timings.append(took * 1000)
        assert status == 200
        time.sleep(max(0.0, SAMPLE_EVERY_S - took))
    return timings


def audit_loops(port: int, tournament_id: str, threads: int, pace: float, stop: Any, out: Any) -> None:
    """Ask the audit from `threads` connections, each up to `pace` a second (0: back to back), until `stop` is set;
    report the statuses."""
    statuses: Counter[int] = Counter()
    lock = threading.Lock()

    def loop() -> None:
        client = Client(port)
        while not stop.is_set():
            start = time.perf_counter()
            status, _ = client.request("GET", f"/tournaments/{tournament_id}/audit")
            with lock:
                statuses[status] += 1
            if pace:
                stop.wait(max(0.0, 1 / pace - (time.perf_counter() - start)))

    workers = [threading.Thread(target=loop) for _ in range(threads)]
    for worker in workers:
        worker.start()
    for worker in workers:
        worker.join()
    out.put(dict(statuses))


def figures(timings: list[float]) -> tuple[float, float, float]:
    ordered = sorted(timings)
    return statistics.median(ordered), ordered[int(0.9 * (len(ordered) - 1))], ordered[-1]


def uptime() -> str:
    return subprocess.run(["uptime"], capture_output=True, text=True, check=False).stdout.strip()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--loops", type=int, default=48)
    parser.add_argument("--samples", type=int, default=300)
    parser.add_argument("--server-workers", type=int, default=2)
    parser.add_argument("--limits", choices=["on", "off"], default="off")
    parser.add_argument("--pace", type=float, default=2.0, help="audit asks a second per loop (0: back to back)")
    args = parser.parse_args()
    url = os.environ.get("REDIS_URL", "redis://127.0.0.1:6379/15")
    prefix = f"bench-audit-loop-{uuid.uuid4().hex[:8]}"
    port = free_port()
    env = {**os.environ, "REDIS_URL": url, "MENAGERIE_PREFIX": prefix, "MENAGERIE_RATE_LIMITS": args.limits}
    env["MENAGERIE_BOT_GAMES_PER_ADDRESS"] = "1000"  # the bench's tournament is all bots, from one address
    menagerie = str(Path(sys.executable).with_name("menagerie"))
    logs = Path(tempfile.mkdtemp(prefix="bench-audit-loop-"))
    with open(logs / "server.log", "wb") as out:
        serve = [menagerie, "serve", "--port", str(port), "--workers", str(args.server_workers)]
        server = subprocess.Popen(serve, env=env, stdout=out, stderr=out)
        worker = subprocess.Popen([menagerie, "worker"], env=env, stdout=out, stderr=out)
    redis = Redis.from_url(url)
    print(f"uptime before: {uptime()}")
    try:
        deadline = time.monotonic() + 30
        while True:
            try:
                Client(port).request("GET", "/health")
                break
            except OSError:
                if time.monotonic() > deadline or server.poll() is not None:
                    raise SystemExit(f"the server did not start; see {logs}") from None
                time.sleep(0.2)
        tournament_id, game_id, token = setup(port)
        seat_gets(port, game_id, token, 20)  # warm both server processes' caches
        idle = seat_gets(port, game_id, token, args.samples)
        context = multiprocessing.get_context("fork")
        stop, out = context.Event(), context.Queue()
        per_process = [args.loops // PROCESSES + (n < args.loops % PROCESSES) for n in range(PROCESSES)]
        loops = [
            context.Process(target=audit_loops, args=(port, tournament_id, threads, args.pace, stop, out))
            for threads in per_process
            if threads
        ]
        started = time.perf_counter()
        for process in loops:
            process.start()
        time.sleep(2)  # every loop under way (the first ask of the audit computes it)
        loaded = seat_gets(port, game_id, token, args.samples)
        stop.set()
        statuses: Counter[int] = Counter()
        for _ in loops:
            statuses.update(out.get())
        elapsed = time.perf_counter() - started
        for process in loops:
            process.join()
    finally:
        for process in (server, worker):
            process.terminate()
        for process in (server, worker):
            process.wait(20)
        remove_run(redis, prefix)
    print(f"uptime after: {uptime()}")
    (i50, i90, imax), (l50, l90, lmax) = figures(idle), figures(loaded)
    pace = f"each up to {args.pace:g} asks a second" if args.pace else "each back to back"
    print(f"rate limits {args.limits}; {args.loops} audit loops, {pace}; {args.samples} seat GETs each way")
    print(f"seat GET idle:        p50 {i50:.2f} ms, p90 {i90:.2f} ms, max {imax:.2f} ms")
    print(f"seat GET under loops: p50 {l50:.2f} ms, p90 {l90:.2f} ms, max {lmax:.2f} ms")
    print(f"under/idle: p50 {l50 / i50:.2f}x, p90 {l90 / i90:.2f}x")
    asks = sum(statuses.values())
    print(f"audit asks: {asks} in {elapsed:.1f} s ({asks / elapsed:.0f} a second), statuses {dict(statuses)}")


if __name__ == "__main__":
    main()
