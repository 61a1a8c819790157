"""The event store, on fakeredis, on the real Redis and on a 3-master Redis Cluster."""

from __future__ import annotations

import hashlib
import threading

import pytest

from domain.events import GENESIS_HASH, Event, chain_hash, record
from service.adapters.store import EventStore
from service.errors import VersionConflict
from tests.support.services import on_every_store

redis_client = on_every_store()


def batch(n: int, after: int = 0, previous: str = GENESIS_HASH, tag: str = "x") -> list:
    events = [Event("Noted", {"i": after + i, "tag": tag}, 0) for i in range(n)]
    return record(
        events, after_seq=after, previous_hash=previous, time="t", command_id=f"c{after}", command={"kind": "act"}
    )


def test_an_appended_batch_reads_back_in_order(redis_client, prefix):
    store = EventStore(redis_client, prefix)
    appended = store.append("g", batch(3), expected_version=0)
    assert appended.version == 3
    events = store.read("g")
    assert [e.seq for e in events] == [1, 2, 3]
    assert events == batch(3)
    assert [e.seq for e in store.read("g", after=1)] == [2, 3]
    assert [e.seq for e in store.read("g", after=1, upto=2)] == [2]
    assert store.version("g") == 3


def test_a_stale_expected_version_is_a_conflict_and_writes_nothing(redis_client, prefix):
    store = EventStore(redis_client, prefix)
    store.append("g", batch(2), expected_version=0)
    with pytest.raises(VersionConflict) as raised:
        store.append("g", batch(1), expected_version=0)
    assert (raised.value.expected, raised.value.actual) == (0, 2)
    assert store.version("g") == 2


def test_concurrent_appends_at_the_same_version_exactly_one_wins(redis_client, prefix):
    store = EventStore(redis_client, prefix)
    store.append("g", batch(1), expected_version=0)
    outcomes: list[str] = []

    def contend(tag: str) -> None:
        try:
            store.append("g", batch(5, after=1, tag=tag), expected_version=1)
            outcomes.append("won")
        except VersionConflict:
            outcomes.append("lost")

    threads = [threading.Thread(target=contend, args=(f"t{i}",)) for i in range(8)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert sorted(outcomes) == ["lost"] * 7 + ["won"]
    events = store.read("g")
    assert len(events) == 6
    assert len({e.data["tag"] for e in events[1:]}) == 1  # one writer's whole batch, never a mix


def test_a_batch_is_never_half_written(redis_client, prefix):
    store = EventStore(redis_client, prefix)
    store.append("g", batch(2), expected_version=0)
    # A batch whose ids collide with existing entries fails inside the script
    # before it writes: the version check comes first.
    with pytest.raises(VersionConflict):
        store.append("g", batch(4, after=1), expected_version=1)
    assert [e.seq for e in store.read("g")] == [1, 2]


def test_a_retried_idempotency_key_returns_the_first_result_and_appends_nothing(redis_client, prefix):
    store = EventStore(redis_client, prefix)
    first = store.append("g", batch(2), expected_version=0, idempotency_key="k", idempotency_record={"version": 2})
    again = store.append("g", batch(2), expected_version=0, idempotency_key="k", idempotency_record={"version": 2})
    assert first.duplicate is False and again.duplicate is True
    assert again.prior == {"version": 2}
    assert store.version("g") == 2
    assert store.prior_result("g", "k") == {"version": 2}


def test_events_are_hash_chained(redis_client, prefix):
    store = EventStore(redis_client, prefix)
    first = batch(2)
    store.append("g", first, expected_version=0)
    store.append("g", batch(2, after=2, previous=first[-1].hash), expected_version=2)
    previous = GENESIS_HASH
    for event in store.read("g"):
        assert event.hash == chain_hash(previous, event.body())
        previous = event.hash


def test_keys_share_one_cluster_hash_tag(redis_client, prefix):
    store = EventStore(redis_client, prefix)
    store.append("g1", batch(1), expected_version=0, idempotency_key="k", idempotency_record={})
    store.save_seed("g1", "s")
    keys = sorted(k.decode() for k in redis_client.scan_iter(match=f"{prefix}:*"))
    record = f"{prefix}:{{g1}}:idem:{hashlib.sha256(b'k').hexdigest()}"  # by the key's hash, never the key
    assert keys == [f"{prefix}:{{g1}}:events", record, f"{prefix}:{{g1}}:seed"]
