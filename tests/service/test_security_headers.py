"""Every answer carries the security headers: the page, the API, errors and streams alike."""

from __future__ import annotations

import pytest
from flask import Response
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from werkzeug.test import EnvironBuilder

from service.http.security import HEADERS, SecuredResponse


@pytest.mark.parametrize(
    ("method", "path", "body"),
    [("GET", "/", None), ("GET", "/health", None), ("GET", "/nowhere", None), ("POST", "/games", {"game": "nope"})],
)
def test_the_page_and_the_api_may_not_be_framed_sniffed_or_referred(client, method, path, body):
    response = client.open(path, method=method, json=body)
    for name, value in HEADERS.items():
        assert response.headers[name] == value, (path, name)
    policy = response.headers["Content-Security-Policy"]
    assert "default-src 'self'" in policy and "frame-ancestors 'none'" in policy


# Headers an answer may carry before it leaves: those werkzeug rewrites, those `HEADERS` replaces
# (in any case), its length (right or wrong) and others; statuses werkzeug treats apart among them.
_NAMES = st.sampled_from(
    ["Content-Length", "content-length", "Location", "Content-Location", "Retry-After", "Connection", "X-Other"]
    + list(HEADERS)
    + [name.lower() for name in HEADERS]
)
_VALUES = st.sampled_from(["0", "3", "close", "/games/x", "http://h/é", "DENY", "a b"])
# A body: bytes (werkzeug sets its length), a list of chunks (it may count them), chunks streamed, none.
_BODIES = st.one_of(
    st.binary(max_size=8).map(lambda data: lambda: data),
    st.lists(st.binary(max_size=4), max_size=3).map(lambda chunks: lambda: list(chunks)),
    st.lists(st.binary(max_size=4), max_size=3).map(lambda chunks: lambda: iter(chunks)),
    st.just(lambda: None),
)


@settings(max_examples=500, suppress_health_check=[HealthCheck.too_slow])
@given(
    body=_BODIES,
    status=st.sampled_from([100, 200, 201, 204, 301, 304, 400, 404, 413, 429, 500, 503]),
    content_type=st.sampled_from([None, "application/json", "text/event-stream"]),
    headers=st.lists(st.tuples(_NAMES, _VALUES), max_size=4),
    method=st.sampled_from(["GET", "POST", "HEAD"]),
    on_close=st.booleans(),
)
def test_an_answer_leaves_as_werkzeug_would_send_it_after_an_update_with_the_headers(
    body, status, content_type, headers, method, on_close
):
    environ = EnvironBuilder(path="/games/abc", method=method, base_url="http://127.0.0.1:8000").get_environ()

    def sent(cls, closed):
        response = cls(body(), status, content_type=content_type)
        for name, value in headers:
            response.headers.add(name, value)
        if on_close:
            response.call_on_close(lambda: closed.append(True))
        if cls is Response:
            response.headers.update(HEADERS)  # what the app's `after_request` hook did
        pieces, status_line, header_list = response.get_wsgi_response(environ)
        data = b"".join(pieces)
        getattr(pieces, "close", lambda: None)()  # as a WSGI server does once it has sent the body
        return status_line, header_list, data, closed

    assert sent(SecuredResponse, []) == sent(Response, [])
