"""Print tournament figures: Swiss pairing time for 1,000 players, rating updates per second,
and the wall time of a 64-player, 5-round bot tournament of Life is Life.

The tournament runs in-process on fakeredis (embedded mode, jobs inline); with
REDIS_URL set it also runs on that Redis through the RQ queue, worked by one
in-process SimpleWorker (add `menagerie worker`s to go faster).
Run: .venv/bin/python -m bench.bench_tournament [seconds for the rating figure]
"""

from __future__ import annotations

import os
import random
import sys
import time
import uuid
from types import MappingProxyType

import fakeredis
from redis import Redis

from domain.chance import Chance
from domain.events import record
from domain.ratings import RatingTable, apply, decide, replay
from domain.tournament.pairing import meetings, plan_round, repeats
from domain.tournament.scoring import resolve
from domain.tournament.state import ACTIVE, Entrant, Round, Table, Tournament
from service.bootstrap import build
from service.cli.tournament import run_tournament
from tests.support.processes import remove_run


def bench_pairing(players: int = 1000, rounds: int = 5) -> None:
    """Pair `players` for `rounds` Swiss rounds at tables of 3 to 5, with random results between."""
    entrants = tuple(Entrant(i, f"p{i}") for i in range(players))
    tournament = Tournament(
        id="bench",
        format="swiss",
        rounds=rounds,
        table_sizes=(3, 4, 5),
        scoring=MappingProxyType(resolve([3, 4, 5], None)),
        entrants=entrants,
        status=ACTIVE,
    )
    rng = random.Random(1)
    for number in range(1, rounds + 1):
        start = time.perf_counter()
        tables, byes = plan_round(tournament, Chance("bench", number))
        elapsed = time.perf_counter() - start
        met = meetings(tournament)
        repeated = sum(repeats(table, met) for table in tables)
        print(
            f"pairing {players} players, round {number}: {elapsed * 1000:7.1f} ms, {len(tables)} tables, "
            f"{len(byes)} byes, {repeated} repeated pairs"
        )
        played = tuple(
            Table(i, tuple(t), f"g{number}-{i}", tuple(rng.sample(range(1, len(t) + 1), len(t))))
            for i, t in enumerate(tables)
        )
        tournament = Tournament(
            **{**tournament.__dict__, "played": tournament.played + (Round(number, tuple(byes), tables=played),)}
        )


def bench_ratings(seconds: float) -> None:
    """Rate random 4-player games among 200 players; then rebuild the table from the recorded events."""
    rng = random.Random(2)
    pool = [f"p{i}" for i in range(200)]
    table, log, updates = RatingTable(game="bench"), [], 0
    start = time.perf_counter()
    while time.perf_counter() - start < seconds:
        players = rng.sample(pool, 4)
        event = decide(table, f"g{updates}", players, rng.sample([1, 2, 3, 4], 4))
        log += record(
            [event], after_seq=table.version, previous_hash=table.last_hash, time="t", command_id="c", command=None
        )
        table = apply(table, event)
        table = RatingTable(**{**table.__dict__, "version": log[-1].seq, "last_hash": log[-1].hash})
        updates += 1
    elapsed = time.perf_counter() - start
    print(f"ratings: {updates / elapsed:8.0f} games rated/s (decide + record + fold, 4 players each)")
    start = time.perf_counter()
    rebuilt = replay(log, game="bench")
    elapsed = time.perf_counter() - start
    same = {p: (r.mu, r.sigma) for p, r in rebuilt.players.items()} == {
        p: (r.mu, r.sigma) for p, r in table.players.items()
    }
    print(f"ratings: rebuild of {updates} games {updates / elapsed:8.0f} games/s, identical: {same}")


def bench_tournament(services, label: str) -> None:
    """Run the 64-player, 5-round Life is Life tournament of bots and print its wall time."""
    start = time.perf_counter()
    view = run_tournament(
        services, "life-is-life", 64, 5, ["heuristic", "random"], seed="bench", out=open(os.devnull, "w")
    )
    elapsed = time.perf_counter() - start
    games = sum(len(r["tables"]) for r in view["rounds"])
    top = view["standings"][0]
    print(
        f"tournament ({label}): 64 players, 5 rounds, {games} games in {elapsed:6.1f} s "
        f"({games / elapsed:.1f} games/s); winner {top['name']} with {top['points']} points"
    )


def main() -> None:
    """Print every figure."""
    seconds = float(sys.argv[1]) if len(sys.argv) > 1 else 3.0
    bench_pairing()
    bench_ratings(seconds)
    bench_tournament(build(fakeredis.FakeRedis(), "bench", inline_jobs=True, embedded=True), "embedded, inline jobs")
    url = os.environ.get("REDIS_URL")
    if url:
        redis, prefix = Redis.from_url(url), f"bench-{uuid.uuid4().hex[:8]}"
        try:
            bench_tournament(build(redis, prefix, inline_jobs=False), "Redis + RQ, one in-process worker")
        finally:
            remove_run(redis, prefix)


if __name__ == "__main__":
    main()
