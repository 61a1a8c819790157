"""The one wiring point: Redis, store, repository, queue and service, built from config."""

from __future__ import annotations

import logging
import os
import threading
from dataclasses import dataclass

from redis import Redis
from rq import Queue

from service.archive import ArchiveService
from service.games import GameService
from service.ratings import RatingService
from service.repository import GameRepository
from service.store import Directory, EventStore
from service.tournament_wiring import wire_tournaments
from service.tournaments import TournamentService
from workers.queue import InlineJobs, RQJobs

log = logging.getLogger(__name__)


@dataclass
class Services:
    """Everything a request or a job needs."""

    redis: Redis
    prefix: str
    store: EventStore
    directory: Directory
    repository: GameRepository
    games: GameService
    jobs: InlineJobs | RQJobs
    embedded: bool
    ratings: RatingService
    tournaments: TournamentService
    archive: ArchiveService


def build(redis: Redis, prefix: str = "menagerie", *, inline_jobs: bool, embedded: bool = False) -> Services:
    """Wire the services on a Redis connection (real or fake)."""
    store = EventStore(redis, prefix)
    directory = Directory(redis, prefix)
    repository = GameRepository(store)
    jobs: InlineJobs | RQJobs = InlineJobs() if inline_jobs else RQJobs(Queue(prefix, connection=redis), prefix)
    games = GameService(store, directory, repository, jobs)
    if isinstance(jobs, InlineJobs):
        jobs.step = games.step
    ratings, tournaments = wire_tournaments(redis, prefix, store, games, inline=isinstance(jobs, InlineJobs))
    archive = ArchiveService(store, directory, repository)
    return Services(redis, prefix, store, directory, repository, games, jobs, embedded, ratings, tournaments, archive)


def from_env() -> Services:
    """Use REDIS_URL and RQ workers if set; else the embedded default (fakeredis, in-process jobs)."""
    url = os.environ.get("REDIS_URL")
    prefix = os.environ.get("MENAGERIE_PREFIX", "menagerie")
    if url:
        log.info("event store: %s (prefix %s); jobs go to RQ queue %r", url, prefix, prefix)
        return build(Redis.from_url(url), prefix, inline_jobs=False)
    import fakeredis

    log.warning("REDIS_URL is not set: embedded mode, in-process fakeredis and jobs; data is in memory only")
    return build(fakeredis.FakeRedis(), prefix, inline_jobs=True, embedded=True)


# A worker process keeps one set of services per connection so that its
# aggregate cache survives from job to job (a step then replays only what is
# new); it is a cache, never a source of truth.
_WORKER_SERVICES: dict[tuple[int, str], Services] = {}
_WORKER_LOCK = threading.Lock()


def services_for(connection: Redis, prefix: str) -> Services:
    """Return the services a worker uses on a connection, built once."""
    key = (id(connection.connection_pool), prefix)
    with _WORKER_LOCK:
        if key not in _WORKER_SERVICES:
            _WORKER_SERVICES[key] = build(connection, prefix, inline_jobs=False)
        return _WORKER_SERVICES[key]
