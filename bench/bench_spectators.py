"""Thousands of spectators: live streams open on games being played, and what each event's delivery costs.

Starts `menagerie serve` (granian, `--server-workers` processes, the async
front) and `--rq-workers` `menagerie worker`s on the Redis at REDIS_URL, under
a key prefix of its own (removed at the end). Keeps `--games` (100) games of
`--table` (Blöde Kuh, four human seats) in play: a load client moves in each,
one move every `--interval` seconds a game, as the seat to act (its view, then
its first legal action). Each game has `--streams` / `--games` spectators
watching its live stream, all opened before play starts (a game that ends is
replaced by a new one, with as many new spectators). One asyncio process holds
every connection; it raises its file-descriptor limit (and so the server's) first.

Prints, over `--seconds` of play:
- each event's delivery latency to every spectator (the time it was read off
  the socket minus the event's own time, stamped before its append): p50, p99, max;
- the moves' latency (the POST): p50, p99; and how many were refused (409: a
  system step came first);
- `GET /health`'s latency, asked every 0.5 s on a connection of its own: p50, p99, max;
- events lost (a spectator's ids skip one, or it never got an event its game has)
  and duplicated (an id again): both must be 0;
- the server's, the workers' and Redis's CPU time over the run, and `uptime` before and after
  (the machine is shared: read the figures beside its load).

Run: REDIS_URL=redis://127.0.0.1:6379/4 .venv/bin/python -m bench.bench_spectators
[--streams 5000] [--games 100] [--seconds 60] [--interval 1.0] [--server-workers 2] [--rq-workers 1]
"""

from __future__ import annotations

import argparse
import asyncio
import os
import random
import resource
import statistics
import subprocess
import sys
import tempfile
import time
import uuid
from dataclasses import dataclass, field
from datetime import datetime
from pathlib import Path
from typing import Any

import orjson
from redis import Redis

from tests.support.processes import children_of, free_port, remove_run

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
        status = int((await self.reader.readline()).split()[1])
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
    streams_refused: int = 0
    reconnects: int = 0
    final_versions: dict[str, int] = field(default_factory=dict)
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


async def play(port: int, game: dict[str, Any], interval: float, figures: Figures, until: float) -> None:
    """Move in one game every `interval` s (with jitter) as the seat to act, until it ends or time is up."""
    http = await Http.open(port)
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


async def table(port: int, watchers: int, interval: float, figures: Figures, start_at: float, until: float) -> None:
    """Keep one game in play with `watchers` spectators until the run's end, replacing it when it ends."""
    playing = asyncio.Event()
    while time.monotonic() < until:
        status, game = await once(port, "POST", "/games", TABLE)
        assert status == 201, game
        _, view = await once(port, "GET", f"/games/{game['id']}")
        spectators = [
            asyncio.create_task(spectate(port, game["id"], view["version"], figures, playing)) for _ in range(watchers)
        ]
        await asyncio.sleep(max(0.0, start_at - time.monotonic()))
        playing.set()
        await play(port, game, interval, figures, until)
        _, final = await once(port, "GET", f"/games/{game['id']}")
        figures.final_versions[game["id"]] = final["version"]
        if final["status"] != "finished":  # time is up: give the streams their last events, then close them
            deadline = time.monotonic() + DRAIN_S
            while time.monotonic() < deadline and min_seen(figures, game["id"], spectators) < final["version"]:
                await asyncio.sleep(0.1)
            for task in spectators:
                task.cancel()
        await asyncio.gather(*spectators, return_exceptions=True)


async def once(port: int, method: str, path: str, body: Any = None) -> tuple[int, Any]:
    """One request on a connection of its own (the server closes a keep-alive connection left idle)."""
    http = await Http.open(port)
    try:
        return await http.request(method, path, body)
    finally:
        http.close()


def min_seen(figures: Figures, game_id: str, spectators: list[asyncio.Task[None]]) -> int:
    # A spectator still open has not reported; the drain waits on those that have not seen the end.
    done = [last for gid, last in figures.last_seen if gid == game_id]
    return min(done) if len(done) == len(spectators) else -1


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


async def run(port: int, args: argparse.Namespace, figures: Figures) -> None:
    per_game = args.streams // args.games
    opening = time.monotonic()
    # Play starts once every stream is open (or after a minute: the open count says how many were).
    start_at = opening + min(60.0, 5 + args.streams / 500)
    until = start_at + args.seconds
    tables = [
        asyncio.create_task(table(port, per_game, args.interval, figures, start_at, until)) for _ in range(args.games)
    ]
    await asyncio.sleep(start_at - time.monotonic())
    print(f"streams open when play starts: {figures.streams_open} (refused {figures.streams_refused})", flush=True)
    await asyncio.gather(health(port, figures, until), *tables)


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
        figures = Figures()
        asyncio.run(run(port, args, figures))
        server_cpu, worker_cpu = cpu_seconds(server.pid), sum(cpu_seconds(w.pid) for w in workers)
        redis_cpu = _redis_cpu(redis) - redis_cpu
    finally:
        for process in [server, *workers]:
            process.terminate()
        for process in [server, *workers]:
            process.wait(20)
        remove_run(redis, prefix)
    if os.environ.get("BENCH_DEBUG"):
        for g, last in sorted(figures.last_seen):
            if last != figures.final_versions.get(g):
                print(g, last, figures.final_versions.get(g))
    never = sum(max(0, figures.final_versions.get(g, last) - last) for g, last in figures.last_seen)
    moves = len(figures.moves)
    print(f"uptime after: {uptime()}")
    print(f"events delivered: {len(figures.deliveries)}; delivery latency {ms(figures.deliveries)}")
    print(
        f"moves: {moves} ({moves / args.seconds:.0f}/s), refused {figures.refused}, unanswered in"
        f" {REQUEST_TIMEOUT_S:.0f} s {figures.move_errors}; latency {ms(figures.moves)}"
    )
    print(f"/health: {len(figures.health)} asked, {figures.health_failed} failed; latency {ms(figures.health)}")
    print(
        f"events lost: {figures.lost + never} (gaps {figures.lost}, never delivered {never}); duplicated: {figures.duplicated}"
    )
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


def _redis_cpu(redis: Redis) -> float:
    info = redis.info("cpu")
    return float(info["used_cpu_sys"]) + float(info["used_cpu_user"])


if __name__ == "__main__":
    main()
