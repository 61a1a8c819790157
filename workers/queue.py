"""Two ways to run a game's steps: RQ queues served by `menagerie worker`, or in-process."""

from __future__ import annotations

import logging
import threading
from collections.abc import Callable, Hashable

from rq import Queue, Retry

log = logging.getLogger(__name__)

Step = Callable[[str, int], str]


def step_job_id(prefix: str, game_id: str, version: int) -> str:
    """Return the deterministic id of a game's step job at a version."""
    return f"{prefix}-step-{game_id}-{version}"


def enqueue_job(
    queue: Queue, function: str, *args: object, prefix: str, job_id: str, job_timeout: int | None = None
) -> None:
    """Enqueue an idempotent job with the project's one policy: a deterministic id, retries, kept results."""
    queue.enqueue(
        function,
        *args,
        prefix=prefix,
        job_id=job_id,
        retry=Retry(max=3, interval=[1, 5, 15]),
        job_timeout=job_timeout,
        result_ttl=600,
        failure_ttl=7 * 24 * 3600,
    )


class RunInTurn:
    """Run work in this thread one piece after the other.

    Work asked for while a piece runs waits its turn instead of running inside
    it, so a chain of follow-ups (a game of many bot turns) never grows the
    stack. A piece already waiting under the same key is not queued twice. A
    failure is logged, like a failed RQ job, and is never the caller's error.
    """

    def __init__(self) -> None:
        self._local = threading.local()

    def submit(self, key: Hashable, work: Callable[[], object]) -> None:
        """Run `work` now, or after the piece in hand."""
        pending: dict[Hashable, Callable[[], object]] | None = getattr(self._local, "pending", None)
        if pending is not None:
            pending.setdefault(key, work)
            return
        self._local.pending = pending = {key: work}
        try:
            while pending:
                key = next(iter(pending))
                work = pending.pop(key)
                try:
                    work()
                except Exception:  # noqa: BLE001 — like a failed RQ job: logged, never the client's error
                    log.exception("in-process job %s failed", key)
        finally:
            self._local.pending = None


class RQJobs:
    """Enqueue steps on an RQ queue; a retried or doubled job is harmless (version check).

    The queue is named after the key prefix, so that deployments (and test
    runs) sharing one Redis never take each other's jobs.
    """

    def __init__(self, queue: Queue, prefix: str) -> None:
        self.queue = queue
        self.prefix = prefix

    def enqueue_step(self, game_id: str, version: int) -> None:
        """Enqueue one step, with a deterministic id and retries."""
        enqueue_job(
            self.queue,
            "workers.jobs.step",
            game_id,
            version,
            prefix=self.prefix,
            job_id=step_job_id(self.prefix, game_id, version),
            # A step takes milliseconds; a short timeout lets RQ see a crashed
            # worker's job as abandoned, and retry it, within a minute.
            job_timeout=30,
        )


class InlineJobs:
    """Run steps in this process, one after the other, as soon as they are asked for."""

    def __init__(self) -> None:
        self.step: Step | None = None
        self._turns = RunInTurn()

    def enqueue_step(self, game_id: str, version: int) -> None:
        """Run the step now, or after the step that asked for it."""
        assert self.step is not None, "InlineJobs.step must be wired before use"
        step = self.step
        self._turns.submit(("step", game_id, version), lambda: step(game_id, version))
