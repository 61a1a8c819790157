"""The fan-out alone, without HTTP: how long N games' first watchers take to subscribe, and a message each to arrive.

One process's `Feeds` on the Redis at REDIS_URL (under a key prefix of its
own), a watcher on each of `--games` distinct games (their catch-up read
stubbed: nothing to read), then one published batch for every game (as an
append publishes it), pipelined from another client. Prints the time until
every game's channel is subscribed, the time until every watcher has its
batch, the fan-out's subscription connections (`Feeds.connections`), and
the Redis clients subscribed to shard channels in the bench's database
(`CLIENT LIST`). Each game's stream key is made first (an entry each) and
removed at the end.
It measures what `bench/bench_spectators.py` cannot at 10,000 games on a small
machine, where opening 10,000 HTTP streams through the app is the bottleneck.

Run: REDIS_URL=redis://127.0.0.1:6379/4 .venv/bin/python -m bench.bench_fanout [--games 10000]
"""

from __future__ import annotations

import argparse
import asyncio
import os
import time
import uuid
from collections.abc import AsyncIterator
from typing import Any

import orjson
from redis import Redis
from redis.asyncio import Redis as AsyncRedis

from domain.events import RecordedEvent
from service.http.fanout import Feeds
from service.http.subscriptions import Rendered

EVENT = {"seq": 1, "type": "Moved", "actor": None, "data": {}, "time": "t", "command_id": "c", "hash": "h"}


class Watcher:
    """The part of a `Subscription` the fan-out uses: a game, a cursor, and the batches it would send."""

    def __init__(self, stream_id: str) -> None:
        self.stream_id, self.cursor, self.ended = stream_id, 0, False

    def follows_on(self, batch: list[RecordedEvent]) -> bool:
        return True

    def messages(self, batch: list[RecordedEvent], rendered: Rendered) -> list[bytes]:
        return [b"batch"] if batch else []


async def run(url: str, games: int) -> dict[str, Any]:
    prefix = f"bench-fanout-{uuid.uuid4().hex[:8]}"

    async def nothing(stream_id: str, after: int) -> list[RecordedEvent]:
        return []

    # Each game's stream exists (an idle game's key is looked at, and one that went ends its streams).
    sync = Redis.from_url(url)
    keys = [f"{prefix}:{{g{index}}}:events" for index in range(games)]
    with sync.pipeline(transaction=False) as adding:
        for key in keys:
            adding.xadd(key, {"e": b"{}"}, id="1-0")
        adding.execute()
    feeds = Feeds(AsyncRedis.from_url(url, max_connections=3), prefix, nothing, heartbeat_s=3600)
    arrived = 0

    async def watch(index: int) -> None:
        nonlocal arrived
        stream: AsyncIterator[bytes] = feeds.follow(Watcher(f"g{index}"))  # type: ignore[arg-type]
        async for chunk in stream:
            if chunk == b"batch":
                arrived += 1
                return

    started = time.perf_counter()
    watchers = [asyncio.ensure_future(watch(index)) for index in range(games)]
    while feeds.readers < games or any(f.ready is None or not f.ready.done() for f in feeds._feeds.values()):
        await asyncio.sleep(0.05)
    subscribed_s = time.perf_counter() - started
    connections = feeds.connections
    db = sync.connection_pool.connection_kwargs.get("db", 0)
    subscribers = [int(c["ssub"]) for c in sync.client_list() if int(c["db"]) == db and int(c.get("ssub", 0))]
    publisher = AsyncRedis.from_url(url)
    payload = orjson.dumps([EVENT])
    started = time.perf_counter()
    async with publisher.pipeline(transaction=False) as pipe:
        for index in range(games):
            pipe.spublish(keys[index], payload)
        await pipe.execute()
    await asyncio.wait_for(asyncio.gather(*watchers), 120)
    for start in range(0, games, 1000):
        sync.delete(*keys[start : start + 1000])
    return {
        "subscribed_s": subscribed_s,
        "delivered_s": time.perf_counter() - started,
        "arrived": arrived,
        "connections": connections,
        "subscribers": subscribers,
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--games", type=int, default=10000)
    args = parser.parse_args()
    url = os.environ.get("REDIS_URL", "redis://127.0.0.1:6379/4")
    figures = asyncio.run(run(url, args.games))
    print(f"{args.games} games, a watcher each: subscribed in {figures['subscribed_s']:.2f} s")
    print(f"a batch published to each: {figures['arrived']} arrived in {figures['delivered_s']:.2f} s")
    print(
        f"subscription connections: {figures['connections']} (Redis: {len(figures['subscribers'])} subscribed,"
        f" to {sum(figures['subscribers'])} channels)"
    )


if __name__ == "__main__":
    main()
