"""The HTTP entry: the Flask app factory, one blueprint per resource."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from flask import Flask

from service.bootstrap import Services, from_env
from service.http.audits import audits
from service.http.bot_games import bot_games_default
from service.http.errors import register_error_handlers
from service.http.games import games
from service.http.json import OrjsonProvider
from service.http.limits import install_limits, limit_defaults
from service.http.paths import install_id_checks
from service.http.players import players
from service.http.routing import App
from service.http.security import install_security_headers
from service.http.sessions import install_no_sessions
from service.http.streams import max_streams_default, streams
from service.http.tournaments import tournaments
from service.http.transparency import transparency
from service.http.views import install_views
from service.web import web

# No request needs more: the largest legal body (a create with eight seats and
# options) is a few hundred bytes. A larger one is a 413 in the JSON error shape.
MAX_BODY_BYTES = 64 * 1024


def create_app(services: Services | None = None, config: Mapping[str, Any] | None = None) -> Flask:
    """Build the app on the given services (tests) or on the environment's."""
    app = App(__name__)
    app.config["MAX_CONTENT_LENGTH"] = MAX_BODY_BYTES
    app.config.update(limit_defaults())
    app.config["MAX_STREAMS"] = max_streams_default()
    app.config["BOT_GAMES_PER_ADDRESS"] = bot_games_default()
    app.config.update(config or {})
    app.json = OrjsonProvider(app)
    # Served, the embedded jobs run beside the requests: a request is answered, bots play on.
    services = services or from_env(background_jobs=True)
    app.extensions["menagerie"] = services
    register_error_handlers(app)
    install_id_checks(app)
    install_views(app)
    app.register_blueprint(games)
    app.register_blueprint(tournaments)
    app.register_blueprint(players)
    app.register_blueprint(audits)
    app.register_blueprint(streams)
    app.register_blueprint(transparency)
    app.register_blueprint(web)
    install_limits(app, services)
    install_security_headers(app)
    install_no_sessions(app)
    return app
