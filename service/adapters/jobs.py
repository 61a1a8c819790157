"""Two ways to run the jobs commands ask for: RQ queues served by `menagerie worker`, or in-process.

Every job is idempotent, so a job delivered twice (RQ is at-least-once) is
harmless: a step re-checks the version it was asked for, a rating appends
with the game id as idempotency key, a tournament step replays and re-checks
every game of its round. The jobs themselves, by name, are the bootstrap's
table `JOBS`; `workers/jobs.py` holds their RQ entry points.
"""

from __future__ import annotations

import logging
import queue
import threading
from collections.abc import Callable, Hashable

from redis import Redis
from rq import Queue, Retry
from rq.exceptions import DuplicateJobError

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


def step_job_id(prefix: str, game_id: str, version: int) -> str:
    """Return the deterministic id of a game's step job at a version."""
    return f"{prefix}-step-{game_id}-{version}"


def rate_job_id(prefix: str, game_id: str) -> str:
    """Return the deterministic id of the job that rates a game."""
    return f"{prefix}-rate-{game_id}"


def advance_job_id(prefix: str, tournament_id: str, reason: str) -> str:
    """Return the id of a tournament step, named after what asked for it (a game id, `v<version>`)."""
    return f"{prefix}-tournament-{tournament_id}-{reason}"


def audit_job_id(prefix: str, audit_id: str, run: int) -> str:
    """Return the id of an audit's job: each start of the audit (`run`) is a job of its own."""
    return f"{prefix}-{audit_id}-{run}"


# An audit of a few thousand games takes minutes; a job past this is stopped (its record then stalls).
AUDIT_TIMEOUT_S = 3600


class RQJobs:
    """Enqueue jobs on the key prefix's RQ queue, with deterministic ids and retries.

    The queue is named after the key prefix, so that deployments (and test
    runs) sharing one Redis never take each other's jobs.
    """

    def __init__(self, queue: Queue, prefix: str, step_timeout_s: int = 30) -> None:
        self.queue = queue
        self.human_queue = Queue(human_queue_name(prefix), connection=queue.connection)
        self.prefix = prefix
        # A step takes milliseconds. A killed worker's step is not waited on:
        # the due index calls it overdue after this long and a steward takes it.
        self.step_timeout_s = step_timeout_s

    def step(self, game_id: str, version: int, humans: bool = False) -> None:
        """Enqueue one step of a game at a version (once: a second ask for the same step is dropped).

        Steps of games with human seats go to the queue workers serve first.
        """
        job_id = step_job_id(self.prefix, game_id, version)
        queue = self.human_queue if humans else self.queue
        self._enqueue("workers.jobs.step", (game_id, version), job_id, timeout=self.step_timeout_s, queue=queue)

    def rate(self, game_id: str) -> None:
        """Enqueue the rating of a finished game."""
        self._enqueue("workers.jobs.rate_game", (game_id,), rate_job_id(self.prefix, game_id))

    def advance(self, tournament_id: str, reason: str) -> None:
        """Enqueue a tournament step."""
        job_id = advance_job_id(self.prefix, tournament_id, reason)
        self._enqueue("workers.jobs.advance_tournament", (tournament_id,), job_id)

    def audit(self, audit_id: str, run: int) -> None:
        """Enqueue an audit's job (the audit's record says what to audit)."""
        job_id = audit_job_id(self.prefix, audit_id, run)
        self._enqueue("workers.jobs.audit", (audit_id,), job_id, timeout=AUDIT_TIMEOUT_S)

    def _enqueue(
        self,
        function: str,
        args: tuple[object, ...],
        job_id: str,
        timeout: int | None = None,
        queue: Queue | None = None,
    ) -> None:
        # A deterministic id alone does not deduplicate in RQ (a second enqueue
        # pushes the id again, and the job runs twice); `unique` refuses it
        # while the first job is kept (queued, running, or its result for 10 min).
        try:
            (queue or self.queue).enqueue(
                function,
                *args,
                prefix=self.prefix,
                job_id=job_id,
                unique=True,
                retry=Retry(max=3, interval=[1, 5, 15]),
                job_timeout=timeout,
                result_ttl=600,
                failure_ttl=7 * 24 * 3600,
            )
        except DuplicateJobError:
            log.debug("job %s is already enqueued", job_id)


class InlineJobs:
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

    def step(self, game_id: str, version: int, humans: bool = False) -> None:
        """Run the step now, or after the job in hand."""
        self._submit(("step", game_id, version), "step", (game_id, version))

    def rate(self, game_id: str) -> None:
        """Rate the game now, or after the job in hand."""
        self._submit(("rate", game_id), "rate", (game_id,))

    def advance(self, tournament_id: str, reason: str) -> None:
        """Step the tournament now, or after the job in hand."""
        self._submit(("advance", tournament_id), "advance", (tournament_id,))

    def audit(self, audit_id: str, run: int) -> None:
        """Run the audit now, or after the job in hand."""
        self._submit(("audit", audit_id, run), "audit", (audit_id,))

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
