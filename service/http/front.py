"""The async front granian serves (RSGI): live streams on the event loop, every other request by the Flask app.

Each request goes to the WSGI app on a thread pool, as granian's own WSGI
interface would run it, so everything the app does (routing, validation,
auth, rate limits, errors, headers) stays in one place. A stream request
comes back from the app with its `Subscription` instead of a body (the app
sees `FANOUT` in its environ), and the front streams it from this process's
`Feeds`: a watcher costs a coroutine and a socket, not a thread, and a game
costs a subscription on its shard's one connection in the process, however
many watch it.

RSGI rather than ASGI: it is granian's own interface, the one it runs with
the least Python between the socket and the app (no ASGI message dicts), and
it tells a stream when its client went away.
"""

from __future__ import annotations

import asyncio
import contextlib
import io
import logging
import sys
from collections.abc import Callable, Iterable, Iterator
from typing import Any, cast

from flask import Flask
from granian.rsgi import HTTPProtocol, ProtocolClosed, Scope, WebsocketProtocol

from domain.events import RecordedEvent
from service.adapters.connections import connect_async
from service.http import MAX_BODY_BYTES
from service.http.app_threads import AppThreads
from service.http.bodies import DRAIN_BYTES
from service.http.fanout import HEARTBEAT_S, Feeds
from service.http.front_bodies import BodyBuffers, BodyLimits, BodyRefused, read_body, stated_length
from service.http.sockets import serve as serve_socket
from service.http.streams import FANOUT
from service.http.subscriptions import Handoff, Subscription

# The environ's key for each header field seen: the two PEP 3333 names without `HTTP_`, then the rest as they come.
_ENVIRON_KEYS = {"content-type": "CONTENT_TYPE", "content-length": "CONTENT_LENGTH"}
_KEYS_KEPT = 256
# What every request's environ holds alike.
_EVERY_ENVIRON: dict[str, Any] = {
    "SCRIPT_NAME": "",
    "wsgi.version": (1, 0),
    "wsgi.multithread": True,
    "wsgi.multiprocess": True,
    "wsgi.run_once": False,
    "wsgi.input_terminated": True,  # the input ends where the body does, chunked or not
}
_PROTOCOLS = {"1.1": "HTTP/1.1", "1": "HTTP/1", "2": "HTTP/2"}
# The host and port of each address seen lately (clients and this server's own).
_ADDRESSES: dict[str, tuple[str, str]] = {}
_ADDRESSES_KEPT = 4096
log = logging.getLogger(__name__)
# The fan-out's connections a process (a node, on a cluster): its subscriptions', one for quiet games' keys, one spare.
FANOUT_CONNECTIONS = 3
# Headers of the app's answer the front sets itself on a stream.
_STREAM_DROPS = {"content-length"}


class Front:
    """granian's RSGI target: the Flask app on `threads` threads, its live streams on the loop."""

    def __init__(self, app: Flask, threads: int, redis_url: str, prefix: str) -> None:
        self.app = app
        self.threads = AppThreads(threads, "menagerie-request")
        self.redis_url = redis_url
        self.prefix = prefix
        self.feeds: Feeds | None = None
        self.buffers = BodyBuffers(BodyLimits())

    def __rsgi_init__(self, loop: asyncio.AbstractEventLoop) -> None:
        """Build this process's fan-out on its event loop, with a Redis client of its own."""
        # One connection a shard holds the subscriptions of every watched game there, however
        # many there are (pinged within its socket's timeout); the others look at quiet games'
        # keys. A watcher's catch-up is the store's own read, on the app's threads.
        readers = connect_async(self.redis_url, blocks_for_s=HEARTBEAT_S, max_connections=FANOUT_CONNECTIONS)
        store = self.app.extensions["menagerie"].store
        self.threads.start(loop)

        async def read_after(stream_id: str, after: int) -> list[RecordedEvent]:
            return await self.threads.run(store.read, stream_id, after)

        self.feeds = Feeds(readers, self.prefix, read_after)

    def __rsgi_del__(self, loop: asyncio.AbstractEventLoop) -> None:
        """Let the app's threads finish the requests they hold before the process ends."""
        self.threads.stop()

    async def __rsgi__(self, scope: Scope, proto: HTTPProtocol) -> None:
        """Answer one request: by the app on a thread, then, for a live stream, from the fan-out; or serve a socket."""
        if scope.proto == "ws":  # a game's socket (service/http/sockets.py)
            host, _ = _ADDRESSES.get(scope.client) or _host_and_port(scope.client)
            # granian hands a WebSocket's own protocol object under the one signature.
            await serve_socket(self, scope, cast(WebsocketProtocol, proto), host)
            return
        if scope.proto != "http":
            return
        try:
            environ = await _environ(scope, proto, self.buffers)
        except BodyRefused as refused:
            proto.response_bytes(*refused.answer())
            return
        environ[FANOUT] = handoff = Handoff()
        held = environ["wsgi.input"].size
        try:
            status, headers, body = await self.threads.run(_call, self.app, environ)
        finally:
            self.buffers.give(held)
        subscription = handoff.subscription
        if subscription is None or status != 200 or self.feeds is None:
            proto.response_bytes(status, headers, body)
            return
        kept = [(name, value) for name, value in headers if name.lower() not in _STREAM_DROPS]
        await self._stream(self.feeds, subscription, proto, kept)

    async def _stream(
        self, feeds: Feeds, subscription: Subscription, proto: HTTPProtocol, headers: list[tuple[str, str]]
    ) -> None:
        transport = proto.response_stream(200, headers)

        async def send() -> None:
            with contextlib.suppress(ProtocolClosed):
                async for chunk in feeds.follow(subscription):
                    await transport.send_bytes(chunk)

        sending = asyncio.ensure_future(send())
        gone = asyncio.ensure_future(proto.client_disconnect())
        try:
            await asyncio.wait((sending, gone), return_when=asyncio.FIRST_COMPLETED)
        finally:
            for task in (sending, gone):
                task.cancel()
        if sending.done() and not sending.cancelled() and sending.exception() is not None:
            log.error("live stream of %s failed", subscription.stream_id, exc_info=sending.exception())


async def _environ(scope: Scope, proto: HTTPProtocol, buffers: BodyBuffers | None = None) -> dict[str, Any]:
    """Return the WSGI environ of an RSGI request, its body read by the limits (`buffers`: the process's)."""
    environ = _request_environ(scope)
    if _may_have_body(scope, environ):
        await _read_body(proto, environ, buffers or BodyBuffers(BodyLimits()))
    else:
        environ["wsgi.input"] = _NO_BODY
    return environ


def _request_environ(scope: Scope) -> dict[str, Any]:
    """Return the WSGI environ of an RSGI request's head: all of it but its body."""
    environ = _EVERY_ENVIRON.copy()
    environ["REQUEST_METHOD"] = scope.method
    # granian hands the path percent-decoded; WSGI's PATH_INFO is its bytes as latin-1 (PEP 3333).
    path = scope.path
    environ["PATH_INFO"] = path if path.isascii() else path.encode().decode("latin-1")
    environ["QUERY_STRING"] = scope.query_string
    version = scope.http_version
    environ["SERVER_PROTOCOL"] = _PROTOCOLS.get(version) or f"HTTP/{version}"
    environ["wsgi.url_scheme"] = scope.scheme
    environ["wsgi.errors"] = sys.stderr
    client, server = scope.client, scope.server
    environ["REMOTE_ADDR"], environ["REMOTE_PORT"] = _ADDRESSES.get(client) or _host_and_port(client)
    environ["SERVER_NAME"], environ["SERVER_PORT"] = _ADDRESSES.get(server) or _host_and_port(server)
    keys = _ENVIRON_KEYS
    for name, value in scope.headers.items():
        key = keys.get(name) or _environ_key(name)
        if key in environ:  # a field sent more than once: one value, as a server folds it
            value = f"{environ[key]},{value}"
        environ[key] = value
    return environ


def _environ_key(name: str) -> str:
    """Return the environ's key for a header field (`HTTP_` and its name), kept for the next request."""
    key = "HTTP_" + name.upper().replace("-", "_")
    if len(_ENVIRON_KEYS) < _KEYS_KEPT:  # a client may send any names: only so many are kept
        _ENVIRON_KEYS[name] = key
    return key


def _may_have_body(scope: Scope, environ: dict[str, Any]) -> bool:
    """Tell whether a request may come with a body: in HTTP/1 only with a length or as chunks (RFC 9112 6.3)."""
    if not scope.http_version.startswith("1"):
        return True  # HTTP/2 and 3 send a body without saying so in a header
    return "CONTENT_LENGTH" in environ or "HTTP_TRANSFER_ENCODING" in environ


async def _read_body(proto: HTTPProtocol, environ: dict[str, Any], buffers: BodyBuffers) -> None:
    """Read the body (service/http/front_bodies.py); hand it to the app with its size, or only its size past the limit.

    The app is told the body's size, chunked or not, so its limit holds alike (413). A body the
    app may take is read to its end, so the connection stays usable however the app answers (an
    error answer reads what its view did not: service/http/bodies.py). A body that came whole by
    its Content-Length is not asked for its end: granian has no more to give, and asking costs a
    round trip through its runtime and back to the loop. What is kept is held in `buffers` until
    the request is answered (`_Input.size`).
    """
    body, size = await read_body(aiter(proto), stated_length(environ), MAX_BODY_BYTES, buffers)
    if size:
        environ["CONTENT_LENGTH"] = str(size)
        environ.pop("HTTP_TRANSFER_ENCODING", None)
    # Over the app's limit but read to its end: the app's answer (a 413, a 404) drains it as if it were there.
    environ["wsgi.input"] = _Discarded(size) if MAX_BODY_BYTES < size <= DRAIN_BYTES else _Input(body)


class _Input:
    """A request's body as `wsgi.input`: what PEP 3333 asks of it (as granian's own input offers), no `readinto`.

    werkzeug reads a stream that has `readinto` into a buffer it zero-fills to the
    size of what may be left (64 KiB for a small body): about a fifth of the
    front's own cost a move. A stream with only `read` it asks for what is left.
    """

    __slots__ = ("_bytes", "read", "readline", "readlines", "size")

    def __init__(self, body: bytes) -> None:
        self.size = len(body)  # what it holds of the process's body buffers
        self._bytes = io.BytesIO(body)
        self.read = self._bytes.read
        self.readline = self._bytes.readline
        self.readlines = self._bytes.readlines

    def __iter__(self) -> Iterator[bytes]:
        return iter(self._bytes)


class _Discarded(_Input):
    """A body the front read to its end but did not keep (over the app's limit): its size in zero bytes, as read."""

    __slots__ = ("_left",)

    def __init__(self, size: int) -> None:
        super().__init__(b"")
        self._left = size
        self.read = self.readline = self._read
        self.readlines = lambda hint=-1: [self._read()]

    def _read(self, size: int | None = -1) -> bytes:
        count = self._left if size is None or size < 0 else min(size, self._left)
        self._left -= count
        return bytes(count)

    def __iter__(self) -> Iterator[bytes]:
        while chunk := self._read(64 * 1024):
            yield chunk


# Every request without a body reads this one: reading an empty input leaves it as it was, whichever thread reads.
_NO_BODY = _Input(b"")


def _host_and_port(address: str) -> tuple[str, str]:
    """Return an address's host and port as the environ gives them, kept for the next request from it."""
    host, _, port = address.rpartition(":")
    parts = (host.strip("[]"), port) if host else (address, "")
    if len(_ADDRESSES) >= _ADDRESSES_KEPT:  # a client's port changes with each connection
        _ADDRESSES.clear()
    _ADDRESSES[address] = parts
    return parts


def _no_write(data: bytes) -> object:
    raise NotImplementedError("the app returns its body; it never writes one")


def _call(app: Flask, environ: dict[str, Any]) -> tuple[int, list[tuple[str, str]], bytes]:
    """Run the WSGI app on one request; return its status, headers and body."""
    answer: list[Any] = []

    def start_response(status: str, headers: list[tuple[str, str]], exc_info: Any = None) -> Callable[[bytes], object]:
        answer[:] = [int(status[:3]), headers]
        return _no_write

    result: Iterable[bytes] = app(environ, start_response)
    try:
        body = b"".join(result)
    finally:
        close = getattr(result, "close", None)
        if close is not None:
            close()
    return answer[0], answer[1], body
