"""Games loaded by replay, kept in memory with their version and caught up from the stream.

A view of a game that has not changed costs one small `XRANGE` (nothing new)
instead of a full replay; a game that moved on replays only the new events.
"""

from __future__ import annotations

import threading
from collections import OrderedDict

from domain.game import Game, replay
from service.store import EventStore


class GameNotFound(Exception):
    """No game has that id."""


class GameRepository:
    """Load games by replay, with a bounded cache of aggregates."""

    def __init__(self, store: EventStore, capacity: int = 1024) -> None:
        self.store = store
        self.capacity = capacity
        self._games: OrderedDict[str, Game] = OrderedDict()
        self._seeds: dict[str, str] = {}
        self._lock = threading.Lock()

    def load(self, game_id: str) -> Game:
        """Return the game at its latest version."""
        with self._lock:
            cached = self._games.get(game_id)
        new = self.store.read(game_id, after=cached.version if cached else 0)
        if cached is None and (not new or new[0].type != "GameCreated"):
            # No stream, or another aggregate's (a tournament, ratings).
            raise GameNotFound(game_id)
        game = replay(new, cached) if new else cached
        assert game is not None
        with self._lock:
            current = self._games.get(game_id)
            # Another thread may have caught up further meanwhile; keep the newest.
            if current is None or current.version < game.version:
                self._games[game_id] = game
            self._games.move_to_end(game_id)
            while len(self._games) > self.capacity:
                evicted, _ = self._games.popitem(last=False)
                self._seeds.pop(evicted, None)
        return game

    def load_at(self, game_id: str, version: int) -> Game:
        """Return the game as it was after event `version` (a full replay up to it)."""
        events = self.store.read(game_id, after=0, upto=version)
        if not events:
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
        return seed

    def forget(self, game_id: str) -> None:
        """Drop a game from the cache (after its stream was removed)."""
        with self._lock:
            self._games.pop(game_id, None)
            self._seeds.pop(game_id, None)
