"""One error shape, one status per error type: `{"error": {"code", "message", "details"}}`."""

from __future__ import annotations

import logging
from typing import Any

from flask import Flask, jsonify
from marshmallow import ValidationError
from werkzeug.exceptions import HTTPException

from domain.errors import DomainError, OptionsError, RuleError
from service.archive import GameInPlay
from service.repository import GameNotFound
from service.store import VersionConflict

log = logging.getLogger(__name__)


class ApiError(Exception):
    """An error raised by the HTTP layer itself (auth, lookups)."""

    def __init__(self, status: int, code: str, message: str, **details: Any) -> None:
        super().__init__(message)
        self.status, self.code, self.message, self.details = status, code, message, details


def _body(status: int, code: str, message: str, details: Any = None) -> Any:
    return jsonify({"error": {"code": code, "message": message, "details": details or {}}}), status


def register_error_handlers(app: Flask) -> None:
    """Map every error a request can raise to its status and JSON body."""

    @app.errorhandler(ApiError)
    def _api(error: ApiError) -> Any:
        return _body(error.status, error.code, error.message, error.details)

    @app.errorhandler(ValidationError)
    def _invalid(error: ValidationError) -> Any:
        return _body(400, "invalid_request", "the request does not match its schema", error.messages)

    @app.errorhandler(OptionsError)
    def _options(error: OptionsError) -> Any:
        return _body(400, error.code, error.message, error.details)

    @app.errorhandler(GameInPlay)
    def _in_play(error: GameInPlay) -> Any:
        return _body(403, error.code, error.message, error.details)

    @app.errorhandler(RuleError)
    def _rule(error: RuleError) -> Any:
        return _body(422, error.code, error.message, error.details)

    @app.errorhandler(DomainError)
    def _domain(error: DomainError) -> Any:
        return _body(422, error.code, error.message, error.details)

    @app.errorhandler(GameNotFound)
    def _not_found(error: GameNotFound) -> Any:
        return _body(404, "game_not_found", f"no game with id {error.args[0]!r}")

    @app.errorhandler(VersionConflict)
    def _conflict(error: VersionConflict) -> Any:
        return _body(409, "version_conflict", str(error), {"expected": error.expected, "actual": error.actual})

    @app.errorhandler(HTTPException)
    def _http(error: HTTPException) -> Any:
        code = (error.name or "error").lower().replace(" ", "_")
        return _body(error.code or 500, code, error.description or error.name)

    @app.errorhandler(Exception)
    def _unexpected(error: Exception) -> Any:
        log.exception("unexpected error")
        return _body(500, "internal_error", "the server failed; nothing was changed unless a version moved")
