"""The transparency log's leaves in Redis: one append-only list of leaf hashes, one of entries, an id index.

Keys (every one under the hash tag `{tlog}`, so a script may touch them all on a Redis Cluster):

- `<prefix>:{tlog}:leaves`: the leaf hashes, SHA-256(0x00 || entry), 32 bytes each, in log order;
- `<prefix>:{tlog}:entries`: the entries (a result statement's canonical JSON), in the same order;
- `<prefix>:{tlog}:ids`: result id -> its index, so appending a result twice gives its first index.

Nothing here ever rewrites, trims or deletes: the lists only grow (`RPUSH` in one script).
"""

from __future__ import annotations

from typing import cast

from domain.transparency.merkle import leaf_hash
from service.adapters.connections import StoreRedis
from service.errors import Refused

# Every check before the first write: a result already logged answers its index (or is refused if its
# entry differs); lists of different lengths (a half-written or damaged log) refuse everything.
_APPEND = """
local known = redis.call('HGET', KEYS[3], ARGV[1])
if known then
  if redis.call('LINDEX', KEYS[2], tonumber(known)) ~= ARGV[2] then
    return {-1, tonumber(known)}
  end
  return {0, tonumber(known)}
end
local size = redis.call('LLEN', KEYS[1])
if redis.call('LLEN', KEYS[2]) ~= size then
  return redis.error_reply('TLOG the leaves and entries lists differ in length')
end
redis.call('RPUSH', KEYS[1], ARGV[3])
redis.call('RPUSH', KEYS[2], ARGV[2])
redis.call('HSET', KEYS[3], ARGV[1], size)
return {1, size}
"""


class ResultRewritten(Refused):
    """A result id already in the log, appended again with another entry: the log keeps the first."""

    code = "result_rewritten"


def log_key(prefix: str, name: str) -> str:
    """Return the key `name` of the transparency log: all share the hash tag `{tlog}`."""
    return f"{prefix}:{{tlog}}:{name}"


class RedisLeaves:
    """The log's leaves and entries in Redis: append once per id, read by index."""

    def __init__(self, redis: StoreRedis, prefix: str = "menagerie") -> None:
        self.redis = redis
        self.keys = [log_key(prefix, "leaves"), log_key(prefix, "entries"), log_key(prefix, "ids")]
        self._append = redis.register_script(_APPEND)

    def append(self, result_id: str, entry: bytes) -> int:
        """Append an entry as the next leaf, once per result id; return its index."""
        status, index = cast(list[int], self._append(keys=self.keys, args=[result_id, entry, leaf_hash(entry)]))
        if status == -1:
            raise ResultRewritten(
                f"result {result_id} is already in the log with another statement", id=result_id, index=int(index)
            )
        return int(index)

    def size(self) -> int:
        """Return the number of leaves."""
        return int(self.redis.llen(self.keys[0]))

    def range(self, start: int, end: int) -> list[bytes]:
        """Return the leaf hashes of leaves [start, end)."""
        return cast(list[bytes], self.redis.lrange(self.keys[0], start, end - 1)) if end > start else []

    def entry(self, index: int) -> bytes | None:
        """Return entry `index`, or None if the log has no such entry."""
        if not 0 <= index < 1 << 62:  # beyond any list Redis can hold (and LINDEX's range)
            return None
        return cast(bytes | None, self.redis.lindex(self.keys[1], index))

    def entries(self, start: int, end: int) -> list[bytes]:
        """Return entries [start, end), as many of them as the log holds."""
        return cast(list[bytes], self.redis.lrange(self.keys[1], start, end - 1)) if end > start else []

    def index_of(self, result_id: str) -> int | None:
        """Return the index of a result's leaf, or None if it is not in the log."""
        index = self.redis.hget(self.keys[2], result_id)
        return None if index is None else int(index)
