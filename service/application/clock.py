"""The server's clock, as recorded in events."""

from __future__ import annotations

from datetime import UTC, datetime


def utc_now() -> str:
    """Return the server time as recorded in events."""
    return datetime.now(UTC).isoformat(timespec="milliseconds").replace("+00:00", "Z")
