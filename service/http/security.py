"""Security headers on every answer, the page's and the API's alike.

The page loads nothing but its own files (no inline script or style, no
other origin), may not be framed (clickjacking), and sends no referrer (a
game's address holds its id, and a seat link its token). `nosniff` stops a
browser from reading a JSON answer or a log as a script or a page.
"""

from __future__ import annotations

from flask import Flask, Response

HEADERS = {
    "Content-Security-Policy": "default-src 'self'; frame-ancestors 'none'; base-uri 'none'; form-action 'self'",
    "X-Content-Type-Options": "nosniff",
    "X-Frame-Options": "DENY",  # frame-ancestors for browsers older than CSP level 2
    "Referrer-Policy": "no-referrer",
}


def install_security_headers(app: Flask) -> None:
    """Have every answer of `app` carry the security headers."""

    @app.after_request
    def _secure(response: Response) -> Response:
        response.headers.update(HEADERS)
        return response
