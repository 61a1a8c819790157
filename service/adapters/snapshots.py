"""Snapshots of aggregates beside their streams: a cache of a fold, never the truth.

`<prefix>:{<id>}:snapshot` holds an aggregate as folded up to some version,
with the hash of that version's event. A fresh process reads it and then only
the events after it, instead of replaying the whole stream. The stream stays
authoritative: a snapshot is used only when the stream still holds an event at
its version with its hash (so a stream rebuilt, replaced or shortened since
makes it stale), and one that is missing, unreadable, of another format or
stale is ignored (the caller replays the stream, as without snapshots).

Each snapshot is one plain SET or GET of one key: it is never written together
with the stream, so it needs no script; its name still shares the aggregate's
hash tag, so that on Redis Cluster it sits beside its stream.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, Generic, Protocol, TypeVar

import orjson

from domain.events import RecordedEvent
from service.adapters.connections import StoreRedis
from service.adapters.slots import aggregate_key


class Chained(Protocol):
    """An aggregate on a hash chain: its version and the hash of its last event."""

    @property
    def version(self) -> int: ...

    @property
    def last_hash(self) -> str: ...


A = TypeVar("A", bound=Chained)
Read = Callable[[str, int], list[RecordedEvent]]


class Snapshots(Generic[A]):
    """Read and write one kind of aggregate's snapshots."""

    def __init__(
        self,
        redis: StoreRedis,
        prefix: str,
        encode: Callable[[A], Any],
        decode: Callable[[Any, str], A],
        every: int = 1000,
    ) -> None:
        self.redis = redis
        self.prefix = prefix
        self._encode = encode
        # decode(data, aggregate_id) raises ValueError for anything but a whole snapshot of that aggregate.
        self._decode = decode
        # A fresh process folds at most about this many events past the snapshot.
        self.every = every

    def key(self, aggregate_id: str) -> str:
        """Return the snapshot's key, beside the stream under its hash tag."""
        return aggregate_key(self.prefix, aggregate_id, "snapshot")

    def load(self, aggregate_id: str) -> A | None:
        """Return the snapshot as its aggregate, or None when there is none or it cannot be read."""
        raw = self.redis.get(self.key(aggregate_id))
        if raw is None:
            return None
        try:
            return self._decode(orjson.loads(raw), aggregate_id)
        except ValueError:  # orjson.JSONDecodeError is a ValueError too
            return None

    def resume(self, aggregate_id: str, read: Read) -> tuple[A, list[RecordedEvent]] | None:
        """Return the snapshot and the events after it, if the stream still holds its last event; else None.

        `read(aggregate_id, after)` reads the stream: one read, from the
        snapshot's own event on, checks it and fetches what came after.
        """
        snapshot = self.load(aggregate_id)
        if snapshot is None or snapshot.version < 1:
            return None
        events = read(aggregate_id, snapshot.version - 1)
        if not events or events[0].seq != snapshot.version or events[0].hash != snapshot.last_hash:
            return None
        return snapshot, events[1:]

    def due(self, before: int, after: int) -> bool:
        """Tell whether a fold from version `before` to `after` crossed a multiple of `every`."""
        return after // self.every > before // self.every

    def save(self, aggregate_id: str, aggregate: A) -> None:
        """Write the aggregate's snapshot (an older one written later by another process is still valid, only older)."""
        self.redis.set(self.key(aggregate_id), orjson.dumps(self._encode(aggregate)))

    def delete(self, aggregate_id: str) -> None:
        """Remove the snapshot."""
        self.redis.delete(self.key(aggregate_id))
