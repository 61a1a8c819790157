"""The fan-out on a Redis Cluster: one subscribing connection a master, however many games are watched there."""

from __future__ import annotations

import asyncio

import pytest
from redis.cluster import RedisCluster

from domain.events import RecordedEvent
from service.adapters.connections import connect_async
from service.adapters.slots import aggregate_key, slot_of_key
from service.bootstrap import Services
from service.http.fanout import Feeds
from tests.service.test_fanout import (
    TOY,
    api,  # noqa: F401 — the fixture, on this module's store
    event_ids,
    in_thread,
    messages,
    play_to_the_end,
    run,
    subscribe,
    until_watching,
    watch,
)
from tests.support.cluster import OwnCluster
from tests.support.services import CLUSTER, on_every_store

pytestmark = pytest.mark.cluster
redis_client = on_every_store(CLUSTER)
GAMES = 64


def subscribing(cluster: OwnCluster) -> dict[int, list[int]]:
    """Each node's connections subscribed to shard channels now: how many channels each (CLIENT LIST)."""
    import redis

    found = {}
    for port in cluster.ports:
        clients = redis.Redis(port=port).client_list()
        found[port] = [int(c["ssub"]) for c in clients if int(c.get("ssub", 0))]
    return found


def test_watchers_of_games_on_every_master_share_a_connection_a_master_and_each_gets_its_game_in_order(
    api,  # noqa: F811
    services: Services,
    redis_cluster: OwnCluster,
):
    store = services.redis
    assert isinstance(store, RedisCluster)

    async def read_after(stream_id: str, after: int) -> list[RecordedEvent]:
        return await asyncio.to_thread(services.store.read, stream_id, after)

    games = [api.post("/games", json=TOY).json for _ in range(GAMES)]
    masters = {
        store.nodes_manager.get_node_from_slot(slot_of_key(aggregate_key(services.prefix, g["id"], "events"))).name
        for g in games
    }
    assert len(masters) == len(redis_cluster.ports)  # games on every master
    starts = [api.get(f"/games/{game['id']}").json["version"] for game in games]
    watchers = [subscribe(api, f"/games/{g['id']}/stream?after={v}") for g, v in zip(games, starts, strict=True)]
    seen: list[dict[int, list[int]]] = []
    connections: list[int] = []
    finals: list[int] = []

    async def test() -> list[list[bytes]]:
        feeds = Feeds(connect_async(redis_cluster.url), services.prefix, read_after, heartbeat_s=3600)

        async def play() -> None:
            for game in games:
                await until_watching(feeds, game["id"], 1)
            while sum(map(sum, (await in_thread(lambda: subscribing(redis_cluster))).values())) < GAMES:
                await asyncio.sleep(0.001)  # until every game's channel is subscribed on its master
            seen.append(await in_thread(lambda: subscribing(redis_cluster)))
            connections.append(feeds.connections)
            for game in games:
                finals.append(await in_thread(lambda game=game: play_to_the_end(api, game)))

        *results, _ = await asyncio.gather(*(watch(feeds, w, lambda _: False) for w in watchers), play())
        connections.append(feeds.connections)
        return results

    results = run(test)
    # One connection a master, holding the channels of every game watched there; none left after.
    assert all(len(counts) == 1 for counts in seen[0].values()), seen
    assert connections == [len(redis_cluster.ports), 0]
    for chunks, start, final in zip(results, starts, finals, strict=True):
        assert event_ids(chunks) == list(range(start + 1, final + 1))  # every event once, in order
        assert messages(chunks)[-1]["event"] == "GameEnded"
