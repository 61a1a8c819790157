"""Two ways to run a game's steps: RQ queues served by `menagerie worker`, or in-process."""

from __future__ import annotations

import logging
import threading
from collections import deque
from typing import Callable

from rq import Queue, Retry

log = logging.getLogger(__name__)

Step = Callable[[str, int], str]


def step_job_id(prefix: str, game_id: str, version: int) -> str:
    """Return the deterministic id of a game's step job at a version."""
    return f"{prefix}-step-{game_id}-{version}"


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
        self.queue.enqueue(
            "workers.jobs.step",
            game_id,
            version,
            prefix=self.prefix,
            job_id=step_job_id(self.prefix, game_id, version),
            retry=Retry(max=3, interval=[1, 5, 15]),
            # A step takes milliseconds; a short timeout lets RQ see a crashed
            # worker's job as abandoned, and retry it, within a minute.
            job_timeout=30,
            result_ttl=600,
            failure_ttl=7 * 24 * 3600,
        )


class InlineJobs:
    """Run steps in this process, one after the other, as soon as they are asked for.

    A step asks for the next one; running them from a queue, not by recursion,
    keeps a game of many bot turns from growing the stack.
    """

    def __init__(self) -> None:
        self.step: Step | None = None
        self._local = threading.local()

    def enqueue_step(self, game_id: str, version: int) -> None:
        """Run the step now, or after the step that asked for it."""
        pending = getattr(self._local, "pending", None)
        if pending is not None:
            pending.append((game_id, version))
            return
        self._local.pending = pending = deque([(game_id, version)])
        try:
            while pending:
                self._run(*pending.popleft())
        finally:
            self._local.pending = None

    def _run(self, game_id: str, version: int) -> None:
        assert self.step is not None, "InlineJobs.step must be wired before use"
        try:
            self.step(game_id, version)
        except Exception:  # noqa: BLE001 — like a failed RQ job: logged, never the client's error
            log.exception("step of game %s at version %s failed", game_id, version)
