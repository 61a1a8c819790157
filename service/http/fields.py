"""Request fields every schema shares: bounded text without control characters, whole numbers that are not booleans."""

from __future__ import annotations

import unicodedata
from typing import Any

from marshmallow import ValidationError, fields, validate

from domain.action_forms import REFUSED_CHARACTERS


def _printable(value: str) -> None:
    # The characters no action may hold either (`domain.action_forms`): control characters and lone surrogates.
    if any(unicodedata.category(char) in REFUSED_CHARACTERS for char in value):
        raise ValidationError("control characters and lone surrogates are not allowed")


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
