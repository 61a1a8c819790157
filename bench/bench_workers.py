"""All-bot games finished a minute by `menagerie worker` processes: games/min, steps/s, worker CPU a step.

On the Redis at REDIS_URL, under a key prefix of its own (removed at the end),
with `--workers` (2) `menagerie worker` processes. It keeps `--games` (60)
all-bot games in play, the fault run's mix (every game type at two seat
counts, heuristic and random bots), starting another each time one ends, and
counts for `--seconds` (60), after the workers have settled: the games that
finished, the events appended (each a step: a bot's move or the system's),
and the workers' CPU time (user + system, from /proc) divided by those steps.
The games are created through the game service, not over HTTP.

Run: REDIS_URL=redis://127.0.0.1:6379/1 .venv/bin/python -m bench.bench_workers [--seconds 60] [--games 60]
[--workers 2]

Measured on the 2-core machine shared with other runs, 2026-11-26 (docs/benchmarks.md,
"Workers"): one step a job, 108 games/min, 322 steps/s, 1.57 ms of worker CPU a step (load
average 6); step jobs in slices, 628 games/min, 3,348 steps/s, 0.13 ms a step (load 9), and 420
games/min, 2,181 steps/s, 0.15 ms a step (load 17); on the quiet machine (load 1.5), 2,113
games/min, 11,836 steps/s, 0.14 ms a step.
"""

from __future__ import annotations

import argparse
import os
import subprocess
import sys
import threading
import time
import uuid
from pathlib import Path

import orjson
from redis import Redis

from bench.fault_run import KINDS
from service.adapters.slots import aggregate_key
from service.bootstrap import Services, build_from_urls
from tests.support.processes import remove_run

CLOCK_TICKS = os.sysconf("SC_CLK_TCK")


def start_workers(url: str, prefix: str, count: int) -> list[subprocess.Popen[bytes]]:
    """Start `count` workers on the run's prefix."""
    env = {**os.environ, "REDIS_URL": url, "MENAGERIE_PREFIX": prefix}
    menagerie = str(Path(sys.executable).with_name("menagerie"))
    return [
        subprocess.Popen([menagerie, "worker"], env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        for _ in range(count)
    ]


def stop_workers(workers: list[subprocess.Popen[bytes]], url: str, prefix: str) -> None:
    """Stop the workers and remove the run's keys."""
    for worker in workers:
        worker.terminate()
    for worker in workers:
        worker.wait(timeout=30)
    remove_run(Redis.from_url(url), prefix)


def cpu_seconds(pids: list[int]) -> float:
    """Return the user + system CPU time of the processes so far, in seconds."""
    total = 0
    for pid in pids:
        fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
        total += int(fields[11]) + int(fields[12])  # utime, stime (fields 14 and 15 of proc(5))
    return total / CLOCK_TICKS


class Load:
    """The all-bot games kept in play, and what finished."""

    def __init__(self, services: Services, games: int) -> None:
        self.services, self.games = services, games
        self.playing: dict[str, int] = {}  # game id -> its version at the last look
        self.started = 0
        self.finished = 0
        self.steps = 0
        self.lock = threading.Lock()

    def last_event(self, game_id: str) -> tuple[int, str]:
        """Return a game's version and its last event's type: one read, no fold (the bench's CPU is the workers')."""
        key = aggregate_key(self.services.prefix, game_id, "events")
        [(entry, fields)] = self.services.redis.xrevrange(key, count=1)
        return int(entry.split(b"-")[0]), orjson.loads(fields[b"e"])["type"]

    def top_up(self) -> None:
        """Count what moved since the last look; start a game for each that ended."""
        for game_id, seen in list(self.playing.items()):
            version, last = self.last_event(game_id)
            with self.lock:
                self.steps += version - seen
                self.playing[game_id] = version
            if last == "GameEnded":
                with self.lock:
                    self.finished += 1
                    del self.playing[game_id]
        while len(self.playing) < self.games:
            name, seats = KINDS[self.started % len(KINDS)]
            bots = [{"bot": "heuristic" if seat % 2 == 0 else "random"} for seat in range(seats)]
            game, _ = self.services.games.create(name, bots, {})
            self.started += 1
            self.playing[game.id] = game.version

    def keep_up(self, stop: threading.Event) -> None:
        """Look every 0.2 s until `stop`."""
        while not stop.wait(0.2):
            self.top_up()

    def moves(self) -> int:
        """Return the steps taken so far (bench_bot_load's measure of the load)."""
        return self.tally()[1]

    def tally(self) -> tuple[int, int]:
        """Return the games finished and steps taken so far."""
        with self.lock:
            return self.finished, self.steps


def main() -> None:
    """Run the load; print the figures."""
    parser = argparse.ArgumentParser()
    parser.add_argument("--seconds", type=float, default=60.0)
    parser.add_argument("--games", type=int, default=60)
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--settle", type=float, default=5.0, help="seconds of play before counting")
    args = parser.parse_args()
    url = os.environ.get("REDIS_URL")
    if not url:
        sys.exit("bench_workers needs REDIS_URL")
    prefix = f"bench-workers-{uuid.uuid4().hex[:8]}"
    services = build_from_urls(url, url, prefix)
    workers = start_workers(url, prefix, args.workers)
    pids = [worker.pid for worker in workers]
    try:
        load = Load(services, args.games)
        load.top_up()
        stop = threading.Event()
        threading.Thread(target=load.keep_up, args=(stop,), daemon=True).start()
        time.sleep(args.settle)
        (games0, steps0), cpu0, start = load.tally(), cpu_seconds(pids), time.perf_counter()
        time.sleep(args.seconds)
        (games1, steps1), cpu1, elapsed = load.tally(), cpu_seconds(pids), time.perf_counter() - start
        stop.set()
    finally:
        stop_workers(workers, url, prefix)
    games, steps = games1 - games0, steps1 - steps0
    print(
        f"{args.workers} workers, {args.games} all-bot games in play, {elapsed:.0f} s "
        f"(load average {os.getloadavg()[0]:.1f}): {games * 60 / elapsed:.0f} games/min, "
        f"{steps / elapsed:.0f} steps/s, worker CPU {1000 * (cpu1 - cpu0) / max(steps, 1):.2f} ms a step"
    )


if __name__ == "__main__":
    main()
