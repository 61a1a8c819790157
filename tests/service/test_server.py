"""`menagerie serve` runs gunicorn with threaded workers and gunicorn's parsing limits at their most generous."""

from __future__ import annotations

from service.cli.server import ApiServer, gunicorn_options


def test_gunicorn_runs_gthread_workers_with_timeouts():
    options = gunicorn_options("127.0.0.1", 8000, 4)
    assert options["worker_class"] == "gthread" and options["workers"] == 4 and options["threads"] >= 2
    assert options["timeout"] > 0 and options["graceful_timeout"] > 0


def test_gunicorn_accepts_every_setting_we_give_it():
    server = ApiServer(gunicorn_options("127.0.0.1", 8000, 2))
    assert server.cfg.worker_class_str == "gthread"
    assert server.cfg.limit_request_line == 8190
    assert server.cfg.limit_request_fields == 200
