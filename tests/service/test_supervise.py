"""`menagerie worker`'s children die with it; its scheduler outlives outages, and one that died is started again."""

from __future__ import annotations

import logging
import os
import signal
import subprocess
import sys
import threading
from typing import Any

import fakeredis
import pytest
from redis.exceptions import ConnectionError as RedisConnectionError
from rq import Queue, SimpleWorker

from service.adapters import outages
from service.adapters.outages import OutageLog, process_outages
from service.cli.supervise import SCHEDULER_CHECK_S, SteadyScheduler, revive_scheduler
from tests.support.processes import ROOT, has_ended, wait_for

# A stand-in for the worker: it handles SIGTERM (as RQ's worker does, so a forked child inherits a
# handler that does not exit), forks through the same hook, prints the child's id and waits.
WORKER = """
import os, signal, time
from service.cli.supervise import _die_with_parent
signal.signal(signal.SIGTERM, lambda signum, frame: None)
parent = os.getpid()
os.register_at_fork(after_in_child=lambda: _die_with_parent(parent))
child = os.fork()
if child == 0:
    while True:
        time.sleep(1)
print(child, flush=True)
time.sleep(120)
"""


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="SKIPPED: PR_SET_PDEATHSIG is Linux's")
def test_a_child_forked_by_the_worker_ends_when_the_worker_is_killed_9():
    worker = subprocess.Popen([sys.executable, "-c", WORKER], cwd=ROOT, stdout=subprocess.PIPE)
    assert worker.stdout is not None
    child = int(worker.stdout.readline())
    worker.kill()
    worker.wait(10)
    try:
        wait_for(lambda: has_ended(child), 10, "the child to end with the worker")
    finally:
        if not has_ended(child):
            os.kill(child, signal.SIGKILL)


def _failing(times: int, then: Any = None) -> Any:
    """A store command that fails `times` times (as in an outage), then answers."""
    calls = {"n": 0}

    def command(*_args: Any, **_kwargs: Any) -> Any:
        calls["n"] += 1
        if calls["n"] <= times:
            raise RedisConnectionError("Error 111 connecting to 127.0.0.1:6379. Connection refused.")
        return then

    return command


def test_the_scheduler_waits_out_an_outage_in_two_lines_of_log_and_goes_on_enqueueing(caplog, monkeypatch):
    monkeypatch.setattr(outages, "_process", None)  # as in a process of its own: the scheduler names its reporter
    redis = fakeredis.FakeRedis()
    scheduler = SteadyScheduler([Queue("q", connection=redis)], connection=redis, interval=0)
    scheduler._install_signal_handlers = lambda: None  # type: ignore[method-assign]
    enqueued: list[int] = []

    def enqueue() -> None:
        enqueued.append(1)
        if len(enqueued) == 8:
            scheduler._stop_requested = True

    scheduler.heartbeat = _failing(5)  # type: ignore[method-assign]
    scheduler.enqueue_scheduled_jobs = enqueue  # type: ignore[method-assign]
    with caplog.at_level(logging.INFO):
        scheduler.work()
    assert len(enqueued) == 8  # it went on after the outage, as it was before it
    lines = [r for r in caplog.records if "store" in r.getMessage()]
    assert [r.getMessage().split(":")[0].split(" (pid")[0] for r in lines] == ["the scheduler", "the scheduler"]
    assert "lost the store" in lines[0].getMessage() and "back after" in lines[1].getMessage()
    assert not any(r.exc_info or "Traceback" in r.getMessage() for r in caplog.records)


def test_a_worker_whose_scheduler_died_starts_another_at_its_next_check():
    class Died:
        def is_alive(self) -> bool:
            return False

    class Scheduler:
        def __init__(self) -> None:
            self._process: Any = Died()

        def acquire_locks(self, auto_start: bool = False) -> None:
            assert auto_start
            self._process = object()  # a new child

    worker = SimpleWorker([Queue("q", connection=fakeredis.FakeRedis())], connection=fakeredis.FakeRedis())
    worker.scheduler = Scheduler()  # type: ignore[assignment]
    assert revive_scheduler(worker)
    worker.scheduler._process = type("Alive", (), {"is_alive": lambda self: True})()  # type: ignore[union-attr]
    assert not revive_scheduler(worker)  # a live one is left alone


def test_the_worker_checks_its_scheduler_every_few_seconds_not_at_rq_s_ten_minute_maintenance():
    assert SCHEDULER_CHECK_S <= 5


def test_an_outage_is_two_lines_however_many_retries_it_takes(caplog):
    outage = OutageLog(logging.getLogger("test"), "the worker", clock=iter([10.0, 42.5]).__next__)
    with caplog.at_level(logging.INFO):
        for _ in range(120):
            outage.failed(RedisConnectionError("refused"))
        outage.answered()
        outage.answered()
    assert [r.getMessage() for r in caplog.records] == [
        "the worker lost the store: refused (retrying quietly until it answers)",
        "the worker has the store back after 32.5 s",
    ]


def test_the_parts_of_one_process_share_its_two_lines_of_an_outage(caplog, monkeypatch):
    monkeypatch.setattr(outages, "_process", None)
    worker, steward = process_outages("the worker"), process_outages("the steward")
    assert worker is steward  # the first to ask names the process's reporter
    with caplog.at_level(logging.WARNING):
        threads = [
            threading.Thread(target=part.failed, args=(RedisConnectionError("refused"),))
            for part in [worker, steward] * 5
        ]
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join()
        steward.answered()
        worker.answered()
    lines = [r.getMessage() for r in caplog.records]
    assert len(lines) == 2 and all(line.startswith(f"the worker (pid {os.getpid()}) ") for line in lines), lines
