"""The async front reads a body by a deadline and a minimum rate, into buffers bounded per request and per process."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator

import orjson
import pytest

from service.http.bodies import DRAIN_BYTES
from service.http.front_bodies import BodiesFull, BodyBuffers, BodyLimits, SlowBody, read_body

KEEP = 64 * 1024
QUICK = BodyLimits(grace_s=0.05, min_rate=1000.0, deadline_s=5.0)


class Body:
    """A body that sends its chunks, then either ends or stalls (as a client that pauses)."""

    def __init__(self, chunks: list[bytes], stalls: bool = False) -> None:
        self.chunks, self.stalls = chunks, stalls
        self.asked = 0

    async def _iterate(self) -> AsyncIterator[bytes]:
        for chunk in self.chunks:
            self.asked += 1
            yield chunk
        if self.stalls:
            await asyncio.Event().wait()  # never set: the client paused for good

    def __aiter__(self) -> AsyncIterator[bytes]:
        return self._iterate()


def read(body: Body, length: int | None, buffers: BodyBuffers) -> tuple[bytes, int]:
    async def reading() -> tuple[bytes, int]:
        # The bound is far beyond the limits: only a reader that never gives up meets it.
        return await asyncio.wait_for(read_body(aiter(body), length, KEEP, buffers), 60)

    return asyncio.run(reading())


def test_a_body_that_pauses_is_refused_with_a_408_once_it_falls_behind_the_minimum_rate():
    buffers = BodyBuffers(QUICK)
    with pytest.raises(SlowBody) as refused:
        read(Body([b"{", b"x" * 10], stalls=True), 1000, buffers)
    status, headers, answer = refused.value.answer()
    assert status == 408 and ("connection", "close") in headers
    assert orjson.loads(answer)["error"]["code"] == "request_timeout"
    assert buffers.held == 0  # what it had sent is let go


def test_a_body_trickled_a_byte_at_a_time_is_refused_too_however_long_it_would_go_on():
    async def trickle() -> AsyncIterator[bytes]:
        while True:
            await asyncio.sleep(0.01)
            yield b"x"

    async def reading() -> tuple[bytes, int]:
        return await asyncio.wait_for(read_body(trickle(), None, KEEP, BodyBuffers(QUICK)), 60)

    with pytest.raises(SlowBody):
        asyncio.run(reading())


def test_a_body_at_the_rate_comes_whole():
    buffers = BodyBuffers(QUICK)
    assert read(Body([b'{"a":', b" 1}"]), 8, buffers) == (b'{"a": 1}', 8)
    assert buffers.held == 8  # held until the request is answered


def test_a_stated_length_past_the_drain_is_not_read_at_all():
    body = Body([b"x" * 65536] * 1600)  # 100 MiB
    assert read(body, 100 * 1024 * 1024, BodyBuffers(QUICK)) == (b"", 100 * 1024 * 1024)
    assert body.asked == 0


def test_a_body_over_the_app_s_limit_is_counted_not_kept_and_read_no_further_than_the_drain():
    buffers = BodyBuffers(QUICK)
    body = Body([b"x" * 65536] * 1600)  # chunked, no stated length
    kept, size = read(body, None, buffers)
    assert kept == b"" and DRAIN_BYTES < size <= DRAIN_BYTES + 65536
    assert body.asked == DRAIN_BYTES // 65536 + 1
    assert buffers.most <= KEEP and buffers.held == 0


def test_a_process_holds_bodies_up_to_its_bound_then_answers_503_busy():
    buffers = BodyBuffers(BodyLimits(process_bytes=1000))
    assert read(Body([b"x" * 600]), 600, buffers) == (b"x" * 600, 600)  # held: its request is not yet answered
    with pytest.raises(BodiesFull) as refused:
        read(Body([b"y" * 600]), 600, buffers)
    status, headers, answer = refused.value.answer()
    assert status == 503 and ("retry-after", "1") in headers and ("connection", "close") in headers
    assert orjson.loads(answer)["error"]["code"] == "server_busy"
    assert buffers.held == 600
    buffers.give(600)  # the first request answered
    assert read(Body([b"y" * 600]), 600, buffers)[1] == 600
