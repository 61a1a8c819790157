"""The async front hands the Flask app the request granian read: path, query, headers, client, body."""

from __future__ import annotations

import asyncio
import json
from collections.abc import AsyncIterator
from dataclasses import dataclass, field
from typing import Any

from flask import Flask, jsonify, request

from service.http.bodies import DRAIN_BYTES
from service.http.front import _call, _environ, _Input


class Headers(dict[str, str]):
    """granian's RSGI headers, as far as the front reads them."""


@dataclass
class Scope:
    path: str
    query_string: str = ""
    method: str = "GET"
    http_version: str = "1.1"
    scheme: str = "http"
    client: str = "127.0.0.1:50000"
    server: str = "127.0.0.1:8000"
    headers: Headers = field(default_factory=Headers)


class Proto:
    """A request body arriving in chunks."""

    def __init__(self, chunks: list[bytes]) -> None:
        self.chunks = chunks

    async def _iterate(self) -> AsyncIterator[bytes]:
        for chunk in self.chunks:
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
    headers = Headers({"content-type": "text/plain"})
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
