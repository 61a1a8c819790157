"""Request bodies as the async front reads them: by a deadline, at a minimum rate, into bounded buffers.

The front reads a request's body on the event loop before a thread takes the
request (service/http/front.py). A client that sends slowly, or sends a huge
body, must not hold memory or a request for long:

- **a deadline and a minimum rate**: a body must arrive at `min_rate` bytes a
  second or faster, counted from the request's start after `grace_s`, and
  whole within `deadline_s`; a body that falls behind is answered 408
  `request_timeout` and its connection closed. One byte a second is closed
  after the grace; a 64 KiB body at the minimum rate takes 21 s.
- **bounded buffering per request**: only a body the app may take (up to its
  `MAX_CONTENT_LENGTH`) is kept; one over it is counted, not kept (the app
  answers 413 by its size), and read no further than `DRAIN_BYTES`, where the
  413 closes the connection. A stated `Content-Length` over `DRAIN_BYTES` is
  not read at all.
- **bounded buffering per process**: the bodies a process holds at once are
  at most `process_bytes`; a request whose body would go past it is answered
  503 `server_busy` (with Retry-After), and its connection closed.
"""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator
from dataclasses import dataclass
from typing import Any

import orjson

from service.http.bodies import DRAIN_BYTES

BUSY_RETRY_S = 1


@dataclass(frozen=True)
class BodyLimits:
    """How fast, how soon and how much of request bodies a process reads."""

    grace_s: float = 5.0
    min_rate: float = 4096.0  # bytes a second, from the request's start, once the grace is over
    deadline_s: float = 30.0
    process_bytes: int = 32 * 1024 * 1024


class BodyBuffers:
    """The body bytes one process holds at once, at most `limits.process_bytes`."""

    def __init__(self, limits: BodyLimits) -> None:
        self.limits = limits
        self.held = 0
        self.most = 0  # the most held at once, for the tests and the bench

    def take(self, size: int) -> None:
        """Hold `size` more bytes, or raise `BodiesFull` when that goes past the process's bound."""
        if self.held + size > self.limits.process_bytes:
            raise BodiesFull
        self.held += size
        self.most = max(self.most, self.held)

    def give(self, size: int) -> None:
        """Let go of `size` bytes."""
        self.held -= size


class BodyRefused(Exception):
    """The front answers the request itself, without the app: its body was too slow or found no room."""

    status = 400
    code, message = "bad_request", ""
    headers: tuple[tuple[str, str], ...] = ()

    def answer(self) -> tuple[int, list[tuple[str, str]], bytes]:
        """Return the JSON error answer; the connection is closed after it (the body was not read to its end)."""
        body = orjson.dumps({"error": {"code": self.code, "message": self.message, "details": {}}})
        headers = [("content-type", "application/json"), ("connection", "close"), *self.headers]
        return self.status, headers, body


class SlowBody(BodyRefused):
    """The body fell behind the minimum rate or the deadline."""

    status, code = 408, "request_timeout"
    message = "the request's body came too slowly; send it again, faster"


class BodiesFull(BodyRefused):
    """The process holds as many bodies as it may."""

    status, code = 503, "server_busy"
    message = "this server holds as many request bodies as it may; retry shortly"
    headers = (("retry-after", str(BUSY_RETRY_S)),)


async def read_body(
    chunks: AsyncIterator[bytes], length: int | None, keep: int, buffers: BodyBuffers
) -> tuple[bytes, int]:
    """Read a body (`length`: as stated, if it is) by the limits; return what is kept of it and its size.

    What is kept is held in `buffers` until the caller gives it back. Raises `SlowBody` or `BodiesFull`.
    """
    if length is not None and length > DRAIN_BYTES:
        return b"", length  # its size alone gets it a 413, and the answer closes the connection
    limits = buffers.limits
    start = asyncio.get_running_loop().time()
    parts: list[bytes] = []
    size = held = 0
    try:
        # One timer for the whole body (not a task a chunk, as `wait_for`), moved on as bytes come.
        async with asyncio.timeout(None) as timer:
            while size != length and size <= DRAIN_BYTES:
                timer.reschedule(start + min(limits.deadline_s, limits.grace_s + size / limits.min_rate))
                try:
                    chunk = await anext(chunks)
                except StopAsyncIteration:
                    break
                size += len(chunk)
                if size <= keep:
                    buffers.take(len(chunk))
                    held += len(chunk)
                    parts.append(chunk)
                elif parts:  # over what the app takes: its size is enough for the 413
                    buffers.give(held)
                    parts, held = [], 0
    except TimeoutError:
        buffers.give(held)
        raise SlowBody from None
    except BaseException:
        buffers.give(held)
        raise
    return b"".join(parts), size


def stated_length(environ: dict[str, Any]) -> int | None:
    """Return the body's length as its Content-Length states it, if it does (and not chunked, which wins)."""
    if "HTTP_TRANSFER_ENCODING" in environ:
        return None
    try:
        return int(environ["CONTENT_LENGTH"])
    except (KeyError, ValueError):
        return None
