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


def plain_text(value: Any, max_length: int) -> bool:
    """Tell whether `value` is text `Text(max_length=...)` plainly accepts: printable, 1 to `max_length` characters.

    A fast check for hot paths; False says nothing (the field decides, with its own message).
    """
    # Printable strings hold no control character or surrogate (nor much else `Text` would take).
    return type(value) is str and 0 < len(value) <= max_length and value.isprintable()


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
