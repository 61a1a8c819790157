"""The threads the async front runs the Flask app on: a job goes in on one queue, its answer comes back in one wakeup.

`loop.run_in_executor` with a `ThreadPoolExecutor` does the same in about
100,000 instructions a call (callgrind, a job that returns at once): a
concurrent future with its own lock and condition, an asyncio future chained
to it both ways, a semaphore to tell whether to start a thread. That was
about as much as the rest of the front. Here a job is a tuple on a
`SimpleQueue` that the threads wait on, and its answer one
`call_soon_threadsafe` that settles the future the loop awaits: about 13,000.
"""

from __future__ import annotations

import asyncio
import threading
from collections.abc import Callable
from queue import SimpleQueue
from typing import Any, TypeVar

T = TypeVar("T")
_Job = tuple[asyncio.Future[Any], Callable[..., Any], tuple[Any, ...]]


class AppThreads:
    """A fixed number of threads running jobs for one event loop, first come first served."""

    def __init__(self, threads: int, name: str) -> None:
        self._jobs: SimpleQueue[_Job | None] = SimpleQueue()
        self._threads = [threading.Thread(target=self._serve, name=f"{name}-{n}", daemon=True) for n in range(threads)]
        self._loop: asyncio.AbstractEventLoop | None = None

    def start(self, loop: asyncio.AbstractEventLoop) -> None:
        """Start the threads; their answers go to `loop`, the one `run` is called on."""
        self._loop = loop
        for thread in self._threads:
            thread.start()

    def run(self, function: Callable[..., T], *args: Any) -> asyncio.Future[T]:
        """Return a future of `function(*args)`, called on one of the threads (on the loop only)."""
        assert self._loop is not None, "start the threads first"
        future: asyncio.Future[T] = self._loop.create_future()
        self._jobs.put((future, function, args))
        return future

    def stop(self) -> None:
        """Run the jobs already queued, then end the threads (at the loop's end, as an executor's shutdown would)."""
        for _ in self._threads:
            self._jobs.put(None)
        for thread in self._threads:
            if thread.is_alive():
                thread.join()

    def _serve(self) -> None:
        loop, jobs = self._loop, self._jobs
        assert loop is not None
        while (job := jobs.get()) is not None:
            future, function, args = job
            if future.cancelled():  # its request went before it began (an executor drops it too)
                continue
            try:
                result = function(*args)
            except BaseException as error:  # noqa: BLE001 - the awaiting request raises it, as from an executor
                _answer(loop, _fail, future, error)
            else:
                _answer(loop, _settle, future, result)


def _answer(loop: asyncio.AbstractEventLoop, settle: Callable[..., None], *args: Any) -> None:
    try:
        loop.call_soon_threadsafe(settle, *args)
    except RuntimeError:  # the loop is closed: no request waits any more
        pass


def _settle(future: asyncio.Future[Any], result: Any) -> None:
    if not future.done():  # cancelled while it ran
        future.set_result(result)


def _fail(future: asyncio.Future[Any], error: BaseException) -> None:
    if not future.done():
        future.set_exception(error)
