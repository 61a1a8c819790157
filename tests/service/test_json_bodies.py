"""A body's JSON is read by orjson when it can, and answered exactly as the strict standard parser answers."""

from __future__ import annotations

import pytest

from service.errors import MalformedJson
from service.http.requests import MAX_DEPTH, parse_json, strict_json

BODIES = [
    b'{"action": {"type": "discard", "species": "sheep"}, "expected_version": 12}',
    b'{"a": NaN}',
    b'{"a": Infinity}',
    b'{"a": "\\ud800"}',
    b'{"\\udc00": 1}',
    b'{"a": 9223372036854775807}',
    b'{"a": -9223372036854775807}',
    b'{"a": 9223372036854775808}',
    b'{"a": 18446744073709551616}',
    b'{"a": 1e400}',
    b'{"a": 1.5, "b": 1E2, "c": -0}',
    b"\xff",
    b"",
    b'{"a": 1, "a": 2}',
    b'\xef\xbb\xbf{"a": 1}',
    '{"a": 1}'.encode("utf-16"),
    b'[1, "x", null, true, false, {"b": [2]}]',
    *(b"[" * depth + b"1" + b"]" * depth for depth in (MAX_DEPTH - 1, MAX_DEPTH, MAX_DEPTH + 1)),
    *(b'{"a":' * depth + b"[]" + b"}" * depth for depth in (MAX_DEPTH - 1, MAX_DEPTH, MAX_DEPTH + 1)),
]


def answer(parse, raw: bytes) -> tuple[str, object]:
    try:
        return "value", parse(raw)
    except MalformedJson as refused:
        return "refused", str(refused)


@pytest.mark.parametrize("raw", BODIES)
def test_the_fast_reading_answers_as_the_strict_one(raw):
    assert answer(parse_json, raw) == answer(strict_json, raw)


def test_the_strict_checks_still_refuse():
    assert answer(parse_json, b'{"a": 9223372036854775808}')[0] == "refused"
    assert answer(parse_json, b'{"a": "\\ud800"}')[0] == "refused"
    assert answer(parse_json, b"[" * (MAX_DEPTH + 1) + b"1" + b"]" * (MAX_DEPTH + 1))[0] == "refused"
