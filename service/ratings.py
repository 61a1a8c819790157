"""Ratings per game type: one `GameRated` event per finished game, appended once.

The append's idempotency key is the game id, so a retried job, a doubled
listener or a game finished twice over never rates a game twice. The tables
are kept in memory with their version and caught up from the stream.
"""

from __future__ import annotations

import threading
import uuid
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

from domain.game import FINISHED
from domain.ratings import RatingTable, aggregate_id, decide, identity, leaderboard, replay
from service.games import utc_now
from service.repository import GameRepository
from service.store import EventStore, VersionConflict

MAX_RETRIES = 20


@dataclass
class RatingService:
    """Rate finished games and read the leaderboards."""

    store: EventStore
    repository: GameRepository
    clock: Callable[[], str] = utc_now
    _tables: dict[str, RatingTable] = field(default_factory=dict)
    _lock: threading.Lock = field(default_factory=threading.Lock)

    def table(self, game_type: str) -> RatingTable:
        """Return a game type's ratings at their latest version."""
        with self._lock:
            cached = self._tables.get(game_type) or RatingTable(game=game_type)
        new = self.store.read(aggregate_id(game_type), after=cached.version)
        table = replay(new, cached) if new else cached
        with self._lock:
            current = self._tables.get(game_type)
            if current is None or current.version < table.version:
                self._tables[game_type] = table
        return table

    def rebuild(self, game_type: str) -> RatingTable:
        """Return a game type's ratings folded afresh from its whole stream."""
        return replay(self.store.read(aggregate_id(game_type)), game=game_type)

    def rate_game(self, game_id: str) -> str:
        """Rate a finished game once: "rated", "duplicate" or "unfinished"."""
        game = self.repository.load(game_id)
        if game.status != FINISHED or game.result is None:
            return "unfinished"
        stream = aggregate_id(game.type)
        if self.store.prior_result(stream, game_id) is not None:
            return "duplicate"
        identities = [identity(seat.name, seat.bot) for seat in game.seats]
        for _ in range(MAX_RETRIES):
            table = self.table(game.type)
            event = decide(table, game_id, identities, game.result["places"])
            try:
                appended = self.store.append_decided(
                    stream,
                    version=table.version,
                    last_hash=table.last_hash,
                    events=[event],
                    command={"kind": "rate", "game_id": game_id},
                    time=self.clock(),
                    command_id=uuid.uuid4().hex,
                    idempotency_key=game_id,
                    idempotency_record={"version": table.version + 1},
                )
            except VersionConflict:
                continue
            return "duplicate" if appended.duplicate else "rated"
        raise VersionConflict(table.version, self.store.version(stream))

    def ordinals(self, game_type: str, identities: Sequence[str]) -> list[float]:
        """Return the ordinal of each identity (a newcomer's prior for the unrated)."""
        table = self.table(game_type)
        return [table.get(player).ordinal for player in identities]

    def leaderboard(self, game_type: str, limit: int | None = None) -> dict[str, Any]:
        """Return a game type's leaderboard, best first."""
        table = self.table(game_type)
        return {
            "game": game_type,
            "rated_games": table.rated_games,
            "version": table.version,
            "players": leaderboard(table, limit),
        }
