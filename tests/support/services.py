"""Fixtures for tests of the service and the workers: services on fakeredis, on the real Redis at REDIS_URL,
and on a 3-master Redis Cluster of the session's own.

The conftests of tests/service and tests/workers import these; tests/domain never does, so rule tests
run without Flask or Redis.
"""

from __future__ import annotations

import os
import uuid
import warnings
from collections.abc import Iterator
from typing import Any

import fakeredis
import pytest
import redis
from flask import Flask
from redis.cluster import RedisCluster

from service.adapters.connections import connect
from service.bootstrap import Services, build
from service.http import create_app
from tests.support.cluster import OwnCluster, cluster_tools_missing
from tests.support.openapi import SpecCheckingClient
from tests.support.processes import remove_run

# Every test client of every app the service and worker tests build checks each response against openapi.yaml.
Flask.test_client_class = SpecCheckingClient


def _real_redis() -> redis.Redis | None:
    url = os.environ.get("REDIS_URL")
    if not url:
        return None
    client = redis.Redis.from_url(url)
    try:
        client.ping()
    except redis.exceptions.ConnectionError:
        if os.environ.get("CI"):
            raise
        return None
    return client


REAL_REDIS = _real_redis()
if REAL_REDIS is None:
    warnings.warn("no Redis server at REDIS_URL: tests marked 'redis' are SKIPPED", stacklevel=1)


FAKE = "fake"
REAL = pytest.param("real", marks=pytest.mark.redis)
CLUSTER = pytest.param("cluster", marks=pytest.mark.cluster)


def connection(request: pytest.FixtureRequest) -> redis.Redis | RedisCluster:
    """The connection a `redis_client` parameter names: fakeredis, the real server, or the session's cluster."""
    if request.param == "fake":
        return fakeredis.FakeRedis()
    if request.param == "cluster":
        return request.getfixturevalue("cluster_client")
    if REAL_REDIS is None:
        pytest.skip("SKIPPED: no Redis server at REDIS_URL (set REDIS_URL=redis://127.0.0.1:6379/0)")
    return REAL_REDIS


@pytest.fixture(params=[FAKE, REAL])
def redis_client(request: pytest.FixtureRequest) -> redis.Redis | RedisCluster:
    """A Redis connection: fakeredis, then the real server (skipped loudly when none answers).

    A module whose tests must also hold on a Redis Cluster overrides it: `redis_client = on_every_store()`.
    """
    return connection(request)


def on_every_store(*stores: Any) -> Any:
    """Return a `redis_client` fixture over `stores` (default: fakeredis, the real server and the session's cluster)."""

    @pytest.fixture(params=list(stores or (FAKE, REAL, CLUSTER)), name="redis_client")
    def every_store(request: pytest.FixtureRequest) -> redis.Redis | RedisCluster:
        return connection(request)

    return every_store


def queue_redis_beside(store: redis.Redis | RedisCluster) -> redis.Redis:
    """Return RQ's Redis beside a store: the store itself, or beside a cluster a fakeredis of its own."""
    return store if isinstance(store, redis.Redis) else fakeredis.FakeRedis()


@pytest.fixture(scope="session")
def redis_cluster(tmp_path_factory: pytest.TempPathFactory) -> Iterator[OwnCluster]:
    """A 3-master Redis Cluster of this test session's own (skipped loudly without redis-server, never in CI)."""
    missing = cluster_tools_missing()
    if missing:
        if os.environ.get("CI"):
            pytest.fail(f"no {missing} on PATH: the cluster tests cannot run")
        pytest.skip(f"SKIPPED: no {missing} on PATH: the Redis Cluster tests need it")
    cluster = OwnCluster(tmp_path_factory.mktemp("redis-cluster")).start()
    yield cluster
    cluster.stop()


@pytest.fixture(scope="session")
def cluster_client(redis_cluster: OwnCluster) -> RedisCluster:
    """One client of the session's Redis Cluster."""
    client = connect(redis_cluster.url)
    assert isinstance(client, RedisCluster)
    return client


@pytest.fixture
def prefix(redis_client: redis.Redis | RedisCluster) -> Iterator[str]:
    """A key prefix of this test alone; every key under it is removed afterwards."""
    name = f"test-{uuid.uuid4().hex[:12]}"
    yield name
    # Our own keys, and RQ's for this run (its queue and job ids carry the prefix).
    remove_run(redis_client, name)


@pytest.fixture
def services(redis_client: redis.Redis | RedisCluster, prefix: str) -> Services:
    """Services with in-process jobs."""
    return build(redis_client, prefix, inline_jobs=True)


@pytest.fixture
def fake_services() -> Services:
    """Services on a fresh fakeredis with in-process jobs."""
    return build(fakeredis.FakeRedis(), f"test-{uuid.uuid4().hex[:8]}", inline_jobs=True, embedded=True)


@pytest.fixture
def client(fake_services: Services):  # type: ignore[no-untyped-def]
    """An HTTP test client on fakeredis."""
    return create_app(fake_services).test_client()
