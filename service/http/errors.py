"""One error shape, one status per error class: `{"error": {"code", "message", "details"}}`.

`STATUS` is the whole table: each error raised anywhere below a view is
answered by the status of the nearest class in its MRO found here.
"""

from __future__ import annotations

import logging
from typing import Any

from flask import Flask, Response, current_app, jsonify, request
from flask.typing import ResponseReturnValue
from flask_limiter import RateLimitExceeded
from marshmallow import ValidationError
from werkzeug.exceptions import HTTPException

from domain.errors import DomainError, OptionsError, RuleError
from service.adapters.connections import STORE_UNAVAILABLE
from service.errors import (
    BadRequest,
    Busy,
    Conflict,
    Forbidden,
    Gone,
    NotFound,
    Refused,
    ServiceError,
    SocketsUnsupported,
    TooMany,
    Unauthorized,
    UpgradeRequired,
    VersionConflict,
)
from service.http.bodies import drain_body
from service.http.json import encode
from service.http.limits import retry_after_s
from service.http.paths import nearest_path

log = logging.getLogger(__name__)

STATUS: dict[type[Exception], int] = {
    BadRequest: 400,
    ValidationError: 400,
    Unauthorized: 401,
    Forbidden: 403,
    NotFound: 404,
    VersionConflict: 409,
    Conflict: 409,
    Gone: 410,
    Refused: 422,
    # Options, seat counts or a card set that match the request schema but no game is created with.
    OptionsError: 422,
    RuleError: 422,
    DomainError: 422,
    UpgradeRequired: 426,
    TooMany: 429,
    SocketsUnsupported: 501,
    Busy: 503,
}


# Seconds a client waits before retrying while the store is down: a Redis
# restart with AOF `always` takes a few seconds.
RETRY_AFTER_S = 2


def status_of(error: Exception) -> int:
    """Return the status an error is answered with (500 for what no entry covers)."""
    return next((STATUS[cls] for cls in type(error).__mro__ if cls in STATUS), 500)


def error_response(status: int, code: str, message: str, details: Any = None) -> tuple[Response, int]:
    """Return the JSON error body with its status.

    Details may echo what the client sent (a number from the URL, say); what
    JSON cannot carry (an integer past 64 bits) is left out rather than
    turning a refusal into a 500.
    """
    response = jsonify(error_body(code, message, details))
    drain_body(response)
    return response, status


def error_body(code: str, message: str, details: Any = None) -> dict[str, Any]:
    """Return the JSON error body, whatever carries it (an HTTP answer, a game socket's message)."""
    try:
        # The encoder of every response: marshmallow keys a list item's messages by its index.
        encode(details)
    except TypeError:
        details = {"omitted": "details that cannot be written as JSON"}
    return {"error": {"code": code, "message": message, "details": details or {}}}


def described(error: Exception) -> tuple[int, str, str, Any]:
    """Return the status, code, message and details an error raised below a view is answered with.

    The one table for both carriers of a request: the HTTP app's error
    handlers and the game socket (service/http/sockets.py).
    """
    if isinstance(error, (ServiceError, DomainError)):
        return status_of(error), error.code, error.message, error.details
    if isinstance(error, ValidationError):
        message = "the request does not match its schema"
        first = _first_problem(error.messages)
        if first is not None:
            message = f"{message}: {first}"  # the one a newcomer fixes first; details has every one
        return 400, "invalid_request", message, error.messages
    if isinstance(error, STORE_UNAVAILABLE):
        # Redis's message names hosts and ports, never a card; it stays in the log.
        log.warning("store unavailable: %s", error)
        return (
            503,
            "store_unavailable",
            "the store is unavailable; retry the same request (with its Idempotency-Key) shortly",
            {"retry_after": RETRY_AFTER_S},
        )
    log.error("unexpected error", exc_info=error)
    return 500, "internal_error", "the server failed; nothing was changed unless a version moved", None


def rate_limited(limit: str, wait: int) -> tuple[int, str, str, Any]:
    """Return the status, code, message and details of a move or request over its client's rate limit."""
    # The limit's text ("60 per 1 minute") is the same for every client; nothing about anyone's game.
    return (
        429,
        "too_many_requests",
        f"too many requests from this address ({limit}); retry after {wait} s",
        {"retry_after": wait, "limit": limit},
    )


def _first_problem(messages: Any, path: str = "") -> str | None:
    """Return the first message of marshmallow's nested messages, with the field it is about (`seats.0: ...`)."""
    if isinstance(messages, str):
        return f"{path}: {messages}" if path else messages
    items = (
        messages.items() if isinstance(messages, dict) else enumerate(messages) if isinstance(messages, list) else ()
    )
    for key, value in items:
        # A list's messages and a schema's own (`_schema`) are about the field that holds them.
        inner = path if isinstance(messages, list) or key == "_schema" else f"{path}.{key}" if path else str(key)
        found = _first_problem(value, inner)
        if found is not None:
            return found
    return None


def register_error_handlers(app: Flask) -> None:
    """Answer every error a request can raise with its status and the JSON error body."""

    @app.errorhandler(ServiceError)
    @app.errorhandler(DomainError)
    def _typed(error: ServiceError | DomainError) -> ResponseReturnValue:
        response, status = error_response(*described(error))
        if isinstance(error, (Busy, TooMany)):
            response.headers["Retry-After"] = str(error.details["retry_after"])
        return response, status

    @app.errorhandler(ValidationError)
    def _invalid(error: ValidationError) -> ResponseReturnValue:
        return error_response(*described(error))

    @app.errorhandler(HTTPException)
    def _http(error: HTTPException) -> ResponseReturnValue:
        code = (error.name or "error").lower().replace(" ", "_")
        meant = nearest_path(request.path) if error.code == 404 else None
        if meant is not None:
            # A newcomer's `/game/<id>`: say which path the API has rather than a bare "not found".
            return error_response(404, code, f"no such path; did you mean {meant}?", {"did_you_mean": meant})
        response, status = error_response(error.code or 500, code, error.description or error.name)
        # Keep what the exception says beside its body: `Allow` on a 405, `Retry-After` on a 429.
        for name, value in error.get_headers():
            if name.lower() != "content-type":
                response.headers[name] = value
        return response, status

    @app.errorhandler(RateLimitExceeded)
    def _rate_limited(error: RateLimitExceeded) -> ResponseReturnValue:
        wait = retry_after_s(current_app)
        response, status = error_response(*rate_limited(str(error.description), wait))
        response.headers["Retry-After"] = str(wait)
        return response, status

    def _store_unavailable(error: Exception) -> ResponseReturnValue:
        response, status = error_response(*described(error))
        response.headers["Retry-After"] = str(RETRY_AFTER_S)
        return response, status

    for unavailable in STORE_UNAVAILABLE:
        app.register_error_handler(unavailable, _store_unavailable)

    @app.errorhandler(Exception)
    def _unexpected(error: Exception) -> ResponseReturnValue:
        return error_response(*described(error))
