"""Where the due index lives, so that a game's append touches one Redis Cluster slot.

The append script writes a game's stream, its idempotency record and its due
mark together (`service.adapters.store`). Redis Cluster runs a script only if
all its keys hash to one slot, so on a cluster the due index cannot be one
global key: it is split into `DUE_SHARDS` sorted sets, `<prefix>:due:{<tag>}`,
each hash-tagged into one of as many evenly spaced slots, and a new game's id
is drawn until its own hash tag `{<id>}` lands in one of those slots. Its due
mark then lives in the shard of its own slot, and the append stays one
atomic script on one shard.

On a single Redis (and the embedded fakeredis) nothing changes: one key,
`<prefix>:due`, every game marked there, every id taken as drawn.

The shards are evenly spaced so that the slot ranges `redis-cli --cluster
create` hands out (contiguous, one per master) get as many shards each; 64
shards let the games spread over up to 64 masters, and a steward polls 64
small sets, not 16,384.
"""

from __future__ import annotations

import functools
from binascii import crc_hqx
from collections.abc import Iterable

from redis.crc import REDIS_CLUSTER_HASH_SLOTS, key_slot

DUE_SHARDS = 64


@functools.cache
def shard_tags(count: int = DUE_SHARDS) -> tuple[str, ...]:
    """Return one hash tag (`due-<n>`, the first n that lands there) for each of `count` evenly spaced slots."""
    step = REDIS_CLUSTER_HASH_SLOTS // count
    wanted = {index * step + step // 2: index for index in range(count)}
    tags: dict[int, str] = {}
    n = 0
    while len(tags) < count:
        # A tag is hashed whole (no braces in it): CRC16 mod 16384, as `key_slot` does.
        index = wanted.get(crc_hqx(f"due-{n}".encode(), 0) % REDIS_CLUSTER_HASH_SLOTS)
        if index is not None:
            tags.setdefault(index, f"due-{n}")
        n += 1
    return tuple(tags[index] for index in range(count))


def slot_of_key(key: str) -> int:
    """Return the Cluster slot of a key (its hash tag's, if it has one)."""
    return int(key_slot(key.encode()))


def aggregate_key(prefix: str, aggregate_id: str, name: str) -> str:
    """Return the key `name` of a game (or any aggregate): every key of one shares its hash tag `{<id>}`."""
    return f"{prefix}:{{{aggregate_id}}}:{name}"


class DueKeys:
    """The due index's keys: one on a single Redis; on a cluster, one shard per chosen slot."""

    def __init__(self, prefix: str, sharded: bool = False) -> None:
        self.prefix = prefix
        self.sharded = sharded
        shards = [f"{prefix}:due:{{{tag}}}" for tag in shard_tags()] if sharded else []
        self._by_slot = {slot_of_key(key): key for key in shards}
        self.all: tuple[str, ...] = tuple(shards) if sharded else (f"{prefix}:due",)

    def of(self, game_id: str) -> str | None:
        """Return the due key the game's append may mark it in (None: its slot holds no shard)."""
        if not self.sharded:
            return self.all[0]
        return self._by_slot.get(slot_of_key(aggregate_key(self.prefix, game_id, "events")))

    def first_placeable(self, candidates: Iterable[str]) -> str:
        """Return the first candidate id that has a due key (on a single Redis, the first candidate)."""
        return next(candidate for candidate in candidates if self.of(candidate) is not None)
