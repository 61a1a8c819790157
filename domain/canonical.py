"""The one canonical JSON encoding: what is hashed, committed to and stored.

Canonical JSON is `json.dumps(value, sort_keys=True, separators=(",", ":"),
ensure_ascii=True)`: keys sorted, no spaces, every non-ASCII character
escaped as `\\uXXXX`, floats as Python's shortest round-trip repr. Only
values every JSON reader parses back to the same value are allowed: NaN and
±Infinity (not JSON at all), integers outside the signed 64-bit range and
strings with a lone surrogate (other readers, orjson among them, refuse or
round them) raise `NonCanonicalValue`, so nothing can be hashed as one thing
and stored as another, or stored and then never read back.

The standard library's encoder defines the form. Most values (small dicts of
ASCII strings, ints, bools and None) are written by orjson instead, in half the
time or less, when its text is provably the same bytes (`_fast_bytes` says why).
"""

from __future__ import annotations

import json
import marshal
import re
from typing import Any

import orjson

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

# orjson's options for the fast path. Integers beyond ±(2**53 - 1) it refuses
# (OPT_STRICT_INTEGER), so every integer it writes is in range and the 19-digit
# check stays with the standard path. Subclasses of str, int, list and dict,
# dataclasses and datetimes it passes through to a `default` there is none of
# (TypeError): marshal refuses them first, this is a second guard.
_FAST_OPTIONS = (
    orjson.OPT_SORT_KEYS
    | orjson.OPT_STRICT_INTEGER
    | orjson.OPT_PASSTHROUGH_SUBCLASS
    | orjson.OPT_PASSTHROUGH_DATACLASS
    | orjson.OPT_PASSTHROUGH_DATETIME
)
# The shape of orjson's text, in one pass: digits deleted; the characters that
# can stand on either side of a number (`: , [ ] { }`) and a number's signs
# (`- +`) made ","; a number's `.`, `e` and `E` made "."; `n`, `u` and `l`
# kept (null); DEL and every non-ASCII byte (which the standard library
# escapes as \uXXXX) made "!"; everything else "_". A float is then ",.," or
# ",..," in the shape: its mantissa and exponent, with only digits and signs
# between and around them.
_MARKS = dict(zip(b":,[]{}-+.eEnul", b",,,,,,,,...nul", strict=True))
_SHAPE = bytes(_MARKS.get(byte, 0x5F if byte < 0x7F else 0x21) for byte in range(256))
_DIGITS = b"0123456789"
# The first byte of a number alone, which has nothing to its left in the shape.
_BARE = b"-0123456789"
# A NaN or an infinity in marshal's stream (version 4): its type byte ("g", or
# "g" | 0x80 when marshal numbers the object for back-references), then the
# double's 8 IEEE 754 bytes, little-endian, whose exponent is all ones: the
# 7th byte 0xF0 or more, the 8th 0x7F or 0xFF. (Other bytes may match too: an
# int's, say, after a "g" in a string. That only costs the standard path.)
_NON_FINITE = re.compile(rb"[g\xe7].{6}[\xf0-\xff][\x7f\xff]", re.DOTALL)
# marshal's type byte of a float, the flag it adds to an object it numbers for back-references, and DEL.
_FLOAT, _REF, _DEL = 0x67, 0x80, 0x7F


class NonCanonicalValue(OptionsError):
    """A value with no canonical JSON form: a non-finite number or an integer out of range (HTTP 400).

    A subclass of `OptionsError` so that it is answered as malformed input; it
    names the kind of value only, never the value or where it sat.
    """

    code = "invalid_value"


def canonical_json(value: Any) -> str:
    """Serialise the way every hash, commitment and stored event is written; raise NonCanonicalValue."""
    fast = _fast_bytes(value)
    if fast is not None:
        return fast.decode("ascii")
    return _standard(value)


def canonical_bytes(value: Any) -> bytes:
    """Return the canonical JSON of a value as ASCII bytes."""
    fast = _fast_bytes(value)
    if fast is not None:
        return fast
    return _standard(value).encode("ascii")


def written_alike(value: Any) -> bool:
    """Tell whether orjson's text of `value` is the standard library's (`_fast_bytes`'s checks pass).

    Then it is for every value made of the same parts (`plain_bytes`): a dict or
    list holding `value`'s own leaves and containers, dict and list copies of
    those containers and more strings of printable ASCII, keyed by `value`'s own
    keys or such strings. Every check of `_fast_bytes` is about what the text
    holds (types, integers, strings, floats, nulls), never about how it is
    arranged, and such a value holds nothing `value` does not but ASCII text.
    """
    return _fast_bytes(value) is not None


def plain_bytes(value: Any) -> bytes:
    """Return the canonical JSON of a value made of the parts of one `written_alike` says yes to, without checking it again.

    Only for what one function builds from a value it has just checked (an
    event's sealed and stored forms, in `domain.events.record`).
    """
    return orjson.dumps(value, option=_FAST_OPTIONS)


def _standard(value: Any) -> str:
    """Encode with the standard library, which defines the canonical form, and check the value."""
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


def _fast_bytes(value: Any) -> bytes | None:
    """Return orjson's text of a value when it is byte for byte `_standard`'s, else None.

    Why the bytes are the same (tests/domain/test_commitments.py tries each case):
    - Types: marshal writes only values of exactly the builtin types (no
      subclass, enum, UUID, dataclass, datetime, orjson.Fragment), and of those
      orjson 3.13 writes only None, bools, ints, floats, strs, lists, tuples and
      dicts with str keys (not bytes, sets, complex numbers). Without marshal
      orjson would write enums (by value), UUIDs and Fragments, which the
      standard library refuses or writes otherwise.
    - Integers: within ±(2**53 - 1) (`_FAST_OPTIONS`), so in range; alike.
    - Strings: ASCII is escaped alike (`"`, `\\`, \\b \\f \\n \\r \\t, other
      controls as lowercase \\u00XX, `/` as is) but for DEL, which orjson
      writes raw ("!" in the shape), as it does every non-ASCII character.
      orjson refuses lone surrogates. ASCII keys sort alike.
    - Floats: formatted otherwise from 1e-9 up to 1e-4 (1e-05 as 0.00001, 1e-07
      as 1e-7), so none is written here (",.," or ",..," in the shape). A
      number alone has nothing to its left in the shape: not written here.
    - null: None's, alike; but orjson writes NaN and ±Infinity as null too, so
      a text with null ("null" in the shape, or a string holding the letters)
      is written here only if marshal's stream holds no non-finite double.
    - Most values hold no float: marshal writes a float (version 4) as its
      type byte "g", or "g" | 0x80 when it numbers the object, and a stream
      with neither byte anywhere holds none. Then only the strings' bytes (no
      DEL, nothing beyond ASCII) and a bare number are checked, not the shape.
    - orjson refuses (TypeError) non-str keys, lone surrogates and nesting
      beyond 255 levels, cycles among them; marshal refuses (ValueError) what it
      cannot write and nesting beyond 2000 levels.
    """
    try:
        # First, so that orjson only ever meets the builtin types: it crashes the
        # process on an enum whose `value` raises (orjson 3.13).
        marshalled = marshal.dumps(value, 4)  # the version _NON_FINITE reads
        text = orjson.dumps(value, option=_FAST_OPTIONS)
    except (ValueError, TypeError):
        return None
    if _FLOAT not in marshalled and _FLOAT | _REF not in marshalled:
        # No float at all, so no NaN either: only the strings (and a bare number) are left to check.
        return text if text.isascii() and _DEL not in text and text[0] not in _BARE else None
    # Searched as str: `bytes in bytes` tries the needle as an int first, and
    # raising and clearing that TypeError costs more than the search.
    shape = text.translate(_SHAPE, _DIGITS).decode("ascii")
    if "!" in shape or ",.," in shape or ",..," in shape or text[0] in _BARE:
        return None
    # Most streams hold neither 0x7F nor 0xFF (memchr), so few need the search.
    if "null" in shape and (0x7F in marshalled or 0xFF in marshalled) and _NON_FINITE.search(marshalled):
        return None
    return text


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
