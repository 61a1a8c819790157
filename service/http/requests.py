"""What every view needs from the request: the services, the JSON body, the query."""

from __future__ import annotations

from typing import Any

from flask import current_app, request
from marshmallow import Schema

from service.bootstrap import Services
from service.errors import MalformedJson


def services() -> Services:
    """Return the services wired into the app."""
    services: Services = current_app.extensions["menagerie"]
    return services


def body(schema: Schema) -> dict[str, Any]:
    """Parse and validate a JSON object body (400 when it is not one)."""
    data = request.get_json(silent=True)
    if data is None:
        raise MalformedJson("the body must be JSON (Content-Type: application/json)")
    if not isinstance(data, dict):
        raise MalformedJson("the body must be a JSON object")
    loaded: dict[str, Any] = schema.load(data)
    return loaded


def query(schema: Schema) -> dict[str, Any]:
    """Parse and validate the query string."""
    loaded: dict[str, Any] = schema.load(request.args.to_dict())
    return loaded


def bearer_token() -> str | None:
    """Return the bearer token of the Authorization header, "" for another scheme, None without one."""
    header = request.headers.get("Authorization")
    if not header:
        return None
    scheme, _, token = header.partition(" ")
    return token.strip() if scheme.lower() == "bearer" else ""
