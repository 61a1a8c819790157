"""At start the service reads Redis's durability settings: it warns when they differ from the docs', or refuses."""

from __future__ import annotations

import logging
from typing import Any

import pytest

from service.adapters.connections import ConfigError
from service.adapters.durability import check_durability, durability_gaps
from service.cli import main
from service.cli.server import EMBEDDED_SERVER, _without_development_warning

DURABLE = {"appendonly": "yes", "appendfsync": "always", "maxmemory-policy": "noeviction"}


class Settings:
    """A Redis client as far as its CONFIG GET goes."""

    def __init__(self, **settings: str) -> None:
        self.settings = {**DURABLE, **{name.replace("_", "-"): value for name, value in settings.items()}}

    def config_get(self, name: str) -> dict[str, str]:
        return {name: self.settings[name]}


def test_a_redis_with_the_documented_settings_has_no_gap():
    assert durability_gaps(Settings()) == []


def test_each_setting_that_differs_is_named_with_what_it_costs():
    gaps = durability_gaps(Settings(appendfsync="everysec", maxmemory_policy="allkeys-lru"))
    assert gaps == [
        "Redis has appendfsync everysec, not always: with anything else a crash loses acknowledged moves",
        "Redis has maxmemory-policy allkeys-lru, not noeviction: an evicted stream is a lost game",
    ]


def test_a_cluster_answers_per_master_and_one_master_that_differs_is_a_gap():
    class Cluster:
        def config_get(self, name: str) -> dict[str, dict[str, str]]:
            return {"a:7000": {name: DURABLE[name]}, "b:7001": {name: "no" if name == "appendonly" else DURABLE[name]}}

    assert durability_gaps(Cluster()) == [
        "Redis has appendonly no, not yes: without the AOF a restart loses every move since the last snapshot"
    ]


def test_gaps_are_warnings_by_default_and_a_refusal_when_durability_is_required():
    warned: list[str] = []
    check_durability(Settings(appendonly="no"), False, lambda message, *args: warned.append(message % args))
    assert len(warned) == 1 and warned[0].startswith("Redis has appendonly no, not yes")
    with pytest.raises(ConfigError):
        check_durability(Settings(appendonly="no"), True, lambda *_: None)
    check_durability(Settings(), True, lambda *_: None)  # as documented: it starts


def test_serve_with_require_durable_refuses_to_start_on_a_redis_without_the_settings(monkeypatch, capsys):
    monkeypatch.setenv("REDIS_URL", "redis://127.0.0.1:6379/10")
    monkeypatch.setattr("service.cli.server.connect", lambda url: Settings(appendfsync="everysec"))
    started: list[Any] = []
    monkeypatch.setattr("service.cli.server.granian_server", lambda *args: started.append(args))
    assert main(["serve", "--require-durable"]) == 2
    assert started == [] and "--require-durable" in capsys.readouterr().err


def test_the_embedded_server_says_in_one_line_why_it_is_not_granian_instead_of_werkzeug_s_warning():
    startup = logging.LogRecord(
        "werkzeug",
        logging.INFO,
        __file__,
        1,
        "\x1b[31m\x1b[1mWARNING: This is a development server. Do not use it in a production deployment."
        " Use a production WSGI server instead.\x1b[0m\n * Running on http://127.0.0.1:8000",
        None,
        None,
    )
    assert _without_development_warning(startup) and startup.getMessage() == " * Running on http://127.0.0.1:8000"
    assert "\n" not in EMBEDDED_SERVER and "REDIS_URL" in EMBEDDED_SERVER
