"""Two ways to run the jobs commands ask for: RQ queues served by `menagerie worker`, or in-process.

Every job is idempotent, so a job delivered twice (RQ is at-least-once) is
harmless: a step re-checks the version it was asked for, a rating appends
with the game id as idempotency key, a tournament step replays and re-checks
every game of its round. The jobs themselves, by name, are the bootstrap's
table `JOBS`; RQ runs each through the bootstrap's `run_job`.
"""

from __future__ import annotations

import logging
import queue
import threading
from collections.abc import Callable, Hashable
from datetime import UTC, datetime, timedelta
from typing import Any

from redis import Redis
from rq import Queue, Retry
from rq.exceptions import DuplicateJobError, InvalidJobOperation
from rq.job import Job
from rq.registry import ScheduledJobRegistry

log = logging.getLogger(__name__)

Dispatch = Callable[[str, tuple[object, ...]], object]


def human_queue_name(prefix: str) -> str:
    """Return the name of the queue for steps of games with human seats."""
    return f"{prefix}-human"


def worker_queues(prefix: str, connection: Redis) -> list[Queue]:
    """Return the queues a worker serves, first first: steps of games with humans, then everything else.

    RQ takes a job from the first queue that has one, so a flood of all-bot
    games on the second never delays a human game's bot turn by more than the
    jobs already running (one per worker) and the human queue's own backlog.
    """
    return [Queue(human_queue_name(prefix), connection=connection), Queue(prefix, connection=connection)]


def job_id(prefix: str, name: str, key: str) -> str:
    """Return the deterministic id of a job: its name and what it is about (RQ allows letters, digits, _ and -)."""
    return f"{prefix}-{name}-{key}"


def step_job_id(prefix: str, game_id: str, version: int) -> str:
    """Return the deterministic id of a game's step job at a version."""
    return job_id(prefix, "step", f"{game_id}-{version}")


def rate_job_id(prefix: str, game_id: str) -> str:
    """Return the deterministic id of the job that rates a game."""
    return job_id(prefix, "rate", game_id)


def advance_job_id(prefix: str, tournament_id: str, reason: str) -> str:
    """Return the id of a tournament step, named after what asked for it (a game id, `v<version>`)."""
    return job_id(prefix, "advance", f"{tournament_id}-{reason}")


# An audit of a few thousand games takes minutes; a job past this is stopped (its record then stalls).
AUDIT_TIMEOUT_S = 3600

# What every job keeps: its result for 10 minutes (so `unique` refuses a second ask meanwhile),
# a failure for a week, and three retries of a job that raised.
_KEEP: dict[str, Any] = {"result_ttl": 600, "failure_ttl": 7 * 24 * 3600, "retry": Retry(max=3, interval=[1, 5, 15])}


class JobQueue:
    """The jobs the services ask for, each under its name in the bootstrap's table `JOBS`.

    That name runs unchanged from here to the handler: `step` is enqueued as
    `"step"`, recorded so in the job, and run as `JOBS["step"]`, which is
    `GameService.step`. A new job is a method here and a line in `JOBS`.
    """

    def step(self, game_id: str, version: int, humans: bool = False) -> None:
        """Ask for a game's due steps from a version (`humans`: the game has human seats, served first)."""
        self.submit("step", (game_id, version), f"{game_id}-{version}", urgent=humans)

    def rate(self, game_id: str) -> None:
        """Ask for a finished game to be rated."""
        self.submit("rate", (game_id,), game_id)

    def advance(self, tournament_id: str, reason: str) -> None:
        """Ask for a tournament to take every step it waits on (`reason`: what asked, for the job's id)."""
        self.submit("advance", (tournament_id,), f"{tournament_id}-{reason}")

    def audit(self, audit_id: str, run: int) -> None:
        """Ask for an audit too long for its request (`run`: each start of the audit is a job of its own)."""
        self.submit("audit", (audit_id,), f"{audit_id}-{run}")

    def submit(self, name: str, args: tuple[str | int, ...], key: str, urgent: bool = False) -> None:
        """Ask for the job `name` on `args`, once per `key` while it waits (`urgent`: before the others)."""
        raise NotImplementedError


class RQJobs(JobQueue):
    """Enqueue jobs on the key prefix's RQ queues, with deterministic ids and retries.

    The queues are named after the key prefix, so that deployments (and test
    runs) sharing one Redis never take each other's jobs. Every job is
    enqueued as the one function `runner` (the import path RQ calls), with the
    job's name as its first argument.
    """

    def __init__(self, queue: Queue, prefix: str, runner: str, step_timeout_s: int = 30) -> None:
        self.queue = queue
        self.human_queue = Queue(human_queue_name(prefix), connection=queue.connection)
        self.prefix = prefix
        self.runner = runner
        # A step takes milliseconds. A killed worker's step is not waited on:
        # the due index calls it overdue after this long and a steward takes it.
        self.step_timeout_s = step_timeout_s

    def submit(self, name: str, args: tuple[str | int, ...], key: str, urgent: bool = False) -> None:
        """Enqueue the job (once: a second ask under the same key is dropped while the first is kept)."""
        # A deterministic id alone does not deduplicate in RQ (a second enqueue
        # pushes the id again, and the job runs twice); `unique` refuses it
        # while the first job is kept (queued, running, or its result for 10 min).
        queue = self.human_queue if urgent else self.queue
        job = queue.create_job(
            self.runner,
            args=(name, *args),
            kwargs={"prefix": self.prefix},
            job_id=job_id(self.prefix, name, key),
            description=f"{name}{args!r}",
            timeout={"step": self.step_timeout_s, "audit": AUDIT_TIMEOUT_S}.get(name),
            **_KEEP,
        )
        try:
            queue.enqueue_job(job, unique=True)
        except DuplicateJobError:
            log.debug("job %s %s is already enqueued", name, key)

    def later(self, job: Job, delay_s: float) -> None:
        """Put a copy of a job taken from these queues back on its queue in `delay_s` (RQ's scheduler counts seconds; 0: now).

        The job in hand then ends as done: the copy, under an id of its own, is
        what runs the work, so no worker waits for it.
        """
        attempt = int(job.meta.get("deferred", 0)) + 1
        queue = self.human_queue if job.origin == self.human_queue.name else self.queue
        base = job.meta.get("first_id", job.id)
        copy = queue.create_job(
            self.runner,
            args=job.args,
            kwargs=job.kwargs,
            job_id=f"{base}-later{attempt}",
            description=job.description,
            timeout=int(job.timeout) if job.timeout is not None else None,
            meta={"deferred": attempt, "first_id": base},
            **_KEEP,
        )
        if delay_s <= 0:
            queue.enqueue_job(copy)  # at the back of the queue, behind the jobs already waiting
        else:
            queue.schedule_job(copy, datetime.now(UTC) + timedelta(seconds=max(1.0, delay_s)))

    def release_later(self) -> None:
        """Put every job waiting in RQ's scheduler on its queue now (a failed shard answers again)."""
        for served in (self.human_queue, self.queue):
            registry = ScheduledJobRegistry(queue=served)
            for job_id in registry.get_job_ids():
                try:
                    registry.requeue(job_id)
                except InvalidJobOperation:  # the scheduler moved it meanwhile
                    continue


class InlineJobs(JobQueue):
    """Run jobs in this process, one after the other, as soon as they are asked for.

    A job asked for while another runs waits its turn instead of running
    inside it, so a chain of follow-ups (a game of many bot turns) never grows
    the stack, and one tournament is never stepped by itself reentrantly. A
    job already waiting under the same key is not queued twice. A failure is
    logged, like a failed RQ job, and is never the caller's error.
    """

    def __init__(self, dispatch: Dispatch) -> None:
        self._dispatch = dispatch
        self._local = threading.local()

    def submit(self, name: str, args: tuple[str | int, ...], key: str, urgent: bool = False) -> None:
        """Run the job now, or after the job in hand."""
        self._submit((name, key), name, args)

    def _submit(self, key: Hashable, name: str, args: tuple[object, ...]) -> None:
        pending: dict[Hashable, tuple[str, tuple[object, ...]]] | None = getattr(self._local, "pending", None)
        if pending is not None:
            pending.setdefault(key, (name, args))
            return
        self._local.pending = pending = {key: (name, args)}
        try:
            while pending:
                key = next(iter(pending))
                name, args = pending.pop(key)
                try:
                    self._dispatch(name, args)
                except Exception:  # noqa: BLE001 — like a failed RQ job: logged, never the client's error
                    log.exception("in-process job %s failed", key)
        finally:
            self._local.pending = None


class BackgroundJobs(InlineJobs):
    """In-process jobs on one thread of their own, for the embedded server.

    Run in the request's thread, a step of an all-bot game would play the whole
    game (and a tournament's start its whole round) before the request is
    answered: a client waits, or times out, for what it should watch happen.
    Here a request only queues its job; the jobs thread runs them one at a time,
    each with its follow-ups, as one RQ worker would. Steps read the version
    they act at, so a job queued twice costs a refused append, nothing more.
    """

    def __init__(self, dispatch: Dispatch) -> None:
        super().__init__(dispatch)
        self._queue: queue.SimpleQueue[tuple[Hashable, str, tuple[object, ...]]] = queue.SimpleQueue()
        threading.Thread(target=self._work, name="menagerie-jobs", daemon=True).start()

    def _submit(self, key: Hashable, name: str, args: tuple[object, ...]) -> None:
        if getattr(self._local, "pending", None) is not None:
            super()._submit(key, name, args)  # a follow-up of the job in hand, on the jobs thread
            return
        self._queue.put((key, name, args))

    def _work(self) -> None:
        while True:
            key, name, args = self._queue.get()
            super()._submit(key, name, args)
