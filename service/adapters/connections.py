"""Connections from URLs: the store on one Redis or on a Redis Cluster, RQ always on a plain Redis.

`REDIS_URL` names the store. `redis://` (or `rediss://`, `unix://`) is one
Redis, as before; `redis+cluster://host:port[,host:port...]` (or
`rediss+cluster://`) is a Redis Cluster reached through any of the nodes
listed, the client finding the rest. RQ does not run on a cluster (its
scripts and transactions span keys of many slots), so its queues live on a
plain Redis named by `RQ_REDIS_URL`, which defaults to `REDIS_URL` when that
is not a cluster.

Every client states its timeouts rather than taking its redis-py version's
(none before 8.0, 5 s since): a command that gets no answer within
`COMMAND_TIMEOUT_S` is an outage (503), and a client that blocks (a live
stream's `XREAD BLOCK`, RQ's dequeue) is made with `blocks_for_s`, its
socket timeout that much longer than a command's, so a block never outlasts
its own socket. TCP keepalive (and, on one Redis, a health check
before a command on a connection idle for `HEALTH_CHECK_S`; redis-py's
cluster client does not take that setting) find a peer that went away
silently.
"""

from __future__ import annotations

import os
from collections.abc import Mapping
from typing import Any
from urllib.parse import unquote, urlsplit

from redis import Redis
from redis.asyncio import Redis as AsyncRedis
from redis.asyncio.cluster import ClusterNode as AsyncClusterNode
from redis.asyncio.cluster import RedisCluster as AsyncRedisCluster
from redis.backoff import NoBackoff
from redis.cluster import ClusterNode, RedisCluster
from redis.exceptions import (
    ClusterError,
    ConnectionError,
    OutOfMemoryError,
    ReadOnlyError,
    RedisClusterException,
    TimeoutError,
    TryAgainError,
)
from redis.retry import Retry

StoreRedis = Redis | RedisCluster

# What an outage of the store looks like to its client: no connection or no
# answer in time; on a cluster, a failover under way (the cluster down, a slot
# not yet covered or being moved, a demoted master refusing writes) or no node
# reachable at all (redis-py raises its bare RedisClusterException then); a
# Redis out of memory refusing writes. Each passes: the API answers 503
# `store_unavailable` (retry with the same Idempotency-Key) and the steward
# waits, where anything else would be a 500 or a dead thread.
STORE_UNAVAILABLE: tuple[type[Exception], ...] = (
    ConnectionError,
    TimeoutError,
    ClusterError,
    TryAgainError,
    ReadOnlyError,
    OutOfMemoryError,
    # With SlotNotCoveredError among its subclasses; the others (a cross-slot
    # transaction, a broken pipeline) are misuses our hash-tagged keys never make.
    RedisClusterException,
)

COMMAND_TIMEOUT_S = 5.0
# A worker's commands on a cluster: a step's append takes milliseconds, so a master that has
# not answered in a quarter of a second is failing (a frozen or unreachable host never refuses,
# it is silent). Each worker waits this out once before it rests the master; a false alarm
# (a slow answer from a master that is fine) costs only that job a deferral, since the master
# is probed before it is rested (`service.adapters.outages`).
FAST_COMMAND_TIMEOUT_S = 0.25
CONNECT_TIMEOUT_S = 5.0
HEALTH_CHECK_S = 30

CLUSTER_SCHEMES = {"redis+cluster": False, "rediss+cluster": True}  # scheme -> TLS


class ConfigError(ValueError):
    """The environment names Redis servers the service cannot run on."""


def is_cluster_url(url: str) -> bool:
    """Tell whether a URL names a Redis Cluster."""
    return urlsplit(url).scheme in CLUSTER_SCHEMES


def is_cluster(redis: object) -> bool:
    """Tell whether a connection is to a Redis Cluster."""
    return isinstance(redis, RedisCluster)


def timeouts(blocks_for_s: float = 0) -> dict[str, Any]:
    """Return a client's stated timeouts; `blocks_for_s`: the longest a command of this client may block."""
    return {
        "socket_timeout": COMMAND_TIMEOUT_S + blocks_for_s,
        "socket_connect_timeout": CONNECT_TIMEOUT_S,
        "socket_keepalive": True,
        "health_check_interval": HEALTH_CHECK_S,
    }


def connect(url: str, blocks_for_s: float = 0, fail_fast: bool = False) -> StoreRedis:
    """Connect to the Redis, or the Redis Cluster, a URL names, with stated timeouts (see `timeouts`).

    `fail_fast` (a worker's store): on a cluster, a command that meets a
    failing node gives up after `FAST_COMMAND_TIMEOUT_S`, without redis-py's
    ten retries with growing pauses (the failure still reloads the slot map,
    so the next command finds a promoted replica); the job is put back for
    later (`service.adapters.outages`) rather than holding its worker.
    """
    if not is_cluster_url(url):
        return Redis.from_url(url, **timeouts(blocks_for_s))
    hosts, options = _cluster_options(url, blocks_for_s)
    if fail_fast:
        options["socket_timeout"] = FAST_COMMAND_TIMEOUT_S + blocks_for_s
        options["retry"] = Retry(NoBackoff(), retries=0)
    return RedisCluster(startup_nodes=[_node(host) for host in hosts], **options)


def connect_async(url: str, blocks_for_s: float = 0, max_connections: int = 10) -> AsyncRedis | AsyncRedisCluster:
    """Connect as `connect` does, with redis-py's asyncio client (a live stream's fan-out, on an event loop)."""
    if not is_cluster_url(url):
        return AsyncRedis.from_url(url, max_connections=max_connections, **timeouts(blocks_for_s))
    hosts, options = _cluster_options(url, blocks_for_s)
    options.pop("health_check_interval")  # the cluster client has no such setting
    nodes = [AsyncClusterNode(node.host, node.port) for node in map(_node, hosts)]
    return AsyncRedisCluster(startup_nodes=nodes, max_connections=max_connections, **options)


def _cluster_options(url: str, blocks_for_s: float) -> tuple[list[str], dict[str, Any]]:
    """Return the nodes a cluster URL lists, and the options of a client of it (TLS, credentials, timeouts)."""
    parts = urlsplit(url)
    # urlsplit reads one host; the netloc may list several, after any credentials.
    credentials, _, hosts = parts.netloc.rpartition("@")
    username, _, password = credentials.partition(":")
    options: dict[str, Any] = {"ssl": CLUSTER_SCHEMES[parts.scheme], **timeouts(blocks_for_s)}
    if username:
        options["username"] = unquote(username)
    if password:
        options["password"] = unquote(password)
    return hosts.split(","), options


def _node(address: str) -> ClusterNode:
    host, colon, port = address.rpartition(":")
    return ClusterNode(host, int(port)) if colon else ClusterNode(address, 6379)


def rq_url(environ: Mapping[str, str] | None = None) -> str:
    """Return the URL of RQ's plain Redis: RQ_REDIS_URL, else REDIS_URL unless that is a cluster."""
    env = os.environ if environ is None else environ
    store = env.get("REDIS_URL", "")
    url = env.get("RQ_REDIS_URL") or store
    if not url:
        raise ConfigError("no Redis for RQ: set REDIS_URL (and RQ_REDIS_URL when REDIS_URL is a cluster)")
    if is_cluster_url(url):
        which = "RQ_REDIS_URL" if env.get("RQ_REDIS_URL") else "REDIS_URL"
        raise ConfigError(f"{which} names a Redis Cluster, where RQ does not run: set RQ_REDIS_URL to a plain Redis")
    return url
