"""What a finished game costs Redis: its stream as played, packed, and archived; extrapolated to 1M games.

Plays `--games` (20) finished games of each type with 4 heuristic bot seats (default options, shared
dealing, so each is rated too) through the game service, on the Redis at REDIS_URL under a key prefix of
its own (removed at the end). Packing is held back while they play, so each game's keys are first
measured as its stream left them; then each is packed (what a finished game's follow-up job does), then
archived to a temporary directory. For each type it prints the mean `MEMORY USAGE` (with every sample)
of a game's own keys at each stage, the rating stream's growth a game (the one key every finished
game still adds to), the CPU a pack costs and the CPU of reading a packed game whole (unpacked
afresh); then the same for the four-game mix, times 1M.
Run: REDIS_URL=redis://127.0.0.1:6379/2 .venv/bin/python -m bench.bench_memory [--games 20]

Measured on Redis 7.0 (2 shared cores), 20 games a type, 2026-11-26:

| game | events | as played | packed | archived (tombstone) | rating stream a game | pack | read packed |
|---|---|---|---|---|---|---|---|
| life-is-life | 66 | 43.7 KiB | 4.2 KiB | 0.60 KiB | 0.68 KiB | 5 ms | 3 ms |
| animals-on-board | 81 | 56.4 KiB | 5.5 KiB | 0.60 KiB | 0.68 KiB | 6 ms | 3 ms |
| bloede-kuh | 170 | 81.6 KiB | 5.1 KiB | 0.60 KiB | 0.68 KiB | 10 ms | 5 ms |
| zop-zoo | 1,959 | 805.1 KiB | 41.9 KiB | 0.60 KiB | 0.68 KiB | 95 ms | 46 ms |
| 1M of the mix | | 235.3 GiB | 13.5 GiB | 0.57 GiB | 0.65 GiB | | |

A game's own keys: as played, its stream and seed; packed, one value; archived, its tombstone.
The mix packed, 13.5 GiB a million games plus 0.65 GiB of rating streams, is under the 20 GiB
target; archived, what is left is the tombstones (0.57 GiB a million) and the lobby's listing.
"""

from __future__ import annotations

import argparse
import os
import statistics
import tempfile
import time
import uuid
from datetime import UTC, datetime, timedelta

from redis import Redis

from service.adapters.packing import unpack
from service.bootstrap import Services, build

GAMES = ("life-is-life", "animals-on-board", "bloede-kuh", "zop-zoo")
SEATS = 4
MILLION = 1_000_000
KIB, GIB = 1024, 1024**3
STAGES = ("played", "packed", "archived", "ratings")


def game_keys(services: Services, game_id: str) -> list[str]:
    """Return the keys under a game's hash tag."""
    return [key.decode() for key in services.redis.scan_iter(f"{services.prefix}:{{{game_id}}}:*")]


def footprint(services: Services, game_id: str) -> int:
    """Return the bytes Redis reports for a game's own keys (MEMORY USAGE, every sample)."""
    return sum(int(services.redis.memory_usage(key, samples=0) or 0) for key in game_keys(services, game_id))


def rating_bytes(services: Services) -> int:
    """Return the bytes of every rating stream under the prefix (one a game type, with its idempotency records)."""
    keys = services.redis.scan_iter(f"{services.prefix}:{{ratings-*")
    return sum(int(services.redis.memory_usage(key, samples=0) or 0) for key in keys)


def play(services: Services, game: str, count: int) -> list[str]:
    """Play `count` all-bot games of a type to their end, their packing held back; return their ids."""
    pack = services.archive.pack
    services.archive.pack = lambda game_id: "held back"  # type: ignore[method-assign]
    ids = []
    try:
        for _ in range(count):
            created, _tokens = services.games.create(game, [{"bot": "heuristic"}] * SEATS, {})
            assert services.repository.load(created.id).status == "finished", game
            ids.append(created.id)
    finally:
        services.archive.pack = pack  # type: ignore[method-assign]
    return ids


def measure(services: Services, game: str, count: int, directory: str) -> dict[str, float]:
    """Return a type's mean bytes a game as played, packed and archived, its rating growth, and its events."""
    ratings_before = rating_bytes(services)
    ids = play(services, game, count)
    ratings = (rating_bytes(services) - ratings_before) / count
    played = [footprint(services, game_id) for game_id in ids]
    events = statistics.mean(services.store.version(game_id) for game_id in ids)
    started = time.process_time()
    for game_id in ids:
        assert services.archive.pack(game_id) == "packed"
    packing_ms = (time.process_time() - started) * 1000 / len(ids)
    packed = [footprint(services, game_id) for game_id in ids]
    unpack.cache_clear()
    started = time.process_time()
    for game_id in ids:
        services.store.read_raw(game_id)  # what an export or an audit of a packed game reads first
    unpacking_ms = (time.process_time() - started) * 1000 / len(ids)
    services.archive.archive_finished(directory, datetime.now(UTC) + timedelta(minutes=5))
    archived = [footprint(services, game_id) for game_id in ids]
    return {
        "played": statistics.mean(played),
        "packed": statistics.mean(packed),
        "archived": statistics.mean(archived),
        "ratings": ratings,
        "events": events,
        "packing_ms": packing_ms,
        "unpacking_ms": unpacking_ms,
    }


def main() -> None:
    """Print the table of footprints a game type and the mix's extrapolation to 1M games."""
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--games", type=int, default=20, help="finished games of each type")
    args = parser.parse_args()
    url = os.environ.get("REDIS_URL", "redis://127.0.0.1:6379/2")
    redis = Redis.from_url(url)
    prefix = f"bench-memory-{uuid.uuid4().hex[:8]}"
    services = build(redis, prefix, inline_jobs=True)
    try:
        with tempfile.TemporaryDirectory() as directory:
            rows = {game: measure(services, game, args.games, directory) for game in GAMES}
    finally:
        for key in redis.scan_iter(f"{prefix}:*"):
            redis.delete(key)
    print(f"Redis at {url}; {args.games} finished games a type, {SEATS} heuristic bots a game")
    print("| game | events | as played | packed | archived (tombstone) | rating stream a game | pack | read packed |")
    print("|---|---|---|---|---|---|---|---|")
    for game, row in rows.items():
        print(
            f"| {game} | {row['events']:,.0f} | {row['played'] / KIB:,.1f} KiB | {row['packed'] / KIB:,.1f} KiB"
            f" | {row['archived'] / KIB:,.2f} KiB | {row['ratings'] / KIB:,.2f} KiB | {row['packing_ms']:.0f} ms"
            f" | {row['unpacking_ms']:.0f} ms |"
        )
    mix = {stage: statistics.mean(row[stage] for row in rows.values()) for stage in STAGES}
    print(
        f"| 1M of the mix | | {mix['played'] * MILLION / GIB:,.1f} GiB | {mix['packed'] * MILLION / GIB:,.1f} GiB"
        f" | {mix['archived'] * MILLION / GIB:,.2f} GiB | {mix['ratings'] * MILLION / GIB:,.2f} GiB |"
    )


if __name__ == "__main__":
    main()
