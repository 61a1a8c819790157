"""Schemathesis against the app in-process: every operation of openapi.yaml, then linked sequences of them.

Schemathesis generates requests from openapi.yaml, valid and invalid, and
runs all its checks on each answer: no 5xx, every status and body documented,
a request the spec allows is not refused as malformed (400), one it forbids
is refused. Half the cases are aimed at ids that exist (a game in play with
its seat's token, a finished game, a tournament with the organiser's token),
so the routes are reached past their 404s. Seeded and bounded, so the suite
runs the same examples every time; the stateful run follows the spec's links
(create a game, then read, act on, export and audit it).
The live 10-minute run against `make run` is `make fuzz` (README).
"""

from __future__ import annotations

import zlib
from typing import Any

import fakeredis
import pytest
import schemathesis
from hypothesis import HealthCheck, settings
from schemathesis.config import SchemathesisConfig
from schemathesis.specs.openapi.checks import ignored_auth

from service.bootstrap import build
from service.http import create_app
from tests.support.live_server import SPEC

SERVICES = build(fakeredis.FakeRedis(), "schemathesis", inline_jobs=True, embedded=True)
APP = create_app(SERVICES, {"RATE_LIMITS_ENABLED": False})

# Streams (server-sent events) stay open while a game plays; tests/service/test_streams.py covers them.
CONFIG = SchemathesisConfig.from_path(SPEC.parent / "schemathesis.toml")
SCHEMA = schemathesis.openapi.from_path(SPEC, config=CONFIG).exclude(path_regex=r".*/stream$")
SCHEMA.app = APP

SETTINGS = settings(
    max_examples=50,
    derandomize=True,  # the same examples on every run: a failure here is reproducible as it stands
    deadline=None,
    database=None,
    suppress_health_check=list(HealthCheck),
)


def _targets() -> dict[str, dict[str, Any]]:
    client = APP.test_client()
    live = client.post("/games", json={"game": "bloede-kuh", "seats": [{"name": "ann"}, {"bot": "random"}, {}]}).json
    done = client.post("/games", json={"game": "zop-zoo", "seats": [{"bot": "random"}, {"bot": "random"}]}).json
    tournament = client.post("/tournaments", json={"game": "life-is-life", "rounds": 1}).json
    return {
        "live": {"id": live["id"], "token": live["seats"][0]["token"]},
        "done": {"id": done["id"], "token": None},
        "tournament": {"tournament_id": tournament["id"], "token": tournament["organiser_token"]},
    }


TARGETS = _targets()


def _aim(case: schemathesis.Case, target: str | None) -> bool:
    """Point the case at an existing game or tournament (with its token), when its path names one.

    Return whether a token was added: schemathesis's own check that a route refuses
    missing credentials cannot strip a header it did not generate, so it is left out then.
    """
    if target is None or not case.path_parameters:
        return False
    aimed = TARGETS["tournament" if "tournament_id" in case.path_parameters else target]
    for name in case.path_parameters:
        if name in aimed:
            case.path_parameters[name] = aimed[name]
    if aimed["token"] is None:
        return False
    case.headers = {**(case.headers or {}), "Authorization": f"Bearer {aimed['token']}"}
    return True


@SCHEMA.parametrize()
@SETTINGS
def test_every_operation(case: schemathesis.Case) -> None:
    # Which target, from the generated case itself: deterministic, as the examples are.
    target = [None, "live", "done"][zlib.crc32(repr((case.path_parameters, case.query)).encode()) % 3]
    with_token = _aim(case, target)
    case.call_and_validate(excluded_checks=[ignored_auth] if with_token else None)


@pytest.mark.filterwarnings("ignore::DeprecationWarning")
def test_linked_operations() -> None:
    machine = SCHEMA.as_state_machine()
    machine.run(settings=settings(SETTINGS, max_examples=15, stateful_step_count=6))
