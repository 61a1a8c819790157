"""`menagerie worker`: an RQ worker that outlives Redis outages instead of exiting with them."""

from __future__ import annotations

import ctypes
import logging
import os
import signal
import sys
import time
import uuid

from redis import Redis
from redis.exceptions import ConnectionError as RedisConnectionError
from redis.exceptions import TimeoutError as RedisTimeoutError
from rq import SimpleWorker

from service.adapters.jobs import worker_queues

log = logging.getLogger(__name__)

PR_SET_PDEATHSIG = 1  # from <linux/prctl.h>

# RQ's worker heartbeat; its dequeue blocks for up to 15 s less (RQ's rule), and the
# worker's queue client is made to outlast that block (`build_from_urls`'s queue_blocks_for_s).
WORKER_TTL_S = 60


def _die_with_parent(parent: int) -> None:
    """In a child of the worker (RQ's scheduler), have the kernel send SIGTERM when the worker dies.

    A `kill -9` of the worker gives it no chance to stop its scheduler; without
    this the scheduler lives on as an orphan, holding the queue's scheduler lock.
    """
    if not sys.platform.startswith("linux"):
        return
    # The child inherits the worker's SIGTERM handler, which would only mark its own copy of the
    # worker as stopping. Until RQ's scheduler installs its handler (a clean stop that releases the
    # scheduler lock), the death signal must end the child outright.
    signal.signal(signal.SIGTERM, signal.SIG_DFL)
    ctypes.CDLL(None, use_errno=True).prctl(PR_SET_PDEATHSIG, signal.SIGTERM)
    if os.getppid() != parent:  # the worker died before the request took effect
        os._exit(1)


def run_worker(redis: Redis, prefix: str, max_backoff: float = 10.0) -> int:
    """Serve the prefix's queue until asked to stop; after an outage, wait for Redis and start again."""
    parent = os.getpid()
    os.register_at_fork(after_in_child=lambda: _die_with_parent(parent))
    backoff = 0.5
    while True:
        # A fresh name each time: the last incarnation may still be listed as alive.
        # Human games' steps first: a flood of all-bot games waits behind them, never in front.
        worker = SimpleWorker(
            worker_queues(prefix, redis),
            connection=redis,
            name=f"{prefix}-{uuid.uuid4().hex[:12]}",
            worker_ttl=WORKER_TTL_S,
        )
        started = time.monotonic()
        try:
            # SimpleWorker runs jobs in this process, so its aggregate cache lasts
            # from job to job. RQ's own loop rides out outages while it waits for
            # a job, but quits on one met while it runs or reports a job.
            worker.work(with_scheduler=True)
        except (RedisConnectionError, RedisTimeoutError) as error:
            log.warning("worker lost the store: %s", error)
        finally:
            # RQ stops its scheduler on a clean stop; after an error the next
            # incarnation starts one of its own, so this one must not live on.
            scheduler = worker.scheduler._process if worker.scheduler is not None else None
            if scheduler is not None and scheduler.is_alive():
                worker.stop_scheduler()
        # A signal asked us to stop. RQ has no public accessor; `_stop_requested` is set only when the
        # signal came during a job, the date of the request whether busy or idle.
        if worker._shutdown_requested_date is not None:
            return 0
        if time.monotonic() - started > 60:
            backoff = 0.5
        _wait_for(redis, backoff, max_backoff)
        backoff = min(max_backoff, backoff * 2)


def _wait_for(redis: Redis, first: float, most: float) -> None:
    """Return once Redis answers a PING, retrying with a growing pause."""
    pause = first
    while True:
        time.sleep(pause)
        try:
            redis.ping()
        except (RedisConnectionError, RedisTimeoutError) as error:
            log.warning("store unavailable (%s); retrying in %.1f s", error, min(most, pause * 2))
            pause = min(most, pause * 2)
            continue
        log.info("store is back; the worker starts again")
        return
