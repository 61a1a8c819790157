"""The fan-out on a Redis Cluster: one subscribing connection a master, however many games are watched there."""

from __future__ import annotations

import asyncio
from collections.abc import Iterator
from pathlib import Path

import pytest
from redis.cluster import RedisCluster

from domain.events import RecordedEvent
from service.adapters.connections import connect, connect_async
from service.adapters.slots import aggregate_key, slot_of_key
from service.bootstrap import Services, build
from service.http import create_app
from service.http.fanout import Feeds
from service.http.subscriptions import STORE_LOST
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
from tests.support.cluster import OwnCluster, cluster_tools_missing
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


@pytest.fixture
def replicated(tmp_path: Path) -> Iterator[OwnCluster]:
    """A 3-master, 3-replica cluster of the test's own; the other masters answer while one fails over."""
    missing = cluster_tools_missing()
    if missing:
        pytest.skip(f"SKIPPED: no {missing} on PATH: the failover test needs it")
    cluster = OwnCluster(tmp_path, replicas=1, full_coverage=False).start()
    yield cluster
    cluster.stop()


def test_a_master_failing_ends_its_games_streams_only_and_they_resume_on_its_promoted_replica(replicated):
    store = connect(replicated.url)
    assert isinstance(store, RedisCluster)
    services = build(store, "fanout-failover", inline_jobs=True)
    api = create_app(services, {"RATE_LIMITS_ENABLED": False}).test_client()  # noqa: F811 — its own store

    def master_of(game_id: str) -> str:
        slot = slot_of_key(aggregate_key(services.prefix, game_id, "events"))
        return str(store.nodes_manager.get_node_from_slot(slot).name)

    games = [api.post("/games", json=TOY).json for _ in range(12)]
    victim = master_of(games[0]["id"])
    dying = [g for g in games if master_of(g["id"]) == victim]
    living = [g for g in games if master_of(g["id"]) != victim]
    assert living, "every game on one master"
    starts = {g["id"]: api.get(f"/games/{g['id']}").json["version"] for g in games}
    watchers = {g["id"]: subscribe(api, f"/games/{g['id']}/stream?after={starts[g['id']]}") for g in games}

    async def read_after(stream_id: str, after: int) -> list[RecordedEvent]:
        return await asyncio.to_thread(services.store.read, stream_id, after)

    finals: dict[str, int] = {}

    async def test() -> tuple[dict[str, list[bytes]], list[bytes]]:
        feeds = Feeds(connect_async(replicated.url), services.prefix, read_after, heartbeat_s=3600)
        watching = {game_id: asyncio.ensure_future(watch(feeds, w, lambda _: False)) for game_id, w in watchers.items()}
        for game_id in watchers:
            await until_watching(feeds, game_id, 1)
        while feeds.connections < 3 or any(not f.ready or not f.ready.done() for f in feeds._feeds.values()):
            await asyncio.sleep(0.001)  # every game's channel subscribed on its master
        replicated.kill(int(victim.rsplit(":", 1)[1]))
        await asyncio.wait([watching[g["id"]] for g in dying])  # their master's connection failed: they end
        game = dying[0]
        while await in_thread(lambda: api.get(f"/games/{game['id']}").status_code) != 200:
            await asyncio.sleep(0.1)  # until the replica serves the dead master's slots
        for game in living:  # their streams lived through the failover, on their own masters' connections
            finals[game["id"]] = await in_thread(lambda game=game: play_to_the_end(api, game))
        results = {game_id: await task for game_id, task in watching.items()}
        # A watcher of the dead master's game subscribes on the promoted replica.
        game = dying[0]
        again = subscribe(api, f"/games/{game['id']}/stream?after={starts[game['id']]}")
        resumed = asyncio.ensure_future(watch(feeds, again, lambda _: False))
        await until_watching(feeds, game["id"], 1)
        finals[game["id"]] = await in_thread(lambda: play_to_the_end(api, game))
        return results, await resumed

    results, resumed = run(test)
    for game in dying:
        assert results[game["id"]][-1] == STORE_LOST  # ended cleanly: the client resumes with Last-Event-ID
    for game in living:
        chunks = results[game["id"]]
        assert event_ids(chunks) == list(range(starts[game["id"]] + 1, finals[game["id"]] + 1))
        assert messages(chunks)[-1]["event"] == "GameEnded"
    game_id = dying[0]["id"]
    assert event_ids(resumed) == list(range(starts[game_id] + 1, finals[game_id] + 1))
