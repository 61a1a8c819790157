"""Responses serialised once, with orjson: the JSON of every answer, in the order the views built it."""

from __future__ import annotations

from typing import Any

import orjson
from flask import Response
from flask.json.provider import JSONProvider

_OPTIONS = orjson.OPT_NON_STR_KEYS


def encode(value: Any) -> bytes:
    """Return the JSON of a response body: every answer is encoded here, once."""
    return orjson.dumps(value, option=_OPTIONS)


class OrjsonProvider(JSONProvider):
    """Flask's JSON provider on orjson (several times faster than the standard library's)."""

    def dumps(self, obj: Any, **kwargs: Any) -> str:
        """Serialise `obj` to a JSON string."""
        return encode(obj).decode()

    def loads(self, s: str | bytes, **kwargs: Any) -> Any:
        """Parse a JSON string."""
        return orjson.loads(s)

    def response(self, *args: Any, **kwargs: Any) -> Response:
        """Return a JSON response of the one value (or the keyword arguments) given."""
        value = self._prepare_response_obj(args, kwargs)
        return Response(encode(value), mimetype="application/json")
