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
import os
import pstats
import re
import sys
import time
import uuid
from collections.abc import Callable
from typing import Any

from service.adapters.connections import connect
from service.bootstrap import build
from service.http import create_app
from tests.support.processes import remove_run

Call = Callable[[str, str, Any, str | None], tuple[int, Any]]


def wsgi_caller(app: Any) -> Call:
    """Return a function that makes one request of the app through its WSGI entry, as a server would."""

    def call(method: str, path: str, body: Any = None, token: str | None = None) -> tuple[int, Any]:
        data = json.dumps(body).encode() if body is not None else b""
        path, _, query = path.partition("?")
        environ = {
            "REQUEST_METHOD": method,
            "PATH_INFO": path,
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
        chunks = app(environ, lambda s, headers, exc_info=None: status.append(s))
        out = b"".join(chunks)
        if hasattr(chunks, "close"):
            chunks.close()
        return int(status[0].split()[0]), json.loads(out) if out else None

    return call


def play(call: Call, moves: int) -> tuple[int, int]:
    """Play `moves` moves of four-seat Blöde Kuh games, one client a seat; return the POSTs and GETs made."""
    posts = gets = 0
    while posts < moves:
        status, created = call("POST", "/games", {"game": "bloede-kuh", "seats": [{"name": f"p{i}"} for i in range(4)]})
        assert status == 201, created
        tokens = [seat["token"] for seat in created["seats"]]
        game = created["id"]
        known: dict[int, dict[str, Any]] = {}
        latest = 0
        to_act: list[int] = []
        while posts < moves:
            seat = to_act[0] if to_act else 0
            view = known.get(seat)
            if view is None or view["version"] < latest or not view["legal_actions"]:
                # The wait for this seat's turn: a read (a stream with views would bring it instead).
                _, view = call("GET", f"/games/{game}", None, tokens[seat])
                gets += 1
                known[seat], latest = view, max(latest, view["version"])
                if view["status"] == "finished":
                    break
                if seat not in view["to_act"] or not view["legal_actions"]:
                    to_act = view["to_act"] or [0]
                    continue
            body = {"action": view["legal_actions"][0], "expected_version": view["version"]}
            status, answer = call("POST", f"/games/{game}/actions?view=true", body, tokens[seat])
            posts += 1
            if status != 200:
                known.pop(seat, None)
                continue
            after = answer["view"]
            known[seat], latest, to_act = after, max(latest, after["version"]), after["to_act"]
            if after["status"] == "finished":
                break
    return posts, gets


def per_route(call: Call, moves: int) -> dict[str, float]:
    """Play `moves` moves unprofiled; return the CPU microseconds of each kind of request, on average."""
    spent: dict[str, list[float]] = {}

    def timed(method: str, path: str, body: Any = None, token: str | None = None) -> tuple[int, Any]:
        start = time.thread_time()
        try:
            return call(method, path, body, token)
        finally:
            kind = f"{method} " + re.sub(r"/games/[0-9a-f]{16}", "/games/{id}", path.split("?")[0])
            spent.setdefault(kind, []).append(time.thread_time() - start)

    play(timed, moves)
    return {kind: 1e6 * sum(times) / len(times) for kind, times in spent.items()}


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
        app = create_app(build(redis, prefix, inline_jobs=True))
        call = wsgi_caller(app)
        play(call, args.warm)
        for kind, micros in per_route(call, args.moves).items():
            print(f"{kind}: {micros:.0f} µs CPU a request")
        # CPU time, not wall: on a shared machine the wall is mostly waiting for Redis and the scheduler.
        profiler = cProfile.Profile(time.process_time)
        start = time.process_time()
        profiler.enable()
        posts, gets = play(call, args.moves)
        profiler.disable()
        cpu = time.process_time() - start
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
