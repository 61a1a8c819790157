"""Schemathesis against the app in-process: every operation of openapi.yaml, then linked sequences of them.

Schemathesis generates requests from openapi.yaml, valid and invalid, and
runs all its checks on each answer: no 5xx, every status and body documented,
a request the spec allows is not refused as malformed (400), one it forbids
is refused. Most cases are aimed at ids that exist, with their tokens
(tests/support/fuzz_targets.py), so the routes are reached past their 404s,
and schemathesis checks that each route needing a token refuses the request
without it. Seeded and bounded, so the suite
runs the same examples every time; the stateful run follows the spec's links
(create a game, then read, act on, export and audit it).
The live 10-minute run against `make run` is `make fuzz` (docs/contributors.md).
"""

from __future__ import annotations

import fakeredis
import pytest
import schemathesis
from hypothesis import HealthCheck, settings
from schemathesis.config import SchemathesisConfig

from service.bootstrap import build
from service.http import create_app
from tests.support import fuzz_targets  # noqa: F401 (registers the auth provider that aims cases at real targets)
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


@SCHEMA.parametrize()
@SETTINGS
def test_every_operation(case: schemathesis.Case) -> None:
    case.call_and_validate()


@pytest.mark.filterwarnings("ignore::DeprecationWarning")
def test_linked_operations() -> None:
    # No fuzzed game or tournament is long enough for its audit to be a job (a 202), so the links from
    # a 202 to the audit it names never fire here; tests/service/test_audit_jobs.py follows them.
    machine = SCHEMA.exclude(operation_id="getAudit").as_state_machine()
    machine.run(settings=settings(SETTINGS, max_examples=15, stateful_step_count=6))
