"""The front's threads answer the loop as an executor would: results, errors, cancelled requests, a clean stop."""

from __future__ import annotations

import asyncio
import threading
from collections.abc import Awaitable, Callable
from typing import Any

import pytest

from service.http.app_threads import AppThreads


def on_threads(test: Callable[[AppThreads], Awaitable[Any]], threads: int = 2) -> Any:
    """Run `test` on a loop with its own threads, stopped afterwards."""

    async def main() -> Any:
        pool = AppThreads(threads, "test")
        pool.start(asyncio.get_running_loop())
        try:
            return await test(pool)
        finally:
            pool.stop()

    return asyncio.run(main())


def test_a_job_runs_off_the_loop_and_its_result_comes_back():
    async def test(pool: AppThreads) -> tuple[int, str]:
        return await pool.run(lambda a, b: (a + b, threading.current_thread().name), 2, 3)

    total, thread = on_threads(test)
    assert total == 5 and thread.startswith("test-")


def test_a_job_s_error_is_raised_where_it_is_awaited():
    async def test(pool: AppThreads) -> None:
        await pool.run(int, "not a number")

    with pytest.raises(ValueError):
        on_threads(test)


def test_jobs_run_side_by_side_on_as_many_threads():
    both_in = threading.Barrier(2, timeout=5)

    async def test(pool: AppThreads) -> list[bool]:
        return list(await asyncio.gather(pool.run(lambda: both_in.wait() >= 0), pool.run(lambda: both_in.wait() >= 0)))

    assert on_threads(test) == [True, True]


def test_a_job_cancelled_before_it_began_is_not_run_and_one_cancelled_while_running_is_dropped():
    release = threading.Event()
    ran: list[str] = []

    def hold() -> None:
        ran.append("held")
        release.wait(5)

    async def test(pool: AppThreads) -> list[str]:
        running = pool.run(hold)
        queued = pool.run(ran.append, "queued")
        while not ran:  # the one thread holds the first job
            await asyncio.sleep(0.001)
        running.cancel()
        queued.cancel()
        release.set()
        assert await pool.run(ran.append, "after") is None
        return ran

    assert on_threads(test, threads=1) == ["held", "after"]


def test_stopping_runs_the_jobs_already_queued_then_ends_every_thread():
    done: list[int] = []

    async def test(pool: AppThreads) -> AppThreads:
        for n in range(5):
            pool.run(done.append, n)
        return pool

    pool = on_threads(test, threads=2)
    assert sorted(done) == [0, 1, 2, 3, 4]
    assert not any(thread.is_alive() for thread in pool._threads)
