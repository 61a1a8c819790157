"""`menagerie worker`: an RQ worker that outlives Redis outages instead of exiting with them.

Its scheduler (RQ's, in a child process) outlives them too: RQ's own ends at the
first failed command, after logging its traceback twice, and the worker starts
another only at its next maintenance, up to ten minutes later. `SteadyScheduler`
waits an outage out instead, and a watchdog thread starts a scheduler that died
anyway (killed) within `SCHEDULER_CHECK_S`. Each process logs an outage in two
lines, when it begins and when it ends, not a line a retry and not a pair a
component: the worker's loop, its steward and its watchdog share the process's
reporter (`process_outages`); the scheduler, a process of its own, has its own.
"""

from __future__ import annotations

import ctypes
import logging
import os
import signal
import sys
import threading
import time
import uuid
from typing import Any

from redis import Redis
from redis.exceptions import ConnectionError as RedisConnectionError
from redis.exceptions import TimeoutError as RedisTimeoutError
from rq import SimpleWorker
from rq.scheduler import RQScheduler

from service.adapters.connections import STORE_UNAVAILABLE
from service.adapters.jobs import worker_queues
from service.adapters.outages import OutageLog, process_outages

log = logging.getLogger(__name__)

PR_SET_PDEATHSIG = 1  # from <linux/prctl.h>

# RQ's worker heartbeat; its dequeue blocks for up to 15 s less (RQ's rule), and the
# worker's queue client is made to outlast that block (`build_from_urls`'s queue_blocks_for_s).
WORKER_TTL_S = 60
# How often the worker looks for a scheduler to start (its child died, or another worker's lock expired).
SCHEDULER_CHECK_S = 2.0


class SteadyScheduler(RQScheduler):
    """RQ's scheduler, waiting out an outage (two lines of log) rather than dying of it (a traceback, twice)."""

    def work(self) -> None:
        """Enqueue the scheduled jobs every `interval` until asked to stop, whatever the store does meanwhile."""
        self._install_signal_handlers()
        outage = process_outages("the scheduler")
        born = False
        while not self._stop_requested:
            try:
                if not born:
                    self.register_birth()
                    born = True
                if self.should_reacquire_locks:
                    self.acquire_locks()
                self.heartbeat()
                self.enqueue_scheduled_jobs()
            except STORE_UNAVAILABLE as error:
                outage.failed(error)
            else:
                outage.answered()
            time.sleep(self.interval)
        try:
            self.stop()
        except STORE_UNAVAILABLE as error:  # its locks expire by themselves
            log.warning("the scheduler stopped without the store: %s", error)


class Worker(SimpleWorker):
    """RQ's SimpleWorker, with a `SteadyScheduler` (the last incarnation's, if it still runs)."""

    inherited: SteadyScheduler | None = None

    def teardown(self) -> None:
        """RQ's, but a worker that ends without being asked to (an outage) leaves its scheduler running."""
        keep = self.scheduler if self._shutdown_requested_date is None else None
        if keep is None:
            super().teardown()
            return
        self.scheduler = None
        try:
            super().teardown()
        finally:
            self.scheduler = keep

    def _start_scheduler(self, burst: bool = False, logging_level: Any = "INFO", *args: Any, **kwargs: Any) -> None:
        if burst:  # RQ's own enqueues the scheduled jobs once, in this process: nothing to outlive
            super()._start_scheduler(burst, logging_level, *args, **kwargs)
            return
        if self.inherited is not None:  # the last incarnation's, which outlived what ended it
            self.scheduler = self.inherited
            return
        # RQ's own, but for the scheduler's class: it has no setting for it.
        self.scheduler = SteadyScheduler(
            self.queues, connection=self.connection, logging_level=logging_level, serializer=self.serializer
        )
        self.scheduler.acquire_locks(auto_start=True)


class OutagesOnce(logging.Filter):
    """Let RQ's own lines about a store outage (a retry each, tracebacks) through only as `outage`'s two."""

    def __init__(self, outage: OutageLog) -> None:
        super().__init__()
        self.outage = outage

    def filter(self, record: logging.LogRecord) -> bool:
        """Drop a record about the store being unreachable, noting the outage instead."""
        error = record.exc_info[1] if record.exc_info else None
        if isinstance(error, STORE_UNAVAILABLE):
            self.outage.failed(error)
            return False
        message = record.getMessage()
        if "could not connect to Redis" in message or "Could not connect to Redis" in message:
            self.outage.failed(ConnectionError(message.split(":", 1)[-1].strip()))
            return False
        return True


def keep_scheduler(worker: SimpleWorker, stop: threading.Event, every_s: float = SCHEDULER_CHECK_S) -> None:
    """Until `stop` is set, start the worker's scheduler whenever none runs and this worker can take the lock.

    During an outage it also pings the store: RQ's own loop rides one out without a word when it
    comes back, so the line that the process has the store again is this check's.
    """
    outage = process_outages()
    while not stop.wait(every_s):
        if outage.down:
            try:
                worker.connection.ping()
            except STORE_UNAVAILABLE as error:
                outage.failed(error)
                continue
            outage.answered()
        revive_scheduler(worker)


def revive_scheduler(worker: SimpleWorker) -> bool:
    """Start the worker's scheduler if it has one that is not running and it gets the lock; tell whether it did."""
    scheduler = worker.scheduler
    if scheduler is None or worker._shutdown_requested_date is not None:
        return False
    process = scheduler._process
    if process is not None and process.is_alive():  # is_alive also reaps a child that died
        return False
    try:
        scheduler.acquire_locks(auto_start=True)
    except STORE_UNAVAILABLE:
        return False  # the worker's own loop meets the outage
    return scheduler._process is not process


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
    outage = process_outages("the worker")
    scheduler: SteadyScheduler | None = None
    quiet = OutagesOnce(outage)
    for name in ("rq.worker", "rq.scheduler", "rq.queue", "rq.job"):
        logging.getLogger(name).addFilter(quiet)
    backoff = 0.5
    while True:
        # A fresh name each time: the last incarnation may still be listed as alive.
        # Human games' steps first: a flood of all-bot games waits behind them, never in front.
        worker = Worker(
            worker_queues(prefix, redis),
            connection=redis,
            name=f"{prefix}-{uuid.uuid4().hex[:12]}",
            worker_ttl=WORKER_TTL_S,
        )
        worker.inherited = scheduler
        started = time.monotonic()
        watching = threading.Event()
        watchdog = threading.Thread(target=keep_scheduler, args=(worker, watching), name="scheduler-watchdog")
        watchdog.daemon = True
        watchdog.start()
        try:
            # SimpleWorker runs jobs in this process, so its aggregate cache lasts
            # from job to job. RQ's own loop rides out outages while it waits for
            # a job, but quits on one met while it runs or reports a job.
            worker.work(with_scheduler=True)
        except (RedisConnectionError, RedisTimeoutError) as error:
            outage.failed(error)
        finally:
            watching.set()
            watchdog.join()
            # RQ stops its scheduler on a clean stop. After an outage the scheduler (a
            # SteadyScheduler, which waited it out) goes on under the next incarnation:
            # stopped now, its locks would keep any other from starting for a minute.
            running = worker.scheduler if isinstance(worker.scheduler, SteadyScheduler) else None
            if running is None or running._process is None or not running._process.is_alive():
                scheduler = None  # the next incarnation (or the watchdog) starts one
            elif worker._shutdown_requested_date is not None:
                worker.stop_scheduler()
            else:
                scheduler = running
        # A signal asked us to stop. RQ has no public accessor; `_stop_requested` is set only when the
        # signal came during a job, the date of the request whether busy or idle.
        if worker._shutdown_requested_date is not None:
            return 0
        if time.monotonic() - started > 60:
            backoff = 0.5
        _wait_for(redis, backoff, max_backoff, outage)
        backoff = min(max_backoff, backoff * 2)


def _wait_for(redis: Redis, first: float, most: float, outage: OutageLog) -> None:
    """Return once Redis answers a PING, retrying with a growing pause (the outage logged once, not each retry)."""
    pause = first
    while True:
        time.sleep(pause)
        try:
            redis.ping()
        except (RedisConnectionError, RedisTimeoutError) as error:
            outage.failed(error)
            pause = min(most, pause * 2)
            continue
        outage.answered()
        return
