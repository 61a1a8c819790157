"""Which shards of the store failed lately, so that a job on one waits off the worker instead of holding it.

On a Redis Cluster each game lives on the master of its slot. When that
master dies, every command on its slots fails, or blocks in the cluster
client's retries, until its replica is promoted; a single-threaded worker
stuck there would stop the games of every healthy master too. A worker that
meets the failure marks the game's shard (the node serving its slot) for a
short rest that grows while the failures go on; the jobs of games on a
resting shard are put back on their queue for later without touching the
store. Once the rest is over, one job tries again; a promoted replica is a
node of another name, so as soon as the client has reloaded the slot map the
game's jobs run at once. A plain Redis is one shard.

Per worker process and in memory: a worker that restarts forgets, and learns
again from the first failure.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass

from redis.cluster import RedisCluster
from redis.exceptions import RedisClusterException

from service.adapters.connections import StoreRedis

# The first rest, and the longest: a promoted replica's games wait at most about this long
# (plus RQ's scheduler's second) before a job tries them again.
FIRST_REST_S = 0.5
LONGEST_REST_S = 1.0


@dataclass
class _Rest:
    until: float
    length: float


class ShardOutages:
    """Rests of the store's shards that failed; a job finds its shard by what it is about (`shard_of`)."""

    def __init__(
        self,
        redis: StoreRedis,
        key_of: Callable[[str], str],
        first_s: float = FIRST_REST_S,
        longest_s: float = LONGEST_REST_S,
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        self.redis = redis
        self.key_of = key_of
        self.first_s = first_s
        self.longest_s = longest_s
        self.clock = clock
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

    def resting(self, shard: str) -> float:
        """Return how long a job on `shard` should wait (0: go ahead; the first after a rest tries the shard)."""
        rest = self._rests.get(shard)
        if rest is None:
            return 0.0
        now = self.clock()
        if now < rest.until:
            return rest.until - now
        # This job tries the shard; the others keep waiting until it tells.
        rest.until = now + rest.length
        return 0.0

    def failed(self, shard: str) -> float:
        """Mark a shard as failing; return how long its jobs now wait.

        The shard is the one the job was about to use: the failure has made the
        client reload its slot map, which may name a promoted replica now.
        """
        rest = self._rests.get(shard)
        length = self.first_s if rest is None else min(self.longest_s, rest.length * 2)
        self._rests[shard] = _Rest(self.clock() + length, length)
        return length

    def recovered(self, shard: str) -> None:
        """Forget a shard's failures: a job on it went through."""
        self._rests.pop(shard, None)
