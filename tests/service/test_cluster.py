"""Redis Cluster: every game's append touches one slot, the due index is sharded, RQ stays on a plain Redis."""

from __future__ import annotations

import fakeredis
import pytest

from service.adapters.connections import ConfigError, connect, rq_url
from service.adapters.slots import DUE_SHARDS, DueKeys, aggregate_key, slot_of_key
from service.adapters.store import EventStore
from service.bootstrap import build
from service.http import create_app
from tests.service.test_self_healing import LostJobs
from tests.support.services import CLUSTER, on_every_store

pytestmark = pytest.mark.cluster
redis_client = on_every_store(CLUSTER)


def stranded(redis_client, prefix):
    """Services on the cluster whose step jobs are always lost: only the steward takes steps."""
    services = build(redis_client, prefix, inline_jobs=True, step_timeout_s=0)
    services.games.jobs = LostJobs()
    return services


def test_the_due_index_has_one_shard_in_each_of_64_evenly_spaced_slots():
    keys = DueKeys("menagerie", sharded=True)
    slots = sorted(slot_of_key(key) for key in keys.all)
    assert len(keys.all) == DUE_SHARDS == len(set(slots))
    assert slots == [k * 256 + 128 for k in range(DUE_SHARDS)]


def test_a_game_on_a_cluster_is_marked_in_the_shard_of_its_own_slot(redis_client, prefix):
    services = stranded(redis_client, prefix)
    game, _ = services.games.create("toy", [{"bot": "random"}, {"bot": "random"}], {}, seed="c1")
    due_key = services.due.keys.of(game.id)
    assert due_key is not None
    assert slot_of_key(due_key) == slot_of_key(aggregate_key(prefix, game.id, "events"))
    assert redis_client.zscore(due_key, game.id) is not None
    assert set(services.due.pending()) == {game.id}


def test_the_steward_finishes_stranded_games_across_every_shard(redis_client, prefix):
    services = stranded(redis_client, prefix)
    games = [services.games.create("toy", [{"bot": "random"}] * 2, {}, seed=f"s{i}")[0].id for i in range(6)]
    assert len({services.due.keys.of(g) for g in games}) > 1  # spread over shards, hence over masters
    steward = services.steward()
    for _ in range(300):
        if all(services.repository.load(g).status == "finished" for g in games):
            break
        steward.run_once()
    assert all(services.repository.load(g).status == "finished" for g in games)
    assert services.due.pending() == {} and services.due.overdue() == 0


def test_a_claim_holds_and_releases_in_the_games_own_shard(redis_client, prefix):
    services = stranded(redis_client, prefix)
    game, _ = services.games.create("toy", [{"bot": "random"}, {"bot": "random"}], {}, seed="c2")
    [(claimed, lease)] = services.due.claim(lease_ms=60_000)
    assert claimed == game.id and services.due.holds(game.id, lease)
    assert services.due.claim(lease_ms=60_000) == []
    assert services.due.release(game.id, lease)
    assert services.due.pending() == {}


def test_an_idempotent_create_names_the_same_game_on_every_retry(redis_client, prefix):
    services = build(redis_client, prefix, inline_jobs=True)
    seats = [{"name": "ann"}, {"bot": "random"}]
    first, tokens = services.games.create("toy", seats, {}, idempotency_key="make-1-5f0c1d2e3a4b5c6d7e8f")
    again, tokens_again = services.games.create("toy", seats, {}, idempotency_key="make-1-5f0c1d2e3a4b5c6d7e8f")
    assert first.id == again.id and tokens == tokens_again
    assert services.due.keys.of(first.id) is not None


def test_health_on_a_cluster_pings_every_master_and_counts_every_shard(redis_client, prefix):
    services = stranded(redis_client, prefix)
    services.games.create("toy", [{"bot": "random"}, {"bot": "random"}], {}, seed="c3")
    health = create_app(services).test_client().get("/health").json
    assert health["store_state"] == "up" and health["overdue_steps"] == 1


def test_on_a_single_redis_ids_are_taken_as_drawn():
    store = EventStore(fakeredis.FakeRedis(), "single")
    assert store.due_keys.all == ("single:due",)
    assert store.new_id(iter(["first", "second"])) == "first"


def test_a_cluster_url_lists_its_nodes_and_rq_needs_a_plain_redis(redis_cluster, cluster_client):
    assert connect(redis_cluster.url).ping()
    with pytest.raises(ConfigError, match="RQ_REDIS_URL"):
        rq_url({"REDIS_URL": redis_cluster.url})
    with pytest.raises(ConfigError, match="RQ_REDIS_URL names a Redis Cluster"):
        rq_url({"REDIS_URL": "redis://h/0", "RQ_REDIS_URL": redis_cluster.url})
    assert rq_url({"REDIS_URL": redis_cluster.url, "RQ_REDIS_URL": "redis://h/3"}) == "redis://h/3"
    assert rq_url({"REDIS_URL": "redis://h/1"}) == "redis://h/1"
    with pytest.raises(ConfigError):
        build(cluster_client, "no-rq", inline_jobs=False)
