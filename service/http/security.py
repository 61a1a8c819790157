"""Security headers on every answer, the page's and the API's alike.

The page loads nothing but its own files (no inline script or style, no
other origin), may not be framed (clickjacking), and sends no referrer (a
game's address holds its id, and a seat link its token). `nosniff` stops a
browser from reading a JSON answer or a log as a script or a page.

The headers go on as the answer leaves (`SecuredResponse`, the app's
response class), after every view, error handler and `after_request` hook,
as an `after_request` hook of the app's own would put them, and in the same
place among the others.
"""

from __future__ import annotations

from collections.abc import Iterable

from flask import Flask, Response
from werkzeug.datastructures import Headers

HEADERS = {
    "Content-Security-Policy": "default-src 'self'; frame-ancestors 'none'; base-uri 'none'; form-action 'self'",
    "X-Content-Type-Options": "nosniff",
    "X-Frame-Options": "DENY",  # frame-ancestors for browsers older than CSP level 2
    "Referrer-Policy": "no-referrer",
}

# As werkzeug keeps them once set (checked once, here); appended to an answer that has none of them.
_APPENDED = list(Headers(HEADERS))
# Headers werkzeug rewrites as the answer leaves, or that `HEADERS` would replace where they stand.
_REWRITTEN = {"location", "content-location", *(name.lower() for name in HEADERS)}


class SecuredResponse(Response):
    """The app's response: it leaves with `HEADERS`, as `Headers.update` would set them last thing.

    werkzeug copies an answer's headers, each checked again, and looks them
    over for what it must fix before they leave (`get_wsgi_headers`). An
    answer built with its length, with no header werkzeug fixes or `HEADERS`
    replaces, and a status that keeps its length, leaves exactly as it is
    with `HEADERS` after it: that is every JSON answer. It skips the copy, the
    update and the fixing; anything else goes werkzeug's way, unchanged.
    """

    def get_wsgi_response(self, environ: dict[str, object]) -> tuple[Iterable[bytes], str, list[tuple[str, str]]]:
        """Return the body, status and headers the server sends (werkzeug's hook)."""
        if self._leaves_as_it_is():
            return self._body(environ), self.status, [*self.headers, *_APPENDED]
        self.headers.update(HEADERS)
        return super().get_wsgi_response(environ)

    def _body(self, environ: dict[str, object]) -> Iterable[bytes]:
        """Return the body as werkzeug's app iterator would yield it: a body held as bytes is handed over as it is.

        werkzeug wraps it to encode each piece (bytes stay as they are) and to
        call what the response must do once sent; with nothing to call, and
        not a HEAD request (no body), the pieces themselves are the same body.
        """
        pieces = self.response
        if (
            type(pieces) is list
            and not self._on_close
            and environ["REQUEST_METHOD"] != "HEAD"
            and all(type(piece) is bytes for piece in pieces)
        ):
            return pieces
        return self.get_app_iter(environ)

    def _leaves_as_it_is(self) -> bool:
        """Tell whether werkzeug's way would send these headers as they stand, and `HEADERS` after them."""
        status = self.status_code
        if status < 200 or status in (204, 304):
            return False  # werkzeug drops the length, or more
        sized = False
        for name, _ in self.headers:
            lowered = name.lower()
            if lowered in _REWRITTEN:
                return False
            sized = sized or lowered == "content-length"
        return sized


def install_security_headers(app: Flask) -> None:
    """Have every answer of `app` carry the security headers."""
    app.response_class = SecuredResponse
