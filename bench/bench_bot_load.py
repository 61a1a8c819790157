"""A human game's bot turns while the heaviest allowed all-bot games load the workers: their p95.

On the Redis at REDIS_URL, under a key prefix of its own (removed at the end),
with `--workers` (2) `menagerie worker` processes. It keeps `--games` (20)
all-bot games of `--table` in play, starting another each time one ends: by
default Animals on Board with 4 mcts seats at the largest search budget the
option allows (`mcts_iterations` 200; its moves are the dearest of any game's,
README "A move's CPU time"), or e.g. `zop-zoo:6`, whose target is the largest
allowed (1000), or `mix`: bench_workers' games (every game type, heuristic and
random bots), the load of its all-bot games a minute. They are created through the game service, not over HTTP, so
the per-address cap on all-bot games (4 by default) does not apply: the 20
stand for five clients at their cap.

Meanwhile a human plays Life is Life against two heuristic bots, always posting
its first legal action; a bot turn's latency is the wall time from the append
that made it due (the human's move, or the other bot's) to the bot's own
append, observed by polling the stream's version every millisecond. Prints the
bot turns' count, median, 95th percentile and maximum, and the all-bot games'
moves a second.
Run: REDIS_URL=redis://127.0.0.1:6379/0 .venv/bin/python -m bench.bench_bot_load [--seconds 60] [--games 20]
[--table animals-on-board:4] [--workers 2]

Measured with one step a job, on the quiet 2-core machine (load average under 2.5), 60 s, 20 games: animals-on-board:4,
4,115 bot turns, median 3 ms, p95 72 ms, max 161 ms; zop-zoo:6, 10,219 bot turns, median 3 ms,
p95 6 ms, max 164 ms. A worker that has begun an mcts move finishes it before it takes the human
game's step, which is what the tail is made of. On a machine loaded by other runs (load average
9 to 16) the p95 was 339-344 ms, 220 ms of it the machine's own load (30 s with no all-bot games).

With `--table mix --games 60`, two workers taking steps in slices (load average 11 to 16): the bot
turns' median 15-21 ms, p95 83-131 ms, max 716-850 ms; with the default table at load 22, median
28 ms, p95 251 ms.
"""

from __future__ import annotations

import argparse
import os
import statistics
import sys
import threading
import time
import uuid

from bench import bench_workers
from domain.game import FINISHED, MCTS_ITERATIONS
from service.bootstrap import Services, build_from_urls

HUMAN = [{"name": "human"}, {"bot": "heuristic"}, {"bot": "heuristic"}]
POLL_S = 0.001


class Load:
    """The all-bot games kept in play."""

    def __init__(self, services: Services, table: str, games: int) -> None:
        self.services, self.games = services, games
        self.game, seats = table.split(":")[0], int(table.split(":")[1])
        self.seats = [{"bot": "mcts"}] * seats
        self.options = {"mcts_iterations": MCTS_ITERATIONS[1]}
        self.playing: list[str] = []
        self.finished_moves = 0

    def top_up(self) -> None:
        """Start a game for each that ended since the last look."""
        still = []
        for game_id in self.playing:
            version = self.services.store.version(game_id)
            if self.services.repository.load(game_id).status == FINISHED:
                self.finished_moves += version
            else:
                still.append(game_id)
        self.playing = still
        while len(self.playing) < self.games:
            game, _ = self.services.games.create(self.game, self.seats, dict(self.options))
            self.playing.append(game.id)

    def keep_up(self, stop: threading.Event) -> None:
        """Top the games up twice a second until `stop` (on a thread of its own, off the human's clock)."""
        while not stop.wait(0.5):
            self.top_up()

    def moves(self) -> int:
        """Return the events of every all-bot game so far."""
        return self.finished_moves + sum(self.services.store.version(g) for g in self.playing)


def human_game(services: Services, seconds: float) -> list[float]:
    """Play human games for `seconds`; return every bot turn's latency in seconds."""
    latencies: list[float] = []
    deadline = time.perf_counter() + seconds
    while time.perf_counter() < deadline:
        game, _ = services.games.create("life-is-life", HUMAN, {})
        game_id, version = game.id, game.version
        due_since = time.perf_counter()
        while time.perf_counter() < deadline:
            now = services.store.version(game_id)
            if now != version:
                arrived = time.perf_counter()
                game = services.repository.load(game_id)
                if game.status == FINISHED:
                    break
                # One step's append (a bot's move, or the system's) since the last: its latency.
                latencies.append(arrived - due_since)
                version, due_since = now, arrived
                continue
            if 0 in game.humans_to_act() and not game.system_due:
                acted = services.games.act(game_id, 0, game.legal_actions(0)[0])
                version, due_since = acted["version"], time.perf_counter()
                game = services.repository.load(game_id)
                continue
            time.sleep(POLL_S)
    return latencies


def main() -> None:
    """Run the load and the human games; print the figures."""
    parser = argparse.ArgumentParser()
    parser.add_argument("--seconds", type=float, default=60.0)
    parser.add_argument("--games", type=int, default=20)
    parser.add_argument("--table", default="animals-on-board:4")
    parser.add_argument("--workers", type=int, default=2)
    args = parser.parse_args()
    url = os.environ.get("REDIS_URL")
    if not url:
        sys.exit("bench_bot_load needs REDIS_URL")
    prefix = f"bench-load-{uuid.uuid4().hex[:8]}"
    services = build_from_urls(url, url, prefix)
    workers = bench_workers.start_workers(url, prefix, args.workers)
    try:
        load: Load | bench_workers.Load = (
            bench_workers.Load(services, args.games) if args.table == "mix" else Load(services, args.table, args.games)
        )
        load.top_up()
        stop = threading.Event()
        threading.Thread(target=load.keep_up, args=(stop,), daemon=True).start()
        time.sleep(2.0)  # the workers start and the load settles
        start_moves, start = load.moves(), time.perf_counter()
        latencies = human_game(services, args.seconds)
        rate = (load.moves() - start_moves) / (time.perf_counter() - start)
        stop.set()
    finally:
        bench_workers.stop_workers(workers, url, prefix)
    ms = sorted(1000 * latency for latency in latencies)
    p95 = ms[min(len(ms) - 1, int(0.95 * len(ms)))] if ms else float("nan")
    kind = "bench_workers' mix" if args.table == "mix" else f"{args.table} (mcts, {MCTS_ITERATIONS[1]} iterations)"
    print(
        f"{args.games} all-bot games of {kind}, {args.workers} workers, {args.seconds:g} s: all-bot events {rate:.0f}/s"
    )
    if ms:
        print(
            f"human game's bot turns: {len(ms)}, median {statistics.median(ms):.0f} ms, "
            f"p95 {p95:.0f} ms, max {ms[-1]:.0f} ms (target: p95 < 200 ms)"
        )


if __name__ == "__main__":
    main()
