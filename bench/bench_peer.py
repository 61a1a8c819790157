"""Menagerie beside boardgame.io, on the same machine in one run: total CPU a move, moves/s, p50/p99, and their ratio.

The peer is boardgame.io 0.50 serving a simplified Blöde Kuh
(`bench/peers/boardgameio/`; installed with `npm ci` when its node_modules is
missing, and checked by its `check.js` before it is measured), twice: with its
in-memory default storage (`boardgame.io`), and with its durable one, FlatFile
(`bgio FlatFile`: node-persist 3.1, pinned by the peer's lock, a file a
match's state, metadata and log in a temporary folder; node-persist 3.1 queues
its writes and makes them once a second, the last of each key, and never
fsyncs). Both are played by the peer's Node load client over socket.io, every
seat on a socket of its own. Menagerie serves as `menagerie serve` does
(`--server`, `--workers`), with one `menagerie worker`, store and RQ on a
redis-server of its own that syncs its append-only file on every write
(`appendfsync always`), played on Blöde Kuh in two ways:

- `Menagerie` (HTTP), by `bench.table_client.TableClient`: one request a move,
  the action's answer holding the mover's view, and a seat's view read only
  when that seat must act and holds an older one (its wait for its turn: the
  other seats moved since its last answer);
- `Men. socket`, by `bench.table_client.SocketTableClient`, as boardgame.io's
  client plays: a socket a seat (`GET /games/{id}/socket`), a move an `act`
  message whose answer holds the mover's view (`"view": true`), every other
  seat sent its view after every batch.

Both systems run throughout; at each client level each is measured in turn,
back to back, boardgame.io first in the odd repeats and Menagerie first in the
even ones, so that drift in what else the machine does falls on both alike.

- CPU ms a move: the utime + stime of every process the system needs, over the
  moves it served: for boardgame.io its Node server (storage is in it); for
  Menagerie the server processes, the worker and the redis-server, each also
  printed alone (server/worker/redis ms/move).
- Moves/s: moves over the level's wall time. A move is a human action:
  Menagerie's POST or `act` message, boardgame.io's `update` (a deal is inside
  boardgame.io's move and a worker's step in Menagerie's, counted in the CPU,
  not as a move).
- p50/p99: a move's latency. boardgame.io and Menagerie's socket: from sending
  the move to the mover's socket holding the new state (view). Menagerie over
  HTTP: the POST, whose answer holds the mover's new view (the reads of the
  next mover's view, GETs/move, about one a move since one client plays all
  four seats, are counted in the CPU).
- The window: each level plays new games for --seconds; creating and joining
  them is inside it on both sides. boardgame.io's client connects its sockets
  (four a client) before the window and closes them after it.
- client CPU ms a move: the load generator's own, for scale: it shares the
  cores with the systems measured.
- load: the machine's 1-minute load average as the level ended (and all three
  at the start, in the first line): figures taken beside other work are not
  comparable with a quiet machine's.

Not alike: boardgame.io pushes every move to all four seats' sockets (four
`playerView`s and four messages a move, most of its CPU), and so does
Menagerie's socket; Menagerie's HTTP client reads about one view a move, the
next mover's, so what the other seats would pay to learn of the move is not in
its figure. Menagerie's socket client opens a game's four sockets inside the
window (they are a game's); boardgame.io's are opened before it. Under contention the scheduler
shares the cores by thread, so Menagerie's several processes get more of them
than boardgame.io's one Node thread: moves/s and latencies on a busy machine
lean Menagerie's way; CPU a move leans less.

Figures, means of 2 runs of `--clients 1,4,16 --seconds 10 --repeats 2` on the
2-core machine with nothing else running (load average 2.4 to 3.3, the bench's
own), CPU ms a move boardgame.io / Menagerie (ratio), moves/s, p99: 1 client
0.28 / 1.37 (4.96), 2,986 / 589, 1.9 / 2.9 ms; 4 clients 0.24 / 1.30 (5.33),
4,026 / 979, 4.1 / 6.7 ms; 16 clients 0.24 / 1.12 (4.61), 4,024 / 1,251,
11.4 / 16.9 ms. Menagerie's 1.12 at 16 clients: server 0.88, worker 0.10,
redis-server 0.15; it read 0.84 views a move.

Run: .venv/bin/python -m bench.bench_peer [--clients 1,4,16] [--seconds 10] [--repeats 2] [--workers 2]
     [--systems boardgame.io,bgio FlatFile,Menagerie,Men. socket]
"""

from __future__ import annotations

import argparse
import contextlib
import json
import os
import shutil
import socket
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path

from bench.bench_http import ROOT, Client, Serving, cpu_times, run_level, serving, stop, total_cpu_times
from bench.table_client import SocketTableClient, TableClient
from tests.support.processes import OwnRedis, free_port

PEER = ROOT / "bench" / "peers" / "boardgameio"
MENAGERIE_GAMES = [("bloede-kuh", 4)]
BOARDGAMEIO = "boardgame.io"
FLATFILE = "bgio FlatFile"
MENAGERIE = "Menagerie"
SOCKET = "Men. socket"
SYSTEMS = (BOARDGAMEIO, FLATFILE, MENAGERIE, SOCKET)
# How each system's peer runs: boardgame.io's storage, or Menagerie's client.
STORAGES = {BOARDGAMEIO: "memory", FLATFILE: "flatfile"}
CLIENTS: dict[str, type[Client]] = {MENAGERIE: TableClient, SOCKET: SocketTableClient}
# The ratios printed, ours over theirs: the socket against both storages, HTTP against memory as before.
RATIOS = ((SOCKET, FLATFILE), (SOCKET, BOARDGAMEIO), (MENAGERIE, BOARDGAMEIO))


@dataclass(frozen=True)
class Row:
    """One system's figures at one client level."""

    system: str
    clients: int
    moves: int
    moves_s: float
    p50_ms: float
    p99_ms: float
    cpu_ms_per_move: float
    client_cpu_ms_per_move: float
    errors: int
    # Menagerie's view reads a move (a seat's wait for its turn; none after its own move); boardgame.io: none.
    gets_per_move: float = 0.0
    # The machine's 1-minute load average as the level ended: what else ran beside the two systems.
    load: float = 0.0
    # Menagerie's CPU ms a move by part: its server processes, its worker, its redis-server.
    parts: tuple[float, float, float] = (0.0, 0.0, 0.0)


def install_peer() -> bool:
    """Install the peer's pinned packages from its lock when they are missing; False without node and npm."""
    npm = shutil.which("npm")
    if npm is None or shutil.which("node") is None:
        return False
    if not (PEER / "node_modules" / "boardgame.io").is_dir():
        subprocess.run([npm, "ci", "--no-audit", "--no-fund"], cwd=PEER, check=True)
    return True


def check_peer() -> None:
    """Refuse to measure a port that breaks its rules (`check.js`: card count, forbidden moves, views)."""
    done = subprocess.run(["node", "check.js", "5"], cwd=PEER, capture_output=True, text=True, timeout=300)
    if done.returncode != 0:
        # boardgame.io logs every refused move on stderr: the last line is the check's own.
        raise SystemExit(done.stderr.strip().splitlines()[-1] if done.stderr.strip() else "check.js failed")


def wait_for_port(port: int, timeout_s: float) -> None:
    deadline = time.monotonic() + timeout_s
    while time.monotonic() < deadline:
        try:
            socket.create_connection(("127.0.0.1", port), timeout=0.2).close()
            return
        except OSError:
            time.sleep(0.05)
    raise SystemExit(f"nothing answers on 127.0.0.1:{port} after {timeout_s} s")


@contextmanager
def boardgameio(storage: str) -> Iterator[tuple[int, int]]:
    """Run the peer's server on `storage` (memory, or flatfile in a folder of its own) until the block ends; yield its port and pid."""
    port = free_port()
    # production: boardgame.io then logs no INFO line a move.
    env = {**os.environ, "NODE_ENV": "production"}
    with tempfile.TemporaryDirectory(prefix="bench-peer-flatfile-") as folder:
        where = [folder] if storage == "flatfile" else []
        command = ["node", "server.js", str(port), storage, *where]
        process = subprocess.Popen(command, cwd=PEER, env=env, stdout=subprocess.DEVNULL)
        try:
            wait_for_port(port, 30)
            yield port, process.pid
        finally:
            stop([process], timeout_s=10)


def percentile(ordered: list[float], share: float) -> float:
    return ordered[int(share * (len(ordered) - 1))] if ordered else 0.0


def measure_boardgameio(port: int, pid: int, clients: int, seconds: float, system: str = BOARDGAMEIO) -> Row:
    # The client connects every seat's socket, says `ready` and waits for a line; it prints its figures before
    # it closes them. Its start and its sockets' opening and closing are outside the measured window.
    with tempfile.TemporaryFile(mode="w+") as errors:
        load = subprocess.Popen(
            ["node", "load.js", str(port), str(clients), str(seconds)],
            cwd=PEER,
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=errors,
            text=True,
        )
        assert load.stdin is not None and load.stdout is not None
        try:
            if load.stdout.readline().strip() != "ready":
                raise SystemExit("load.js did not start")
            client_before, cpu_before = sum(cpu_times(load.pid)), sum(total_cpu_times([pid]))
            load.stdin.write("go\n")
            load.stdin.flush()
            out = load.stdout.readline()
            client_cpu, cpu = sum(cpu_times(load.pid)) - client_before, sum(total_cpu_times([pid])) - cpu_before
            if load.wait(timeout=60) != 0 or not out:
                raise SystemExit("load.js failed")
        except SystemExit as failure:
            load.kill()
            errors.seek(0)
            raise SystemExit(f"{failure}: {errors.read().strip()[-2000:]}") from None
    result = json.loads(out)
    latencies = sorted(result["latencies_ms"])
    moves = result["moves"]
    return Row(
        system=system,
        clients=clients,
        moves=moves,
        moves_s=moves / result["seconds"],
        p50_ms=statistics.median(latencies) if latencies else 0.0,
        p99_ms=percentile(latencies, 0.99),
        cpu_ms_per_move=1000 * cpu / moves if moves else 0.0,
        client_cpu_ms_per_move=1000 * client_cpu / moves if moves else 0.0,
        errors=result["errors"],
        load=os.getloadavg()[0],
    )


def measure_menagerie(menagerie: Serving, redis_pid: int, clients: int, seconds: float, system: str = MENAGERIE) -> Row:
    pids = [menagerie.server_pid, menagerie.worker_pid, redis_pid]
    # This process does nothing but play the clients meanwhile: its CPU is theirs.
    client_before = time.process_time()
    parts_before = [sum(cpu_times(pid)) for pid in pids]
    r = run_level(menagerie.port, pids, clients, seconds, games=MENAGERIE_GAMES, client=CLIENTS[system])
    parts_after = [sum(cpu_times(pid)) for pid in pids]
    client_cpu = time.process_time() - client_before
    moves = int(r["moves"])
    server, worker, redis = (
        1000 * (a - b) / moves if moves else 0.0 for a, b in zip(parts_after, parts_before, strict=True)
    )
    return Row(
        system=system,
        clients=clients,
        moves=moves,
        moves_s=r["moves_s"],
        p50_ms=r["post_p50"],
        p99_ms=r["post_p99"],
        cpu_ms_per_move=r["cpu_ms_per_move"],
        client_cpu_ms_per_move=1000 * client_cpu / moves if moves else 0.0,
        errors=int(r["errors"]),
        gets_per_move=r["gets_per_move"],
        load=os.getloadavg()[0],
        parts=(server, worker, redis),
    )


HEADER = (
    f"{'run':>3} {'system':>14} {'clients':>7} {'moves':>6} {'moves/s':>8} {'p50':>8} {'p99':>8}"
    f" {'CPU ms/move':>11} {'client ms/move':>14} {'errors':>6} {'GETs/move':>9} {'load':>5}"
    f"  {'server/worker/redis ms/move':>27}"
)


def show(label: str, row: Row) -> None:
    print(
        f"{label:>3} {row.system:>14} {row.clients:>7} {row.moves:>6} {row.moves_s:>8.0f} {row.p50_ms:>6.1f}ms"
        f" {row.p99_ms:>6.1f}ms {row.cpu_ms_per_move:>11.2f} {row.client_cpu_ms_per_move:>14.2f} {row.errors:>6}"
        f" {row.gets_per_move:>9.2f} {row.load:>5.1f}"
        + (f"  {'/'.join(f'{part:.3f}' for part in row.parts):>27}" if row.system in CLIENTS else ""),
        flush=True,
    )


def ratio(ours: float, theirs: float) -> str:
    return f"{ours / theirs:.2f}" if theirs else "-"


def show_ratios(label: str, ours: Row, theirs: Row) -> None:
    names = {MENAGERIE: "HTTP", SOCKET: "socket", BOARDGAMEIO: "mem", FLATFILE: "FlatFile"}
    print(
        f"{label:>3} {names[ours.system] + '/' + names[theirs.system]:>14} {ours.clients:>7} {'':>6} {ratio(ours.moves_s, theirs.moves_s):>8}"
        f" {ratio(ours.p50_ms, theirs.p50_ms):>8} {ratio(ours.p99_ms, theirs.p99_ms):>8}"
        f" {ratio(ours.cpu_ms_per_move, theirs.cpu_ms_per_move):>11}",
        flush=True,
    )


def mean_row(rows: list[Row]) -> Row:
    return Row(
        system=rows[0].system,
        clients=rows[0].clients,
        moves=sum(r.moves for r in rows),
        moves_s=statistics.fmean(r.moves_s for r in rows),
        p50_ms=statistics.fmean(r.p50_ms for r in rows),
        p99_ms=statistics.fmean(r.p99_ms for r in rows),
        cpu_ms_per_move=statistics.fmean(r.cpu_ms_per_move for r in rows),
        client_cpu_ms_per_move=statistics.fmean(r.client_cpu_ms_per_move for r in rows),
        errors=sum(r.errors for r in rows),
        gets_per_move=statistics.fmean(r.gets_per_move for r in rows),
        load=statistics.fmean(r.load for r in rows),
        parts=(
            statistics.fmean(r.parts[0] for r in rows),
            statistics.fmean(r.parts[1] for r in rows),
            statistics.fmean(r.parts[2] for r in rows),
        ),
    )


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--clients", default="1,4,16")
    parser.add_argument("--seconds", type=float, default=10.0)
    parser.add_argument("--repeats", type=int, default=2, help="runs of every level, the systems' order alternating")
    parser.add_argument("--workers", type=int, default=2, help="Menagerie's server processes (menagerie serve's)")
    parser.add_argument("--server", choices=("granian", "gunicorn", "gthread"), default="granian")
    parser.add_argument("--systems", default=",".join(SYSTEMS), help=f"which to measure, of {', '.join(SYSTEMS)}")
    args = parser.parse_args()
    levels = [int(n) for n in args.clients.split(",")]
    systems = [system.strip() for system in args.systems.split(",")]
    if not systems or set(systems) - set(SYSTEMS):
        parser.error(f"--systems names some of {', '.join(SYSTEMS)}")
    pairs = [(ours, theirs) for ours, theirs in RATIOS if ours in systems and theirs in systems]
    if not install_peer():
        print("skipped: needs node and npm (apt-get install -y nodejs npm)")
        return 0  # `make bench` runs on without them
    check_peer()
    rows: list[tuple[int, Row]] = []
    with tempfile.TemporaryDirectory(prefix="bench-peer-aof-") as directory:
        redis = OwnRedis(Path(directory))
        redis.start()
        assert redis.process is not None
        redis_pid = redis.process.pid
        try:
            with (
                serving(redis.url, redis.url, args.server, args.workers) as menagerie,
                contextlib.ExitStack() as peers,
            ):
                # Every boardgame.io measured runs throughout, as Menagerie does.
                ports = {
                    system: peers.enter_context(boardgameio(STORAGES[system]))
                    for system in systems
                    if system in STORAGES
                }

                def measure(system: str, clients: int, seconds: float) -> Row:
                    if system in STORAGES:
                        port, pid = ports[system]
                        return measure_boardgameio(port, pid, clients, seconds, system)
                    return measure_menagerie(menagerie, redis_pid, clients, seconds, system)

                # Warm up every one: imports, JIT, caches and connections in every process.
                for system in systems:
                    measure(system, 4, min(3.0, args.seconds))
                peer_ports = ", ".join(f"{system} on 127.0.0.1:{port}" for system, (port, _) in ports.items())
                print(
                    f"boardgame.io 0.50: {peer_ports or 'none'}; Menagerie: {args.server}"
                    f" -w {args.workers}, one worker, redis-server appendfsync always on {redis.url};"
                    f" {args.seconds:g} s a level; {os.cpu_count()} CPUs;"
                    f" load average {' '.join(f'{n:.2f}' for n in os.getloadavg())} at the start"
                )
                print("command: .venv/bin/python -m bench.bench_peer " + " ".join(sys.argv[1:]))
                print(HEADER)
                for run in range(1, args.repeats + 1):
                    # Each run starts the round one further on, so that no system is always measured first.
                    order = systems[(run - 1) % len(systems) :] + systems[: (run - 1) % len(systems)]
                    for clients in levels:
                        measured = {system: measure(system, clients, args.seconds) for system in order}
                        for system in order:
                            show(str(run), measured[system])
                            rows.append((run, measured[system]))
                        for ours, theirs in pairs:
                            show_ratios(str(run), measured[ours], measured[theirs])
        finally:
            redis.kill()  # its data is this run's only
    print(f"\nmeans of the {args.repeats} runs")
    print(HEADER)
    for clients in levels:
        means = {
            system: mean_row([row for _, row in rows if row.system == system and row.clients == clients])
            for system in systems
        }
        for system in systems:
            show("all", means[system])
        for ours, theirs in pairs:
            show_ratios("all", means[ours], means[theirs])
    return 0


if __name__ == "__main__":
    sys.exit(main())
