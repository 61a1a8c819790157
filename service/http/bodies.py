"""Request bodies an error answer did not need: read to their end, so a keep-alive connection stays usable.

An error answered before the body was read (an unknown route or game, a bad
token, a body over the limit: a 413) leaves the body in the connection.
granian then drops the connection once the body is more than it buffers
(about 64 KiB), without a `Connection: close` to say so, and the client's next
request on it fails with a broken pipe. So the error answer reads every body
up to `DRAIN_BYTES` to its end (nothing to read when the view read it), a
chunked one too when the server ends its stream (`wsgi.input_terminated`, as
granian, gunicorn and werkzeug's server do); a larger one is not worth
reading: the answer says `Connection: close` (granian honours it; gunicorn
closes such a connection on its own).

Only error answers do this: every view that takes a body reads it before it
answers, and a flask `after_request` hook for every answer cost about 6 µs a
request.
"""

from __future__ import annotations

from flask import Response, request
from werkzeug.exceptions import ClientDisconnected
from werkzeug.wsgi import LimitedStream

# What an honest client sends past the limit by mistake; more is left to the server to cut off.
DRAIN_BYTES = 1024 * 1024


def drain_body(response: Response) -> None:
    """Read what is left of the request's body, up to `DRAIN_BYTES`; past that, close the connection."""
    length = request.content_length
    if length is None and request.environ.get("wsgi.input_terminated"):
        _drain_terminated(response)
        return
    if not length:
        return
    if length > DRAIN_BYTES:
        response.headers["Connection"] = "close"
        return
    limit = request.max_content_length  # the app's MAX_CONTENT_LENGTH (None: no limit)
    try:
        if limit is None or length <= limit:
            stream = request.stream  # the stream the view read from, if it did
            if isinstance(stream, LimitedStream):  # as it is whenever a Content-Length is given
                stream.exhaust()
        else:
            # Over the limit, no view read a byte of it (werkzeug refuses the stream with a 413).
            LimitedStream(request.environ["wsgi.input"], length).exhaust()
    except ClientDisconnected:
        # The body ended before its Content-Length: the client is gone, or sent less than it said.
        response.headers["Connection"] = "close"


def _drain_terminated(response: Response) -> None:
    """Read a body of no stated length (chunked) to its end, up to `DRAIN_BYTES`: the server ends its stream."""
    stream = request.environ["wsgi.input"]
    left = DRAIN_BYTES
    try:
        while left > 0:
            chunk = stream.read(min(left, 64 * 1024))
            if not chunk:
                return
            left -= len(chunk)
    except (OSError, ValueError):
        pass  # the client is gone
    response.headers["Connection"] = "close"
