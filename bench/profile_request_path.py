"""The request path under cProfile: what a move's requests spend their time on, in one process, without a server.

Builds the app on the Redis at REDIS_URL (a key prefix of its own, removed
after), jobs in-process, and plays --moves moves of four-seat Blöde Kuh games
by calling the WSGI app as a server does (one environ a request, as granian
builds it), a client per seat that reads its view only when its last one is
older than the game (the one-request pattern: the action's answer holds the
mover's view). Plays them twice: unprofiled, printing the CPU microseconds of
each kind of request (this process: the app and the client's encoding, not
Redis), then under cProfile (CPU time), printing the --top functions by their
own time and by cumulative time. Compare a change by
bench_server_instructions; this says where the time goes.

What it showed (2,000 moves on a loaded machine): a move's POST 640 µs, a GET
290 µs, the client's share about 30 of each; an empty route of the same app
costs 64 µs (54 in a bare Flask app). Timing the pieces of a move the same
way: the command path (decide, seal, append) 352 µs, the answer's redacted
events 55, its view 49, reading the body 45 (werkzeug's stream and headers 20
of it), and a GET's catch-up read of a cached game 91.

Run: REDIS_URL=redis://127.0.0.1:6379/0 .venv/bin/python -m bench.profile_request_path [--moves 2000] [--top 30]
"""

from __future__ import annotations

import argparse
import cProfile
import io
import json
import math
import os
import pstats
import re
import sys
import time
import uuid
from typing import Any

from bench.table_client import TableClient
from service.adapters.connections import connect
from service.bootstrap import build
from service.http import create_app
from tests.support.processes import remove_run


class WsgiTableClient(TableClient):
    """The benches' table client, its requests made of the app through its WSGI entry as a server makes them."""

    def __init__(self, app: Any) -> None:
        super().__init__(port=0)  # http.client connects on the first request, which never comes
        self.app = app
        self.spent: dict[str, list[float]] = {}  # CPU seconds of each request, by route

    def call(self, method: str, path: str, body: object = None, token: str | None = None) -> tuple[int, dict]:
        """Make one request of the app; note its CPU time (this thread's: the app and the encoding) by route."""
        start = time.thread_time()
        data = json.dumps(body).encode() if body is not None else b""
        route, _, query = path.partition("?")
        environ = {
            "REQUEST_METHOD": method,
            "PATH_INFO": route,
            "QUERY_STRING": query,
            "SERVER_NAME": "127.0.0.1",
            "SERVER_PORT": "8000",
            "SERVER_PROTOCOL": "HTTP/1.1",
            "REMOTE_ADDR": "127.0.0.1",
            "HTTP_HOST": "127.0.0.1:8000",
            "CONTENT_TYPE": "application/json",
            "CONTENT_LENGTH": str(len(data)),
            "wsgi.input": io.BytesIO(data),
            "wsgi.url_scheme": "http",
            "wsgi.errors": sys.stderr,
            "wsgi.version": (1, 0),
            "wsgi.multithread": True,
            "wsgi.multiprocess": True,
            "wsgi.run_once": False,
        }
        if token:
            environ["HTTP_AUTHORIZATION"] = f"Bearer {token}"
        status: list[str] = []
        chunks = self.app(environ, lambda line, headers, exc_info=None: status.append(line))
        out = b"".join(chunks)
        close = getattr(chunks, "close", None)  # a WSGI server closes the body only if it can be closed
        if close is not None:
            close()
        kind = f"{method} " + re.sub(r"/games/[0-9a-f]{16}", "/games/{id}", route)
        self.spent.setdefault(kind, []).append(time.thread_time() - start)
        return int(status[0].split()[0]), json.loads(out or b"{}")

    def play_moves(self, moves: int) -> None:
        """Play four-seat Blöde Kuh games until this client has posted `moves` more moves."""
        wanted = len(self.posts) + moves
        while len(self.posts) < wanted:
            self.play("bloede-kuh", 4, deadline=math.inf, moves=wanted)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--moves", type=int, default=2000)
    parser.add_argument("--warm", type=int, default=200)
    parser.add_argument("--top", type=int, default=30)
    args = parser.parse_args()
    url = os.environ.get("REDIS_URL", "redis://127.0.0.1:6379/0")
    prefix = f"bench-profile-{uuid.uuid4().hex[:8]}"
    redis = connect(url)
    os.environ["MENAGERIE_RATE_LIMITS"] = "off"
    try:
        client = WsgiTableClient(create_app(build(redis, prefix, inline_jobs=True)))
        client.play_moves(args.warm)
        client.spent.clear()
        client.play_moves(args.moves)
        for kind, times in client.spent.items():
            print(f"{kind}: {1e6 * sum(times) / len(times):.0f} µs CPU a request")
        before = len(client.posts), len(client.gets)
        # CPU time, not wall: on a shared machine the wall is mostly waiting for Redis and the scheduler.
        profiler = cProfile.Profile(time.process_time)
        start = time.process_time()
        profiler.enable()
        client.play_moves(args.moves)
        profiler.disable()
        cpu = time.process_time() - start
        posts, gets = len(client.posts) - before[0], len(client.gets) - before[1]
    finally:
        remove_run(redis, prefix)
    print(f"{posts} moves, {gets} GETs ({gets / posts:.2f} a move) on {url}, in one process under cProfile")
    print(f"CPU µs a request: {1e6 * cpu / (posts + gets):.0f}; a move: {1e6 * cpu / posts:.0f} (profiled, so slower)")
    for order in ("tottime", "cumulative"):
        out = io.StringIO()
        pstats.Stats(profiler, stream=out).sort_stats(order).print_stats(args.top)
        print(out.getvalue())
    return 0


if __name__ == "__main__":
    sys.exit(main())
