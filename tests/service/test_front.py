"""The async front hands the Flask app the request granian read: path, query, headers, client, body."""

from __future__ import annotations

import asyncio
import io
import json
import sys
from collections.abc import AsyncIterator
from dataclasses import dataclass, field
from typing import Any

import pytest
from flask import Flask, jsonify, request

from service.http.bodies import DRAIN_BYTES
from service.http.front import _call, _environ, _Input


class Headers(dict[str, str]):
    """granian's RSGI headers, as far as the front reads them."""


class RepeatedHeaders:
    """granian's RSGI headers with a field sent more than once: `items` gives each as it came."""

    def __init__(self, pairs: list[tuple[str, str]]) -> None:
        self.pairs = pairs

    def items(self) -> list[tuple[str, str]]:
        return list(self.pairs)

    def __contains__(self, name: object) -> bool:
        return any(name == key for key, _ in self.pairs)


@dataclass
class Scope:
    path: str
    query_string: str = ""
    method: str = "GET"
    http_version: str = "1.1"
    scheme: str = "http"
    client: str = "127.0.0.1:50000"
    server: str = "127.0.0.1:8000"
    headers: Headers | RepeatedHeaders = field(default_factory=Headers)


class Proto:
    """A request body arriving in chunks, then an empty one for its end, as granian's RSGI body does."""

    def __init__(self, chunks: list[bytes]) -> None:
        self.chunks = chunks
        self.asked = 0  # how many times the front awaited the next chunk

    async def _iterate(self) -> AsyncIterator[bytes]:
        for chunk in [*self.chunks, b""]:
            self.asked += 1
            yield chunk

    def __aiter__(self) -> AsyncIterator[bytes]:
        return self._iterate()


def echo() -> Flask:
    app = Flask(__name__)
    app.config["MAX_CONTENT_LENGTH"] = 64 * 1024

    @app.route("/<path:rest>", methods=["GET", "POST"])
    def seen(rest: str) -> Any:
        return jsonify(
            path=request.path,
            args=request.args.to_dict(),
            token=request.headers.get("Authorization"),
            address=request.remote_addr,
            body=request.get_data(as_text=True),
        )

    return app


def served(scope: Scope, chunks: list[bytes] | None = None) -> tuple[int, dict[str, Any] | bytes]:
    environ = asyncio.run(_environ(scope, Proto(chunks or [])))  # type: ignore[arg-type]
    status, _headers, body = _call(echo(), environ)
    return status, json.loads(body) if status == 200 else body


def test_the_app_sees_the_path_granian_decoded_once_and_the_query_as_sent():
    # granian hands the path already percent-decoded: "%2541" arrived as "%41", which must stay so.
    status, seen = served(Scope("/games/a%41 b/é", "x=%20y&z=1", headers=Headers(authorization="Bearer t")))
    assert status == 200
    assert seen == {
        "path": "/games/a%41 b/é",
        "args": {"x": " y", "z": "1"},
        "token": "Bearer t",
        "address": "127.0.0.1",
        "body": "",
    }


def test_a_body_comes_whole_however_it_was_chunked_and_one_past_the_limit_is_a_413():
    headers = Headers({"content-type": "text/plain", "transfer-encoding": "chunked"})
    status, seen = served(Scope("/post", method="POST", headers=headers), [b"ab", b"cd"])
    assert status == 200 and seen["body"] == "abcd"
    status, _ = served(Scope("/post", method="POST", headers=headers), [b"x" * 50_000] * 2)
    assert status == 413
    status, _ = served(Scope("/post", method="POST", headers=headers), [b"x" * DRAIN_BYTES, b"x"])
    assert status == 413


def test_the_body_reads_as_pep_3333_asks_by_size_by_line_and_by_iteration():
    body = _Input(b"one\ntwo\nthree")
    assert body.read(2) == b"on"
    assert body.readline() == b"e\n"
    assert list(body) == [b"two\n", b"three"]
    assert body.read() == b""
    assert _Input(b"a\nb\n").readlines() == [b"a\n", b"b\n"]
    assert not hasattr(body, "readinto")  # werkzeug would zero-fill a 64 KiB buffer to read into


async def environ_as_it_was(scope: Scope, proto: Proto) -> dict[str, Any]:
    """The environ as the front first built it, in one plain pass, reading every body to its end."""
    environ: dict[str, Any] = {
        "REQUEST_METHOD": scope.method,
        "SCRIPT_NAME": "",
        "PATH_INFO": scope.path.encode().decode("latin-1"),
        "QUERY_STRING": scope.query_string,
        "SERVER_PROTOCOL": f"HTTP/{scope.http_version}",
        "wsgi.version": (1, 0),
        "wsgi.url_scheme": scope.scheme,
        "wsgi.errors": sys.stderr,
        "wsgi.multithread": True,
        "wsgi.multiprocess": True,
        "wsgi.run_once": False,
    }
    for address, host, port in (
        (scope.client, "REMOTE_ADDR", "REMOTE_PORT"),
        (scope.server, "SERVER_NAME", "SERVER_PORT"),
    ):
        name, _, number = address.rpartition(":")
        environ[host], environ[port] = (name.strip("[]"), number) if name else (address, "")
    for name, value in scope.headers.items():
        key = {"content-type": "CONTENT_TYPE", "content-length": "CONTENT_LENGTH"}.get(name)
        key = key or "HTTP_" + name.upper().replace("-", "_")
        environ[key] = f"{environ[key]},{value}" if key in environ else value
    body, size = b"", 0
    async for chunk in proto:
        size += len(chunk)
        if size <= DRAIN_BYTES:
            body += chunk
    if size:
        environ["CONTENT_LENGTH"] = str(size)
        environ.pop("HTTP_TRANSFER_ENCODING", None)
    environ["wsgi.input"] = io.BytesIO(b"" if size > DRAIN_BYTES else body)
    environ["wsgi.input_terminated"] = True
    return environ


def fields_in_order(environ: dict[str, Any]) -> list[str]:
    return [key for key in environ if key.startswith("HTTP_") or key in ("CONTENT_TYPE", "CONTENT_LENGTH")]


JSON = {"content-type": "application/json"}
REQUESTS = {
    "a GET": (Scope("/games/g1", "view=true", headers=Headers(JSON, authorization="Bearer t")), []),
    "a GET over HTTP/1.0 from IPv6": (Scope("/health", http_version="1", client="[::1]:4000", server="[::1]:80"), []),
    "a path beyond ASCII": (Scope("/games/é%41", headers=Headers(host="h")), []),
    "a POST by its length": (
        Scope("/p", method="POST", headers=Headers(JSON, **{"content-length": "5"})),
        [b"ab", b"cde"],
    ),
    "a POST of length 0": (Scope("/p", method="POST", headers=Headers(JSON, **{"content-length": "0"})), []),
    "a chunked POST": (Scope("/p", method="POST", headers=Headers({"transfer-encoding": "chunked"})), [b"ab", b"c"]),
    "a chunked POST past the drain": (
        Scope("/p", method="POST", headers=Headers({"transfer-encoding": "chunked"})),
        [b"x" * DRAIN_BYTES, b"y"],
    ),
    "a length and chunks": (
        Scope("/p", method="POST", headers=Headers({"content-length": "2", "transfer-encoding": "chunked"})),
        [b"abc"],
    ),
    "a body over HTTP/2 without a length": (Scope("/p", method="POST", http_version="2"), [b"ab"]),
    "fields sent twice": (
        Scope("/x", headers=RepeatedHeaders([("accept", "a"), ("x-y", "1"), ("accept", "b"), ("content-type", "t")])),
        [],
    ),
}


@pytest.mark.parametrize("name", REQUESTS)
def test_the_environ_is_the_one_a_plain_pass_builds_and_a_body_is_read_no_further_than_its_length(name: str):
    scope, chunks = REQUESTS[name]
    proto, plain = Proto(chunks), Proto(chunks)
    environ = asyncio.run(_environ(scope, proto))  # type: ignore[arg-type]
    expected = asyncio.run(environ_as_it_was(scope, plain))
    assert environ.pop("wsgi.input").read() == expected.pop("wsgi.input").read()
    assert environ == expected
    assert fields_in_order(environ) == fields_in_order(expected)  # as the app lists the request's headers
    headers, http1 = scope.headers, scope.http_version.startswith("1")
    if name == "a chunked POST past the drain":
        assert proto.asked == 2  # no further than past the drain: the app's 413 closes the connection
    elif "transfer-encoding" in headers or not http1:
        assert proto.asked == plain.asked  # to its end
    elif "content-length" in headers:
        assert proto.asked == len(chunks)  # no further than its stated length: its end is not waited for
    else:
        assert proto.asked == 0  # an HTTP/1 request with neither has no body
