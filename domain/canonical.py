"""The one canonical JSON encoding: what is hashed, committed to and stored.

Canonical JSON is `json.dumps(value, sort_keys=True, separators=(",", ":"),
ensure_ascii=True)`: keys sorted, no spaces, every non-ASCII character
escaped as `\\uXXXX`, floats as Python's shortest round-trip repr. Only
values every JSON reader parses back to the same value are allowed: NaN and
±Infinity (not JSON at all), integers outside the signed 64-bit range and
strings with a lone surrogate (other readers, orjson among them, refuse or
round them) raise `NonCanonicalValue`, so nothing can be hashed as one thing
and stored as another, or stored and then never read back.
"""

from __future__ import annotations

import json
from typing import Any

from domain.errors import OptionsError

INT_MIN, INT_MAX = -(1 << 63), (1 << 63) - 1

# Only an integer of 19 digits or more can be out of range. A run of 19 digits
# is looked for in the text with every digit made "0" and everything else ".":
# a substring search, over ten times faster than the regex `[0-9]{19}`, which
# counts digits afresh from every position of the text (every event is
# checked on every append; hashes are long and digit-rich).
_DIGITS_AS_ZERO = bytes(0x30 if 0x30 <= byte <= 0x39 else 0x2E for byte in range(256))
_LONG_RUN = b"0" * 19
_ENCODE = json.JSONEncoder(sort_keys=True, separators=(",", ":"), ensure_ascii=True, allow_nan=False).encode


class NonCanonicalValue(OptionsError):
    """A value with no canonical JSON form: a non-finite number or an integer out of range (HTTP 400).

    A subclass of `OptionsError` so that it is answered as malformed input; it
    names the kind of value only, never the value or where it sat.
    """

    code = "invalid_value"


def canonical_json(value: Any) -> str:
    """Serialise the way every hash, commitment and stored event is written; raise NonCanonicalValue."""
    try:
        text = _ENCODE(value)
    except ValueError:
        raise NonCanonicalValue("NaN and Infinity have no JSON form; send finite numbers") from None
    except (TypeError, RecursionError):
        raise NonCanonicalValue("the value is not JSON-native or is nested too deeply") from None
    # Both rare, so a scan of the text decides whether to walk the value.
    if _LONG_RUN in text.encode("ascii").translate(_DIGITS_AS_ZERO) or "\\ud" in text:
        _check_values(value)
    return text


def canonical_bytes(value: Any) -> bytes:
    """Return the canonical JSON of a value as ASCII bytes."""
    return canonical_json(value).encode("ascii")


def _check_values(value: Any) -> None:
    if isinstance(value, bool):
        return
    if isinstance(value, int):
        if not INT_MIN <= value <= INT_MAX:
            raise NonCanonicalValue("an integer is outside the signed 64-bit range")
    elif isinstance(value, str):
        _check_text(value)
    elif isinstance(value, dict):
        for key, item in value.items():
            _check_values(key)
            _check_values(item)
    elif isinstance(value, list | tuple):
        for item in value:
            _check_values(item)


def _check_text(text: str) -> None:
    try:
        text.encode("utf-8")
    except UnicodeEncodeError:
        raise NonCanonicalValue("a string holds a lone surrogate, which is not Unicode text") from None
