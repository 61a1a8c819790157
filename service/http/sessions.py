"""No sessions: the API knows its callers by their tokens, never by a cookie.

Flask opens a session for every request. With no secret key (the app has
none) its default opens none and makes a fresh null session instead, one
that refuses to be written, and saves nothing. `NoSessions` hands every
request the same null session: the same refusal and nothing saved, without
a new object and a look for a cookie on every request.
"""

from __future__ import annotations

from flask import Flask, Request, Response
from flask.sessions import SessionInterface, SessionMixin


class NoSessions(SessionInterface):
    """Flask's session interface for an app that keeps no session: one null session for every request."""

    def __init__(self, app: Flask) -> None:
        self._null = self.make_null_session(app)

    def open_session(self, app: Flask, request: Request) -> SessionMixin:
        """Return the null session (Flask's hook)."""
        return self._null

    def save_session(self, app: Flask, session: SessionMixin, response: Response) -> None:
        """Save nothing: a null session is never saved (Flask does not even ask)."""


def install_no_sessions(app: Flask) -> None:
    """Have `app` open no session for its requests, as Flask's default does while there is no secret key."""
    if app.secret_key is None:
        app.session_interface = NoSessions(app)
