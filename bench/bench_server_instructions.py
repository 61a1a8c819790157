"""Server instructions a move: one `menagerie serve` worker under callgrind, a fixed number of moves.

CPU time a move (bench_http) swings by ±30% with whatever else the machine
runs; instructions do not, so this is the figure to compare a change by. It
starts `menagerie serve --workers 1` (`--workers N`: N processes, their counts summed) under `valgrind --tool=callgrind`
(about 50 times slower) and one `menagerie worker` for the system's steps, on
the Redis at REDIS_URL with a key prefix of its own, plays --warm moves
unmeasured (imports, caches, connections), zeroes the counters, plays --moves
moves over --clients connections (each POST the acting seat's first legal
action, the four games in turn),
dumps the counters and prints the worker's instructions a move and a request.
`--pattern one-request` (the default) plays as a seat's client should
(`bench.table_client`): the action's answer holds the mover's view, and a seat
reads its view only when it must act and holds an older one; `get-then-post`
is bench_http's client, a GET before every POST, as clients played before the
answer held the view; `socket` is `bench.table_client.SocketTableClient`, a
socket a seat (`--games bloede-kuh` plays the game bench_peer plays).
Games are dealt from fresh seeds, so two runs differ by about 1%. Only what
runs in user space is counted (not the kernel's socket work), and only the
server's worker process (not the client, Redis or the RQ worker). Removes its keys.

Figures (400 moves, 4 clients, Debian's python3.11; M instructions a move / a
request, GETs a move): get-then-post 2.83 / 1.38, 1.05; one-request 2.92 /
1.47, 0.99. The view in the answer adds about 0.19 M a move; with one client
playing every seat the next mover's read stays, so here it is not repaid.

Needs valgrind (`apt-get install -y valgrind`).
Run: REDIS_URL=redis://127.0.0.1:6379/0 .venv/bin/python -m bench.bench_server_instructions [--moves 400] [--clients 4]
     [--pattern one-request|get-then-post|socket] [--games bloede-kuh] [--workers 1] [--dump FILE]
"""

from __future__ import annotations

import argparse
import os
import re
import shutil
import subprocess
import sys
import tempfile
import threading
import time
import uuid
from pathlib import Path

from bench.bench_http import BIN, GAMES, ROOT, Client, stop
from bench.table_client import SocketTableClient, TableClient
from service.adapters.connections import connect
from tests.support.processes import children_of, free_port, http, remove_run, wait_for

_TOTAL = re.compile(rb"^(?:summary|totals): (\d+)", re.MULTILINE)


PATTERNS: dict[str, type[Client]] = {
    "one-request": TableClient,
    "get-then-post": Client,
    "socket": SocketTableClient,
}


def play_moves(
    port: int,
    clients: int,
    moves: int,
    pattern: type[Client] = TableClient,
    games: list[tuple[str, int]] = GAMES,
) -> tuple[int, int]:
    """Play `moves` moves in all over `clients` connections, on `games` in turn; return the moves and GETs sent."""
    counts: list[tuple[int, int]] = []

    def run(index: int) -> None:
        client = pattern(port)
        wanted = moves // clients + (index < moves % clients)
        turn = index
        while len(client.posts) < wanted:
            game, seats = games[turn % len(games)]
            # Far off: Client.play stops at the end of its game; the loop stops it at `wanted` moves.
            client.play(game, seats, deadline=time.monotonic() + 3600, moves=wanted)
            turn += 1
        counts.append((len(client.posts), len(client.gets)))

    threads = [threading.Thread(target=run, args=(i,)) for i in range(clients)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    return sum(p for p, _ in counts), sum(g for _, g in counts)


def total_instructions(dump: Path) -> int:
    found = _TOTAL.search(dump.read_bytes())
    if found is None:
        raise SystemExit(f"no totals in {dump}")
    return int(found.group(1))


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--moves", type=int, default=400)
    parser.add_argument("--warm", type=int, default=120)
    parser.add_argument("--clients", type=int, default=4)
    parser.add_argument("--pattern", choices=sorted(PATTERNS), default="one-request")
    parser.add_argument("--games", default=",".join(game for game, _ in GAMES), help="the games played in turn")
    parser.add_argument("--dump", type=Path, help="copy the measured callgrind dump here (for callgrind_annotate)")
    parser.add_argument("--workers", type=int, default=1, help="server processes (their instructions are summed)")
    args = parser.parse_args()
    pattern = PATTERNS[args.pattern]
    seats = dict(GAMES)
    games = [(game, seats[game]) for game in args.games.split(",")]
    if shutil.which("valgrind") is None or shutil.which("callgrind_control") is None:
        print("skipped: needs valgrind (apt-get install -y valgrind)")
        return 0  # `make bench` runs on without it
    url = os.environ.get("REDIS_URL", "redis://127.0.0.1:6379/0")
    prefix = f"bench-instr-{uuid.uuid4().hex[:8]}"
    port = free_port()
    env = {**os.environ, "REDIS_URL": url, "MENAGERIE_PREFIX": prefix, "MENAGERIE_RATE_LIMITS": "off"}
    env["PYTHONHASHSEED"] = "0"  # the same set and dict orders in every run
    with tempfile.TemporaryDirectory(prefix="bench-instr-") as directory:
        out = Path(directory)
        server = subprocess.Popen(
            ["valgrind", "--tool=callgrind", "--trace-children=yes", f"--callgrind-out-file={out}/cg.%p"]
            + [str(BIN / "menagerie"), "serve", "--workers", str(args.workers), "--port", str(port)],
            cwd=ROOT,
            env=env,
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
        )
        worker = subprocess.Popen([str(BIN / "menagerie"), "worker"], cwd=ROOT, env=env, stderr=subprocess.DEVNULL)
        try:
            health = f"http://127.0.0.1:{port}/health"
            wait_for(lambda: http("GET", health)[0] == 200, 900, "the server under callgrind to answer")
            play_moves(port, args.clients, args.warm, pattern, games)
            served = children_of(server.pid)
            if len(served) != args.workers:
                raise SystemExit(f"expected {args.workers} server worker processes, found {served}")
            for pid in served:
                subprocess.run(["callgrind_control", "-z", str(pid)], check=True, capture_output=True)
            posts, gets = play_moves(port, args.clients, args.moves, pattern, games)
            total = 0
            for index, pid in enumerate(served):
                subprocess.run(["callgrind_control", "-d", str(pid)], check=True, capture_output=True)
                dumps = sorted(out.glob(f"cg.{pid}.*"))
                if not dumps:
                    raise SystemExit("callgrind wrote no dump")
                total += total_instructions(dumps[-1])
                if args.dump is not None:
                    shutil.copyfile(dumps[-1], args.dump if index == 0 else Path(f"{args.dump}.{index}"))
        finally:
            stop([server, worker], timeout_s=30)  # a server under valgrind stops slowly
            remove_run(connect(url), prefix)
    print(
        f"server workers ({args.workers}) under callgrind, {args.clients} clients ({args.pattern}), {posts} moves, {gets} GETs"
        f" (after {args.warm} warm-up moves)"
    )
    print(f"instructions a move: {total / posts / 1e6:.3f} M; a request: {total / (posts + gets) / 1e6:.3f} M")
    return 0


if __name__ == "__main__":
    sys.exit(main())
