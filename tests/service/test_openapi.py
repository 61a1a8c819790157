"""openapi.yaml is a valid contract and lists exactly the routes the app serves."""

from __future__ import annotations

import re
import tomllib
from pathlib import Path

import yaml
from openapi_spec_validator import validate

from domain.game import CORE_EVENTS
from service.http import create_app

ROOT = Path(__file__).parent.parent.parent
SPEC = yaml.safe_load((ROOT / "openapi.yaml").read_text())


def test_the_spec_is_valid_openapi():
    validate(SPEC)


def test_every_route_is_in_the_spec_and_every_spec_path_is_served(fake_services):
    app = create_app(fake_services)
    served = set()
    for rule in app.url_map.iter_rules():
        # The web page (index.html and its static files) is not part of the JSON contract.
        if rule.endpoint == "static" or rule.endpoint.startswith("web."):
            continue
        path = re.sub(r"<(?:\w+:)?(\w+)>", r"{\1}", rule.rule).replace("{game_id}", "{id}")
        for method in rule.methods - {"HEAD", "OPTIONS"}:
            served.add((path, method.lower()))
    documented = {(path, method) for path, item in SPEC["paths"].items() for method in item if method != "parameters"}
    assert served == documented


def test_every_core_event_has_a_schema():
    """The events every game shares (a move clock's `TimedOut` among them) are typed in the spec."""
    mapping = SPEC["components"]["schemas"]["Event"]["discriminator"]["mapping"]
    assert CORE_EVENTS <= set(mapping)


AREAS = {"games", "tournaments", "streams", "audit", "service", "players"}


def test_the_spec_version_is_the_package_version():
    project = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]
    assert SPEC["info"]["version"] == project["version"]


def test_every_operation_is_tagged_with_one_described_area():
    assert {tag["name"] for tag in SPEC["tags"]} == AREAS and all(tag["description"] for tag in SPEC["tags"])
    for path, item in SPEC["paths"].items():
        for method, operation in item.items():
            if method != "parameters":
                assert len(operation["tags"]) == 1 and operation["tags"][0] in AREAS, f"{method} {path}"
