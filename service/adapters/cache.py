"""Aggregates loaded by replay, kept in memory with their version and caught up from the stream.

A view of a game that has not changed costs one small `XRANGE` (nothing new)
instead of a full replay; a game that moved on replays only the new events;
a command decided here folds its own appended batch onto the aggregate, so
nothing re-reads what it just wrote. The cache is never a source of truth:
every append is checked against the stream's version by the store.
"""

from __future__ import annotations

import threading
from collections import OrderedDict
from collections.abc import Callable, Iterable, Sequence
from typing import Any, Generic, Protocol, TypeVar

from domain.events import Event, RecordedEvent
from domain.game import Game, after_decision, replay
from service.adapters.snapshots import Snapshots
from service.adapters.store import EventStore
from service.errors import GameArchived, GameNotFound, ServiceError

K = TypeVar("K")
V = TypeVar("V")


class Bounded(Generic[K, V]):
    """A thread-safe dict that forgets its least recently used items past a capacity."""

    def __init__(self, capacity: int) -> None:
        self.capacity = capacity
        self._items: OrderedDict[K, V] = OrderedDict()
        self._lock = threading.Lock()

    def get(self, key: K) -> V | None:
        """Return the item under `key`, if it is kept."""
        with self._lock:
            value = self._items.get(key)
            if value is not None:
                self._items.move_to_end(key)
            return value

    def put(self, key: K, value: V, *, keep: Callable[[V, V], bool] = lambda old, new: True) -> None:
        """Keep `value` under `key`, unless `keep(current, value)` says the current one stays."""
        with self._lock:
            current = self._items.get(key)
            if current is None or keep(current, value):
                self._items[key] = value
            self._items.move_to_end(key)
            while len(self._items) > self.capacity:
                self._items.popitem(last=False)

    def pop(self, key: K) -> None:
        """Forget `key`."""
        with self._lock:
            self._items.pop(key, None)


class Versioned(Protocol):
    """An aggregate that knows the version it was folded to."""

    @property
    def version(self) -> int: ...


A = TypeVar("A", bound=Versioned)
Fold = Callable[[Iterable[RecordedEvent], A | None], A]
# The aggregate after a batch it decided (the events as decided, which may carry what their fold gives) and recorded.
FoldDecided = Callable[[A, Sequence[RecordedEvent], Sequence[Event]], A]


def _newer(current: Versioned, new: Versioned) -> bool:
    # Another thread may have caught up further meanwhile; keep the newest.
    return new.version > current.version


class AggregateCache(Generic[A]):
    """A bounded cache of one kind of aggregate, caught up from its streams."""

    def __init__(
        self,
        store: EventStore,
        fold: Fold[A],
        first_type: str,
        not_found: Callable[[str], ServiceError],
        capacity: int = 1024,
        empty: Callable[[str], A] | None = None,
        snapshots: Snapshots[Any] | None = None,
        fold_decided: FoldDecided[A] | None = None,
    ) -> None:
        self.store = store
        self._fold = fold
        self._fold_decided = fold_decided
        self._first_type = first_type
        self._not_found = not_found
        self._empty = empty
        self._items: Bounded[str, A] = Bounded(capacity)
        # Snapshots (of aggregates on a hash chain) spare a fresh process the replay of a long stream.
        self._snapshots = snapshots

    def load(self, aggregate_id: str) -> A:
        """Return the aggregate at its latest version (one `XRANGE` of what is new)."""
        cached = self._items.get(aggregate_id)
        resumed = self._resume(aggregate_id) if cached is None else None
        if resumed is not None:
            cached, new = resumed
            self._items.put(aggregate_id, cached, keep=_newer)
        elif cached is not None and cached.version > 0:
            since = self.store.read_since(aggregate_id, cached.version)
            if since is None:
                # The stream was removed (archived) after this process folded it: serve nothing from memory.
                self._items.pop(aggregate_id)
                raise self._not_found(aggregate_id)
            new = since
        else:
            new = self.store.read(aggregate_id)
        start = cached.version if cached else 0
        if cached is None:
            if new and new[0].type != self._first_type:
                raise self._not_found(aggregate_id)  # another kind of aggregate's stream
            if self._empty is None and not new:
                raise self._not_found(aggregate_id)
            cached = self._empty(aggregate_id) if self._empty is not None else None
        if not new and cached is not None:
            return cached
        aggregate = self._fold(new, cached)
        self._items.put(aggregate_id, aggregate, keep=_newer)
        self._snapshot(aggregate_id, start, aggregate)
        return aggregate

    def _resume(self, aggregate_id: str) -> tuple[A, list[RecordedEvent]] | None:
        if self._snapshots is None:
            return None
        return self._snapshots.resume(aggregate_id, lambda key, after: self.store.read(key, after=after))

    def _snapshot(self, aggregate_id: str, before: int, aggregate: A) -> None:
        # Written when a fold crosses a multiple of `every` events: a fresh process
        # then folds fewer than that many (and a missing or stale snapshot is
        # replaced by the first process that replays past such a multiple).
        if self._snapshots is not None and self._snapshots.due(before, aggregate.version):
            self._snapshots.save(aggregate_id, aggregate)

    def peek(self, aggregate_id: str) -> A | None:
        """Return the aggregate as last seen here, or None; reads nothing."""
        return self._items.get(aggregate_id)

    def cached(self, aggregate_id: str) -> A:
        """Return the aggregate as last seen here, without reading unless it was never seen.

        For what does not change once written (a game's seats and tokens) and
        for optimistic commands, whose append checks the version anyway.
        """
        return self._items.get(aggregate_id) or self.load(aggregate_id)

    def fold(self, aggregate: A, events: Sequence[RecordedEvent], decided: Sequence[Event] | None = None) -> A:
        """Return the aggregate with a batch folded on; keep nothing.

        `decided`: the batch as decided on `aggregate`, before it was recorded,
        for a kind of aggregate whose decisions say what their fold gives.
        """
        if not events:
            return aggregate
        if decided is not None and self._fold_decided is not None:
            return self._fold_decided(aggregate, events, decided)
        return self._fold(events, aggregate)

    def keep(self, aggregate_id: str, aggregate: A) -> A:
        """Keep an aggregate this process folded (unless a newer one is kept already), and return it."""
        # The version kept before matters only to snapshots (games have none).
        before = self._items.get(aggregate_id) if self._snapshots is not None else None
        self._items.put(aggregate_id, aggregate, keep=_newer)
        self._snapshot(aggregate_id, before.version if before else 0, aggregate)
        return aggregate

    def forget(self, aggregate_id: str) -> None:
        """Drop an aggregate from the cache (after its stream was removed)."""
        self._items.pop(aggregate_id)


def _replay_game(events: Iterable[RecordedEvent], game: Game | None) -> Game:
    return replay(events, game)


class GameRepository:
    """Load games by replay, with a bounded cache of aggregates and of their seeds."""

    def __init__(self, store: EventStore, capacity: int = 1024) -> None:
        self.store = store
        self.games: AggregateCache[Game] = AggregateCache(
            store, _replay_game, "GameCreated", self.missing, capacity, fold_decided=after_decision
        )
        self._seeds: Bounded[str, str] = Bounded(capacity)

    def missing(self, game_id: str) -> ServiceError:
        """Return the error for a game whose stream is not in the store: archived (410) or never here (404)."""
        where = self.store.archived(game_id)
        return GameArchived(game_id, **where) if where is not None else GameNotFound(game_id)

    def load(self, game_id: str) -> Game:
        """Return the game at its latest version."""
        return self.games.load(game_id)

    def cached(self, game_id: str) -> Game:
        """Return the game as last seen here (see `AggregateCache.cached`)."""
        return self.games.cached(game_id)

    def load_at(self, game_id: str, version: int) -> Game:
        """Return the game as it was after event `version` (a full replay up to it)."""
        events = self.store.read(game_id, after=0, upto=version)
        if not events or events[0].type != "GameCreated":
            raise self.missing(game_id)
        return replay(events)

    def seed(self, game_id: str) -> str:
        """Return the game's secret seed."""
        seed = self._seeds.get(game_id)
        if seed is None:
            seed = self.store.load_seed(game_id)
            if seed is None:
                raise self.missing(game_id)
            self._seeds.put(game_id, seed)
        return seed

    def forget(self, game_id: str) -> None:
        """Drop a game from the cache (after its stream was removed)."""
        self.games.forget(game_id)
        self._seeds.pop(game_id)
