"""HTTP load: moves per second, latencies and server CPU per move, under granian or gunicorn on a real Redis.

Starts the service (`--server`: `menagerie serve`, granian, by default, with
`--workers` processes, 2 as `menagerie serve`;
`gthread` as `menagerie serve --server gunicorn` runs gunicorn; `gunicorn`,
its sync workers) and one `menagerie worker`
for the system's steps against the Redis at REDIS_URL with a key prefix of its own; N clients
(1, 4, 16, 32 by default) each play every seat of games of all four types,
human moves only: a GET of the acting seat's view, then a POST of its first
legal action. Prints moves/s, POST and GET p50/p99, server CPU ms per move
(the server processes' CPU time over the moves they served), and raw
`redis-benchmark` XADD figures on the same Redis in the same run. Bounded:
each level runs for --seconds at most; loopback only. Removes its keys.

`--aof` then runs the same levels on a redis-server of its own that syncs its
append-only file on every write (`appendfsync always`, as docs/operators.md
advises; the Redis at REDIS_URL may keep nothing on disk), store and RQ both on it. `--cluster` then
runs them with the store on a 3-master Redis Cluster of its own
(`tests/support/cluster.py`, from the installed redis-server), RQ staying on
the Redis at REDIS_URL. Their rows print beside the single-node ones.

Run: REDIS_URL=redis://127.0.0.1:6379/0 .venv/bin/python -m bench.bench_http [--clients 1,4,16,32] [--seconds 10] [--aof] [--cluster] [--server granian|gthread|gunicorn]
"""

from __future__ import annotations

import argparse
import http.client
import json
import os
import shutil
import signal
import socket
import statistics
import subprocess
import sys
import tempfile
import threading
import time
import uuid
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path

from service.adapters.connections import connect, is_cluster_url
from tests.support.cluster import OwnCluster
from tests.support.processes import OwnRedis, free_port, remove_run

ROOT = Path(__file__).resolve().parents[1]
BIN = Path(sys.executable).parent
GAMES = [("life-is-life", 4), ("animals-on-board", 3), ("bloede-kuh", 4), ("zop-zoo", 3)]
TICKS = os.sysconf("SC_CLK_TCK")


def cpu_times(pid: int) -> tuple[float, float]:
    """Return the user and the system CPU seconds of a process and its children so far.

    Children that have exited and been waited for count too (cutime, cstime): a Redis
    rewriting its append-only file does it in a child of a few seconds' life.
    """
    user = system = 0.0
    for p in [pid, *children(pid)]:
        try:
            fields = Path(f"/proc/{p}/stat").read_text().rsplit(")", 1)[1].split()
        except FileNotFoundError:
            continue
        user += (int(fields[11]) + int(fields[13])) / TICKS
        system += (int(fields[12]) + int(fields[14])) / TICKS
    return user, system


def children(pid: int) -> list[int]:
    try:
        found = Path(f"/proc/{pid}/task/{pid}/children").read_text().split()
    except FileNotFoundError:
        return []
    out = [int(c) for c in found]
    return out + [g for c in out for g in children(c)]


class Client:
    """One keep-alive HTTP connection playing whole games, recording latencies."""

    def __init__(self, port: int) -> None:
        self.conn = http.client.HTTPConnection("127.0.0.1", port, timeout=30)
        self.gets: list[float] = []
        self.posts: list[float] = []
        self.errors = 0

    def call(self, method: str, path: str, body: object = None, token: str | None = None) -> tuple[int, dict]:
        headers = {"Content-Type": "application/json"}
        if token:
            headers["Authorization"] = f"Bearer {token}"
        self.conn.request(method, path, body=json.dumps(body) if body is not None else None, headers=headers)
        response = self.conn.getresponse()
        return response.status, json.loads(response.read() or b"{}")

    def new_table(self, game: str, seats: int) -> tuple[str, list[str]] | None:
        """Create a game of `seats` named seats; return its id and their tokens (None, counted, if refused)."""
        status, created = self.call(
            "POST", "/games", {"game": game, "seats": [{"name": f"p{i}"} for i in range(seats)]}
        )
        if status != 201:
            self.errors += 1
            return None
        return created["id"], [seat["token"] for seat in created["seats"]]

    def read_view(self, game_id: str, token: str) -> dict:
        """Read a seat's view, timed among the GETs."""
        start = time.perf_counter()
        _, view = self.call("GET", f"/games/{game_id}", token=token)
        self.gets.append(time.perf_counter() - start)
        return view

    def post_first_legal(self, game_id: str, token: str, view: dict, query: str = "") -> tuple[int, dict]:
        """Post the first of a view's legal actions at its version, timed among the POSTs (a 5xx counted)."""
        body = {"action": view["legal_actions"][0], "expected_version": view["version"]}
        start = time.perf_counter()
        status, answer = self.call("POST", f"/games/{game_id}/actions{query}", body, token=token)
        self.posts.append(time.perf_counter() - start)
        self.errors += status >= 500
        return status, answer

    def play(self, game: str, seats: int, deadline: float, moves: int | None = None) -> None:
        """Play a new game until it ends, the deadline passes or this client has posted `moves` moves."""
        table = self.new_table(game, seats)
        if table is None:
            return
        game_id, tokens = table
        # Each move is a GET of the view of the seat whose turn it likely is (the next seat,
        # as in most turns of every game here), then a POST; a wrong guess costs a second GET.
        seat = 0
        while time.monotonic() < deadline and (moves is None or len(self.posts) < moves):
            view = self.read_view(game_id, tokens[seat])
            if view.get("status") == "finished":
                return
            if not view.get("to_act"):
                time.sleep(0.005)  # the worker is taking a system step
                continue
            if seat not in view["to_act"] or not view.get("legal_actions"):
                seat = view["to_act"][0]
                continue
            self.post_first_legal(game_id, tokens[seat], view)
            seat = (seat + 1) % seats


def stop(processes: list[subprocess.Popen[bytes]], timeout_s: float) -> None:
    """Ask each process to stop (SIGTERM), then kill whichever has not within `timeout_s`."""
    for process in processes:
        process.send_signal(signal.SIGTERM)
    for process in processes:
        try:
            process.wait(timeout=timeout_s)
        except subprocess.TimeoutExpired:
            process.kill()


def total_cpu_times(pids: Sequence[int]) -> tuple[float, float]:
    """Return the user and the system CPU seconds of several process trees so far."""
    times = [cpu_times(pid) for pid in pids]
    return sum(user for user, _ in times), sum(system for _, system in times)


def run_level(
    port: int,
    cpu_pids: Sequence[int],
    clients: int,
    seconds: float,
    games: Sequence[tuple[str, int]] = GAMES,
    client: type[Client] = Client,
) -> dict[str, float]:
    """Play `games` in turn over `clients` connections (of `client`) for `seconds`; CPU is the `cpu_pids` trees'."""
    players = [client(port) for _ in range(clients)]
    deadline = time.monotonic() + seconds

    def loop(index: int, client: Client) -> None:
        turn = index
        while time.monotonic() < deadline:
            game, seats = games[turn % len(games)]
            client.play(game, seats, deadline)
            turn += 1

    cpu_before, wall_before = total_cpu_times(cpu_pids), time.perf_counter()
    threads = [threading.Thread(target=loop, args=(i, c)) for i, c in enumerate(players)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    wall = time.perf_counter() - wall_before
    user, system = (after - before for after, before in zip(total_cpu_times(cpu_pids), cpu_before, strict=True))
    cpu = user + system
    posts = sorted(t for c in players for t in c.posts)
    gets = sorted(t for c in players for t in c.gets)
    moves = len(posts)
    return {
        "clients": clients,
        "moves": moves,
        "moves_s": moves / wall,
        "post_p50": 1000 * statistics.median(posts) if posts else 0,
        "post_p99": 1000 * posts[int(0.99 * (len(posts) - 1))] if posts else 0,
        "get_p50": 1000 * statistics.median(gets) if gets else 0,
        "get_p99": 1000 * gets[int(0.99 * (len(gets) - 1))] if gets else 0,
        "cpu_ms_per_move": 1000 * cpu / moves if moves else 0,
        # The kernel's share (sockets, the threads' hand-offs), beside the Python's.
        "sys_ms_per_move": 1000 * system / moves if moves else 0,
        "gets_per_move": len(gets) / moves if moves else 0,
        "cpu_ms_per_request": 1000 * cpu / (moves + len(gets)) if moves else 0,
        "errors": sum(c.errors for c in players),
    }


def redis_benchmark(url: str, clients: int, cluster: bool = False) -> str:
    """Return redis-benchmark's XADD requests/s on the same Redis (on a cluster, on every master at once)."""
    exe = shutil.which("redis-benchmark")
    if exe is None:
        return "redis-benchmark not installed"
    address, _, db = url.split("://", 1)[1].split(",")[0].partition("/")
    host, port = address.rsplit(":", 1)
    name = f"bench-http-xadd-{uuid.uuid4().hex[:8]}"
    # With `--cluster`, redis-benchmark fills `{tag}` with a hash tag of each master's slots: one key a master.
    key = f"{name}-{{tag}}" if cluster else name
    command = [exe, "-h", host, "-p", port, "-n", "50000", *(["--cluster"] if cluster else [])]
    # redis-benchmark writes to db 0 unless told: on the URL's db, where its key is removed afterwards.
    command += [] if cluster else ["--dbnum", db.split("?")[0] or "0"]
    command += ["-c", str(clients), "-q", "XADD", key, "*", "e", "x" * 200]
    try:
        out = subprocess.run(command, capture_output=True, text=True, timeout=60).stdout.strip()
    finally:
        remove_run(connect(url), name)
    last = out.splitlines()[-1] if out else ""
    return last.rsplit(":", 1)[-1].strip() if ":" in last else "no output"


def server_command(server: str, workers: int, port: int) -> list[str]:
    """Return the command that serves the app: `menagerie serve` (granian) or gunicorn (sync or gthread workers)."""
    if server == "granian":
        # Exactly what `menagerie serve` runs: its threads, timeouts and respawning.
        return [str(BIN / "menagerie"), "serve", "--server", "granian", "--workers", str(workers), "--port", str(port)]
    return (
        [str(BIN / "gunicorn"), "-w", str(workers), "-b", f"127.0.0.1:{port}", "--log-level", "warning"]
        + (["-k", "gthread", "--threads", "8"] if server == "gthread" else [])
        + ["service.http:create_app()"]
    )


@dataclass(frozen=True)
class Serving:
    """A running Menagerie: its port, the pids of its server and its worker, and its key prefix."""

    port: int
    server_pid: int
    worker_pid: int
    prefix: str


@contextmanager
def serving(store_url: str, rq_url: str, server: str, workers: int) -> Iterator[Serving]:
    """Run the server and one worker on a store (RQ on `rq_url`) until the block ends; then remove its keys."""
    prefix = f"bench-http-{uuid.uuid4().hex[:8]}"
    port = free_port()
    # One address plays every client here: fair-use limits would measure themselves.
    env = {**os.environ, "REDIS_URL": store_url, "RQ_REDIS_URL": rq_url, "MENAGERIE_PREFIX": prefix}
    env["MENAGERIE_RATE_LIMITS"] = "off"
    process = subprocess.Popen(server_command(server, workers, port), cwd=ROOT, env=env)
    worker = subprocess.Popen([str(BIN / "menagerie"), "worker"], cwd=ROOT, env=env, stderr=subprocess.DEVNULL)
    try:
        for _ in range(200):
            try:
                socket.create_connection(("127.0.0.1", port), timeout=0.2).close()
                break
            except OSError:
                time.sleep(0.05)
        yield Serving(port, process.pid, worker.pid, prefix)
    finally:
        stop([process, worker], timeout_s=10)
        for url in dict.fromkeys([store_url, rq_url]):
            remove_run(connect(url), prefix)


def serve_and_measure(label: str, store_url: str, rq_url: str, args: argparse.Namespace) -> None:
    """Run the server and one worker on a store (RQ on `rq_url`), print a row per client level; remove its keys."""
    with serving(store_url, rq_url, args.server, args.workers) as menagerie:
        port, prefix = menagerie.port, menagerie.prefix
        run_level(port, [menagerie.server_pid], 4, 3.0)  # warm up: imports, caches, connections in every worker
        print(
            f"{label}: {args.server} -w {args.workers} on 127.0.0.1:{port}, store {store_url}, RQ {rq_url}, prefix {prefix}"
        )
        print(
            f"{'store':>7} {'clients':>7} {'moves':>6} {'moves/s':>8} {'POST p50':>9} {'p99':>7} {'GET p50':>8} {'p99':>7}"
            f" {'CPU ms/move':>11} {'of it sys':>9} {'GETs/move':>9} {'ms/request':>10} {'errors':>6}"
        )
        for clients in [int(n) for n in args.clients.split(",")]:
            r = run_level(port, [menagerie.server_pid], clients, args.seconds)
            print(
                f"{label:>7} {r['clients']:>7} {r['moves']:>6} {r['moves_s']:>8.0f} {r['post_p50']:>8.1f}ms"
                f" {r['post_p99']:>6.1f}ms {r['get_p50']:>7.1f}ms {r['get_p99']:>6.1f}ms"
                f" {r['cpu_ms_per_move']:>11.2f} {r['sys_ms_per_move']:>9.2f} {r['gets_per_move']:>9.2f} {r['cpu_ms_per_request']:>10.2f} {r['errors']:>6}"
            )
        for clients in (1, 16):
            xadd = redis_benchmark(store_url, clients, cluster=is_cluster_url(store_url))
            print(f"{label}: redis-benchmark XADD, {clients} clients: {xadd}")


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--clients", default="1,4,16,32")
    parser.add_argument("--seconds", type=float, default=10.0)
    # What `menagerie serve` runs by default: on two cores 2 processes take less CPU a
    # move than 4 (docs/benchmarks.md); earlier figures were taken with 4.
    parser.add_argument("--workers", type=int, default=2, help="server worker processes (menagerie serve's default)")
    parser.add_argument(
        "--server",
        choices=("granian", "gunicorn", "gthread"),
        default="granian",
        help="granian: `menagerie serve`; gunicorn: sync workers; gthread: `menagerie serve --server gunicorn`",
    )
    parser.add_argument(
        "--aof", action="store_true", help="then the same run on a redis-server of its own with appendfsync always"
    )
    parser.add_argument(
        "--cluster", action="store_true", help="then the same run on a 3-master Redis Cluster of its own (RQ stays put)"
    )
    args = parser.parse_args()
    url = os.environ.get("REDIS_URL", "redis://127.0.0.1:6379/0")
    serve_and_measure("single", url, url, args)
    if args.aof:
        with tempfile.TemporaryDirectory(prefix="bench-aof-") as directory:
            own = OwnRedis(Path(directory))
            own.start()
            try:
                serve_and_measure("aof", own.url, own.url, args)
            finally:
                own.kill()  # its data is this run's only
    if args.cluster:
        with tempfile.TemporaryDirectory(prefix="bench-cluster-") as directory:
            cluster = OwnCluster(Path(directory)).start()
            try:
                serve_and_measure("cluster", cluster.url, url, args)
            finally:
                cluster.stop()
    return 0


if __name__ == "__main__":
    sys.exit(main())
