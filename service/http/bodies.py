"""Request bodies the answer did not need: read to their end, so a keep-alive connection stays usable.

An answer given before the body was read (an unknown route or game, a bad
token, a body over the limit: a 413) leaves the body in the connection.
granian then drops the connection once the body is more than it buffers
(about 64 KiB), without a `Connection: close` to say so, and the client's next
request on it fails with a broken pipe. So every body up to `DRAIN_BYTES` is
read to its end after the answer (nothing to read when the view read it); a
larger one is not worth reading: the answer says `Connection: close` (granian
honours it; gunicorn closes such a connection on its own).
"""

from __future__ import annotations

from flask import Flask, Response, request
from werkzeug.wsgi import LimitedStream

# What an honest client sends past the limit by mistake; more is left to the server to cut off.
DRAIN_BYTES = 1024 * 1024


def install_draining(app: Flask, max_body_bytes: int) -> None:
    """Read what is left of every request's body after its answer, up to `DRAIN_BYTES`."""

    @app.after_request
    def drain(response: Response) -> Response:
        length = request.content_length
        if not length:
            return response
        if length > DRAIN_BYTES:
            response.headers["Connection"] = "close"
            return response
        if length <= max_body_bytes:
            stream = request.stream  # the stream the view read from, if it did
            if isinstance(stream, LimitedStream):  # as it is whenever a Content-Length is given
                stream.exhaust()
        else:
            # Over the limit, no view read a byte of it (werkzeug refuses the stream with a 413).
            LimitedStream(request.environ["wsgi.input"], length).exhaust()
        return response
