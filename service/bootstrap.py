"""The one wiring point: Redis, store, caches, job queue and services, built from config.

Everything is built here with its dependencies passed in; nothing is patched
after construction. Two tables say what runs in the background: `JOBS`, the
jobs by name (run by RQ workers through `run_job`, or in-process in embedded
mode), and `_game_finished`, what a finished game sets off (a finished
tournament's one follow-up, the house's signature, is handed to its service).
"""

from __future__ import annotations

import logging
import os
import threading
from collections.abc import Callable
from dataclasses import dataclass, field

from redis import Redis
from rq import Queue, get_current_job

from domain.game import Game
from domain.tournament.state import Tournament
from domain.upcasters import check_upcasters
from service.adapters import house_keys
from service.adapters.audit_jobs import AuditRecords, AuditThread
from service.adapters.cache import GameRepository
from service.adapters.connections import STORE_UNAVAILABLE, ConfigError, StoreRedis, connect, rq_url, timeouts
from service.adapters.due import DueIndex
from service.adapters.indexes import Directory, TournamentIndex
from service.adapters.jobs import BackgroundJobs, InlineJobs, RQJobs
from service.adapters.note_keys import signer_from_env
from service.adapters.outages import ShardOutages
from service.adapters.players import PlayerAccounts
from service.adapters.slots import aggregate_key
from service.adapters.store import MAX_BLOCK_MS, EventStore
from service.adapters.tlog import RedisLeaves
from service.application.archive import ArchiveService
from service.application.audits import AuditService
from service.application.games import GameService
from service.application.players import PlayerService
from service.application.ratings import RatingService
from service.application.read_models import ReadModels
from service.application.seat_logs import SeatLogs
from service.application.signatures import HouseSigner, ResultSignatures
from service.application.steward import Steward
from service.application.tournament_files import TournamentFiles
from service.application.tournaments import TournamentService
from service.application.transparency import NoteSigner, TransparencyLog
from workers.bots.players import BotPlayers

log = logging.getLogger(__name__)


@dataclass
class Services:
    """Everything a request or a job needs."""

    redis: StoreRedis
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
    due: DueIndex
    outages: ShardOutages
    step_timeout_s: int = 30
    # RQ's plain Redis: the store's own, unless that is a cluster (None: no RQ, jobs run in-process).
    queue_redis: Redis | None = None
    audits: AuditService = field(kw_only=True)
    # Bundles, audits and listings of tournaments, read through the tournament service's cache.
    tournament_files: TournamentFiles = field(kw_only=True)
    # The house's signatures of finished results, and its keys.
    signatures: ResultSignatures = field(kw_only=True)
    # The public, append-only log of finished games' and tournaments' results.
    log: TransparencyLog = field(kw_only=True)
    # Player accounts: handles, tokens, and the seats and places they bind.
    players: PlayerService = field(kw_only=True)
    # The read models kept in Redis (lobby, ratings, leaderboards, standings), for `menagerie rebuild`.
    models: ReadModels = field(kw_only=True)

    def rq(self) -> Redis:
        """Return RQ's Redis connection."""
        if self.queue_redis is None:
            raise ConfigError("the store is a Redis Cluster and no plain Redis was given for RQ (RQ_REDIS_URL)")
        return self.queue_redis

    def steward(self) -> Steward:
        """Return a steward of these services' due index; a claim lasts one step timeout."""
        return Steward(self.due, self.games, lease_ms=self.step_timeout_s * 1000)


# The background jobs, by the name they are asked for with (`service.adapters.jobs.JobQueue`);
# each job's first argument is the id of what it is about. Each is idempotent (RQ delivers at
# least once).
JOBS: dict[str, Callable[..., object]] = {
    "step": lambda services, game_id, version: services.games.step(game_id, version),
    # A finished game's follow-up: rate it, log its result (once per game), then pack its stream
    # (less memory, the same events).
    "rate": lambda services, game_id: (
        services.ratings.rate_game(game_id),
        services.log.log_game(services.repository.load(game_id)),
        services.archive.pack(game_id),
    ),
    "advance": lambda services, tournament_id: services.tournaments.advance(tournament_id),
    "audit": lambda services, audit_id: services.audits.run(audit_id),
}


def _game_finished(services: Services, game: Game) -> None:
    """What a finished game sets off: the house signs its result; rate it and log it (the job `rate`); move its
    tournament on, if it has one."""
    services.signatures.game(game)
    services.jobs.rate(game.id)
    services.tournaments.game_finished(game)


def _tournament_finished(signatures: ResultSignatures, results_log: TransparencyLog, tournament: Tournament) -> None:
    """What a finished tournament sets off: the house signs its result, then it goes in the log."""
    signatures.tournament(tournament)
    results_log.log_tournament(tournament)


def step_timeout_from_env() -> int:
    """Return the step job timeout in seconds (MENAGERIE_STEP_TIMEOUT_S, default 30)."""
    return int(os.environ.get("MENAGERIE_STEP_TIMEOUT_S", "30"))


def step_slice_from_env() -> float:
    """Return how long one step job may take a game's steps, in seconds (MENAGERIE_STEP_SLICE_MS, default 50)."""
    return int(os.environ.get("MENAGERIE_STEP_SLICE_MS", "50")) / 1000


def build(
    redis: StoreRedis,
    prefix: str = "menagerie",
    *,
    inline_jobs: bool,
    embedded: bool = False,
    step_timeout_s: int = 30,
    background_jobs: bool = False,
    queue_redis: Redis | None = None,
    blocking_redis: StoreRedis | None = None,
    step_slice_s: float = 0.05,
    keys: HouseSigner | None = None,
    log_signer: NoteSigner | None = None,
) -> Services:
    """Wire the services on a Redis connection (real or fake), or a Redis Cluster.

    `queue_redis` is RQ's plain Redis; by default the store's, which must then
    not be a cluster (RQ does not run on one). `blocking_redis` is the store's
    client for blocking reads (live streams); by default `redis`.

    `background_jobs` (with `inline_jobs`) runs the in-process jobs on a thread
    of their own instead of in the caller's (the embedded server).

    `step_timeout_s` bounds a step job, and is how long after an append its
    step may wait before the due index calls it overdue (see `Steward`).
    `step_slice_s` is how long one step job goes on taking a game's
    consecutive system and bot steps before it yields (`GameService.step`).
    `keys` sign finished results: by default MENAGERIE_KEYS_DIR's, else an
    ephemeral key published in the store (`house_keys.from_env`).
    `log_signer` signs the transparency log's checkpoints; by default the key
    `MENAGERIE_LOG_KEY` names, else one kept in this Redis (a new one when `embedded`).
    """
    check_upcasters()  # every event type's chain of upcasters, complete before any event is read
    if queue_redis is None and isinstance(redis, Redis):
        queue_redis = redis
    store = EventStore(redis, prefix, blocking_redis)
    directory = Directory(redis, prefix)
    repository = GameRepository(store)
    signatures = ResultSignatures(keys if keys is not None else house_keys.from_env(redis, prefix), store)
    # In-process jobs and follow-ups run only after `build` returns, so they
    # may refer to the services built below.
    jobs: InlineJobs | RQJobs
    if inline_jobs:
        in_process = BackgroundJobs if background_jobs else InlineJobs
        jobs = in_process(lambda name, args: JOBS[name](services, *args))
    else:
        if queue_redis is None:
            raise ConfigError("RQ does not run on Redis Cluster: give it a plain Redis (RQ_REDIS_URL)")
        jobs = RQJobs(Queue(prefix, connection=queue_redis), prefix, f"{__name__}.{run_job.__name__}", step_timeout_s)
    # A searching bot reads its seat's redacted log; it reads only up to the version it decides at.
    bots = BotPlayers(SeatLogs(store))
    games = GameService(
        store,
        directory,
        repository,
        jobs,
        bots,
        on_finished=lambda game: _game_finished(services, game),
        step_grace_ms=step_timeout_s * 1000,
        slice_s=step_slice_s,
    )
    accounts = PlayerAccounts(redis, prefix)
    players = PlayerService(accounts)
    models = ReadModels(store)
    ratings = RatingService(store, repository, accounts, models=models)
    signer = log_signer or signer_from_env(None if embedded else redis, prefix)
    results_log = TransparencyLog(RedisLeaves(redis, prefix), signer, signer.name)
    tournaments = TournamentService(
        store,
        TournamentIndex(redis, prefix),
        games,
        ratings,
        jobs,
        on_finished=lambda tournament: _tournament_finished(signatures, results_log, tournament),
        accounts=accounts,
        models=models,
    )
    archive = ArchiveService(store, directory, repository, signatures, held=tournaments.holds)
    # The embedded server audits on a thread of its own, so that a long audit never holds up bot turns.
    audit_jobs = (
        AuditThread(lambda audit_id: JOBS["audit"](services, audit_id)) if inline_jobs and background_jobs else jobs
    )
    tournament_files = TournamentFiles(tournaments.load, store, repository, tournaments.index, signatures)
    audits = AuditService(AuditRecords(redis, prefix), repository, store, tournament_files, archive, audit_jobs)
    services = Services(
        redis,
        prefix,
        store,
        directory,
        repository,
        games,
        jobs,
        embedded,
        ratings,
        tournaments,
        archive,
        DueIndex(redis, store.due_keys),
        ShardOutages(
            redis,
            lambda subject: aggregate_key(prefix, subject, "events"),
            on_back=jobs.release_later if isinstance(jobs, RQJobs) else lambda: None,
        ),
        step_timeout_s,
        queue_redis,
        audits=audits,
        tournament_files=tournament_files,
        signatures=signatures,
        log=results_log,
        players=players,
        models=models,
    )
    return services


def from_env(background_jobs: bool = False) -> Services:
    """Use REDIS_URL and RQ workers if set; else the embedded default (fakeredis, in-process jobs).

    `background_jobs`: the embedded jobs run on a thread of their own (the server), not
    in the caller's (`menagerie tournament run` waits for its tournament in `start`).
    """
    url = os.environ.get("REDIS_URL")
    prefix = os.environ.get("MENAGERIE_PREFIX", "menagerie")
    if url:
        return build_from_urls(url, rq_url(), prefix)
    import fakeredis

    log.warning("REDIS_URL is not set: embedded mode, in-process fakeredis and jobs; data is in memory only")
    services = build(
        fakeredis.FakeRedis(),
        prefix,
        inline_jobs=True,
        embedded=True,
        step_timeout_s=step_timeout_from_env(),
        step_slice_s=step_slice_from_env(),
        background_jobs=background_jobs,
    )
    # No worker process runs in embedded mode: a steward thread takes what is overdue.
    services.steward().start()
    return services


def build_from_urls(
    url: str, queue_url: str, prefix: str, queue_blocks_for_s: float = 0, fail_fast: bool = False
) -> Services:
    """Wire the services on the store at `url` (a Redis or a Redis Cluster), with RQ on the plain Redis at `queue_url`.

    Each role has a client of its own, with timeouts for what it does (`connections.timeouts`):
    commands, the live streams' blocking reads, and RQ's queue, which blocks for up to
    `queue_blocks_for_s` where a worker waits for jobs (0 where jobs are only enqueued).
    `fail_fast`: the store's cluster client gives up on a failing node at once (a worker's; `connections.connect`).
    """
    log.info("event store: %s (prefix %s); jobs go to RQ queue %r on %s", url, prefix, prefix, queue_url)
    queue_redis = Redis.from_url(queue_url, **timeouts(queue_blocks_for_s))
    return build(
        connect(url, fail_fast=fail_fast),
        prefix,
        inline_jobs=False,
        step_timeout_s=step_timeout_from_env(),
        step_slice_s=step_slice_from_env(),
        queue_redis=queue_redis,
        blocking_redis=connect(url, blocks_for_s=MAX_BLOCK_MS / 1000),
    )


# A worker process keeps one set of services per connection so that its
# aggregate cache survives from job to job (a step then replays only what is
# new); it is a cache, never a source of truth.
_WORKER_SERVICES: dict[tuple[int, str], Services] = {}
_WORKER_LOCK = threading.Lock()


def serve_jobs(services: Services) -> Services:
    """Have the RQ jobs this process takes from the services' queues run on these services.

    Their store may be a Redis Cluster while the jobs come from RQ's own plain
    Redis: a job finds its services by the RQ connection it came on.
    """
    with _WORKER_LOCK:
        _WORKER_SERVICES[(id(services.rq().connection_pool), services.prefix)] = services
    return services


def services_for(connection: Redis, prefix: str) -> Services:
    """Return the services a job uses on an RQ connection: those `serve_jobs` gave, else built once on that Redis."""
    key = (id(connection.connection_pool), prefix)
    with _WORKER_LOCK:
        if key not in _WORKER_SERVICES:
            _WORKER_SERVICES[key] = build(
                connection,
                prefix,
                inline_jobs=False,
                step_timeout_s=step_timeout_from_env(),
                step_slice_s=step_slice_from_env(),
            )
        return _WORKER_SERVICES[key]


# A job put back this often (a minute or more of outage) fails instead, where an operator sees it.
MAX_DEFERRALS = 30


def run_job(name: str, *args: str | int, prefix: str = "menagerie") -> object:
    """Run the job `JOBS[name]` RQ handed this worker: the one function every job is enqueued as.

    A job whose store shard is down (or resting after failing: `ShardOutages`)
    does not wait for it on the worker: it is put back on its queue for later
    and ends, so the worker goes on with the jobs of the shards that answer.
    """
    job = get_current_job()
    if job is None:
        raise RuntimeError("this function runs as an RQ job, inside `menagerie worker`")
    services = services_for(job.connection, prefix)
    jobs = services.jobs
    assert isinstance(jobs, RQJobs), "a worker's services enqueue on RQ"
    shard, rest = services.outages.rest_for(str(args[0]))
    if rest:
        jobs.later(job, rest)
        return "deferred"
    try:
        done = JOBS[name](services, *args)
    except STORE_UNAVAILABLE as error:
        if job.meta.get("deferred", 0) >= MAX_DEFERRALS:
            raise  # RQ records the failure and retries it; a step's due mark keeps it for a steward
        rest = services.outages.failed(shard, error)
        if services.outages.shard_of(str(args[0])) != shard:
            rest = 0.0  # the failure reloaded the slot map, which names another node now: a promoted replica
        log.warning("%s %s met a store outage (%s); put back for %.1f s", name, args, error, rest)
        jobs.later(job, rest)
        return "deferred"
    services.outages.recovered(shard)
    return done
