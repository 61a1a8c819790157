"""Aggregates loaded by replay, kept in memory with their version and caught up from the stream.

A view of a game that has not changed costs one small `XRANGE` (nothing new)
instead of a full replay; a game that moved on replays only the new events.
"""

from __future__ import annotations

import threading
from collections import OrderedDict
from collections.abc import Callable, Iterable
from typing import Generic, Protocol, TypeVar

from domain.events import RecordedEvent
from domain.game import Game, replay
from service.store import EventStore


class GameNotFound(Exception):
    """No game has that id."""


class Versioned(Protocol):
    """An aggregate that knows the version it was folded to."""

    @property
    def version(self) -> int: ...


A = TypeVar("A", bound=Versioned)


class AggregateCache(Generic[A]):
    """A bounded cache of one kind of aggregate, caught up from its streams on every load."""

    def __init__(
        self,
        store: EventStore,
        fold: Callable[[Iterable[RecordedEvent], A | None], A],
        first_type: str,
        not_found: Callable[[str], Exception],
        capacity: int = 1024,
    ) -> None:
        self.store = store
        self._fold = fold
        self._first_type = first_type
        self._not_found = not_found
        self.capacity = capacity
        self._items: OrderedDict[str, A] = OrderedDict()
        self._lock = threading.Lock()

    def load(self, aggregate_id: str) -> A:
        """Return the aggregate at its latest version."""
        with self._lock:
            cached = self._items.get(aggregate_id)
        new = self.store.read(aggregate_id, after=cached.version if cached else 0)
        if cached is None and (not new or new[0].type != self._first_type):
            # No stream, or another kind of aggregate's stream.
            raise self._not_found(aggregate_id)
        aggregate = self._fold(new, cached) if new else cached
        assert aggregate is not None
        with self._lock:
            current = self._items.get(aggregate_id)
            # Another thread may have caught up further meanwhile; keep the newest.
            if current is None or current.version < aggregate.version:
                self._items[aggregate_id] = aggregate
            self._items.move_to_end(aggregate_id)
            while len(self._items) > self.capacity:
                self._items.popitem(last=False)
        return aggregate

    def forget(self, aggregate_id: str) -> None:
        """Drop an aggregate from the cache (after its stream was removed)."""
        with self._lock:
            self._items.pop(aggregate_id, None)


class GameRepository:
    """Load games by replay, with a bounded cache of aggregates and their seeds."""

    def __init__(self, store: EventStore, capacity: int = 1024) -> None:
        self.store = store
        self._games: AggregateCache[Game] = AggregateCache(store, replay, "GameCreated", GameNotFound, capacity)
        self._seeds: OrderedDict[str, str] = OrderedDict()
        self.capacity = capacity

    def load(self, game_id: str) -> Game:
        """Return the game at its latest version."""
        return self._games.load(game_id)

    def load_at(self, game_id: str, version: int) -> Game:
        """Return the game as it was after event `version` (a full replay up to it)."""
        events = self.store.read(game_id, after=0, upto=version)
        if not events or events[0].type != "GameCreated":
            raise GameNotFound(game_id)
        return replay(events)

    def seed(self, game_id: str) -> str:
        """Return the game's secret seed."""
        seed = self._seeds.get(game_id)
        if seed is None:
            seed = self.store.load_seed(game_id)
            if seed is None:
                raise GameNotFound(game_id)
            self._seeds[game_id] = seed
            if len(self._seeds) > self.capacity:
                self._seeds.popitem(last=False)
        return seed

    def forget(self, game_id: str) -> None:
        """Drop a game from the cache (after its stream was removed)."""
        self._games.forget(game_id)
        self._seeds.pop(game_id, None)
