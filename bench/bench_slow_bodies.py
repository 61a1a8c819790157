"""Slow request bodies: the server's memory, and how long slow bodies stay open.

Starts `menagerie serve` (granian, `--server-workers` processes, the async
front) on the Redis at REDIS_URL under a key prefix of its own, then:

1. `--big` (200) clients each state a 100 MB body, send 1 MiB of it, and pause;
2. `--trickle` (600) clients each state a 1 KiB JSON body and send it one byte a second.

Prints the server's resident memory (its processes together) before, while
the clients hold their connections, and after they left; how many of the
clients' requests the server answered or closed, and how many were still open
after `--seconds` (40); and what it answered them (a status line each, counted).

Run: REDIS_URL=redis://127.0.0.1:6379/10 .venv/bin/python -m bench.bench_slow_bodies
[--big 200] [--trickle 600] [--seconds 40] [--server-workers 2]
"""

from __future__ import annotations

import argparse
import asyncio
import collections
import os
import resource
import subprocess
import sys
import tempfile
import time
import urllib.request
import uuid
from pathlib import Path

from redis import Redis

from bench.bench_spectators import rss_bytes
from tests.support.processes import free_port, remove_run

MIB = 1024 * 1024


def rss_mib(pid: int) -> float:
    """Resident memory of a process and its children, in MiB."""
    return rss_bytes(pid) / 2**20


class Client:
    """One slow client's connection and what became of it."""

    def __init__(self) -> None:
        self.status = ""
        self.ended_after: float | None = None
        self.open_at_end = False  # still open when the bench stopped waiting (and closed it itself)
        self.writer: asyncio.StreamWriter | None = None


async def big(port: int, client: Client, started: float) -> None:
    """State a 100 MB body, send 1 MiB of it, and pause until the server answers or closes."""
    reader, writer = await asyncio.open_connection("127.0.0.1", port)
    client.writer = writer
    writer.write(
        b"POST /games HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: 100000000\r\n\r\n"
    )
    try:
        for _ in range(16):
            writer.write(b"x" * (MIB // 16))
            await writer.drain()
        await _answer(reader, client, started)
    except OSError:
        client.status = client.status or "reset"
        client.ended_after = time.monotonic() - started


async def trickle(port: int, client: Client, started: float) -> None:
    """State a 1 KiB body and send it a byte a second until the server answers or closes."""
    reader, writer = await asyncio.open_connection("127.0.0.1", port)
    client.writer = writer
    writer.write(b"POST /games HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: 1024\r\n\r\n")
    answered = asyncio.ensure_future(_answer(reader, client, started))
    try:
        while not answered.done():
            writer.write(b" ")
            await writer.drain()
            await asyncio.wait((answered,), timeout=1.0)
    except OSError:
        client.status = client.status or "reset"
        client.ended_after = client.ended_after or time.monotonic() - started
    await answered


async def _answer(reader: asyncio.StreamReader, client: Client, started: float) -> None:
    try:
        line = await reader.readline()
    except OSError:
        line = b""
    client.status = line.decode(errors="replace").strip() or "closed without an answer"
    client.ended_after = time.monotonic() - started


async def run(port: int, args: argparse.Namespace, server_pid: int) -> tuple[list[Client], list[Client], float]:
    started = time.monotonic()
    bigs, trickles = [Client() for _ in range(args.big)], [Client() for _ in range(args.trickle)]
    tasks = [asyncio.ensure_future(big(port, c, started)) for c in bigs]
    tasks += [asyncio.ensure_future(trickle(port, c, started)) for c in trickles]
    await asyncio.sleep(min(5.0, args.seconds))
    holding = rss_mib(server_pid)
    await asyncio.wait(tasks, timeout=max(0.0, args.seconds - (time.monotonic() - started)))
    for client in [*bigs, *trickles]:
        client.open_at_end = client.ended_after is None
    for task in tasks:
        task.cancel()
    for client in [*bigs, *trickles]:
        if client.writer is not None:
            client.writer.close()
    await asyncio.gather(*tasks, return_exceptions=True)
    return bigs, trickles, holding


def report(name: str, clients: list[Client], seconds: float) -> None:
    still = sum(1 for c in clients if c.open_at_end)
    ended = sorted(c.ended_after for c in clients if c.ended_after is not None and not c.open_at_end)
    when = f", ended after {ended[len(ended) // 2]:.1f} s (median), {ended[-1]:.1f} s (last)" if ended else ""
    statuses = collections.Counter(c.status for c in clients if c.status and not c.open_at_end)
    print(f"{name}: {len(clients)} clients, {still} still open after {seconds:.0f} s{when}; answers {dict(statuses)}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--big", type=int, default=200)
    parser.add_argument("--trickle", type=int, default=600)
    parser.add_argument("--seconds", type=float, default=40)
    parser.add_argument("--server-workers", type=int, default=2)
    args = parser.parse_args()
    url = os.environ.get("REDIS_URL", "redis://127.0.0.1:6379/4")
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    wanted = min(hard, 2 * (args.big + args.trickle) + 1000)
    if soft < wanted:
        resource.setrlimit(resource.RLIMIT_NOFILE, (wanted, hard))
    prefix = f"bench-slow-{uuid.uuid4().hex[:8]}"
    port = free_port()
    env = {**os.environ, "REDIS_URL": url, "MENAGERIE_PREFIX": prefix, "MENAGERIE_RATE_LIMITS": "off"}
    menagerie = str(Path(sys.executable).with_name("menagerie"))
    log = Path(tempfile.mkdtemp(prefix="bench-slow-")) / "server.log"
    with open(log, "wb") as out:
        serve = [menagerie, "serve", "--port", str(port), "--workers", str(args.server_workers)]
        server = subprocess.Popen(serve, env=env, stdout=out, stderr=out)
    print(f"uptime before: {subprocess.run(['uptime'], capture_output=True, text=True, check=False).stdout.strip()}")
    try:
        deadline = time.monotonic() + 30
        while not _answers(port):
            if time.monotonic() > deadline or server.poll() is not None:
                raise SystemExit(f"the server did not start:\n{log.read_text(errors='replace')}")
            time.sleep(0.1)
        before = rss_mib(server.pid)
        bigs, trickles, holding = asyncio.run(run(port, args, server.pid))
        time.sleep(2)
        after = rss_mib(server.pid)
    finally:
        server.terminate()
        server.wait(20)
        remove_run(Redis.from_url(url), prefix)
    print(f"server memory: {before:.0f} MiB before, {holding:.0f} MiB while the clients held on, {after:.0f} MiB after")
    report("1 MiB of a stated 100 MB, then a pause", bigs, args.seconds)
    report("1 KiB trickled a byte a second", trickles, args.seconds)


def _answers(port: int) -> bool:
    try:
        with urllib.request.urlopen(f"http://127.0.0.1:{port}/health", timeout=2) as response:
            return bool(response.status == 200)
    except OSError:
        return False


if __name__ == "__main__":
    main()
