"""Which shards of the store failed lately, so that a job on one waits off the worker instead of holding it.

On a Redis Cluster each game lives on the master of its slot. When that
master dies, every command on its slots fails, or blocks in the cluster
client's retries, until its replica is promoted; a single-threaded worker
stuck there would stop the games of every healthy master too. A worker that
meets the failure marks the game's shard (the node serving its slot) for a
short rest that grows while the failures go on; the jobs of games on a
resting shard are put back on their queue for later without touching the
store. Once the rest is over, the worker reloads the slot map and pings the
node with a short timeout before a job may use it: a promoted replica is a
node of another name, so its games' jobs run at once. A plain Redis is one
shard.

Per worker process and in memory: a worker that restarts forgets, and learns
again from the first failure.
"""

from __future__ import annotations

import logging
import os
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from redis import Redis
from redis.backoff import NoBackoff
from redis.cluster import RedisCluster
from redis.exceptions import RedisClusterException, RedisError
from redis.retry import Retry

from service.adapters.connections import StoreRedis

# The first rest, and the longest: a promoted replica's games wait at most about this long
# (plus RQ's scheduler's second) before a job tries them again.
FIRST_REST_S = 0.5
LONGEST_REST_S = 2.0
# A probe of a resting shard: a node that does not answer a PING this fast is still failing.
PROBE_TIMEOUT_S = 0.2


@dataclass
class _Rest:
    until: float
    length: float


class ShardOutages:
    """Rests of the store's shards that failed; a job asks `rest_for` what it is about before it runs."""

    def __init__(
        self,
        redis: StoreRedis,
        key_of: Callable[[str], str],
        first_s: float = FIRST_REST_S,
        longest_s: float = LONGEST_REST_S,
        clock: Callable[[], float] = time.monotonic,
        answers: Callable[[str], bool] | None = None,
        on_back: Callable[[], None] = lambda: None,
    ) -> None:
        self.redis = redis
        self.key_of = key_of
        self.first_s = first_s
        self.longest_s = longest_s
        self.clock = clock
        self.answers = answers or self._pings
        # What to do when a resting shard answers again (or its slots moved): the jobs put back wait no longer.
        self.on_back = on_back
        self._rests: dict[str, _Rest] = {}

    def shard_of(self, subject: str) -> str:
        """Return the name of the shard holding a subject's keys (the node of its slot), from the client's map."""
        if not isinstance(self.redis, RedisCluster):
            return "store"
        slot = self.redis.keyslot(self.key_of(subject))
        try:
            node = self.redis.nodes_manager.get_node_from_slot(slot)
        except RedisClusterException:  # the map has no node for the slot now
            return f"slot-{slot}"
        return str(node.name)

    def rest_for(self, subject: str) -> tuple[str, float]:
        """Return the shard a job on `subject` would use, and how long the job should wait first (0: run it).

        When a shard's rest is over, it is looked at again here, not by a job
        waiting on it: the slot map is reloaded (a promoted replica is a new
        shard, with no rest) and the node is pinged with a short timeout.
        """
        shard = self.shard_of(subject)
        rest = self._rests.get(shard)
        if rest is None:
            return shard, 0.0
        now = self.clock()
        if now < rest.until:
            return shard, rest.until - now
        self._reload_map()
        moved = self.shard_of(subject)
        if moved != shard or self.answers(shard):
            self._rests.pop(shard, None)
            self.on_back()
            return moved, 0.0
        return shard, self.failed(shard)

    def failed(self, shard: str, error: BaseException | None = None) -> float:
        """Mark a shard as failing; return how long its jobs now wait.

        The shard is the one the job was about to use: the failure has made the
        client reload its slot map, which may name a promoted replica now. On a
        cluster the shard is probed first, since a job also touches keys of
        other shards: one that answers is not rested. An `error` that names the
        shard's node (redis-py's say `host:port`) needs no probe.
        """
        if isinstance(self.redis, RedisCluster) and shard not in str(error) and self.answers(shard):
            # The job's game's shard answers: what failed was a key of another shard (a game type's
            # rating stream, an index). Only this job waits; the shard's other games go on.
            return self.first_s
        rest = self._rests.get(shard)
        length = self.first_s if rest is None else min(self.longest_s, rest.length * 2)
        self._rests[shard] = _Rest(self.clock() + length, length)
        return length

    def recovered(self, shard: str) -> None:
        """Forget a shard's failures: a job on it went through."""
        self._rests.pop(shard, None)

    def _reload_map(self) -> None:
        if isinstance(self.redis, RedisCluster):
            try:
                self.redis.nodes_manager.initialize()
            except (RedisError, RedisClusterException):
                pass  # no node answered: the map stays as it was, and the ping below tells

    def _pings(self, shard: str) -> bool:
        """Tell whether the shard's node answers a PING within `PROBE_TIMEOUT_S` (a plain Redis: with its timeouts)."""
        try:
            if not isinstance(self.redis, RedisCluster):
                return bool(self.redis.ping())
            node = self.redis.get_node(node_name=shard)
            if node is None:
                return False
            # The cluster's credentials and TLS, with the probe's own timeouts and no retries.
            options = {k: v for k, v in self.redis.nodes_manager.connection_kwargs.items() if k != "redis_connect_func"}
            options.update(
                socket_timeout=PROBE_TIMEOUT_S, socket_connect_timeout=PROBE_TIMEOUT_S, retry=Retry(NoBackoff(), 0)
            )
            probe = Redis(host=node.host, port=node.port, **options)
            try:
                return bool(probe.ping())
            finally:
                probe.close()
        except (RedisError, RedisClusterException):
            return False


class OutageLog:
    """One line when a process loses the store, one when it has it back: not a line (or a traceback) a retry.

    Its components (a worker's loop, its steward, its watchdog: threads) report to the same one
    (`process_outages`): the first failure of any begins the outage, the first answer to any ends it.
    """

    def __init__(self, log: Any, who: str, clock: Callable[[], float] = time.monotonic) -> None:
        self.log, self.who, self.clock = log, who, clock
        self.since: float | None = None
        self.pid = os.getpid()
        self._lock = threading.Lock()

    @property
    def down(self) -> bool:
        """Whether an outage is under way (a failure was noted, and no answer since)."""
        return self.since is not None

    def failed(self, error: BaseException) -> None:
        """Note a failure: the first of an outage is logged, the rest are not."""
        with self._lock:
            if self.since is not None:
                return
            self.since = self.clock()
        self.log.warning("%s lost the store: %s (retrying quietly until it answers)", self.who, error)

    def answered(self) -> None:
        """Note an answer: the first after an outage is logged, with how long the outage lasted."""
        with self._lock:
            if self.since is None:
                return
            lasted, self.since = self.clock() - self.since, None
        self.log.warning("%s has the store back after %.1f s", self.who, lasted)


_process: OutageLog | None = None
_process_lock = threading.Lock()


def process_outages(who: str = "this process") -> OutageLog:
    """Return this process's one outage reporter, which the first to ask names (`who`, and the process's id).

    A child forked from a process that had one (RQ's scheduler, from a worker) gets its own: its
    lines name its own id.
    """
    global _process
    with _process_lock:
        if _process is None or _process.pid != os.getpid():
            _process = OutageLog(logging.getLogger(__name__), f"{who} (pid {os.getpid()})")
        return _process
