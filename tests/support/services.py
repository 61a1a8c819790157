"""Fixtures for tests of the service and the workers: services on fakeredis, and on the real Redis at REDIS_URL.

The conftests of tests/service and tests/workers import these; tests/domain never does, so rule tests
run without Flask or Redis.
"""

from __future__ import annotations

import os
import uuid
import warnings
from collections.abc import Iterator

import fakeredis
import pytest
import redis
from flask import Flask

from service.bootstrap import Services, build
from service.http import create_app
from tests.support.openapi import SpecCheckingClient

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


@pytest.fixture(params=["fake", pytest.param("real", marks=pytest.mark.redis)])
def redis_client(request: pytest.FixtureRequest) -> Iterator[redis.Redis]:
    """A Redis connection: fakeredis, then the real server (skipped loudly when none answers)."""
    if request.param == "fake":
        yield fakeredis.FakeRedis()
        return
    if REAL_REDIS is None:
        pytest.skip("SKIPPED: no Redis server at REDIS_URL (set REDIS_URL=redis://127.0.0.1:6379/0)")
    yield REAL_REDIS


@pytest.fixture
def prefix(redis_client: redis.Redis) -> Iterator[str]:
    """A key prefix of this test alone; every key under it is removed afterwards."""
    name = f"test-{uuid.uuid4().hex[:12]}"
    yield name
    # Our own keys, and RQ's for this run (its queue and job ids carry the prefix).
    keys = list(redis_client.scan_iter(match=f"*{name}*", count=1000))
    if keys:
        redis_client.delete(*keys)
    redis_client.srem("rq:queues", f"rq:queue:{name}")
    redis_client.srem("rq:workers", f"rq:worker:{name}-worker")


@pytest.fixture
def services(redis_client: redis.Redis, prefix: str) -> Services:
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
