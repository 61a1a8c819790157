"""Check responses against openapi.yaml, so that the contract and the code cannot drift.

Every response body is validated against its operation's schema for the status
(or `default`), with two tightenings that make drift visible:

- every object schema that names its properties and says nothing of others is
  closed (`additionalProperties: false`), so a field the code adds without its
  line in the spec fails;
- `nullable` is read the way generated clients read it (null, or the schema),
  including on `oneOf`/`allOf` wrappers, which OAS 3.0 validators leave out.

`SpecCheckingClient` runs the check on every request a Flask test client makes;
conftest.py installs it for every app the suite builds.
"""

from __future__ import annotations

import copy
import json
import re
from functools import cache
from pathlib import Path
from typing import Any

import yaml
from flask.testing import FlaskClient
from jsonschema import Draft202012Validator, FormatChecker

SPEC = yaml.safe_load((Path(__file__).parent.parent.parent / "openapi.yaml").read_text())
GAMES = frozenset(SPEC["components"]["schemas"]["GameView"]["properties"]["state"]["discriminator"]["mapping"])
_OAS_ONLY = ("discriminator", "example", "nullable", "externalDocs", "xml", "readOnly", "writeOnly", "deprecated")


def _resolve(node: Any) -> Any:
    """Return `node` with every local $ref replaced by its target (the spec has no cycles)."""
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


def _merge_all_of(schema: dict[str, Any]) -> dict[str, Any]:
    """Fold an allOf of objects into one object schema, so that closing it does not reject the parts."""
    merged: dict[str, Any] = {k: v for k, v in schema.items() if k != "allOf"}
    merged.setdefault("type", "object")
    properties: dict[str, Any] = dict(merged.get("properties", {}))
    required: list[str] = list(merged.get("required", []))
    for part in schema["allOf"]:
        part = _merge_all_of(part) if "allOf" in part else part
        properties.update(part.get("properties", {}))
        required += [name for name in part.get("required", []) if name not in required]
        for key in ("description",):
            if key in part and key not in merged:
                merged[key] = part[key]
    merged["properties"], merged["required"] = properties, required
    return merged


def _strict(node: Any) -> Any:
    """Turn a resolved OAS 3.0 schema into a closed JSON Schema 2020-12 one."""
    if isinstance(node, list):
        return [_strict(item) for item in node]
    if not isinstance(node, dict):
        return node
    if "allOf" in node and all(isinstance(p, dict) and ("properties" in p or "allOf" in p) for p in node["allOf"]):
        node = _merge_all_of(node)
    nullable = node.get("nullable", False)
    out: dict[str, Any] = {}
    for key, value in node.items():
        if key in _OAS_ONLY:
            continue
        if key == "properties":
            out[key] = {name: _strict(sub) for name, sub in value.items()}
        elif key in ("items", "additionalProperties", "not"):
            out[key] = _strict(value)
        elif key in ("oneOf", "anyOf", "allOf"):
            out[key] = [_strict(sub) for sub in value]
        else:
            out[key] = copy.deepcopy(value)
    if "properties" in out and "additionalProperties" not in out:
        out["additionalProperties"] = False
    if "discriminator" in node and "oneOf" in out:
        out = _dispatch(node["discriminator"]["propertyName"], out)
    if nullable:
        if "enum" in out:
            out["enum"] = [*out["enum"], None]
        return {"anyOf": [{"type": "null"}, out]}
    return out


def _dispatch(tag: str, schema: dict[str, Any]) -> dict[str, Any]:
    """Validate a discriminated oneOf against the one variant its tag names (the same verdict, far faster)."""
    variants = {variant["properties"][tag]["enum"][0]: variant for variant in schema.pop("oneOf")}
    return {
        **schema,
        "type": "object",
        "required": [tag],
        "properties": {tag: {"enum": list(variants)}},
        "allOf": [{"if": {"properties": {tag: {"const": value}}}, "then": v} for value, v in variants.items()],
    }


@cache
def _operations() -> list[tuple[re.Pattern[str], str, str]]:
    """Return (path regex, spec path, method) for every operation."""
    out = []
    for path, item in SPEC["paths"].items():
        pattern = re.compile("^" + re.sub(r"\\\{[^}]+\\\}", "[^/]+", re.escape(path)) + "$")
        for method in item:
            if method != "parameters":
                out.append((pattern, path, method))
    return out


def spec_path(path: str, method: str) -> str | None:
    """Return the spec path that serves a concrete request path and method (None: not in the spec)."""
    for pattern, template, verb in _operations():
        if verb == method and pattern.match(path):
            return template
    return None


@cache
def validator(path: str, method: str, status: str, media_type: str) -> Draft202012Validator:
    """Return a validator for one documented response body."""
    responses = SPEC["paths"][path][method]["responses"]
    documented = _resolve(responses[status])
    schema = _strict(documented["content"][media_type]["schema"])
    return Draft202012Validator(schema, format_checker=FormatChecker())


@cache
def _line_validators() -> tuple[Draft202012Validator, Draft202012Validator]:
    export = _strict(_resolve(SPEC["components"]["schemas"]["GameExport"]))
    checker = FormatChecker()
    header = Draft202012Validator(export["properties"]["header"], format_checker=checker)
    return header, Draft202012Validator(export["properties"]["events"]["items"], format_checker=checker)


def _status_key(path: str, method: str, status: int) -> str:
    responses = SPEC["paths"][path][method]["responses"]
    if str(status) in responses:
        return str(status)
    assert "default" in responses, f"{method.upper()} {path} answered {status}, not in openapi.yaml"
    assert status >= 400, f"{method.upper()} {path} answered {status}, which only `default` (errors) could cover"
    return "default"


def _fail(where: str, error: Any) -> None:
    raise AssertionError(
        f"{where}: the response does not match openapi.yaml at {list(error.absolute_path)}: {error.message}"
    )


def check_response(path: str, method: str, response: Any) -> None:
    """Assert that a test client response matches the spec for its path, method and status."""
    status = _status_key(path, method, response.status_code)
    if getattr(response, "about_another_game", False):
        return
    content = SPEC["paths"][path][method]["responses"][status]
    content = _resolve(content).get("content", {})
    where = f"{method.upper()} {path} {response.status_code}"
    media_type = response.mimetype
    assert media_type in content, f"{where} answered {media_type}, not documented"
    if media_type == "text/event-stream":
        return  # a live stream is read by its test, never drained here (it may not end)
    if media_type.startswith("text/"):
        assert isinstance(response.get_data(as_text=True), str)  # CSV and printable pages: text, checked by their tests
        return
    if media_type == "application/x-ndjson" and path != "/games/{id}/export":
        for line in response.get_data(as_text=True).splitlines():
            json.loads(line)  # a tournament bundle: sections of JSON lines, audited by its own tests
        return
    if media_type == "application/x-ndjson":
        header, event = _line_validators()
        lines = response.get_data(as_text=True).splitlines()
        for number, line in enumerate(lines):
            for error in (header if number == 0 else event).iter_errors(json.loads(line)):
                _fail(f"{where} line {number + 1}", error)
        return
    for error in validator(path, method, status, media_type).iter_errors(response.get_json()):
        _fail(where, error)


class SpecCheckingClient(FlaskClient):
    """A Flask test client that checks every response against openapi.yaml.

    Responses about a game type the spec does not describe (the test suite's own
    toy game) are not checked: the contract covers the four real games only.
    """

    def open(self, *args: Any, **kwargs: Any) -> Any:
        """Make the request, then check its response against the spec."""
        response = super().open(*args, **kwargs)
        request = response.request
        path = spec_path(request.path, request.method.lower())
        if path is not None:
            response.about_another_game = self._about_another_game(path, request.path, response)
            check_response(path, request.method.lower(), response)
        return response

    def _about_another_game(self, path: str, request_path: str, response: Any) -> bool:
        """Tell whether the response is about a game type outside the spec (the toy game)."""
        game_type = None
        if path.startswith("/games/{id}"):
            services = self.application.extensions["menagerie"]
            try:
                game_type = services.repository.cached(
                    request_path.split("/")[2]
                ).type  # no read: the type never changes
            except Exception:  # noqa: BLE001 - an unknown game: its 404 is checked
                game_type = None
        body = response.get_json(silent=True)
        if game_type is None and isinstance(body, dict):
            game_type = body.get("game") or (body.get("tournament") or {}).get("game")
        return isinstance(game_type, str) and path != "/games" and game_type not in GAMES
