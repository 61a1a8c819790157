"""The due index: which games wait on the system, a bot or a clock, and from when that is overdue.

A sorted set `<prefix>:due`, game id -> a time in ms (the Redis server's
clock); on Redis Cluster, one such set per due shard (`service.adapters.slots`),
each game in the shard of its own slot, and a claim sweeps every shard. The store's append script writes it with the events (see
`service.adapters.store`), so it always says what the latest append left the
game waiting on. The step jobs enqueued after an append are the fast path;
this index is the durable one: whatever is overdue here is taken by whoever
claims it (`service.application.steward`), whatever crashed in between.

A claim is a lease: it moves the game's time forward by the lease, so a
claimer that dies mid-step lets the next one take the game once the lease
runs out. An append of the step rewrites (or removes) the entry, which is the
acknowledgement; a claimer that found nothing to do releases the entry only if
no append rewrote it meanwhile.
"""

from __future__ import annotations

from typing import cast

from service.adapters.connections import StoreRedis
from service.adapters.slots import DueKeys
from service.adapters.store import text

# Both scripts use the server's clock, like the append's mark.
_CLAIM = """
local now = redis.call('TIME')
local ms = now[1] * 1000 + math.floor(now[2] / 1000)
local due = redis.call('ZRANGEBYSCORE', KEYS[1], '-inf', ms, 'LIMIT', 0, tonumber(ARGV[2]))
local claimed = {}
for _, id in ipairs(due) do
  local lease = ms + tonumber(ARGV[1])
  redis.call('ZADD', KEYS[1], lease, id)
  table.insert(claimed, id)
  table.insert(claimed, tostring(lease))
end
return claimed
"""

_RELEASE = """
local score = redis.call('ZSCORE', KEYS[1], ARGV[1])
if score and tonumber(score) == tonumber(ARGV[2]) then return redis.call('ZREM', KEYS[1], ARGV[1]) end
return 0
"""


class DueIndex:
    """Claim and release overdue games in the due index the store's appends write."""

    def __init__(self, redis: StoreRedis, keys: DueKeys) -> None:
        self.redis = redis
        self.keys = keys
        self._claim = redis.register_script(_CLAIM)
        self._release = redis.register_script(_RELEASE)
        self._start = 0

    def claim(self, lease_ms: int, limit: int = 50) -> list[tuple[str, int]]:
        """Take up to `limit` overdue games for `lease_ms`; return each with its lease (to release it by)."""
        shards = self.keys.all
        # Each claim starts one shard further on, so that a full batch from the first shards never
        # starves the last (a counter, not the random module: its global state is shared by the process).
        start = self._start % len(shards)
        self._start = start + 1
        claimed: list[tuple[str, int]] = []
        for key in shards[start:] + shards[:start]:
            if len(claimed) >= limit:
                break
            flat = self._claim(keys=[key], args=[lease_ms, limit - len(claimed)])
            claimed += [(text(flat[i]), int(float(text(flat[i + 1])))) for i in range(0, len(flat), 2)]
        return claimed

    def release(self, game_id: str, lease: int) -> bool:
        """Unmark a claimed game that waits on nothing, unless an append has marked it since."""
        key = self.keys.of(game_id)
        return key is not None and bool(self._release(keys=[key], args=[game_id, lease]))

    def holds(self, game_id: str, lease: int) -> bool:
        """Tell whether a claim still holds: no append has marked (or unmarked) the game since."""
        key = self.keys.of(game_id)
        score = self.redis.zscore(key, game_id) if key is not None else None
        return score is not None and int(score) == lease

    def overdue(self) -> int:
        """Return how many games' steps are overdue now (none, while the stewards keep up)."""
        seconds, micros = self.redis.time()
        now_ms = int(seconds) * 1000 + int(micros) // 1000
        return sum(int(self.redis.zcount(key, "-inf", now_ms)) for key in self.keys.all)

    def pending(self) -> dict[str, int]:
        """Return every marked game with its time (for tests and the health report)."""
        marked: dict[str, int] = {}
        for key in self.keys.all:
            entries = cast(list[tuple[bytes, float]], self.redis.zrange(key, 0, -1, withscores=True))
            marked.update((text(member), int(score)) for member, score in entries)
        return marked
