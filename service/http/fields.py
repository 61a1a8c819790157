"""Request fields every schema shares: bounded text without control characters, whole numbers that are not booleans."""

from __future__ import annotations

import unicodedata
from typing import Any

from marshmallow import ValidationError, fields, validate

# Control characters (Cc) would let a name rewrite a terminal or a log line;
# lone surrogates (Cs) cannot be encoded, so they could never be stored.
_REFUSED = {"Cc", "Cs"}


def _printable(value: str) -> None:
    if any(unicodedata.category(char) in _REFUSED for char in value):
        raise ValidationError("control characters and lone surrogates are not allowed")


def is_text(value: Any, max_length: int) -> bool:
    """Tell whether `value` is what `Text(max_length=...)` accepts: a string of 1 to `max_length` characters, none Cc or Cs."""
    if type(value) is not str or not 0 < len(value) <= max_length:
        return False
    # Printable strings (nearly all) hold no control character or surrogate; the rest are read character by character.
    return value.isprintable() or not any(unicodedata.category(char) in _REFUSED for char in value)


class Text(fields.String):
    """A string of 1 to `max_length` characters, none of them a control character."""

    def __init__(self, *, max_length: int, **kwargs: Any) -> None:
        super().__init__(validate=[validate.Length(min=1, max=max_length), _printable], **kwargs)


class WholeNumber(fields.Integer):
    """An integer within bounds; `true` and `1.0` are not numbers here."""

    def __init__(self, *, minimum: int, maximum: int, **kwargs: Any) -> None:
        super().__init__(strict=True, validate=validate.Range(min=minimum, max=maximum), **kwargs)

    def _deserialize(self, value: Any, attr: str | None, data: Any, **kwargs: Any) -> Any:
        if isinstance(value, bool):
            raise self.make_error("invalid")
        return super()._deserialize(value, attr, data, **kwargs)
