"""The app's instructions a move, in one process: no server, no other process, the same moves every run.

bench_server_instructions counts a served worker, whose figure moves by a
few percent from run to run with the games dealt and the timing of the
worker's steps. This counts only the Flask app, called through its WSGI
entry as a server calls it (`bench.profile_request_path`), with its jobs
inline, on games dealt from fixed seeds, each move a GET of the acting
seat's view and a POST (bench_http's client): the same requests in every
run, so two runs agree within about 0.2% and a change to the request path
of a percent shows. It runs the play twice under callgrind, --moves and
--moves + --more, and prints the difference over --more (start-up and the
first games drop out). The client's JSON is counted too, alike in every run.

Needs valgrind (`apt-get install -y valgrind`).
Run: REDIS_URL=redis://127.0.0.1:6379/0 .venv/bin/python -m bench.bench_app_instructions [--moves 100] [--more 400]
"""

from __future__ import annotations

import argparse
import itertools
import os
import re
import subprocess
import sys
import uuid
from collections.abc import Iterator

from bench.bench_http import Client
from bench.profile_request_path import WsgiTableClient

_TOTAL = re.compile(r"I\s+refs:\s+([\d,]+)")


class SeededClient(WsgiTableClient):
    """bench_http's client (a GET, then a POST, a move) on the app itself, each game dealt from the next fixed seed."""

    play = Client.play

    def __init__(self, app: object) -> None:
        super().__init__(app)
        self.seeds: Iterator[int] = itertools.count()

    def new_table(self, game: str, seats: int) -> tuple[str, list[str]] | None:
        """Create a game of `seats` named seats from the next seed; return its id and their tokens."""
        body = {"game": game, "seats": [{"name": f"p{i}"} for i in range(seats)], "seed": f"bench-{next(self.seeds)}"}
        status, created = self.call("POST", "/games", body)
        if status != 201:
            raise RuntimeError(f"the app refused a game: {status} {created}")
        return created["id"], [seat["token"] for seat in created["seats"]]


def play(moves: int) -> None:
    """Play `moves` moves on a fresh app on the Redis at REDIS_URL (a key prefix of its own, removed after)."""
    from service.adapters.connections import connect
    from service.bootstrap import build
    from service.http import create_app
    from tests.support.processes import remove_run

    redis = connect(os.environ.get("REDIS_URL", "redis://127.0.0.1:6379/0"))
    prefix = f"bench-app-{uuid.uuid4().hex[:8]}"
    try:
        client = SeededClient(create_app(build(redis, prefix, inline_jobs=True)))
        client.play_moves(moves)
    finally:
        remove_run(redis, prefix)


def instructions(moves: int) -> int:
    """Return the instructions of a process that plays `moves` moves, counted by callgrind."""
    env = {**os.environ, "MENAGERIE_RATE_LIMITS": "off", "PYTHONHASHSEED": "0"}
    command = ["valgrind", "--tool=callgrind", "--callgrind-out-file=/dev/null", sys.executable]
    command += ["-m", "bench.bench_app_instructions", "--play", str(moves)]
    done = subprocess.run(command, env=env, capture_output=True, text=True, check=True)
    found = _TOTAL.search(done.stderr)
    if found is None:
        raise RuntimeError(f"no instruction count from callgrind: {done.stderr[-2000:]}")
    return int(found.group(1).replace(",", ""))


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--moves", type=int, default=100, help="moves of the shorter run")
    parser.add_argument("--more", type=int, default=400, help="moves the longer run plays beyond it")
    parser.add_argument("--play", type=int, help=argparse.SUPPRESS)  # the counted process itself
    args = parser.parse_args()
    if args.play is not None:
        os.environ["MENAGERIE_RATE_LIMITS"] = "off"
        play(args.play)
        return 0
    shorter, longer = instructions(args.moves), instructions(args.moves + args.more)
    print(f"the app in one process, get-then-post, {args.more} moves of seeded games beyond {args.moves}")
    print(f"instructions a move: {(longer - shorter) / args.more / 1e6:.3f} M")
    return 0


if __name__ == "__main__":
    sys.exit(main())
