"""The app keeps no session: a view reads an empty one and may not write it, as Flask's own without a secret key."""

from __future__ import annotations

import pytest
from flask import Flask, session

from service.http import create_app


def _reads_empty_and_refuses_writes(app: Flask) -> None:
    for _ in range(2):  # the second request gets the same answers as the first
        with app.test_request_context("/health"):
            assert session.get("seat") is None and not session
            with pytest.raises(RuntimeError, match="secret key"):
                session["seat"] = 1
            with pytest.raises(RuntimeError, match="secret key"):
                session.permanent = True


def test_a_view_reads_an_empty_session_and_may_not_write_it(fake_services):
    _reads_empty_and_refuses_writes(create_app(fake_services))


def test_flask_s_own_sessions_without_a_secret_key_answer_alike():
    _reads_empty_and_refuses_writes(Flask(__name__))


def test_an_app_given_a_secret_key_keeps_flask_s_sessions(fake_services):
    app = create_app(fake_services, {"SECRET_KEY": "k"})
    with app.test_request_context("/health"):
        session["seat"] = 1
        assert session["seat"] == 1
