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
import yaml
from hypothesis import HealthCheck, settings
from schemathesis.config import SchemathesisConfig

from service.bootstrap import build
from service.http import create_app
from tests.support import fuzz_targets  # noqa: F401 (registers the auth provider that aims cases at real targets)
from tests.support.live_server import SPEC

SPEC_PATHS = yaml.safe_load(SPEC.read_text())["paths"]
METHODS = {"get", "post", "put", "patch", "delete"}

SERVICES = build(fakeredis.FakeRedis(), "schemathesis", inline_jobs=True, embedded=True)
APP = create_app(SERVICES, {"RATE_LIMITS_ENABLED": False})

# Every operation, the live streams too: the fuzz targets aim a stream at a finished game or tournament
# (or a made-up id), since a stream stays open while play goes on.
CONFIG = SchemathesisConfig.from_path(SPEC.parent / "schemathesis.toml")
SCHEMA = schemathesis.openapi.from_path(SPEC, config=CONFIG)
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
    # A link to a stream (from a create) would open it on a game or tournament in play: it stays open.
    machine = SCHEMA.exclude(operation_id="getAudit").exclude(path_regex=r".*/stream$").as_state_machine()
    machine.run(settings=settings(SETTINGS, max_examples=15, stateful_step_count=6))


def test_every_operation_of_the_spec_is_fuzzed():
    operations = {f"{op.method.upper()} {op.path}" for op in (result.ok() for result in SCHEMA.get_all_operations())}
    assert "GET /games/{id}/stream" in operations and "GET /tournaments/{tournament_id}/stream" in operations
    assert operations == {
        f"{method.upper()} {path}" for path, item in SPEC_PATHS.items() for method in item if method in METHODS
    }


@pytest.mark.parametrize("path", ["/games/{id}/stream", "/tournaments/{tournament_id}/stream"])
def test_every_message_of_a_finished_stream_matches_its_schema_in_openapi_yaml(path: str) -> None:
    # What schemathesis's response_schema_conformance (ST108) checks of each message, on a stream that ends.
    targets = fuzz_targets.make_targets(fuzz_targets._Http(APP, None))
    target = targets["finished" if path.startswith("/games") else "finished_tournament"]
    case = SCHEMA[path]["GET"].Case(path_parameters=target.path)
    response = case.call()  # schemathesis reads a stream's first messages
    assert response.status_code == 200 and "\nevent: " in response.text
    case.validate_response(response)
