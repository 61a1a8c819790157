"""Every answer carries the security headers: the page, the API, errors and streams alike."""

from __future__ import annotations

import pytest

from service.http.security import HEADERS


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
