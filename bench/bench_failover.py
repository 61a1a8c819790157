"""One master of a Redis Cluster fails under two `menagerie worker` processes: the other masters' step latency.

Starts a 3-master, 3-replica cluster of its own (a master silent for a second
is failed over), RQ on a redis-server of its own, two workers taking one step
a job (so every game is still under way when the master fails), and
`--games` (18) all-bot games (tests/support/cluster_play.py). It watches every
game's version every 20 ms; a game's step latency is the time between two
changes of its version. After `--before` (3) seconds it kills (`--fail kill`,
a process gone: its port refuses) or freezes (`--fail freeze`, SIGSTOP: a
host gone silent, its port accepting and never answering) the master that
holds the most games, and prints the step latency (median, p99, max) of the
games on the other masters before the failure and from the failure until the
replica's promotion, and how long after the promotion every game of the
failed master had moved again.

Run: .venv/bin/python -m bench.bench_failover [--fail kill|freeze] [--games 18]

Measured on the quiet 2-core machine, 2026-11-26 (3 runs each; docs/benchmarks.md, "A master's
failover under the workers"): killed, the other masters' p99 105-120 ms until the promotion against
134-151 ms before, the failed master's games moving again 0.4-1.8 s after it; frozen, p99 570-580 ms
against 128-142 ms, and 0.7-1.7 s after the promotion.
"""

from __future__ import annotations

import argparse
import shutil
import statistics
import tempfile
import time
from datetime import datetime
from pathlib import Path

from tests.support.cluster import OwnCluster
from tests.support.cluster_play import ClusterPlay

POLL_S = 0.02


class Latencies:
    """When each game's version last changed, and the gaps between changes, by when the gap ended."""

    def __init__(self, play: ClusterPlay) -> None:
        self.play = play
        self.seen = {game_id: (version, time.monotonic()) for game_id, (version, _) in play.last(play.games).items()}
        self.gaps: list[tuple[str, float, float]] = []  # game, when the gap ended, its length

    def poll(self, games: list[str]) -> None:
        """Look at the games once."""
        now = time.monotonic()
        for game_id, (version, ended) in self.play.last(games).items():
            last, since = self.seen[game_id]
            if version != last and not ended:
                self.gaps.append((game_id, now, now - since))
                self.seen[game_id] = (version, now)

    def figures(self, games: set[str], start: float, end: float) -> str:
        """Return the median, p99 and max of the gaps of `games` that ended between `start` and `end`."""
        ms = sorted(1000 * gap for game, at, gap in self.gaps if game in games and start <= at < end)
        if not ms:
            return "no steps"
        p99 = ms[min(len(ms) - 1, int(0.99 * len(ms)))]
        return f"{len(ms)} steps, median {statistics.median(ms):.0f} ms, p99 {p99:.0f} ms, max {ms[-1]:.0f} ms"


def recorded_gaps(play: ClusterPlay, games: set[str], start: float, end: float) -> str:
    """Return the median, p99 and max of the gaps between a game's steps as the workers recorded them.

    Each event carries the time its step was decided (the workers' clock, to the millisecond), so
    these gaps owe nothing to how often, or how slowly, this script looks at the games.
    `start` and `end` are wall-clock times: a gap counts when its step falls between them.
    """
    ms = []
    for game_id in games:
        times = [
            datetime.fromisoformat(event.time.replace("Z", "+00:00")).timestamp()
            for event in play.services.store.read(game_id)
            if event.command is not None  # one time a step: its first event's
        ]
        ms += [1000 * (b - a) for a, b in zip(times, times[1:]) if start <= b < end]
    if not ms:
        return "no steps"
    ms.sort()
    p99 = ms[min(len(ms) - 1, int(0.99 * len(ms)))]
    return f"{len(ms)} steps, median {statistics.median(ms):.0f} ms, p99 {p99:.0f} ms, max {ms[-1]:.0f} ms"


def main() -> None:
    """Run the failover; print the figures."""
    parser = argparse.ArgumentParser()
    parser.add_argument("--fail", choices=("kill", "freeze"), default="kill")
    parser.add_argument("--games", type=int, default=18)
    parser.add_argument("--before", type=float, default=3.0)
    parser.add_argument(
        "--full-coverage", action="store_true", help="Redis's default: every master refuses while a slot has none"
    )
    args = parser.parse_args()
    directory = Path(tempfile.mkdtemp(prefix="bench-failover-"))
    cluster = OwnCluster(directory, replicas=1, full_coverage=args.full_coverage).start()
    play = ClusterPlay(cluster, directory)
    try:
        play.create(args.games)
        play.wait_until_under_way()
        dead = play.busiest_master()
        on_dead = [g for g in play.games if play.master_of(g) == dead]
        others = {g for g in play.games if play.master_of(g) != dead}
        latencies = Latencies(play)
        began, began_wall = time.monotonic(), time.time()
        while time.monotonic() - began < args.before:
            latencies.poll(play.games)
            time.sleep(POLL_S)
        before = play.last(on_dead)
        getattr(play, args.fail)(dead)
        failed, failed_wall = time.monotonic(), time.time()
        while not play.promoted(dead, on_dead[0]):
            latencies.poll(sorted(others))
            time.sleep(POLL_S)
        promoted, promoted_wall = time.monotonic(), time.time()
        waiting = {g for g, (_, ended) in before.items() if not ended}
        while not waiting <= play.moved_since(before):
            time.sleep(POLL_S)
        resumed = time.monotonic()
        recorded = (
            recorded_gaps(play, others, began_wall, failed_wall),
            recorded_gaps(play, others, failed_wall, promoted_wall),
        )
    finally:
        play.stop()
        cluster.stop()
        shutil.rmtree(directory, ignore_errors=True)
    coverage = "yes" if args.full_coverage else "no"
    print(
        f"{args.games} all-bot games, 2 workers, one step a job, cluster-require-full-coverage {coverage}; "
        f"a master's {args.fail} ({len(on_dead)} games on it)"
    )
    print(f"other masters' games before: {latencies.figures(others, began, failed)}")
    print(
        f"other masters' games until the promotion ({promoted - failed:.1f} s): "
        f"{latencies.figures(others, failed, promoted)}"
    )
    print(f"as the workers recorded them, before: {recorded[0]}")
    print(f"as the workers recorded them, until the promotion: {recorded[1]}")
    print(f"the failed master's games all moved again {resumed - promoted:.2f} s after the promotion")


if __name__ == "__main__":
    main()
