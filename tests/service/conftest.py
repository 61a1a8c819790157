"""Service tests get the Redis and Flask fixtures, and a redis-server of their own to stop and start."""

from collections.abc import Iterator
from pathlib import Path

import pytest

from tests.support.processes import OwnRedis, remove_run
from tests.support.services import (
    REAL_REDIS,
    client,
    cluster_client,
    fake_services,
    prefix,
    redis_client,
    redis_cluster,
    services,
)

__all__ = [
    "client",
    "cluster_client",
    "fake_services",
    "prefix",
    "redis_client",
    "redis_cluster",
    "services",
]


@pytest.fixture
def own_redis(tmp_path: Path) -> Iterator[OwnRedis]:
    """A redis-server of the test's own, on its own port and directory, killed at the end if still running."""
    server = OwnRedis(tmp_path)
    server.start()
    yield server
    if server.process is not None and server.process.poll() is None:
        server.kill()


@pytest.fixture
def cli_prefix(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[str]:
    """A key prefix of the test's own on the real Redis, which `menagerie` commands run here use; removed after."""
    if REAL_REDIS is None:
        pytest.skip("SKIPPED: no Redis server at REDIS_URL")
    prefix = f"test-cli-{tmp_path.name[-8:]}"
    monkeypatch.setenv("MENAGERIE_PREFIX", prefix)
    yield prefix
    remove_run(REAL_REDIS, prefix)
