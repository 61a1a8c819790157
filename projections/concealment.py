"""Hide from a viewer exactly what the game declares hidden from it (`Rules.hidden`, `domain.sealing`).

Every game's `redact` starts from `conceal`, so the values it may show are
those the same table commits to in the hash chain: the declaration is read
once for both.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

from domain.commitments import Hidden, hidden_values
from domain.events import Event

GONE: Any = object()  # a masked value that drops its key altogether (None in a list)


def _none(_: Any) -> Any:
    return None


def dropped(_: Any) -> Any:
    """Mask a value by dropping its key (for `conceal`)."""
    return GONE


def conceal(
    event: Event, seat: int | None, fields: tuple[Hidden, ...] | None, mask: Callable[[Any], Any] = _none
) -> Mapping[str, Any]:
    """Return the event's data with each declared value `seat` may not see replaced by `mask(value)`.

    An event type with nothing declared comes back as it is (not a copy).
    """
    if not fields:
        return event.data
    data = dict(event.data)
    for hidden in hidden_values("data", fields, event.data, event.actor):
        if seat is None or seat not in hidden.seers:
            _put(data, hidden.path.split(".")[1:], mask(hidden.value))
    return data


def _put(data: dict[str, Any], parts: list[str], masked: Any) -> None:
    # Copy each container on the way down: the event's own data is shared and frozen by convention.
    container: Any = data
    for part in parts[:-1]:
        key: Any = int(part) if isinstance(container, list) else part
        inner = container[key]
        inner = dict(inner) if isinstance(inner, Mapping) else list(inner)
        container[key] = inner
        container = inner
    last: Any = int(parts[-1]) if isinstance(container, list) else parts[-1]
    if masked is GONE and isinstance(container, dict):
        del container[last]
    else:
        container[last] = None if masked is GONE else masked
