"""The Flask app factory."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from flask import Flask

from service.api import api
from service.errors import register_error_handlers
from service.tournament_api import tournaments
from service.web import web
from service.wiring import Services, from_env


def create_app(services: Services | None = None, config: Mapping[str, Any] | None = None) -> Flask:
    """Build the app on the given services (tests) or on the environment's."""
    app = Flask(__name__)
    app.config.update(config or {})
    app.json.sort_keys = False  # type: ignore[attr-defined]  # DefaultJSONProvider has it
    app.extensions["menagerie"] = services or from_env()
    register_error_handlers(app)
    app.register_blueprint(api)
    app.register_blueprint(tournaments)
    app.register_blueprint(web)
    return app
