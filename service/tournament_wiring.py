"""Wire ratings and tournaments onto the game service (called once from `service.wiring.build`)."""

from __future__ import annotations

from redis import Redis
from rq import Queue

from service.games import GameService
from service.ratings import RatingService
from service.store import EventStore
from service.tournament_index import TournamentIndex
from service.tournaments import TournamentService
from workers.tournament_queue import InlineFollowUps, RQFollowUps


def wire_tournaments(
    redis: Redis, prefix: str, store: EventStore, games: GameService, *, inline: bool
) -> tuple[RatingService, TournamentService]:
    """Build the rating and tournament services and listen for finished games."""
    ratings = RatingService(store, games.repository)
    followups = InlineFollowUps() if inline else RQFollowUps(Queue(prefix, connection=redis), prefix)
    tournaments = TournamentService(store, TournamentIndex(redis, prefix), games, ratings, followups)
    if isinstance(followups, InlineFollowUps):
        followups.rate_game = ratings.rate_game
        followups.advance = tournaments.advance
    games.on_finished.append(tournaments.game_finished)
    return ratings, tournaments
