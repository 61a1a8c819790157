"""Every error code the server can answer is in openapi.yaml's ErrorCode enum, with one status each."""

from __future__ import annotations

import importlib
import pkgutil
import re

import domain
import service
from domain.errors import DomainError
from service.errors import ServiceError
from service.http.errors import STATUS
from tests.support.openapi import SPEC

ENUM = set(SPEC["components"]["schemas"]["ErrorCode"]["enum"])


def _subclasses(cls: type) -> set[type]:
    found = set(cls.__subclasses__())
    for sub in list(found):
        found |= _subclasses(sub)
    return found


def _import_everything() -> None:
    for package in (domain, service):
        for module in pkgutil.walk_packages(package.__path__, f"{package.__name__}."):
            importlib.import_module(module.name)


def test_every_domain_error_code_is_in_the_enum():
    _import_everything()
    codes = {DomainError.code} | {
        cls.code for cls in _subclasses(DomainError) if not cls.__module__.startswith("tests")
    }
    assert codes - ENUM == set()


def _statuses() -> dict[str, set[int]]:
    """Return every code the service's error classes carry, with the statuses they are answered with."""
    _import_everything()
    classes = {DomainError, ServiceError} | _subclasses(DomainError) | _subclasses(ServiceError)
    statuses: dict[str, set[int]] = {}
    for cls in classes:
        if cls.__module__.startswith("tests"):
            continue
        status = next((STATUS[base] for base in cls.__mro__ if base in STATUS), 500)
        statuses.setdefault(cls.code, set()).add(status)
    return statuses


def test_every_code_the_service_raises_is_in_the_enum_with_one_status():
    statuses = _statuses()
    assert {"missing_token", "game_not_found", "game_type_not_found", "version_conflict"} <= set(statuses)
    assert set(statuses) - ENUM == set()
    assert {code: s for code, s in statuses.items() if len(s) > 1} == {}


def test_the_codes_the_generic_handlers_make_are_in_the_enum():
    # werkzeug's errors become their snake_cased names; the catch-all is internal_error; outages store_unavailable.
    assert {"not_found", "method_not_allowed", "bad_request", "internal_error", "store_unavailable"} <= ENUM


# The codes the generic handlers make (service/http/errors.py), with their statuses.
GENERIC = {
    "invalid_request": 400,
    "bad_request": 400,
    "not_found": 404,
    "method_not_allowed": 405,
    "request_timeout": 408,  # the async front's, before the app (service/http/front_bodies.py)
    "request_entity_too_large": 413,
    "too_many_requests": 429,
    "internal_error": 500,
    "store_unavailable": 503,
    "server_busy": 503,  # the async front's, before the app
}
DESCRIBED = re.compile(r"^- `(\w+)` \((\d{3})\): \S", re.MULTILINE)


def test_every_code_in_the_enum_is_described_once_with_the_status_it_is_answered_with():
    described = DESCRIBED.findall(SPEC["components"]["schemas"]["ErrorCode"]["description"])
    codes = [code for code, _ in described]
    assert len(codes) == len(set(codes)) and set(codes) == ENUM
    statuses = _statuses()
    for code, status in described:
        assert statuses.get(code, {GENERIC.get(code)}) == {int(status)}, code
