"""Thousands of spectators: live streams open on games being played, and what each event's delivery costs.

Starts `menagerie serve` (granian, `--server-workers` processes, the async
front) and `--rq-workers` `menagerie worker`s on the Redis at REDIS_URL, under
a key prefix of its own (removed at the end), and creates `--games` (100)
games of Blöde Kuh with four human seats. One process opens `--streams` /
`--games` spectator streams on each game and holds them (a stream the server
ends early is opened again after its last event, as a client would); another,
the load client, moves in each game, one move every `--interval` seconds a
game (with jitter), as the seat to act (its view, then its first legal
action), and asks `/health`. They are separate processes so that neither's
event loop delays the other's timings. Play starts once every stream should
be open, lasts `--seconds`, and the streams get `DRAIN_S` more to deliver the
last events. The bench raises its file-descriptor limit first (the server inherits it).

Prints, over `--seconds` of play:
- each event's delivery latency to every spectator (the time it was read off
  the socket minus the event's own time, stamped before its append): p50, p99, max;
- the moves' latency (the POST): p50, p99; and how many were refused (409: a
  system step came first);
- `GET /health`'s latency, asked every 0.5 s on a connection of its own: p50, p99, max;
- events lost (a spectator's ids skip one, or it never got an event its game has)
  and duplicated (an id again): both must be 0;
- the server's, the workers' and Redis's CPU time over the run, and `uptime` before and after
  (the machine is shared: read the figures beside its load);
- the Redis connections to the bench's database (`CLIENT LIST`), before the server starts and at
  most while the streams are open: with `--games` as large as `--streams` (a stream a game), the
  cost of spectators on distinct games;
- the server's resident memory (its processes' RSS summed), at most while the streams are open.

Run: REDIS_URL=redis://127.0.0.1:6379/4 .venv/bin/python -m bench.bench_spectators
[--streams 5000] [--games 100] [--seconds 60] [--interval 1.0] [--server-workers 2] [--rq-workers 1]

Measured on 2026-11-26 with the defaults, on the 2-core machine shared with six other agents.
Run 4 (load average 1 to 4, `uptime` before and after): 5,000 of 5,000 streams open, 0 lost, 0
repeated, 0 reopened; 539,050 deliveries, p50 2.9 ms, p99 9.1 ms; 99 moves a second, p50 3.9 ms,
p99 13.9 ms; `/health` p50 1.9 ms, p99 7.8 ms; server CPU 36.5 s over the run (opening and
draining included). Runs 1 and 2, at load average 10 to 17 and before uvloop, kept 0 lost and 0
repeated and delivery p99 under 0.4 s, but their moves' and /health's p99 were 0.15 to 0.5 s
(docs/benchmarks.md).
"""

from __future__ import annotations

import argparse
import asyncio
import multiprocessing
import os
import random
import resource
import statistics
import subprocess
import sys
import tempfile
import threading
import time
import uuid
from dataclasses import dataclass, field
from datetime import datetime
from pathlib import Path
from typing import Any

import orjson
from redis import Redis

from tests.support.processes import children_of, free_port, remove_run
from tests.support.processes import http as json_request

TABLE = {"game": "bloede-kuh", "seats": [{"name": f"p{i}"} for i in range(4)]}
HEALTH_EVERY_S = 0.5
DRAIN_S = 15.0
REQUEST_TIMEOUT_S = 10.0


class Http:
    """One keep-alive HTTP/1.1 connection, enough for this bench's requests (no TLS, no redirects)."""

    def __init__(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        self.reader, self.writer = reader, writer

    @classmethod
    async def open(cls, port: int) -> Http:
        return cls(*await asyncio.open_connection("127.0.0.1", port))

    async def send(self, method: str, path: str, body: Any = None, token: str | None = None, extra: str = "") -> None:
        data = orjson.dumps(body) if body is not None else b""
        head = f"{method} {path} HTTP/1.1\r\nHost: bench\r\nContent-Length: {len(data)}\r\n{extra}"
        if body is not None:
            head += "Content-Type: application/json\r\n"
        if token:
            head += f"Authorization: Bearer {token}\r\n"
        self.writer.write(head.encode() + b"\r\n" + data)
        await self.writer.drain()

    async def head(self) -> tuple[int, dict[str, str]]:
        line = await self.reader.readline()
        if not line:  # the server closed the connection (an idle keep-alive one, say): open another
            raise ConnectionResetError("the server closed the connection")
        status = int(line.split()[1])
        headers = {}
        while (line := await self.reader.readline()) not in (b"\r\n", b""):
            name, _, value = line.decode().partition(":")
            headers[name.strip().lower()] = value.strip()
        return status, headers

    async def request(self, method: str, path: str, body: Any = None, token: str | None = None) -> tuple[int, Any]:
        """Send one request and read its answer, within `REQUEST_TIMEOUT_S` (else TimeoutError)."""
        return await asyncio.wait_for(self._request(method, path, body, token), REQUEST_TIMEOUT_S)

    async def _request(self, method: str, path: str, body: Any, token: str | None) -> tuple[int, Any]:
        await self.send(method, path, body, token)
        status, headers = await self.head()
        if headers.get("transfer-encoding") == "chunked":
            raw = b"".join([chunk async for chunk in self.chunks()])
        else:
            raw = await self.reader.readexactly(int(headers.get("content-length", "0")))
        return status, orjson.loads(raw) if raw else None

    async def chunks(self) -> Any:
        while True:
            size = int((await self.reader.readline()).strip(), 16)
            chunk = await self.reader.readexactly(size + 2)
            if size == 0:
                return
            yield chunk[:-2]

    def close(self) -> None:
        self.writer.close()


@dataclass
class Figures:
    deliveries: list[float] = field(default_factory=list)
    moves: list[float] = field(default_factory=list)
    refused: int = 0
    move_errors: int = 0
    health: list[float] = field(default_factory=list)
    health_failed: int = 0
    lost: int = 0
    duplicated: int = 0
    streams_open: int = 0
    open_at_start: int = 0
    streams_refused: int = 0
    reconnects: int = 0
    last_seen: list[tuple[str, int]] = field(default_factory=list)


def event_time(data: bytes) -> float:
    """The event's own time (ms, UTC), from its JSON."""
    return datetime.fromisoformat(orjson.loads(data)["time"].replace("Z", "+00:00")).timestamp()


async def spectate(port: int, game_id: str, after: int, figures: Figures, playing: asyncio.Event) -> None:
    """Watch one game's stream to its end (or the run's), recording each event's delay, losses and repeats.

    A stream the server ends before GameEnded is opened again after its last event, as a client would.
    """
    seen, ended, first = Seen(after), False, True
    try:
        while not ended:
            if not first:
                figures.reconnects += 1
                await asyncio.sleep(1)
            first = False
            try:
                http = await Http.open(port)
                await http.send(
                    "GET", f"/games/{game_id}/stream?after={after}", extra=f"Last-Event-ID: {seen.last}\r\n"
                )
                status, _ = await http.head()
            except (OSError, asyncio.IncompleteReadError, IndexError):
                figures.streams_refused += 1
                continue
            if status != 200:
                figures.streams_refused += 1
                http.close()
                continue
            figures.streams_open += 1
            try:
                ended = await _read_stream(http, seen, figures, playing)
            except (OSError, asyncio.IncompleteReadError, ValueError):
                pass
            finally:
                figures.streams_open -= 1
                http.close()
    finally:
        figures.last_seen.append((game_id, seen.last))


@dataclass
class Seen:
    """The last event a spectator has had (kept however its reading ends: it is cancelled at the run's end)."""

    last: int


async def _read_stream(http: Http, seen: Seen, figures: Figures, playing: asyncio.Event) -> bool:
    """Read one opened stream; return whether it reached GameEnded."""
    buffer = b""
    async for chunk in http.chunks():
        buffer += chunk
        while b"\n\n" in buffer:
            block, buffer = buffer.split(b"\n\n", 1)
            if not block.startswith(b"id: "):
                continue  # the retry hint, a heartbeat, a comment
            head, _, data = block.partition(b"\ndata: ")
            seq = int(head.split(b"\n", 1)[0][4:])
            if seq <= seen.last:
                figures.duplicated += 1
                continue
            figures.lost += seq - seen.last - 1
            seen.last = seq
            if playing.is_set():
                figures.deliveries.append(time.time() - event_time(data))
            if b"event: GameEnded" in head:
                return True
    return False


async def play(port: int, http: Http, game: dict[str, Any], interval: float, figures: Figures, until: float) -> None:
    """Move in one game every `interval` s (with jitter) as the seat to act, on `http`, until it ends or time is up."""
    tokens = [seat["token"] for seat in game["seats"]]
    seat = 0
    await asyncio.sleep(random.uniform(0, interval))
    try:
        while time.monotonic() < until:
            try:
                seat = await _move(http, game["id"], tokens, seat, figures)
            except (TimeoutError, OSError, asyncio.IncompleteReadError):
                figures.move_errors += 1
                http.close()
                http = await Http.open(port)
            if seat < 0:
                return  # the game is over
            await asyncio.sleep(interval * random.uniform(0.8, 1.2))
    finally:
        http.close()


async def _move(http: Http, game_id: str, tokens: list[str], seat: int, figures: Figures) -> int:
    """Make one move as the seat to act (asking first as the seat that acted last); return it (-1: game over)."""
    status, view = await http.request("GET", f"/games/{game_id}", token=tokens[seat])
    if status == 200 and not view["legal_actions"] and view["to_act"]:
        seat = view["to_act"][0]
        status, view = await http.request("GET", f"/games/{game_id}", token=tokens[seat])
    if status == 200 and view["status"] == "finished":
        return -1
    if status == 200 and view["legal_actions"]:
        body = {"action": view["legal_actions"][0], "expected_version": view["version"]}
        started = time.perf_counter()
        status, _ = await http.request("POST", f"/games/{game_id}/actions", body, tokens[seat])
        figures.moves.append(time.perf_counter() - started)
        figures.refused += status != 200
    return seat


def spectators(port: int, games: list[tuple[str, int]], per_game: int, start_at: float, until: float, out: Any) -> None:
    """Process: hold `per_game` streams on each game until `until` + `DRAIN_S` (wall clock); report the figures."""
    figures = Figures()

    async def watch_all() -> None:
        playing = asyncio.Event()
        tasks = [
            asyncio.create_task(spectate(port, game_id, version, figures, playing))
            for game_id, version in games
            for _ in range(per_game)
        ]
        await asyncio.sleep(max(0.0, start_at - time.time()))
        figures.open_at_start = figures.streams_open
        playing.set()
        # Past the end of play, the streams have a while to deliver the last events, then are closed.
        await asyncio.sleep(max(0.0, until + DRAIN_S - time.time()))
        for task in tasks:
            task.cancel()
        await asyncio.gather(*tasks, return_exceptions=True)

    asyncio.run(watch_all())
    out.put(("watched", figures))


async def health(port: int, figures: Figures, until: float) -> None:
    """Ask `GET /health` every `HEALTH_EVERY_S`; one unanswered in time counts as failed (and as its timeout)."""
    http = await Http.open(port)
    while time.monotonic() < until:
        started = time.perf_counter()
        try:
            status, _ = await http.request("GET", "/health")
        except (TimeoutError, OSError, asyncio.IncompleteReadError):
            status = 0
            http.close()
            http = await Http.open(port)
        figures.health.append(time.perf_counter() - started)
        figures.health_failed += status != 200
        await asyncio.sleep(HEALTH_EVERY_S)
    http.close()


def players(port: int, games: list[dict[str, Any]], interval: float, start_at: float, until: float, out: Any) -> None:
    """Process: play every game, and ask `/health`, from `start_at` to `until` (wall clock); report the figures."""
    figures = Figures()

    async def play_all() -> None:
        # Each game's connection is opened before play, one after another: 10,000 opened at once when
        # play starts would queue in the server's accept backlog past the end of play.
        connections = [await Http.open(port) for _ in games]
        await asyncio.sleep(max(0.0, start_at - time.time()))
        end = time.monotonic() + until - time.time()
        await asyncio.gather(
            health(port, figures, end),
            *(play(port, http, game, interval, figures, end) for http, game in zip(connections, games, strict=True)),
        )

    asyncio.run(play_all())
    out.put(("played", figures))


def cpu_seconds(pid: int) -> float:
    """User + system CPU of a process and its children, from /proc (live children and reaped ones)."""
    ticks = os.sysconf("SC_CLK_TCK")
    total = 0.0
    for each in [pid, *children_of(pid)]:
        try:
            fields = Path(f"/proc/{each}/stat").read_text().rsplit(")", 1)[1].split()
        except OSError:
            continue
        total += sum(int(value) for value in fields[11:15]) / ticks
    return total


def rss_bytes(pid: int) -> int:
    """Resident memory of a process and its children, from /proc (the server's processes together)."""
    total = 0
    for each in [pid, *children_of(pid)]:
        try:
            status = Path(f"/proc/{each}/status").read_text()
        except OSError:
            continue
        total += next((int(line.split()[1]) * 1024 for line in status.splitlines() if line.startswith("VmRSS:")), 0)
    return total


def percentile(values: list[float], q: float) -> float:
    return (
        statistics.quantiles(values, n=1000, method="inclusive")[int(q * 10) - 1]
        if len(values) > 1
        else (values or [0.0])[0]
    )


def ms(values: list[float]) -> str:
    if not values:
        return "none"
    return f"p50 {percentile(values, 50) * 1000:.1f} ms, p99 {percentile(values, 99) * 1000:.1f} ms, max {max(values) * 1000:.1f} ms"


def uptime() -> str:
    return subprocess.run(["uptime"], capture_output=True, text=True, check=False).stdout.strip()


def run(port: int, args: argparse.Namespace) -> tuple[Figures, Figures, dict[str, int]]:
    """Create the games, then watch them from one process and play them from another (so that neither's
    event loop delays the other's timings); return both processes' figures and the games' final versions."""
    games = []
    for _ in range(args.games):
        status, game = json_request("POST", f"http://127.0.0.1:{port}/games", TABLE)
        assert status == 201, game
        games.append(game)
    starts = [
        (game["id"], json_request("GET", f"http://127.0.0.1:{port}/games/{game['id']}")[1]["version"]) for game in games
    ]
    # Play starts once every stream should be open; the spectators say how many were.
    start_at = time.time() + min(60.0, 5 + args.streams / 500)
    until = start_at + args.seconds
    context = multiprocessing.get_context("fork")
    out: Any = context.Queue()
    watching = context.Process(target=spectators, args=(port, starts, args.streams // args.games, start_at, until, out))
    playing = context.Process(target=players, args=(port, games, args.interval, start_at, until, out))
    watching.start()
    playing.start()
    reports = dict([out.get(), out.get()])  # before the joins: a process ends once its report is taken
    watching.join()
    playing.join()
    watched, played = reports["watched"], reports["played"]
    finals = {
        game["id"]: json_request("GET", f"http://127.0.0.1:{port}/games/{game['id']}")[1]["version"] for game in games
    }
    return watched, played, finals


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--streams", type=int, default=5000)
    parser.add_argument("--games", type=int, default=100)
    parser.add_argument("--seconds", type=float, default=60)
    parser.add_argument("--interval", type=float, default=1.0)
    parser.add_argument("--server-workers", type=int, default=2)
    parser.add_argument("--rq-workers", type=int, default=1)
    args = parser.parse_args()
    url = os.environ.get("REDIS_URL", "redis://127.0.0.1:6379/4")
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    wanted = min(hard, 2 * args.streams + 1000)  # the server processes inherit it
    if soft < wanted:
        resource.setrlimit(resource.RLIMIT_NOFILE, (wanted, hard))
    prefix = f"bench-spectators-{uuid.uuid4().hex[:8]}"
    port = free_port()
    env = {**os.environ, "REDIS_URL": url, "MENAGERIE_PREFIX": prefix, "MENAGERIE_RATE_LIMITS": "off"}
    menagerie = str(Path(sys.executable).with_name("menagerie"))
    logs = Path(tempfile.mkdtemp(prefix="bench-spectators-"))
    server_log = logs / "server.log"
    with open(server_log, "wb") as out, open(logs / "workers.log", "wb") as worker_out:
        serve = [menagerie, "serve", "--port", str(port), "--workers", str(args.server_workers)]
        server = subprocess.Popen(serve, env=env, stdout=out, stderr=out)
        workers = [
            subprocess.Popen([menagerie, "worker"], env=env, stdout=worker_out, stderr=worker_out)
            for _ in range(args.rq_workers)
        ]
    redis = Redis.from_url(url)
    connections_before = _connections(redis)
    print(f"uptime before: {uptime()}")
    print(
        f"{args.streams} streams over {args.games} games of {TABLE['game']}, a move every {args.interval} s a game, {args.seconds} s"
    )
    try:
        deadline = time.monotonic() + 30
        while not _answers(port):
            if time.monotonic() > deadline or server.poll() is not None:
                raise SystemExit(f"the server did not start:\n{server_log.read_text(errors='replace')}")
            time.sleep(0.1)
        redis_cpu = _redis_cpu(redis)
        sampler = _Connections(url, server.pid)
        sampler.start()
        watched, played, finals = run(port, args)
        sampler.stop()
        server_cpu, worker_cpu = cpu_seconds(server.pid), sum(cpu_seconds(w.pid) for w in workers)
        redis_cpu = _redis_cpu(redis) - redis_cpu
    finally:
        for process in [server, *workers]:
            process.terminate()
        for process in [server, *workers]:
            process.wait(20)
        remove_run(redis, prefix)
    never = sum(max(0, finals[game_id] - last) for game_id, last in watched.last_seen)
    moves = len(played.moves)
    print(f"uptime after: {uptime()}")
    print(
        f"streams open when play started: {watched.open_at_start} of {args.streams} (refused {watched.streams_refused})"
    )
    print(f"events delivered: {len(watched.deliveries)}; delivery latency {ms(watched.deliveries)}")
    print(
        f"moves: {moves} ({moves / args.seconds:.0f}/s), refused {played.refused}, unanswered in"
        f" {REQUEST_TIMEOUT_S:.0f} s {played.move_errors}; latency {ms(played.moves)}"
    )
    print(f"/health: {len(played.health)} asked, {played.health_failed} failed; latency {ms(played.health)}")
    print(f"streams opened again after the server ended them: {watched.reconnects}")
    print(
        f"events lost: {watched.lost + never} (gaps {watched.lost}, never delivered {never}); duplicated: {watched.duplicated}"
    )
    print(
        f"Redis connections to the bench's database: {connections_before} before the server,"
        f" at most {sampler.most} while streaming"
    )
    print(f"server RSS: at most {sampler.rss_most / 2**20:.0f} MiB while streaming")
    print(f"CPU s over the run: server {server_cpu:.1f}, workers {worker_cpu:.1f}, redis {redis_cpu:.1f}")
    logged = server_log.read_text(errors="replace")
    print(f"the server logged {'a traceback' if 'Traceback' in logged else 'no traceback'} ({server_log})")


def _answers(port: int) -> bool:
    import urllib.request

    try:
        with urllib.request.urlopen(f"http://127.0.0.1:{port}/health", timeout=2) as response:
            return bool(response.status == 200)
    except OSError:
        return False


def _connections(redis: Redis) -> int:
    """Return how many clients are connected to `redis`'s database now (the sampler's own included)."""
    db = redis.connection_pool.connection_kwargs.get("db", 0)
    return sum(1 for client in redis.client_list() if int(client["db"]) == db)


class _Connections(threading.Thread):
    """The most clients connected to the bench's database, sampled every half second until stopped."""

    def __init__(self, url: str, server: int) -> None:
        super().__init__(daemon=True)
        self.redis, self.most, self._done = Redis.from_url(url), 0, threading.Event()
        self.server, self.rss_most = server, 0

    def run(self) -> None:
        while not self._done.wait(HEALTH_EVERY_S):
            self.most = max(self.most, _connections(self.redis))
            self.rss_most = max(self.rss_most, rss_bytes(self.server))

    def stop(self) -> None:
        self._done.set()
        self.join()


def _redis_cpu(redis: Redis) -> float:
    info = redis.info("cpu")
    return float(info["used_cpu_sys"]) + float(info["used_cpu_user"])


if __name__ == "__main__":
    main()
