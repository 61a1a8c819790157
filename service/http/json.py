"""Responses serialised once, with orjson: the JSON of every answer, in the order the views built it."""

from __future__ import annotations

from typing import Any

import orjson
from flask import Response
from flask.json.provider import JSONProvider

_OPTIONS = orjson.OPT_NON_STR_KEYS


class OrjsonProvider(JSONProvider):
    """Flask's JSON provider on orjson (several times faster than the standard library's)."""

    def dumps(self, obj: Any, **kwargs: Any) -> str:
        """Serialise `obj` to a JSON string."""
        return orjson.dumps(obj, option=_OPTIONS).decode()

    def loads(self, s: str | bytes, **kwargs: Any) -> Any:
        """Parse a JSON string."""
        return orjson.loads(s)

    def response(self, *args: Any, **kwargs: Any) -> Response:
        """Return a JSON response of the one value (or the keyword arguments) given."""
        value = self._prepare_response_obj(args, kwargs)
        return Response(orjson.dumps(value, option=_OPTIONS), mimetype="application/json")
