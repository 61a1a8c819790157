"""Check responses against openapi.yaml, so that the contract and the code cannot drift."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import yaml
from openapi_schema_validator import OAS30Validator

SPEC = yaml.safe_load((Path(__file__).parent.parent.parent / "openapi.yaml").read_text())


def _resolve(node: Any) -> Any:
    if isinstance(node, dict):
        if "$ref" in node:
            target: Any = SPEC
            for part in node["$ref"].removeprefix("#/").split("/"):
                target = target[part]
            return _resolve(target)
        return {key: _resolve(value) for key, value in node.items()}
    if isinstance(node, list):
        return [_resolve(item) for item in node]
    return node


def check_response(path: str, method: str, response: Any) -> None:
    """Assert that a test client response matches the spec for its path, method and status."""
    operation = _resolve(SPEC["paths"][path][method])
    documented = operation["responses"].get(str(response.status_code))
    assert documented is not None, f"{method.upper()} {path} answered {response.status_code}, not in openapi.yaml"
    schema = documented["content"]["application/json"]["schema"]
    OAS30Validator(schema).validate(response.json)
