"""What every view needs from the request: the services, the JSON body, the query."""

from __future__ import annotations

import json
import math
from collections.abc import Callable, Mapping
from functools import cache
from types import MappingProxyType
from typing import Any, NoReturn

import orjson
from flask import Request, current_app, request
from marshmallow import Schema
from werkzeug.exceptions import RequestEntityTooLarge

from service.bootstrap import Services
from service.errors import MalformedJson

MAX_DEPTH = 32  # no request needs more; deeper values cannot be stored as they came
MAX_INTEGER = 2**63 - 1  # what every JSON encoder and Redis script on the way keeps exact
NOT_AN_OBJECT = "the body must be a JSON object"


def prefers(mimetype: str) -> bool:
    """Tell whether the Accept header prefers `mimetype` to JSON (`*/*` or no Accept: JSON, the API's own form)."""
    accept = request.accept_mimetypes
    return accept[mimetype] > accept["application/json"]


def services() -> Services:
    """Return the services wired into the app."""
    services: Services = current_app.extensions["menagerie"]
    return services


def body(schema: Schema, plainly: Callable[[dict[str, Any]], dict[str, Any] | None] | None = None) -> dict[str, Any]:
    """Parse a JSON object body and validate it with its schema, the body's one check (400 when it is not one).

    `plainly` may accept a usual body without the schema (a hot path's
    shortcut, returning what the schema would); when it returns None the schema decides.
    """
    return checked(schema, json_body(), plainly)


def json_body() -> Any:
    """Return the request's body parsed as strict JSON (400 when it is not JSON, 413 past the limit)."""
    # One lookup of the request behind flask's proxy for all that follows (flask types the proxy as the request).
    current: Request = request._get_current_object()  # type: ignore[attr-defined]
    # The type clients send, read without parsing the header (werkzeug's `is_json` says the same of it).
    if current.environ.get("CONTENT_TYPE") != "application/json" and not current.is_json:
        raise MalformedJson("the body must be JSON (Content-Type: application/json)")
    raw = current.get_data(cache=True)
    if len(raw) >= (current.max_content_length or math.inf) and current.content_length is None:
        # werkzeug cuts a chunked body at the limit rather than refusing it: refuse it as one with a length.
        raise RequestEntityTooLarge()
    return parse_json(raw)


def checked(
    schema: Schema, data: Any, plainly: Callable[[dict[str, Any]], dict[str, Any] | None] | None = None
) -> dict[str, Any]:
    """Return a parsed JSON body as its schema loads it (400 when it is not an object or does not match).

    The check of every body, whatever carried it: an HTTP request's, or a game socket's message.
    """
    if not isinstance(data, dict):
        raise MalformedJson(NOT_AN_OBJECT)
    quick = plainly(data) if plainly is not None else None
    if quick is not None:
        return quick
    loaded: dict[str, Any] = schema.load(data)
    return loaded


def parse_json(raw: bytes) -> Any:
    """Parse strict JSON: no NaN or Infinity, integers within 64 bits, no lone surrogates, bounded depth.

    What passes can be hashed and stored byte for byte as it came; anything
    else is a 400 here rather than a failure on the way to the store.
    """
    try:
        # orjson is strict already (no NaN, no lone surrogates) and ten times faster; what it refuses,
        # or what it may have read otherwise (a number with a fraction or over 64 bits, which it would
        # turn into a float), the standard parser below reads again, so every answer is that parser's.
        value = orjson.loads(raw)
    except orjson.JSONDecodeError:
        pass
    else:
        if _plain(value, 0):
            return value
    return strict_json(raw)


def strict_json(raw: bytes) -> Any:
    """Parse strict JSON with the standard library's parser, every check on the way (see `parse_json`)."""
    try:
        value = json.loads(raw, parse_constant=_refuse_constant, parse_int=_bounded_int)
    except RecursionError:
        raise MalformedJson(f"the body nests deeper than {MAX_DEPTH} levels") from None
    except (ValueError, UnicodeDecodeError) as error:
        raise MalformedJson(f"the body is not valid JSON: {error}") from None
    _check(value, 0)
    return value


def _plain(value: Any, depth: int) -> bool:
    """Tell whether a parsed value holds only what both parsers read alike and `_check` lets through."""
    if depth > MAX_DEPTH:
        return False
    kind = type(value)
    if kind is str or kind is bool or value is None:
        return True
    if kind is int:
        number: int = value
        return -MAX_INTEGER <= number <= MAX_INTEGER
    if kind is list:
        return all(_plain(item, depth + 1) for item in value)
    if kind is dict:
        return all(_plain(item, depth + 1) for item in value.values())
    return False  # a float: the standard parser decides


def _refuse_constant(name: str) -> NoReturn:
    raise ValueError(f"{name} is not a JSON number")


def _bounded_int(text: str) -> int:
    if len(text) > 20 or abs(int(text)) > MAX_INTEGER:
        raise ValueError(f"integers are limited to ±{MAX_INTEGER}")
    return int(text)


def _check(value: Any, depth: int) -> None:
    if depth > MAX_DEPTH:
        raise MalformedJson(f"the body nests deeper than {MAX_DEPTH} levels")
    if isinstance(value, float) and not math.isfinite(value):
        raise MalformedJson("numbers must be finite")
    if isinstance(value, str):
        _check_text(value)
    elif isinstance(value, list):
        for item in value:
            _check(item, depth + 1)
    elif isinstance(value, dict):
        for key, item in value.items():
            _check_text(key)
            _check(item, depth + 1)


def _check_text(text: str) -> None:
    try:
        text.encode("utf-8")
    except UnicodeEncodeError:
        raise MalformedJson("strings must not hold lone surrogates") from None


def query(schema: Schema, plainly: Callable[[bytes], dict[str, Any] | None] | None = None) -> dict[str, Any]:
    """Parse and validate the query string.

    `plainly` may accept a raw query string without the schema (a hot path's
    shortcut, returning what the schema would); when it returns None the schema decides.
    """
    current: Request = request._get_current_object()  # type: ignore[attr-defined]
    raw = current.query_string
    quick = plainly(raw) if plainly is not None and raw else None
    if quick is not None:
        return quick
    if not raw or not current.args:
        # Most requests have no query: its defaults, loaded once per schema (and no parse of an empty one).
        return dict(_defaults(schema))
    loaded: dict[str, Any] = schema.load(current.args.to_dict())
    return loaded


@cache
def _defaults(schema: Schema) -> Mapping[str, Any]:
    loaded: dict[str, Any] = schema.load({})
    return MappingProxyType(loaded)


def bearer_token() -> str | None:
    """Return the bearer token of the Authorization header, "" for another scheme, None without one."""
    # What `request.headers.get("Authorization")` reads.
    return bearer_of(request.environ.get("HTTP_AUTHORIZATION"))


def bearer_of(header: str | None) -> str | None:
    """Return the bearer token of an Authorization header's value, "" for another scheme, None without one."""
    if not header:
        return None
    scheme, _, token = header.partition(" ")
    return token.strip() if scheme.lower() == "bearer" else ""
