"""Ratings per game type: one `GameRated` event per finished game, appended once.

The append's idempotency key is the game id, so a retried job, a doubled
follow-up or a game finished twice over never rates a game twice. The tables
are aggregates like any other: cached with their version, caught up from the
stream, changed through the one command path.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field
from typing import Any

from domain.events import RecordedEvent
from domain.game import FINISHED
from domain.ratings import (
    GAME_RATED,
    RatingTable,
    aggregate_id,
    decide,
    from_snapshot,
    leaderboard,
    rated_identities,
    replay,
    to_snapshot,
)
from service.adapters.cache import AggregateCache, GameRepository
from service.adapters.players import PlayerAccounts
from service.adapters.snapshots import Snapshots
from service.adapters.store import EventStore
from service.application.clock import utc_now
from service.application.commands import CommandPath, Decision, Idempotency
from service.application.read_models import ReadModels
from service.errors import GameTypeNotFound


def _fold(events: Iterable[RecordedEvent], table: RatingTable | None) -> RatingTable:
    return replay(events, table)


def _game_of(stream: str) -> str:
    return stream.removeprefix(aggregate_id(""))


def _empty_table(stream: str) -> RatingTable:
    return RatingTable(game=_game_of(stream))


def _decode_snapshot(data: Any, stream: str) -> RatingTable:
    return from_snapshot(data, _game_of(stream))


@dataclass
class RatingService:
    """Rate finished games and read the leaderboards."""

    store: EventStore
    repository: GameRepository
    # Where accounts' handles are looked up for the leaderboards (None: ids only).
    accounts: PlayerAccounts | None = None
    clock: Callable[[], str] = utc_now
    # The ratings and leaderboards read models, written as games are rated (None: not kept).
    models: ReadModels | None = None
    # A fresh process reads the table's snapshot and the fewer than this many events after it, not the whole stream.
    snapshot_every: int = 1000
    commands: CommandPath[RatingTable] = field(init=False)
    snapshots: Snapshots[RatingTable] = field(init=False)

    def __post_init__(self) -> None:
        self.snapshots = Snapshots(
            self.store.redis, self.store.prefix, to_snapshot, _decode_snapshot, every=self.snapshot_every
        )
        # A game type nobody has finished a game of yet has an empty table.
        cache = AggregateCache(
            self.store, _fold, GAME_RATED, GameTypeNotFound, empty=_empty_table, snapshots=self.snapshots
        )
        self.commands = CommandPath(self.store, cache, self.clock)

    def table(self, game_type: str) -> RatingTable:
        """Return a game type's ratings at their latest version."""
        return self.commands.cache.load(aggregate_id(game_type))

    def rebuild(self, game_type: str) -> RatingTable:
        """Return a game type's ratings folded afresh from its whole stream (never from a snapshot)."""
        return replay(self.store.read(aggregate_id(game_type)), game=game_type)

    def rate_game(self, game_id: str) -> str:
        """Rate a finished game once: "rated", "duplicate", "unfinished" or "unrated" (`domain.ratings.rated_identities`)."""
        game = self.repository.load(game_id)
        if game.status != FINISHED or game.result is None:
            return "unfinished"
        identities = rated_identities(game)
        if identities is None:
            return "unrated"
        places = game.result["places"]
        outcome = self.commands.run(
            aggregate_id(game.type),
            lambda table: Decision(
                {"kind": "rate", "game_id": game_id},
                [decide(table, game_id, identities, places, game.last_hash)],
            ),
            optimistic=True,
            idempotency=Idempotency(game_id, lambda first, last: {"version": last}),
        )
        if self.models is not None:
            # After the append: a process killed between the two leaves the model a version behind, which the
            # next rating of this game type (or a retry of this one, or `menagerie rebuild`) brings up to date.
            self.models.publish_ratings(outcome.after)
        return "duplicate" if outcome.prior is not None else "rated"

    def ordinals(self, game_type: str, identities: Sequence[str]) -> list[float]:
        """Return the ordinal of each identity (a newcomer's prior for the unrated)."""
        table = self.table(game_type)
        return [table.get(player).ordinal for player in identities]

    def leaderboard(self, game_type: str, limit: int | None = None) -> dict[str, Any]:
        """Return a game type's leaderboard, best first: an account shown by its handle, with its id."""
        table = self.table(game_type)
        rows = self._leaderboard(table, limit)
        ids = [row["player_id"] for row in rows if row["player_id"] is not None]
        handles = self.accounts.handles(ids) if self.accounts is not None and ids else {}
        for row in rows:
            if row["player_id"] is not None:
                row["player"] = handles.get(row["player_id"], row["player"])
        return {"game": game_type, "rated_games": table.rated_games, "version": table.version, "players": rows}

    def _leaderboard(self, table: RatingTable, limit: int | None) -> list[dict[str, Any]]:
        """Return the rows from the leaderboards model when it is at the table's version, else fold and keep them."""
        if self.models is None:
            return leaderboard(table, limit)
        served = self.models.leaderboards.read(aggregate_id(table.game))
        if served is not None and served[0] == table.version:
            rows: list[dict[str, Any]] = served[1]["players"]
            return rows[:limit] if limit else rows
        self.models.publish_ratings(table)
        return leaderboard(table, limit)
